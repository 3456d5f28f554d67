"""Tests of proofs_check.witnesses.paths: the numpy re-run against the compiled kernel, stopped
quantities, and the kernel-based runners."""

import math

import numpy as np
import pytest

from nbl_sim.engine.nbl_kernel import nbl_run
from nbl_theory.links import Link
from nbl_theory.paper import paper_link
from proofs_check.witnesses import paths

LOGISTIC4 = Link.from_expression("1/(1 + exp(-4*z))", name="logistic4", bounded_derivatives=True)


@pytest.fixture(scope="module")
def env():
    return paths.environment(LOGISTIC4, "1.5")


def test_environment_is_cached_and_in_the_paper_rotation(env):
    assert paths.environment(LOGISTIC4, "1.5") is env
    np.testing.assert_array_equal(env.v_star, [1.0, 0.0])
    assert paths.reward_bound(env) == 1.0
    bounded = paths.environment(paper_link("we-0.6"), "1", 3, "bounded", 7)
    assert paths.reward_bound(bounded) == 1.5


@pytest.mark.parametrize("start", ["init", "angle"])
def test_numpy_rerun_matches_the_compiled_kernel(env, start):
    if start == "init":
        p = paths.run_paths(env, 3, 16, 300, n0=20, gamma=5.0, t0=20.0)
    else:
        p = paths.run_paths(env, 3, 16, 300, v0=env.initial_direction(15.0), gamma=5.0, t0=20.0)
    assert p.match_nbl_run <= 1e-12
    # the per-step quantities are consistent with each other (lem:normalization exactly)
    rhs = p.e_prev + 2 * p.eta * p.inner + p.eta**2 * p.gsq
    assert np.all(rhs - p.e >= -1e-12)
    np.testing.assert_allclose(rhs - p.e, p.slack_formula, atol=1e-12)
    np.testing.assert_allclose(p.e_prev[:, 1:], p.e[:, :-1], atol=0)
    assert np.all(p.regret >= 0)


def test_exit_index_and_tau_from_sq():
    e0 = np.array([0.3, 0.1, 0.1])
    e = np.array([[0.1, 0.1], [0.1, 0.3], [0.1, 0.2]])
    tau = paths.exit_index(e0, e, 0.5)
    assert tau[0] == 0 and tau[1] == 2 and tau[2] > 10**9
    np.testing.assert_array_equal(paths.tau_from_sq(np.concatenate([e0[:, None], e], 1), 0.5), tau)


def test_stopped_terms(env):
    p = paths.run_paths(env, 4, 8, 200, n0=20, gamma=5.0, t0=20.0, keep_v=True)
    tau, ind, dh, M, Q = paths.stopped_terms(env, p, 0.5)
    assert np.all(np.diff(Q, axis=1) >= 0)  # Q_t is nondecreasing
    # after the exit the increments vanish
    for r in range(8):
        if tau[r] < p.e.shape[1]:
            assert np.all(ind[r, tau[r] :] == 0)
    assert np.all(dh <= 1e-12)  # inside r0 = 0.5 the field is restoring (logistic4)


def test_one_step_sample_and_cap_point(env):
    v = paths.cap_point(env, 0.3, 5)
    assert np.linalg.norm(v - env.v_star) == pytest.approx(0.3, rel=1e-14)
    assert np.linalg.norm(v) == pytest.approx(1.0, rel=1e-15)
    e, gsq = paths.one_step_sample(env, v, 0.0, 100, 1)
    np.testing.assert_allclose(e, 0.09, rtol=1e-13)  # eta = 0: v does not move
    assert np.all(gsq >= 0)


def test_kernel_errors_start_at_the_randomized_initialization(env):
    sq, reg = paths.kernel_errors(env, 3, 16, 300, 20, 5.0, 20.0)
    p = paths.run_paths(env, 3, 16, 300, n0=20, gamma=5.0, t0=20.0)
    np.testing.assert_allclose(sq[:, 0], p.e0, atol=1e-15)
    np.testing.assert_allclose(sq[:, 1:], p.e, atol=1e-12)
    np.testing.assert_allclose(reg, p.regret.sum(1), atol=1e-12)


