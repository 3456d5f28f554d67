"""Tests of proofs_check.witnesses.toolkit_values (the cached toolkit values) and potentials."""

import math

import pytest
from scipy import integrate

from nbl_sim.engine.environment import Environment
from nbl_sim.population import fields as pop
from nbl_sim.studies import rate_theory as rt
from nbl_theory.paper import paper_link
from nbl_theory.self_concordance import self_concordance_constant
from nbl_theory.stability import stability
from proofs_check.witnesses import potentials, toolkit_values


def test_cached_values_are_the_toolkit_values():
    link = paper_link("tt-stable")
    assert toolkit_values.certified_at("tt-stable", "1") is toolkit_values.certified_at(
        "tt-stable", "1"
    )
    vals = toolkit_values.float_values(link, "0.2")
    assert vals["lambda_star"] == float(stability(link, "0.2").values["lambda_star"])
    assert toolkit_values.field_scale(link) >= 1.0
    m = toolkit_values.mp_at("tt-stable", "0.2", 30)
    assert abs(float(m.values["lambda_star"]) - vals["lambda_star"]) < 1e-14


def test_mu_g_against_adaptive_quadrature():
    # mu_g = E g'(Z) for the logistic link
    ref = integrate.quad(
        lambda z: (
            math.exp(-z) / (1 + math.exp(-z)) ** 2 * math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
        ),
        -40,
        40,
        epsabs=1e-15,
    )[0]
    assert toolkit_values.mu_g(paper_link("logistic")) == pytest.approx(ref, rel=1e-12)


def test_elicitation_potentials():
    pots = potentials.elicitation_potentials()
    assert "generic phi" in pots and "weighted entropy (symbolic rho)" in pots
    assert set(potentials.BREGMAN_ROWS) <= set(pots)
    assert "generic phi" not in potentials.elicitation_potentials(generic=False)


def test_parameter_roots_are_cached_and_bracket_the_unstable_mu2_interval():
    """A 40-point float64 scan of mu2 in [-4, 4] at Delta = 0.2 finds the two sign changes of
    lambda*; Brent's roots agree with the certified ones of the claim
    tt-instability-intermediate-mu2 (0.576800206698..., 2.143283503230...) to 1e-9."""
    res = toolkit_values.parameter_roots("two-transition", "mu2", "0.2", certify=False, grid=40)
    assert res is toolkit_values.parameter_roots(
        "two-transition", "mu2", "0.2", certify=False, grid=40
    )
    roots = [float(r.value) for r in res.roots]
    assert len(roots) == 2
    assert abs(roots[0] - 0.576800206698) < 1e-9 and abs(roots[1] - 2.143283503231) < 1e-9


def test_self_concordance_R_is_the_library_constant():
    R = self_concordance_constant(paper_link("we-0.60")).R
    assert toolkit_values.self_concordance_R("we-0.60") == R
    assert toolkit_values.self_concordance_R("we-0.60", 0.5) == 0.5 * R


def test_population_drift_is_the_library_field():
    env = Environment.build(paper_link("logistic"), "1", 2)
    v = env.initial_direction(20.0)
    assert toolkit_values.population_drift(env, v) == float(
        (v - env.v_star) @ pop.tangent_field(env.link, env.beta, v)
    )


def test_two_gamma_kappa_is_the_library_rate():
    k = rt.local_rates(paper_link("tt-stable"), "1", 2)["kappa_theta"]
    assert toolkit_values.two_gamma_kappa("tt-stable", "1", 10.0) == 2 * 10.0 * k
