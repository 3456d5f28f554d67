"""Benchmark: the NBL recursion (alg:nbl) — the compiled kernel against the straightforward numpy
implementation, in the same process, at the paper's stochastic setting (app:stochastic-nbl).

Setting: two-transition link mu2 = 1.244122, Δ = 0.2, d = 2, 10° start, γ = 10, t0 = 500,
n = 10,000 rounds, 100 replications (1e6 replication-steps); optionally also d = 8 and a
randomized start.

What is timed (median of ``--repeats`` runs after one warm-up call, so numba's one-time compile is
excluded and reported separately):

* ``baseline``: :func:`nbl_sim.engine.nbl_kernel.nbl_reference` — alg:nbl written literally in
  numpy, one Python-level iteration per round updating all replications at once (the obvious way);
* ``kernel``: :func:`nbl_sim.engine.nbl_kernel.nbl_run` with only the final round recorded;
* ``kernel+rec``: the same recording ‖v_t − v*‖² and α_t every round (what ``simulate`` stores
  at ~500 rounds; every round is the worst case);
* ``environment``: drawing the realization (contexts, both arms' Bernoulli rewards) — shared by
  every policy, reported for context;
* ``simulate``: the whole :func:`nbl_sim.studies.experiment.simulate` in-process (draw + kernel +
  regret + summaries).

Both implementations see the same arrays; the script checks they choose the same arms. All runs
are on one core (numba kernels are single-threaded; ``simulate`` in-process).

Usage::

    python benchmarks/bench_nbl.py [--repeats 5] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from nbl_theory.families import make_family

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nbl_sim.engine.environment import Environment  # noqa: E402
from nbl_sim.engine.nbl_kernel import nbl_reference, nbl_run  # noqa: E402
from nbl_sim.runs.execution import SerialExecutor  # noqa: E402
from nbl_sim.studies.experiment import simulate  # noqa: E402


def _median_time(fn, repeats):
    fn()  # warm-up
    times = []
    for _ in range(repeats):
        tic = time.perf_counter()
        fn()
        times.append(time.perf_counter() - tic)
    return statistics.median(times)


def run_case(d: int, randomized: bool, repeats: int, n=10_000, reps=100) -> dict:
    env = Environment.build(make_family("two-transition", mu2="1.244122"), "0.2", d)
    n0 = 200 if randomized else 0
    real = env.draw(0, range(reps), n, n0)
    v0 = None if randomized else env.initial_direction(10.0)
    steps = reps * n
    rows = {}
    rows["environment"] = _median_time(
        lambda: env.draw(0, range(reps), n, n0), max(1, repeats // 2)
    )
    base = _median_time(
        lambda: nbl_reference(real.X, real.Y, real.coins, v0=v0), max(1, repeats // 2)
    )
    rows["baseline"] = base
    rows["kernel"] = _median_time(
        lambda: nbl_run(real.X, real.Y, real.coins, env.v_star, v0=v0, record_rounds=[n]), repeats
    )
    rows["kernel+rec"] = _median_time(
        lambda: nbl_run(real.X, real.Y, real.coins, env.v_star, v0=v0), repeats
    )
    kw = dict(n=n, reps=reps, executor=SerialExecutor(), seed=0)
    kw.update({"n0": n0} if randomized else {"init_angle": 10.0})
    rows["simulate"] = _median_time(lambda: simulate(env, **kw), max(1, repeats // 2))
    A_ref, V_ref = nbl_reference(real.X, real.Y, real.coins, v0=v0)
    tr = nbl_run(real.X, real.Y, real.coins, env.v_star, v0=v0, record_rounds=[n])
    agree = float(np.mean(A_ref == tr.actions))
    out = {
        "d": d,
        "start": "randomized n0=200" if randomized else "10 deg",
        "steps": steps,
        "same_actions": agree,
        "max_v_diff": float(np.abs(V_ref - tr.v_final).max()),
    }
    for k, sec in rows.items():
        out[k] = {"seconds": sec, "steps_per_s": steps / sec, "ratio_vs_baseline": base / sec}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)

    tic = time.perf_counter()
    env = Environment.build(make_family("logistic"), "0.5")
    r = env.draw(0, [0], 10, 2)
    nbl_run(r.X, r.Y, r.coins, env.v_star)
    compile_s = time.perf_counter() - tic
    print(
        f"one-time numba load/compile (cached after the first ever run): {compile_s:.2f} s",
        file=sys.stderr,
    )
    cases = [
        run_case(2, False, args.repeats),
        run_case(2, True, args.repeats),
        run_case(8, False, args.repeats),
    ]
    print(f"{'case':<26}{'what':<13}{'seconds':>10}{'rep-steps/s':>14}{'vs baseline':>13}")
    for c in cases:
        label = f"d={c['d']}, {c['start']}"
        for k in ("baseline", "kernel", "kernel+rec", "environment", "simulate"):
            v = c[k]
            print(
                f"{label:<26}{k:<13}{v['seconds']:>10.4f}{v['steps_per_s']:>14.3e}"
                f"{v['ratio_vs_baseline']:>12.1f}x"
            )
        print(
            f"{'':<26}same actions as baseline: {c['same_actions']:.6f}, "
            f"max |v_n diff| = {c['max_v_diff']:.1e}"
        )
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "cases": cases,
                    "compile_seconds": compile_s,
                    "machine": {
                        "python": platform.python_version(),
                        "processor": platform.processor(),
                        "numpy": np.__version__,
                    },
                },
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
