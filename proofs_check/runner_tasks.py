"""The worker side of the parallel claim runner (:mod:`proofs_check.runner`): the task function
every executor runs, and the protocol by which one claim is split into cells.

Tasks are plain tuples, so any executor (in-process, a local process pool, a Dask cluster) can
ship them; :func:`run_task` dispatches them and returns plain data with the task's CPU and wall
seconds:

``("claims", registry, claim_ids, quick)``
    :func:`run_claims_task`: load the registry in the worker and run each claim exactly as
    :meth:`~proofs_check.registry.Registry.run_claims` does (:func:`run_claim_task`;
    ``quick`` skips a slow claim), one after the other; the results travel as
    ``ClaimResult.to_dict()``. The runner batches short claims of one module into one task, so
    they share the worker's caches (the witnesses' ``functools.cache``) as in a serial run.
``("cell", fn, params)``
    one cell of a split claim: ``fn(params)`` (plain data, like a sweep cell).

Global mpmath / flint precision is restored after every task, so a task that changes it never
leaks into the next task the same worker runs (a claim that changes it is a ``FAIL`` —
:meth:`~proofs_check.registry.Registry.run_one`; a cell that changes it fails).

Split claims
------------
A check function that carries two attributes, ``cells`` and ``combine``, may be split by the
runner: ``check.cells()`` (cheap, run in the parent) returns a :class:`CellPlan` — a top-level
function and the cells' parameters — the runner runs every cell as its own task (cached in the
sweep cache like any sweep cell, under :func:`nbl_sim.runs.sweep.cell_key`, shared with the sweep
that runs the same cells; identical cells of several claims run once), and calls
``check.combine(results)`` (results in cell order) in the parent for the claim's
:class:`~proofs_check.registry.Outcome`. ``check()`` itself must stay a complete check (the
serial registry, mutants and ``nbl check --claim`` without the runner call it);
:func:`split_check` builds such a check from ``cells`` and ``combine``. When the cells are
those of an existing sweep (e.g. :func:`nbl_sim.studies.rate_study.run_study`), ``combine`` can hand
the finished results to that very function through :class:`ReplayExecutor`, so the sweep's own
reassembly is reused unchanged.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import flint
import mpmath

from nbl_sim.runs.execution import Executor, one_blas_thread
from nbl_sim.runs.sweep import canonical, cell_key
from nbl_theory.errors import NBLInputError

__all__ = [
    "CellPlan",
    "CellResults",
    "split_check",
    "split_preloaded",
    "is_split",
    "plan_key",
    "cell_keys",
    "ReplayExecutor",
    "load_registry",
    "run_claim_task",
    "run_claims_task",
    "run_task",
    "DEFAULT_REGISTRY",
    "CELL_NAMESPACE",
]

#: The paper's registry, as the ``"module:attribute"`` the workers import.
DEFAULT_REGISTRY = "proofs_check.registry:REGISTRY"
#: Default sweep-cache namespace of the cells of split claims.
CELL_NAMESPACE = "claim-cells"


@dataclass(frozen=True)
class CellPlan:
    """The cells of a split claim.

    Parameters
    ----------
    fn : callable
        A top-level (picklable) function of one cell returning plain data
        (:mod:`nbl_sim.runs.plain_data`), run on a worker.
    cells : sequence
        The cells' parameters (picklable; :func:`nbl_sim.runs.sweep.canonical` describes them for
        the cache key).
    namespace : str
        The sweep-cache namespace the cell results are stored in (``"study"`` shares the cells
        with ``nbl study``).
    """

    fn: Callable
    cells: Sequence
    namespace: str = CELL_NAMESPACE


class CellResults(Sequence):
    """The results of a :class:`CellPlan`'s cells, in cell order: a read-only sequence,
    hashable by the cells' cache keys, so that claims sharing the same cells can memoize their
    common work on it (``functools.lru_cache`` on a function of the results)."""

    def __init__(self, values, key: str | None = None):
        self._values = tuple(values)
        self.key = key

    def __len__(self) -> int:
        return len(self._values)

    def __getitem__(self, i):
        return self._values[i]

    def __hash__(self) -> int:
        return hash(self.key) if self.key is not None else id(self)

    def __eq__(self, other) -> bool:
        return isinstance(other, CellResults) and (
            self is other or (self.key is not None and self.key == other.key)
        )

    def __repr__(self) -> str:
        return f"CellResults({len(self)} cells, key={self.key!r})"


def plan_key(cell_keys) -> str | None:
    """The key of a whole plan from its cells' keys (None if some cell has none)."""
    cell_keys = list(cell_keys)
    if any(k is None for k in cell_keys):
        return None
    return hashlib.sha256("\n".join(cell_keys).encode()).hexdigest()


def cell_keys(plan: CellPlan) -> list:
    """:func:`nbl_sim.runs.sweep.cell_key` of every cell (None where the parameters cannot be
    described)."""
    out = []
    for c in plan.cells:
        try:
            out.append(cell_key(plan.fn, c))
        except NBLInputError:
            out.append(None)
    return out


