"""Tests of proofs_check.witnesses.local_expansions on a small case set (Δ = 1, d = 2)."""

import numpy as np
import pytest

from proofs_check.witnesses import local_expansions as le


@pytest.fixture(scope="module")
def steps():
    return le.jacobian_steps(("1",), (2,))


def test_jacobian_steps_cover_every_link_and_direction(steps):
    assert len(steps) == 6 * 2
    assert {r["key"] for r in steps} == {
        "tt-stable",
        "tt-near-critical",
        "tt-unstable",
        "we-0.60",
        "we-0.72",
        "we-0.80",
    }


def test_projection_derivative_closed_form(steps):
    # DP(v*)[u] = -(u v*^T + v* u^T) exactly; Richardson of a smooth matrix path: ~1e-12
    for r in steps:
        want = -(np.outer(r["u"], r["vs"]) + np.outer(r["vs"], r["u"]))
        assert np.abs(r["DP"] - want).max() < 1e-10


def test_own_and_library_derivatives_agree(steps):
    for r in steps:
        # F = F_+ - F_- from two independent quadratures, differentiated along the same path
        assert np.abs(r["DF"] - (r["DFp"] - r["DFm"])).max() / r["S"] < 1e-9
        assert np.abs(r["own_F_star"] - r["F_star"]).max() / r["S"] < 1e-13
        # h(v*) = 0 and Dh is tangent at v*
        assert abs(float(r["Dh"] @ r["vs"])) / r["S"] < 1e-9


def test_local_expansions_remainders_are_second_order():
    rows = le.local_expansions(("1",), (2,))
    assert len(rows) == 6 * 4  # two directions and their negatives per link
    for r in rows:
        assert r["four"] < 1e-15 and r["tangent_Dh"] < 1e-15
        # r(v) = O(||u||^2): the ratio stays bounded (and converges) as ||u|| -> 0
        assert r["ratio_u"][-1] < 2 * r["ratio_u"][:-2].max() + 1e-7
        assert np.all(np.isfinite(r["ratio_D"]))


def test_jacobian_matrix_is_eq_jacobian():
    vs, th = np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.6, 0.0])
    J = le.jacobian_matrix(0.4, 0.1, 0.05, vs, th)
    assert np.allclose(J @ vs, 0.0)
    u = np.array([0.0, 0.3, -0.7])
    want = -0.4 * 0.1 * u + 2 * le.PHI0 * 0.05 * th * (th @ u)
    assert np.allclose(J @ u, want, rtol=0, atol=1e-16)


def test_tangent_spectrum_of_the_own_field():
    sp = le.tangent_spectrum("we-0.80", "1", 3)
    assert sp["rates"].shape == (2,) and sp["asymmetry"] / sp["S"] < 1e-11
    assert sp["theta_alignment"] > 1 - 1e-9
    assert np.isclose(sp["theta_rate"], sp["rates"], rtol=0, atol=1e-12).any()
    assert np.allclose(sp["matrix"] @ sp["vs"], 0.0, atol=1e-12)
    # F instead of h: the spectrum moves by kappa* (DP F* = -kappa* u), far beyond the FD error
    sf = le.tangent_spectrum("we-0.80", "1", 3, project=False)
    assert np.abs(sf["rates"] - sp["rates"]).min() > 0.1


def test_local_expansions_notice_a_wrong_coefficient():
    rows = le.local_expansions(("1",), (2,), 1.1 * le.PHI0)
    # Dh off by O(1) m2: the remainder is ~||u||, so the ratio grows like 1/||u||
    assert max(r["ratio_u"][-1] / r["ratio_u"][0] for r in rows) > 10
