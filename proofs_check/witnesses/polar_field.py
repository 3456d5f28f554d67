"""The population field F and the circle field H(α) by the witness's own 2-D polar quadrature,
for every direction v (no restriction near ±β_a), without :mod:`nbl_sim.population.fields`.

Reduction (from eq:Fdef, F = E[g(β_+ᵀX) X 1{vᵀX ≥ 0}] − E[g(β_−ᵀX) X 1{vᵀX < 0}])
------------------------------------------------------------------------------------
For one arm β_a and unit v, let e₁ = v and e₂ the unit part of β_a orthogonal to v (any unit
vector ⊥ v when β_a ∥ v). X = r(cos φ e₁ + sin φ e₂) + Y with Y ~ N(0, I) on the orthogonal
complement, independent, mean zero, and not entering g(β_aᵀX) nor the indicator; in polar
coordinates the plane's density is e^{−r²/2} r dr dφ/(2π), so

    E[g(β_aᵀX) X 1{±vᵀX ≥ 0}]
        = (1/2π) ∫_{φ: ±cos φ ≥ 0} K(b₁ cos φ + b₂ sin φ) (cos φ e₁ + sin φ e₂) dφ,

b_i = β_aᵀe_i, K(c) = ∫₀^∞ r² e^{−r²/2} g(rc) dr. K is smooth in c ∈ [−‖β_a‖, ‖β_a‖]; it is
computed once per link on 161 Chebyshev points by composite Gauss–Legendre in r (numpy's
``leggauss``, 20 nodes on each of 28 panels of [0, 14]: the tail e^{−98} is below 1e-40), and
interpolated (Chebyshev series of degree 160; its error is measured by :func:`k_error`). The
φ-integral over each half circle (an interval of length π whose ends move with v) is composite
Gauss–Legendre, 16 panels × 20 nodes. This is a different reduction from the library's (one-arm
kernels in s = β_aᵀX with Φ and φ of ρs/σ on graded panels) and shares no code with it.

In d = 2 with the paper's rotation (v* = e₁, θ ∝ e₂, β_a = θ + a(Δ/2)v*, ‖θ‖² = 1 − Δ²/4) the
circle field is H(α) = v_⊥(α)ᵀF(v(α)), v(α) = (cos α, sin α), v_⊥ = (−sin α, cos α)
(eq:H-alpha), computed by :func:`own_H`; :func:`own_dH` is its derivative by Richardson central
differences.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numpy.polynomial import chebyshev as cheb

__all__ = [
    "k_table",
    "k_error",
    "plane_arm_field",
    "polar_field",
    "polar_tangent_field",
    "circle_beta",
    "own_H",
    "own_dH",
    "own_two_gamma_kappa",
    "own_mu_g",
    "R_MAX",
    "gl_panels",
    "CHEB_DEGREE",
    "radial_drift",
]

#: Radial cut-off: ∫_{14}^∞ r² e^{−r²/2} dr < 1e-40.
R_MAX = 14.0
#: Degree of the Chebyshev interpolant of K on [−1, 1] (unit arm vectors).
CHEB_DEGREE = 160


def gl_panels(lo: float, hi: float, panels: int, nodes: int = 20) -> tuple:
    """Composite Gauss–Legendre: ``nodes`` points on each of ``panels`` equal panels of
    [lo, hi] (numpy's ``leggauss``), as (points, weights)."""
    x, w = np.polynomial.legendre.leggauss(nodes)
    edges = np.linspace(lo, hi, panels + 1)
    half = np.diff(edges) / 2
    mid = (edges[1:] + edges[:-1]) / 2
    return (
        (mid[:, None] + half[:, None] * x[None, :]).ravel(),
        (half[:, None] * w[None, :]).ravel(),
    )


_R, _WR = gl_panels(0.0, R_MAX, 28)
_RW = _WR * _R * _R * np.exp(-0.5 * _R * _R)
_PHI_T, _PHI_W = gl_panels(0.0, 1.0, 16)  # on [0, 1], scaled to each half circle


def _k_direct(link, c: np.ndarray) -> np.ndarray:
    """K(c) = ∫₀^∞ r² e^{−r²/2} g(rc) dr by the radial rule, for an array c."""
    c = np.asarray(c, dtype=float)
    return np.asarray(link.g_numpy(c[..., None] * _R), dtype=float) @ _RW


@functools.cache
def k_table(link) -> np.ndarray:
    """Chebyshev coefficients of K on [−1, 1] (module docstring), from K at the Chebyshev
    points of the second kind."""
    n = CHEB_DEGREE
    x = np.cos(np.pi * np.arange(n + 1) / n)
    return cheb.chebfit(x, _k_direct(link, x), n)


def k_error(link, seed: int = 0) -> float:
    """max |interpolated K − direct radial quadrature of K| at 200 seeded uniform c in [−1, 1]
    (the interpolation's error, measured)."""
    c = np.random.default_rng(seed).uniform(-1.0, 1.0, 200)
    return float(np.abs(cheb.chebval(c, k_table(link)) - _k_direct(link, c)).max())


def plane_arm_field(link, beta_a: np.ndarray, v: np.ndarray, side: int) -> np.ndarray:
    """E[g(β_aᵀX) X 1{vᵀX ≥ 0}] (side = +1) or E[g(β_aᵀX) X 1{vᵀX < 0}] (side = −1),
    X ~ N(0, I_d), for unit rows v (k, d) and ‖β_a‖ ≤ 1, by the polar reduction (module
    docstring). Returns (k, d)."""
    v = np.atleast_2d(np.asarray(v, dtype=float))
    b1 = v @ beta_a
    r = beta_a[None, :] - b1[:, None] * v
    b2 = np.linalg.norm(r, axis=1)
    e2 = np.empty_like(v)
    ok = b2 > 1e-300
    e2[ok] = r[ok] / b2[ok, None]
    if not ok.all():  # β_a ∥ v: any unit vector ⊥ v
        for i in np.flatnonzero(~ok):
            u = np.eye(v.shape[1])[int(np.argmin(np.abs(v[i])))]
            u = u - (u @ v[i]) * v[i]
            e2[i] = u / np.linalg.norm(u)
    lo = -math.pi / 2 if side > 0 else math.pi / 2
    phi = lo + math.pi * _PHI_T  # the half circle ±cos φ ≥ 0
    w = math.pi * _PHI_W / (2 * math.pi)
    c = b1[:, None] * np.cos(phi)[None, :] + b2[:, None] * np.sin(phi)[None, :]
    kw = cheb.chebval(c, k_table(link)) * w[None, :]
    return (kw @ np.cos(phi))[:, None] * v + (kw @ np.sin(phi))[:, None] * e2


def polar_field(link, beta: np.ndarray, v: np.ndarray) -> np.ndarray:
    """F(v) = F_+ − F_− (eq:Fdef) for unit rows v (k, d); ``beta`` = (β_−, β_+) as rows."""
    return plane_arm_field(link, beta[1], v, +1) - plane_arm_field(link, beta[0], v, -1)


def polar_tangent_field(link, beta: np.ndarray, v: np.ndarray) -> np.ndarray:
    """h(v) = P_v^⊥ F(v) for unit rows v (k, d)."""
    v = np.atleast_2d(np.asarray(v, dtype=float))
    f = polar_field(link, beta, v)
    return f - (f * v).sum(1)[:, None] * v


def circle_beta(delta) -> np.ndarray:
    """(β_−, β_+) in d = 2 with v* = e₁, θ = ‖θ‖e₂, ‖θ‖² = 1 − Δ²/4 (app:simulation-setup)."""
    dl = float(delta)
    th = math.sqrt(1.0 - dl * dl / 4.0)
    return np.array([[-dl / 2, th], [dl / 2, th]])


def own_H(link, delta, alpha):
    """H(α) = v_⊥(α)ᵀF(v(α)) in d = 2 (eq:H-alpha) from :func:`polar_field`; ``alpha`` any
    shape (a scalar gives a float). Accuracy: the Chebyshev error of K (:func:`k_error`) and
    ~1e-15 of the φ-rule."""
    a = np.asarray(alpha, dtype=float)
    flat = a.ravel()
    v = np.stack([np.cos(flat), np.sin(flat)], axis=1)
    vp = np.stack([-np.sin(flat), np.cos(flat)], axis=1)
    out = (polar_field(link, circle_beta(delta), v) * vp).sum(1).reshape(a.shape)
    return float(out) if a.ndim == 0 else out


def own_dH(link, delta, alpha, h: float = 1e-3):
    """H'(α) by central differences of :func:`own_H` at steps h and h/2 combined by Richardson,
    (4D_{h/2} − D_h)/3 (truncation O(h⁴) ~1e-12, rounding ~1e-15/h ~ 1e-12)."""
    a = float(alpha)
    f = own_H(link, delta, np.array([a + h, a - h, a + h / 2, a - h / 2]))
    d1 = (f[0] - f[1]) / (2 * h)
    d2 = (f[2] - f[3]) / h
    return float((4 * d2 - d1) / 3)


def own_two_gamma_kappa(link, delta, gamma: float) -> float:
    """2γκ_θ with κ_θ = −H'(0) (:func:`own_dH`), the contraction rate along θ at v* in d = 2
    (prop:local_jacobian): the step-size condition of prop:localized-estimation in d = 2 needs it
    above 1."""
    return 2 * gamma * -own_dH(link, delta, 0.0)


def own_mu_g(link) -> float:
    """μ_g = E g'(Z) = E[Z g(Z)] (Stein), Z ~ N(0, 1), from g alone: composite Gauss–Legendre
    (20 nodes on each of 56 panels of [−14, 14]; the tail is below 1e-40), no derivative of g
    and no library moment."""
    z, w = gl_panels(-R_MAX, R_MAX, 56)
    dens = w * np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
    return float(np.asarray(link.g_numpy(z), dtype=float) * z @ dens)


def radial_drift(link, beta: np.ndarray, v: np.ndarray, v_star: np.ndarray) -> float:
    """⟨v − v*, h(v)⟩ for one unit v, h by :func:`polar_tangent_field` (cor:local_stability's
    drift)."""
    return float((v - v_star) @ polar_tangent_field(link, beta, v)[0])
