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
    assert q > 1.3  # what the old (d - 1)^q fit over every d reported


def test_a_power_law_in_d_is_rejected_when_precise():
    data = {d: (10.0 * d**1.6, 0.005 * 10.0 * d**1.6) for d in (2, 4, 8, 16)}
    m = dimension_model(data)
    assert m["chi2_p"] < 1e-6


def test_too_few_dimensions():
    assert dimension_model({2: (1.0, 0.1), 4: (2.0, 0.1)}) is None
    two = dimension_model({4: (2.0, 0.1), 8: (4.0, 0.1)})
    assert two["dof"] == 0 and two["chi2_p"] is None
    assert math.isfinite(two["c_se"])


def test_regret_analysis_fits_the_total_of_both_stages():
    """R_n = Stage I + Stage II regret (the study records them apart): the means, SEs and the
    log-n fit are those of the sum, the stage2_* entries those of Stage II alone (synthetic
    records, so every number is known)."""
    from types import SimpleNamespace

    from nbl_sim.studies.rate_analysis import regret_analysis

    rng = np.random.default_rng(4)
    ns = np.array([100, 1000, 10000])
    stage1 = np.full((6, 3), 5.0) + rng.uniform(0, 1, (6, 3))
    stage2 = 2.0 * np.log(ns)[None, :] + rng.uniform(0, 1, (6, 3))
    study = SimpleNamespace(
        config=SimpleNamespace(links=("tt-stable",), dims=(2,), ns=ns, C0=1.0),
        regret={("tt-stable", 2): {"stage1": stage1, "stage2": stage2, "n0s": np.array([50])}},
        constants={"t_grid": {}, "gamma": {"tt-stable": 10.0}},
    )
    row = regret_analysis(study)["tt-stable"]["by_d"][2]
    total = stage1 + stage2
    np.testing.assert_allclose(row["mean"], total.mean(0), rtol=1e-15)
    np.testing.assert_allclose(row["se"], total.std(0, ddof=1) / math.sqrt(6), rtol=1e-14)
    np.testing.assert_allclose(row["stage2_mean"], stage2.mean(0), rtol=1e-15)
    assert row["b_over_d"] == row["fit"]["log"]["b"] / 2


def test_bootstrap_slope_is_the_resampled_slopes_sd_and_percentiles():
    """bootstrap_slope: the slope of log mean on log x over [lo, hi], SE = sd (ddof 1) of the
    slopes of B resampled means (replications drawn with numpy's Generator at ``seed``), the
    interval their 2.5/97.5 percentiles — recomputed here from that definition."""
    from nbl_sim.studies.rate_analysis import bootstrap_slope

    rng = np.random.default_rng(9)
    x = np.array([10.0, 30.0, 100.0, 300.0, 1000.0])
    samples = x[None, :] ** -1.0 * rng.lognormal(0, 0.3, (40, 5))
    out = bootstrap_slope(x, samples, 30.0, B=50, seed=3)
    sel = x >= 30.0

    def slope(m):
        return np.polyfit(np.log(x[sel]), np.log(m[sel]), 1)[0]

    boot = np.random.default_rng(3)
    bs = np.array([slope(samples[boot.integers(0, 40, 40)].mean(0)) for _ in range(50)])
    assert out["slope"] == pytest.approx(slope(samples.mean(0)), rel=1e-12)
    assert out["se"] == pytest.approx(bs.std(ddof=1), rel=1e-12)
    assert (out["lo"], out["hi"]) == pytest.approx(tuple(np.percentile(bs, [2.5, 97.5])), rel=1e-12)
    assert out["window"] == [30.0, 1000.0]


