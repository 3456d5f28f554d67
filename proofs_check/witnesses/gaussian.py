"""Gaussian expectations computed directly: tensor Gauss–Hermite rules in the original
coordinates, composite Gauss–Legendre means in 1-D, the trapezoid rule on a link's chart, and
closed forms of Gaussian absolute moments.

These rules do not use the library's 1-D reductions or its Gaussian quadrature
(:mod:`nbl_theory.gaussian`); they share only the Gauss–Legendre node arithmetic of
:mod:`nbl_theory.numeric`.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy.integrate import trapezoid
from scipy.special import ndtr

from nbl_theory.numeric import PHI0, gauss_legendre_uniform

__all__ = ["gh_tensor", "ridge_first_moment", "gh_rule_1d", "gauss_mean", "gaussian_chart_moments",
           "abs_moment", "STANDARD_NODES", "STANDARD_WEIGHTS"]

_NODES, _WEIGHTS = gauss_legendre_uniform(-14.0, 14.0, 1.0 / 16.0)
#: Nodes of a plain composite Gauss–Legendre rule for E[f(s)], s ~ N(0, 1): panels of width
#: 1/16 on [−14, 14] (16 nodes each; the Gaussian mass beyond ±14 is < 1e-44) ...
STANDARD_NODES = _NODES
#: ... and its weights including the density: E[f(s)] ≈ Σ STANDARD_WEIGHTS f(STANDARD_NODES)
#: (error ~1e-16 for f analytic in a strip around the real axis wider than ~0.1).
STANDARD_WEIGHTS = _WEIGHTS * PHI0 * np.exp(-0.5 * _NODES * _NODES)


@functools.lru_cache(maxsize=4)
def gh_tensor(n: int, d: int) -> tuple:
    """Tensor Gauss–Hermite rule for E over N(0, I_d).

    Parameters
    ----------
    n : int
        Nodes per axis (probabilists' Hermite, ``numpy.polynomial.hermite_e.hermegauss``).
    d : int
        Dimension.

    Returns
    -------
    X : ndarray, shape (n**d, d)
        Nodes.
    W : ndarray, shape (n**d,)
        Weights summing to 1; the rule is exact for polynomials of degree ≤ 2n − 1 in each
        coordinate.
    """
    x, w = np.polynomial.hermite_e.hermegauss(n)
    w = w / math.sqrt(2 * math.pi)
    grids = np.meshgrid(*([x] * d), indexing="ij")
    wgrids = np.meshgrid(*([w] * d), indexing="ij")
    X = np.stack([g.ravel() for g in grids], axis=1)
    W = np.prod(np.stack([g.ravel() for g in wgrids], axis=1), axis=1)
    return X, W


def ridge_first_moment(g, beta: np.ndarray, n: int) -> np.ndarray:
    """E[g(βᵀX) X], X ~ N(0, I_d), d = len(β), by the tensor rule :func:`gh_tensor` with ``n``
    nodes per axis in the original coordinates (no reduction along β)."""
    X, W = gh_tensor(n, beta.size)
    return (W * g(X @ beta)) @ X


def gh_rule_1d(n: int = 240):
    """1-D Gauss–Hermite rule for E over N(0, 1): (nodes, weights), weights summing to 1."""
    x, w = np.polynomial.hermite_e.hermegauss(n)
    return x, w / math.sqrt(2 * math.pi)


def gauss_mean(fn, sigma: float) -> float:
    """E fn(σZ), Z ~ N(0, 1), by composite 16-node Gauss–Legendre.

    64 panels of width 0.5 on |u| ≤ 16 (Gaussian tail beyond: < 1e-56), float64, summed with
    ``math.fsum``. ``fn(z, np)`` is called with the numpy module. Error < 1e-15 for f analytic
    in a strip of half-width ≥ 0.3/σ (Bernstein-ellipse bound).
    """
    u, w = gauss_legendre_uniform(-16.0, 16.0, 0.5)
    w = w * np.exp(-u * u / 2) / math.sqrt(2 * math.pi)
    return math.fsum(w * fn(sigma * u, np))


def gaussian_chart_moments(link, delta: float, n: int = 40001):
    """E[g'(U)] and E|g''(U)|, U ~ N(0, s²), s² = 1 − Δ²/4, by the trapezoid rule on the
    link's chart over |z| ≤ 12 s.

    Uses only the link's chart (z, g, g', g'' as functions of the chart variable t), not the
    library's Gaussian quadrature; float64 with ``n`` equally spaced chart nodes (the Gaussian
    tail beyond 12 s is < 1e-32). Accuracy: E g'(U) ~1e-12; E|g''(U)| only ~1e-9, because
    |g''| has kinks at the zeros of g'' between the nodes (measured 4e-10 for the two-transition
    link mu2 = 1.244122 at Δ = 0.6).
    """
    s = math.sqrt(1 - delta**2 / 4)
    t_lo, t_hi = link.t_range(-12 * s, 12 * s)
    t = np.linspace(t_lo, t_hi, n)
    with np.errstate(all="ignore"):
        z, _, w1, w2 = link.chart_numpy(t)
        dens = np.exp(-0.5 * (np.asarray(z) / s) ** 2) / (s * math.sqrt(2 * math.pi))
        f1, f2 = np.nan_to_num(w1 * dens), np.nan_to_num(np.abs(w2) * dens)
    return float(trapezoid(f1, t)), float(trapezoid(f2, t))


def abs_moment(mu: np.ndarray, s: float, q: int) -> np.ndarray:
    """E|μ + sZ|^q, Z ~ N(0, 1), for q in {0, 1, 2, 3}, in closed form (|·|^0 = 1).

    With r = μ/s, φ̃ = √(2/π) e^{−r²/2} and σ = 2Φ(r) − 1:
    q = 1: sφ̃ + μσ; q = 2: μ² + s²; q = 3: (μ³ + 3μs²)σ + s(μ² + 2s²)φ̃. Exact up to
    rounding (a few ulps).
    """
    mu = np.asarray(mu, dtype=float)
    if q == 0:
        return np.ones_like(mu)
    if s == 0:
        return np.abs(mu) ** q
    r = mu / s
    ph = np.exp(-r * r / 2) * math.sqrt(2 / math.pi)
    sgn = 2 * ndtr(r) - 1
    if q == 1:
        return s * ph + mu * sgn
    if q == 2:
        return mu * mu + s * s
    if q == 3:
        return (mu ** 3 + 3 * mu * s * s) * sgn + s * (mu * mu + 2 * s * s) * ph
    raise ValueError(q)
