"""Interval bounds (nbl_theory.arb_interval) enclose the expression's values, and let the tail
bounds of nbl_theory.certified handle steep links without bisecting to the link's scale.

Reference values: the point values are Arb balls of the same expression at 256 bits
(nbl_theory.arb_eval.compile_acb), whose radius is ~1e-70 of the value — far below any error
the interval rules could make.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from flint import acb, arb
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from nbl_theory import certified
from nbl_theory.arb_eval import arb_precision, compile_acb
from nbl_theory.arb_interval import NotInterval, compile_interval
from nbl_theory.expressions import parse_expression
from nbl_theory.links import Link

Z = sp.Symbol("z", real=True)

_UNARY = [
    sp.exp,
    sp.tanh,
    sp.sinh,
    sp.erf,
    sp.erfc,
    sp.atan,
    sp.asinh,
    sp.cosh,
    sp.Abs,
    lambda e: sp.log(1 + e**2),
    lambda e: sp.sqrt(2 + sp.tanh(e)),
    lambda e: 1 / (1 + sp.exp(-e)),
    lambda e: e**2,
    lambda e: e**3,
    lambda e: 1 / (3 + sp.cosh(e)),
    lambda e: (1 + e**2) ** sp.Rational(3, 2),
]
_CONST = st.sampled_from(
    [sp.Integer(-3), sp.Rational(1, 2), sp.Integer(2), sp.Integer(100), sp.Rational(-7, 4), sp.pi]
)


def _expressions():
    leaf = st.one_of(st.just(Z), _CONST.map(lambda c: c * Z))
    return st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.tuples(st.sampled_from(_UNARY), inner).map(lambda t: t[0](t[1])),
            st.tuples(inner, inner).map(lambda t: t[0] + t[1]),
            st.tuples(inner, inner).map(lambda t: t[0] * t[1]),
            st.tuples(_CONST, inner).map(lambda t: t[0] + t[1]),
        ),
        max_leaves=5,
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_expressions(), st.floats(-12, 12), st.floats(1e-3, 6))
@example(Z**2, -1.0, 3.0)  # an even power through 0
@example(Z**3 - 2 * Z, -2.0, 4.0)  # odd power, a sum with cancellation
@example(sp.cosh(Z) * sp.Abs(Z), -1.5, 2.0)  # both V-shaped pieces through 0
@example(sp.erfc(2 * Z) - sp.exp(-Z), -1.0, 2.5)  # a decreasing function
@example(1 / (1 + Z**2) ** 2, -0.5, 1.0)  # a negative power
@example(sp.sqrt(1 + Z**2) * sp.atan(Z), -3.0, 4.0)
def test_the_interval_contains_every_value(expr, a, width):
    with arb_precision(256):
        try:
            f = compile_interval([expr], Z)
            lo, hi = f(arb(a), arb(a) + arb(width))[0]
        except NotInterval:
            assume(False)
        g = compile_acb([expr], Z)
        for k in range(9):
            x = arb(a) + arb(width) * k / 8
            v = g(acb(x), False)[0]
            assume(v.is_finite() and v.imag == 0)
            assert lo <= v.real.upper() and v.real.lower() <= hi, (expr, a, width, k)
        assert lo <= hi


def test_steep_link_derivative_on_a_wide_interval():
    """k e^{-kz}/(1 + e^{-kz})^2 on [-14, -12], k = 100: balls lose the sign of e^{1200..1400}
    and give NaN; intervals give a finite, tiny bound."""
    g1 = sp.diff(1 / (1 + sp.exp(-100 * Z)), Z)
    with arb_precision(128):
        ball = compile_acb([g1], Z)(acb(arb(-13, 1)), False)[0]
        lo, hi = compile_interval([g1], Z)(arb(-14), arb(-12))[0]
    assert not ball.is_finite()
    assert lo >= 0 and hi < arb(10) ** -400  # true sup ~1e-519; dependency costs ~200 digits


@pytest.mark.parametrize("expr", ["sin(z)", "tan(z)", "1/z"])
def test_what_intervals_do_not_bound_is_left_to_balls(expr):
    with arb_precision(64), pytest.raises(NotInterval):
        compile_interval([parse_expression(expr, "z")], Z)(arb(-1), arb(1))


def test_steep_links_are_certified_without_bisecting_to_their_scale(monkeypatch):
    """sigmoid(100 z): the tail shells take interval bounds (balls alone needed ~800,000 ball
    evaluations, ~10 s, bisecting each shell to the link's scale 1/100); the certified lambda*
    is the one balls alone gave (`nbl stability --link 'sigmoid(100*z)' --delta 1 --certify`
    at commit d28b9cf, before interval bounds: 0.19943833984177901505667719817191159766)."""
    calls = []
    real = certified._piece_bound

    def counted(*args, **kw):
        calls.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(certified, "_piece_bound", counted)
    link = Link.from_expression(parse_expression("sigmoid(100*z)", "z"), name="s100-interval")
    res = certified.stability_certified(link, 1)
    lo, hi = res.lambda_star_enclosure
    pinned = mpmath.mpf("0.19943833984177901505667719817191159766")
    assert lo - mpmath.mpf("1e-38") <= pinned <= hi + mpmath.mpf("1e-38") and res.certified
    assert len(calls) < 5_000, len(calls)  # ball bisection alone: ~800,000 calls


@pytest.mark.parametrize(
    "src", ["1-exp(-exp(z))", "(sigmoid(z) + sigmoid(6*(z-1)))/2", "log(1+exp(z))", "asinh(z)"]
)
def test_interval_and_ball_tail_bounds_give_the_same_enclosure(src, monkeypatch):
    """Two methods for the same tail bounds: their certified lambda* must overlap, and their
    radii agree within a factor 2 (observed: equal; the tails are far below the target
    precision either way, so a radius can differ only by rounding of the sum)."""
    from nbl_theory.link_source import LinkSource

    link = LinkSource.expression(src).link()
    out = []
    for balls in (False, True):
        certified._chart.cache_clear()
        if balls:
            monkeypatch.setattr(certified._Chart, "interval_sups", lambda *a: None)
        out.append(certified.stability_certified(link, "0.3").lambda_star_enclosure)
    certified._chart.cache_clear()
    (alo, ahi), (blo, bhi) = out
    with mpmath.workdps(60):
        assert alo <= bhi and blo <= ahi
        assert abs((ahi - alo) - (bhi - blo)) <= (bhi - blo)


def test_the_largest_endpoint_is_found_beyond_the_float_range():
    """Two endpoints past 1e308 are both inf as floats; the bound must still be the larger."""
    for a, b in ((arb(10) ** 400, arb(10) ** 500), (-(arb(10) ** 500), arb(10) ** 400)):
        assert certified._max_abs(a, b) >= arb(10) ** 500


@pytest.mark.parametrize("lo", ["-0.5", "-1", "-1e-9", "-3"])
def test_v_shaped_functions_on_an_interval_across_zero_enclose_their_minimum(lo):
    """|z| and cosh z on [lo, 1] with lo < 0 < 1: the range runs from the value at 0 (0, 1) to
    the larger end's — the enclosure must reach down to it, whatever lo is (a rule that took
    such an interval for one on the increasing side would miss the dip)."""
    f = compile_interval([sp.Abs(Z), sp.cosh(Z)], Z)
    (a_lo, a_hi), (c_lo, c_hi) = f(arb(lo), arb(1))
    assert a_lo.lower() <= 0 and a_hi.upper() >= 1
    assert c_lo.lower() <= 1 and c_hi.upper() >= arb(1).cosh().upper() - 1e-30


@pytest.mark.parametrize("lo, hi", [("-3", "-2"), ("-2", "0"), ("0", "1.5"), ("0.25", "4")])
def test_v_shaped_functions_on_one_side_of_zero_map_ends_to_ends(lo, hi):
    """|z| and cosh z on an interval within one monotone piece: the range is spanned by the
    two ends' values, the larger at the end farther from 0 (on (−∞, 0] the function decreases,
    so the *upper* end gives the lower bound). A rule that took the decreasing side's ends in
    the increasing order returns lo > hi. Reference: the ends' values as Arb balls at 256 bits
    (radius ~1e-77), compared to 1e-60."""
    with arb_precision(256):
        f = compile_interval([sp.Abs(Z), sp.cosh(Z)], Z)
        got = f(arb(lo), arb(hi))
        for (e_lo, e_hi), point in zip(got, (abs, lambda x: x.cosh())):
            ends = sorted((point(arb(lo)), point(arb(hi))), key=lambda b: float(b.mid()))
            assert e_lo <= e_hi
            assert abs(float(e_lo - ends[0].mid())) < 1e-60
            assert abs(float(e_hi - ends[1].mid())) < 1e-60


@pytest.mark.parametrize("n", [-1, -2])
@pytest.mark.parametrize("lo, hi", [("-1", "0"), ("0", "1"), ("-1", "1")])
def test_a_negative_power_of_an_interval_reaching_zero_is_refused(n, lo, hi):
    """z^n for n < 0 has a pole at 0: an interval that reaches 0 — at an end as well as inside
    — has no finite enclosure, so it is refused (``NotInterval``: the caller falls back to
    balls), never returned as an infinite or NaN end."""
    f = compile_interval([Z**n], Z)
    with arb_precision(64), pytest.raises(NotInterval, match="negative power"):
        f(arb(lo), arb(hi))


@pytest.mark.parametrize("n", [-1, -2, -3])
@pytest.mark.parametrize("lo, hi", [("0.5", "2"), ("-3", "-0.25")])
def test_a_negative_power_reaches_both_ends_of_its_range(n, lo, hi):
    """z^n for n < 0 on an interval without 0 is monotone there, so its range is spanned by
    the two ends' values: the enclosure must contain both (a rule that took 1/p for both
    ends of the positive power p would give a single point). The default tier's cheap member
    of the hypothesis search test_the_interval_contains_every_value (``-m slow``).
    Reference: the ends' values as Arb balls at 256 bits (radius ~1e-77)."""
    with arb_precision(256):
        f = compile_interval([Z**n], Z)
        (e_lo, e_hi) = f(arb(lo), arb(hi))[0]
        ends = [arb(lo) ** n, arb(hi) ** n]
        want_lo = min(ends, key=lambda b: float(b.mid()))
        want_hi = max(ends, key=lambda b: float(b.mid()))
        assert e_lo <= want_lo.upper() and want_hi.lower() <= e_hi  # reaches both ends
        # and is tight (an enclosure of a monotone power costs only rounding at 256 bits)
        assert abs(float(e_lo - want_lo.mid())) < 1e-60
        assert abs(float(e_hi - want_hi.mid())) < 1e-60


