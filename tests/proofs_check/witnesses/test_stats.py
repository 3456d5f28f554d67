"""Tests of proofs_check.witnesses.stats against closed forms and brute-force computations."""

import math

import numpy as np
import pytest
from scipy.stats import beta, chi

from proofs_check.witnesses import stats


def test_mean_se_closed_form():
    m, se = stats.mean_se([1.0, 2.0, 3.0, 4.0])
    # mean 2.5, sample SD sqrt(5/3), SE = SD/2
    assert m == 2.5
    assert se == pytest.approx(math.sqrt(5 / 3) / 2, rel=1e-15)
    m2, se2 = stats.mean_se(np.array([[1.0, 10.0], [3.0, 10.0]]))
    np.testing.assert_allclose(m2, [2.0, 10.0], rtol=1e-15)
    np.testing.assert_allclose(se2, [1.0, 0.0], atol=1e-15)


def test_binomial_z_closed_form():
    # (0.2 - 0.1)/sqrt(0.1 * 0.9/100) = 0.1/0.03
    assert stats.binomial_z(0.2, 0.1, 100) == pytest.approx(10 / 3, rel=1e-14)
    assert stats.binomial_z(0.05, 0.1, 100) < 0


def test_quantile_ci_brackets_the_quantile():
    x = np.random.default_rng(0).random(10_000)
    q, lo, hi = stats.quantile_ci(x, 0.95)
    assert lo <= q <= hi
    assert lo <= 0.95 <= hi  # the true 0.95-quantile of U(0, 1)
    # the interval has about ±3 binomial SDs of ranks: ~±65 of 10,000, i.e. ~±0.0065 wide
    assert hi - lo == pytest.approx(2 * 3 * math.sqrt(0.95 * 0.05 / 1e4), rel=0.2)


def test_clopper_pearson_closed_form_at_zero_successes():
    # k = 0: the upper bound solves (1 - p)^n = 1 - level
    n, level = 200, 0.999
    assert stats.clopper_pearson_upper(0, n, level) == pytest.approx(
        1 - (1 - level) ** (1 / n), rel=1e-12
    )
    assert stats.clopper_pearson_upper(n, n) == 1.0


def test_gaussian_limit_quantile_matches_chi():
    # the Monte Carlo quantile of 200,000 draws: ~1% relative
    for k in (1, 4):
        assert stats.gaussian_limit_quantile(np.eye(k), 0.95) == pytest.approx(
            chi.ppf(0.95, k), rel=0.01
        )
    P = np.diag([0.0, 1.0, 1.0])
    assert stats.gaussian_limit_quantile(np.eye(3), 0.9, P) == pytest.approx(
        chi.ppf(0.9, 2), rel=0.01
    )


def test_chi_constant_sup_between_a_grid_point_and_sqrt3():
    sup = stats.chi_constant_sup()
    assert sup <= math.sqrt(3)
    # one of the grid points: k = 1, delta = 1/2
    assert sup >= chi.isf(0.5, 1) / math.sqrt(1 + math.log(4))


def test_loglog_slope_of_an_exact_power_law():
    t = np.arange(100, 10_001)
    a = 3.0 * (t + 50.0) ** -0.7
    slope, se = stats.loglog_slope_batches(t, 50.0, a, [a * 1.1, a * 0.9, a], 1000)
    assert slope == pytest.approx(-0.7, abs=1e-12)
    assert se == pytest.approx(0.0, abs=1e-12)  # scaled copies have the same slope


def test_log_probability_fit_recovers_an_exponential():
    x = np.array([50.0, 100.0, 150.0, 200.0])
    P = np.exp(-1.0 - 0.02 * x)
    coef, cov = stats.log_probability_fit(x, P, 10**6)
    # log P = c0 + c1 x + c2 (x - mean)^2 with c1 = -0.02, c2 = 0, c0 = -1
    np.testing.assert_allclose(coef, [-1.0, -0.02, 0.0], atol=1e-10)
    assert np.all(np.diag(cov) > 0)


def test_paired_ratio_against_an_independent_delta_method():
    rng = np.random.default_rng(3)
    d1 = rng.normal(2.0, 1.0, 5000)
    d2 = 0.5 * d1 + rng.normal(1.0, 0.5, 5000)
    r, se = stats.paired_ratio(d1, d2)
    assert r == pytest.approx(d2.mean() / d1.mean(), rel=1e-15)
    m1, n = d1.mean(), d1.size
    v1, v2 = d1.var(ddof=1) / n, d2.var(ddof=1) / n
    c12 = np.cov(d1, d2)[0, 1] / n
    want = math.sqrt(v2 - 2 * r * c12 + r * r * v1) / abs(m1)
    assert se == pytest.approx(want, rel=1e-10)


def test_bound_verdict_never_improves_with_noise():
    # the same estimate with growing noise: below -> at -> unresolved, never back to below
    seq = [stats.bound_verdict(0.9, se, 1.0, 0.3) for se in (0.01, 0.05, 0.1)]
    assert seq == ["below", "at", "unresolved"]
    assert stats.bound_verdict(1.2, 0.01, 1.0, 0.1) == "above"
    assert stats.bound_verdict(1.2, 0.1, 1.0, 0.1) == "unresolved"


def test_equivalence_verdict_tost():
    # |0.02| + 1.645 * 0.01 = 0.036 < 0.05: equivalent; with SE 0.03: unresolved
    assert stats.equivalence_verdict(1.02, 0.01, 1.0, 0.05) == "equivalent"
    assert stats.equivalence_verdict(1.02, 0.03, 1.0, 0.05) == "unresolved"
    assert stats.equivalence_verdict(1.2, 0.01, 1.0, 0.05) == "different"


