"""Tests of proofs_check.witnesses.potentials (the elicitation geometry from the definitions)
and proofs_check.witnesses.concordance."""

import math

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


@pytest.mark.parametrize(
    "name", ["generic phi", "negative-entropy", "weighted entropy (symbolic rho)"]
)
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
    assert (
        abs(
            complex(real.subs(M, sp.Rational(1, 3)).evalf())
            - complex(expr.subs(M, sp.Rational(1, 3)).evalf())
        )
        < 1e-14
    )


def test_ratio_sup_on_chart():
    # logistic: |g''/g'| = |1 - 2g| < 1, approaching 1 in the tails (to ~e^-40 at |z| = 40)
    sup, z = concordance.ratio_sup_on_chart(make_family("logistic"))
    assert sup == pytest.approx(1.0, abs=1e-12) and abs(z) > 30  # rounding: 1 + ~1e-15
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


def test_residuals_of_the_printed_link_identities():
    # g' = 1/phi'', g'' = -phi'''/phi''^3 and (log g')' = g''/g' hold for every smooth phi
    # (the generic potential); the claims' mutants (a + sign, phi''^2, phi''^3) do not
    phi = pt.GENERIC_POTENTIAL
    assert pt.link_derivative_residual(phi) == 0
    assert pt.link_derivative_residual(phi, sign=1) != 0
    assert pt.link_derivative_residual(phi, power=2) != 0
    assert pt.log_derivative_residual() == 0
    assert pt.self_concordance_forms_residual(phi) == 0
    assert pt.self_concordance_forms_residual(pt.BREGMAN_ROWS["burg"].phi, power=3) != 0


def test_elicitation_lambda_star_assembles_the_printed_formula():
    # rho = 0.6, Delta = 1/5 against the library's 30-digit tier (the 2-D route): relative
    # ~1e-27 on mu*, m2 and lambda* (the claim elicitation-stability-coefficient's case)
    phi = el.weighted_entropy_potential(sp.Rational(3, 5))
    got = concordance.elicitation_lambda_star(phi, "1/5")
    lib = stability(make_family("weighted-entropy", rho="0.6"), "0.2", dps=30).values
    rel = concordance.relative_differences(got, lib)
    assert set(rel) == {"mu_star", "m2", "lambda_star"} and max(rel.values()) < 1e-24
    # lambda* = Delta mu* - 2 phi0(0)(1 - Delta^2/4)(m2)+ written out at 40 digits
    with mpmath.workdps(40):
        d = mpmath.mpf(1) / 5
        want = d * got["mu_star"] - 2 * (1 - d * d / 4) * max(got["m2"], 0) / mpmath.sqrt(
            2 * mpmath.pi
        )
        assert abs(got["lambda_star"] - want) < mpmath.mpf("1e-38")
    bad = concordance.elicitation_lambda_star(phi, "1/5", m2_power=2)
    assert max(concordance.relative_differences(bad, lib).values()) > 1e-3


def test_proof_steps_by_hand():
    # R = 1, Delta = 1: kappa(1/2) = e^{1/8} Phi(-1/2) = e^{1/8} erfc(1/(2 sqrt 2))/2 (math)
    k = math.exp(0.125) * math.erfc(0.5 / math.sqrt(2)) / 2
    steps, ratios, bound = concordance.proof_steps(
        1.0,
        1.0,
        {"e1": 0.2, "e2abs": 0.1, "m2": 0.05, "mu": 0.1},
        margin=-0.5,
        lam_lo=0.01,
        tol=1e-9,
    )
    assert all(steps.values()) and bound == pytest.approx(-0.1, rel=1e-15)
    assert ratios["m2"] == pytest.approx(0.5, rel=1e-15)
    assert ratios["mu"] == pytest.approx(2 * k, rel=1e-14)
    assert ratios["curv"] == pytest.approx(0.5 * k, rel=1e-14)
    # planted violations: E|g''(U)| > R E g'(U), mu* < kappa E g'(U), lambda* below the bound
    steps, _, _ = concordance.proof_steps(
        1.0,
        1.0,
        {"e1": 0.2, "e2abs": 0.3, "m2": 0.05, "mu": 0.05},
        margin=1.0,
        lam_lo=0.01,
        tol=1e-9,
    )
    assert [s for s, ok in steps.items() if not ok] == [
        "(m2)+ <= |m2| <= E|g''(U)| <= R E g'(U)",
        "mu* >= kappa E g'(U)",
        "lambda* >= 2 mu* margin",
    ]


