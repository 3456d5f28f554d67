"""Where the command writes, chosen once for every subcommand: reports (tables) on stdout,
progress on stderr — both with rich (a well-kept library for terminal tables and progress bars,
so neither is hand-written here).

* :func:`show` prints a report of :mod:`nbl_sim.presentation.tables` as plain text, fitted to
  the terminal's width when stdout is a terminal and never wrapped when it is not (a file or a
  pipe gets whole lines).
* :func:`progress` is a context manager giving a ``progress(done, total)`` callback: a rich
  progress bar when stderr is a terminal; otherwise plain lines such as
  ``checking claims: 40/149 (27%) 35 s``, one each time another tenth of the work is done or
  :data:`PLAIN_PERIOD` seconds have passed (also while one long piece of work runs: a ticker
  thread repeats the last state), and one at the end. Work that ends within
  :data:`DELAY` seconds shows nothing (a quick command stays quiet); input errors, found before
  any work, stay one line. ``nbl --quiet`` (:func:`set_quiet`) turns every display off.
"""

from __future__ import annotations

import math
import shutil
import sys
import threading
import time
from contextlib import contextmanager

__all__ = [
    "show",
    "progress",
    "claim_progress",
    "ProgressDisplay",
    "PLAIN_PERIOD",
    "DELAY",
    "set_quiet",
    "note",
]

#: seconds between two plain progress lines (when stderr is not a terminal)
PLAIN_PERIOD = 5.0
#: seconds of work before anything is shown
DELAY = 2.0
_QUIET = [False]


def set_quiet(quiet: bool) -> None:
    """Show no progress (``nbl --quiet``)."""
    _QUIET[0] = bool(quiet)


def note(line: str) -> None:
    """A line on stderr (unless quiet), e.g. the expected time of a long ``--dps``."""
    if not _QUIET[0]:
        print(line, file=sys.stderr, flush=True)


def show(report) -> None:
    """Print ``report`` (blocks of :mod:`nbl_sim.presentation.tables`) on stdout."""
    from nbl_sim.presentation.tables import render

    width = shutil.get_terminal_size().columns if sys.stdout.isatty() else None
    print(render(report, width=width))


def _number(x) -> str:
    return f"{x:d}" if isinstance(x, int) else f"{x:g}"


class ProgressDisplay:
    """The ``progress(done, total)`` callback of one long piece of work (see the module
    docstring); :meth:`note` prints a line of its own (above the bar on a terminal)."""

    def __init__(self, label: str, period: float = PLAIN_PERIOD, delay: float = DELAY):
        from rich.console import Console

        self.label = label
        self.period = period
        self.delay = delay
        self.quiet = _QUIET[0]
        self._console = Console(file=sys.stderr, markup=False, highlight=False, emoji=False)
        self.interactive = self._console.is_terminal and not self._console.is_dumb_terminal
        self._bar = None
        self._task = None
        self._start = self._last_time = time.monotonic()
        self._last_tenth = 0
        self._finished = False
        self._shown = False
        self._state = None
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._ticker = None

    def start_ticker(self, every: float = 1.0) -> None:
        """Repeat the last state every ``every`` seconds (from a daemon thread), so one long
        piece of work still shows its elapsed time."""
        if self.quiet or self._ticker is not None:
            return

        def tick():
            while not self._stop.wait(every):
                if self._state is not None:
                    self(*self._state)

        self._ticker = threading.Thread(target=tick, name="nbl-progress", daemon=True)
        self._ticker.start()

    def __call__(self, done, total) -> None:
        if self.quiet:
            return
        with self._lock:
            self._state = (done, total)
            self._show(done, total)

    def _show(self, done, total) -> None:
        now = time.monotonic()
        if not self._shown and now - self._start < self.delay:
            return
        if self.interactive:
            self._update_bar(done, total)
            return
        finished = total > 0 and done >= total
        tenth = math.floor(10 * done / total) if total > 0 else 0
        if finished and self._finished:
            return
        first = self.delay > 0 and not self._shown  # the first line after a silent wait
        if first or finished or tenth > self._last_tenth or now - self._last_time >= self.period:
            pct = 100 * done / total if total > 0 else 100.0
            print(
                f"{self.label}: {_number(done)}/{_number(total)} ({pct:.0f}%) "
                f"{now - self._start:.0f} s",
                file=sys.stderr,
                flush=True,
            )
            self._last_time, self._last_tenth, self._finished = now, tenth, finished
            self._shown = True

    def _update_bar(self, done, total) -> None:
        if self._bar is None:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TaskProgressColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn("{task.description}", markup=False),
                BarColumn(),
                MofNCompleteColumn(),
                TaskProgressColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=self._console,
            )
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=total)
            self._shown = True
        self._bar.update(self._task, completed=done, total=total)

    def note(self, line: str) -> None:
        """Print ``line`` on stderr now (above the progress bar on a terminal)."""
        if self.quiet:
            return
        with self._lock:
            if self._bar is not None:
                self._bar.console.print(line)
            else:
                print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        """Stop the ticker and the progress bar (it stays on screen at its last state)."""
        self._stop.set()
        with self._lock:
            if self._bar is not None:
                self._bar.stop()
                self._bar = None


@contextmanager
def progress(label: str):
    """``with progress("scanning delta") as bar: work(progress=bar)``."""
    display = ProgressDisplay(label)
    display.start_ticker()
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