def test_one_sided_power_closed_form():
    # effect = (k + 1.645) SE gives power Phi(1.645) = 0.95
    assert stats.one_sided_power(6.645 * 0.1, 0.1, 5.0) == pytest.approx(0.95, abs=1e-3)


def test_decay_models_recover_exponential_and_power_laws():
    x = np.array([50.0, 100.0, 150.0, 200.0])
    R = 10**9  # huge R: essentially exact probabilities
    exp_p = 0.5 * np.exp(-0.02 * x)
    fit = stats.decay_models(x, exp_p, R)
    assert fit["exp"]["b"] == pytest.approx(-0.02, rel=1e-9)
    assert fit["pow"]["chi2"] - fit["exp"]["chi2"] > 100
    pow_p = 5.0 * x**-1.5
    fit = stats.decay_models(x, pow_p, R)
    assert fit["pow"]["b"] == pytest.approx(-1.5, rel=1e-9)
    assert fit["exp"]["chi2"] - fit["pow"]["chi2"] > 100
    # points with fewer than 5 events or non-events are dropped
    assert stats.decay_models(x, np.array([1.0, 0.5, 0.2, 1e-12]), 1000)["used"] == 2


def test_power_law_fit_exact():
    d = np.array([2.0, 4.0, 8.0, 16.0])
    fit = stats.power_law_fit(d, 3 * d**1.25, 0.01 * d)
    assert fit["q"] == pytest.approx(1.25, rel=1e-12)
    assert stats.power_law_fit(d, np.array([1.0, -1.0, 2.0, 3.0]), np.ones(4)) is None


def test_interval_verdict_never_lets_noise_help():
    assert stats.interval_verdict(0.001, 0.009, 0.01) == "below"
    assert stats.interval_verdict(0.011, 0.02, 0.01, "slow", "fast") == "fast"
    # the same centre with a wider interval (more noise) is unresolved, never "below"
    assert stats.interval_verdict(-0.01, 0.019, 0.01) == "unresolved"


def test_the_bounds_the_experiment_claims_decide_by():
    """increasing_by_bound, ci_within and mean_ci (hand-computed references)."""
    import math

    from proofs_check.witnesses import stats as ws

    # 1.0 -> 2.0 with SEs 0.3, 0.4: hypot = 0.5, 1.96 x 0.5 = 0.98 < 1.0 (established);
    # with SEs 0.4, 0.4 the bound 1.96 x 0.566 = 1.109 > 1.0 (not)
    assert ws.increasing_by_bound([(1.0, 0.3), (2.0, 0.4)])
    assert not ws.increasing_by_bound([(1.0, 0.4), (2.0, 0.4)])
    assert ws.ci_within(0.5, 1.0, 2.5) and not ws.ci_within(-0.6, 1.0, 2.5)  # |m| + 1.96 se
    m, lo, hi = ws.mean_ci(np.array([1.0, 2.0, 3.0, 4.0]))
    se = math.sqrt(5 / 3) / 2  # sample SD sqrt(5/3), n = 4
    assert m == 2.5 and lo == 2.5 - 1.96 * se and hi == 2.5 + 1.96 * se
    assert ws.median_abs_angle_error(np.radians([-10.0, 12.0, 9.0]), 10.0) == pytest.approx(1.0)


def test_chi_constant_is_sqrt3_and_bounds_the_chi_quantiles():
    assert stats.CHI_CONSTANT == math.sqrt(3.0)
    assert stats.chi_constant_sup() <= stats.CHI_CONSTANT


def test_bound_verdicts_and_ratios():
    # the same verdicts as bound_verdict one by one, resolution 10% of each bound
    means, ses, bounds = [1.0, 2.0, 0.5], [0.01, 0.01, 0.2], [2.0, 1.0, 0.6]
    assert (
        stats.bound_verdicts(means, ses, bounds, 0.1)
        == [stats.bound_verdict(m, e, b, 0.1 * b) for m, e, b in zip(means, ses, bounds)]
        == ["below", "above", "unresolved"]
    )
    assert stats.smallest_ratio(np.array([2.0, 3.0]), np.array([1.0, 0.0])) == 2.0
    assert stats.max_abs_difference(np.array([1.0, 2.0]), np.array([1.5, 1.0])) == 1.0
    assert stats.max_abs_difference([1.0, 2.0], [1.0, 2.5]) == 0.5
    assert stats.max_abs_difference([1.0], [1.0, 2.0]) == math.inf
    assert stats.max_over_min([2.0, 8.0, 4.0]) == 4.0


def test_implied_c_loc_and_clopper_pearson_lower():
    # P = exp(d - n0/C) exactly on the grid gives back C
    C, d = 40.0, 2
    x = [50.0, 100.0, 150.0]
    P = [math.exp(d - a / C) for a in x]
    assert stats.implied_c_loc(x, P, d) == pytest.approx(C, rel=1e-12)
    assert stats.clopper_pearson_lower(0, 100) == 0.0
    lo, hi = stats.clopper_pearson_lower(5, 1000), stats.clopper_pearson_upper(5, 1000)
    assert 0 < lo < 0.005 < hi
    # the lower bound is the 0.001 quantile of Beta(k, n - k + 1)
    assert lo == float(beta.ppf(0.001, 5, 996))
