"""Tests of proofs_check.witnesses.experiments: the runs pass the paper's printed settings,
Greedy Logistic's intercept choice and a replication count through, and the first R
replications of a run are those of any longer run."""

import numpy as np
import pytest

from nbl_theory.paper import COMPARISON_SETTING, STOCHASTIC_SETTING, paper_link
from proofs_check.witnesses import experiments


class _Stop(Exception):
    pass


def _settings_seen(monkeypatch, call) -> dict:
    """The keyword arguments (plus Delta and d) ``call()`` passes to ``simulate``, captured by
    a stand-in that stops the run."""
    seen = {}

    def fake_simulate(env, **kw):
        seen.update(kw, delta=env.delta_text, d=env.d)
        raise _Stop

    monkeypatch.setattr(experiments, "simulate", fake_simulate)
    with pytest.raises(_Stop):
        call()
    return seen


@pytest.mark.parametrize("intercept", [True, False])
def test_comparison_run_settings(monkeypatch, intercept):
    seen = _settings_seen(
        monkeypatch, lambda: experiments.comparison_run(paper_link("logistic"), intercept, 0, 7)
    )
    c = COMPARISON_SETTING
    assert (seen["n"], seen["n0"], seen["gamma"], seen["t0"], seen["delta"], seen["d"]) == (
        c["n"],
        c["n0"],
        c["gamma"],
        c["t0"],
        c["delta"],
        c["d"],
    )
    assert seen["reps"] == 7 and seen["intercept"] is intercept
    assert seen["policies"] == ("nbl", "greedy-logistic")


def test_first_replications_do_not_depend_on_the_total():
    link = paper_link("tt-near-critical")
    a = experiments.comparison_run(link, False, 0, 3)
    b = experiments.comparison_run(link, False, 0, 5)
    for k in ("nbl", "gl", "start_angle"):
        np.testing.assert_array_equal(a[k], b[k][:3])


#: a seed no claim uses: the stochastic runs are memoized per (link, Delta, seed) in the process,
#: so with the claims' seed 0 an earlier test of the same worker could have run it already and
#: the stand-in simulate would never be called (CI of 2026-11-28, once the files' order changed)
_FRESH_SEED = 987_654


def test_experiments_use_the_printed_settings(monkeypatch):
    seen = _settings_seen(
        monkeypatch,
        lambda: experiments.final_angle(paper_link("tt-stable"), "0.2", seed=_FRESH_SEED),
    )
    s = STOCHASTIC_SETTING
    assert (
        (seen["n"], seen["reps"], seen["init_angle"], seen["gamma"], seen["t0"], seen["d"])
        == (s["n"], s["reps"], s["init_angle"], s["gamma"], s["t0"], s["d"])
        == (10_000, 100, 10.0, 10.0, 500.0, 2)
    )
    seen = _settings_seen(
        monkeypatch,
        lambda: experiments.paired_regret_gaps([("x", paper_link("logistic"))], seed=_FRESH_SEED),
    )
    c = COMPARISON_SETTING
    assert (
        (seen["n"], seen["reps"], seen["n0"], seen["gamma"], seen["t0"], seen["delta"])
        == (c["n"], c["reps"], c["n0"], c["gamma"], c["t0"], c["delta"])
        == (2000, 100, 200, 10.0, 500.0, "1")
    )
    assert np.isfinite(seen["gamma"])
