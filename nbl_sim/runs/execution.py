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
type, message, traceback) in its place; :func:`nbl_sim.runs.sweep.run_sweep` turns it into a
reported failed cell (or raises, for callers that need every cell).

Interrupts: pool workers ignore SIGINT (a Ctrl-C at the terminal reaches the whole process
group; only the parent acts on it). When the parent is interrupted (KeyboardInterrupt, or
SIGTERM turned into one by the ``nbl`` command) it cancels the queued tasks, terminates every
worker process it started and re-raises, so one Ctrl-C ends every worker within seconds;
finished cells are already in the sweep cache, so the same command resumes.

Bounds: at most :data:`MAX_WORKERS` local workers (``local:N`` included) unless the caller
passes ``allow_large=True`` (``--allow-large`` on the command line).
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import signal
import sys
import threading
import traceback as _tb
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from nbl_theory.errors import NBLInputError

from .lifeline import pool_worker_init

__all__ = [
    "Executor",
    "SerialExecutor",
    "ProcessExecutor",
    "DaskExecutor",
    "TaskError",
    "make_executor",
    "executor_for",
    "cpu_count",
    "in_worker",
    "SCHEDULER_ENV",
    "IN_PROCESS_ENV",
    "scheduler_from_env",
    "probe_scheduler",
    "MAX_WORKERS",
    "check_workers",
    "parse_scheduler",
    "one_blas_thread",
    "ALLOW_TCP_ENV",
    "SCHEDULER_TRUST",
]

#: Environment variable naming a Dask scheduler (``tcp://HOST:PORT`` or ``local:N``) used when
#: no executor, worker count or scheduler is given.
SCHEDULER_ENV = "NBL_DASK_SCHEDULER"


def scheduler_from_env() -> str | None:
    """``$NBL_DASK_SCHEDULER``, or None when it is unset or blank (as for ``NBL_CACHE_DIR``).

    Returns
    -------
    str or None
        The stripped value of the variable, or None.
    """
    return os.environ.get(SCHEDULER_ENV, "").strip() or None


#: Environment variable: ``1`` makes every *automatic* choice of :func:`make_executor` (no
#: worker count, no scheduler given) run in this process, as inside a task, whatever the work,
#: the cores and ``$NBL_DASK_SCHEDULER``; an explicit ``workers=N`` or scheduler still starts
#: its pool. For a process whose code is not the code on disk: the library-mutation harness
#: sets it for its mutants and coverage collectors, whose import hook (the mutated module) and
#: tracer would not reach a spawned worker, which imports the library afresh. The numbers do
#: not depend on the executor; only the time does.
IN_PROCESS_ENV = "NBL_IN_PROCESS"

#: Local worker processes allowed without ``allow_large`` (each imports numpy/sympy/numba,
#: ~150 MB): beyond this a typo (``--workers 100000``) would exhaust memory.
MAX_WORKERS = 64
_IN_WORKER = False
_KILL_WAIT = 5.0  # seconds to wait for terminated workers before SIGKILL
_ADDRESS = re.compile(r"^(tcp|tls)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")


