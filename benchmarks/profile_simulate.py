"""Where ``simulate()``'s time goes: each part of drawing and running a replication timed on
its own, against ``simulate()`` itself (issue 16; the breakdown table of benchmarks/README.md).

Setting of bench_simulate.py: two-transition mu2 = 1.244122, Δ = 0.2, n = 10,000 rounds, NBL from
the 10° start, seed 0, one core. The per-replication parts (normals, index pass, g, reward pass,
streams) are timed on one replication's arrays and multiplied by the number of replications;
the kernel, the regret and ``simulate`` on all of them. The normals and the reward pass are
timed both ways: one replication at a time, and eight as vector lanes (what ``draw`` does in
batches of eight).
CPU seconds (process time), minimum of ``--repeats`` calls after a warm-up.

``simulate`` draws lazily (``Environment.draw(..., lazy=True)``, :mod:`nbl_sim.reward_table`):
the Bernoulli rewards are decided by the link's certified table and g is evaluated only at the
open points and, for the regret, at the rounds whose action was not optimal. The parts of that
draw are timed too (the table pass as lanes, the settling of the open rewards, the lazy draw,
the lazy regret), next to the ordinary draw's.

``--floor`` adds what ``simulate()`` would cost if the normals were free: it is timed again with
the N(0, I) contexts not drawn (X keeps the previous call's values), with that and the lazy
regret's g not evaluated either (zeros at the mismatched rounds: what a free random stream and a
free g would leave), and with the ordinary draw (no table, g at every point), against the
kernel with every round recorded (bench_simulate's ``kernel+rec``, the denominator of issue
16's "within 2× of the kernel"). The numbers the elided runs produce are wrong on purpose; only
their time counts.

Usage::

    python benchmarks/profile_simulate.py [--d 8] [--reps 100] [--repeats 7] [--floor]
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nbl_sim import environment, pcg64  # noqa: E402
from nbl_sim import reward_table as rt  # noqa: E402
from nbl_sim.environment import Environment, Realization  # noqa: E402
from nbl_sim.environment_lanes import normal_lanes, reward_lanes  # noqa: E402
from nbl_sim.environment_passes import index_pass, uniform_reward_pass  # noqa: E402
from nbl_sim.execution import SerialExecutor  # noqa: E402
from nbl_sim.experiment import default_record_rounds, simulate  # noqa: E402
from nbl_sim.llvm_ops import LANES  # noqa: E402
from nbl_sim.metrics import recorded_regret  # noqa: E402
from nbl_sim.policies.nbl import nbl_run  # noqa: E402
from nbl_sim.reward_table import reward_table, settle_block, table_reward_lanes  # noqa: E402
from nbl_sim.seeding import StreamSet  # noqa: E402
from nbl_theory.families import make_family  # noqa: E402


def _best(fn, repeats: int) -> float:
    fn()
    times = []
    for _ in range(repeats):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def _means_free(link, z, actions, optimal):
    """reward_table._mismatched_means with g not evaluated (zeros in its place)."""
    starts, zz, rounds = rt._mismatches(actions, optimal, z)
    return starts, np.zeros_like(zz), rounds


@contextlib.contextmanager
def _elided(normals: bool, table: bool, regret_g: bool = False):
    """simulate() with the contexts not drawn, without the reward table and/or with the lazy
    regret's g not evaluated (restored on exit)."""
    saved = environment.normal_lanes, environment.fill_normals, environment.reward_table
    saved_means = rt._mismatched_means
    try:
        if normals:
            environment.normal_lanes = environment.fill_normals = lambda *args: None
        if not table:
            environment.reward_table = lambda *args: None
        if regret_g:
            rt._mismatched_means = _means_free
        yield
    finally:
        environment.normal_lanes, environment.fill_normals, environment.reward_table = saved
        rt._mismatched_means = saved_means


