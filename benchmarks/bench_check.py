"""Benchmark: ``nbl check`` serial (the registry's plain loop) against the parallel claim runner
(:func:`proofs_check.runner.run_claims_parallel`), and the speed-up the task structure allows on
a cluster.

Rows, in this order (full mode; ``--quick-only`` keeps the quick rows):

1. **study cells** — the regret-rate study (:mod:`nbl_sim.studies.rate_study`, ``FULL``)
   computed on a process pool of ``--workers`` and stored in the study cache under the sweep's
   own keys (what ``nbl study`` does), each cell's CPU seconds recorded. The cache is a fresh
   temporary ``$NBL_CACHE_DIR`` (so nothing is reused from earlier runs), and the full check
   below then reads the study from it, as ``nbl check`` does after ``nbl study``;
2. **full serial** — ``REGISTRY.run_claims()``: what ``nbl check`` ran before the runner
   (``--no-full-serial`` skips it);
3. **full parallel** — ``run_claims_parallel(workers=N, cache=<a fresh claims namespace>)``: no
   claim result is reused (the namespace is new for the row), the cells of the split study
   claims are read from the study cache of row 1 — exactly as the serial row reads them, and as
   ``nbl check`` does after ``nbl study`` — and the tasks are ordered longest first by the
   serial run's seconds (what the run-time history in the claims cache gives a real run);
4. **quick serial** / **quick parallel** — the same with ``quick=True`` (``nbl check --quick``).

Every check row runs in a **fresh Python process** (``--row``, internal), so no row profits
from caches an earlier row warmed, and pays the import of the claims as ``nbl check`` does.

Columns: wall seconds of the row's process (start-up and import included); run s = the check
call alone; CPU seconds of the row's process and of its pool workers (``getrusage`` of the
reaped children); cores busy = CPU / wall; others = CPU seconds every other process of the
machine used meanwhile (``/proc/stat``) / wall — a row with ``others`` well above 0 was slowed
by other jobs; speed-up = serial wall / parallel wall; equal = every claim's id, status,
computed value and (for non-FAIL) detail equal to the serial run, in the same order.

Then the **cluster projection**: every task's CPU seconds as measured in the workers of the
parallel run (each claim of a batch, and each cell of a split claim — the initialization grid,
the Greedy Logistic comparison and the large trajectory check are split per setting / link),
without the registry import that each worker pays once, and the study cells of row 1,
scheduled on ``--cluster`` workers by a greedy list schedule, longest processing time first
(LPT), each worker starting after the import (``importing the claims`` CPU seconds); speed-up
= total CPU / makespan. Three task structures: the claims and their cells (the study cells
kept apart, as after a prior ``nbl study``), with the study cells as tasks of the same
schedule (a cold ``nbl check``), and the study cells alone (``nbl study``). The split claims'
``combine`` runs in the parent (its CPU is printed). The longest tasks, which bound the
makespan, are listed with their share.

Usage::

    python benchmarks/bench_check.py [--workers 2] [--cluster 16] [--out benchmarks/results]
    python benchmarks/bench_check.py --quick-only --out benchmarks/results   # ~3 min, 2 cores

``--out DIR`` writes ``bench_check.json`` / ``.md`` (``bench_check_quick.*`` with
``--quick-only``). No assertion is made on any timing: the script reports, the reader judges.
Record the load average printed with the numbers; re-run when the machine is busy.
"""

from __future__ import annotations

import argparse
import datetime
import heapq
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _machine import cpu_model  # noqa: E402  (benchmarks/ is on sys.path)
from bench_scaling import load_average, machine_busy, process_cpu


def lpt_makespan(times, workers: int, startup: float = 0.0) -> float:
    """Makespan of the greedy list schedule of ``times`` on ``workers`` identical workers that
    each start after ``startup`` seconds, longest processing time first (each task to the least
    loaded worker)."""
    loads = [startup] * workers
    for t in sorted(times, reverse=True):
        heapq.heapreplace(loads, loads[0] + t)
    return max(loads)


