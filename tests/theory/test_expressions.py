"""Whitelisted expression parser: accepted grammar, rejections, exact decimals, fuzzing."""

import pytest
import sympy as sp
from hypothesis import example, given
from hypothesis import strategies as st

from nbl_theory.errors import NBLInputError
from nbl_theory.expressions import FUNCTIONS, exact_number, parse_expression

z = sp.Symbol("z", real=True)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("log(1+exp(z))", sp.log(1 + sp.exp(z))),
        (
            "0.1 + 0.25*tanh(1.4*(z-2.144072))",
            sp.Rational(1, 10)
            + sp.Rational(1, 4) * sp.tanh(sp.Rational(7, 5) * (z - sp.Rational(2144072, 10**6))),
        ),
        ("z**3 + z", z**3 + z),
        ("-z", -z),
        ("Phi(z)", (1 + sp.erf(z / sp.sqrt(2))) / 2),
        ("pi*z + E", sp.pi * z + sp.E),
        ("1e-3*z", z / 1000),
    ],
)
def test_parses_exactly(text, expected):
    assert sp.simplify(parse_expression(text, "z") - expected) == 0


def test_decimal_literals_are_exact_rationals():
    expr = parse_expression("0.1*z", "z")
    assert expr.coeff(z) == sp.Rational(1, 10)
    assert exact_number("-1.25") == sp.Rational(-5, 4)
    assert exact_number(0.1) == sp.Rational(1, 10)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("__import__('os')", "not allowed"),
        ("z.real", "attribute access (a.b) is not allowed in an expression: 'z.real'"),
        ("(lambda x: x)(z)", "not allowed"),
        ("[z for z in 1]", "not allowed"),
        ("exp(z)[0]", "indexing (a[i]) is not allowed in an expression: 'exp(z)[0]'"),
        ("z ^ 2", "'**'"),
        ("open('f')", "not allowed"),
        ("exp(x=z)", "keyword"),
        ("exp(z, z)", "exactly 1"),
        ("y + z", "unknown name 'y'"),
        ("__class__", "not allowed"),
        ("'abc'", "numeric"),
        ("z +", "malformed"),
        ("", "empty"),
        ("1/0", "division by zero"),
        ("z if z else z", "not allowed"),
        ("z == z", "not allowed"),
        ("exp", "must be called"),
        ("True", "numeric"),
    ],
)
def test_rejects_with_clear_message(text, fragment):
    with pytest.raises(NBLInputError) as info:
        parse_expression(text, "z")
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message


def test_parameters_are_substituted_exactly():
    expr = parse_expression("a*z", "z", parameters={"a": "0.3"})
    assert expr == sp.Rational(3, 10) * z


@pytest.mark.parametrize("bad", ["nan", "inf", "-inf", float("nan"), float("inf"), "abc", True])
def test_exact_number_rejects_non_finite(bad):
    with pytest.raises(NBLInputError):
        exact_number(bad)


# --------------------------------------------------------------------- fuzzing
_ALLOWED_CHARS = "z0123456789.+-*/() eapxlogtnhsqr_,[]'\"^=<>:!@#lambda"


@given(st.text(alphabet=_ALLOWED_CHARS, max_size=40))
@example("__import__")
@example("z" * 3000)
@example("(" * 200 + "z" + ")" * 200)
def test_fuzz_never_crashes(text):
    """Arbitrary text either parses to a sympy expression in z or raises NBLInputError."""
    try:
        expr = parse_expression(text, "z")
    except NBLInputError:
        return
    assert isinstance(expr, sp.Basic)
    assert expr.free_symbols <= {z}


_leaf = st.one_of(
    st.just("z"),
    st.integers(1, 9).map(str),
    st.decimals(min_value=-5, max_value=5, places=3, allow_nan=False, allow_infinity=False).map(
        lambda d: f"({d})"
    ),
)
_unary = sorted(set(FUNCTIONS) - {"log", "sqrt", "log1p"})


def _combine(children):
    return st.one_of(
        st.tuples(children, st.sampled_from(["+", "-", "*"]), children).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        ),
        st.tuples(st.sampled_from(_unary), children).map(lambda t: f"{t[0]}({t[1]})"),
    )


@given(st.recursive(_leaf, _combine, max_leaves=8))
def test_generated_expressions_round_trip(text):
    """Whitelist expressions parse, and sympy's printout of the result parses back to the same
    function (compared at three points with 30-digit evaluation; agreement to 1e-20 relative,
    far above the 30-digit working precision, so any structural difference shows)."""
    expr = parse_expression(text, "z")
    again = parse_expression(sp.sstr(expr), "z")
    for point in (sp.Rational(3, 10), sp.Rational(-11, 10), sp.Rational(2)):
        a = sp.N(expr.subs(z, point), 30)
        b = sp.N(again.subs(z, point), 30)
        assert abs(a - b) <= sp.Float("1e-20") * (1 + abs(a)), (text, a, b)


