"""Tests of nbl_theory.elicitation (sec:elicitation, app:elicitation, app:elicitation-geometry).

Symbolic claims are checked exactly (``sympy.simplify(a - b) == 0``). Closed forms of mu*, m2
and lambda* are cross-checked against mpmath quadrature of the *direct* definitions
eq:mu_star_m2_def (2-D for mu*, 1-D for m2) at 30 significant digits.
"""

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st

from nbl_theory import elicitation as el
from nbl_theory.errors import NBLInputError

M, Z, THETA, DELTA = el.M, el.Z, el.THETA, el.DELTA
ROWS = {row.name: row for row in el.BREGMAN_TABLE}
DELTAS = [sp.Rational(1, 5), sp.Integer(1), sp.Rational(17, 10)]  # Delta = 0.2, 1, 1.7
# 30-digit quadrature of smooth Gaussian-type integrands is accurate to ~1e-29; 1e-25 leaves
# four digits of margin for the quadrature error estimate and the truncation bound below.
RTOL_QUAD = mpmath.mpf("1e-25")

rhos = st.fractions(
    min_value=Fraction(-49, 50), max_value=Fraction(49, 50), max_denominator=50
).map(lambda f: sp.Rational(f.numerator, f.denominator))
unit = st.fractions(min_value=Fraction(1, 50), max_value=Fraction(49, 50), max_denominator=50).map(
    lambda f: sp.Rational(f.numerator, f.denominator)
)


def _close(x, ref, rtol=RTOL_QUAD):
    return abs(x - ref) <= rtol * max(abs(ref), 1)


# ------------------------------------------------------------------------------ Bregman
@pytest.mark.parametrize("name", list(ROWS))
def test_bregman_derivative_is_weight_times_residual(name):
    assert el.bregman_derivative_matches_weight(ROWS[name].phi)  # eq:app_bregman_derivative


@pytest.mark.parametrize("name", list(ROWS))
def test_bregman_consistency_gap_vanishes_symbolically(name):
    assert el.bregman_consistency_gap(ROWS[name].phi) == 0  # lem:bregman_mean


def test_bregman_consistency_gap_vanishes_for_weighted_entropy_symbolic_rho():
    assert el.bregman_consistency_gap(el.weighted_entropy_potential()) == 0


def test_bregman_loss_is_the_printed_formula():
    phi = M**2 / 2
    assert sp.simplify(el.bregman_loss(phi) - (el.Y_ - el.R_) ** 2 / 2) == 0


@settings(max_examples=15)
@given(rho=rhos, r=unit, mu=unit)
@example(rho=sp.Integer(0), r=sp.Rational(1, 2), mu=sp.Rational(1, 2))
def test_bregman_gap_zero_and_loss_nonnegative_random(rho, r, mu):
    phi = el.weighted_entropy_potential(rho)
    assert el.bregman_consistency_gap(phi, r=r, mu=mu) == 0
    loss = sp.N(el.bregman_loss(phi, r, mu), 30)  # |r - mu| >= 1/2500, so loss >> 1e-30
    assert loss > 0 if r != mu else loss == 0


# ----------------------------------------------------------------- link from a potential
@pytest.mark.parametrize("name", list(ROWS))
def test_link_derivatives_by_implicit_differentiation(name):
    assert el.check_link_derivatives_implicit(ROWS[name].phi)


def test_link_derivatives_formulas_for_logistic():
    g1, g2 = el.link_derivatives_from_potential(ROWS["binary-negative-entropy"].phi)
    assert sp.simplify(g1 - M * (1 - M)) == 0  # g' = g(1-g)
    assert sp.simplify(g2 - M * (1 - M) * (1 - 2 * M)) == 0  # g'' = g(1-g)(1-2g)


def test_link_derivatives_implicit_weighted_entropy_symbolic_rho():
    assert el.check_link_derivatives_implicit(el.weighted_entropy_potential())


