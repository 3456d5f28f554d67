"""Monte Carlo experiments: policies on common random numbers, summarized with 95% bands.

:func:`simulate` is a plain function returning data (:class:`SimulationResult`); plotting and the
command line live elsewhere. Replications are cut into chunks; chunk ``c`` draws its replications
from ``SeedSequence(seed).spawn`` (see :mod:`nbl_sim.engine.environment`) and runs every requested
policy on the same realization. Chunks go to an :class:`~nbl_sim.runs.execution.Executor`
(in-process or a local process pool); results are reassembled in replication order, so the numbers
are identical whatever the chunk size, the number of processes or the executor.

Inside a chunk, replications stream in blocks (≤ 4 MB of realization each, or one lockstep group
of the NBL kernel — 8 replications — if that is larger, up to 256 MB; whole groups otherwise)
through one set of buffers: a block is drawn once, every policy runs on it, and
only the recorded rounds are kept (regret R_t by :func:`nbl_sim.engine.metrics.recorded_regret`,
fused with the optimal actions the environment computed while drawing). Memory per chunk is
therefore bounded by the block, not by the number of replications, and the numbers are those of
drawing the whole chunk at once, bit for bit.
"""

from __future__ import annotations

import csv
import math
import os
import platform
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from nbl_theory.errors import NBLInputError
from nbl_theory.records import manifest_text
from nbl_theory.validation import positive_int

from .. import engine
from ..engine.buffers import reused
from ..engine.contract import GAMMA, RIDGE, T0, validate_step
from ..engine.contract import LOCKSTEP as _LOCKSTEP
from ..engine.environment import Environment, Realization
from ..engine.metrics import mc_summary
from ..runs.execution import Executor, SerialExecutor, cpu_count, executor_for, in_worker
from ..runs.outputs import new_run_id, replacing, write_text
from ..runs.sweep import ChunkCache, run_sweep

__all__ = [
    "simulate",
    "SimulationResult",
    "PolicyResult",
    "POLICIES",
    "default_record_rounds",
    "default_n0",
]

#: The policies :func:`simulate` accepts (``nbl simulate --policy``).
POLICIES = ("nbl", "greedy-logistic", "oracle")
_CHUNK_BYTES = 64e6  # nominal realization size of a default chunk (scheduling granularity)
_BLOCK_BYTES = 4e6  # realization memory per block streamed through a chunk (fits in cache)
_GROUP_BYTES = 256e6  # a block holds one whole lockstep group if that takes at most this
#: The most work (replications × rounds × d) of a whole run that runs on the reference backend
#: in a process that has not loaded the compiled one: there, loading numba and the cached
#: kernels (~0.55 s once per process) costs more than the compiled run saves (~0.16 s per 10⁶
#: replication-steps in d = 2, ~0.4 s in d = 8; benchmarks/README.md, "The engine"). The
#: numbers are the same bits either way (tests/sim/test_engine_pin.py); only the time differs.
_REFERENCE_WORK = 4e6


def default_record_rounds(n: int, n0: int, points: int = 500) -> np.ndarray:
    """About ``points`` rounds spread evenly over [0, n], always including n0 and n.

    Parameters
    ----------
    n : int
        The horizon.
    n0 : int
        The initialization rounds (a record at the end of Stage I).
    points : int, default 500
        Intervals of the even grid: rounds rint(k·n/points), k = 0..points.

    Returns
    -------
    (K,) int64 ndarray
        The grid with n0 and n added, sorted without repeats (K <= points + 2; 0 included).
    """
    grid = np.unique(np.rint(np.linspace(0, n, points + 1)).astype(np.int64))
    return np.unique(np.concatenate([grid, [n0, n]]))


