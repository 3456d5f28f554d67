"""Tests of nbl_sim.studies.rate_theory: local rates, tangent noise, the linearized recursion, step-size
thresholds, the error-to-regret geometry and the stability radius.

Monte Carlo checks are seeded and use 5 standard errors (two-sided false alarm ~6e-7).
"""

import math

import numpy as np
import pytest

from nbl_sim.engine.environment import Environment
from nbl_sim.engine.nbl_kernel import nbl_run
from nbl_sim.population import fields as pop
from nbl_sim.studies import rate_theory as rt
from nbl_sim.studies import regret_geometry as rg
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.links import Link
from nbl_theory.numeric import gauss_legendre_uniform
from nbl_theory.stability import stability
from proofs_check.witnesses.disagreement import regret_in_plane
from proofs_check.witnesses.lambda0 import lambda0_2d

LOGISTIC = make_family("logistic")
TT_STABLE = make_family("two-transition", mu2="-1.074037")
TT_UNSTABLE = make_family("two-transition", mu2="1.244122")
PHI0 = 1 / math.sqrt(2 * math.pi)


# ------------------------------------------------------------------------------- helpers
def _gl(lo, hi, width):
    return gauss_legendre_uniform(lo, hi, width)


def _brute_noise(link, dl, k, squared=False):
    """E[f(s z2 + c|z1|) z2^k] by a direct 2-D product rule (z1 > 0 half, doubled)."""
    c = dl / 2
    s = math.sqrt(1 - c * c)
    z, w = _gl(-13, 13, 0.125)
    r, wr = _gl(0, 13, 0.125)
    pz = w * PHI0 * np.exp(-z * z / 2)
    pr = 2 * wr * PHI0 * np.exp(-r * r / 2)
    g = link.g_numpy(s * z[None, :] + c * r[:, None])
    f = g * g if squared else g
    return float((pr[:, None] * pz[None, :] * f * z[None, :] ** k).sum())


def _regret_conditional(link, dl, alpha, psi):
    """Independent rule for ψ away from 0, π: condition on (z1, z2); the disagreement
    probability over z3 is Φ(−sgn(z1)(cos α z1 + sin α cos ψ z2)/|sin α sin ψ|)."""
    from scipy.special import ndtr

    c = dl / 2
    s = math.sqrt(1 - c * c)
    z, w = _gl(-10, 10, 0.25)  # breakpoint at z1 = 0 is a panel edge
    pw = w * PHI0 * np.exp(-z * z / 2)
    z1, z2 = z[:, None], z[None, :]
    gap = np.abs(link.g_numpy(s * z2 + c * z1) - link.g_numpy(s * z2 - c * z1))
    lin = math.cos(alpha) * z1 + math.sin(alpha) * math.cos(psi) * z2
    p = ndtr(-np.sign(z1) * lin / abs(math.sin(alpha) * math.sin(psi)))
    return float((pw[:, None] * pw[None, :] * gap * p).sum())


def _regret_mc(link, dl, alpha, psi, n=1_000_000, seed=0):
    c = dl / 2
    s = math.sqrt(1 - c * c)
    X = np.random.default_rng(seed).standard_normal((n, 3))
    v = np.array(
        [math.cos(alpha), math.sin(alpha) * math.cos(psi), math.sin(alpha) * math.sin(psi)]
    )
    gap = np.abs(link.g_numpy(s * X[:, 1] + c * X[:, 0]) - link.g_numpy(s * X[:, 1] - c * X[:, 0]))
    r = np.where(np.sign(X @ v) != np.sign(X[:, 0]), gap, 0.0)
    return r.mean(), r.std(ddof=1) / math.sqrt(n)


