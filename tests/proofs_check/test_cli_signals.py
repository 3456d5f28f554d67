"""Ctrl-C and SIGTERM during a 2-worker ``nbl simulate`` (the installed command): the signal
goes to the parent alone; the parent, its pool workers and the multiprocessing helper all end
within 10 s, the exit status is 130 and stderr says so in one line (besides the plain progress
lines, when progress is shown).

The default suite runs one SIGINT and one SIGTERM; ``pytest -m slow`` repeats SIGINT 20 times
at varied moments after the workers have started (alternately with and without --quiet).
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

NBL = Path(sys.executable).with_name("nbl")
END_WITHIN = 10.0
PROGRESS = re.compile(r"^simulating \d+ replications: \d+/\d+ \(\d+%\) \d+ s$")


def _workers(proc: psutil.Process) -> list:
    out = []
    for child in proc.children(recursive=True):
        try:
            if "spawn_main" in " ".join(child.cmdline()):
                out.append(child)
        except psutil.Error:
            pass
    return out


def default_sigint() -> None:
    """Start ``nbl`` with SIGINT at its default disposition, as a terminal does. A job started
    in the background by a non-interactive shell (``cmd &``, e.g. a CI script) inherits SIGINT
    *ignored*, and Python then installs no KeyboardInterrupt handler: the command would rightly
    keep ignoring the signal, which is not what these tests are about."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt_once(tmp_path: Path, sig: int, quiet: bool, delay: float) -> None:
    argv = [
        str(NBL),
        "simulate",
        "--family",
        "logistic",
        "--delta",
        "1",
        "--n",
        "2000000",
        "--reps",
        "40",
        "--workers",
        "2",
        "--no-cache",
    ] + (["--quiet"] if quiet else [])
    env = {**os.environ, "NBL_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("NBL_DASK_SCHEDULER", None)
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
        start_new_session=True,
        text=True,
        preexec_fn=default_sigint,
    )
    try:
        parent = psutil.Process(proc.pid)
        deadline = time.monotonic() + 60
        while len(_workers(parent)) < 2:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the workers did not start within 60 s"
            time.sleep(0.05)
        time.sleep(delay)
        family = [parent, *parent.children(recursive=True)]
        assert proc.poll() is None, "the run ended before the signal"
        sent = time.monotonic()
        os.kill(proc.pid, sig)  # the parent alone, not the group
        out, err = proc.communicate(timeout=END_WITHIN)
        _, alive = psutil.wait_procs(
            family, timeout=max(0.1, END_WITHIN - (time.monotonic() - sent))
        )
        assert not alive, f"still running {END_WITHIN} s after the signal: {alive}"
        assert proc.returncode == 130, err
        lines = err.splitlines()
        assert lines and lines[-1] == "nbl: interrupted", err
        assert all(PROGRESS.match(ln) for ln in lines[:-1]), err
        if quiet:
            assert lines == ["nbl: interrupted"]
        assert "Traceback" not in err and out == ""
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_sigint_ends_every_process(tmp_path):
    interrupt_once(tmp_path, signal.SIGINT, quiet=True, delay=0.5)


def test_sigterm_behaves_like_ctrl_c(tmp_path):
    interrupt_once(tmp_path, signal.SIGTERM, quiet=False, delay=1.0)


@pytest.mark.slow
def test_sigint_twenty_times(tmp_path):
    rng = random.Random(20260)
    for i in range(20):
        d = tmp_path / str(i)
        d.mkdir()
        interrupt_once(d, signal.SIGINT, quiet=bool(i % 2), delay=rng.uniform(0.0, 2.0))
