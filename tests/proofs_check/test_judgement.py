"""Tests of proofs_check.judgement: the one rule that decides a verdict about the paper from the
library and a witness."""

import pytest

from proofs_check.judgement import agree_rel, combine, judge
from proofs_check.registry import CAVEAT, DISCREPANCY, FAIL, PASS


def _holds(v):
    return v > 0


def test_the_four_cases():
    assert judge("x", library=1.0, witness=1.0, tol=1e-9, holds=_holds).status == PASS
    assert judge("x", library=-1.0, witness=-1.0, tol=1e-9, holds=_holds).status == DISCREPANCY
    j = judge("x", library=1.0, witness=1.1, tol=1e-9, holds=_holds)
    assert j.status == FAIL and j.detail.startswith(
        "toolkit defect: library x = 1 and witness x = 1.1 disagree"
    )
    assert "the paper is not judged" in j.detail and "<= 1e-09" in j.detail
    # within tolerance but on opposite sides of the paper's statement: undecided, not judged
    j = judge("x", library=1e-12, witness=-1e-12, tol=1e-9, holds=_holds)
    assert j.status == FAIL and j.detail.startswith("toolkit undecided")


def test_a_library_bug_is_never_the_papers_fault():
    # library wrong and contradicting the paper, witness right: FAIL, not DISCREPANCY
    j = judge("lambda*", library=-0.5, witness=0.5, tol=1e-9, holds=_holds)
    assert j.status == FAIL


def test_agreement_rules_and_arguments():
    assert (
        judge("x", library=100.0, witness=100.0001, agree=agree_rel(1e-5), holds=_holds).status
        == PASS
    )
    assert (
        judge("x", library=100.0, witness=100.01, agree=agree_rel(1e-5), holds=_holds).status
        == FAIL
    )
    caveat = judge("x", library=-1, witness=-1, tol=0, holds=_holds, finding=CAVEAT)
    assert caveat.status == CAVEAT
    # a caveat does not say the paper is contradicted; a discrepancy does
    assert "both show the caveat" in caveat.detail and "both contradict" not in caveat.detail
    both = judge("x", library=-1, witness=-1, tol=0, holds=_holds)
    assert both.status == DISCREPANCY and "both contradict the paper" in both.detail
    with pytest.raises(ValueError):
        judge("x", library=1, witness=1, holds=_holds)
    with pytest.raises(ValueError):
        judge("x", library=1, witness=1, tol=1, agree=agree_rel(1), holds=_holds)
    with pytest.raises(ValueError):
        judge("x", library=1, witness=1, tol=1, holds=_holds, finding=FAIL)


def test_combine_puts_the_toolkit_first():
    ok = judge("a", library=1.0, witness=1.0, tol=0, holds=_holds)
    bad = judge("b", library=-1.0, witness=-1.0, tol=0, holds=_holds)
    broken = judge("c", library=1.0, witness=2.0, tol=0, holds=_holds)
    out = combine([ok, bad, broken], "computed", "why", consequence="number")
    assert (
        out.status == FAIL and out.detail.startswith("toolkit defect") and "why" not in out.detail
    )
    out = combine([ok, bad], "computed", "why", consequence="number")
    assert out.status == DISCREPANCY and out.consequence == "number" and out.detail.endswith("why")
    out = combine([ok], "computed", "why")
    assert out.status == PASS and out.detail.startswith("why")
    with pytest.raises(ValueError):
        combine([], "computed")


def test_agree_max_abs_states_its_rule_and_checks_shape():
    """The array agreement the re-run claims use (proofs_check.claims.numerics.experiments)."""
    from proofs_check.judgement import agree_max_abs

    agree = agree_max_abs(1e-8, "the angles")
    assert agree([0.0, 1.0], [5e-9, 1.0]) and not agree([0.0, 1.0], [2e-8, 1.0])
    assert not agree([0.0, 1.0], [0.0, 1.0, 2.0])  # a shape difference never agrees
    assert agree.__doc__ == "max |library - witness| over the angles <= 1e-08"


def test_agree_max_rel_is_relative_per_element_and_checks_shape():
    """The array agreement of error-to-regret's library gate: each element relative to the
    larger of its two values, so a tiny value is held to its own scale, not the array's."""
    from proofs_check.judgement import agree_max_rel

    agree = agree_max_rel(1e-8, "the angles")
    assert agree([1e-12, 1.0], [1e-12 * (1 + 5e-9), 1.0])
    assert not agree([1e-12, 1.0], [1.1e-12, 1.0])  # 0.1 relative, though 1e-13 absolute
    assert not agree([1.0], [1.0, 2.0]) and agree([0.0], [0.0])
    assert agree.__doc__.endswith("over the angles")