@dataclass
class PolicyResult:
    """Per-replication trajectories of one policy at the recorded rounds.

    ``regret`` (R, K) is R_t (eq:regret); ``sq_error`` and ``angle`` (radians, d = 2) are NaN where
    undefined (Stage I of NBL; Greedy Logistic and the oracle have no boundary iterate v_t).

    Parameters
    ----------
    name : str
        The policy (one of :data:`POLICIES`).
    regret : (R, K) float64 ndarray
        R_t at the recorded rounds.
    sq_error : (R, K) float64 ndarray
        ‖v_t − v*‖² at the recorded rounds (NaN where undefined).
    angle : (R, K) float64 ndarray
        The signed angle α_t in radians (NaN where undefined, and for d ≠ 2).
    seconds : float
        The policy's compute time, summed over chunks.
    info : dict, default {}
        The policy's diagnostics, merged over chunks (e.g. NBL's ``degenerate_init``, Greedy
        Logistic's Newton counts).
    """

    name: str
    regret: np.ndarray
    sq_error: np.ndarray
    angle: np.ndarray
    seconds: float
    info: dict = field(default_factory=dict)


@dataclass
class SimulationResult:
    """One :func:`simulate` run: the run's ``params`` (link, Δ, d, n, reps, seed, ...), the
    ``environment`` it drew (context law, arms, optimal reward), the recorded rounds
    ``record_rounds``, ``policies`` {name: :class:`PolicyResult`}, the wall ``seconds`` and
    the ``executor`` it ran on; :meth:`band` and :meth:`summary` compute the statistics.

    Parameters
    ----------
    params : dict
        The run's parameters: ``n``, ``reps``, ``n0``, ``init_angle``, ``gamma``, ``t0``,
        ``policies``, ``seed``, ``d``, ``intercept`` and ``ridge`` (None without Greedy
        Logistic) and ``chunk_size``.
    environment : dict
        :meth:`nbl_sim.engine.environment.Environment.describe` of the environment drawn.
    record_rounds : (K,) int64 ndarray
        The recorded rounds, strictly increasing in [0, n].
    policies : dict
        {name: :class:`PolicyResult`}, in the order requested.
    seconds : float
        The wall time of the run.
    executor : str
        The executor's description (with ``", N threads"`` when the blocks ran on N threads),
        or ``"cache"`` when every chunk came from the cache.
    """

    params: dict
    environment: dict
    record_rounds: np.ndarray
    policies: dict
    seconds: float
    executor: str

    # ------------------------------------------------------------------ summaries
    def band(self, policy: str, metric: str) -> dict:
        """Pointwise mean ± 1.96 SE over replications of ``metric`` ∈ {regret, avg_regret,
        angle_deg, sq_error} at :attr:`record_rounds`.

        Parameters
        ----------
        policy : str
            A policy of the run (a key of ``policies``).
        metric : {"regret", "avg_regret", "angle_deg", "sq_error"}
            R_t, R_t/t (NaN at t = 0), α_t in degrees, or ‖v_t − v*‖².

        Returns
        -------
        dict
            :func:`nbl_sim.engine.metrics.mc_summary` of the metric: ``mean``, ``se``, ``lo``,
            ``hi`` (arrays of length K) and ``reps``.

        Raises
        ------
        NBLInputError
            If ``metric`` is unknown.
        KeyError
            If ``policy`` was not run.
        """
        p = self.policies[policy]
        t = self.record_rounds.astype(float)
        if metric == "regret":
            vals = p.regret
        elif metric == "avg_regret":
            with np.errstate(invalid="ignore", divide="ignore"):
                vals = np.where(t > 0, p.regret / np.where(t > 0, t, 1), np.nan)
        elif metric == "angle_deg":
            vals = np.degrees(p.angle)
        elif metric == "sq_error":
            vals = p.sq_error
        else:
            raise NBLInputError(f"unknown metric {metric!r}")
        return mc_summary(vals)

    def summary(self) -> dict:
        """Per policy: final R_n mean and SE, R_n/n, final angle (d = 2) and ‖v_n − v*‖².

        Returns
        -------
        dict
            {policy: {``final_regret_mean``, ``final_regret_se``, ``final_avg_regret_mean``,
            ``final_angle_deg_mean``, ``final_angle_deg_se`` (None unless d = 2),
            ``final_sq_error_mean``, ``final_sq_error_se``, ``seconds``, and the policy's
            ``info`` entries}}, at the last recorded round; NaN is written None.
        """
        out = {}
        n = self.params["n"]
        for name, p in self.policies.items():
            reg = mc_summary(p.regret[:, -1])
            ang = mc_summary(np.degrees(p.angle[:, -1])) if self.params["d"] == 2 else None
            out[name] = {
                **_mean_se("final_regret", reg),
                "final_avg_regret_mean": _num(reg["mean"] / n),
                **_mean_se("final_angle_deg", ang),
                **_mean_se("final_sq_error", mc_summary(p.sq_error[:, -1])),
                "seconds": round(p.seconds, 4),
                **{k: v for k, v in p.info.items()},
            }
        return out

    def to_json(self) -> dict:
        """The run as JSON: params, environment, executor, seconds and the :meth:`summary`.

        Returns
        -------
        dict
            ``params``, ``environment``, ``executor``, ``seconds`` (rounded to 0.1 ms) and
            ``policies`` (:meth:`summary`).
        """
        out = {k: getattr(self, k) for k in ("params", "environment", "executor")}
        return {**out, "seconds": round(self.seconds, 4), "policies": self.summary()}

    # ------------------------------------------------------------------ files
    def write(self, out_dir, run_id: str | None = None) -> list[Path]:
        """Write per-replication trajectories (CSV), the band summary (CSV) and a manifest
        (with ``run_id``, :func:`nbl_sim.runs.outputs.new_run_id` if None, and the file names).

        Parameters
        ----------
        out_dir : str or path-like
            The directory (created if missing); files of the same names are replaced.
        run_id : str, optional
            The manifest's run id; None makes a new one.

        Returns
        -------
        list of pathlib.Path
            ``trajectories_<policy>.csv`` and ``bands_<policy>.csv`` for each policy, then
            ``manifest.json``.
        """
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        files = []
        rounds = self.record_rounds
        for name, p in self.policies.items():
            path = out / f"trajectories_{name}.csv"
            with replacing(path) as tmp, tmp.open("w", newline="") as fh:
                w = csv.writer(fh)
                w.writerow(
                    ["replication", "round", "regret", "avg_regret", "angle_deg", "sq_error"]
                )
                for r in range(p.regret.shape[0]):
                    for k, t in enumerate(rounds):
                        reg = p.regret[r, k]
                        w.writerow(
                            [
                                r,
                                int(t),
                                _csv(reg),
                                _csv(reg / t if t else math.nan),
                                _csv(math.degrees(p.angle[r, k])),
                                _csv(p.sq_error[r, k]),
                            ]
                        )
            files.append(path)
            path = out / f"bands_{name}.csv"
            metrics = ("regret", "avg_regret", "angle_deg", "sq_error")
            bands = {m: self.band(name, m) for m in metrics}
            with replacing(path) as tmp, tmp.open("w", newline="") as fh:
                w = csv.writer(fh)
                w.writerow(
                    ["round"] + [f"{m}_{s}" for m in metrics for s in ("mean", "se", "lo", "hi")]
                )
                for k, t in enumerate(rounds):
                    w.writerow(
                        [int(t)]
                        + [
                            _csv(bands[m][s][k])
                            for m in metrics
                            for s in ("mean", "se", "lo", "hi")
                        ]
                    )
            files.append(path)
        manifest = out / "manifest.json"
        data = self.to_json()
        data["versions"] = package_versions()
        write_text(
            manifest,
            manifest_text(
                "simulate", [data], [f.name for f in files], run_id=run_id or new_run_id()
            ),
        )
        files.append(manifest)
        return files


