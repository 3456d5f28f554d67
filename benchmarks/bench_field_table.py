"""Benchmark: the population field F at many directions from ``nbl_sim.population.population_table.
FieldTable`` (the 1-D reduction's two integrals tabulated in one angle, built here and timed
with its build) against ``nbl_sim.population.fields.population_field`` (the quadrature at every
direction), in one process, for the six paper links at Δ = 0.2, d = 3 (the geometry of the
conditional-field trajectory claims), on ``--directions`` random directions; with the largest
deviation of the two, in units of max(1, S). The ratio counts the table's build (one per link;
a trajectory cell of the claims evaluates 102,400 directions per build), "w/o build" does not.

    python benchmarks/bench_field_table.py [--directions 20000] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._machine import count, cpu_model  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--directions", type=count, default=10_000)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    from nbl_sim.population import fields as pop
    from nbl_sim.population.population_table import FieldTable
    from nbl_theory.paper import PAPER_LINKS

    rng = np.random.default_rng(20261127)
    rows = []
    print(
        f"{'link':<18} {'quadrature s':>12} {'build s':>8} {'eval s':>7} {'ratio':>7} "
        f"{'w/o build':>9} {'max dev':>9}"
    )
    for key in PAPER_LINKS:
        link = PAPER_LINKS[key].link()
        beta, _, _ = pop.arm_vectors(
            "0.2", 3, v_star=rng.standard_normal(3), theta_dir=rng.standard_normal(3)
        )
        V = rng.standard_normal((args.directions, 3))
        pop.population_field(link, beta, V[:2])  # the nodes, outside the timing
        c0 = time.process_time()
        quad = pop.population_field(link, beta, V)
        c1 = time.process_time()
        table = FieldTable(link)
        c2 = time.process_time()
        fast = table.field(beta, V)
        c3 = time.process_time()
        dev = float(np.max(np.abs(fast - quad))) / max(1.0, pop.quadrature_scale(link))
        rows.append(
            {
                "link": key,
                "quadrature_s": c1 - c0,
                "build_s": c2 - c1,
                "eval_s": c3 - c2,
                "ratio": (c1 - c0) / (c3 - c1),
                "ratio_without_build": (c1 - c0) / (c3 - c2),
                "max_dev": dev,
            }
        )
        print(
            f"{key:<18} {c1 - c0:12.3f} {c2 - c1:8.3f} {c3 - c2:7.3f} "
            f"{rows[-1]['ratio']:6.1f}x {rows[-1]['ratio_without_build']:8.0f}x {dev:9.1e}"
        )
    if args.json:
        Path(args.json).write_text(
            json.dumps({"cpu": cpu_model(), "directions": args.directions, "rows": rows}, indent=1)
            + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
