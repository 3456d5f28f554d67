"""Exact constants for the regret-rate study: local rates, tangent noise, the linearized
recursion, step-size thresholds, the error-to-regret geometry and the stability radius.

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

Error-to-regret geometry (eq:error-to-regret). For v = cos α v* + sin α(cos ψ θ̂ + sin ψ ω),

    E[r | v] = E[|m_+(X) − m_−(X)| 1{sgn(vᵀX) ≠ sgn(v*ᵀX)}]

depends on (z1, y, y') with y = cos ψ z2 + sin ψ z3, y' = −sin ψ z2 + cos ψ z3 (z3 = ωᵀX): the
disagreement is the d = 2 wedge in the (z1, y) plane, and since g is increasing the gap is
sgn(z1)(g(s z2 + c z1) − g(s z2 − c z1)) with s z2 = s cos ψ y − s sin ψ y'. Averaging over the
independent y' replaces g by its Gaussian smoothing ĝ(m) = E[g(m + s|sin ψ| Z)]:

    E[r | v] = E[|ĝ(s cos ψ y + c z1) − ĝ(s cos ψ y − c z1)| 1{(z1, y) ∈ wedge(α)}],

a smooth 2-D integral over the d = 2 wedges (polar Gauss–Legendre, as in d = 2). As α → 0,
E[r | v]/((Δ/2)‖v − v*‖²) → φ0 (cos²ψ E[g'(sZ)Z²] + sin²ψ E[g'(sZ)]) with relative
correction O(α²) (the gap is odd in z1, the disagreement strip has width tan α |y|).

Validation: every public function raises :class:`~nbl_theory.errors.NBLInputError` for bad
input (Δ ∉ (0, 2), d < 2, NaN/inf, γ ≤ 0, ...).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.special import ndtr

from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.links import Link
from nbl_theory.numeric import PHI0, gauss_legendre_panels, gauss_legendre_uniform
from nbl_theory.paper import PAPER_MU2
from nbl_theory.stability import stability
from nbl_theory.validation import (
    check_link,
    delta_value,
    dimension,
    finite_array,
    positive,
    real,
)

from . import population as pop
from .environment import Environment

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
    "regret_given_angle",
    "error_to_regret_constant",
    "regret_scaling",
    "stability_radius",
    "stability_radius_cap",
]


#: The paper's example links (app:tanh-geometry, app:elicitation-geometry): (label, family,
#: parameters). weighted-entropy rho = 0 is exactly the logistic link.
PAPER_EXAMPLE_LINKS = (
    ("logistic", "logistic", {}),
    *((f"two-transition mu2={PAPER_MU2[r]}", "two-transition", {"mu2": PAPER_MU2[r]})
      for r in ("stable", "near-critical", "unstable")),
    ("weighted-entropy rho=0", "weighted-entropy", {"rho": "0"}),
    ("weighted-entropy rho=0.4", "weighted-entropy", {"rho": "0.4"}),
    ("weighted-entropy rho=0.8", "weighted-entropy", {"rho": "0.8"}),
)


# ============================================================================ 1. local rates
def local_rates(link: Link, delta, d: int) -> dict:
    """Linear contraction rates of the population NBL field at v* in dimension ``d``.

    Parameters
    ----------
    link : Link
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
    delta : Δ ∈ (0, 2)
    reward : {"bernoulli", "bounded"}
        Bernoulli needs 0 ≤ g ≤ 1 (checked as in :class:`~nbl_sim.environment.Environment`).
    noise : float ≥ 0
        Half-width b of the uniform reward noise (``"bounded"`` only; ignored otherwise).

    Returns
    -------
    dict with ``sigma2_theta``, ``sigma2_perp`` (floats), ``reward``, ``noise``.
    """
    check_link(link)
    din, dl = delta_value(delta)
    noise = real(noise, "noise")
    Environment.build(link, din, 2, reward=reward, noise=noise)   # validates reward / range

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
    """
    k = real(kappa, "kappa")
    g = positive(gamma, "gamma")
    return min(1.0, 2 * g * k)


# ============================================================================ 4. recursion
@dataclass(frozen=True)
class Mode:
    """One tangent mode of the linearized recursion: rate κ, noise variance σ², initial second
    moment a0 = E[e_{n0,i}²] per coordinate, and multiplicity (number of such coordinates)."""

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
        raise NBLInputError("a mode is a Mode, a dict or a tuple (kappa, sigma2, a0[, "
                            f"multiplicity]), got {m!r}") from exc


