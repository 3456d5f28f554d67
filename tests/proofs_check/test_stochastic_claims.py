"""Unit tests of the helpers behind proofs_check.claims.stochastic (the claims themselves run in
test_claims.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate

from nbl_sim import population as pop
from proofs_check.claims import stochastic as st


@pytest.mark.parametrize("q", [0, 1, 2, 3])
@pytest.mark.parametrize("mu,s", [(0.0, 1.0), (0.7, 0.3), (-2.0, 1.5), (1.2, 0.0)])
def test_abs_moment_closed_forms(q, mu, s):
    if s == 0:
        want = abs(mu) ** q if q else 1.0
    else:
        want = integrate.quad(lambda z: abs(mu + s * z) ** q * math.exp(-z * z / 2)
                              / math.sqrt(2 * math.pi), -np.inf, np.inf, points=None)[0]
    got = float(st._abs_moment(np.array(mu), s, q))
    assert got == pytest.approx(want, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("alpha", [1e-3, 0.4, 2.0, math.pi, -0.7])
def test_disagreement_probability_and_wedges(alpha):
    p = st._polar_expect(lambda x1, x2: np.ones_like(x1), alpha)
    assert p == pytest.approx(abs(alpha) / math.pi, abs=1e-13)
    # Monte Carlo agrees with the wedge description
    X = np.random.default_rng(0).standard_normal((200_000, 2))
    v = np.array([math.cos(alpha), math.sin(alpha)])
    f = np.mean(np.sign(X @ v) != np.sign(X[:, 0]))
    assert abs(f - abs(alpha) / math.pi) < 5 * math.sqrt(0.25 / X.shape[0])


def test_lambda0_is_a_lower_bound_of_the_ratio_and_tends_to_minus_dH0():
    name, delta = "logistic4", "1.5"
    lam = st._lambda0_2d(name, delta, 0.5)
    a0 = 2 * math.asin(0.25)
    al = np.linspace(-a0, a0, 301)
    al = al[al != 0]
    assert np.all(st._ratio_2d(name, delta, al) >= lam - 1e-12)
    small = st._lambda0_2d(name, delta, 1e-3)
    assert small == pytest.approx(-pop.H_alpha_derivative(st._link(name), delta, 0.0), rel=1e-5)


def test_h_spline_matches_quadrature():
    assert st._spline_error("logistic4", "1.5") < 1e-12


@pytest.mark.parametrize("start", ["init", "angle"])
def test_numpy_rerun_matches_the_compiled_kernel(start):
    env = st._env("logistic4", "1.5")
    if start == "init":
        p = st._run_paths(env, 3, 16, 300, n0=20, gamma=5.0, t0=20.0)
    else:
        p = st._run_paths(env, 3, 16, 300, v0=env.initial_direction(15.0), gamma=5.0, t0=20.0)
    assert p.match_nbl_run <= 1e-12
    # the per-step quantities are consistent with each other
    rhs = p.e_prev + 2 * p.eta * p.inner + p.eta ** 2 * p.gsq
    assert np.all(rhs - p.e >= -1e-12)
    np.testing.assert_allclose(rhs - p.e, p.slack_formula, atol=1e-12)
    np.testing.assert_allclose(p.e_prev[:, 1:], p.e[:, :-1])


def test_exit_index():
    e0 = np.array([0.3, 0.1, 0.1])
    e = np.array([[0.1, 0.1], [0.1, 0.3], [0.1, 0.2]])
    tau = st._exit_index(e0, e, 0.5)
    assert tau[0] == 0 and tau[1] == 2 and tau[2] > 10 ** 9


@pytest.mark.parametrize("law,p", [("gaussian", 0.5), ("half-normal", 0.5), ("extremal", 0.5),
                                   ("extremal-symmetric", 0.5), ("two-point", 1e-2)])
def test_test_laws_are_probability_laws_with_the_tail_hypothesis(law, p):
    x, lw = st._test_law(law, p)
    w = np.exp(lw)
    assert w.sum() == pytest.approx(1.0, abs=1e-12)
    y = np.linspace(0.01, 8, 200)
    assert np.all(st._law_tail(law, p, y) <= 2 * np.exp(-y * y / 2) * (1 + 1e-14))


def test_gaussian_mgf_ratio_is_one_half():
    x, lw = st._test_law("gaussian")
    for lam in (0.1, 1.0, 5.0, -3.0):
        assert st._logmgf_ratio(x, lw, lam) == pytest.approx(0.5, abs=1e-10)


def test_disagreement_bound_constant_q0():
    # q = 0: weight 1 + 1 + 1 = 3, c_0 = 1: 2 * 3 E[R]/(2 pi), E[R] = sqrt(pi/2)
    assert st._disagreement_bound_const(0, 1.0) == pytest.approx(
        6 * math.sqrt(math.pi / 2) / (2 * math.pi))


def test_regret_given_v_against_monte_carlo():
    link = st._link("logistic")
    rng = np.random.default_rng(1)
    X = rng.standard_normal((400_000, 2))
    dl, a = 1.0, 0.5
    tau = math.sqrt(1 - dl * dl / 4)
    gap = np.abs(link.g_numpy(tau * X[:, 1] + dl / 2 * X[:, 0])
                 - link.g_numpy(tau * X[:, 1] - dl / 2 * X[:, 0]))
    v = np.array([math.cos(a), math.sin(a)])
    r = np.where(np.sign(X @ v) != np.sign(X[:, 0]), gap, 0.0)
    se = r.std(ddof=1) / math.sqrt(r.size)
    assert abs(r.mean() - st._regret_given_v(link, dl, a)) < 5 * se
