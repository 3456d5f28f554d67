"""Tests of proofs_check.witnesses.martingale: the statistics are centred under the lemma,
detect a wrong field, and report a resolution that shrinks with the sample size."""

import math

from nbl_sim.engine.environment import Environment
from nbl_theory.paper import paper_link
from proofs_check.witnesses import martingale as mg


def _env():
    return Environment.build(
        paper_link("tt-stable"), "0.2", 3, v_star="random", theta_dir="random", geometry_seed=1
    )


def test_statistics_are_centred_and_resolution_scales():
    env = _env()
    small = mg.martingale_statistics(env, 24, 24, 1, 2)
    large = mg.martingale_statistics(env, 96, 24, 1, 2)
    assert small["count"] == large["count"] == 2 * 4 * 3  # (W, G) x (sum + 3 weights) x d
    # 48 z-scores under the null: the max exceeds 5 with probability ~3e-5 (seeded anyway)
    assert max(large["z"]) < mg.DETECT_Z
    # SE ~ 1/sqrt(R): four times the replications halve the resolution (within sampling noise)
    assert 0.35 < large["resolution"] / small["resolution"] < 0.7
    assert math.isfinite(large["moved"])


def test_a_wrong_field_is_detected():
    st = mg.martingale_statistics(_env(), 96, 32, 1, 2, field_factor=1.5)
    assert max(st["z"]) > mg.DETECT_Z


def test_the_witness_nbl_step_is_eq_nbl_update():
    """By hand: v = (1, 0), w = (0.3, 0.4), eta = 0.5: G = (0, 0.4), v + eta G = (1, 0.2),
    normalised (1, 0.2)/sqrt(1.04)."""
    import numpy as np

    v, w = np.array([[1.0, 0.0]]), np.array([[0.3, 0.4]])
    assert np.allclose(mg.tangent_projection(v, w), [[0.0, 0.4]], rtol=0, atol=1e-16)
    got = mg.nbl_step(v, w, 0.5)
    assert np.allclose(got, [[1 / math.sqrt(1.04), 0.2 / math.sqrt(1.04)]], rtol=0, atol=1e-15)
    # a step of a unit vector stays unit, in any dimension, and a normal w does not move v
    rng = np.random.default_rng(5)
    v = rng.normal(size=(7, 5))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    assert np.allclose(np.linalg.norm(mg.nbl_step(v, rng.normal(size=(7, 5)), 0.3), axis=1), 1)
    assert np.allclose(mg.nbl_step(v, 2.5 * v, 0.3), v, atol=1e-15)
