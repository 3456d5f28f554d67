"""Benchmark: ``simulate()`` against a plain numpy loop over rounds vectorized across
replications, same link and sizes, in one process (issue 37's target "``simulate()`` ≥ 5× at
d = 2 and d = 8 at 1,000 replications × 10⁴ rounds").

The loop is :func:`numpy_loop_script.run` — what a user would write instead of ``nbl simulate``:
the logistic link, Δ = 1, Bernoulli rewards, NBL with γ = 10, t0 = 500 after n0 = 200 fair coins,
‖v_t − v*‖² and the angle recorded every 20 rounds, every random number drawn up front. Its
streams are not the toolkit's, so the two runs agree in distribution, not in bits: the table
prints both mean final regrets with their standard errors as a check that they simulate the
same bandit.

Rows, for each d (wall and process CPU seconds over ``--repeats`` interleaved rounds: the median,
the minimum in parentheses; the ratio is of the medians; every time is in the JSON):

* ``loop``: the numpy loop;
* ``simulate``: :func:`nbl_sim.studies.experiment.simulate` as a user calls it (the automatic
  executor: in-process, the blocks on every core by threads);
* ``simulate, workers=1``: the same on one core;
* ``simulate, generators`` (and ``…, workers=1``): the same with the draw's block passes turned
  off (``Environment._draws_blocks`` patched to False): numpy's generator objects built for every
  replication, one replication at a time — what the block passes and their compiled seeding earn
  end to end (issue 37: a piece of compiled machinery stays only if it earns ≥ 1.5×);
* ``first call``: ``simulate`` as the first call of a fresh process (its imports excluded, the
  compiled kernels' load from numba's cache included), once, in a subprocess.

Usage::

    python benchmarks/bench_simulate_loop.py [--reps 1000] [--n 10000] [--repeats 3] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import write_record  # noqa: E402
from numpy_loop_script import run as numpy_loop  # noqa: E402

from nbl_sim.engine.environment import Environment  # noqa: E402
from nbl_sim.runs.execution import cpu_count  # noqa: E402
from nbl_sim.studies.experiment import simulate  # noqa: E402
from nbl_theory.families import make_family  # noqa: E402

_FIRST_CALL = """
import json, sys, time
from nbl_sim.engine.environment import Environment
from nbl_sim.studies.experiment import simulate
from nbl_theory.families import make_family
d, reps, n = map(int, sys.argv[1:4])
env = Environment.build(make_family("logistic"), 1, d)
c, w = time.process_time(), time.perf_counter()
simulate(env, n=n, reps=reps, seed=0)
print(json.dumps([time.process_time() - c, time.perf_counter() - w]))
"""


def _timed(fn):
    c, w = time.process_time(), time.perf_counter()
    out = fn()
    return (time.process_time() - c, time.perf_counter() - w), out


def _without_blocks(fn):
    """``fn()`` with the draw's block passes off (numpy's generators per replication)."""
    on = Environment._draws_blocks
    Environment._draws_blocks = lambda self: False
    try:
        return fn()
    finally:
        Environment._draws_blocks = on


def _first_call(d: int, reps: int, n: int) -> tuple:
    """(CPU, wall) seconds of ``simulate`` as the first call of a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c", _FIRST_CALL, str(d), str(reps), str(n)],
        capture_output=True,
        text=True,
        check=True,
    )
    return tuple(json.loads(out.stdout))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--d", type=int, nargs="+", default=[2, 8])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    link = make_family("logistic")
    rows: dict = {}
    for d in a.d:
        env = Environment.build(link, 1, d)
        cases = {
            "loop": lambda d=d: numpy_loop(a.reps, a.n, 1.0, d, 0)[:2],
            "simulate": lambda env=env: simulate(env, n=a.n, reps=a.reps, seed=0),
            "simulate, workers=1": lambda env=env: simulate(
                env, n=a.n, reps=a.reps, seed=0, workers=1
            ),
            "simulate, generators": lambda env=env: _without_blocks(
                lambda: simulate(env, n=a.n, reps=a.reps, seed=0)
            ),
            "simulate, generators, workers=1": lambda env=env: _without_blocks(
                lambda: simulate(env, n=a.n, reps=a.reps, seed=0, workers=1)
            ),
        }
        simulate(env, n=200, reps=16, seed=0, workers=1)  # load the kernels, untimed
        times: dict = {k: [] for k in cases}
        means = {}
        for _ in range(a.repeats):  # interleaved rounds
            for k, fn in cases.items():
                t, out = _timed(fn)
                times[k].append(t)
                means[k] = out
        times["first call"] = [_first_call(d, a.reps, a.n)]
        med = {k: [statistics.median(x[i] for x in v) for i in (0, 1)] for k, v in times.items()}
        low = {k: [min(x[i] for x in v) for i in (0, 1)] for k, v in times.items()}
        res = means["simulate"]
        final = res.policies["nbl"].regret[:, -1]
        rows[d] = {
            "seconds": {k: [{"cpu": c, "wall": w} for c, w in v] for k, v in times.items()},
            "median_wall": {k: v[1] for k, v in med.items()},
            "ratio_median_wall": {k: med["loop"][1] / v[1] for k, v in med.items() if k != "loop"},
            "executor": res.executor,
            "regret_loop": [float(means["loop"][0]), float(means["loop"][1])],
            "regret_simulate": [float(final.mean()), float(final.std(ddof=1) / a.reps**0.5)],
        }
        for k, v in med.items():
            ratio = "" if k == "loop" else f"  loop/this {med['loop'][1] / v[1]:5.1f}x"
            print(
                f"d={d:<2} {k:20s} wall {v[1]:6.3f} ({low[k][1]:6.3f}) s  cpu {v[0]:6.3f} s{ratio}",
                flush=True,
            )
        rl, rs = rows[d]["regret_loop"], rows[d]["regret_simulate"]
        print(
            f"d={d:<2} final regret: loop {rl[0]:.2f} ± {1.96 * rl[1]:.2f}, "
            f"simulate {rs[0]:.2f} ± {1.96 * rs[1]:.2f}  ({res.executor})"
        )
    if a.json:
        write_record(
            a.json,
            {
                "reps": a.reps,
                "n": a.n,
                "repeats": a.repeats,
                "cores": cpu_count(),
                "results": rows,
            },
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
