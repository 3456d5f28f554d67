"""Tests of proofs_check.witnesses.fields: the own one-arm integrals, the boundary matrix and
Richardson differences."""

import math

import numpy as np
import pytest
from scipy.integrate import quad

from nbl_sim import population as pop
from nbl_theory.paper import paper_link
from nbl_theory.stability import stability
from proofs_check.witnesses import fields


@pytest.mark.parametrize("d", [2, 3, 5])
def test_own_field_matches_library_field(d):
    link = paper_link("tt-stable")
    rng = np.random.default_rng(d)
    beta, _, _ = pop.arm_vectors("0.6", d, v_star=rng.standard_normal(d),
                                 theta_dir=rng.standard_normal(d))
    v = rng.standard_normal((40, d))
    v /= np.linalg.norm(v, axis=1)[:, None]
    v = v[np.all(np.abs(v @ beta.T) < 0.99, axis=1)]    # the uniform panels need v off +-beta_a
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
    q2 = quad(lambda t: float(g(np.array([nt * t]))[0]) * t * t * dens(t), -14, 14,
              epsabs=1e-14)[0]
    assert c0 == pytest.approx(q0, abs=1e-12) and c2 == pytest.approx(q2, abs=1e-12)
    th = theta / nt
    assert np.allclose(M @ vs, 0, atol=1e-15)          # lives on the tangent space at v*
    assert float(th @ M @ th) == pytest.approx(c2, abs=1e-15)


def test_richardson_derivative():
    d = fields.richardson(lambda e: np.exp(2 * e)[:, None] * np.array([1.0, -3.0]))
    # truncation O(h^4) = 1e-12 at h = 1e-3, rounding ~1e-16/h
    np.testing.assert_allclose(d, [2.0, -6.0], atol=1e-11)