def _floor(env, real, v0, R: int, n: int, k: int) -> None:
    """Print simulate()'s time with parts of the realization elided (``--floor``): every
    variant and the kernel once per round, ``2k`` interleaved rounds, each one's minimum."""
    variants = {"simulate()": (False, True), "  without the normals": (True, True),
                "  without the normals and the regret's g": (True, True, True),
                "  ordinary draw (no table)": (False, False)}

    def run(*elide):
        with _elided(*elide):
            simulate(env, n=n, reps=R, seed=0, policies=("nbl",), init_angle=10.0,
                     executor=SerialExecutor())

    def kernel():
        nbl_run(real.X, real.Y, real.coins, env.v_star, v0=v0)

    times = {"kernel+rec": []} | {label: [] for label in variants}
    for _ in range(2 * k + 1):  # the first round is a warm-up
        for label, fn in [("kernel+rec", kernel)] + [
                (label, lambda e=e: run(*e)) for label, e in variants.items()]:
            t = time.process_time()
            fn()
            times[label].append(time.process_time() - t)
    best = {label: min(v[1:]) for label, v in times.items()}
    full = best.pop("kernel+rec")
    print(f"# floor: simulate() with parts elided, min of {2 * k} interleaved rounds, against "
          f"kernel+rec (every round recorded) = {full * 1e3:.2f} ms")
    for label, sec in best.items():
        print(f"{label:38s} {sec * 1e3:8.2f} ms  {sec / full:5.2f}x kernel+rec")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--d", type=int, default=8)
    ap.add_argument("--reps", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--floor", action="store_true",
                    help="also time simulate() with the normals elided (and the regret's g), and "
                         "without the table")
    a = ap.parse_args(argv)
    d, R, n, k = a.d, a.reps, 10_000, a.repeats
    env = Environment.build(make_family("two-transition", mu2="1.244122"), "0.2", d)
    X, z, opt = np.empty((n, d)), np.empty((n, 2)), np.empty(n, np.int8)
    Y, means = np.empty((n, 2)), np.empty((n, 2))
    words = pcg64.state_of(np.random.PCG64(1))
    X8 = np.empty((LANES, n, d))
    # eight different streams (eight copies of one would reject in the same rounds, which
    # flatters the lanes: ~16 against ~20 ms per 100 replications in d = 8)
    eight = np.ascontiguousarray(np.stack([pcg64.state_of(np.random.PCG64(s))
                                           for s in range(2, 2 + LANES)]).T)
    parts = {"normals, one replication": _best(lambda: pcg64.fill_normals(words, X), k) * R,
             "normals, 8 replications as lanes": _best(
                 lambda: normal_lanes(eight, X8, 0), k) * R / LANES,
             "index pass": _best(lambda: index_pass(X, env.beta, env.v_star, z, opt), k) * R,
             "g (the link's numpy evaluation)": _best(lambda: env._means(z), k) * R}
    g = np.ascontiguousarray(env._means(z))
    parts["reward pass, one replication"] = _best(
        lambda: uniform_reward_pass(words, g, means, Y, True, 0.5, 1e-12), k) * R
    gs = [g.copy() for _ in range(LANES)]  # eight replications' link values
    addresses = np.array([a.ctypes.data for a in gs], dtype=np.uint64)
    lane_states = eight.copy()
    M8, Y8 = np.empty((LANES, n, 2)), np.empty((LANES, n, 2))
    parts["reward pass, 8 replications as lanes"] = _best(
        lambda: reward_lanes(lane_states, addresses, M8, Y8, 0, True, 0.5, 1e-12), k) * R / LANES
    streams = StreamSet()
    parts["stream states"] = _best(lambda: streams.streams(0, 3, False), k) * R
    real = env.draw(0, range(R), n, 0)
    parts["ordinary draw (all of the above)"] = _best(
        lambda: env.draw(0, range(R), n, 0, out=real), k)
    table = reward_table(env.link)
    Z8 = np.stack([z] * LANES)
    parts["table reward pass, 8 replications as lanes"] = _best(lambda: table_reward_lanes(
        lane_states, Z8, table.lo, table.hi, Y8, 0, table.z0, table.inv_h), k) * R / LANES
    lazy = env.draw(0, range(R), n, 0, lazy=True, out=Realization.empty(R, n, 0, d))
    parts["settle the open rewards (g there)"] = _best(lambda: settle_block(
        env.link, Z8, Y8.copy(), None, 1e-12), k) * R / LANES
    parts["lazy draw (what simulate draws)"] = _best(
        lambda: env.draw(0, range(R), n, 0, lazy=True, out=lazy), k)
    v0, rec = env.initial_direction(10.0), default_record_rounds(n, 0)
    tr = nbl_run(real.X, real.Y, real.coins, env.v_star, v0=v0, record_rounds=rec)
    parts["NBL kernel, ~500 records"] = _best(lambda: nbl_run(
        real.X, real.Y, real.coins, env.v_star, v0=v0, record_rounds=rec), k)
    parts["regret at the records"] = _best(
        lambda: recorded_regret(real.means, tr.actions, real.optimal, rec), k)
    parts["regret, g at the mismatched rounds (lazy)"] = _best(
        lambda: env.recorded_regret(lazy, tr.actions, rec), k)
    parts["simulate() end to end"] = _best(lambda: simulate(
        env, n=n, reps=R, seed=0, policies=("nbl",), init_angle=10.0,
        executor=SerialExecutor()), k)
    print(f"# profile_simulate  d = {d}, {R} replications x {n} rounds, CPU min of {k}")
    for name, sec in parts.items():
        print(f"{name:38s} {sec * 1e3:8.2f} ms  {sec / (R * n) * 1e9:6.2f} ns per replication-step")
    if a.floor:
        _floor(env, real, v0, R, n, k)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
