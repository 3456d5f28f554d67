"""The claims as tasks on the sweep executor: parallel, cached, resumable, reported as they
finish.

:func:`run_claims_parallel` returns the same list of
:class:`~proofs_check.registry.ClaimResult` as :meth:`Registry.run_claims
<proofs_check.registry.Registry.run_claims>` (registration order, same statuses and computed
values) but

* **runs independent claims in parallel** on an executor of :mod:`nbl_sim.runs.execution`
  (:func:`~nbl_sim.runs.execution.make_executor`: a local process pool by default when there are
  several cores and enough work, Dask with ``scheduler`` / ``$NBL_DASK_SCHEDULER``, in-process
  with ``workers=1``). A task runs ``run_claim_task(claim_id, quick)``
  (:mod:`proofs_check.runner_tasks`) — load the registry in the worker, run the claim exactly
  as :meth:`Registry.run_claims <proofs_check.registry.Registry.run_claims>` does, return the
  result as plain data — for one claim or, on a pool, for a batch of consecutive short claims
  of one module (so they share the worker's caches, as in a serial run). A claim that raises,
  or whose worker dies, becomes ``FAIL`` with the reason (a batch whose worker died is re-run
  claim by claim to find the one at fault); no claim is ever lost. Tasks start longest first
  (the CPU seconds of earlier runs, kept in the cache), so the last tasks are short ones;
* **splits heavy claims into cells**: a check following the split protocol
  (:func:`proofs_check.runner_tasks.split_check`) has each cell run as its own task, cached in
  the sweep cache under the sweep's key (shared with the sweep that computes the same cells),
  and is combined in the parent when its last cell arrives;
* **caches each claim's result** (``cache``: a :class:`~nbl_sim.runs.cache.ChunkCache`, see
  :func:`claims_cache`) under :func:`proofs_check.runner_keys.claim_key`: the claim,
  the mode, the source of the claim's module and of everything it imports, and the numerical
  library versions. A re-run recomputes only the claims whose code or inputs changed; ``FAIL``
  results are never cached (they are re-examined every run). A cached result records the
  toolkit commit it was computed at (:func:`proofs_check.report_context.toolkit_commit`);
* **reads a slow claim's full run in quick mode**: a slow claim is not run by a quick check,
  but when the cache holds its *full* result under the key its current code would have
  (the same claim, code, library and versions), that record — with the commit it ran at — is
  attached to the SKIPPED result as ``full_run``, and the report lists its finding as read
  from that run. Without one, the report says the claim's verdict is not known here: a quick
  report never announces a finding it did not read from a computation;
* **writes the report incrementally** (``out_dir``): ``verification.md`` / ``.json`` are
  (re)written atomically when the run starts, as results arrive (at most every
  ``report_every`` seconds) and when it ends or is interrupted, the claims not yet finished
  reported ``SKIPPED`` with :data:`PENDING_DETAIL`. A killed run leaves a valid partial report;
  the same command resumes from the cache to the identical report.
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from nbl_sim.runs.execution import WINDOW_PER_WORKER, SerialExecutor, TaskError, make_executor
from nbl_sim.runs.sweep import ChunkCache
from nbl_theory.errors import NBLInputError

from .registry import FAIL, PENDING_DETAIL, SKIPPED, ClaimResult, Outcome
from .report_context import toolkit_commit
from .runner_keys import claim_keys, load_timings, save_timings
from .runner_tasks import (
    DEFAULT_REGISTRY,
    CellPlan,
    CellResults,
    ReplayExecutor,
    cell_keys,
    is_split,
    load_registry,
    plan_key,
    run_claim_task,
    run_task,
    split_check,
)

__all__ = [
    "run_claims_parallel",
    "run_claim_task",
    "claims_cache",
    "write_partial_report",
    "pending_result",
    "TaskTiming",
    "CellPlan",
    "CellResults",
    "split_check",
    "is_split",
    "ReplayExecutor",
    "PENDING_DETAIL",
    "CLAIMS_NAMESPACE",
    "DEFAULT_REGISTRY",
]

#: The cache namespace of claim results (and of the run-time history).
CLAIMS_NAMESPACE = "claims"
_UNKNOWN_SLOW, _UNKNOWN_QUICK = 60.0, 1.0  # CPU-second guesses for claims never timed
_CHUNKS_PER_WORKER, _MIN_CHUNK = 8, 0.5  # claims batches: >= 8 per worker, >= 0.5 s
_STALE = 600.0  # seconds after which a temporary report directory is debris


@dataclass(frozen=True)
class TaskTiming:
    """One computed task: ``kind`` (``claims``: a batch of claims, ``cell``: a cell of a split
    claim, ``combine``: a split claim combined in this process), ``name`` (the first claim id,
    ``+k`` for k more in the batch, or ``claim-id#i`` for cell i), its CPU and wall seconds, the
    worker's pid and, for a batch, ``parts``: ``((claim id, CPU seconds), ...)``."""

    kind: str
    name: str
    cpu: float
    wall: float
    pid: int
    parts: tuple = ()


def claims_cache(directory=None) -> ChunkCache:
    """The cache of claim results: ``ChunkCache(directory, "claims")`` (``directory`` None: the
    user's cache directory, :func:`nbl_sim.runs.cache.default_cache_dir`)."""
    return ChunkCache(directory, CLAIMS_NAMESPACE)


def pending_result(registry, claim) -> ClaimResult:
    """The placeholder of a claim not yet finished: ``SKIPPED`` with :data:`PENDING_DETAIL`."""
    return _synthetic(registry, claim, SKIPPED, PENDING_DETAIL)


def _synthetic(registry, claim, status: str, detail: str, seconds: float = 0.0) -> ClaimResult:
    res = registry.run_one(dataclasses.replace(claim, check=lambda: Outcome(status, None, detail)))
    return dataclasses.replace(res, seconds=seconds)


#: the extra key of a cached claim result: the toolkit commit it was computed at
COMMIT_KEY = "commit"


def _from_dict(d: dict) -> ClaimResult:
    names = {f.name for f in dataclasses.fields(ClaimResult)}
    if not isinstance(d, dict) or set(d) - {COMMIT_KEY} != names:
        raise ValueError("not a ClaimResult record")
    d = {k: v for k, v in d.items() if k != COMMIT_KEY}
    return ClaimResult(**{**d, "covers": tuple(d["covers"]), "evidence": dict(d["evidence"])})


def _cached_full_run(cache, key) -> dict | None:
    """The cached full-mode result stored under ``key`` as a plain record (the ClaimResult's
    fields and the ``commit`` it ran at, ``""`` when unknown), or None."""
    if cache is None or key is None:
        return None
    hit, value = cache.get(key)
    if not hit:
        return None
    try:
        res = _from_dict(value)
    except (ValueError, TypeError, KeyError):
        return None
    if res.status == SKIPPED:
        return None
    return {**res.to_dict(), COMMIT_KEY: str(value.get(COMMIT_KEY) or "")}


def _with_full_run(res: ClaimResult, full: dict | None) -> ClaimResult:
    """The quick run's SKIPPED result of a slow claim, with its cached full run attached."""
    if full is None:
        return res
    at = f"at commit {full[COMMIT_KEY]}" if full[COMMIT_KEY] else "at an unrecorded commit"
    return dataclasses.replace(
        res,
        full_run=full,
        detail=(
            f"{res.detail}; the cached full run of this claim's current code ({at}) reports "
            f"{full['status']}"
        ),
    )


def write_partial_report(results, out_dir, quick: bool | None = None, **options):
    """:func:`proofs_check.report.write_report` made atomic: the files are written in a
    temporary directory inside ``out_dir`` and moved over the old ones with ``os.replace``
    (a reader, or a run killed meanwhile, sees the old report or the new one, never half a
    file). ``quick`` and ``options`` (e.g. ``previous=``) are passed on when write_report
    accepts them. Returns write_report's paths, in ``out_dir``."""
    from .report import write_report

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    accepted = inspect.signature(write_report).parameters
    kwargs = {
        k: v
        for k, v in {"quick": quick, "figures_dir": out / "figures", **options}.items()
        if v is not None and k in accepted
    }
    for stale in out.glob(".verification-*"):  # left by a run killed while writing
        try:
            if time.time() - stale.stat().st_mtime > _STALE:
                shutil.rmtree(stale, ignore_errors=True)
        except OSError:
            pass
    tmp = Path(tempfile.mkdtemp(prefix=".verification-", dir=out))
    try:
        paths = write_report(results, tmp, **kwargs)
        for p in sorted(tmp.iterdir(), key=lambda p: p.suffix == ".md"):  # the JSON first
            os.replace(p, out / p.name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return tuple(out / Path(p).name for p in paths)


# ---------------------------------------------------------------------------- planning
@dataclass
class _Split:
    """A split claim waiting for its cells."""

    index: int  # position in the result list
    plan: CellPlan
    results: list
    missing: int
    errors: list = dataclasses.field(default_factory=list)
    keys: list = dataclasses.field(default_factory=list)  # the cells' cache keys
    shared: dict | None = None  # plan key -> CellResults, shared by claims with equal cells


@dataclass
class _Task:
    spec: tuple
    name: str  # claim id, or "claim-id#cell" (run-time history, on_task)
    estimate: float
    claims: tuple = ()  # the positions of the claims of a claims task
    users: list = dataclasses.field(default_factory=list)  # (split, cell index) of a cell
    key: str | None = None  # the cell's sweep-cache key
    cache: ChunkCache | None = None


def _select(registry, ids):
    claims = registry.all_claims()
    if ids is None:
        return claims
    wanted = list(ids)
    known = {c.id for c in claims}
    unknown = [i for i in wanted if i not in known]
    if unknown:
        raise NBLInputError(f"unknown claim id(s): {', '.join(unknown)}")
    return [c for c in claims if c.id in set(wanted)]


def _plan_cells(claim, split: _Split, cache, tasks: list, by_key: dict, timings: dict) -> None:
    """Add the cells of a split claim to ``tasks`` (a cell already planned, by this or another
    claim, is shared; a cached cell is not run)."""
    plan = split.plan
    ccache = None if cache is None else ChunkCache(cache.root.parent, plan.namespace)
    split.keys = cell_keys(plan)  # None: parameters the cache cannot describe
    for c_idx, (params, key) in enumerate(zip(plan.cells, split.keys)):
        if key is not None and key in by_key:
            tasks[by_key[key]].users.append((split, c_idx))
            continue
        hit, value = ccache.get(key) if ccache is not None and key is not None else (False, None)
        if hit:
            split.results[c_idx] = value
            split.missing -= 1
            continue
        name = f"{claim.id}#{c_idx}"
        if key is not None:
            by_key[key] = len(tasks)
        tasks.append(
            _Task(
                ("cell", plan.fn, params),
                name,
                timings.get(name, _UNKNOWN_SLOW),
                users=[(split, c_idx)],
                key=key,
                cache=ccache,
            )
        )


def _task_failed(registry, claim, err: TaskError) -> ClaimResult:
    lost = err.type == "WorkerLost"
    why = (
        "the worker process running this check died"
        if lost
        else "the task running this check failed outside the check"
    )
    return _synthetic(registry, claim, FAIL, f"{why} ({err})")


def _combine(registry, claim, split: _Split) -> ClaimResult:
    """The claim's result from its cells (in the parent), or FAIL naming the failed cells."""
    if split.errors:
        (first, err), rest = min(split.errors), len(split.errors) - 1
        others = f"; {rest} more cell(s) failed" if rest else ""
        return _synthetic(
            registry,
            claim,
            FAIL,
            f"check raised {err} (cell {first} of {len(split.results)}{others})",
        )
    key = plan_key(split.keys)
    values = split.shared.get(key) if split.shared is not None and key is not None else None
    if values is None:
        values = CellResults(split.results, key)
        if split.shared is not None and key is not None:
            split.shared[key] = values
    return registry.run_one(dataclasses.replace(claim, check=lambda: claim.check.combine(values)))


# ---------------------------------------------------------------------------- the runner
def run_claims_parallel(
    ids=None,
    quick: bool = False,
    executor=None,
    workers=None,
    scheduler=None,
    cache: ChunkCache | None = None,
    progress=None,
    on_result=None,
    *,
    registry: str = DEFAULT_REGISTRY,
    out_dir=None,
    report_every: float = 1.0,
    split: bool = True,
    allow_large: bool = False,
    on_task: Callable[[TaskTiming], None] | None = None,
    estimates: dict | None = None,
    report_options: dict | None = None,
    chunk: bool = True,
    report_fault: list | None = None,
) -> list[ClaimResult]:
    """Run the claims on an executor; results in registration order (module docstring).

    Parameters
    ----------
    ids : iterable of str, optional
        Only these claims (unknown ids: :class:`~nbl_theory.errors.NBLInputError`).
    quick : bool
        Slow claims are reported ``SKIPPED``, as in :meth:`Registry.run_claims`.
    executor : an :class:`nbl_sim.runs.execution.Executor`, optional
        Used as given (not closed). Otherwise one is made by
        :func:`~nbl_sim.runs.execution.make_executor` from ``workers`` / ``scheduler`` /
        ``allow_large`` (``None``: a process pool of every core when the expected work repays
        starting it, Dask if ``$NBL_DASK_SCHEDULER`` is set) and closed at the end.
    workers, scheduler, allow_large :
        As for :func:`~nbl_sim.runs.execution.make_executor` (``nbl check --workers N``,
        ``--scheduler ADDR``, ``--allow-large``).
    cache : ChunkCache, optional
        Where claim results live (:func:`claims_cache`); the cells of split claims go to the
        sibling namespace their plan names. None: nothing is cached or reused.
    progress : callable, optional
        ``progress(done, total, result)`` as each claim finishes (cached claims first).
    on_result : callable, optional
        ``on_result(i, result)``, ``i`` the claim's position in the returned list.
    registry : str
        The registry as ``"module:attribute"`` (the workers import it).
    out_dir : path, optional
        Write ``verification.md`` / ``.json`` there incrementally (module docstring).
    report_every : float
        Minimum seconds between two partial reports (0: after every result).
    report_options : dict, optional
        Further keyword arguments of :func:`proofs_check.report.write_report` (``previous``).
    split : bool
        Run split claims cell by cell (False: every claim is one task).
    chunk : bool
        On a pool or cluster, batch consecutive short claims of one module into one task (up
        to 1/8 of a worker's share of the estimated work), so they share the worker's caches
        as in a serial run; a batch whose worker dies is re-run claim by claim (False: one task
        per claim).
    report_fault : list, optional
        Receives the file-system error (an ``OSError``) if the last write of the report into
        ``out_dir`` failed (a full or read-only disk). A failed write never stops the run: the
        claims go on, and every later write tries again.
    on_task : callable, optional
        ``on_task(TaskTiming)`` for every computed task (benchmarks).
    estimates : dict, optional
        ``{task name: CPU seconds}`` used to order the tasks (longest first) before the run-time
        history kept in ``cache``; a task known to neither is guessed (slow claims first).

    Returns
    -------
    list of ClaimResult
        One per selected claim, in registration order.
    """
    reg = load_registry(registry)
    claims = _select(reg, ids)
    n = len(claims)
    results: list = [None] * n
    keys: list = [None] * n
    timings = {**load_timings(cache, registry, quick), **(estimates or {})}
    measured: dict = {}
    tasks: list[_Task] = []  # the cells to run (plan_splits)
    to_plan: list = []  # (claim position, estimated CPU s) of split claims
    splits: list[_Split] = []
    by_key: dict = {}
    shared: dict = {}  # plan key -> CellResults (one object per equal plan)
    singles: list = []  # (claim position, estimated CPU s) of unsplit claims
    count = {"done": 0, "reported": -float("inf")}
    fault: list = [None]  # the last report write's OSError, if it failed

    def report(force: bool = False) -> None:
        if out_dir is None or (not force and time.monotonic() - count["reported"] < report_every):
            return
        count["reported"] = time.monotonic()
        try:
            write_partial_report(
                [r if r is not None else pending_result(reg, c) for r, c in zip(results, claims)],
                out_dir,
                quick,
                **{"cached": cache is not None, **(report_options or {})},
            )
        except OSError as exc:  # a full or read-only disk: the results go on
            fault[0] = exc
        else:
            fault[0] = None

    def finish(i: int, res: ClaimResult, store: bool = False) -> None:
        results[i] = res
        count["done"] += 1
        if store and cache is not None and keys[i] is not None and res.status != FAIL:
            try:
                cache.put(keys[i], {**res.to_dict(), COMMIT_KEY: toolkit_commit()})
            except TypeError:  # evidence that is not plain data: not cached
                pass
        if progress:
            progress(count["done"], n, res)
        if on_result:
            on_result(i, res)
        report()

    # 1. what needs no task: slow claims in quick mode, cached results
    full_keys: dict = {}
    if cache is not None:
        keys = claim_keys(registry, claims, quick, cache)
        slow = [c for c in claims if quick and not c.quick]
        if slow:  # where a full run of the slow claims' current code is cached
            full_keys = dict(zip((c.id for c in slow), claim_keys(registry, slow, False, cache)))
    for i, claim in enumerate(claims):
        if quick and not claim.quick:
            finish(
                i,
                _with_full_run(
                    reg.run_claims(quick=True, ids=[claim.id])[0],
                    _cached_full_run(cache, full_keys.get(claim.id)),
                ),
            )
            continue
        if cache is not None:
            hit, value = cache.get(keys[i]) if keys[i] is not None else (False, None)
            if hit:
                try:
                    finish(i, _from_dict(value))
                    continue
                except (ValueError, TypeError, KeyError):
                    pass  # not a result record: recompute
        guess = timings.get(claim.id, _UNKNOWN_QUICK if claim.quick else _UNKNOWN_SLOW)
        if split and is_split(claim.check):
            to_plan.append((i, guess))
            continue
        singles.append((i, guess))
    report(force=True)

    def plan_splits() -> None:
        """Plan the split claims (their cells become tasks; cached cells are read) — called
        by :func:`feed` once the longest claims are running, so the workers compute while
        this process plans (``plan(FULL)`` of the study takes ~10 s)."""
        for i, _guess in to_plan:
            claim = claims[i]
            try:
                plan = claim.check.cells()
                if not isinstance(plan, CellPlan):
                    raise TypeError(f"cells() returned {type(plan).__name__}, not a CellPlan")
                cells = list(plan.cells)
            except Exception as exc:  # noqa: BLE001 - a broken plan is the claim's FAIL
                finish(
                    i,
                    _synthetic(
                        reg, claim, FAIL, f"check.cells() raised {type(exc).__name__}: {exc}"
                    ),
                )
                continue
            sp = _Split(
                i,
                dataclasses.replace(plan, cells=cells),
                [None] * len(cells),
                len(cells),
                shared=shared,
            )
            splits.append(sp)
            _plan_cells(claim, sp, cache, tasks, by_key, timings)
        for sp in splits:  # every cell cached: combine now
            if sp.missing == 0:
                finish(sp.index, _combine(reg, claims[sp.index], sp), store=True)

    # 2. the tasks, longest first (a list schedule: the last to start are the shortest)
    total = sum(e for _, e in singles) + sum(e for _, e in to_plan)
    own = executor is None and bool(to_plan or singles)
    if own:
        executor = make_executor(
            workers, work=total, threshold=5.0, scheduler=scheduler, allow_large=allow_large
        )
    first: list[_Task] = []
    if singles:
        parallel = chunk and executor.workers > 1 and not isinstance(executor, SerialExecutor)
        target = max(_MIN_CHUNK, total / (_CHUNKS_PER_WORKER * executor.workers))
        first = _claim_tasks(registry, claims, singles, quick, target if parallel else 0.0)
    fed: list[_Task] = []

    def feed():
        """The first round's tasks, longest first: the longest claims (two per worker), then
        — planned meanwhile — the cells of the split claims with the other claims."""
        order = sorted(first, key=lambda t: -t.estimate)
        head = order[: WINDOW_PER_WORKER * max(1, executor.workers)]
        for task in head:
            fed.append(task)
            yield task.spec
        plan_splits()
        for task in sorted(order[len(head) :] + tasks, key=lambda t: -t.estimate):
            fed.append(task)
            yield task.spec

    def on_claims(task: _Task, out) -> list:
        """Finish the claims of a claims task; the claims of a failed batch to retry alone."""
        if isinstance(out, TaskError):
            if len(task.claims) > 1:
                return list(task.claims)
            finish(task.claims[0], _task_failed(reg, claims[task.claims[0]], out))
            return []
        for i, value, cpu in zip(task.claims, out["value"]["results"], out["value"]["cpus"]):
            measured[claims[i].id] = cpu
            finish(i, _from_dict(value), store=True)
        return []

    def on_cell(task: _Task, out) -> None:
        failed = isinstance(out, TaskError)
        if not failed:
            measured[task.name] = out["cpu"]
            if task.cache is not None and task.key is not None:
                try:
                    task.cache.put(task.key, out["value"])
                except TypeError as exc:
                    out, failed = TaskError("TypeError", str(exc)), True
        for sp, c_idx in task.users:
            if failed:
                sp.errors.append((c_idx, str(out)))
            else:
                sp.results[c_idx] = out["value"]
            sp.missing -= 1
            if sp.missing == 0:
                tic = time.process_time()
                res = _combine(reg, claims[sp.index], sp)
                if on_task:
                    on_task(
                        TaskTiming(
                            "combine",
                            claims[sp.index].id,
                            time.process_time() - tic,
                            res.seconds,
                            os.getpid(),
                        )
                    )
                finish(sp.index, res, store=True)

    stream = None
    try:
        # the first round pulls feed() lazily into `fed`; nothing to compute: no round
        rounds = [fed] if (singles or to_plan) else []
        source = feed()
        while rounds:
            current = rounds.pop()
            retry: list = []
            stream = executor.run(run_task, source)
            for j, out in stream:
                task = current[j]
                if on_task and not isinstance(out, TaskError):
                    parts = (
                        tuple((claims[i].id, c) for i, c in zip(task.claims, out["value"]["cpus"]))
                        if task.claims
                        else ()
                    )
                    on_task(
                        TaskTiming(
                            "claims" if task.claims else "cell",
                            task.name,
                            out["cpu"],
                            out["wall"],
                            out["pid"],
                            parts,
                        )
                    )
                if task.claims:
                    retry += on_claims(task, out)
                else:
                    on_cell(task, out)
            stream = None
            # a batch whose worker died: each of its claims alone, to find the one at fault
            again = _claim_tasks(registry, claims, [(i, 0.0) for i in sorted(retry)], quick, 0.0)
            if again:
                rounds.append(again)
                source = [t.spec for t in again]
    finally:
        if stream is not None:
            stream.close()
        if own and executor is not None:
            executor.close()
        try:
            save_timings(cache, registry, quick, measured)
        finally:
            report(force=True)
    if report_fault is not None and fault[0] is not None:
        report_fault.append(fault[0])
    return results


def _claim_tasks(registry: str, claims, singles, quick: bool, target: float) -> list[_Task]:
    """Claims tasks: each claim alone (``target`` 0), or consecutive claims of one module
    batched until their estimated CPU seconds reach ``target``."""
    out: list[_Task] = []
    batch: list = []

    def close():
        if batch:
            ids = tuple(claims[i].id for i, _ in batch)
            name = ids[0] if len(ids) == 1 else f"{ids[0]}+{len(ids) - 1}"
            out.append(
                _Task(
                    ("claims", registry, ids, quick),
                    name,
                    sum(e for _, e in batch),
                    claims=tuple(i for i, _ in batch),
                )
            )
            batch.clear()

    for i, est in singles:
        if batch and (
            target <= 0
            or sum(e for _, e in batch) + est > target
            or claims[i].check.__module__ != claims[batch[0][0]].check.__module__
        ):
            close()
        batch.append((i, est))
    close()
    return out
