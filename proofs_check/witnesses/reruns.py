"""The paper's experiments re-run by the witness on a stated subset of their replications
(app:stochastic-nbl, app:logistic-comparison), with the witness's own NBL, Greedy Logistic and
regret (:mod:`.regret`), never the toolkit's simulator, policies or regret accounting.

Each function draws replications 0..k−1 of the realization the toolkit's run uses
(``Environment.draw`` with the same seed and n0: common random numbers, shared and declared)
and returns the per-replication statistics the claims read from the toolkit's run (final signed
angle, angle path, regret). A library bug in the update, the step size, the start, the
initialization, the logistic fit or the regret changes every replication, so a few replications
catch it; the claims compare them with the toolkit's first k replications (gate) and keep the
toolkit's statistic over all replications for the verdict.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from nbl_sim.engine.environment import Environment
from nbl_theory.paper import COMPARISON_SETTING, STOCHASTIC_SETTING

from .regret import greedy_logistic_actions, nbl_actions, nbl_from_start, regret_at

__all__ = [
    "STOCHASTIC_REPS",
    "COMPARISON_REPS",
    "stochastic_reference",
    "comparison_reference",
    "realization_means_error",
]

#: Replications re-run per stochastic run (of 100): ~0.2 s each for n = 10,000.
STOCHASTIC_REPS = 5
#: Replications re-run per comparison run (of 100) and Greedy Logistic variant: ~0.7 s each
#: (2 x 16 runs: ~20 s, under a fifth of the two comparison claims' ~130 s).
COMPARISON_REPS = 2


@functools.cache
def stochastic_reference(
    link,
    delta: str,
    rounds: tuple,
    seed: int = 0,
    k: int = STOCHASTIC_REPS,
    gamma_factor: float = 1.0,
) -> dict:
    """NBL in the setting of app:stochastic-nbl (:data:`nbl_theory.paper.STOCHASTIC_SETTING`:
    d = 2, v* = e₁, start at the signed angle ``init_angle`` counterclockwise, γ, t0, n) on
    replications 0..k−1 (``gamma_factor`` multiplies γ: a witness mutant).

    Returns
    -------
    dict
        ``angle``: (k, len(rounds)) signed angle atan2(v₂, v₁) in degrees at ``rounds``;
        ``regret``: (k, len(rounds)) R_t at ``rounds``; ``means_error``: the largest
        |m_a(X_t) of the shared realization − g(β_aᵀX_t) recomputed here| (the realization is
        common to library and witness, so a bug in how it is drawn would move both alike: this
        is its check).
    """
    s = STOCHASTIC_SETTING
    env = Environment.build(link, delta, s["d"])
    real = env.draw(seed, range(k), s["n"], 0)
    means_error = realization_means_error(link, _arms(delta), real.X, real.means)
    a = math.radians(s["init_angle"])
    v0 = np.array([math.cos(a), math.sin(a)])
    acts, V = nbl_from_start(
        real.X, real.Y, v0, gamma=gamma_factor * s["gamma"], t0=s["t0"], rounds=rounds
    )
    vs = np.array([1.0, 0.0])
    return {
        "angle": np.degrees(np.arctan2(V[..., 1], V[..., 0])),
        "regret": regret_at(link.g_numpy, _arms(delta), vs, real.X, acts, rounds),
        "means_error": means_error,
    }


def realization_means_error(link, beta, X, means) -> float:
    """max |means − g(X β_aᵀ)| over replications, rounds and arms: the mean rewards a
    realization records (``means[..., 0]`` arm −1, ``[..., 1]`` arm +1) against g of the
    indices recomputed by numpy from the contexts and the witness's arms ``beta`` (rows β_−,
    β_+). Rounding only (~1e-16) when the realization was drawn right."""
    z = np.einsum("rtd,ad->rta", np.asarray(X, dtype=float), np.asarray(beta, dtype=float))
    return float(np.abs(np.asarray(means, dtype=float) - link.g_numpy(z)).max())


def _arms(delta) -> np.ndarray:
    """(β_−, β_+) = θ ∓ (Δ/2)v* with v* = e₁, θ = ‖θ‖e₂, ‖θ‖² = 1 − Δ²/4 (app:simulation-setup)."""
    dl = float(delta)
    th = math.sqrt(1.0 - dl * dl / 4.0)
    return np.array([[-dl / 2, th], [dl / 2, th]])


@functools.cache
def comparison_reference(
    link, intercept: bool, seed: int = 0, k: int = COMPARISON_REPS, ridge: float = 1e-6
) -> dict:
    """NBL (randomized initialization) and Greedy Logistic (with or without intercept) in the
    setting of app:logistic-comparison (:data:`nbl_theory.paper.COMPARISON_SETTING`) on
    replications 0..k−1: final regret R_n of each, ``nbl`` and ``gl`` (k,). ``ridge`` is the
    logistic fits' penalty (the library's documented 1e-6; another value is a witness
    mutant)."""
    c = COMPARISON_SETTING
    env = Environment.build(link, c["delta"], c["d"])
    real = env.draw(seed, range(k), c["n"], c["n0"])
    beta, vs = _arms(c["delta"]), np.array([1.0, 0.0])
    out = {}
    for name, acts in (
        ("nbl", nbl_actions(real.X, real.Y, real.coins, gamma=c["gamma"], t0=c["t0"])),
        (
            "gl",
            greedy_logistic_actions(real.X, real.Y, real.coins, intercept=intercept, ridge=ridge),
        ),
    ):
        out[name] = regret_at(link.g_numpy, beta, vs, real.X, acts, (c["n"],))[:, 0]
    return out