_BLOCK = 1024          # steps per vectorized block
_LOG_RANGE = 40.0      # max Σ|log q| inside a vectorized block (else the plain loop)


def _mode_path(kappa, sigma2, a0, eta_all, n0, t_int):
    """a_t of one mode at the integer rounds t_int (sorted unique, ≥ n0)."""
    T = int(t_int[-1])
    out = np.empty(t_int.size)
    a = float(a0)
    j = int(np.searchsorted(t_int, n0, side="right"))
    out[:j] = a                                      # t = n0
    start = n0 + 1
    while start <= T and j < t_int.size:
        stop = min(start + _BLOCK - 1, T)            # steps start..stop inclusive
        eta = eta_all[start - n0 - 1: stop - n0]
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
        else:                                        # large steps: the plain recursion
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
    modes : iterable of :class:`Mode` (or tuples (kappa, sigma2, a0[, multiplicity]))
    gamma : float > 0
    t0 : float with n0 + 1 + t0 > 0 (so every η_t is finite and positive)
    n0 : int ≥ 0, the round of a0
    t : array of integer rounds ≥ n0 (any order, repeats allowed)
    per_mode : bool
        Return an array (len(modes), len(t)) of m_i a_{t,i} instead of the sum.
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
    rows = np.stack([m.multiplicity * _mode_path(float(m.kappa), float(m.sigma2),
                                                 float(m.a0), eta_all, n0, t_int)
                     for m in ms])
    rows = rows[:, inv].reshape((len(ms),) + shape)
    return rows if per_mode else rows.sum(axis=0)


