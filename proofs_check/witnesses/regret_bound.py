"""The explicit bound of thm:regret-rate (app:regret-rate, eq:Ce-explicit), written out from the
appendix's constants, and that bound at the paper's own comparison settings
(app:logistic-comparison) with every free constant at its most favourable admissible value.

The constants come from the witnesses: μ_g and κ_θ = −H'(0) from the polar quadrature of
:mod:`proofs_check.witnesses.polar_field`, the α → 0 limit of the error-to-regret ratio and
E|m_+ − m_-| from :mod:`proofs_check.witnesses.disagreement`; the library's settings and links
are data (:data:`nbl_theory.paper.COMPARISON_SETTING`, :func:`nbl_theory.paper.paper_link`).
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np

from nbl_theory.paper import COMPARISON_SETTING, paper_link

from .disagreement import error_to_regret_limit, mean_gap
from .polar_field import own_dH, own_mu_g

__all__ = [
    "BoundConstants",
    "c_e",
    "explicit_bound",
    "per_log_n",
    "paper_constants",
    "paper_bound",
    "c_e_unit",
    "estimation_bound",
]


class BoundConstants(NamedTuple):
    """The constants the explicit bound of thm:regret-rate is written with: the reward bound
    B_Y, the step γ, the separation Δ, the dimension d, μ_g, the local rate λ0 and C_gap."""

    B: float
    gamma: float
    delta: float
    d: int
    mu_g: float
    lam0: float
    cgap: float


def c_e(k: BoundConstants, t0: float, n0: float, c_init: float = 16.0) -> float:
    """C_e of eq:Ce-explicit: max{C'_init (1 + t0/n0) B² / (Δ² μ_g²), B² γ² / (2γλ0 − 1)}
    (C'_init = 16 of eq:initialization-mse; t0/n0 is C_off)."""
    B, gamma, delta, mu_g, lam0 = k.B, k.gamma, k.delta, k.mu_g, k.lam0
    return max(
        c_init * (1 + t0 / n0) * B**2 / (delta**2 * mu_g**2),
        B**2 * gamma**2 / (2 * gamma * lam0 - 1),
    )


def explicit_bound(n: int, n0: int, t0: float, k: BoundConstants) -> dict:
    """The appendix's explicit bound of thm:regret-rate,
    E[R_n] ≤ 2 B n0 + C_gap (Δ/2) C_e d {1 + log((n + t0)/(n0 + t0))} + 2 B n^{−3}.

    Returns
    -------
    dict
        ``bound``; ``stage1`` = 2 B n0 (r_t ≤ 2 B per round of Stage I); ``ce`` (:func:`c_e`);
        ``log_term`` = 1 + log((n + t0)/(n0 + t0)) and ``hsum`` = Σ_{t=n0+1}^{n} 1/(t − 1 + t0),
        the sum the proof bounds by ``log_term``.
    """
    ce = c_e(k, t0, n0)
    B, delta, d, cgap = k.B, k.delta, k.d, k.cgap
    log_term = 1 + math.log((n + t0) / (n0 + t0))
    bound = (
        2 * B * n0
        + cgap * delta / 2 * ce * d * (1 + math.log((n + t0) / (n0 + t0)))
        + 2 * B * n**-3.0
    )
    hsum = float((1.0 / (np.arange(n0 + 1, n + 1) - 1 + t0)).sum())
    return dict(bound=bound, stage1=2 * B * n0, ce=ce, log_term=log_term, hsum=hsum)


def per_log_n(x: float, n: int) -> float:
    """x / log n (a regret normalised by the log n of thm:regret-rate)."""
    return x / math.log(n)


@functools.cache
def paper_constants(key: str) -> tuple:
    """(μ_g, κ_θ, C_gap, E|m_+ − m_-|) of a paper link at the comparison's Δ, d = 2 (cached):
    μ_g and κ_θ = −H'(0) by the witness's own quadrature; C_gap is the α → 0 limit of the
    in-plane ratio E[r | v]/((Δ/2)‖v − v*‖²) — every admissible C_gap is at least that, so a
    bound found vacuous with it is vacuous with any admissible C_gap. C_gap and the gap are nan
    when 2γκ_θ ≤ 1 (thm:regret-rate does not apply)."""
    cs = COMPARISON_SETTING
    link, dl = paper_link(key), float(cs["delta"])
    mu_g, kappa = own_mu_g(link), -own_dH(link, cs["delta"], 0.0)
    if 2 * cs["gamma"] * kappa <= 1:
        return mu_g, kappa, math.nan, math.nan
    return mu_g, kappa, error_to_regret_limit(link, dl), mean_gap(link, dl)


def paper_bound(key: str, n: int) -> dict:
    """thm:regret-rate's explicit bound at the Greedy Logistic comparison's settings
    (app:logistic-comparison: d = 2, Δ = 1, n0 = 200, t0 = 500, γ = 10, B_Y = 1) with every free
    constant at its most favourable admissible value (λ0 = κ_θ, the largest possible; C_gap =
    the α → 0 limit of :func:`paper_constants`, a lower bound of every admissible C_gap;
    C'_init = 16), next to n E|m_+ − m_-|, the expected regret of always choosing the wrong arm.

    Returns
    -------
    dict
        ``key``, ``applies``; if it applies ``bound``, ``stage1``, ``stage2`` (bound − stage1),
        ``trivial`` (n E|gap|), ``ce``, ``cgap``; otherwise ``two_gamma_kappa``.
    """
    cs = COMPARISON_SETTING
    dl, d, B = float(cs["delta"]), cs["d"], 1.0
    n0, t0, gamma = cs["n0"], cs["t0"], cs["gamma"]
    mu_g, kappa, cgap, gap = paper_constants(key)
    if 2 * gamma * kappa <= 1:
        return dict(key=key, applies=False, two_gamma_kappa=2 * gamma * kappa)
    ce = c_e(BoundConstants(B, gamma, dl, d, mu_g, kappa, cgap), t0, n0)
    bound = (
        2 * B * n0 + cgap * dl / 2 * ce * d * (1 + math.log((n + t0) / (n0 + t0))) + 2 * B * n**-3.0
    )
    trivial = n * gap
    return dict(
        key=key,
        applies=True,
        bound=bound,
        stage1=2 * B * n0,
        trivial=trivial,
        stage2=bound - 2 * B * n0,
        ce=ce,
        cgap=cgap,
    )


def c_e_unit(key: str, gamma: float, two_gamma_lambda0: float, c_init: float = 16.0) -> float:
    """C_e of eq:Ce-explicit at Δ = 1, B_Y = 1, C_off = 1 (t0 = n0) for the paper link ``key``:
    max{2 C'_init/μ_g², γ²/(2γλ0 − 1)}, μ_g by the witness's quadrature
    (:func:`~proofs_check.witnesses.polar_field.own_mu_g`)."""
    mu_g = own_mu_g(paper_link(key))
    return max(c_init * 2 / mu_g**2, gamma**2 / (two_gamma_lambda0 - 1))


def estimation_bound(ce: float, d: int, t, t0: float, rate: float, mean) -> tuple:
    """prop:localized-estimation's bound C_e d/(t + t0)^rate on the grid ``t`` (rate 1 in the
    paper; ``d`` is the factor the bound carries), and the largest ``mean``/bound over the grid.

    Returns
    -------
    bound : ndarray
    ratio : float
    """
    t = np.asarray(t, dtype=float)
    bound = ce * d / (t + t0) ** rate
    return bound, float((np.asarray(mean) / bound).max())
