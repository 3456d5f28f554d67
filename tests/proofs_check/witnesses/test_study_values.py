"""The helpers the regret-rate study claims read the library's values and compare re-runs with
(issue 34, declare-only): toolkit_values.study_rerun_values / far_hemisphere_paths and
judgement.agree_max_abs (the study's agreement rule) / study_reruns.mean_text, on small arrays worked out by hand."""

import numpy as np

from proofs_check.judgement import agree_max_abs
from proofs_check.witnesses.study_reruns import mean_text
from proofs_check.witnesses.toolkit_values import far_hemisphere_paths, study_rerun_values


def test_study_rerun_values_sum_the_two_stages_of_the_regret():
    lib = {
        "stage1": np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
        "stage2": np.array([[0.0, 10.0], [0.0, 20.0], [0.0, 30.0]]),
        "e_grid": np.arange(6.0).reshape(3, 2),
        "tau": [7, 8, 9],
        "e_n0": [0.1, 0.2, 0.3],
    }
    got = study_rerun_values(lib, "regret", ("regret", "tau"), 2)
    assert got["regret"].tolist() == [12.0, 24.0] and got["tau"].tolist() == [7, 8]
    got = study_rerun_values({"exit": [True, False, True]}, "localization", ("exit",), 2)
    assert got["exit"].tolist() == [True, False]


def test_far_hemisphere_paths_counts_the_last_column_above_two():
    assert far_hemisphere_paths({"e_grid": [[3.0, 2.5], [3.0, 2.0], [0.1, 3.9]]}) == 2


def test_max_abs_agreement_states_and_applies_its_rule():
    agree = agree_max_abs(1e-9, "the first replications' values")
    assert agree.__doc__ == "max |library - witness| over the first replications' values <= 1e-09"
    assert agree([1.0, 2.0], [1.0, 2.0 + 5e-10]) and not agree([1.0], [1.0 + 2e-9])
    assert not agree([1.0, 2.0], [1.0]) and agree_max_abs(0.0, "x")([], [])
    assert mean_text([1.0, 2.0]) == "mean 1.5"
