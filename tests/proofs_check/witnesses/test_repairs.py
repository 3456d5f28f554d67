"""The repaired-field witness (proofs_check.witnesses.repairs) from its definition."""

from __future__ import annotations

import math

import numpy as np
from numpy.testing import assert_allclose

from proofs_check.witnesses import beyond as wb
from proofs_check.witnesses import repairs as wr


def test_whitening_is_the_inverse_square_root():
    case = wb.Case("tt-stable", 1.0, cond=10, axis_deg=30)
    w = wr.whitening(case, "whitened")
    assert_allclose(w @ wb.covariance(case) @ w, np.eye(2), atol=1e-13)
    assert_allclose(w, w.T, atol=1e-15)
    assert_allclose(wr.whitening(case, "centred"), np.eye(2))


def test_plain_repair_is_the_beyond_witness():
    case = wb.Case("tt-stable", 1.0, cond=3, axis_deg=30)
    for a in (0.0, 0.4, -2.0):
        assert wr.repaired_H(case, "plain", a) == wb.H(case, a)


def test_offset_is_the_mean_of_the_arm_means():
    # isotropic Gaussian, the paper's arms: E m_+ = E m_- = E g(beta'X) with beta'X ~ N(0, 1)
    # (|beta| = 1), so b = E g(Z); reference by a 2001-point Gauss-Hermite rule (numpy)
    case = wb.Case("tt-stable", 1.0)
    _, _, g, _ = wb.arms(case)
    z, w = np.polynomial.hermite_e.hermegauss(201)
    ref = float(w @ g(z)) / math.sqrt(2 * math.pi)
    assert abs(wr.offset(case, "centred") - ref) <= 1e-9
    assert wr.offset(case, "whitened") == 0.0


def test_centring_is_radial_under_a_spherical_law():
    case = wb.Case("tt-stable", 1.0, shift=0.3)
    for a in (0.0, 1.0, -2.5):
        assert abs(wr.repaired_H(case, "centred", a) - wr.repaired_H(case, "plain", a)) <= 1e-12
