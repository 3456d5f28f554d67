"""Tests written for survivors of the quick library-mutation sample at the current registry
(docs/mutation.md, 2026-11-29): each pins what the mutated line means, with a reference
derived by hand, and fails with that mutant planted (checked by hand)."""

from __future__ import annotations

import pytest
import sympy as sp

from nbl_theory.results import decimal_str
from nbl_theory.threshold import ThresholdResult


def test_a_non_terminating_rational_is_written_with_25_significant_digits():
    """nbl_theory.results:73 (``nstr(p/d, 25)`` -> 50): 1/3 has no terminating expansion, so
    it is written with 25 significant digits — '0.' and twenty-five 3s (by hand)."""
    assert decimal_str(sp.Rational(1, 3)) == "0." + "3" * 25
    assert decimal_str(sp.Rational(-2, 7)) == "-0.2857142857142857142857143"  # 2/7 = 0.(285714)


def test_the_threshold_value_is_the_first_root():
    """nbl_theory.threshold:110 (``roots[0]`` -> ``roots[-1]``): with two roots the result's
    value is the smaller (first) one."""

    class _Root:
        def __init__(self, value):
            self.value = value

    res = ThresholdResult(
        "two roots", "delta", {}, ("0.05", "1.95"), 39, roots=[_Root("0.48"), _Root("1.21")]
    )
    assert res.value == "0.48"
    assert ThresholdResult("none", "delta", {}, ("0.05", "1.95"), 39).value is None


def test_a_potential_links_variable_is_the_point_of_its_domain():
    """nbl_theory.links:476 (``domain_map_numpy(...)[0]`` -> ``[1]``): at chart points t a
    potential link's variable is m(t) itself, not its distance m − lo to the lower end (the two
    coincide when lo = 0, as for every potential of the paper). References by hand:
    m(t) = 1 + 2/(1 + e^−t) on (1, 3) and m(t) = 1 + e^t on (1, ∞)."""
    import math

    import numpy as np

    from nbl_theory.links import Link

    t = np.array([-2.0, 0.0, 2.0])
    # rtol 1e-15: the same closed form evaluated in another order (a few ulps); the mutant is
    # off by lo = 1, i.e. by 40-100%
    bounded = Link.from_potential("(m-1)*log(m-1) + (3-m)*log(3-m)", domain=("1", "3"))
    want = [1 + 2 / (1 + math.exp(-x)) for x in t]
    assert np.allclose(bounded.variable_of_t_numpy(t), want, rtol=1e-15, atol=0)
    half_line = Link.from_potential("m**2/2 - log(m-1)", domain=("1", "oo"))
    assert np.allclose(half_line.variable_of_t_numpy(t), 1 + np.exp(t), rtol=1e-15, atol=0)


def test_each_rung_that_leaves_the_sign_undecided_is_noted(monkeypatch):
    """nbl_theory.stability:262 (``p != ladder[-1]`` -> ``ladder[0]``): when no precision
    decides the sign of λ*, the notes say "raising precision" after every rung of the digit
    ladder but the last, then that it stayed undecided up to the last. The ladder's logic alone
    is under test: every tier returns an undecided sign (a λ* that is exactly zero has no
    closed-form link to stand for it)."""
    import nbl_theory.stability as st
    from nbl_theory.paper import paper_link
    from nbl_theory.results import DPS_LADDER

    class _Undecided:
        sign = "undecided"
        errors = {"lambda_star": 1e-300}
        seconds = 0.0

        def __init__(self, notes):
            self.notes = notes

    monkeypatch.setattr(st, "_assemble", lambda *a: _Undecided(a[6]))
    monkeypatch.setattr(st, "_check_result", lambda *a: None)
    monkeypatch.setattr(st, "moments_mpmath", lambda *a, **k: None)
    notes = st.stability(paper_link("logistic"), "1").notes
    raised = [n for n in notes if n.startswith("sign undecided at")]
    assert raised == [f"sign undecided at {p} digits; raising precision" for p in DPS_LADDER[:-1]]
    assert notes[-1].startswith(f"sign of lambda_star undecided up to {DPS_LADDER[-1]} digits")


