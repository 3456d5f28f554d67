"""Tests of proofs_check.witnesses.beyond: the half-plane rules integrate each law's mass and
second moments, the field agrees with the paper's Gaussian moments and with Monte Carlo, and
the one-sided rate handles a kink."""

import math

import numpy as np
import pytest

from proofs_check.witnesses import beyond as wit
from proofs_check.witnesses.direct_definitions import direct_moments

PHI0 = 1 / math.sqrt(2 * math.pi)

LAWS = [
    wit.Case("tt-stable", 1.0),
    wit.Case("tt-stable", 1.0, cond=10, axis_deg=30),
    wit.Case("tt-stable", 1.0, "student-t", nu=5),
    wit.Case("tt-stable", 1.0, "cube"),
    wit.Case("tt-stable", 1.0, "rademacher"),
]


@pytest.mark.parametrize("case", LAWS, ids=lambda c: f"{c.law}-{c.cond:g}")
@pytest.mark.parametrize("angle, offset", [(0.3, 0.0), (2.0, -0.4)])
def test_half_planes_integrate_mass_and_covariance(case, angle, offset):
    """The two half-planes together give mass 1 and E XXᵀ = Σ (identity for Student-t, cube,
    Rademacher): 1e-12 for the Gaussian, cube and Rademacher rules (exact up to rounding and
    e^{-72} truncation), 1e-7 for Student-t ν = 5 (its tails end in the tan-map's last
    panels; the second moment's integrand behaves like cos³ φ there)."""
    n = np.array([math.cos(angle), math.sin(angle)])
    xs, ws = zip(*(wit.half_plane_rule(case, n, offset, up) for up in (True, False)))
    x, w = np.concatenate(xs), np.concatenate(ws)
    sigma = wit.covariance(case) if case.law == "gaussian" else np.eye(2)
    tol = 1e-7 if case.law == "student-t" else 1e-12
    assert abs(w.sum() - 1) <= tol
    np.testing.assert_allclose((x * w[:, None]).T @ x, sigma, rtol=0, atol=tol)
    up = xs[0] @ n
    assert np.all(up >= offset - 1e-12)


@pytest.mark.parametrize("key", ["tt-stable", "tt-unstable", "we-0.72"])
@pytest.mark.parametrize("delta", [0.2, 1.0])
def test_isotropic_gaussian_rate_is_the_papers_d2_rate(key, delta):
    """N(0, I₂), symmetric arms: h(v*) = 0 and −H'(0) = Δμ* − 2φ0 m2 (1 − Δ²/4) with μ*, m2
    from the 2-D definitions (direct_definitions): 1e-10 (both sides ~1e-13)."""
    case = wit.Case(key, delta)
    assert abs(wit.H(case, 0.0)) <= 1e-14
    m = direct_moments(key, delta)
    want = delta * m["mu_star"] - 2 * PHI0 * m["m2"] * (1 - delta**2 / 4)
    assert wit.rate(case) == pytest.approx(want, abs=1e-10)


@pytest.mark.parametrize(
    "case",
    [
        wit.Case("tt-stable", 1.0, "student-t", nu=3, shift=0.2),
        wit.Case("tt-unstable", 0.2, cond=5, axis_deg=60),
        wit.Case("tt-stable", 1.0, "cube", intercept=0.3, rotate_deg=20),
    ],
    ids=["t3-shift", "cov", "cube-intercept"],
)
def test_field_against_monte_carlo(case):
    """F(v) at 0.7 rad from v* against 2·10⁶ seeded draws (the law drawn here, not by the
    library), each coordinate within 5 SE."""
    rng = np.random.default_rng(5)
    n = 2_000_000
    if case.law == "student-t":
        w = rng.chisquare(case.nu, n)
        x = rng.standard_normal((n, 2)) * np.sqrt((case.nu - 2) / w)[:, None]
    elif case.law == "cube":
        x = rng.uniform(-math.sqrt(3), math.sqrt(3), (n, 2))
    else:
        x = rng.multivariate_normal(np.zeros(2), wit.covariance(case), n)
    beta, _, gm, gp = wit.arms(case)
    a = math.radians(case.rotate_deg) + 0.7
    side = x @ np.array([math.cos(a), math.sin(a)]) >= 0
    t = np.where(side, gp(x @ beta[1]), -gm(x @ beta[0]))[:, None] * x
    se = t.std(axis=0, ddof=1) / math.sqrt(n)
    assert np.all(np.abs(t.mean(axis=0) - wit.field(case, 0.7)) <= 5 * se)


def test_rate_is_exact_across_the_cubes_kink():
    """At the cube's diagonal H'' jumps (the boundary passes two corners): central differences
    are off by O(h) (1e-3 at h = 1e-2), the one-sided rule is stable under h (1e-8)."""
    case = wit.Case("tt-stable", 1.0, "cube", rotate_deg=45)
    central = -(wit.H(case, 1e-2) - wit.H(case, -1e-2)) / 2e-2
    r1, r2 = wit.rate(case, h=1e-3), wit.rate(case, h=5e-4)
    assert abs(r1 - r2) <= 1e-8
    assert abs(central - r1) > 1e-3


def test_zeros_and_learned_zero():
    """tt-unstable, Δ = 0.2, N(0, I₂): zeros 0 and 180 (repelling), ±73.2056…° (attracting:
    reference 73.205631 from nbl_sim.population.circle.circle_equilibria, 1e-6); with arms shifted by
    0.4 the flow from v* reaches a zero where H vanishes to 1e-12."""
    z = wit.zeros(wit.Case("tt-unstable", 0.2), n_grid=72, xtol=1e-12)
    att = sorted(abs(a) for a, lab in z if lab == "attracting")
    assert att == pytest.approx([73.205631, 73.205631], abs=1e-6)
    assert sorted(round(abs(a), 6) for a, lab in z if lab == "repelling") == [0.0, 180.0]
    case = wit.Case("tt-stable", 1.0, shift=0.4)
    a = wit.learned_zero(case)
    assert abs(wit.H(case, math.radians(a))) <= 1e-12 and a < -1
    assert wit.regret(case, 0.0) == pytest.approx(0.0, abs=1e-14)  # v* is still optimal
    assert wit.regret(case, math.radians(a)) > 0
