"""The helpers the regret-rate study claims read the library's values and compare re-runs with
(issue 34, declare-only): toolkit_values.study_rerun_values / far_hemisphere_paths and
judgement.agree_max_abs (the study's agreement rule) / study_reruns.mean_text, on small arrays worked out by hand."""

import numpy as np
import pytest

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


def _near_singular_regret(seed: int):
    """Cumulative regret of 400 replications on horizons three of which lie within 2 of each
    other: the means' covariance has a condition number near the ridge's 1e9."""
    ns = np.array([1000.0, 20000.0, 20001.0, 20002.0, 100000.0])
    rng = np.random.default_rng(seed)
    drift = rng.uniform(0.0, 0.05, size=(400, 1))
    steps = rng.normal(size=(400, ns.size)) * np.sqrt(np.diff(np.r_[0.0, ns]))
    return ns, np.abs(drift * ns + 0.05 * np.cumsum(steps, axis=1) + 30 * np.log(ns))


def test_the_fits_rounding_floor_absorbs_rounding_and_nothing_more():
    """The library's GLS (an explicit inverse of a covariance of condition ~1e9) and the
    witness's (Cholesky whitening, QR) differ by ~1e-8 relative on such data: the 1e-9
    relative tolerance alone calls that a toolkit defect; the witness's first-order rounding
    floor (u·κ·√χ² in units of the SE: up to 4e-5 of the SE at this conditioning, ~1e-8 on
    the study's own horizons) does not, and still fails a coefficient moved by 1e-3 of its
    SE."""
    from nbl_sim.studies.rate_analysis import fit_growth
    from proofs_check.judgement import FAIL, PASS, tree_agreement
    from proofs_check.witnesses.study_analysis import FLOOR_RULE, _growth

    bare, floored = set(), set()
    for seed in range(6):
        ns, s = _near_singular_regret(seed)
        lib = fit_growth(ns, s)
        wit, floors = _growth(ns, s)
        bare.add(tree_agreement("fit", library=lib, witness=wit, tol=1e-9).status)
        j = tree_agreement(
            "fit", library=lib, witness=wit, tol=1e-9, floors=floors, floor_rule=FLOOR_RULE
        )
        floored.add(j.status)
        assert "rounding floor" in j.detail
        used = float(j.detail.split("difference is ")[1].split(" of")[0])
        assert used < 0.5, j.detail  # the floor is not loose by orders of magnitude...
        for model in ("log", "sqrt", "linear"):
            moved = {m: dict(v) for m, v in lib.items() if m != "best"}
            moved[model]["b"] += 1e-3 * wit[model]["b_se"]
            bad = tree_agreement("fit", library=moved, witness=wit, tol=1e-9, floors=floors)
            assert bad.status == FAIL, (seed, model)  # ...and does not hide a real shift
    assert FAIL in bare and floored == {PASS}


def test_a_slope_near_zero_is_judged_against_its_rounding_floor():
    """A log-log slope of flat means is pure cancellation: its floor is what two computations
    of it can differ by; a slope moved by 1e-9 absolute still fails."""
    from nbl_sim.studies.rate_analysis import bootstrap_slope
    from proofs_check.judgement import FAIL, PASS, tree_agreement
    from proofs_check.witnesses.study_analysis import _bootstrap

    x = np.geomspace(1e3, 1e5, 7)
    s = 5.0 + np.random.default_rng(3).normal(size=(400, 7)) * 1e-3
    lib = bootstrap_slope(x, s, x[2], seed=7)
    wit, floors = _bootstrap(x, s, x[2], seed=7)
    assert abs(wit["slope"]) < 1e-4 and 0 < floors["slope"] < 1e-11
    assert tree_agreement("s", library=lib, witness=wit, tol=1e-9, floors=floors).status == PASS
    moved = dict(lib, slope=lib["slope"] + 1e-9)
    assert tree_agreement("s", library=moved, witness=wit, tol=1e-9, floors=floors).status == FAIL


@pytest.mark.slow
def test_the_contrast_on_close_horizons_is_no_toolkit_defect():
    """The library mutant rate_study:163 (the full study's contrast horizon 10^4 → 2·10^4, next
    to 21,544): the contrast part at the FULL settings with those horizons (400 replications,
    ~20 s). Without the floors its log-model b ≈ −3.93e-4 read as a toolkit defect on the
    AVX2 host of 2026-11-30 (5.5e-9 relative; the last bits depend on the host's BLAS, so that
    is not asserted); with them every statistic agrees, well inside its bound."""
    import dataclasses

    from nbl_sim.studies.rate_study import FULL, QUICK, run_study
    from proofs_check.claims.regret import study as cs
    from proofs_check.judgement import PASS

    fields = [f.name for f in dataclasses.fields(FULL) if f.name.startswith("contrast_")]
    cfg = dataclasses.replace(QUICK, **{k: getattr(FULL, k) for k in fields})
    cfg = dataclasses.replace(cfg, contrast_ns=(1000, 2154, 4642, 20000, 21544, 46416, 100000))
    res = run_study(cfg, workers=1)
    (j,) = cs._statistics(res, res.analysis(), ["contrast"])
    assert j.status == PASS, j.detail
    assert float(j.detail.split("difference is ")[1].split(" of")[0]) < 0.1, j.detail
