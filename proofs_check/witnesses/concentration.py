"""Tail bounds of the stopped stochastic terms (app:stopped-stochastic-control), written out from
the lemmas: Monte Carlo samples of weighted χ² sums (lem:weighted_chisquare) and of running
maxima of sub-Gaussian martingales (lem:maximal-subgaussian-martingale), the thresholds of
lem:stopped-stochastic-control and their algebra, and the stopped terms M_t, Q_n and NBL's U_s on
paths the witness runs itself (:mod:`proofs_check.witnesses.paths`), and the constant of the
initialization bound eq:init-bound-localization that exceedance frequencies imply.

Every frequency is returned with the bound it is compared with; the claims judge them
(:func:`proofs_check.witnesses.stats.binomial_z`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .paths import environment, reward_bound, run_paths, stopped_terms
from .stats import binomial_z

__all__ = [
    "chisq_samples",
    "chisq_tail",
    "weighted_chi_q_chain",
    "maximal_paths",
    "maximal_tail",
    "nbl_u_statistics",
    "stopped_maxima",
    "control_thresholds",
    "control_algebra",
    "proof_intermediate_tails",
    "upper_quantile",
    "paper_thresholds",
    "init_grid",
    "InitSetting",
    "implied_c_init",
    "chi2_init_prediction",
    "max_over_min",
    "implied_c_loc",
]


def chisq_samples() -> tuple:
    """Samples of S = Σ_s a_s(‖Z_s‖² − d), Z_s ~ N(0, I_d) independent (seed 4242), for five
    weight vectors (one weight, d = 1 and 4; 200 equal weights; 20 uniform random weights, d = 3;
    a_s = η_s² = 1/(10 + s)², s = 1..300, d = 2), and 40,000 samples of Σ_s η_s² ‖X_s‖² (d = 2)
    with the same harmonic weights.

    Returns
    -------
    cases : tuple
        (label, a, d, N, S) per weight vector.
    eta2 : ndarray
        The harmonic weights η_s² (γ = 1, n0 + t0 = 10).
    Sx : ndarray
        The samples of Σ_s η_s² ‖X_s‖².
    """
    rng = np.random.default_rng(4242)
    eta2 = 1.0 / (10.0 + np.arange(1, 301)) ** 2  # a_s = eta_s^2, gamma = 1, n0+t0 = 10
    cases = [
        ("m=1 d=1", np.array([1.0]), 1, 400_000),
        ("m=1 d=4", np.array([1.0]), 4, 400_000),
        ("m=200 d=1 equal", np.full(200, 1.0), 1, 400_000),
        ("m=20 d=3 random", rng.uniform(0, 1, 20), 3, 200_000),
        ("eta_s^2, gamma=1, n0+t0=10, m=300, d=2", eta2, 2, 40_000),
    ]
    out = []
    for label, a, d, N in cases:
        if np.all(a == a[0]):
            S = a[0] * (rng.chisquare(d * a.size, N) - d * a.size)
        else:
            S = np.zeros(N)
            for s in range(a.size):
                S += a[s] * (rng.chisquare(d, N) - d)
        out.append((label, a, d, N, S))
    Sx = np.zeros(40_000)  # sum_s eta_s^2 ||X_s||^2 with the harmonic weights
    for s in range(eta2.size):
        Sx += eta2[s] * rng.chisquare(2, Sx.size)
    return tuple(out), eta2, Sx


def chisq_tail(S, a, d: int, x: float, sqrt_coef: float = 2.0) -> tuple:
    """(frequency of S ≥ sqrt_coef √(d x Σa_s²) + 2x max a_s, e^{−x}): the tail of
    lem:weighted_chisquare and its bound (``sqrt_coef`` 2 in the lemma)."""
    thr = sqrt_coef * math.sqrt(d * x * float((a * a).sum())) + 2 * x * float(a.max())
    return float((S >= thr).mean()), math.exp(-x)


def weighted_chi_q_chain(
    eta2, Sx, d: int, n0t0: float, x: float, sqrt_coef: float = 2.0, final_coef: float = 3.0
) -> dict:
    """eq:weighted-chi-Q with a_s = η_s² and the proof's simplification to
    final_coef γ²(d + x)/(n0 + t0) (γ = 1; 3 in the paper).

    Returns
    -------
    dict
        ``full`` = d Σ η_s² + sqrt_coef √(x d Σ η_s⁴) + 2x max η_s² (the threshold);
        ``mid`` = d/N + 2√(xd)/N^{3/2} + 2x/N² (N = n0 + t0, the step bound of the proof);
        ``step`` = (2d + 3x)/N; ``final`` = final_coef (d + x)/N; ``freq``, the frequency of
        Σ η_s² ‖X_s‖² > final in ``Sx``; ``bound`` = e^{−x}.
    """
    full = (
        d * eta2.sum()
        + sqrt_coef * math.sqrt(x * d * float((eta2**2).sum()))
        + 2 * x * float(eta2.max())
    )
    mid = d / n0t0 + 2 * math.sqrt(x * d) / n0t0**1.5 + 2 * x / n0t0**2
    final = final_coef * (d + x) / n0t0
    return dict(
        full=full,
        mid=mid,
        step=(2 * d + 3 * x) / n0t0,
        final=final,
        freq=float((Sx > final).mean()),
        bound=math.exp(-x),
    )


def maximal_paths() -> dict:
    """Running maxima max_{t ≤ T} S_t of 100,000 martingale paths (T = 100, seed 99) for three
    increment laws: Gaussian with harmonic σ_s = 1/(s + 5) (equality in the MGF condition),
    Rademacher with that σ_s times a scale c ∈ {1/2, 1} chosen from the past (cosh(λσc) ≤
    e^{λ²σ²/2}), and Gaussian with the constant mean σ.

    Returns
    -------
    dict
        {law: (V_T = Σ σ_s², running maxima)}.
    """
    rng = np.random.default_rng(99)
    T, N = 100, 100_000
    sig = 1.0 / (np.arange(1, T + 1) + 5.0)  # harmonic, like eta_s
    out = {}
    for label in ("gaussian", "rademacher-predictable-scale", "gaussian-constant"):
        s = np.full(T, sig.mean()) if label == "gaussian-constant" else sig
        S = np.zeros(N)
        mx = np.full(N, -np.inf)
        for k in range(T):
            if label.startswith("gaussian"):
                D = s[k] * rng.standard_normal(N)
            else:  # a scale chosen from the past, c in {1/2, 1}: cosh(l s c) <= e^{l^2 s^2/2}
                D = s[k] * rng.choice([-1.0, 1.0], N) * np.where(S > 0, 0.5, 1.0)
            S += D
            np.maximum(mx, S, out=mx)
        out[label] = (float((s**2).sum()), mx)
    return out


def maximal_tail(mx, VT: float, c: float, var_factor: float = 2.0) -> tuple:
    """(frequency of max_t S_t ≥ x, exp(−x²/(var_factor V_T))) at x = c √V_T: the tail of
    lem:maximal-subgaussian-martingale and its bound (``var_factor`` 2 in the lemma)."""
    x = c * math.sqrt(VT)
    return float((mx >= x).mean()), math.exp(-x * x / (var_factor * VT))


def nbl_u_statistics(link, delta: str, r0: float, draws: int, seed: int) -> tuple:
    """NBL's U_s = a y ⟨P⊥(v − v*), X⟩ at a fixed v at distance ``r0`` from v* (d = 2), from
    ``draws`` contexts and rewards of the realization (seed ``seed``), σ = B_Y ‖P⊥(v − v*)‖.

    Returns
    -------
    tail_z : float
        The largest binomial z of P(|U| ≥ cσ) above 2e^{−c²/2}, c ∈ {0.5, 1, 2, 3} (where the
        bound is below 1).
    mg : float
        max over λσ ∈ ±{0.5, 1, 2} of log E e^{λ(U − EU)}/(λσ)² (empirical).
    tails : tuple
        (c, frequency, bound) per c.
    """
    env = environment(link, delta)
    v = env.initial_direction(math.degrees(2 * math.asin(r0 / 2)))
    real = env.draw(seed, [0], draws, 0)
    X, Y = real.X[0], real.Y[0]
    a = np.where(X @ v >= 0, 1, -1)
    y = np.where(a > 0, Y[:, 1], Y[:, 0])
    D = v - env.v_star
    PD = D - (v @ D) * v
    U = a * y * (X @ PD)
    sigma = reward_bound(env) * float(np.linalg.norm(PD))
    tail_z, tails = -math.inf, []
    for c in (0.5, 1.0, 2.0, 3.0):
        f, b = float((np.abs(U) >= c * sigma).mean()), 2 * math.exp(-c * c / 2)
        if b < 1:
            tail_z = max(tail_z, binomial_z(f, b, U.size))
        tails.append((c, f, b))
    Uc = U - U.mean()
    mg = max(math.log(np.mean(np.exp(lt * Uc / sigma))) / lt**2 for lt in (-2, -1, -0.5, 0.5, 1, 2))
    return tail_z, mg, tuple(tails)


def stopped_maxima(link, delta: str, R: int, n0: int, t0: int, r0: float, seed: int) -> tuple:
    """(max(max_t M_t, 0), Q_n) on ``R`` NBL paths of n0 + 2000 rounds (d = 2, γ = 1) run by
    the witness (:func:`~proofs_check.witnesses.paths.run_paths`,
    :func:`~proofs_check.witnesses.paths.stopped_terms` at radius ``r0``)."""
    env = environment(link, delta)
    p = run_paths(env, seed, R, n0 + 2000, n0=n0, gamma=1.0, t0=float(t0), keep_v=True)
    _tau, _ind, _dh, M, Q = stopped_terms(env, p, r0)
    return np.maximum(M.max(1), 0.0), Q[:, -1]


def control_thresholds(label: str, r0: float, c_q: float = 12.0) -> tuple:
    """(n0, t0) at the thresholds of lem:stopped-stochastic-control for γ = 1, δ = 0.3, B_Y = 1,
    d = 2: ``label`` "Q..." n0 + t0 = ⌈C_Q r0^{−2}(2 + log(3/δ))⌉ (C_Q = ``c_q``, 12) split with
    n0 = min(100, half); "M..." n0 = 100, n0 + t0 = ⌈128 r0^{−2} log(3/δ)⌉ (C_M = 256 C_sg,
    C_sg = 1/2); otherwise (the good events) n0 = ⌈128 r0^{−2}(2 + log(3/δ))⌉ (C_quad = 128),
    t0 = 0."""
    L3 = math.log(3 / 0.3)
    if label.startswith("Q"):
        thr = math.ceil(c_q / r0**2 * (2 + L3))
        n0 = min(100, thr // 2)
        return n0, thr - n0
    if label.startswith("M"):
        return 100, math.ceil(128 / r0**2 * L3) - 100
    return math.ceil(128 / r0**2 * (2 + L3)), 0


def control_algebra() -> tuple:
    """The proof's constant algebra, exactly (sympy): (x = r0²/4 turns the maximal inequality's
    exponent N x²/(16 C_sg B² r0² γ²) into N r0²/(256 C_sg B² γ²); 3B²γ²(d + L)/N ≤ r0²/4 iff
    N ≥ 12 B²γ²(d + L)/r0², i.e. C_Q = 12)."""
    import sympy as sp

    n0t0, r0s, Csg, B, g, d, L = sp.symbols("N r0 C_sg B gamma d L", positive=True)
    x = r0s**2 / 4
    expo = n0t0 * x**2 / (16 * Csg * B**2 * r0s**2 * g**2)
    alg1 = sp.simplify(expo - n0t0 * r0s**2 / (256 * Csg * B**2 * g**2)) == 0
    thr_q = sp.solve(sp.Eq(3 * B**2 * g**2 * (d + L) / n0t0, r0s**2 / 4), n0t0)
    alg2 = len(thr_q) == 1 and sp.simplify(thr_q[0] - 12 * B**2 * g**2 * (d + L) / r0s**2) == 0
    return alg1, alg2


def proof_intermediate_tails(Mmax, Qn, c: float, B: float, r0: float, d: int) -> tuple:
    """The proof's intermediate bounds on the same paths (N = n0 + t0 = ``c``):
    P(max M ≥ √(8B²r0² log(1/b)/N)) ≤ b for b ∈ {0.5, 0.1}, and P(Q_n > 3B²(d + x)/N) ≤ e^{−x}
    for x ∈ {0.5, 2}.

    Returns
    -------
    tuple
        ("M", level, frequency, bound, b) and ("Q", level, frequency, bound, x) rows.
    """
    rows = []
    for b in (0.5, 0.1):
        xm = math.sqrt(8 * B**2 * r0**2 * math.log(1 / b) / c)
        rows.append(("M", xm, float((Mmax >= xm).mean()), b, b))
    for xq in (0.5, 2.0):
        thr = 3 * B**2 * (d + xq) / c
        rows.append(("Q", thr, float((Qn > thr).mean()), math.exp(-xq), xq))
    return tuple(rows)


def upper_quantile(x, p: float) -> float:
    """The empirical ``p``-quantile of ``x`` (numpy's linear interpolation)."""
    return float(np.quantile(x, p))


def paper_thresholds(gamma: float, c_q: float = 12.0, r0: float = 2.0) -> tuple:
    """(C_Q γ² r0^{−2}(2 + log 3), 128 γ² r0^{−2} log 3): the n0 + t0 that
    lem:stopped-stochastic-control needs (Q and M) with B_Y = 1, d = 2, δ → 1, C_sg = 1/2 and
    r0 = 2 (the diameter of the sphere): every free choice in the paper's favour."""
    L = math.log(3.0)
    return c_q * gamma**2 / r0**2 * (2 + L), 128 * gamma**2 / r0**2 * L


def init_grid(nmax: int):
    """The n0 grid of the initialization-bound check: 60 geometric points of [10, ``nmax``],
    rounded to distinct integers."""
    return np.unique(np.round(np.geomspace(10, nmax, 60)).astype(int))


class InitSetting(NamedTuple):
    """A setting of eq:init-bound-localization: the separation Δ, μ_g, the reward bound B_Y, the
    dimension d and the radius r0."""

    delta: float
    mu_g: float
    B: float
    d: int
    r0: float


def implied_c_init(grid, P, p: float, s: InitSetting, d_power: float = 1.0, mu_power: float = 2.0):
    """The constant C_init that eq:init-bound-localization, n0 ≥ C_init B²/(Δ²μ_g²r0²)(d +
    log(3/δ)), implies at δ/3 = ``p`` in the setting ``s``: n0* Δ² μ_g^mu_power r0²/(B²(d^d_power
    + log(1/p))), with n0* the smallest n0 of ``grid`` whose exceedance frequency ``P`` is ≤ p
    (``d_power`` 1 and ``mu_power`` 2 in the paper).

    Returns
    -------
    (int, float) or None
        (n0*, C_init), or None when no n0 of the grid reaches ``p``.
    """
    ok_idx = np.flatnonzero(P <= p)
    if ok_idx.size == 0:
        return None
    n0 = int(grid[ok_idx[0]])
    L = math.log(1 / p)  # log(3/delta) with delta/3 = p
    delta, mu_g, B, d, r0 = s
    return n0, n0 * delta**2 * mu_g**mu_power * r0**2 / (B**2 * (d**d_power + L))


def chi2_init_prediction(p: float, d: int) -> float:
    """The χ²_{d−1} limit law's (1 − p)-quantile over (d + log(1/p)): the implied C_init the
    tangential noise of W̄ predicts (up to a factor common to every (d, p))."""
    from scipy.stats import chi2

    return chi2.ppf(1 - p, d - 1) / (d + math.log(1 / p))


def max_over_min(values) -> float:
    """max/min of positive ``values``."""
    return max(values) / min(values)


def implied_c_loc(n0s, P, d: int) -> float:
    """The smallest C_loc with P ≤ exp(d − n0/C_loc) at every n0 of ``n0s`` with exit frequency
    P > 0 (lem:finite-horizon-localization: n0 ≥ C_loc(d + log(1/δ)) gives P(τ ≤ n) ≤ δ):
    max n0/(d − log P)."""
    return max(a / (d - math.log(p)) for a, p in zip(n0s, P) if p > 0)
