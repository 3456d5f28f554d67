"""Tests written for survivors of the quick library-mutation sample at the current registry
(docs/mutation.md, 2026-11-29): each pins what the mutated line means, with a reference
derived by hand, and fails with that mutant planted (checked by hand)."""

from __future__ import annotations

import sympy as sp

from nbl_theory.results import decimal_str
from nbl_theory.threshold import ThresholdResult


def test_a_non_terminating_rational_is_written_with_25_significant_digits():
    """nbl_theory.results:73 (``nstr(p/d, 25)`` -> 50): 1/3 has no terminating expansion, so
    it is written with 25 significant digits — '0.' and twenty-five 3s (by hand)."""
    assert decimal_str(sp.Rational(1, 3)) == "0." + "3" * 25
    assert decimal_str(sp.Rational(-2, 7)) == "-0.2857142857142857142857143"  # 2/7 = 0.(285714)


def test_the_threshold_value_is_the_first_root():
    """nbl_theory.threshold:110 (``roots[0]`` -> ``roots[-1]``): with two roots the result's
    value is the smaller (first) one."""

    class _Root:
        def __init__(self, value):
            self.value = value

    res = ThresholdResult(
        "two roots", "delta", {}, ("0.05", "1.95"), 39, roots=[_Root("0.48"), _Root("1.21")]
    )
    assert res.value == "0.48"
    assert ThresholdResult("none", "delta", {}, ("0.05", "1.95"), 39).value is None