# ------------------------------------------------------------------------ conjugate
CONJUGATES = {
    "quadratic": THETA**2 / 2,
    "negative-entropy": sp.exp(THETA),
    "burg": -1 - sp.log(-THETA),  # on the dual domain theta < 0
    "binary-negative-entropy": sp.log(1 + sp.exp(THETA)),
}


@pytest.mark.parametrize("name", list(ROWS))
def test_convex_conjugate_closed_forms(name):
    row = ROWS[name]
    conj = el.convex_conjugate(row.phi, M, row.domain)
    t = sp.Symbol("t", positive=True)  # theta = -t covers Burg's dual domain
    theta = -t if name == "burg" else THETA
    diff = (conj - CONJUGATES[name]).subs(THETA, theta)
    assert sp.simplify(sp.expand_log(diff)) == 0
    assert el.conjugate_derivative_is_inverse_gradient(row.phi, M, row.domain)


def test_convex_conjugate_keeps_the_branch_of_its_domain():
    """phi = (m - 10)^3/3 on (10, oo): phi'(m) = theta has two solutions, 10 - sqrt(theta)
    (sympy's first) and 10 + sqrt(theta); the maximiser on the domain is 10 + sqrt(theta), so
    phi* = (2/3) theta^(3/2) + 10 theta (by hand: m theta - phi(m) at m = 10 + sqrt(theta)).
    The branch is chosen by evaluating each solution at 30 digits at a sample point (11, where
    the two branches are 11 and 9): a precision too coarse to separate 11 from 9 keeps the
    first, giving -(2/3) theta^(3/2) + 10 theta."""
    t = sp.Symbol("t", positive=True)
    conj = el.convex_conjugate((M - 10) ** 3 / 3, M, (10, sp.oo)).subs(THETA, t)
    assert sp.simplify(conj - sp.Rational(2, 3) * t ** sp.Rational(3, 2) - 10 * t) == 0


# ------------------------------------------------------------ tab:app_bregman_examples
@pytest.mark.parametrize("name", list(ROWS))
def test_bregman_table_rows_match_recomputation(name):
    assert el.check_bregman_row(ROWS[name]) == {"w": True, "theta": True, "g": True}


def test_bregman_row_checker_detects_a_wrong_entry():
    row = ROWS["burg"]
    wrong = el.BregmanRow(row.name, row.phi, row.domain, 1 / M, row.theta, 1 / THETA)
    assert el.check_bregman_row(wrong) == {"w": False, "theta": True, "g": False}


@pytest.mark.parametrize(
    "name, dual, covers",
    [
        ("quadratic", (-sp.oo, sp.oo), True),
        ("negative-entropy", (-sp.oo, sp.oo), True),
        ("burg", (-sp.oo, 0), False),
        ("binary-negative-entropy", (-sp.oo, sp.oo), True),
    ],
)
def test_dual_domains(name, dual, covers):
    row = ROWS[name]
    assert el.dual_domain(row.phi, M, *row.domain) == dual
    assert el.covers_real_line(row.phi, M, *row.domain) is covers  # eq:app_full_dual_domain


# --------------------------------------------------------- prop:link_induced_potential
@pytest.mark.parametrize(
    "g, potential, rng",
    [
        (Z, M**2 / 2, (-sp.oo, sp.oo)),
        (sp.exp(Z), M * sp.log(M) - M + 1, (0, sp.oo)),
        (sp.exp(Z) / (1 + sp.exp(Z)), M * sp.log(M) + (1 - M) * sp.log(1 - M) + sp.log(2), (0, 1)),
    ],
)
def test_link_induced_potential(g, potential, rng):
    res = el.link_induced_potential(g)
    assert res.derivative_is_inverse and res.recovers_link
    assert res.range == rng
    for m in (sp.Rational(1, 3), sp.Rational(3, 4)):  # exact comparison at rational points
        assert sp.simplify(res.potential.subs(M, m) - potential.subs(M, m)) == 0


def test_link_induced_potential_probit_stays_an_integral():
    res = el.link_induced_potential((1 + sp.erf(Z / sp.sqrt(2))) / 2)
    assert res.inverse == sp.sqrt(2) * sp.erfinv(2 * M - 1)
    assert res.potential.has(sp.Integral)  # no elementary antiderivative; FTC still applies
    assert res.derivative_is_inverse and res.recovers_link


