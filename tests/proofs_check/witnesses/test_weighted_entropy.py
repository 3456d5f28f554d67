"""Tests of proofs_check.witnesses.weighted_entropy: phi_rho from the paper's definition in sympy,
its derivatives, the Taylor inversion for g_rho, the structural substitutions for m in (0, 1)
and |rho| < 1, and the parsing of printed formulas."""

import math

import sympy as sp

from proofs_check.witnesses import weighted_entropy as we


def test_potential_is_the_printed_definition_numerically():
    rho, m = 0.6, 0.3
    want = (
        (1 + rho) * m * math.log(m)
        + (1 - rho) * (1 - m) * math.log(1 - m)
        - 2 * rho * (1 - math.log(2)) * m
    )
    assert abs(float(we.potential().subs({we.RHO: rho, we.M: m})) - want) < 1e-15


def test_derivatives_at_half():
    assert (
        we.at_half(1) == 0 and we.at_half(2) == 4 and sp.simplify(we.at_half(3) + 8 * we.RHO) == 0
    )


def test_link_taylor_matches_numeric_inversion():
    """g(0), g'(0), g''(0) from the series inversion against finite differences of the numeric
    inverse of phi_rho' at rho = 0.6 (bisection; step 1e-3, error ~1e-6)."""
    g0, g1, g2 = we.link_taylor()
    rho = 0.6
    d1 = sp.lambdify(we.M, we.derivative(1).subs(we.RHO, rho))

    def g(z):
        lo, hi = 1e-12, 1 - 1e-12
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if d1(mid) < z else (lo, mid)
        return 0.5 * (lo + hi)

    h = 1e-3
    assert abs(g(0.0) - float(g0)) < 1e-12
    assert abs((g(h) - g(-h)) / (2 * h) - float(g1)) < 1e-6
    assert abs((g(h) - 2 * g(0.0) + g(-h)) / h**2 - float(g2.subs(we.RHO, rho))) < 1e-5


def test_structural_substitutions_decide_convexity_and_limits():
    assert we.strictly_convex(1) is True
    assert we.strictly_convex(sp.Rational(3, 2)) is False  # rho > 1: phi'' < 0 near m = 1
    assert we.dual_limits(1) == (-sp.oo, sp.oo)
    assert we.dual_limits(2) != (-sp.oo, sp.oo)


def test_logistic_case_and_affine_invariance():
    assert sp.simplify(we.logistic_case() - sp.exp(we.Z) / (1 + sp.exp(we.Z))) == 0
    assert we.affine_invariance_gap() == 0
    assert we.affine_invariance_gap(we.M**2) != 0


def test_parse_same_and_implicit_equation():
    printed = we.parse("(1+rho)/m + (1-rho)/(1-m)")
    assert we.same(we.derivative(2), printed)
    assert not we.same(we.derivative(2), we.parse("(1+rho)/m + (1+rho)/(1-m)"))
    lhs, rhs = we.parse("g**(1+rho)/(1-g)**(1-rho)"), we.parse("exp(z)/2**(2*rho)")
    assert we.implicit_equation_gap(lhs, rhs) == 0
    assert we.implicit_equation_gap(lhs, we.parse("exp(z)/2**rho")) != 0
