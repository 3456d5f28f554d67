"""Links: constructors, families, exact derivatives from potentials, validation errors."""

import math

import numpy as np
import pytest
import sympy as sp
from numpy.testing import assert_allclose

from nbl_theory import Link, NBLInputError
from nbl_theory.errors import DivergentIntegralError
from nbl_theory.families import FAMILIES, TWO_TRANSITION_DEFAULTS, make_family
from nbl_theory.links import M, Z


def test_two_transition_defaults_match_paper():
    # eq:link_tanh and app:tanh-geometry: p0=0.10, a1=0.10, a2=0.25, b1=2, b2=1.4, mu1=-1.25
    link = make_family("two-transition", mu2="1.244122")
    p = link.params
    assert (p["p0"], p["a1"], p["a2"], p["b1"], p["b2"], p["mu1"]) == (
        sp.Rational(1, 10), sp.Rational(1, 10), sp.Rational(1, 4), 2, sp.Rational(7, 5),
        sp.Rational(-5, 4))
    assert p["mu2"] == sp.Rational(1244122, 10**6)
    expected = (sp.Rational(1, 10) + sp.Rational(1, 10) * (1 + sp.tanh(2 * (Z + sp.Rational(5, 4))))
                + sp.Rational(1, 4) * (1 + sp.tanh(sp.Rational(7, 5) * (Z - p["mu2"]))))
    assert sp.simplify(link.expr - expected) == 0
    assert set(TWO_TRANSITION_DEFAULTS) == set(p)


def test_every_default_is_overridable():
    link = make_family("two-transition", p0="0", a1="0.2", b2="3", mu2="0")
    assert link.params["a1"] == sp.Rational(1, 5) and link.params["b2"] == 3


def test_potential_derivatives_follow_paper_formulas():
    # sec:decision_stability_geometry: g' = 1/phi''(m), g'' = -phi'''(m)/phi''(m)^3
    link = make_family("binary-negative-entropy")
    d = link.derivatives
    assert sp.simplify(d["g1_m"] - M * (1 - M)) == 0
    assert sp.simplify(d["g2_m"] - M * (1 - M) * (1 - 2 * M)) == 0  # logistic: g'' = g'(1 - 2g)


@pytest.mark.parametrize("z0", [-30.0, -3.0, -0.5, 0.0, 0.7, 4.0, 25.0])
def test_binary_entropy_equals_logistic_numerically(z0):
    """tab:app_bregman_examples row 4: g = e^z/(1+e^z). Bisection inversion of phi' is accurate
    to ~1e-16 absolute in m (80 halvings of the chart interval), hence rtol 1e-12 and, where the
    value itself is 0 (g''(0)), atol 1e-15."""
    pot = make_family("binary-negative-entropy")
    logistic = make_family("logistic")
    for order in (0, 1, 2):
        assert_allclose(pot.derivative_numpy(np.array([z0]), order),
                        logistic.derivative_numpy(np.array([z0]), order), rtol=1e-12, atol=1e-15)


def test_negative_entropy_is_exp_and_quadratic_is_identity():
    z = np.linspace(-5, 5, 11)
    assert_allclose(make_family("negative-entropy").derivative_numpy(z, 0), np.exp(z), rtol=1e-12)
    assert_allclose(make_family("quadratic").derivative_numpy(z, 0), z, rtol=1e-12, atol=1e-13)


def test_burg_entropy_rejected_for_dual_domain():
    with pytest.raises(NBLInputError, match="does not cover R.*eq:app_full_dual_domain"):
        make_family("burg-entropy")


@pytest.mark.parametrize("expr, fragment", [
    ("-z", "not strictly increasing"),
    ("z**2", "not strictly increasing"),
    ("sin(z)", "not strictly increasing"),
    ("3", "does not depend on z"),
    ("log(z)", "not finite"),
])
def test_non_monotone_links_rejected(expr, fragment):
    with pytest.raises(NBLInputError, match=fragment):
        Link.from_expression(expr)


def test_weakly_flat_but_strictly_increasing_link_accepted():
    Link.from_expression("z**3 + z")  # g' > 0
    Link.from_expression("z**3")      # g'(0) = 0 at a single point: still strictly increasing


def test_divergent_gaussian_integral_rejected():
    with pytest.raises(DivergentIntegralError, match="diverges"):
        Link.from_expression("z + sinh(z**3)")


@pytest.mark.parametrize("expr, domain, fragment", [
    ("m**3", "-1,1", "not strictly convex"),
    ("-m**2", "-inf,inf", "not strictly convex"),
    ("-log(m)", "0,inf", "does not cover R"),
    ("m**2/2", "0,1", "does not cover R"),
    ("m*log(m)", "0,1", "does not cover R"),
])
def test_bad_potentials_rejected(expr, domain, fragment):
    with pytest.raises(NBLInputError, match=fragment):
        Link.from_potential(expr, domain=domain)


@pytest.mark.parametrize("domain", ["1", "2,1", "a,b", (0,)])
def test_bad_domains(domain):
    with pytest.raises(NBLInputError):
        Link.from_potential("m*log(m)+(1-m)*log(1-m)", domain=domain)


@pytest.mark.parametrize("name, params, fragment", [
    ("weighted-entropy", {"rho": "1"}, "rho must lie in"),
    ("weighted-entropy", {"rho": "-1.5"}, "rho must lie in"),
    ("weighted-entropy", {"rho": "nan"}, "finite"),
    ("two-transition", {"a1": "-0.1"}, "a1 must be > 0"),
    ("two-transition", {"b2": "0"}, "b2 must be > 0"),
    ("two-transition", {"mu3": "1"}, "no parameter"),
    ("logistic", {"x": "1"}, "takes no parameters"),
    ("nope", {}, "unknown family"),
])
def test_family_parameter_errors(name, params, fragment):
    with pytest.raises(NBLInputError, match=fragment):
        make_family(name, **params)


def test_all_families_build_or_reject_cleanly():
    for name in FAMILIES:
        if name == "burg-entropy":
            continue
        link = make_family(name)
        assert link.family_name == name


@pytest.mark.parametrize("make", [
    lambda: Link.from_expression("exp(10*z)"),
    lambda: Link.from_potential("0.1*(m*log(m) - m)", domain="0,inf"),  # the same g = e^{10z}
])
def test_too_fast_growth_refused_by_both_constructors(make):
    """E e^{10Z} is finite, but its mass sits near z = 10: both constructors refuse it with the
    same message (found by the population-field tests: the potential form used to pass and the
    float64 tier then truncated its integrals)."""
    with pytest.raises(DivergentIntegralError, match="grows too fast"):
        make()


def test_fast_but_accepted_growth_is_integrated_correctly():
    """g = e^{5z}: μ_g = E g'(Z) = 5 e^{12.5} (closed form); the float64 window widens."""
    from nbl_theory.stability import stability

    r = stability(Link.from_expression("exp(5*z)"), "0.5")
    exact = 5 * math.exp(12.5)
    assert abs(r.values["mu_g"] - exact) <= max(r.errors["mu_g"], 1e-15 * exact)
    assert abs(r.values["mu_g"] - exact) <= 1e-12 * exact
