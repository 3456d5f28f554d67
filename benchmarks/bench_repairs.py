"""Benchmark: the exact analysis of one (repair, law, link, Δ) case in d = 2
(nbl_sim.beyond.repairs.analyze_repair), against the plain analysis of the same case
(nbl_sim.beyond.analyze) run in the same process.

What is timed
-------------
* ``analyze_repair`` — the repaired problem (whitened law and arms, the Stage I reward offset),
  its field model (polar quadrature at two resolutions; for centred rewards a second model of
  the offset arms), the equilibrium test and spectrum at the optimal normal, every zero of the
  repaired H on a 720-point circle with its spectrum, the learned boundary mapped back to the
  original coordinates and its regret, with the best linear boundary given (the grid computes it
  once per cell, from the plain analysis). Target (issue 39): ≤ 1 s in float64.
* ``analyze`` — the baseline: the plain analysis of the same (law, arms), including its best
  linear boundary.

The ratio is repair / plain (how much the repair's analysis costs over the analysis every
user of ``nbl stability --contexts`` already runs). Median of the repeats; the load of the
machine is printed (other processes on a shared host inflate both columns alike).

Usage::

    python benchmarks/bench_repairs.py [--quick] [--json OUT]

No assertion is made on any timing: the script reports, the reader judges.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import platform
import statistics
import sys
import time

from nbl_sim.beyond import analyze
from nbl_sim.beyond.arms import parse_arms_spec
from nbl_sim.beyond.contexts import parse_context_spec
from nbl_sim.beyond.repairs import REPAIRS, analyze_repair
from nbl_theory.paper import paper_link

TARGET_S = 1.0
#: (paper link, Δ, context law, arms)
CASES = [
    ("tt-stable", "1", "gaussian:cond=3,angle=30", "symmetric"),
    ("tt-stable", "1", "gaussian:cond=3,angle=90", "symmetric"),
    ("tt-stable", "1", "cube", "rotate=45"),
    ("tt-stable", "1", "gaussian", "shift=0.4"),
    ("we-0.72", "0.2", "student-t:nu=5", "symmetric"),
]
QUICK_CASES = CASES[:2]
REPEATS, QUICK_REPEATS = 5, 2

from _machine import cpu_model  # noqa: E402  (benchmarks/ is on sys.path)


def _median_time(fn, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def run(quick: bool = False) -> dict:
    cases = QUICK_CASES if quick else CASES
    repeats = QUICK_REPEATS if quick else REPEATS
    rows = []
    for key, delta, law_spec, arms_spec in cases:
        law = parse_context_spec(law_spec)
        arms = parse_arms_spec(arms_spec, paper_link(key), delta)
        analyze(law, arms)  # warm: link tables, compiled pieces
        t_plain, plain = _median_time(functools.partial(analyze, law, arms), repeats)
        best = (plain.best_linear_angle_deg, plain.best_linear_regret)
        for rep in REPAIRS:
            t_rep, row = _median_time(
                functools.partial(analyze_repair, law, arms, rep, best_linear=best), repeats
            )
            rows.append(
                {
                    "link": key,
                    "delta": delta,
                    "law": law_spec,
                    "arms": arms_spec,
                    "repair": rep,
                    "seconds": t_rep,
                    "plain_seconds": t_plain,
                    "ratio": t_rep / t_plain,
                    "within_target": t_rep <= TARGET_S,
                    "verdict": row["verdict"],
                }
            )
            print(
                f"{key:10s} {delta:4s} {law_spec:26s} {arms_spec:10s} {rep:17s} "
                f"{t_rep:7.3f} s  plain {t_plain:7.3f} s  ratio {t_rep / t_plain:5.2f}  "
                f"{row['verdict']}",
                flush=True,
            )
    return {
        "when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "cpu": cpu_model(),
        "load": os.getloadavg(),
        "repeats": repeats,
        "target_s": TARGET_S,
        "rows": rows,
        "max_seconds": max(r["seconds"] for r in rows),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", metavar="OUT")
    args = ap.parse_args(argv)
    res = run(args.quick)
    print(
        f"slowest case {res['max_seconds']:.3f} s (target {TARGET_S:g} s); load "
        f"{', '.join(f'{x:.1f}' for x in res['load'])}"
    )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(res, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
