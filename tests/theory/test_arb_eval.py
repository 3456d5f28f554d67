"""Arb evaluation of sympy expressions: enclosures, non-real values, outward formatting."""

from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from flint import arb

from nbl_theory.arb_eval import arb_to_mpf, enclose, enclose_constant, format_ball, format_point
from nbl_theory.errors import NBLInputError

z = sp.Symbol("z", real=True)


@pytest.mark.parametrize(
    "expr, point",
    [
        (sp.tanh(z) ** 21 / sp.cosh(z) ** 2, Fraction(1, 50)),
        (sp.erf(3 * z) * sp.exp(-(z**2)) + sp.atan(z), Fraction(-7, 3)),
        (sp.Abs(z) + sp.sign(z) * sp.asinh(z), Fraction(-5, 2)),
        (1 / (1 + sp.exp(-100 * z)), Fraction(-10)),
    ],
)
def test_enclosure_contains_the_value(expr, point):
    """The ball contains the value computed by mpmath at 60 digits (an independent evaluation;
    the ball is rigorous, so containment must hold exactly)."""
    ball = enclose([expr], z, point, 128)[0]
    with mpmath.workdps(60):  # the mpmath value's error (1e-60) is far inside the ball (2^-128)
        ref = sp.lambdify(z, expr, "mpmath")(mpmath.mpf(point.numerator) / point.denominator)
        assert arb_to_mpf(ball.real.lower()) <= ref <= arb_to_mpf(ball.real.upper())
    assert ball.imag.is_zero()


def test_principal_branch_proves_non_real():
    log_ball, sqrt_ball = enclose([sp.log(z), sp.sqrt(z)], z, -1, 64)
    assert not log_ball.imag.contains(0) and not sqrt_ball.imag.contains(0)
    assert enclose_constant(sp.log(-2) + sp.pi, 64).imag.overlaps(arb.pi())


def test_unsupported_function_is_an_input_error():
    with pytest.raises(NBLInputError, match="ball arithmetic cannot evaluate DiracDelta"):
        enclose([sp.DiracDelta(z)], z, 1, 64)


@pytest.mark.parametrize("value", ["-1", "0.0125", "-1.5e-7", "123456.789", "1e-4000", "-3e5000"])
def test_format_ball_rounds_outward(value):
    """The printed interval, read back exactly, still encloses the ball."""
    x = (
        arb(value)
        if "e" not in value or abs(int(value.split("e")[1])) < 300
        else arb(value.split("e")[0]) * arb(10) ** int(value.split("e")[1])
    )
    mid, box = format_ball(x)
    lo, hi = (Fraction(Decimal(s.strip())) for s in box.strip("[]").split(","))

    def exact(e):
        man, exp = (int(v) for v in e.man_exp())
        return Fraction(man) * Fraction(2) ** exp

    assert lo <= exact(x.lower()) and exact(x.upper()) <= hi
    assert len(mid.replace("-", "").replace(".", "").split("e")[0].lstrip("0")) <= 3


@pytest.mark.parametrize(
    "p, text",
    [
        (Fraction(-16, 5), "-3.2"),
        (Fraction(0), "0"),
        (Fraction(7), "7"),
        (Fraction(1, 50), "0.02"),
        (Fraction(1, 3), repr(1 / 3)),
    ],
)
def test_format_point(p, text):
    assert format_point(p) == text


@pytest.mark.parametrize("x", ["-1.5", "1.5", "-0.1", "-3.0e-20"])
def test_a_binary_float_atom_is_a_ball_holding_its_dyadic_value(x):
    """``number_ball`` of a sympy Float: a binary float is an exact dyadic number m·2^e, so its
    ball holds the float itself, its sign included (a negative float in a user's expression,
    e.g. '1/(1+exp(-1.5*z))'). Its radius is not 0 (flint rounds m·2^e at the working
    precision: measured 1.4e-16 relative for −0.1); 2^−50 relative leaves ~6x above that."""
    from nbl_theory.arb_eval import number_ball

    f = sp.Float(x, 53)
    ball = number_ball(f)
    assert ball.imag == 0 and ball.real.contains(arb(float(f)))
    assert ball.rad() <= abs(float(f)) * 2.0**-50


@pytest.mark.parametrize("power", [3, 5])
def test_a_positive_integer_power_of_a_ball_holding_zero_is_finite(power):
    """``_node``'s integer powers: z^n for n > 0 is the ball power itself, so at a ball holding
    0 (a node at 0, a tail shell straddling it) it is a finite enclosure of [−r^n, r^n] — not
    1/z^(−n), which is not finite there. Reference: the exact range of z^n on [−r, r]."""
    from flint import acb

    from nbl_theory.arb_eval import arb_precision, compile_acb

    z = sp.Symbol("z", real=True)
    with arb_precision(64):
        f = compile_acb([z**power], z)
        (at0,) = f(acb(0), False)
        (ball,) = f(acb(arb(0, "1e-3")), False)
    assert at0 == 0
    assert ball.real.is_finite() and ball.imag == 0
    assert ball.real.contains(arb("1e-3") ** power) and ball.real.contains(-(arb("1e-3") ** power))
    assert ball.rad() < 2 * arb("1e-3") ** power


@pytest.mark.parametrize("exp", [-4001, -4000, -3999, 3999, 4000, 4001])
@pytest.mark.parametrize("man", [1, 3, 12345678901])
def test_outward_rounding_is_the_same_on_both_sides_of_the_exact_bound(man, exp):
    """_outward rounds an exact end to 3 significant digits outward, by exact decimal
    arithmetic up to |exponent| 4000 and by mpmath beyond: both methods must give the exact
    outward rounding (reference: Python's integers), so the bound only chooses the faster one.
    2-ulp-free: the reference is exact, the comparison exact."""
    from fractions import Fraction

    from nbl_theory.arb_eval import _outward

    v = Fraction(man) * Fraction(2) ** exp
    k = (
        len(str(v.numerator // v.denominator)) - 1
        if v >= 1
        else -len(str(v.denominator // v.numerator))
    )
    while Fraction(10) ** k > v:
        k -= 1
    while Fraction(10) ** (k + 1) <= v:
        k += 1
    unit = Fraction(10) ** (k - 2)  # 3 significant digits
    q = v / unit
    up = -((-q.numerator) // q.denominator) * unit
    down = (q.numerator // q.denominator) * unit
    x = arb(man) * arb(2) ** exp
    assert Fraction(Decimal(_outward(x, True))) == up
    assert Fraction(Decimal(_outward(x, False))) == down
