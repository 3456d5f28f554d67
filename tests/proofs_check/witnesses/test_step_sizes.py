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
