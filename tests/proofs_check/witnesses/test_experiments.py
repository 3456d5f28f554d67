"""Tests of proofs_check.witnesses.experiments: the comparison run passes the printed settings,
Greedy Logistic's intercept choice and a replication count through, and the first R
replications of a run are those of any longer run."""

import numpy as np
import pytest

from nbl_theory.paper import COMPARISON_SETTING, paper_link
from proofs_check.witnesses import experiments


class _Stop(Exception):
    pass


@pytest.mark.parametrize("intercept", [True, False])
def test_comparison_run_settings(monkeypatch, intercept):
    seen = {}

    def fake_simulate(env, **kw):
        seen.update(kw, delta=env.delta_text, d=env.d)
        raise _Stop

    monkeypatch.setattr(experiments, "simulate", fake_simulate)
    with pytest.raises(_Stop):
        experiments.comparison_run(paper_link("logistic"), intercept, 0, 7)
    c = COMPARISON_SETTING
    assert (seen["n"], seen["n0"], seen["gamma"], seen["t0"], seen["delta"], seen["d"]) == (
        c["n"], c["n0"], c["gamma"], c["t0"], c["delta"], c["d"])
    assert seen["reps"] == 7 and seen["intercept"] is intercept
    assert seen["policies"] == ("nbl", "greedy-logistic")


def test_first_replications_do_not_depend_on_the_total():
    link = paper_link("tt-near-critical")
    a = experiments.comparison_run(link, False, 0, 3)
    b = experiments.comparison_run(link, False, 0, 5)
    for k in ("nbl", "gl", "start_angle"):
        np.testing.assert_array_equal(a[k], b[k][:3])