def test_the_digit_bound_of_the_mpmath_tier_is_2000(monkeypatch):
    """nbl_theory.stability:240 (``dps > 2000`` -> ``dps > 4000``): the stated bound on the
    mpmath digits (``stability``'s docstring: 5 to 2000) refuses 2001 in one line, before
    any work, and lets 2000 through the check (where the work, stubbed here so that a mutant
    cannot start a 2001-digit computation, would begin)."""
    import pytest

    import nbl_theory.stability as st
    from nbl_theory.errors import NBLInputError
    from nbl_theory.paper import paper_link

    def _work(*a, **k):
        raise RuntimeError("past the check")

    monkeypatch.setattr(st, "moments_mpmath", _work)
    link = paper_link("logistic")
    with pytest.raises(NBLInputError, match="dps must be between 5 and 2000, got 2001"):
        st.stability(link, "1", dps=2001)
    with pytest.raises(NBLInputError, match="got 4"):
        st.stability(link, "1", dps=4)
    with pytest.raises(RuntimeError, match="past the check"):
        st.stability(link, "1", dps=2000)


def test_a_potential_without_a_domain_lives_on_the_unit_interval():
    """nbl_theory.links:246 (the default ``domain=(0, 1)`` -> ``(-1, 1)``; it ran past the
    mutant's time budget, as a potential of m·log m on (−1, 1) does): ``Link.from_potential``
    without a domain takes (0, 1), the documented default, as for the binary entropy."""
    import inspect

    from nbl_theory.links import Link

    assert inspect.signature(Link.from_potential).parameters["domain"].default == (0, 1)
    link = Link.from_potential("m*log(m) + (1-m)*log(1-m)")
    assert tuple(float(x) for x in link.domain) == (0.0, 1.0)


def test_balls_beyond_the_float_range_are_written_outward():
    """nbl_theory.arb_eval:282 (``format(d.normalize(), "g")`` with its arguments exchanged):
    an enclosure whose ends lie beyond float64's exponent range is still written, each end
    rounded outward to 3 significant digits. By hand: [1.2344e-400, 1.2346e-400] ->
    [1.23e-400, 1.24e-400]; [-7.50001e500, -7.49999e500] -> [-7.51e+500, -7.49e+500]."""
    from flint import arb

    from nbl_theory.arb_eval import format_ball

    assert format_ball(arb("1.2345e-400", "1e-404"))[1] == "[1.23e-400, 1.24e-400]"
    assert format_ball(arb("-7.5e500", "1e495"))[1] == "[-7.51e+500, -7.49e+500]"


def test_float64_is_trusted_where_it_agrees_with_mpmath():
    """nbl_theory.self_concordance:323 (``<= 1e-9 * ...`` -> ``<= -1e-9 * ...``): the scan of
    |g''|/g' uses the float64 grid wherever its nodes agree with mpmath to 1e-9; for the
    paper's two-transition link they agree everywhere, so no point falls back to mpmath (the
    mutant distrusts every node and says so in the notes; R is the same either way)."""
    from nbl_theory.paper import paper_link
    from nbl_theory.self_concordance import self_concordance_constant

    c = self_concordance_constant(paper_link("tt-stable"))
    assert not [n for n in c.notes if "float64 unreliable" in n], c.notes


def test_a_closed_form_that_disagrees_with_the_numeric_constant_is_dropped(monkeypatch):
    """nbl_theory.self_concordance:412 (tolerance ``1e-10`` -> ``1.0000000001``): a sympy tail
    limit is kept as R's closed form only when it agrees with the numeric R to 1e-10. Planted:
    the logistic link's tail limits (exactly 1) read 1 + 1e-6; the numeric R stays 1.0, the
    closed form is dropped and the notes say so."""
    from collections import OrderedDict

    import nbl_theory.self_concordance as sc
    from nbl_theory.families import make_family

    exact = sc._tail_exact
    monkeypatch.setattr(sc, "_CACHE", OrderedDict())
    monkeypatch.setattr(sc, "_tail_exact", lambda *a: exact(*a) * (1 + sp.Rational(1, 10**6)))
    c = sc.self_concordance_constant(make_family("logistic"))
    assert c.R == 1.0
    assert c.closed_form is None
    assert any("disagrees with numeric R" in n for n in c.notes), c.notes


