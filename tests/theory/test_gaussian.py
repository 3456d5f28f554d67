"""The float64 tier's normal CDF (:func:`nbl_theory.gaussian.ndtr`), against mpmath."""

from __future__ import annotations

import math
import warnings

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nbl_theory.gaussian import ndtr

#: 4,801 points on [−12, 12] (step 0.005): the float64 quadrature's nodes reach |a| ≈ 10
GRID = np.linspace(-12.0, 12.0, 4801)


@pytest.fixture(scope="module")
def reference():
    """Φ at GRID by mpmath's ncdf at 40 digits (the local context; the global precision is
    not touched), rounded to float64."""
    with mpmath.workdps(40):
        return np.array([float(mpmath.ncdf(mpmath.mpf(float(a)))) for a in GRID])


@pytest.mark.parametrize(
    "lo, hi, rel",
    [
        # the erf branch and the upper tail: a correctly rounded result is within 0.5 ulp
        # (1.1e-16), the C library's erf/erfc within ~1 ulp; measured 3.5e-16
        (-1.0, 12.0, 5e-16),
        # the lower tail: a/√2 is rounded before erfc, a relative error of ~2(a/√2)² ulp
        # (25 ulp at a = −5, 144 ulp at −12); measured 3.4e-15 and 2.5e-14
        (-5.0, 5.0, 5e-15),
        (-12.0, 12.0, 4e-14),
    ],
)
def test_phi_matches_mpmath(reference, lo, hi, rel):
    sel = (GRID >= lo) & (GRID <= hi)
    got = ndtr(GRID[sel])
    assert np.all(np.abs(got - reference[sel]) <= rel * reference[sel])


def test_phi_ends_and_nan():
    assert ndtr([-np.inf, 0.0, np.inf]).tolist() == [0.0, 0.5, 1.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NaN in, NaN out, without a RuntimeWarning
        out = ndtr([np.inf, np.nan])
    assert out[0] == 1.0 and math.isnan(out[1])
    assert ndtr(np.zeros((2, 3))).shape == (2, 3)


@given(st.floats(-40.0, 40.0))
def test_phi_is_symmetric(a):
    """Φ(a) + Φ(−a) = 1 to rounding: the two tails are computed from the same erfc value."""
    s = ndtr([a, -a])
    assert abs(s[0] + s[1] - 1.0) <= 2.0**-52


def test_phi_is_monotone():
    v = ndtr(np.linspace(-40.0, 40.0, 200001))
    assert np.all(np.diff(v) >= 0.0)