def test_the_b_exponent_is_weighted_by_the_inverse_variance_of_log_b():
    """The exponent q of b ∝ d^q: weighted least squares of log b on log d with weights
    (b/SE_b)² (the delta-method variance of log b is (SE_b/b)²), recomputed with numpy's lstsq
    on the square-root-weighted system."""
    from types import SimpleNamespace

    from nbl_sim.studies.rate_analysis import regret_analysis

    ns = np.array([100.0, 1000.0, 10000.0])
    rng = np.random.default_rng(2)
    regret, dims = {}, (2, 4, 8)
    for d, b in zip(dims, (3.0, 5.0, 11.0)):
        s2 = b * np.log(ns)[None, :] + rng.normal(0, 0.5 * d, (8, 3))
        regret[("tt-stable", d)] = {"stage1": np.zeros((8, 3)), "stage2": s2, "n0s": np.array([50])}
    study = SimpleNamespace(
        config=SimpleNamespace(links=("tt-stable",), dims=dims, ns=ns, C0=1.0),
        regret=regret,
        constants={"t_grid": {}, "gamma": {"tt-stable": 10.0}},
    )
    out = regret_analysis(study)["tt-stable"]
    b = np.array([out["by_d"][d]["fit"]["log"]["b"] for d in dims])
    se = np.array([out["by_d"][d]["fit"]["log"]["b_se"] for d in dims])
    sw = b / se
    A = np.column_stack([np.ones(3), np.log(dims)]) * sw[:, None]
    coef = np.linalg.lstsq(A, np.log(b) * sw, rcond=None)[0]
    assert out["b_exponent"]["q"] == pytest.approx(coef[1], rel=1e-10)


def test_the_d2_extrapolation_has_the_fits_standard_error():
    """d = 2 reported apart: the d ≥ 3 fit's C (2 − c) = α + 2β with SE √([1, 2] Cov [1, 2]),
    the covariance recomputed by numpy.polyfit (weights 1/SE, cov="unscaled")."""
    data = {2: (40.0, 2.0), 3: (61.0, 2.5), 4: (95.0, 3.0), 8: (230.0, 6.0), 16: (498.0, 9.0)}
    out = dimension_model(data)
    dims = [3, 4, 8, 16]
    (b, a), cov = np.polyfit(
        dims, [data[d][0] for d in dims], 1, w=[1 / data[d][1] for d in dims], cov="unscaled"
    )
    var = cov[1, 1] + 4 * cov[0, 0] + 4 * cov[0, 1]
    assert out["d2"]["extrapolated"] == pytest.approx(a + 2 * b, rel=1e-10)
    assert out["d2"]["extrapolated_se"] == pytest.approx(math.sqrt(var), rel=1e-8)
    assert (out["d2"]["S"], out["d2"]["se"]) == (40.0, 2.0)


@settings(max_examples=25, deadline=None)
@given(
    C=st.floats(5.0, 500.0),
    c=st.floats(-1.0, 2.5),
    noise=st.lists(st.floats(-0.05, 0.05), min_size=3, max_size=3),
)
def test_standard_errors_are_numpys_covariance_through_the_delta_method(C, c, noise):
    """C_se and c_se against an independent route: numpy.polyfit's unscaled covariance of the
    weighted line S = C d + a over d = 4, 8, 16, and the gradient of c = -a/C by central
    differences (step 1e-6 relative: its truncation error ~1e-12, far inside rel 1e-5)."""
    dims = (4, 8, 16)
    data = {d: (C * (d - c) * (1 + e), 0.02 * abs(C * (d - c)) + 0.5) for d, e in zip(dims, noise)}
    m = dimension_model(data)
    S = np.array([data[d][0] for d in dims])
    se = np.array([data[d][1] for d in dims])
    (slope, icept), cov = np.polyfit(np.array(dims, float), S, 1, w=1 / se, cov="unscaled")
    # two solutions of the same 3-point weighted least squares (an inverse against polyfit's
    # lstsq): both exact up to rounding amplified by the normal matrix's condition (~2e2 over
    # d = 4, 8, 16), so 1e-6 relative is far above either's rounding and far below a wrong SE
    assert m["C_se"] == pytest.approx(math.sqrt(cov[0, 0]), rel=1e-6)

    def c_of(a, b):
        return -a / b

    ha, hb = 1e-6 * max(1.0, abs(icept)), 1e-6 * abs(slope)
    grad = np.array(
        [
            (c_of(icept, slope + hb) - c_of(icept, slope - hb)) / (2 * hb),
            (c_of(icept + ha, slope) - c_of(icept - ha, slope)) / (2 * ha),
        ]
    )
    # central differences: truncation ~h² = 1e-12 and rounding ~u/h ~ 1e-10 relative, so 1e-5
    # is the numeric gradient's margin, far below the factor a wrong gradient makes
    assert m["c_se"] == pytest.approx(math.sqrt(grad @ cov @ grad), rel=1e-5)
