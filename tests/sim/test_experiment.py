"""simulate(): reproducibility across chunking and executors, summaries, files, and the paper's
stochastic-dynamics ordering (app:stochastic-nbl)."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nbl_sim.engine.environment import Environment
from nbl_sim.engine.greedy_kernel import greedy_logistic_actions
from nbl_sim.engine.metrics import (
    cumulative_regret,
    instantaneous_regret,
    instantaneous_regret_into,
    mc_summary,
    recorded_regret,
)
from nbl_sim.engine.nbl_kernel import nbl_run
from nbl_sim.engine.reference import oracle as oracle_actions
from nbl_sim.runs.execution import ProcessExecutor, SerialExecutor, make_executor
from nbl_sim.studies import experiment
from nbl_sim.studies.experiment import simulate
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
    kw = dict(
        n=600,
        reps=8,
        n0=60,
        policies=("nbl", "greedy-logistic", "oracle"),
        seed=42,
        executor=SerialExecutor(),
    )
    _same(simulate(env, chunk_size=8, **kw), simulate(env, chunk_size=2, **kw))


_METRICS = ("regret", "avg_regret", "angle_deg", "sq_error")


def _same_bands(a, b):
    for name in a.policies:
        for m in _METRICS:
            x, y = a.band(name, m), b.band(name, m)
            for k in ("mean", "se", "lo", "hi"):
                assert np.array_equal(x[k], y[k], equal_nan=True), (name, m, k)


@pytest.mark.parametrize("d", [2, 3])
def test_every_chunking_block_and_worker_count_gives_the_same_numbers(d, monkeypatch):
    """workers=1 vs a 2-process pool vs chunk sizes 1, 3, 11 and blocks of 1 or 8 replications
    inside a chunk: identical trajectories and bands, bit for bit — and equal to the plain
    numpy pipeline (draw all 11 replications at once, run each policy, cumulative regret)."""
    env = Environment.build(TT, "0.6", d)
    kw = dict(n=500, reps=11, n0=40, policies=("nbl", "greedy-logistic", "oracle"), seed=5)
    ref = simulate(env, workers=1, **kw)
    for other in (
        dict(workers=2),
        dict(executor=SerialExecutor(), chunk_size=1),
        dict(executor=ProcessExecutor(2), chunk_size=3),
        dict(executor=SerialExecutor(), chunk_size=11),
    ):
        res = simulate(env, **other, **kw)
        _same(ref, res)
        _same_bands(ref, res)
    monkeypatch.setattr(experiment, "_BLOCK_BYTES", 1.0)  # one replication per block
    _same(ref, simulate(env, workers=1, **kw))

    real = env.draw(5, range(11), 500, 40)  # the whole batch at once, plain numpy bookkeeping
    rec = ref.record_rounds
    cols = np.clip(rec - 1, 0, None)
    opt = env.optimal_actions(real.X)
    acts = {
        "nbl": nbl_run(real.X, real.Y, real.coins, env.v_star).actions,
        "greedy-logistic": greedy_logistic_actions(real.X, real.Y, real.coins)[0],
        "oracle": oracle_actions(real.X, env.v_star),
    }
    for name, A in acts.items():
        reg = np.where(rec > 0, cumulative_regret(real.means, A, opt)[:, cols], 0.0)
        assert np.array_equal(ref.policies[name].regret, reg), name


def test_band_csv_files_do_not_depend_on_the_chunking(tmp_path):
    """``write`` gives byte-identical CSV files for one chunk, a 2-process pool with one
    replication per chunk, and three chunks (issue: regret stacks used to be stacked in column
    order for multi-replication chunks and in row order for one-replication chunks, and numpy
    summed the two layouts in different orders, changing the last digit of the bands)."""
    env = Environment.build(TT, "0.5")
    kw = dict(n=400, reps=12, n0=40, policies=("nbl", "greedy-logistic", "oracle"), seed=7)
    runs = [
        simulate(env, executor=SerialExecutor(), **kw),
        simulate(env, executor=ProcessExecutor(2), chunk_size=1, **kw),
        simulate(env, executor=SerialExecutor(), chunk_size=5, **kw),
    ]
    dirs = []
    for i, res in enumerate(runs):
        res.write(tmp_path / str(i))
        dirs.append(tmp_path / str(i))
    names = sorted(p.name for p in dirs[0].glob("*.csv"))
    assert "bands_nbl.csv" in names and len(names) == 6
    for other in dirs[1:]:
        for name in names:
            assert (dirs[0] / name).read_bytes() == (other / name).read_bytes(), name


def test_mc_summary_does_not_depend_on_memory_layout():
    """The same values in C order, Fortran order or a strided view give the same statistics
    bit for bit, and the band at one round equals the summary of that round's values."""
    rng = np.random.default_rng(3)
    vals = rng.standard_normal((37, 50)) * 10.0 ** rng.uniform(-8, 8, (37, 50))
    ref = mc_summary(vals)
    for layout in (np.asfortranarray(vals), np.repeat(vals, 2, axis=1)[:, ::2]):
        got = mc_summary(layout)
        for k in ("mean", "se", "lo", "hi"):
            assert np.array_equal(got[k], ref[k]), k
    for k in (0, 17, 49):
        col = mc_summary(vals[:, k])
        assert col["mean"] == ref["mean"][k] and col["se"] == ref["se"][k]
    row_order = vals[0].copy()  # what C-order axis-0 sums do: r = 0, 1, 2, ... one at a time
    for r in range(1, 37):
        row_order += vals[r]
    assert not np.array_equal(row_order / 37, ref["mean"])  # the layouts really differed


