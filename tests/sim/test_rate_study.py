"""nbl_sim.studies.rate_study / rate_analysis / `nbl study`: reproducibility whatever the chunking and the
executor, resume after an interruption, the statistics on synthetic data with known answers, and
the quick study end to end through the command line."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from nbl_sim.runs.execution import ProcessExecutor, SerialExecutor
from nbl_sim.runs.sweep import ChunkCache
from nbl_sim.studies.rate_analysis import _mean_se, bootstrap_slope, fit_growth
from nbl_sim.studies.rate_study import QUICK, StudyConfig, plan, run_study

TINY = StudyConfig(
    "tiny",
    dims=(2, 3),
    ns=(250, 500, 1000),
    reps=6,
    t_points=8,
    gamma_multiples=(0.5, 2.0),
    gamma_n=400,
    gamma_reps=6,
    loc_dims=(2,),
    loc_n0s=(10, 40),
    loc_n=300,
    loc_reps=20,
    contrast_ns=(150, 300, 600),
    contrast_reps=6,
    rep_steps_per_cell=2.5e3,
    long_dims=(2,),
    long_ns=(500, 1000, 2000),
    long_reps=4,
)


def _arrays(res):
    out = {}
    for part in ("regret", "regret_long", "gamma", "localization", "contrast"):
        for key, d in getattr(res, part).items():
            for k, v in d.items():
                out[(part, key, k)] = np.asarray(v)
    return out


def _same(a, b):
    assert a.keys() == b.keys()
    for k in a:
        assert np.array_equal(a[k], b[k], equal_nan=True), k


#: the tiny study's numbers of record: sums over replications of each part's arrays (counts for
#: the localization's booleans), recorded from ``run_study(TINY)`` at 82becc6 (numpy 2, a 2-core
#: host). They move with the study's seeds, streams, settings or any statistic, not with the host:
#: contexts and uniforms are numpy's PCG64 streams, and a host's SIMD tanh, which can differ in
#: the last bit, moves a mean reward by ~1e-16 and flips a Bernoulli draw with probability
#: ~1e-16; the rel 1e-9 tolerance is far above that and far below any change of seed.
TINY_RECORD = {
    ("regret", ("logistic", 2), "stage2"): 33.67179137299888,
    ("regret", ("logistic", 2), "e_grid"): 5.982574384264896,
    ("regret", ("logistic", 3), "stage2"): 39.292890158922404,
    ("regret", ("logistic", 3), "e_grid"): 6.02465511572813,
    ("regret", ("tt-stable", 2), "stage2"): 131.31316829879492,
    ("regret", ("tt-stable", 2), "e_grid"): 25.772922710838902,
    ("regret", ("tt-stable", 3), "stage2"): 129.8543663782888,
    ("regret", ("tt-stable", 3), "e_grid"): 23.184825006645404,
    ("regret_long", ("tt-stable", 2), "stage2"): 33.76198680190955,
    ("regret_long", ("tt-stable", 2), "e_grid"): 2.8712324162044904,
    ("gamma", 0.5, "e_grid"): 5.76326829204054,
    ("gamma", 2.0, "e_grid"): 8.807224326927738,
    ("localization", (2, 10), "exit"): 20,
    ("localization", (2, 10), "start_out"): 17,
    ("localization", (2, 10), "e_n0"): 44.880005898133234,
    ("localization", (2, 40), "exit"): 10,
    ("localization", (2, 40), "start_out"): 6,
    ("localization", (2, 40), "e_n0"): 20.850166617273796,
    ("contrast", "tt-unstable", "regret"): 0.9811330055695784,
    ("contrast", "tt-unstable", "angle"): 1.5470717101026772,
    ("contrast", "tt-stable", "regret"): 0.751508357937022,
    ("contrast", "tt-stable", "angle"): 1.1021853231762004,
}


def test_the_tiny_studys_numbers_of_record():
    """A change of the study's seeds (``_seed``), streams or statistics shows here, not only in
    the full study's reports (:data:`TINY_RECORD` says how the values were recorded)."""
    got = _arrays(run_study(TINY, executor=SerialExecutor()))
    for key, want in TINY_RECORD.items():
        v = got[key]
        value = int(v.sum()) if v.dtype == bool else math.fsum(v.ravel().tolist())
        assert value == pytest.approx(want, rel=1e-9), key


