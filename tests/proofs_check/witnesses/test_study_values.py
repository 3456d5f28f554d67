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


def test_b_exponent_recovers_an_exact_power_and_weighs_by_relative_precision():
    """b = 3 d^0.8 exactly: slope 0.8 whatever the weights. With noise, the slope and its SE
    are those of the weighted normal equations (written out here, as the library writes them),
    weights (b/SE)^2; fewer than two d, or a b <= 0, gives None."""
    import math

    from proofs_check.witnesses.study_analysis import b_exponent

    exact = {d: (3 * d**0.8, 0.1 * d) for d in (2, 4, 8, 16)}
    assert abs(b_exponent(exact)["q"] - 0.8) < 1e-12
    noisy = {2: (5.0, 0.5), 4: (9.0, 2.0), 8: (20.0, 1.0), 16: (31.0, 6.0)}
    d = np.array(sorted(noisy), dtype=float)
    b = np.array([noisy[k][0] for k in sorted(noisy)])
    w = (b / np.array([noisy[k][1] for k in sorted(noisy)])) ** 2
    A = np.column_stack([np.ones(4), np.log(d)])
    P = np.linalg.inv(A.T @ (w[:, None] * A))
    q = b_exponent(noisy)
    assert abs(q["q"] - (P @ A.T @ (w * np.log(b)))[1]) < 1e-12
    assert abs(q["q_se"] - math.sqrt(P[1, 1])) < 1e-12
    assert b_exponent({2: (1.0, 0.1)}) is None
    assert b_exponent({2: (1.0, 0.1), 4: (-1.0, 0.1)}) is None
