"""Benchmark: the ``nbl`` command's start-up, each subcommand in a fresh process, against the
start-up of ``python -c "import numpy"`` measured in the same run (issue 37, item 4).

What is timed is the wall time of a whole fresh process, ``python -m proofs_check.cli ARGS``
(the installed ``nbl`` entry point runs the same ``main``), from ``subprocess.run`` to its exit,
output discarded:

* ``nbl --help``: the parser alone;
* ``nbl stability --family logistic --delta 1`` (the float64 tier; issue 37's target ≤ 1.5 s);
* ``nbl simulate --family logistic --delta 1 --no-cache``: the default sizes (100 replications
  × 10⁴ rounds, policy nbl, in-process), the result computed — ``--no-cache`` only stops the
  cache of finished chunks, numba's compiled kernels are still loaded from their cache
  (issue 37's target ≤ 2 s);
* ``nbl simulate ...`` without ``--no-cache``: the same run answered from the chunk cache;
* ``simulate-mu2``: ``nbl simulate --family two-transition --param mu2=1.244122 --delta 0.5
  --no-cache``, issue 37's unstable link at the default sizes (a family's parameter: g without
  sympy since 2026-12-01, :data:`nbl_theory.float_families.FLOAT_PARAMS`);
* ``nbl proof --list``: the proof-step ledger's index;
* ``numpy-script``: not ``nbl`` — :file:`numpy_loop_script.py`, the same simulation as the
  ``simulate`` row written as one plain numpy script (a loop over rounds vectorized over
  replications): issue 37's target is the whole ``nbl simulate`` command faster than it.

Every command runs once unmeasured first (numba's kernel cache and the chunk cache warm, the
files in the OS page cache), then ``--repeats`` rounds (default 5); in each round the baseline
and every command run once, one after the other, so a change of machine load touches all rows
alike. A row reports the median, minimum and maximum wall time, the ratio of its median to
the baseline's median, and the median CPU time (user + system, ``os.wait4``) with its ratio to
the baseline's: on a shared machine the wall time grows with the load, the CPU time hardly.
``NBL_CACHE_DIR`` is a temporary directory unless ``--cache-dir`` names one, so the user's cache
is neither read nor written.

Bytecode: the commands run as a user's interpreter runs them, writing and reading the compiled
``__pycache__`` of nbl's own modules (the unmeasured run writes it), whatever
``PYTHONDONTWRITEBYTECODE`` says in the calling shell. With that variable set — some sandboxes
and CI images set it — every start re-compiles nbl's ~60 imported modules from source, about
0.25 s per command on the reference host, which no installed ``nbl`` pays. ``--no-bytecode``
measures that setting instead (the JSON records which was measured).

Before and after a change, in the same rounds: ``--against DIR`` adds, for every ``nbl`` row,
a row ``NAME@against`` that runs the same command with ``PYTHONPATH=DIR`` — the packages of
another checkout (e.g. ``git worktree add /tmp/before HEAD~1``) ahead of the installed ones.

Usage::

    python benchmarks/bench_startup.py [--repeats N] [--only NAME ...] [--cache-dir DIR]
                                       [--json OUT] [--no-bytecode] [--against DIR]

No assertion is made on any timing: the script reports, the reader judges.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import count, cpu_model  # noqa: E402

#: (row name, the arguments of ``nbl``); a row is (name, argv) or (name, argv, PYTHONPATH)
COMMANDS = [
    ("help", ["--help"]),
    ("stability", ["stability", "--family", "logistic", "--delta", "1"]),
    ("simulate", ["simulate", "--family", "logistic", "--delta", "1", "--no-cache"]),
    ("simulate-cached", ["simulate", "--family", "logistic", "--delta", "1"]),
    (
        "simulate-mu2",
        [
            "simulate",
            *("--family", "two-transition", "--param", "mu2=1.244122", "--delta", "0.5"),
            "--no-cache",
        ],
    ),
    ("proof-list", ["proof", "--list"]),
]
BASELINE = ("baseline", [sys.executable, "-c", "import numpy"])
#: the simulation of the ``simulate`` row as a plain numpy script (not nbl)
SCRIPT = (
    "numpy-script",
    [sys.executable, str(Path(__file__).resolve().parent / "numpy_loop_script.py")],
)


def _argv(args: list[str]) -> list[str]:
    return [sys.executable, "-m", "proofs_check.cli", *args]


def wall(argv: list[str], env: dict, cwd: str | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one fresh process running ``argv`` (its
    exit status must be 0). The CPU time is the process's own (``os.wait4``), its threads
    included, and hardly depends on what else the machine runs; the wall time does."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    t = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(
            f"bench_startup: {' '.join(argv)} exited {proc.returncode}: "
            f"{err.decode(errors='replace').strip()[-400:]}"
        )
    return t, usage.ru_utime + usage.ru_stime


#: the checkout this script belongs to: the ``nbl`` rows import its packages (as when they
#: ran from its root), an ``--against`` row another checkout's
CHECKOUT = str(Path(__file__).resolve().parents[1])


def _env(row, env: dict) -> dict:
    """The environment of one row: ``env`` with PYTHONPATH the row's checkout (this one
    unless the row names another)."""
    return dict(env, PYTHONPATH=row[2] if len(row) > 2 else CHECKOUT)


def measure(rows, repeats: int, env: dict, cwd: str) -> dict[str, list[tuple[float, float]]]:
    """(wall, CPU) seconds of every row, ``repeats`` interleaved rounds after one unmeasured
    run each, in the directory ``cwd``: not a checkout's root, where ``python -m`` would
    import that checkout's packages ahead of ``PYTHONPATH`` (and of the installed ones)."""
    for row in rows:
        print(f"warm-up: {row[0]}", file=sys.stderr)
        wall(row[1], _env(row, env), cwd)
    times: dict[str, list[tuple[float, float]]] = {row[0]: [] for row in rows}
    for r in range(repeats):
        print(f"round {r + 1}/{repeats}", file=sys.stderr)
        for row in rows:
            times[row[0]].append(wall(row[1], _env(row, env), cwd))
    return times


