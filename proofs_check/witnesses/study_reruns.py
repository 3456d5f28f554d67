"""The regret-rate study's cells (sec:regret; :mod:`nbl_sim.studies.rate_study`) re-run by the
witness on their first replications, with the witness's own NBL (:func:`.paths.reference_errors`,
:func:`.regret.nbl_from_start`) and regret (:func:`.regret.regret_at`), never the library's
kernel, regret accounting or exit times.

A cell is read only for its settings (link key, Δ, d, horizons, C0, γ, t0, start angle, r0, time
grid, seed: the study's design, shared and declared) and the realization is drawn by
``Environment.draw`` with the cell's seed (common random numbers). A library bug in the update,
the step size, Stage I, the regret, the exit time or the error grid changes every replication,
so :data:`STUDY_REPS` replications catch it. ``gamma_factor`` (1 by default) multiplies the
witness's step: the witness mutant of the study claims.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from nbl_sim.engine.environment import Environment
from nbl_theory.paper import paper_link

from .paths import reference_errors
from .regret import nbl_from_start, regret_at

__all__ = [
    "STUDY_REPS",
    "LOC_REPS",
    "regret_reference",
    "gamma_reference",
    "loc_reference",
    "contrast_reference",
    "mean_text",
]

#: Replications (0..STUDY_REPS − 1) re-run per setting: ~1.5 s per 10⁵ rounds.
STUDY_REPS = 2
#: Replications re-run per localization setting: its cells keep only whether a path left the
#: r0-ball (and e_{n0}), a coarse statistic, so more paths are compared (10⁴ rounds: ~1 s).
LOC_REPS = 200


def _first_exit(sq: np.ndarray, r0: float) -> np.ndarray:
    """Index of the first entry of each row with e > r0² (the row length if none)."""
    out = sq > r0 * r0
    return np.where(out.any(1), out.argmax(1), sq.shape[1])


@functools.cache
def regret_reference(cell, k: int = STUDY_REPS, gamma_factor: float = 1.0) -> dict:
    """A regret cell's largest horizon n = max(ns), n0 = ⌈C0 (d + log n)⌉, t0 = n0, on
    replications 0..k−1: ``regret`` R_n (k,), ``e_grid`` e_t at the cell's t grid, ``tau`` the
    first round t ≥ n0 with e_t > r0² (n + 1 if none), ``e_n0``."""
    env = Environment.build(paper_link(cell.link), cell.delta, cell.d)
    n0s = [math.ceil(cell.C0 * (cell.d + math.log(n))) for n in cell.ns]
    n, n0 = max(cell.ns), n0s[int(np.argmax(cell.ns))]
    sq, reg = reference_errors(
        env, cell.seed, k, n, n0, gamma_factor * cell.gamma, float(n0), coins_n0=max(n0s)
    )
    grid = np.asarray(cell.t_grid, dtype=int)
    return {
        "regret": reg,
        "e_grid": sq[:, grid - n0],
        "tau": _first_exit(sq, cell.r0) + n0,
        "e_n0": sq[:, 0],
    }


def _start(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([math.cos(a), math.sin(a)])  # counterclockwise from v* = e1 (d = 2)


@functools.cache
def gamma_reference(cells, k: int = STUDY_REPS, gamma_factor: float = 1.0) -> list:
    """The step-size cells ``cells`` (a tuple, one per γ, common random numbers) on replications
    0..k−1, run together: per cell, ``e_grid`` (k, len(t_grid)) and ``tau`` (first t ≥ 0 with
    e_t > r0², n + 1 if none)."""
    c = cells[0]
    env = Environment.build(paper_link(c.link), c.delta, 2)
    real = env.draw(c.seed, range(k), c.n, 0)
    m = len(cells)
    X, Y = np.tile(real.X, (m, 1, 1)), np.tile(real.Y, (m, 1, 1))
    gam = gamma_factor * np.repeat([cl.gamma for cl in cells], k)
    _, V = nbl_from_start(X, Y, _start(c.start_deg), gamma=gam, t0=c.t0, rounds=range(c.n + 1))
    sq = ((V - np.array([1.0, 0.0])) ** 2).sum(-1)
    grid = np.asarray(c.t_grid, dtype=int)
    return [
        {
            "e_grid": sq[i * k : (i + 1) * k][:, grid],
            "tau": _first_exit(sq[i * k : (i + 1) * k], cl.r0),
        }
        for i, cl in enumerate(cells)
    ]


@functools.cache
def loc_reference(cell, k: int = LOC_REPS, gamma_factor: float = 1.0) -> dict:
    """A localization cell (n0, t0 = n0, horizon n) on replications 0..k−1: ``exit`` (some
    e_t > r0², t = n0..n) and ``e_n0``."""
    env = Environment.build(paper_link(cell.link), cell.delta, cell.d)
    sq, _ = reference_errors(
        env, cell.seed, k, cell.n, cell.n0, gamma_factor * cell.gamma, float(cell.n0)
    )
    return {"exit": (sq > cell.r0 * cell.r0).any(1), "e_n0": sq[:, 0]}


@functools.cache
def contrast_reference(cell, k: int = STUDY_REPS, gamma_factor: float = 1.0) -> dict:
    """A contrast cell (NBL from the start angle, no Stage I) on replications 0..k−1:
    ``regret`` R_n and signed ``angle`` (radians) at the horizons ``ns``."""
    env = Environment.build(paper_link(cell.link), cell.delta, 2)
    real = env.draw(cell.seed, range(k), max(cell.ns), 0)
    acts, V = nbl_from_start(
        real.X,
        real.Y,
        _start(cell.start_deg),
        gamma=gamma_factor * cell.gamma,
        t0=cell.t0,
        rounds=cell.ns,
    )
    dl = float(cell.delta)
    th = math.sqrt(1.0 - dl * dl / 4.0)
    beta = np.array([[-dl / 2, th], [dl / 2, th]])
    return {
        "regret": regret_at(env.link.g_numpy, beta, np.array([1.0, 0.0]), real.X, acts, cell.ns),
        "angle": np.arctan2(V[..., 1], V[..., 0]),
    }


def mean_text(v) -> str:
    """ "mean x" with x the mean of ``v`` to 9 significant figures (how a re-run's values are
    shown beside the library's)."""
    return f"mean {float(np.mean(v)):.9g}"
