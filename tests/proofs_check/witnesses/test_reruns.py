"""The witness's check of a shared realization (proofs_check.witnesses.reruns)."""

from __future__ import annotations

import numpy as np

from nbl_sim.engine.environment import Environment
from nbl_theory.paper import paper_link
from proofs_check.witnesses.reruns import realization_means_error


def test_the_realization_check_sees_wrong_mean_rewards():
    """The library-mutation sample's blame (2026-11-28): environment_passes.py:63 with the
    index of arm +1 shifted by -1 drew a realization whose rewards library and witness shared,
    so the angle gates agreed and stochastic-angle-regimes read DISCREPANCY. The recorded mean
    rewards against g(beta_a^T X) recomputed by numpy: rounding (~1e-16) when drawn right, the
    shift's effect when not."""
    link = paper_link("tt-stable")
    env = Environment.build(link, "0.2", 2)
    real = env.draw(0, range(3), 2000, 0)
    beta = np.asarray(env.beta, dtype=float)  # rows beta_-, beta_+
    assert realization_means_error(link, beta, real.X, real.means) <= 1e-12
    bad = np.array(real.means, dtype=float)
    z = np.asarray(real.X, dtype=float) @ beta[1] - 1.0
    bad[..., 1] = link.g_numpy(z)  # the planted bug's mean rewards
    assert realization_means_error(link, beta, real.X, bad) > 0.1
