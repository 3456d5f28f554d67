"""Tests of proofs_check.witnesses.regret: the regret loop, the NBL re-derivation and the
independent Greedy Logistic MLE, against references produced by hand or by scipy."""

import numpy as np
import pytest
from scipy.optimize import minimize

from proofs_check.witnesses import regret as wr


def test_regret_by_loop_by_hand():
    # g(z) = z + 1 (increasing), beta_- = (0, 0)... in d = 1: beta = (-1, +1) rows, v* = +1.
    # x = 2: a* = +1, m_+ = 3, m_- = -1; x = -1: a* = -1, m_- = 2, m_+ = 0.
    X = np.array([[[2.0], [-1.0], [2.0]]])
    beta = np.array([[-1.0], [1.0]])
    A = np.array([[-1, 1, 1]])
    got = wr.regret_by_loop(lambda z: z + 1, beta, np.array([1.0]), X, A, (1, 2, 3))
    assert got.tolist() == [[4.0, 6.0, 6.0]]  # (3 - (-1)), + (2 - 0), + 0
    assert wr.negative_terms(lambda z: z + 1, beta, np.array([1.0]), X, A) == 0
    assert wr.oracle_actions(np.array([1.0]), X).tolist() == [[1, -1, 1]]


def test_nbl_actions_by_hand():
    # d = 2, n0 = 1: coin +1 with reward 1 at x = (1, 0): v = (1, 0). Round 2, x = (-1, 1):
    # v.x = -1 < 0 -> A = -1. Round 3, x = (0, 1): v.x = 0 -> +1 (sgn 0 = +1), provided the
    # update at round 2 kept v_1 > 0 ... G = P(W) with W = -Y x; Y(-1) = 0 -> W = 0, v unchanged.
    X = np.array([[[1.0, 0.0], [-1.0, 1.0], [0.0, 1.0]]])
    Y = np.array([[[0.0, 1.0], [0.0, 0.0], [0.0, 0.0]]])
    coins = np.array([[1]], dtype=np.int8)
    assert wr.nbl_actions(X, Y, coins).tolist() == [[1, -1, 1]]


def test_logistic_fit_is_the_penalized_mle():
    rng = np.random.default_rng(3)
    Z = np.concatenate([rng.normal(size=(200, 3)), np.ones((200, 1))], axis=1)
    y = (rng.random(200) < 1 / (1 + np.exp(-(Z @ [1.0, -0.5, 0.2, 0.3])))).astype(float)

    def f(w):
        eta = Z @ w
        return np.sum(np.logaddexp(0, eta) - y * eta) + 0.5e-6 * w @ w

    ref = minimize(f, np.zeros(4), method="BFGS", options={"gtol": 1e-10}).x  # scipy reference
    got = wr.logistic_fit(Z, y, np.zeros(4))
    assert np.allclose(got, ref, atol=1e-6)
    # warm start from the answer converges at once to the same point
    assert np.allclose(wr.logistic_fit(Z, y, got), got, atol=1e-12)


def test_separated_data_stay_finite():
    Z = np.array([[1.0, 1.0], [2.0, 1.0]])
    w = wr.logistic_fit(Z, np.array([1.0, 1.0]), np.zeros(2))
    assert np.all(np.isfinite(w)) and float(Z[0] @ w) > 5


def test_helpers():
    assert wr.shifted((1, 10), 1) == (0, 9)
    assert wr.any_nonzero([0.0, 1e-300]) and not wr.any_nonzero(np.zeros(3))


@pytest.mark.slow
def test_greedy_logistic_matches_the_library_on_a_short_run():
    # the library's compiled Newton and the witness's numpy Newton give the same actions
    from nbl_sim.engine.environment import Environment
    from nbl_sim.engine.greedy_kernel import greedy_logistic_actions
    from nbl_theory.paper import paper_link

    env = Environment.build(paper_link("logistic"), "1", 2)
    real = env.draw(5, range(2), 400, 50)
    lib = greedy_logistic_actions(real.X, real.Y, real.coins)[0]
    assert np.array_equal(wr.greedy_logistic_actions(real.X, real.Y, real.coins), lib)