def test_hand_derived_R():
    assert concordance.hand_derived_R("weighted-entropy", "0.6") == sp.Rational(5, 2)
    assert concordance.hand_derived_R("weighted-entropy", "-0.5") == 2
    assert concordance.hand_derived_R("logistic") == concordance.hand_derived_R("exp") == 1
    assert concordance.hand_derived_R("exp", scale=3) == 3
    with pytest.raises(ValueError):
        concordance.hand_derived_R("probit")


def test_bregman_identities_and_their_planted_bugs():
    mu, phi = sp.Symbol("mu", real=True), pt.GENERIC_POTENTIAL
    assert pt.bregman_mean_residual(phi, mu) == 0
    assert pt.bregman_mean_residual(phi, mu, swap=True) != 0
    assert pt.bregman_derivative_residual(phi) == 0
    assert pt.bregman_derivative_residual(phi, sign=-1) != 0
    assert pt.bregman_second_order_residual(phi) == 0
    assert pt.bregman_second_order_residual(phi, coef=1) != 0
    # E_F of the loss: phi(Y) -> E_F[phi(Y)], Y -> mu; quadratic phi: (mu - r)^2/2 + const
    quad = M**2 / 2
    e = pt.affine_expected_loss(quad, R, mu)
    assert sp.simplify(sp.diff(e, R) - (R - mu)) == 0


def test_taylor_remainder_error():
    # negative entropy r log r - r: the loss equals int_r^y (y - s)/s ds to the quadrature's
    # ~1e-35; a loss with 2 phi'(r)(y - r) or the kernel (s - r) is off by O(1)
    phi, pts = pt.PRINTED_TABLE["negative-entropy"]["phi"], [("1/3", "5/2"), ("4", "1/7")]
    assert pt.taylor_remainder_error(phi, pts) < 1e-30
    assert pt.taylor_remainder_error(phi, pts, c=2) > 0.1
    assert pt.taylor_remainder_error(phi, pts, kernel="s-r") > 0.1


def test_bregman_minimiser_cases_are_reproducible():
    names = ("quadratic", "burg")
    cases = pt.bregman_minimiser_cases(20240601, names)
    assert cases == pt.bregman_minimiser_cases(20240601, names)
    assert len(cases) == 24 + 4 * len(names)
    assert [c[0] for c in cases[24:]] == ["quadratic"] * 4 + ["burg"] * 4
    for kind, rho, r, mu in cases:
        assert r != mu and 0 < r < 1 and 0 < mu < 1
        assert (rho is None) == (kind != "weighted")
        assert rho is None or -1 < rho < 1


def test_primal_dual_witnesses():
    assert pt.superpolynomial_growth(sp.exp(TH), -sp.oo, sp.oo) == "g at +oo"
    assert pt.superpolynomial_growth(TH, -sp.oo, sp.oo) is None
    row = pt.PRINTED_TABLE["negative-entropy"]
    c = pt.conjugate_gradient(row["phi"], R, row["domain"], row["g"])
    assert c["inv_ok"] and c["g_ok"] and sp.simplify(c["conj"] - sp.exp(TH)) == 0
    assert not pt.conjugate_gradient(row["phi"], R, row["domain"], row["g"], sign=-1)["inv_ok"]
    assert not pt.conjugate_gradient(row["phi"], R, row["domain"], 2 * row["g"])["g_ok"]


def test_induced_potential_facts():
    f = pt.induced_potential_facts(pt.INDUCED_LINKS["logistic"], R)
    assert f["ftc_ok"] and f["rec_ok"] and f["increasing"] and f["ift_ok"]
    assert f["range"] == (0, 1)
    assert pt.reference_point_change(pt.INDUCED_LINKS["logistic"], R, f["pot"], f["range"]) == 0
    assert not pt.induced_potential_facts(pt.INDUCED_LINKS["exp"], R, "link")["ftc_ok"]


def test_hand_derived_sup_at():
    """Where R is reached, by hand: a limit at both ends (logistic, ρ = 0), at the end of the
    larger limit 1/(1 − |ρ|) (weighted entropy), everywhere (exp)."""
    sup_at = concordance.hand_derived_sup_at
    assert sup_at("logistic") == (False, "-inf,+inf")
    assert sup_at("exp") == (True, "everywhere")
    assert sup_at("weighted-entropy", "0.6") == (False, "+inf")
    assert sup_at("weighted-entropy", "-0.5") == (False, "-inf")
    assert sup_at("weighted-entropy", "0") == (False, "-inf,+inf")
    with pytest.raises(ValueError):
        sup_at("probit")