# ------------------------------------------------------------------------------- 1. rates
@pytest.mark.parametrize("link", [LOGISTIC, TT_STABLE, TT_UNSTABLE])
@pytest.mark.parametrize("delta", ["0.2", "1", "1.8"])
def test_local_rates_match_stability_and_H_derivative(link, delta):
    r2, r5 = rt.local_rates(link, delta, 2), rt.local_rates(link, delta, 5)
    res = stability(link, delta, auto_raise=False)
    assert r2["kappa_perp"] is None and r2["kappa"] == r2["kappa_theta"]
    assert r5["kappa_perp"] == pytest.approx(float(res.jacobian_rates["orthogonal"]), abs=0)
    assert r5["kappa"] == min(r5["kappa_theta"], r5["kappa_perp"])
    # λ* is exactly the d ≥ 3 rate (the (m2)_+ clipping picks the slower direction)
    assert r5["kappa"] == pytest.approx(r5["lambda_star"], rel=1e-12, abs=1e-15)
    # κ_θ = −H'(0): an independent quadrature (boundary term of the moving half-plane)
    assert r2["kappa_theta"] == pytest.approx(-pop.H_alpha_derivative(link, delta, 0.0), abs=1e-11)


def test_local_rates_d2_faster_than_lambda_star_when_m2_negative():
    r = rt.local_rates(TT_STABLE, "0.2", 2)
    assert r["m2"] < 0 and r["kappa"] > 8 * r["lambda_star"]


@pytest.mark.parametrize(
    "call",
    [
        lambda: rt.local_rates(LOGISTIC, 2.0, 2),
        lambda: rt.local_rates(LOGISTIC, 0, 2),
        lambda: rt.local_rates(LOGISTIC, float("nan"), 2),
        lambda: rt.local_rates(LOGISTIC, 1.0, 1),
        lambda: rt.local_rates(LOGISTIC, 1.0, True),
        lambda: rt.local_rates("logistic", 1.0, 2),
        lambda: rt.tangent_noise(LOGISTIC, 1.0, reward="gaussian"),
        lambda: rt.tangent_noise(LOGISTIC, 1.0, reward="bounded", noise=-1),
        lambda: rt.tangent_noise(LOGISTIC, 1.0, reward="bounded", noise=float("inf")),
        lambda: rt.tangent_noise(Link.from_expression("2*z + tanh(z)"), 1.0),  # Bernoulli range
        lambda: rt.predicted_exponent(0.1, 0.0),
        lambda: rt.predicted_exponent(float("nan"), 1.0),
        lambda: rt.gamma_threshold(float("inf")),
        lambda: rt.linear_recursion_mse([(0.1, 1.0, 0.0)], -1.0, 0.0, 0, [1]),
        lambda: rt.linear_recursion_mse([(0.1, 1.0, 0.0)], 1.0, 0.0, 5, [4]),
        lambda: rt.linear_recursion_mse([(0.1, 1.0, 0.0)], 1.0, 0.0, 0, [1.5]),
        lambda: rt.linear_recursion_mse([(0.1, -1.0, 0.0)], 1.0, 0.0, 0, [1]),
        lambda: rt.linear_recursion_mse([], 1.0, 0.0, 0, [1]),
        lambda: rt.linear_recursion_mse([(0.1, 1.0, 0.0)], 1.0, -1.0, 0, [1]),
        lambda: rt.linear_recursion_mse([(0.1, 1.0, 0.0)], 1.0, 0.0, 0, []),  # no round
        lambda: rt.modes_for(LOGISTIC, 1.0, 2, -0.1),
        lambda: rt.loglog_slope([1, 2], [1, 0], 0),
        lambda: rt.loglog_slope([1, 2, 3], [1, 2], 0),
        lambda: rt.step_size_table(gamma=0),
        lambda: rg.regret_given_angle(LOGISTIC, 1.0, float("inf")),
        lambda: rg.regret_given_angle(LOGISTIC, 1.0, 0.1, psi=float("nan")),
        lambda: rg.regret_scaling(LOGISTIC, 1.0, 0.0, [0.1, 2 * math.pi]),
        lambda: rg.stability_radius(LOGISTIC, 1.0, frac=1.0),
        lambda: rg.stability_radius(TT_UNSTABLE, "0.2"),  # κ_θ < 0
    ],
)
def test_bad_input_raises(call):
    with pytest.raises(NBLInputError):
        call()