@pytest.mark.parametrize("R", [3, 5, 9])
def test_recorded_regret_is_the_cumulative_regret_at_the_recorded_rounds(R):
    """Bit for bit, for replications summed four at a time and the rest one by one."""
    env = Environment.build(TT, "0.5", 3)
    real = env.draw(4, range(R), 800, 30)
    A = nbl_run(real.X, real.Y, real.coins, env.v_star).actions
    full = cumulative_regret(real.means, A, real.optimal)
    rec = np.array([0, 1, 2, 30, 31, 555, 800])
    got = recorded_regret(real.means, A, real.optimal, rec)
    assert np.array_equal(got[:, 0], np.zeros(R))
    assert np.array_equal(got[:, 1:], full[:, rec[1:] - 1])  # bit for bit
    assert np.array_equal(recorded_regret(real.means, A, real.optimal, [7]), full[:, [6]])
    with pytest.raises(NBLInputError, match="strictly increasing"):
        recorded_regret(real.means, A, real.optimal, [5, 3])


def _bits(a):
    return np.asarray(a, dtype=np.float64).view(np.int64)


@given(
    R=st.integers(1, 140),
    n=st.integers(1, 60),
    miss=st.sampled_from([0.0, 0.05, 0.5, 1.0]),
    seed=st.integers(0, 2**32 - 1),
)
@settings(max_examples=60, deadline=None)
def test_recorded_regret_sums_the_missed_rounds_to_the_bit(R, n, miss, seed):
    """Summing only the rounds a policy missed gives :func:`cumulative_regret` bit for bit (the
    sign of a zero included): any share of missed rounds, more replications than a block of the
    sum, means with exact ties (a gap of +0.0) and record rounds 0, 1 and n."""
    rng = np.random.default_rng(seed)
    means = np.round(rng.uniform(0, 1, (R, n, 2)), int(rng.integers(1, 17)))
    optimal = np.where(rng.uniform(size=(R, n)) < 0.5, -1, 1).astype(np.int8)
    actions = np.where(rng.uniform(size=(R, n)) < miss, -optimal, optimal).astype(np.int8)
    rec = np.unique(np.r_[0, 1, rng.integers(0, n + 1, 5), n])
    full = cumulative_regret(means, actions, optimal)
    want = np.where(rec > 0, full[:, np.maximum(rec - 1, 0)], 0.0)
    assert np.array_equal(_bits(recorded_regret(means, actions, optimal, rec)), _bits(want))


def test_recorded_regret_where_skipping_a_round_would_change_the_bits():
    """The two inputs where the rounds a policy played optimally are not +0.0 gaps: a mean that
    is not finite (m − m is NaN) and a gap of −0.0 (−0.0 − (+0.0)) at the first round. Both
    are summed densely, so R_t is still the definition's, NaN and the sign of zero included."""
    means = np.full((2, 4, 2), 0.25)
    actions = np.ones((2, 4), dtype=np.int8)
    optimal = np.ones((2, 4), dtype=np.int8)
    means[0, 2, 1] = np.nan  # a round played optimally, its mean NaN
    means[1, 0] = (0.0, -0.0)  # a missed first round whose gap is −0.0
    optimal[1, 0] = 1
    actions[1, 0] = -1
    rec = np.arange(5)
    got = recorded_regret(means, actions, optimal, rec)
    full = cumulative_regret(means, actions, optimal)
    assert np.array_equal(_bits(got[:, 0]), _bits(np.zeros(2)))  # R_0 = +0.0, not R_n
    assert np.isnan(got[0, 3]) and np.array_equal(_bits(got[:, 1:]), _bits(full))
    assert np.signbit(got[1, 1]) and not np.signbit(got[1, 2])  # −0.0, then −0.0 + 0.0 = +0.0


