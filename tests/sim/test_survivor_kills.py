"""Tests written for survivors of the quick library-mutation sample at the current registry
(docs/mutation.md, 2026-11-29): each pins what the mutated line means and fails with that
mutant planted (checked by hand)."""

from __future__ import annotations

import numpy as np
import pytest

from nbl_sim.engine.environment import Environment
from nbl_sim.runs.execution import SerialExecutor
from nbl_sim.studies.experiment import simulate
from nbl_sim.studies.phase import grid_values
from nbl_theory.errors import NBLInputError
from nbl_theory.paper import paper_link


def test_a_reversed_two_point_grid_is_refused():
    """nbl_sim.studies.phase:70 (``n > 1`` -> ``n > 2``): lo >= hi is refused for any grid of
    more than one point, two points included."""
    with pytest.raises(NBLInputError, match="grid needs finite lo < hi"):
        grid_values(1.0, 0.0, 2)
    assert grid_values(1.0, 1.0, 1) == ["1.0"]  # one point: lo = hi is fine


def test_the_summary_reads_the_final_recorded_round():
    """nbl_sim.studies.experiment:205 (``sq_error[:, -1]`` -> ``[:, -2]``): the summary's
    final ‖v_n − v*‖² is the mean over replications at the last recorded round."""
    env = Environment.build(paper_link("tt-stable"), "1", 2)
    res = simulate(env, n=300, reps=4, n0=30, seed=1, executor=SerialExecutor())
    p = res.policies["nbl"]
    got = res.summary()["nbl"]["final_sq_error_mean"]
    assert got == pytest.approx(float(np.mean(p.sq_error[:, -1])), rel=1e-12)
    assert got != pytest.approx(float(np.mean(p.sq_error[:, -2])), rel=1e-6)


def test_gamma_exits_count_every_exit_within_the_window():
    """nbl_sim.studies.rate_analysis:332 (``tau <= t[-1]`` -> ``t[0]``): a step-size row's
    "exited" counts the replications that left the neighbourhood at any round of the window
    [1, t_max], not only by its first grid point. Synthetic data (by hand): two of six
    replications exit, at rounds 5 and 50, after the first grid point t = 1."""
    from types import SimpleNamespace

    from nbl_sim.studies.rate_analysis import gamma_analysis

    t = np.array([1.0, 3.0, 10.0, 30.0, 100.0, 200.0, 400.0])
    reps = 6
    e_grid = (1.0 / (t + 100.0))[None, :] * (1.0 + 0.1 * np.arange(reps))[:, None]
    tau = np.array([5, 50, 401, 401, 401, 401])
    study = SimpleNamespace(
        config=SimpleNamespace(gamma_multiples=(2.0,), gamma_t0=100),
        constants={"gamma_kappa": 1.0, "gamma_sigma2": 1.0, "gamma_t_grid": t.tolist()},
        gamma={2.0: {"e_grid": e_grid, "tau": tau, "e_0": np.full(reps, 0.01)}},
    )
    (row,) = gamma_analysis(study)["rows"]
    assert (row["exited"], row["reps"]) == (2, 6)


@pytest.mark.parametrize("n", [1, 2, 7, 8, 9, 15, 16, 17, 40, 130])
def test_the_reference_pairwise_sum_is_numpys(n):
    """nbl_sim.engine.reference:135 (``n < 8`` -> ``n < 9``): ``pairwise_sum`` of n arrays
    rounds as numpy's own reduction over a contiguous axis of n values (a fold below 8 terms,
    eight partial sums from 8 on). Terms of mixed magnitudes that nearly cancel, so that the
    order of the additions shows in the last bits; the reference is numpy itself."""
    from nbl_sim.engine.reference import pairwise_sum

    rng = np.random.default_rng(n)
    terms = rng.standard_normal((n, 2000)) * 10.0 ** rng.integers(-8, 9, (n, 2000))
    terms[-1] -= terms.sum(axis=0)  # near-cancelling sums
    want = np.add.reduce(np.ascontiguousarray(terms.T), axis=-1)
    assert np.array_equal(pairwise_sum(list(terms)), want)


