"""Tests of proofs_check.witnesses.potentials (the elicitation geometry from the definitions)
and proofs_check.witnesses.concordance."""

import mpmath
import pytest
import sympy as sp

from nbl_theory import elicitation as el
from nbl_theory.families import make_family
from nbl_theory.stability import stability
from proofs_check.witnesses import concordance
from proofs_check.witnesses import potentials as pt

M, R, Y, TH = el.M, pt.R, pt.Y, pt.THETA


def test_printed_table_matches_the_library_transcription():
    # two independent transcriptions of tab:app_bregman_examples (the library's BREGMAN_TABLE
    # and the witness's PRINTED_TABLE) agree entry by entry
    lib = {row.name: row for row in el.BREGMAN_TABLE}
    assert set(lib) == set(pt.PRINTED_TABLE)
    for name, row in pt.PRINTED_TABLE.items():
        ref = lib[name]
        assert sp.simplify(row["phi"].subs(R, M) - ref.phi) == 0
        assert sp.simplify(row["w"].subs(R, M) - ref.w) == 0
        assert sp.simplify(row["theta"].subs(R, M) - ref.theta) == 0
        assert sp.simplify(row["g"] - ref.g.subs(el.THETA, TH)) == 0
        assert tuple(row["domain"]) == tuple(ref.domain)


@pytest.mark.parametrize("name", ["generic phi", "negative-entropy",
                                  "weighted entropy (symbolic rho)"])
def test_bregman_loss_is_the_library_formula(name):
    # moved from the claim bregman-loss-taylor-remainder: the toolkit's bregman_loss is the
    # paper's eq:app_bregman_loss (the witness writes it out independently)
    phi = pt.elicitation_potentials()[name]
    assert sp.simplify(pt.bregman_loss(phi, R, Y) - el.bregman_loss(phi, R, Y)) == 0


def test_implicit_link_derivatives_on_examples():
    # negative entropy: g = exp, so g' = g'' = m at m = g(z)
    g1, g2 = pt.implicit_link_derivatives(M * sp.log(M) - M)
    assert sp.simplify(g1 - M) == 0 and sp.simplify(g2 - M) == 0
    # binary negative entropy: g = logistic, g' = m(1 - m), g'' = m(1 - m)(1 - 2m)
    g1, g2 = pt.implicit_link_derivatives(M * sp.log(M) + (1 - M) * sp.log(1 - M))
    assert sp.simplify(g1 - M * (1 - M)) == 0
    assert sp.simplify(g2 - M * (1 - M) * (1 - 2 * M)) == 0


def test_inverse_picks_the_branch_of_the_domain():
    x = sp.Symbol("x", real=True)
    assert pt.inverse(x**2, x, TH, sp.Integer(2)) == sp.sqrt(TH)
    assert pt.inverse(x**2, x, TH, sp.Integer(-2)) == -sp.sqrt(TH)
    with pytest.raises(NotImplementedError):
        pt.inverse(x**2, x, TH, sp.I)


def test_conjugate_and_dual_domain():
    assert sp.simplify(pt.conjugate(R**2 / 2, R, (-sp.oo, sp.oo)) - TH**2 / 2) == 0
    assert pt.dual_domain(-sp.log(R), R, (0, sp.oo)) == (-sp.oo, 0)
    assert pt.dual_domain(R * sp.log(R) - R, R, (0, sp.oo)) == (-sp.oo, sp.oo)


def test_zero_and_positive_on_an_interval():
    ok, res = pt.zero_on(sp.log(R / (1 - R)) - sp.log(R) + sp.log(1 - R), R, (0, 1))
    assert ok and res == 0
    ok, res = pt.zero_on(sp.log(R) - 1, R, (0, 1))
    assert not ok and res != 0
    assert pt.positive_on(sp.exp(R) / (1 + sp.exp(R)) ** 2, R, (-sp.oo, sp.oo))
    assert not pt.positive_on(R - sp.Rational(1, 2), R, (0, 1))


def test_induced_potential_of_exp():
    z = sp.Symbol("z", real=True)
    inv, pot, m0, rng = pt.induced_potential(sp.exp(z), z)
    assert inv == sp.log(M) and m0 == 1 and rng == (0, sp.oo)
    assert sp.simplify(pot - (M * sp.log(M) - M + 1)) == 0
    _, wrong, _, _ = pt.induced_potential(sp.exp(z), z, integrand="link")
    assert sp.simplify(sp.diff(wrong, M) - inv) != 0


def test_real_form_removes_the_complex_branch():
    expr = M * sp.log(-M / (M - 1)) + sp.log(M - 1) + sp.log(2) - sp.I * sp.pi
    real = pt.real_form(expr, M, (0, 1))
    assert not real.has(sp.I)
    assert abs(complex(real.subs(M, sp.Rational(1, 3)).evalf())
               - complex(expr.subs(M, sp.Rational(1, 3)).evalf())) < 1e-14


def test_ratio_sup_on_chart():
    # logistic: |g''/g'| = |1 - 2g| < 1, approaching 1 in the tails (to ~e^-40 at |z| = 40)
    sup, z = concordance.ratio_sup_on_chart(make_family("logistic"))
    assert sup == pytest.approx(1.0, abs=1e-12) and abs(z) > 30   # rounding: 1 + ~1e-15
    # weighted entropy rho = 0.6: the sup 1/(1 - rho) = 2.5 is a limit at z -> +oo
    sup, _ = concordance.ratio_sup_on_chart(make_family("weighted-entropy", rho="0.6"))
    assert sup == pytest.approx(2.5, rel=1e-12)


def test_elicitation_moments_against_the_library():
    # rho = -0.5, Delta = 1 (m2 < 0 here), against the library's 30-digit tier: the two routes
    # agree to ~1e-28 (tanh-sinh ~1e-35, the library's tier 30 digits)
    phi = el.weighted_entropy_potential(sp.Rational(-1, 2))
    got = concordance.elicitation_moments(phi, 1)
    lib = stability(make_family("weighted-entropy", rho="-0.5"), "1", dps=30).values
    with mpmath.workdps(40):
        assert abs(got["mu_star"] - lib["mu_star"]) < mpmath.mpf("1e-25")
        assert abs(got["m2"] - lib["m2"]) < mpmath.mpf("1e-25")
    bad = concordance.elicitation_moments(phi, 1, m2_power=2)
    assert abs(bad["m2"] - lib["m2"]) > 1e-3
