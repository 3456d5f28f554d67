"""Tests of proofs_check.witnesses.geometry: exact rational constructions, random pairs, paths."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs_check.witnesses import geometry as geo


def test_stereographic_unit_is_exactly_unit_and_rational():
    for p in (
        [Fraction(3, 7)],
        [Fraction(-5, 2), Fraction(1, 9)],
        [0, 0, 0],
        [Fraction(2, 3), Fraction(-5, 7), Fraction(1, 9)],
    ):
        v = geo.stereographic_unit(p)
        assert len(v) == len(p) + 1
        assert sum(x * x for x in v) == 1
        assert all(isinstance(x, Fraction) for x in v)


def test_rational_cases_and_pairs_are_exact():
    rng = np.random.default_rng(0)
    dims = [len(v) for v, w in geo.rational_cases(rng, 6)]
    assert dims == [2, 3, 5, 2, 3, 5]
    for vs, v in geo.rational_sphere_pairs(rng, 9):
        assert sum(x * x for x in vs) == 1 and sum(x * x for x in v) == 1
        assert len(vs) == len(v)


def test_float_pairs_cover_small_and_large_distances():
    vs, v = geo.float_pairs(np.random.default_rng(1), 5, 400)
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-15)
    assert abs(np.linalg.norm(vs) - 1) < 1e-15
    dist = np.linalg.norm(v - vs, axis=1)
    assert dist.min() < 1e-5 and dist.max() > 1.9
    assert (v @ vs < 0).any() and (v @ vs > 0).any()


def test_direction_gap_tight_case_and_zero():
    y = np.array([[3.0, -4.0, 12.0]])
    for eps in (1e-1, 1e-6):
        lhs, rhs = geo.direction_gap(-eps * y, y)  # lhs = 2, rhs = 2(1 + eps)
        assert lhs[0] == pytest.approx(2, rel=1e-15)
        assert rhs[0] == pytest.approx(2 * (1 + eps), rel=1e-14)
    lhs, rhs = geo.direction_gap(2 * y, y)
    assert lhs[0] == pytest.approx(0, abs=1e-15)
    assert rhs[0] == pytest.approx(2, rel=1e-15)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3), min_size=6, max_size=6))
def test_direction_gap_inequality(vals):
    x, y = np.array(vals[:3]), np.array(vals[3:])
    if np.linalg.norm(x) < 1e-6 or np.linalg.norm(y) < 1e-6:
        return
    lhs, rhs = geo.direction_gap(x, y)
    assert lhs[0] <= rhs[0] * (1 + 1e-12)


def test_angle_distance():
    assert geo.angle_distance(0.1, 2 * math.pi - 0.1) == pytest.approx(0.2, abs=1e-15)
    assert geo.angle_distance(math.pi / 2, -math.pi / 2) == pytest.approx(math.pi, abs=1e-15)


def test_cayley_rotation_is_orthogonal():
    with mpmath.workdps(40):
        q = geo.cayley_rotation(4)
        err = mpmath.mnorm(q.T * q - mpmath.eye(4), 1)
        assert err < mpmath.mpf(10) ** -35
        assert abs(mpmath.det(q) - 1) < mpmath.mpf(10) ** -35  # a rotation (Cayley)


@pytest.mark.parametrize("d", [2, 3])
def test_case_geometry(d):
    beta, vs, theta = geo.case_geometry(4, "0.6", d)
    np.testing.assert_allclose(np.linalg.norm(beta, axis=1), 1.0, atol=1e-15)
    np.testing.assert_allclose(beta[1] - beta[0], 0.6 * vs, atol=1e-15)
    assert abs(vs @ theta) < 1e-15
    assert np.linalg.norm(theta) == pytest.approx(math.sqrt(1 - 0.09), rel=1e-15)
    for _, u in geo.tangent_directions(vs, theta, d):
        assert abs(u @ vs) < 1e-15


def test_paths_start_at_v_star_with_velocity_u():
    vs = np.array([0.0, 0.6, 0.8])
    u = np.array([1.0, 0.4, -0.3])
    u -= (u @ vs) * vs
    eps = np.array([0.0, 1e-6, -1e-6, 0.3])
    for path in (geo.sphere_path, geo.normalized_path):
        v = path(vs, u, eps)
        np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-15)
        np.testing.assert_allclose(v[0], vs, atol=1e-15)
        np.testing.assert_allclose((v[1] - v[2]) / 2e-6, u, atol=1e-8)  # central difference


@pytest.mark.parametrize("d", [2, 3, 6])
def test_tangent_basis_is_orthonormal_and_tangent(d):
    vs = np.random.default_rng(d).standard_normal(d)
    vs /= np.linalg.norm(vs)
    b = geo.tangent_basis(vs)
    assert b.shape == (d, d - 1)
    assert np.allclose(b.T @ b, np.eye(d - 1), atol=1e-15)
    assert np.abs(vs @ b).max() < 1e-15


def test_direction_gap_on_random_pairs_and_near_tight_cases():
    pairs = list(geo.perturbation_pairs(4242, (2, 5), 2000))
    again = list(geo.perturbation_pairs(4242, (2, 5), 2000))
    assert [d for d, _, _ in pairs] == [2, 5]
    for (_, x, y), (_, x2, y2) in zip(pairs, again):
        assert x.shape == y.shape and np.array_equal(x, x2) and np.array_equal(y, y2)
        bad, worst = geo.direction_gap_violations(x, y)
        assert bad == 0 and 0.99 < worst <= 1 + 1e-12  # the tight case x = -eps y
        assert geo.direction_gap_violations(x, y, factor=1.9)[0] > 0
    # x = -eps y: lhs = 2 and rhs = 2(1 + eps) exactly in real arithmetic
    lhs, rhs = geo.direction_gap_mp("1e-30")
    with mpmath.workdps(50):
        assert abs(lhs - 2) < 1e-45 and abs(rhs - 2 * (1 + mpmath.mpf("1e-30"))) < 1e-45
        assert lhs < rhs
    lhs, rhs = geo.direction_gap_mp("1e-3", factor=1.9)
    assert lhs > rhs


def test_normalization_residuals_and_counterexample():
    nr = geo.normalization_residuals(7, (1, 3), 3000)
    assert nr["cases"] == 6000
    assert nr["ineq"] >= -1e-14 and nr["identity"] <= 1e-14 and nr["factor"] >= -1e-14
    # the mutants: the factor without /r, radii below 1
    assert geo.normalization_residuals(7, (1, 3), 3000, divide_by_r=False)["identity"] > 1e-3
    assert geo.normalization_residuals(7, (1, 3), 3000, r_min=0.5)["ineq"] < -1e-3
    # x = (1/2, 1/2), u = e1: ||x/r - u||^2 = 2 - sqrt 2, ||x - u||^2 = 1/2
    assert geo.normalization_counterexample() == pytest.approx(1.5 - math.sqrt(2), rel=1e-14)
