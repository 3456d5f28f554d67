"""Tests of proofs_check.witnesses.martingale: the statistics are centred under the lemma,
detect a wrong field, and report a resolution that shrinks with the sample size."""

import math

from nbl_sim.environment import Environment
from nbl_theory.paper import paper_link
from proofs_check.witnesses import martingale as mg


def _env():
    return Environment.build(paper_link("tt-stable"), "0.2", 3, v_star="random",
                             theta_dir="random", geometry_seed=1)


def test_statistics_are_centred_and_resolution_scales():
    env = _env()
    small = mg.martingale_statistics(env, 24, 24, 1, 2)
    large = mg.martingale_statistics(env, 96, 24, 1, 2)
    assert small["count"] == large["count"] == 2 * 4 * 3        # (W, G) x (sum + 3 weights) x d
    # 48 z-scores under the null: the max exceeds 5 with probability ~3e-5 (seeded anyway)
    assert max(large["z"]) < mg.DETECT_Z
    # SE ~ 1/sqrt(R): four times the replications halve the resolution (within sampling noise)
    assert 0.35 < large["resolution"] / small["resolution"] < 0.7
    assert math.isfinite(large["moved"])


def test_a_wrong_field_is_detected():
    st = mg.martingale_statistics(_env(), 96, 32, 1, 2, field_factor=1.5)
    assert max(st["z"]) > mg.DETECT_Z