@pytest.mark.parametrize("n", [1, 57, 800])
def test_instantaneous_regret_into_a_wider_buffer_is_the_numpy_definition(n):
    env = Environment.build(TT, "0.5", 3)
    real = env.draw(4, range(5), 800, 30)
    A = nbl_run(real.X, real.Y, real.coins, env.v_star).actions[:, :n]
    buf = np.full((5, 900), 7.0)
    got = instantaneous_regret_into(real.means, A, real.optimal[:, :n], buf[:, :n])
    ref = instantaneous_regret(real.means[:, :n], A, real.optimal[:, :n])
    assert np.array_equal(got, ref) and np.array_equal(buf[:, :n], ref)  # bit for bit
    assert np.array_equal(got.sum(1), ref.sum(1))  # the study's stage sums too
    assert np.all(buf[:, n:] == 7.0)
    with pytest.raises(NBLInputError, match="means must be"):
        instantaneous_regret_into(
            real.means[:, : n - 1] if n > 1 else real.means[:2], A, real.optimal[:, :n], buf[:, :n]
        )


def test_process_pool_equals_in_process():
    env = Environment.build(TT, "0.8")
    kw = dict(n=400, reps=6, n0=40, policies=("nbl", "greedy-logistic"), seed=3, chunk_size=2)
    serial = simulate(env, executor=SerialExecutor(), **kw)
    pooled = simulate(env, executor=ProcessExecutor(2), **kw)
    _same(serial, pooled)
    assert pooled.executor.startswith("local process pool")


@pytest.mark.smoke
def test_oracle_has_zero_regret_and_regret_is_nondecreasing():
    env = Environment.build(TT, "0.5")
    res = simulate(env, n=500, reps=4, policies=("nbl", "oracle"), n0=50)
    assert np.all(res.policies["oracle"].regret == 0)
    assert np.all(np.diff(res.policies["nbl"].regret, axis=1) >= 0)  # expected-mean regret ≥ 0


def test_regret_equals_recomputation_from_expected_means():
    """R_n from the runner equals Σ max-mean − chosen-mean recomputed from the realization."""
    from nbl_sim.engine.nbl_kernel import nbl_run

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
        for key in (
            "final_regret_mean",
            "final_regret_se",
            "final_angle_deg_mean",
            "final_sq_error_mean",
            "seconds",
        ):
            assert key in s
    assert js["policies"]["greedy-logistic"]["final_angle_deg_mean"] is None
    reg = res.policies["nbl"].regret[:, -1]
    assert js["policies"]["nbl"]["final_regret_se"] == pytest.approx(reg.std(ddof=1) / math.sqrt(5))
    files = res.write(tmp_path)
    envelope = json.loads((tmp_path / "manifest.json").read_text())
    assert envelope["command"] == "simulate" and "manifest.json" not in envelope["files"]
    (man,) = envelope["results"]  # the toolkit's one envelope (records.py)
    assert man["params"]["seed"] == 1 and "numpy" in man["versions"]
    lines = (tmp_path / "trajectories_nbl.csv").read_text().splitlines()
    assert lines[0].startswith("replication,round,regret") and len(lines) == 1 + 5 * len(
        res.record_rounds
    )
    assert {f.name for f in files} >= {"bands_nbl.csv", "manifest.json"}


def test_progress_reports_every_replication():
    seen = []
    simulate(
        Environment.build(TT, "0.5"),
        n=50,
        reps=5,
        n0=5,
        chunk_size=2,
        progress=lambda i, n: seen.append((i, n)),
    )
    assert seen[0] == (0, 5) and seen[-1] == (5, 5) and len(seen) == 4