def test_link_induced_potential_rejects_decreasing_link():
    with pytest.raises(NBLInputError, match="strictly increasing"):
        el.link_induced_potential(-Z)


# ------------------------------------------------------------- app:elicitation-geometry
def test_weighted_entropy_facts_symbolic_rho():
    facts = el.weighted_entropy_facts()
    failed = {k: v for k, v in facts.items() if not v[2]}
    assert not failed, failed
    assert facts["g''(0)"][0] == el.RHO / 8
    assert facts["phi_third(1/2)"][0] == -8 * el.RHO


@settings(max_examples=8)
@given(rho=rhos)
@example(rho=sp.Integer(0))
def test_weighted_entropy_facts_random_rho(rho):
    facts = el.weighted_entropy_facts(rho)
    assert all(ok for *_, ok in facts.values()), {k: v for k, v in facts.items() if not v[2]}


def test_weighted_entropy_implicit_equation_exponentiated():
    rho, m = sp.Rational(1, 3), sp.Rational(1, 5)  # e^{phi'(m)} = m^{1+rho}(1-m)^{rho-1} 2^{2rho}
    lhs = sp.exp(sp.diff(el.weighted_entropy_potential(rho), M).subs(M, m))
    rhs = m ** (1 + rho) / (1 - m) ** (1 - rho) * 2 ** (2 * rho)
    assert sp.simplify(lhs / rhs) == 1


def test_weighted_entropy_normalisation_leaves_bregman_loss_unchanged():
    # "affine terms do not affect the associated Bregman divergence" (app:elicitation-geometry)
    rho = el.RHO
    phi = el.weighted_entropy_potential(rho)
    unnormalised = phi + 2 * rho * (1 - sp.log(2)) * M
    assert sp.simplify(el.bregman_loss(phi) - el.bregman_loss(unnormalised)) == 0


def test_weighted_entropy_rejects_rho_outside_unit_interval():
    with pytest.raises(NBLInputError, match="rho"):
        el.weighted_entropy_potential(1)


# ---------------------------------------------------------------------- self-concordance
@pytest.mark.parametrize("name", list(ROWS))
def test_self_concordance_equivalence_rows(name):
    assert el.check_self_concordance_equivalence(ROWS[name].phi)


@settings(max_examples=10)
@given(rho=rhos)
def test_self_concordance_equivalence_and_constant_random_rho(rho):
    assert el.check_self_concordance_equivalence(el.weighted_entropy_potential(rho))
    res = el.self_concordance_constant_closed_form("weighted-entropy", rho)
    assert res["R"] == 1 / (1 - abs(rho)) and res["attained"] is False


def test_self_concordance_constant_weighted_entropy_symbolic_rho():
    res = el.self_concordance_constant_closed_form("weighted-entropy")
    for rho in (sp.Rational(-9, 10), sp.Rational(-1, 7), 0, sp.Rational(2, 3)):
        assert res["R"].subs(el.RHO, rho) == 1 / (
            1 - abs(sp.Integer(rho) if isinstance(rho, int) else rho)
        )


def test_self_concordance_weighted_entropy_sup_approached_not_exceeded():
    # independent numeric check of the sympy maximisation, rho = 1/2: R = 2
    ratio = el.self_concordance_constant_closed_form("weighted-entropy", sp.Rational(1, 2))
    f = sp.lambdify(M, ratio["ratio"], modules="mpmath")
    with mpmath.workdps(30):
        vals = [abs(f(mpmath.mpf(k) / 1000)) for k in range(1, 1000)]
        assert max(vals) < 2
        assert 2 - abs(f(1 - mpmath.mpf("1e-12"))) < mpmath.mpf("1e-10")  # |ratio| -> 2 linearly


