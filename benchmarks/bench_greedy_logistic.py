"""Benchmark: Greedy Logistic (nbl_sim.engine.greedy_kernel, numba kernel) against a
scikit-learn baseline run in the same process.

Setting of the paper's comparison (app:logistic-comparison): d = 2, n = 2000, n0 = 200, Δ = 1,
logistic link m_a(x) = sigmoid(β_aᵀx), β_a = θ + a(Δ/2)v*, v* = e1, θ = sqrt(1 − Δ²/4) e2,
contexts X_t ~ N(0, I_2), Bernoulli potential rewards for both arms, common randomized
initialization (n0 fair ±1 coins). Replication r draws from ``SeedSequence(seed).spawn`` child r,
so the first k replications are the same whatever ``--reps`` is; the data are generated here
(numpy only), not by :mod:`nbl_sim.engine.environment`.

Measured:

* **nbl_sim kernel**: ``greedy_logistic_actions`` on all ``--reps`` replications (one call), for
  intercept on (the default) and off; median of ``--repeats`` calls. Numba compile time (or the
  load of the on-disk cache) is excluded: a warm-up call on a tiny problem comes first, and its
  time is printed separately.
* **sklearn baseline**: the same algorithm written with ``sklearn.linear_model.LogisticRegression``
  with no penalty, ``LogisticRegression(C=np.inf)`` — in scikit-learn 1.8+ the ``penalty``
  parameter is deprecated (``penalty=None`` emits a FutureWarning) and ``C=np.inf`` is the
  documented, warning-free way to fit without penalty; default solver lbfgs, tol 1e-4, no warm
  start. After the initialization it refits the chosen arm on all its data every round; scores
  wᵀx + b are compared with coef_/intercept_ directly (tie → +1). Run on the first
  ``--baseline-reps`` replications, on its own history. BLAS/OpenMP pools are limited to one
  thread (threadpoolctl) for the whole run: these fits are tiny, and on a loaded 2-core machine
  OpenBLAS's default threads made each sklearn fit ~8× *slower* (measured: 12–20 ms against
  1.3–2.5 ms per fit of 1000 points), which would flatter the kernel. The kernel is
  single-threaded too (no prange), so the ratio compares one core with one core.
* Time per replication-round = time / (replications · n) for both, wall clock and process CPU
  time (the CPU time is less sensitive to other load on the machine), and the speed ratios
  sklearn / kernel.
* **Agreement** along the kernel's history: with the kernel's actions as the history, at every
  round t ≥ n0 sklearn's fits of the same per-arm data choose an arm; the fraction of rounds where
  it equals the kernel's action (first ``--baseline-reps`` replications), for intercept on and
  off. Disagreements are near-ties: the largest |score_+ − score_−| of the kernel there is shown.
* Newton statistics of the kernel (iterations per fit, max, max_iter hits, line-search halvings,
  ties) and the mean regret R_n/n of each run as a sanity check.

Usage::

    python benchmarks/bench_greedy_logistic.py [--reps R] [--baseline-reps B] [--repeats K]
                                               [--seed S]

No assertion is made on any timing: the script reports, the reader judges.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
import warnings

import numba
import numpy as np
import scipy
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from threadpoolctl import threadpool_limits

from nbl_sim.engine.greedy_kernel import fit_penalized_logistic, greedy_logistic_actions

D, N, N0, DELTA = 2, 2000, 200, 1.0


from _machine import cpu_model  # noqa: E402  (benchmarks/ is on sys.path)


def _sigmoid(z):
    return 0.5 * (1.0 + np.tanh(0.5 * z))


def make_problem(reps: int, seed: int, n: int = N, n0: int = N0, delta: float = DELTA):
    """Contexts, means, Bernoulli potential rewards and coins of ``reps`` replications."""
    v = np.zeros(D)
    v[0] = 1.0
    theta = np.zeros(D)
    theta[1] = np.sqrt(1.0 - delta**2 / 4.0)
    beta = np.stack([theta - delta / 2 * v, theta + delta / 2 * v])  # rows: arm −1, arm +1
    X = np.empty((reps, n, D))
    U = np.empty((reps, n, 2))
    coins = np.empty((reps, n0), dtype=np.int8)
    for r, ss in enumerate(np.random.SeedSequence(seed).spawn(reps)):
        rng = np.random.default_rng(ss)
        X[r] = rng.standard_normal((n, D))
        U[r] = rng.random((n, 2))
        coins[r] = np.where(rng.random(n0) < 0.5, -1, 1)
    means = _sigmoid(X @ beta.T)
    Y = (U < means).astype(np.float64)
    return X, means, Y, coins


def mean_regret(actions, means):
    """R_n/n averaged over replications: Σ_t {max_a m_a(X_t) − m_{A_t}(X_t)} / n."""
    chosen = np.where(actions == 1, means[..., 1], means[..., 0])
    return float(np.mean(np.sum(means.max(axis=-1) - chosen, axis=1) / actions.shape[1]))


class _SkArm:
    """One arm's data and its unpenalized sklearn fit (score 0 while it cannot be fit)."""

    def __init__(self, n, intercept, counters):
        self.X = np.empty((n, D))
        self.y = np.empty(n)
        self.k = 0
        self.w = np.zeros(D)
        self.b = 0.0
        self.intercept = intercept
        self.counters = counters

    def add(self, x, y):
        self.X[self.k] = x
        self.y[self.k] = y
        self.k += 1

    def refit(self):
        y = self.y[: self.k]
        if self.k == 0 or y.min() == y.max():  # sklearn needs both classes; never in this setting
            self.counters["one_class"] += 1
            return
        clf = LogisticRegression(C=np.inf, fit_intercept=self.intercept)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            clf.fit(self.X[: self.k], y)
        self.counters["convergence_warnings"] += sum(
            issubclass(c.category, ConvergenceWarning) for c in caught
        )
        self.counters["fits"] += 1
        self.w = clf.coef_[0].copy()
        self.b = float(clf.intercept_[0]) if self.intercept else 0.0

    def score(self, x):
        return float(self.w @ x) + self.b


