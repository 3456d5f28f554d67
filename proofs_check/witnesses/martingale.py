"""Monte Carlo statistics of lem:conditional_population_field along NBL trajectories, with the
resolution each run has (the smallest bias it detects), so a check cannot pass merely because
its noise is large.

NBL paths are re-run in numpy from the realization ``Environment.draw`` gives; with
D_t = W_t − F(v_{t−1}) and G_t − h(v_{t−1}) (h = P⊥F), the per-replication sums Σ_t D_t and
Σ_t D_t v_{t−1,k} are independent across replications and centred under the lemma.

F is the library's field by the exact 1-D reduction, its two integrals interpolated in one angle
(:class:`nbl_sim.population.population_table.FieldTable`, ~1e-15 · max(1, S); the quadrature of
:func:`nbl_sim.population.fields.population_field` at all R·n directions would cost ~100× more), and
every run checks it against that quadrature at ~:data:`TABLE_CHECKED` of its directions.

The NBL step is written out here from eq:tangent_update and eq:nbl_update (G_t = (I − vvᵀ)W_t,
v_t = (v + η_t G_t)/‖v + η_t G_t‖), not taken from the library's ``nbl_sim.engine.geometry``, so a
defect in the library's update cannot hide in the trajectories this witness runs.
"""

from __future__ import annotations

import math

import numpy as np

from nbl_sim.engine.environment import Environment
from nbl_sim.population.population_table import FieldTable
from nbl_theory.paper import PAPER_LINKS

__all__ = [
    "tangent_projection",
    "nbl_step",
    "martingale_statistics",
    "trajectory_statistics",
    "DETECT_Z",
    "POWER_Z",
    "TABLE_CHECKED",
    "TABLE_PANELS",
    "TABLE_TOL",
]

#: Two-sided detection threshold of the z-scores (5 SE: ~6e-7 false-alarm probability each).
DETECT_Z = 5.0
#: Extra SEs for 90% power: a bias of (DETECT_Z + POWER_Z) SE is detected with probability 0.9.
POWER_Z = 1.2816
#: Directions of a run at which the field table is checked against the quadrature (about this
#: many, evenly spaced through the run).
TABLE_CHECKED = 256
#: The largest deviation of the table from the quadrature accepted, x max(1, S): both are
#: ~1e-15 accurate (nbl_sim.population.population_table); more is a bug in one of them.
TABLE_TOL = 1e-12
#: Panels of the field table in θ (16 Chebyshev points each).
TABLE_PANELS = 256


def tangent_projection(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """G = P_v^⊥ w = w − (vᵀw) v for unit rows v (eq:tangent_update), row by row."""
    return w - np.einsum("...i,...i->...", v, w)[..., None] * v


def nbl_step(v: np.ndarray, w: np.ndarray, eta: float) -> np.ndarray:
    """One NBL step (eq:nbl_update): (v + η G)/‖v + η G‖, G = P_v^⊥ w, row by row."""
    x = v + eta * tangent_projection(v, w)
    return x / np.sqrt(np.einsum("...i,...i->...", x, x))[..., None]


def martingale_statistics(
    env: Environment,
    R: int,
    n: int,
    draw_seed: int,
    angle_seed: int,
    gamma: float = 10.0,
    t0: float = 20.0,
    field_factor: float = 1.0,
    table_panels: int = TABLE_PANELS,
) -> dict:
    """Means and SEs of the martingale-difference sums over R NBL trajectories of n Stage-II
    rounds (start angles uniform in [−60, 60] degrees from ``angle_seed``, η_t = γ/(t + t0)).

    ``field_factor`` multiplies the field the differences are taken against (1 is the lemma;
    another value shows that the statistics notice a wrong conditional mean); ``table_panels``
    the panels of the field table (fewer: a coarser table, which its check must notice).

    Returns
    -------
    dict
        ``z``: |mean/SE| of every statistic and coordinate (SE > 1e-12); ``resolution``: the
        per-round bias of F or h (any coordinate, absolute) that the unweighted sums detect with
        probability ≥ 0.9, (DETECT_Z + POWER_Z) · max SE(Σ_t D_t) / n; ``moved``: the mean
        angle (degrees) between the first and the last direction; ``count``: statistics;
        ``table_deviation``: max |F_table − F_quadrature| / max(1, S) at the
        ``table_checked`` directions checked.
    """
    d = env.d
    real = env.draw(draw_seed, range(R), n, 0)
    angles = np.random.default_rng(angle_seed).uniform(-60.0, 60.0, R)
    V = np.stack([env.initial_direction(float(a)) for a in angles])
    prev = np.empty((R, n, d))
    Ws = np.empty_like(prev)
    Gs = np.empty_like(prev)
    for t in range(n):
        x = real.X[:, t]
        a = np.where((V * x).sum(1) >= 0, 1.0, -1.0)
        y = np.where(a > 0, real.Y[:, t, 1], real.Y[:, t, 0])
        W = (a * y)[:, None] * x
        prev[:, t], Ws[:, t], Gs[:, t] = V, W, tangent_projection(V, W)
        V = nbl_step(V, W, gamma / (t + 1 + t0))
    table = FieldTable(env.link, panels=table_panels)
    flat = prev.reshape(-1, d)
    F = field_factor * table.field(env.beta, flat).reshape(prev.shape)
    h = tangent_projection(prev, F)
    zs, plain_se = [], 0.0
    for D in (Ws - F, Gs - h):
        sums = [D.sum(1)] + [(D * prev[:, :, k : k + 1]).sum(1) for k in range(d)]
        for j, s_r in enumerate(sums):  # (R, d): per-replication sums
            se = s_r.std(0, ddof=1) / math.sqrt(R)
            keep = se > 1e-12
            zs.extend(np.abs(s_r.mean(0)[keep] / se[keep]).tolist())
            if j == 0:
                plain_se = max(plain_se, float(se.max()))
    moved = float(np.degrees(np.arccos(np.clip((prev[:, 0] * V).sum(1), -1, 1))).mean())
    checked = flat[:: max(1, flat.shape[0] // TABLE_CHECKED)]
    return {
        "z": zs,
        "resolution": (DETECT_Z + POWER_Z) * plain_se / n,
        "moved": moved,
        "count": len(zs),
        "table_deviation": table.deviation(env.beta, checked),
        "table_checked": int(checked.shape[0]),
    }


def trajectory_statistics(params: tuple) -> dict:
    """:func:`martingale_statistics` of the ``i``-th paper link (key ``key``) at Δ = 0.2, d = 3
    with random v*, θ (geometry seed 300 + i), ``R`` replications × ``n`` rounds, draws seeded
    ``seed + i`` and start angles ``seed + 100 + i``, γ = 10, t0 = 20: one cell of the
    conditional-field trajectory claims, ``params`` = (i, key, R, n, seed, field_factor,
    panels) (``panels``: of the field table)."""
    i, key, R, n, seed, field_factor, panels = params
    env = Environment.build(
        PAPER_LINKS[key].link(),
        "0.2",
        3,
        v_star="random",
        theta_dir="random",
        geometry_seed=300 + i,
    )
    return martingale_statistics(
        env,
        R,
        n,
        seed + i,
        seed + 100 + i,
        gamma=10.0,
        t0=20.0,
        field_factor=field_factor,
        table_panels=panels,
    )