def test_init_exceed_against_a_direct_count(env):
    grid = np.array([10, 40, 160])
    P = paths.init_exceed(env, grid, 200, 0.25, 9)
    real = env.draw(9, range(200), 160, 160)
    for k, n0 in enumerate(grid):
        tr = nbl_run(real.X[:, :n0], real.Y[:, :n0], real.coins[:, :n0], env.v_star)
        assert P[k] == pytest.approx(float(np.mean(tr.sq_error[:, -1] > 0.25**2)), abs=1e-12)


def test_regret_by_horizon_and_localized_error_run(env):
    n0s, regret, e_n0, exits = paths.regret_by_horizon(env, (200, 400), 5.0, 20, 7)
    assert n0s == {n: math.ceil(5.0 * (2 + math.log(n))) for n in (200, 400)}
    # the horizon-200 run is the prefix of the common realization (draws are prefix-consistent)
    _, reg200 = paths.kernel_errors(
        env, 7, 20, 200, n0s[200], 5.0, float(n0s[200]), coins_n0=max(n0s.values())
    )
    np.testing.assert_allclose(regret[200], reg200, atol=1e-12)
    assert np.all(e_n0[200] >= 0) and exits[200].dtype == bool
    run = paths.localized_error_run(env, 20, 300, 30, 5.0, 2, 0.5)
    assert run["a"].shape == (300 - 30 + 1,) and run["batches"].shape == (10, 271)
    np.testing.assert_allclose(run["batches"].mean(0), run["a"], rtol=1e-12)  # equal batches


def test_literal_step_breaks_ties_toward_plus_one():
    v = np.array([1.0, 0.0])
    a, v1, g = paths.literal_step(v, np.array([0.0, 2.0]), np.array([5.0, 1.0]), 0.5)
    assert a == 1
    np.testing.assert_allclose(g, [0.0, 2.0], atol=0)
    np.testing.assert_allclose(v1, np.array([1.0, 1.0]) / math.sqrt(2), rtol=1e-15)


def test_pathwise_slack_and_xi_statistics(env):
    p = paths.run_paths(env, 4, 8, 200, n0=20, gamma=5.0, t0=20.0, keep_v=True)
    terms = dict(
        e_prev=p.e_prev, e=p.e, eta=p.eta, inner=p.inner, gsq=p.gsq, slack_formula=p.slack_formula
    )
    sl = paths.pathwise_slack(terms)
    # lem:normalization: the slack is >= 0 and equals its formula (float64 rounding)
    assert sl["min"] >= -1e-12 and sl["formula_error"] <= 1e-12 and sl["steps"] == p.e.size
    assert sl["min"] <= sl["median"] <= sl["max"]
    # dropping the second-order term (a mutant) makes the slack negative somewhere
    assert paths.pathwise_slack(terms, quad_coef=0.0)["min"] < -1e-6
    assert paths.pathwise_slack(terms, slack_scale=1.01)["formula_error"] > 1e-12
    dh = paths.drift_sums(p, env)
    assert dh.shape == (8,) and np.all(dh <= 1e-12)  # restoring inside the cap (logistic4)
    xs = paths.xi_statistics(p.inner.sum(1), dh, k=5.0)
    m, se = float(np.mean(p.inner.sum(1) - dh)), float(np.std(p.inner.sum(1) - dh, ddof=1))
    assert xs["m"] == pytest.approx(m, rel=1e-12) and xs["se"] == pytest.approx(
        se / math.sqrt(8), rel=1e-12
    )
    assert xs["resolution"] == pytest.approx(5.0 * xs["se"] / abs(dh.mean()), rel=1e-12)


