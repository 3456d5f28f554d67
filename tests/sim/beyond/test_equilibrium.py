"""The equilibrium condition (C) of nbl_sim.beyond.equilibrium, checked numerically.

* Where (C) holds (reflection-symmetric laws, v* an eigenvector of Σ), ‖h(v*)‖ is at the
  quadrature/rounding error (≤ 10 × the model's own estimate, and that estimate ≤ 1e-12).
* Where it fails, ‖h(v*)‖ is ≥ 1e4 × its error and ≥ 1e-4, and the flow from v* ends at an
  attracting equilibrium at a nonzero measured angle.
* The closed forms of the derivation are checked against independent integrals written here:
  the Rademacher tie term, Stein's F(v*) = Σ(c₁θ + c₂v*) for N(0, Σ), the asymmetric-arms
  defect ½E[X_⊥(g(U + a_+|Z|) − g(U + a_−|Z|))].
"""

import math

import numpy as np
import pytest
from scipy import integrate

from nbl_sim.beyond.analysis import circle_H, field_model
from nbl_sim.beyond.arms import shifted_arms, symmetric_arms
from nbl_sim.beyond.case import analyze
from nbl_sim.beyond.contexts import GaussianLaw, covariance_2d, parse_context_spec
from nbl_sim.beyond.equilibrium import equilibrium_defect, symmetry_predicts
from nbl_theory.families import TWO_TRANSITION_DEFAULTS, make_family
from nbl_theory.paper import PAPER_LINKS, paper_link

P = {k: float(v) for k, v in TWO_TRANSITION_DEFAULTS.items()}


def _tt(key):
    mu2 = float(PAPER_LINKS[key].params["mu2"])

    def g(z):
        return (
            P["p0"]
            + P["a1"] * (1 + math.tanh(P["b1"] * (z - P["mu1"])))
            + P["a2"] * (1 + math.tanh(P["b2"] * (z - mu2)))
        )

    def g1(z):
        return (
            P["a1"] * P["b1"] / math.cosh(P["b1"] * (z - P["mu1"])) ** 2
            + P["a2"] * P["b2"] / math.cosh(P["b2"] * (z - mu2)) ** 2
        )

    return g, g1


HOLDS = [
    ("gaussian", "symmetric"),
    ("gaussian:cond=10,angle=0", "symmetric"),
    ("gaussian:cond=10,angle=90", "symmetric"),
    ("student-t:nu=3", "symmetric"),
    ("student-t:nu=4,cond=3,angle=90", "symmetric"),
    ("ball", "symmetric"),
    ("cube", "symmetric"),
    ("cube", "rotate=45"),
    ("rademacher", "symmetric"),
    ("ball", "rotate=33"),
]
FAILS = [
    ("gaussian:cond=5,angle=30", "symmetric"),
    ("student-t:nu=5,cond=3,angle=20", "symmetric"),
    ("cube", "rotate=22.5"),
    ("rademacher", "rotate=22.5"),
    ("rademacher", "rotate=45"),
    ("gaussian", "shift=0.2"),
]


def _setup(spec, arms_spec, key="tt-stable", delta="1"):
    from nbl_sim.beyond.arms import parse_arms_spec

    law = parse_context_spec(spec)
    arms = parse_arms_spec(arms_spec, paper_link(key), delta)
    return law, arms


@pytest.mark.parametrize("spec,arms_spec", HOLDS)
def test_condition_holds_at_quadrature_error(spec, arms_spec):
    law, arms = _setup(spec, arms_spec)
    model = field_model(law, arms)
    h, holds = equilibrium_defect(model, arms.v_star)
    assert holds
    assert np.linalg.norm(h.value) <= 10 * np.linalg.norm(h.error)
    assert np.linalg.norm(h.error) <= 1e-12
    assert symmetry_predicts(law, arms.v_star) is True


