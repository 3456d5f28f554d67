"""Unit tests of the helpers behind proofs_check.claims.stein (the claims themselves run in
test_claims.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi

from nbl_sim.policies.nbl import nbl_run
from proofs_check.claims import stein


def test_gh_tensor_is_exact_on_polynomials():
    X, W = stein.gh_tensor(8, 3)
    assert W.sum() == pytest.approx(1, abs=1e-14)
    assert (W * X[:, 0] ** 2 * X[:, 1] ** 4).sum() == pytest.approx(3, abs=1e-12)
    assert (W * X[:, 0] * X[:, 2] ** 3).sum() == pytest.approx(0, abs=1e-13)


def test_direction_gap_tight_case_and_zero():
    y = np.array([[3.0, -4.0, 12.0]])
    for eps in (1e-1, 1e-6):
        lhs, rhs = stein.direction_gap(-eps * y, y)
        assert lhs[0] == pytest.approx(2)
        assert rhs[0] == pytest.approx(2 * (1 + eps))
    lhs, rhs = stein.direction_gap(2 * y, y)
    assert lhs[0] == pytest.approx(0, abs=1e-15)
    assert rhs[0] == pytest.approx(2)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3), min_size=6, max_size=6))
def test_direction_gap_inequality(vals):
    x, y = np.array(vals[:3]), np.array(vals[3:])
    if np.linalg.norm(x) < 1e-6 or np.linalg.norm(y) < 1e-6:
        return
    lhs, rhs = stein.direction_gap(x, y)
    assert lhs[0] <= rhs[0] * (1 + 1e-12)


def test_quantile_ci_brackets_the_quantile():
    x = np.random.default_rng(0).random(10_000)
    q, lo, hi = stein.quantile_ci(x, 0.95)
    assert lo <= q <= hi
    assert lo <= 0.95 <= hi
    assert q == pytest.approx(0.95, abs=0.01)


def test_stereographic_gives_exact_unit_vectors():
    v = stein.stereographic([Fraction(2, 3), Fraction(-5, 7), Fraction(1, 9)])
    assert sum(a * a for a in v) == 1
    assert all(isinstance(a, Fraction) for a in v)


def test_mixture_link_is_increasing_and_module_agnostic():
    p = (0.1, ((0.5, 2.0, -0.3), (0.2, 0.7, 1.0)))
    z = np.linspace(-8, 8, 2001)
    g = stein.mixture_link(p, z)
    assert np.all(np.diff(g) > 0)
    with mpmath.workdps(30):
        assert float(stein.mixture_link(p, mpmath.mpf("0.25"), mpmath)) == pytest.approx(
            float(stein.mixture_link(p, np.float64(0.25))), abs=1e-15)


def test_gaussian_limit_quantile_matches_chi():
    for k in (1, 4):
        q = stein.gaussian_limit_quantile(np.eye(k), 0.95)
        assert q == pytest.approx(chi.ppf(0.95, k), rel=0.01)
    P = np.diag([0.0, 1.0, 1.0])
    assert stein.gaussian_limit_quantile(np.eye(3), 0.9, P) == pytest.approx(chi.ppf(0.9, 2),
                                                                              rel=0.01)


def test_chi_constant_is_below_sqrt3():
    assert stein.chi_constant_sup() <= math.sqrt(3)


def test_f_moments_logistic_bernoulli():
    Ef, Ef2 = stein._f_moments(stein._links()["logistic"], "bernoulli", 0.5)
    assert Ef == pytest.approx(0.5, abs=1e-14)
    assert Ef2 == pytest.approx(0.0, abs=1e-14)


def test_init_samples_match_the_nbl_initialization():
    """v_{n0} = W_bar/||W_bar|| built in the claims equals the toolkit's NBL start (n = n0)."""
    s = stein._init_setting("logistic", "1", 3, (40,), 5, 77)
    env = s["env"]
    real = env.draw(77, range(5), 40, 40)
    tr = nbl_run(real.X, real.Y, real.coins, env.v_star)
    w = s["wbar"][40]
    np.testing.assert_allclose(tr.v_final, w / np.linalg.norm(w, axis=1, keepdims=True),
                               atol=1e-12)


def test_init_covariance_from_stein_matches_monte_carlo():
    s = stein._init_setting("logistic", "1.8", 3, (1,), 40_000, 5)
    w = s["wbar"][1]
    cov = np.cov(w.T)
    assert np.abs(cov - s["sigma"]).max() < 0.03     # ~5 SE of a 40,000-sample covariance
    assert np.abs(w.mean(0) - s["y"]).max() < 0.02