def test_two_replications_have_a_standard_error():
    """nbl_sim.engine.metrics:190 (``R > 1`` -> ``R > 2``): two replications already give a
    sample standard deviation, so the summary has a finite SE and band; by hand, for the
    values 1 and 3: mean 2, sd √2, SE = √2/√2 = 1."""
    from nbl_sim.engine.metrics import Z95, mc_summary

    s = mc_summary(np.array([[1.0], [3.0]]))
    assert s["reps"] == 2 and s["mean"][0] == 2.0
    assert s["se"][0] == pytest.approx(1.0, rel=1e-15)
    assert s["hi"][0] == pytest.approx(2.0 + Z95, rel=1e-15)
    assert np.isnan(mc_summary(np.array([[1.0]]))["se"][0])  # one replication: none


def test_the_localized_error_is_averaged_while_inside():
    """nbl_sim.studies.rate_analysis:181 (``e_grid * (tau > t)`` with the error dropped): the
    estimation analysis averages the stopped error e_t·1{τ > t} over replications — the
    curve whose slope it fits — not the indicator alone. Checked on the tiny study of
    tests/sim/test_rate_study.py against numpy on its own arrays."""
    from nbl_sim.studies.rate_study import run_study
    from tests.sim.test_rate_study import TINY

    res = run_study(TINY, executor=SerialExecutor())
    an = res.analysis()["estimation"]
    for link in TINY.links:
        for d, row in an[link]["by_d"].items():
            r = res.regret[(link, int(d))]
            t = np.asarray(res.constants["t_grid"][(link, int(d))], dtype=float)
            want = (r["e_grid"] * (r["tau"][:, None] > t[None, :])).mean(0)
            # the analysis sums each grid point's replications in its own order (contiguous
            # runs) and numpy's mean here sums down a column: ~1e-16 apart; 1e-12 is far
            # below what the mutant moves (the error dropped: a fraction in [0, 1] instead)
            assert np.allclose(row["mean"], want, rtol=1e-12, atol=0), (link, d)
            inside = (r["tau"][:, None] > t[None, :]).mean(0)
            assert not np.allclose(row["mean"], inside)  # an error, not the fraction inside


def test_the_localization_exit_rate_has_the_binomial_standard_error():
    """nbl_sim.studies.rate_analysis:357 (``p * (1 - p)`` -> ``p * (2 - p)``): a localization
    row's exit probability carries the binomial standard error √(p(1 − p)/N). Synthetic data
    (by hand): 2 exits in 8 replications, p = 1/4, SE = √(3/16 / 8) = √3/(8√2)."""
    from types import SimpleNamespace

    from nbl_sim.studies.rate_analysis import localization_analysis

    exit_ = np.array([1, 0, 0, 1, 0, 0, 0, 0], dtype=bool)
    study = SimpleNamespace(
        config=SimpleNamespace(loc_dims=(3,), loc_n0s=(50,), links=("tt-stable",)),
        constants={"loc_r0": {3: 0.5}, "gamma": {"tt-stable": 1.0}},
        localization={
            (3, 50): {"exit": exit_, "start_out": np.zeros(8, bool), "e_n0": np.full(8, 0.1)}
        },
    )
    (row,) = localization_analysis(study)["by_d"][3]
    assert (row["exits"], row["reps"], row["p_exit"]) == (2, 8, 0.25)
    assert row["se"] == pytest.approx(np.sqrt(3.0) / (8.0 * np.sqrt(2.0)), rel=1e-15)


def test_the_contrast_per_round_regret_is_read_at_the_last_horizon():
    """nbl_sim.studies.rate_analysis:392 (``m[-1] / ns[-1]`` -> ``m[-1] / ns[0]``): a contrast
    link's "per_round_end" is its mean regret at the longest horizon divided by that horizon.
    Synthetic data (by hand): regret 0.1 n + noise-free offsets per replication, so the mean at
    n = 10⁵ is 10⁴ + 2 and the per-round regret 0.10002."""
    from types import SimpleNamespace

    from nbl_sim.studies.rate_analysis import contrast_analysis

    ns = np.array([100, 1000, 10000, 100000])
    regret = 0.1 * ns[None, :] + np.arange(1.0, 4.0)[:, None]  # 3 replications, mean offset 2
    study = SimpleNamespace(
        config=SimpleNamespace(contrast_ns=tuple(ns), contrast_links=("tt-unstable",)),
        contrast={"tt-unstable": {"regret": regret, "angle": np.full((3, 4), 0.1)}},
    )
    row = contrast_analysis(study)["tt-unstable"]
    assert row["per_round_end"] == pytest.approx((1e4 + 2.0) / 1e5, rel=1e-12)


