"""Links: constructors, families, exact derivatives from potentials, validation errors."""

import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from nbl_theory import Link, NBLInputError
from nbl_theory.errors import DivergentIntegralError
from nbl_theory.expressions import exact_number
from nbl_theory.families import FAMILIES, TWO_TRANSITION_DEFAULTS, family_defaults, make_family
from nbl_theory.links import M, Z


def test_two_transition_defaults_match_paper():
    # eq:link_tanh and app:tanh-geometry: p0=0.10, a1=0.10, a2=0.25, b1=2, b2=1.4, mu1=-1.25
    link = make_family("two-transition", mu2="1.244122")
    p = link.params
    assert (p["p0"], p["a1"], p["a2"], p["b1"], p["b2"], p["mu1"]) == (
        sp.Rational(1, 10),
        sp.Rational(1, 10),
        sp.Rational(1, 4),
        2,
        sp.Rational(7, 5),
        sp.Rational(-5, 4),
    )
    assert p["mu2"] == sp.Rational(1244122, 10**6)
    expected = (
        sp.Rational(1, 10)
        + sp.Rational(1, 10) * (1 + sp.tanh(2 * (Z + sp.Rational(5, 4))))
        + sp.Rational(1, 4) * (1 + sp.tanh(sp.Rational(7, 5) * (Z - p["mu2"])))
    )
    assert sp.simplify(link.expr - expected) == 0
    assert set(TWO_TRANSITION_DEFAULTS) == set(p)


def test_every_default_is_overridable():
    link = make_family("two-transition", p0="0", a1="0.2", b2="3", mu2="0")
    assert link.params["a1"] == sp.Rational(1, 5) and link.params["b2"] == 3


def test_potential_derivatives_follow_paper_formulas():
    # sec:decision_stability_geometry: g' = 1/phi''(m), g'' = -phi'''(m)/phi''(m)^3
    link = make_family("binary-negative-entropy")
    d = link.derivatives
    assert sp.simplify(d["g1_m"] - M * (1 - M)) == 0
    assert sp.simplify(d["g2_m"] - M * (1 - M) * (1 - 2 * M)) == 0  # logistic: g'' = g'(1 - 2g)


@pytest.mark.parametrize("z0", [-30.0, -3.0, -0.5, 0.0, 0.7, 4.0, 25.0])
def test_binary_entropy_equals_logistic_numerically(z0):
    """tab:app_bregman_examples row 4: g = e^z/(1+e^z). Bisection inversion of phi' is accurate
    to ~1e-16 absolute in m (80 halvings of the chart interval), hence rtol 1e-12 and, where the
    value itself is 0 (g''(0)), atol 1e-15."""
    pot = make_family("binary-negative-entropy")
    logistic = make_family("logistic")
    for order in (0, 1, 2):
        assert_allclose(
            pot.derivative_numpy(np.array([z0]), order),
            logistic.derivative_numpy(np.array([z0]), order),
            rtol=1e-12,
            atol=1e-15,
        )


def test_negative_entropy_is_exp_and_quadratic_is_identity():
    z = np.linspace(-5, 5, 11)
    assert_allclose(make_family("negative-entropy").derivative_numpy(z, 0), np.exp(z), rtol=1e-12)
    assert_allclose(make_family("quadratic").derivative_numpy(z, 0), z, rtol=1e-12, atol=1e-13)


def test_burg_entropy_rejected_for_dual_domain():
    with pytest.raises(NBLInputError, match="does not cover R.*eq:app_full_dual_domain"):
        make_family("burg-entropy")


@pytest.mark.parametrize(
    "expr, fragment",
    [
        ("-z", "not strictly increasing"),
        ("z**2", "not strictly increasing"),
        ("sin(z)", "not strictly increasing"),
        ("3", "does not depend on z"),
        ("log(z)", "not finite"),
    ],
)
def test_non_monotone_links_rejected(expr, fragment):
    with pytest.raises(NBLInputError, match=fragment):
        Link.from_expression(expr)


def test_weakly_flat_but_strictly_increasing_link_accepted():
    Link.from_expression("z**3 + z")  # g' > 0
    Link.from_expression("z**3")  # g'(0) = 0 at a single point: still strictly increasing