def table(rows, times) -> list[dict]:
    base = statistics.median(w for w, _ in times[BASELINE[0]])
    base_cpu = statistics.median(c for _, c in times[BASELINE[0]])
    out = []
    for row in rows:
        name, argv = row[0], row[1]
        t = [w for w, _ in times[name]]
        cpu = statistics.median(c for _, c in times[name])
        shown = {
            BASELINE[0]: "python -c 'import numpy'",
            SCRIPT[0]: "python benchmarks/numpy_loop_script.py",
        }.get(name, "nbl " + " ".join(argv[3:]))
        if len(row) > 2:
            shown = f"PYTHONPATH={row[2]} {shown}"
        out.append(
            {
                "name": name,
                "command": shown,
                "median_s": statistics.median(t),
                "min_s": min(t),
                "max_s": max(t),
                "cpu_s": cpu,
                "repeats": len(t),
                "ratio": statistics.median(t) / base,
                "cpu_ratio": cpu / base_cpu,
            }
        )
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=count, default=5, help="timed rounds (default 5)")
    p.add_argument(
        "--only",
        nargs="+",
        choices=[n for n, _ in COMMANDS] + [SCRIPT[0]],
        help="these rows only (the baseline always runs)",
    )
    p.add_argument(
        "--cache-dir",
        help="NBL_CACHE_DIR for the commands (default: a temporary directory, removed at the end)",
    )
    p.add_argument("--json", help="write the rows and the machine description here")
    p.add_argument(
        "--against",
        metavar="DIR",
        help="also run every nbl row with PYTHONPATH=DIR (another checkout's packages)",
    )
    p.add_argument(
        "--no-bytecode",
        action="store_true",
        help="run the commands with PYTHONDONTWRITEBYTECODE=1 (every start compiles from source)",
    )
    a = p.parse_args(argv)
    picked = [(n, _argv(args)) for n, args in COMMANDS if a.only is None or n in a.only]
    if a.against:
        if not (Path(a.against) / "proofs_check" / "cli" / "__init__.py").is_file():
            p.error(f"--against {a.against}: no proofs_check/cli there (a checkout's root)")
        picked += [(f"{n}@against", v, str(Path(a.against).resolve())) for n, v in picked]
    if a.only is None or SCRIPT[0] in a.only:
        picked.append(SCRIPT)
    rows = [BASELINE, *picked]
    with tempfile.TemporaryDirectory(prefix="nbl-bench-startup-") as tmp:
        env = dict(os.environ, NBL_CACHE_DIR=a.cache_dir or tmp)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if a.no_bytecode:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        load0 = os.getloadavg()[0]
        times = measure(rows, a.repeats, env, tmp)
        load1 = os.getloadavg()[0]
    result = table(rows, times)
    bytecode = "not written (PYTHONDONTWRITEBYTECODE=1)" if a.no_bytecode else "written and read"
    stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    print(
        f"# bench_startup  {stamp}  {cpu_model()} ({os.cpu_count()} cores)  "
        f"python {platform.python_version()}"
    )
    print(
        f"# wall time of a fresh process, median of {a.repeats} interleaved rounds after one "
        f"unmeasured run; ratio = median / baseline median; CPU s = median user + system "
        f"time of the process; 1-min load {load0:.2f} at start, {load1:.2f} at end; bytecode "
        f"{bytecode}"
    )
    print(
        f"{'row':<24}{'median s':>10}{'min s':>8}{'max s':>8}{'ratio':>8}{'CPU s':>8}"
        f"{'CPU ratio':>10}  command"
    )
    for r in result:
        print(
            f"{r['name']:<24}{r['median_s']:>10.3f}{r['min_s']:>8.3f}{r['max_s']:>8.3f}"
            f"{r['ratio']:>8.2f}{r['cpu_s']:>8.3f}{r['cpu_ratio']:>10.2f}  {r['command']}"
        )
    if a.json:
        Path(a.json).write_text(
            json.dumps(
                {
                    "benchmark": "bench_startup",
                    "time": stamp,
                    "rows": result,
                    "machine": {
                        "cpu": cpu_model(),
                        "cores": os.cpu_count(),
                        "python": platform.python_version(),
                        "load_start": load0,
                        "load_end": load1,
                        "bytecode": bytecode,
                        "against": a.against,
                    },
                },
                indent=2,
            )
            + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
