"""Laws at the edge of the sub-Gaussian tail hypothesis of lem:tail_to_mgf, and their log-MGF.

Each law has σ = 1 and satisfies P(|U| ≥ x) ≤ 2e^{−x²/2}; some meet it with equality on part of
the range ("extremal"), so the constant C_sg the lemma asserts is probed where it is largest.
Continuous laws are represented by a fine quadrature of their density (atoms with log-weights),
so E e^{λU} is a log-sum-exp in float64.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import logsumexp, ndtr

from nbl_theory.numeric import gauss_legendre_uniform

__all__ = [
    "LAWS",
    "subgaussian_law",
    "law_tail",
    "logmgf_ratio",
    "chain_log_mgf_ratio",
    "chain_constant",
    "SYMMETRIC_EXTREMAL_CSG",
    "moment_identity_error",
    "law_constants",
]

#: Var/2 of the symmetric extremal law, 1 + log 2: the C_sg it needs as λ → 0 (no universal
#: C_sg of lem:tail_to_mgf is smaller)
SYMMETRIC_EXTREMAL_CSG = 1 + math.log(2)

#: The laws :func:`subgaussian_law` knows.
LAWS = ("gaussian", "half-normal", "extremal", "extremal-symmetric", "two-point")


def subgaussian_law(law: str, p: float = 0.5):
    """A σ = 1 law satisfying P(|U| ≥ x) ≤ 2e^{−x²/2}, as (atoms, log-weights).

    ``gaussian`` and ``half-normal``: their densities on Gauss–Legendre nodes (panels 0.25 up to
    60); ``extremal``: U ≥ 0 with P(U ≥ x) = min(1, 2e^{−x²/2}) (density 2x e^{−x²/2} beyond
    x0 = √(2 log 2)); ``extremal-symmetric``: ± the extremal law (mean 0); ``two-point``: U = c
    with probability p, else 0, c = √(2 log(2/p)). Weights sum to 1 within ~1e-15.
    """
    x0 = math.sqrt(2 * math.log(2))
    if law == "gaussian":
        x, w = gauss_legendre_uniform(-60, 60, 0.25)
        lw = np.log(w) - x * x / 2 - 0.5 * math.log(2 * math.pi)
    elif law == "half-normal":
        x, w = gauss_legendre_uniform(0, 60, 0.25)
        lw = np.log(w) - x * x / 2 + math.log(2 / math.sqrt(2 * math.pi))
    elif law == "extremal":  # P(U >= x) = min(1, 2e^{-x²/2}), U >= 0
        x, w = gauss_legendre_uniform(x0, 60, 0.25)
        lw = np.log(w) + np.log(2 * x) - x * x / 2
    elif law == "extremal-symmetric":  # ±(the extremal law), mean 0
        x, w = gauss_legendre_uniform(x0, 60, 0.25)
        x, w = np.concatenate([-x[::-1], x]), np.concatenate([w[::-1], w])
        lw = np.log(w) + np.log(np.abs(x)) - x * x / 2
    elif law == "two-point":  # U = c w.p. p, else 0; c = sqrt(2 log(2/p))
        x = np.array([0.0, math.sqrt(2 * math.log(2 / p))])
        lw = np.log(np.array([1 - p, p]))
    else:
        raise KeyError(law)
    return x, lw


def law_tail(law: str, p: float, y: np.ndarray) -> np.ndarray:
    """P(|U| ≥ y) of the law :func:`subgaussian_law` ``(law, p)`` in closed form."""
    if law in ("gaussian", "half-normal"):
        return 2 * ndtr(-y)
    if law in ("extremal", "extremal-symmetric"):
        return np.minimum(1.0, 2 * np.exp(-y * y / 2))
    c = math.sqrt(2 * math.log(2 / p))
    return np.where(y <= c, p, 0.0)


def logmgf_ratio(x, lw, lam: float) -> float:
    """log E exp{λ(U − EU)}/λ² for the law (atoms ``x``, log-weights ``lw``), by log-sum-exp in
    float64 (the implied C_sg of lem:tail_to_mgf at this λ; exactly 1/2 for the Gaussian)."""
    mean = float(np.exp(lw) @ x)
    return float(logsumexp(lam * (x - mean) + lw)) / lam**2


def chain_log_mgf_ratio(x: float, centering: float = 2.0, p_max: int | None = None) -> float:
    """The bound on log E e^{λZ}/(λσ)² that the proof of lem:tail_to_mgf yields at x = |λ|σ.

    The proof's steps: E|U|^p ≤ p (2σ²)^{p/2} Γ(p/2) (tail integration), ‖Z‖_p ≤
    ``centering`` ‖U‖_p for Z = U − E[U | G] (Minkowski and Jensen: 2), and E e^{λZ} ≤
    1 + Σ_{p≥2} |λ|^p E|Z|^p/p! (E Z = 0). The series is summed in log space (log-sum-exp of
    its terms up to ``p_max``; the default 8 (c x)² + 100, c = ``centering``·√2, is far past
    the largest term, near p ≈ (c x)²); the result is log(1 + series)/x².
    """
    from scipy.special import gammaln

    c = centering * math.sqrt(2.0)
    top = p_max if p_max is not None else int(8 * (c * x) ** 2) + 100
    p = np.arange(2, top + 1, dtype=float)
    lt = p * math.log(c * x) + np.log(p) + gammaln(p / 2) - gammaln(p + 1)
    return float(np.logaddexp(0.0, logsumexp(lt))) / (x * x)


def chain_constant(centering: float = 2.0, lo: float = 1e-3, hi: float = 30.0) -> tuple:
    """sup over x = |λ|σ in [lo, hi] of :func:`chain_log_mgf_ratio`: the explicit C_sg of the
    proof's chain, as (sup, argmax) — a 120-point geometric grid refined by a bounded scalar
    search around the best grid point."""
    from scipy.optimize import minimize_scalar

    grid = np.geomspace(lo, hi, 120)
    vals = np.array([chain_log_mgf_ratio(x, centering) for x in grid])
    i = int(vals.argmax())
    a, b = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    r = minimize_scalar(
        lambda x: -chain_log_mgf_ratio(x, centering),
        bounds=(a, b),
        method="bounded",
        options={"xatol": 1e-10},
    )
    best = max((vals[i], grid[i]), (-r.fun, r.x))
    return float(best[0]), float(best[1])


def moment_identity_error(gamma_shift: float = 0.0) -> float:
    """The largest relative error, at 30 digits (mpmath quadrature), of the moment step of the
    proof of lem:tail_to_mgf: ∫_0^∞ p x^{p−1} 2e^{−x²/(2s²)} dx = p (2s²)^{p/2} Γ(p/2), for
    p ∈ {1, 1.5, 2, 3, 5, 10} and s ∈ {1/2, 2} (~1e-30 when the identity holds).
    ``gamma_shift`` is added to the argument of Γ (a claim's formula mutant)."""
    import mpmath

    with mpmath.workdps(30):
        worst = mpmath.mpf(0)
        for p in (1, 1.5, 2, 3, 5, 10):
            for s in (mpmath.mpf("0.5"), mpmath.mpf(2)):
                q = mpmath.quad(
                    lambda x, p=p, s=s: p * x ** (p - 1) * 2 * mpmath.exp(-x * x / (2 * s * s)),
                    [0, s, mpmath.inf],
                )
                f = (
                    p
                    * (2 * s * s) ** (mpmath.mpf(p) / 2)
                    * mpmath.gamma(mpmath.mpf(p) / 2 + gamma_shift)
                )
                worst = max(worst, abs(q / f - 1))
        return float(worst)


def law_constants(lams) -> tuple:
    """The C_sg each test law implies and whether every law meets the hypothesis.

    For the Gaussian, half-normal, extremal, symmetric extremal and two-point (p = 1/2, 1e-2,
    1e-6) laws: sup over λσ in ``lams`` of :func:`logmgf_ratio`; the check that each law's
    weights sum to 1 (1e-12), that its closed-form tail obeys P(|U| ≥ y) ≤ 2e^{−y²/2} on a grid
    of y ∈ [0.01, 10] (relative 1e-14), and that its moments obey the consequence
    E|U|^k ≤ k 2^{k/2} Γ(k/2), k ∈ {1, 2, 4, 6} (relative 1e-12).

    Returns
    -------
    csg : dict
        {law: implied C_sg}.
    ok : bool
        Every law meets the hypothesis and its moment consequence.
    """
    csg, ok = {}, True
    for law, p in (
        ("gaussian", 0.5),
        ("half-normal", 0.5),
        ("extremal", 0.5),
        ("extremal-symmetric", 0.5),
        ("two-point", 0.5),
        ("two-point", 1e-2),
        ("two-point", 1e-6),
    ):
        key = law if law != "two-point" else f"two-point p={p:g}"
        x, lw = subgaussian_law(law, p)
        wts = np.exp(lw)
        ok &= abs(wts.sum() - 1) < 1e-12
        csg[key] = max(logmgf_ratio(x, lw, lam) for lam in lams)
        # the hypothesis P(|U| >= y) <= 2e^{-y²/2} (closed-form tails, grid of y)
        yv = np.linspace(0.01, 10, 1000)
        ok &= bool(np.all(law_tail(law, p, yv) <= 2 * np.exp(-yv * yv / 2) * (1 + 1e-14)))
        # and its moment consequence E|U|^k <= k 2^{k/2} Gamma(k/2)
        for k in (1, 2, 4, 6):
            ok &= float(wts @ np.abs(x) ** k) <= k * 2 ** (k / 2) * math.gamma(k / 2) * (1 + 1e-12)
    return csg, ok