def test_every_study_run_reads_its_path_through_the_horizon(monkeypatch):
    """The localization's exit (lem:finite-horizon-localization: P(τ ≤ n), the path leaving the
    ball at some round n0 ≤ t ≤ n) and τ read NBL's error path through round n: every run of the
    study records its last round (a path leaving at round n exactly is rare, so the numbers of
    record alone would not show a window one round short)."""
    import nbl_sim.studies.rate_study as rs

    seen, nbl = [], rs.engine.nbl

    def spy(X, *args, **kw):
        seen.append((X.shape[1], np.asarray(kw["record_rounds"])))
        return nbl(X, *args, **kw)

    monkeypatch.setattr(rs.engine, "nbl", spy)
    run_study(TINY, executor=SerialExecutor())
    assert len(seen) > 10
    for n, rounds in seen:
        assert rounds.size and rounds[-1] == n, (n, rounds[-3:])


def test_results_do_not_depend_on_chunking_or_executor():
    one = run_study(replace(TINY, rep_steps_per_cell=1e9), executor=SerialExecutor())
    many = run_study(TINY, executor=SerialExecutor())
    assert len(plan(TINY)[0]) > len(plan(replace(TINY, rep_steps_per_cell=1e9))[0])
    assert not one.failures and not many.failures
    _same(_arrays(one), _arrays(many))
    pooled = run_study(TINY, executor=ProcessExecutor(2))
    _same(_arrays(many), _arrays(pooled))


def test_results_do_not_depend_on_the_cells_blocks(monkeypatch):
    """Cells draw their replications in blocks through one kept buffer
    (``rate_study._in_blocks``): blocks of 3 (uneven last blocks, the buffer refilled) and one
    whole block give every array of every part bit for bit."""
    import nbl_sim.studies.rate_study as rs

    cfg = replace(TINY, rep_steps_per_cell=1e9)
    monkeypatch.setattr(rs, "_CELL_BLOCK", 3)
    small = run_study(cfg, executor=SerialExecutor())
    monkeypatch.setattr(rs, "_CELL_BLOCK", 10**9)
    whole = run_study(cfg, executor=SerialExecutor())
    assert not small.failures and not whole.failures
    _same(_arrays(small), _arrays(whole))


def test_interrupted_study_resumes_to_the_same_result(tmp_path):
    cache = ChunkCache(tmp_path, "study")
    ref = run_study(TINY, executor=SerialExecutor())
    calls = []

    def stop_after_three(done, total):
        calls.append(done)
        if len(calls) == 4:  # the first call reports 0 done
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_study(TINY, executor=SerialExecutor(), cache=cache, progress=stop_after_three)
    assert len(cache) == 3
    again = run_study(TINY, executor=SerialExecutor(), cache=cache)
    assert again.cached == 3 and again.computed == len(plan(TINY)[0]) - 3
    _same(_arrays(ref), _arrays(again))
    # a changed parameter never reuses a cell
    other = run_study(replace(TINY, seed=TINY.seed + 1), executor=SerialExecutor(), cache=cache)
    assert other.cached == 0


def test_horizons_shorter_than_the_initialization_are_refused():
    from nbl_theory.errors import NBLInputError

    with pytest.raises(NBLInputError, match="must be < n"):
        plan(replace(TINY, ns=(150, 300)))


def test_fit_growth_picks_the_generating_model():
    rng = np.random.default_rng(0)
    ns = np.array([1e3, 3e3, 1e4, 3e4, 1e5])
    for name, f in (("log", np.log), ("sqrt", np.sqrt), ("linear", lambda x: x / 100)):
        truth = 5 + 3 * f(ns)
        # correlated noise across n, as for shared realizations
        samples = truth + np.cumsum(rng.normal(0, 0.3, (400, ns.size)), axis=1)
        fit = fit_growth(ns, samples)
        assert fit["best"] == name
        b = fit[name]["b"] * (100 if name == "linear" else 1)
        assert abs(b - 3) < 5 * fit[name]["b_se"] * (100 if name == "linear" else 1) + 1e-9


