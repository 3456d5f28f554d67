"""Local stability constants computed, not assumed (cor:local_stability), from the witness's
own population field.

In d = 2 with the paper's rotation (v* = e1, θ ∝ e2), h(v(α)) = H(α) v_⊥(α), so
⟨v − v*, h(v)⟩ = H(α) sin α and ‖v − v*‖² = 2(1 − cos α); the ratio
−⟨v − v*, h(v)⟩/‖v − v*‖² is −H(α) cot(α/2)/2 (→ −H'(0) as α → 0). H, H' and the tangent field
h in d ≥ 3 are the witness's own 2-D polar quadrature (:mod:`.polar_field`, agreeing with the
library's :mod:`nbl_sim.population.fields` to ~4e-16, measured in tests/proofs_check/
test_lambda0_witness.py), never the library's field. The minimisation over the cap, the
largest valid radius and a periodic spline of H for long paths are computed here.

Every function takes the field it works on as an optional argument (``field`` = (H, H') as
callables ``(link, delta, alpha)``, ``tangent`` = ``(link, beta, V)``); the default is the
witness's own. A claim passes the library's field to compute the library's side of a
comparison (:func:`proofs_check.judgement.agreement`): the minimisation is shared, the field is
what is witnessed.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy.interpolate import CubicSpline
from scipy.optimize import brentq, minimize_scalar

from .polar_field import own_dH, own_H, polar_tangent_field

__all__ = [
    "slowest_rate",
    "OWN_FIELD",
    "h_spline",
    "spline_error",
    "h_along",
    "ratio_2d",
    "lambda0_2d",
    "lambda0_cap",
    "local_radius",
    "radius_geometry",
    "radius_facts",
]

#: The witness's own (H, H') (:mod:`.polar_field`).
OWN_FIELD = (own_H, own_dH)


@functools.cache
def h_spline(link, delta: str, field: tuple = OWN_FIELD) -> CubicSpline:
    """Periodic cubic spline of H(α) on 4096 equally spaced angles of [−π, π] (interpolation
    error ~1e-13 for the paper's links; measure it with :func:`spline_error`)."""
    a = np.linspace(-math.pi, math.pi, 4097)
    y = np.array(field[0](link, delta, a))
    y[-1] = y[0]
    return CubicSpline(a, y, bc_type="periodic")


def spline_error(link, delta: str, seed: int = 0, field: tuple = OWN_FIELD) -> float:
    """max |spline − direct quadrature| of H at 200 seeded uniform angles of [−π, π]."""
    a = np.random.default_rng(seed).uniform(-math.pi, math.pi, 200)
    return float(np.abs(h_spline(link, delta, field)(a) - field[0](link, delta, a)).max())


def h_along(env, V: np.ndarray, tangent=polar_tangent_field) -> np.ndarray:
    """h(v) for an array of unit vectors V (..., d) of the environment ``env``: the spline of the
    witness's H in the paper's d = 2 rotation (v* = e1), ``tangent`` (default the witness's
    polar quadrature) otherwise."""
    if env.d == 2 and np.array_equal(env.v_star, np.array([1.0, 0.0])):
        al = np.arctan2(V[..., 1], V[..., 0])
        Hv = h_spline(env.link, env.delta_text)(al)
        return np.stack([-np.sin(al) * Hv, np.cos(al) * Hv], axis=-1)
    flat = V.reshape(-1, env.d)
    return tangent(env.link, env.beta, flat).reshape(V.shape)


def ratio_2d(link, delta: str, alpha, field: tuple = OWN_FIELD):
    """−⟨v − v*, h(v)⟩/‖v − v*‖² at v = v(α) in d = 2: −H(α) cot(α/2)/2."""
    alpha = np.asarray(alpha, dtype=float)
    return -np.asarray(field[0](link, delta, alpha)) / np.tan(alpha / 2) / 2


@functools.cache
def lambda0_2d(link, delta: str, r0: float, field: tuple = OWN_FIELD) -> float:
    """λ0(r0) = min_{0 < ‖v − v*‖ ≤ r0} −⟨v − v*, h(v)⟩/‖v − v*‖² in d = 2 (cor:local_stability).

    Grid of 801 angles on each side of 0 (both signs of α), the limit −H'(0) at α = 0, then a
    bounded scalar refinement (xatol 1e-12) around the smallest grid value; the result is the
    smallest value seen, so it can only err low by the refinement tolerance (~1e-12 in the
    ratio).
    """
    a0 = 2 * math.asin(r0 / 2)
    grid = np.concatenate([-np.linspace(a0, 1e-4, 801), np.linspace(1e-4, a0, 801)])
    vals = ratio_2d(link, delta, grid, field)
    best = min(float(vals.min()), -float(field[1](link, delta, 0.0)))
    i = int(np.argmin(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    if lo < 0 < hi:
        return best
    res = minimize_scalar(
        lambda x: float(ratio_2d(link, delta, x, field)),
        bounds=(lo, hi),
        method="bounded",
        options={"xatol": 1e-12},
    )
    return min(best, float(res.fun))


def lambda0_cap(
    env, r0: float, n_alpha: int = 60, n_psi: int = 24, tangent=polar_tangent_field
) -> float:
    """λ0(r0) for d ≥ 3: the minimum of −⟨v − v*, h(v)⟩/‖v − v*‖² on a grid of the cap
    ‖v − v*‖ ≤ r0 (``n_alpha`` angles × ``n_psi`` azimuths) in the 3-space span(v*, θ, ω), ω a
    fixed (seeded) unit vector ⊥ v*, θ; h is ``tangent`` (default the witness's own).

    The field is equivariant under rotations fixing v* and θ, so one ω covers every direction of
    the cap up to that symmetry; the grid minimum is an upper bound of the true minimum (the
    grid's resolution is the accuracy).
    """
    vs, th = env.v_star, env.theta / np.linalg.norm(env.theta)
    w = np.random.default_rng(0).standard_normal(env.d)
    w -= (w @ vs) * vs + (w @ th) * th
    w /= np.linalg.norm(w)
    a0 = 2 * math.asin(r0 / 2)
    al = np.linspace(a0 / n_alpha, a0, n_alpha)
    ps = np.linspace(0, 2 * math.pi, n_psi, endpoint=False)
    A, P = np.meshgrid(al, ps, indexing="ij")
    u = np.cos(P)[..., None] * th + np.sin(P)[..., None] * w
    V = (np.cos(A)[..., None] * vs + np.sin(A)[..., None] * u).reshape(-1, env.d)
    h = tangent(env.link, env.beta, V)
    D = V - vs
    return float((-(D * h).sum(1) / (D * D).sum(1)).min())


def local_radius(
    link, delta: str, lam: float, n_log: int = 60, n_lin: int = 900, field: tuple = OWN_FIELD
):
    """Largest angle a0 (radians) such that ⟨v − v*, h(v)⟩ ≤ −(λ/2)‖v − v*‖² for all
    |α| ≤ a0 in d = 2, per side (α > 0, α < 0).

    With v(α) = (cos α, sin α), v* = (1, 0): ⟨v − v*, h⟩ = H(α) sin α and ‖v − v*‖² =
    2(1 − cos α), so the condition is f(α) = H(α) sin α + λ(1 − cos α) ≤ 0. f is scanned on a
    log grid 1e-4..0.05 (``n_log`` points) and a uniform grid to π (``n_lin`` points; f(π) = 2λ
    > 0 for λ > 0, so a violation exists); the first violation is refined with brentq (xtol
    1e-12). A sign change between two grid points closer than the grid spacing can be missed.

    Returns
    -------
    (a_plus, a_minus, f_small)
        The radii per side and f at the first grid point of each side (its sign near v*).
    """
    grid = np.concatenate(
        [np.geomspace(1e-4, 0.05, n_log, endpoint=False), np.linspace(0.05, math.pi, n_lin)]
    )
    H = field[0]

    def f(a):
        return np.asarray(H(link, delta, a)) * np.sin(a) + lam * (1.0 - np.cos(a))

    out, small = [], []
    for sgn in (1.0, -1.0):
        fv = f(sgn * grid)
        small.append(float(fv[0]))
        bad = np.flatnonzero(fv > 0)
        if bad.size == 0:
            out.append(math.pi)
        elif bad[0] == 0:
            out.append(0.0)
        else:
            j = bad[0]
            out.append(brentq(lambda x, s=sgn: float(f(s * x)), grid[j - 1], grid[j], xtol=1e-12))
    return out[0], out[1], small


def radius_geometry(alpha_plus: float, alpha_minus: float) -> dict:
    """The radius of :func:`local_radius` from its two sides: ``a0`` = the smaller angle,
    ``chord`` = ‖v − v*‖ = 2 sin(a0/2) at that angle, and the angles in degrees (``deg`` of
    a0, ``deg_plus``, ``deg_minus``)."""
    a0 = min(alpha_plus, alpha_minus)
    return dict(
        a0=a0,
        chord=2 * math.sin(a0 / 2),
        deg=math.degrees(a0),
        deg_plus=math.degrees(alpha_plus),
        deg_minus=math.degrees(alpha_minus),
    )


#: how far past a radius λ0 is evaluated to show it is the largest (λ0 falls ~6e-4 to 3.5e-3
#: of itself over 1e-3 of r0 at the regret-rate study's radii, measured)
RADIUS_STEP = 1e-3
#: the chord at which the cap's ratio stands for its limit at v* (the slowest tangent rate in
#: d ≥ 3): O(r²) from it, measured 2.5e-9 relative for the logistic link at Δ = 1
KAPPA_CHORD = 1e-4


@functools.cache
def radius_facts(link, delta: str, d: int, r0: float, frac: float) -> dict:
    """What cor:local_stability says of a radius r0 chosen as the largest with λ0(r0) ≥ frac·κ,
    from the witness's own field: ``lambda0`` = λ0(r0), ``beyond`` = λ0(r0 (1 + RADIUS_STEP))
    (below the level if r0 is the largest) and ``level`` = frac·κ, with κ = κ_θ = −H'(0) in
    d = 2 and, in d ≥ 3, the slowest tangent rate as the cap's ratio at the chord
    :data:`KAPPA_CHORD` (the cap in dimension ``d`` itself, :func:`lambda0_cap`).

    Parameters
    ----------
    link : Link
        The link.
    delta : str
        The arm separation Δ.
    d : int
        The dimension, ≥ 2.
    r0 : float
        The radius (a chord ‖v − v*‖).
    frac : float
        The fraction of κ the radius keeps.

    Returns
    -------
    dict
        ``lambda0``, ``beyond`` and ``level``.
    """
    if d == 2:
        lam = functools.partial(lambda0_2d, link, delta)
    else:
        from nbl_sim.engine.environment import Environment

        lam = functools.partial(lambda0_cap, Environment.build(link, delta, d))
    return {
        "lambda0": lam(r0),
        "beyond": lam(r0 * (1 + RADIUS_STEP)),
        "level": frac * slowest_rate(link, delta, d),
    }


@functools.cache
def slowest_rate(link, delta: str, d: int) -> float:
    """The slowest tangent rate κ at v* from the witness's own field.

    Parameters
    ----------
    link : Link
        The link.
    delta : str
        The arm separation Δ.
    d : int
        The dimension, ≥ 2.

    Returns
    -------
    float
        κ_θ = −H'(0) of the polar field in d = 2 (Richardson differences); in d ≥ 3 the cap's
        ratio at the chord :data:`KAPPA_CHORD` in dimension ``d`` (:func:`lambda0_cap`;
        O(chord²) from its limit, measured ≤ 2.5e-9 relative to the library's).
    """
    if d == 2:
        return -float(own_dH(link, delta, 0.0))
    from nbl_sim.engine.environment import Environment

    return lambda0_cap(Environment.build(link, delta, d), KAPPA_CHORD)