def cpu_count() -> int:
    """The number of CPUs this process may run on (its affinity mask; ``os.cpu_count`` where
    there is none).

    Returns
    -------
    int
        At least 1.
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - non-Linux
        return os.cpu_count() or 1


def one_blas_thread():
    """A context in which BLAS (numpy's ``@``, ``dot``, ``linalg``) runs on one thread.

    OpenBLAS splits a long dot product or matrix–vector product over its threads and adds the
    partial sums, so the last bits of such a result (~1e-15 relative) depend on how many
    threads it used — the machine's core count, or a limit some earlier code in the process set.
    In this context the reduction has one fixed order: the same numbers in-process, in a pool
    worker or on a Dask worker (the claims runner runs every claim and cell in it).

    The libraries are found once per set of imported modules (:func:`_blas_controller`):
    threadpoolctl finds them by reading ``/proc/self/maps``, 2–3 ms in a process that has
    loaded numba and sympy, and the runner enters this context for every claim. Both BLAS
    (numpy's, and scipy's, which scipy.linalg and numba's ``np.dot`` use) are loaded first: a
    library loaded only inside the context would not be limited, and the toolkit imports scipy
    where it is used (not at start-up), so code inside may be the first to load scipy's.

    Returns
    -------
    contextlib.AbstractContextManager
        threadpoolctl's limit: BLAS runs on one thread until the ``with`` block ends.
    """
    import numpy  # noqa: F401  (numpy's BLAS)
    import scipy.linalg  # noqa: F401  (scipy's BLAS)

    return _blas_controller().limit(limits=1, user_api="blas")


_CONTROLLER: list = [None, None]  # [len(sys.modules) when built, ThreadpoolController]


def _blas_controller():
    """A ``threadpoolctl.ThreadpoolController`` of the libraries loaded now, rebuilt when a
    module was imported since (a BLAS is loaded by importing the extension linked to it —
    numpy's, scipy's — so an unchanged ``sys.modules`` means no new BLAS)."""
    from threadpoolctl import ThreadpoolController

    size = len(sys.modules)
    if _CONTROLLER[0] != size or _CONTROLLER[1] is None:
        _CONTROLLER[1] = ThreadpoolController()
        _CONTROLLER[0] = len(sys.modules)  # after threadpoolctl's own imports
    return _CONTROLLER[1]


def check_workers(n, what: str = "workers", allow_large: bool = False) -> int:
    """``n`` as a positive int, at most :data:`MAX_WORKERS` unless ``allow_large``.

    Parameters
    ----------
    n : int
        The number asked for.
    what : str, default "workers"
        What ``n`` counts, for the error message.
    allow_large : bool, default False
        Allow ``n`` above :data:`MAX_WORKERS`.

    Returns
    -------
    int
        ``n`` itself.

    Raises
    ------
    NBLInputError
        ``n`` is not a positive int (a bool is not), or above the bound without ``allow_large``.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise NBLInputError(f"{what} must be a positive integer, got {n!r}")
    if n > MAX_WORKERS and not allow_large:
        raise NBLInputError(
            f"{what} = {n} exceeds the bound {MAX_WORKERS} (each worker is a "
            "process of ~150 MB); pass --allow-large (allow_large=True) to go "
            "past it"
        )
    return n


#: Set to ``1`` to allow a plain ``tcp://`` scheduler that is not on the loopback interface
#: (what ``--allow-tcp-scheduler`` does): see :func:`parse_scheduler`.
ALLOW_TCP_ENV = "NBL_DASK_ALLOW_TCP"
#: What connecting to a scheduler trusts, in one line (``--help``, docs/security.md).
SCHEDULER_TRUST = (
    "connecting to a Dask scheduler trusts it and everyone who can reach its "
    "port to run any code in nbl (results come back as pickles)"
)
_LOOPBACK = re.compile(r"^(localhost|127(\.[0-9]{1,3}){3}|\[?::1\]?)$")


def parse_scheduler(
    address: str, allow_large: bool = False, allow_tcp: bool = False
) -> tuple[str, object]:
    """("local", N) for ``local:N``, ("remote", "tcp://HOST:PORT") for a scheduler address;
    anything else is a one-line :class:`NBLInputError`.

    A scheduler runs code in nbl (:data:`SCHEDULER_TRUST`), so a plain ``tcp://`` address is
    accepted only on the loopback interface (an SSH tunnel's end, a LocalCluster) unless
    ``allow_tcp`` is true or ``$NBL_DASK_ALLOW_TCP`` is ``1``; a ``tls://`` address needs
    Dask's TLS configuration (a CA file and a client certificate,
    ``distributed.comm.tls.ca-file`` and ``distributed.comm.tls.client.cert``).

    Parameters
    ----------
    address : str
        ``local:N``, ``tcp://HOST:PORT`` or ``tls://HOST:PORT``.
    allow_large : bool, default False
        Allow ``local:N`` with N above :data:`MAX_WORKERS`.
    allow_tcp : bool, default False
        Accept a plain ``tcp://`` address off the loopback interface.

    Returns
    -------
    tuple of (str, object)
        ``("local", N)`` or ``("remote", address)``.

    Raises
    ------
    NBLInputError
        A malformed address, a port outside 1–65535, a non-loopback ``tcp://`` address not
        allowed, or ``tls://`` without Dask's TLS configuration.
    """
    address = str(address).strip()
    if address.startswith("local:"):
        n_txt = address.split(":", 1)[1]
        if not (n_txt.isascii() and n_txt.isdigit()) or int(n_txt) < 1:
            raise NBLInputError(
                f"--scheduler local:N needs a positive N (an integer), got {address!r}"
            )
        return "local", check_workers(int(n_txt), "local:N", allow_large)
    m = _ADDRESS.match(address)
    if not m or not 0 < int(m.group(3)) < 65536:
        raise NBLInputError(
            f"scheduler must be tcp://HOST:PORT, tls://HOST:PORT or local:N "
            f"(port 1-65535), got {address!r}"
        )
    if (
        m.group(1) == "tcp"
        and not _LOOPBACK.match(m.group(2))
        and not (allow_tcp or os.environ.get(ALLOW_TCP_ENV, "").strip() == "1")
    ):
        raise NBLInputError(
            f"refusing the plain tcp:// scheduler {address}: it is not on this machine's "
            f"loopback interface and {SCHEDULER_TRUST}; use tls://, an SSH tunnel to "
            f"tcp://127.0.0.1:PORT, or --allow-tcp-scheduler ({ALLOW_TCP_ENV}=1)"
        )
    if m.group(1) == "tls":
        missing = _tls_missing()
        if missing:
            raise NBLInputError(
                f"tls:// needs Dask's TLS configuration: {missing} is not set (e.g. "
                "DASK_DISTRIBUTED__COMM__TLS__CA_FILE=ca.pem, DASK_DISTRIBUTED__COMM__TLS__"
                "CLIENT__CERT=client.pem, DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY=key.pem; "
                "docs/security.md)"
            )
    return "remote", address


def _tls_missing() -> str:
    """The first Dask TLS setting a ``tls://`` client needs that is not configured, or ''
    (distributed not installed: '' — the executor reports that itself)."""
    try:
        import dask.config
    except ImportError:  # pragma: no cover - depends on the install
        return ""
    for key in ("distributed.comm.tls.ca-file", "distributed.comm.tls.client.cert"):
        value = dask.config.get(key, None)
        if not value:
            return key
        if not os.path.isfile(value):
            return f"{key} (no file {value})"
    return ""


#: How long a scheduler may take to accept a connection and to send its greeting.
PROBE_SECONDS = 2.0


def probe_scheduler(address: str, timeout: float = PROBE_SECONDS) -> None:
    """Refuse, in one line and within ``timeout`` seconds, an address where no Dask scheduler
    answers. A Dask scheduler sends its handshake as soon as a connection is accepted: an
    8-byte little-endian total length, the number of frames and their lengths, then the
    frames. Over ``tcp://`` that prelude is checked (a web server sends nothing and an SSH
    server a text banner, which Dask would read as a length of exbibytes); over ``tls://`` only
    the connection (its bytes are encrypted).

    Parameters
    ----------
    address : str
        A checked ``tcp://`` or ``tls://`` address (see :func:`parse_scheduler`).
    timeout : float, default PROBE_SECONDS
        Seconds to wait for the connection and the handshake.

    Raises
    ------
    NBLInputError
        Nothing answers, or what answers is not a Dask scheduler.
    """
    import socket
    import struct

    scheme, hostport = address.split("://", 1)
    host, _, port = hostport.rpartition(":")
    host = host.strip("[]")
    try:
        sock = socket.create_connection((host, int(port)), timeout=timeout)
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise NBLInputError(f"cannot reach the Dask scheduler at {address}: {why}") from None
    head = b""
    with sock:
        if scheme != "tcp":
            return
        try:
            while len(head) < 16:
                chunk = sock.recv(16 - len(head))
                if not chunk:
                    break
                head += chunk
        except TimeoutError:
            raise NBLInputError(
                f"no Dask scheduler at {address}: it sent no handshake within {timeout:g} s"
            ) from None
        except OSError:
            pass  # reset while reading: judged by what came (nothing)
    total, frames = struct.unpack("<QQ", head) if len(head) == 16 else (0, 0)
    if not (16 <= total < 2**24 and 1 <= frames <= 64 and 8 + 8 * frames <= total):
        raise NBLInputError(
            f"no Dask scheduler at {address}: what answers there does not "
            "speak Dask's protocol (is the port right?)"
        )


@contextmanager
def _sigint_ignored():
    """Block SIGINT in this thread while worker processes are started.

    A child inherits the blocked mask across fork and exec, so a Ctrl-C during start-up never
    reaches a half-started worker (which would print a traceback; its initializer then ignores
    SIGINT for good). The parent does not lose the signal: a blocked signal stays pending (or
    is taken by another thread and handled in the main thread) and raises KeyboardInterrupt as
    soon as the mask is restored. (Ignoring it with SIG_IGN instead would discard a Ctrl-C
    that arrives in this window, and the run would go on.)
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _terminate_children(procs) -> None:
    """Terminate ``procs`` (multiprocessing children), then kill what is still alive."""
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(_KILL_WAIT)
        if p.is_alive():
            p.kill()
            p.join(1.0)


def _in_process_env() -> bool:
    """Whether ``$NBL_IN_PROCESS`` asks automatic choices to run in-process (``1``); any other
    value but unset or blank is refused, so a typo does not silently start a pool."""
    v = os.environ.get(IN_PROCESS_ENV, "").strip()
    if v not in ("", "0", "1"):
        raise NBLInputError(f"{IN_PROCESS_ENV} must be 0 or 1, got {v!r}")
    return v == "1"


def in_worker() -> bool:
    """True inside a task run by an executor (nested sweeps then run in-process).

    Returns
    -------
    bool
        Whether this code runs inside a task of an executor.
    """
    return _IN_WORKER


@dataclass(frozen=True)
class TaskError:
    """A task that raised (or whose worker was lost for good).

    Parameters
    ----------
    type : str
        The exception's class name (``"WorkerLost"`` for a worker lost for good).
    message : str
        The exception's message.
    traceback : str, default ""
        The formatted traceback from the worker (empty when there is none).
    """

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
        """Run ``fn`` on every task: the interface every executor implements.

        Parameters
        ----------
        fn : callable
            A picklable function of one task (top-level, so worker processes can import it).
        tasks : iterable
            The tasks (picklable); ``fn`` is called once on each.

        Returns
        -------
        iterator of tuple of (int, object)
            ``(i, fn(tasks[i]))`` as tasks finish (in any order), or ``(i, TaskError)`` for a task
            that raised or whose worker was lost.
        """
        raise NotImplementedError

    def describe(self) -> str:
        """The executor in words (here the class's name).

        Returns
        -------
        str
            A one-line description for the run's log, e.g. ``SerialExecutor``.
        """
        return type(self).__name__

    def close(self) -> None:
        """Release resources (clusters this executor started)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


#: tasks kept submitted per worker when a process pool pulls its tasks lazily
WINDOW_PER_WORKER = 2
_NO_TASK = object()


class SerialExecutor(Executor):
    """Runs every task in this process, in order."""

    def run(self, fn, tasks):
        """Run the tasks one after the other in this process, in order.

        Parameters
        ----------
        fn : callable
            A picklable function of one task (top-level, so worker processes can import it).
        tasks : iterable
            The tasks (picklable); ``fn`` is called once on each.

        Yields
        ------
        tuple of (int, object)
            ``(i, fn(tasks[i]))`` as tasks finish (in any order), or ``(i, TaskError)`` for a task
            that raised or whose worker was lost.
        """
        for i, task in enumerate(tasks):
            yield i, _guarded(fn, task)

    def describe(self) -> str:
        """The executor in words.

        Returns
        -------
        str
            A one-line description for the run's log, e.g. ``"serial (in-process)"``.
        """
        return "serial (in-process)"


def _pool_api():
    """What :meth:`ProcessExecutor.run` uses of concurrent.futures and multiprocessing, imported
    by the first pool (an in-process run does not import them: 12 ms of ``nbl simulate``).

    Returns
    -------
    tuple
        ``(FIRST_COMPLETED, wait, BrokenProcessPool, the "spawn" context)``.
    """
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    return FIRST_COMPLETED, wait, BrokenProcessPool, multiprocessing.get_context("spawn")


class ProcessExecutor(Executor):
    """A local :class:`concurrent.futures.ProcessPoolExecutor` (``spawn`` start method, so
    workers never inherit locks or threads from the parent).

    A worker that dies breaks the whole pool. The tasks still unfinished then run one at a
    time in a single-worker pool (restarted after each crash), so a crash is charged to the
    task that caused it: it is retried ``retries`` times and then reported as ``WorkerLost``,
    and the tasks that were merely running beside it complete normally.

    Parameters
    ----------
    workers : int, optional
        The number of worker processes (default: :func:`cpu_count`), checked by
        :func:`check_workers`.
    retries : int, default 2
        How many times a task whose worker died is run again before it is reported as
        ``WorkerLost``.
    allow_large : bool, default False
        Allow more than :data:`MAX_WORKERS` workers.
    """

    def __init__(self, workers: int | None = None, retries: int = 2, allow_large: bool = False):
        self.workers = check_workers(
            int(workers) if workers is not None else cpu_count(), allow_large=allow_large
        )
        self.retries = int(retries)

    @staticmethod
    def _pool(n: int, ctx):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        before = set(multiprocessing.active_children())
        pool = ProcessPoolExecutor(
            max_workers=n, mp_context=ctx, initializer=pool_worker_init, initargs=(os.getpid(),)
        )
        return pool, before

    @staticmethod
    def _abort(pool, before) -> None:
        """Interrupted: drop queued tasks, terminate the workers this pool started, then let
        the pool's management thread see them gone and finish (bounded wait). Left running,
        it races the interpreter's exit hook of concurrent.futures (Python < 3.12), which may
        then write to the wake-up pipe the thread is closing and print "Exception ignored ...
        OSError: [Errno 9] Bad file descriptor" after the one-line interruption message."""
        import multiprocessing

        manager = getattr(pool, "_executor_manager_thread", None)  # (shutdown forgets it)
        pool.shutdown(wait=False, cancel_futures=True)
        _terminate_children([p for p in multiprocessing.active_children() if p not in before])
        if manager is not None and manager is not threading.current_thread():
            manager.join(_KILL_WAIT)

    @classmethod
    def _shutdown(cls, pool, before) -> None:
        """``pool.shutdown(wait=True)`` at the end of a run; interrupted meanwhile, the pool is
        aborted (:meth:`_abort`) before the interruption goes on."""
        try:
            pool.shutdown(wait=True)
        except BaseException:
            cls._abort(pool, before)
            raise

    def run(self, fn, tasks: Iterable):
        """Yield ``(i, result)`` as tasks finish, ``i`` the task's position in ``tasks``.

        A list (or tuple) is submitted at once. Any other iterable is pulled lazily, keeping
        :data:`WINDOW_PER_WORKER` tasks per worker submitted: the caller's iterator may do
        work between tasks (e.g. plan further tasks) while the workers compute.

        Parameters
        ----------
        fn : callable
            A picklable function of one task (top-level, so worker processes can import it).
        tasks : iterable
            The tasks (picklable); ``fn`` is called once on each.

        Yields
        ------
        tuple of (int, object)
            ``(i, fn(tasks[i]))`` as tasks finish (in any order), or ``(i, TaskError)`` for a task
            that raised or whose worker was lost.
        """
        if isinstance(tasks, (list, tuple)):
            tasks, source, window = list(tasks), iter(()), len(tasks)
            size = max(1, min(self.workers, len(tasks)))
        else:
            source, tasks = iter(tasks), []
            window = size = max(1, self.workers)
            window *= WINDOW_PER_WORKER
        FIRST_COMPLETED, wait, BrokenProcessPool, ctx = _pool_api()
        pending: set = set()
        broken = False
        ex, before = self._pool(size, ctx)
        futures: dict = {}

        def submit(i: int) -> bool:
            """Submit task i (False: the pool is broken; the task stays pending)."""
            try:
                with _sigint_ignored():  # workers are spawned by the first submits
                    futures[ex.submit(_guarded, fn, tasks[i])] = i
            except BrokenProcessPool:
                return False
            return True

        try:
            for i in range(len(tasks)):
                pending.add(i)
                broken = broken or not submit(i)
            for task in itertools.islice(source, window):
                tasks.append(task)
                pending.add(len(tasks) - 1)
                broken = broken or not submit(len(tasks) - 1)
            while futures:
                done, _ = wait(futures, return_when=FIRST_COMPLETED)
                for fut in done:
                    i = futures.pop(fut)
                    try:
                        res = fut.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    except Exception as exc:  # noqa: BLE001 - e.g. an unpicklable result
                        res = TaskError(type(exc).__name__, str(exc))
                    pending.discard(i)
                    yield i, res
                    if not broken:
                        task = next(source, _NO_TASK)
                        if task is not _NO_TASK:
                            tasks.append(task)
                            pending.add(len(tasks) - 1)
                            broken = not submit(len(tasks) - 1)
        except BaseException:  # KeyboardInterrupt, SIGTERM, GeneratorExit, ...
            self._abort(ex, before)
            raise
        self._shutdown(ex, before)
        if not broken:
            return
        started = set(pending)  # every unfinished task may have been the one
        for task in source:  # not pulled yet: run in the isolation below
            tasks.append(task)
            pending.add(len(tasks) - 1)
        # isolation: one task at a time, so a crash is charged to the task that caused it
        queue = sorted(pending)
        crashes = {i: int(i in started) for i in queue}
        while queue:
            ex, before = self._pool(1, ctx)
            try:
                while queue:
                    i = queue[0]
                    try:
                        with _sigint_ignored():
                            fut = ex.submit(_guarded, fn, tasks[i])
                        res = fut.result()
                    except BrokenProcessPool:
                        crashes[i] += 1
                        if crashes[i] > self.retries:
                            queue.pop(0)
                            yield (
                                i,
                                TaskError(
                                    "WorkerLost",
                                    f"the worker process died "
                                    f"{crashes[i]} times while running this task",
                                ),
                            )
                        break  # the pool is gone: start a fresh one
                    except Exception as exc:  # noqa: BLE001
                        res = TaskError(type(exc).__name__, str(exc))
                    queue.pop(0)
                    yield i, res
            except BaseException:
                self._abort(ex, before)
                raise
            self._shutdown(ex, before)

    def describe(self) -> str:
        """The executor in words.

        Returns
        -------
        str
            A one-line description for the run's log, e.g. ``"local process pool (4 workers)"``.
        """
        return f"local process pool ({self.workers} workers)"


#: how long closing a Dask client or local cluster may take (seconds)
_CLOSE_SECONDS = 2


class DaskExecutor(Executor):
    """Tasks on a ``dask.distributed`` cluster.

    ``address``: ``tcp://HOST:PORT`` (a running ``dask scheduler``) or ``local:N`` (start a
    LocalCluster of N single-threaded worker processes, closed by :meth:`close`).

    Parameters
    ----------
    address : str
        ``tcp://HOST:PORT``, ``tls://HOST:PORT`` (checked by :func:`parse_scheduler`) or
        ``local:N``.
    timeout : float, default 30.0
        Seconds to wait for a remote scheduler to answer when connecting.
    allow_large : bool, default False
        Allow ``local:N`` with N above :data:`MAX_WORKERS`.
    """

    def __init__(self, address: str, *, timeout: float = 30.0, allow_large: bool = False):
        kind, value = parse_scheduler(address, allow_large)
        try:
            from distributed import Client, LocalCluster
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise NBLInputError(
                "the Dask executor needs dask.distributed: pip install 'nbl[distributed]'"
            ) from exc
        self.address = str(address).strip()
        self._cluster = None
        if kind == "local":
            # No dashboard; the scheduler's HTTP server (/health, /metrics) still starts, on
            # port 8787 unless told otherwise, and warns when that port is taken (a second
            # `nbl` run, a notebook's cluster): a free port of the loopback interface instead.
            self._cluster = LocalCluster(
                n_workers=value,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            )
            self.client = Client(self._cluster)
            # Its workers log at CRITICAL only, restarted ones too (the plugin's docstring).
            from .dask_plugins import QuietWorkerLogs

            self.client.register_plugin(QuietWorkerLogs(), name="nbl-quiet-logs")
        else:
            probe_scheduler(value)
            try:
                self.client = Client(value, timeout=timeout)
            except (OSError, TimeoutError, ValueError) as exc:
                why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise NBLInputError(f"cannot reach the Dask scheduler at {value!r}: {why}") from exc

    @property
    def workers(self) -> int:  # type: ignore[override]
        """The number of worker threads the cluster has now (at least 1)."""
        return max(1, sum(self.client.nthreads().values()))

    def run(self, fn, tasks):
        """Run the tasks on the cluster's workers (cancelled if the caller stops early).

        Parameters
        ----------
        fn : callable
            A picklable function of one task (top-level, so worker processes can import it).
        tasks : iterable
            The tasks (picklable); ``fn`` is called once on each.

        Yields
        ------
        tuple of (int, object)
            ``(i, fn(tasks[i]))`` as tasks finish (in any order), or ``(i, TaskError)`` for a task
            that raised or whose worker was lost.
        """
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
        """The executor in words.

        Returns
        -------
        str
            A one-line description for the run's log, e.g.
            ``"local Dask cluster local:2 (2 workers)"``.
        """
        kind = "local Dask cluster" if self._cluster is not None else "Dask cluster"
        return f"{kind} {self.address} ({self.workers} workers)"

    def close(self) -> None:
        """Close the client (and the local cluster this executor started) within a few
        seconds, quietly: Dask's shutdown chatter (workers killed after a timeout, closed
        comms — what an interruption produces) is logged at ERROR and above only."""
        quiet = logging.getLogger("distributed")
        level = quiet.level
        quiet.setLevel(logging.CRITICAL)
        try:
            self.client.close(timeout=_CLOSE_SECONDS)
            if self._cluster is not None:
                self._cluster.close(timeout=_CLOSE_SECONDS)
        except (OSError, TimeoutError, RuntimeError):  # a cluster already half gone
            pass
        finally:
            quiet.setLevel(level)


def make_executor(
    workers: int | None = None,
    work: float = float("inf"),
    threshold: float = 2e7,
    scheduler: str | None = None,
    allow_large: bool = False,
) -> Executor:
    """The executor for ``work`` units (replication-steps × d, or grid points).

    ``scheduler`` (or the environment variable ``NBL_DASK_SCHEDULER``) selects Dask:
    ``tcp://HOST:PORT`` or ``local:N``. Otherwise ``workers=None`` picks the process pool when
    the work is large enough to repay starting worker processes (each imports
    numpy/sympy/numba, ~1–2 s) and more than one core is available, and runs in-process
    otherwise; ``workers=1`` forces in-process, ``workers=N`` a pool of N processes. Inside a
    task (a nested sweep), or with ``$NBL_IN_PROCESS`` = 1 (:data:`IN_PROCESS_ENV`), the
    default is in-process.

    Parameters
    ----------
    workers : int, optional
        None: choose by ``work``; 1: in-process; N: a pool of N processes.
    work : float, default inf
        The work units of the job (replication-steps × d, or grid points).
    threshold : float, default 2e7
        The work above which the automatic choice starts a process pool.
    scheduler : str, optional
        A Dask scheduler address (``tcp://HOST:PORT``, ``tls://HOST:PORT`` or ``local:N``);
        cannot be given with ``workers``.
    allow_large : bool, default False
        Allow more than :data:`MAX_WORKERS` workers.

    Returns
    -------
    Executor
        A :class:`SerialExecutor`, :class:`ProcessExecutor` or :class:`DaskExecutor`.

    Raises
    ------
    NBLInputError
        Both ``scheduler`` and ``workers`` given, a bad worker count or address, or
        ``$NBL_IN_PROCESS`` neither 0 nor 1.
    """
    if scheduler is None and workers is None and (_IN_WORKER or _in_process_env()):
        return SerialExecutor()
    if scheduler and workers is not None:
        raise NBLInputError("give either a Dask scheduler or a number of local workers, not both")
    if workers is None:  # an explicit --workers wins over $NBL_DASK_SCHEDULER
        scheduler = scheduler or scheduler_from_env()
    if scheduler:
        return DaskExecutor(scheduler, allow_large=allow_large)
    if workers is None:
        n = min(cpu_count(), MAX_WORKERS)
        return ProcessExecutor(n) if (n > 1 and work >= threshold) else SerialExecutor()
    workers = check_workers(workers, allow_large=allow_large)
    return SerialExecutor() if workers == 1 else ProcessExecutor(workers, allow_large=True)


@contextmanager
def executor_for(
    executor: Executor | None,
    workers: int | None = None,
    *,
    work: float = float("inf"),
    threshold: float = 2e7,
    scheduler: str | None = None,
) -> Iterator[Executor]:
    """``with executor_for(executor, workers, work=...) as ex:`` — the caller's ``executor``
    (left open), or, when it is None, a new :func:`make_executor` ``(workers, work, threshold,
    scheduler)`` closed when the block ends (also on an error).

    Parameters
    ----------
    executor : Executor or None
        The caller's executor, used as it is.
    workers : int, optional
        Passed to :func:`make_executor` when ``executor`` is None.
    work : float, default inf
        The work units, passed to :func:`make_executor`.
    threshold : float, default 2e7
        The work above which a process pool is used, passed to :func:`make_executor`.
    scheduler : str, optional
        A Dask scheduler address, passed to :func:`make_executor`.

    Yields
    ------
    Executor
        The executor to run the block's tasks on.
    """
    if executor is not None:
        yield executor
        return
    own = make_executor(workers, work=work, threshold=threshold, scheduler=scheduler)
    try:
        yield own
    finally:
        own.close()