def test_default_executor_choice():
    assert isinstance(make_executor(None, work=10.0), SerialExecutor)
    assert isinstance(make_executor(1, work=1e12), SerialExecutor)
    assert make_executor(3, work=1.0).workers == 3


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"n0": 10, "init_angle": 5.0}, "either n0"),
        ({"init_angle": 5.0, "policies": ("greedy-logistic",)}, "needs a randomized"),
        ({"n0": 0}, "n0 must be >= 1"),
        ({"n0": 500}, r"n0 must be an integer in \[0, n\]"),
        ({"policies": ("ucb",)}, "unknown policy"),
        ({"reps": 0}, "reps must be a positive integer"),
        ({"init_angle": float("inf")}, r"degrees in \[-360, 360\]"),
        ({"gamma": float("nan")}, "finite"),
        # record rounds: strictly increasing integers in [0, n], each end and each rule
        ({"record_rounds": [-1, 50]}, "record_rounds must be strictly increasing"),
        ({"record_rounds": [0, 101]}, "record_rounds must be strictly increasing"),
        ({"record_rounds": [50, 50]}, "record_rounds must be strictly increasing"),
        ({"record_rounds": []}, "record_rounds must be strictly increasing"),
        ({"record_rounds": [[1, 2]]}, "record_rounds must be strictly increasing"),
    ],
)
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
        res = simulate(env, n=10_000, reps=100, init_angle=10.0, seed=0, executor=SerialExecutor())
        s = res.summary()["nbl"]
        finals[entry.regime] = (s["final_angle_deg_mean"], s["final_angle_deg_se"])
    (m1, s1), (m2, s2), (m3, s3) = (finals[k] for k in ("stable", "near-critical", "unstable"))
    assert abs(m1) < 2 * s1  # the stable link returns to v*
    assert m2 - m1 > 2 * math.hypot(s1, s2)
    assert m3 - m2 > 2 * math.hypot(s2, s3)


# ------------------------------------------------------------------ beyond the paper (issue 18)
@pytest.mark.parametrize(
    "kw",
    [
        dict(contexts="student-t:nu=4", arms="intercept=0.3"),
        dict(contexts="gaussian:cond=5,angle=20", arms="shift=0.1"),
        dict(contexts="rademacher"),
    ],
)
def test_other_laws_and_arms_chunking_and_pool_invariance(kw):
    """Other context laws and arms run through simulate with every policy: the numbers do not
    depend on the chunking or the process pool (the law and the arms travel with the
    environment to the workers)."""
    env = Environment.build(TT, "0.6", 2, **kw)
    args = dict(n=400, reps=7, n0=40, policies=("nbl", "greedy-logistic", "oracle"), seed=2)
    ref = simulate(env, workers=1, **args)
    _same(ref, simulate(env, executor=ProcessExecutor(2), chunk_size=3, **args))
    _same(ref, simulate(env, executor=SerialExecutor(), chunk_size=1, **args))
    assert ref.to_json()["environment"]["contexts" if "contexts" in kw else "link"]


def test_per_arm_links_regret_is_against_the_argmax():
    """Intercept arms: the oracle (argmax_a m_a) has zero regret, every policy's regret is
    non-decreasing (regret increments are max_a m_a − m_{A_t} ≥ 0), and NBL's regret equals
    the recomputation from the realized means."""
    env = Environment.build(TT, "0.2", arms="intercept=0.5")
    res = simulate(env, n=600, reps=4, n0=50, policies=("nbl", "greedy-logistic", "oracle"), seed=4)
    assert np.all(res.policies["oracle"].regret == 0)
    for name in ("nbl", "greedy-logistic"):
        assert np.all(np.diff(res.policies[name].regret, axis=1) >= 0), name
    real = env.draw(4, range(4), 600, 50)
    A = nbl_run(real.X, real.Y, real.coins, env.v_star).actions
    best = np.maximum(real.means[..., 0], real.means[..., 1])
    got = np.where(A > 0, real.means[..., 1], real.means[..., 0])
    assert res.policies["nbl"].regret[:, -1] == pytest.approx((best - got).sum(1), rel=1e-12)
    # the linear rule sgn(v*ᵀx) is not optimal here: the oracle of the paper's model would pay
    lin = oracle_actions(real.X, env.v_star)
    assert np.sum(best - np.where(lin > 0, real.means[..., 1], real.means[..., 0])) > 1.0


