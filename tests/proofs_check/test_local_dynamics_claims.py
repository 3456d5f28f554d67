"""Unit tests of the helpers of proofs_check.claims.local_dynamics (the claims themselves run in
tests/proofs_check/test_claims.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.integrate import quad

from nbl_sim import population as pop
from nbl_theory.families import make_family
from nbl_theory.stability import stability
from proofs_check.claims import local_dynamics as ld

LOGISTIC = make_family("logistic")


def test_stereographic_unit_is_exactly_unit():
    for p in ([Fraction(3, 7)], [Fraction(-5, 2), Fraction(1, 9)], [0, 0, 0]):
        v = ld.stereographic_unit(p)
        assert len(v) == len(p) + 1
        assert sum(x * x for x in v) == 1


@pytest.mark.parametrize("d", [2, 3, 5])
def test_own_field_matches_library_field(d):
    i = 0  # tt-stable
    rng = np.random.default_rng(d)
    beta, _, _ = pop.arm_vectors("0.6", d, v_star=rng.standard_normal(d),
                                 theta_dir=rng.standard_normal(d))
    v = rng.standard_normal((40, d))
    v /= np.linalg.norm(v, axis=1)[:, None]
    v = v[np.all(np.abs(v @ beta.T) < 0.99, axis=1)]    # the uniform panels need v off +-beta_a
    assert len(v) >= 20
    fp, fm = ld.own_field(i, beta, v)
    assert np.abs((fp - fm) - pop.population_field(ld._link(i), beta, v)).max() < 1e-13


def test_arm_field_halves_add_to_stein_mean():
    # E[g(b^T X) X 1{v^T X >= 0}] + E[g(b^T X) X 1{v^T X < 0}] = E[g'(s)] b (first-order Stein)
    i = 3  # we-0.60
    g = ld._g_nodes(i)
    rng = np.random.default_rng(1)
    b = rng.standard_normal(3)
    b /= np.linalg.norm(b)
    v = rng.standard_normal((10, 3))
    v /= np.linalg.norm(v, axis=1)[:, None]
    total = ld.arm_field(g, b, v, +1) + ld.arm_field(g, b, v, -1)
    mu_g = float(stability(ld._link(i), "0.2").values["mu_g"])
    assert np.abs(total - mu_g * b).max() < 1e-14


def test_arm_field_refuses_directions_next_to_beta():
    g = ld._g_nodes(0)
    b = np.array([1.0, 0.0])
    with pytest.raises(ValueError):
        ld.arm_field(g, b, np.array([[1.0, 0.01]]) / math.hypot(1.0, 0.01), +1)


def test_boundary_matrix_against_adaptive_quadrature():
    i = 1  # tt-near-critical
    beta, vs, theta = pop.arm_vectors("1", 3)
    M, c0, c2 = ld.boundary_matrix(i, theta, vs)
    nt = float(np.linalg.norm(theta))
    g = ld._link(i).g_numpy
    dens = lambda t: math.exp(-t * t / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    q0 = quad(lambda t: float(g(np.array([nt * t]))[0]) * dens(t), -14, 14, epsabs=1e-14)[0]
    q2 = quad(lambda t: float(g(np.array([nt * t]))[0]) * t * t * dens(t), -14, 14,
              epsabs=1e-14)[0]
    assert c0 == pytest.approx(q0, abs=1e-12) and c2 == pytest.approx(q2, abs=1e-12)
    th = theta / nt
    assert np.allclose(M @ vs, 0, atol=1e-15)          # lives on the tangent space at v*
    assert float(th @ M @ th) == pytest.approx(c2, abs=1e-15)


def test_richardson_derivative():
    d = ld.richardson(lambda e: np.exp(2 * e)[:, None] * np.array([1.0, -3.0]))
    assert np.allclose(d, [2.0, -6.0], atol=1e-11)


def test_local_radius_logistic_is_ninety_degrees_by_symmetry():
    lam = float(stability(LOGISTIC, "1").values["lambda_star"])
    ap, am, small = ld.local_radius(LOGISTIC, "1", lam)
    assert math.degrees(ap) == pytest.approx(90.0, abs=1e-6)
    assert math.degrees(am) == pytest.approx(90.0, abs=1e-6)
    assert max(small) < 0


def test_local_radius_is_zero_for_an_unstable_link():
    link = make_family("two-transition", mu2="1.244122")
    lam = float(stability(link, "0.2").values["lambda_star"])
    assert lam < 0
    ap, am, small = ld.local_radius(link, "0.2", lam)
    assert ap == am == 0.0 and min(small) > 0


def test_literal_step_breaks_ties_toward_plus_one():
    v = np.array([1.0, 0.0])
    a, v1, g = ld._literal_step(v, np.array([0.0, 2.0]), np.array([5.0, 1.0]), 0.5)
    assert a == 1
    assert np.allclose(g, [0.0, 2.0]) and np.allclose(v1, np.array([1.0, 1.0]) / math.sqrt(2))
