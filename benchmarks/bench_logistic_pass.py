"""Benchmark: Greedy Logistic's kernel with the unrolled gradient–Hessian passes (p = 2, 3)
against the same kernel compiled with the general loop over the coefficients (the code before
them: ``_grad_hess_any`` put in the place of ``_grad_hess``), in one process, on the data of the
paper's comparison (app:logistic-comparison: Δ = 1, d = 2, n = 2000, n0 = 200, the
``COMPARISON_SETTING``) for a link of ``logistic-comparison-rho`` and one of
``-two-transition`` — intercept on (p = 3) and off (p = 2) — and d = 8 as a control (p = 9 and 8
take the general loop in both: ratio ~1).

    python benchmarks/bench_logistic_pass.py [--reps 40] [--rounds 3] [--json OUT]

CPU seconds of ``_greedy_kernel`` on ``--reps`` replications, alternating rounds, medians;
outputs (actions, coefficients, Newton counters) compared bit for bit. Compile time excluded.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._machine import count, cpu_model  # noqa: E402


def _loop_kernel(gl):
    """``gl._greedy_kernel`` compiled with the general pass in place of ``_grad_hess``."""
    from numba import njit

    ns = dict(vars(gl), _grad_hess=gl._grad_hess_any)
    ns["_newton"] = njit(types.FunctionType(gl._newton.py_func.__code__, ns, "_newton"))
    return njit(types.FunctionType(gl._greedy_kernel.py_func.__code__, ns, "_greedy_kernel"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=count, default=40, help="replications per call (40)")
    ap.add_argument("--rounds", type=count, default=3, help="alternating timed rounds (3)")
    ap.add_argument("--json", default=None, help="also write the numbers as JSON here")
    args = ap.parse_args(argv)
    import numpy as np

    import nbl_sim.engine.greedy_kernel as gl
    from nbl_sim.engine.environment import Environment
    from nbl_theory.paper import COMPARISON_SETTING as C
    from nbl_theory.paper import PAPER_LINKS

    loop = _loop_kernel(gl)
    rows = []
    for key, d in (("we-0.60", C["d"]), ("tt-unstable", C["d"]), ("tt-stable", 8)):
        env = Environment.build(PAPER_LINKS[key].link(), C["delta"], d)
        real = env.draw(0, range(args.reps), C["n"], C["n0"])
        for intercept in (True, False):
            a = (real.X, real.Y, real.coins, intercept, 1e-6, 1e-10, 50)
            same = all(
                np.array_equal(u, v) for u, v in zip(gl._greedy_kernel(*a), loop(*a))
            )  # also compiles both
            t = {"loop": [], "unrolled": []}
            for _ in range(args.rounds):
                for name, f in (("loop", loop), ("unrolled", gl._greedy_kernel)):
                    c0 = time.process_time()
                    f(*a)
                    t[name].append(time.process_time() - c0)
            med = {k: statistics.median(v) for k, v in t.items()}
            p = d + intercept
            rows.append(
                {
                    "link": key,
                    "d": d,
                    "p": p,
                    "intercept": intercept,
                    "reps": args.reps,
                    "cpu_s": med,
                    "ratio": med["loop"] / med["unrolled"],
                    "identical": same,
                }
            )
            print(
                f"{key:9s} d={d} p={p}  loop {med['loop']:.3f} s  unrolled "
                f"{med['unrolled']:.3f} s CPU  ratio {rows[-1]['ratio']:.2f}x  "
                f"identical {same}",
                flush=True,
            )
    if args.json:
        Path(args.json).write_text(
            json.dumps({"cpu": cpu_model(), "rounds": args.rounds, "rows": rows}, indent=1) + "\n"
        )
    return 0 if all(r["identical"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
