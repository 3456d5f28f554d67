"""Executors: where chunks of independent work run.

Every sweep hands an executor a top-level (picklable) function and a list of tasks and receives
``(index, outcome)`` pairs in completion order; the caller reassembles by index, so the result is
the same whatever the executor, the number of workers or the completion order.

* :class:`SerialExecutor` — in this process, in order.
* :class:`ProcessExecutor` — a local ``spawn`` process pool (the embedded default for large work).
  A worker that dies breaks the pool; the unfinished tasks are resubmitted to a fresh pool
  (``retries`` times) before they are reported as failed.
* :class:`DaskExecutor` — a ``dask.distributed`` cluster: ``tcp://HOST:PORT`` of a running
  scheduler, or ``local:N`` for a :class:`distributed.LocalCluster` of N single-threaded worker
  processes. A worker that dies has its tasks rescheduled by the Dask scheduler (up to its
  ``distributed.scheduler.allowed-failures``, default 3) before they are reported as failed.
  Optional: ``pip install 'nbl[distributed]'``.

A task that *raises* never stops the others: the worker returns a :class:`TaskError` (exception
type, message, traceback) in its place; :func:`nbl_sim.sweep.run_sweep` turns it into a reported
failed cell (or raises, for callers that need every cell).
"""

from __future__ import annotations

import multiprocessing
import os
import traceback as _tb
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from nbl_theory.errors import NBLInputError

__all__ = ["Executor", "SerialExecutor", "ProcessExecutor", "DaskExecutor", "TaskError",
           "make_executor", "cpu_count", "in_worker", "SCHEDULER_ENV"]

SCHEDULER_ENV = "NBL_DASK_SCHEDULER"
_IN_WORKER = False


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - non-Linux
        return os.cpu_count() or 1


def in_worker() -> bool:
    """True inside a task run by an executor (nested sweeps then run in-process)."""
    return _IN_WORKER


@dataclass(frozen=True)
class TaskError:
    """A task that raised (or whose worker was lost for good)."""

    type: str
    message: str
    traceback: str = ""

    def __str__(self) -> str:
        return f"{self.type}: {self.message}"


def _guarded(fn: Callable, task):
    """Run ``fn(task)`` on a worker, returning a :class:`TaskError` instead of raising."""
    global _IN_WORKER
    prev, _IN_WORKER = _IN_WORKER, True
    try:
        return fn(task)
    except Exception as exc:  # noqa: BLE001 - every task failure is reported, not raised
        return TaskError(type(exc).__name__, str(exc), _tb.format_exc())
    finally:
        _IN_WORKER = prev