def _startup_cpu() -> float:
    """CPU seconds a fresh Python process spends importing the claims (what every pool worker
    pays once): the median of three ``python -c 'import proofs_check.claims'``."""
    out = []
    for _ in range(3):
        k0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", "import proofs_check.claims"], check=True)
        k1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.append(k1.ru_utime + k1.ru_stime - k0.ru_utime - k0.ru_stime)
    return sorted(out)[1]


def timed_study_cell(cell) -> dict:
    """A study cell and its CPU seconds (top-level: run by pool workers)."""
    from nbl_sim.studies.rate_study import study_cell

    c0 = time.process_time()
    value = study_cell(cell)
    return {"value": value, "cpu": time.process_time() - c0}


def _view(results):
    return [[r.id, r.status, r.computed, None if r.status == "FAIL" else r.detail] for r in results]


def run_row(quick: bool, workers: int, estimates: dict | None) -> dict:
    """One check in this (fresh) process: ``workers`` 0 is the registry's plain loop
    (``REGISTRY.run_claims``, what ``nbl check`` ran before the runner), else
    ``run_claims_parallel(workers=N)`` with the tasks ordered by ``estimates``, the claim
    results in a fresh cache namespace (nothing reused) beside the study cache (the split
    study claims read their cells from it, as the serial registry does)."""
    t0 = time.perf_counter()
    from nbl_sim.runs.sweep import ChunkCache
    from proofs_check.registry import REGISTRY
    from proofs_check.runner import run_claims_parallel

    REGISTRY.all_claims()
    t1 = time.perf_counter()
    seen: list = []
    if workers == 0:
        res = REGISTRY.run_claims(quick=quick)
    else:
        fresh = ChunkCache(None, f"claims-bench-{os.getpid()}-{time.time_ns()}")
        res = run_claims_parallel(
            quick=quick, workers=workers, cache=fresh, on_task=seen.append, estimates=estimates
        )
    t2 = time.perf_counter()
    return {
        "import_s": t1 - t0,
        "run_s": t2 - t1,
        "view": _view(res),
        "seconds": {r.id: r.seconds for r in res},
        "parts": [[cid, cpu] for t in seen for cid, cpu in t.parts]
        + [[t.name, t.cpu] for t in seen if t.kind == "cell"],
        "combine_cpu": sum(t.cpu for t in seen if t.kind == "combine"),
        "n_tasks": len(seen),
    }


