"""Benchmark: the three changes of issue 16's sixth round on ``simulate()``, each against the
code before it, in one process.

* **Vector conversions** (``nbl_sim.llvm_ops.exact_double`` / ``small_fptosi``): the context
  lanes (numpy's normals of eight PCG64 streams) and the table's reward lanes compiled as they
  are against the same passes compiled with LLVM's ``sitofp`` / ``fptosi`` on 64-bit lanes (the
  code before: AVX2 has no such vector instruction, so LLVM converted lane by lane). Inputs are
  d = 8's: eight replications × 10⁴ rounds; the outputs are compared bit for bit.
* **Regret sums at the mismatched and recorded rounds only**
  (``nbl_sim.reward_table._sparse_regret``): against the loop over every round adding +0.0 at
  the matched ones (kept verbatim here), on one block of d = 8 (eight replications × 10⁴
  rounds of NBL from 10°); the sums compared bit for bit.
* **The last chunk lazy** (``nbl_sim.experiment._draws_lazily``): ``simulate()`` in d = 8 (100
  replications × 10⁴ rounds, the setting of bench_simulate.py; its default chunks are 64 + 36
  replications) with the rule as it is against the rule before it (lazy only for chunks of
  ≥ ``_LAZY_STEPS`` replication-steps: the 36 drew g at every point); regret, ‖v_t − v*‖² and
  angle compared bit for bit.

    python benchmarks/bench_lazy_tail.py [--rounds 9] [--json OUT]

CPU time (process time), alternating rounds after an untimed call (compilation), medians and
minima; ratio = before / now.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._machine import count, cpu_model  # noqa: E402


def _before(module, build):
    """``build()`` compiled while ``module``'s conversions are LLVM's own (the code before)."""
    from nbl_sim.llvm_ops import VF, VI
    saved = module.__dict__.get("exact_double"), module.__dict__.get("small_fptosi")
    try:
        if saved[0] is not None:
            module.exact_double = lambda builder, v, bits: builder.sitofp(v, VF)
        if saved[1] is not None:
            module.small_fptosi = lambda builder, x: builder.fptosi(x, VI)
        return build()
    finally:
        if saved[0] is not None:
            module.exact_double = saved[0]
        if saved[1] is not None:
            module.small_fptosi = saved[1]


def _passes():
    """{name: (before, now, make_args, outputs)} for the two lane passes."""
    import numba
    import numpy as np

    from nbl_sim import environment_lanes as el
    from nbl_sim import reward_table as rt
    from nbl_sim.llvm_ops import LANES
    from nbl_sim.pcg64 import ki_double, normal_after, state_of, wi_double
    from nbl_theory.families import make_family

    def states():
        return np.ascontiguousarray(np.stack([state_of(np.random.PCG64(s))
                                              for s in range(LANES)]).T)

    def normals_before():
        lanes = el.ziggurat_lanes(el._pcg64_words, normal_after, carried=2)

        @numba.njit
        def f(st, X, r0):
            lanes(st, X, r0, ki_double, wi_double)
        f(states(), np.empty((LANES, 4, 8)), 0)  # compiled now, with the patched conversion
        return f

    def table_before():
        @numba.njit
        def f(st, z, lo, hi, Y, r0, z0, inv_h):
            rt._table_lanes(st, z, lo, hi, Y, r0, z0, inv_h)
        tab = rt.reward_table(make_family("two-transition", mu2="1.244122"))
        z = np.zeros((LANES, 4, 2))
        f(states(), z, tab.lo, tab.hi, np.empty_like(z), 0, tab.z0, tab.inv_h)
        return f

    n = 10_000
    X = np.empty((LANES, n, 8))
    tab = rt.reward_table(make_family("two-transition", mu2="1.244122"))
    z = np.random.default_rng(1).standard_normal((LANES, n, 2)) * 1.5
    Y = np.empty_like(z)
    return {
        "normals, 8 streams as lanes (8e5)": (
            _before(el, normals_before), el.normal_lanes,
            lambda: (states(), X, 0), lambda args: args[1].copy()),
        "table rewards, 8 streams as lanes (1.6e5)": (
            _before(rt, table_before), rt.table_reward_lanes,
            lambda: (states(), z, tab.lo, tab.hi, Y, 0, tab.z0, tab.inv_h),
            lambda args: args[4].copy()),
    }


def _every_round_regret():
    """The regret's running sums before this round (verbatim): every round visited, +0.0 added
    at the matched ones; against ``reward_table._sparse_regret`` on a d = 8 block (eight
    replications × 10⁴ rounds of NBL from 10°, ~18% of the rounds mismatched)."""
    import numba
    import numpy as np

    from nbl_sim import reward_table as rt
    from nbl_sim.environment import Environment
    from nbl_sim.experiment import default_record_rounds
    from nbl_sim.policies.nbl import nbl_run
    from nbl_theory.families import make_family

    gap_at = rt._gap_at  # the gap of one round, which the loop before called as it still is

    @numba.njit
    def before(actions, optimal, m, starts, rounds, rec, out):
        R, n = actions.shape
        K = rec.shape[0]
        k0 = 0
        while k0 < K and rec[k0] == 0:
            k0 += 1
        for r in range(R):
            for k in range(k0):
                out[r, k] = 0.0
            k, j, acc = k0, starts[r], 0.0
            for t in range(n):
                if k == K:
                    break
                inst, j = gap_at(actions, optimal, m, r, t, j)
                acc = inst if t == 0 else acc + inst
                while k < K and rec[k] == t + 1:
                    out[r, k] = acc
                    k += 1

    env = Environment.build(make_family("two-transition", mu2="1.244122"), "0.2", 8)
    real = env.draw(0, range(8), 10_000, 0, lazy=True)
    rec = default_record_rounds(10_000, 0)
    actions = nbl_run(real.X, real.Y, real.coins, env.v_star, v0=env.initial_direction(10.0),
                      record_rounds=rec).actions.astype(np.int8)
    optimal = np.ascontiguousarray(real.optimal, dtype=np.int8)
    starts, m, rounds = rt._mismatched_means(env.link, real.means, actions, optimal)
    out = np.empty((8, rec.size))
    return (before, rt._sparse_regret,
            lambda: (actions, optimal, m, starts, rounds, rec, out), lambda a: a[6].copy())


def _simulate():
    """(before, now, outputs) for simulate() in d = 8."""
    import numpy as np

    from nbl_sim import experiment
    from nbl_sim.environment import Environment
    from nbl_sim.execution import SerialExecutor
    from nbl_theory.families import make_family

    env = Environment.build(make_family("two-transition", mu2="1.244122"), "0.2", 8)
    rule = experiment._draws_lazily

    def run():
        return experiment.simulate(env, n=10_000, reps=100, seed=0, policies=("nbl",),
                                   init_angle=10.0, executor=SerialExecutor())

    def before():
        experiment._draws_lazily = lambda env, steps: steps >= experiment._LAZY_STEPS
        try:
            return run()
        finally:
            experiment._draws_lazily = rule

    def outputs(res):
        p = res.policies["nbl"]
        return [np.asarray(getattr(p, k)) for k in ("regret", "sq_error", "angle")]
    return before, run, outputs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=count, default=9, help="alternating timed rounds (9)")
    ap.add_argument("--json", default=None, help="also write the numbers as JSON here")
    args = ap.parse_args(argv)
    import numpy as np

    rows = []

    def timed(name, before, now, call, outputs):
        same = all(np.array_equal(u, v, equal_nan=True)
                   for u, v in zip(outputs(call(before)), outputs(call(now))))
        t = {"before": [], "now": []}
        for _ in range(args.rounds):
            for key, f in (("before", before), ("now", now)):
                c0 = time.process_time()
                call(f)
                t[key].append(time.process_time() - c0)
        med = {k: statistics.median(v) for k, v in t.items()}
        low = {k: min(v) for k, v in t.items()}
        rows.append({"case": name, "cpu_s_median": med, "cpu_s_min": low,
                     "ratio_median": med["before"] / med["now"],
                     "ratio_min": low["before"] / low["now"], "identical": same})
        r = rows[-1]
        print(f"{name:44s} before {med['before'] * 1e3:7.2f} ms  now {med['now'] * 1e3:7.2f} ms"
              f"  (medians)  ratio {r['ratio_median']:.2f}x (min {r['ratio_min']:.2f}x)"
              f"  identical {same}", flush=True)

    cases = _passes()
    cases["regret sums, 8 replications x 1e4 rounds"] = _every_round_regret()
    for name, (before, now, make, out) in cases.items():
        def call(f, make=make, out=out):
            a = make()
            f(*a)
            return a
        timed(name, before, now, call, lambda a, out=out: [out(a)])
    before, now, outputs = _simulate()
    timed("simulate(), d = 8, 100 reps x 1e4 rounds", before, now, lambda f: f(), outputs)
    if args.json:
        Path(args.json).write_text(json.dumps({"cpu": cpu_model(), "rounds": args.rounds,
                                               "rows": rows}, indent=1) + "\n")
    return 0 if all(r["identical"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