def test_fit_growth_is_the_gls_fit_with_the_covariance_of_the_means():
    """fit_growth against GLS written out independently (whitening by the Cholesky factor of
    the replication covariance / reps, least squares by numpy's lstsq): coefficients, standard
    errors and chi^2 to 1e-6 relative. The tiny ridge (1e-9 of the mean variance) moves them in
    the ninth digit; a ridge of the variance's own size (a dropped 1e-9) moves them by tens of
    percent with this strongly correlated noise."""
    rng = np.random.default_rng(5)
    ns = np.array([1e3, 3e3, 1e4, 3e4, 1e5])
    samples = 5 + 3 * np.log(ns) + np.cumsum(rng.normal(0, 0.3, (400, ns.size)), axis=1)
    fit = fit_growth(ns, samples)
    cov = np.cov(samples, rowvar=False) / samples.shape[0]
    L = np.linalg.cholesky(cov)
    y = np.linalg.solve(L, samples.mean(0))
    for name, f in (("log", np.log(ns)), ("sqrt", np.sqrt(ns)), ("linear", ns)):
        A = np.linalg.solve(L, np.column_stack([np.ones_like(f), f]))
        coef, res, *_ = np.linalg.lstsq(A, y, rcond=None)
        se = np.sqrt(np.diag(np.linalg.inv(A.T @ A)))
        got = fit[name]
        assert got["a"] == pytest.approx(coef[0], rel=1e-6)
        assert got["b"] == pytest.approx(coef[1], rel=1e-6)
        assert [got["a_se"], got["b_se"]] == pytest.approx(se, rel=1e-6)
        assert got["chi2"] == pytest.approx(float(res[0]), rel=1e-6)


def test_mean_and_se_do_not_depend_on_memory_layout():
    """Regret arrays (replications × horizons) summed replication after replication, whether
    they arrive C- or F-ordered (numpy would sum the F-ordered columns pairwise: for these
    values, other last bits)."""
    rng = np.random.default_rng(11)
    a = rng.lognormal(0.0, 3.0, (1000, 3)) * rng.choice([1.0, 1e8], (1000, 3))
    f = np.asfortranarray(a)
    assert not np.array_equal(f.mean(0), a.mean(0))  # the layouts do differ in numpy
    for x, y in zip(_mean_se(a), _mean_se(f)):
        assert np.array_equal(x, y)
    assert np.array_equal(_mean_se(a)[0], np.ascontiguousarray(a).mean(0))


def test_bootstrap_slope_of_a_power_law():
    t = np.geomspace(10, 1e4, 20)
    rng = np.random.default_rng(1)
    samples = t**-0.7 * rng.lognormal(0, 0.05, (300, 1))  # pure scale noise per replication
    s = bootstrap_slope(t, samples, 10)
    assert s["slope"] == pytest.approx(-0.7, abs=1e-12)
    assert s["lo"] <= -0.7 <= s["hi"] and s["hi"] - s["lo"] < 1e-9


def test_quick_study_command(tmp_path):
    """`nbl study --quick` end to end: tables, files, and the statistics are sane."""
    from proofs_check.cli import main

    out = tmp_path / "out"
    rc = main(
        [
            "study",
            "--quick",
            "--out",
            str(out),
            "--cache-dir",
            str(tmp_path / "c"),
            "--workers",
            "1",
        ]
    )
    assert rc == 0
    doc = json.loads((out / "study.json").read_text())  # the toolkit's JSON envelope
    assert doc["command"] == "study" and len(doc["run_id"]) == 16
    assert set(doc["files"]) >= {"study.json", "study.png"}
    an = doc["results"][0]
    assert (out / "study.png").stat().st_size > 10_000
    assert set(an) >= {"regret", "estimation", "gamma", "localization", "contrast"}
    for link in QUICK.links:
        assert set(map(int, an["regret"][link]["by_d"])) == set(QUICK.dims)
    # the step-size exponents follow the exact linearized recursion. Quick mode has 60
    # replications and n = 3000: the bootstrap 95% intervals of the exponents are +-0.1 to
    # +-0.2 wide, so 0.25 is a sanity bound (the full study checks within max(1.96 SE, 0.05))
    for row in an["gamma"]["rows"]:
        assert abs(row["measured"] - row["window_prediction"]) < 0.25, row
    # exits from r0 become rarer with a longer initialization
    p = [r["p_exit"] for r in an["localization"]["by_d"]["2"]]
    assert p[-1] < p[0]
    # the unstable link's regret grows faster than the stable one's
    c = an["contrast"]
    assert c["tt-unstable"]["slope"]["slope"] > c["tt-stable"]["slope"]["slope"]


