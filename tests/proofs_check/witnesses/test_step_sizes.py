"""Tests of proofs_check.witnesses.step_sizes (the sums of eq:step_size)."""

import math
from fractions import Fraction

import mpmath
import pytest

from proofs_check.witnesses import step_sizes


def test_harmonic_sum_against_a_direct_sum():
    # sum_{t=1}^{50} (t + 3)^-p by a plain loop of fractions (exact), p = 1 and 2
    for p in (1, 2):
        direct = sum(Fraction(1, (t + 3) ** p) for t in range(1, 51))
        with mpmath.workdps(30):
            got = step_sizes.harmonic_sum(p, 3, 50)
            assert abs(got - mpmath.mpf(direct.numerator) / direct.denominator) < 1e-25


def test_tail_bounds_hold_and_the_mutants_break_them():
    n0s, t0s = (0, 1, 10, 100), ("0", "0.5", "10", "500")
    r = step_sizes.tail_bound_ratios(n0s, t0s)
    assert r["sq"] <= 1 and r["fourth"] <= 1 and r["max"] <= 1
    # the tightest case is n0 + t0 large: the ratios approach 1 (sum ~ integral)
    assert r["sq"] > 0.99
    assert step_sizes.tail_bound_ratios(n0s, t0s, sq_offset=1)["sq"] > 1
    assert step_sizes.tail_bound_ratios(n0s, t0s, fourth_factor=4)["fourth"] > 1


def test_full_and_divergent_sums():
    # zeta(2, 1) = pi^2/6
    assert step_sizes.full_square_sums((0,))[0] == pytest.approx(math.pi**2 / 6, rel=1e-15)
    harm, lower = step_sizes.divergent_sums(1, 500, (10**3, 10**6))
    assert all(h >= lo for h, lo in zip(harm, lower))
    assert lower[1] == pytest.approx(math.log((10**6 + 501) / 501), rel=1e-15)
    # a summable step (power 1.1) falls below the unbounded lower bound at a large N
    h, lo = step_sizes.divergent_sums(1.1, 500, (10**12,))
    assert h[0] < lo[0]


def test_exact_tail_sums():
    s2, s4 = step_sizes.exact_tail_sums(1, 0, 3)
    assert s2 == Fraction(1, 4) + Fraction(1, 9) and s4 == Fraction(1, 16) + Fraction(1, 81)


def _row(kappa_d2, kappa_d3, gamma=10.0):
    """A step-size table row written by hand from its κ's (γ_c = 1/(2κ), 2γκ, min(1, 2γκ))."""
    row = {"link": "hand", "delta": 1.0}
    for d, k in (("d2", kappa_d2), ("d3", kappa_d3)):
        x = 2 * gamma * k
        row[f"kappa_{d}"] = k
        row[f"gamma_c_{d}"] = 1 / (2 * k) if k > 0 else float("inf")
        row[f"two_gamma_kappa_{d}"] = x
        row[f"exponent_{d}"] = min(1.0, x)
        row[f"verdict_{d}"] = (
            "unstable: kappa <= 0"
            if k <= 0
            else "above threshold"
            if x > 1
            else "at threshold (log t / t)"
            if x == 1
            else f"below threshold (exponent {x:.2g})"
        )
    return row


def test_threshold_rows_that_follow_from_their_kappa_pass():
    from proofs_check.witnesses.step_sizes import threshold_row_errors

    assert threshold_row_errors([_row(0.1, 0.05), _row(0.2, -0.01)], 10.0) == []


def test_each_wrong_derived_entry_of_a_threshold_row_is_named():
    from proofs_check.witnesses.step_sizes import threshold_row_errors

    r = _row(0.1, 0.04)
    r["gamma_c_d2"] = 1 / 0.1  # rate_theory:493's mutant: 1/(1 kappa)
    r["verdict_d3"] = "above threshold"  # rate_theory:500's: 2 gamma kappa = 0.8 read as above
    bad = threshold_row_errors([r], 10.0)
    assert len(bad) == 2
    assert "gamma_c_d2 10 (not 5)" in bad[0] and "verdict_d3 'above threshold' (below)" in bad[1]
    r = _row(0.1, 0.05)
    r["exponent_d3"] = 1.0  # 2 gamma kappa = 1 exactly: the exponent is 1 either way
    assert threshold_row_errors([r], 10.0) == []
    r["two_gamma_kappa_d2"] *= 1 + 1e-9
    assert threshold_row_errors([r], 10.0) != []
