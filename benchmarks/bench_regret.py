"""Benchmark: the recorded regret summed over the missed rounds only
(:func:`nbl_sim.engine.metrics.recorded_regret`) against the dense sum of
:func:`nbl_sim.engine.metrics.cumulative_regret` read at the same rounds, in one process, by the
share of rounds the policy missed — the basis of ``metrics._SPARSE_SHARE`` (past it
``recorded_regret`` takes the dense sum itself, so its own row then times the dense path).

Blocks of 8 and 64 replications × 10⁴ rounds (``simulate``'s blocks in d = 2 and the regret's
own block), uniform means, fair optimal actions, each round missed with the given probability,
~500 recorded rounds; the two results are compared bit for bit. Wall-clock medians over
``--repeats`` calls, per 10³ replications; the ratio is dense / recorded.

Usage::

    python benchmarks/bench_regret.py [--repeats 30] [--json OUT]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import count, write_record  # noqa: E402

from nbl_sim.engine import metrics  # noqa: E402

SHARES = (0.06, 0.1, 0.2, 0.3, 0.5, 1.0)


def _dense(means, actions, optimal, rec):
    cum = metrics.cumulative_regret(means, actions, optimal)
    return np.where(rec > 0, cum[:, np.maximum(rec - 1, 0)], 0.0)


def _median_ms(fn, R: int, repeats: int) -> float:
    fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) / R * 1e6  # ms per 10³ replications


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=count, default=30)
    ap.add_argument("--n", type=count, default=10_000)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    rec = np.arange(0, a.n + 1, 20)
    rows, same = [], True
    for R in (8, 64):
        for share in SHARES:
            rng = np.random.default_rng(0)
            means = rng.uniform(0, 1, (R, a.n, 2))
            optimal = np.where(rng.uniform(size=(R, a.n)) < 0.5, -1, 1).astype(np.int8)
            actions = np.where(rng.uniform(size=(R, a.n)) < share, -optimal, optimal)
            actions = actions.astype(np.int8)
            got = metrics.recorded_regret(means, actions, optimal, rec)
            same = same and np.array_equal(
                got.view(np.int64), _dense(means, actions, optimal, rec).view(np.int64)
            )
            args = (means, actions, optimal, rec)
            dense = _median_ms(lambda args=args: _dense(*args), R, a.repeats)
            mine = _median_ms(lambda args=args: metrics.recorded_regret(*args), R, a.repeats)
            rows.append({"block": R, "share": share, "dense_ms": dense, "recorded_ms": mine})
            print(
                f"block {R:3d}  missed {share:4.0%}  dense {dense:6.1f} ms  recorded_regret "
                f"{mine:6.1f} ms  ratio {dense / mine:4.2f}x  (per 10³ replications)"
            )
    print(f"same bits: {same}")
    if a.json:
        write_record(
            a.json,
            {
                "n": a.n,
                "repeats": a.repeats,
                "sparse_share": metrics._SPARSE_SHARE,
                "same_bits": same,
                "rows": rows,
            },
        )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
