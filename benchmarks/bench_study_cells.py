"""Benchmark: the regret-rate study's cells drawn in blocks of eight replications through one kept
buffer (``nbl_sim.studies.rate_study._in_blocks``) against the same cells drawn whole (the previous
behaviour: ``_CELL_BLOCK`` set past the cell's size), in one process.

Cases: from ``plan(FULL)`` (what ``nbl study`` and the full ``nbl check`` compute), ``--per-kind``
cells of each kind (regret, gamma, localization, contrast), spread over the plan (first, middle,
last, ...). Each round runs every cell once blocked and once whole, in alternating order, and
the process CPU time (user and system separately, ``resource.getrusage``) is summed per method
over ``--rounds`` rounds; one untimed warm-up round loads the compiled kernels and the reward
tables. The outputs of the two methods are compared bit for bit (every array of every cell);
the script exits 1 if they differ.

Why: a cell drawn whole holds its replications' contexts, rewards and error paths at once —
200 replications × 10⁵ rounds in d = 2 is 1.4 GB — and every cell faults those pages in afresh
(numpy asks for transparent huge pages; the kernel zeroes each), which shows up as system time.

    python benchmarks/bench_study_cells.py [--per-kind 3] [--rounds 2] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._machine import count, cpu_model  # noqa: E402
from nbl_sim.studies import rate_study  # noqa: E402


def _cpu() -> tuple[float, float]:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime, r.ru_stime


def _run(cell, whole: bool) -> dict:
    saved = rate_study._CELL_BLOCK
    rate_study._CELL_BLOCK = 10**9 if whole else saved
    try:
        return rate_study.study_cell(cell)
    finally:
        rate_study._CELL_BLOCK = saved


def _pick(per_kind: int) -> list:
    cells, _ = rate_study.plan(rate_study.FULL)
    kinds: dict = {}
    for c in cells:
        kinds.setdefault(type(c).__name__, []).append(c)
    out = []
    for group in kinds.values():
        idx = np.unique(np.linspace(0, len(group) - 1, per_kind).round().astype(int))
        out += [group[i] for i in idx]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-kind", type=count, default=3, help="cells of each kind (default 3)")
    ap.add_argument("--rounds", type=count, default=2, help="timed rounds (default 2)")
    ap.add_argument("--json", type=Path, help="also write every number as JSON here")
    args = ap.parse_args(argv)
    cells = _pick(args.per_kind)
    print(f"{len(cells)} cells; warm-up ...", file=sys.stderr)
    for c in cells:
        _run(c, False)
    rows = {
        (type(c).__name__, c.reps, i): {"blocked": [0.0, 0.0], "whole": [0.0, 0.0]}
        for i, c in enumerate(cells)
    }
    identical = True
    tic = time.perf_counter()
    for r in range(args.rounds):
        for i, c in enumerate(cells):
            outs = {}
            order = ("blocked", "whole") if (r + i) % 2 == 0 else ("whole", "blocked")
            for name in order:
                u0, s0 = _cpu()
                outs[name] = _run(c, name == "whole")
                u1, s1 = _cpu()
                acc = rows[(type(c).__name__, c.reps, i)][name]
                acc[0] += u1 - u0
                acc[1] += s1 - s0
            a, b = outs["blocked"], outs["whole"]
            identical &= a.keys() == b.keys() and all(
                a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k], equal_nan=True) for k in a
            )
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    wall = time.perf_counter() - tic
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    print(
        f"# bench_study_cells  {stamp}  {cpu_model()}  rounds={args.rounds}  "
        "CPU s summed over rounds"
    )
    print(
        f"{'cell':34s} {'whole user':>10s} {'sys':>7s} {'blocked user':>12s} {'sys':>7s} "
        f"{'whole/blocked':>13s}"
    )
    tot = {"whole": [0.0, 0.0], "blocked": [0.0, 0.0]}
    for (kind, reps, _), v in rows.items():
        for k in tot:
            tot[k][0] += v[k][0]
            tot[k][1] += v[k][1]
        ratio = sum(v["whole"]) / max(sum(v["blocked"]), 1e-9)
        print(
            f"{kind + ' ' + str(reps):34s} {v['whole'][0]:10.2f} {v['whole'][1]:7.2f} "
            f"{v['blocked'][0]:12.2f} {v['blocked'][1]:7.2f} {ratio:12.2f}x"
        )
    ratio = sum(tot["whole"]) / sum(tot["blocked"])
    print(
        f"{'all':34s} {tot['whole'][0]:10.2f} {tot['whole'][1]:7.2f} {tot['blocked'][0]:12.2f} "
        f"{tot['blocked'][1]:7.2f} {ratio:12.2f}x"
    )
    print(f"identical: {'yes' if identical else 'NO'}; {wall:.0f} s wall")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "cpu": cpu_model(),
                    "date": stamp,
                    "rounds": args.rounds,
                    "identical": identical,
                    "total": tot,
                    "ratio": ratio,
                    "cells": [
                        {"kind": k, "reps": list(reps), **v} for (k, reps, _), v in rows.items()
                    ],
                },
                indent=1,
            )
            + "\n"
        )
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
