"""Worker processes end with their parent.

A pool worker (:class:`nbl_sim.runs.execution.ProcessExecutor`) and a worker of a local Dask cluster
(``--scheduler local:N``) must not outlive the ``nbl`` process that started them: a parent
killed by SIGKILL or SIGHUP cannot end its pool, and workers left running hold the CPU and
the caller's stderr pipe (a caller waiting for EOF hangs). :func:`die_with_parent` arranges
that a process ends when its parent does:

* on Linux the kernel does it — ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: immediate, also while a
  compiled kernel holds the GIL (the pools are started from the main thread, whose end is the
  process's end);
* everywhere, and as a fallback, a daemon thread polls ``os.getppid()`` every
  :data:`PARENT_POLL` s;
* a parent already gone when it is called ends the process at once.

This module imports only the standard library, so a worker runs it within a fraction of a
second of its start (importing the toolkit takes seconds): a parent killed while its workers
start still takes them with it.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

__all__ = ["die_with_parent", "pool_worker_init", "PARENT_POLL"]

#: how often the fallback thread checks that the parent is alive (seconds)
PARENT_POLL = 0.25


def die_with_parent(parent: int, poll: float = PARENT_POLL) -> None:
    """End this process (SIGKILL on Linux, else ``os._exit(1)``) when its parent process
    ``parent`` ends (module docstring)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):  # pragma: no cover - no usable libc
            pass
    if os.getppid() != parent:
        os._exit(1)

    def watch():
        while os.getppid() == parent:
            time.sleep(poll)
        os._exit(1)

    threading.Thread(target=watch, name="nbl-parent-watch", daemon=True).start()


def pool_worker_init(parent: int) -> None:
    """Initializer of a pool worker: ignore SIGINT (the parent handles Ctrl-C and ends the
    pool) and end with the parent (:func:`die_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
