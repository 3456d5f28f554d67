"""Tests of proofs_check.witnesses.population and of the rational identities of
witnesses.geometry used by the population claims."""

from fractions import Fraction

from nbl_sim.population import fields as pop
from nbl_theory.paper import PAPER_LINKS
from proofs_check.witnesses import population as wp
from proofs_check.witnesses.geometry import rational_tangent_update, reflection_identities


def test_rational_identities_hold_exactly_and_see_a_wrong_coefficient():
    assert rational_tangent_update() == {"n_exact": 300, "failure": None}
    bad = rational_tangent_update(Fraction(2))  # I - 2vv^T is a reflection
    assert bad["failure"] is not None and bad["failure"][0] != 0
    ref = reflection_identities()
    assert ref["failure"] is None and ref["n_exact"] == 200 and ref["n"] == 6 * 2 * 400
    assert ref["worst"] < 1e-14
    assert reflection_identities(sign=1)["failure"] is not None


def test_equilibrium_and_gradient_on_a_small_case_set():
    eq = wp.equilibrium_errors(("1",), (2,))
    assert eq["n"] == 6 and max(eq["h"], eq["f"], eq["library"]) < 1e-12
    # kappa* with Delta mu*/2: F(v*) = kappa* v* fails by ~Delta mu*/2 ~ 0.1
    assert wp.equilibrium_errors(("1",), (2,), mu_factor=0.5)["f"] > 1e-3
    gj = wp.gradient_of_j(("1",), (2,))
    assert gj["error"] < 1e-8 and gj["library"] < 1e-12
    assert wp.gradient_of_j(("1",), (2,), linear_term=False)["error"] > 1e-3


def test_h_alpha_and_restoring_case():
    link = PAPER_LINKS["tt-stable"].link()
    beta, _vs, _theta = pop.arm_vectors("1", 2)
    ha = wp.h_alpha_case(link, "1", beta)
    assert ha["points"] > 50 and max(ha["identity"], ha["tangent"], ha["library"]) < 1e-12
    assert wp.h_alpha_case(link, "1", beta, orientation=-1.0)["identity"] > 1.0
    # H'(0) is minus the theta-rate: a wrong rate is seen in "error", the signs of alpha H(alpha)
    # do not depend on it
    rc = wp.restoring_case(link, beta, -0.0)
    assert rc["error"] > 1e-3 and rc["dH0"] < 0 and rc["plus"] < 0 and rc["minus"] < 0
    assert wp.restoring_case(link, beta, -rc["dH0"])["error"] < 1e-15