def test_divergent_gaussian_integral_rejected():
    with pytest.raises(DivergentIntegralError, match="diverges"):
        Link.from_expression("z + sinh(z**3)")


@pytest.mark.parametrize(
    "expr, domain, fragment",
    [
        ("m**3", "-1,1", "not strictly convex"),
        ("-m**2", "-inf,inf", "not strictly convex"),
        ("-log(m)", "0,inf", "does not cover R"),
        ("m**2/2", "0,1", "does not cover R"),
        ("m*log(m)", "0,1", "does not cover R"),
    ],
)
def test_bad_potentials_rejected(expr, domain, fragment):
    with pytest.raises(NBLInputError, match=fragment):
        Link.from_potential(expr, domain=domain)


@pytest.mark.parametrize("domain", ["1", "2,1", "a,b", (0,)])
def test_bad_domains(domain):
    with pytest.raises(NBLInputError):
        Link.from_potential("m*log(m)+(1-m)*log(1-m)", domain=domain)


@pytest.mark.parametrize(
    "name, params, fragment",
    [
        ("weighted-entropy", {"rho": "1"}, "rho must lie in"),
        ("weighted-entropy", {"rho": "-1.5"}, "rho must lie in"),
        ("weighted-entropy", {"rho": "nan"}, "finite"),
        ("two-transition", {"a1": "-0.1"}, "a1 must be > 0"),
        ("two-transition", {"b2": "0"}, "b2 must be > 0"),
        ("two-transition", {"mu3": "1"}, "no parameter"),
        ("logistic", {"x": "1"}, "takes no parameters"),
        ("nope", {}, "unknown family"),
    ],
)
def test_family_parameter_errors(name, params, fragment):
    with pytest.raises(NBLInputError, match=fragment):
        make_family(name, **params)


def test_all_families_build_or_reject_cleanly():
    for name in FAMILIES:
        if name == "burg-entropy":
            continue
        link = make_family(name)
        assert link.family_name == name


@pytest.mark.parametrize(
    "make",
    [
        lambda: Link.from_expression("exp(10*z)"),
        lambda: Link.from_potential("0.1*(m*log(m) - m)", domain="0,inf"),  # the same g = e^{10z}
    ],
)
def test_too_fast_growth_refused_by_both_constructors(make):
    """E e^{10Z} is finite, but its mass sits near z = 10: both constructors refuse it with the
    same message (found by the population-field tests: the potential form used to pass and the
    float64 tier then truncated its integrals)."""
    with pytest.raises(DivergentIntegralError, match="grows too fast"):
        make()


def test_fast_but_accepted_growth_is_integrated_correctly():
    """g = e^{5z}: μ_g = E g'(Z) = 5 e^{12.5} (closed form); the float64 window widens."""
    from nbl_theory.stability import stability

    r = stability(Link.from_expression("exp(5*z)"), "0.5")
    exact = 5 * math.exp(12.5)
    assert abs(r.values["mu_g"] - exact) <= max(r.errors["mu_g"], 1e-15 * exact)
    assert abs(r.values["mu_g"] - exact) <= 1e-12 * exact


# --------------------------------------------------------------------- stable, bounded derivatives
def test_tanh_power_derivative_has_no_cancellation():
    """d tanh = sech², written so: g' of tanh(z)**21 is 21 tanh²⁰/cosh² (a product, exact in
    every digit), not 21 tanh²⁰(1 − tanh²) expanded into a sum that cancels. Checked against
    mpmath at 40 digits, rtol 1e-13 (a few ulps of the float64 evaluation)."""
    import mpmath

    link = Link.from_expression("tanh(z)**21")
    assert link.derivatives["g1"] == 21 * sp.tanh(Z) ** 20 / sp.cosh(Z) ** 2
    zs = np.array([1e-3, 0.05, 0.5, 3.0, 15.0, -0.08, -3.0])
    got = link.derivative_numpy(zs, 1)
    with mpmath.workdps(40):
        ref = [float(21 * mpmath.tanh(x) ** 20 / mpmath.cosh(x) ** 2) for x in zs]
    assert_allclose(got, ref, rtol=1e-13, atol=0)
    assert np.all(got >= 0)