@pytest.mark.parametrize("spec,arms_spec", FAILS)
def test_condition_fails_with_a_measured_bias(spec, arms_spec):
    law, arms = _setup(spec, arms_spec)
    a = analyze(law, arms, n_grid=360)
    assert not a.vstar_equilibrium and a.vstar_decided
    assert a.defect >= 1e-4 and a.defect >= 1e4 * a.defect_error
    e = a.learned
    assert e.stability == "attracting" and e.decided
    assert abs(e.angle_deg) > 1.0
    assert e.residual <= 10 * e.residual_error + 1e-15
    if arms_spec == "symmetric":
        assert symmetry_predicts(law, arms.v_star) is False


def test_rademacher_diagonal_tie_term():
    """v* = (e₁ + e₂)/√2 in d = 2: the atoms (1, −1), (−1, 1) lie on the boundary and go to
    arm +1 (the tie rule of eq:Fdef); the atoms (±1, ±1) have X_⊥ = 0. So
    h(v*) = ¼[(1, −1)g(θᵀ(1, −1)) + (−1, 1)g(θᵀ(−1, 1))], projected (it is already ⊥ v*)."""
    key = "tt-unstable"
    g, _ = _tt(key)
    law, arms = _setup("rademacher", "rotate=45", key, "1")
    th = 0.5 * (arms.beta[0] + arms.beta[1])
    a, b = np.array([1.0, -1.0]), np.array([-1.0, 1.0])
    expected = 0.25 * (a * g(th @ a) + b * g(th @ b))
    h, holds = equilibrium_defect(field_model(law, arms), arms.v_star)
    assert not holds
    np.testing.assert_allclose(h.value, expected, rtol=0, atol=2e-16)
    assert law.family == "rademacher" and symmetry_predicts(law, arms.v_star) is False


@pytest.mark.parametrize(
    "cond,angle,delta",
    [
        (5, 30, 0.2),
        (10, 0, 1.0),
        pytest.param(3, 70, 1.0, marks=pytest.mark.slow),
        pytest.param(5, 30, 1.0, marks=pytest.mark.slow),
        pytest.param(10, 0, 0.2, marks=pytest.mark.slow),
        pytest.param(3, 70, 0.2, marks=pytest.mark.slow),
    ],
)
def test_gaussian_stein_decomposition(cond, angle, delta):
    """F(v*) = Σ(c₁θ + c₂v*) for X ~ N(0, Σ) with c₁ = E[g'(U + Δ|Z|/2)s(Z)] and
    c₂ = (Δ/2)E[g'(U + Δ|Z|/2)] + 2p_Z(0)E[g(U)|Z = 0] (U = θᵀX, Z = v*ᵀX), the moments by
    nested adaptive quadrature over (Z, U | Z) here; c₁ = 0 when v* is an eigenvector."""
    key = "tt-stable"
    g, g1 = _tt(key)
    sigma = covariance_2d(cond, angle)
    arms = symmetric_arms(paper_link(key), delta)
    vs, th = arms.v_star, 0.5 * (arms.beta[0] + arms.beta[1])
    vzz, vuu, vzu = vs @ sigma @ vs, th @ sigma @ th, th @ sigma @ vs
    sz = math.sqrt(vzz)
    slope, su = vzu / vzz, math.sqrt(vuu - vzu**2 / vzz)  # U | Z = z ~ N(slope z, su²)

    def expect(f):
        def inner(z):
            return integrate.quad(
                lambda e: f(slope * z + su * e, z) * math.exp(-e * e / 2),
                -12,
                12,
                epsabs=1e-13,
                epsrel=1e-13,
            )[0] / math.sqrt(2 * math.pi)

        tot = 0.0
        for lo, hi in ((-12 * sz, 0.0), (0.0, 12 * sz)):
            tot += integrate.quad(
                lambda z: inner(z) * math.exp(-z * z / (2 * vzz)) / (math.sqrt(2 * math.pi) * sz),
                lo,
                hi,
                epsabs=1e-13,
                epsrel=1e-13,
            )[0]
        return tot

    c1 = expect(lambda u, z: g1(u + delta / 2 * abs(z)) * (1.0 if z >= 0 else -1.0))
    # E[g(U) | Z = 0], U | Z = 0 ~ N(0, su²)
    gu0 = integrate.quad(
        lambda e: g(su * e) * math.exp(-e * e / 2) / math.sqrt(2 * math.pi),
        -12,
        12,
        epsabs=1e-13,
        epsrel=1e-13,
    )[0]
    c2 = (
        delta / 2 * expect(lambda u, z: g1(u + delta / 2 * abs(z)))
        + 2 / (math.sqrt(2 * math.pi) * sz) * gu0
    )
    model = field_model(GaussianLaw(2, sigma), arms)
    f = model.field(vs[None]).value[0]
    # nested quad at 1e-13 per level: 1e-10 leaves room for the propagation through Σ
    np.testing.assert_allclose(f, sigma @ (c1 * th + c2 * vs), rtol=0, atol=1e-10)
    if angle == 0:
        assert abs(c1) <= 1e-12