def _check_finite(res: PolicyResult, env) -> None:
    """Regrets (and NBL's final ‖v_n − v*‖²) must be finite: a run whose arithmetic left
    float64 is an error naming the environment, never a table of NaN."""
    bad = not np.all(np.isfinite(res.regret))
    if res.name == "nbl" and res.sq_error.size:
        bad = bad or not np.all(np.isfinite(res.sq_error[:, -1]))
    if bad:
        spec = getattr(env.contexts, "spec", "gaussian")
        raise NBLInputError(
            f"simulate: {res.name} produced non-finite values with contexts "
            f"{spec!r}: the input is out of the range float64 can simulate "
            "(rescale or standardize the contexts)"
        )


def _num(x):
    x = float(x)
    return None if math.isnan(x) else x


def _mean_se(key: str, summary: dict | None) -> dict:
    """``{key_mean, key_se}`` of an :func:`mc_summary` (None for both when there is none)."""
    if summary is None:
        return {f"{key}_mean": None, f"{key}_se": None}
    return {f"{key}_mean": _num(summary["mean"]), f"{key}_se": _num(summary["se"])}


def _csv(x) -> str:
    x = float(x)
    return "" if math.isnan(x) else repr(x)


def package_versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for pkg in ("nbl", "numpy", "scipy", "numba", "sympy", "mpmath", "python-flint"):
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:  # pragma: no cover
            out[pkg] = None
    return out


