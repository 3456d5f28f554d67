"""Tests of proofs_check.witnesses.links: the paper's links written out, test links, sup|g'|."""

import math

import mpmath
import numpy as np
import pytest
from scipy.special import expit

from nbl_theory.families import make_family
from proofs_check.witnesses import links


@pytest.mark.parametrize("mu2", ["-1.074037", "1.244122"])
def test_tanh_parts_against_the_library_link(mu2):
    z = np.linspace(-6, 6, 121)
    g, g1, g2 = links.tanh_link_parts(float(mu2))(z)
    lib = make_family("two-transition", mu2=mu2)
    for k, mine in enumerate((g, g1, g2)):
        np.testing.assert_allclose(mine, lib.derivative_numpy(z, k), rtol=1e-13, atol=1e-15)


def test_tanh_parts_derivatives_by_finite_differences():
    parts = links.tanh_link_parts(0.5)
    z, h = np.linspace(-3, 3, 13), 1e-5
    g_p, g1_p, _ = parts(z + h)
    g_m, g1_m, _ = parts(z - h)
    _, g1, g2 = parts(z)
    np.testing.assert_allclose((g_p - g_m) / (2 * h), g1, atol=1e-9)  # O(h^2) + 1e-16/h
    np.testing.assert_allclose((g1_p - g1_m) / (2 * h), g2, atol=1e-9)


def test_weighted_entropy_parts_solve_the_implicit_equation():
    rho = 0.6
    z = np.linspace(-4, 4, 81)
    g, g1, g2 = links.weighted_entropy_link_parts(rho)(z)
    # on |z| <= 4, 1 - g >= 3e-4, so log(1 - g) carries ~1e-13 relative rounding
    resid = (1 + rho) * np.log(g) - (1 - rho) * np.log1p(-g) + 2 * rho * math.log(2) - z
    assert np.abs(resid).max() < 1e-11
    # g' = 1/phi'' with phi''(m) = (1 + rho)/m + (1 - rho)/(1 - m) (1 - g rounds for g -> 1:
    # absolute tolerance at the scale g' <= 1/4)
    np.testing.assert_allclose(
        g1, 1 / ((1 + rho) / g + (1 - rho) / (1 - g)), rtol=1e-12, atol=1e-15
    )
    assert np.all(np.diff(g) > 0)


def test_weighted_entropy_rho_zero_is_logistic():
    z = np.linspace(-30, 30, 61)
    g, g1, g2 = links.weighted_entropy_link_parts(0.0)(z)
    s, c = expit(z), expit(-z)  # c = 1 - s without cancellation
    np.testing.assert_allclose(g, s, rtol=1e-14)
    np.testing.assert_allclose(g1, s * c, rtol=1e-12)
    np.testing.assert_allclose(g2, s * c * (c - s), rtol=1e-10, atol=1e-20)


def test_paper_link_parts_picks_the_family():
    z = np.array([0.3])
    assert links.paper_link_parts("tt-stable")(z)[0] == pytest.approx(
        links.tanh_link_parts(-1.074037)(z)[0], rel=1e-15
    )
    assert links.paper_link_parts("we-0.72")(z)[0] == pytest.approx(
        links.weighted_entropy_link_parts(0.72)(z)[0], rel=1e-15
    )


def test_mixture_link_is_increasing_and_module_agnostic():
    p = (0.1, ((0.5, 2.0, -0.3), (0.2, 0.7, 1.0)))
    z = np.linspace(-8, 8, 2001)
    assert np.all(np.diff(links.mixture_link(p, z)) > 0)
    with mpmath.workdps(30):
        assert float(links.mixture_link(p, mpmath.mpf("0.25"), mpmath)) == pytest.approx(
            float(links.mixture_link(p, np.float64(0.25))), abs=1e-15
        )


def test_random_mixtures_are_increasing():
    for c, terms in links.random_mixtures(np.random.default_rng(0), 10):
        assert c >= 0 and 1 <= len(terms) <= 3
        assert all(w > 0 and b > 0 for w, b, _ in terms)


def test_sup_gprime_closed_forms():
    # logistic: g' = s(1 - s) <= 1/4 at 0; two-transition: a1 b1 + a2 b2 when the two bumps
    # are far apart (mu2 = 4: sech^2 of the other term ~ 4e-8 of it at each peak)
    assert links.sup_gprime(make_family("logistic")) == pytest.approx(0.25, rel=1e-12)
    got = links.sup_gprime(make_family("two-transition", mu2="4"))
    assert got == pytest.approx(0.25 * 1.4, rel=1e-6)


@pytest.mark.parametrize("rho", [-0.9, -0.3, 0.0, 0.6, 0.8, 0.9])
def test_weighted_entropy_bisection_bracket_reaches_the_root(rho):
    """The bracket [z/(1+|rho|), z/(1-|rho|)] contains x = logit(g): the result equals 120-step
    bisection on [-800, 800] (the earlier, bracket-free rule) up to a few ulps of x, i.e.
    |dg| <= 8 eps (1 + |x|) g (1 - g) + 4 ulp(g), for |rho| up to 0.9 and z from -20 to 20
    (the range of the direct 2-D quadrature)."""
    z = np.concatenate([np.linspace(-20, 20, 2001), [0.0, 1e-300, -1e-12]])

    def dual(x):
        return (
            -(1 + rho) * np.logaddexp(0, -x)
            + (1 - rho) * np.logaddexp(0, x)
            + 2 * rho * math.log(2)
        )

    lo, hi = np.full(z.shape, -800.0), np.full(z.shape, 800.0)
    for _ in range(120):
        mid = 0.5 * (lo + hi)
        up = dual(mid) < z
        lo, hi = np.where(up, mid, lo), np.where(up, hi, mid)
    x = 0.5 * (lo + hi)
    ref = expit(x)
    g, g1, _ = links.weighted_entropy_link_parts(rho)(z)
    tol = 8 * np.finfo(float).eps * (1 + np.abs(x)) * ref * expit(-x) + 4 * np.spacing(ref)
    assert np.all(np.abs(g - ref) <= tol)
    assert np.all(g1 > 0)