def sklearn_greedy(X, Y, coins, intercept, follow=None):
    """Greedy Logistic with sklearn, one replication.

    follow=None: the baseline on its own history; returns its actions. follow=actions: play those
    actions (the kernel's history) and return sklearn's choice at every round t ≥ n0.
    """
    n, n0 = X.shape[0], coins.shape[0]
    counters = {"fits": 0, "convergence_warnings": 0, "one_class": 0}
    arms = [_SkArm(n, intercept, counters), _SkArm(n, intercept, counters)]
    actions = np.empty(n, dtype=np.int8)
    choice = np.zeros(n, dtype=np.int8)
    for t in range(n):
        if t < n0:
            a = int(coins[t])
        else:
            if t == n0:
                arms[0].refit()
                arms[1].refit()
            c = 1 if arms[1].score(X[t]) >= arms[0].score(X[t]) else -1
            choice[t] = c
            a = c if follow is None else int(follow[t])
        actions[t] = a
        k = (a + 1) // 2
        arms[k].add(X[t], Y[t, k])
        if t >= n0:
            arms[k].refit()
    return (actions if follow is None else choice), counters


def kernel_gap(X, Y, actions, r, t, intercept):
    """|score_+ − score_−| of the kernel's fits at round t of replication r (refit from the
    history up to t − 1 with the same compiled routine)."""
    s = []
    for k, arm in enumerate((-1, 1)):
        sel = actions[r, :t] == arm
        f = fit_penalized_logistic(X[r, :t][sel], Y[r, :t, k][sel], intercept=intercept)
        s.append(float(f.w @ X[r, t] + f.b))
    return abs(s[1] - s[0])


def _machine() -> str:
    cpu = cpu_model()
    return (
        f"{cpu} ({os.cpu_count()} cores); python {platform.python_version()}, numpy "
        f"{np.__version__}, scipy {scipy.__version__}, numba {numba.__version__}, "
        f"scikit-learn {sklearn.__version__}"
    )


def _table(rows, header):
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    out = [
        "  ".join(str(h).ljust(w) for h, w in zip(header, widths)),
        "  ".join("-" * w for w in widths),
    ]
    out += ["  ".join(str(c).ljust(w) for c, w in zip(row, widths)) for row in rows]
    return "\n".join(out)


def main(argv=None):
    with threadpool_limits(1):
        _main(argv)


