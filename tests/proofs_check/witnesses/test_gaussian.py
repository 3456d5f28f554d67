"""Tests of proofs_check.witnesses.gaussian against exact moments and adaptive quadrature."""

import math

import numpy as np
import pytest
from scipy import integrate, optimize

from nbl_theory.families import make_family
from proofs_check.witnesses import gaussian


def test_gh_tensor_is_exact_on_polynomials():
    X, W = gaussian.gh_tensor(8, 3)
    assert W.sum() == pytest.approx(1, abs=1e-14)
    assert (W * X[:, 0] ** 2 * X[:, 1] ** 4).sum() == pytest.approx(3, abs=1e-12)
    assert (W * X[:, 0] * X[:, 2] ** 3).sum() == pytest.approx(0, abs=1e-13)


def test_ridge_first_moment_polynomials():
    beta = np.array([0.3, -1.1, 0.5])
    # g(z) = z: E[(b^T X) X] = b; g(z) = z^3: E[(b^T X)^3 X] = 3 |b|^2 b (Stein)
    np.testing.assert_allclose(gaussian.ridge_first_moment(lambda z: z, beta, 6), beta, atol=1e-13)
    np.testing.assert_allclose(
        gaussian.ridge_first_moment(lambda z: z**3, beta, 6), 3 * (beta @ beta) * beta, atol=1e-12
    )


def test_gh_rule_1d_moments():
    z, w = gaussian.gh_rule_1d()
    assert w @ z**4 == pytest.approx(3.0, rel=1e-12)
    assert w @ np.cos(z) == pytest.approx(math.exp(-0.5), rel=1e-13)


@pytest.mark.parametrize("sigma", [0.3, 1.0, 2.5])
def test_gauss_mean_closed_forms(sigma):
    # E cos(sZ) = exp(-s^2/2); E exp(0.4 sZ) = exp(0.08 s^2); error < 1e-15 by construction
    assert gaussian.gauss_mean(lambda z, m: m.cos(z), sigma) == pytest.approx(
        math.exp(-(sigma**2) / 2), abs=1e-15
    )
    assert gaussian.gauss_mean(lambda z, m: m.exp(0.4 * z), sigma) == pytest.approx(
        math.exp(0.08 * sigma**2), rel=1e-14
    )


def test_standard_rule():
    s, w = gaussian.STANDARD_NODES, gaussian.STANDARD_WEIGHTS
    assert w.sum() == pytest.approx(1.0, abs=1e-14)
    assert w @ s**2 == pytest.approx(1.0, abs=1e-14)
    assert w @ np.exp(s) == pytest.approx(math.exp(0.5), rel=1e-14)


def test_gaussian_chart_moments_against_adaptive_quadrature():
    link = make_family("two-transition", mu2="1.244122")
    delta = 0.6
    s = math.sqrt(1 - delta**2 / 4)
    dens = lambda z: math.exp(-0.5 * (z / s) ** 2) / (s * math.sqrt(2 * math.pi))  # noqa: E731
    g1 = lambda z: float(link.derivative_numpy(np.array([z]), 1)[0])  # noqa: E731
    g2 = lambda z: float(link.derivative_numpy(np.array([z]), 2)[0])  # noqa: E731
    # |g''| has kinks at the zeros of g'': split the reference integral there
    grid = np.linspace(-12 * s, 12 * s, 2001)
    vals = np.array([g2(z) for z in grid])
    cuts = [
        optimize.brentq(g2, grid[i], grid[i + 1], xtol=1e-15)
        for i in np.flatnonzero(np.sign(vals[:-1]) != np.sign(vals[1:]))
    ]
    assert len(cuts) == 3
    edges = [-12 * s, *cuts, 12 * s]
    ref1 = integrate.quad(lambda z: g1(z) * dens(z), -12 * s, 12 * s, epsabs=1e-14, limit=200)[0]
    ref2 = sum(
        integrate.quad(lambda z: abs(g2(z)) * dens(z), a, b, epsabs=1e-14, limit=200)[0]
        for a, b in zip(edges[:-1], edges[1:])
    )
    e1, e2, e2s = gaussian.gaussian_chart_moments(link, delta, signed=True)
    # Gauss-Legendre panels split at the zeros of g'': every panel is analytic, so both moments
    # are accurate to rounding (measured 3e-17 against this reference, which scipy's quad
    # reports to ~1e-14)
    assert e1 == pytest.approx(ref1, abs=1e-13)
    assert e2 == pytest.approx(ref2, abs=1e-13)
    ref2s = sum(
        integrate.quad(lambda z: g2(z) * dens(z), a, b, epsabs=1e-14, limit=200)[0]
        for a, b in zip(edges[:-1], edges[1:])
    )
    assert e2s == pytest.approx(ref2s, abs=1e-13)