def test_bands_are_the_pointwise_summaries_of_their_metric():
    """band(policy, metric): the mean over replications of R_t, R_t/t (NaN at t = 0), the
    angle in degrees and the squared error, with SE = sd/√reps and lo/hi = mean ∓ 1.96 SE."""
    env = Environment.build(TT, "0.8", 2)
    res = simulate(env, n=300, reps=6, n0=30, policies=("nbl",), seed=3, executor=SerialExecutor())
    p, t = res.policies["nbl"], res.record_rounds.astype(float)
    assert t[0] == 0 and (t[1:] > 0).all()
    expected = {
        "regret": p.regret,
        "angle_deg": np.degrees(p.angle),
        "sq_error": p.sq_error,
        "avg_regret": np.concatenate(
            [np.full((p.regret.shape[0], 1), np.nan), p.regret[:, 1:] / t[1:]], axis=1
        ),
    }
    for metric, vals in expected.items():
        b = res.band("nbl", metric)
        np.testing.assert_allclose(b["mean"], vals.mean(axis=0), rtol=1e-12, atol=0)
        se = vals.std(axis=0, ddof=1) / math.sqrt(vals.shape[0])
        np.testing.assert_allclose(b["se"], se, rtol=1e-12, atol=1e-300)
        z = (b["hi"] - b["lo"])[1:] / (2 * b["se"][1:])
        np.testing.assert_allclose(z[b["se"][1:] > 0], 1.959963984540054, rtol=1e-9)


def test_the_default_initialization_is_200_rounds():
    """n0 omitted: the documented default of 200 randomized rounds at n >= 400, the same numbers
    as n0=200."""
    env = Environment.build(TT, "0.8", 2)
    kw = dict(n=400, reps=2, policies=("nbl",), seed=5, executor=SerialExecutor())
    default, explicit = simulate(env, **kw), simulate(env, n0=200, **kw)
    assert default.params["n0"] == 200
    _same(default, explicit)


def test_one_default_n0_for_the_library_and_the_command():
    """issue 37: one default per parameter. simulate()'s default n0 is default_n0(n) =
    min(200, n // 2) (at least 1), the same function the command uses; a short horizon no
    longer raises."""
    from nbl_sim.studies.experiment import default_n0

    assert [default_n0(n) for n in (1, 2, 3, 150, 399, 400, 10_000)] == [1, 1, 1, 75, 199, 200, 200]
    env = Environment.build(TT, "0.8", 2)
    res = simulate(env, n=60, reps=2, seed=0, executor=SerialExecutor())
    assert res.params["n0"] == 30


_FRESH_PROCESS_RUN = """
import json, sys
from nbl_sim.engine.environment import Environment
from nbl_sim.studies.experiment import simulate
from nbl_theory.families import make_family
env = Environment.build(make_family("two-transition", mu2="1.244122"), "0.5", int(sys.argv[1]))
res = simulate(env, n=600, reps=24, policies=("nbl", "oracle"), seed=5, workers=1)
print(json.dumps({"numba": "numba" in sys.modules, "regret": {
    k: res.policies[k].regret.tobytes().hex() for k in ("nbl", "oracle")},
    "sq": res.policies["nbl"].sq_error.tobytes().hex()}))
"""


