"""The policy objects NBL and GreedyLogistic (nbl_sim.policies.objects): on the same stream
they take the compiled kernels' actions and reach their iterates bit for bit, their regret is
simulate's to the last digit, and their state survives JSON exactly."""

import json

import numpy as np
import pytest

from nbl_sim.engine.environment import Environment
from nbl_sim.engine.greedy_kernel import greedy_logistic_actions
from nbl_sim.engine.nbl_kernel import nbl_run
from nbl_sim.policies import NBL, GreedyLogistic
from nbl_sim.studies.experiment import simulate
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family


def _play(policy, X, Y):
    """Run ``policy`` over one replication's stream; returns its actions."""
    acts = np.empty(X.shape[0], dtype=np.int8)
    for t in range(X.shape[0]):
        a = policy.choose(X[t])
        policy.update(X[t], a, Y[t, 1 if a > 0 else 0])
        acts[t] = a
    return acts


@pytest.mark.parametrize("d", [2, 3])
def test_nbl_object_is_the_kernel_bit_for_bit(d):
    env = Environment.build(make_family("logistic"), "1", d)
    n, n0 = 400, 40
    real = env.draw(7, (0, 1, 2), n, n0)
    tr = nbl_run(real.X, real.Y, real.coins, env.v_star, record_rounds=[n])
    for r in range(3):
        pol = NBL(d, n0, coins=real.coins[r])
        acts = _play(pol, real.X[r], real.Y[r])
        assert np.array_equal(acts, tr.actions[r])
        assert np.array_equal(pol.direction, tr.v_final[r])  # bits, not a tolerance


def test_greedy_object_is_the_kernel_bit_for_bit():
    env = Environment.build(make_family("logistic"), "1", 2)
    n, n0 = 150, 20
    real = env.draw(3, (0, 1), n, n0)
    actions, info = greedy_logistic_actions(real.X, real.Y, real.coins)
    for r in range(2):
        pol = GreedyLogistic(2, n0, coins=real.coins[r])
        assert np.array_equal(_play(pol, real.X[r], real.Y[r]), actions[r])
        assert np.array_equal(pol.theta[:, :2], info["w"][r])
        assert np.array_equal(pol.theta[:, 2], info["b"][r])


def test_objects_reproduce_simulate_regret():
    """simulate's regret (its numbers of record) from the objects' actions on the realization
    simulate draws for the same seed."""
    env = Environment.build(make_family("logistic"), "1", 2)
    n, n0, reps, seed = 300, 30, 2, 5
    rec = np.arange(1, n + 1)
    res = simulate(
        env,
        n=n,
        reps=reps,
        n0=n0,
        policies=("nbl", "greedy-logistic"),
        seed=seed,
        record_rounds=rec,
    )
    real = env.draw(seed, tuple(range(reps)), n, n0)
    for name, cls in (("nbl", NBL), ("greedy-logistic", GreedyLogistic)):
        acts = np.stack(
            [_play(cls(2, n0, coins=real.coins[r]), real.X[r], real.Y[r]) for r in range(reps)]
        )
        regret = env.recorded_regret(real, acts, rec)
        assert np.array_equal(regret, res.policies[name].regret)


@pytest.mark.parametrize("cls", [NBL, GreedyLogistic])
def test_state_is_json_data_and_resumes_exactly(cls):
    rng = np.random.default_rng(11)
    X = rng.standard_normal((120, 2))
    Y = (rng.random((120, 2)) < 0.5).astype(float)
    whole = cls(2, 30, seed=4)
    a_whole = _play(whole, X, Y)
    first = cls(2, 30, seed=4)
    a1 = _play(first, X[:50], Y[:50])
    text = json.dumps(first.state())  # plain data: JSON writes it
    again = cls.from_state(json.loads(text))
    a2 = _play(again, X[50:], Y[50:])
    assert np.array_equal(np.concatenate([a1, a2]), a_whole)
    assert json.dumps(again.state()) == json.dumps(whole.state())
    with pytest.raises(NBLInputError):
        (NBL if cls is GreedyLogistic else GreedyLogistic).from_state(json.loads(text))


def test_bad_input_is_one_clear_error():
    pol = NBL(2, 5, seed=0)
    with pytest.raises(NBLInputError, match="shape"):
        pol.choose([1.0, 2.0, 3.0])
    with pytest.raises(NBLInputError, match="action"):
        pol.update([1.0, 2.0], 0, 1.0)
    with pytest.raises(NBLInputError, match="rewards in"):
        GreedyLogistic(2, 5).update([1.0, 2.0], 1, 2.0)
