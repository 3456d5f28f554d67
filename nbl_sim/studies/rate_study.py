"""The empirical regret-rate study (thm:regret-rate, prop:localized-estimation,
lem:finite-horizon-localization, eq:error-to-regret): does NBL behave as proved, and where do the
proof's conditions bite?

Five parts, each a list of independent cells run through :func:`nbl_sim.runs.sweep.run_sweep` (any
executor: in-process, local pool, Dask), cached per cell, resumable:

``regret``
    Stable settings (logistic and two-transition mu2 = −1.074037 at Δ = 1), d ∈ dims, horizons n
    from 10³ to 10⁵, n0 = ⌈C0 (d + log n)⌉, t0 = n0 (C_off = 1), γ = 1/κ (2γκ = 2, κ the slowest
    exact local rate in d ≥ 3). Per replication: Stage I and Stage II regret for every n (common
    random numbers: the runs for smaller n use a prefix of the same realization), and on the
    longest run ‖v_t − v*‖² on a log grid of t with the exit time τ from the radius r0 of
    :func:`nbl_sim.studies.regret_geometry.stability_radius`.
``gamma``
    d = 2, logistic at Δ = 1, start at a fixed angle, γ on both sides of γ_c = 1/(2κ): the decay
    exponent of E[‖v_t − v*‖² 1{τ > t}] against min(1, 2γκ) and against the exact linearized
    recursion on the same window.
``localization``
    P(τ ≤ n) against n0 (t0 = n0) for d = 2 and d = 8.
``contrast``
    The unstable two-transition link mu2 = 1.244122 at Δ = 0.2 (10° start, the paper's γ = 10,
    t0 = 500) next to the stable mu2 = −1.074037 in the same setting: how R_n grows.

Statistics: means with standard errors over replications; growth models a + b f(n) fitted by
generalized least squares with the replication covariance of the means across n (the horizons
share realizations), compared by χ² (equal parameter counts, so AIC ranks the same);
log-log slopes with bootstrap percentile intervals over replications (seeded).
"""

from __future__ import annotations

import collections.abc
import functools
import hashlib
import math
import numbers
import time
from dataclasses import dataclass, field

import numpy as np

from nbl_theory.errors import NBLInputError
from nbl_theory.links import Link
from nbl_theory.paper import paper_link

from .. import engine
from ..engine.buffers import reused
from ..engine.contract import GAMMA, T0
from ..engine.environment import Environment
from ..engine.metrics import instantaneous_regret_into
from ..engine.realization import Realization
from ..runs.execution import Executor, executor_for
from ..runs.sweep import ChunkCache, run_sweep

__all__ = ["StudyConfig", "QUICK", "FULL", "run_study", "StudyResult", "plan"]


