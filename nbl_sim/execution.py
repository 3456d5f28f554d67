"""Executors: where chunks of independent work run.

Every sweep hands an executor a top-level (picklable) function and a list of tasks and receives
``(index, result)`` pairs in completion order; the caller reassembles by index, so the result is
the same whatever the executor, the number of processes or the completion order. The local
process pool is the embedded default; other engines (e.g. Dask) plug in by implementing
:class:`Executor`.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed

from nbl_theory.errors import NBLInputError

__all__ = ["Executor", "SerialExecutor", "ProcessExecutor", "make_executor", "cpu_count"]


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - non-Linux
        return os.cpu_count() or 1


class Executor:
    """Interface: ``run(fn, tasks)`` yields ``(i, fn(tasks[i]))`` in any order."""

    workers: int = 1

    def run(self, fn: Callable, tasks: list) -> Iterator[tuple[int, object]]:
        raise NotImplementedError

    def describe(self) -> str:
        return type(self).__name__


class SerialExecutor(Executor):
    """Runs every task in this process, in order."""

    def run(self, fn, tasks):
        for i, task in enumerate(tasks):
            yield i, fn(task)

    def describe(self) -> str:
        return "serial (in-process)"


class ProcessExecutor(Executor):
    """A local :class:`concurrent.futures.ProcessPoolExecutor` (``spawn`` start method, so
    workers never inherit locks or threads from the parent)."""

    def __init__(self, workers: int | None = None):
        self.workers = int(workers or cpu_count())
        if self.workers < 1:
            raise NBLInputError(f"workers must be >= 1, got {workers}")

    def run(self, fn, tasks: Iterable):
        tasks = list(tasks)
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(self.workers, len(tasks)), mp_context=ctx) as ex:
            futures = {ex.submit(fn, t): i for i, t in enumerate(tasks)}
            try:
                for fut in as_completed(futures):
                    yield futures[fut], fut.result()
            except BaseException:
                for f in futures:
                    f.cancel()
                raise

    def describe(self) -> str:
        return f"local process pool ({self.workers} workers)"


def make_executor(workers: int | None, work: float, threshold: float = 2e7) -> Executor:
    """The default executor for ``work`` units (replication-steps × d).

    ``workers=None`` picks the process pool when the work is large enough to repay starting
    worker processes (each imports numpy/sympy/numba, ~1–2 s) and more than one core is
    available, and runs in-process otherwise; ``workers=1`` forces in-process, ``workers=N``
    a pool of N processes.
    """
    if workers is None:
        n = cpu_count()
        return ProcessExecutor(n) if (n > 1 and work >= threshold) else SerialExecutor()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise NBLInputError(f"workers must be a positive integer, got {workers!r}")
    return SerialExecutor() if workers == 1 else ProcessExecutor(workers)
