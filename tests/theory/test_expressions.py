"""Whitelisted expression parser: accepted grammar, rejections, exact decimals, fuzzing."""

import pytest
import sympy as sp
from hypothesis import example, given
from hypothesis import strategies as st

from nbl_theory.errors import NBLInputError
from nbl_theory.expressions import FUNCTIONS, exact_number, parse_expression

z = sp.Symbol("z", real=True)


@pytest.mark.parametrize("text, expected", [
    ("log(1+exp(z))", sp.log(1 + sp.exp(z))),
    ("0.1 + 0.25*tanh(1.4*(z-2.144072))",
     sp.Rational(1, 10) + sp.Rational(1, 4) * sp.tanh(sp.Rational(7, 5) * (z - sp.Rational(2144072, 10**6)))),
    ("z**3 + z", z**3 + z),
    ("-z", -z),
    ("Phi(z)", (1 + sp.erf(z / sp.sqrt(2))) / 2),
    ("pi*z + E", sp.pi * z + sp.E),
    ("1e-3*z", z / 1000),
])
def test_parses_exactly(text, expected):
    assert sp.simplify(parse_expression(text, "z") - expected) == 0


def test_decimal_literals_are_exact_rationals():
    expr = parse_expression("0.1*z", "z")
    assert expr.coeff(z) == sp.Rational(1, 10)
    assert exact_number("-1.25") == sp.Rational(-5, 4)
    assert exact_number(0.1) == sp.Rational(1, 10)


@pytest.mark.parametrize("text, fragment", [
    ("__import__('os')", "not allowed"),
    ("z.real", "Attribute"),
    ("(lambda x: x)(z)", "not allowed"),
    ("[z for z in 1]", "not allowed"),
    ("exp(z)[0]", "Subscript"),
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
])
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


_leaf = st.one_of(st.just("z"), st.integers(1, 9).map(str),
                  st.decimals(min_value=-5, max_value=5, places=3, allow_nan=False,
                              allow_infinity=False).map(lambda d: f"({d})"))
_unary = sorted(set(FUNCTIONS) - {"log", "sqrt", "log1p"})


def _combine(children):
    return st.one_of(
        st.tuples(children, st.sampled_from(["+", "-", "*"]), children).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
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
