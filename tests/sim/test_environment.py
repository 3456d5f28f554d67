"""The bandit environment: geometry of app:simulation-setup, common random numbers, reward
models and their errors."""

import numpy as np
import pytest
from hypothesis import given

from nbl_sim.environment import Environment, replication_seeds
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.links import Link
from tests.sim.strategies import bernoulli_links, deltas, dims

TT = make_family("two-transition", mu2="1.244122")


@given(deltas, dims)
def test_arm_geometry(delta, d):
    """β_a = θ + a(Δ/2)v*, θ ⊥ v*, ‖θ‖² = 1 − Δ²/4: ‖β_a‖ = 1, β_+ − β_− = Δ v*."""
    env = Environment.build(TT, delta, d, v_star="random", theta_dir="random", geometry_seed=3)
    D = float(delta)
    assert abs(env.theta @ env.v_star) < 1e-15
    assert env.theta @ env.theta == pytest.approx(1 - D * D / 4, rel=1e-14)
    assert np.linalg.norm(env.beta, axis=1) == pytest.approx([1, 1], rel=1e-14)
    assert env.beta[1] - env.beta[0] == pytest.approx(D * env.v_star, abs=1e-15)


def test_default_geometry_is_the_papers_rotation():
    env = Environment.build(TT, "0.2")
    assert env.v_star.tolist() == [1.0, 0.0]
    assert env.theta[0] == 0.0 and env.theta[1] == pytest.approx(np.sqrt(0.99), rel=1e-15)
    v0 = env.initial_direction(10.0)
    assert v0 == pytest.approx([np.cos(np.radians(10)), np.sin(np.radians(10))], abs=1e-16)


def test_replication_streams_do_not_depend_on_batch():
    env = Environment.build(TT, "0.5", 3)
    whole = env.draw(7, range(6), 300, 20)
    for reps in ([4], [5, 1], [2, 3, 0]):
        part = env.draw(7, reps, 300, 20)
        for j, r in enumerate(reps):
            for k in ("X", "means", "Y", "coins"):
                assert np.array_equal(getattr(part, k)[j], getattr(whole, k)[r])


def test_horizon_prefix_is_stable():
    """The first n rounds are the same whatever the horizon (separate sub-streams)."""
    env = Environment.build(TT, "0.5")
    short, long = env.draw(1, [0, 1], 100, 10), env.draw(1, [0, 1], 250, 10)
    assert np.array_equal(short.X, long.X[:, :100]) and np.array_equal(short.Y, long.Y[:, :100])


@given(bernoulli_links(), deltas)
def test_bernoulli_rewards_have_the_link_as_mean(link, delta):
    """Y ∈ {0, 1}, means = g(β_aᵀx); the sample mean of Y − m is within 5 SE of 0."""
    env = Environment.build(link, delta, 2)
    real = env.draw(11, [0], 20_000, 0)
    z = real.X[0] @ env.beta.T
    assert np.allclose(real.means[0], link.g_numpy(z), rtol=0, atol=1e-15)
    assert set(np.unique(real.Y)) <= {0.0, 1.0}
    resid = (real.Y - real.means)[0].ravel()
    assert abs(resid.mean()) <= 5 * resid.std() / np.sqrt(resid.size)


def test_bounded_noise_rewards():
    env = Environment.build(make_family("identity"), "1", 2, reward="bounded", noise=0.3)
    real = env.draw(0, [0, 1], 5000, 0)
    noise = real.Y - real.means
    assert np.all(np.abs(noise) <= 0.3) and abs(noise.mean()) < 5 * 0.3 / np.sqrt(3 * noise.size)


def test_coins_are_fair_signs():
    c = Environment.build(TT, "1").draw(0, [0], 10, 40_000).coins
    assert set(np.unique(c)) == {-1, 1} and abs(c.mean()) < 5 / np.sqrt(c.size)


@pytest.mark.parametrize("link, fragment", [
    (make_family("identity"), "Bernoulli rewards need 0 <= g <= 1"),
    (make_family("negative-entropy"), "Bernoulli rewards need 0 <= g <= 1"),
    (Link.from_expression("1.2/(1+exp(-z))"), "Bernoulli rewards need 0 <= g <= 1"),
])
def test_bernoulli_needs_a_probability_link(link, fragment):
    with pytest.raises(NBLInputError, match=fragment):
        Environment.build(link, "1")


def test_realized_mean_outside_unit_interval_is_caught():
    """Even if the up-front range probe passed, a realized mean outside [0, 1] raises."""
    env = Environment.build(Link.from_expression("1.2/(1+exp(-z))"), "1", reward="bounded")
    object.__setattr__(env, "reward", "bernoulli")
    with pytest.raises(NBLInputError, match="Bernoulli mean left"):
        env.draw(0, [0], 1000, 0)


@pytest.mark.parametrize("kwargs, fragment", [
    ({"delta": "2"}, "open interval"),
    ({"delta": float("nan")}, "finite"),
    ({"delta": "0.5", "d": 1}, "d must be an integer >= 2"),
    ({"delta": "0.5", "reward": "gauss"}, "reward must be one of"),
    ({"delta": "0.5", "v_star": [1, 0, 0]}, r"shape \(2,\)"),
    ({"delta": "0.5", "v_star": [0, 0]}, "non-zero"),
    ({"delta": "0.5", "v_star": [1, 0], "theta_dir": [2, 0]}, "parallel"),
    ({"delta": "0.5", "noise": float("inf"), "reward": "bounded"}, "noise"),
])
def test_bad_input(kwargs, fragment):
    with pytest.raises(NBLInputError, match=fragment):
        Environment.build(TT, **kwargs)


def test_bad_seed():
    with pytest.raises(NBLInputError, match="seed"):
        replication_seeds(-1, 3)