# ------------------------------------------------------------------------------- 2. noise
def test_skew_kernels_are_densities():
    for dl in (0.2, 1.0, 1.9):
        w, wt = rt._w_nodes(dl, -13, 13)
        k0, k2 = rt._skew_kernels(w, dl)
        assert np.sum(wt * k0) == pytest.approx(1, abs=1e-14)  # E[1]
        assert np.sum(wt * k2) == pytest.approx(1, abs=1e-14)  # E[z2²]
        c = dl / 2
        # E[W] = c E|z1| = c √(2/π)
        assert np.sum(wt * w * k0) == pytest.approx(c * math.sqrt(2 / math.pi), abs=1e-14)


@pytest.mark.parametrize("link", [LOGISTIC, TT_STABLE])
@pytest.mark.parametrize("dl", [0.2, 1.0, 1.8, 1.99])
def test_tangent_noise_matches_direct_2d_rule(link, dl):
    b = rt.tangent_noise(link, dl)
    assert b["sigma2_theta"] == pytest.approx(_brute_noise(link, dl, 2), abs=1e-13)
    assert b["sigma2_perp"] == pytest.approx(_brute_noise(link, dl, 0), abs=1e-13)
    u = rt.tangent_noise(link, dl, reward="bounded", noise=0.5)
    assert u["sigma2_theta"] == pytest.approx(_brute_noise(link, dl, 2, True) + 0.25 / 3, abs=1e-13)
    assert u["sigma2_perp"] == pytest.approx(_brute_noise(link, dl, 0, True) + 0.25 / 3, abs=1e-13)


@pytest.mark.parametrize("reward", ["bernoulli", "bounded"])
def test_tangent_noise_monte_carlo_from_environment_draws(reward):
    env = Environment.build(TT_STABLE, "1", 3, reward=reward, noise=0.5)
    real = env.draw(7, [0], 400_000, 0)
    X, Y = real.X[0], real.Y[0]
    A = np.where(X[:, 0] >= 0, 1, -1)
    y = np.where(A > 0, Y[:, 1], Y[:, 0])
    W = (A * y)[:, None] * X
    G = W - W[:, :1] * np.array([1.0, 0, 0])  # (I − v*v*ᵀ)W at v = v* = e1
    nz = rt.tangent_noise(TT_STABLE, "1", reward=reward, noise=0.5)
    n = X.shape[0]
    for col, key in ((1, "sigma2_theta"), (2, "sigma2_perp")):
        x = G[:, col] ** 2
        z = (x.mean() - nz[key]) / (x.std(ddof=1) / math.sqrt(n))
        assert abs(z) < 5, (key, z)
        zm = G[:, col].mean() / (G[:, col].std(ddof=1) / math.sqrt(n))  # E[G] = h(v*) = 0
        assert abs(zm) < 5


# ------------------------------------------------------------------------------- 3./5. thresholds
def test_exponent_and_threshold():
    assert rt.predicted_exponent(0.1, 10) == 1.0
    assert rt.predicted_exponent(0.01, 10) == pytest.approx(0.2)
    assert rt.predicted_exponent(-0.01, 10) == pytest.approx(-0.2)
    assert rt.gamma_threshold(0.025) == pytest.approx(20.0)
    assert rt.gamma_threshold(0.0) == math.inf and rt.gamma_threshold(-1.0) == math.inf