def split_check(
    cells: Callable[[], CellPlan],
    combine: Callable,
    run: Callable[[CellPlan], Sequence] | None = None,
    direct: Callable | None = None,
):
    """A complete check function made of ``cells() -> CellPlan`` and
    ``combine(results, **kwargs) -> Outcome`` (``results``: :class:`CellResults`): called
    directly it computes the cells with ``run(plan)`` (the cells' results in cell order;
    default: each cell in turn in this process) — e.g. ``run_sweep`` with the sweep's cache
    and a pool, as :func:`nbl_sim.studies.rate_study.run_study` does — keyword arguments (a
    mutant's) going to ``combine``; the parallel runner runs the cells as tasks instead. The check
    takes the name and module of ``combine`` (the claim's module, which the cache key fingerprints).
    ``direct(**kwargs)``, if given, is what a direct call runs instead (a complete check that
    computes what it needs lazily — e.g. a mutant that runs on a smaller grid than the cells').

    Example
    -------
    >>> def _cells():
    ...     return CellPlan(abs, (-1, 2))
    >>> def _combine(results):
    ...     return sum(results)
    >>> check = split_check(_cells, _combine)
    >>> check(), is_split(check)
    (3, True)
    """

    @functools.wraps(combine)
    def check(**kwargs):
        if direct is not None:
            return direct(**kwargs)
        plan = cells()
        values = run(plan) if run is not None else [plan.fn(c) for c in plan.cells]
        return combine(CellResults(values, plan_key(cell_keys(plan))), **kwargs)

    # what a direct call computes the cells with (None: each cell in turn), and its stand-in:
    # the library-mutation map computes a shared plan's cells once and credits every claim
    # reading them (proofs_check.libmutation.coverage_map)
    check.cells, check.combine, check.run, check.direct = cells, combine, run, direct
    return check


def split_preloaded(cells: Callable[[], CellPlan], load: Callable, check: Callable):
    """A split check whose combine hands the cells' results to ``load(cells().cells,
    results)`` — which stores them where ``check`` looks them up (a witness's per-process
    store) — and then runs ``check(**kwargs)`` as a direct call does; a direct call (the serial
    registry, a mutant with its own inputs) runs ``check`` alone, computing what it needs
    lazily. The check keeps ``check``'s name and module."""

    def combine(results, **kwargs):
        load(cells().cells, results)
        return check(**kwargs)

    functools.update_wrapper(combine, check)
    return split_check(cells, combine, direct=check)


def is_split(check) -> bool:
    """True when ``check`` follows the split protocol (callable ``cells`` and ``combine``)."""
    return callable(getattr(check, "cells", None)) and callable(getattr(check, "combine", None))


class ReplayExecutor(Executor):
    """An executor that runs nothing: it returns finished ``results`` for exactly the ``cells``
    they were computed from (so a sweep function can reassemble cells computed elsewhere).

    Raises
    ------
    ValueError
        The sweep asks for other cells than ``cells`` (its plan changed: a bug to report, not
        silently wrong data).
    """

    def __init__(self, cells, results):
        self.cells, self.results = list(cells), list(results)
        if len(self.cells) != len(self.results):
            raise ValueError("ReplayExecutor needs one result per cell")

    def run(self, fn, tasks):
        tasks = list(tasks)
        index = {}
        for i, c in enumerate(self.cells):
            index.setdefault(_describe(c), i)
        for j, task in enumerate(tasks):
            i = index.get(_describe(task))
            if i is None:
                raise ValueError(f"ReplayExecutor has no result for the cell {task!r:.200}")
            yield j, self.results[i]

    def describe(self) -> str:
        return "cells computed by the claim runner"


def _describe(cell) -> str:
    return json.dumps(canonical(cell), sort_keys=True)


def load_registry(spec: str):
    """The :class:`~proofs_check.registry.Registry` named ``"module:attribute"``."""
    mod_name, _, attr = str(spec).partition(":")
    if not attr:
        raise ValueError(f"registry must be 'module:attribute', got {spec!r}")
    return getattr(importlib.import_module(mod_name), attr)


def run_claim_task(claim_id: str, quick: bool = False, registry: str = DEFAULT_REGISTRY) -> dict:
    """Run one claim as :meth:`~proofs_check.registry.Registry.run_claims` would (in a worker)
    and return its ``ClaimResult.to_dict()``."""
    reg = load_registry(registry)
    (res,) = reg.run_claims(quick=quick, ids=[claim_id])
    return res.to_dict()


def run_claims_task(claim_ids, quick: bool = False, registry: str = DEFAULT_REGISTRY) -> dict:
    """Run several claims one after the other in this worker (sharing its caches):
    ``{"results": [ClaimResult.to_dict(), ...], "cpus": [CPU seconds, ...]}`` (each claim's
    CPU seconds exclude loading the registry, which the worker's first task pays)."""
    load_registry(registry).all_claims()
    results, cpus = [], []
    for claim_id in claim_ids:
        c0 = time.process_time()
        results.append(run_claim_task(claim_id, quick, registry))
        cpus.append(time.process_time() - c0)
    return {"results": results, "cpus": cpus}


def run_task(task: tuple) -> dict:
    """Run one task (module docstring) and return ``{"value", "cpu", "wall", "pid"}``.

    Raises
    ------
    RuntimeError
        A cell changed the global mpmath / flint precision (restored).
    """
    kind = task[0]
    saved = (mpmath.mp.prec, flint.ctx.prec)
    c0, t0 = time.process_time(), time.perf_counter()
    try:
        if kind == "claims":
            _, registry, claim_ids, quick = task
            value = run_claims_task(claim_ids, quick, registry)
        elif kind == "cell":
            _, fn, params = task
            with one_blas_thread():
                value = fn(params)
        else:
            raise ValueError(f"unknown task kind {kind!r}")
    finally:
        changed = (mpmath.mp.prec, flint.ctx.prec) != saved
        mpmath.mp.prec, flint.ctx.prec = saved
    if changed and kind == "cell":
        raise RuntimeError("the cell changed the global mpmath/flint precision (restored)")
    return {
        "value": value,
        "cpu": time.process_time() - c0,
        "wall": time.perf_counter() - t0,
        "pid": os.getpid(),
    }
