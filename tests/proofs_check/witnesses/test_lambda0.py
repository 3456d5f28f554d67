"""Tests of proofs_check.witnesses.lambda0: the λ0(r0) minimisers and the local radius."""

import math

import numpy as np
import pytest

from nbl_sim.engine.environment import Environment
from nbl_sim.population import fields as pop
from nbl_sim.studies import regret_geometry as rg
from nbl_theory.families import make_family
from nbl_theory.links import Link
from nbl_theory.paper import paper_link
from nbl_theory.stability import stability
from proofs_check.witnesses import lambda0 as l0

LOGISTIC4 = Link.from_expression("1/(1 + exp(-4*z))", name="logistic4", bounded_derivatives=True)


def test_lambda0_is_a_lower_bound_of_the_ratio_and_tends_to_minus_dH0():
    lam = l0.lambda0_2d(LOGISTIC4, "1.5", 0.5)
    a0 = 2 * math.asin(0.25)
    al = np.linspace(-a0, a0, 301)
    al = al[al != 0]
    assert np.all(l0.ratio_2d(LOGISTIC4, "1.5", al) >= lam - 1e-12)
    small = l0.lambda0_2d(LOGISTIC4, "1.5", 1e-3)
    # the ratio at alpha ~ 1e-3 is -H'(0) + O(alpha^2): 1e-5 relative
    assert small == pytest.approx(-pop.H_alpha_derivative(LOGISTIC4, "1.5", 0.0), rel=1e-5)


def test_lambda0_matches_the_library_stability_radius():
    """nbl_sim.studies.regret_geometry.stability_radius solves lambda0(r0) = level for r0; at that radius
    the independent minimiser gives the level back, and a little beyond it less."""
    link = paper_link("tt-stable")
    r = rg.stability_radius(link, "0.2", frac=0.5)
    assert l0.lambda0_2d(link, "0.2", r["r0"]) == pytest.approx(r["level"], rel=1e-9)
    assert l0.lambda0_2d(link, "0.2", r["r0"] * 1.01) < r["level"]
    assert l0.lambda0_2d(link, "0.2", r["r0"] * 0.99) > r["level"]


def test_h_spline_matches_quadrature():
    assert l0.spline_error(LOGISTIC4, "1.5") < 1e-12


def test_lambda0_on_the_library_field_agrees_with_the_witness_field():
    lib = (pop.H_alpha, pop.H_alpha_derivative)
    assert l0.lambda0_2d(LOGISTIC4, "1.5", 0.5) == pytest.approx(
        l0.lambda0_2d(LOGISTIC4, "1.5", 0.5, lib), abs=1e-12
    )
    ap, am, _ = l0.local_radius(paper_link("tt-stable"), "0.2", 0.0138)
    bp, bm, _ = l0.local_radius(paper_link("tt-stable"), "0.2", 0.0138, field=lib)
    assert (ap, am) == pytest.approx((bp, bm), abs=1e-10)


def test_h_along_equals_the_tangent_field():
    env = Environment.build(LOGISTIC4, "1.5")
    a = np.random.default_rng(3).uniform(-math.pi, math.pi, 50)
    V = np.stack([np.cos(a), np.sin(a)], axis=1)
    np.testing.assert_allclose(
        l0.h_along(env, V), pop.tangent_field(LOGISTIC4, env.beta, V), atol=1e-12
    )


def test_lambda0_cap_small_radius_is_the_slowest_rate():
    """For r0 -> 0 the cap minimum tends to min(kappa_theta, Delta mu*) = lambda* (d = 3)."""
    link = make_family("logistic")
    env = Environment.build(link, "1", 3, v_star="random", theta_dir="random", geometry_seed=4)
    lam = float(stability(link, "1").values["lambda_star"])
    assert l0.lambda0_cap(env, 1e-3) == pytest.approx(lam, rel=1e-3)
    assert l0.lambda0_cap(env, 0.5) <= l0.lambda0_cap(env, 0.1) + 1e-12


def test_local_radius_logistic_is_ninety_degrees_by_symmetry():
    link = make_family("logistic")
    lam = float(stability(link, "1").values["lambda_star"])
    ap, am, small = l0.local_radius(link, "1", lam)
    assert math.degrees(ap) == pytest.approx(90.0, abs=1e-6)
    assert math.degrees(am) == pytest.approx(90.0, abs=1e-6)
    assert max(small) < 0


def test_local_radius_is_zero_for_an_unstable_link():
    link = make_family("two-transition", mu2="1.244122")
    lam = float(stability(link, "0.2").values["lambda_star"])
    assert lam < 0
    ap, am, small = l0.local_radius(link, "0.2", lam)
    assert ap == am == 0.0 and min(small) > 0