def test_step_size_table():
    rows = rt.step_size_table(10.0)
    assert len(rows) == 7 * 3
    by = {(r["link"], r["delta"]): r for r in rows}
    lg = by[("logistic", 0.2)]
    assert lg["lambda_star"] == pytest.approx(0.020662096414, rel=1e-9)
    assert lg["kappa_d2"] == pytest.approx(lg["kappa_d3"], rel=1e-12)
    assert lg["verdict_d2"].startswith("below threshold (exponent 0.41")
    we0 = by[("weighted-entropy rho=0", 0.2)]  # rho = 0 is logistic
    assert we0["kappa_d2"] == pytest.approx(lg["kappa_d2"], rel=1e-10)
    # Δ = 0.2, d ≥ 3: no link reaches the threshold at γ = 10
    assert all(not r["verdict_d3"].startswith("above") for r in rows if r["delta"] == 0.2)
    assert max(r["lambda_star"] for r in rows if r["delta"] == 0.2) == pytest.approx(
        0.020662096414, rel=1e-9
    )
    stable = by[("two-transition mu2=-1.074037", 0.2)]
    assert stable["verdict_d2"] == "above threshold"  # κ_θ = 0.1144 > λ* (m2 < 0)
    assert stable["gamma_c_d3"] == pytest.approx(1 / (2 * 0.013884009970632), rel=1e-9)
    assert by[("two-transition mu2=1.244122", 0.2)]["verdict_d2"] == "unstable: κ ≤ 0"
    for r in rows:
        for key in ("d2", "d3"):
            assert r[f"exponent_{key}"] == min(1.0, r[f"two_gamma_kappa_{key}"])


# ------------------------------------------------------------------------------- 4. recursion
def _loop(mode, gamma, t0, n0, T):
    a, out = mode.a0, [mode.a0]
    for s in range(n0 + 1, T + 1):
        e = gamma / (s + t0)
        a = (1 - e * mode.kappa) ** 2 * a + e * e * mode.sigma2
        out.append(a)
    return mode.multiplicity * np.array(out)


def test_linear_recursion_exact_against_loop():
    modes = [
        rt.Mode(0.11, 0.65, 0.01, 1),
        rt.Mode(0.0139, 0.74, 0.01, 3),
        rt.Mode(-0.02, 0.5, 0.001, 1),
        rt.Mode(5.0, 0.3, 0.2, 2),  # ηκ > 1 early
        rt.Mode(0.25, 0.4, 0.0, 1),
    ]
    gamma, t0, n0, T = 10.0, 4.0, 5, 20_000
    t = np.arange(n0, T + 1)
    per = rt.linear_recursion_mse(modes, gamma, t0, n0, t, per_mode=True)
    for row, m in zip(per, modes):
        ref = _loop(m, gamma, t0, n0, T)
        np.testing.assert_allclose(row, ref, rtol=1e-12, atol=1e-300)
    tot = rt.linear_recursion_mse(modes, gamma, t0, n0, t)
    np.testing.assert_allclose(tot, per.sum(0), rtol=1e-15)
    # any order, repeats, 2-D shape
    q = np.array([[T, n0], [77, 77]])
    np.testing.assert_allclose(
        rt.linear_recursion_mse(modes, gamma, t0, n0, q), tot[q - n0], rtol=1e-15
    )
    # η_{n0+1} = γ/(n0 + 1 + t0) = 1 and κ = 1: the factor vanishes, a_{n0+1} = η²σ² = σ²
    got = rt.linear_recursion_mse([rt.Mode(1.0, 0.3, 5.0)], gamma, t0, n0, [n0 + 1, n0 + 2])
    assert got[0] == 0.3
    assert got[1] == pytest.approx((1 - 10 / 11) ** 2 * 0.3 + (10 / 11) ** 2 * 0.3, rel=1e-15)


