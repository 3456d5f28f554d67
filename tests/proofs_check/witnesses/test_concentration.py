"""proofs_check.witnesses.concentration: the thresholds and tails of
app:stopped-stochastic-control and the implied constant of eq:init-bound-localization, against
values worked out by hand from the lemmas' formulas."""

import math

import numpy as np
import pytest

from proofs_check.witnesses import concentration as wc


def test_control_thresholds_by_hand():
    # r0 = 0.5, delta = 0.3: log(3/delta) = log 10; C_Q = 12: ceil(48 (2 + log 10)) = 207, split
    # n0 = 100; C_M = 128: ceil(512 log 10) = 1179; C_quad = 128: ceil(512 (2 + log 10)) = 2203
    assert wc.control_thresholds("Q threshold", 0.5) == (100, 107)
    assert wc.control_thresholds("M threshold", 0.5) == (100, 1079)
    assert wc.control_thresholds("good events", 0.5) == (2203, 0)
    # a small C_Q halves the total: ceil(0.3 * 4 * 4.3026) = 6 -> n0 = 3, t0 = 3
    assert wc.control_thresholds("Q", 0.5, 0.3) == (3, 3)


def test_paper_thresholds_by_hand():
    need_q, need_m = wc.paper_thresholds(10.0)
    assert need_q == pytest.approx(300 * (2 + math.log(3)), rel=1e-15)  # 929.6
    assert need_m == pytest.approx(3200 * math.log(3), rel=1e-15)  # 3515.6


def test_the_constant_algebra_holds():
    assert wc.control_algebra() == (True, True)


def test_tails_compare_frequency_with_the_lemmas_bounds():
    S = np.array([0.0, 1.0, 2.0, 3.0])
    # one weight, d = 1, x = 1: threshold 2 sqrt(1) + 2 = 4 -> no sample reaches it
    assert wc.chisq_tail(S, np.array([1.0]), 1, 1.0) == (0.0, math.exp(-1.0))
    # sqrt_coef = 0.5: threshold 0.5 + 2 = 2.5 -> one sample in four
    assert wc.chisq_tail(S, np.array([1.0]), 1, 1.0, 0.5) == (0.25, math.exp(-1.0))
    # V_T = 4, c = 1: x = 2, bound exp(-4/8)
    f, b = wc.maximal_tail(S, 4.0, 1.0)
    assert (f, b) == (0.5, pytest.approx(math.exp(-0.5), rel=1e-15))


def test_weighted_chi_q_chain_is_ordered():
    eta2 = 1.0 / (10.0 + np.arange(1, 301)) ** 2
    for x in (0.5, 4.0):
        ch = wc.weighted_chi_q_chain(eta2, np.zeros(10), 2, 10.0, x)
        assert ch["full"] <= ch["mid"] <= ch["step"] <= ch["final"] == 3 * (2 + x) / 10
        assert ch["freq"] == 0.0 and ch["bound"] == math.exp(-x)


def test_implied_c_init_by_hand():
    grid = np.array([10, 20, 40])
    P = np.array([0.5, 0.05, 0.001])
    # p = 0.1: n0* = 20; C = 20 * 1.5^2 * 0.2^2 * 0.5^2 / (1 * (2 + log 10))
    s = wc.InitSetting(delta=1.5, mu_g=0.2, B=1.0, d=2, r0=0.5)
    n0, c = wc.implied_c_init(grid, P, 0.1, s)
    assert n0 == 20 and c == pytest.approx(20 * 2.25 * 0.04 * 0.25 / (2 + math.log(10)), rel=1e-14)
    assert wc.implied_c_init(grid, P, 1e-4, s) is None
    # chi^2_1 0.9-quantile 2.705543454 (tables) over 2 + log 10
    assert wc.chi2_init_prediction(0.1, 2) == pytest.approx(
        2.705543454 / (2 + math.log(10)), rel=1e-9
    )
    assert wc.max_over_min([2.0, 3.0, 6.0]) == 3.0
    assert list(wc.init_grid(2600)[:3]) == [10, 11, 12] and wc.init_grid(2600)[-1] == 2600


def test_implied_c_loc_by_hand():
    # P <= exp(d - n0/C) iff C >= n0/(d - log P); the largest over the points with P > 0
    got = wc.implied_c_loc([10.0, 20.0, 40.0], [0.5, 0.1, 0.0], 2)
    assert got == pytest.approx(max(10 / (2 + math.log(2)), 20 / (2 + math.log(10))), rel=1e-15)