def test_two_transition_derivatives_are_the_former_rewritten_form():
    """For the paper's links the stable form equals what the former global rewriting produced
    (tanh² → 1 − sech², expanded): g' = Σ a_i b_i / cosh², g'' = −Σ 2 a_i b_i² tanh / cosh²."""
    link = make_family("two-transition", mu2="2.144072")
    p = link.params
    a1, b1 = p["b1"] * (Z - p["mu1"]), p["b2"] * (Z - p["mu2"])
    g1 = p["a1"] * p["b1"] / sp.cosh(a1) ** 2 + p["a2"] * p["b2"] / sp.cosh(b1) ** 2
    g2 = (
        -2 * p["a1"] * p["b1"] ** 2 * sp.tanh(a1) / sp.cosh(a1) ** 2
        - 2 * p["a2"] * p["b2"] ** 2 * sp.tanh(b1) / sp.cosh(b1) ** 2
    )
    assert link.derivatives["g1"] == g1
    assert link.derivatives["g2"] == g2


def test_product_of_tanh_factors_stays_a_product():
    """(3+tanh(z/1))···(3+tanh(z/10)) used to be expanded globally (938 MB for 12 factors)."""
    text = "*".join(f"(3+tanh(z/{k}))" for k in range(1, 11))
    g1 = Link.from_expression(text).derivatives["g1"]
    assert g1.is_Add and len(g1.args) == 10  # one term per factor (product rule) ...
    assert all(sum(1 for f in t.args if f.is_Add) == 9 for t in g1.args)  # ... 9 unexpanded


def test_derivative_size_bound_is_checked_before_differentiating():
    from nbl_theory.derivatives import MAX_DERIVATIVE_NODES, derivative_size, tree_size

    big = sp.Mul(*[3 + sp.tanh(Z / k) for k in range(1, 31)])
    with pytest.raises(
        NBLInputError,
        match=rf"g'' would have about \d+ expression nodes; "
        rf"the bound is {MAX_DERIVATIVE_NODES}",
    ):
        Link.from_expression(big)
    # the estimate is generous: at least the size sympy builds, on these examples
    for e in [
        sp.exp(sp.exp(sp.exp(Z))),
        Z**Z**Z,
        sp.sin(sp.sin(sp.sin(Z))) * sp.erf(Z),
        1 / (1 + sp.exp(-3 * Z)) ** 2,
    ]:
        assert derivative_size(e, Z) >= tree_size(sp.diff(e, Z))


@pytest.mark.parametrize(
    "e",
    [
        Z,
        sp.Integer(3),
        sp.exp(-Z) + Z**2,
        1 / (1 + sp.exp(-3 * Z)) ** 2,
        sp.Mul(*[3 + sp.tanh(Z / k) for k in range(1, 6)]),
        sp.tanh(Z) + sp.tanh(Z),  # a shared subtree, counted each time it occurs
    ],
)
def test_tree_size_counts_every_node(e):
    """``tree_size``: the number of nodes of the expression tree, shared subtrees counted each
    time (its docstring) — sympy's own preorder traversal visits exactly those nodes."""
    from nbl_theory.derivatives import tree_size

    assert tree_size(e) == sum(1 for _ in sp.preorder_traversal(e))
    assert tree_size(sp.Add(e, Z, evaluate=False)) == tree_size(e) + 2


# --------------------------------------------------------------------- float64 values
def test_overflowing_float_values_are_re_evaluated_in_ball_arithmetic():
    """g' of sigmoid(80 z) at z = −10 is e^{800}/(1 + e^{800})² = NaN in float64 (inf/inf);
    it is re-evaluated in Arb at the same point (reference: mpmath at 40 digits, rtol 1e-15)."""
    import mpmath

    link = Link.from_expression("sigmoid(80*z)")
    got = link.derivative_numpy(np.array([-10.0, -9.0, 0.0]), 1)
    with mpmath.workdps(40):
        ref = [
            float(80 * mpmath.exp(-80 * x) / (1 + mpmath.exp(-80 * x)) ** 2) for x in (-10, -9, 0)
        ]
    assert_allclose(got, ref, rtol=1e-15, atol=0)