def test_asymmetric_arms_defect_closed_form():
    """Isotropic N(0, I₂), β_± = θ + (Δ/2 ± c)v*: h(v*) = ½E[X_⊥(g(U + a_+|Z|) −
    g(U + a_−|Z|))] with X_⊥ = Yθ̂, U = ‖θ‖Y, Y, Z independent N(0, 1) — dblquad here."""
    key = "tt-near-critical"
    g, _ = _tt(key)
    delta, c = 0.2, 0.05
    arms = shifted_arms(paper_link(key), "0.2", c)
    ap, am = delta / 2 + c, delta / 2 - c
    tn = math.sqrt(1 - delta**2 / 4)

    def f(y, z):
        return (
            y
            * (g(tn * y + ap * abs(z)) - g(tn * y + am * abs(z)))
            * math.exp(-(y * y + z * z) / 2)
            / (2 * math.pi)
        )

    val = 0.0
    for zlo, zhi in ((-12, 0), (0, 12)):
        val += integrate.dblquad(f, zlo, zhi, -12, 12, epsabs=1e-13, epsrel=1e-12)[0]
    h, holds = equilibrium_defect(field_model(GaussianLaw(2), arms), arms.v_star)
    assert not holds
    np.testing.assert_allclose(h.value, [0.0, 0.5 * val], rtol=0, atol=1e-11)


@pytest.mark.parametrize(
    "key,delta",
    [
        ("tt-near-critical", "0.2"),
        ("logistic", "1"),
        *[
            pytest.param(k, d, marks=pytest.mark.slow)
            for k in ("tt-stable", "tt-near-critical", "tt-unstable", "logistic")
            for d in ("0.2", "1")
            if (k, d) not in (("tt-near-critical", "0.2"), ("logistic", "1"))
        ],
    ],
)
def test_eigenvector_is_also_necessary_on_this_grid(key, delta):
    """For N(0, Σ) in d = 2 the condition is σ_uz c₂ + σ_uu c₁‖θ‖ = 0; it holds at σ_uz = 0
    (v* an eigenvector) and could in principle hold elsewhere by cancellation. On this grid it
    does not: the θ-component of h(v*) keeps one sign for major-axis angles in (0°, 90°) and is
    far above the quadrature error (a finer scan, 1°-steps and cond up to 1000 for the paper's
    links, is in the report of issue 18)."""
    link = paper_link(key) if key in PAPER_LINKS else make_family(key)
    arms = symmetric_arms(link, delta)
    vals = []
    for cond in (1.5, 10):
        for angle in range(5, 90, 10):
            m = field_model(GaussianLaw(2, covariance_2d(cond, angle)), arms)
            h = circle_H(m, 0.0)
            assert abs(h.value[0]) > 1e3 * h.error[0]
            vals.append(h.value[0])
    assert len(set(np.sign(vals))) == 1
