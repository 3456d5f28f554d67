"""The dimension model of the localized error (nbl_sim.studies.rate_analysis.dimension_model): fitted
over d >= 3 as C (d - c), d = 2 reported apart, with intervals and a goodness of fit."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nbl_sim.studies.rate_analysis import dimension_model


def _exact(C, c, dims=(2, 4, 8, 16), rel_se=0.02):
    return {d: (C * (d - c), rel_se * C * (d - c)) for d in dims}


@settings(max_examples=40, deadline=None)
@given(C=st.floats(1.0, 1e3), c=st.floats(-1.0, 2.5))
def test_exact_linear_data_recover_C_and_c(C, c):
    m = dimension_model(_exact(C, c))
    # exact data: the WLS solution is exact to rounding
    assert m["C"] == pytest.approx(C, rel=1e-9)
    assert m["c"] == pytest.approx(c, rel=1e-9, abs=1e-9)
    assert m["chi2"] == pytest.approx(0.0, abs=1e-12)
    assert m["dims"] == [4, 8, 16] and m["dof"] == 1
    assert m["C_ci"][0] < m["C"] < m["C_ci"][1]
    assert m["c_ci"][0] < m["c"] < m["c_ci"][1]


def test_d2_is_not_in_the_fit_but_reported_apart():
    data = _exact(290.0, 1.9)
    other = {**data, 2: (10 * data[2][0], data[2][1])}
    a, b = dimension_model(data), dimension_model(other)
    assert (a["C"], a["c"], a["chi2"]) == (b["C"], b["c"], b["chi2"])
    assert b["d2"]["S"] == pytest.approx(10 * data[2][0])
    # the extrapolation C (2 - c) is the d >= 3 fit's, whatever d = 2 measured
    assert a["d2"]["extrapolated"] == pytest.approx(290.0 * (2 - 1.9), rel=1e-9)
    assert b["d2"]["extrapolated"] == pytest.approx(a["d2"]["extrapolated"], rel=1e-12)


def test_issue_34_scaled_errors_fit_C_d_minus_c_not_a_power():
    """The numbers of issue 34 ((t + t0) a_t / d = 16.8, 149, 227, 256 at d = 2, 4, 8, 16, the
    tt-stable link at n = 1e5), with 2% SEs: over d >= 3 the linear model C (d - c) fits with
    c near 2 (the d - 2 directions orthogonal to theta), while the same points on a log-log
    line in d - 1 have slope ~1.4 — the artifact the issue describes."""
    per_d = {2: 16.8, 4: 149.0, 8: 227.0, 16: 256.0}
    data = {d: (v * d, 0.02 * v * d) for d, v in per_d.items()}
    m = dimension_model(data)
    assert 1.5 < m["c"] < 2.5
    assert m["chi2_p"] > 0.05
    ld = np.log([d - 1.0 for d in (2, 4, 8, 16)])
    q = np.polyfit(ld, np.log([data[d][0] for d in (2, 4, 8, 16)]), 1)[0]
    assert q > 1.3                      # what the old (d - 1)^q fit over every d reported


def test_a_power_law_in_d_is_rejected_when_precise():
    data = {d: (10.0 * d ** 1.6, 0.005 * 10.0 * d ** 1.6) for d in (2, 4, 8, 16)}
    m = dimension_model(data)
    assert m["chi2_p"] < 1e-6


def test_too_few_dimensions():
    assert dimension_model({2: (1.0, 0.1), 4: (2.0, 0.1)}) is None
    two = dimension_model({4: (2.0, 0.1), 8: (4.0, 0.1)})
    assert two["dof"] == 0 and two["chi2_p"] is None
    assert math.isfinite(two["c_se"])