def _child(quick: bool, workers: int, estimates: dict | None) -> dict:
    """:func:`run_row` in a fresh Python process (no cache warmed by an earlier row), as a
    user runs ``nbl check``; its result through a JSON file."""
    with tempfile.TemporaryDirectory(prefix="bench-check-row-") as d:
        spec = Path(d) / "in.json"
        spec.write_text(json.dumps({"quick": quick, "workers": workers, "estimates": estimates}))
        subprocess.run(
            [sys.executable, __file__, "--row", str(spec)],
            check=True,
            cwd=Path(__file__).resolve().parent,
        )
        return json.loads((Path(d) / "out.json").read_text())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--workers", type=int, default=2, help="pool workers (default 2)")
    ap.add_argument("--cluster", type=int, default=16, help="workers of the projection")
    ap.add_argument("--quick-only", action="store_true", help="only the quick check")
    ap.add_argument(
        "--full-only", action="store_true", help="only the study cells and the full check"
    )
    ap.add_argument("--json", default=None, help="also write every number as JSON here")
    ap.add_argument(
        "--out",
        default=None,
        help="directory for bench_check[_quick].json and .md (e.g. benchmarks/results)",
    )
    ap.add_argument(
        "--no-full-serial", action="store_true", help="skip the serial full check (the longest row)"
    )
    ap.add_argument("--row", default=None, help=argparse.SUPPRESS)  # internal: one row
    args = ap.parse_args(argv)
    if args.row:
        spec = json.loads(Path(args.row).read_text())
        out = run_row(spec["quick"], spec["workers"], spec["estimates"])
        Path(args.row).with_name("out.json").write_text(json.dumps(out, default=str))
        return 0

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    tmp = tempfile.mkdtemp(prefix="bench-check-")
    os.environ["NBL_CACHE_DIR"] = tmp  # before any cache is made; workers inherit
    from nbl_sim.runs.execution import ProcessExecutor, cpu_count
    from nbl_sim.runs.sweep import ChunkCache, cell_key
    from nbl_sim.studies.rate_study import FULL, plan, study_cell

    load0, date = load_average(), datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    import_cpu = _startup_cpu()
    rows, tasks, study = [], {}, {}

    def measure(name, fn):
        b0, cp0, t0 = machine_busy(), process_cpu(), time.perf_counter()
        out = fn()
        wall, cpu = time.perf_counter() - t0, process_cpu() - cp0
        others = max(0.0, (machine_busy() - b0) - cpu) / wall
        rows.append(
            {"run": name, "wall_s": wall, "cpu_s": cpu, "cores_busy": cpu / wall, "others": others}
        )
        log(f"  {name}: {wall:.1f} s wall, {cpu:.1f} s CPU, load {load_average():.1f}")
        return out

    def save_partial():
        """The raw numbers so far (a run stopped early keeps them), next to ``--json``."""
        if args.json:
            Path(args.json).with_suffix(".partial.json").write_text(
                json.dumps(
                    {
                        "rows": rows,
                        "tasks": tasks,
                        "study": study,
                        "import_cpu_s": import_cpu,
                        "load_start": load0,
                    },
                    indent=1,
                )
            )

    if not args.quick_only:
        log("study cells ...")
        c0 = time.process_time()
        cells, _ = plan(FULL)
        study["plan_cpu_s"] = time.process_time() - c0
        cache = ChunkCache(None, "study")

        def run_cells():
            with ProcessExecutor(args.workers) as ex:
                for i, out in ex.run(timed_study_cell, cells):
                    if not isinstance(out, dict):
                        raise RuntimeError(f"study cell {i} failed: {out}")
                    cache.put(cell_key(study_cell, cells[i]), out["value"])
                    study.setdefault("cells", {})[i] = out["cpu"]

        measure("study cells", run_cells)
        save_partial()

    serial_times: dict = {}
    modes = [True] if args.quick_only else [False] if args.full_only else [False, True]
    for quick in modes:
        mode = "quick" if quick else "full"
        serial = None
        if quick or not args.no_full_serial:
            log(f"{mode} check, serial (fresh process) ...")
            serial = measure(f"{mode} serial", lambda q=quick: _child(q, 0, None))
            serial_times[mode] = serial["seconds"]
            rows[-1].update(run_s=serial["run_s"], import_s=serial["import_s"])
        log(f"{mode} check, parallel ({args.workers} workers, fresh process) ...")
        est = serial_times.get(mode)
        par = measure(f"{mode} parallel", lambda q=quick, e=est: _child(q, args.workers, e))
        rows[-1].update(
            run_s=par["run_s"],
            import_s=par["import_s"],
            tasks=par["n_tasks"],
            combine_cpu_s=par["combine_cpu"],
        )
        if serial is not None:
            rows[-1]["equal"] = par["view"] == serial["view"]
            rows[-1]["differ"] = [a[0] for a, b in zip(serial["view"], par["view"]) if a != b]
            rows[-1]["speedup"] = rows[-2]["wall_s"] / rows[-1]["wall_s"]
            rows[-2]["equal"] = True
        tasks[mode] = dict(par["parts"])
        statuses: dict = {}
        for _, status, *_rest in par["view"]:
            statuses[status] = statuses.get(status, 0) + 1
        rows[-1]["statuses"] = statuses
        save_partial()

    # ------------------------------------------------------------------ the projection
    proj = []
    for mode, t in tasks.items():
        base = list(t.values())
        variants = [("claims and cells", base)]
        if mode == "full" and study.get("cells"):
            variants.append(("claims + study cells", base + list(study["cells"].values())))
            variants.append(("study cells alone", list(study["cells"].values())))
        for name, times in variants:
            total = sum(times)
            for w in (args.workers, args.cluster):
                span = lpt_makespan(times, w, import_cpu)
                proj.append(
                    {
                        "mode": mode,
                        "tasks": name,
                        "n_tasks": len(times),
                        "workers": w,
                        "total_cpu_s": total,
                        "makespan_s": span,
                        "speedup": total / span,
                        "longest_s": max(times),
                    }
                )
    longest = {mode: sorted(t.items(), key=lambda kv: -kv[1])[:12] for mode, t in tasks.items()}

    load1 = load_average()
    lines: list[str] = []

    def out(text: str = "") -> None:
        print(text)
        lines.extend(str(text).split("\n"))

    head = (
        f"# bench_check  {date}  {cpu_model()} ({cpu_count()} cores)  python "
        f"{platform.python_version()}  workers={args.workers}  cluster={args.cluster}"
    )
    out(head)
    out(
        f"# 1-min load average {load0:.2f} at start, {load1:.2f} at end; a worker's start-up "
        f"(python -c 'import proofs_check.claims'): {import_cpu:.1f} s CPU"
    )
    out(
        f"\n{'run':<16} {'wall s':>8} {'run s':>8} {'CPU s':>8} {'cores busy':>10} "
        f"{'others':>7} {'speed-up':>8}  equal"
    )
    for r in rows:
        sp = f"{r['speedup']:.2f}x" if "speedup" in r else ""
        eq = {True: "yes", False: "NO"}.get(r.get("equal"), "")
        run_s = f"{r['run_s']:8.1f}" if "run_s" in r else f"{'':8}"
        out(
            f"{r['run']:<16} {r['wall_s']:8.1f} {run_s} {r['cpu_s']:8.1f} "
            f"{r['cores_busy']:10.2f} {r['others']:7.2f} {sp:>8}  {eq}"
        )
    for r in rows:
        if r.get("combine_cpu_s"):
            out(
                f"# {r['run']}: split claims combined in the parent: {r['combine_cpu_s']:.1f} s CPU"
            )
    for r in rows:
        if r.get("differ"):
            out(
                f"# {r['run']}: claims whose result differs from the serial run: "
                + ", ".join(r["differ"])
            )
    if study:
        cs = list(study.get("cells", {}).values())
        out(
            f"\nstudy: plan(FULL) {study['plan_cpu_s']:.1f} s CPU in the parent; {len(cs)} "
            f"cells, {sum(cs):.1f} s CPU, longest {max(cs):.2f} s"
        )
    out(
        f"\n{'mode':<6} {'tasks':<22} {'n':>4} {'workers':>7} {'total CPU s':>11} "
        f"{'makespan s':>10} {'longest s':>9} {'speed-up':>8}"
    )
    for p in proj:
        out(
            f"{p['mode']:<6} {p['tasks']:<22} {p['n_tasks']:4d} {p['workers']:7d} "
            f"{p['total_cpu_s']:11.1f} {p['makespan_s']:10.1f} {p['longest_s']:9.1f} "
            f"{p['speedup']:7.2f}x"
        )
    for mode, top in longest.items():
        total = sum(tasks[mode].values())
        out(
            f"\nlongest {mode} tasks (CPU s, share of {total:.0f} s): "
            + ", ".join(f"{k} {v:.1f} ({100 * v / total:.0f}%)" for k, v in top)
        )
    record = {
        "date": date,
        "cpu": cpu_model(),
        "cores": cpu_count(),
        "load_start": load0,
        "load_end": load1,
        "workers": args.workers,
        "cluster": args.cluster,
        "rows": rows,
        "projection": proj,
        "tasks": tasks,
        "study": study,
        "serial_seconds": serial_times,
        "import_cpu_s": import_cpu,
    }
    if args.json:
        Path(args.json).write_text(json.dumps(record, indent=1) + "\n")
    if args.out:
        d = Path(args.out)
        d.mkdir(parents=True, exist_ok=True)
        name = (
            "bench_check_quick"
            if args.quick_only
            else "bench_check_full"
            if args.full_only
            else "bench_check"
        )
        (d / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
        (d / f"{name}.md").write_text(
            f"# `benchmarks/bench_check.py`, {date}\n\n```\n"
            + "\n".join(lines).strip("\n")
            + "\n```\n"
        )
        log(f"wrote {d / name}.json and .md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
