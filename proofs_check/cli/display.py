"""Where the command writes, chosen once for every subcommand: reports (tables) on stdout,
progress on stderr — both with rich (a well-kept library for terminal tables and progress bars,
so neither is hand-written here).

* :func:`show` prints a report of :mod:`nbl_sim.presentation.tables` as plain text, fitted to
  the terminal's width when stdout is a terminal and never wrapped when it is not (a file or a
  pipe gets whole lines).
* :func:`progress` is a context manager giving a ``progress(done, total)`` callback: a rich
  progress bar when stderr is a terminal; otherwise plain lines such as
  ``checking claims: 40/149 (27%) 35 s``, one each time another tenth of the work is done or
  :data:`PLAIN_PERIOD` seconds have passed, and one at the end. Nothing is shown before the
  first piece of work arrives, so input errors stay one line.
"""

from __future__ import annotations

import math
import shutil
import sys
import time
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from nbl_sim.presentation.tables import render

__all__ = ["show", "progress", "claim_progress", "ProgressDisplay", "PLAIN_PERIOD"]

#: seconds between two plain progress lines (when stderr is not a terminal)
PLAIN_PERIOD = 5.0


def show(report) -> None:
    """Print ``report`` (blocks of :mod:`nbl_sim.presentation.tables`) on stdout."""
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    print(render(report, width=width))


def _number(x) -> str:
    return f"{x:d}" if isinstance(x, int) else f"{x:g}"


class ProgressDisplay:
    """The ``progress(done, total)`` callback of one long piece of work (see the module
    docstring); :meth:`note` prints a line of its own (above the bar on a terminal)."""

    def __init__(self, label: str, period: float = PLAIN_PERIOD):
        self.label = label
        self.period = period
        self._console = Console(file=sys.stderr, markup=False, highlight=False, emoji=False)
        self.interactive = self._console.is_terminal and not self._console.is_dumb_terminal
        self._bar: Progress | None = None
        self._task = None
        self._start = self._last_time = time.monotonic()
        self._last_tenth = 0
        self._finished = False

    def __call__(self, done, total) -> None:
        now = time.monotonic()
        if self.interactive:
            self._update_bar(done, total)
            return
        finished = total > 0 and done >= total
        tenth = math.floor(10 * done / total) if total > 0 else 0
        if finished and self._finished:
            return
        if finished or tenth > self._last_tenth or now - self._last_time >= self.period:
            pct = 100 * done / total if total > 0 else 100.0
            print(f"{self.label}: {_number(done)}/{_number(total)} ({pct:.0f}%) "
                  f"{now - self._start:.0f} s", file=sys.stderr, flush=True)
            self._last_time, self._last_tenth, self._finished = now, tenth, finished

    def _update_bar(self, done, total) -> None:
        if self._bar is None:
            self._bar = Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                                 MofNCompleteColumn(), TaskProgressColumn(),
                                 TimeElapsedColumn(), TimeRemainingColumn(),
                                 console=self._console)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=total)
        self._bar.update(self._task, completed=done, total=total)

    def note(self, line: str) -> None:
        """Print ``line`` on stderr now (above the progress bar on a terminal)."""
        if self._bar is not None:
            self._bar.console.print(line)
        else:
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        """Stop the progress bar (it stays on screen at its last state)."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


@contextmanager
def progress(label: str):
    """``with progress("scanning delta") as bar: work(progress=bar)``."""
    display = ProgressDisplay(label)
    try:
        yield display
    finally:
        display.close()


@contextmanager
def claim_progress(label: str):
    """The ``progress(i, n, result)`` callback of :func:`proofs_check.registry.run_claims`:
    each claim's status, id and seconds as it finishes (``PASS         kappa-identity
    0.12 s``), with the progress display of :func:`progress`."""
    with progress(label) as display:
        def report(i, n, result) -> None:
            display.note(f"{result.status:<11}  {result.id}  {result.seconds:.2f} s")
            display(i, n)

        yield report
