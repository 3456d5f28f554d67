"""Links written out from the paper's formulas (not from the library's link machinery), test
links for property checks, and the supremum of |g'|.

* :func:`tanh_link_parts` is eq:link_tanh with the parameters printed in app:tanh-geometry;
* :func:`weighted_entropy_link_parts` solves the implicit equation of app:elicitation-geometry
  by bisection in logit(g) and differentiates through the potential;
* :func:`mixture_link` builds strictly increasing links c z + Σ w tanh(b(z − a)) for
  property-based checks of statements about *every* increasing link.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import expit

from nbl_theory.numeric import PHI0
from nbl_theory.paper import PAPER_LINKS

__all__ = [
    "TANH",
    "tanh_definition_residuals",
    "tanh_link_parts",
    "tanh_link_g",
    "weighted_entropy_link_parts",
    "paper_link_parts",
    "mixture_link",
    "random_mixtures",
    "sup_gprime",
    "gap_constant",
]

#: eq:link_tanh parameters as printed in app:tanh-geometry.
TANH = {"p0": 0.10, "a1": 0.10, "a2": 0.25, "b1": 2.0, "b2": 1.4, "mu1": -1.25}


def tanh_definition_residuals(params: dict, mu2: str, expr, variable) -> tuple:
    """The printed eq:link_tanh with the printed ``params`` (decimal strings) and ``mu2``
    against a library expression ``expr`` in ``variable``: (expr − printed simplified by
    sympy, whether g' = a1 b1 sech² + a2 b2 sech² holds for the printed form — a sum of
    positive terms when a_j, b_j > 0)."""
    import sympy as sp

    p = {k: sp.Rational(v) for k, v in params.items()}
    z = sp.Symbol("z", real=True)
    t1 = sp.tanh(p["b1"] * (z - p["mu1"]))
    t2 = sp.tanh(p["b2"] * (z - sp.Rational(mu2)))
    printed = p["p0"] + p["a1"] * (1 + t1) + p["a2"] * (1 + t2)
    diff = sp.simplify(expr.subs(variable, z) - printed)
    sech_form = p["a1"] * p["b1"] * (1 - t1**2) + p["a2"] * p["b2"] * (1 - t2**2)
    return diff, sp.simplify(sp.diff(printed, z) - sech_form) == 0


def tanh_link_parts(mu2: float):
    """g, g', g'' of eq:link_tanh written out from the printed formula.

    Returns
    -------
    callable
        ``parts(z) -> (g, g', g'')`` on numpy arrays (float64, a few ulps).
    """
    p = TANH

    def parts(z):
        t1, t2 = np.tanh(p["b1"] * (z - p["mu1"])), np.tanh(p["b2"] * (z - mu2))
        s1, s2 = 1 / np.cosh(p["b1"] * (z - p["mu1"])) ** 2, 1 / np.cosh(p["b2"] * (z - mu2)) ** 2
        g = p["p0"] + p["a1"] * (1 + t1) + p["a2"] * (1 + t2)
        g1 = p["a1"] * p["b1"] * s1 + p["a2"] * p["b2"] * s2
        g2 = -2 * p["a1"] * p["b1"] ** 2 * s1 * t1 - 2 * p["a2"] * p["b2"] ** 2 * s2 * t2
        return g, g1, g2

    return parts


def tanh_link_g(mu2: float, zs) -> np.ndarray:
    """g of eq:link_tanh (:func:`tanh_link_parts`) at the points ``zs``, in float64."""
    return tanh_link_parts(mu2)(np.asarray(zs, dtype=float))[0]


def weighted_entropy_link_parts(rho: float):
    """g_ρ, g_ρ', g_ρ'' from the implicit equation z = (1+ρ) log g − (1−ρ) log(1−g) + 2ρ log 2
    (app:elicitation-geometry).

    The equation is solved by bisection in x = logit(g): x ↦ φ_ρ'(expit(x)) vanishes at x = 0
    and has slope (1 + ρ)(1 − m) + (1 − ρ)m ∈ [1 − |ρ|, 1 + |ρ|], so x lies between z/(1 + |ρ|)
    and z/(1 − |ρ|); 64 halvings of that bracket (width 2|ρ||z|/(1 − ρ²)) reach the last bit of
    x for |z| < 1e3. g' = 1/φ'' and g'' = −φ'''/φ''³ (sec:decision_stability_geometry).

    Returns
    -------
    callable
        ``parts(z) -> (g, g', g'')`` on numpy arrays (float64).
    """

    def dual(x):  # phi_rho'(expit(x)), log m = −softplus(−x), log(1−m) = −softplus(x)
        return (
            -(1 + rho) * np.logaddexp(0, -x)
            + (1 - rho) * np.logaddexp(0, x)
            + 2 * rho * math.log(2)
        )

    def parts(z):
        z = np.asarray(z, dtype=float)
        a = abs(rho)
        lo = np.minimum(z / (1 + a), z / (1 - a))
        hi = np.maximum(z / (1 + a), z / (1 - a))
        for _ in range(64):
            mid = 0.5 * (lo + hi)
            up = dual(mid) < z
            lo, hi = np.where(up, mid, lo), np.where(up, hi, mid)
        x = 0.5 * (lo + hi)
        m, q = expit(x), expit(-x)  # m and 1 − m
        phi2 = (1 + rho) / m + (1 - rho) / q
        phi3 = -(1 + rho) / m**2 + (1 - rho) / q**2
        return m, 1 / phi2, -phi3 / phi2**3

    return parts


def paper_link_parts(key: str):
    """The written-out link of the paper's named link ``key`` (a key of
    :data:`nbl_theory.paper.PAPER_LINKS`): :func:`tanh_link_parts` or
    :func:`weighted_entropy_link_parts` at its printed parameter."""
    row = PAPER_LINKS[key]
    value = row.parameter[1]
    return (
        tanh_link_parts(float(value))
        if row.family == "two-transition"
        else weighted_entropy_link_parts(float(value))
    )


def mixture_link(params, z, m=np):
    """g(z) = c z + Σ_k w_k tanh(b_k (z − a_k)) with c ≥ 0, w_k, b_k > 0: strictly increasing.

    Parameters
    ----------
    params : (c, ((w, b, a), ...))
    z : number or array
    m : module
        ``numpy`` or ``mpmath`` (the same formula at any precision).
    """
    c, terms = params
    out = c * z
    for w, b, a in terms:
        out = out + w * m.tanh(b * (z - a))
    return out


def random_mixtures(rng, k: int) -> list:
    """``k`` random parameter sets for :func:`mixture_link` (1–3 terms; c = 0 for every other
    one, so links bounded and unbounded both occur)."""
    out = []
    for i in range(k):
        nterm = int(rng.integers(1, 4))
        terms = tuple(
            (float(rng.uniform(0.05, 1)), float(rng.uniform(0.2, 3)), float(rng.normal(0, 1.5)))
            for _ in range(nterm)
        )
        out.append((float(rng.uniform(0, 0.3)) if i % 2 else 0.0, terms))
    return out


def sup_gprime(link) -> float:
    """sup_z |g'(z)|: the largest |g'| on a grid of 60,001 points of [−30, 30], refined by a
    bounded scalar search (xatol 1e-12) around the best grid point; the larger value is returned,
    so the result is a lower bound of the supremum accurate to ~1e-12 relative for a smooth g'
    whose maximum lies in [−30, 30]."""
    z = np.linspace(-30, 30, 60001)
    gp = link.derivative_numpy(z, 1)
    i = int(np.argmax(np.abs(gp)))
    res = minimize_scalar(
        lambda s: -abs(float(link.derivative_numpy(np.array([s]), 1)[0])),
        bounds=(z[max(i - 1, 0)], z[min(i + 1, z.size - 1)]),
        method="bounded",
        options={"xatol": 1e-12},
    )
    return max(float(np.abs(gp).max()), -float(res.fun))


def gap_constant(link, scale: float = 1.0) -> float:
    """C_gap = φ0(0) sup|g'| (:func:`sup_gprime`): the constant of eq:error-to-regret the proof
    yields for bounded g' (|m_+ − m_-| ≤ Δ|v*ᵀX| sup|g'| and E[|v*ᵀX| 1{disagree}] =
    φ0(0)‖v − v*‖²/2); ``scale`` multiplies it (a claim's formula mutant)."""
    return scale * PHI0 * sup_gprime(link)