def test_gaussian_chart_moments_on_a_potential_link():
    # weighted entropy rho = 0.6 (a potential: the chart maps t onto (0, 1)); reference by
    # adaptive quadrature in z on g', g'' of the float64 link (inverts phi' by bisection)
    link = make_family("weighted-entropy", rho="0.6")
    s = math.sqrt(1 - 0.2**2 / 4)
    dens = lambda z: math.exp(-0.5 * (z / s) ** 2) / (s * math.sqrt(2 * math.pi))  # noqa: E731
    g1 = lambda z: float(link.derivative_numpy(np.array([z]), 1)[0])  # noqa: E731
    ref1 = integrate.quad(lambda z: g1(z) * dens(z), -12 * s, 12 * s, epsabs=1e-13, limit=200)[0]
    e1, _ = gaussian.gaussian_chart_moments(link, 0.2)
    assert e1 == pytest.approx(ref1, abs=1e-11)  # the bisection inverse is good to ~1e-13


@pytest.mark.parametrize("a", [0.0, 0.5, 2.0, 10.0])
def test_kappa_by_definition(a):
    # the closed form e^{a^2/2} Phi(-a) (an identity the claims check; here an independent
    # float reference: scipy's erfcx, a few ulps)
    from scipy.special import erfcx

    got = float(gaussian.kappa_by_definition(a, dps=20))
    assert got == pytest.approx(erfcx(a / math.sqrt(2)) / 2, rel=1e-14)


@pytest.mark.parametrize("a", ["0", "0.5", "3.9775", "50"])
def test_toolkit_kappa_is_the_definition(a):
    # moved here from the claim kappa-closed-form (issue 15: the toolkit agreeing with the
    # definition is a self-check, not a claim about the paper). The witness integrates the
    # definition by tanh-sinh at 30 digits (~1e-30); the toolkit's 30-digit tier is good to
    # ~1e-25 and its float64 erfcx to a few ulps, hence the two tolerances.
    import mpmath

    from nbl_theory.self_concordance import kappa

    ref = gaussian.kappa_by_definition(a, dps=30)
    with mpmath.workdps(30):
        assert abs(kappa(a, dps=30) - ref) / ref < mpmath.mpf("1e-25")
    assert kappa(float(a)) == pytest.approx(float(ref), rel=1e-14)


@pytest.mark.parametrize("q", [0, 1, 2, 3])
@pytest.mark.parametrize("mu,s", [(0.0, 1.0), (0.7, 0.3), (-2.0, 1.5), (1.2, 0.0)])
def test_abs_moment_closed_forms(q, mu, s):
    if s == 0:
        want = abs(mu) ** q if q else 1.0
    else:
        want = integrate.quad(
            lambda z: abs(mu + s * z) ** q * math.exp(-z * z / 2) / math.sqrt(2 * math.pi),
            -np.inf,
            np.inf,
        )[0]
    got = float(gaussian.abs_moment(np.array(mu), s, q))
    assert got == pytest.approx(want, rel=1e-9, abs=1e-12)  # quad's own accuracy


def test_kappa_closed_form_error():
    # the printed e^{a^2/2} Phi(-a) equals the definition to the quadrature's ~1e-35;
    # kappa(0) = P(Z > 0) = 1/2 exactly; the claims' mutants e^{a^2} and Phi(+a) are far off
    worst, defs = gaussian.kappa_closed_form_error(("0", "1", "10"))
    assert worst < 1e-30 and abs(defs["0"] - 0.5) < 1e-35
    assert gaussian.kappa_closed_form_error(("1",), half=1)[0] > 0.1
    assert gaussian.kappa_closed_form_error(("1",), sign=1)[0] > 0.1
