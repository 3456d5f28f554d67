"""Tests of proofs_check.witnesses.lambda_star: λ* from its definition (2-D μ*, 1-D m2, written-out
links), the witness's own roots, against reference values produced outside the toolkit."""

import pytest

from proofs_check.witnesses import lambda_star as wl


def test_lambda_at_rho_072_is_the_referees_value():
    # Issue 34: a referee recomputed lambda*(rho = 0.72, Delta = 0.2) = 2.07553526219e-5 by a
    # separate mpmath 2-D quadrature of the definition (not this code, not the library).
    assert wl.lambda_star("we-0.72", "0.2") == pytest.approx(2.07553526219e-5, rel=0, abs=1e-16)


def test_critical_separation_is_the_referees_value():
    # Issue 34: Delta_c = 0.5104267 (7 figures) for mu2 = 1.244122 by scipy dblquad and
    # bisection (the referee's own code).
    ((root, crossing),) = wl.delta_roots("tt-unstable")
    assert crossing == "unstable->stable" and root == pytest.approx(0.5104267, abs=5e-8)


@pytest.mark.parametrize(
    "family, value, delta",
    [
        ("two-transition", 1.244122, 0.2),
        ("two-transition", 2.144072, 0.01),
        ("weighted-entropy", 0.8, 0.2),
        ("weighted-entropy", 0.6, 1.9),
    ],
)
def test_the_quadrature_has_converged(family, value, delta):
    # 16 panels (the default) against 48: the moments agree to ~1e-15 (measured <= 5e-16)
    mu, m2 = wl.moments(family, value, delta)
    mu48, m2_48 = wl.moments(family, value, delta, panels=48)
    assert abs(mu - mu48) < 2e-15 and abs(m2 - m2_48) < 2e-15


def test_lambda_is_the_printed_formula_of_the_moments():
    # lambda* = Delta mu* - 2 phi0(0) (m2)+ (1 - Delta^2/4), phi0(0) = 0.3989422804014327
    mu, m2 = wl.moments("two-transition", 1.244122, 0.2)
    assert m2 > 0
    want = 0.2 * mu - 2 * 0.3989422804014327 * m2 * (1 - 0.01)
    assert wl.lambda_of("two-transition", 1.244122, 0.2) == pytest.approx(want, abs=1e-17)
    mu, m2 = wl.moments("two-transition", -1.074037, 0.2)
    assert m2 < 0 and wl.lambda_of("two-transition", -1.074037, 0.2) == pytest.approx(0.2 * mu)


def test_sign_changes_and_parameter_solving():
    # x^2 - 1/4 > 0 ("stable") outside [-1/2, 1/2]; the roots on and off the grid
    for grid in (9, 10):
        got = wl.sign_changes(lambda x: x * x - 0.25, -1, 1, grid)
        assert [c for _, c in got] == ["stable->unstable", "unstable->stable"]
        assert [r for r, _ in got] == pytest.approx([-0.5, 0.5], abs=1e-11)
    at, slope = wl.parameter_for_lambda("weighted-entropy", 0.2, 2.15e-5, 0.72, 0.01)
    assert 0.71 < at < 0.72 and slope < 0
    assert wl.lambda_of("weighted-entropy", at, 0.2) == pytest.approx(2.15e-5, abs=1e-13)