def test_finite_float_values_are_untouched():
    """Where float64 is finite the lambdified value is returned as is (bit for bit)."""
    link = make_family("logistic")
    z = np.linspace(-30, 30, 601)
    raw = sp.lambdify(Z, link.derivatives["g2"], "numpy")(z)
    assert np.array_equal(link.derivative_numpy(z, 2), raw)


# --------------------------------------------------------------------- the constructor boundary
def test_constructor_errors_are_one_line_input_errors():
    """sympy/lambdify failures on input that bypasses the parser (a sympy expression with an
    integer of 5001 digits) surface as one-line NBLInputErrors naming what failed."""
    with pytest.raises(NBLInputError, match="could not be processed: ValueError") as info:
        Link.from_expression(Z + sp.Integer(10) ** 5000)
    assert "\n" not in str(info.value)


_leaf = st.one_of(
    st.just("z"),
    st.just("z"),
    st.integers(1, 9).map(str),
    st.decimals(min_value=-5, max_value=5, places=3, allow_nan=False, allow_infinity=False).map(
        lambda d: f"({d})"
    ),
)


def _combine(children):
    from nbl_theory.expressions import FUNCTIONS

    return st.one_of(
        st.tuples(children, st.sampled_from(["+", "-", "*", "/", "**"]), children).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        ),
        st.tuples(st.sampled_from(sorted(FUNCTIONS)), children).map(lambda t: f"{t[0]}({t[1]})"),
    )


@settings(max_examples=60, deadline=None)
@given(st.recursive(_leaf, _combine, max_leaves=8))
@example("sinh(2.903)**sinh(z)")  # found by this test: simplify() without a time bound
@example("exp(exp(exp(z)))")  # was a MemoryError
def test_fuzz_links_raise_only_input_errors(text):
    try:
        Link.from_expression(text)
    except NBLInputError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=30, deadline=None)
@given(
    st.recursive(_leaf, _combine, max_leaves=6).map(lambda s: s.replace("z", "m")),
    st.sampled_from(["0,1", "-inf,inf", "0,inf", "-1,1"]),
)
@example("sigmoid(Phi(sigmoid(m)))", "0,1")  # sympy cancel() took 12 s
@example("(-0.532)**m", "-1,1")  # exact sympy powers with huge denominators hung
@example("(m*m)**cos(1)", "0,1")  # |m| resolved on the domain (no DiracDelta)
def test_fuzz_potentials_raise_only_input_errors(text, domain):
    try:
        Link.from_potential(text, domain=domain)
    except NBLInputError as exc:
        assert "\n" not in str(exc)


def test_fast_growth_is_a_toolkit_limit_not_divergence():
    """E e^{50 Z} = e^{1250} is finite: exp(z)**50 overflows float64 but is neither "not finite"
    nor "divergent"; its Gaussian mass sits at z = 50, beyond the quadrature windows, so it is
    refused as growing too fast *for the toolkit*. A scale factor is not growth: z·e^{690}."""
    with pytest.raises(DivergentIntegralError, match="grows too fast for the toolkit") as info:
        Link.from_expression("exp(z)**50")
    assert "diverges" not in str(info.value) and "not finite" not in str(info.value)
    Link.from_expression("z*exp(690)")


def test_a_potential_without_a_domain_lives_on_the_unit_interval():
    """Link.from_potential's documented default domain is (0, 1), the mean space of Bernoulli
    rewards: the binary entropy given no domain is the logistic link on it."""
    link = Link.from_potential("m*log(m)+(1-m)*log(1-m)")
    assert tuple(link.domain) == (0, 1)
    assert float(link.g_numpy(0.0)) == pytest.approx(0.5, abs=1e-15)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_family_defaults_are_the_built_links_parameters(name):
    """family_defaults (read without building the link) names exactly the parameters the
    family's link is built with, at the same values."""
    try:
        link = make_family(name)
    except NBLInputError:  # refused as a whole (burg-entropy): no parameters to have
        assert family_defaults(name) == {}
        return
    defaults = family_defaults(name)
    assert list(defaults) == list(link.params)
    assert all(exact_number(v) == link.params[k] for k, v in defaults.items())