# ---------------------------------------------------------------------- the chunk task
@dataclass(frozen=True)
class _Task:
    env: Environment
    seed: int
    reps: tuple
    n: int
    n0: int
    v0: np.ndarray | None
    gamma: float
    t0: float
    policies: tuple
    record_rounds: np.ndarray
    intercept: bool
    ridge: float
    #: the engine backend, chosen once for the whole run (:func:`_backend`); how the chunk is
    #: computed, not what: both backends give the same bits, so it is not part of the chunk's
    #: cache key (:func:`nbl_sim.runs.sweep.canonical`)
    backend: str = field(default="compiled", metadata={"cache_key": False})
    #: threads running the chunk's blocks (:func:`_block_threads`); not part of the key either
    threads: int = field(default=1, metadata={"cache_key": False})


def _block_size(R: int, n: int, n0: int, d: int) -> int:
    """Replications per streamed block: ≤ ``_BLOCK_BYTES`` of realization (at least one), in
    whole lockstep groups of the NBL kernel — at least one group when it takes at most
    ``_GROUP_BYTES`` (the kernel advances LOCKSTEP replications together; a partial group runs
    them one by one, ~2.1–2.7× slower per replication in d = 3 and 8)."""
    per_rep = Realization.bytes_per_replication(n, n0, d)
    return min(R, _lockstep_multiple(max(1, int(_BLOCK_BYTES // per_rep)), per_rep))


def _lockstep_multiple(size: int, per_rep: float) -> int:
    """``size`` rounded down to whole lockstep groups, up to one group if that is small."""
    if size >= _LOCKSTEP:
        return size - size % _LOCKSTEP
    return _LOCKSTEP if _LOCKSTEP * per_rep <= _GROUP_BYTES else size


def _backend(env, reps: int, n: int, policies) -> str:
    """The engine backend of a run: the reference when the whole run is small
    (:data:`_REFERENCE_WORK`), runs no Greedy Logistic (whose reference refits are Python loops),
    the environment is an :class:`Environment` itself (the reference does not follow a
    subclass's own context draw) and this process has not loaded numba; else the compiled one.
    Both give the same bits, so the choice moves no number. Chosen for the run, not per chunk:
    a large run cut into small chunks is still large (per chunk, 1,000 replications × 10⁴
    rounds in d = 2 ran every chunk on the reference, 4× slower)."""
    small = reps * n * env.d <= _REFERENCE_WORK
    if (
        small
        and "greedy-logistic" not in policies
        and type(env) is Environment
        and "numba" not in sys.modules
    ):
        return "reference"
    return "compiled"


#: the most threads a run's blocks use in one process
MAX_BLOCK_THREADS = 8


def _block_threads(ex: Executor, workers: int | None) -> int:
    """Threads for the blocks of an in-process run: every core this process may use (at most
    :data:`MAX_BLOCK_THREADS`) when the run is in-process by the automatic choice; one when
    ``workers`` is given (``workers=1``: one core), on a pool or Dask (their workers are the
    parallelism) and inside an executor's task."""
    if workers is not None or not isinstance(ex, SerialExecutor) or in_worker():
        return 1
    return max(1, min(cpu_count(), MAX_BLOCK_THREADS))


def _run_policy(name: str, real, task: _Task, backend: str) -> tuple:
    """Actions (R, n), ‖v_t − v*‖² and α_t on the record grid, and scalar info of one policy."""
    env, rec = task.env, task.record_rounds
    R = len(real.reps)
    if name == "nbl":
        tr = engine.nbl(
            real.X,
            real.Y,
            real.coins,
            env.v_star,
            v0=task.v0,
            gamma=task.gamma,
            t0=task.t0,
            record_rounds=rec,
            backend=backend,
        )
        return (
            tr.actions,
            _align(tr.record_rounds, tr.sq_error, rec),
            _align(tr.record_rounds, tr.angle, rec),
            {"degenerate_init": tr.info["degenerate_init"]},
        )
    if name == "greedy-logistic":
        actions, gl_info = engine.greedy_logistic(
            real.X, real.Y, real.coins, intercept=task.intercept, ridge=task.ridge, backend=backend
        )
        info = {
            k: v.item() for k, v in ((k, np.asarray(v)) for k, v in gl_info.items()) if v.ndim == 0
        }
    elif env.shared_link:
        actions, info = engine.oracle(real.X, env.v_star, backend=backend), {}
    else:  # per-arm links: the oracle plays argmax_a m_a(x), drawn with the realization
        actions, info = real.optimal.copy(), {}
    nan = np.full((R, rec.size), np.nan)
    return actions, nan, nan, info


def _merge_info(acc: dict, info: dict) -> None:
    """Add counts, keep the maximum of per-item maxima (``per_`` keys)."""
    for k, v in info.items():
        acc[k] = max(acc.get(k, v), v) if "per_" in k else acc.get(k, 0) + v


def _run_chunk(task: _Task) -> dict:
    """Every policy on the chunk's replications, streamed in blocks through fixed buffers (kept
    for the next chunk or call of this thread, :mod:`nbl_sim.engine.buffers`): each block is drawn
    once (common random numbers) and every policy runs on it; only the recorded rounds are kept.
    Replication r's numbers do not depend on the block, the chunk or the thread.

    With ``task.threads`` > 1 the blocks run on that many threads (the compiled kernels and
    numpy's generators and ufuncs release the GIL); each block writes its own rows, and its
    scalar info is merged in block order after all have run, so the result is the same bits as
    on one thread."""
    env, rec = task.env, task.record_rounds
    R, K = len(task.reps), rec.size
    arrays = {
        name: (np.empty((R, K)), np.empty((R, K)), np.empty((R, K))) for name in task.policies
    }
    if task.backend == "compiled":
        B = _block_size(R, task.n, task.n0, env.d)
        _warm_up(task.policies)  # compiled kernels load outside the timed region
    else:  # the reference loops over rounds in Python: one block, vectorized over the chunk
        B = R
    starts = range(0, R, B)
    threads = min(task.threads, len(starts))
    if threads == 1:
        blocks = [_run_block(task, arrays, i0, B) for i0 in starts]
    else:
        from concurrent.futures import wait

        pool = _block_pool(task.threads)
        futures = [pool.submit(_run_block, task, arrays, i0, B) for i0 in starts]
        try:
            blocks = [f.result() for f in futures]  # the first error in block order is raised
        except BaseException:  # an error or Ctrl-C: the blocks not started are dropped, the
            for f in futures:  # running ones end (they write only this chunk's arrays)
                f.cancel()
            wait(futures)
            raise
    out = {}
    for name in task.policies:
        info: dict = {}
        for block in blocks:
            _merge_info(info, block[name][1])
        out[name] = (*arrays[name], sum(block[name][0] for block in blocks), info)
    return out


#: this process's block threads, kept between chunks and calls so that each thread's realization
#: buffers are reused (:mod:`nbl_sim.engine.buffers`): [pool, its threads, the pid it was made in]
_POOL: list = [None, 0, 0]
_POOL_LOCK = threading.Lock()


def _block_pool(threads: int):
    """This process's pool of ``threads`` block threads: kept, made anew for another count or in
    a forked child (whose copy of the pool has no threads)."""
    from concurrent.futures import ThreadPoolExecutor

    with _POOL_LOCK:
        pool, size, pid = _POOL
        if pool is None or size != threads or pid != os.getpid():
            if pool is not None and pid == os.getpid():
                pool.shutdown(wait=False)  # its queued work still runs
            pool = ThreadPoolExecutor(threads, thread_name_prefix="nbl-block")
            _POOL[:] = [pool, threads, os.getpid()]
        return pool


def _run_block(task: _Task, arrays: dict, i0: int, B: int) -> dict:
    """One block of :func:`_run_chunk` — the replications ``task.reps[i0 : i0 + B]``, drawn into
    this thread's buffer — writing its rows of ``arrays`` {policy: (regret, sq, angle)};
    returns {policy: (seconds, info)}."""
    env, rec, backend = task.env, task.record_rounds, task.backend
    shape = (B, task.n, task.n0, env.d)
    done = {}
    with reused(
        ("realization",) + shape,
        lambda: Realization.empty(*shape),
        int(B * Realization.bytes_per_replication(task.n, task.n0, env.d)),
    ) as buf:
        real = engine.draw(
            env, task.seed, task.reps[i0 : i0 + B], task.n, task.n0, out=buf, backend=backend
        )
        rows = slice(i0, i0 + len(real.reps))
        for name in task.policies:
            regret, sq, ang = arrays[name]
            tic = time.perf_counter()
            try:
                actions, sq[rows], ang[rows], block_info = _run_policy(name, real, task, backend)
            except (ZeroDivisionError, FloatingPointError, OverflowError):
                # arithmetic that left float64 (a compiled kernel raises instead of making
                # NaN): the rows become NaN and the client refuses them (_check_finite)
                for a in (regret, sq, ang):
                    a[rows] = np.nan
                done[name] = (0.0, {})
                continue
            seconds = time.perf_counter() - tic
            engine.regret(env, real, actions, rec, out=regret[rows], backend=backend)
            done[name] = (seconds, block_info)
    return done


def _warm_up(policies) -> None:
    X = np.zeros((1, 2, 2))
    Y = np.zeros((1, 2, 2))
    coins = np.ones((1, 1), dtype=np.int8)
    if "nbl" in policies:
        engine.nbl(X, Y, coins, np.array([1.0, 0.0]), record_rounds=[2])
    if "greedy-logistic" in policies:
        engine.greedy_logistic(X, Y, coins)


def _align(have_rounds, values, want_rounds):
    """Place ``values`` recorded at ``have_rounds`` on the ``want_rounds`` grid (NaN elsewhere)."""
    out = np.full((values.shape[0], want_rounds.size), np.nan)
    pos = np.searchsorted(want_rounds, have_rounds)
    out[:, pos] = values
    return out


# ---------------------------------------------------------------------- the experiment
def default_n0(n: int) -> int:
    """The one default length of the randomized initialization (Stage I of alg:nbl).

    min(200, n // 2), at least 1: the paper's n0 = 200 wherever the horizon leaves at least as
    many rounds for the policy, else half of the horizon. :func:`simulate` and ``nbl simulate``
    both use it.

    Parameters
    ----------
    n : int
        The horizon (rounds), n >= 1.

    Returns
    -------
    int
        The default n0.
    """
    return max(1, min(200, int(n) // 2))


def simulate(
    env: Environment,
    *,
    n: int = 10_000,
    reps: int = 100,
    n0: int | None = None,
    init_angle: float | None = None,
    gamma: float = GAMMA,
    t0: float = T0,
    policies=("nbl",),
    seed: int = 0,
    intercept: bool = True,
    ridge: float = RIDGE,
    record_rounds=None,
    chunk_size: int | None = None,
    executor: Executor | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    cache: ChunkCache | None = None,
    progress=None,
) -> SimulationResult:
    """Run ``policies`` on ``reps`` replications of ``env`` with common random numbers.

    Parameters
    ----------
    env : Environment
        Any environment of :meth:`Environment.build`, including other context laws and arms
        (``contexts=``, ``arms=``): regret is then measured against argmax_a m_a(x) and angles
        from the reference direction (β_+ − β_−)/‖β_+ − β_−‖ (:mod:`nbl_sim.engine.environment`).
    n : int, default 10_000
        Horizon (rounds).
    reps : int, default 100
        Monte Carlo replications.
    n0 : int, optional
        Randomized-initialization rounds (alg:nbl; shared by all policies), in [1, n]. Default
        None: :func:`default_n0` (min(200, n // 2), at least 1) unless ``init_angle`` is given
        (then 0).
    init_angle : float, optional
        Start NBL at this signed angle (degrees, in [−360, 360]) from v* instead
        (app:stochastic-nbl); n0 = 0. Greedy Logistic needs a randomized initialization, so it
        cannot be combined.
    gamma : float, default 10.0
        NBL's step scale γ of η_t = γ/(t + t0) (the paper's).
    t0 : float, default 500.0
        NBL's step offset t0 (the paper's).
    policies : sequence of str, default ("nbl",)
        A non-empty subset of :data:`POLICIES` (repeats dropped, order kept).
    seed : int, default 0
        Master seed; replication r uses ``SeedSequence(seed).spawn(reps)[r]``.
    intercept : bool, default True
        Greedy Logistic's intercept (see :mod:`nbl_sim.engine.greedy_kernel`).
    ridge : float, default 1e-6
        Greedy Logistic's ridge penalty, > 0.
    record_rounds : sequence of int, optional
        Strictly increasing rounds in [0, n] at which trajectories are kept (default None:
        :func:`default_record_rounds`, ~500 evenly spaced plus n0 and n).
    chunk_size : int, optional
        Replications per chunk (default: ≤ 64 MB worth of realization per chunk — a chunk
        streams it through ≤ 4 MB blocks, so this sets only the granularity — and at least
        four chunks per worker; one replication per chunk when Greedy Logistic runs, whose ~n²
        cost per replication dwarfs a chunk's overhead, so ``progress`` moves per replication).
        The numbers do not depend on it.
    executor : nbl_sim.runs.execution.Executor, optional
        The executor to run the chunks on (left open); default None: one made from
        ``workers`` and ``scheduler`` for this run (see
        :func:`nbl_sim.runs.execution.make_executor`).
    workers : int, optional
        Without ``executor``: None runs in-process, a run on the compiled engine without Greedy
        Logistic on every core by threads over its blocks (:func:`_block_threads`; an
        :class:`Environment` itself, not a subclass, whose own draw may not be thread-safe), any
        other run on a process pool when the work (reps·n·d) repays it; 1 runs
        in-process on one core, N starts a pool of N processes. The numbers are the same bits
        whichever.
    scheduler : str, optional
        A Dask scheduler (``tcp://HOST:PORT`` or ``local:N``) instead of local workers.
    cache : nbl_sim.runs.sweep.ChunkCache, optional
        Finished chunks are stored and reused, so an interrupted run resumes (results are bit
        for bit those of an uninterrupted run).
    progress : callable, optional
        ``progress(done_reps, total_reps)``, called as chunks finish.

    Returns
    -------
    SimulationResult
        The recorded trajectories of every policy, the parameters and the environment.

    Raises
    ------
    NBLInputError
        On bad input, before any chunk runs: ``env`` not an Environment, ``n``/``reps`` not
        positive integers, an unknown policy, an invalid step or ridge, ``n0`` with
        ``init_angle``, ``init_angle`` with Greedy Logistic or out of range, ``n0`` outside
        [1, n], invalid ``record_rounds`` or ``chunk_size``, or an
        invalid executor choice. After the run, if a policy's regret (or NBL's final
        ‖v_n − v*‖²) is not finite.
    """
    if not isinstance(env, Environment):
        raise NBLInputError("env must be an nbl_sim Environment (Environment.build(...))")
    n = positive_int(n, "n")
    reps = positive_int(reps, "reps")
    policies = tuple(dict.fromkeys(policies))
    unknown = [p for p in policies if p not in POLICIES]
    if unknown or not policies:
        raise NBLInputError(f"unknown policy {unknown or policies!r}; choose from {POLICIES}")
    validate_step(gamma, t0)
    if not (isinstance(ridge, (int, float)) and math.isfinite(ridge) and ridge > 0):
        raise NBLInputError(
            f"ridge must be > 0 (it makes the logistic fits well defined), got {ridge}"
        )
    if init_angle is not None and n0 is not None:
        raise NBLInputError("give either n0 (randomized initialization) or init_angle, not both")
    v0 = None
    if init_angle is not None:
        if "greedy-logistic" in policies:
            raise NBLInputError(
                "greedy-logistic needs a randomized initialization: use n0 instead of init_angle"
            )
        if not (
            isinstance(init_angle, (int, float))
            and math.isfinite(init_angle)
            and abs(init_angle) <= 360
        ):
            raise NBLInputError(
                f"init_angle must be a number of degrees in [-360, 360], got {init_angle}"
            )
        v0 = env.initial_direction(float(init_angle))
        n0 = 0
    elif n0 is None:
        n0 = default_n0(n)  # n is a positive integer (checked above)
    if isinstance(n0, bool) or not isinstance(n0, (int, np.integer)) or n0 < 0 or n0 > n:
        raise NBLInputError(f"n0 must be an integer in [0, n] = [0, {n}], got {n0!r}")
    if v0 is None and n0 == 0:
        raise NBLInputError(
            "n0 must be >= 1 for the randomized initialization (or give init_angle)"
        )
    rec = (
        default_record_rounds(n, n0)
        if record_rounds is None
        else np.asarray(record_rounds, dtype=np.int64)
    )
    if rec.ndim != 1 or rec.size == 0 or np.any(np.diff(rec) <= 0) or rec[0] < 0 or rec[-1] > n:
        raise NBLInputError("record_rounds must be strictly increasing integers in [0, n]")

    backend = _backend(env, reps, n, policies)
    # a compiled NBL/oracle run uses every core in this process (threads over its blocks), which
    # costs nothing to start: the automatic choice starts no process pool for it. Only for an
    # Environment itself: a subclass's own draw is the user's code, not known to be thread-safe
    threaded = (
        backend == "compiled" and "greedy-logistic" not in policies and type(env) is Environment
    )
    work = 0.0 if threaded else float(reps) * n * env.d
    with executor_for(executor, workers, work=work, scheduler=scheduler) as ex:
        threads = _block_threads(ex, workers) if threaded else 1
        if chunk_size is None:
            per_rep = n * (env.d + 4) * 8.0
            chunk_size = max(1, min(reps, int(_CHUNK_BYTES // per_rep)))
            if ex.workers > 1:
                chunk_size = max(1, min(chunk_size, math.ceil(reps / (4 * ex.workers))))
            if chunk_size < reps:  # whole lockstep groups; one chunk of every replication
                # stays whole (cutting it into 96 + 4 doubled the reference's loop over rounds)
                chunk_size = min(reps, _lockstep_multiple(chunk_size, per_rep))
            if "greedy-logistic" in policies:
                # Greedy Logistic refits on all its data every round (~n² work per
                # replication, seconds to minutes each): one replication per chunk, so the
                # progress advances per replication; the numbers do not depend on the chunking
                chunk_size = 1
        chunk_size = positive_int(chunk_size, "chunk_size")
        chunks = [tuple(range(a, min(reps, a + chunk_size))) for a in range(0, reps, chunk_size)]
        tasks = [
            _Task(
                env,
                seed,
                c,
                n,
                int(n0),
                v0,
                float(gamma),
                float(t0),
                policies,
                rec,
                bool(intercept),
                float(ridge),
                backend,
                threads,
            )
            for c in chunks
        ]
        tic = time.perf_counter()
        sweep = run_sweep(
            _run_chunk,
            tasks,
            executor=ex,
            cache=cache,
            progress=progress,
            weights=[len(c) for c in chunks],
            on_error="raise",
        )
        where = ex.describe() if sweep.cached < len(tasks) else "cache"  # nothing ran
        if threads > 1 and where != "cache":
            where += f", {threads} threads"
    parts = sweep.results
    seconds = time.perf_counter() - tic

    results = {}
    for name in policies:
        stacked = [np.concatenate([p[name][k] for p in parts]) for k in range(3)]
        info: dict = {}
        for p in parts:
            _merge_info(info, p[name][4])
        results[name] = PolicyResult(
            name, *stacked, seconds=sum(p[name][3] for p in parts), info=info
        )
        _check_finite(results[name], env)
    params = {
        "n": n,
        "reps": reps,
        "n0": int(n0),
        "init_angle": init_angle,
        "gamma": gamma,
        "t0": t0,
        "policies": list(policies),
        "seed": seed,
        "d": env.d,
        "intercept": intercept if "greedy-logistic" in policies else None,
        "ridge": ridge if "greedy-logistic" in policies else None,
        "chunk_size": chunk_size,
    }
    return SimulationResult(params, env.describe(), rec, results, seconds, where)
