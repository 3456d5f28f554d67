"""The error-to-regret geometry and the local-stability radius (sec:regret, cor:local_stability).

Setting and notation as in :mod:`nbl_sim.studies.rate_theory`: X ~ N(0, I_d), arms β_a = θ +
a(Δ/2)v*, ‖θ‖² = s² = 1 − Δ²/4, c = Δ/2, θ̂ = θ/s, z1 = v*ᵀX, z2 = θ̂ᵀX, φ0 = 1/√(2π).

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
input (Δ ∉ (0, 2), d < 2, NaN/inf, ...).
"""

from __future__ import annotations

import math
import weakref

import numpy as np
from scipy.optimize import brentq

from nbl_theory.errors import NBLInputError
from nbl_theory.links import Link
from nbl_theory.numeric import PHI0, gauss_legendre_uniform
from nbl_theory.validation import check_link, delta_value, finite_array, real

from ..population import fields as pop
from .rate_theory import local_rates

__all__ = [
    "regret_given_angle",
    "error_to_regret_constant",
    "regret_scaling",
    "stability_radius",
    "stability_radius_cap",
]


# ============================================================================ regret geometry
_RAD_X, _RAD_W = gauss_legendre_uniform(0.0, 12.0, 0.5)  # radial nodes (384) of the polar rule
_N_ANG = 48  # angular nodes per wedge
_TAB_LO, _TAB_HI, _TAB_W, _TAB_N = -12.5, 12.5, 0.25, 17
_CHEB = np.cos(np.pi * np.arange(_TAB_N) / (_TAB_N - 1))  # 2nd-kind Chebyshev points
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
            m = flat[i : i + step, None] + sigma * z[None, :]
            vals[i : i + step] = link.g_numpy(m) @ wz
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
        dens = (_RAD_W * _RAD_X * np.exp(-(_RAD_X**2) / 2))[:, None] * w[None, :] / (2 * math.pi)
        total += float((f(z1, y) * dens).sum())
    return total


def _wrap(alpha: float) -> float:
    """α reduced to [−π, π] (α = ±π both give v = −v*)."""
    return math.remainder(alpha, 2 * math.pi)