def test_the_certified_tier_refuses_fewer_than_32_bits_before_any_work():
    """nbl_theory.certified:528 (``max_prec < 32`` -> ``< 31``): the certified tier's lowest
    precision is 32 bits; 31 is refused in one line, 32 is accepted (a ball at 32 bits is
    wide, but it is computed)."""
    from nbl_theory import certified as cert
    from nbl_theory.errors import NBLInputError
    from nbl_theory.families import make_family

    with pytest.raises(NBLInputError, match="max_prec must be at least 32 bits, got 31"):
        cert.stability_certified(make_family("logistic"), "1", max_prec=31)
    assert cert.stability_certified(make_family("logistic"), "1", max_prec=32) is not None


def test_a_small_balls_ends_are_written_as_python_writes_floats():
    """nbl_theory.arb_eval:280 (``< 300`` -> ``< -300``): an end of moderate exponent is
    written '%.4g' (as Python prints floats: 1.23e-05, not Decimal's 0.0000123); only an
    exponent beyond ±300, which no float holds, is spelled by Decimal."""
    from flint import arb

    from nbl_theory.arb_eval import format_ball

    mid, ends = format_ball(arb("1.2345e-5", "1e-12"))
    assert mid == "1.23e-05"
    assert ends == "[1.23e-05, 1.24e-05]"  # three digits, outward (by hand)
    assert format_ball(arb("1e-400", "1e-410"))[1] == "[9.99e-401, 1.01e-400]"


def test_a_results_number_is_fixed_point_down_to_the_thousandths():
    """nbl_theory.results:327 (``min_fixed=-4`` -> ``-3``): a value of the order of 1e-3 is
    written in fixed point (0.0015), one of the order of 1e-4 in scientific notation (mpmath's
    ``nstr`` is fixed for exponents above ``min_fixed``)."""
    import mpmath

    from nbl_theory.paper import paper_link
    from nbl_theory.stability import stability

    res = stability(paper_link("we-0.60"), "0.2", dps=15, auto_raise=False)
    assert res._fmt(mpmath.mpf("0.0015"), 6) == "0.0015"
    assert res._fmt(mpmath.mpf("0.00015"), 6) == "1.5e-4"


@pytest.mark.parametrize(
    "lo, hi", [(0, sp.oo), (-sp.oo, 0), (sp.Rational(1, 2), sp.oo), (-sp.oo, -3), (0, 1)]
)
def test_the_interior_point_of_a_domain_is_inside_it(lo, hi):
    """nbl_theory.elicitation:309 (``hi - 1`` -> ``hi + 1``): the starting point of the
    inversion lies inside the potential's domain, half-lines included."""
    from nbl_theory.elicitation import _interior_point

    p = _interior_point(lo, hi)
    assert sp.sympify(lo) < p < sp.sympify(hi)


def test_the_corrector_accepts_a_point_reached_by_its_last_secant_step():
    """nbl_theory.continuation:114 (``q + s1 * n`` -> ``q + s1`` in the fallback return): a
    point whose residual first falls within ``tol`` at the 30th and last secant update is
    accepted *on the line through q along n* — the same point the loop would return.

    f = (x + y − 1)³ has a triple zero along its normal, so the secant converges linearly and
    its residuals f⁽⁰⁾, f⁽¹⁾, … fall slowly. A first trace with tol = 0 fails after all 31
    (recorded by wrapping f); a second with tol = |f⁽³⁰⁾| then reaches f = 0 only through the
    fallback, and every point of the curve it returns must lie on {f = 0} to that tol."""
    from nbl_theory.continuation import trace_zero_curve
    from nbl_theory.errors import NBLInputError

    seen = []

    def f(x, y):
        v = (x + y - 1.0) ** 3
        seen.append(v)
        return v

    box = ((-3.0, 3.0), (-3.0, 3.0))
    with pytest.raises(NBLInputError, match="could not reach f = 0"):
        trace_zero_curve(f, (2.0, 0.0), box, tol=0.0, max_points=5)
    # 4 (the start's gradient) + 1 (f0) + 8 (two gradients) + 1 (f(0)) + 30 secant updates
    assert len(seen) == 44, "the secant stalled: the fallback is not reached this way"
    last = [abs(v) for v in seen[-31:]]
    assert all(a > b for a, b in zip(last, last[1:]))  # each update lowers |f|
    tol = last[-1]
    curve = trace_zero_curve(f, (2.0, 0.0), box, tol=tol, max_points=5)
    res = [abs((x + y - 1.0) ** 3) for x, y in zip(curve.x, curve.y)]
    assert max(res) <= tol