def test_the_step_size_cells_are_grouped_by_their_own_multiple():
    """nbl_sim.studies.rate_study:745 (``abs(m - mult)`` -> ``abs(m)``): a step-size cell runs
    γ = m/(2κ) for one multiple m of the design and is reported under that m — not under the
    multiple nearest 0. A tiny study with the multiples 0.5 and 2: each has its own
    replications."""
    from dataclasses import replace

    from nbl_sim.studies.rate_study import QUICK, run_study

    cfg = replace(
        QUICK,
        dims=(2,),
        ns=(250, 500),
        reps=4,
        gamma_multiples=(0.5, 2.0),
        gamma_n=300,
        gamma_reps=5,
        loc_dims=(2,),
        loc_n0s=(10,),
        loc_n=200,
        loc_reps=4,
        contrast_ns=(150, 300),
        contrast_reps=4,
        long_dims=(),
        rep_steps_per_cell=1e9,
    )
    res = run_study(cfg, executor=SerialExecutor())
    assert sorted(res.gamma) == [0.5, 2.0]
    for m in (0.5, 2.0):
        assert np.asarray(res.gamma[m]["tau"]).shape == (5,), m


def test_a_negative_replication_index_is_refused_among_others():
    """nbl_sim.engine.environment:567 (``min(reps) < 0`` -> ``max(reps) < 0``): one negative
    index among valid ones is refused before anything is drawn, in both backends."""
    from nbl_sim import engine

    env = Environment.build(paper_link("tt-stable"), "1", 2)
    for backend in ("compiled", "reference"):
        with pytest.raises(NBLInputError, match="replication indices must be >= 0, got -1"):
            engine.draw(env, 0, [0, -1], 10, 0, backend=backend)


def test_nbl_records_every_round_by_default():
    """nbl_sim.engine.nbl_kernel:400 (``arange(1, n + 1)`` -> ``arange(2, n + 1)``): without
    ``record_rounds`` an NBL run records every round 1 … n, in both backends, round 1's error
    included."""
    from nbl_sim import engine

    env = Environment.build(paper_link("tt-stable"), "1", 2)
    real = env.draw(3, range(2), 40, 5)
    for backend in ("compiled", "reference"):
        tr = engine.nbl(real.X, real.Y, real.coins, env.v_star, backend=backend)
        assert tr.record_rounds.tolist() == list(range(1, 41)), backend
        assert tr.sq_error.shape == (2, 40)


def test_a_nearly_parallel_theta_direction_is_refused_at_any_scale():
    """nbl_sim.population.fields:313 (``1e-8 * n0`` -> ``1e-8``): θ_dir is parallel to v*
    when its part orthogonal to v* is below 1e-8 of its norm, whatever that norm (a direction,
    not a vector: scaling it changes nothing)."""
    from nbl_sim.population.fields import arm_vectors

    v = np.array([1.0, 0.0, 0.0])
    for scale in (1.0, 1e6):
        with pytest.raises(NBLInputError, match="parallel"):
            arm_vectors("1", 3, v_star=v, theta_dir=scale * np.array([1.0, 1e-9, 0.0]))
        beta, _, theta = arm_vectors("1", 3, v_star=v, theta_dir=scale * np.array([1.0, 1e-7, 0]))
        assert abs(theta[1]) == pytest.approx(np.sqrt(0.75), rel=1e-12)


def test_the_full_studys_horizons_are_log_spaced():
    """nbl_sim.studies.rate_study:137, :144, :161 (a horizon +1 or doubled): the full study's
    horizons are 10^(3 + k/3), k = 0..6 (and the contrast's the same), the long arm's
    10^(4 + k/2), k = 0..4, rounded — the equal steps in log n the log-log fits assume."""
    from nbl_sim.studies.rate_study import FULL, StudyConfig

    # a new config runs StudyConfig's checks, so the library-mutation coverage map sees this
    # test execute the module (a test that only reads FULL executes none of its lines)
    full = StudyConfig("full")
    grid = tuple(round(10 ** (3 + k / 3)) for k in range(7))
    assert full.ns == grid and full.contrast_ns == grid and full == FULL
    assert full.long_ns == tuple(round(10 ** (4 + k / 2)) for k in range(5))