def regret_given_angle(link: Link, delta, alpha, psi=0.0) -> float:
    """E[r | v] for v = cos α v* + sin α (cos ψ θ̂ + sin ψ ω) (ω ⊥ v*, θ̂).

    r = |m_+(X) − m_−(X)| 1{sgn(vᵀX) ≠ sgn(v*ᵀX)}. ψ = 0 (or π) is the d = 2 plane; any other ψ
    needs d ≥ 3, and the value does not depend on d beyond that. ψ = 0: the polar Gauss–Legendre
    rule on the two disagreement wedges; ψ ≠ 0: the same rule with g replaced by its Gaussian
    smoothing ĝ = E[g(· + s|sin ψ|Z)] and the θ-coefficient s cos ψ (module docstring), ĝ from a
    Chebyshev table (:class:`_Smoothed`). Accuracy ~1e-12 relative (ψ = 0) and ≲ 1e-10 (ψ ≠ 0),
    checked against Monte Carlo, an independent conditional-CDF quadrature, the ψ → 0 limit and
    the symmetries in the tests. Identities: (α, ψ) and (−α, ψ + π) are the same v; ψ → −ψ
    leaves the value unchanged.

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        Arm separation Δ ∈ (0, 2).
    alpha : float
        The angle α between v and v*, radians.
    psi : float, default 0.0
        The tilt ψ, radians (0 or π: the d = 2 plane).

    Returns
    -------
    float
        E[r | v], the expected one-round regret of the greedy choice by v.
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

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        Arm separation Δ ∈ (0, 2).
    psi : float, default 0.0
        The tilt ψ of the error direction out of the (v*, θ) plane, radians (0: d = 2).

    Returns
    -------
    float
        The constant C(ψ) with E[r | v] ≈ C (Δ/2)‖v − v*‖² as v → v*.
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

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        Arm separation Δ ∈ (0, 2).
    psi : float
        The tilt ψ, radians.
    alphas : array_like
        At least two angles, none a multiple of 2π.

    Returns
    -------
    dict
        The keys above; arrays of the shape of ``alphas`` for ``dist``, ``regret``, ``ratio``.

    Raises
    ------
    NBLInputError
        Fewer than two angles, or an angle with v = v*.
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
    ratio = r / (dl / 2 * dist**2)
    return {
        "alphas": a,
        "dist": dist,
        "regret": r,
        "ratio": ratio,
        "limit": error_to_regret_constant(link, delta, psi),
        "sup_ratio": float(ratio.max()),
        "slope": float(np.polyfit(np.log(dist), np.log(r), 1)[0]),
    }


# ============================================================================ stability radius
_R_GRID = 2000  # grid angles per side on (0, π)


def _radius_level(link: Link, delta, frac, d: int):
    """Validated (Δ, frac, κ, frac·κ) for the stability radius in dimension d (2, or 3 for
    every d ≥ 3): κ = κ_θ in d = 2, the slowest rate in d ≥ 3; κ ≤ 0 has no neighbourhood."""
    check_link(link)
    din, _ = delta_value(delta)
    fr = real(frac, "frac")
    if not 0 < fr < 1:
        raise NBLInputError(f"frac must lie in (0, 1), got {frac!r}")
    kap = local_rates(link, din, d)["kappa"]  # κ_θ in d = 2
    if kap <= 0:
        name, where = ("kappa_theta", "in d = 2") if d == 2 else ("kappa", "in d >= 3")
        raise NBLInputError(
            f"{name} = {kap:.6g} <= 0: v* is not locally attracting {where}, "
            "so there is no stability neighbourhood"
        )
    return din, fr, kap, fr * kap


def stability_radius(link: Link, delta, frac: float = 0.5) -> dict:
    """Largest r0 ∈ (0, 2] with λ0(r0) ≥ frac·κ_θ in d = 2.

    λ0(r0) = min_{0 < ‖v − v*‖ ≤ r0} −⟨v − v*, h(v)⟩/‖v − v*‖² (cor:local_stability); in
    d = 2 the ratio at v(α) is R(α) = −H(α)cot(α/2)/2 with R(0⁺) = κ_θ = −H'(0), and λ0 is
    non-increasing in r0, so r0 = 2 sin(α*/2) with α* the smallest |α| where R crosses below
    frac·κ_θ (on either side). R → 0 as |α| → π, so for 0 < frac < 1 the crossing exists and
    r0 < 2.

    Grid of 2000 angles per side on (0, π), then Brent's method on the bracketing interval
    (|α*| to ~1e-13); R is evaluated by :func:`nbl_sim.population.fields.H_alpha` (~1e-15). Caveat:
    a dip of R below the level narrower than the grid step π/2000 would be missed.

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        Arm separation Δ ∈ (0, 2).
    frac : float, default 0.5
        The fraction of κ_θ that λ0 must keep, in (0, 1).

    Returns
    -------
    dict
        ``r0``, ``lambda0`` (= λ0(r0)), ``alpha`` (= 2 asin(r0/2), radians), ``alpha_deg``,
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
        vals[-1] = 0.0  # α = ±π: the limit of R is 0
        i = int(np.flatnonzero(vals < level)[0])
        lo = grid[i - 1] if i > 0 else grid[0] * 1e-6
        hi = grid[i] if i < grid.size - 1 else grid[i] * (1 - 1e-12)
        if float(R(side * hi)) >= level:  # only at α ≈ π, where R → 0
            hi = grid[i]
        root = brentq(
            lambda x, sd=side: float(R(sd * x)) - level, lo, hi, xtol=1e-14, rtol=1e-15, maxiter=200
        )
        found.append((root, side, vals))
    root, side, _ = min(found, key=lambda f: f[0])
    # λ0(r0): the smallest ratio seen on the cap |α| ≤ α* (grid points of both sides, the ends)
    lam0 = min(
        [level] + [float(v[grid <= root].min()) for _, _, v in found if np.any(grid <= root)]
    )
    r0 = 2 * math.sin(root / 2)
    return {
        "r0": r0,
        "lambda0": lam0,
        "alpha": root,
        "alpha_deg": math.degrees(root),
        "side": side,
        "kappa_theta": kt,
        "frac": fr,
        "level": level,
    }


def stability_radius_cap(
    link: Link, delta, frac: float = 0.5, n_alpha: int = 720, n_psi: int = 25
) -> dict:
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

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        Arm separation Δ ∈ (0, 2).
    frac : float, default 0.5
        The fraction of κ that λ0 must keep, in (0, 1).
    n_alpha : int, default 720
        Angles of the grid in (0, π).
    n_psi : int, default 25
        Tilts of the grid in [0, π].

    Returns
    -------
    dict
        As :func:`stability_radius`, with ``kappa`` for ``kappa_theta``.
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
    return {
        "r0": r0,
        "lambda0": lam0,
        "alpha": root,
        "alpha_deg": math.degrees(root),
        "kappa": kap,
        "frac": fr,
        "level": level,
    }