def test_linear_recursion_asymptotics():
    # 2γκ > 1: (t + t0) a_t → γ²σ²/(2γκ − 1); slope → −1
    gamma, k, s2 = 10.0, 0.1, 0.7
    t = np.array([10**5, 10**6])
    a = rt.linear_recursion_mse([(k, s2, 0.05)], gamma, 50.0, 0, t)
    assert (t[-1] + 50) * a[-1] == pytest.approx(gamma**2 * s2 / (2 * gamma * k - 1), rel=1e-3)
    # 2γκ < 1: slope → −2γκ (the particular solution ∝ −t^{−1} bends it by O(t^{2γκ − 1}):
    # −0.3967 on [1e5, 1e6])
    tt = np.unique(np.geomspace(1e5, 1e6, 30).astype(int))
    a = rt.linear_recursion_mse([(0.02, s2, 0.05)], gamma, 50.0, 0, tt)
    assert rt.loglog_slope(tt, a, 1e5) == pytest.approx(-0.4, abs=5e-3)


def test_modes_for_and_loglog_slope():
    m2 = rt.modes_for(TT_STABLE, "0.2", 2, 0.03)
    assert len(m2) == 1 and m2[0].a0 == pytest.approx(0.03)
    m5 = rt.modes_for(TT_STABLE, "0.2", 5, 0.04, reward="bounded", noise=0.5)
    assert [m.multiplicity for m in m5] == [1, 3]
    assert all(m.a0 == pytest.approx(0.01) for m in m5)
    r = rt.local_rates(TT_STABLE, "0.2", 5)
    nz = rt.tangent_noise(TT_STABLE, "0.2", reward="bounded", noise=0.5)
    assert (m5[0].kappa, m5[1].kappa) == (r["kappa_theta"], r["kappa_perp"])
    assert (m5[0].sigma2, m5[1].sigma2) == (nz["sigma2_theta"], nz["sigma2_perp"])
    t = np.arange(1, 200)
    assert rt.loglog_slope(t, 3.0 * t**-0.7, 10, 100) == pytest.approx(-0.7, abs=1e-12)


def test_linear_prediction_matches_nbl_simulation():
    """The linearized MSE predicts E‖v_t − v*‖² of real NBL runs started at v* (logistic,
    Δ = 1, d = 3, γ = 10, t0 = 2000): within 5 SE + 4% (the neglected nonlinear terms are
    O(e_t) ≈ 2% relative here)."""
    env = Environment.build(LOGISTIC, "1", 3)
    R, n, gamma, t0 = 300, 4000, 10.0, 2000.0
    real = env.draw(5, range(R), n, 0)
    rec = np.array([500, 1000, 2000, 4000])
    tr = nbl_run(
        real.X,
        real.Y,
        np.zeros((R, 0), np.int8),
        env.v_star,
        v0=env.v_star,
        gamma=gamma,
        t0=t0,
        record_rounds=rec,
    )
    sim = tr.sq_error.mean(0)
    se = tr.sq_error.std(0, ddof=1) / math.sqrt(R)
    pred = rt.linear_recursion_mse(rt.modes_for(LOGISTIC, "1", 3, 0.0), gamma, t0, 0, rec)
    assert np.all(np.abs(sim - pred) <= 5 * se + 0.04 * pred), (sim, pred, se)


# ------------------------------------------------------------------------------- 6. regret
@pytest.mark.parametrize("link", [LOGISTIC, TT_STABLE])
def test_regret_psi0_equals_d2_helper(link):
    for dl in (0.2, 1.0):
        for a in (1e-4, 0.3, -1.0, 2.5, math.pi):
            assert rg.regret_given_angle(link, dl, a) == pytest.approx(
                regret_in_plane(link, dl, a), rel=1e-14, abs=1e-300
            )


@pytest.mark.parametrize("alpha,psi", [(0.7, math.pi / 2), (-1.2, 1.0), (2.5, 2.2), (0.4, 0.6)])
def test_regret_matches_conditional_cdf_rule(alpha, psi):
    for link in (LOGISTIC, TT_STABLE):
        got = rg.regret_given_angle(link, 1.0, alpha, psi)
        assert got == pytest.approx(_regret_conditional(link, 1.0, alpha, psi), rel=1e-10)