# --------------------------------------------------------------------- bounded work
@pytest.mark.parametrize(
    "text, fragment",
    [
        ("z*9**9**9", "exponent 9**9 exceeds the bound |e| <= 1000"),
        ("z*2**10**10", "exponent 10**10 exceeds the bound |e| <= 1000"),
        ("tanh(z)**(10**9+1)", "exponent 10**9+1 exceeds the bound |e| <= 1000"),
        ("z**1001", "exponent 1001 exceeds the bound"),
        ("(z**1000)**1000", "exponent 1000000 (in (z**1000)**1000) exceeds the bound"),
        ("z**600*z**600", "exponent 1200 (in z**600*z**600) exceeds the bound"),
        ("z*1e999999999", "literal 1e999999999 is outside [1e-300, 1e300]"),
        ("z+1e5000", "literal 1e5000 is outside [1e-300, 1e300]"),
        ("z*1e-301", "literal 1e-301 is outside [1e-300, 1e300]"),
        ("z*1.0000000000000001e300", "literal 1.0000000000000001e300 is outside"),
        ("z*" + "1" * 150, "has 150 significant digits; at most 100 are allowed"),
        ("z*2**1000", "constant 2**1000 is outside [1e-300, 1e300]"),
        ("z*pi**1000", "constant pi**1000 is outside"),
        ("z*exp(700)", "constant exp(700) is outside"),
        ("z*exp(-1000)", "constant exp(-1000) is outside"),
        ("exp(1000*log(10**300))*z", "constant exp(1000*log(10**300)) is outside"),
        ("z*(1+1e-20)**1000", "constant (1+1e-20)**1000 has more than 10000 bits"),
        ("exp(" * 61 + "z" + ")" * 61, "nested too deeply (more than 60 levels)"),
        ("-" * 1999 + "z", "expression has 4001 syntax nodes; the bound is 1000"),
        ("(" * 5000 + "z" + ")" * 5000, "longer than 2000 characters"),
        ("tan(pi/2)+z", "constant tan(pi/2) is undefined or too large to evaluate"),
    ],
)
def test_bounds_are_checked_before_the_work_and_named(text, fragment):
    with pytest.raises(NBLInputError) as info:
        parse_expression(text, "z")
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("z*2**996", z * sp.Integer(2) ** 996),  # 6.7e299: inside the bound
        ("z*1e300", z * sp.Integer(10) ** 300),
        ("z*1e-300", z / sp.Integer(10) ** 300),
        ("z*exp(690)", z * sp.exp(690)),
        ("z**1000", z**1000),
        ("z+0e99999999999", z),  # zero, whatever its exponent
        ("0x1F*z", 31 * z),
        ("1_000*z", 1000 * z),
        ("sqrt(2)**1000*z", sp.Integer(2) ** 500 * z),
    ],
)
def test_values_inside_the_bounds_are_exact(text, expected):
    assert parse_expression(text, "z") == expected


def test_flat_sums_and_products_count_as_one_level():
    """A chain of one associative operator is one nesting level (61 terms used to be 'nested
    too deeply'), and the chain is folded pairwise left to right, as Python evaluates it, so
    the result is the expression the former recursive parser built."""
    assert parse_expression("+".join(["z"] * 61), "z") == 61 * z
    assert parse_expression("*".join(["(z+1)"] * 100), "z") == (z + 1) ** 100
    assert parse_expression("2*(z+1)*z", "z") == (2 * (z + 1)) * z  # Number*Add distributes
    assert parse_expression("z/2/(z+1)", "z") == (z / 2) / (z + 1)
    assert parse_expression("2**-z", "z") == 2 ** (-z)
    assert parse_expression("z**2**3", "z") == z**8
    assert parse_expression("--z", "z") == z


@pytest.mark.parametrize(
    "bad, fragment",
    [
        ("1e999999999", "literal 1e999999999 is outside"),
        ("1" * 120, "significant digits"),
        (10**400, "outside"),
        (5e-324, "literal 5e-324 is outside"),
        ("1/0", "division by zero"),
    ],
)
def test_exact_number_bounds(bad, fragment):
    with pytest.raises(NBLInputError, match=fragment.replace("(", r"\(")):
        exact_number(bad)


def test_exact_number_forms():
    assert exact_number("1/3") == sp.Rational(1, 3)
    assert exact_number("-2.5e-3") == sp.Rational(-1, 400)
    assert exact_number(".5") == sp.Rational(1, 2)
    assert exact_number("1_000") == 1000
    assert exact_number("0e999999999") == 0
