"""Arm geometries, per-arm links and the fast link evaluator (nbl_sim.beyond.arms, .linkeval)."""

import math

import numpy as np
import pytest

from nbl_sim.beyond import arms as A
from nbl_sim.beyond.linkeval import MixtureLink, ShiftedLink, fast_g, growth_exponent
from nbl_sim.population.fields import arm_vectors
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.paper import PAPER_LINKS, WEIGHTED_ENTROPY_KEYS, paper_link

LOGISTIC = make_family("logistic")


def test_symmetric_arms_are_the_papers():
    link = paper_link("tt-stable")
    arms = A.symmetric_arms(link, "0.2", d=3)
    beta, vs, _ = arm_vectors("0.2", 3)
    np.testing.assert_array_equal(arms.beta, beta)
    np.testing.assert_allclose(arms.v_star, vs, atol=1e-15)
    assert arms.shared and arms.nominal == (link, "0.2")
    # shift 0 / rotate 0 from the spec parser: the same arms up to rounding
    np.testing.assert_allclose(
        A.parse_arms_spec("symmetric", link, "0.2", 3).beta, beta, atol=1e-15
    )


@pytest.mark.parametrize("shift", [-0.3, 0.05, 0.4])
def test_shifted_arms_keep_the_linear_optimal_boundary(shift):
    """β_+ − β_− = Δv*, and with a shared increasing link a*(x) = sgn(v*ᵀx) on random x."""
    link = paper_link("tt-unstable")
    arms = A.shifted_arms(link, "1", shift, rotate_deg=25)
    vs = np.array([math.cos(math.radians(25)), math.sin(math.radians(25))])
    np.testing.assert_allclose(arms.beta[1] - arms.beta[0], vs, atol=1e-15)
    np.testing.assert_allclose(arms.v_star, vs, atol=1e-15)
    centre = 0.5 * (arms.beta[0] + arms.beta[1])
    assert abs(centre @ vs - shift) < 1e-15
    x = np.random.default_rng(0).normal(size=(20_000, 2)) * 3
    m = arms.means(x)
    u = x @ vs
    sel = np.abs(u) > 1e-9
    assert np.all(np.sign(m[sel, 1] - m[sel, 0]) == np.sign(u[sel]))


def test_intercept_arms_have_an_affine_optimal_boundary():
    link = LOGISTIC
    arms = A.intercept_arms(link, "1", 0.5)
    assert not arms.shared and arms.v_star is None
    x = np.random.default_rng(1).normal(size=(20_000, 2)) * 3
    m = arms.means(x)
    # logistic is injective: m_+ > m_- iff β_+ᵀx + c > β_−ᵀx iff Δ v*ᵀx > −c (v* = e₁)
    lhs = np.sign(m[:, 1] - m[:, 0])
    rhs = np.sign(x[:, 0] + 0.5)
    assert np.all(lhs[np.abs(x[:, 0] + 0.5) > 1e-9] == rhs[np.abs(x[:, 0] + 0.5) > 1e-9])


def test_asymmetric_arms_projection_and_errors():
    link = LOGISTIC
    arms = A.asymmetric_arms(link, [0.3, 0.5], 0.4, 0.1, [1.0, 0.0])
    np.testing.assert_allclose(arms.beta, [[-0.1, 0.5], [0.4, 0.5]], atol=1e-15)
    with pytest.raises(NBLInputError):
        A.asymmetric_arms(link, [0, 1], 0.1, -0.2, [1, 0])
    with pytest.raises(NBLInputError):
        A.ArmModel(np.ones((2, 2)), (link, link))
    with pytest.raises(NBLInputError):
        A.ArmModel(np.eye(2), (link, "logistic"))
    for bad in ("shift=0.1,intercept=0.2", "shift=a", "foo=1", "shift=0.1,shift=0.2", ""):
        with pytest.raises(NBLInputError):
            A.parse_arms_spec(bad, link, "0.2")
    with pytest.raises(NBLInputError):
        A.shifted_arms(link, "0.2", 1.5)


def test_wrapped_links():
    z = np.linspace(-8, 8, 101)
    s = ShiftedLink(LOGISTIC, 0.7)
    np.testing.assert_allclose(s.g_numpy(z), 1 / (1 + np.exp(-(z + 0.7))), rtol=1e-14)
    probit = make_family("probit")
    mix = MixtureLink(LOGISTIC, probit, 0.25)
    np.testing.assert_allclose(
        fast_g(mix)(z), 0.75 * LOGISTIC.g_numpy(z) + 0.25 * probit.g_numpy(z), rtol=1e-14
    )
    np.testing.assert_allclose(fast_g(s)(z), s.g_numpy(z), rtol=1e-14)


@pytest.mark.parametrize("key", WEIGHTED_ENTROPY_KEYS)
def test_fast_table_matches_the_link(key):
    """Potential links are tabulated; the measured table error (≤ 1e-14 by construction) bounds
    the deviation from Link.g_numpy at fresh random points, in the core and in both tails."""
    link = paper_link(key)
    f = fast_g(link)
    assert f.table_error <= 1e-14
    rng = np.random.default_rng(4)
    z = np.concatenate(
        [
            rng.uniform(-60, 60, 3000),
            rng.uniform(60, 1e4, 200),
            -rng.uniform(60, 1e4, 200),
            [1e12, -1e12],
        ]
    )
    # a point is compared at the measured table error plus 4 ulps of g ≤ 1 (rounding of the
    # comparison itself): the probes of the measurement are not these points
    assert np.max(np.abs(f(z) - link.g_numpy(z))) <= 2 * f.table_error + 1e-15


def test_growth_exponent():
    assert growth_exponent(LOGISTIC) == 0.0
    assert abs(growth_exponent(make_family("identity")) - 1.0) < 1e-3
    assert growth_exponent(make_family("exp")) == math.inf
    for key in PAPER_LINKS:
        assert growth_exponent(paper_link(key)) == 0.0