@pytest.mark.parametrize(
    "change, message",
    [
        ({"ns": (1000, 1000)}, "ns must be at least 2 increasing"),
        ({"long_ns": (10000,)}, "long_ns must be at least 2"),
        ({"ns": (1000,)}, "ns must be at least 2"),
        ({"contrast_ns": (300,)}, "contrast_ns must be at least 2"),
        ({"ns": np.array(1000)}, "ns must be at least 2"),  # a 0-d array (not iterable)
        ({"reps": 0}, "reps must be a positive integer"),
        ({"loc_dims": (1,)}, "loc_dims must be distinct integers >= 2"),
        ({"dims": (4, 4, 8, 16)}, "dims must be distinct integers >= 2"),  # rate_study:139
        ({"rep_steps_per_cell": -4e7}, "rep_steps_per_cell must be positive"),
    ],
)
def test_a_study_config_is_checked_at_the_door(change, message):
    """nbl_sim.studies.rate_study:167 (the cell size 4e7 -> -4e7, which planned one replication
    per cell without a word): a config's sizes are checked once, when it is made."""
    from nbl_sim.studies.rate_study import StudyConfig

    with pytest.raises(NBLInputError, match=message):
        StudyConfig("bad", **change)


def test_the_perpendicular_step_product_is_two_gamma_kappa_perp():
    """nbl_sim.studies.rate_analysis:232 (``2 * gamma * kappa_perp`` -> ``/``): the reported
    2γκ⊥ of a link is 2γ times its Δμ* (κ⊥ = Δμ*, prop:local_jacobian), the float64 tier's
    μ* at the study's Δ = 1."""
    from types import SimpleNamespace

    from nbl_sim.studies.rate_analysis import _direction_rates
    from nbl_theory.stability import stability

    study = SimpleNamespace(
        config=SimpleNamespace(delta="1"), constants={"gamma": {"logistic": 7.0}}
    )
    got = _direction_rates(study, "logistic")
    mu = float(stability(paper_link("logistic"), "1").values["mu_star"])
    assert got["two_gamma_kappa_perp"] == pytest.approx(2 * 7.0 * mu, rel=1e-9)


def test_reference_newton_counts_an_exhausted_line_search(monkeypatch):
    """nbl_sim.engine.reference:547 (``stats[3] += 1`` -> ``stats[6]``): when no halving of a
    Newton step meets the Armijo test — here an objective that never decreases — the fit
    stops where it is and counts one failure in ``stats[3]`` (Greedy Logistic's "failures"
    diagnostic), after ``MAX_HALVINGS`` halvings and as many trial evaluations."""
    from nbl_sim.engine import reference as ref
    from nbl_sim.engine.contract import MAX_HALVINGS

    rng = np.random.default_rng(3)
    Z = rng.standard_normal((40, 3))
    y = (rng.random(40) < 0.5).astype(float)
    theta = np.zeros(3)
    calls = []

    def never_lower(Z_, y_, th, lam):
        calls.append(th.copy())
        return float(len(calls))  # each evaluation higher than the one before

    monkeypatch.setattr(ref, "_objective", never_lower)
    stats = np.zeros(8, dtype=np.int64)
    it = ref._newton(Z, y, 100.0, theta, 1e-6, 1e-10, 50, stats)  # noqa: SLF001
    assert it == 1
    assert stats.tolist() == [1, MAX_HALVINGS, 0, 1, MAX_HALVINGS + 1, 0, 0, 0]
    assert np.array_equal(theta, np.zeros(3))  # no step taken


def test_a_delta_off_by_exactly_the_tolerance_is_accepted():
    """nbl_sim.population.fields:750 (``> 1e-9`` -> ``>= 1e-9``): ``jacobian_formula`` refuses
    a Δ that disagrees with ‖β_+ − β_−‖ by *more than* 1e-9 (its docstring), so a Δ off by
    exactly 1e-9 is accepted. Arms (±5e-10, 1): ‖β_+ − β_−‖ is 1e-9 exactly in float64, and
    float("2e-9") − 1e-9 == 1e-9 exactly (Sterbenz), checked first."""
    from nbl_sim.population.fields import jacobian_formula

    beta = np.array([[-5e-10, 1.0], [5e-10, 1.0]])
    dl = float(np.linalg.norm(beta[1] - beta[0]))
    assert abs(float("2e-9") - dl) == 1e-9  # the float arithmetic this test relies on
    link = paper_link("logistic")
    J = jacobian_formula(link, "2e-9", beta=beta)
    assert np.all(np.isfinite(J))
    with pytest.raises(NBLInputError, match="disagrees with"):
        jacobian_formula(link, "2.0000001e-9", beta=beta)