def test_one_step_moments_and_angles(env):
    assert paths.cap_angle(0.5) == pytest.approx(2 * math.asin(0.25), rel=1e-15)
    v = paths.direction_at_angle(env, paths.cap_angle(0.5))
    assert np.linalg.norm(v - env.v_star) == pytest.approx(0.5, rel=1e-14)
    st = paths.one_step_moments(env, v, 0.0, 100, 1, drift=-0.01)
    # eta = 0: v does not move, so e_t = e and RHS1 - e_t = 0 exactly
    assert st["e"] == pytest.approx(0.25, rel=1e-14) and st["dist"] == pytest.approx(0.5)
    assert st["m"] == pytest.approx(0.25, rel=1e-13) and abs(st["dm"]) < 1e-13
    assert st["abs_drift"] == 0.01 and st["gm"] >= 0


def test_distance_at_angle_inverts_cap_angle():
    assert paths.distance_at_angle(60.0) == pytest.approx(1.0, rel=1e-15)
    assert paths.distance_at_angle(math.degrees(paths.cap_angle(0.3))) == pytest.approx(
        0.3, rel=1e-14
    )


def test_stopped_recursion_slacks_and_errors(env):
    p = paths.run_paths(env, 4, 8, 200, n0=20, gamma=5.0, t0=20.0, keep_v=True)
    tau, ind, dh, M, Q = paths.stopped_terms(env, p, 0.5)
    stopped = paths.stopped_errors(p, tau)
    assert stopped.shape == p.e.shape
    for r in range(8):  # e_{t ^ tau}: frozen after the exit
        t = min(int(tau[r]), p.e.shape[1])
        if 0 < t < p.e.shape[1]:
            assert np.all(stopped[r, t - 1 :] == p.e[r, t - 1])
    s = dict(
        tau=tau,
        ind=ind,
        dh=dh,
        stopped=stopped,
        e0=p.e0,
        e=p.e,
        e_prev=p.e_prev,
        eta=p.eta[None, :],
        inner=p.inner,
        gsq=p.gsq,
        xsq=p.xsq,
        ubound=p.ubound,
    )
    st = paths.stopped_recursion_slacks(s, 0.0, 1.0, 1.0, 1.0, 0.5)
    # with lambda0 = 0 the one-step inequality is lem:normalization's slack (>= 0)
    assert st["slacks"]["one-step"] >= -1e-12 and st["slacks"]["Qmono"] >= 0
    np.testing.assert_allclose(st["M_n"], M[:, -1], rtol=1e-12, atol=1e-15)
    assert st["q_max"] == pytest.approx(Q[:, -1].max(), rel=1e-12)
    assert 0 <= st["n_bad"] <= st["n_good"] <= 8
    # dropping the second-order term (a mutant) breaks the one-step inequality
    assert paths.stopped_recursion_slacks(s, 0.0, 0.0, 1.0, 1.0, 0.5)["slacks"]["one-step"] < 0
    pz = paths.pooled_mean_zero([st["M_n"]], [st["drift_sum"]], k=5.0)
    assert pz["m"] == pytest.approx(float(st["M_n"].mean()), rel=1e-12)
    assert pz["resolution"] == pytest.approx(5.0 * pz["se"] / pz["drift"], rel=1e-12)


def test_localization_probabilities(env):
    out = paths.localization_probabilities(env, 5, (20, 40), (40, 30), (200, 400), 5.0, 0.5)
    assert len(out["P"]) == len(out["tau0"]) == 2
    assert all(0 <= p <= 1 for p in out["P"] + out["tau0"])
    assert out["p_short"] <= out["p_long"] and 0 <= out["late_exits"] <= 30
    # P(tau <= n) against a direct count on the kernel's errors at n0 = 40 (same draws)
    sq, _ = paths.kernel_errors(env, 5, 40, 200, 40, 5.0, 40.0, coins_n0=40)
    assert out["P"][1] == float((paths.tau_from_sq(sq, 0.5) <= 160).mean())
