"""Isotropic Gaussian contexts with the paper's arms: every new computation of nbl_sim.beyond
reproduces nbl_sim.population.fields and nbl_theory.stability.

Tolerances. nbl_sim.population.fields documents |error| ≤ 1e-10·max(1, S) and measures ≤ 5e-16
against nested adaptive quadrature; the polar rule and the 1-D reductions here carry
two-resolution error estimates of ≈ 1e-15 (expression links) and ≈ 2e-14 (potential links,
whose table error is ≤ 5e-15 and is counted three times). The comparisons use 1e-12 —
about 50× the larger estimate, far below every quantity compared (the smallest, λ* of
we-0.72 at Δ = 0.2, is 2.1e-5) — and, where a library error estimate exists, also check
that the difference is within it plus the reference's own 1e-13 budget.
"""

import math

import numpy as np
import pytest

from nbl_sim.beyond.analysis import (
    circle_dH,
    circle_equilibria,
    circle_H,
    field_model,
    jacobian_spectrum,
)
from nbl_sim.beyond.arms import symmetric_arms
from nbl_sim.beyond.case import analyze
from nbl_sim.beyond.contexts import GaussianLaw
from nbl_sim.beyond.gaussian_field import GaussianField
from nbl_sim.beyond.polar import PolarField
from nbl_sim.population import fields as pop
from nbl_theory.numeric import PHI0
from nbl_theory.paper import PAPER_LINKS, paper_link
from nbl_theory.stability import stability

try:  # the circle scan moved from nbl_sim.population.fields to nbl_sim.population.circle
    from nbl_sim.population.circle import circle_equilibria as reference_circle_equilibria
except ImportError:  # pragma: no cover - older layout
    reference_circle_equilibria = pop.circle_equilibria

TOL = 1e-12
KEYS = list(PAPER_LINKS)
DELTAS = ["0.2", "1"]
ALPHA = np.linspace(-math.pi, math.pi, 25)
V2 = np.stack([np.cos(ALPHA), np.sin(ALPHA)], axis=1)


FAST = [("tt-stable", "0.2"), ("tt-unstable", "1"), ("we-0.72", "0.2")]
REST = [(k, d) for k in KEYS for d in DELTAS if (k, d) not in FAST]


@pytest.mark.parametrize(
    "key,delta", FAST + [pytest.param(k, d, marks=pytest.mark.slow) for k, d in REST]
)
def test_polar_field_and_circle_functions(key, delta):
    link = paper_link(key)
    arms = symmetric_arms(link, delta)
    model = PolarField("gaussian", arms)
    f = model.field(V2)
    ref = pop.population_field(link, arms.beta, V2)
    assert np.max(np.abs(f.value - ref)) <= TOL
    assert np.all(np.abs(f.value - ref) <= f.error + 1e-13)
    np.testing.assert_allclose(
        circle_H(model, ALPHA).value, pop.H_alpha(link, delta, ALPHA), rtol=0, atol=TOL
    )
    a5 = ALPHA[::6]
    np.testing.assert_allclose(
        circle_dH(model, a5).value, pop.H_alpha_derivative(link, delta, a5), rtol=0, atol=TOL
    )


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("delta", DELTAS)
def test_kappa_and_d2_rate_match_the_theory_core(key, delta):
    """κ = v*ᵀF(v*) = κ* (eq:app-kappa-identity) and the tangent eigenvalue of Dh(v*) in d = 2
    is −(Δμ* − 2φ₀(0)m₂(1 − Δ²/4)) (prop:local_jacobian along θ)."""
    link = paper_link(key)
    arms = symmetric_arms(link, delta)
    model = PolarField("gaussian", arms)
    res = stability(link, delta, auto_raise=False)
    vs = arms.v_star
    kappa = float(vs @ model.field(vs[None]).value[0])
    assert abs(kappa - float(res.values["kappa_star"])) <= TOL
    eig, err = jacobian_spectrum(model, vs)
    assert abs(eig[0] + float(res.jacobian_rates["contraction_rate_d2"])) <= TOL
    assert err <= 1e-13