def test_a_family_links_name_carries_every_parameter_moved_from_its_default():
    """Two links of a family never share a name: ``two-transition`` names mu2 always and
    each other parameter that differs from its default (a2 = 0.5 printed as the paper's
    near-critical link, with the opposite sign of λ*, before)."""
    assert make_family("two-transition").name == "two-transition(mu2=2.144072)"
    assert make_family("two-transition", p0="0.1").name == "two-transition(mu2=2.144072)"
    moved = make_family("two-transition", a2="0.5", mu1="-1")
    assert moved.name == "two-transition(mu2=2.144072, a2=0.5, mu1=-1)"


def test_the_derivative_size_bound_is_30000_nodes_on_either_side():
    """The refusal bound of bounded_diff (its message names it): a product of 69 factors
    (3 + tanh(z/k)) has an estimated derivative of 29,457 nodes and is differentiated; with 70
    factors, 30,304 nodes, it is refused before sympy builds anything (the estimates by
    ``derivative_size``, deterministic)."""
    from nbl_theory.derivatives import bounded_diff, derivative_size

    def product(m):
        return sp.Mul(*[3 + sp.tanh(Z / k) for k in range(1, m + 1)])

    assert (derivative_size(product(69), Z), derivative_size(product(70), Z)) == (29457, 30304)
    assert bounded_diff(product(69), Z).is_Add  # the product rule's 69 terms
    with pytest.raises(NBLInputError, match="about 30304 expression nodes; the bound is 30000"):
        bounded_diff(product(70), Z)


@pytest.mark.parametrize(
    "q, ref",
    [
        (sp.pi, lambda: mpmath.pi),
        (sp.sqrt(2), lambda: mpmath.sqrt(2)),
        (sp.E / 3, lambda: mpmath.e / 3),
    ],
)
def test_a_finite_sympy_number_is_converted_at_the_working_precision(q, ref):
    """``mp_exact`` turns a finite sympy number into an mpf: a rational by one division,
    anything else evaluated by sympy at the working precision plus 5 guard digits — π, √2 and
    e/3 at 40 digits equal mpmath's own to 40 digits (√2 was refused: ``sp.Float(sqrt(2), n)``
    raises; the domains the input grammar builds hold decimals only, so no user saw it)."""
    from nbl_theory.link_numeric import mp_exact

    with mpmath.workdps(40):
        got, want = mp_exact(q), ref()
        assert abs(got - want) <= mpmath.mpf(10) ** -39 * abs(want)


@pytest.mark.parametrize("domain", [(0, 1), (2, 5), (-1, 1), (0, sp.oo), (-sp.oo, 3)], ids=str)
def test_the_mpmath_chart_rate_is_the_derivative_of_the_chart(domain):
    """``domain_map_mpmath(domain, t)`` returns (m(t), m − lo, hi − m, dm/dt): on a finite
    domain m = lo + w/(1 + e^{−t}), so dm/dt = (m − lo)(hi − m)/w — the domains of the paper's
    potentials have w = 1, where a rate off by a factor w would pass unseen. Reference:
    mpmath's numerical derivative of m(t) at 30 digits, to 1e-20 relative (float64: 1e-14,
    a few roundings of e^{±t} and the products)."""
    from nbl_theory.link_numeric import domain_map_mpmath, domain_map_numpy

    dom = tuple(sp.Integer(x) if isinstance(x, int) else x for x in domain)
    with mpmath.workdps(30):
        for t in (mpmath.mpf(-2), mpmath.mpf("0.3"), mpmath.mpf(4)):
            rate = domain_map_mpmath(dom, t)[3]
            want = mpmath.diff(lambda s: domain_map_mpmath(dom, s)[0], t)
            assert abs(rate - want) <= mpmath.mpf(10) ** -20 * abs(want)
            # the float64 chart's rate too (the simulation's): to 1e-14 relative
            f_rate = domain_map_numpy(dom, np.array([float(t)]))[3][0]
            assert abs(f_rate - float(want)) <= 1e-14 * abs(float(want))
