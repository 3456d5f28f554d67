"""Population geometry (nbl_sim.population.fields) against independent computations.

References used here, and how they are produced:

* polar nested quadrature: eq:Fdef and J evaluated in d = 2 straight from the definition, with
  X = r(cos ψ, sin ψ), density e^{−r²/2} r dr dψ / 2π; the half-planes {vᵀX ≥ 0} become exact
  ψ-limits, so nothing of the library's 1-D reduction (Φ/φ kernels, Stein, graded panels) is
  used. Both integrals are ``scipy.integrate.quad`` with epsabs ≤ 1e-13; g is coded directly
  from the formulas (two-transition eq:link_tanh, logistic) or inverted by ``brentq``
  (weighted-entropy φ_ρ), never through ``Link.g_numpy``;
* Monte Carlo with a fixed seed, bound 5 standard errors from the sample variance;
* closed forms for g = e^{kz} (Gaussian moment generating function);
* the theory core (``nbl_theory.stability``: μ*, m2, κ*) for prop:population_equilibrium and
  eq:Jacobian;
* finite differences (Richardson-extrapolated central differences) for ∇J = F and H'.
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import integrate, optimize
from scipy.special import expit, ndtr

from nbl_sim.population import fields as pop
from nbl_sim.population.circle import circle_equilibria
from nbl_theory.errors import NBLInputError
from nbl_theory.families import TWO_TRANSITION_DEFAULTS, make_family
from nbl_theory.links import Link
from nbl_theory.paper import PAPER_LINKS, TWO_TRANSITION_KEYS
from nbl_theory.stability import stability
from tests.sim.strategies import any_links, bernoulli_links, deltas, dims

PHI0 = 1 / math.sqrt(2 * math.pi)


# ------------------------------------------------------------------ independent references
def _two_transition_g(mu2):
    p = {k: float(v) for k, v in TWO_TRANSITION_DEFAULTS.items()}
    p["mu2"] = float(mu2)

    def g(z):
        return (
            p["p0"]
            + p["a1"] * (1 + math.tanh(p["b1"] * (z - p["mu1"])))
            + p["a2"] * (1 + math.tanh(p["b2"] * (z - p["mu2"])))
        )

    return g


def _weighted_entropy_g(rho):
    """g_ρ = (φ_ρ')⁻¹ by brentq in y = logit m, φ_ρ'(m) = (1+ρ)(log m + 1) − (1−ρ)(log(1−m) + 1)
    − 2ρ(1 − log 2) (weighted_entropy_expr)."""
    kappa = 2 * rho * (1 - math.log(2))

    def dphi(y):
        log_m = -math.log1p(math.exp(-y)) if y > -700 else y
        log_1m = -math.log1p(math.exp(y)) if y < 700 else -y
        return (1 + rho) * (log_m + 1) - (1 - rho) * (log_1m + 1) - kappa

    def g(z):
        return float(
            expit(optimize.brentq(lambda y: dphi(y) - z, -2000, 2000, xtol=1e-15, rtol=1e-15))
        )

    return g


def _quad(f, a, b, tol):
    val, err = integrate.quad(f, a, b, epsabs=tol, epsrel=1e-13, limit=200)
    assert err < 1e-12, err
    return val


def _polar_F_J(g, beta, v, with_J=True):
    """F(v) and J(v) in d = 2 from eq:Fdef / the definition of J, in polar coordinates."""
    alpha = math.atan2(v[1], v[0])

    def radial(c, power):  # ∫_0^∞ r^power e^{−r²/2} g(rc) dr (r ≤ 14: tail < 1e-38)
        # (power 2: one r from the density r dr dψ, one from X or from vᵀX = r cos(ψ − α))
        return _quad(lambda r: r**power * math.exp(-0.5 * r * r) * g(r * c), 0.0, 14.0, 1e-14)

    F = np.zeros(2)
    J = 0.0
    for arm, sign, lo in ((1, 1.0, alpha - math.pi / 2), (0, -1.0, alpha + math.pi / 2)):
        gam = math.atan2(beta[arm][1], beta[arm][0])
        for comp, trig in enumerate((math.cos, math.sin)):
            F[comp] += (
                sign
                * _quad(
                    lambda p, t=trig, c=gam: t(p) * radial(math.cos(p - c), 2),
                    lo,
                    lo + math.pi,
                    1e-13,
                )
                / (2 * math.pi)
            )
    if with_J:
        for arm in (0, 1):  # E[m_a(X) (vᵀX)_+]: vᵀX = r cos(ψ − α) ≥ 0 on the half-plane
            gam = math.atan2(beta[arm][1], beta[arm][0])
            J += _quad(
                lambda p, c=gam: math.cos(p - alpha) * radial(math.cos(p - c), 2),
                alpha - math.pi / 2,
                alpha + math.pi / 2,
                1e-13,
            ) / (2 * math.pi)
        gam = math.atan2(beta[0][1], beta[0][0])  # − vᵀE[m_−(X) X] over the whole circle
        J -= _quad(
            lambda p: math.cos(p - alpha) * radial(math.cos(p - gam), 2), -math.pi, math.pi, 1e-13
        ) / (2 * math.pi)
    return F, J


def _rot(x, a):
    return np.array(
        [math.cos(a) * x[0] - math.sin(a) * x[1], math.sin(a) * x[0] + math.cos(a) * x[1]]
    )


def _directions(beta):
    """A generic v, v = β_+ exactly (1-D span), v = β_+ rotated by 1e-9 (σ ≈ 1e-9, steepest
    kernel) and v = −β_− (ρ_− = −1)."""
    return [np.array([math.cos(0.7), math.sin(0.7)]), beta[1], _rot(beta[1], 1e-9), -beta[0]]


# ------------------------------------------------------------------ 1. quadrature vs polar quad
@pytest.mark.parametrize("delta", [0.2, 1.3])
@pytest.mark.parametrize("name", ["two-transition", "logistic"])
def test_field_and_J_match_polar_quadrature(name, delta):
    """|F − F_ref| ≤ 1e-12 and |J − J_ref| ≤ 1e-12 (measured ≤ 5e-16): the reference is the
    nested adaptive quad above (quad error estimates ≤ 1e-12)."""
    if name == "two-transition":
        link, g = make_family(name, mu2="1.244122"), _two_transition_g("1.244122")
    else:
        link, g = make_family(name), lambda z: float(expit(z))
    beta, _, _ = pop.arm_vectors(delta, 2)
    for v in _directions(beta):
        F_ref, J_ref = _polar_F_J(g, beta, v)
        assert np.max(np.abs(pop.population_field(link, beta, v) - F_ref)) <= 1e-12, v
        assert abs(pop.potential_J(link, beta, v) - J_ref) <= 1e-12, v


def test_field_matches_polar_quadrature_potential_link():
    """Weighted-entropy g_ρ (a potential link: the library inverts φ' by bisection, the reference
    by brentq), Δ = 0.2, v generic and v = β_+ exactly; ≤ 1e-12 (measured ≤ 2e-16)."""
    link, g = make_family("weighted-entropy", rho="0.6"), _weighted_entropy_g(0.6)
    z = np.linspace(-12, 12, 41)
    assert np.max(np.abs(link.g_numpy(z) - [g(x) for x in z])) <= 1e-14  # same link
    beta, _, _ = pop.arm_vectors("0.2", 2)
    for v in _directions(beta)[:2]:
        F_ref, _ = _polar_F_J(g, beta, v, with_J=False)
        assert np.max(np.abs(pop.population_field(link, beta, v) - F_ref)) <= 1e-12, v


def test_degenerate_directions_are_continuous():
    """v → β_+ and v → −β_−: F at σ = 1e-13 … 1e-3 approaches F at σ = 0 with |ΔF| = O(σ)
    (the boundary term is b_2 = O(σ)); no blow-up from 1/σ."""
    link = make_family("two-transition", mu2="1.244122")
    beta, _, _ = pop.arm_vectors("0.7", 3, theta_dir=[0, 1, 1])
    for base in (beta[1], -beta[0]):
        f0 = pop.population_field(link, beta, base)
        other = np.cross(base, [0.3, -0.2, 0.9])
        other /= np.linalg.norm(other)
        for eps in (1e-13, 1e-10, 1e-7, 1e-5, 1e-3):
            f = pop.population_field(link, beta, base + eps * other)
            assert np.max(np.abs(f - f0)) <= 2 * eps + 1e-15, eps


# ------------------------------------------------------------------ 2. Monte Carlo
def test_field_matches_monte_carlo():
    """d = 3, 10⁶ seeded draws of W = A m_A(X) X (A = sgn vᵀX, sgn 0 = +1) and of the J sample
    (m_+ + m_−)(X)(vᵀX)_+ − m_−(X)vᵀX: every component within 5 standard errors (sample
    standard deviation / √n)."""
    link = make_family("two-transition", mu2="1.244122")
    beta, _, _ = pop.arm_vectors("0.6", 3, theta_dir=[0.0, 1.0, -0.5])
    v = np.array([0.8, -0.3, 0.52])
    v /= np.linalg.norm(v)
    rng = np.random.default_rng(20240611)
    n, chunks = 250_000, 4
    sums, sq = np.zeros(4), np.zeros(4)
    for _ in range(chunks):
        X = rng.standard_normal((n, 3))
        u = X @ v
        mp, mm = link.g_numpy(X @ beta[1]), link.g_numpy(X @ beta[0])
        W = np.where(u >= 0, mp, -mm)[:, None] * X
        Jsample = (mp + mm) * np.maximum(u, 0) - mm * u
        samples = np.column_stack([W, Jsample])
        sums += samples.sum(axis=0)
        sq += (samples**2).sum(axis=0)
    N = n * chunks
    mean = sums / N
    se = np.sqrt((sq / N - mean**2) / (N - 1))
    exact = np.append(pop.population_field(link, beta, v), pop.potential_J(link, beta, v))
    assert np.all(np.abs(exact - mean) <= 5 * se), (exact - mean) / se


# ------------------------------------------------------------------ 3. equilibrium
def _frame(d, seed):
    q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((d, d)))
    return q[:, 0], q[:, 1]


@given(any_links(), deltas, dims, st.integers(0, 10**6))
def test_vstar_and_minus_vstar_are_equilibria(link, delta, d, seed):
    """prop:population_equilibrium: h(v*) = 0; also h(−v*) = 0 (F(−v*) ∥ v* by Z → −Z); both
    to 1e-12 · max(1, S) (measured ≤ 5e-16 · max(1, S)); v*, θ in a random orientation."""
    vs, th = _frame(d, seed)
    beta, vs, _ = pop.arm_vectors(delta, d, v_star=vs, theta_dir=th)
    tol = 1e-12 * max(1.0, pop.quadrature_scale(link))
    h = pop.tangent_field(link, beta, np.stack([vs, -vs]))
    assert np.max(np.abs(h)) <= tol


@given(any_links(), deltas, dims, st.integers(0, 10**6))
def test_field_at_vstar_is_kappa_star(link, delta, d, seed):
    """F(v*) = κ* v* with κ* = 2φ0(0)m0 + Δμ* from the theory core (float64 tier); tolerance
    1e-12 · max(1, S) + the core's own error estimate for κ*."""
    vs, th = _frame(d, seed)
    beta, vs, _ = pop.arm_vectors(delta, d, v_star=vs, theta_dir=th)
    res = stability(link, delta, auto_raise=False)
    kappa, err = float(res.values["kappa_star"]), float(res.errors["kappa_star"])
    F = pop.population_field(link, beta, vs)
    assert np.max(np.abs(F - kappa * vs)) <= 1e-12 * max(1.0, pop.quadrature_scale(link)) + err


@pytest.mark.parametrize("k", [1.0, 10.0])
@pytest.mark.parametrize("delta", [0.3, 1.6])
def test_growing_link_against_closed_forms(k, delta):
    """g = e^{kz} (Gaussian mass around z = k; k = 10 needs the window to reach z ≈ 20).
    Closed forms, a = kΔ/2, s² = 1 − Δ²/4: μ_g = k e^{k²/2},
    κ* = 2E[Z g(U + ΔZ/2)1{Z>0}] = 2 e^{k²s²/2} e^{a²/2}(aΦ(a) + φ(a)),
    θ-rate H'(0) = −Δμ* + 2φ0(0) m2 s² with μ* = k e^{k²s²/2} e^{a²/2} Φ(a), m2 = k² e^{k²s²/2}.
    Relative tolerance 1e-12 (F), 1e-10 (H', a difference of two terms of size ~κ*)."""
    # validate=False: the constructor's decay heuristic (|g|φz² ≤ 1e-60 at z = ±25) rejects
    # e^{10z}, although every integral here converges
    link = Link.from_expression(f"exp({k}*z)", validate=False)
    s2 = 1 - delta**2 / 4
    a = k * delta / 2
    ek = math.exp(k * k * s2 / 2 + a * a / 2)
    kappa = 2 * ek * (a * ndtr(a) + PHI0 * math.exp(-a * a / 2))
    mu_star, m2 = k * ek * ndtr(a), k * k * math.exp(k * k * s2 / 2)
    beta, vs, _ = pop.arm_vectors(delta, 3)
    F = pop.population_field(link, beta, vs)
    assert np.max(np.abs(F - kappa * vs)) <= 1e-12 * kappa
    assert pop.quadrature_scale(link) >= math.exp(k * k / 2)
    dH0 = pop.H_alpha_derivative(link, delta, 0.0)
    expected = -delta * mu_star + 2 * PHI0 * m2 * s2
    assert abs(dH0 - expected) <= 1e-10 * (delta * mu_star + 2 * PHI0 * m2 * s2)


# ------------------------------------------------------------------ 4. Jacobian
@given(any_links(), deltas, st.sampled_from([2, 3]), st.integers(0, 10**6))
def test_fd_jacobian_matches_eq_jacobian(link, delta, d, seed):
    """jacobian_fd (central differences ε = 1e-3, 5e-4, Richardson) against eq:Jacobian with
    μ*, m2 from the theory core. Budget 1e-9 · max(1, S): truncation O(ε⁴) ≈ 1e-12, quadrature
    noise ~1e-16 · S/ε ≈ 1e-13 · S, core errors ~1e-15 (measured ≤ 2e-12 · max(1, S))."""
    vs, th = _frame(d, seed)
    beta, vs, _ = pop.arm_vectors(delta, d, v_star=vs, theta_dir=th)
    fd = pop.jacobian_fd(link, beta, vs)
    formula = pop.jacobian_formula(link, delta, d=d, v_star=vs, theta_dir=th)
    assert np.allclose(pop.jacobian_formula(link, beta=beta), formula, rtol=0, atol=1e-14)
    assert np.max(np.abs(fd - formula)) <= 1e-9 * max(1.0, pop.quadrature_scale(link))
    assert np.max(np.abs(fd @ vs)) <= 1e-15  # acts on the tangent space only


def test_jacobian_eigenvalues_are_the_two_rates():
    """d = 5: eigenvalues of the FD Jacobian on T_{v*} are −rate_θ (once) and −Δμ* (d − 2 times),
    the rates reported by the theory core (jacobian_rates), to 1e-9."""
    link = make_family("weighted-entropy", rho="0.8")
    beta, vs, _ = pop.arm_vectors("0.2", 5)
    rates = stability(link, "0.2").jacobian_rates
    ev = np.sort(
        np.linalg.eigvalsh(
            0.5 * (pop.jacobian_fd(link, beta, vs) + pop.jacobian_fd(link, beta, vs).T)
        )
    )
    expected = np.sort([0.0, -rates["theta"]] + [-rates["orthogonal"]] * 3)
    assert np.max(np.abs(ev - expected)) <= 1e-9


# ------------------------------------------------------------------ 5. ∇J = F
@given(any_links(), deltas, dims, st.integers(0, 10**6), st.floats(0.5, 2.0))
def test_gradient_of_J_is_F(link, delta, d, seed, norm):
    """Central differences of J in ℝ^d (J is 1-homogeneous; v off the sphere, ‖v‖ = norm),
    Richardson with ε = 1e-3, 5e-4: ≤ 1e-9 · max(1, S) (measured ≤ 6e-13 · max(1, S))."""
    rng = np.random.default_rng(seed)
    beta, _, _ = pop.arm_vectors(delta, d)
    v = rng.standard_normal(d)
    v *= norm / np.linalg.norm(v)

    def grad(eps):
        pts = np.concatenate([v + eps * np.eye(d), v - eps * np.eye(d)])
        j = pop.potential_J(link, beta, pts)
        return (j[:d] - j[d:]) / (2 * eps)

    g = (4 * grad(5e-4) - grad(1e-3)) / 3
    F = pop.population_field(link, beta, v)
    assert np.max(np.abs(g - F)) <= 1e-9 * max(1.0, pop.quadrature_scale(link))


# ------------------------------------------------------------------ 6. the circle
@given(bernoulli_links(), deltas)
def test_H_at_zero_and_theta_rate(link, delta):
    """H(0) = 0 and H'(0) = −Δμ* + 2φ0(0) m2 (1 − Δ²/4) = −(θ-rate of the theory core); H' from
    the boundary-term formula also matches Richardson differences of H at three angles.
    Tolerances 1e-12 (H), 1e-11 (H'(0) vs core), 1e-9 (H' vs FD)."""
    rate = float(stability(link, delta, auto_raise=False).jacobian_rates["theta"])
    assert abs(pop.H_alpha(link, delta, 0.0)) <= 1e-12
    assert abs(pop.H_alpha_derivative(link, delta, 0.0) + rate) <= 1e-11
    a = np.array([-2.5, 0.4, 1.9])

    def fd(e):
        return (pop.H_alpha(link, delta, a + e) - pop.H_alpha(link, delta, a - e)) / (2 * e)

    assert (
        np.max(np.abs(pop.H_alpha_derivative(link, delta, a) - (4 * fd(5e-4) - fd(1e-3)) / 3))
        <= 1e-9
    )


@given(any_links(), deltas)
def test_H_is_odd(link, delta):
    """H(−α) = −H(α) for every link: with R = diag(1, −1), Rβ_± = −β_∓, and X → −RX together
    with E[m(X)(−vᵀX)_+] = E[m(X)(vᵀX)_+] − vᵀE[m(X)X] gives J(Rv) = J(v), so α ↦ J(v(α)) is
    even and H = dJ(v(α))/dα is odd. A derived identity, not used by the code: 1e-12 · max(1, S)."""
    a = np.linspace(0.05, 3.1, 40)
    gap = pop.H_alpha(link, delta, a) + pop.H_alpha(link, delta, -a)
    assert np.max(np.abs(gap)) <= 1e-12 * max(1.0, pop.quadrature_scale(link))


def test_H_alpha_is_tangent_component_of_F():
    """H(α) = v_⊥ᵀF(v(α)) = ±‖h(v(α))‖ (eq:H-alpha) for an array of angles, any shape."""
    link = make_family("logistic")
    a = np.linspace(-3, 3, 12).reshape(3, 4)
    beta, _, _ = pop.arm_vectors("0.9", 2)
    v = np.stack([np.cos(a), np.sin(a)], axis=-1).reshape(-1, 2)
    h = pop.tangent_field(link, beta, v)
    H = pop.H_alpha(link, "0.9", a)
    assert H.shape == a.shape
    vperp = np.stack([-v[:, 1], v[:, 0]], axis=1)
    assert np.allclose(h, H.reshape(-1)[:, None] * vperp, rtol=0, atol=1e-15)


TWO_TRANSITION_PAPER = [PAPER_LINKS[k] for k in TWO_TRANSITION_KEYS]


@pytest.mark.parametrize("delta", ["0.2", "1"])
@pytest.mark.parametrize("spec", TWO_TRANSITION_PAPER, ids=lambda p: p.regime)
def test_circle_equilibria_paper_links(spec, delta):
    """Paper's two-transition links: α = 0 and α = π are found; the label at α = 0 agrees with
    the sign of the θ-rate of the theory core (attracting iff rate > 0); every zero is a real
    sign change of H (checked at α ± 1e-6) in the direction its label says."""
    link = spec.link()
    rate = float(stability(link, delta).jacobian_rates["theta"])
    eqs = circle_equilibria(link, delta)
    assert "grid step" in eqs.caveat and eqs.grid_step == pytest.approx(2 * math.pi / 3600)
    alphas = np.array([e.alpha for e in eqs])
    zero = eqs[int(np.argmin(np.abs(alphas)))]
    assert abs(zero.alpha) <= 1e-12
    assert np.min(np.abs(alphas - math.pi)) <= 1e-12
    assert zero.stability == ("attracting" if rate > 0 else "repelling")
    assert zero.dH == pytest.approx(-rate, abs=1e-11)
    for e in eqs:
        left, right = pop.H_alpha(link, delta, [e.alpha - 1e-6, e.alpha + 1e-6])
        assert left * right < 0, e
        assert (left > 0) == (e.stability == "attracting"), e
        assert e.residual <= 1e-14
        assert -math.pi < e.alpha <= math.pi


def test_circle_equilibria_unstable_link_has_attracting_pair():
    """Δ = 0.2, two-transition mu2 = 1.244122 (unstable: α = 0 repels): H is odd, so the extra
    zeros come as ±α₁, α₁ attracting, and a 4× finer grid finds the same zeros."""
    link = make_family("two-transition", mu2="1.244122")
    eqs = circle_equilibria(link, "0.2")
    labels = [(round(e.degrees, 4), e.stability) for e in eqs]
    pos = [e for e in eqs if 0 < e.alpha < math.pi]
    assert len(pos) == 1 and pos[0].stability == "attracting"
    assert any(abs(e.alpha + pos[0].alpha) < 1e-10 for e in eqs), labels
    fine = circle_equilibria(link, "0.2", n_grid=14400)
    assert [round(e.alpha, 10) for e in fine] == [round(e.alpha, 10) for e in eqs]


# ------------------------------------------------------------------ consistency / shapes
def test_batched_equals_single_and_homogeneity():
    """A (k, d) batch gives the rows of single calls; F(cv) = F(v), J(cv) = cJ(v) for c > 0."""
    link = make_family("weighted-entropy", rho="0.3")
    beta, _, _ = pop.arm_vectors(0.8, 3)
    V = np.random.default_rng(3).standard_normal((5, 3))
    Fb = pop.population_field(link, beta, V)
    Jb = pop.potential_J(link, beta, V)
    for i in range(5):
        # same numbers up to BLAS summation order
        assert np.allclose(Fb[i], pop.population_field(link, beta, V[i]), rtol=0, atol=1e-15)
        assert np.allclose(
            pop.population_field(link, beta, 3.7 * V[i]), Fb[i], rtol=0, atol=1e-15
        )  # 0-homogeneous
        assert pop.potential_J(link, beta, 2 * V[i]) == pytest.approx(2 * Jb[i], rel=1e-14)


def test_arm_vectors_geometry():
    """‖β_a‖ = 1, β_+ − β_− = Δv*, θ ⊥ v*, ‖θ‖² = 1 − Δ²/4; defaults v* = e1, θ ∝ e2."""
    beta, vs, th = pop.arm_vectors("1.2", 4, v_star=[1, 1, 0, 0], theta_dir=[1, 0, 2, 0])
    assert np.allclose(np.linalg.norm(beta, axis=1), 1, atol=1e-15)
    assert np.allclose(beta[1] - beta[0], 1.2 * vs, atol=1e-15)
    assert abs(th @ vs) <= 1e-15 and th @ th == pytest.approx(1 - 0.36, abs=1e-15)
    beta2, vs2, th2 = pop.arm_vectors(0.5)
    assert np.array_equal(vs2, [1.0, 0.0]) and th2[1] > 0 and th2[0] == 0


# ------------------------------------------------------------------ 7. bad input
LOGI = make_family("logistic")
BETA2, _, _ = pop.arm_vectors("0.5", 2)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: pop.arm_vectors(0), "open interval"),
        (lambda: pop.arm_vectors("2"), "open interval"),
        (lambda: pop.arm_vectors(float("nan")), "finite"),
        (lambda: pop.arm_vectors(0.5, d=1), "at least 2"),
        (lambda: pop.arm_vectors(0.5, v_star=[0, 0]), "non-zero"),
        (lambda: pop.arm_vectors(0.5, v_star=[1, 0], theta_dir=[2, 0]), "parallel"),
        (lambda: pop.arm_vectors(0.5, v_star=[1, 0, 0], theta_dir=[0, 1]), "shape"),
        (lambda: pop.population_field(LOGI, BETA2, [1, 0, 0]), "shape"),
        (lambda: pop.population_field(LOGI, BETA2, [0, 0]), "non-zero"),
        (lambda: pop.population_field(LOGI, BETA2, [np.nan, 1]), "NaN"),
        (lambda: pop.population_field(LOGI, BETA2, [np.inf, 1]), "infinite"),
        (lambda: pop.population_field(LOGI, BETA2[0], [1, 0]), "must have shape"),
        (lambda: pop.population_field(LOGI, 2 * BETA2, [1, 0]), "unit"),
        (lambda: pop.population_field(LOGI, np.ones((2, 1)), [1]), "at least 2"),
        (lambda: pop.population_field("logistic", BETA2, [1, 0]), "Link"),
        (lambda: pop.tangent_field(LOGI, BETA2, [[1, 0], [0, 0]]), "non-zero"),
        (lambda: pop.potential_J(LOGI, BETA2, [[1, 0, 0]]), "shape"),
        (lambda: pop.H_alpha(LOGI, "2.5", 0.1), "open interval"),
        (lambda: pop.H_alpha(LOGI, "0.5", np.nan), "NaN"),
        (lambda: pop.jacobian_fd(LOGI, BETA2, [1, 0], eps=0.0), "eps"),
        (lambda: pop.jacobian_fd(LOGI, BETA2, [1, 0, 0]), "shape"),
        (lambda: pop.jacobian_formula(LOGI), "delta or beta"),
        (lambda: pop.jacobian_formula(LOGI, "0.7", beta=BETA2), "disagrees"),
        # antipodal unit arms: Δ = 2 exactly, outside (0, 2) (the rows pass as unit vectors)
        (lambda: pop.jacobian_formula(LOGI, beta=[[1, 0], [-1, 0]]), r"must lie in \(0, 2\)"),
        (lambda: circle_equilibria(LOGI, "0.5", n_grid=3), "n_grid"),
        (
            lambda: pop.population_field(
                Link.from_expression("exp(32*z)", validate=False), BETA2, [1, 0]
            ),
            "not finite",
        ),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(NBLInputError, match=message):
        call()
