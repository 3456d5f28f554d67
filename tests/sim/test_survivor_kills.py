"""Tests written for survivors of the quick library-mutation sample at the current registry
(docs/mutation.md, 2026-11-29): each pins what the mutated line means and fails with that
mutant planted (checked by hand)."""

from __future__ import annotations

import numpy as np
import pytest

from nbl_sim.engine.environment import Environment
from nbl_sim.runs.execution import SerialExecutor
from nbl_sim.studies.experiment import simulate
from nbl_sim.studies.phase import grid_values
from nbl_theory.errors import NBLInputError
from nbl_theory.paper import paper_link


def test_a_reversed_two_point_grid_is_refused():
    """nbl_sim.studies.phase:70 (``n > 1`` -> ``n > 2``): lo >= hi is refused for any grid of
    more than one point, two points included."""
    with pytest.raises(NBLInputError, match="grid needs finite lo < hi"):
        grid_values(1.0, 0.0, 2)
    assert grid_values(1.0, 1.0, 1) == ["1.0"]  # one point: lo = hi is fine


def test_the_summary_reads_the_final_recorded_round():
    """nbl_sim.studies.experiment:205 (``sq_error[:, -1]`` -> ``[:, -2]``): the summary's
    final ‖v_n − v*‖² is the mean over replications at the last recorded round."""
    env = Environment.build(paper_link("tt-stable"), "1", 2)
    res = simulate(env, n=300, reps=4, n0=30, seed=1, executor=SerialExecutor())
    p = res.policies["nbl"]
    got = res.summary()["nbl"]["final_sq_error_mean"]
    assert got == pytest.approx(float(np.mean(p.sq_error[:, -1])), rel=1e-12)
    assert got != pytest.approx(float(np.mean(p.sq_error[:, -2])), rel=1e-6)
