"""Benchmark: g = (φ')⁻¹ of a potential link in float64 — ``nbl_theory.link_numeric.
bisect_increasing`` (a shared tree for the first 16 levels, points leaving at their fixed
point) against the plain 80-step bisection it replaced (every point, every step), and
``bracket_t`` (the chart bracket of ``Link.t_range``, twelve expansion points per call)
against one point per call, and ``Link.g_numpy_rows`` (the rows that share a bracket in one
bisection) against one ``g_numpy`` call per row — in one process, on the same inputs.

Cases: the weighted entropy at ρ = 0.72 (the paper's stable example), the binary negative
entropy and the negative entropy; z ~ N(0, 2²) of 2,000 points (one replication of 1,000 rounds,
two arms) and of 200,000. Each case runs both methods ``--rounds`` times alternately (after one
untimed calls that build the tree and the lambdified functions) and reports the mean CPU
time per call and the ratio. The outputs are compared bit for bit; the script exits 1 if they
differ.

    python benchmarks/bench_dual_inverse.py [--rounds 5] [--json OUT]
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
from nbl_theory.families import make_family  # noqa: E402
from nbl_theory.link_numeric import BISECTIONS, bracket_t, domain_map_numpy  # noqa: E402


def plain_inverse(link, z):
    """The former ``_invert_dual``: 80 halvings of the bracket for every point."""
    flat = np.asarray(z, dtype=float).ravel()
    t_lo, t_hi = link.t_range(float(flat.min()) - 1, float(flat.max()) + 1)
    lo, hi = np.full(flat.shape, t_lo), np.full(flat.shape, t_hi)
    with np.errstate(all="ignore"):
        for _ in range(BISECTIONS):
            mid = 0.5 * (lo + hi)
            up = link.z_of_t_numpy(mid) < flat
            lo, hi = np.where(up, mid, lo), np.where(up, hi, mid)
        return domain_map_numpy(link.domain, 0.5 * (lo + hi))[0]


def plain_bracket(zfun, target, side):
    """The former ``bracket_t``: one expansion point per call."""
    step, t = 1.0, 0.0
    with np.errstate(all="ignore"):
        while True:
            z = float(zfun(np.array([t]))[0])
            if (side == "lo" and z <= target) or (side == "hi" and z >= target):
                return t
            t = t - step if side == "lo" else t + step
            step *= 1.5


def _cpu(fn, *args):
    """(CPU seconds, result) of one call."""
    c0 = time.process_time()
    out = fn(*args)
    return time.process_time() - c0, out


def _row_by_row(link, rows):
    return [link.g_numpy(r) for r in rows]


def _brackets(fn, zfun, targets):
    return [fn(zfun, x, side) for x, side in targets]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=count, default=5)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    rows, same = [], True
    rng = np.random.default_rng(20261127)
    for fam, kw in [
        ("weighted-entropy", {"rho": "0.72"}),
        ("binary-negative-entropy", {}),
        ("negative-entropy", {}),
    ]:
        link = make_family(fam, **kw)
        for n in (2_000, 200_000):
            z = rng.standard_normal(n) * 2.0
            for _ in range(3):  # the tree (after 4,096 points)
                link.g_numpy(z)  # and the lambdified functions
            rounds = args.rounds if n < 100_000 else max(1, args.rounds // 2)
            old_t = new_t = 0.0
            for _ in range(rounds):  # alternating
                t, a = _cpu(plain_inverse, link, z)
                old_t += t
                t, b = _cpu(link.g_numpy, z)
                new_t += t
                same &= np.array_equal(a.view(np.int64), b.view(np.int64))
            rows.append(
                {
                    "case": f"g_numpy {link.name} n={n}",
                    "old_s": old_t / rounds,
                    "new_s": new_t / rounds,
                    "ratio": old_t / new_t,
                }
            )
        # eight replications' means (a lane group of 160 rounds x 2 arms each): row by row,
        # as the environment did, against Link.g_numpy_rows (one call per shared bracket)
        rows8 = [rng.standard_normal((160, 2)) * 2.0 for _ in range(8)]
        old_t = new_t = 0.0
        for _ in range(args.rounds * 10):
            t, a = _cpu(_row_by_row, link, rows8)
            old_t += t
            t, b = _cpu(link.g_numpy_rows, rows8)
            new_t += t
            same &= all(np.array_equal(u.view(np.int64), v.view(np.int64)) for u, v in zip(a, b))
        rows.append(
            {
                "case": f"g_numpy_rows {link.name} 8 x (160, 2)",
                "old_s": old_t / (10 * args.rounds),
                "new_s": new_t / (10 * args.rounds),
                "ratio": old_t / new_t,
            }
        )
        targets = [(-12.0, "lo"), (12.0, "hi"), (-40.0, "lo"), (40.0, "hi")] * 25
        old_t = new_t = 0.0
        for _ in range(args.rounds):
            t, a = _cpu(_brackets, plain_bracket, link.z_of_t_numpy, targets)
            old_t += t
            t, b = _cpu(_brackets, bracket_t, link.z_of_t_numpy, targets)
            new_t += t
            same &= a == b
        rows.append(
            {
                "case": f"bracket_t {link.name} x100",
                "old_s": old_t / args.rounds,
                "new_s": new_t / args.rounds,
                "ratio": old_t / new_t,
            }
        )
    print(f"{'case':<52} {'old ms':>9} {'new ms':>9} {'ratio':>6}")
    for r in rows:
        print(f"{r['case']:<52} {1e3 * r['old_s']:9.2f} {1e3 * r['new_s']:9.2f} {r['ratio']:6.2f}")
    print("identical outputs:", same)
    if args.json:
        Path(args.json).write_text(
            json.dumps({"cpu": cpu_model(), "rows": rows, "identical": bool(same)}, indent=1)
        )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
