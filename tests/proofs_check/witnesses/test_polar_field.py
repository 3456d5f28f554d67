"""Tests of proofs_check.witnesses.polar_field: the witness's own population field by 2-D polar
quadrature agrees with the library's (a different reduction) and notices a wrong field."""

import math

import numpy as np
import pytest

from nbl_sim.engine.environment import Environment
from nbl_sim.population import fields as pop
from nbl_theory.paper import PAPER_LINKS, paper_link
from nbl_theory.stability import stability
from proofs_check.witnesses import polar_field as pf

KEYS = ("tt-stable", "tt-unstable", "we-0.72", "logistic")


@pytest.mark.parametrize("key", KEYS)
def test_k_interpolation_error_is_measured_small(key):
    assert pf.k_error(paper_link(key)) < 1e-13


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("delta", ["0.2", "1"])
def test_own_H_agrees_with_the_library_on_the_whole_circle(key, delta):
    """Measured: max |own - library| ~4e-16 on 2001 angles for the paper's links."""
    link = paper_link(key)
    a = np.linspace(-math.pi, math.pi, 2001)
    assert np.abs(pf.own_H(link, delta, a) - pop.H_alpha(link, delta, a)).max() < 1e-13
    assert pf.own_dH(link, delta, 0.0) == pytest.approx(
        pop.H_alpha_derivative(link, delta, 0.0), abs=1e-10
    )


def test_own_H_notices_a_wrong_separation_and_is_odd():
    link = PAPER_LINKS["tt-stable"].link()
    a = np.linspace(0.1, 3.0, 50)
    assert np.abs(pf.own_H(link, "0.2", a) - pop.H_alpha(link, "0.21", a)).max() > 1e-5
    np.testing.assert_allclose(pf.own_H(link, "0.2", -a), -pf.own_H(link, "0.2", a), atol=1e-15)
    assert abs(pf.own_H(link, "0.2", 0.0)) < 1e-15


def test_tangent_field_in_higher_dimension_agrees_with_the_library():
    link = paper_link("tt-unstable")
    env = Environment.build(link, "1", 4, v_star="random", theta_dir="random", geometry_seed=3)
    V = np.random.default_rng(1).standard_normal((60, 4))
    V /= np.linalg.norm(V, axis=1)[:, None]
    V[0] = env.beta[1]  # exactly along an arm: allowed here
    own = pf.polar_tangent_field(link, env.beta, V)
    assert np.abs(own - pop.tangent_field(link, env.beta, V)).max() < 1e-13
    assert np.abs((own * V).sum(1)).max() < 1e-15  # tangent


@pytest.mark.parametrize("key", KEYS)
def test_own_mu_g_is_stein_of_g(key):
    link = paper_link(key)
    assert pf.own_mu_g(link) == pytest.approx(float(stability(link, "1").values["mu_g"]), abs=1e-14)


def test_radial_drift_is_the_inner_product_with_the_tangent_field():
    env = Environment.build(paper_link("logistic"), "1", 2)
    v = env.initial_direction(20.0)
    h = pf.polar_tangent_field(env.link, env.beta, v)[0]
    assert pf.radial_drift(env.link, env.beta, v, env.v_star) == float((v - env.v_star) @ h)
    # restoring near v* (the logistic link is stable at Delta = 1): the drift is negative
    assert pf.radial_drift(env.link, env.beta, v, env.v_star) < 0