def test_study_rejects_nothing_silently_on_failure(tmp_path, monkeypatch):
    """A failed cell leaves its setting out and is reported (never analysed on fewer reps)."""
    import nbl_sim.studies.rate_study as rs

    real = rs.contrast_cell

    def broken(c):
        if c.link == "tt-unstable":
            raise ValueError("poisoned contrast cell")
        return real(c)

    monkeypatch.setitem(rs._FN, rs.ContrastCell, broken)
    res = run_study(TINY, executor=SerialExecutor())
    assert res.failures and "poisoned" in res.failures[0].error
    assert "tt-unstable" not in res.contrast and "tt-stable" in res.contrast
    assert math.isfinite(res.contrast["tt-stable"]["regret"].mean())


def test_regret_rate_figure_draws_from_the_data_without_warnings():
    import warnings

    import matplotlib.pyplot as plt

    from nbl_sim.presentation.figures.regret_rate import draw, figure_data

    data = figure_data(run_study(TINY, executor=SerialExecutor()))
    t = data.table("error_to_regret")
    # the exact error-to-regret ratio tends to its closed-form limit as alpha -> 0; at the
    # smallest plotted alpha (1e-3) the O(alpha^2) correction is ~1e-6 (6.8e-7 measured,
    # nbl_sim.studies.rate_theory), so rtol 1e-4 only fails if the table mixes up ratio and limit
    small = t["alpha"] == t["alpha"].min()
    assert np.allclose(t["ratio"][small], t["limit"][small], rtol=1e-4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = draw(data)
    assert len(fig.axes) >= 8
    plt.close(fig)


def test_a_study_config_takes_numpys_whole_numbers_as_ints_and_refuses_bools():
    """Sizes read from numpy arrays (np.int64, a list of them) are whole numbers: the config
    holds them as Python ints and tuples — equal and hashing alike to the same config written
    by hand, so its cells' keys and the results' JSON do not change. A bool, a float or a
    string is not a size, nor is a mapping, a set or a 2-D array a list of sizes."""
    import dataclasses

    from nbl_theory.errors import NBLInputError

    c = dataclasses.replace(
        QUICK,
        reps=np.int64(40),
        ns=list(np.array([300, 1000, 3000])),
        dims=(np.int32(2), 4, np.int64(8)),
    )
    assert c == QUICK and hash(c) == hash(QUICK)
    assert type(c.reps) is int and type(c.ns) is tuple and {type(x) for x in c.ns} == {int}
    for bad, message in [
        ({"reps": True}, "reps must be a positive integer"),
        ({"reps": 2.0}, "reps must be a positive integer"),
        ({"ns": "12"}, "ns must be at least 2 increasing"),
        ({"dims": (np.float64(2.0), 4)}, "dims must be distinct integers >= 2"),
        # a mapping iterates over its keys and a set in no order of the user's: not sizes
        ({"dims": {2: "a", 4: "b"}}, "dims must be distinct integers >= 2"),
        ({"ns": {300, 1000}}, "ns must be at least 2 increasing"),
        ({"ns": np.array([[300, 1000]])}, "ns must be at least 2 increasing"),
    ]:
        with pytest.raises(NBLInputError, match=message):
            dataclasses.replace(QUICK, **bad)


def test_step_size_runs_are_grouped_by_their_own_two_gamma_kappa():
    """nbl_sim.studies.rate_study:792 (``2 * c.gamma * kappa`` -> ``3 * ...``, a survivor of
    the quick sample at 7b6a19a): each step-size run is filed under the multiple 2γκ it ran
    at. The configs' multiples (0.5, 2 in TINY and QUICK) are a factor 2 or 4 apart, so a 2γκ
    off by 1.5× still lands nearest its own (ties go to the first); multiples 1 and 1.3 do not
    forgive it."""
    cfg = replace(
        TINY,
        gamma_multiples=(1.0, 1.3),
        reps=2,
        ns=(250, 500),
        loc_reps=4,
        loc_n0s=(10,),
        contrast_reps=2,
        contrast_ns=(150, 300),
        long_reps=2,
        long_ns=(500, 1000),
        gamma_reps=2,
    )
    res = run_study(cfg, executor=SerialExecutor())
    assert sorted(res.gamma) == [1.0, 1.3]
    assert all(v["tau"].shape == (cfg.gamma_reps,) for v in res.gamma.values())