@pytest.mark.parametrize("lo", ["-0.5", "0"])
def test_log_of_an_interval_reaching_zero_or_below_is_refused(lo):
    """``_log``'s guard: log over [lo, 2] with lo ≤ 0 has no finite enclosure, so it is refused
    (``NotInterval``) rather than returned as a NaN or infinite ball — for an end in (−1, 0) as
    for 0 itself; above 0 its ends are log's values at the ends (to rounding)."""
    f = compile_interval([sp.log(Z)], Z)
    with arb_precision(64), pytest.raises(NotInterval, match="log of an interval"):
        f(arb(lo), arb(2))
    with arb_precision(64):
        ((lo_b, hi_b),) = f(arb("0.5"), arb(2))
        assert float(lo_b.mid()) == pytest.approx(-mpmath.log(2), abs=1e-15)
        assert float(hi_b.mid()) == pytest.approx(mpmath.log(2), abs=1e-15)


def test_an_interval_with_one_infinite_end_is_not_decided():
    """``compile_interval``'s finiteness guard checks both ends of every computed range: 2z on
    [−∞, 0] has the range [−∞, 0], finite above only, and is refused (``NotInterval``) like
    exp(z) on [0, ∞], infinite above — an infinite end is never computed on."""
    with arb_precision(64):
        with pytest.raises(NotInterval, match="not finite"):
            compile_interval([2 * Z], Z)(arb(float("-inf")), arb(0))
        with pytest.raises(NotInterval, match="not finite"):
            compile_interval([sp.exp(Z)], Z)(arb(0), arb(float("inf")))
