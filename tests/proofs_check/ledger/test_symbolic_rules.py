"""The symbolic method's rules for Max and Min (proofs_check.ledger.methods): an expression
affine in a Max/Min of real arguments is nonnegative when it is at every argument, or (a Max
with a nonnegative coefficient, a Min with a nonpositive one) at one argument. Each rule is
shown proving what is true, and not proving what a numeric point refutes."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs_check.ledger.methods import check
from proofs_check.ledger.store import Transcription

_SYM = {
    "A": "positive",
    "K": "positive",
    "d": "positive",
    "s": "nonnegative",
    "a": "real",
    "b": "real",
}


def _t(lhs: str, rhs: str) -> Transcription:
    return Transcription(
        id="test:x/b01/s01", hash="0" * 12, method="symbolic", symbols=dict(_SYM), lhs=lhs, rhs=rhs
    )


@pytest.mark.parametrize(
    "lhs, rhs",
    [
        ("Max(A*d - s, K*d)", "Max(A, K)*d"),  # prop:localized-estimation b06: C <= C_e d
        ("A", "Max(A, K)"),
        ("Min(A, K)", "K"),
        ("Min(a, b) + Min(A, K)", "Max(a, b) + Max(A, K)"),
    ],
)
def test_max_min_rules_prove_true_inequalities(lhs, rhs):
    v = check(_t(lhs, rhs), "<=")
    assert v.holds is True, v.detail


@pytest.mark.parametrize(
    "lhs, rhs, point",
    [
        # false in general: a counterexample point (checked below) for each
        ("Max(A*d + s, K*d)", "Max(A, K)*d", {"A": 1, "K": 1, "d": 1, "s": 1}),
        ("Max(a, b)", "a", {"a": 0, "b": 1}),
        ("K", "Min(A, K)", {"A": 1, "K": 2}),
        ("Max(A, K)*d", "Max(A*d - s, K*d)", {"A": 2, "K": 1, "d": 1, "s": 1}),
        ("a + b", "Max(a, b)", {"a": 1, "b": 1}),
    ],
)
def test_max_min_rules_do_not_prove_false_inequalities(lhs, rhs, point):
    ns = {k: sp.Integer(v) for k, v in point.items()}
    env = {"Max": sp.Max, "Min": sp.Min, **ns}
    assert sp.sympify(lhs, locals=env) > sp.sympify(rhs, locals=env)  # lhs <= rhs fails
    v = check(_t(lhs, rhs), "<=")
    assert v.holds is not True, v.detail