@pytest.mark.parametrize("d", [2, 5])
def test_a_small_run_in_a_fresh_process_loads_no_numba_and_moves_no_number(d):
    """A small run in a process without numba takes the reference backend
    (experiment._backend: loading the compiled one would cost more than it saves) — and gets
    the compiled backend's bits, computed here in a process that has numba loaded."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _FRESH_PROCESS_RUN, str(d)],
        capture_output=True,
        text=True,
        check=True,
    )
    fresh = json.loads(out.stdout)
    assert fresh["numba"] is False
    import numba  # noqa: F401  (this process: the compiled backend is chosen)

    env = Environment.build(TT, "0.5", d)
    assert experiment._backend(env, 24, 600, ("nbl",)) == "compiled"
    res = simulate(env, n=600, reps=24, policies=("nbl", "oracle"), seed=5, workers=1)
    for k in ("nbl", "oracle"):
        assert res.policies[k].regret.tobytes().hex() == fresh["regret"][k]
    assert res.policies["nbl"].sq_error.tobytes().hex() == fresh["sq"]


def test_a_run_that_fits_one_chunk_is_not_cut_to_whole_lockstep_groups():
    """100 replications that fit one default chunk run as one chunk of 100, not 96 + 4: a chunk
    of 4 costs the reference backend's whole loop over rounds again (the `nbl simulate`
    defaults ran their simulation in 1.0 s instead of 0.6 s); the numbers do not depend on it."""
    env = Environment.build(TT, "0.8", 2)
    kw = dict(n=300, reps=13, n0=30, seed=5, executor=SerialExecutor(), cache=None)
    one = simulate(env, **kw)
    assert one.params["chunk_size"] == 13
    _same(one, simulate(env, chunk_size=8, **kw))


_LARGE_RUN_OF_SMALL_CHUNKS = """
import sys
from nbl_sim.engine.environment import Environment
from nbl_sim.studies.experiment import simulate
from nbl_theory.families import make_family
env = Environment.build(make_family("logistic"), 1, 2)
simulate(env, n=2000, reps=1008, chunk_size=48, policies=("nbl",), seed=1, workers=1)
print("numba" in sys.modules)
"""


def test_a_large_run_cut_into_small_chunks_takes_the_compiled_backend():
    """The backend is chosen for the whole run, not per chunk: 1,008 replications × 2,000 rounds
    in d = 2 (4.0e6 replication-steps × d, past experiment._REFERENCE_WORK) cut into chunks of 48
    (each 1.9e5) runs compiled in a fresh process. Chosen per chunk, every chunk of a large run
    took the reference (1,000 × 10⁴ in d = 2 ran 4× slower)."""
    import subprocess
    import sys

    assert 1008 * 2000 * 2 > experiment._REFERENCE_WORK >= 48 * 2000 * 2
    out = subprocess.run(
        [sys.executable, "-c", _LARGE_RUN_OF_SMALL_CHUNKS],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "True"


def test_blocks_on_threads_give_the_bits_of_one_thread(monkeypatch):
    """An in-process run spreads its blocks over every core by threads (the automatic choice);
    every array and every info count is the bits of the one-thread run (workers=1), the last
    block a partial one."""
    monkeypatch.setattr(experiment, "_BLOCK_BYTES", 1.0)  # blocks of one lockstep group (8)
    monkeypatch.setattr(experiment, "cpu_count", lambda: 2)
    env = Environment.build(TT, "0.5", 3)
    kw = dict(n=500, reps=45, n0=40, seed=7, policies=("nbl", "oracle"), cache=None)
    one = simulate(env, workers=1, **kw)
    many = simulate(env, executor=SerialExecutor(), **kw)
    assert many.executor == "serial (in-process), 2 threads"
    assert one.executor == "serial (in-process)"
    for name in ("nbl", "oracle"):
        a, b = one.policies[name], many.policies[name]
        for field in ("regret", "sq_error", "angle"):
            assert getattr(a, field).tobytes() == getattr(b, field).tobytes(), (name, field)
        assert a.info == b.info
    # the info is merged over the blocks: every replication's start was a proper one
    assert (
        many.policies["nbl"].info == {"degenerate_init": 0} and many.policies["oracle"].info == {}
    )
    assert one.policies["nbl"].regret.shape == (45, one.record_rounds.size)


def test_threads_only_where_nothing_else_runs_in_parallel(monkeypatch):
    """One thread when ``workers`` is given (workers=1 is one core), on a process pool, and
    inside an executor's task; every core otherwise, at most 8 (MAX_BLOCK_THREADS)."""
    monkeypatch.setattr(experiment, "cpu_count", lambda: 64)
    assert experiment._block_threads(SerialExecutor(), None) == 8  # the documented cap
    monkeypatch.setattr(experiment, "cpu_count", lambda: 1)
    assert experiment._block_threads(SerialExecutor(), None) == 1
    monkeypatch.setattr(experiment, "cpu_count", lambda: 3)
    assert experiment._block_threads(SerialExecutor(), None) == 3
    assert experiment._block_threads(SerialExecutor(), 1) == 1
    assert experiment._block_threads(ProcessExecutor(2), None) == 1
    monkeypatch.setattr(experiment, "in_worker", lambda: True)
    assert experiment._block_threads(SerialExecutor(), None) == 1