@pytest.mark.parametrize(
    "kind, R, attained",
    [
        ("logistic", 1, False),
        ("exp", 1, True),
        ("identity", 0, True),
        ("probit", sp.oo, False),
    ],
)
def test_self_concordance_constants(kind, R, attained):
    res = el.self_concordance_constant_closed_form(kind)
    assert res["R"] == R and res["attained"] is attained


@pytest.mark.parametrize(
    "f, lo, hi, sup",
    [
        (lambda m: m * (1 - m), 0, 1, sp.Rational(1, 4)),  # at m = 1/2
        (lambda z: z * sp.exp(-(z**2)), -sp.oo, sp.oo, 1 / sp.sqrt(2 * sp.E)),  # z = ±1/sqrt(2)
        (lambda m: (m - 2) * (3 - m), 2, 3, sp.Rational(1, 4)),  # at m = 5/2: off 0
    ],
)
def test_a_sup_attained_inside_the_interval_is_found(f, lo, hi, sup):
    """``_sup_abs`` takes the larger of the one-sided limits and |f| at the critical points
    *inside* (lo, hi): the paper's links have their sup R at the ends (not attained, the
    constants above), so these are functions whose sup is an interior maximum, by hand."""
    x = sp.Symbol("x", real=True)
    best, attained = el._sup_abs(f(x), x, lo, hi)
    assert sp.simplify(best - sup) == 0 and attained is True


def test_self_concordance_logistic_limits_and_probit_ratio():
    assert el.self_concordance_constant_closed_form("logistic")["limits"] == (1, -1)
    assert el.self_concordance_constant_closed_form("probit")["ratio"] == -Z


# ---------------------------------------------------------------- mu*, m2, lambda*
def _s(delta):
    return mpmath.sqrt(1 - delta**2 / 4)


def _mu_star_2d(gprime, delta):
    """E[g'(U + Delta Z/2) 1{Z>0}] (eq:mu_star_m2_def) by 2-D Gauss-Legendre on a box.

    The Gaussian factors are truncated at 14 standard deviations around their (tilted) centre;
    for the integrands used here (g' bounded, or g' = exp which tilts the Gaussian) the
    neglected mass is below Phi(-14) < 1e-44, far under RTOL_QUAD.
    """
    s = _s(delta)
    cu = s**2 if gprime is mpmath.exp else 0  # centre of the tilted U-density
    cz = delta / 2 if gprime is mpmath.exp else 0
    c = 1 / (2 * mpmath.pi * s)

    def f(u, z):  # g'(u + Delta z/2) * phi_s(u) * phi_0(z)
        return gprime(u + delta * z / 2) * c * mpmath.exp(-(u**2) / (2 * s**2) - z**2 / 2)

    return mpmath.quad(
        f,
        mpmath.linspace(cu - 14 * s, cu + 14 * s, 3),
        mpmath.linspace(0, cz + 14, 3),
        method="gauss-legendre",
    )


def _m2_1d(gsecond, delta):
    """E[g''(U)], U ~ N(0, s^2) (eq:mu_star_m2_def)."""
    s = _s(delta)
    return mpmath.quad(lambda u: gsecond(u) * mpmath.npdf(u, 0, s), [-mpmath.inf, 0, mpmath.inf])


def _eval(expr, delta):
    """A closed form at an exact Delta, to 35 digits, as an mpmath number."""
    return mpmath.mpmathify(str(sp.N(expr.subs(DELTA, delta), 35)))


def _quad_m(integral, delta, points):
    """Evaluate a 1-D Integral in m from el.mustar_integral / el.m2_integral with mpmath."""
    f = sp.lambdify(M, integral.function.subs(DELTA, delta), modules="mpmath")
    return mpmath.quad(f, points)


@pytest.fixture(scope="module")
def closed():
    """closed_form_stability for both potentials, computed once (each call takes ~1 s)."""
    return {
        "identity": el.closed_form_stability("identity"),
        "exp": el.closed_form_stability("exp"),
    }


def test_closed_form_stability_identity_link():
    res = el.closed_form_stability("quadratic")
    assert (res["mu_star"], res["m2"], res["lambda_star"]) == (sp.Rational(1, 2), 0, DELTA / 2)


