"""Local stability constants computed, not assumed (cor:local_stability).

In d = 2 with the paper's rotation (v* = e1, θ ∝ e2), h(v(α)) = H(α) v_⊥(α), so
⟨v − v*, h(v)⟩ = H(α) sin α and ‖v − v*‖² = 2(1 − cos α); the ratio
−⟨v − v*, h(v)⟩/‖v − v*‖² is −H(α) cot(α/2)/2 (→ −H'(0) as α → 0). H is the library's
quadrature field (:func:`nbl_sim.population.H_alpha`, ~1e-15); what is computed here
independently is the minimisation over the cap, the largest valid radius, and a periodic spline
of H for long paths (its interpolation error is measured, not assumed).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy.interpolate import CubicSpline
from scipy.optimize import brentq, minimize_scalar

from nbl_sim import population as pop

__all__ = ["h_spline", "spline_error", "h_along", "ratio_2d", "lambda0_2d", "lambda0_cap",
           "local_radius"]


@functools.cache
def h_spline(link, delta: str) -> CubicSpline:
    """Periodic cubic spline of H(α) on 4096 equally spaced angles of [−π, π] (interpolation
    error ~1e-13 for the paper's links; measure it with :func:`spline_error`)."""
    a = np.linspace(-math.pi, math.pi, 4097)
    y = pop.H_alpha(link, delta, a)
    y[-1] = y[0]
    return CubicSpline(a, y, bc_type="periodic")


def spline_error(link, delta: str, seed: int = 0) -> float:
    """max |spline − direct quadrature| of H at 200 seeded uniform angles of [−π, π]."""
    a = np.random.default_rng(seed).uniform(-math.pi, math.pi, 200)
    return float(np.abs(h_spline(link, delta)(a) - pop.H_alpha(link, delta, a)).max())


def h_along(env, V: np.ndarray) -> np.ndarray:
    """h(v) for an array of unit vectors V (..., d) of the environment ``env``: the spline of H
    in the paper's d = 2 rotation (v* = e1), the library's quadrature field otherwise."""
    if env.d == 2 and np.array_equal(env.v_star, np.array([1.0, 0.0])):
        al = np.arctan2(V[..., 1], V[..., 0])
        Hv = h_spline(env.link, env.delta_text)(al)
        return np.stack([-np.sin(al) * Hv, np.cos(al) * Hv], axis=-1)
    flat = V.reshape(-1, env.d)
    return pop.tangent_field(env.link, env.beta, flat).reshape(V.shape)


def ratio_2d(link, delta: str, alpha):
    """−⟨v − v*, h(v)⟩/‖v − v*‖² at v = v(α) in d = 2: −H(α) cot(α/2)/2."""
    alpha = np.asarray(alpha, dtype=float)
    return -pop.H_alpha(link, delta, alpha) / np.tan(alpha / 2) / 2


@functools.cache
def lambda0_2d(link, delta: str, r0: float) -> float:
    """λ0(r0) = min_{0 < ‖v − v*‖ ≤ r0} −⟨v − v*, h(v)⟩/‖v − v*‖² in d = 2 (cor:local_stability).

    Grid of 801 angles on each side of 0 (both signs of α), the limit −H'(0) at α = 0, then a
    bounded scalar refinement (xatol 1e-12) around the smallest grid value; the result is the
    smallest value seen, so it can only err low by the refinement tolerance (~1e-12 in the
    ratio).
    """
    a0 = 2 * math.asin(r0 / 2)
    grid = np.concatenate([-np.linspace(a0, 1e-4, 801), np.linspace(1e-4, a0, 801)])
    vals = ratio_2d(link, delta, grid)
    best = min(float(vals.min()), -pop.H_alpha_derivative(link, delta, 0.0))
    i = int(np.argmin(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    if lo < 0 < hi:
        return best
    res = minimize_scalar(lambda x: float(ratio_2d(link, delta, x)), bounds=(lo, hi),
                          method="bounded", options={"xatol": 1e-12})
    return min(best, float(res.fun))


def lambda0_cap(env, r0: float, n_alpha: int = 60, n_psi: int = 24) -> float:
    """λ0(r0) for d ≥ 3: the minimum of −⟨v − v*, h(v)⟩/‖v − v*‖² on a grid of the cap
    ‖v − v*‖ ≤ r0 (``n_alpha`` angles × ``n_psi`` azimuths) in the 3-space span(v*, θ, ω), ω a
    fixed (seeded) unit vector ⊥ v*, θ.

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
    h = pop.tangent_field(env.link, env.beta, V)
    D = V - vs
    return float((-(D * h).sum(1) / (D * D).sum(1)).min())


def local_radius(link, delta: str, lam: float, n_log: int = 60, n_lin: int = 900):
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
    grid = np.concatenate([np.geomspace(1e-4, 0.05, n_log, endpoint=False),
                           np.linspace(0.05, math.pi, n_lin)])

    def f(a):
        return pop.H_alpha(link, delta, a) * np.sin(a) + lam * (1.0 - np.cos(a))

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
            out.append(brentq(lambda x, s=sgn: float(f(s * x)), grid[j - 1], grid[j],
                              xtol=1e-12))
    return out[0], out[1], small
