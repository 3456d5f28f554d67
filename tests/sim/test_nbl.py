"""The compiled NBL kernel against alg:nbl written literally (nbl_reference), its recording
conventions and its edge cases."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nbl_sim.engine.environment import Environment
from nbl_sim.engine.geometry import retract, signed_angle
from nbl_sim.engine.nbl_kernel import nbl_reference, nbl_run
from nbl_sim.engine.reference import oracle as oracle_actions
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from tests.sim.strategies import any_links, deltas, dims

TT = make_family("two-transition", mu2="-1.074037")


@given(any_links(), deltas, dims, st.integers(0, 1000), st.booleans())
def test_kernel_matches_literal_algorithm(link, delta, d, seed, randomized):
    """Same actions in every round and the same final direction (to 1e-12; the kernel uses
    G = AY(x − (vᵀx)v), algebraically the same as (I − vvᵀ)W)."""
    env = Environment.build(link, delta, d, reward="bounded", noise=0.5)
    real = env.draw(seed, [0, 1, 2], 400, 30)
    v0 = None if randomized else env.initial_direction(25.0)
    tr = nbl_run(real.X, real.Y, real.coins, env.v_star, v0=v0, gamma=10.0, t0=50.0)
    A, V = nbl_reference(real.X, real.Y, real.coins, v0=v0, gamma=10.0, t0=50.0)
    assert np.array_equal(tr.actions, A)
    assert np.max(np.abs(tr.v_final - V)) <= 1e-12


def test_the_literal_algorithm_matches_the_kernel_on_one_small_run():
    """The default tier's one case of the property above (the hypothesis test is in the slow
    tier): nbl_reference, the benchmarks' baseline, runs every round n0..n−1 exactly once
    (nbl_kernel:325 with ``range(n0, n + 1)`` reads past the last round)."""
    env = Environment.build(TT, "0.4", 3, reward="bounded", noise=0.5)
    real = env.draw(5, [0, 1], 120, 20)
    tr = nbl_run(real.X, real.Y, real.coins, env.v_star, gamma=10.0, t0=50.0)
    A, V = nbl_reference(real.X, real.Y, real.coins, gamma=10.0, t0=50.0)
    assert A.shape == (2, 120) and np.array_equal(tr.actions, A)
    assert np.max(np.abs(tr.v_final - V)) <= 1e-12


@pytest.mark.parametrize("d", [2, 3, 8])
def test_replications_do_not_depend_on_their_lockstep_block(d):
    """Eight replications advance in lockstep (any d): each one's actions, records and final
    direction are bit for bit those of running it alone."""
    env = Environment.build(TT, "0.4", d, v_star="random", theta_dir="random", geometry_seed=d)
    real = env.draw(3, range(11), 600, 25)
    rec = [1, 25, 26, 300, 600]
    for v0 in (None, env.initial_direction(30.0)):
        whole = nbl_run(real.X, real.Y, real.coins, env.v_star, v0=v0, record_rounds=rec)
        for r in (0, 7, 8, 10):
            one = nbl_run(
                real.X[r : r + 1],
                real.Y[r : r + 1],
                real.coins[r : r + 1],
                env.v_star,
                v0=v0,
                record_rounds=rec,
            )
            assert np.array_equal(one.actions[0], whole.actions[r])
            assert np.array_equal(one.v_final[0], whole.v_final[r])
            assert np.array_equal(one.sq_error[0], whole.sq_error[r], equal_nan=True)
            assert np.array_equal(one.angle[0], whole.angle[r], equal_nan=True)


def test_randomized_start_is_the_normalized_stein_mean():
    env = Environment.build(TT, "0.6", 3)
    real = env.draw(5, [0, 1], 500, 500)
    tr = nbl_run(real.X, real.Y, real.coins, env.v_star, record_rounds=[499, 500])
    y = np.where(real.coins > 0, real.Y[..., 1], real.Y[..., 0])
    W = (real.coins * y)[..., None] * real.X
    vbar = retract(W.mean(axis=1))  # v_{n0} = W̄/‖W̄‖ (alg:nbl)
    assert np.allclose(tr.v_final, vbar, atol=1e-14)
    assert np.all(np.isnan(tr.sq_error[:, 0]))  # v_499 does not exist
    assert np.allclose(tr.sq_error[:, 1], ((vbar - env.v_star) ** 2).sum(1), atol=1e-14)
    assert np.array_equal(tr.actions, real.coins)


def test_recorded_angle_and_error_follow_the_iterate():
    env = Environment.build(TT, "0.2")
    real = env.draw(0, [0, 1], 300, 0)
    v0 = env.initial_direction(-10.0)
    tr = nbl_run(real.X, real.Y, real.coins, env.v_star, v0=v0, record_rounds=[0, 300])
    assert np.degrees(tr.angle[:, 0]) == pytest.approx([-10.0, -10.0], abs=1e-12)
    assert tr.angle[:, 1] == pytest.approx(signed_angle(env.v_star, tr.v_final), abs=1e-14)
    assert tr.sq_error[:, 1] == pytest.approx(((tr.v_final - env.v_star) ** 2).sum(1), abs=1e-15)


@pytest.mark.parametrize("d, v0", [(2, True), (2, False), (5, False)])
def test_without_angles_the_errors_are_the_same_bits(d, v0):
    env = Environment.build(make_family("logistic"), "0.5", d)
    real = env.draw(2, range(9), 700, 40)
    kw = dict(
        v0=env.initial_direction(20.0) if (v0 and d == 2) else None,
        gamma=3.0,
        t0=50.0,
        record_rounds=np.arange(0, 701, 7),
    )
    full = nbl_run(real.X, real.Y, real.coins, env.v_star, **kw)
    bare = nbl_run(real.X, real.Y, real.coins, env.v_star, record_angle=False, **kw)
    assert bare.angle.shape == (9, 0)
    assert np.array_equal(bare.sq_error, full.sq_error, equal_nan=True)
    assert np.array_equal(bare.actions, full.actions)
    assert np.array_equal(bare.v_final, full.v_final)
    assert np.isnan(full.sq_error[:, 0]).all() == (kw["v0"] is None)  # Stage I: undefined


def test_angle_is_nan_beyond_two_dimensions():
    env = Environment.build(TT, "0.2", 3)
    real = env.draw(0, [0], 50, 0)
    tr = nbl_run(real.X, real.Y, real.coins, env.v_star, v0=env.initial_direction(5))
    assert np.all(np.isnan(tr.angle)) and np.all(np.isfinite(tr.sq_error))


def test_degenerate_initialization_is_counted():
    """ΣW_t = 0 (every initialization reward 0): documented fallback start e1, counted."""
    X = np.random.default_rng(0).standard_normal((2, 50, 2))
    Y = np.zeros((2, 50, 2))
    tr = nbl_run(X, Y, np.ones((2, 10), dtype=np.int8), np.array([0.0, 1.0]))
    assert tr.info["degenerate_init"] == 2
    assert np.array_equal(tr.v_final, np.tile([1.0, 0.0], (2, 1)))  # zero rewards: no motion


def test_oracle_is_zero_regret_policy():
    env = Environment.build(TT, "0.7", 4)
    real = env.draw(0, [0, 1], 200, 0)
    assert np.array_equal(oracle_actions(real.X, env.v_star), env.optimal_actions(real.X))


def test_starting_at_v_star_with_exact_signal_has_no_drift():
    """Started exactly at v* the kernel moves only through noise: zero rewards → v stays v*."""
    env = Environment.build(TT, "0.7")
    real = env.draw(0, [0], 100, 0)
    tr = nbl_run(real.X, np.zeros_like(real.Y), real.coins, env.v_star, v0=env.v_star)
    assert np.array_equal(tr.v_final[0], env.v_star)


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"gamma": 0.0}, r"gamma must be in \(0, 1e\+06\]"),
        ({"gamma": float("nan")}, "finite"),
        ({"t0": -2.0}, "t0 must be > -1"),
        ({"v0": np.zeros(2)}, "non-zero"),
        ({"record_rounds": [5, 3]}, "strictly increasing"),
        ({"record_rounds": [1, 99]}, "strictly increasing"),
    ],
)
def test_bad_input(kwargs, fragment):
    X = np.zeros((1, 20, 2))
    Y = np.zeros((1, 20, 2))
    with pytest.raises(NBLInputError, match=fragment):
        nbl_run(X, Y, np.ones((1, 5), dtype=np.int8), np.array([1.0, 0.0]), **kwargs)


def test_bad_coins():
    with pytest.raises(NBLInputError, match=r"\+1 or -1"):
        nbl_run(
            np.zeros((1, 20, 2)),
            np.zeros((1, 20, 2)),
            np.zeros((1, 5), dtype=np.int8),
            np.array([1.0, 0.0]),
        )
