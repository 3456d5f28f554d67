"""The regret-rate study's constants (sec:regret) from their definitions, never through
:mod:`nbl_sim.studies.rate_theory` or :mod:`nbl_theory.stability`.

The study sets γ = 1/κ from the slowest tangent rate κ of each link (d ≥ 3), and its step-size
part sets γ = (2γκ)/(2κ_θ) and predicts the linearized exponent from κ_θ and the tangent noise
σ²_θ (d = 2). Those constants are shared with :mod:`.study_analysis` (what it recomputes is the
analysis, given them), so a bug in them would move the step-size verdict with no disagreement
anywhere; here they are computed again:

* κ (:func:`~proofs_check.witnesses.lambda0.slowest_rate`): κ_θ = −H'(0) of the witness's own
  polar field in d = 2
  (:func:`~proofs_check.witnesses.polar_field.own_dH`, Richardson central differences);
* the slowest tangent rate in d ≥ 3 as the ratio −⟨v − v*, h(v)⟩/‖v − v*‖² on the cap of chord
  :data:`~proofs_check.witnesses.lambda0.KAPPA_CHORD` (:func:`~proofs_check.witnesses.lambda0.
  lambda0_cap`), O(chord²) from its limit;
* σ²_θ = E[Y² (θ̂ᵀX)²] and σ²_⊥ = E[Y²] at v = v* for Bernoulli rewards (E[Y² | X] = g(β_Aᵀx),
  A = sgn(v*ᵀX)), as the 2-D Gaussian integral over (z1, z2) = (v*ᵀX, θ̂ᵀX) it is:
  β_Aᵀx = s z2 + (Δ/2)|z1|, s = √(1 − Δ²/4), so E[f] = 2 ∫_0^∞ ∫ f φ(z1) φ(z2) dz2 dz1, a
  tensor Gauss–Legendre rule (20 nodes on each of 56 panels of [−14, 14] in z2 and 28 panels
  of [0, 14] in z1; the Gaussian mass beyond 14 is below 1e-40). The library reduces the same
  integral to one dimension with closed-form skew-normal kernels;
* the design of the regret parts (:func:`stage_one_design`): Stage I's length
  n0 = ⌈C0 (d + log n)⌉ of thm:regret-rate at the part's largest horizon n, and the last round
  the part records (n itself), from the study's settings alone;
* the rate of each kind of tangent direction the localized-estimation claim prints as 2γκ
  (:func:`direction_rates`): κ_θ = −H'(0) as above and κ_⊥ = Δμ* from g alone, μ* integrated
  by parts in Z on the same tensor rule (the library reads both from its stability tier).

Shared, declared: the link's expression parsed by ``nbl_theory.Link`` (its ``g_numpy``) and, in
d ≥ 3, the library's arm geometry (``Environment.build``: β_±, v*, θ) on which the witness's own
field is evaluated, as in :mod:`.lambda0`.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .lambda0 import slowest_rate
from .polar_field import R_MAX, gl_panels

__all__ = ["slowest_rate", "tangent_noise", "direction_rates", "stage_one_design"]


def _half_plane(link, delta: str) -> tuple:
    """The tensor Gauss–Legendre rule of the module docstring over (z1 ≥ 0, z2): its weights
    with the half-normal and normal densities folded in, g(W) at W = s z2 + (Δ/2) z1 on it,
    the nodes z1, z2 and s = √(1 − Δ²/4)."""
    c = float(delta) / 2
    s = math.sqrt(1 - c * c)
    z2, w2 = gl_panels(-R_MAX, R_MAX, 56)
    z1, w1 = gl_panels(0.0, R_MAX, 28)
    p1 = 2 * w1 * np.exp(-0.5 * z1 * z1) / math.sqrt(2 * math.pi)  # half-normal density
    p2 = w2 * np.exp(-0.5 * z2 * z2) / math.sqrt(2 * math.pi)
    W = s * z2[None, :] + c * z1[:, None]
    with np.errstate(all="ignore"):
        gW = np.asarray(link.g_numpy(W), dtype=float)
    return p1[:, None] * p2[None, :], gW, z1, z2, s


@functools.cache
def tangent_noise(link, delta: str) -> dict:
    """The second moments of the NBL increment at v* for Bernoulli rewards.

    Parameters
    ----------
    link : Link
        The link (its ``g_numpy``).
    delta : str
        The arm separation Δ.

    Returns
    -------
    dict
        ``sigma2_theta`` = E[g(W) z2²] and ``sigma2_perp`` = E[g(W)], W = s z2 + (Δ/2)|z1|,
        (z1, z2) ~ N(0, I₂), by the tensor Gauss–Legendre rule of the module docstring
        (relative accuracy ~1e-14 for the paper's links).
    """
    weight, gW, _, z2, _ = _half_plane(link, delta)
    return {
        "sigma2_theta": float(np.sum(weight * gW * z2[None, :] ** 2)),
        "sigma2_perp": float(np.sum(weight * gW)),
    }


def direction_rates(link, delta: str, gamma: float) -> dict:
    """The local contraction rate of each kind of tangent direction at v* and its 2γκ at step
    γ (prop:local_jacobian): κ_θ along θ, κ_⊥ = Δμ* along the d − 2 directions ⊥ θ.

    κ_θ = −H'(0) of the witness's own polar field (:func:`slowest_rate` in d = 2). κ_⊥ from
    g alone: integrating μ* = E[g'(U + ΔZ/2) 1{Z > 0}] (U ~ N(0, s²), s² = 1 − Δ²/4) by
    parts in Z gives Δμ* = 2 E_U[∫₀^∞ g(U + Δz/2) z φ(z) dz −
    φ(0) g(U)] = E[|z1| g(W)] − 2φ(0) E[g(s z2)], with W and (z1, z2) as in
    :func:`tangent_noise`, on the same rule (no derivative of g, no library moment).

    Parameters
    ----------
    link : Link
        The link, evaluated through ``g_numpy`` only.
    delta : str
        Δ, as the study states it.
    gamma : float
        The study's step constant γ (gated as 1/κ by :func:`slowest_rate`).

    Returns
    -------
    dict
        ``gamma`` (as given: the analysis must carry the study's), ``kappa_theta``,
        ``kappa_perp``, ``two_gamma_kappa_theta``, ``two_gamma_kappa_perp`` (measured against
        the library's exact rates: 1e-14 relative for κ_⊥, ≤ 5e-13 for κ_θ at the study's
        Δ = 1).
    """
    weight, gW, z1, z2, s = _half_plane(link, delta)
    p2 = weight.sum(axis=0)  # the z2 weights (the half-normal ones sum to 1)
    with np.errstate(all="ignore"):
        g_u = np.asarray(link.g_numpy(s * z2), dtype=float)
    k_perp = float(np.sum(weight * gW * z1[:, None])) - 2 * float(np.sum(p2 * g_u)) / math.sqrt(
        2 * math.pi
    )
    k_theta = slowest_rate(link, delta, 2)  # −H'(0): in d = 2, θ is the only direction
    return {
        "gamma": gamma,
        "kappa_theta": k_theta,
        "kappa_perp": k_perp,
        "two_gamma_kappa_theta": 2 * gamma * k_theta,
        "two_gamma_kappa_perp": 2 * gamma * k_perp,
    }


def stage_one_design(cfg) -> dict:
    """The first and last recorded round of each regret part's time grid as thm:regret-rate
    makes them, from the study's settings alone (``cfg``: a ``StudyConfig``): Stage I ends at
    n0 = ⌈C0 (d + log n_max)⌉ and the grid runs to n_max, the part's largest horizon.

    Parameters
    ----------
    cfg : nbl_sim.studies.rate_study.StudyConfig
        The study's settings (read as data: links, dimensions, horizons, C0).

    Returns
    -------
    dict
        ``{(grid, link, d): (n0, n_max)}`` with ``grid`` ``"t_grid"`` (the regret part) or
        ``"t_grid_long"`` (its long horizons), as the study's constants name them.
    """
    out = {}
    for grid, links, dims, ns in (
        ("t_grid", cfg.links, cfg.dims, cfg.ns),
        ("t_grid_long", cfg.long_links, cfg.long_dims, cfg.long_ns),
    ):
        n_max = max(ns)
        for link in links:
            for d in dims:
                out[(grid, link, d)] = (math.ceil(cfg.C0 * (d + math.log(n_max))), n_max)
    return out