@dataclass(frozen=True)
class StudyConfig:
    """The settings of the regret-rate study (:data:`FULL`, :data:`QUICK`).

    Five parts, each a list of simulation cells: regret growth (``links`` at ``delta`` for
    every d in ``dims`` and n in ``ns``, ``reps`` replications, n0 = ⌈C0 (d + log n)⌉),
    its long-horizon arm (``long_*``), the step-size exponent (``gamma_*``: 2γκ over
    ``gamma_multiples``), localization (``loc_*``: the exit frequency against n0) and the
    unstable contrast (``contrast_*``). ``seed`` is the master seed; ``rep_steps_per_cell``
    sizes the cells.

    Parameters
    ----------
    name : str
        The configuration's name (``"full"``, ``"quick"``), recorded with the results.
    links : tuple of str, default ("logistic", "tt-stable")
        Paper link keys of the regret-growth part.
    delta : str, default "1"
        The separation Δ of every part but the contrast.
    dims : tuple of int, default (2, 4, 8, 16)
        Dimensions d of the regret-growth part.
    ns : tuple of int, default (1000, 2154, ..., 100000)
        Horizons n of the regret-growth part.
    reps : int, default 500
        Replications per (link, d).
    C0 : float, default 20.0
        The Stage I constant: n0 = ⌈C0 (d + log n)⌉ (thm:regret-rate); must give n0 < n.
    t_points : int, default 40
        Points of each log-spaced time grid at which the runs are recorded.
    long_links : tuple of str, default ("tt-stable",)
        Links of the long-horizon arm.
    long_dims : tuple of int, default (8, 16)
        Its dimensions.
    long_ns : tuple of int, default (10000, ..., 1000000)
        Its horizons.
    long_reps : int, default 100
        Its replications.
    gamma_link : str, default "logistic"
        The link of the step-size part (d = 2).
    gamma_multiples : tuple of float, default (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)
        The values of 2γκ tried (γ = multiple / (2κ)).
    gamma_n : int, default 100000
        The step-size part's horizon.
    gamma_reps : int, default 400
        Its replications (common random numbers across γ).
    gamma_t0 : float, default 100.0
        Its step-size offset t0 of η_t = γ/(t + t0).
    gamma_start_deg : float, default 20.0
        The initial angle of v from v*, degrees (no Stage I).
    loc_dims : tuple of int, default (2, 8)
        Dimensions of the localization part.
    loc_n0s : tuple of int, default (10, 20, 40, 80, 160, 320)
        The Stage I lengths n0 compared.
    loc_n : int, default 10000
        The localization part's horizon.
    loc_reps : int, default 2000
        Its replications per (d, n0).
    contrast_links : tuple of str, default ("tt-unstable", "tt-stable")
        The links of the unstable contrast.
    contrast_delta : str, default "0.2"
        Its separation Δ.
    contrast_ns : tuple of int, default (1000, ..., 100000)
        Its horizons.
    contrast_reps : int, default 400
        Its replications.
    contrast_gamma : float, default 10.0
        Its step-size constant γ.
    contrast_t0 : float, default 500.0
        Its step-size offset t0.
    contrast_start_deg : float, default 10.0
        Its initial angle of v from v*, degrees.
    seed : int, default 2026
        The master seed every cell's seed is derived from.
    rep_steps_per_cell : float, default 4e7
        The replication-steps × d a cell holds (the size of the work units).
    """

    name: str
    links: tuple = ("logistic", "tt-stable")
    delta: str = "1"
    dims: tuple = (2, 4, 8, 16)
    ns: tuple = (1000, 2154, 4642, 10000, 21544, 46416, 100000)
    reps: int = 500
    C0: float = 20.0
    t_points: int = 40
    # long-horizon arm: where the main grid is still pre-asymptotic (tt-stable in high d)
    long_links: tuple = ("tt-stable",)
    long_dims: tuple = (8, 16)
    long_ns: tuple = (10000, 31623, 100000, 316228, 1000000)
    long_reps: int = 100
    # step-size part (d = 2)
    gamma_link: str = "logistic"
    gamma_multiples: tuple = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)  # values of 2γκ
    gamma_n: int = 100000
    gamma_reps: int = 400
    gamma_t0: float = 100.0
    gamma_start_deg: float = 20.0
    # localization part
    loc_dims: tuple = (2, 8)
    loc_n0s: tuple = (10, 20, 40, 80, 160, 320)
    loc_n: int = 10000
    loc_reps: int = 2000
    # unstable contrast
    contrast_links: tuple = ("tt-unstable", "tt-stable")
    contrast_delta: str = "0.2"
    contrast_ns: tuple = (1000, 2154, 4642, 10000, 21544, 46416, 100000)
    contrast_reps: int = 400
    contrast_gamma: float = GAMMA  # the paper's steps (sec. numerics)
    contrast_t0: float = T0
    contrast_start_deg: float = 10.0
    seed: int = 2026
    rep_steps_per_cell: float = 4e7  # cells hold about this many replication-steps × d

    def __post_init__(self):
        """Checked once, at the door (one line, nothing run): horizons strictly increasing
        positive integers, at least two of them (the log-log fits), the Stage I lengths
        increasing, replication counts positive integers, dimensions distinct integers ≥ 2 (a
        repeated one would run its cells twice and weigh twice in the fits over d; the long
        arm may have none), the cell size a positive finite number."""
        for name, least in (("ns", 2), ("long_ns", 2), ("contrast_ns", 2), ("loc_n0s", 1)):
            v = _whole_tuple(getattr(self, name))
            ok = v is not None and len(v) >= least and all(x > 0 for x in v)
            if not (ok and all(a < b for a, b in zip(v, v[1:]))):
                raise NBLInputError(
                    f"{name} must be at least {least} increasing positive integers, "
                    f"got {getattr(self, name)!r}"
                )
            object.__setattr__(self, name, v)
        for name in ("reps", "long_reps", "gamma_reps", "loc_reps", "contrast_reps"):
            v = _whole(getattr(self, name))
            if not (v is not None and v > 0):
                raise NBLInputError(
                    f"{name} must be a positive integer, got {getattr(self, name)!r}"
                )
            object.__setattr__(self, name, v)
        for name, least in (("dims", 1), ("long_dims", 0), ("loc_dims", 1)):
            v = _whole_tuple(getattr(self, name))
            if not (
                v is not None
                and len(v) >= least
                and all(x >= 2 for x in v)
                and len(set(v)) == len(v)
            ):
                raise NBLInputError(
                    f"{name} must be distinct integers >= 2, got {getattr(self, name)!r}"
                )
            object.__setattr__(self, name, v)
        if not (math.isfinite(self.rep_steps_per_cell) and self.rep_steps_per_cell > 0):
            raise NBLInputError(
                f"rep_steps_per_cell must be positive and finite, got {self.rep_steps_per_cell!r}"
            )


