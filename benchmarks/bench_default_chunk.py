"""Benchmark: ``simulate()`` at the ``nbl simulate`` defaults (logistic, Δ = 1, d = 2, 100
replications × 10⁴ rounds, NBL, in-process, reference backend) as one chunk of 100 (now) against
the 96 + 4 split the lockstep rounding made before (``chunk_size=96``), interleaved in one
process; the ratio of medians. The numbers are the same bits either way (checked here).

Usage::

    python benchmarks/bench_default_chunk.py [--repeats 5]
"""

import argparse
import statistics
import time

import numpy as np

from nbl_sim.engine.environment import Environment
from nbl_sim.runs.execution import SerialExecutor
from nbl_sim.studies.experiment import simulate
from nbl_theory.families import make_family


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=5)
    a = p.parse_args(argv)
    if not 1 <= a.repeats <= 100:
        p.error("--repeats must be in [1, 100]")
    env = Environment.build(make_family("logistic"), "1", 2)
    kw = dict(n=10_000, reps=100, n0=200, seed=0, executor=SerialExecutor(), cache=None)
    times = {"one chunk (100)": [], "96 + 4 (before)": []}
    results = {}
    simulate(env, **kw)  # one-off costs outside the timed runs
    for _ in range(a.repeats):
        for name, size in (("one chunk (100)", None), ("96 + 4 (before)", 96)):
            tic = time.perf_counter()
            results[name] = simulate(env, chunk_size=size, **kw)
            times[name].append(time.perf_counter() - tic)
    r1, r2 = (results[k].policies["nbl"] for k in times)
    same = all(
        np.array_equal(getattr(r1, f), getattr(r2, f), equal_nan=True)
        for f in ("regret", "sq_error", "angle")
    )
    med = {k: statistics.median(v) for k, v in times.items()}
    for k, v in times.items():
        print(f"{k:18s} median {med[k]:.3f} s  (min {min(v):.3f}, max {max(v):.3f})")
    print(
        f"before / now: {med['96 + 4 (before)'] / med['one chunk (100)']:.2f}x; "
        f"identical numbers: {same}"
    )


if __name__ == "__main__":
    main()