def test_an_error_in_a_block_thread_is_raised_once_and_the_pool_goes_on(monkeypatch):
    """A block that fails on a thread raises its error in the caller (the first failing block in
    block order, through the sweep's report of the failed chunk), and the next run uses the pool
    as before."""
    monkeypatch.setattr(experiment, "_BLOCK_BYTES", 1.0)
    monkeypatch.setattr(experiment, "cpu_count", lambda: 2)
    env = Environment.build(TT, "0.5", 2)
    kw = dict(n=300, reps=48, n0=30, seed=2, executor=SerialExecutor(), cache=None)
    good = simulate(env, **kw)
    real_run_policy = experiment._run_policy
    seen = []

    def failing(name, real, task, backend):
        seen.append(real.reps[0])
        if real.reps[0] in (16, 32):
            raise NBLInputError(f"planted failure at block {real.reps[0]}")
        return real_run_policy(name, real, task, backend)

    monkeypatch.setattr(experiment, "_run_policy", failing)
    from nbl_sim.runs.sweep import SweepError

    with pytest.raises(SweepError, match="NBLInputError: planted failure at block 16"):
        simulate(env, **kw)
    monkeypatch.setattr(experiment, "_run_policy", real_run_policy)
    again = simulate(env, **kw)
    assert again.policies["nbl"].regret.tobytes() == good.policies["nbl"].regret.tobytes()


_FORKED_RUN = """
import multiprocessing as mp, sys
from nbl_sim.engine.environment import Environment
from nbl_sim.runs.execution import SerialExecutor
from nbl_sim.studies import experiment
from nbl_theory.families import make_family
experiment.cpu_count = lambda: 2
experiment._BLOCK_BYTES = 1.0
env = Environment.build(make_family("logistic"), 1, 2)
kw = dict(n=300, reps=40, n0=30, seed=4, executor=SerialExecutor(), cache=None)
parent = experiment.simulate(env, **kw).policies["nbl"].regret.tobytes()

def child(q):
    q.put(experiment.simulate(env, **kw).policies["nbl"].regret.tobytes())

if __name__ == "__main__":
    q = mp.get_context("fork").Queue()
    p = mp.get_context("fork").Process(target=child, args=(q,))
    p.start()
    got = q.get(timeout=120)
    p.join(30)
    print(got == parent)
"""


def test_a_forked_child_runs_its_blocks_on_threads_of_its_own(tmp_path):
    """A child forked after a threaded run (its copy of the block pool has no threads) makes
    its own pool instead of waiting forever, and gets the parent's bits."""
    import subprocess
    import sys

    script = tmp_path / "forked.py"
    script.write_text(_FORKED_RUN)
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=True, timeout=300
    )
    assert out.stdout.strip() == "True"


def test_a_block_of_a_very_long_horizon_holds_one_replication():
    """A replication past the block's memory and too large for a lockstep group (d = 8,
    n = 10⁶: ~98 MB each) streams one at a time: never a block of none."""
    per_rep = experiment.Realization.bytes_per_replication(10**6, 200, 8)
    assert per_rep > experiment._BLOCK_BYTES and 8 * per_rep > experiment._GROUP_BYTES
    assert experiment._block_size(3, 10**6, 200, 8) == 1
    assert experiment._block_size(40, 10**4, 200, 2) == 8  # a lockstep group of 0.5 MB each


def test_the_record_grid_has_the_requested_density():
    """default_record_rounds(n, n0, points): about ``points`` rounds evenly over [0, n],
    with n0 and n (here every 10th round, and n0 = 15 added)."""
    from nbl_sim.studies.experiment import default_record_rounds

    got = default_record_rounds(100, 15, points=10).tolist()
    assert got == [0, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100]


def test_the_summary_averages_the_final_regret_over_the_horizon():
    """summary(): final_avg_regret_mean is R_n / n of the replications' mean."""
    env = Environment.build(TT, "0.8", 2)
    res = simulate(env, n=400, reps=6, seed=3, executor=SerialExecutor(), cache=None)
    s = res.summary()["nbl"]
    assert s["final_regret_mean"] > 0
    # the same float64 mean divided by the same n: equal to the bit
    assert s["final_avg_regret_mean"] == s["final_regret_mean"] / 400


