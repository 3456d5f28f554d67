"""Gaussian expectations computed directly: tensor Gauss–Hermite rules in the original
coordinates, composite Gauss–Legendre means in 1-D, Gauss–Legendre on a link's chart split at
the kinks of |g''|, κ(a) from its definition (and the printed closed form's error against it),
and closed forms of Gaussian absolute moments.

These rules do not use the library's 1-D reductions or its Gaussian quadrature
(:mod:`nbl_theory.gaussian`); they share only the Gauss–Legendre node arithmetic of
:mod:`nbl_theory.numeric`.
"""

from __future__ import annotations

import functools
import math

import mpmath
import numpy as np
from scipy.optimize import brentq
from scipy.special import ndtr

from nbl_theory.numeric import PHI0, gauss_legendre_panels, gauss_legendre_uniform

__all__ = [
    "gh_tensor",
    "ridge_first_moment",
    "gh_rule_1d",
    "gauss_mean",
    "gaussian_chart_moments",
    "kappa_by_definition",
    "kappa_closed_form_error",
    "abs_moment",
    "STANDARD_NODES",
    "STANDARD_WEIGHTS",
]

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


def _chart_integrand(link, s: float, t, which: str):
    """w_j(t)·density(z(t)) on the link's chart: g'(U) (``"g1"``), g''(U) (``"g2"``)."""
    t = np.atleast_1d(np.asarray(t, dtype=float))
    with np.errstate(all="ignore"):
        z, _, w1, w2 = link.chart_numpy(t)
        dens = np.exp(-0.5 * (np.asarray(z) / s) ** 2) / (s * math.sqrt(2 * math.pi))
        return np.nan_to_num((w1 if which == "g1" else w2) * dens)


def gaussian_chart_moments(link, delta: float, n: int = 4001, signed: bool = False):
    """E[g'(U)] and E|g''(U)| (and E g''(U) with ``signed``), U ~ N(0, s²), s² = 1 − Δ²/4,
    on the link's chart over |z| ≤ 12 s.

    Uses only the link's chart (z, g' dz/dt, g'' dz/dt as functions of the chart variable t),
    not the library's Gaussian quadrature. |g''| has kinks at the zeros of g'': they are located
    as sign changes on ``n`` equally spaced chart nodes and refined by ``brentq`` (to ~1e-15 in
    t), and the integrals are composite 16-node Gauss–Legendre on the panels between the nodes,
    split at the zeros, so every panel integrates an analytic function (the Gaussian tail beyond
    12 s is < 1e-32). Accuracy ~1e-14 absolute on the paper's links (measured against adaptive
    quadrature split at the same zeros, tests/proofs_check/witnesses/test_gaussian.py).

    Returns
    -------
    (E g'(U), E|g''(U)|) or, with ``signed``, (E g'(U), E|g''(U)|, E g''(U))
    """
    s = math.sqrt(1 - delta**2 / 4)
    t_lo, t_hi = link.t_range(-12 * s, 12 * s)
    t = np.linspace(t_lo, t_hi, n)
    f2 = _chart_integrand(link, s, t, "g2")
    flips = np.flatnonzero(np.sign(f2[:-1]) * np.sign(f2[1:]) < 0)
    roots = [
        brentq(
            lambda x: float(_chart_integrand(link, s, x, "g2")[0]),
            t[i],
            t[i + 1],
            xtol=1e-15,
            rtol=4 * np.finfo(float).eps,
        )
        for i in flips
    ]
    edges = np.union1d(t, roots)
    x, w = gauss_legendre_panels(edges)
    g1 = _chart_integrand(link, s, x, "g1")
    g2 = _chart_integrand(link, s, x, "g2")
    e1, e2a = math.fsum(w * g1), math.fsum(w * np.abs(g2))
    return (e1, e2a, math.fsum(w * g2)) if signed else (e1, e2a)


def kappa_by_definition(a, dps: int = 30):
    """κ(a) = E[e^{−aZ} 1{Z > 0}] = ∫₀^∞ e^{−az} φ₀(z) dz, Z ~ N(0, 1), from the definition by
    mpmath tanh-sinh quadrature at ``dps`` + 10 digits, split at 1/(1 + |a|) (the integrand's
    scale), 8 and ∞ (error ~10^-(dps+5)); returns an ``mpf``."""
    with mpmath.workdps(dps + 10):
        a = mpmath.mpf(a)
        c = 1 / mpmath.sqrt(2 * mpmath.pi)
        w = 1 / (1 + abs(a))
        return mpmath.quad(
            lambda z: c * mpmath.exp(-a * z - z * z / 2), [0, w, 4 * w, 8, mpmath.inf]
        )


def kappa_closed_form_error(points, dps: int = 40, sign: int = -1, half=0.5) -> tuple:
    """The printed closed form κ(a) = e^{a²/2}Φ(−a) of prop:self-concordance-stability against
    κ from its definition (:func:`kappa_by_definition` at 30 digits), at ``dps`` working digits.

    Parameters
    ----------
    points : iterable of str
        The values of a (decimal strings).
    dps : int, default 40
        Working digits of the closed form and of the relative errors.
    sign, half : default −1, 0.5
        The closed form evaluated is e^{half·a²}Φ(sign·a) (other values are the claims'
        mutants).

    Returns
    -------
    worst : mpf
        max over ``points`` of |closed form − definition|/definition (0 if ``points`` is empty).
    by_definition : dict
        {a: κ(a) by the definition (mpf)}.
    """
    worst, defs = mpmath.mpf(0), {}
    with mpmath.workdps(dps):
        for a in points:
            x = mpmath.mpf(a)
            closed = mpmath.exp(mpmath.mpf(half) * x * x) * mpmath.ncdf(sign * x)
            defs[a] = kappa_by_definition(a, dps=30)
            worst = max(worst, abs(closed - defs[a]) / defs[a])
    return worst, defs


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
        return (mu**3 + 3 * mu * s * s) * sgn + s * (mu * mu + 2 * s * s) * ph
    raise ValueError(q)