def _whole(x):
    """``x`` as a Python int when its type is a whole number's — Python's or numpy's (e.g. a
    size read from an array) — never a bool; else None."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Integral):
        return None
    return int(x)


def _whole_tuple(v):
    """A sequence of whole numbers as a tuple of Python ints (what the cells' keys and the
    results' JSON hold); None when it is not an ordered sequence (a list, tuple, range or 1-D
    array — not a set, whose order is not the user's, nor a mapping, whose iteration gives its
    keys) or holds anything else."""
    if isinstance(v, np.ndarray):
        if v.ndim != 1:
            return None
    elif isinstance(v, (str, bytes)) or not isinstance(v, collections.abc.Sequence):
        return None
    out = tuple(_whole(x) for x in v)
    return None if any(x is None for x in out) else out


#: The study behind the regret-rate claims and figure (``nbl study``, about 5 min on 2 cores).
FULL = StudyConfig("full")
#: A small version of every part (``nbl study --quick``, a few seconds): for tests and a look.
QUICK = StudyConfig(
    "quick",
    # d = 8 too: two dimensions d >= 3, so the quick claims' gates reach the C (d - c) fit
    dims=(2, 4, 8),
    ns=(300, 1000, 3000),
    reps=40,
    t_points=16,
    long_dims=(4,),
    long_ns=(1000, 3000, 10000),
    long_reps=20,
    gamma_multiples=(0.5, 1.0, 2.0),
    gamma_n=3000,
    gamma_reps=60,
    loc_dims=(2,),
    loc_n0s=(10, 40, 160),
    loc_n=1000,
    loc_reps=200,
    contrast_ns=(300, 1000, 3000),
    contrast_reps=40,
    rep_steps_per_cell=4e6,
)


def _seed(cfg: StudyConfig, *parts) -> int:
    """A seed per (part, setting), derived from the study seed (stable across runs)."""
    h = hashlib.sha256(repr((cfg.seed,) + parts).encode()).digest()
    return int.from_bytes(h[:4], "little")


def _chunks(reps: int, n: int, d: int, budget: float) -> list[tuple[int, int]]:
    per = max(1, min(reps, int(budget // (n * d))))
    return [(a, min(reps, a + per)) for a in range(0, reps, per)]


def _kappa(link: Link, delta: str, d: int) -> float:
    from .rate_theory import local_rates

    return float(local_rates(link, delta, d)["kappa"])


#: λ0(r0) >= R0_FRAC·κ: with γ = 1/κ this makes 2γλ0 = 2·R0_FRAC = 1.5 > 1, the condition of
#: prop:localized-estimation (frac = 1/2 would sit exactly on the boundary 2γλ0 = 1)
R0_FRAC = 0.75


@functools.cache
def _radius(link: str, delta: str, d: int) -> dict:
    """r0 and λ0(r0) of cor:local_stability in dimension d (d = 2: the in-plane computation;
    d ≥ 3: the cap over every tilt, where the slowest rate may be κ_⊥)."""
    from .regret_geometry import stability_radius, stability_radius_cap

    L = paper_link(link)
    r = stability_radius(L, delta, R0_FRAC) if d == 2 else stability_radius_cap(L, delta, R0_FRAC)
    return {"r0": float(r["r0"]), "lambda0": float(r["lambda0"])}


def _r0(link: str, delta: str, d: int) -> float:
    return _radius(link, delta, d)["r0"]


def _log_grid(lo: int, hi: int, k: int) -> np.ndarray:
    return np.unique(np.round(np.geomspace(lo, hi, k)).astype(np.int64))


def _tau(sq: np.ndarray, r0: float) -> np.ndarray:
    """Index (from the first recorded round) of the first ‖v_t − v*‖ > r0, or the length."""
    out = sq > r0 * r0
    first = np.where(out.any(1), out.argmax(1), sq.shape[1])
    return first


# ---------------------------------------------------------------------- cells
#: replications per block of every cell kind (:func:`_in_blocks`): the NBL kernel's lockstep
#: group (nbl_sim.engine.contract.LOCKSTEP); a block of 10⁵ rounds in d = 2 is 39 MB, kept for the
#: next block and cell
_CELL_BLOCK = 8


@dataclass(frozen=True)
class RegretCell:
    link: str
    delta: str
    d: int
    ns: tuple
    C0: float
    gamma: float
    r0: float
    t_grid: tuple
    seed: int
    reps: tuple  # (start, stop)


def regret_cell(c: RegretCell) -> dict:
    """Stage I and II regret at every horizon of ``c.ns`` and the error path at ``c.n_max``, for
    the replications ``c.reps`` (drawn in blocks, :func:`_in_blocks`)."""
    env = Environment.build(paper_link(c.link), c.delta, c.d)
    n0s = [math.ceil(c.C0 * (c.d + math.log(n))) for n in c.ns]
    out = _in_blocks(
        env, c.seed, c.reps, max(c.ns), max(n0s), lambda real: _regret_block(c, env, n0s, real)
    )
    return {**out, "n0s": np.array(n0s)}


def _in_blocks(env: Environment, seed: int, reps: tuple, n: int, n0: int, fn) -> dict:
    """``fn(realization)`` on the replications ``range(*reps)``, drawn in blocks of
    :data:`_CELL_BLOCK` into one realization buffer kept by the thread
    (:mod:`nbl_sim.engine.buffers`),
    its arrays joined along the replications. A cell drawn whole
    (200 replications × 10⁵ rounds: 1.4 GB) faulted fresh pages in every time: 22.0 of 40.0 s
    of CPU was system time for 12 cells on a 2-core VM (benchmarks/bench_study_cells.py).
    Replication r's numbers do not depend on its block (its streams are its own), and ``fn``
    must return arrays that do not view the buffer."""
    reps = range(*reps)
    if not reps:  # as Environment.draw refuses it (a block size of 0 would fail in range())
        raise NBLInputError("no replications requested")
    B = min(_CELL_BLOCK, len(reps))
    shape = (B, n, n0, env.d)
    with reused(
        ("study-realization",) + shape,
        lambda: Realization.empty(*shape),
        int(B * Realization.bytes_per_replication(n, n0, env.d)),
    ) as buf:
        parts = [
            fn(engine.draw(env, seed, reps[i : i + B], n, n0, out=buf))
            for i in range(0, len(reps), B)
        ]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _regret_block(c: RegretCell, env: Environment, n0s: list, real) -> dict:
    """:func:`regret_cell` on the replications of one drawn block ``real``."""
    opt = real.optimal  # a*(X_t), drawn with the realization (= env.optimal_actions)
    R, nmax = real.X.shape[0], max(c.ns)
    stage1 = np.empty((R, len(c.ns)))
    stage2 = np.empty((R, len(c.ns)))
    grid = np.asarray(c.t_grid, dtype=np.int64)
    regret = np.empty((R, nmax))
    for k, (n, n0) in enumerate(zip(c.ns, n0s)):
        last = n == nmax
        rec = np.arange(n0, n + 1) if last else np.array([n0, n])
        tr = engine.nbl(
            real.X[:, :n],
            real.Y[:, :n],
            real.coins[:, :n0],
            env.v_star,
            gamma=c.gamma,
            t0=float(n0),
            record_rounds=rec,
            record_angle=False,
        )
        r = instantaneous_regret_into(real.means, tr.actions, opt[:, :n], regret[:, :n])
        stage1[:, k] = r[:, :n0].sum(1)
        stage2[:, k] = r[:, n0:].sum(1)
        if last:
            sq = tr.sq_error  # rounds n0..n
            tau = _tau(sq, c.r0) + n0  # first round outside r0 (n + 1: never)
            e_grid = sq[:, grid - n0]
            e_n0 = sq[:, 0].copy()
    return {"stage1": stage1, "stage2": stage2, "e_grid": e_grid, "tau": tau, "e_n0": e_n0}


@dataclass(frozen=True)
class GammaCell:
    link: str
    delta: str
    gamma: float
    t0: float
    n: int
    start_deg: float
    r0: float
    t_grid: tuple
    seed: int
    reps: tuple


def _from_angle(c: GammaCell | ContrastCell, n: int, record_rounds, record_angle: bool, fn):
    """``fn(env, realization, trace)`` of NBL from ``c.start_deg`` (no Stage I) for ``n`` rounds
    on the replications ``c.reps`` of the paper link ``c.link`` at Δ = ``c.delta``, d = 2, in
    blocks (:func:`_in_blocks`)."""
    env = Environment.build(paper_link(c.link), c.delta, 2)
    v0 = env.initial_direction(c.start_deg)

    def block(real):
        tr = engine.nbl(
            real.X,
            real.Y,
            real.coins,
            env.v_star,
            v0=v0,
            gamma=c.gamma,
            t0=c.t0,
            record_rounds=record_rounds,
            record_angle=record_angle,
        )
        return fn(env, real, tr)

    return _in_blocks(env, c.seed, c.reps, n, 0, block)


def gamma_cell(c: GammaCell) -> dict:
    grid = np.asarray(c.t_grid, dtype=np.int64)
    return _from_angle(
        c,
        c.n,
        np.arange(0, c.n + 1),
        False,
        lambda env, real, tr: {
            "e_grid": tr.sq_error[:, grid],
            "tau": _tau(tr.sq_error, c.r0),
            "e_0": tr.sq_error[:, 0].copy(),
        },
    )


@dataclass(frozen=True)
class LocCell:
    link: str
    delta: str
    d: int
    n0: int
    n: int
    gamma: float
    r0: float
    seed: int
    reps: tuple


def loc_cell(c: LocCell) -> dict:
    env = Environment.build(paper_link(c.link), c.delta, c.d)

    def block(real):  # (means unused)
        sq = engine.nbl(
            real.X,
            real.Y,
            real.coins,
            env.v_star,
            gamma=c.gamma,
            t0=float(c.n0),
            record_rounds=np.arange(c.n0, c.n + 1),
            record_angle=False,
        ).sq_error
        return {
            "exit": (sq > c.r0 * c.r0).any(1),
            "start_out": sq[:, 0] > c.r0 * c.r0,
            "e_n0": sq[:, 0].copy(),
        }

    return _in_blocks(env, c.seed, c.reps, c.n, c.n0, block)


@dataclass(frozen=True)
class ContrastCell:
    link: str
    delta: str
    ns: tuple
    gamma: float
    t0: float
    start_deg: float
    seed: int
    reps: tuple


def contrast_cell(c: ContrastCell) -> dict:
    # R_n at n in ns: the values of np.cumsum of the instantaneous regret, bit for bit
    return _from_angle(
        c,
        max(c.ns),
        np.asarray(c.ns),
        True,
        lambda env, real, tr: {
            "regret": engine.regret(env, real, tr.actions, np.asarray(c.ns)),
            "angle": tr.angle,
        },
    )


# ---------------------------------------------------------------------- the study
@dataclass
class StudyResult:
    """The raw results of :func:`run_study`, per part (arrays keyed as in the comments), with
    the exact constants used (γ, κ, r0, time grids), failed cells and where they ran;
    :meth:`analysis` computes every statistic.

    Parameters
    ----------
    config : StudyConfig
        The settings that produced it.
    regret : dict, default {}
        (link, d) -> arrays of the regret-growth part.
    regret_long : dict, default {}
        (link, d) -> arrays of the long-horizon arm.
    gamma : dict, default {}
        2γκ multiple -> arrays of the step-size part.
    localization : dict, default {}
        (d, n0) -> arrays of the localization part.
    contrast : dict, default {}
        link -> arrays of the unstable contrast.
    constants : dict, default {}
        The exact constants used: γ, κ, r0 and the time grids.
    failures : list of CellFailure, default []
        The cells that failed.
    seconds : float, default 0.0
        The wall time.
    executor : str, default ""
        Where the cells ran (``"cache"`` when none was computed).
    cached : int, default 0
        Cells read from the cache.
    computed : int, default 0
        Cells computed in this run.
    """

    config: StudyConfig
    regret: dict = field(default_factory=dict)  # (link, d) -> arrays
    regret_long: dict = field(default_factory=dict)  # (link, d) -> arrays, long horizons
    gamma: dict = field(default_factory=dict)  # 2γκ multiple -> arrays
    localization: dict = field(default_factory=dict)  # (d, n0) -> arrays
    contrast: dict = field(default_factory=dict)  # link -> arrays
    constants: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)
    seconds: float = 0.0
    executor: str = ""
    cached: int = 0
    computed: int = 0

    def analysis(self) -> dict:
        """Every statistic of the study (see :mod:`nbl_sim.studies.rate_analysis`).

        Returns
        -------
        dict
            The fitted slopes, rates and tables of :func:`nbl_sim.studies.rate_analysis.analyze`.
        """
        from .rate_analysis import analyze

        return analyze(self)


def _regret_cells(
    cfg: StudyConfig, part: str, link: str, d: int, ns, reps: int, gamma: float, r0: float
) -> tuple[np.ndarray, list]:
    """The time grid and the :class:`RegretCell` chunks of one (link, d) at the horizons ``ns``:
    n0 = ⌈C0 (d + log n_max)⌉ (thm:regret-rate), a log grid from n0 to n_max, the seed of
    ``part``."""
    nmax = max(ns)
    n0 = math.ceil(cfg.C0 * (d + math.log(nmax)))
    grid = _log_grid(n0, nmax, cfg.t_points)
    seed = _seed(cfg, part, link, d)
    return grid, [
        RegretCell(
            link, cfg.delta, d, tuple(ns), cfg.C0, gamma, r0, tuple(int(x) for x in grid), seed, ch
        )
        for ch in _chunks(reps, nmax, d, cfg.rep_steps_per_cell)
    ]


def plan(cfg: StudyConfig) -> tuple[list, dict]:
    """The cells of the study (in a fixed order) and the constants they depend on.

    Parameters
    ----------
    cfg : StudyConfig
        The settings.

    Returns
    -------
    cells : list
        The simulation cells.
    constants : dict
        γ, κ, r0, the time grids and the other constants the cells use.

    Raises
    ------
    NBLInputError
        A (d, n) with n0 = ⌈C0 (d + log n)⌉ ≥ n.
    """
    from .rate_theory import tangent_noise

    bad = [
        (d, n)
        for dims, ns in ((cfg.dims, cfg.ns), (cfg.long_dims, cfg.long_ns))
        for d in dims
        for n in ns
        if math.ceil(cfg.C0 * (d + math.log(n))) >= n
    ]
    if bad:
        raise NBLInputError(
            f"n0 = ceil(C0 (d + log n)) must be < n (thm:regret-rate); with "
            f"C0 = {cfg.C0:g} it is not for (d, n) = {bad}"
        )
    const: dict = {"gamma": {}, "kappa": {}, "r0": {}, "t_grid": {}}
    cells: list = []
    for link in cfg.links:
        L = paper_link(link)
        kap = _kappa(L, cfg.delta, 3)
        gamma = round(1.0 / kap, 2)
        const["gamma"][link], const["kappa"][link] = gamma, kap
        for d in sorted(set(cfg.dims) | set(cfg.long_dims) | set(cfg.loc_dims)):
            rad = _radius(link, cfg.delta, d)
            const["r0"][(link, d)] = rad["r0"]
            const.setdefault("two_gamma_lambda0", {})[(link, d)] = 2 * gamma * rad["lambda0"]
        for d in cfg.dims:
            grid, part = _regret_cells(
                cfg, "regret", link, d, cfg.ns, cfg.reps, gamma, const["r0"][(link, d)]
            )
            const["t_grid"][(link, d)] = grid.tolist()
            cells += part
    const["t_grid_long"] = {}
    for link in cfg.long_links:
        for d in cfg.long_dims:
            grid, part = _regret_cells(
                cfg,
                "regret-long",
                link,
                d,
                cfg.long_ns,
                cfg.long_reps,
                const["gamma"][link],
                const["r0"][(link, d)],
            )
            const["t_grid_long"][(link, d)] = grid.tolist()
            cells += part
    # step size
    Lg = paper_link(cfg.gamma_link)
    kg = _kappa(Lg, cfg.delta, 2)
    noise = tangent_noise(Lg, cfg.delta)
    const["gamma_kappa"], const["gamma_sigma2"] = kg, float(noise["sigma2_theta"])
    r0g = _r0(cfg.gamma_link, cfg.delta, 2)
    const["gamma_r0"] = r0g
    tg = _log_grid(1, cfg.gamma_n, cfg.t_points)
    const["gamma_t_grid"] = tg.tolist()
    for mult in cfg.gamma_multiples:
        seed = _seed(cfg, "gamma")  # common random numbers across γ
        for ch in _chunks(cfg.gamma_reps, cfg.gamma_n, 2, cfg.rep_steps_per_cell):
            cells.append(
                GammaCell(
                    cfg.gamma_link,
                    cfg.delta,
                    mult / (2 * kg),
                    cfg.gamma_t0,
                    cfg.gamma_n,
                    cfg.gamma_start_deg,
                    r0g,
                    tuple(int(x) for x in tg),
                    seed,
                    ch,
                )
            )
    # localization (first study link)
    L0 = cfg.links[0]
    const["loc_r0"] = {d: const["r0"][(L0, d)] for d in cfg.loc_dims}
    for d in cfg.loc_dims:
        for n0 in cfg.loc_n0s:
            seed = _seed(cfg, "loc", d)  # common random numbers across n0
            for ch in _chunks(cfg.loc_reps, cfg.loc_n, d, cfg.rep_steps_per_cell):
                cells.append(
                    LocCell(
                        L0,
                        cfg.delta,
                        d,
                        n0,
                        cfg.loc_n,
                        const["gamma"][L0],
                        const["loc_r0"][d],
                        seed,
                        ch,
                    )
                )
    # contrast
    for link in cfg.contrast_links:
        seed = _seed(cfg, "contrast")  # common random numbers across links
        for ch in _chunks(cfg.contrast_reps, max(cfg.contrast_ns), 2, cfg.rep_steps_per_cell):
            cells.append(
                ContrastCell(
                    link,
                    cfg.contrast_delta,
                    tuple(cfg.contrast_ns),
                    cfg.contrast_gamma,
                    cfg.contrast_t0,
                    cfg.contrast_start_deg,
                    seed,
                    ch,
                )
            )
    return cells, const


_FN = {
    RegretCell: regret_cell,
    GammaCell: gamma_cell,
    LocCell: loc_cell,
    ContrastCell: contrast_cell,
}


def study_cell(cell):
    """Dispatch one cell (top-level, so any executor can run it)."""
    return _FN[type(cell)](cell)


def _work(cell) -> float:
    if isinstance(cell, RegretCell):
        return (cell.reps[1] - cell.reps[0]) * sum(cell.ns) * (cell.d + 4)
    if isinstance(cell, LocCell):
        return (cell.reps[1] - cell.reps[0]) * cell.n * (cell.d + 4)
    n = cell.n if isinstance(cell, GammaCell) else max(cell.ns)
    return (cell.reps[1] - cell.reps[0]) * n * 6


def _stack(parts: list[dict]) -> dict:
    keys = parts[0].keys()
    out = {}
    for k in keys:
        if k == "n0s":
            out[k] = parts[0][k]
        else:
            out[k] = np.concatenate([p[k] for p in parts])
    return out


def run_study(
    cfg: StudyConfig = FULL,
    *,
    executor: Executor | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    cache: ChunkCache | None = None,
    progress=None,
) -> StudyResult:
    """Run (or load from ``cache``) every cell of the study; results are reassembled in cell
    order, so they do not depend on the executor or on interruptions.

    Parameters
    ----------
    cfg : StudyConfig, default FULL
        The settings (:data:`FULL` or :data:`QUICK`, or your own).
    executor : Executor, optional
        Where the cells run (default: chosen by the work).
    workers : int, optional
        Local worker processes for the default executor.
    scheduler : str, optional
        A Dask scheduler address for the default executor.
    cache : ChunkCache, optional
        Where finished cells are stored and found again.
    progress : callable, optional
        ``progress(done, total)`` in millions of work units (a cell's estimated cost:
        replication-steps × (d + 4) for the regret and localization cells).

    Returns
    -------
    StudyResult
        The raw results of every part.
    """
    tic = time.perf_counter()
    cells, const = plan(cfg)
    with executor_for(
        executor, workers, work=sum(_work(c) for c in cells), scheduler=scheduler
    ) as ex:
        sw = run_sweep(
            study_cell,
            cells,
            executor=ex,
            cache=cache,
            progress=progress,
            weights=[_work(c) / 1e6 for c in cells],
        )
        where = ex.describe() if sw.cached < len(cells) else "cache"  # nothing ran

    def group(c):
        if isinstance(c, RegretCell):
            return ("regret" if c.ns == tuple(cfg.ns) else "regret_long", (c.link, c.d))
        if isinstance(c, GammaCell):
            mult = 2 * c.gamma * const["gamma_kappa"]
            return ("gamma", min(cfg.gamma_multiples, key=lambda m: abs(m - mult)))
        if isinstance(c, LocCell):
            return ("localization", (c.d, c.n0))
        return ("contrast", c.link)

    groups: dict = {}
    for c, r in zip(cells, sw.results):
        if r is not None:
            groups.setdefault(group(c), []).append(r)
    # a setting with a failed chunk is left out (never analysed on fewer replications); its
    # failure is reported
    failed = {group(cells[f.index]) for f in sw.failures}
    res = StudyResult(
        cfg,
        constants=const,
        failures=sw.failures,
        seconds=time.perf_counter() - tic,
        executor=where,
        cached=sw.cached,
        computed=sw.computed,
    )
    for (part, key), parts in groups.items():
        if (part, key) not in failed:
            getattr(res, part)[key] = _stack(parts)
    return res