def test_greedy_logistic_info_is_merged_over_chunks_as_counts_and_maxima():
    """Greedy Logistic runs one replication per chunk; its scalar info over the run is the sum
    of the counts and the maximum of the per-fit maxima of the replications run alone."""
    env = Environment.build(TT, "0.8", 2)
    kw = dict(n=120, n0=20, policies=("greedy-logistic",), executor=SerialExecutor(), cache=None)
    whole = simulate(env, reps=3, seed=9, **kw).policies["greedy-logistic"].info
    alone = []
    for r in range(3):
        real = experiment.engine.draw(env, 9, [r], 120, 20)
        _, info = greedy_logistic_actions(real.X, real.Y, real.coins)
        alone.append({k: np.asarray(v).item() for k, v in info.items() if np.ndim(v) == 0})
    assert whole and set(whole) == set(alone[0])
    for k, v in whole.items():
        want = max(a[k] for a in alone) if "per_" in k else sum(a[k] for a in alone)
        assert v == want, k
    assert any("per_" in k for k in whole) and any("per_" not in k for k in whole)


def test_the_library_and_the_command_default_to_the_same_horizon_and_replications():
    """issue 37: one default per parameter — ``nbl simulate``'s --n and --reps defaults are
    simulate()'s."""
    import inspect

    from proofs_check.cli import build_parser

    args = build_parser().parse_args(["simulate", "--family", "logistic", "--delta", "1"])
    sig = inspect.signature(simulate).parameters
    assert (args.n, args.reps) == (sig["n"].default, sig["reps"].default) == (10_000, 100)


def test_a_subclass_of_the_environment_runs_its_own_draw_on_one_thread(monkeypatch):
    """A subclass's own draw is the user's code, not known to be thread-safe: its run stays on
    one thread (an Environment itself gets every core)."""

    class OwnDraw(Environment):
        def _draw_contexts(self, rng, X):
            X[...] = rng.standard_t(3.0, size=X.shape)

    monkeypatch.setattr(experiment, "_BLOCK_BYTES", 1.0)
    monkeypatch.setattr(experiment, "cpu_count", lambda: 2)
    kw = dict(n=200, reps=24, n0=20, seed=1, executor=SerialExecutor(), cache=None)
    mine = simulate(OwnDraw.build(TT, "0.5", 2), **kw)
    assert mine.executor == "serial (in-process)"
    assert simulate(Environment.build(TT, "0.5", 2), **kw).executor.endswith("2 threads")


def test_every_signature_takes_its_step_and_fit_defaults_from_the_engine_contract():
    """issue 37: one default per parameter — γ, t0 (NBL's steps) and Greedy Logistic's ridge,
    tol and max_iter were written out as literals in eight signatures; each now reads
    :mod:`nbl_sim.engine.contract`, and the command line's --gamma and --t0 take them when the
    run starts."""
    import inspect

    from nbl_sim import engine
    from nbl_sim.engine import contract, greedy_kernel, nbl_kernel
    from nbl_sim.policies import objects, repairs
    from nbl_sim.studies import rate_study, rate_theory, repair_study
    from proofs_check.cli import build_parser

    want = {
        "gamma": contract.GAMMA,
        "t0": contract.T0,
        "ridge": contract.RIDGE,
        "tol": contract.TOL,
        "max_iter": contract.MAX_ITER,
    }
    fns = [
        simulate,
        nbl_kernel.nbl_run,
        nbl_kernel.nbl_reference,
        greedy_kernel.greedy_logistic_actions,
        greedy_kernel.fit_penalized_logistic,
        contract.greedy_inputs,
        engine.greedy_logistic,
        objects.NBL.__init__,
        objects.GreedyLogistic.__init__,
        repairs.repaired_nbl_run,
        repair_study.compare_policies,
        repair_study.growth_study,
        rate_theory.step_size_table,
    ]
    # growth_study localizes the start (t0 = n0 = 1000, its docstring): a setting, not a default
    own = {("growth_study", "t0")}
    seen = 0
    for fn in fns:
        for name, p in inspect.signature(fn).parameters.items():
            if name in want and (fn.__qualname__, name) not in own:
                assert p.default == want[name], (fn.__qualname__, name)
                seen += 1
    assert seen >= 20
    assert contract.NBLOptions._field_defaults["gamma"] == contract.GAMMA
    cfg = rate_study.StudyConfig("defaults")
    assert (cfg.contrast_gamma, cfg.contrast_t0) == (contract.GAMMA, contract.T0)
    # the command keeps no default of its own: None until the run reads the contract's
    # (tests/proofs_check/test_cli.py::test_the_commands_defaults_are_the_librarys runs it)
    args = build_parser().parse_args(["simulate", "--family", "logistic", "--delta", "1"])
    assert (args.gamma, args.t0) == (None, None)
