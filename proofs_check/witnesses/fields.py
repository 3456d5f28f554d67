"""The population field from its own one-arm integrals, the boundary ("surface") matrix of
app:local_jacobian reduced to 1-D, and Richardson-extrapolated central differences.

One-arm integrals
-----------------
For unit β, unit v with ρ = βᵀv, σ = ‖v − ρβ‖, w = (v − ρβ)/σ and s = βᵀX ~ N(0, 1),

    E[g(βᵀX) X 1{vᵀX ≥ 0}] = β E[s g(s) Φ(ρs/σ)] + w E[g(s) φ(ρs/σ)],
    E[g(βᵀX) X 1{vᵀX < 0}] = β E[s g(s) Φ(−ρs/σ)] − w E[g(s) φ(ρs/σ)],

integrated with the plain composite Gauss–Legendre rule :data:`.gaussian.STANDARD_NODES`
(panels of 1/16 on [−14, 14], 16 nodes each; no grading — used only where σ/|ρ| ≥ 0.1, so the
kernels are smooth on the panels). This is independent of :mod:`nbl_sim.population.fields` (graded
panels on the library's own reduction).

Boundary matrix
---------------
With Y = P⊥X ~ N(0, P⊥) and θ̂ = θ/‖θ‖, the part of Y orthogonal to θ̂ is centred and independent
of θ̂ᵀY, so E[g(θᵀY) Y Yᵀ] = c₀ (P⊥ − θ̂θ̂ᵀ) + c₂ θ̂θ̂ᵀ with c₀ = E[g(‖θ‖t)], c₂ = E[t² g(‖θ‖t)],
t ~ N(0, 1) (no Stein identity used; c₂ − c₀ = ‖θ‖² m₂ is the Stein step, checked separately).

Tangent field, potential and tangent Jacobian
---------------------------------------------
:func:`own_tangent_field` is h = P_v^⊥(F_+ − F_−) from the one-arm integrals; :func:`own_potential`
is J(v) = E[(m_+ + m_−)(X)(vᵀX)_+] − vᵀE[m_−(X)X] from the same kernels
(E[g(s)(ρs + σt)_+] = ρE[s g(s)Φ(ρs/σ)] + σE[g(s)φ(ρs/σ)], E[g(βᵀX)X] = βE[s g(s)]), for any
v ≠ 0; :func:`tangent_jacobian` is the matrix of Dh(v*) on an orthonormal tangent basis by
Richardson differences of :func:`own_tangent_field` along great circles. None of them uses
:mod:`nbl_sim.population.fields` or a formula of the paper.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy.special import ndtr

from nbl_theory.numeric import PHI0

from .gaussian import STANDARD_NODES, STANDARD_WEIGHTS

__all__ = [
    "g_nodes",
    "arm_field",
    "own_field",
    "own_tangent_field",
    "own_potential",
    "tangent_jacobian",
    "boundary_matrix",
    "richardson",
    "FD_STEP",
]

#: Step of the central differences (h and h/2 are combined).
FD_STEP = 1e-3


@functools.cache
def g_nodes(link) -> np.ndarray:
    """g at :data:`.gaussian.STANDARD_NODES` (float64)."""
    return np.asarray(link.g_numpy(STANDARD_NODES), dtype=float)


def arm_field(g_at_nodes: np.ndarray, beta_a: np.ndarray, v: np.ndarray, side: int) -> np.ndarray:
    """E[g(β_aᵀX) X 1{vᵀX ≥ 0}] (side = +1) or E[g(β_aᵀX) X 1{vᵀX < 0}] (side = −1), X ~
    N(0, I_d), by the one-arm reduction of the module docstring.

    Parameters
    ----------
    g_at_nodes : ndarray
        g at the standard nodes (:func:`g_nodes`).
    beta_a : ndarray, shape (d,)
        Unit arm vector.
    v : ndarray, shape (k, d) or (d,)
        Unit directions, each at least ~6° away from ±β_a (σ/|ρ| ≥ 0.1).
    side : {+1, −1}

    Returns
    -------
    ndarray, shape (k, d)
        Accurate to ~1e-15 (smooth integrands on uniform panels).

    Raises
    ------
    ValueError
        A direction is too close to ±β_a for the uniform panels.
    """
    v = np.atleast_2d(v)
    rho = v @ beta_a
    r = v - rho[:, None] * beta_a
    sigma = np.linalg.norm(r, axis=1)
    if np.any(sigma < 0.1 * np.abs(rho)):
        raise ValueError("arm_field: v too close to +-beta_a for the uniform panels")
    w = r / sigma[:, None]
    c = (rho / sigma)[:, None] * STANDARD_NODES[None, :]
    a1 = ndtr(side * c) @ (STANDARD_WEIGHTS * STANDARD_NODES * g_at_nodes)
    b2 = (PHI0 * np.exp(-0.5 * c * c)) @ (STANDARD_WEIGHTS * g_at_nodes)
    return beta_a[None, :] * a1[:, None] + side * w * b2[:, None]


def own_field(link, beta: np.ndarray, v: np.ndarray):
    """(F_+, F_−) of app:local_jacobian from :func:`arm_field` (F = F_+ − F_−), with
    ``beta`` = (β_−, β_+) as rows."""
    g = g_nodes(link)
    return arm_field(g, beta[1], v, +1), arm_field(g, beta[0], v, -1)


def boundary_matrix(link, theta: np.ndarray, v_star: np.ndarray):
    """E[g(θᵀP⊥X)(P⊥X)(P⊥X)ᵀ] by the 1-D reduction of the module docstring.

    Returns
    -------
    M : ndarray, shape (d, d)
    c0, c2 : float
        E[g(‖θ‖t)] and E[t² g(‖θ‖t)] on the standard nodes (~1e-15).
    """
    nt = float(np.linalg.norm(theta))
    g = np.asarray(link.g_numpy(nt * STANDARD_NODES), dtype=float)
    c0 = float(STANDARD_WEIGHTS @ g)
    c2 = float(STANDARD_WEIGHTS @ (STANDARD_NODES * STANDARD_NODES * g))
    th = theta / nt
    proj = np.eye(v_star.size) - np.outer(v_star, v_star)
    return c0 * (proj - np.outer(th, th)) + c2 * np.outer(th, th), c0, c2


def richardson(fun, h: float = FD_STEP):
    """d/dε fun(ε) at 0: central differences at h and h/2 combined, (4D_{h/2} − D_h)/3
    (truncation O(h⁴), rounding ~ε_fun/h).

    ``fun`` takes an array of ε (4,) and returns an array (4, ...).
    """
    vals = fun(np.array([h, -h, h / 2, -h / 2]))
    d1 = (vals[0] - vals[1]) / (2 * h)
    d2 = (vals[2] - vals[3]) / h
    return (4 * d2 - d1) / 3


def own_tangent_field(link, beta: np.ndarray, v: np.ndarray, project: bool = True) -> np.ndarray:
    """h(v) = P_v^⊥ F(v) with F = F_+ − F_− from :func:`own_field`, shape (k, d).

    ``project=False`` returns F itself (used to show that a check distinguishes h from F).
    """
    v2 = np.atleast_2d(v)
    fp, fm = own_field(link, beta, v2)
    f = fp - fm
    return f - (f * v2).sum(1)[:, None] * v2 if project else f


def own_potential(link, beta: np.ndarray, v: np.ndarray, linear_term: bool = True) -> np.ndarray:
    """J(v) = E[(m_+ + m_−)(X)(vᵀX)_+] − vᵀE[m_−(X)X] for nonzero v of any length, shape (k,)
    (``linear_term=False`` leaves out −vᵀE[m_−(X)X], to show that a check notices it).

    Per arm, with ρ = βᵀv, σ = ‖v − ρβ‖ and c = ρs/σ: E[g(s)(vᵀX)_+] = ρE[s g(s)Φ(c)] +
    σE[g(s)φ(c)] on the standard nodes (v must be ≥ ~6° from ±β_a, as for :func:`arm_field`);
    E[g(β_−ᵀX) X] = β_− E[s g(s)] (X = sβ_− + a centred part independent of s). ~1e-15 · ‖v‖.
    """
    v = np.atleast_2d(v)
    g = g_nodes(link)
    total = np.zeros(v.shape[0])
    for b in beta:
        rho = v @ b
        sigma = np.linalg.norm(v - rho[:, None] * b, axis=1)
        if np.any(sigma < 0.1 * np.abs(rho)):
            raise ValueError("own_potential: v too close to +-beta_a for the uniform panels")
        c = (rho / sigma)[:, None] * STANDARD_NODES[None, :]
        total += rho * (ndtr(c) @ (STANDARD_WEIGHTS * STANDARD_NODES * g))
        total += sigma * ((PHI0 * np.exp(-0.5 * c * c)) @ (STANDARD_WEIGHTS * g))
    if not linear_term:
        return total
    mean_minus = beta[0] * float(STANDARD_WEIGHTS @ (STANDARD_NODES * g))
    return total - v @ mean_minus


def tangent_jacobian(
    link, beta: np.ndarray, v_star: np.ndarray, basis: np.ndarray, project: bool = True
) -> np.ndarray:
    """Dh(v*) on the tangent space: column j is Dh(v*)[b_j] (ambient, shape (d,)) for the
    orthonormal tangent basis ``basis`` (d × (d − 1)), by :func:`richardson` of
    :func:`own_tangent_field` along v_ε = cos(ε) v* + sin(ε) b_j (truncation ~1e-12,
    quadrature rounding ~1e-16/h ~ 1e-13, both × max(1, S)).

    ``basis.T @ result`` is the (d − 1) × (d − 1) matrix of Dh(v*) in that basis.
    """
    cols = []
    for j in range(basis.shape[1]):
        b = basis[:, j]

        def field(eps, b=b):
            path = np.cos(eps)[:, None] * v_star[None, :] + np.sin(eps)[:, None] * b[None, :]
            return own_tangent_field(link, beta, path, project=project)

        cols.append(richardson(field))
    return np.column_stack(cols)