def test_a_level_crossed_in_the_last_grid_cell_is_found():
    """nbl_sim.studies.regret_geometry:339 (``vals[-1] = 0.0`` -> ``vals[-2]``): R(α) → 0 as
    |α| → π, so any level frac·κ_θ > 0 is crossed; with frac = 1e-7 (logistic, Δ = 1) the
    crossing lies in the grid's last cell (π − π/2000, π), where only the limit R(±π) = 0
    written into the last grid point brackets it. The root found is a crossing: R(α*) equals
    the level (to Brent's 1e-14 in α, times R' ≈ κ_θ·(π − α*)/2 … here ~1e-4)."""
    import math

    from nbl_sim.population import fields as pop
    from nbl_sim.studies.regret_geometry import stability_radius

    link = paper_link("logistic")
    r = stability_radius(link, "1", frac=1e-7)
    assert math.pi - math.pi / 2000 < r["alpha"] < math.pi
    a = r["side"] * r["alpha"]
    R = float(-pop.H_alpha(link, 1.0, a) / math.tan(a / 2) / 2)
    assert R == pytest.approx(r["level"], rel=1e-6)
    assert r["r0"] == pytest.approx(2 * math.sin(r["alpha"] / 2), rel=1e-15)


def test_every_node_of_the_smoothed_table_holds_its_value():
    """nbl_sim.studies.regret_geometry:76 (the chunked evaluation's ``range(0, …)`` starting at
    1): the table of ĝ(m) = E[g(m + σZ)] is filled chunk by chunk into ``np.empty``; every
    node must hold its own value, the first one included. Reference: scipy's ``quad`` of
    g(m + σz)φ(z) over the real line (absolute error ≤ 1e-13 requested), at the first, a
    middle and the last node (logistic g, σ = 0.3)."""
    import math

    from scipy.integrate import quad

    from nbl_sim.studies import regret_geometry as rg

    link = paper_link("logistic")
    sigma = 0.3
    table = rg._Smoothed(link, sigma)  # noqa: SLF001 - the table itself
    left = rg._TAB_LO + rg._TAB_W * np.arange(table.n_panels)  # noqa: SLF001
    nodes = left[:, None] + (rg._CHEB[None, :] + 1) * rg._TAB_W / 2  # noqa: SLF001
    for idx in [(0, 0), (0, 1), (table.n_panels // 2, 7), (-1, -1)]:
        m = float(nodes[idx])

        def f(z, m=m):
            return float(link.g_numpy(np.array([m + sigma * z]))[0]) * math.exp(-z * z / 2)

        ref = quad(f, -math.inf, math.inf, epsabs=1e-13, epsrel=1e-13)[0] / math.sqrt(2 * math.pi)
        assert table.vals[idx] == pytest.approx(ref, abs=1e-12), (idx, m)


def test_the_smoothed_table_returns_its_node_values_at_the_nodes():
    """nbl_sim.studies.regret_geometry:93 (the barycentric formula's exact-node branch,
    ``(fv * hit).sum(-1)`` summed over another axis): at a query equal to a Chebyshev node
    (here a panel's edges, x = ±1 exactly in binary) the interpolant is the stored value
    itself, for a vector of queries as for one; just off the node it is continuous."""
    from nbl_sim.studies import regret_geometry as rg

    table = rg._Smoothed(paper_link("logistic"), 0.3)  # noqa: SLF001 - the table itself
    lo, w = rg._TAB_LO, rg._TAB_W  # noqa: SLF001
    panels = np.array([1, 7, table.n_panels // 2, table.n_panels - 3])
    q = lo + w * panels  # left edges: x = -1 on each panel
    j = int(np.flatnonzero(rg._CHEB == -1.0)[0])  # noqa: SLF001
    got = table(q)
    assert got.shape == q.shape
    np.testing.assert_array_equal(got, table.vals[panels, j])
    assert float(table(q[2])) == table.vals[panels[2], j]
    # continuity only: |ĝ'| ≤ max g' = 1/4 moves ĝ by ≤ 2.5e-10 over 1e-9; 1e-8 leaves room
    np.testing.assert_allclose(table(q + 1e-9), got, atol=1e-8)


def test_the_literal_nbl_starts_every_replication_from_a_given_v0():
    """nbl_sim.engine.nbl_kernel:324 (``np.tile`` of the given initial direction, its
    arguments exchanged): with ``v0`` given, Stage I is skipped and every replication starts
    from v0/‖v0‖: the first action is sgn(v0ᵀX_0), and the replications, run together, are
    the replications run one at a time."""
    from nbl_sim.engine.nbl_kernel import nbl_reference

    rng = np.random.default_rng(5)
    R, n, d = 3, 40, 3
    X = rng.standard_normal((R, n, d))
    Y = rng.integers(0, 2, (R, n, 2)).astype(float)
    coins = np.ones((R, 0), dtype=np.int8)
    v0 = np.array([3.0, -4.0, 12.0])  # norm 13
    actions, V = nbl_reference(X, Y, coins, v0=v0)
    assert V.shape == (R, d)
    np.testing.assert_array_equal(actions[:, 0], np.where(X[:, 0] @ v0 >= 0, 1, -1))
    for r in range(R):
        a1, v1 = nbl_reference(X[r : r + 1], Y[r : r + 1], coins[r : r + 1], v0=v0 / 13)
        np.testing.assert_array_equal(a1[0], actions[r])
        # the same float operations per row; 1e-15 allows numpy's vectorized reductions to
        # round differently for one row than for three
        np.testing.assert_allclose(v1[0], V[r], rtol=0, atol=1e-15)


def test_circle_zeros_scans_its_default_grid():
    """nbl_sim.population.circle:139 (the default ``n_grid`` = 3600): every caller passes its
    own grid, so the default must work on its own: H = sin α on the default grid has the
    repelling zero 0 (H' = 1) and the attracting zero π (H' = −1), found on a 2π/3600 step."""
    from nbl_sim.population.circle import circle_zeros

    eq = circle_zeros(np.sin, np.cos)
    assert eq.n_grid == 3600 and eq.grid_step == pytest.approx(2 * np.pi / 3600, rel=1e-15)
    assert [(round(e.degrees, 9), e.stability) for e in eq] == [
        (0.0, "repelling"),
        (180.0, "attracting"),
    ]


def test_the_unstable_fraction_leaves_out_only_the_failed_columns():
    """nbl_sim.studies.phase:216 (the mask of computed points, ``!=`` → ``==``): the fraction
    of unstable grid points is over the points computed (stable, unstable or undecided), the
    failed ones left out: 2 unstable of 5 computed here (by hand), NaN when every point
    failed."""
    from nbl_sim.studies.phase import PhaseDiagram

    sign = np.array(
        [["stable", "unstable", "failed"], ["undecided", "unstable", "stable"]], dtype=object
    )
    pd = PhaseDiagram("logistic", "p", ["1", "2", "3"], ["0.5", "1"], "float", None, sign)
    assert pd.unstable_fraction() == pytest.approx(2 / 5, rel=1e-15)
    pd.sign = np.full((2, 3), "failed", dtype=object)
    assert np.isnan(pd.unstable_fraction())


def test_the_reference_indices_of_stacked_replications_are_each_replications():
    """nbl_sim.engine.reference:238 (the output's shape from ``X.shape[:-1]``, its docstring's
    (..., n, d) contexts): the index pass over a stack of replications (R, n, d) is the pass
    over each replication's (n, d), bit for bit."""
    from nbl_sim.engine.reference import indices

    rng = np.random.default_rng(11)
    X = rng.standard_normal((3, 25, 4))
    beta = rng.standard_normal((2, 4))
    v_star = rng.standard_normal(4)
    z, opt = indices(X, beta, v_star)
    assert z.shape == (3, 25, 2) and opt.shape == (3, 25)
    for r in range(3):
        zr, optr = indices(X[r], beta, v_star)
        np.testing.assert_array_equal(z[r], zr)
        np.testing.assert_array_equal(opt[r], optr)


def test_a_given_theta_direction_keeps_its_sign():
    """nbl_sim.population.fields:311 (θ from a given ``theta_dir``: its component orthogonal
    to v*, ``raw − (rawᵀv*)v*``, operands exchanged): θ is the unit vector along that
    component (of length √(1 − Δ²/4)), not its opposite — the arms β_± = θ ± (Δ/2)v* follow
    the user's θ. By hand: Δ = 1, v* = e1, theta_dir = (5, 2, 1) give θ = (√3/2)(0, 2, 1)/√5."""
    from nbl_sim.population.fields import arm_vectors

    _, vs, theta = arm_vectors("1", 3, v_star=[1.0, 0.0, 0.0], theta_dir=[5.0, 2.0, 1.0])
    np.testing.assert_allclose(vs, [1.0, 0.0, 0.0], atol=0)
    want = np.sqrt(3.0) / 2 * np.array([0.0, 2.0, 1.0]) / np.sqrt(5.0)
    np.testing.assert_allclose(theta, want, atol=1e-15)  # two Gram–Schmidt passes' rounding


def test_a_log_log_slope_needs_two_points_in_its_window():
    """nbl_sim.studies.rate_theory:471 (``sel.sum() < 2`` -> ``< 1``): a window holding one
    point is refused (a slope needs two); two points give their exact slope (by hand:
    a = 1/t on t = 2, 4 has slope −1)."""
    from nbl_sim.studies.rate_theory import loglog_slope

    t, a = [1.0, 2.0, 4.0], [1.0, 0.5, 0.25]
    with pytest.raises(NBLInputError, match="fewer than two points"):
        loglog_slope(t, a, 2.0, 3.0)
    assert loglog_slope(t, a, 2.0, 4.0) == pytest.approx(-1.0, abs=1e-14)


@pytest.mark.parametrize("eps", [0.1, 0.15, 0.0, -1e-3])
def test_the_finite_difference_step_is_checked_below_a_tenth(eps):
    """nbl_sim.population.fields:685 (``eps < 0.1`` -> ``< 0.2``): jacobian_fd's step must lie in
    (0, 0.1), so 0.15 is refused as 0.1 is."""
    from nbl_sim.population import fields as pop

    with pytest.raises(NBLInputError, match=r"eps must be a number in \(0, 0.1\)"):
        beta = np.array([[-0.6, 0.8], [0.6, 0.8]])  # unit rows, Δ = 1.2
        pop.jacobian_fd(paper_link("tt-stable"), beta, np.array([1.0, 0.0]), eps)


def test_a_study_config_takes_its_horizons_as_a_1d_array():
    """nbl_sim.studies.rate_study:218 (``v.ndim != 1`` -> ``!= -1``, which refused every array):
    a 1-D array of whole numbers is a valid grid, held as a tuple of Python ints."""
    from nbl_sim.studies.rate_study import StudyConfig

    cfg = StudyConfig("array", ns=np.array([1000, 2154]))
    assert cfg.ns == (1000, 2154) and all(type(x) is int for x in cfg.ns)


@pytest.mark.parametrize("chunk", [1, 4_000])
def test_the_kernel_sums_do_not_depend_on_the_row_chunk(monkeypatch, chunk):
    """The rows per vectorized pass of nbl_sim.population.fields only bound memory: a_1, b_2
    and μ_g are the same bits whether the slopes pass one row at a time, a few rows, or in
    the default blocks (997 rows of slopes: more than one default block) — the contract that
    makes the seed-3 survivor fields:347 (``max(1, …)`` -> ``min(1, …)``: one row at a time)
    equivalent; a chunking bug (a skipped or repeated block) moves them."""
    import numpy as np

    from nbl_sim.population import fields
    from nbl_theory.paper import paper_link

    link = paper_link("tt-stable")
    c = np.linspace(-30.0, 30.0, 2 * 997).reshape(-1, 2)
    want = fields.reduction_integrals(link, c)
    default_rows = fields._CHUNK // (2 * fields._nodes(link).s.size)
    assert default_rows < 997  # the default itself splits the slopes
    monkeypatch.setattr(fields, "_CHUNK", chunk)
    got = fields.reduction_integrals(link, c)
    assert all(np.array_equal(a, b) for a, b in zip(want[:2], got[:2])) and want[2] == got[2]
