"""Repaired NBL against Greedy Logistic in simulation (nbl_sim.studies.repair_study)."""

from __future__ import annotations

import math

import pytest

from nbl_sim.studies.repair_study import compare_policies, growth_study
from nbl_theory.errors import NBLInputError


def test_paired_differences_on_common_random_numbers():
    kw = dict(
        n=600, reps=6, n0=100, seed=3, policies=("nbl", "whitened", "centred", "greedy-logistic")
    )
    a = compare_policies("tt-stable", "1", "gaussian:cond=3,angle=90", **kw)
    b = compare_policies("tt-stable", "1", "gaussian:cond=3,angle=90", **kw)
    assert a == b  # seeds in, same numbers out
    gl = a["policies"]["greedy-logistic"]
    for p in ("nbl", "whitened", "centred"):
        row = a["policies"][p]
        # the paired mean is the difference of the means (same replications)
        assert row["diff_vs_gl_mean"] == pytest.approx(
            row["regret_mean"] - gl["regret_mean"], abs=1e-9
        )
        lo, hi = row["diff_vs_gl_ci95"]
        assert lo == pytest.approx(row["diff_vs_gl_mean"] - 1.96 * row["diff_vs_gl_se"])
        assert hi > lo
    assert "diff_vs_gl_mean" not in gl


def test_growth_study_reports_the_three_models():
    g = growth_study(
        "tt-stable",
        "1",
        "gaussian",
        n_max=2400,
        points=3,
        reps=4,
        n0=100,
        t0=100.0,
        policies=("nbl", "centred"),
    )
    assert g["ns"][0] == 1000 and g["ns"][-1] == 2400
    for row in g["policies"].values():
        assert row["best_model"] in ("log", "sqrt", "linear")
        assert len(row["regret_mean"]) == 3 and math.isfinite(row["loglog_slope"]["slope"])


def test_bad_input():
    with pytest.raises(NBLInputError, match="unknown policy"):
        compare_policies("tt-stable", "1", policies=("nbl", "sharpened"))
    with pytest.raises(NBLInputError, match="n0 must lie"):
        compare_policies("tt-stable", "1", n=100, n0=200)