@pytest.mark.parametrize("scale", [1.0, 1e-12, 1e-200, 1e12])
def test_the_trapezoid_stops_relative_to_the_integrands_own_size(scale):
    """nbl_theory.numeric:489 (``l1_norm(l1[k], h)`` -> ``l1_norm(h, l1[k])``): the float64
    trapezoid stops when two sums agree to ``rel_tol`` of the integrand's L¹ norm, so scaling
    the integrand scales the error with it. A narrow Gaussian (width 0.01 on [−1, 1], coarse on
    the first levels) at scale 1e-12 must come out as accurate as at scale 1; a rule measured
    against the step h instead stops after one halving (relative error 1.9e-7, measured).
    Reference by hand: ∫ c e^{−(t/w)²} dt = c w √π (the tails beyond |t| = 1 are e^{−10⁴})."""
    import math

    import numpy as np

    from nbl_theory.numeric import FLOAT, halving_trapezoid

    w = 0.01
    ((value, err),) = halving_trapezoid(
        FLOAT, lambda t: [scale * np.exp(-((t / w) ** 2))], -1.0, 1.0, 1e-13
    )
    # 1e-12 relative: rel_tol 1e-13 of the L¹ norm (= the integral, a positive integrand)
    # plus the rounding of ~2·10⁴ float64 terms
    assert abs(value / (scale * w * math.sqrt(math.pi)) - 1) < 1e-12
    assert err < 1e-12 * scale * w * math.sqrt(math.pi)


@pytest.mark.parametrize("ctx_name", ["float", "mp"])
def test_the_trapezoid_stops_after_one_halving_when_the_rule_is_exact(ctx_name):
    """nbl_theory.numeric:477 (the first estimate ``sums[k] * h`` -> ``sums[k]``): the first
    two sums are compared as integrals, both scaled by their step. For an affine integrand the
    trapezoid rule is exact at every level, so the first two estimates agree and the rule
    stops after one halving — two evaluations of ``f``. An unscaled first estimate differs
    from the second by a factor 1/h and forces a needless second halving (a third call).
    Reference by hand: ∫_0^2 (3t + 1) dt = 8."""
    import numpy as np

    from nbl_theory.numeric import FLOAT, MpContext, halving_trapezoid

    calls = []
    if ctx_name == "float":
        ctx = FLOAT

        def f(t):
            calls.append(1)
            return [3.0 * np.asarray(t) + 1.0]

    else:
        ctx = MpContext(30)

        def f(t):
            calls.append(1)
            return (3 * t + 1,)

    ((value, err),) = halving_trapezoid(ctx, f, 0.0, 2.0, 1e-12)
    # exact rule: only the rounding of ~130 float64 (or 30-digit) terms, ~1e-15 relative
    assert float(value) == pytest.approx(8.0, rel=1e-14)
    # float context: f takes the node array (one call per level); mpmath: one call per node,
    # start + 1 nodes on the first level and start midpoints on the one halving
    expected = 2 if ctx_name == "float" else (ctx.start + 1) + ctx.start
    assert len(calls) == expected


def test_a_directed_rounding_of_zero_and_infinities_is_printed_as_it_is():
    """nbl_theory.results:412 (``x == 0`` -> ``x == -1``): an error or an enclosure end of
    exactly 0 (a value the mpmath tier computed exactly) or ±inf is printed as it is; rounding
    it outward would take log10(0). The finite case rounds outward (1/3 up: 0.334, down:
    0.333, by hand)."""
    import mpmath

    from nbl_theory.results import _directed

    assert _directed(mpmath.mpf(0), 3, +1) == "0.0" and _directed(0.0, 5, -1) == "0.0"
    assert _directed(mpmath.inf, 3, +1) == "+inf" and _directed(-mpmath.inf, 3, -1) == "-inf"
    third = mpmath.mpf(1) / 3
    assert (_directed(third, 3, +1), _directed(third, 3, -1)) == ("0.334", "0.333")
