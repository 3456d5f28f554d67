"""The claims of sec:numerics (proofs_check.claims.numerics): every mutant of every claim is
killed, and the findings carry their consequence, figure and numbers.

Quick claims run here with their mutants (about 25 s of CPU on an idle machine); the slow
claims (the nesting of the unstable mu2-intervals, ~10 s, and the Greedy Logistic comparisons of
panels (g) and (h): ~1-2 minutes of CPU each with their mutants) are marked ``slow``.
"""

from __future__ import annotations

import pytest

from proofs_check.registry import CAVEAT, DISCREPANCY, REGISTRY

from .mutant_checks import assert_mutants_killed, module_claims

CLAIMS = module_claims("proofs_check.claims.numerics.")


def test_the_module_registers_its_claims():
    ids = {c.id for c in CLAIMS}
    assert {
        "numerics-instability-below-0.2",
        "logistic-comparison-rho",
        "logistic-comparison-two-transition",
        "we-phi-prime",
    } <= ids
    assert all(c.mutants for c in CLAIMS)
    # the certified critical separation is cheap: the finding is in the quick report
    assert REGISTRY.get("numerics-instability-below-0.2").quick


@pytest.mark.parametrize(
    "claim", [pytest.param(c, id=c.id, marks=() if c.quick else pytest.mark.slow) for c in CLAIMS]
)
def test_every_mutant_is_killed(claim):
    assert_mutants_killed(claim)


def test_critical_separation_finding():
    res = REGISTRY.run_one(REGISTRY.get("numerics-instability-below-0.2"))
    assert res.status == DISCREPANCY
    assert res.consequence == "experiment" and res.figure == "numerical-summary"
    assert "Delta < 0.5104 (certified root" in res.computed
    assert "tt-unstable 0.510426667952" in res.detail and "bracket [" in res.detail


@pytest.mark.slow
def test_panel_h_intercept_finding():
    """Without an intercept NBL is lower for two links (about -19 and -23 regret units), with
    one it is never significantly lower: the verdict depends on the unstated choice."""
    res = REGISTRY.run_one(REGISTRY.get("logistic-comparison-two-transition"))
    assert res.status == CAVEAT
    assert res.consequence == "experiment" and res.figure == "numerical-summary"
    assert "with intercept" in res.computed and "without intercept" in res.computed