def test_closed_form_stability_exp_link_exact(closed):
    res = closed["exp"]
    assert el.closed_form_stability("negative-entropy")["mu_star"] == res["mu_star"]
    s2 = 1 - DELTA**2 / 4
    phi0_0 = 1 / sp.sqrt(2 * sp.pi)
    mu_ref = sp.sqrt(sp.E) * (1 + sp.erf(DELTA / 2 / sp.sqrt(2))) / 2  # sqrt(e) Phi(Delta/2)
    assert sp.simplify(res["mu_star"] - mu_ref) == 0
    assert sp.simplify(res["m2"] - sp.exp(s2 / 2)) == 0  # E e^U
    lam_ref = DELTA * mu_ref - 2 * phi0_0 * s2 * sp.exp(s2 / 2)
    assert sp.simplify(res["lambda_star"] - lam_ref) == 0


@pytest.mark.parametrize("delta", DELTAS)
def test_closed_forms_against_2d_definitions(delta, closed):
    ident, expo = closed["identity"], closed["exp"]
    with mpmath.workdps(30):
        d = mpmath.mpf(delta.p) / delta.q
        mu_exp = _mu_star_2d(mpmath.exp, d)
        m2_exp = _m2_1d(mpmath.exp, d)
        assert _close(mu_exp, _eval(expo["mu_star"], delta))
        assert _close(m2_exp, _eval(expo["m2"], delta))
        lam = d * mu_exp - 2 * mpmath.npdf(0) * (1 - d**2 / 4) * max(m2_exp, 0)
        assert _close(lam, _eval(expo["lambda_star"], delta))  # eq:decision_stability
        mu_id = _mu_star_2d(lambda x: mpmath.mpf(1), d)
        assert _close(mu_id, _eval(ident["mu_star"], delta))
        assert _close(d * mu_id, _eval(ident["lambda_star"], delta))


@pytest.mark.parametrize("delta", DELTAS)
def test_m_integrals_match_closed_forms_exp_link(delta, closed):
    row, expo = ROWS["negative-entropy"], closed["exp"]
    mu_int = el.mustar_integral(row.phi, row.domain)
    m2_int = el.m2_integral(row.phi, row.domain)
    with mpmath.workdps(30):
        pts = [0, 1, mpmath.inf]
        assert _close(_quad_m(mu_int, delta, pts), _eval(expo["mu_star"], delta))
        assert _close(_quad_m(m2_int, delta, pts), _eval(expo["m2"], delta))


@pytest.mark.parametrize("delta", [sp.Integer(1), sp.Rational(1, 2)])
def test_lambda_star_expression_is_eq_elicitation_stability_coefficient(closed, delta):
    """At Δ = 1 and Δ = 1/2: at Δ = 1 alone, Δ² and Δ⁴ in (1 − Δ²/4) are the same number
    (a mutant exponent survived)."""
    row = ROWS["negative-entropy"]
    lam = el.lambda_star_expression(row.phi, row.domain)
    integrals = lam.atoms(sp.Integral)
    assert len(integrals) == 2 and lam.has(sp.Max)
    with mpmath.workdps(30):
        values = {i: sp.Float(str(_quad_m(i, delta, [0, 1, mpmath.inf])), 30) for i in integrals}
        lam_num = mpmath.mpmathify(str(sp.N(lam.xreplace(values).subs(DELTA, delta), 30)))
        # the 30-digit Floats substituted for the integrals limit the result to ~1e-28
        assert _close(lam_num, _eval(closed["exp"]["lambda_star"], delta))


