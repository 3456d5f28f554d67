"""Tests of the explicit C_sg of lem:tail_to_mgf's proof chain
(proofs_check.witnesses.subgaussian.chain_log_mgf_ratio, chain_constant)."""

import math

import pytest

from proofs_check.witnesses import subgaussian as sg


def test_chain_ratio_small_x_limit():
    # the series' first term is the p = 2 term: (c x)^2 * 2 * Gamma(1)/2! = (c x)^2 with
    # c = centering * sqrt(2); so log(1 + ...)/x^2 -> c^2 = 8 for centering 2 (1e-6: O(x) terms)
    assert sg.chain_log_mgf_ratio(1e-5) == pytest.approx(8.0, rel=1e-4)
    assert sg.chain_log_mgf_ratio(1e-5, centering=1.0) == pytest.approx(2.0, rel=1e-4)


def test_chain_ratio_against_direct_summation():
    # plain float summation of the series at a moderate x (terms up to p = 400 suffice there)
    x = 0.7
    c = 2 * math.sqrt(2) * x
    s = sum(c**p * p * math.gamma(p / 2) / math.factorial(p) for p in range(2, 170))
    assert sg.chain_log_mgf_ratio(x) == pytest.approx(math.log1p(s) / x**2, rel=1e-12)


def test_default_truncation_is_converged():
    for x in (0.01, 1.0, 10.0, 30.0):
        assert sg.chain_log_mgf_ratio(x) == pytest.approx(
            sg.chain_log_mgf_ratio(x, p_max=400_000), rel=1e-14
        )


def test_chain_constant_is_the_sup_and_exceeds_the_gaussian_value():
    sup, at = sg.chain_constant()
    assert sup >= max(sg.chain_log_mgf_ratio(x) for x in (1e-3, 0.05, 0.1, 0.2, 0.5, 2.0))
    assert sg.chain_log_mgf_ratio(at) == pytest.approx(sup, rel=1e-12)
    # every law satisfying the hypothesis needs C_sg >= 1/2 (Gaussian) and the symmetric
    # extremal law needs 1 + log 2: the chain's constant must be at least that
    assert sup > 1 + math.log(2)
