"""Population geometry of greedy NBL: the field F, the tangent field h, the potential J, the
circle function H of the 2-D picture and Jacobians at v* (all equilibria on the circle:
:mod:`nbl_sim.population.circle`).

Setting (sec:nbl, app:local_stability_in_2D): contexts X ~ N(0, I_d), arms a ∈ {−1, +1} with
unit index vectors β_a = θ + a(Δ/2)v*, θ ⊥ v*, ‖θ‖² = 1 − Δ²/4, mean rewards m_a(x) = g(β_aᵀx).
Arrays: ``beta`` has shape (2, d), row 0 = arm −1, row 1 = arm +1.

.. math::

    F(v) = E[m_+(X) X 1\\{vᵀX ≥ 0\\} − m_−(X) X 1\\{vᵀX < 0\\}]        (eq:Fdef)
    h(v) = (I − vvᵀ) F(v),\\qquad
    J(v) = E[(m_+ + m_−)(X)(vᵀX)_+] − vᵀ E[m_−(X) X],\\qquad ∇J = F.

Exact 1-D reduction
-------------------
For a unit β and a unit v let ρ = βᵀv, r = v − ρβ, σ = ‖r‖ = (1 − ρ²)^{1/2}, s = βᵀX ~ N(0, 1)
and, when σ > 0, w = r/σ, t = wᵀX ~ N(0, 1) independent of s, so u = vᵀX = ρs + σt. Since the
part of X orthogonal to span(β, v) is independent of (s, t) and centred,

.. math::

    E[g(βᵀX) X 1\\{u ≥ 0\\}] = β\\,a_1 + w\\,b_2,\\qquad
    a_1 = E_s[s g(s) Φ(ρs/σ)],\\quad b_2 = E_s[g(s) φ(ρs/σ)]

(E[t 1{t ≥ c}] = φ(c)), and E[g(βᵀX) u_+] = ρ a_1 + σ b_2. With the Stein identity
E[X g(βᵀX)] = μ_g β, μ_g = E[g'(s)] = E[s g(s)] (prop:first-order-stein),

.. math::

    F(v) = \\sum_a (β_a a_{1,a} + w_a b_{2,a}) − μ_g β_−,\\qquad
    J(v) = \\sum_a (ρ_a a_{1,a} + σ_a b_{2,a}) − μ_g ρ_−.

This is written with the orthonormal pair (β, w) instead of the Gram inverse C⁻¹ of (β, v),
so nothing is divided by 1 − ρ²: as v → ±β, σ → 0, b_2 = O(σ) and w stays a unit vector (for
σ = 0 exactly the span is one-dimensional and the w-term is absent).

Quadrature (all v share the same nodes, so g is evaluated once per link)
-------------------------------------------------------------------------
Composite Gauss–Legendre in s, 16 nodes per panel, with a breakpoint at s = 0 and panels
graded geometrically toward 0 (edges ±10⁻¹²·2^j up to 1/4, then width 1/4 out to the end of
the window). The kernels Φ(ρs/σ), φ(ρs/σ) vary on the scale τ = σ/|ρ|; for every
τ ≥ 10⁻¹² some panel [a, 2a] has a ≈ τ, and on it the kernel is a smooth function of a
variable of size O(1), while panels with a ≪ τ (a ≫ τ) see an almost constant (saturated)
kernel. For τ < 10⁻¹² the innermost panel misplaces at most ~10⁻¹² of mass (b_2 = O(σ) there).
The window [s₋, s₊] ⊇ [−1, 1] is where |g(s)|(1 + |s|)φ(s) exceeds 10⁻²⁰ of its maximum
over [−40, 40] (plus a margin of 1/2), so growing links (e.g. g = e^{10z}) are integrated
where their Gaussian mass is. g comes from ``Link.g_numpy`` (potential links: bisection),
once per link, cached.

Accuracy. Documented target: absolute error ≤ 1e-10 · max(1, S) for F, h, J and H, with
S = E[|g(s)|(1 + |s|)] the integrals' natural scale (:func:`quadrature_scale`). Measured
(tests/sim/test_population.py): ≤ 5e-16 against nested adaptive ``scipy.integrate.quad`` in
polar coordinates (an independent 2-D evaluation of eq:Fdef and J, no 1-D reduction), for
generic v, v = β_+ exactly, |v − β_+| = 1e-9 and v = −β_−; ≤ 2e-15 · max(1, S) against a refined
rule (30 nodes, panels 1/8, grading from 1e-15) over 60 random links of the test strategies;
relative 1e-12 against closed forms for g = e^{10z}.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass

import numpy as np

from nbl_theory.errors import NBLInputError
from nbl_theory.links import Link
from nbl_theory.numeric import PHI0, gauss_legendre_panels
from nbl_theory.stability import stability
from nbl_theory.validation import check_link, finite_array, unit_vector, validate_delta

__all__ = [
    "arm_vectors",
    "population_field",
    "tangent_field",
    "potential_J",
    "H_alpha",
    "H_alpha_derivative",
    "jacobian_fd",
    "jacobian_formula",
    "circle_functions",
    "quadrature_scale",
    "quadrature_window",
    "reduction_field",
    "reduction_integrals",
]

_EPS0 = 1e-12  # innermost panel edge of the geometric grading at s = 0
_GRADE_TOP = 0.25  # geometric grading up to here, then uniform panels
_PANEL = 0.25  # width of the uniform panels
_SCAN = np.linspace(-40.0, 40.0, 641)  # window search grid
_NEGLIGIBLE = 1e-20  # relative size of |g|(1+|s|)φ treated as zero outside the window
_CHUNK = 1_500_000  # max kernel entries per vectorized block (memory bound)
_BETA_NORM_TOL = 1e-9


# ---------------------------------------------------------------------------- quadrature nodes
@dataclass(frozen=True)
class _Nodes:
    s: np.ndarray  # s-nodes
    wsg: np.ndarray  # w s g(s) φ(s)
    wg: np.ndarray  # w g(s) φ(s) / √(2π)   (b_2 = φ(x) @ wg with φ(x) → exp(−x²/2))
    mu_g: float  # E[s g(s)] = E[g'(s)]
    scale: float  # E[|g(s)| (1 + |s|)]
    window: tuple  # (s₋, s₊)
    t: np.ndarray  # t-nodes for the boundary integrals E[t² g(ct)] of H'
    wt2: np.ndarray  # w t² φ(t)


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _graded_edges(lo: float, hi: float) -> np.ndarray:
    """Panel edges on [lo, hi] (lo < −1 < 1 < hi) graded geometrically toward 0."""
    geo = _EPS0 * 2.0 ** np.arange(0, 64)
    geo = geo[geo < _GRADE_TOP]
    pos = np.concatenate([[0.0], geo, np.arange(_GRADE_TOP, hi + 0.5 * _PANEL, _PANEL)])
    neg = np.concatenate([[0.0], geo, np.arange(_GRADE_TOP, -lo + 0.5 * _PANEL, _PANEL)])
    return np.concatenate([-neg[::-1], pos[1:]])


def _g_values(link: Link, z: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        gz = np.asarray(link.g_numpy(z), dtype=float)
    if not np.all(np.isfinite(gz)):
        bad = z[~np.isfinite(gz)]
        raise NBLInputError(
            f"link {link.name!r} is not finite in float64 at z = {bad[0]:g} "
            "(population quadrature needs g on the Gaussian window)"
        )
    return gz


def _nodes(link: Link) -> _Nodes:
    check_link(link)
    hit = _CACHE.get(link)
    if hit is not None:
        return hit
    # window: where |g(s)|(1+|s|)φ(s) is not negligible against its maximum (log domain)
    gz = _g_values(link, _SCAN)
    with np.errstate(divide="ignore"):
        logw = np.log(np.abs(gz)) + np.log1p(np.abs(_SCAN)) - 0.5 * _SCAN**2
    if not np.any(np.isfinite(logw)):
        raise NBLInputError(f"link {link.name!r} vanishes identically on [-40, 40]")
    keep = np.flatnonzero(logw > np.max(logw) + math.log(_NEGLIGIBLE))
    lo, hi = _SCAN[keep[0]] - 0.5, _SCAN[keep[-1]] + 0.5
    if lo <= _SCAN[0] or hi >= _SCAN[-1]:
        raise NBLInputError(
            f"link {link.name!r} grows too fast: its Gaussian mass is not contained in "
            "[-40, 40], beyond the float64 population quadrature"
        )
    lo = math.floor(min(lo, -1.0) / _PANEL) * _PANEL
    hi = math.ceil(max(hi, 1.0) / _PANEL) * _PANEL
    s, w = gauss_legendre_panels(_graded_edges(lo, hi))
    g = _g_values(link, s)
    phi = PHI0 * np.exp(-0.5 * s * s)
    wgp = w * g * phi
    # boundary integrals E[t² g(ct)], |c| ≤ 1: g(ct)t²φ(t) is negligible beyond the window
    # (for |c| ≤ 1) and beyond |t| = 11 (t²φ(t) < 1e-24)
    big_t = math.ceil(max(11.0, -lo + 1.0, hi + 1.0))
    t, wt = gauss_legendre_panels(np.arange(-big_t, big_t + 0.5 * _PANEL, _PANEL))
    out = _Nodes(
        s=s,
        wsg=wgp * s,
        wg=wgp * PHI0,
        mu_g=float(np.sum(wgp * s)),
        scale=float(np.sum(w * np.abs(g) * (1 + np.abs(s)) * phi)),
        window=(lo, hi),
        t=t,
        wt2=wt * t * t * PHI0 * np.exp(-0.5 * t * t),
    )
    _CACHE[link] = out
    return out


def quadrature_scale(link: Link) -> float:
    """S = E[|g(s)|(1 + |s|)], s ~ N(0, 1): the scale of the population integrals.

    The documented accuracy of :func:`population_field`, :func:`tangent_field`,
    :func:`potential_J` and :func:`H_alpha` is an absolute error ≤ 1e-10 · max(1, S).

    Parameters
    ----------
    link : Link
        The shared link g.

    Returns
    -------
    float
        S for this link.
    """
    return _nodes(link).scale


def quadrature_window(link: Link) -> tuple[float, float]:
    """The s-interval [s₋, s₊] ⊇ [−1, 1] integrated for this link (module docstring): where
    |g(s)|(1 + |s|)φ(s) exceeds 1e-20 of its maximum, plus a margin, rounded out to 1/4.
    Bounded links give about ±10.25; e.g. g = e^{10z} gives (−1, 20.25).

    Parameters
    ----------
    link : Link
        The shared link g.

    Returns
    -------
    tuple of float
        ``(s_lo, s_hi)``.
    """
    return _nodes(link).window


# ---------------------------------------------------------------------------- validation
def _float_delta(delta) -> float:
    return float(validate_delta(delta))


def _check_beta(beta) -> np.ndarray:
    b = finite_array(beta, "beta")
    if b.ndim != 2 or b.shape[0] != 2:
        raise NBLInputError(
            f"beta must have shape (2, d) (row 0 = arm -1, row 1 = arm +1), got {b.shape}"
        )
    if b.shape[1] < 2:
        raise NBLInputError(f"dimension d must be at least 2, got d = {b.shape[1]}")
    norms = np.linalg.norm(b, axis=1)
    if np.any(np.abs(norms - 1.0) > _BETA_NORM_TOL):
        raise NBLInputError(
            f"beta rows must be unit vectors (||beta_a|| = 1, eq:model), got norms {norms}"
        )
    return b / norms[:, None]


def _check_v(v, d: int, name: str = "v") -> tuple[np.ndarray, np.ndarray, bool]:
    """Return (unit rows (k, d), norms (k,), was_1d)."""
    arr = finite_array(v, name)
    if arr.ndim not in (1, 2) or arr.shape[-1] != d:
        raise NBLInputError(f"{name} must have shape ({d},) or (k, {d}), got {arr.shape}")
    one = arr.ndim == 1
    arr = np.atleast_2d(arr)
    norms = np.linalg.norm(arr, axis=1)
    if np.any(norms == 0):
        raise NBLInputError(f"{name} must be non-zero (a direction on the sphere)")
    return arr / norms[:, None], norms, one


# ---------------------------------------------------------------------------- geometry
def arm_vectors(delta, d: int = 2, v_star=None, theta_dir=None):
    """Index vectors β_a = θ + a(Δ/2)v* with ‖θ‖² = 1 − Δ²/4, so ‖β_a‖ = 1.

    Parameters
    ----------
    delta : float, int or decimal str
        Arm separation Δ ∈ (0, 2) (validated by ``nbl_theory.stability.validate_delta``).
    d : int
        Dimension (≥ 2). When ``v_star`` is given its length is used, and ``d`` must be that
        length or left at its default.
    v_star : array_like (d,), optional
        Boundary direction; normalized. Default e₁.
    theta_dir : array_like (d,), optional
        Direction of θ; its component along v* is removed and the rest normalized. Default:
        e₂ when v* = e₁, otherwise the standard basis vector least aligned with v*,
        orthogonalized.

    Returns
    -------
    beta : ndarray (2, d)
        Row 0 = β_− (arm −1), row 1 = β_+ (arm +1).
    v_star : ndarray (d,)
        The unit boundary direction v* = (β_+ − β_−)/Δ.
    theta : ndarray (d,)
        θ = (β_+ + β_−)/2, orthogonal to v*, with ‖θ‖² = 1 − Δ²/4.

    Raises
    ------
    NBLInputError
        Δ ∉ (0, 2), d < 2, zero/non-finite vectors, wrong shapes, or θ direction parallel to v*.
    """
    dl = _float_delta(delta)
    if v_star is None:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise NBLInputError(f"d must be an integer >= 2, got {d!r}")
        d = int(d)
        if d < 2:
            raise NBLInputError(f"dimension d must be at least 2, got d = {d}")
        vs = np.zeros(d)
        vs[0] = 1.0
    else:
        vs = unit_vector(v_star, "v_star")
        if vs.size < 2:
            raise NBLInputError(f"dimension d must be at least 2, got d = {vs.size}")
        if d not in (2, vs.size):
            raise NBLInputError(f"v_star has length {vs.size} but d = {d}")
        d = vs.size
    if theta_dir is None:
        k = int(np.argmin(np.abs(vs)))
        if v_star is None:
            k = 1
        e = np.zeros(d)
        e[k] = 1.0
        th = e - (e @ vs) * vs
    else:
        raw = finite_array(theta_dir, "theta_dir")
        if raw.shape != (d,):
            raise NBLInputError(f"theta_dir must have shape ({d},), got {raw.shape}")
        n0 = float(np.linalg.norm(raw))
        if n0 == 0:
            raise NBLInputError("theta_dir must be non-zero")
        th = raw - (raw @ vs) * vs
        if np.linalg.norm(th) <= 1e-8 * n0:
            raise NBLInputError("theta_dir is parallel to v_star; theta must be orthogonal to v*")
    th = th / np.linalg.norm(th)
    th = th - (th @ vs) * vs  # one more Gram–Schmidt pass for exact orthogonality
    th /= np.linalg.norm(th)
    theta = math.sqrt(1.0 - dl * dl / 4.0) * th
    beta = np.stack([theta - 0.5 * dl * vs, theta + 0.5 * dl * vs])
    beta /= np.linalg.norm(beta, axis=1)[:, None]  # remove rounding in ‖β_a‖
    return beta, vs, theta


def _arm_parts(nd: _Nodes, beta: np.ndarray, vu: np.ndarray, integrals=None):
    """For unit rows vu (k, d): ρ (k,2), σ (k,2), w (k,2,d), a_1 (k,2), b_2 (k,2) — the last two
    by the quadrature, or by ``integrals(ρ, σ)`` (:func:`reduction_field`)."""
    rho = np.clip(vu @ beta.T, -1.0, 1.0)
    r = vu[:, None, :] - rho[:, :, None] * beta[None, :, :]
    sigma = np.linalg.norm(r, axis=-1)
    pos = sigma > 0
    w = np.where(pos[..., None], r / np.where(pos, sigma, 1.0)[..., None], 0.0)
    if integrals is not None:
        a1, b2 = integrals(rho, sigma)
        return rho, sigma, w, a1, b2
    c = np.clip(rho / np.maximum(sigma, 1e-280), -1e250, 1e250)
    a1, b2 = _kernel_sums(nd, c)
    return rho, sigma, w, a1, b2


def _kernel_sums(nd: _Nodes, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """a_1 = E[s g(s) Φ(cs)] and b_2 = E[g(s) φ(cs)] by the quadrature, c of shape (k, m)
    (the field's m = 2: one column per arm)."""
    from scipy.special import ndtr  # imported on first use: not at the command's start-up

    k, m = c.shape
    a1 = np.empty((k, m))
    b2 = np.empty((k, m))
    step = max(1, _CHUNK // (m * nd.s.size))
    for i in range(0, k, step):
        x = c[i : i + step, :, None] * nd.s[None, None, :]
        np.clip(x, -60.0, 60.0, out=x)
        a1[i : i + step] = ndtr(x) @ nd.wsg
        b2[i : i + step] = np.exp(-0.5 * x * x) @ nd.wg
    return a1, b2


def reduction_integrals(link: Link, c) -> tuple[np.ndarray, np.ndarray, float]:
    """The integrals of the exact 1-D reduction (module docstring) at kernel slopes c = ρ/σ:
    a_1(c) = E[s g(s) Φ(cs)] and b_2(c) = E[g(s) φ(cs)] (arrays of c's shape), and μ_g, by
    this module's quadrature (the numbers :func:`population_field` uses; for tables of them,
    :mod:`nbl_sim.population.population_table`). |c| is capped at 1e250 as the field caps ρ/σ.

    Parameters
    ----------
    link : Link
        The shared link g.
    c : array_like
        Kernel slopes c = ρ/σ (finite).

    Returns
    -------
    a1 : numpy.ndarray
        a_1(c), of the shape of ``c``.
    b2 : numpy.ndarray
        b_2(c), of the shape of ``c``.
    mu_g : float
        μ_g = E[g'(s)].
    """
    arr = finite_array(c, "c")
    nd = _nodes(link)
    a1, b2 = _kernel_sums(nd, np.clip(arr.reshape(-1, 1), -1e250, 1e250))
    return a1.reshape(arr.shape), b2.reshape(arr.shape), nd.mu_g


def _field_unit(
    nd: _Nodes | None, beta: np.ndarray, vu: np.ndarray, integrals=None, mu_g: float | None = None
) -> np.ndarray:
    _, _, w, a1, b2 = _arm_parts(nd, beta, vu, integrals)
    f = a1[:, :, None] * beta[None, :, :] + b2[:, :, None] * w
    return f.sum(axis=1) - (nd.mu_g if mu_g is None else mu_g) * beta[0]


def _tangent_part(f: np.ndarray, vu: np.ndarray) -> np.ndarray:
    return f - np.sum(f * vu, axis=1)[:, None] * vu


def reduction_field(integrals, mu_g: float, beta, v, tangent: bool = False) -> np.ndarray:
    """F(v) — h(v) with ``tangent`` — by the exact 1-D reduction with a_1, b_2 from
    ``integrals(ρ, σ)`` ((k, 2) arrays each, σ ≥ 0) in place of the quadrature: the arguments,
    checks and shapes of :func:`population_field` (for tables of the integrals,
    :class:`nbl_sim.population.population_table.FieldTable`).

    Parameters
    ----------
    integrals : callable
        ``integrals(rho, sigma)`` -> ``(a1, b2)``, each a (k, 2) array like its arguments.
    mu_g : float
        μ_g = E[g'(s)] of the link.
    beta : array_like (2, d)
        Unit index vectors, row 0 = arm −1, row 1 = arm +1.
    v : array_like (d,) or (k, d)
        Direction(s); normalized.
    tangent : bool, default False
        Return h(v), the tangent part of F, instead of F.

    Returns
    -------
    numpy.ndarray (d,) or (k, d)
        F(v) or h(v), one row per row of ``v``.
    """
    b = _check_beta(beta)
    vu, _, one = _check_v(v, b.shape[1])
    f = _field_unit(None, b, vu, integrals, float(mu_g))
    f = _tangent_part(f, vu) if tangent else f
    return f[0] if one else f


def population_field(link: Link, beta, v) -> np.ndarray:
    """The population field F(v) of eq:Fdef (E[W_t | H_{t−1}] under greedy allocation,
    lem:conditional_population_field).

    Parameters
    ----------
    link : Link
        The shared link g.
    beta : array_like (2, d)
        Unit index vectors, row 0 = arm −1, row 1 = arm +1.
    v : array_like (d,) or (k, d)
        Direction(s); normalized (F depends on v only through the half-space {vᵀx ≥ 0}).

    Returns
    -------
    ndarray (d,) or (k, d)
        F at each direction (one row per row of ``v``).

    Notes
    -----
    Exact 1-D reduction plus graded composite Gauss–Legendre (module docstring); absolute
    error ≤ 1e-10 · max(1, S), S = :func:`quadrature_scale` (measured ≤ 1e-13 for bounded
    links, also at v = ±β_a).
    """
    b = _check_beta(beta)
    vu, _, one = _check_v(v, b.shape[1])
    f = _field_unit(_nodes(link), b, vu)
    return f[0] if one else f


def tangent_field(link: Link, beta, v) -> np.ndarray:
    """h(v) = (I − v̂v̂ᵀ) F(v), v̂ = v/‖v‖: the Riemannian gradient of J on the sphere.

    Same shapes and accuracy as :func:`population_field`.

    Parameters
    ----------
    link : Link
        The shared link g.
    beta : array_like (2, d)
        Unit index vectors, row 0 = arm −1, row 1 = arm +1.
    v : array_like (d,) or (k, d)
        Direction(s); normalized.

    Returns
    -------
    numpy.ndarray (d,) or (k, d)
        h(v), one row per row of ``v``.
    """
    b = _check_beta(beta)
    vu, _, one = _check_v(v, b.shape[1])
    h = _tangent_part(_field_unit(_nodes(link), b, vu), vu)
    return h[0] if one else h


def potential_J(link: Link, beta, v):
    """J(v) = E[(m_+ + m_−)(X)(vᵀX)_+] − vᵀE[m_−(X)X], with ∇J = F.

    J is positively 1-homogeneous, J(v) = ‖v‖ J(v/‖v‖), and is evaluated that way, so ``v``
    need not be a unit vector (finite differences of J in ℝ^d give F). Returns a float for v
    of shape (d,), an array (k,) for shape (k, d). Accuracy as :func:`population_field`,
    times ‖v‖.

    Parameters
    ----------
    link : Link
        The shared link g.
    beta : array_like (2, d)
        Unit index vectors, row 0 = arm −1, row 1 = arm +1.
    v : array_like (d,) or (k, d)
        Direction(s), not necessarily unit vectors.

    Returns
    -------
    float or numpy.ndarray (k,)
        J(v).
    """
    b = _check_beta(beta)
    vu, norms, one = _check_v(v, b.shape[1])
    nd = _nodes(link)
    rho, sigma, _, a1, b2 = _arm_parts(nd, b, vu)
    j = np.sum(rho * a1 + sigma * b2, axis=1) - nd.mu_g * rho[:, 0]
    j = j * norms
    return float(j[0]) if one else j


# ---------------------------------------------------------------------------- 2-D circle
def _circle_beta(delta) -> np.ndarray:
    beta, _, _ = arm_vectors(delta, 2)
    return beta


def _alpha_array(alpha) -> tuple[np.ndarray, bool]:
    a = finite_array(alpha, "alpha")
    return a, a.ndim == 0


def _H(nd: _Nodes, beta: np.ndarray, a: np.ndarray) -> np.ndarray:
    flat = a.ravel()
    ca, sa = np.cos(flat), np.sin(flat)
    f = _field_unit(nd, beta, np.stack([ca, sa], axis=1))
    return (-sa * f[:, 0] + ca * f[:, 1]).reshape(a.shape)


def H_alpha(link: Link, delta, alpha):
    """H(α) = v_⊥(α)ᵀ F(v(α)) in d = 2 (eq:H-alpha), v* = (1, 0), θ ∝ (0, 1).

    v(α) = (cos α, sin α), v_⊥(α) = (−sin α, cos α); h(v(α)) = H(α) v_⊥(α), so H > 0 moves v
    counterclockwise. Vectorized over ``alpha`` (any shape; a scalar gives a float).
    Accuracy as :func:`population_field`. H is odd (J(v(α)) is even in α) and H(0) = H(π) = 0.

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        The arm separation Δ ∈ (0, 2); the arms are β_∓ = θ ∓ (Δ/2)v* with v* = (1, 0).
    alpha : float or array_like
        Angles α in radians.

    Returns
    -------
    float or numpy.ndarray
        H(α), of the shape of ``alpha`` (a float for a scalar).
    """
    beta = _circle_beta(delta)
    a, scalar = _alpha_array(alpha)
    out = _H(_nodes(link), beta, a)
    return float(out) if scalar else out


def _dH(link: Link, nd: _Nodes, beta: np.ndarray, a: np.ndarray) -> np.ndarray:
    flat = a.ravel()
    ca, sa = np.cos(flat), np.sin(flat)
    vu = np.stack([ca, sa], axis=1)
    vp = np.stack([-sa, ca], axis=1)
    f = _field_unit(nd, beta, vu)
    c = vp @ beta.T  # (k, 2): β_aᵀ v_⊥
    gt = _g_values(link, c[:, :, None] * nd.t[None, None, :])
    boundary = PHI0 * np.sum(gt @ nd.wt2, axis=1)
    return (boundary - np.sum(vu * f, axis=1)).reshape(a.shape)


def H_alpha_derivative(link: Link, delta, alpha):
    """H'(α), exact up to quadrature, from the boundary term of the moving half-plane.

    d/dα E[m(X) X 1{v(α)ᵀX ≥ 0}] = E[m(X) X (v_⊥ᵀX) δ(vᵀX)] = φ₀(0) E_t[t² m(t v_⊥)] v_⊥
    (on the line vᵀX = 0, X = t v_⊥, t ~ N(0, 1)), the −m_−X1{vᵀX < 0} term gives the same with
    m_−, and v_⊥' = −v, so

    .. math:: H'(α) = −v(α)ᵀF(v(α)) + φ_0(0) \\sum_a E_t[t^2 g(t\\,β_aᵀv_⊥(α))].

    At α = 0 this is −κ* + 2φ₀(0)E[t²g(‖θ‖t)] = −Δμ* + 2φ₀(0) m₂ (1 − Δ²/4) (Stein), the
    θ-rate of eq:Jacobian. E_t is composite Gauss–Legendre (16 nodes, panels of width 1/4);
    g is evaluated at new points for every α (slow for potential links: use for a few α).

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        The arm separation Δ ∈ (0, 2); the arms are β_∓ = θ ∓ (Δ/2)v* with v* = (1, 0).
    alpha : float or array_like
        Angles α in radians.

    Returns
    -------
    float or numpy.ndarray
        H'(α), of the shape of ``alpha`` (a float for a scalar).
    """
    beta = _circle_beta(delta)
    a, scalar = _alpha_array(alpha)
    out = _dH(link, _nodes(link), beta, a)
    return float(out) if scalar else out


def circle_functions(link: Link, delta):
    """(H, H', S): H(α) and H'(α) of :func:`H_alpha` / :func:`H_alpha_derivative` as callables
    of an array of angles that share one set of quadrature nodes (the fast path for root
    finding, :func:`nbl_sim.population.circle.circle_equilibria`), and the scale S of the
    quadrature error (:func:`quadrature_scale`).

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        The arm separation Δ ∈ (0, 2); the arms are β_∓ = θ ∓ (Δ/2)v* with v* = (1, 0).

    Returns
    -------
    h : callable
        Angles (array_like) to H at them, a 1-D array.
    dh : callable
        Angles (array_like) to H' at them, a 1-D array.
    scale : float
        S of :func:`quadrature_scale`.
    """
    beta = _circle_beta(delta)
    nd = _nodes(link)

    def h(alpha):
        return _H(nd, beta, np.atleast_1d(np.asarray(alpha, dtype=float)))

    def dh(alpha):
        return _dH(link, nd, beta, np.atleast_1d(np.asarray(alpha, dtype=float)))

    return h, dh, nd.scale


# ---------------------------------------------------------------------------- Jacobians
def _tangent_basis(v: np.ndarray) -> np.ndarray:
    """Columns: an orthonormal basis of v^⊥ (d × (d−1))."""
    d = v.size
    q, _ = np.linalg.qr(np.column_stack([v, np.eye(d)]))
    return q[:, 1:d]


def jacobian_fd(link: Link, beta, v_star, eps: float = 1e-3, richardson: bool = True):
    """Finite-difference Jacobian of h at v* on the tangent space T_{v*}S^{d−1}.

    For each vector u_i of an orthonormal basis of v*^⊥ (QR), Dh(v*)[u_i] is approximated by
    the central difference [h(R(v* + εu_i)) − h(R(v* − εu_i))]/(2ε) with the normalization
    retraction R(x) = x/‖x‖ (the paper's update eq:nbl_update); R(v* ± εu) = v* ± εu + O(ε²)
    is a smooth curve with velocity u, so the quotient is Dh[u] + O(ε²). With
    ``richardson=True`` the steps ε and ε/2 are combined, (4D_{ε/2} − D_ε)/3 = Dh[u] + O(ε⁴).

    Parameters
    ----------
    link : Link
        The shared link g.
    beta : array_like (2, d)
        Unit index vectors, row 0 = arm −1, row 1 = arm +1.
    v_star : array_like (d,)
        The point v* (normalized) at which h is differentiated, usually an equilibrium.
    eps : float, default 1e-3
        The finite-difference step ε.
    richardson : bool, default True
        Combine the steps ε and ε/2 (error O(ε⁴) instead of O(ε²)).

    Returns
    -------
    ndarray (d, d)
        M = P Σ_i Dh[u_i] u_iᵀ with P = I − v*v*ᵀ: M u = Dh(v*)[u] for tangent u, M v* = 0.
        At an equilibrium Dh[u] is already tangent (v*ᵀDh[u] = −uᵀh(v*) = 0); P only removes
        rounding.

    Notes
    -----
    Error (default ε = 1e-3 with Richardson): truncation ~ε⁴·|D⁵h| ≈ 1e-12, quadrature noise
    ~1e-16·S/ε (the quadrature error itself is a smooth function of v and largely cancels), so
    ≲ 1e-9 · max(1, S) overall; measured ≤ 2e-12 · max(1, S) against eq:Jacobian.
    """
    b = _check_beta(beta)
    d = b.shape[1]
    vs = unit_vector(v_star, "v_star")
    if vs.size != d:
        raise NBLInputError(f"v_star must have shape ({d},), got {vs.shape}")
    if not (isinstance(eps, (float, int)) and math.isfinite(eps) and 0 < eps < 0.1):
        raise NBLInputError(f"eps must be a number in (0, 0.1), got {eps!r}")
    basis = _tangent_basis(vs)
    nd = _nodes(link)
    steps = [eps, eps / 2] if richardson else [eps]
    pts = []
    for e in steps:
        for sgn in (1.0, -1.0):
            x = vs[None, :] + sgn * e * basis.T
            pts.append(x / np.linalg.norm(x, axis=1)[:, None])
    vu = np.concatenate(pts)
    h = _tangent_part(_field_unit(nd, b, vu), vu).reshape(len(steps), 2, d - 1, d)
    diffs = [(h[i, 0] - h[i, 1]) / (2 * e) for i, e in enumerate(steps)]  # (d−1, d) rows Dh[u_i]
    dh = (4 * diffs[1] - diffs[0]) / 3 if richardson else diffs[0]
    proj = np.eye(d) - np.outer(vs, vs)
    return proj @ (dh.T @ basis.T)


def jacobian_formula(
    link: Link, delta=None, *, beta=None, d: int = 2, v_star=None, theta_dir=None
) -> np.ndarray:
    """Dh(v*) from eq:Jacobian: Dh(v*)[u] = −Δμ* u + 2φ₀(0) m₂ θ(θᵀu), as a (d, d) matrix
    −Δμ* P + 2φ₀(0) m₂ θθᵀ (P = I − v*v*ᵀ), which maps T_{v*} to itself and kills v*.

    μ* and m₂ come from the theory core, ``nbl_theory.stability.stability(link, Δ)`` (float64
    tier, no precision raising); they are not recomputed here. (That tier widens its window
    for fast-growing links; links growing faster than it can integrate, such as g = e^{10z},
    are refused when the Link is built.)

    Geometry: either ``beta`` (2, d) — then Δ = ‖β_+ − β_−‖, v* = (β_+ − β_−)/Δ,
    θ = (β_+ + β_−)/2, and a given ``delta`` must agree — or ``delta`` with
    ``d``/``v_star``/``theta_dir`` as in :func:`arm_vectors`.

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str, optional
        The arm separation Δ ∈ (0, 2); needed unless ``beta`` is given (then it must agree).
    beta : array_like (2, d), optional
        The arms' unit index vectors, from which Δ, v* and θ are read.
    d : int, default 2
        The dimension (with ``delta``), as in :func:`arm_vectors`.
    v_star : array_like (d,), optional
        The boundary direction (with ``delta``), as in :func:`arm_vectors`.
    theta_dir : array_like (d,), optional
        The direction of θ (with ``delta``), as in :func:`arm_vectors`.

    Returns
    -------
    numpy.ndarray, shape (d, d)
        −Δμ* P + 2φ₀(0) m₂ θθᵀ.

    Raises
    ------
    NBLInputError
        ‖β_+ − β_−‖ outside (0, 2), or ``delta`` disagreeing with ``beta`` by more than 1e-9.
    """
    if beta is not None:
        b = _check_beta(beta)
        diff = b[1] - b[0]
        dl = float(np.linalg.norm(diff))
        if not 0 < dl < 2:
            raise NBLInputError(f"||beta_+ - beta_-|| must lie in (0, 2), got {dl}")
        if delta is not None and abs(_float_delta(delta) - dl) > 1e-9:
            raise NBLInputError(f"delta = {delta} disagrees with ||beta_+ - beta_-|| = {dl}")
        vs = diff / dl
        theta = 0.5 * (b[1] + b[0])
        delta_in = delta if delta is not None else dl
    else:
        if delta is None:
            raise NBLInputError("jacobian_formula needs delta or beta")
        _, vs, theta = arm_vectors(delta, d, v_star, theta_dir)
        delta_in = delta
    res = stability(
        link,
        delta_in if not isinstance(delta_in, np.floating) else float(delta_in),
        auto_raise=False,
    )
    dl = _float_delta(delta_in)
    mu_star, m2 = float(res.values["mu_star"]), float(res.values["m2"])
    dim = vs.size
    proj = np.eye(dim) - np.outer(vs, vs)
    return -dl * mu_star * proj + 2 * PHI0 * m2 * np.outer(theta, theta)
