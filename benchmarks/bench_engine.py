"""Benchmark: the compiled engine against the reference engine (nbl_sim.engine), same process,
on the named workloads of issue 37, reported as ratios reference/compiled.

Workloads (the unstable two-transition link mu2 = 1.244122, Δ = 0.5, seed 0, policy NBL with
γ = 10, t0 = 500, n0 = 200 randomized-initialization rounds, ~500 recorded rounds — what
``nbl simulate`` does by default):

* ``simulate-defaults``: d = 2, 100 replications × 10⁴ rounds (``nbl simulate`` defaults);
* ``d2-1000``: d = 2, 1,000 replications × 10⁴ rounds;
* ``d8-1000``: d = 8, 1,000 replications × 10⁴ rounds;
* ``greedy-small``: Greedy Logistic after n0 = 50 on 4 replications × ``--greedy-rounds``
  (default 400) rounds, d = 2 — the reference refits in numpy with the C library's exp one
  point at a time, so only a small case is affordable; it says what a compiled Greedy Logistic
  earns, not what a user's run costs.

Each workload is cut into blocks of replications (``--block``, as simulate streams blocks) and
each block is drawn, run and scored by each backend: the pieces of the seam are timed
separately (``draw``, ``nbl``/``greedy``, ``regret``) and together (``total``). Times are
process CPU seconds (a machine shared with other jobs disturbs them far less than the wall clock;
both are in the JSON), the minimum over ``--repeats``. The compiled kernels are loaded in an
untimed warm-up. ``earns``: what each compiled piece buys end to end — the compiled engine
with that piece replaced by the reference's, over the compiled engine (the issue keeps a piece
only at ≥ 1.5×). The reward table and the compiled regret pass were cut on that measure (they
earned 0.81–0.91× and 1.33–1.48×): the compiled engine's regret is numpy
(:func:`nbl_sim.engine.metrics.recorded_regret`, summed over the missed rounds while they are
few: ``bench_regret.py``), so its ``regret`` earns ~1× where NBL misses many rounds, as here. All
outputs (‖v_t − v*‖², angles, regret, actions) are compared bit for bit; the script exits 1 if
they differ.

Usage::

    python benchmarks/bench_engine.py [--rounds 10000] [--repeats 1] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nbl_sim import engine  # noqa: E402
from nbl_sim.engine.environment import Environment  # noqa: E402
from nbl_sim.studies.experiment import default_record_rounds  # noqa: E402
from nbl_theory.families import make_family  # noqa: E402

LINK = make_family("two-transition", mu2="1.244122")


#: the backend of each variant
VARIANTS = {"compiled": ("compiled",), "reference": ("reference",)}


def _clock():
    return time.process_time(), time.perf_counter()


def _since(t):
    c, w = _clock()
    return c - t[0], w - t[1]


def _nbl_workload(env, R, n, n0, block, backend):
    """Draw, NBL and regret of R replications in blocks: ({piece: (cpu, wall)}, outputs)."""
    rec = default_record_rounds(n, n0)
    times = {k: [0.0, 0.0] for k in ("draw", "nbl", "regret")}
    outs = []
    for r0 in range(0, R, block):
        reps = range(r0, min(R, r0 + block))
        t = _clock()
        real = engine.draw(env, 0, reps, n, n0, backend=backend)
        for k, dt in zip(("draw",), [_since(t)]):
            times[k] = [a + b for a, b in zip(times[k], dt)]
        t = _clock()
        tr = engine.nbl(
            real.X,
            real.Y,
            real.coins,
            env.v_star,
            gamma=10.0,
            t0=500.0,
            record_rounds=rec,
            backend=backend,
        )
        times["nbl"] = [a + b for a, b in zip(times["nbl"], _since(t))]
        t = _clock()
        reg = engine.regret(env, real, tr.actions, tr.record_rounds, backend=backend)
        times["regret"] = [a + b for a, b in zip(times["regret"], _since(t))]
        outs.append((tr.actions, tr.sq_error, tr.angle, reg))
        del real
    return times, outs


def _greedy_workload(env, R, n, n0, backend):
    real = engine.draw(env, 0, range(R), n, n0)
    t = _clock()
    actions, info = engine.greedy_logistic(real.X, real.Y, real.coins, backend=backend)
    return {"greedy": list(_since(t))}, [(actions, info["per_replication"], info["w"], info["b"])]


def _same(a, b) -> bool:
    return all(np.array_equal(x, y, equal_nan=True) for p, q in zip(a, b) for x, y in zip(p, q))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--block", type=int, default=250, help="replications per block")
    ap.add_argument("--greedy-rounds", type=int, default=400)
    ap.add_argument("--only", default=None, help="comma-separated workload names")
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    n = a.rounds
    workloads = {
        "simulate-defaults": lambda b: _nbl_workload(
            Environment.build(LINK, "0.5", 2), 100, n, 200, a.block, b
        ),
        "d2-1000": lambda b: _nbl_workload(
            Environment.build(LINK, "0.5", 2), 1000, n, 200, a.block, b
        ),
        "d8-1000": lambda b: _nbl_workload(
            Environment.build(LINK, "0.5", 8), 1000, n, 200, a.block, b
        ),
        "greedy-small": lambda b: _greedy_workload(
            Environment.build(LINK, "0.5", 2), 4, a.greedy_rounds, 50, b
        ),
    }
    if a.only:
        workloads = {k: workloads[k] for k in a.only.split(",")}
    # warm-up: load the compiled kernels outside the timing
    env = Environment.build(LINK, "0.5", 8)
    for d in (2, 8):
        for R in (16, 5):  # lanes of eight, and alone
            for (backend,) in VARIANTS.values():
                _nbl_workload(Environment.build(LINK, "0.5", d), R, 600, 200, R, backend)
    _greedy_workload(env, 1, 60, 10, "compiled")
    results, ok = {}, True
    print(
        f"rounds n = {n}, block = {a.block}, repeats = {a.repeats}; CPU seconds "
        "(min over repeats), ratio = reference / compiled"
    )
    for name, run in workloads.items():
        best = {}
        for _ in range(a.repeats):
            for backend in VARIANTS:
                times, outs = run(*VARIANTS[backend])
                for piece, (cpu, wall) in times.items():
                    key = (backend, piece)
                    best[key] = min(best.get(key, (np.inf, np.inf)), (cpu, wall))
                if backend == "compiled":
                    compiled_outs = outs
                else:
                    same = _same(compiled_outs, outs)
                    ok &= same
                    if not same:
                        print(f"{name}: {backend} differs from compiled")
        pieces = sorted({p for _, p in best})
        for b in VARIANTS:  # totals
            if (b, pieces[0]) in best:
                best[(b, "total")] = tuple(sum(best[(b, q)][i] for q in pieces) for i in (0, 1))
        row = {}
        for piece in pieces + ["total"]:
            (c, cw), (r, rw) = best[("compiled", piece)], best[("reference", piece)]
            row[piece] = {
                "compiled_cpu": c,
                "reference_cpu": r,
                "ratio_cpu": r / c,
                "compiled_wall": cw,
                "reference_wall": rw,
                "ratio_wall": rw / cw,
            }
            line = (
                f"{name:18s} {piece:7s} compiled {c:7.3f} s  reference {r:7.3f} s  "
                f"ratio {r / c:6.1f}x (wall {rw / cw:5.1f}x)"
            )
            print(line)
        if name != "greedy-small":  # what each compiled piece earns end to end
            base = best[("compiled", "total")][0]
            earns = {
                p: (base - best[("compiled", p)][0] + best[("reference", p)][0]) / base
                for p in pieces
            }
            row["earns"] = earns
            print(f"{name:18s} earns   " + "  ".join(f"{p} {e:.2f}x" for p, e in earns.items()))
        row["same_bits"] = bool(same)
        print(f"{name:18s} same bits: {same}")
        results[name] = row
    if a.json:
        Path(a.json).write_text(
            json.dumps(
                {
                    "rounds": n,
                    "block": a.block,
                    "repeats": a.repeats,
                    "machine": platform.platform(),
                    "python": platform.python_version(),
                    "numpy": np.__version__,
                    "results": results,
                },
                indent=1,
            )
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
