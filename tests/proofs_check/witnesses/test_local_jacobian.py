"""Tests of proofs_check.witnesses.local_jacobian (the steps of prop:local_jacobian compared with
the paper's formulas) and of witnesses.geometry.moving_halfspace."""

import math

import numpy as np
import pytest

from proofs_check.witnesses import local_jacobian as wj
from proofs_check.witnesses.geometry import moving_halfspace


def test_paper_rates_and_lambda_star_by_hand():
    # Delta = 1, mu* = 0.3, m2 = 0.2, phi0 = 1/sqrt(2 pi): ||theta||^2 = 3/4, so the theta-rate
    # is 0.3 - 2 phi0 0.2 0.75 and lambda* equals it (m2 > 0); with m2 < 0 lambda* drops the
    # m2 term (positive part) while the theta-rate grows (hand-computed).
    phi0 = 1 / math.sqrt(2 * math.pi)
    orth, th = wj.paper_tangent_rates(1.0, 0.3, 0.2, phi0)
    assert orth == pytest.approx(0.3, abs=1e-15)
    assert th == pytest.approx(0.3 - 0.3 * phi0, abs=1e-15)
    assert wj.lambda_star_of(1.0, 0.3, 0.2, phi0=phi0) == pytest.approx(th, abs=1e-15)
    assert wj.lambda_star_of(1.0, 0.3, -0.2, phi0=phi0) == pytest.approx(0.3, abs=1e-15)
    assert wj.lambda_star_of(1.0, 0.3, -0.2, positive_part=False, phi0=phi0) == pytest.approx(
        0.3 + 0.3 * phi0, abs=1e-15
    )
    # the mutants' coefficients move the values
    assert wj.paper_tangent_rates(1.0, 0.3, 0.2, phi0, theta_norm2=1.0)[1] != th
    assert wj.lambda_star_of(1.0, 0.3, 0.2, quarter=2.0, phi0=phi0) != th


def test_spectrum_error_sees_a_wrong_rate():
    sp = {"rates": np.array([0.1, 0.5, 0.5]), "theta_rate": 0.1, "S": 2.0}
    assert wj.spectrum_error(sp, 0.5, 0.1, 4) == 0.0
    assert wj.spectrum_error(sp, 0.5, 0.12, 4) == pytest.approx(0.01, abs=1e-15)
    assert wj.spectrum_error(sp, 0.4, 0.1, 4) == pytest.approx(0.05, abs=1e-15)


def test_relative_difference():
    assert wj.relative_difference(1.5, 1.0) == 0.5
    assert wj.relative_difference(0.0, 0.0) == 0.0


def test_moving_halfspace_holds_below_a_right_angle_and_reverses_beyond():
    ok = moving_halfspace()
    assert ok["draws"] == 120 and ok["mismatches"] == 0 and ok["identity_error"] < 1e-14
    assert ok["flipped"] == ok["draws"] and ok["samples"] > 50_000
    # without cos(eps||u||) > 0 the equivalence fails on some draws (the claim's mutant)
    assert moving_halfspace(max_angle=0.99)["mismatches"] > 0


def test_step_errors_are_small_and_see_a_wrong_coefficient():
    deltas, dims = ("1",), (2,)
    assert max(e for _, e in wj.pre_kappa_errors(deltas, dims)) < 1e-9
    assert max(e for _, e in wj.pre_kappa_errors(deltas, dims, phi0=1.1 * wj.PHI0)) > 1e-6
    errs, worst_dp = wj.projection_derivative_errors(deltas, dims)
    assert worst_dp < 1e-9 and max(e for _, e in errs) < 1e-9
    assert max(e for _, e in wj.projection_derivative_errors(deltas, dims, sign=1.0)[0]) > 1e-3
    st = wj.stein_matrix_errors(deltas, dims)
    assert st["n"] == 6 and st["m0"] < 1e-12 and st["matrix"] < 1e-12
    assert wj.stein_matrix_errors(deltas, dims, unit_theta=True)["matrix"] > 1e-6
