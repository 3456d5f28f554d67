"""Benchmark: one phase-diagram sweep on each executor, against the in-process run made in the
same process.

The sweep: λ* of the two-transition link over mu2 ∈ [−1.5, 2.5] (``--values`` points) × Δ ∈
[0.1, 1.5] (``--deltas`` points), ``tier="mpmath"`` (``stability(..., dps=30)``, ~0.4 s per grid
point), i.e. ``nbl_sim.studies.phase.phase_diagram`` with one cell per mu2 value (``--values`` cells
of ``--deltas`` points each). Default 16 × 6: ~40 s in-process.

Executors, in this order: ``SerialExecutor`` (the baseline), ``ProcessExecutor(2)``,
``DaskExecutor("local:1")``, ``DaskExecutor("local:2")`` and, unless ``--no-oversubscribe``,
``local:3`` and ``local:4`` (more single-threaded workers than cores).

What is timed: the wall clock of the ``phase_diagram`` call, once per executor.

* **Dask**: cluster start-up is *excluded*: starting the LocalCluster and the Client, and
  one untimed warm-up cell on every worker (``client.run``: imports and first use, as done in
  this process before the serial run), are timed separately and shown in the ``start-up s``
  column. Closing the cluster is not timed.
* **Process pool**: ``ProcessExecutor`` starts its ``spawn`` pool inside every ``run`` call, so
  its start-up (worker processes importing numpy/sympy/nbl_theory, ~1–2 s) is *included*: that
  is what a user pays per sweep. The pool start-up alone is measured beforehand on a one-cell
  float-tier sweep and printed.
* **CPU s**: CPU time spent during the sweep by this process, the pool's workers and the Dask
  workers (``time.process_time`` on each via ``client.run``); ``cores busy`` = CPU s / wall.
  ``others`` = CPU time taken meanwhile by every other process of the machine (``/proc/stat``
  busy time minus the sweep's own) / wall. On a shared machine these two columns show whether
  the workers actually got the cores: a row with ``others`` well above 0 was slowed by other
  jobs, not by the executor.
* Every result is checked against the serial one: λ* (``np.array_equal``, bit for bit) and the
  sign of every grid point.

Usage::

    python benchmarks/bench_scaling.py [--values 16] [--deltas 6] [--no-oversubscribe] [--json OUT]
    python benchmarks/bench_scaling.py --values 6 --deltas 2 --no-oversubscribe   # ~20 s

No assertion is made on any timing: the script reports, the reader judges.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import sys
import time
from pathlib import Path

import numpy as np
from _machine import cpu_model  # noqa: E402  (benchmarks/ is on sys.path)


def _machine() -> dict:
    cpu = cpu_model()
    from nbl_sim.runs.execution import cpu_count

    try:
        import distributed

        dist = distributed.__version__
    except ImportError:  # pragma: no cover
        dist = None
    import mpmath

    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "cpu": cpu,
        "cores": cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "mpmath": mpmath.__version__,
        "distributed": dist,
    }


def process_cpu() -> float:
    """CPU seconds (user + system) of this process and of its terminated children (the process
    pool's workers once the pool has shut down)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def machine_busy() -> float:
    """CPU seconds all processes of the machine have been busy (Linux /proc/stat; NaN
    elsewhere): minus this sweep's own CPU it shows what other jobs took meanwhile."""
    try:
        with open("/proc/stat") as fh:
            f = [int(x) for x in fh.readline().split()[1:]]
    except (OSError, ValueError):
        return float("nan")
    user, nice, system, idle, iowait, irq, softirq, steal = (f + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def load_average() -> float:
    """The 1-minute load average (NaN where the OS has none)."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--values", type=int, default=16, help="mu2 values (= cells), default 16")
    ap.add_argument("--deltas", type=int, default=6, help="Δ values per cell, default 6")
    ap.add_argument("--no-oversubscribe", action="store_true", help="skip local:3 and local:4")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)

    from nbl_sim.runs.execution import DaskExecutor, ProcessExecutor, SerialExecutor
    from nbl_sim.studies.phase import PhaseCell, grid_values, phase_cell, phase_diagram

    machine = _machine()
    load0 = load_average()
    values = grid_values(-1.5, 2.5, args.values)
    deltas = grid_values(0.1, 1.5, args.deltas)
    points = len(values) * len(deltas)

    def sweep(name, workers, executor, startup=None):
        """Time one phase_diagram call; append its row (wall s, CPU s of this process + pool
        workers + Dask workers, CPU s of every other process on the machine)."""
        dask = isinstance(executor, DaskExecutor)
        w0 = executor.client.run(time.process_time) if dask else {}
        c0, b0 = process_cpu(), machine_busy()
        tic = time.perf_counter()
        pd = phase_diagram(
            "two-transition", "mu2", values, deltas, tier="mpmath", executor=executor
        )
        wall = time.perf_counter() - tic
        cpu, busy = process_cpu() - c0, machine_busy() - b0
        if dask:
            w1 = executor.client.run(time.process_time)
            cpu += sum(w1[k] - w0[k] for k in w1 if k in w0)
        rows.append(
            {
                "executor": name,
                "workers": workers,
                "startup_s": startup,
                "wall_s": wall,
                "cpu_s": cpu,
                "other_cpu_s": max(0.0, busy - cpu),
                "result": pd,
            }
        )
        log(
            f"  {name}: sweep {wall:.1f} s"
            + ("" if startup is None else f" (start-up {startup:.1f} s, excluded)")
        )

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    # process-wide first use (imports, sympy, mpmath) on a grid point that is not benchmarked
    warm = PhaseCell("two-transition", "mu2", "0.3", (), ("0.7",), "mpmath")
    phase_cell(warm)
    tic = time.perf_counter()
    phase_diagram(
        "two-transition", "mu2", ["0.3"], ["0.7"], tier="float", executor=ProcessExecutor(2)
    )
    pool_start = time.perf_counter() - tic
    log(
        f"process pool start-up (one float-tier cell through ProcessExecutor(2)): "
        f"{pool_start:.2f} s"
    )

    rows: list[dict] = []
    log(f"{points} grid points per sweep")
    sweep("SerialExecutor()", 1, SerialExecutor())
    sweep("ProcessExecutor(2)", 2, ProcessExecutor(2))
    for n in [1, 2] + ([] if args.no_oversubscribe else [3, 4]):
        tic = time.perf_counter()
        ex = DaskExecutor(f"local:{n}")
        try:
            ex.client.wait_for_workers(n)
            ex.client.run(phase_cell, warm)  # first use on every worker, as in this process
            sweep(f"DaskExecutor('local:{n}')", n, ex, time.perf_counter() - tic)
        finally:
            ex.close()

    base, base_s = rows[0]["result"], rows[0]["wall_s"]
    for r in rows:
        pd = r.pop("result")
        r["equal"] = bool(
            not pd.failures
            and np.array_equal(pd.lambda_star, base.lambda_star)
            and np.array_equal(pd.sign, base.sign)
        )
    for r in rows:
        r["speedup"] = base_s / r["wall_s"]
        r["efficiency"] = r["speedup"] / min(r["workers"], machine["cores"])
    load1 = load_average()

    print(
        f"# bench_scaling  two-transition mu2 x delta = {len(values)} x {len(deltas)} = "
        f"{points} points, tier=mpmath (dps=30), {len(values)} cells  {machine['date']}  "
        f"{machine['cpu']} ({machine['cores']} cores)  python {machine['python']}, "
        f"distributed {machine['distributed']}"
    )
    print(
        "# wall = the phase_diagram call; Dask cluster start-up (LocalCluster + Client + "
        "a warm-up cell on every worker) excluded and shown; the process pool is started "
        f"inside every sweep, so included (pool start-up alone: {pool_start:.1f} s); "
        "speed-up = serial wall / wall; efficiency = speed-up / min(workers, cores); "
        "CPU s = this process + pool workers + Dask workers during the sweep, cores busy = "
        "CPU s / wall; others = cores used meanwhile by every other process (/proc/stat); "
        "equal = lambda* bit for bit and every sign equal to serial"
    )
    head = [
        "executor",
        "workers",
        "start-up s",
        "wall s",
        "speed-up",
        "efficiency",
        "CPU s",
        "cores busy",
        "others",
        "equal",
    ]
    cells = [
        [
            r["executor"],
            str(r["workers"]),
            "-" if r["startup_s"] is None else f"{r['startup_s']:.1f}",
            f"{r['wall_s']:.1f}",
            f"{r['speedup']:.2f}x",
            f"{r['efficiency']:.2f}",
            f"{r['cpu_s']:.1f}",
            f"{r['cpu_s'] / r['wall_s']:.2f}",
            f"{r['other_cpu_s'] / r['wall_s']:.2f}",
            "yes" if r["equal"] else "NO",
        ]
        for r in rows
    ]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(head)]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip())
    print("  ".join("-" * w for w in widths))
    for c in cells:
        print("  ".join(x.ljust(w) for x, w in zip(c, widths)).rstrip())
    print(f"# 1-min load average {load0:.2f} at start, {load1:.2f} at end")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "values": values,
                    "deltas": deltas,
                    "rows": rows,
                    "pool_startup_s": pool_start,
                    "machine": machine,
                    "loadavg_1min": [load0, load1],
                },
                indent=2,
            )
            + "\n"
        )
    return 0 if all(r["equal"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
