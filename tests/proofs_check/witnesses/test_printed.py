"""Tests of proofs_check.witnesses.printed."""

import mpmath

from proofs_check.witnesses import printed


def test_round_sig_known_values():
    assert printed.round_sig("2.0755352621921070177e-5") == "2.08e-5"
    assert printed.round_sig("-0.0024516744130067") == "-2.45e-3"
    assert printed.round_sig("9.995") == "1.00e1"  # half-even carry, renormalised
    assert printed.round_sig("9.985") == "9.98e0"  # half-even: down to the even digit
    assert printed.round_sig(0) == "0"


def test_nstr_and_precision_restored():
    dps = mpmath.mp.dps
    assert printed.nstr("2.0755352621921070177e-5", 3) == "2.08e-5"
    assert printed.nstr(0.5, 6) == "5.0e-1"  # exponent form below 1
    assert printed.nstr(3.25, 6) == "3.25"
    assert mpmath.mp.dps == dps


def test_link_label():
    assert printed.link_label("tt-stable") == "two-transition(mu2=-1.074037)"
    assert printed.link_label("we-0.60") == "weighted-entropy(rho=0.60)"
    assert printed.link_label("probit") == "probit"


def test_rounding_interval_and_bump():
    # by hand: 2.15e-5 at 3 figures covers [2.145e-5, 2.155e-5)
    from decimal import Decimal

    assert printed.rounding_interval("2.15e-5") == (Decimal("2.145e-5"), Decimal("2.155e-5"))
    assert printed.rounding_interval("-2.45e-3") == (Decimal("-2.455e-3"), Decimal("-2.445e-3"))
    assert printed.bump_last_figure("3.70e-3") == "3.71e-3"
    assert printed.bump_last_figure("-2.45e-3") == "-2.44e-3"


def test_mp_nstr_keeps_the_value_precision():
    # a 40-digit value shown outside its working precision keeps its digits (no conversion)
    with mpmath.workdps(40):
        third = mpmath.mpf(1) / 3
    assert printed.mp_nstr(third, 20) == "0.33333333333333333333"
    assert printed.mp_nstr(mpmath.mpf("2.5e-26"), 3) == mpmath.nstr(mpmath.mpf("2.5e-26"), 3)
