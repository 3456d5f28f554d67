"""The sympy-free reader of numbers (nbl_theory/numbers.py) against Python's own exact readers.

:class:`fractions.Fraction` parses decimal strings exactly (``Fraction("1.5e-3")``) and
:class:`decimal.Decimal` too: they are independent witnesses of :func:`exact_fraction` on every
number inside the bounds. The bounds themselves (digits, magnitude, length) are checked on the
text, before any arithmetic; :func:`nbl_theory.expressions.exact_number` is the same number as a
sympy Rational, and Δ's check (:func:`nbl_theory.validation.delta_fraction`) refuses exactly what
:func:`~nbl_theory.validation.validate_delta` refuses.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from nbl_theory.errors import NBLInputError
from nbl_theory.expressions import exact_number
from nbl_theory.numbers import MAX_DIGITS, exact_fraction, number_value
from nbl_theory.validation import delta_fraction, validate_delta

_DECIMALS = st.decimals(
    min_value=Decimal("-1e200"), max_value=Decimal("1e200"), allow_nan=False, places=None
).filter(lambda x: x == 0 or abs(x) >= Decimal("1e-200"))


@settings(max_examples=300, deadline=None)
@given(x=_DECIMALS, form=st.sampled_from(["plain", "sci", "E"]))
def test_a_decimal_is_read_as_python_reads_it(x, form):
    text = {"plain": f"{x:f}", "sci": f"{x:e}", "E": f"{x:E}"}[form]
    if len(text.replace("-", "").replace(".", "").lstrip("0")) > MAX_DIGITS:
        return  # past the digit bound (refused; tested below)
    q = exact_fraction(text)
    assert q == Fraction(text) == Fraction(Decimal(text))
    assert exact_number(text) == sp.Rational(q.numerator, q.denominator)


@settings(max_examples=200, deadline=None)
@given(p=st.integers(-(10**30), 10**30), q=st.integers(1, 10**30))
def test_a_fraction_is_read_exactly(p, q):
    assert exact_fraction(f"{p}/{q}") == Fraction(p, q)


@settings(max_examples=200, deadline=None)
@given(x=st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300))
def test_a_float_is_its_shortest_repr(x):
    if x != 0 and abs(x) < 1e-300:
        return
    q = exact_fraction(x)
    assert q == Fraction(repr(x)) and float(q) == x
    assert number_value(repr(x), "x") == x


@pytest.mark.parametrize(
    "text, message",
    [
        ("nan", "finite number"),
        ("-inf", "finite number"),
        ("1e301", "outside"),
        ("1e-302", "outside"),
        ("1e9999999", "outside"),
        ("1" * 101, "significant digits"),
        ("1/0", "division by zero"),
        ("0x10", "expected a decimal number"),
        ("١", "ASCII digits"),
        ("2" * 2001, "longer than"),
        (True, "expected a number"),
    ],
)
def test_what_is_refused_and_why(text, message):
    with pytest.raises(NBLInputError, match=message):
        exact_fraction(text)


def test_rationals_pass_through():
    assert exact_fraction(Fraction(3, 7)) == Fraction(3, 7)
    assert exact_fraction(sp.Rational(-5, 11)) == Fraction(-5, 11)
    assert exact_fraction(sp.Integer(4)) == 4
    assert exact_number(sp.Rational(2, 3)) == sp.Rational(2, 3)
    assert isinstance(exact_number(7), sp.Integer)


@pytest.mark.parametrize(
    "delta",
    ["0.2", "1", 1, 0.5, "9/5", "1.9999999999999999", "2", "0", "-0.5", float("nan"), "abc"],
)
def test_delta_refused_alike_with_and_without_sympy(delta):
    try:
        expected = validate_delta(delta)
    except NBLInputError as exc:
        with pytest.raises(NBLInputError) as got:
            delta_fraction(delta)
        assert str(got.value) == str(exc)
        return
    q = delta_fraction(delta)
    assert sp.Rational(q.numerator, q.denominator) == expected
    assert float(q) == float(expected)
