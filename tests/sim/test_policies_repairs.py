"""Repaired NBL (nbl_sim.policies.repairs): the NBL kernel on transformed inputs."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

from nbl_sim.engine.nbl_kernel import nbl_run
from nbl_sim.policies.repairs import (
    centre_rewards,
    repaired_nbl_run,
    whiten_known,
    whiten_running,
)
from nbl_theory.errors import NBLInputError


def _realization(R=3, n=400, n0=50, d=2, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((R, n, d)) @ np.array([[1.5, 0.4], [0.0, 0.5]])
    Y = (rng.random((R, n, 2)) < 0.5).astype(float)
    coins = np.where(rng.random((R, n0)) < 0.5, 1, -1).astype(np.int8)
    return X, Y, coins


def test_whiten_running_is_the_running_second_moment():
    X, _, _ = _realization(R=2, n=30)
    out, last = whiten_running(X, block=7)  # blocks must not matter
    for r in range(2):
        acc = np.eye(2)
        for t in range(30):
            acc = acc + np.outer(X[r, t], X[r, t])
            ev, q = np.linalg.eigh(acc / (t + 2))
            w = (q / np.sqrt(ev)) @ q.T
            assert_allclose(out[r, t], w @ X[r, t], rtol=1e-12, atol=1e-14)
        assert_allclose(last[r], w, rtol=1e-12)


def test_whiten_known_and_centre_rewards():
    X, Y, coins = _realization()
    cov = np.array([[2.0, 0.5], [0.5, 1.0]])
    xt, w = whiten_known(X, cov)
    assert_allclose(w @ cov @ w, np.eye(2), atol=1e-13)
    assert_allclose(xt[0, 5], w @ X[0, 5], rtol=1e-13)
    yc, b = centre_rewards(Y, coins)
    obs = np.where(coins > 0, Y[:, :50, 1], Y[:, :50, 0])
    assert_allclose(b, obs.mean(axis=1))
    assert_allclose(yc, Y - b[:, None, None])


def test_identity_whitening_is_plain_nbl():
    X, Y, coins = _realization()
    vs = np.array([1.0, 0.0])
    plain = nbl_run(X, Y, coins, vs)
    rep = repaired_nbl_run("whitened", X, Y, coins, vs, cov=np.eye(2))
    assert np.array_equal(plain.actions, rep.actions)  # the same kernel on the same inputs
    # v_n mapped back by W = I and renormalized: equal up to the renormalization's rounding
    assert_allclose(rep.v_final, plain.v_final, rtol=0, atol=1e-15)


def test_whitened_boundary_is_mapped_back():
    # the actions of the whitened run are sgn(v' x) with v = W v~ / |W v~| (original coordinates)
    X, Y, coins = _realization()
    cov = np.array([[2.0, 0.5], [0.5, 1.0]])
    rep = repaired_nbl_run("whitened", X, Y, coins, np.array([1.0, 0.0]), cov=cov)
    xt, w = whiten_known(X, cov)
    tr = nbl_run(xt, Y, coins, np.array([1.0, 0.0]))
    v = tr.v_final @ w.T
    assert_allclose(rep.v_final, v / np.linalg.norm(v, axis=1)[:, None], rtol=1e-13)
    assert np.array_equal(rep.actions, tr.actions)


def test_bad_input():
    X, Y, coins = _realization()
    with pytest.raises(NBLInputError, match="repair must be one of"):
        repaired_nbl_run("sharpened", X, Y, coins, np.array([1.0, 0.0]))
    with pytest.raises(NBLInputError, match="needs the context covariance"):
        repaired_nbl_run("whitened", X, Y, coins, np.array([1.0, 0.0]))
    with pytest.raises(NBLInputError, match="positive definite"):
        whiten_known(X, np.array([[1.0, 0.0], [0.0, -1.0]]))