class Executor:
    """Interface: ``run(fn, tasks)`` yields ``(i, fn(tasks[i]) or TaskError)`` in any order."""

    workers: int = 1

    def run(self, fn: Callable, tasks: list) -> Iterator[tuple[int, object]]:
        raise NotImplementedError

    def describe(self) -> str:
        return type(self).__name__

    def close(self) -> None:
        """Release resources (clusters this executor started)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class SerialExecutor(Executor):
    """Runs every task in this process, in order."""

    def run(self, fn, tasks):
        for i, task in enumerate(tasks):
            yield i, _guarded(fn, task)

    def describe(self) -> str:
        return "serial (in-process)"


class ProcessExecutor(Executor):
    """A local :class:`concurrent.futures.ProcessPoolExecutor` (``spawn`` start method, so
    workers never inherit locks or threads from the parent).

    A worker that dies breaks the whole pool. The tasks still unfinished then run one at a
    time in a single-worker pool (restarted after each crash), so a crash is charged to the
    task that caused it: it is retried ``retries`` times and then reported as ``WorkerLost``,
    and the tasks that were merely running beside it complete normally.
    """

    def __init__(self, workers: int | None = None, retries: int = 2):
        self.workers = int(workers or cpu_count())
        if self.workers < 1:
            raise NBLInputError(f"workers must be >= 1, got {workers}")
        self.retries = int(retries)

    def run(self, fn, tasks: Iterable):
        tasks = list(tasks)
        pending = set(range(len(tasks)))
        ctx = multiprocessing.get_context("spawn")
        broken = False
        with ProcessPoolExecutor(max_workers=max(1, min(self.workers, len(tasks))),
                                 mp_context=ctx) as ex:
            futures = {ex.submit(_guarded, fn, tasks[i]): i for i in sorted(pending)}
            try:
                for fut in as_completed(futures):
                    i = futures[fut]
                    try:
                        res = fut.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    except Exception as exc:  # noqa: BLE001 - e.g. an unpicklable result
                        res = TaskError(type(exc).__name__, str(exc))
                    pending.discard(i)
                    yield i, res
            except BaseException:
                for f in futures:
                    f.cancel()
                raise
        if not broken:
            return
        # isolation: one task at a time, so a crash is charged to the task that caused it
        queue = sorted(pending)
        crashes = dict.fromkeys(queue, 1)       # every unfinished task may have been the one
        while queue:
            with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as ex:
                while queue:
                    i = queue[0]
                    try:
                        res = ex.submit(_guarded, fn, tasks[i]).result()
                    except BrokenProcessPool:
                        crashes[i] += 1
                        if crashes[i] > self.retries:
                            queue.pop(0)
                            yield i, TaskError("WorkerLost", f"the worker process died "
                                               f"{crashes[i]} times while running this task")
                        break                   # the pool is gone: start a fresh one
                    except Exception as exc:  # noqa: BLE001
                        res = TaskError(type(exc).__name__, str(exc))
                    queue.pop(0)
                    yield i, res

    def describe(self) -> str:
        return f"local process pool ({self.workers} workers)"


class DaskExecutor(Executor):
    """Tasks on a ``dask.distributed`` cluster.

    ``address``: ``tcp://HOST:PORT`` (a running ``dask scheduler``) or ``local:N`` (start a
    LocalCluster of N single-threaded worker processes, closed by :meth:`close`).
    """

    def __init__(self, address: str, *, timeout: float = 30.0):
        try:
            from distributed import Client, LocalCluster
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise NBLInputError("the Dask executor needs dask.distributed: "
                                "pip install 'nbl[distributed]'") from exc
        address = str(address).strip()
        self.address = address
        self._cluster = None
        if address.startswith("local:"):
            try:
                n = int(address.split(":", 1)[1])
            except ValueError:
                n = 0
            if n < 1:
                raise NBLInputError(f"--scheduler local:N needs a positive N, got {address!r}")
            self._cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                         dashboard_address=None)
            self.client = Client(self._cluster)
        elif "://" in address or ":" in address:
            try:
                self.client = Client(address, timeout=timeout)
            except OSError as exc:
                raise NBLInputError(f"cannot reach the Dask scheduler at {address!r}: {exc}") \
                    from exc
        else:
            raise NBLInputError(f"scheduler must be tcp://HOST:PORT or local:N, got {address!r}")

    @property
    def workers(self) -> int:  # type: ignore[override]
        return max(1, sum(self.client.nthreads().values()))

    def run(self, fn, tasks):
        from distributed import as_completed as dask_completed

        tasks = list(tasks)
        futures = self.client.map(_guarded, [fn] * len(tasks), tasks, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        try:
            for fut in dask_completed(futures):
                i = index[fut.key]
                try:
                    res = fut.result()
                except Exception as exc:  # noqa: BLE001 - e.g. KilledWorker after retries
                    res = TaskError(type(exc).__name__, str(exc))
                yield i, res
        except BaseException:
            self.client.cancel(futures)
            raise

    def describe(self) -> str:
        kind = "local Dask cluster" if self._cluster is not None else "Dask cluster"
        return f"{kind} {self.address} ({self.workers} workers)"

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(workers: int | None = None, work: float = float("inf"),
                  threshold: float = 2e7, scheduler: str | None = None) -> Executor:
    """The executor for ``work`` units (replication-steps × d, or grid points).

    ``scheduler`` (or the environment variable ``NBL_DASK_SCHEDULER``) selects Dask:
    ``tcp://HOST:PORT`` or ``local:N``. Otherwise ``workers=None`` picks the process pool when
    the work is large enough to repay starting worker processes (each imports
    numpy/sympy/numba, ~1–2 s) and more than one core is available, and runs in-process
    otherwise; ``workers=1`` forces in-process, ``workers=N`` a pool of N processes. Inside a
    task (a nested sweep) the default is in-process.
    """
    if _IN_WORKER and scheduler is None and workers is None:
        return SerialExecutor()
    if scheduler and workers is not None:
        raise NBLInputError("give either a Dask scheduler or a number of local workers, "
                            "not both")
    if workers is None:          # an explicit --workers wins over $NBL_DASK_SCHEDULER
        scheduler = scheduler or os.environ.get(SCHEDULER_ENV) or None
    if scheduler:
        return DaskExecutor(scheduler)
    if workers is None:
        n = cpu_count()
        return ProcessExecutor(n) if (n > 1 and work >= threshold) else SerialExecutor()
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise NBLInputError(f"workers must be a positive integer, got {workers!r}")
    return SerialExecutor() if workers == 1 else ProcessExecutor(workers)
