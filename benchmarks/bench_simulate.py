"""Benchmark: ``simulate()`` end to end against the NBL kernel and the numpy loop, before and after
the compiled environment (issue 16, item 2), in one process.

Cases (app:stochastic-nbl unless noted): two-transition link mu2 = 1.244122, Δ = 0.2, n = 10,000
rounds, 100 replications (1e6 replication-steps), seed 0:

* ``d=2 nbl`` and ``d=8 nbl``: policy NBL from the 10° start, γ = 10, t0 = 500;
* ``d=2 both``: NBL and Greedy Logistic after a randomized start n0 = 200 (``--policy both``), on
  ``--both-reps`` replications (default 10: Greedy Logistic refits an arm on all its data every
  round, ~2 s per replication of n = 10,000, so the environment is invisible in this case);
* ``d=2 we-0.72``: the potential-defined weighted-entropy link ρ = 0.72 (g = (φ')⁻¹ evaluated by
  ``Link.g_numpy``), NBL from 10°, on ``--we-reps`` replications (default 10: g costs ~0.1–0.3 s
  per replication).

What is timed (one core; every round runs each method once, interleaved, and each method's
minimum over ``--repeats`` rounds is kept; compile/load of the numba kernels happens in an
untimed warm-up). Both the process CPU time and the wall clock are measured; the table's ratios
use CPU time, which a machine shared with other jobs disturbs much less than the wall clock
(the wall-clock figures are in the JSON and in the ``wall`` column for ``simulate``):

* ``numpy loop``: :func:`nbl_sim.engine.nbl_kernel.nbl_reference` on pre-drawn arrays — alg:nbl
  written literally in numpy, one Python iteration per round (the baseline of bench_nbl.py);
* ``kernel+rec``: :func:`nbl_sim.engine.nbl_kernel.nbl_run` on pre-drawn arrays recording
  ‖v_t − v*‖² and α_t at every round (bench_nbl.py's ``kernel+rec``), and ``kernel+rec500`` at
  simulate's ~500 default rounds (what ``simulate`` itself asks of the kernel);
* ``before``: the previous pipeline, kept verbatim below (``_before_*``): numpy realization per
  replication (contexts, g, both arms' rewards as (R, n, 2) arrays), optimal actions and
  cumulative regret as (R, n) numpy arrays, fancy-indexed at the recorded rounds — with today's
  policy kernels (so before/sim measures the environment and the bookkeeping only; the d ≥ 3
  NBL kernel itself is ~4× faster than the pipeline's original one: 31 → 7–9 ns per step in
  d = 8) and the previous default chunking;
* ``simulate``: :func:`nbl_sim.studies.experiment.simulate` with a :class:`SerialExecutor` (the
  reward table it once drew with was cut, issue 37: see bench_engine.py).

The script checks that ``before`` and ``simulate`` give the same trajectories bit
for bit (regret, ‖v_t − v*‖², angle of every replication at every recorded round) and exits 1
otherwise.

Usage::

    python benchmarks/bench_simulate.py [--repeats 5] [--quick] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._machine import cpu_model  # noqa: E402
from nbl_sim.engine.environment import Environment, replication_seeds  # noqa: E402
from nbl_sim.engine.greedy_kernel import greedy_logistic_actions  # noqa: E402
from nbl_sim.engine.metrics import cumulative_regret  # noqa: E402
from nbl_sim.engine.nbl_kernel import nbl_reference, nbl_run  # noqa: E402
from nbl_sim.runs.execution import SerialExecutor  # noqa: E402
from nbl_sim.studies.experiment import default_record_rounds, simulate  # noqa: E402
from nbl_theory.families import make_family  # noqa: E402
from nbl_theory.paper import paper_link  # noqa: E402


# ---------------------------------------------------------------------- the previous pipeline
def _before_means(env, X):
    z = np.zeros(X.shape[:-1] + (2,))
    for k in range(env.d):
        z += X[..., k, None] * env.beta[:, k]
    m = env.link.g_numpy(z)
    if not np.all(np.isfinite(m)):
        raise ValueError("non-finite mean")
    if env.reward == "bernoulli":
        if np.any((m < -1e-12) | (m > 1 + 1e-12)):
            raise ValueError("Bernoulli mean out of range")
        np.clip(m, 0.0, 1.0, out=m)
    return m


def _before_draw(env, seed, reps, n, n0):
    seqs = replication_seeds(seed, max(reps) + 1)
    R = len(reps)
    X, means, Y = np.empty((R, n, env.d)), np.empty((R, n, 2)), np.empty((R, n, 2))
    coins = np.empty((R, n0), dtype=np.int8)
    for i, r in enumerate(reps):
        ss = seqs[r]
        sub = [
            np.random.Generator(
                np.random.PCG64(
                    np.random.SeedSequence(entropy=ss.entropy, spawn_key=tuple(ss.spawn_key) + (k,))
                )
            )
            for k in range(3)
        ]
        sub[0].standard_normal(out=X[i])
        means[i] = _before_means(env, X[i])
        u = sub[1].random(out=Y[i])
        if env.reward == "bernoulli":
            np.less(u, means[i], out=Y[i])
        else:
            Y[i] *= 2.0
            Y[i] -= 1.0
            Y[i] *= env.noise
            Y[i] += means[i]
        coins[i] = np.where(sub[2].random(n0) < 0.5, -1, 1)
    return X, means, Y, coins


def _before_align(have, values, want):
    out = np.full((values.shape[0], want.size), np.nan)
    out[:, np.searchsorted(want, have)] = values
    return out


def _before_chunk(env, seed, reps, n, n0, v0, policies, rec):
    X, means, Y, coins = _before_draw(env, seed, reps, n, n0)
    optimal = env.optimal_actions(X)
    cols = np.clip(rec - 1, 0, None)
    out = {}
    for name in policies:
        if name == "nbl":
            tr = nbl_run(X, Y, coins, env.v_star, v0=v0, record_rounds=rec)
            actions = tr.actions
            sq = _before_align(tr.record_rounds, tr.sq_error, rec)
            ang = _before_align(tr.record_rounds, tr.angle, rec)
        else:
            actions = greedy_logistic_actions(X, Y, coins)[0]
            sq = ang = np.full((len(reps), rec.size), np.nan)
        reg = cumulative_regret(means, actions, optimal)
        out[name] = (np.where(rec > 0, reg[:, cols], 0.0), sq, ang)
    return out


def _before_simulate(env, seed, reps, n, n0, v0, policies):
    rec = default_record_rounds(n, n0)
    size = max(1, min(reps, int(64e6 // (n * (env.d + 4) * 8.0))))  # the previous default
    parts = [
        _before_chunk(env, seed, tuple(range(a, min(reps, a + size))), n, n0, v0, policies, rec)
        for a in range(0, reps, size)
    ]
    return {
        name: tuple(np.concatenate([p[name][k] for p in parts]) for k in range(3))
        for name in policies
    }


# ---------------------------------------------------------------------- timing
def _rounds(fns: dict, repeats: int) -> tuple[dict, dict]:
    """(CPU seconds, wall seconds) of each function: the minimum over interleaved rounds."""
    for f in fns.values():  # warm-up: numba load/compile, caches
        f()
    cpu, wall = ({k: [] for k in fns} for _ in range(2))
    for _ in range(repeats):
        for k, f in fns.items():
            c, w = time.process_time(), time.perf_counter()
            f()
            cpu[k].append(time.process_time() - c)
            wall[k].append(time.perf_counter() - w)
    return {k: min(v) for k, v in cpu.items()}, {k: min(v) for k, v in wall.items()}


def run_case(label, link, d, policies, reps, repeats, n=10_000):
    env = Environment.build(link, "0.2", d)
    randomized = "greedy-logistic" in policies
    n0 = 200 if randomized else 0
    v0 = None if randomized else env.initial_direction(10.0)
    kw = dict(n=n, reps=reps, seed=0, policies=policies, executor=SerialExecutor())
    kw.update({"n0": n0} if randomized else {"init_angle": 10.0})
    real = env.draw(0, range(reps), n, n0)
    rec = default_record_rounds(n, n0)
    fns = {
        "numpy loop": lambda: nbl_reference(real.X, real.Y, real.coins, v0=v0),
        "kernel+rec": lambda: nbl_run(real.X, real.Y, real.coins, env.v_star, v0=v0),
        "kernel+rec500": lambda: nbl_run(
            real.X, real.Y, real.coins, env.v_star, v0=v0, record_rounds=rec
        ),
        "before": lambda: _before_simulate(env, 0, reps, n, n0, v0, policies),
        "simulate": lambda: simulate(env, **kw),
    }
    if label.endswith("we-0.72") or randomized:  # g or Greedy Logistic dominate: fewer rounds
        repeats = max(1, min(repeats, 2))
    t, wall = _rounds(fns, repeats)
    new, old = simulate(env, **kw), _before_simulate(env, 0, reps, n, n0, v0, policies)
    same = all(
        np.array_equal(getattr(new.policies[p], k), old[p][i], equal_nan=True)
        for p in policies
        for i, k in enumerate(("regret", "sq_error", "angle"))
    )
    steps = reps * n
    return {
        "case": label,
        "d": d,
        "policies": list(policies),
        "reps": reps,
        "n": n,
        "repeats": repeats,
        "identical": same,
        "cpu_seconds": t,
        "wall_seconds": wall,
        "steps_per_cpu_s": {k: steps / v for k, v in t.items()},
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--we-reps", type=int, default=10)
    ap.add_argument("--both-reps", type=int, default=10)
    ap.add_argument("--quick", action="store_true", help="20 replications, 3 repeats")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    reps, repeats = (20, 3) if args.quick else (args.reps, args.repeats)
    tt = make_family("two-transition", mu2="1.244122")
    we = paper_link("we-0.72")
    load0 = os.getloadavg()[0]
    cases = [
        run_case("d=2 nbl", tt, 2, ("nbl",), reps, repeats),
        run_case("d=8 nbl", tt, 8, ("nbl",), reps, repeats),
        run_case("d=2 both", tt, 2, ("nbl", "greedy-logistic"), min(reps, args.both_reps), repeats),
        run_case("d=2 nbl we-0.72", we, 2, ("nbl",), min(reps, args.we_reps), repeats),
    ]
    print(
        f"# bench_simulate  {time.strftime('%Y-%m-%dT%H:%M:%S%z')}  {cpu_model()} "
        f"({os.cpu_count()} cores)  python {platform.python_version()}, numpy {np.__version__}"
    )
    print(
        "# CPU seconds (process time), min over interleaved rounds; wall = simulate's wall "
        "clock; rate = replication-steps per CPU second of simulate; sim/kernel = simulate / "
        "kernel+rec (every round recorded), sim/kernel500 = simulate / kernel+rec500; "
        "loop/sim = numpy loop / simulate; before/sim = previous pipeline / simulate"
    )
    head = [
        "case",
        "reps",
        "numpy loop",
        "kernel+rec",
        "kernel+rec500",
        "before",
        "simulate",
        "wall",
        "rate",
        "sim/kernel",
        "sim/kernel500",
        "loop/sim",
        "before/sim",
        "identical",
    ]
    rows = []
    for c in cases:
        s = c["cpu_seconds"]
        rows.append(
            [c["case"], str(c["reps"])]
            + [
                f"{s[k]:.4f}"
                for k in ("numpy loop", "kernel+rec", "kernel+rec500", "before", "simulate")
            ]
            + [
                f"{c['wall_seconds']['simulate']:.4f}",
                f"{c['steps_per_cpu_s']['simulate']:.2e}",
                f"{s['simulate'] / s['kernel+rec']:.2f}x",
                f"{s['simulate'] / s['kernel+rec500']:.2f}x",
                f"{s['numpy loop'] / s['simulate']:.2f}x",
                f"{s['before'] / s['simulate']:.2f}x",
                "yes" if c["identical"] else "NO",
            ]
        )
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(v.ljust(w) for v, w in zip(r, widths)))
    print(f"# 1-min load average {load0:.2f} at start, {os.getloadavg()[0]:.2f} at end")
    if args.json:
        Path(args.json).write_text(json.dumps({"cases": cases, "cpu": cpu_model()}, indent=2))
    return 0 if all(c["identical"] for c in cases) else 1


if __name__ == "__main__":
    raise SystemExit(main())
