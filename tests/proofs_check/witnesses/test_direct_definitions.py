"""Tests of proofs_check.witnesses.direct_definitions: the 2-D definitions and the eq:Jacobian
spectrum."""

import math

import mpmath
import numpy as np
import pytest

from proofs_check.witnesses import direct_definitions as dd
from proofs_check.witnesses.links import paper_link_parts


@pytest.mark.parametrize("key, delta", dd.DIRECT_CASES)
def test_direct_moments_satisfy_the_exact_identities(key, delta):
    m = dd.direct_moments(key, float(delta))
    phi0 = 1 / math.sqrt(2 * math.pi)
    # kappa* = 2 phi0 m0 + Delta mu* and E g''(U) = E[g(U)(U^2 - s^2)]/s^4 hold exactly; the two
    # sides are different integrals of the same rule, so they agree to its accuracy (~1e-14)
    assert m["kappa_star"] == pytest.approx(
        2 * phi0 * m["m0"] + float(delta) * m["mu_star"], rel=1e-12
    )
    assert m["m2"] == pytest.approx(m["m2_stein"], abs=1e-12)


def test_direct_moments_converge_under_refinement():
    a, b = dd.direct_moments("tt-unstable", 0.2), dd.direct_moments("tt-unstable", 0.2, 32)
    for k in a:
        assert a[k] == pytest.approx(b[k], rel=1e-13, abs=1e-15), k


def test_direct_mu_star_against_monte_carlo():
    """mu* = E[g'(U + Delta Z/2) 1{Z > 0}] by 10^6 seeded samples within 5 SE."""
    rng = np.random.default_rng(7)
    delta, s = 1.0, math.sqrt(0.75)
    U, Z = s * rng.standard_normal(1_000_000), rng.standard_normal(1_000_000)
    _, g1, _ = paper_link_parts("tt-stable")(U + delta / 2 * Z)
    sample = g1 * (Z > 0)
    se = sample.std(ddof=1) / 1000
    assert abs(sample.mean() - dd.direct_moments("tt-stable", delta)["mu_star"]) < 5 * se


@pytest.mark.parametrize("rotate", [False, True])
@pytest.mark.parametrize("m2", ["0.05", "-0.05"])
def test_tangent_rates_closed_form(rotate, m2):
    with mpmath.workdps(40):
        delta, mu, m2v = mpmath.mpf("0.2"), mpmath.mpf("0.1"), mpmath.mpf(m2)
        theta_rate = delta * mu - 2 / mpmath.sqrt(2 * mpmath.pi) * m2v * (1 - delta**2 / 4)
        for d in (2, 3, 4):
            got = dd.jacobian_tangent_rates(delta, mu, m2v, d, rotate)
            want = sorted([delta * mu] * (d - 2) + [theta_rate])
            assert len(got) == d - 1
            assert max(abs(a - b) for a, b in zip(got, want)) < mpmath.mpf(10) ** -30


def test_direct_moments_shift_is_the_coefficient_of_delta_z():
    a = dd.direct_moments("tt-stable", 1.0)
    assert dd.direct_moments("tt-stable", 1.0, shift=0.5) == a
    b = dd.direct_moments("tt-stable", 1.0, shift=1.0)
    assert abs(b["mu_star"] - a["mu_star"]) > 1e-3 and b["m0"] == a["m0"]


def test_identity_and_rate_helpers_are_the_printed_formulas():
    import math

    from proofs_check.witnesses import direct_definitions as dd

    m = {"m0": 0.5, "mu_star": 0.25, "m2": 0.125}
    phi0 = 1 / math.sqrt(2 * math.pi)
    # by hand: 2 phi0 m0 + Delta mu* = 0.3989422804014327 + 0.05 at Delta = 0.2
    assert dd.identity_rhs(m, 0.2, phi0) == 2 * phi0 * 0.5 + 0.2 * 0.25
    assert dd.kappa_identity_rhs(m, 0.2) == dd.identity_rhs(m, 0.2, phi0)
    assert dd.kappa_identity_rhs(m, 0.2, 0.5) == 2 * phi0 * 0.5 + 0.1 * 0.25
    # Delta mu* - 2 phi0 m2 (1 - Delta^2/4) = 0.05 - 0.25 phi0 x 0.99
    assert abs(dd.theta_rate(m, 0.2, phi0) - (0.05 - 0.25 * phi0 * 0.99)) < 1e-17