@pytest.mark.parametrize(
    "alpha,psi", [(0.3, 0.0), (-1.0, 0.0), (0.3, math.pi / 2), (1.1, 1.0), (-0.5, 2.5)]
)
def test_regret_monte_carlo(alpha, psi):
    m, se = _regret_mc(TT_STABLE, 1.5, alpha, psi, seed=int(10 * abs(alpha) + 3 * psi))
    assert abs(m - rg.regret_given_angle(TT_STABLE, 1.5, alpha, psi)) < 5 * se


def test_regret_symmetries_and_continuity():
    for link in (TT_STABLE, LOGISTIC):
        for a, p in ((0.3, 0.4), (-1.3, 2.0), (2.9, 0.0)):
            base = rg.regret_given_angle(link, 1.0, a, p)
            # the same v: (α, ψ) ~ (−α, ψ + π); and ψ → −ψ (ω → −ω)
            assert rg.regret_given_angle(link, 1.0, -a, p + math.pi) == pytest.approx(
                base, rel=1e-12
            )
            assert rg.regret_given_angle(link, 1.0, a, -p) == pytest.approx(base, rel=1e-12)
            # α and α + 2π are the same direction
            assert rg.regret_given_angle(link, 1.0, a + 2 * math.pi, p) == pytest.approx(
                base, rel=1e-12
            )
        # ψ → 0 continuity: the smoothed rule (σ = s sin ψ) meets the unsmoothed one, O(ψ²)
        for a in (0.05, 0.7, -2.0):
            r0 = rg.regret_given_angle(link, 1.0, a, 0.0)
            assert rg.regret_given_angle(link, 1.0, a, 1e-5) == pytest.approx(r0, rel=1e-9)
            assert rg.regret_given_angle(link, 1.0, a, 1e-2) == pytest.approx(r0, rel=1e-3)
    # α → −α for every link and ψ: the gap is even in z1 and wedge(−α) is the z1-mirror of
    # wedge(α) (the two arcs of a wedge are point reflections of each other); the two sides
    # are computed on different arcs, so this is a check of the rule, not an identity of it
    for a, p in ((0.2, 0.0), (1.4, 0.0), (1.4, math.pi / 2), (0.9, 0.5)):
        for link in (TT_STABLE, LOGISTIC):
            assert rg.regret_given_angle(link, 1.0, -a, p) == pytest.approx(
                rg.regret_given_angle(link, 1.0, a, p), rel=1e-12
            )


def test_regret_scaling_takes_two_angles_and_refuses_one():
    """The slope of regret against the angle needs two angles at least: two are enough (the
    slope between them: 2, the regret being quadratic in α near 0, to 1e-4), one is
    refused naming the requirement."""
    sc = rg.regret_scaling(LOGISTIC, 1.0, 0.0, [1e-3, 1e-2])
    assert sc["slope"] == pytest.approx(2, abs=1e-4)
    with pytest.raises(NBLInputError, match="at least two angles"):
        rg.regret_scaling(LOGISTIC, 1.0, 0.0, [1e-3])


@pytest.mark.parametrize("link", [LOGISTIC, TT_STABLE])
@pytest.mark.parametrize("dl", [0.2, 1.8])
@pytest.mark.parametrize("psi", [0.0, math.pi / 2, 1.0])
def test_error_to_regret_constant(link, dl, psi):
    c = rg.error_to_regret_constant(link, dl, psi)
    sc = rg.regret_scaling(link, dl, psi, [1e-4, 1e-3, 1e-2])
    assert sc["limit"] == c
    assert sc["ratio"][0] / c - 1 == pytest.approx(0, abs=1e-6)  # next term is O(α²)
    assert sc["slope"] == pytest.approx(2, abs=1e-4)
    if psi == 0.0:  # the α → 0 limit used by the error-to-regret claim of stochastic.py
        s = math.sqrt(1 - dl * dl / 4)
        xg, wg = gauss_legendre_uniform(-12.0, 12.0, 0.25)
        lim = PHI0 * float(
            (wg * PHI0 * np.exp(-xg * xg / 2) * xg * xg * link.derivative_numpy(s * xg, 1)).sum()
        )
        assert c == pytest.approx(lim, rel=1e-13)