def modes_for(link: Link, delta, d: int, a0, reward: str = "bernoulli",
              noise: float = 0.0) -> list[Mode]:
    """The d − 1 tangent modes at v*: the θ̂ mode (κ_θ, σ_θ²) and, for d ≥ 3, the d − 2
    perpendicular modes (κ_⊥, σ_⊥²) as one :class:`Mode` of multiplicity d − 2; the initial
    total second moment ``a0`` = E‖v_{n0} − v*‖² is split equally over the d − 1 coordinates."""
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
    """Least-squares slope of log a against log t over t_lo ≤ t ≤ t_hi (default: to the end)."""
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
    ``math.inf`` when κ ≤ 0 (no step size helps: the linearization does not contract)."""
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


def step_size_table(gamma: float = 10.0, deltas: Sequence = (0.2, 1.0, 1.8)) -> list[dict]:
    """Rows (link × Δ) for the paper's example links (:data:`PAPER_EXAMPLE_LINKS`).

    Each row: ``link``, ``delta``, ``lambda_star``, ``kappa_d2`` (= κ_θ), ``kappa_d3``
    (= min(κ_θ, κ_⊥), d ≥ 3), ``gamma_c_d2``, ``gamma_c_d3`` (= 1/(2κ)), ``two_gamma_kappa_d2``,
    ``two_gamma_kappa_d3`` (2γκ at the given γ), ``exponent_d2``, ``exponent_d3``
    (min(1, 2γκ)) and ``verdict_d2``, ``verdict_d3`` ("above threshold", "below threshold
    (exponent x)" or "unstable: κ ≤ 0"). The paper's λ0 ≤ κ, so its 2γλ0 > 1 needs γ > γ_c.
    """
    g = positive(gamma, "gamma")
    ds = list(deltas)
    if not ds:
        raise NBLInputError("deltas is empty")
    rows = []
    for label, fam, params in PAPER_EXAMPLE_LINKS:
        link = make_family(fam, **params)
        for dl in ds:
            r2, r3 = local_rates(link, dl, 2), local_rates(link, dl, 3)
            row = {"link": label, "delta": float(delta_value(dl)[1]),
                   "lambda_star": r2["lambda_star"]}
            for key, r in (("d2", r2), ("d3", r3)):
                k = r["kappa"]
                row[f"kappa_{key}"] = k
                row[f"gamma_c_{key}"] = gamma_threshold(k)
                row[f"two_gamma_kappa_{key}"] = 2 * g * k
                row[f"exponent_{key}"] = predicted_exponent(k, g)
                row[f"verdict_{key}"] = _verdict(k, g)
            rows.append(row)
    return rows


# ============================================================================ 6. regret geometry
_RAD_X, _RAD_W = gauss_legendre_uniform(0.0, 12.0, 0.5)     # radial nodes (384) of the polar rule
_N_ANG = 48                                      # angular nodes per wedge
_TAB_LO, _TAB_HI, _TAB_W, _TAB_N = -12.5, 12.5, 0.25, 17
_CHEB = np.cos(np.pi * np.arange(_TAB_N) / (_TAB_N - 1))          # 2nd-kind Chebyshev points
_BARY = np.where(np.arange(_TAB_N) % 2 == 0, 1.0, -1.0)
_BARY[[0, -1]] *= 0.5
_SMOOTH_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class _Smoothed:
    """ĝ(m) = E[g(m + σZ)] on [−12.5, 12.5]: values at 17 Chebyshev points on each panel of
    width 1/4, evaluated by barycentric interpolation. ĝ at the nodes by composite
    Gauss–Legendre in Z on [−10, 10] (panel width min(1, 1/(2σ))); interpolation error
    ≲ 1e-15 for links analytic in a strip of half-width ≳ 0.3 (tested at small ψ against the
    unsmoothed rule and against an independent conditional-CDF quadrature)."""

    def __init__(self, link: Link, sigma: float):
        self.n_panels = round((_TAB_HI - _TAB_LO) / _TAB_W)
        left = _TAB_LO + _TAB_W * np.arange(self.n_panels)
        nodes = left[:, None] + (_CHEB[None, :] + 1) * _TAB_W / 2
        z, wz = gauss_legendre_uniform(-10.0, 10.0, min(1.0, 0.5 / sigma))
        wz = wz * PHI0 * np.exp(-0.5 * z * z)
        vals = np.empty(nodes.size)
        flat = nodes.ravel()
        step = max(1, 2_000_000 // z.size)
        for i in range(0, flat.size, step):
            m = flat[i:i + step, None] + sigma * z[None, :]
            vals[i:i + step] = link.g_numpy(m) @ wz
        self.vals = vals.reshape(nodes.shape)

    def __call__(self, q: np.ndarray) -> np.ndarray:
        q = np.asarray(q, dtype=float)
        p = np.clip(((q - _TAB_LO) // _TAB_W).astype(int), 0, self.n_panels - 1)
        x = 2 * (q - (_TAB_LO + _TAB_W * p)) / _TAB_W - 1
        diff = x[..., None] - _CHEB
        hit = diff == 0
        diff = np.where(hit, 1.0, diff)
        c = _BARY / diff
        fv = self.vals[p]
        out = (c * fv).sum(-1) / c.sum(-1)
        anyhit = hit.any(-1)
        if np.any(anyhit):
            out = np.where(anyhit, (fv * hit).sum(-1), out)
        return out


def _smoothed(link: Link, sigma: float) -> _Smoothed:
    per = _SMOOTH_CACHE.setdefault(link, {})
    key = round(sigma, 15)
    if key not in per:
        if len(per) > 32:
            per.clear()
        per[key] = _Smoothed(link, sigma)
    return per[key]


def _wedges(alpha: float):
    """The two arcs of φ where sgn(cos φ) ≠ sgn(cos(φ − α)) (v* = e1, v = v(α), |α| ≤ π)."""
    if alpha >= 0:
        return [(math.pi / 2, math.pi / 2 + alpha), (1.5 * math.pi, 1.5 * math.pi + alpha)]
    return [(math.pi / 2 + alpha, math.pi / 2), (1.5 * math.pi + alpha, 1.5 * math.pi)]


def _wedge_expect(f, alpha: float) -> float:
    """E[f(z1, y) 1{disagree}] for (z1, y) ~ N(0, I_2): Gauss–Legendre in the angle (48 nodes
    per wedge) and composite Gauss–Legendre in the radius (384 nodes on [0, 12])."""
    xa, wa = np.polynomial.legendre.leggauss(_N_ANG)
    total = 0.0
    for lo, hi in _wedges(alpha):
        phi = (lo + hi) / 2 + (hi - lo) / 2 * xa
        w = (hi - lo) / 2 * wa
        z1 = _RAD_X[:, None] * np.cos(phi)[None, :]
        y = _RAD_X[:, None] * np.sin(phi)[None, :]
        dens = (_RAD_W * _RAD_X * np.exp(-_RAD_X ** 2 / 2))[:, None] * w[None, :] / (2 * math.pi)
        total += float((f(z1, y) * dens).sum())
    return total


def _wrap(alpha: float) -> float:
    """α reduced to [−π, π] (α = ±π both give v = −v*)."""
    return math.remainder(alpha, 2 * math.pi)


def regret_given_angle(link: Link, delta, alpha, psi=0.0) -> float:
    """E[r | v] for v = cos α v* + sin α (cos ψ θ̂ + sin ψ ω) (ω ⊥ v*, θ̂).

    r = |m_+(X) − m_−(X)| 1{sgn(vᵀX) ≠ sgn(v*ᵀX)}. ψ = 0 (or π) is the d = 2 plane; any
    other ψ needs d ≥ 3, and the value does not depend on d beyond that. ψ = 0: the polar
    Gauss–Legendre rule on the two disagreement wedges (as ``_regret_given_v`` of
    proofs_check's stochastic claims); ψ ≠ 0: the same rule with g replaced by its Gaussian
    smoothing ĝ = E[g(· + s|sin ψ|Z)] and the θ-coefficient s cos ψ (module docstring), ĝ from
    a Chebyshev table (:class:`_Smoothed`). Accuracy ~1e-12 relative (ψ = 0) and ≲ 1e-10
    (ψ ≠ 0), checked against Monte Carlo, an independent conditional-CDF quadrature, the
    ψ → 0 limit and the symmetries in the tests. Identities: (α, ψ) and (−α, ψ + π) are the
    same v; ψ → −ψ leaves the value unchanged.
    """
    check_link(link)
    _, dl = delta_value(delta)
    a = _wrap(real(alpha, "alpha"))
    p = real(psi, "psi")
    if a == 0.0:
        return 0.0
    c = dl / 2
    s = math.sqrt(1 - c * c)
    cp, sp_ = math.cos(p), abs(math.sin(p))
    if math.sin(p) == 0.0:
        gfun = link.g_numpy
    else:
        gfun = _smoothed(link, s * sp_)
    sc = s * cp

    def gap(z1, y):
        return np.abs(gfun(sc * y + c * z1) - gfun(sc * y - c * z1))

    return _wedge_expect(gap, a)


def _gprime_moments(link: Link, delta: float) -> tuple[float, float]:
    """(E[g'(sZ)Z²], E[g'(sZ)]), composite Gauss–Legendre on [−14, 14], panels 1/4."""
    s = math.sqrt(1 - delta * delta / 4)
    z, w = gauss_legendre_uniform(-14.0, 14.0, 0.25)
    wp = w * PHI0 * np.exp(-0.5 * z * z)
    gp = np.asarray(link.derivative_numpy(s * z, 1), dtype=float)
    return float(np.sum(wp * gp * z * z)), float(np.sum(wp * gp))


def error_to_regret_constant(link: Link, delta, psi=0.0) -> float:
    """lim_{α→0} E[r | v]/((Δ/2)‖v − v*‖²) = φ0(0)(cos²ψ E[g'(sZ)Z²] + sin²ψ E[g'(sZ)]).

    Derivation: the disagreement strip at angle α is z1 between 0 and −tan α·y
    (y = cos ψ z2 + sin ψ z3); on it the gap is 2(Δ/2)|z1| g'(s z2)(1 + O(z1²)) and the density
    of z1 is φ0(1 + O(z1²)), so E[r | v] = φ0 (Δ/2) tan²α E[y² g'(s z2)](1 + O(α²)), with
    E[y² g'(s z2)] = cos²ψ E[Z²g'(sZ)] + sin²ψ E[g'(sZ)] and ‖v − v*‖² = α²(1 + O(α²)).
    Both moments by composite Gauss–Legendre (~1e-15).
    """
    check_link(link)
    _, dl = delta_value(delta)
    p = real(psi, "psi")
    m2, m0 = _gprime_moments(link, dl)
    return PHI0 * (math.cos(p) ** 2 * m2 + math.sin(p) ** 2 * m0)


def regret_scaling(link: Link, delta, psi, alphas) -> dict:
    """E[r | v] along a grid of angles and its scaling with the error ‖v − v*‖ = 2|sin(α/2)|.

    Returns ``alphas``, ``dist`` (‖v − v*‖), ``regret``, ``ratio`` (= regret/((Δ/2)dist²)),
    ``limit`` (:func:`error_to_regret_constant`), ``sup_ratio`` and ``slope`` (least-squares
    slope of log regret against log dist over the given angles; 2 as α → 0).
    """
    check_link(link)
    _, dl = delta_value(delta)
    a = finite_array(alphas, "alphas").ravel()
    if a.size < 2:
        raise NBLInputError("regret_scaling needs at least two angles")
    aw = np.array([_wrap(float(x)) for x in a])
    dist = 2 * np.abs(np.sin(aw / 2))
    if np.any(aw == 0):
        raise NBLInputError("alphas must not be multiples of 2*pi (v = v*: no error)")
    r = np.array([regret_given_angle(link, delta, float(x), psi) for x in a])
    ratio = r / (dl / 2 * dist ** 2)
    return {"alphas": a, "dist": dist, "regret": r, "ratio": ratio,
            "limit": error_to_regret_constant(link, delta, psi),
            "sup_ratio": float(ratio.max()),
            "slope": float(np.polyfit(np.log(dist), np.log(r), 1)[0])}


# ============================================================================ 7. stability radius
_R_GRID = 2000      # grid angles per side on (0, π)


def _radius_level(link: Link, delta, frac, d: int):
    """Validated (Δ, frac, κ, frac·κ) for the stability radius in dimension d (2, or 3 for
    every d ≥ 3): κ = κ_θ in d = 2, the slowest rate in d ≥ 3; κ ≤ 0 has no neighbourhood."""
    check_link(link)
    din, _ = delta_value(delta)
    fr = real(frac, "frac")
    if not 0 < fr < 1:
        raise NBLInputError(f"frac must lie in (0, 1), got {frac!r}")
    kap = local_rates(link, din, d)["kappa_theta" if d == 2 else "kappa"]
    if kap <= 0:
        name, where = ("kappa_theta", "in d = 2") if d == 2 else ("kappa", "in d >= 3")
        raise NBLInputError(f"{name} = {kap:.6g} <= 0: v* is not locally attracting {where}, "
                            "so there is no stability neighbourhood")
    return din, fr, kap, fr * kap


def stability_radius(link: Link, delta, frac: float = 0.5) -> dict:
    """Largest r0 ∈ (0, 2] with λ0(r0) ≥ frac·κ_θ in d = 2.

    λ0(r0) = min_{0 < ‖v − v*‖ ≤ r0} −⟨v − v*, h(v)⟩/‖v − v*‖² (cor:local_stability); in
    d = 2 the ratio at v(α) is R(α) = −H(α)cot(α/2)/2 with R(0⁺) = κ_θ = −H'(0), and λ0 is
    non-increasing in r0, so r0 = 2 sin(α*/2) with α* the smallest |α| where R crosses below
    frac·κ_θ (on either side). R → 0 as |α| → π, so for 0 < frac < 1 the crossing exists and
    r0 < 2.

    Grid of 2000 angles per side on (0, π), then Brent's method on the bracketing interval
    (|α*| to ~1e-13); R is evaluated by :func:`nbl_sim.population.H_alpha` (~1e-15). Caveat: a
    dip of R below the level narrower than the grid step π/2000 would be missed.

    Returns
    -------
    dict: ``r0``, ``lambda0`` (= λ0(r0)), ``alpha`` (= 2 asin(r0/2), radians), ``alpha_deg``,
    ``side`` (+1/−1: the sign of α where the level is first reached), ``kappa_theta``,
    ``frac``, ``level`` (= frac·κ_θ).

    Raises
    ------
    NBLInputError
        κ_θ ≤ 0 (v* is not attracting: no neighbourhood), frac ∉ (0, 1), bad Δ or link.
    """
    din, fr, kt, level = _radius_level(link, delta, frac, 2)

    def R(al):
        al = np.asarray(al, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            return -pop.H_alpha(link, din, al) / np.tan(al / 2) / 2

    grid = np.linspace(0.0, math.pi, _R_GRID + 1)[1:]
    found = []
    for side in (1, -1):
        vals = R(side * grid)
        vals[-1] = 0.0                   # α = ±π: the limit of R is 0
        i = int(np.flatnonzero(vals < level)[0])
        lo = grid[i - 1] if i > 0 else grid[0] * 1e-6
        hi = grid[i] if i < grid.size - 1 else grid[i] * (1 - 1e-12)
        if float(R(side * hi)) >= level:          # only at α ≈ π, where R → 0
            hi = grid[i]
        root = brentq(lambda x, sd=side: float(R(sd * x)) - level, lo, hi, xtol=1e-14,
                      rtol=1e-15, maxiter=200)
        found.append((root, side, vals))
    root, side, _ = min(found, key=lambda f: f[0])
    # λ0(r0): the smallest ratio seen on the cap |α| ≤ α* (grid points of both sides, the ends)
    lam0 = min([level] + [float(v[grid <= root].min()) for _, _, v in found
                          if np.any(grid <= root)])
    r0 = 2 * math.sin(root / 2)
    return {"r0": r0, "lambda0": lam0, "alpha": root, "alpha_deg": math.degrees(root),
            "side": side, "kappa_theta": kt, "frac": fr, "level": level}


def stability_radius_cap(link: Link, delta, frac: float = 0.5, n_alpha: int = 720,
                         n_psi: int = 25) -> dict:
    """Largest r0 with λ0(r0) ≥ frac·κ in d ≥ 3, κ the slowest tangent rate there.

    In d ≥ 3 the neighbourhood ‖v − v*‖ ≤ r0 contains tilts out of the (v*, θ) plane, where
    the field contracts at κ_⊥ = Δμ* near v*. By the symmetry of the field under rotations
    fixing v* and θ, every tilt is v = cos α v* + sin α (cos ψ θ̂ + sin ψ ω) for one fixed
    ω ⊥ v*, θ (d = 3 suffices), ψ ∈ [0, π] (ψ → −ψ is the reflection ω → −ω). The ratio
    R(α, ψ) = −⟨v − v*, h(v)⟩/‖v − v*‖² is evaluated by quadrature
    (:func:`population.tangent_field`, ~1e-15) on a grid of ``n_alpha`` angles in (0, π) ×
    ``n_psi`` tilts; λ0 over the cap of angle α is the running minimum over smaller angles and
    all tilts, and α* is the first grid angle where it drops below the level, refined by
    bisection on the tilt-minimum (accurate to the tilt grid: a minimum between tilt nodes can
    be missed by O((π/n_psi)²) of the ratio's variation).

    Returns the same keys as :func:`stability_radius` with ``kappa`` (the d ≥ 3 rate) in place
    of ``kappa_theta``.
    """
    din, fr, kap, level = _radius_level(link, delta, frac, 3)
    beta, vs, th = pop.arm_vectors(din, d=3)
    th = th / np.linalg.norm(th)
    om = np.cross(vs, th)
    psis = np.linspace(0.0, math.pi, n_psi)

    def ratio_min(al: np.ndarray) -> np.ndarray:
        A, P = np.meshgrid(al, psis, indexing="ij")
        u = np.cos(P)[..., None] * th + np.sin(P)[..., None] * om
        V = (np.cos(A)[..., None] * vs + np.sin(A)[..., None] * u).reshape(-1, 3)
        h = pop.tangent_field(link, beta, V)
        D = V - vs
        return (-(D * h).sum(1) / (D * D).sum(1)).reshape(A.shape).min(1)

    grid = np.linspace(0.0, math.pi, n_alpha + 1)[1:-1]
    vals = ratio_min(grid)
    below = np.flatnonzero(vals < level)
    if below.size == 0:
        root = math.pi
    else:
        i = int(below[0])
        lo = grid[i - 1] if i > 0 else grid[0] * 1e-3
        hi = grid[i]
        for _ in range(40):
            mid = (lo + hi) / 2
            if float(ratio_min(np.array([mid]))[0]) >= level:
                lo = mid
            else:
                hi = mid
        root = lo
    lam0 = min([level] + ([float(vals[grid <= root].min())] if np.any(grid <= root) else []))
    r0 = 2 * math.sin(root / 2)
    return {"r0": r0, "lambda0": lam0, "alpha": root, "alpha_deg": math.degrees(root),
            "kappa": kap, "frac": fr, "level": level}
