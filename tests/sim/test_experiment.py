"""simulate(): reproducibility across chunking and executors, summaries, files, and the paper's
stochastic-dynamics ordering (app:stochastic-nbl)."""

import json
import math

import numpy as np
import pytest

from nbl_sim.environment import Environment
from nbl_sim.execution import ProcessExecutor, SerialExecutor, make_executor
from nbl_sim.experiment import simulate
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.paper import PAPER_LINKS, TWO_TRANSITION_KEYS

TT = make_family("two-transition", mu2="1.244122")


def _same(a, b):
    for name in a.policies:
        for k in ("regret", "sq_error", "angle"):
            x, y = getattr(a.policies[name], k), getattr(b.policies[name], k)
            assert np.array_equal(x, y, equal_nan=True), (name, k)


def test_one_chunk_equals_four_chunks_bit_for_bit():
    env = Environment.build(TT, "0.8", 3)
    kw = dict(n=600, reps=8, n0=60, policies=("nbl", "greedy-logistic", "oracle"), seed=42,
              executor=SerialExecutor())
    _same(simulate(env, chunk_size=8, **kw), simulate(env, chunk_size=2, **kw))


def test_process_pool_equals_in_process():
    env = Environment.build(TT, "0.8")
    kw = dict(n=400, reps=6, n0=40, policies=("nbl", "greedy-logistic"), seed=3, chunk_size=2)
    serial = simulate(env, executor=SerialExecutor(), **kw)
    pooled = simulate(env, executor=ProcessExecutor(2), **kw)
    _same(serial, pooled)
    assert pooled.executor.startswith("local process pool")


def test_oracle_has_zero_regret_and_regret_is_nondecreasing():
    env = Environment.build(TT, "0.5")
    res = simulate(env, n=500, reps=4, policies=("nbl", "oracle"), n0=50)
    assert np.all(res.policies["oracle"].regret == 0)
    assert np.all(np.diff(res.policies["nbl"].regret, axis=1) >= 0)  # expected-mean regret ≥ 0


def test_regret_equals_recomputation_from_expected_means():
    """R_n from the runner equals Σ max-mean − chosen-mean recomputed from the realization."""
    from nbl_sim.policies.nbl import nbl_run

    env = Environment.build(TT, "0.5")
    res = simulate(env, n=300, reps=3, n0=30, seed=9)
    real = env.draw(9, range(3), 300, 30)
    A = nbl_run(real.X, real.Y, real.coins, env.v_star).actions
    best = np.maximum(real.means[..., 0], real.means[..., 1])  # g increasing: a* has the max
    got = np.where(A > 0, real.means[..., 1], real.means[..., 0])
    assert res.policies["nbl"].regret[:, -1] == pytest.approx((best - got).sum(1), rel=1e-12)


def test_summary_json_and_files(tmp_path):
    env = Environment.build(TT, "0.5")
    res = simulate(env, n=200, reps=5, n0=20, policies=("nbl", "greedy-logistic"), seed=1)
    js = res.to_json()
    for name in ("nbl", "greedy-logistic"):
        s = js["policies"][name]
        for key in ("final_regret_mean", "final_regret_se", "final_angle_deg_mean",
                    "final_sq_error_mean", "seconds"):
            assert key in s
    assert js["policies"]["greedy-logistic"]["final_angle_deg_mean"] is None
    reg = res.policies["nbl"].regret[:, -1]
    assert js["policies"]["nbl"]["final_regret_se"] == pytest.approx(reg.std(ddof=1) / math.sqrt(5))
    files = res.write(tmp_path)
    man = json.loads((tmp_path / "manifest.json").read_text())
    assert man["params"]["seed"] == 1 and "numpy" in man["versions"]
    lines = (tmp_path / "trajectories_nbl.csv").read_text().splitlines()
    assert lines[0].startswith("replication,round,regret") and len(lines) == 1 + 5 * len(
        res.record_rounds)
    assert {f.name for f in files} >= {"bands_nbl.csv", "manifest.json"}


def test_progress_reports_every_replication():
    seen = []
    simulate(Environment.build(TT, "0.5"), n=50, reps=5, n0=5, chunk_size=2,
             progress=lambda i, n: seen.append((i, n)))
    assert seen[0] == (0, 5) and seen[-1] == (5, 5) and len(seen) == 4


def test_default_executor_choice():
    assert isinstance(make_executor(None, work=10.0), SerialExecutor)
    assert isinstance(make_executor(1, work=1e12), SerialExecutor)
    assert make_executor(3, work=1.0).workers == 3


@pytest.mark.parametrize("kwargs, fragment", [
    ({"n0": 10, "init_angle": 5.0}, "either n0"),
    ({"init_angle": 5.0, "policies": ("greedy-logistic",)}, "needs a randomized"),
    ({"n0": 0}, "n0 must be >= 1"),
    ({"n0": 500}, r"n0 must be an integer in \[0, n\]"),
    ({"policies": ("ucb",)}, "unknown policy"),
    ({"reps": 0}, "reps must be a positive integer"),
    ({"init_angle": float("inf")}, "finite"),
    ({"gamma": float("nan")}, "finite"),
])
def test_bad_input(kwargs, fragment):
    env = Environment.build(TT, "0.5")
    base = {"n": 100, "reps": 2}
    base.update(kwargs)
    with pytest.raises(NBLInputError, match=fragment):
        simulate(env, **base)


def test_paper_stochastic_ordering_at_delta_0_2():
    """app:stochastic-nbl at the paper's setting (10° start, γ = 10, t0 = 500, n = 10,000,
    100 replications, seed 0): the mean final signed angle orders stable < near-critical <
    unstable, each gap larger than 2 standard errors of the difference."""
    finals = {}
    for entry in (PAPER_LINKS[k] for k in TWO_TRANSITION_KEYS):
        env = Environment.build(entry.link(), "0.2")
        res = simulate(env, n=10_000, reps=100, init_angle=10.0, seed=0,
                       executor=SerialExecutor())
        s = res.summary()["nbl"]
        finals[entry.regime] = (s["final_angle_deg_mean"], s["final_angle_deg_se"])
    (m1, s1), (m2, s2), (m3, s3) = (finals[k] for k in ("stable", "near-critical", "unstable"))
    assert abs(m1) < 2 * s1  # the stable link returns to v*
    assert m2 - m1 > 2 * math.hypot(s1, s2)
    assert m3 - m2 > 2 * math.hypot(s2, s3)
