"""Exact constants for the regret-rate study: local rates, tangent noise, the linearized
recursion and step-size thresholds (the error-to-regret geometry and the stability radius are
in :mod:`nbl_sim.studies.regret_geometry`).

Setting (sec:nbl, sec:regret, app:simulation-setup): X ~ N(0, I_d), arms β_a = θ + a(Δ/2)v*
with θ ⊥ v*, ‖θ‖² = s² = 1 − Δ²/4; m_a(x) = g(β_aᵀx); the greedy action at v is sgn(vᵀX); NBL
steps v_t ∝ v_{t−1} + η_t G_t with G_t = (I − v_{t−1}v_{t−1}ᵀ)A_tY_tX_t and η_t = γ/(t + t0).
Write c = Δ/2, θ̂ = θ/s, z1 = v*ᵀX, z2 = θ̂ᵀX, φ0 = φ(0) = 1/√(2π).

Local rates (prop:local_jacobian, eq:Jacobian). Dh(v*) = −Δμ*P + 2φ0 m2 θθᵀ on T_{v*}: the
θ̂-direction contracts at κ_θ = Δμ* − 2φ0 m2 s², every tangent direction ⊥ θ (d ≥ 3 only) at
κ_⊥ = Δμ*. The slowest rate is κ = κ_θ in d = 2 and min(κ_θ, κ_⊥) in d ≥ 3. λ* of
eq:decision_stability equals the d ≥ 3 rate; in d = 2 with m2 < 0, κ_θ > λ*.

Linearized recursion. Near v*, u_t = (I − v*v*ᵀ)v_t obeys u_t ≈ (I + η_t Dh)u_{t−1} + η_t ξ_t,
ξ_t the centred tangent noise at v*; in the eigenbasis (θ̂ and d − 2 directions ω ⊥ v*, θ̂)
the modes decouple and a_{t,i} = E[u_{t,i}²] satisfies exactly

    a_{t,i} = (1 − η_t κ_i)² a_{t−1,i} + η_t² σ_i²,

σ_θ² = E[Y²(θ̂ᵀX)²], σ_⊥² = E[Y²] (the noise second moments at v*, where E[G] = h(v*) = 0).
For η_t = γ/(t + t0), a_t decays like t^{−min(1, 2γκ)} (log t / t when 2γκ = 1), so the
1/t rate of prop:localized-estimation needs γ > γ_c = 1/(2κ). The paper's λ0 of
cor:local_stability is at most κ (it is a minimum over a neighbourhood whose limit at v* is
the slowest rate), so its condition 2γλ0 > 1 needs at least γ > γ_c.

Validation: every public function raises :class:`~nbl_theory.errors.NBLInputError` for bad
input (Δ ∉ (0, 2), d < 2, NaN/inf, γ ≤ 0, ...).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

from nbl_theory.errors import NBLInputError
from nbl_theory.links import Link
from nbl_theory.numeric import PHI0, gauss_legendre_panels
from nbl_theory.paper import PAPER_LINKS, TWO_TRANSITION_KEYS, paper_link
from nbl_theory.stability import stability
from nbl_theory.validation import (
    check_link,
    delta_value,
    dimension,
    finite_array,
    positive,
    real,
)

from ..engine.contract import GAMMA
from ..engine.environment import Environment

__all__ = [
    "PAPER_EXAMPLE_LINKS",
    "Mode",
    "local_rates",
    "tangent_noise",
    "predicted_exponent",
    "linear_recursion_mse",
    "modes_for",
    "loglog_slope",
    "gamma_threshold",
    "step_size_table",
]


#: The paper's example links (app:tanh-geometry, app:elicitation-geometry) as (table label,
#: key of :func:`nbl_theory.paper.paper_link`); weighted-entropy rho = 0 is exactly logistic.
PAPER_EXAMPLE_LINKS = (
    ("logistic", "logistic"),
    *((f"two-transition mu2={PAPER_LINKS[k].params['mu2']}", k) for k in TWO_TRANSITION_KEYS),
    ("weighted-entropy rho=0", "we-0"),
    ("weighted-entropy rho=0.4", "we-0.4"),
    ("weighted-entropy rho=0.8", "we-0.8"),
)


# ============================================================================ 1. local rates
def local_rates(link: Link, delta, d: int) -> dict:
    """Linear contraction rates of the population NBL field at v* in dimension ``d``.

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        Arm separation Δ ∈ (0, 2) (decimal strings are taken exactly).
    d : int
        Dimension, ≥ 2.

    Returns
    -------
    dict of floats
        ``kappa_theta`` = Δμ* − 2φ0(0) m2 (1 − Δ²/4) (the θ-direction, eq:Jacobian);
        ``kappa_perp`` = Δμ* (directions ⊥ θ; ``None`` in d = 2, where there are none);
        ``kappa`` = the slowest rate in dimension d (κ_θ in d = 2, min(κ_θ, κ_⊥) for d ≥ 3);
        ``lambda_star`` (eq:decision_stability; equals the d ≥ 3 rate), ``mu_star``, ``m2``.
        Values from ``nbl_theory.stability.stability`` (float64 tier, ~1e-15).
    """
    check_link(link)
    din, _ = delta_value(delta)
    d = dimension(d)
    res = stability(link, din, auto_raise=False)
    k_theta = float(res.jacobian_rates["theta"])
    k_perp = float(res.jacobian_rates["orthogonal"]) if d >= 3 else None
    return {
        "kappa_theta": k_theta,
        "kappa_perp": k_perp,
        "kappa": k_theta if d == 2 else min(k_theta, k_perp),
        "lambda_star": float(res.values["lambda_star"]),
        "mu_star": float(res.values["mu_star"]),
        "m2": float(res.values["m2"]),
    }


# ============================================================================ 2. tangent noise
def _skew_kernels(w: np.ndarray, delta: float) -> tuple[np.ndarray, np.ndarray]:
    """Densities K0, K2 with E[f(W)] = ∫ f K0 and E[f(W) z2²] = ∫ f K2 for W = s z2 + c|z1|.

    (|z1|, z2) has density 2φ(r)φ(z2) on r > 0; with z2 = (w − cr)/s and s² + c² = 1 the joint
    density factors as 2φ(w)φ((r − cw)/s)/s, and with r = cw + st, b = cw/s:
    K0 = 2φ(w)Φ(b) (a skew-normal density) and
    K2 = 2φ(w)[s²w²Φ(b) − 2scwφ(b) + c²(Φ(b) − bφ(b))]."""
    c = delta / 2
    s = math.sqrt(1 - c * c)
    b = c * w / s
    pw = PHI0 * np.exp(-0.5 * w * w)
    Pb, pb = ndtr(b), PHI0 * np.exp(-0.5 * b * b)
    k0 = 2 * pw * Pb
    k2 = 2 * pw * (s * s * w * w * Pb - 2 * s * c * w * pb + c * c * (Pb - b * pb))
    return k0, k2


def _w_nodes(delta: float, lo: float, hi: float) -> tuple[np.ndarray, np.ndarray]:
    """Panels on [lo, hi] ∋ 0 with a breakpoint at 0, width s/(4c) out to |w| = 4s/c (where
    Φ(cw/s) saturates), then width 1/4."""
    c = delta / 2
    s = math.sqrt(1 - c * c)
    inner = min(4 * s / c, 4.0)
    h_in = min(0.25, inner / 16)
    pos = np.concatenate([np.arange(0.0, inner, h_in), np.arange(inner, hi, 0.25), [hi]])
    neg = np.concatenate([np.arange(0.0, inner, h_in), np.arange(inner, -lo, 0.25), [-lo]])
    pos, neg = np.unique(pos), np.unique(neg)
    edges = np.concatenate([-neg[::-1], pos[1:]])
    return gauss_legendre_panels(edges)


def _window(vals_fn, name: str) -> tuple[float, float]:
    """[lo, hi] ⊇ [−13, 13] outside which |f(w)|(1 + w²)φ(w) < 1e-22 of its maximum
    (scan on [−40, 40], step 1/8)."""
    w = np.linspace(-40, 40, 641)
    with np.errstate(all="ignore"):
        f = np.asarray(vals_fn(w), dtype=float)
    if not np.all(np.isfinite(f)):
        raise NBLInputError(f"{name} is not finite in float64 on [-40, 40]")
    with np.errstate(divide="ignore"):
        logw = np.log(np.abs(f)) + np.log1p(w * w) - 0.5 * w * w
    if not np.any(np.isfinite(logw)):
        return -13.0, 13.0
    keep = np.flatnonzero(logw > np.max(logw) - 22 * math.log(10))
    lo, hi = w[keep[0]] - 1.0, w[keep[-1]] + 1.0
    if lo <= -40 or hi >= 40:
        raise NBLInputError(f"{name}: Gaussian mass not contained in [-40, 40]")
    return min(lo, -13.0), max(hi, 13.0)


def tangent_noise(link: Link, delta, reward: str = "bernoulli", noise: float = 0.0) -> dict:
    """Second moments of the NBL increment G = (I − v*v*ᵀ)AYX at v = v* (where E[G] = 0).

    In the eigenbasis of Dh(v*) the covariance of G is diagonal (z3 = ωᵀX is independent and
    symmetric): ``sigma2_theta`` = E[Y²(θ̂ᵀX)²] for the θ̂ direction and ``sigma2_perp`` =
    E[Y²] for each direction ω ⊥ v*, θ̂ (d ≥ 3). The chosen arm at v* is A = sgn(z1), so
    β_Aᵀx = s z2 + (Δ/2)|z1| =: W; E[Y² | X] = g(W) for Bernoulli rewards (Y ∈ {0, 1}) and
    g(W)² + b²/3 for ``"bounded"`` rewards Y = g + U(−b, b), b = ``noise``.

    Exact 2-D Gaussian integration reduced to one dimension: E[f(W)] = ∫ f K0 and
    E[f(W) z2²] = ∫ f K2 with closed-form kernels (:func:`_skew_kernels`), integrated by
    composite 16-point Gauss–Legendre (panel width ≤ 1/4, finer near 0 where Φ(cw/s) turns);
    accuracy ~1e-14 (checked against a direct 2-D rule and Monte Carlo in the tests).

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        Arm separation Δ ∈ (0, 2).
    reward : {"bernoulli", "bounded"}
        Bernoulli needs 0 ≤ g ≤ 1 (checked as in :class:`~nbl_sim.engine.environment.Environment`).
    noise : float ≥ 0
        Half-width b of the uniform reward noise (``"bounded"`` only; ignored otherwise).

    Returns
    -------
    dict
        ``sigma2_theta``, ``sigma2_perp`` (floats), and the ``reward`` and ``noise`` used.
    """
    check_link(link)
    din, dl = delta_value(delta)
    noise = real(noise, "noise")
    Environment.build(link, din, 2, reward=reward, noise=noise)  # validates reward / range

    def f(w):
        gw = link.g_numpy(w)
        return gw if reward == "bernoulli" else gw * gw

    lo, hi = _window(f, f"E[Y^2 | X] of link {link.name!r}")
    w, wt = _w_nodes(dl, lo, hi)
    with np.errstate(all="ignore"):
        fw = np.asarray(f(w), dtype=float)
    if not np.all(np.isfinite(fw)):
        raise NBLInputError(f"link {link.name!r} is not finite on the quadrature window")
    k0, k2 = _skew_kernels(w, dl)
    extra = noise * noise / 3 if reward == "bounded" else 0.0
    return {
        "sigma2_theta": float(np.sum(wt * fw * k2)) + extra,
        "sigma2_perp": float(np.sum(wt * fw * k0)) + extra,
        "reward": reward,
        "noise": noise if reward == "bounded" else None,
    }


# ============================================================================ 3. exponent
def predicted_exponent(kappa, gamma) -> float:
    """Decay exponent of E‖v_t − v*‖² for η_t = γ/(t + t0): min(1, 2γκ).

    From the linearized recursion a_t = (1 − η_tκ)²a_{t−1} + η_t²σ²: the product
    ∏(1 − η_uκ)² ≈ ((s + t0)/(t + t0))^{2γκ}, so a_t ~ t^{−1} (γ²σ²/(2γκ − 1)/t) when
    2γκ > 1, a_t ~ t^{−2γκ} when 2γκ < 1, and a_t ~ log t / t at 2γκ = 1 (exponent 1 up to
    the logarithm). A value ≤ 0 (κ ≤ 0) means the linearization predicts no decay.

    Parameters
    ----------
    kappa : float
        The contraction rate κ.
    gamma : float
        The step-size constant γ > 0.

    Returns
    -------
    float
        min(1, 2γκ).
    """
    k = real(kappa, "kappa")
    g = positive(gamma, "gamma")
    return min(1.0, 2 * g * k)


# ============================================================================ 4. recursion
@dataclass(frozen=True)
class Mode:
    """One tangent mode of the linearized recursion: rate κ, noise variance σ², initial second
    moment a0 = E[e_{n0,i}²] per coordinate, and multiplicity (number of such coordinates).

    Parameters
    ----------
    kappa : float
        The mode's contraction rate κ (any sign; ≤ 0: no contraction).
    sigma2 : float
        The noise variance σ² ≥ 0 of the increment along the mode.
    a0 : float
        The initial second moment E[e_{n0,i}²] ≥ 0 per coordinate.
    multiplicity : int, default 1
        The number of coordinates sharing this mode, ≥ 0.
    """

    kappa: float
    sigma2: float
    a0: float
    multiplicity: int = 1

    def __post_init__(self):
        real(self.kappa, "kappa")
        if real(self.sigma2, "sigma2") < 0:
            raise NBLInputError(f"sigma2 must be >= 0, got {self.sigma2!r}")
        if real(self.a0, "a0") < 0:
            raise NBLInputError(f"a0 must be >= 0, got {self.a0!r}")
        m = self.multiplicity
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 0:
            raise NBLInputError(f"multiplicity must be an integer >= 0, got {m!r}")


def _as_mode(m) -> Mode:
    if isinstance(m, Mode):
        return m
    if isinstance(m, dict):
        return Mode(**m)
    try:
        return Mode(*m)
    except TypeError as exc:
        raise NBLInputError(
            f"a mode is a Mode, a dict or a tuple (kappa, sigma2, a0[, multiplicity]), got {m!r}"
        ) from exc


_BLOCK = 1024  # steps per vectorized block
_LOG_RANGE = 40.0  # max Σ|log q| inside a vectorized block (else the plain loop)


def _mode_path(kappa, sigma2, a0, eta_all, n0, t_int):
    """a_t of one mode at the integer rounds t_int (sorted unique, ≥ n0)."""
    T = int(t_int[-1])
    out = np.empty(t_int.size)
    a = float(a0)
    j = int(np.searchsorted(t_int, n0, side="right"))
    out[:j] = a  # t = n0
    start = n0 + 1
    while start <= T and j < t_int.size:
        stop = min(start + _BLOCK - 1, T)  # steps start..stop inclusive
        eta = eta_all[start - n0 - 1 : stop - n0]
        x = eta * kappa
        b = eta * eta * sigma2
        with np.errstate(divide="ignore"):
            lq = 2 * np.log(np.abs(1 - x)) if np.any(x >= 1) else 2 * np.log1p(-x)
        k_hi = int(np.searchsorted(t_int, stop, side="right"))
        if np.all(np.isfinite(lq)) and float(np.abs(lq).sum()) <= _LOG_RANGE:
            L = np.cumsum(lq)
            path = np.exp(L) * (a + np.cumsum(b * np.exp(-L)))
            idx = t_int[j:k_hi] - start
            out[j:k_hi] = path[idx]
            a = float(path[-1])
        else:  # large steps: the plain recursion
            path = np.empty(stop - start + 1)
            for i in range(path.size):
                a = (1 - x[i]) ** 2 * a + b[i]
                path[i] = a
            out[j:k_hi] = path[t_int[j:k_hi] - start]
        j = k_hi
        start = stop + 1
    return out


def linear_recursion_mse(modes: Iterable, gamma, t0, n0, t, per_mode: bool = False):
    """Exact second moment of the linearized NBL recursion, summed over tangent modes.

    For each mode i (κ_i, σ_i², a0_i, multiplicity m_i) and η_t = γ/(t + t0),
    a_{t,i} = (1 − η_tκ_i)² a_{t−1,i} + η_t² σ_i² from a_{n0,i} = a0_i; the result is
    Σ_i m_i a_{t,i} at the integer rounds ``t`` (array, all ≥ n0).

    Vectorized in blocks of 1024 steps: inside a block a_t = Q_t(a + Σ_s b_s/Q_s) with the
    cumulative product Q in log space (log1p); blocks where the products span more than e^40
    (large early steps, η_tκ near 1) use the plain loop. Exact to ~1e-13 relative against the
    plain loop (tested).

    Parameters
    ----------
    modes : iterable of Mode
        The tangent modes (:class:`Mode`, or tuples (kappa, sigma2, a0[, multiplicity])); at
        least one.
    gamma : float
        The step-size constant γ > 0.
    t0 : float
        The step-size offset, with n0 + 1 + t0 > 0 (so every η_t is finite and positive).
    n0 : int
        The round of a0, ≥ 0.
    t : array_like of int
        The rounds at which the moment is wanted, all ≥ n0 (any order, repeats allowed).
    per_mode : bool, default False
        Return an array (len(modes), len(t)) of m_i a_{t,i} instead of the sum.

    Returns
    -------
    numpy.ndarray
        Σ_i m_i a_{t,i}, of the shape of ``t`` (or (len(modes), len(t)) with
        ``per_mode``).
    """
    ms = [_as_mode(m) for m in modes]
    if not ms:
        raise NBLInputError("at least one mode is needed")
    g = positive(gamma, "gamma")
    t0 = real(t0, "t0")
    if isinstance(n0, bool) or not isinstance(n0, (int, np.integer)) or n0 < 0:
        raise NBLInputError(f"n0 must be an integer >= 0, got {n0!r}")
    n0 = int(n0)
    if n0 + 1 + t0 <= 0:
        raise NBLInputError(f"need n0 + 1 + t0 > 0 for positive steps, got {n0 + 1 + t0}")
    tt = finite_array(t, "t")
    shape = tt.shape
    flat = tt.ravel()
    if flat.size == 0:
        raise NBLInputError("t is empty")
    if np.any(flat != np.round(flat)) or np.any(flat < n0):
        raise NBLInputError(f"t must hold integer rounds >= n0 = {n0}")
    t_int, inv = np.unique(flat.astype(np.int64), return_inverse=True)
    T = int(t_int[-1])
    eta_all = g / (np.arange(n0 + 1, T + 1, dtype=float) + t0)
    rows = np.stack(
        [
            m.multiplicity
            * _mode_path(float(m.kappa), float(m.sigma2), float(m.a0), eta_all, n0, t_int)
            for m in ms
        ]
    )
    rows = rows[:, inv].reshape((len(ms),) + shape)
    return rows if per_mode else rows.sum(axis=0)


def modes_for(
    link: Link, delta, d: int, a0, reward: str = "bernoulli", noise: float = 0.0
) -> list[Mode]:
    """The d − 1 tangent modes at v*: the θ̂ mode (κ_θ, σ_θ²) and, for d ≥ 3, the d − 2
    perpendicular modes (κ_⊥, σ_⊥²) as one :class:`Mode` of multiplicity d − 2; the initial
    total second moment ``a0`` = E‖v_{n0} − v*‖² is split equally over the d − 1 coordinates.

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        Arm separation Δ ∈ (0, 2).
    d : int
        The dimension, ≥ 2.
    a0 : float
        The initial total second moment E‖v_{n0} − v*‖² ≥ 0.
    reward : {"bernoulli", "bounded"}, default "bernoulli"
        The reward model (see :func:`tangent_noise`).
    noise : float, default 0.0
        Half-width of the uniform reward noise (``"bounded"`` only).

    Returns
    -------
    list of Mode
        One mode in d = 2, two (θ̂ and ⊥, multiplicity d − 2) for d ≥ 3.
    """
    d = dimension(d)
    a0 = real(a0, "a0")
    if a0 < 0:
        raise NBLInputError(f"a0 must be >= 0, got {a0!r}")
    rates = local_rates(link, delta, d)
    nz = tangent_noise(link, delta, reward=reward, noise=noise)
    out = [Mode(rates["kappa_theta"], nz["sigma2_theta"], a0 / (d - 1), 1)]
    if d >= 3:
        out.append(Mode(rates["kappa_perp"], nz["sigma2_perp"], a0 / (d - 1), d - 2))
    return out


def loglog_slope(t, a, t_lo, t_hi=None) -> float:
    """Least-squares slope of log a against log t over t_lo ≤ t ≤ t_hi (default: to the end).

    Parameters
    ----------
    t : array_like
        The rounds (positive on the window).
    a : array_like
        The values at them, same length (positive on the window).
    t_lo : float
        The window's start.
    t_hi : float, optional
        The window's end (default: no end).

    Returns
    -------
    float
        The fitted slope (e.g. −1 for a 1/t decay).

    Raises
    ------
    NBLInputError
        Lengths that differ, fewer than two points in the window, or a value ≤ 0 there.
    """
    tt = finite_array(t, "t").ravel()
    aa = finite_array(a, "a").ravel()
    if tt.shape != aa.shape:
        raise NBLInputError(f"t and a must have the same length, got {tt.size} and {aa.size}")
    lo = real(t_lo, "t_lo")
    hi = math.inf if t_hi is None else real(t_hi, "t_hi")
    sel = (tt >= lo) & (tt <= hi)
    if sel.sum() < 2:
        raise NBLInputError("the window holds fewer than two points")
    if np.any(tt[sel] <= 0) or np.any(aa[sel] <= 0):
        raise NBLInputError("t and a must be positive on the window (logarithms)")
    return float(np.polyfit(np.log(tt[sel]), np.log(aa[sel]), 1)[0])


# ============================================================================ 5. thresholds
def gamma_threshold(kappa) -> float:
    """γ_c = 1/(2κ): the step-size constant above which η_t = γ/(t + t0) gives the 1/t rate;
    ``math.inf`` when κ ≤ 0 (no step size helps: the linearization does not contract).

    Parameters
    ----------
    kappa : float
        The contraction rate κ.

    Returns
    -------
    float
        γ_c = 1/(2κ), or ``math.inf`` for κ ≤ 0.
    """
    k = real(kappa, "kappa")
    return 1 / (2 * k) if k > 0 else math.inf


def _verdict(kappa: float, gamma: float) -> str:
    if kappa <= 0:
        return "unstable: κ ≤ 0"
    x = 2 * gamma * kappa
    if x > 1:
        return "above threshold"
    if x == 1:
        return "at threshold (log t / t)"
    return f"below threshold (exponent {x:.2g})"


def step_size_table(gamma: float = GAMMA, deltas: Sequence = (0.2, 1.0, 1.8)) -> list[dict]:
    """Rows (link × Δ) for the paper's example links (:data:`PAPER_EXAMPLE_LINKS`).

    Each row: ``link``, ``delta``, ``lambda_star``, ``kappa_d2`` (= κ_θ), ``kappa_d3``
    (= min(κ_θ, κ_⊥), d ≥ 3), ``gamma_c_d2``, ``gamma_c_d3`` (= 1/(2κ)), ``two_gamma_kappa_d2``,
    ``two_gamma_kappa_d3`` (2γκ at the given γ), ``exponent_d2``, ``exponent_d3``
    (min(1, 2γκ)) and ``verdict_d2``, ``verdict_d3`` ("above threshold", "below threshold
    (exponent x)" or "unstable: κ ≤ 0"). The paper's λ0 ≤ κ, so its 2γλ0 > 1 needs γ > γ_c.

    Parameters
    ----------
    gamma : float, default 10.0
        The step-size constant γ > 0 the rows are judged at.
    deltas : sequence, default (0.2, 1.0, 1.8)
        The separations Δ (non-empty).

    Returns
    -------
    list of dict
        One row per (link, Δ), keys as above.
    """
    g = positive(gamma, "gamma")
    ds = list(deltas)
    if not ds:
        raise NBLInputError("deltas is empty")
    rows = []
    for label, key in PAPER_EXAMPLE_LINKS:
        link = paper_link(key)
        for dl in ds:
            r2, r3 = local_rates(link, dl, 2), local_rates(link, dl, 3)
            row = {
                "link": label,
                "delta": float(delta_value(dl)[1]),
                "lambda_star": r2["lambda_star"],
            }
            for key, r in (("d2", r2), ("d3", r3)):
                k = r["kappa"]
                row[f"kappa_{key}"] = k
                row[f"gamma_c_{key}"] = gamma_threshold(k)
                row[f"two_gamma_kappa_{key}"] = 2 * g * k
                row[f"exponent_{key}"] = predicted_exponent(k, g)
                row[f"verdict_{key}"] = _verdict(k, g)
            rows.append(row)
    return rows