def test_agree_rel_to_is_relative_to_the_reference():
    """Relative to the second argument (the exact value), not to the larger of the two."""
    from proofs_check.judgement import agree_rel_to

    agree = agree_rel_to(1e-9)
    assert agree(1.0 + 5e-10, 1.0) and not agree(1.0 + 1.5e-9, 1.0)
    assert agree.__doc__ == "|value - reference| <= 1e-09 x |reference|"


def test_an_agreement_that_holds_says_nothing_of_the_paper():
    """agreement() judges no statement of the paper: its PASS sentence says the two computations
    agree and names the rule, never that they 'confirm the paper' (a verdict word the
    comparison did not produce); a disagreement stays the toolkit defect."""
    from proofs_check.judgement import agreement

    ok = agreement("mu_g", library=0.25, witness=0.25, tol=1e-12)
    assert ok.status == "PASS"
    assert "paper" not in ok.detail and "agree (|library - witness| <= 1e-12)" in ok.detail
    bad = agreement("mu_g", library=0.25, witness=0.5, tol=1e-12)
    assert bad.status == "FAIL" and bad.detail.startswith("toolkit defect")


def test_tree_agreement_pairs_every_number_by_its_path():
    from proofs_check.judgement import tree_agreement

    lib = {"fit": {"log": {"b": 2.0, "chi2": 1.0}}, "mean": [1.0, 3.0], "extra": 7.0}
    ok = tree_agreement("s", library=lib, witness={"fit": {"log": {"b": 2.0 + 1e-12}}}, tol=1e-9)
    assert ok.status == PASS and "1 values" in ok.detail
    bad = tree_agreement("s", library=lib, witness={"mean": [1.0, 3.1]}, tol=1e-9)
    assert bad.status == FAIL and "['mean'][1]" in bad.detail and "3.1" in bad.detail
    for w in ({"missing": 1.0}, {"mean": [1.0, 3.0, 4.0]}, {"mean": [float("nan"), 3.0]}):
        assert tree_agreement("s", library=lib, witness=w, tol=1e-9).status == FAIL, w
    # a NaN on the library's side disagrees too (max(nan, x) is nan: no scale to divide by)
    nan_lib = {"mean": [float("nan"), 3.0]}
    assert tree_agreement("s", library=nan_lib, witness={"mean": [1.0]}, tol=1e-9).status == FAIL
    assert tree_agreement("s", library={"z": 0.0}, witness={"z": 0.0}, tol=0.0).status == PASS
    # a witness holding no number compares nothing: that is not an agreement
    assert tree_agreement("s", library=lib, witness={"d_model": None}, tol=1e-9).status == FAIL


def test_tree_agreement_adds_a_floor_only_where_the_floors_hold_one():
    """A value near zero differs by rounding beyond any relative tolerance: an absolute floor at
    its path lets it agree; a floor at another path, or a difference past the floor, does not."""
    from proofs_check.judgement import tree_agreement

    lib = {"fit": {"b": -3.93295571e-4}, "rows": [{"m": 1e-13}, {"m": 2.0}]}
    wit = {"fit": {"b": -3.93295573e-4}, "rows": [{"m": 3e-13}, {"m": 2.0}]}
    floors = {"fit": {"b": 1e-11}, "rows": [{"m": 1e-12}]}
    assert tree_agreement("s", library=lib, witness=wit, tol=1e-9).status == FAIL
    ok = tree_agreement("s", library=lib, witness=wit, tol=1e-9, floors=floors, floor_rule="F")
    assert ok.status == PASS and "+ F at every value" in ok.detail
    for moved in ({"b": 1e-13}, {"c": 1.0}):  # too small a floor; a floor at another path
        bad = tree_agreement(
            "s", library=lib, witness=wit, tol=1e-9, floors=dict(floors, fit=moved)
        )
        assert bad.status == FAIL and "['fit']['b']" in bad.detail
    wrong = dict(wit, rows=[{"m": 3e-12}, {"m": 2.0}])  # past its floor of 1e-12
    bad = tree_agreement("s", library=lib, witness=wrong, tol=1e-9, floors=floors)
    assert bad.status == FAIL and "['rows'][0]['m']" in bad.detail


def test_encloses_widens_the_enclosure_by_the_slack_and_no_more():
    from proofs_check.judgement import encloses

    assert encloses(1.0, 2.0, 1.5, 0.0)
    assert encloses(1.0, 2.0, 0.9, 0.1) and encloses(1.0, 2.0, 2.1, 0.1)
    assert not encloses(1.0, 2.0, 0.8, 0.1) and not encloses(1.0, 2.0, 2.2, 0.1)
    assert not encloses(1.0, 2.0, float("nan"), 1.0)


def _tier(tier="float64", digits=16, value=0.1, error=1e-16):
    from types import SimpleNamespace

    return SimpleNamespace(
        tier=tier,
        digits=digits,
        values={"mu_star": value, "m2": 0.05, "lambda_star": value},
        errors={"mu_star": error, "m2": 1e-16, "lambda_star": error},
    )