@pytest.mark.parametrize("key", ["tt-stable", "tt-unstable", "we-0.72"])
def test_gaussian_reduction_in_d3_reproduces_eq_jacobian(key):
    """d = 3: the tangent spectrum of P B P − κP at v* is {−Δμ*, −(Δμ* − 2φ₀m₂‖θ‖²)}, its
    largest eigenvalue is −λ* when m₂ ≥ 0 (the rate_d3plus of the theory core), and the whole
    matrix is nbl_sim.population.fields.jacobian_formula."""
    link = paper_link(key)
    delta = "0.2"
    arms = symmetric_arms(link, delta, d=3)
    model = GaussianField(arms)
    vs = arms.v_star
    res = stability(link, delta, auto_raise=False)
    mu, m2 = float(res.values["mu_star"]), float(res.values["m2"])
    expected = sorted([-0.2 * mu, -(0.2 * mu - 2 * PHI0 * m2 * (1 - 0.01))])
    eig, _ = jacobian_spectrum(model, vs)
    np.testing.assert_allclose(eig, expected, rtol=0, atol=TOL)
    assert abs(-eig[-1] - float(res.jacobian_rates["contraction_rate_d3plus"])) <= TOL
    b = model.boundary(vs[None]).value[0]
    kappa = float(vs @ model.field(vs[None]).value[0])
    p = np.eye(3) - np.outer(vs, vs)
    np.testing.assert_allclose(
        p @ b @ p - kappa * p, pop.jacobian_formula(link, delta, d=3), rtol=0, atol=TOL
    )
    rng = np.random.default_rng(0)
    v = rng.normal(size=(6, 3))
    v /= np.linalg.norm(v, axis=1)[:, None]
    np.testing.assert_allclose(
        model.field(v).value, pop.population_field(link, arms.beta, v), rtol=0, atol=TOL
    )


def test_gaussian_reduction_and_polar_agree_in_d2():
    link = paper_link("tt-near-critical")
    arms = symmetric_arms(link, "1")
    a, b = GaussianField(arms), PolarField("gaussian", arms)
    for name in ("field", "boundary", "reward"):
        ea, eb = getattr(a, name)(V2), getattr(b, name)(V2)
        np.testing.assert_allclose(ea.value, eb.value, rtol=0, atol=TOL)
    assert abs(a.optimal_reward().value - b.optimal_reward().value) <= TOL


@pytest.mark.parametrize("key", ["tt-stable", "tt-near-critical", "tt-unstable", "we-0.80"])
def test_circle_equilibria_match_population(key):
    link = paper_link(key)
    arms = symmetric_arms(link, "0.2")
    mine = circle_equilibria(field_model(GaussianLaw(2), arms), n_grid=720)
    ref = reference_circle_equilibria(link, "0.2", n_grid=720)
    assert len(mine) == len(ref)
    for e in mine:
        dist = [
            min(abs(e.angle_deg - r.degrees) % 360, 360 - abs(e.angle_deg - r.degrees) % 360)
            for r in ref
        ]
        r = ref[int(np.argmin(dist))]
        # both refine with brentq at xtol 1e-13 rad; the two quadratures differ by ≤ 1e-14 in
        # H, which moves a root by ≤ 1e-14/|H'| rad (3.4e-10 rad for tt-near-critical, where
        # H'(0) = −2.9e-5), so the bound is max(1e-9°, that in degrees)
        tol = max(1e-9, math.degrees(1e-14 / abs(r.dH)))
        assert min(dist) <= tol
        assert e.stability == r.stability


def test_analyze_isotropic_unstable_link_learns_the_population_equilibrium():
    """tt-unstable at Δ = 0.2: v* is an equilibrium that repels (λ* < 0); the learned boundary
    is the nearest attracting zero of H, ±73.2056…° (nbl_sim.population.circle.circle_equilibria),
    and its regret per round is the regret of that boundary."""
    link = paper_link("tt-unstable")
    a = analyze(GaussianLaw(2), symmetric_arms(link, "0.2"))
    assert a.vstar_equilibrium and a.vstar_stability == "repelling" and a.vstar_decided
    assert a.gaussian["lambda_star"] < 0
    ref = [
        e.degrees
        for e in reference_circle_equilibria(link, "0.2", n_grid=720)
        if e.stability == "attracting"
    ]
    assert min(abs(abs(a.learned.angle_deg) - abs(r)) for r in ref) <= 1e-9
    assert abs(a.learned.angle_deg + a.learned_other_side.angle_deg) <= 1e-9  # mirror pair
    assert a.learned.regret > 0 and a.learned.regret > 100 * a.learned.regret_error
    assert a.best_linear_regret <= 1e-14 and abs(a.best_linear_angle_deg) < 1e-4
    import json

    d = json.loads(json.dumps(a.to_dict()))
    assert d["bias_deg"] == a.learned.angle_deg and d["vstar_rate"] == a.vstar_rate


def test_analyze_isotropic_stable_link():
    a = analyze(GaussianLaw(2), symmetric_arms(paper_link("we-0.60"), "0.2"))
    assert a.vstar_equilibrium and a.vstar_stability == "attracting"
    assert a.learned.angle_deg == 0.0 and abs(a.learned.regret) <= 1e-14
    assert abs(a.vstar_rate - a.gaussian["rate_d"]) <= TOL
