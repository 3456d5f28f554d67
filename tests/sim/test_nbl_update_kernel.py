"""The compiled NBL kernel's one-step map against the update eq:nbl_update written literally.

Moved here from the claim registry (formerly the claim ``nbl-update-kernel``): it compares the
toolkit's kernel with the algorithm's definition, a test of the toolkit, not a check of the
paper. The literal update is the witness :func:`proofs_check.witnesses.paths.literal_step`
(the one written-from-the-paper step; this file also pins its tie rule).
"""

import math

import numpy as np

from nbl_sim.engine.geometry import nbl_update
from nbl_sim.engine.nbl_kernel import nbl_run
from proofs_check.witnesses.paths import literal_step


def test_literal_step_breaks_ties_toward_plus_one():
    v = np.array([1.0, 0.0])
    a, v1, g = literal_step(v, np.array([0.0, 2.0]), np.array([5.0, 1.0]), 0.5)
    assert a == 1
    np.testing.assert_allclose(g, [0.0, 2.0], atol=0)
    np.testing.assert_allclose(v1, np.array([1.0, 1.0]) / math.sqrt(2), rtol=1e-15)


def test_one_step_matches_the_literal_update():
    """Same action; |v_1(kernel) − v_1(literal)| ≤ 1e-13 and ‖v_1‖ = 1 to 1e-15 from random v
    (d ∈ {2, 3, 5}, η from 1e-3 to 5, exact ties vᵀX = 0 included); nbl_sim.engine.geometry.nbl_update
    equals the literal update to 1e-13. The kernel computes G = AY(x − (vᵀx)v), algebraically
    (I − vvᵀ)W: the two differ by a few ulps."""
    rng = np.random.default_rng(31)
    n_ties = 0
    for j in range(240):
        d = (2, 3, 5)[j % 3]
        R = 11
        if j % 8 == 0:  # exact tie: v = e1, x_1 = 0 -> A = +1
            v0 = np.eye(d)[0]
            X = rng.standard_normal((R, 1, d))
            X[:, 0, 0] = 0.0
            n_ties += R
        else:
            v0 = rng.standard_normal(d)
            v0 /= np.linalg.norm(v0)
            X = rng.standard_normal((R, 1, d)) * rng.uniform(0.1, 3.0)
        Y = rng.uniform(-1.0, 2.0, (R, 1, 2))
        eta = float(10.0 ** rng.uniform(-3, math.log10(5.0)))
        gamma, t0 = 1.0, 1.0 / eta - 1.0  # eta_1 = gamma/(1 + t0); t0 > -0.8
        tr = nbl_run(
            X, Y, np.zeros((R, 0), dtype=np.int8), v0, v0=v0, gamma=gamma, t0=t0, record_rounds=[1]
        )
        eta1 = gamma / (1.0 + t0)
        for r in range(R):
            a, lit, _ = literal_step(v0, X[r, 0], Y[r, 0], eta1)
            assert tr.actions[r, 0] == a
            assert np.abs(tr.v_final[r] - lit).max() <= 1e-13
            geo = nbl_update(v0, a * (Y[r, 0, 1] if a > 0 else Y[r, 0, 0]) * X[r, 0], eta1)
            assert np.abs(geo - lit).max() <= 1e-13
            assert abs(float(np.linalg.norm(tr.v_final[r])) - 1.0) <= 1e-15
    assert n_ties == 30 * 11


def test_trajectories_match_the_literal_update():
    """300-round trajectories (R = 13, a partial lockstep block in d = 2; η_t = 10/(t + 20)):
    same actions in every round and |v_300(kernel) − v_300(literal)| ≤ 1e-11 (rounding only,
    mildly amplified by the normalization)."""
    rng = np.random.default_rng(31)
    for d in (2, 3):
        R, n, gamma, t0 = 13, 300, 10.0, 20.0
        X = rng.standard_normal((R, n, d))
        Y = rng.uniform(0.0, 1.0, (R, n, 2))
        v0 = rng.standard_normal(d)
        v0 /= np.linalg.norm(v0)
        tr = nbl_run(X, Y, np.zeros((R, 0), dtype=np.int8), v0, v0=v0, gamma=gamma, t0=t0)
        for r in range(R):
            v = v0.copy()
            for t in range(n):
                a, v, _ = literal_step(v, X[r, t], Y[r, t], gamma / (t + 1 + t0))
                assert tr.actions[r, t] == a
            assert np.abs(tr.v_final[r] - v).max() <= 1e-11


def test_a_wrong_update_is_detected():
    """The comparison can fail: dropping the tangent projection (G = W) moves v_1 by far more
    than the 1e-13 tolerance."""
    rng = np.random.default_rng(5)
    v0 = np.array([0.6, 0.8])
    X = rng.standard_normal((4, 1, 2))
    Y = rng.uniform(0.0, 1.0, (4, 1, 2))
    tr = nbl_run(
        X, Y, np.zeros((4, 0), dtype=np.int8), v0, v0=v0, gamma=1.0, t0=0.0, record_rounds=[1]
    )
    for r in range(4):
        a = 1 if float(v0 @ X[r, 0]) >= 0 else -1
        w = a * (Y[r, 0, 1] if a > 0 else Y[r, 0, 0]) * X[r, 0]
        wrong = (v0 + w) / np.linalg.norm(v0 + w)
        assert np.abs(tr.v_final[r] - wrong).max() > 1e-6
