"""The ledger's default mutant (proofs_check.ledger.runner.mutant_of): a scalar equality's left
side is scaled and shifted; a Matrix equality has one entry shifted (shape-aware), never a
scalar added to a Matrix (which sympy rejects: a raise would be counted as a kill)."""

from __future__ import annotations

import sympy as sp

from proofs_check.ledger.expr import build
from proofs_check.ledger.parse import Step
from proofs_check.ledger.runner import check_step, mutant_of
from proofs_check.ledger.store import Transcription

_STEP = Step("test:x/b01/s01", "test:x", 1, 1, 1, "=", "=", "a", "b", "000000000000")
_VEC = Transcription(
    id=_STEP.id,
    hash=_STEP.hash,
    method="symbolic",
    symbols={"a": "real", "b": "real"},
    defs={"R": "Matrix([[cos(a), -sin(a)], [sin(a), cos(a)]])"},
    lhs="R*Matrix([b, 0])",
    rhs="Matrix([b*cos(a), b*sin(a)])",
)


def _side(t: Transcription):
    _ns, (lhs,) = build(dict(t.symbols), dict(t.defs), [t.lhs])
    return lhs


def test_matrix_mutant_perturbs_one_entry_only():
    assert check_step(_STEP, _VEC).status == "PASS"
    mt, rel, what = mutant_of(_VEC, _STEP)
    assert rel == "=" and what == "lhs[0, 0] + 1/7 (a 2x1 matrix)"
    before, after = _side(_VEC), _side(mt)
    assert after.shape == before.shape == (2, 1)
    delta = sp.simplify(after - before)
    assert delta[1, 0] == 0  # the other entry untouched
    assert delta[0, 0] == sp.Rational(1, 7)
    res = check_step(_STEP, mt, rel)
    assert res.status != "PASS"
    assert "raised" not in res.detail  # refuted, not a crash


def test_matrix_mutant_of_a_matrix_and_up_to_o_eps():
    t = _VEC.with_(
        symbols={"a": "real", "b": "real", "eps": "real"},
        lhs="Matrix([[a, b], [b, a]])*(1 + eps**2)",
        rhs="Matrix([[a, b], [b, a]])",
        modulo=("eps", 1),
    )
    assert check_step(_STEP, t).status == "PASS"
    mt, rel, what = mutant_of(t, _STEP)
    delta = sp.simplify(_side(mt) - _side(t))
    eps = sp.Symbol("eps", real=True)
    assert delta == sp.Matrix([[eps / 7, 0], [0, 0]]), what
    assert check_step(_STEP, mt, rel).status != "PASS"


def test_scalar_mutant_unchanged():
    t = _VEC.with_(defs={}, lhs="(a + b)**2", rhs="a**2 + 2*a*b + b**2")
    mt, rel, what = mutant_of(t, _STEP)
    assert (
        what == "lhs -> 8/7 lhs + 1/7" and mt.lhs == "((a + b)**2)*Rational(8, 7) + Rational(1, 7)"
    )
    assert check_step(_STEP, t).status == "PASS" and check_step(_STEP, mt, rel).status != "PASS"
