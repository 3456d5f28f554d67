"""Tests of proofs_check.witnesses.fields: the own one-arm integrals, the boundary matrix and
Richardson differences."""

import math

import numpy as np
import pytest
from scipy.integrate import quad

from nbl_sim.population import fields as pop
from nbl_theory.paper import paper_link
from nbl_theory.stability import stability
from proofs_check.witnesses import fields


@pytest.mark.parametrize("d", [2, 3, 5])
def test_own_field_matches_library_field(d):
    link = paper_link("tt-stable")
    rng = np.random.default_rng(d)
    beta, _, _ = pop.arm_vectors(
        "0.6", d, v_star=rng.standard_normal(d), theta_dir=rng.standard_normal(d)
    )
    v = rng.standard_normal((40, d))
    v /= np.linalg.norm(v, axis=1)[:, None]
    v = v[np.all(np.abs(v @ beta.T) < 0.99, axis=1)]  # the uniform panels need v off +-beta_a
    assert len(v) >= 20
    fp, fm = fields.own_field(link, beta, v)
    # two independent ~1e-15 quadratures of the same field
    assert np.abs((fp - fm) - pop.population_field(link, beta, v)).max() < 1e-13


def test_arm_field_halves_add_to_stein_mean():
    # E[g(b^T X) X 1{v^T X >= 0}] + E[g(b^T X) X 1{v^T X < 0}] = E[g'(s)] b (first-order Stein)
    link = paper_link("we-0.60")
    g = fields.g_nodes(link)
    rng = np.random.default_rng(1)
    b = rng.standard_normal(3)
    b /= np.linalg.norm(b)
    v = rng.standard_normal((10, 3))
    v /= np.linalg.norm(v, axis=1)[:, None]
    total = fields.arm_field(g, b, v, +1) + fields.arm_field(g, b, v, -1)
    mu_g = float(stability(link, "0.2").values["mu_g"])
    assert np.abs(total - mu_g * b).max() < 1e-14


def test_arm_field_refuses_directions_next_to_beta():
    g = fields.g_nodes(paper_link("tt-stable"))
    b = np.array([1.0, 0.0])
    with pytest.raises(ValueError, match="too close"):
        fields.arm_field(g, b, np.array([[1.0, 0.01]]) / math.hypot(1.0, 0.01), +1)


def test_boundary_matrix_against_adaptive_quadrature():
    link = paper_link("tt-near-critical")
    beta, vs, theta = pop.arm_vectors("1", 3)
    M, c0, c2 = fields.boundary_matrix(link, theta, vs)
    nt = float(np.linalg.norm(theta))
    g = link.g_numpy
    dens = lambda t: math.exp(-t * t / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    q0 = quad(lambda t: float(g(np.array([nt * t]))[0]) * dens(t), -14, 14, epsabs=1e-14)[0]
    q2 = quad(lambda t: float(g(np.array([nt * t]))[0]) * t * t * dens(t), -14, 14, epsabs=1e-14)[0]
    assert c0 == pytest.approx(q0, abs=1e-12) and c2 == pytest.approx(q2, abs=1e-12)
    th = theta / nt
    assert np.allclose(M @ vs, 0, atol=1e-15)  # lives on the tangent space at v*
    assert float(th @ M @ th) == pytest.approx(c2, abs=1e-15)


def test_richardson_derivative():
    d = fields.richardson(lambda e: np.exp(2 * e)[:, None] * np.array([1.0, -3.0]))
    # truncation O(h^4) = 1e-12 at h = 1e-3, rounding ~1e-16/h
    np.testing.assert_allclose(d, [2.0, -6.0], atol=1e-11)


def test_own_tangent_field_is_tangent_and_matches_the_library():
    link = paper_link("we-0.80")
    rng = np.random.default_rng(3)
    beta, _, _ = pop.arm_vectors(
        "0.2", 3, v_star=rng.standard_normal(3), theta_dir=rng.standard_normal(3)
    )
    v = rng.standard_normal((30, 3))
    v /= np.linalg.norm(v, axis=1)[:, None]
    v = v[np.all(np.abs(v @ beta.T) < 0.99, axis=1)]
    h = fields.own_tangent_field(link, beta, v)
    assert np.abs((h * v).sum(1)).max() < 1e-15  # tangent: rounding only
    assert np.abs(h - pop.tangent_field(link, beta, v)).max() < 1e-13
    F = fields.own_tangent_field(link, beta, v, project=False)
    assert np.abs(F - pop.population_field(link, beta, v)).max() < 1e-13


def test_own_potential_matches_the_library_and_is_homogeneous():
    link = paper_link("tt-unstable")
    beta, _, _ = pop.arm_vectors("1", 3)
    rng = np.random.default_rng(5)
    v = rng.standard_normal((12, 3))
    v = v[np.all(np.abs((v / np.linalg.norm(v, axis=1)[:, None]) @ beta.T) < 0.99, axis=1)]
    J = fields.own_potential(link, beta, v)
    # two ~1e-15 quadratures of J (v not unit: J is 1-homogeneous, error ~1e-15 ||v||)
    assert np.abs(J - pop.potential_J(link, beta, v)).max() < 1e-13
    np.testing.assert_allclose(fields.own_potential(link, beta, 2.5 * v), 2.5 * J, rtol=1e-13)
    # without the linear term J changes by v^T E[m_-(X) X] = mu_g v^T beta_-
    mu_g = float(stability(link, "1").values["mu_g"])
    gap = fields.own_potential(link, beta, v, linear_term=False) - J
    np.testing.assert_allclose(gap, mu_g * (v @ beta[0]), rtol=1e-12, atol=1e-15)


def test_tangent_jacobian_is_symmetric_and_has_the_library_rates():
    """d = 4: the FD Jacobian of the own field on the tangent space (Richardson, ~1e-12) has the
    rates of the theory core (Delta mu* twice, the theta-rate once) to 1e-9."""
    link = paper_link("tt-stable")
    rng = np.random.default_rng(11)
    beta, vs, _ = pop.arm_vectors(
        "0.2", 4, v_star=rng.standard_normal(4), theta_dir=rng.standard_normal(4)
    )
    q, _ = np.linalg.qr(np.column_stack([vs, np.eye(4)]))
    basis = q[:, 1:4]
    cols = fields.tangent_jacobian(link, beta, vs, basis)
    assert np.abs(vs @ cols).max() < 1e-12  # Dh[u] is tangent at v*
    t = basis.T @ cols
    assert np.abs(t - t.T).max() < 1e-11
    rates = stability(link, "0.2").jacobian_rates
    want = np.sort([float(rates["orthogonal"])] * 2 + [float(rates["theta"])])
    np.testing.assert_allclose(np.sort(-np.linalg.eigvalsh(0.5 * (t + t.T))), want, atol=1e-9)