def test_error_bars_pass_an_honest_bar_and_fail_each_way_a_bar_can_misstate():
    from proofs_check.judgement import error_bars

    w = {"mu_star": 0.1 + 5e-17}
    assert [j.status for j in error_bars(_tier(), w, ["mu_star"], 0.0)] == [PASS]
    # a negative estimate (numeric.py's L1 accumulator with a sign flipped gave -1.8e-16)
    j = error_bars(_tier(error=-1e-16), w, ["mu_star"], 0.0)[0]
    assert j.status == FAIL and "error estimate is a number >= 0" in j.detail
    # wider than the float64 tier's resolution 1e-12 x the moments' scale 0.1
    j = error_bars(_tier(error=2e-13), w, ["mu_star"], 0.0)[0]
    assert j.status == FAIL and "resolution 1.0e-13" in j.detail
    assert error_bars(_tier(error=0.9e-13), w, ["mu_star"], 0.0)[0].status == PASS
    # the witness outside the bar, and inside once its own bound is added
    far = {"mu_star": 0.1 + 3e-16}
    assert error_bars(_tier(), far, ["mu_star"], 0.0)[0].status == FAIL
    assert error_bars(_tier(), far, ["mu_star"], 2.1e-15)[0].status == PASS


def test_error_bars_hold_an_mpmath_tier_to_its_digits():
    import mpmath

    from proofs_check.judgement import error_bars

    with mpmath.workdps(40):
        v = mpmath.mpf(1) / 10
        ok = _tier("mpmath", 30, v, mpmath.mpf(10) ** -35)
        wide = _tier("mpmath", 30, v, mpmath.mpf(10) ** -30)  # 1e-31 allowed at scale 0.1
        w = {"mu_star": v + mpmath.mpf(10) ** -36}
    assert error_bars(ok, w, ["mu_star"], 0.0)[0].status == PASS
    assert error_bars(wide, w, ["mu_star"], 0.0)[0].status == FAIL
    assert mpmath.mp.dps == 15  # the 60 working digits were restored


def _root(value, lo, hi, certified=True, crossing="unstable->stable"):
    from types import SimpleNamespace

    return SimpleNamespace(value=value, bracket=(lo, hi), certified=certified, crossing=crossing)


def test_bracket_defect_needs_the_witness_root_inside_a_bracket_no_wider_than_the_resolution():
    from proofs_check.judgement import bracket_defect

    wit = [(0.5104266679, "unstable->stable")]
    tight = [_root("0.5104266679", "0.51042666789", "0.51042666791")]
    assert bracket_defect("r", tight, wit, 1e-11, 1e-8) is None
    # threshold.py's bracket at 5 working digits instead of 25 (measured width 1.9e-6)
    wide = [_root("0.5104266679", "0.5104255676", "0.5104274749")]
    j = bracket_defect("r", wide, wit, 1e-11, 1e-8)
    assert j.status == FAIL and j.detail.startswith("toolkit defect") and "width 2e-06" in j.detail
    # a bracket beside the witness's root, and one that holds it only with the slack
    beside = [_root("0.510426672", "0.510426670", "0.510426675")]
    assert bracket_defect("r", beside, wit, 1e-11, 1e-8).status == FAIL
    assert bracket_defect("r", beside, wit, 1e-8, 1e-8) is None
    # an uncertified root is judged elsewhere, and so is a different number of roots
    assert bracket_defect("r", [_root("0.5", "0.4", "0.6", certified=False)], wit, 0, 1e-8) is None
    assert bracket_defect("r", wide + wide, wit, 1e-11, 1e-8) is None


def test_delta_written_wants_the_decimal_asked_for_back():
    from types import SimpleNamespace

    from proofs_check.judgement import delta_written

    assert delta_written(SimpleNamespace(delta="0.2"), "0.2").status == PASS
    # results.py's decimal writer with fives counted down: 1/5 written '0..'
    j = delta_written(SimpleNamespace(delta="0.."), "0.2")
    assert j.status == FAIL and j.detail.startswith("toolkit defect") and "'0..'" in j.detail


def test_sign_written_wants_the_witness_sign_where_the_error_cannot_reach_zero():
    from types import SimpleNamespace

    from proofs_check.judgement import sign_written

    def tier(sign, err=1e-16):
        return SimpleNamespace(sign=sign, errors={"lambda_star": err}, tier="float64")

    assert sign_written(tier("stable"), 3.7e-3, 1e-30).status == PASS
    assert sign_written(tier("unstable"), -3.7e-3, 1e-30).status == PASS
    for word in ("undecided", "unstable"):
        j = sign_written(tier(word), 3.7e-3, 1e-30)
        assert j.status == FAIL and j.detail.startswith("toolkit defect") and repr(word) in j.detail
    # within twice the error plus the witness's bound: the word is not judged
    assert sign_written(tier("undecided", err=2e-3), 3.7e-3, 0.0).status == PASS
    assert sign_written(tier("undecided"), 3.7e-3, 1.0).status == PASS
