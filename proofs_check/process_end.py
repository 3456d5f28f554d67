"""How a process of the toolkit ends: at once, without the interpreter freeing its objects.

A process that imported sympy (every ``nbl`` command but ``--help`` and the listings, every
mutant's worker) spends about half a second after its work is done in the interpreter's
shutdown, freeing sympy's, numba's and its own objects one by one (~1 s for a mutant's worker
that also ran pytest). Nothing of that is needed: outputs are written and closed before the
work returns (atomically, :mod:`nbl_sim.runs.outputs`), and the exit hooks that do something
(Dask's, multiprocessing's, logging's, temporary files', coverage's) still run first.
``benchmarks/README.md`` ("The last half-second") has the measurements.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys

__all__ = ["end_after_exit_hooks", "end_now", "exit_status", "run_then_end"]


def end_now(rc: int) -> None:
    """Flush the standard streams and end the process with status ``rc`` at once.

    SIGINT is ignored from here on: a second Ctrl-C would otherwise interrupt the flush and
    end the process by the signal instead of ``rc``.

    Parameters
    ----------
    rc : int
        The exit status.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(rc)


def end_after_exit_hooks() -> list[int]:
    """Make the process end right after its exit hooks, with the status left in the list
    returned (``status[0] = rc``; 1 until then, e.g. when an exception ends the program).

    Exit hooks run in the reverse order of their registration, so the hook registered here
    runs last, after every hook registered later; call this before importing anything that
    registers one (a hook registered earlier would not run).

    Returns
    -------
    list of int
        One element, the status the process ends with.
    """
    status = [1]
    atexit.register(lambda: end_now(status[0]))
    return status


def exit_status(code) -> int:
    """The status Python ends with for ``SystemExit(code)``: 0 for None, the number for an
    int, else 1 (Python prints a message code to stderr first).

    Parameters
    ----------
    code : object
        The exception's ``code``.

    Returns
    -------
    int
        The exit status.
    """
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def run_then_end(fn, *args) -> None:
    """Run ``fn(*args)`` (which returns an exit status) in a process that ends right after
    its exit hooks (:func:`end_after_exit_hooks`) with that status, or with the status of a
    ``SystemExit`` out of it. For a process's ``if __name__ == "__main__":`` block.

    Parameters
    ----------
    fn : callable
        The program; returns its exit status.
    *args
        Its arguments.
    """
    status = end_after_exit_hooks()
    try:
        status[0] = fn(*args)
    except SystemExit as e:
        status[0] = exit_status(e.code)
        raise
    raise SystemExit(status[0])