# ------------------------------------------------------------------------------- 7. radius
def test_stability_radius_logistic_closed_form():
    # for the logistic link H(α) = −κ sin α, so λ0(r0) = κ(1 − r0²/4) and r0 = 2√(1 − frac)
    for frac in (0.5, 0.8):
        r = rg.stability_radius(LOGISTIC, "1", frac)
        assert r["r0"] == pytest.approx(2 * math.sqrt(1 - frac), rel=1e-9)
        assert r["alpha"] == pytest.approx(2 * math.asin(r["r0"] / 2), rel=1e-14)
    # the documented default fraction is 1/2
    assert rg.stability_radius(LOGISTIC, "1")["r0"] == pytest.approx(math.sqrt(2), rel=1e-9)


def test_stability_radius_matches_lambda0_helper():
    r = rg.stability_radius(TT_STABLE, "0.2", 0.5)
    assert 0 < r["r0"] < 2 and r["lambda0"] == pytest.approx(r["level"], rel=1e-12)
    assert lambda0_2d(TT_STABLE, "0.2", r["r0"]) == pytest.approx(r["level"], rel=1e-9)
    assert lambda0_2d(TT_STABLE, "0.2", r["r0"] * 1.01) < r["level"]
    assert lambda0_2d(TT_STABLE, "0.2", r["r0"] * 0.99) > r["level"]


def test_stability_radius_cap():
    """d >= 3: the logistic field is the same in every tilt (H = -kappa sin alpha, m2 = 0), so the
    cap radius equals the in-plane closed form 2 sqrt(1 - frac); for the stable two-transition
    link the level is set by the slower kappa_perp, and an unstable link has no radius."""
    logistic = make_family("logistic")
    for frac in (0.5, 0.75):
        r = rg.stability_radius_cap(logistic, "1", frac)
        # bisection on the angle to ~1e-12; the tilt grid is exact here (no tilt dependence)
        assert r["r0"] == pytest.approx(2 * math.sqrt(1 - frac), abs=1e-9)
    tt = make_family("two-transition", mu2="-1.074037")
    cap = rg.stability_radius_cap(tt, "1", 0.75)
    rates = rt.local_rates(tt, "1", 3)
    assert cap["kappa"] == rates["kappa"] == rates["kappa_perp"] < rates["kappa_theta"]
    assert cap["lambda0"] >= cap["level"] - 1e-12
    with pytest.raises(NBLInputError, match="not locally attracting"):
        rg.stability_radius_cap(make_family("two-transition", mu2="1.244122"), "0.2")


def test_a_gaussian_window_ending_inside_the_scan_is_accepted():
    """nbl_sim.studies.rate_theory:165 (``-40`` -> ``-39``): a function whose mass starts at
    w = −38.5 has the window [−39.5, 13] (one unit of margin), inside the scan [−40, 40]: it is
    accepted; one reaching −39.5 or past is refused."""

    def mass_from(a):
        # |f|(1 + w²)φ(w) flat on [a, 0] and zero elsewhere: the window is [a − 1, 1] ∪ [−13, 13]
        return lambda w: np.where((w >= a) & (w <= 0), np.exp(0.5 * w * w - 300) / (1 + w * w), 0.0)

    assert rt._window(mass_from(-38.5), "f") == (-39.5, 13.0)
    with pytest.raises(NBLInputError, match="not contained"):
        rt._window(mass_from(-39.0), "f")
    assert math.isfinite(rt._window(mass_from(-5.0), "f")[0])