def _main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=100, help="replications for the kernel (100)")
    ap.add_argument(
        "--baseline-reps",
        type=int,
        default=5,
        help="replications for sklearn: timing and agreement (5)",
    )
    ap.add_argument("--repeats", type=int, default=3, help="timed kernel calls, median (3)")
    ap.add_argument("--seed", type=int, default=20240, help="SeedSequence entropy (20240)")
    args = ap.parse_args(argv)
    if args.reps < 1 or args.baseline_reps < 1 or args.repeats < 1:
        ap.error("--reps, --baseline-reps and --repeats must be >= 1")
    B = min(args.baseline_reps, args.reps)
    load0 = os.getloadavg()[0]
    wall0 = time.perf_counter()
    stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    print(
        f"# bench_greedy_logistic  d={D} n={N} n0={N0} Delta={DELTA:g}  logistic link, "
        f"Bernoulli rewards  seed={args.seed}  {stamp}"
    )
    print(f"# {_machine()}")

    X, means, Y, coins = make_problem(args.reps, args.seed)

    # warm-up: compile (or load numba's on-disk cache) outside every timing
    t0 = time.perf_counter()
    for icpt in (True, False):
        greedy_logistic_actions(X[:1, :50], Y[:1, :50], coins[:1, :10], intercept=icpt)
    warm = time.perf_counter() - t0

    rows, agree_rows, newton_rows, kernel = [], [], [], {}
    for icpt in (True, False):
        times, cpus = [], []
        for _ in range(args.repeats):
            t0, c0 = time.perf_counter(), time.process_time()
            actions, info = greedy_logistic_actions(X, Y, coins, intercept=icpt)
            times.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
        kernel[icpt] = (actions, info, statistics.median(times), statistics.median(cpus))
        print(f"kernel intercept={icpt}: wall {times} s, cpu {cpus} s", file=sys.stderr)
        newton_rows.append(
            [
                icpt,
                args.reps,
                info["fits"],
                f"{info['newton_iterations'] / info['fits']:.2f}",
                info["max_iterations_per_fit"],
                info["max_iter_hits"],
                info["objective_evaluations"],
                info["line_search_halvings"],
                info["failures"],
                info["ties"],
            ]
        )

    for icpt in (True, False):
        actions, info, t_k, c_k = kernel[icpt]
        us_k = t_k / (args.reps * N) * 1e6
        cus_k = c_k / (args.reps * N) * 1e6
        # baseline on its own history (timed)
        t0, c0 = time.perf_counter(), time.process_time()
        base_actions, counters = [], {"fits": 0, "convergence_warnings": 0, "one_class": 0}
        for r in range(B):
            a, c = sklearn_greedy(X[r], Y[r], coins[r], icpt)
            base_actions.append(a)
            for key in counters:
                counters[key] += c[key]
        t_b, c_b = time.perf_counter() - t0, time.process_time() - c0
        base_actions = np.array(base_actions)
        us_b = t_b / (B * N) * 1e6
        cus_b = c_b / (B * N) * 1e6
        same_hist = float(np.mean(base_actions[:, N0:] == actions[:B, N0:]))
        print(f"sklearn own history intercept={icpt}: {t_b:.1f} s {counters}", file=sys.stderr)
        rows.append(
            [
                "nbl_sim kernel (numba)",
                icpt,
                args.reps,
                f"{us_k:.1f}",
                f"{cus_k:.1f}",
                f"{t_k:.2f}",
                f"{us_b / us_k:.0f}x",
                f"{cus_b / cus_k:.0f}x",
                f"{mean_regret(actions, means):.5f}",
                f"{mean_regret(actions[:B], means[:B]):.5f}",
            ]
        )
        rows.append(
            [
                "sklearn LogisticRegression(C=inf)",
                icpt,
                B,
                f"{us_b:.0f}",
                f"{cus_b:.0f}",
                f"{t_b:.2f}",
                "1x",
                "1x",
                "-",
                f"{mean_regret(base_actions, means[:B]):.5f}",
            ]
        )
        # agreement along the kernel's history
        t0 = time.perf_counter()
        agree, total, gaps, c_agree = 0, 0, [], {"convergence_warnings": 0, "one_class": 0}
        for r in range(B):
            choice, c = sklearn_greedy(X[r], Y[r], coins[r], icpt, follow=actions[r])
            ok = choice[N0:] == actions[r, N0:]
            agree += int(ok.sum())
            total += ok.size
            for t in np.flatnonzero(~ok) + N0:
                gaps.append(kernel_gap(X, Y, actions, r, int(t), icpt))
            c_agree["convergence_warnings"] += c["convergence_warnings"]
            c_agree["one_class"] += c["one_class"]
        print(f"agreement intercept={icpt}: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        agree_rows.append(
            [
                icpt,
                B,
                total,
                agree,
                f"{100 * agree / total:.3f}%",
                f"{max(gaps):.1e}" if gaps else "-",
                f"{100 * same_hist:.2f}%",
                counters["convergence_warnings"] + c_agree["convergence_warnings"],
                counters["one_class"] + c_agree["one_class"],
            ]
        )

    print(
        "\ntime per replication-round = time / (reps * n), wall clock and process CPU; "
        f"kernel: median of {args.repeats} calls on all reps, compile excluded (warm-up "
        f"{warm:.2f} s, untimed); BLAS/OpenMP limited to 1 thread"
    )
    print(
        _table(
            rows,
            [
                "method",
                "intercept",
                "reps",
                "us/rep-round",
                "cpu us/rep-round",
                "total s",
                "vs sklearn",
                "vs sklearn (cpu)",
                "regret R_n/n",
                f"regret (first {B} reps)",
            ],
        )
    )
    print(
        "\nagreement along the kernel's history, rounds t >= n0 (sklearn's choice from its own "
        "fits of the same per-arm data vs the kernel's action)"
    )
    print(
        _table(
            agree_rows,
            [
                "intercept",
                "reps",
                "rounds",
                "agree",
                "fraction",
                "max kernel |gap| at disagreements",
                "same actions (own histories)",
                "sklearn ConvergenceWarnings",
                "one-class fits skipped",
            ],
        )
    )
    print(
        "\nkernel Newton statistics (all reps; an iteration = one Newton direction; one "
        "warm-started refit per greedy round)"
    )
    print(
        _table(
            newton_rows,
            [
                "intercept",
                "reps",
                "fits",
                "iterations/fit",
                "max/fit",
                "max_iter hits",
                "objective evals",
                "halvings",
                "failures",
                "ties",
            ],
        )
    )
    print(
        f"\ntotal wall time {time.perf_counter() - wall0:.1f} s; 1-min load average "
        f"{load0:.2f} at start, {os.getloadavg()[0]:.2f} at end"
    )


if __name__ == "__main__":
    main()
