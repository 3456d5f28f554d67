"""Beyond the paper: the population field of greedy NBL under other context laws and arms, from
its definition eq:Fdef by direct 2-D quadrature in coordinates aligned with the decision
boundary (or by exact enumeration for a discrete law) — not the library's polar quadrature,
1-D Gaussian reductions or exact sums (:mod:`nbl_sim.beyond`).

For a boundary normal n = (cos α, sin α) and an offset o, every point is x = s n + u n_⊥
(s = nᵀx, u = n_⊥ᵀx), so the half-planes {nᵀx ≥ o} and {nᵀx < o} are s ≥ o and s < o, and
the jump of the integrand sits on an end of the s-integral, never inside it. Per law:

* N(0, Σ): (s, u) is bivariate normal; s ~ N(0, σ_s²) and, given s, u = c s + τ z with
  z ~ N(0, 1); both are integrated with Gauss–Legendre, 16 nodes on panels of width σ_s
  (|s| ≤ 12σ_s) and width 1 (|z| ≤ 12): truncation e^{−72}, and the links' variation scale
  (≥ 0.3 in x) is resolved (Gauss–Hermite was tried first: for tanh links, whose poles lie
  near the real axis, it converges too slowly — 1e-5 in the local rate with 40 nodes).
* Student-t (ν, identity covariance): its density in (s, u) with s = tan φ_s, u = tan φ_u,
  φ ∈ (−π/2, π/2), Gauss–Legendre on 24 (s) and 48 (u) panels of 16 nodes: the integrand
  times the Jacobian sec² behaves like a power of cos φ at ±π/2 (ν ≥ 3), so no tail is cut.
* uniform on the cube [−√3, √3]²: the chord of the square at each s is an exact interval
  [u_lo(s), u_hi(s)], piecewise linear in s with breaks at the corners' projections; each
  piece gets 16 Gauss–Legendre nodes in s and 24 in u (exact up to the link's smoothness).
* Rademacher (±1)²: the four atoms, ties nᵀx = o to arm +1 (the rule of eq:Fdef).

Arms are written out here (not taken from :mod:`nbl_sim.beyond.arms`): v* at angle ``rotate``
from e₁, θ ⊥ v* at +90° with ‖θ‖² = 1 − Δ²/4, β_± = θ + (Δ/2 ± shift)v*, and arm +1's index
moved by ``intercept`` (m_+(x) = g(β_+ᵀx + c)); g from :func:`.links.paper_link_parts`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.special import gammaln

from nbl_theory.numeric import PHI0, gauss_legendre_panels
from nbl_theory.paper import PAPER_LINKS

from .direct_definitions import direct_moments
from .links import TANH, paper_link_parts

__all__ = [
    "Case",
    "arms",
    "covariance",
    "half_plane_rule",
    "field",
    "H",
    "rate",
    "zeros",
    "regret",
    "learned_zero",
    "isotropic_rates",
    "same_angle",
]

#: u | s = c s + τ z, z ~ N(0, 1): Gauss–Legendre on [−12, 12], panels of width 1, weight φ(z)
_Z_RULE = (lambda z, w: (z, w * np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)))(
    *gauss_legendre_panels(np.linspace(-12.0, 12.0, 25))
)
#: u = tan φ, φ ∈ (−π/2, π/2): 48 panels of 16 nodes
_PHI_RULE = gauss_legendre_panels(np.linspace(-math.pi / 2, math.pi / 2, 49))


@dataclass(frozen=True)
class Case:
    """One (paper link, Δ, context law, arms) case of the witness (module docstring)."""

    key: str
    delta: float
    law: str = "gaussian"  # gaussian | student-t | cube | rademacher
    cond: float = 1.0  # N(0, Σ): λ_max/λ_min, trace Σ = 2
    axis_deg: float = 0.0  # N(0, Σ): major axis, degrees from v*
    nu: float = 0.0  # Student-t degrees of freedom
    shift: float = 0.0
    intercept: float = 0.0
    rotate_deg: float = 0.0


def arms(case: Case):
    """(β (2, 2) rows β_−, β_+; v*; g_−; g_+) written out (module docstring)."""
    t = math.radians(case.rotate_deg)
    vs = np.array([math.cos(t), math.sin(t)])
    th = math.sqrt(1 - case.delta**2 / 4) * np.array([-math.sin(t), math.cos(t)])
    beta = np.stack(
        [th - (case.delta / 2 - case.shift) * vs, th + (case.delta / 2 + case.shift) * vs]
    )
    g = _g_only(case.key)

    def g_minus(z):
        return g(z)

    def g_plus(z):
        return g(z + case.intercept)

    return beta, vs, g_minus, g_plus


def _g_only(key: str):
    """g alone (the field needs no derivatives): eq:link_tanh with the printed parameters
    (:data:`.links.TANH`) for the two-transition links, else the first part of
    :func:`.links.paper_link_parts`."""
    row = PAPER_LINKS[key]
    if row.family != "two-transition":
        parts = paper_link_parts(key)
        return lambda z: parts(z)[0]
    p, mu2 = TANH, float(row.parameter[1])
    return lambda z: (
        p["p0"]
        + p["a1"] * (1 + np.tanh(p["b1"] * (z - p["mu1"])))
        + p["a2"] * (1 + np.tanh(p["b2"] * (z - mu2)))
    )


def covariance(case: Case) -> np.ndarray:
    """The N(0, Σ) covariance of ``case``: eigenvalues 2c/(1+c), 2/(1+c), major axis at
    rotate + axis_deg degrees from e₁."""
    c = case.cond
    a = math.radians(case.rotate_deg + case.axis_deg)
    r = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return r @ np.diag([2 * c / (1 + c), 2 / (1 + c)]) @ r.T


def _gaussian_nodes(sigma: np.ndarray, n: np.ndarray, o: float, upper: bool):
    """Points and weights of {±(nᵀx − o) ≥ 0} under N(0, Σ) (module docstring)."""
    npp = np.array([-n[1], n[0]])
    ss, su, uu = n @ sigma @ n, n @ sigma @ npp, npp @ sigma @ npp
    sd = math.sqrt(ss)
    c, tau = su / ss, math.sqrt(max(uu - su * su / ss, 0.0))
    lo, hi = (o, 12 * sd) if upper else (-12 * sd, o)
    if hi <= lo:
        return np.zeros((0, 2)), np.zeros(0)
    s, ws = gauss_legendre_panels(np.linspace(lo, hi, max(2, math.ceil((hi - lo) / sd)) + 1))
    ws = ws * np.exp(-0.5 * s * s / ss) / (sd * math.sqrt(2 * math.pi))
    z, wz = _Z_RULE
    u = c * s[:, None] + tau * z[None, :]
    x = s[:, None, None] * n + u[:, :, None] * npp
    return x.reshape(-1, 2), (ws[:, None] * wz[None, :]).ravel()


def _t_nodes(nu: float, n: np.ndarray, o: float, upper: bool):
    """Student-t (identity covariance): x = s n + u n_⊥ with s = tan φ_s, u = tan φ_u."""
    s2 = (nu - 2) / nu  # Y = T·s, T standard multivariate t_ν: Cov Y = I
    const = math.exp(gammaln((nu + 2) / 2) - gammaln(nu / 2)) / (nu * math.pi * s2)
    npp = np.array([-n[1], n[0]])
    a0 = math.atan(o)
    lo, hi = (a0, math.pi / 2) if upper else (-math.pi / 2, a0)
    ps, wps = gauss_legendre_panels(np.linspace(lo, hi, 25))
    pu, wpu = _PHI_RULE
    s, u = np.tan(ps), np.tan(pu)
    jac = (wps / np.cos(ps) ** 2)[:, None] * (wpu / np.cos(pu) ** 2)[None, :]
    r2 = s[:, None] ** 2 + u[None, :] ** 2
    dens = const * (1 + r2 / (nu * s2)) ** (-(nu + 2) / 2)
    x = s[:, None, None] * n + u[None, :, None] * npp
    return x.reshape(-1, 2), (jac * dens).ravel()


def _cube_nodes(n: np.ndarray, o: float, upper: bool):
    """Exact chords of the square [−√3, √3]² (module docstring)."""
    h = math.sqrt(3.0)
    npp = np.array([-n[1], n[0]])
    corners = np.array([[h, h], [h, -h], [-h, h], [-h, -h]])
    proj = np.sort(corners @ n)
    smin, smax = proj[0], proj[-1]
    lo, hi = (max(o, smin), smax) if upper else (smin, min(o, smax))
    if hi <= lo:
        return np.zeros((0, 2)), np.zeros(0)
    br = np.unique(np.concatenate([[lo, hi], proj[(proj > lo) & (proj < hi)]]))
    s, ws = gauss_legendre_panels(br)
    xu, wu = np.polynomial.legendre.leggauss(24)
    # chord at s: x = s n + u n_⊥ inside the square; each coordinate bound gives a u-interval
    ulo, uhi = np.full(s.size, -np.inf), np.full(s.size, np.inf)
    for k in range(2):
        base, slope = s * n[k], npp[k]
        if abs(slope) < 1e-300:
            continue
        a, b = (-h - base) / slope, (h - base) / slope
        ulo, uhi = np.maximum(ulo, np.minimum(a, b)), np.minimum(uhi, np.maximum(a, b))
    half = 0.5 * np.maximum(uhi - ulo, 0.0)
    u = 0.5 * (uhi + ulo)[:, None] + half[:, None] * xu[None, :]
    x = s[:, None, None] * n + u[:, :, None] * npp
    return x.reshape(-1, 2), (ws[:, None] * half[:, None] * wu[None, :] / 12.0).ravel()


def _rademacher_nodes(n: np.ndarray, o: float, upper: bool):
    x = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, 1.0], [-1.0, -1.0]])
    side = x @ n >= o  # ties to the upper side: arm +1 (eq:Fdef)
    keep = side if upper else ~side
    return x[keep], np.full(int(keep.sum()), 0.25)


def half_plane_rule(case: Case, n: np.ndarray, o: float, upper: bool):
    """Points (k, 2) and weights (k,) of the law of ``case`` restricted to {nᵀx ≥ o}
    (``upper``) or {nᵀx < o}: E[f(X); side] ≈ Σ w f(x) (module docstring)."""
    if case.law == "gaussian":
        return _gaussian_nodes(covariance(case), n, o, upper)
    if case.law == "student-t":
        return _t_nodes(case.nu, n, o, upper)
    if case.law == "cube":
        return _cube_nodes(n, o, upper)
    if case.law == "rademacher":
        return _rademacher_nodes(n, o, upper)
    raise ValueError(f"unknown witness law {case.law!r}")


def _unit(alpha: float) -> np.ndarray:
    return np.array([math.cos(alpha), math.sin(alpha)])


def field(case: Case, alpha_rel: float) -> np.ndarray:
    """F(v) of eq:Fdef at v = v* rotated by ``alpha_rel`` radians: E[m_+ X; vᵀX ≥ 0] −
    E[m_− X; vᵀX < 0]."""
    beta, _, gm, gp = arms(case)
    n = _unit(math.radians(case.rotate_deg) + alpha_rel)
    xp, wp = half_plane_rule(case, n, 0.0, True)
    xm, wm = half_plane_rule(case, n, 0.0, False)
    return (wp * gp(xp @ beta[1])) @ xp - (wm * gm(xm @ beta[0])) @ xm


def H(case: Case, alpha_rel: float) -> float:
    """H(α) = v_⊥ᵀF(v) (eq:H-alpha), α from v*."""
    a = math.radians(case.rotate_deg) + alpha_rel
    return float(np.array([-math.sin(a), math.cos(a)]) @ field(case, alpha_rel))


def rate(case: Case, alpha_rel: float = 0.0, h: float = 1e-3) -> float:
    """The local rate −H'(α): the mean of the two one-sided fourth-order differences
    (−25H₀ + 48H₁ − 36H₂ + 16H₃ − 3H₄)/(12h) on H(α ± kh), k = 0…4. One-sided, because for
    some laws H is only C¹ at α (the cube at its diagonal: the boundary passes two corners and
    H'' jumps), where central differences converge like O(h); each side is smooth, so the
    error is O(h⁴) ≈ 1e-12."""
    hk = [H(case, alpha_rel + k * h) for k in range(5)]
    hm = [H(case, alpha_rel - k * h) for k in range(5)]
    c = (-25, 48, -36, 16, -3)
    right = sum(ci * v for ci, v in zip(c, hk)) / (12 * h)
    left = -sum(ci * v for ci, v in zip(c, hm)) / (12 * h)
    return -0.5 * (right + left)


def zeros(case: Case, n_grid: int = 144, xtol: float = 1e-12) -> list:
    """Zeros of H on the circle (degrees from v*), from sign changes on ``n_grid`` angles
    refined with ``brentq`` (``xtol`` rad); each with its label (attracting: H decreasing
    through it)."""
    grid = np.linspace(-math.pi, math.pi, n_grid, endpoint=False)
    hv = [H(case, a) for a in grid]
    out = []
    for j in range(n_grid):
        a, b = grid[j], grid[j] + 2 * math.pi / n_grid
        fa, fb = hv[j], hv[(j + 1) % n_grid]
        if fa == 0 or fa * fb < 0:
            root = a if fa == 0 else brentq(lambda x: H(case, x), a, b, xtol=xtol)
            out.append(
                (
                    math.degrees(math.remainder(root, 2 * math.pi)),
                    "attracting" if fa > 0 or (fa == 0 and fb < 0) else "repelling",
                )
            )
    return out


def learned_zero(case: Case, xtol: float = 1e-12, offset_deg: float = 0.0) -> float:
    """The zero of H the population flow reaches from v* (degrees): the first sign change of
    H in the direction of H(0), located on a 1° scan and refined with ``brentq``.
    ``offset_deg`` is added to it (0; a witness mutant reads it off)."""
    return _learned_zero(case, xtol) + offset_deg


def _learned_zero(case: Case, xtol: float) -> float:
    h0 = H(case, 0.0)
    sgn = 1.0 if h0 > 0 else -1.0
    a, fa = 0.0, h0
    step = math.radians(1.0)
    for _ in range(360):
        b = a + sgn * step
        fb = H(case, b)
        if fa * fb <= 0:
            break
        a, fa = b, fb
    if fb == 0:
        return math.degrees(b)
    return math.degrees(brentq(lambda x: H(case, x), min(a, b), max(a, b), xtol=xtol))


def regret(case: Case, alpha_rel: float | None = None, *, alpha_deg: float | None = None) -> float:
    """Regret per round of the boundary v = v* rotated by α (radians, or ``alpha_deg``):
    E[max_a m_a(X)] − E[m_{sgn(vᵀX)}].
    For these arms β_+ − β_− = Δv* (whatever the shift) and g is increasing, so m_+ − m_− has
    the sign of Δ v*ᵀx + c (c the intercept): E max is the half-plane split at v*ᵀx = −c/Δ."""
    if alpha_deg is not None:
        alpha_rel = math.radians(alpha_deg)
    beta, vs, gm, gp = arms(case)
    total = 0.0
    n = _unit(math.radians(case.rotate_deg) + alpha_rel)
    for o, sgn, normal in ((-case.intercept / case.delta, 1.0, vs), (0.0, -1.0, n)):
        xp, wp = half_plane_rule(case, normal, o, True)
        xm, wm = half_plane_rule(case, normal, o, False)
        total += sgn * (wp @ gp(xp @ beta[1]) + wm @ gm(xm @ beta[0]))
    return float(total)


def isotropic_rates(
    key: str, delta: str, delta_scale: float = 1.0, theta_factor: bool = True
) -> tuple[float, float]:
    """Under N(0, I) with the paper's symmetric arms, from direct 2-D moments
    (:func:`.direct_definitions.direct_moments`): the d = 2 local rate at v*,
    Δμ* − 2φ0(0) m2 (1 − Δ²/4), and λ* = Δμ* − 2φ0(0) max(m2, 0)(1 − Δ²/4)
    (prop:local_jacobian, eq:decision_stability).

    Parameters
    ----------
    key : str
        A paper link.
    delta : str
        Δ (decimal string).
    delta_scale : float, default 1.0
        Δ is multiplied by it (a witness mutant moves the arms).
    theta_factor : bool, default True
        Whether the d = 2 rate carries |θ|² = 1 − Δ²/4 (a formula mutant drops it).

    Returns
    -------
    rate_d2, lambda_star : float
    """
    dl = float(delta) * delta_scale
    m = direct_moments(key, dl)
    s2 = 1 - dl * dl / 4 if theta_factor else 1.0
    rate2 = dl * m["mu_star"] - 2 * PHI0 * m["m2"] * s2
    lam = dl * m["mu_star"] - 2 * PHI0 * max(m["m2"], 0.0) * (1 - dl * dl / 4)
    return rate2, lam


def same_angle(a_deg: float, b_deg: float, tol_deg: float) -> bool:
    """Whether two angles (degrees) agree to ``tol_deg`` modulo 360."""
    return abs(math.remainder(math.radians(a_deg - b_deg), 2 * math.pi)) <= math.radians(tol_deg)