def test_m_integrals_match_2d_definitions_softplus():
    # softplus g = log(1 + e^z): asymmetric link, g^{-1}(m) = log(e^m - 1) on (0, inf);
    # phi is kept as an unevaluated integral (only phi', phi'', phi''' enter).
    s = sp.Symbol("s", positive=True)
    phi = sp.Integral(sp.log(sp.exp(s) - 1), (s, 1, M))
    mu_int, m2_int = el.mustar_integral(phi, (0, sp.oo)), el.m2_integral(phi, (0, sp.oo))
    delta = sp.Integer(1)
    with mpmath.workdps(30):
        d = mpmath.mpf(1)
        mu_ref = _mu_star_2d(lambda x: 1 / (1 + mpmath.exp(-x)), d)
        m2_ref = _m2_1d(lambda x: mpmath.exp(x) / (1 + mpmath.exp(x)) ** 2, d)
        assert _close(_quad_m(mu_int, delta, [0, 1, mpmath.inf]), mu_ref)
        assert _close(_quad_m(m2_int, delta, [0, 1, mpmath.inf]), m2_ref)


def test_m2_integral_zero_for_logistic():
    # g'' of the logistic link is odd and U is symmetric, so m2 = 0
    row = ROWS["binary-negative-entropy"]
    with mpmath.workdps(30):
        val = _quad_m(el.m2_integral(row.phi, row.domain), sp.Integer(1), [0, mpmath.mpf(1) / 2, 1])
        assert abs(val) < RTOL_QUAD


def test_closed_form_stability_rejects_unknown_potential():
    with pytest.raises(NBLInputError):
        el.closed_form_stability("burg")


def test_a_printed_entry_that_holds_only_on_the_domain_is_checked_on_it():
    """check_bregman_row decides equalities on the potential's open domain, where an entry may
    hold only there: φ = m³/6 on (0, 1) has w = φ'' = m, printed as √(m²) (equal for m > 0
    only). Checked on (0, 1): equal; on (−1, 0): not."""
    M, T = el.M, el.THETA
    row = el.BregmanRow("cubic", M**3 / 6, (0, 1), sp.sqrt(M**2), M**2 / 2, sp.sqrt(2 * T))
    assert el.check_bregman_row(row)["w"] is True
    neg = el.BregmanRow("cubic", M**3 / 6, (-1, 0), sp.sqrt(M**2), M**2 / 2, -sp.sqrt(2 * T))
    assert el.check_bregman_row(neg)["w"] is False


def test_a_table_row_is_checked_on_its_own_interval_away_from_zero():
    """Binary negative entropy shifted to I = (1, 2): phi = (m-1) log(m-1) + (2-m) log(2-m),
    w = phi'' = 1/(m-1) + 1/(2-m), written with |m - 1| and |2 - m|, equal to m - 1 and
    2 - m on I only (by hand). The row's entries are compared on a parametrisation of I itself; one of another
    interval, e.g. (0, 1), would refuse the printed w."""
    phi = (M - 1) * sp.log(M - 1) + (2 - M) * sp.log(2 - M)
    w = 1 / sp.Abs(M - 1) + 1 / sp.Abs(2 - M)
    g = 1 + sp.exp(THETA) / (1 + sp.exp(THETA))
    row = el.BregmanRow("shifted", phi, (1, 2), w, sp.log(M - 1) - sp.log(2 - M), g)
    assert el.check_bregman_row(row) == {"w": True, "theta": True, "g": True}
    off = el.BregmanRow("shifted", phi, (1, 2), 1 / sp.Abs(M) + 1 / (2 - M), row.theta, g)
    assert el.check_bregman_row(off)["w"] is False


def test_a_row_on_a_half_line_bounded_above_is_checked_on_it():
    """nbl_theory.elicitation:107 (the parametrisation m = hi − u of I = (−∞, hi)): the
    potential φ = −m log(−m) + m on (−∞, 0) has w = φ'' = −1/m, printed here as 1/|m| (equal
    for m < 0 only, by hand), θ = φ' = −log(−m) and g = (φ')⁻¹ = −e^{−ϑ}. Checked on I:
    every entry holds; the same w on (0, ∞) would be −1/m ≠ 1/|m|."""
    M, T = el.M, el.THETA
    phi = -M * sp.log(-M) + M
    row = el.BregmanRow("half-line", phi, (-sp.oo, 0), 1 / sp.Abs(M), -sp.log(-M), -sp.exp(-T))
    assert el.check_bregman_row(row) == {"w": True, "theta": True, "g": True}
