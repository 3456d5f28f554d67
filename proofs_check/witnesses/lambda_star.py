"""λ* of eq:decision_stability from its definition, its sign changes, and the critical values,
without the library's stability code (nbl_theory.stability, .results, .certified, .threshold).

λ* = Δμ* − 2φ0(0)(m2)_+(1 − Δ²/4), with μ* = E[g'(U + ΔZ/2)1{Z > 0}] (a 2-D Gaussian
expectation, U ~ N(0, s²), s² = 1 − Δ²/4, Z ~ N(0, 1) independent; eq:mu_star_m2_def) and
m2 = E g''(U), written out here from the paper (the library reduces μ* to one dimension and
assembles λ* in nbl_theory.results.decision_quantities; neither is used). The links are the
paper's formulas written out in :mod:`.links` (eq:link_tanh; the implicit equation of
app:elicitation-geometry solved by bisection), so the only thing shared with the library is the
table of the paper's printed link parameters (:data:`nbl_theory.paper.PAPER_LINKS`).

Quadrature: tensor Gauss–Legendre with its own nodes (``numpy.polynomial.legendre.leggauss``,
16 per panel), U on [−10s, 10s] and Z on [0, 10] in 16 panels each for μ* and 48 for m2
(Gaussian mass beyond < 1e-22). On the paper's links the moments are accurate to ~1e-15
absolute (against 48 and 144 panels: tests/proofs_check/witnesses/test_lambda_star.py), so λ* to
~1e-15 absolute.

Roots (a critical Δ, μ2 or ρ) are the witness's own: λ* on a grid, each sign change refined by
``scipy.optimize.brentq`` on this module's λ* (xtol 1e-11).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy.optimize import brentq, minimize_scalar

from nbl_theory.paper import PAPER_LINKS

from .links import tanh_link_parts, weighted_entropy_link_parts

__all__ = [
    "family_top",
    "curve_crossings",
    "lambda_on_curve",
    "family_parts",
    "moments",
    "lambda_star",
    "lambda_of",
    "sign_changes",
    "mu_star",
    "near_critical_ratio",
    "restoring",
    "delta_roots",
    "parameter_roots",
    "parameter_for_lambda",
    "ROOT_XTOL",
]

#: Absolute tolerance of the witness's roots (brentq ``xtol``).
ROOT_XTOL = 1e-11
_TWO_PHI0 = 2 / math.sqrt(2 * math.pi)  # 2φ0(0)


@functools.cache
def _panels(lo: float, hi: float, panels: int) -> tuple:
    x, w = np.polynomial.legendre.leggauss(16)
    edges = np.linspace(lo, hi, panels + 1)
    half = np.diff(edges) / 2
    mid = (edges[:-1] + edges[1:]) / 2
    return (
        (mid[:, None] + half[:, None] * x[None, :]).ravel(),
        (half[:, None] * w[None, :]).ravel(),
    )


def family_parts(family: str, value: float):
    """``parts(z) -> (g, g', g'')`` of the paper's family ``"two-transition"`` (parameter μ2)
    or ``"weighted-entropy"`` (parameter ρ) at ``value``, written out from the paper
    (:mod:`.links`)."""
    if family == "two-transition":
        return tanh_link_parts(float(value))
    if family == "weighted-entropy":
        return weighted_entropy_link_parts(float(value))
    raise ValueError(f"no written-out witness link for the family {family!r}")


def _key_parts(key: str):
    row = PAPER_LINKS[key]
    return family_parts(row.family, float(row.parameter[1]))


@functools.lru_cache(maxsize=4096)
def moments(family: str, value: float, delta: float, panels: int = 16) -> tuple:
    """(μ*, m2) of the family link at ``value`` and separation ``delta`` (module docstring):
    μ* by the 2-D rule with ``panels`` panels per axis, m2 (1-D, cheap) with 3 × ``panels``."""
    parts = family_parts(family, value)
    s = math.sqrt(1 - delta * delta / 4)
    u, wu = _panels(-10 * s, 10 * s, panels)
    z, wz = _panels(0.0, 10.0, panels)
    pu = wu * np.exp(-0.5 * (u / s) ** 2) / (s * math.sqrt(2 * math.pi))
    pz = wz * np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
    _, g1, _ = parts(u[:, None] + (delta / 2) * z[None, :])  # g'(U + ΔZ/2), Z > 0
    mu = math.fsum((pu[:, None] * pz[None, :] * g1).ravel())  # eq:mu_star_m2_def
    u, wu = _panels(-10 * s, 10 * s, 3 * panels)
    _, _, g2u = parts(u)
    pu = wu * np.exp(-0.5 * (u / s) ** 2) / (s * math.sqrt(2 * math.pi))
    m2 = math.fsum(pu * g2u)  # E g''(U)
    return mu, m2


def lambda_of(family: str, value: float, delta: float) -> float:
    """λ* = Δμ* − 2φ0(0)(m2)_+(1 − Δ²/4) (eq:decision_stability) of the family link at
    ``value``, float64 (~1e-15 absolute)."""
    delta = float(delta)
    mu, m2 = moments(family, float(value), delta)
    return delta * mu - _TWO_PHI0 * max(m2, 0.0) * (1 - delta * delta / 4)


def lambda_star(key: str, delta, delta_scale: float = 1.0) -> float:
    """λ* of the paper's named link ``key`` (a key of PAPER_LINKS) at ``delta`` (times
    ``delta_scale``: another value is a broken witness, for the claims' mutants)."""
    row = PAPER_LINKS[key]
    return lambda_of(row.family, float(row.parameter[1]), float(delta) * delta_scale)


def mu_star(key: str, delta, delta_scale: float = 1.0) -> float:
    """μ* of the paper's named link ``key`` at ``delta`` (× ``delta_scale``), from its 2-D
    definition."""
    row = PAPER_LINKS[key]
    return moments(row.family, float(row.parameter[1]), float(delta) * delta_scale)[0]


def restoring(key: str, delta, delta_scale: float = 1.0) -> float:
    """The restoring contribution Δμ* of λ* (eq:decision_stability) of the paper link ``key``
    (Δ × ``delta_scale`` in both factors)."""
    d = float(delta) * delta_scale
    return d * mu_star(key, d)


def near_critical_ratio(key: str, companions, delta, delta_scale: float = 1.0) -> float:
    """|λ*(key)| / min |λ*(companion)| at ``delta`` (× ``delta_scale``): how near zero the
    near-critical link's λ* is relative to its family's stable and unstable links."""
    return abs(lambda_star(key, delta, delta_scale)) / min(
        abs(lambda_star(k, delta, delta_scale)) for k in companions
    )


def sign_changes(f, lo: float, hi: float, grid: int) -> list:
    """Every sign change of ``f`` seen on ``grid`` equally spaced points of [lo, hi], each
    refined by brentq (xtol :data:`ROOT_XTOL`): a list of (root, "stable->unstable" or
    "unstable->stable") in increasing order (λ* > 0 is stable). Pairs of roots closer than the
    grid spacing are not seen."""
    xs = np.linspace(lo, hi, grid)
    vals = [f(float(x)) for x in xs]
    out = []
    for a, b, fa, fb in zip(xs, xs[1:], vals, vals[1:]):
        if fa == 0 or fa * fb < 0:
            root = float(a) if fa == 0 else brentq(f, float(a), float(b), xtol=ROOT_XTOL)
            out.append((root, "stable->unstable" if fa > fb else "unstable->stable"))
    return out


@functools.cache
def delta_roots(
    key: str, lo: float = 0.01, hi: float = 1.99, grid: int = 60, delta_scale: float = 1.0
) -> tuple:
    """The sign changes of λ*(Δ) of the paper link ``key`` on [lo, hi] (:func:`sign_changes`;
    ``delta_scale`` as in :func:`lambda_star`)."""
    return tuple(sign_changes(lambda d: lambda_star(key, d, delta_scale), lo, hi, grid))


@functools.cache
def parameter_roots(
    family: str, delta: float, lo: float, hi: float, grid: int, delta_scale: float = 1.0
) -> tuple:
    """The sign changes of λ* over the family parameter on [lo, hi] at separation ``delta``
    (× ``delta_scale``, as in :func:`lambda_star`)."""
    d = float(delta) * delta_scale
    return tuple(sign_changes(lambda v: lambda_of(family, v, d), lo, hi, grid))


def parameter_for_lambda(
    family: str, delta: float, target: float, center: float, half_width: float
):
    """The parameter value in [center − half_width, center + half_width] where λ* = ``target``
    (brentq, xtol 1e-10), and dλ*/d(parameter) there (central difference, step 1e-4); None if
    λ* − target does not change sign on the interval."""
    lo, hi = center - half_width, center + half_width

    def f(v):
        return lambda_of(family, v, delta) - target

    if f(lo) * f(hi) > 0:
        return None
    at = brentq(f, lo, hi, xtol=1e-10)
    return at, (f(at + 1e-4) - f(at - 1e-4)) / 2e-4


def family_top(family: str, lo: float, hi: float, delta_hi: float = 0.9) -> tuple:
    """The top of the family's unstable region: the largest Δ at which λ*(value, Δ) = 0 for a
    value in [lo, hi] (the two roots at Δ = 0.2), i.e. the fold of the λ* = 0 curve — the
    critical Δ(value) by brentq in Δ on [0.2, ``delta_hi``] (xtol 1e-14), maximized over the
    value by bounded Brent (xatol 1e-10): ``(delta_top, value)``."""

    def critical(v: float) -> float:
        return brentq(lambda d: lambda_of(family, v, d), 0.2, delta_hi, xtol=1e-14)

    res = minimize_scalar(
        lambda v: -critical(v), bounds=(lo, hi), method="bounded", options={"xatol": 1e-10}
    )
    return -float(res.fun), float(res.x)


def curve_crossings(x, y, level: float) -> list:
    """Where the polyline (x, y) crosses y = ``level``: a vertex on it, or the linear
    interpolation between two vertices on either side (sorted x values)."""
    out = []
    for i in range(len(x)):
        d0 = y[i] - level
        if d0 == 0:
            out.append(float(x[i]))
        elif i + 1 < len(x) and d0 * (y[i + 1] - level) < 0:
            w = d0 / (d0 - (y[i + 1] - level))
            out.append(float(x[i] + w * (x[i + 1] - x[i])))
    return sorted(out)


def lambda_on_curve(family: str, values, deltas) -> list:
    """The witness's λ* (:func:`lambda_of`) at each point (value, Δ) of a curve."""
    return [lambda_of(family, float(v), float(d)) for v, d in zip(values, deltas)]
