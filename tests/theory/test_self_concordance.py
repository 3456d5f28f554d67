"""Tests of nbl_theory.self_concordance.

Paper: eq:self-concordance-link, prop:self-concordance-stability, app:self_concordance.
"""

from __future__ import annotations

import gc
import math
import sys
import threading
import weakref

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy.optimize import brentq, minimize_scalar

from nbl_theory.families import TWO_TRANSITION_DEFAULTS, make_family
from nbl_theory.links import Link
from nbl_theory.paper import PAPER_LINKS, paper_link
from nbl_theory.self_concordance import (
    CACHE_SIZE,
    kappa,
    kappa_by_quadrature,
    self_concordance_constant,
    self_concordance_report,
    sufficient_margin,
)
from nbl_theory.work import call_limited, count_calls


def _paper(i):
    return paper_link(list(PAPER_LINKS)[i])


# ----------------------------------------------------------------------------- κ(a)
# erfcx is accurate to a few ulps and |a κ'(a)/κ(a)| <= 1, so the rounding of a/√2 adds at most
# one more: 2e-15 relative covers the float64 closed form (worst seen on [0, 10]: 6.7e-16).
@pytest.mark.parametrize("a", [0.0, 1e-8, 0.5, 1.0, 2.5, 10.0, 37.5])
def test_kappa_float_matches_quadrature(a):
    assert_allclose(kappa(a), float(kappa_by_quadrature(a, dps=30)), rtol=2e-15)


@settings(deadline=None)  # example count from the profile in tests/conftest.py
@given(st.floats(min_value=0.0, max_value=10.0, allow_nan=False))
@example(0.0)
@example(10.0)
def test_kappa_float_matches_quadrature_property(a):
    assert_allclose(kappa(a), float(kappa_by_quadrature(a, dps=30)), rtol=2e-15)


@pytest.mark.parametrize("a", ["0", "0.3", "2", "7.25"])
def test_kappa_mpmath_matches_quadrature(a):
    # two independent high-precision evaluations (erfc closed form vs tanh-sinh quadrature)
    with mpmath.workdps(60):
        closed, quad = kappa(mpmath.mpf(a), dps=50), kappa_by_quadrature(mpmath.mpf(a), dps=50)
        assert abs(closed - quad) <= mpmath.mpf(10) ** -48 * closed


def test_kappa_special_values():
    assert kappa(0.0) == 0.5  # Φ(0) = 1/2
    # Mills ratio: κ(a) a √(2π) = 1 − 1/a² + 3/a⁴ − …; at a = 1e4 the next term is 3e-16
    a = 1e4
    assert_allclose(kappa(a) * a * math.sqrt(2 * math.pi), 1 - 1 / a**2, rtol=1e-15)
    assert kappa(math.inf) == 0.0


def test_mpmath_precision_untouched():
    dps = mpmath.mp.dps
    kappa(1.0, dps=80)
    kappa_by_quadrature(1.0, dps=80)
    self_concordance_constant(make_family("logistic"))
    assert mpmath.mp.dps == dps


# ----------------------------------------------------------------------------- R
def test_R_logistic_is_one_not_attained():
    c = self_concordance_constant(make_family("logistic"))
    assert_allclose(c.R, 1.0, rtol=1e-12)  # |g''|/g' = |tanh(z/2)| < 1
    assert c.attained is False and c.where == "-inf,+inf"
    assert c.closed_form == 1


def test_R_exp_is_one_everywhere():
    c = self_concordance_constant(make_family("exp"))
    assert c.R == 1.0 and c.attained is True and c.where == "everywhere"


@pytest.mark.parametrize("family", ["identity", "quadratic"])
def test_R_linear_link_is_zero(family):
    c = self_concordance_constant(make_family(family))
    assert c.R == 0.0 and c.where == "everywhere"


def test_R_probit_is_infinite():
    c = self_concordance_constant(make_family("probit"))  # g''/g' = −z
    assert math.isinf(c.R) and c.attained is False and c.where == "-inf,+inf"


def test_potential_forms_match_expression_forms():
    logistic = self_concordance_constant(make_family("logistic"))
    bne = self_concordance_constant(make_family("binary-negative-entropy"))
    assert_allclose(bne.R, logistic.R, rtol=1e-12)
    assert bne.attained is False and bne.where == "-inf,+inf"
    ne = self_concordance_constant(make_family("negative-entropy"))  # induces exp
    assert ne.R == 1.0 and ne.where == "everywhere"


def test_weighted_entropy_closed_form_derivation():
    # q(m) = d/dm (1/φ_ρ'') decreases strictly from 1/(1+ρ) (m→0) to −1/(1−ρ) (m→1), so
    # R = sup|q| = 1/(1 − |ρ|), approached at m → 1 (ρ > 0) or m → 0 (ρ < 0), never attained.
    rho, m = sp.symbols("rho m", real=True)
    phi2 = (1 + rho) / m + (1 - rho) / (1 - m)
    q = sp.diff(1 / phi2, m)
    assert sp.simplify(sp.diff(q, m) + 2 * (1 - rho**2) / (1 + rho - 2 * rho * m) ** 3) == 0
    assert sp.simplify(sp.limit(q, m, 0, "+") - 1 / (1 + rho)) == 0
    assert sp.simplify(sp.limit(q, m, 1, "-") + 1 / (1 - rho)) == 0


@pytest.mark.parametrize("rho, where", [("0.6", "+inf"), ("-0.3", "-inf"), ("0.8", "+inf")])
def test_R_weighted_entropy(rho, where):
    c = self_concordance_constant(make_family("weighted-entropy", rho=rho))
    exact = 1 / (1 - abs(sp.Rational(rho)))
    assert c.closed_form == exact
    assert_allclose(c.R, float(exact), rtol=1e-12)
    assert c.attained is False and c.where == where


def _tt_ratio(z, mu2):
    """Independent g''/g' of eq:link_tanh written with sech (no 1 − tanh² cancellation)."""
    p = {k: mpmath.mpf(v) for k, v in TWO_TRANSITION_DEFAULTS.items()}
    comps = [(p["a1"], p["b1"], p["mu1"]), (p["a2"], p["b2"], mpmath.mpf(mu2))]
    g1 = sum(a * b * mpmath.sech(b * (z - mu)) ** 2 for a, b, mu in comps)
    g2 = sum(
        -2 * a * b**2 * mpmath.sech(b * (z - mu)) ** 2 * mpmath.tanh(b * (z - mu))
        for a, b, mu in comps
    )
    return g2 / g1


@pytest.mark.parametrize("mu2", ["-1.074037", "2.144072", "1.244122"])
def test_R_two_transition(mu2):
    c = self_concordance_constant(make_family("two-transition", mu2=mu2))
    # (log g')' is a convex combination of −2b_i tanh(b_i(z − μ_i)): 2·min b ≤ R < 2·max b
    assert 2.8 <= c.R < 4.0
    with mpmath.workdps(30):
        r = lambda z: -abs(float(_tt_ratio(mpmath.mpf(z), mu2)))  # noqa: E731
        grid = np.arange(-15.0, 15.0, 0.01)
        vals = np.array([-r(z) for z in grid])
        assert vals.max() <= c.R + 1e-12
        k = int(np.argmax(vals))
        res = minimize_scalar(
            r, bounds=(grid[k] - 0.01, grid[k] + 0.01), method="bounded", options={"xatol": 1e-10}
        )
        # a bounded-Brent maximum is exact to O(xatol²·|r''|) ≪ 1e-12
        assert_allclose(-res.fun, c.R, rtol=1e-12)
        assert c.attained is True
        assert_allclose(-r(c.where), c.R, rtol=1e-12)


@pytest.mark.parametrize("name, R", [("logistic", 1.0), ("probit", math.inf)])
def test_R_numeric_fallback_without_sympy(name, R):
    # a work limit of one call stops every sympy call: the numeric path alone must agree
    c = self_concordance_constant(make_family(name), sympy_calls=1)
    assert c.R == R if math.isinf(R) else abs(c.R - R) <= 1e-10
    assert c.attained is False and c.where == "-inf,+inf"
    assert c.closed_form is None and not c.method.startswith("sympy.limit")


def test_the_sympy_work_limit_decides_by_calls_not_by_time():
    """With the default limit sympy's exact limits are used (logistic: R = 1 in closed form),
    and the same limit gives the same result in a fresh computation: the outcome is the link's,
    not the machine's."""
    link = make_family("logistic")
    a = self_concordance_constant(link)
    b = self_concordance_constant(link, sympy_calls=10**9)  # a separate cache entry
    assert a.closed_form == 1 and a.method.startswith("sympy.limit")
    assert (a.R, a.where, a.closed_form, a.method) == (b.R, b.where, b.closed_form, b.method)


def test_the_cache_is_bounded(monkeypatch):
    """The most recently used CACHE_SIZE results are kept (the computation itself is replaced
    by a cheap stand-in: this is about the cache)."""
    from nbl_theory import self_concordance as sc

    monkeypatch.setattr(sc, "_CACHE", type(sc._CACHE)())
    monkeypatch.setattr(sc, "_compute_constant", lambda link, calls: object())
    links = [Link.from_expression(f"z + tanh(z)/{k + 2}") for k in range(CACHE_SIZE + 3)]
    first = self_concordance_constant(links[0])
    for link in links[1:]:
        self_concordance_constant(link)
    assert len(sc._CACHE) == CACHE_SIZE
    again = self_concordance_constant(links[-1])
    assert again is self_concordance_constant(links[-1])  # kept
    assert self_concordance_constant(links[0]) is not first  # dropped, recomputed


def _tick():
    return None


def _busy(calls):
    for _ in range(calls):  # Python calls: what the work limit counts
        _tick()


class _SlowFinalizer:
    def __del__(self):
        _busy(500)


def _gc_start_busy(phase, info):
    if phase == "start":
        _busy(500)


class _Finalized:
    pass


def _generator_with_cleanup():
    try:
        yield 1
    finally:
        _busy(500)


def _suspended_in_a_cycle():
    """A suspended generator only a reference cycle keeps alive (so the collector closes it)."""
    holder = {}
    gen = _generator_with_cleanup()
    next(gen)
    holder["gen"], holder["self"] = gen, holder


def test_a_limit_swallowed_outside_a_collection_still_ends_the_block(monkeypatch):
    """A generator closed when its last reference goes (not by the collector) runs its finally
    block from C: the limit raised there is swallowed and Python unsets the trace function.
    The block still ends as the limit's outcome (the work after it is not cut)."""
    monkeypatch.setattr(sys, "unraisablehook", lambda u: None)

    def drops_a_generator():
        gen = _generator_with_cleanup()
        next(gen)
        del gen  # closed here, from C
        return "finished"

    assert call_limited(drops_a_generator, 100) == (None, True)
    assert call_limited(drops_a_generator, 10_000) == ("finished", False)


@pytest.mark.parametrize(
    "where", ["gc callback", "__del__", "weakref.finalize", "generator closed by a collection"]
)
def test_work_limit_reached_in_a_finalizer_is_not_lost(monkeypatch, where):
    # The limit is passed inside code whose exceptions Python swallows: a gc callback
    # (hypothesis installs one; this test suite once failed that way with a timer), a __del__
    # or a weakref.finalize callback. Raised there, it would be printed as "Exception ignored
    # in ..." and lost; it must instead end the computation at its next call outside, leaving
    # nothing behind.
    swallowed = []
    monkeypatch.setattr(
        sys, "unraisablehook", lambda u: swallowed.append((u.exc_type, u.object, u.err_msg))
    )

    def hangs():
        if where == "__del__":
            _SlowFinalizer()  # dropped at once: __del__ runs here
        elif where == "weakref.finalize":
            weakref.finalize(_Finalized(), _busy, 500)  # its object dies at once
        elif where == "generator closed by a collection":
            _suspended_in_a_cycle()
            gc.collect()  # closes the generator: its finally block runs inside the gc
        else:
            gc.collect()
        for _ in range(100_000):  # bounded: a lost limit fails the test instead of hanging it
            _tick()

    if where == "gc callback":
        gc.callbacks.append(_gc_start_busy)
    try:
        assert call_limited(hangs, 100) == (None, True)
    finally:
        if where == "gc callback":
            gc.callbacks.remove(_gc_start_busy)
    assert swallowed == []


def test_work_is_counted_in_calls():
    assert count_calls(lambda: _busy(1000))[1] >= 1000
    assert call_limited(lambda: _busy(1000), 10_000) == (None, False)
    assert call_limited(lambda: _busy(1000), 500) == (None, True)


def test_R_off_main_thread():
    # the work limit counts calls in the calling thread, whichever it is
    out = []
    th = threading.Thread(
        target=lambda: out.append(self_concordance_constant(make_family("logistic")))
    )
    th.start()
    th.join()
    assert out[0].R == 1.0 and out[0].closed_form == 1 and out[0].where == "-inf,+inf"


# ----------------------------------------------------------------------------- report
@pytest.mark.parametrize("i", range(len(PAPER_LINKS)))
@pytest.mark.parametrize("delta", ["0.2", "1", "1.8"])
def test_lower_bound_below_lambda_star(i, delta):
    rep = self_concordance_report(_paper(i), delta)
    assert rep.bound_consistent
    assert rep.lower_bound <= rep.lambda_star
    assert rep.margin == sufficient_margin(rep.R, float(delta))
    assert_allclose(rep.lower_bound, 2 * rep.mu_star * rep.margin, rtol=1e-15)


@pytest.mark.parametrize("i", range(len(PAPER_LINKS)))
def test_delta_sc_is_the_margin_threshold(i):
    rep = self_concordance_report(_paper(i), "0.2")
    assert rep.delta_sc_roots and rep.delta_sc == max(rep.delta_sc_roots)
    for root in rep.delta_sc_roots:
        assert abs(sufficient_margin(rep.R, root)) <= 1e-14
    assert sufficient_margin(rep.R, rep.delta_sc + 1e-6) > 0
    above = self_concordance_report(_paper(i), str(round(rep.delta_sc + 1e-3, 6)))
    assert above.sufficient_condition_holds and above.lower_bound > 0 and above.lambda_star > 0
    # prop:self-concordance-stability: λ* > 0 above Δ_SC, so the exact threshold lies below it
    assert rep.exact_threshold_delta <= rep.delta_sc
    assert rep.conservativeness >= 0


def test_logistic_delta_sc_independent():
    # margin with R = 1 written out: Δ/2 − φ₀(0)(1 − Δ²/4)/(e^{Δ²/8} Φ(−Δ/2))
    def margin(d):
        kap = math.exp(d * d / 8) * math.erfc(d / 2 / math.sqrt(2)) / 2
        return d / 2 - (1 - d * d / 4) / math.sqrt(2 * math.pi) / kap

    ref = brentq(margin, 0.5, 1.9, xtol=1e-15)
    rep = self_concordance_report(make_family("logistic"), "1")
    assert_allclose(rep.delta_sc, ref, rtol=1e-13)
    assert rep.delta_sc_roots == [rep.delta_sc]
    assert rep.exact_threshold_delta == 0.0  # λ* > 0 on the whole Δ grid
    assert not rep.sufficient_condition_holds and rep.lambda_star > 0


def test_near_critical_exact_threshold():
    rep = self_concordance_report(_paper(4), "0.2")  # weighted-entropy rho = 0.72
    assert 0.19 < rep.exact_threshold_delta < 0.2 < rep.delta_sc


@pytest.mark.parametrize("link", ["probit", "z*exp(z**2/8)"])
def test_infinite_R_report(link):
    # both have m2 = E[g''(U)] = 0 (g'' odd), so λ* = Δμ* > 0 for every Δ although R = ∞
    link = make_family(link) if link == "probit" else Link.from_expression(link)
    rep = self_concordance_report(link, "1")
    assert math.isinf(rep.R) and rep.delta_sc is None and rep.delta_sc_roots == []
    assert not rep.sufficient_condition_holds and rep.lower_bound == -math.inf
    assert rep.bound_consistent and rep.lambda_star > 0 and rep.exact_threshold_delta == 0.0
    js = rep.to_json()
    assert js["R"] == "inf" and js["lower_bound"] == "-inf" and js["delta_sc"] is None


def test_zero_R_report():
    rep = self_concordance_report(make_family("identity"), "0.5")
    assert rep.R == 0.0 and rep.delta_sc == 0.0 and rep.sufficient_condition_holds
    # m2 = 0 and κ(0) = 1/2: the bound is an equality, λ* = Δμ*
    assert_allclose(rep.lower_bound, rep.lambda_star, rtol=1e-14)
    assert rep.bound_consistent


def test_json_keys_and_types():
    rep = self_concordance_report(make_family("logistic"), "0.2")
    js = rep.to_json()
    keys = {
        "R",
        "R_attained",
        "R_where",
        "R_closed_form",
        "kappa",
        "mu_star",
        "lambda_star",
        "lower_bound",
        "margin",
        "sufficient_condition_holds",
        "delta_sc",
        "delta_sc_roots",
        "exact_threshold_delta",
        "bound_consistent",
        "notes",
    }
    assert keys <= set(js)
    for k in ("R", "kappa", "mu_star", "lambda_star", "lower_bound", "margin", "delta_sc"):
        assert isinstance(js[k], str)
        float(js[k])
    assert js["R"] == "1.0" and js["R_where"] == "-inf,+inf" and js["R_closed_form"] == "1"
    assert isinstance(js["R_attained"], bool) and isinstance(js["bound_consistent"], bool)
    assert float(js["kappa"]) == kappa(0.1)


def test_a_hump_as_high_as_the_tails_is_attained_there():
    """g = tanh z + (8/3) tanh³ z: with t = tanh z, r = g''/g' = t(14 − 32t²)/(1 + 8t²) (by
    hand), so |r| = 2 at t = ±1/4 (a hump: r'(±1/4) = 0) and |r| → 2 at both tails. R = 2 is
    attained at z = ±atanh(1/4) and approached at ±∞. (The plateau of |r| = 2 to rounding at
    |z| ≈ 18–20 once crowded the humps out of the refined candidates: reported not attained.)
    Also kills nbl_theory.self_concordance:452 (the location read from ``best[0]``, the
    value, for ``best[1]``)."""
    c = self_concordance_constant(Link.from_expression("tanh(z) + 8*tanh(z)**3/3"))
    assert c.R == pytest.approx(2.0, rel=1e-12) and c.attained
    assert abs(abs(c.where) - math.atanh(0.25)) <= 1e-8
    assert "also approached at -inf,+inf" in " ".join(c.notes)


def test_the_hump_test_looks_half_a_unit_either_side():
    """The same link scaled and shifted, g(z) = G(k(z + 1/4)) with k = (2/3) log(5/3): R = 2k
    is attained at the two humps z = 1/2 and z = −1 (k(z + 1/4) = ±atanh(1/4) = ±(1/2)log(5/3))
    and approached at the tails. The nearer hump, z = 1/2, is reported, and it is a genuine
    hump because |r| is lower at z = 0 and z = 1; the other hump lies 1.5 to its left.
    Kills nbl_theory.self_concordance:443 (the left offset −0.5 → −1.5 lands on the other hump
    and calls the sup not attained)."""
    u = "2*log(5/3)*(z + 1/4)/3"
    c = self_concordance_constant(Link.from_expression(f"tanh({u}) + 8*tanh({u})**3/3"))
    assert c.R == pytest.approx(4 / 3 * math.log(5 / 3), rel=1e-12)
    assert c.attained and c.where == pytest.approx(0.5, abs=1e-8)


def test_an_oscillating_tail_is_not_taken_for_an_unbounded_one():
    """g = z + sin(z)/2 (g' = 1 + cos(z)/2 > 0): r = −sin z/(2 + cos z), whose sup is
    1/√3, attained where cos z = −1/2 (by hand). Its samples at |t| = 50, 100, 200 happen
    to grow like an unbounded tail's (0.088, 0.177, 0.351): R was reported infinite. The
    tail is not monotone over samples every factor √2, so it has no limit there; R is the
    sup found at z = ±2π/3, and the notes say the tails were not evaluable."""
    c = self_concordance_constant(Link.from_expression("z + sin(z)/2"))
    assert c.R == pytest.approx(1 / math.sqrt(3), rel=1e-12)
    assert c.attained and abs(abs(c.where) - 2 * math.pi / 3) <= 1e-7
    assert "tail at +inf not evaluable; sup over samples only" in c.notes


@pytest.mark.parametrize("side", [1, -1])
def test_a_hump_past_the_grid_is_found_by_the_tail_samples_on_its_side(side):
    """g = z + erf(z - 99.3 s)/2, s = ±1 (g' = 1 + exp(-u^2)/sqrt(pi) > 0, u = z - 99.3 s):
    |r| = |g''/g'| = 2|u| exp(-u^2)/sqrt(pi) / (1 + exp(-u^2)/sqrt(pi)) is a hump at |z| near
    100, past the grid on [-40, 40], and tends to 0 at both ends. The tail sample at |t| = 100
    on the hump's side exceeds the tail limits, and R is refined from it to the hump's top.
    Reference: that closed form maximized over u by scipy's bounded Brent (xatol 1e-12):
    0.366867256205 at u = 0.8047470."""
    ref = minimize_scalar(
        lambda u: (
            -(2 * u * math.exp(-u * u) / math.sqrt(math.pi))
            / (1 + math.exp(-u * u) / math.sqrt(math.pi))
        ),
        bounds=(0.0, 3.0),
        method="bounded",
        options={"xatol": 1e-12},
    )
    c = self_concordance_constant(Link.from_expression(f"z + erf(z - {99.3 * side})/2"))
    assert c.R == pytest.approx(-ref.fun, rel=1e-10)
    assert c.where == pytest.approx(side * (99.3 + ref.x), abs=1e-5)
    assert any(
        n.startswith("a sample with |t| in (40, 200] exceeds the tail limits") for n in c.notes
    )


def test_of_two_humps_the_higher_one_is_where_the_sup_is_attained():
    """g = z + erf(z - 3)/2 + erf(z + 1)/4: |g''|/g' has humps near z = 3 ± 0.7 and
    -1 ± 0.7, of different heights. R is the highest and ``where`` its maximizer, not a lower
    hump nearer 0 (the merge of two maxima that agree to rounding, kept for a tail's plateau,
    must not merge humps of different heights). Reference: r written out by hand in numpy,
    its |r| maximized on a grid of step 7e-5 on [-6, 8], then by scipy's bounded Brent to
    xatol 1e-12."""

    def r(z):
        e1, e2 = np.exp(-((z - 3) ** 2)), np.exp(-((z + 1) ** 2))
        g1 = 1 + e1 / math.sqrt(math.pi) + e2 / (2 * math.sqrt(math.pi))
        g2 = -2 * (z - 3) * e1 / math.sqrt(math.pi) - (z + 1) * e2 / math.sqrt(math.pi)
        return g2 / g1

    zz = np.linspace(-6.0, 8.0, 200001)
    z0 = zz[np.abs(r(zz)).argmax()]
    ref = minimize_scalar(
        lambda z: -abs(r(z)),
        bounds=(z0 - 1e-4, z0 + 1e-4),
        method="bounded",
        options={"xatol": 1e-12},
    )
    c = self_concordance_constant(Link.from_expression("z + erf(z - 3)/2 + erf(z + 1)/4"))
    assert c.R == pytest.approx(-ref.fun, rel=1e-10)
    assert c.where == pytest.approx(ref.x, abs=1e-5)


def test_a_limit_is_not_raised_into_a_generator_being_closed():
    """A generator dropped half-run is closed at once (its last reference gone), and Python
    reports the close as a "call" of the generator's frame; a limit raised there is swallowed
    ("Exception ignored in: <generator …>" on stderr) and unsets the trace function, so the
    rest of the block ran without a limit. sympy's assumption system does this
    (``FactKB.deduce_all_facts``' generator expressions, while a KeyError unwinds): a
    PytestUnraisableExceptionWarning, seen once in six runs of this file beside another. A
    limit passed in a generator frame is now raised at the next plain call. Here the third
    call is the close: with the old rule, limit 2 printed the swallowed exception."""

    def gen():
        yield 1
        yield 2

    def plain():
        return 0

    def work():
        g = gen()
        next(g)
        del g  # closed here: a "call" of gen's frame
        for _ in range(20):
            plain()
        return 1

    seen = []
    old = sys.unraisablehook
    sys.unraisablehook = lambda u: seen.append(repr(u.exc_value))
    try:
        outcomes = [call_limited(work, lim) for lim in range(8)]
    finally:
        sys.unraisablehook = old
    assert outcomes == [(None, True)] * 8
    assert seen == []


def test_a_limit_passed_only_in_generator_frames_still_ends_the_block():
    """The last calls past the limit are a generator's resumptions, with no plain call after:
    the block still ends with the limit (the outcome is the count's, not where it fell)."""

    def gen():
        yield from range(50)

    def work():
        return sum(1 for _ in gen())  # each resumption is a generator frame's "call"

    _, calls = count_calls(work)
    assert call_limited(work, calls) == (50, False)
    assert call_limited(work, calls - 3) == (None, True)


@pytest.mark.parametrize("i", [0, 3])  # tt-stable, weighted-entropy rho = 0.60
def test_the_reports_float64_kappa_agrees_with_its_30_digit_check(i):
    """nbl_theory.self_concordance:625 (``kappa(R * d / 2, dps=30)`` with ``-2``): the report
    cross-checks κ(RΔ/2) in float64 against mpmath at 30 digits and notes a disagreement
    beyond 1e-14. For the paper's links the two agree, so no such note; the κ it reports is
    e^{a²/2}Φ(−a) at a = RΔ/2 (mpmath at 30 digits, by hand here)."""
    rep = self_concordance_report(_paper(i), "1")
    assert not [n for n in rep.notes if n.startswith("kappa float64")], rep.notes
    a = mpmath.mpf(rep.R) / 2
    with mpmath.workdps(30):
        ref = mpmath.exp(a * a / 2) * mpmath.ncdf(-a)
    assert rep.kappa == pytest.approx(float(ref), rel=1e-14)


def test_a_link_whose_g_prime_vanishes_gets_a_report_not_an_internal_error():
    """g = z + sin z is increasing with g'(π) = 0, so |g''|/g' = |tan(z/2)| is unbounded. The
    numeric sup lands on a spike (a lower bound, said in a note), margin(Δ) < 0 at every
    scanned Δ, and the report says so: ``max()`` of no roots had ended ``nbl
    self-concordance`` in an internal error."""
    rep = self_concordance_report(Link.from_expression("z + sin(z)"), "0.2")
    assert rep.delta_sc is None and rep.margin < 0
    assert any("spike where g' (nearly) vanishes" in n for n in rep.constant.notes)
    assert any("holds nowhere there" in n for n in rep.notes)


@pytest.mark.parametrize(("sign", "expected"), [(-1.0, 2.0), (1.0, 0.0)])
def test_exact_threshold_at_the_ends_of_the_scan(monkeypatch, sign, expected):
    """The exact threshold's two ends (``SCReport`` docstring): 2.0 when λ* ≤ 0 up to the
    scan's last point (unstable on the whole grid: no Δ of (0, 2) is known stable), 0.0 when
    λ* > 0 on the whole scan. No link of the claims is unstable at Δ = 1.98, so λ* is replaced
    by a constant of each sign (the cache is emptied around it)."""
    from nbl_theory import self_concordance as sc

    monkeypatch.setattr(sc, "_CACHE", type(sc._CACHE)())  # noqa: SLF001 - a private cache
    monkeypatch.setattr(sc, "lambda_star_float", lambda link, d: sign)
    assert sc._exact_threshold(make_family("logistic")) == expected  # noqa: SLF001


def test_kappa_by_quadrature_gives_its_default_digits():
    """``kappa_by_quadrature``'s default ``dps=30``: the digits wanted, so κ(1) by quadrature
    with no ``dps`` agrees with the closed form e^{a²/2}Φ(−a) (mpmath at 60 digits) to
    1e-30 relative (measured 5e-42; a default of 15 digits gives 1.6e-27)."""
    with mpmath.workdps(60):
        ref = mpmath.exp(mpmath.mpf(1) / 2) * mpmath.ncdf(-1)
        assert abs(kappa_by_quadrature(1.0) - ref) / ref < mpmath.mpf("1e-30")


def test_a_numerically_constant_ratio_is_attained_everywhere(monkeypatch):
    """|g''|/g' constant where sympy did not see it (its r written times sin² + cos², which
    sympy leaves as it is): the numeric path must find it constant on the grid and in both
    tails and say "everywhere" (R = 1 for g = exp, by hand), not a tail or a hump."""
    import sympy as sp

    from nbl_theory import self_concordance as scm

    plain = scm._ratio_expr
    monkeypatch.setattr(
        scm,
        "_ratio_expr",
        lambda link, calls: plain(link, calls) * (sp.sin(scm.Z) ** 2 + sp.cos(scm.Z) ** 2),
    )
    res = scm._compute_constant(make_family("exp"), scm.SYMPY_CALLS)
    assert res.closed_form is None and res.method.startswith("numeric")  # the numeric path
    assert (res.R, res.attained, res.where) == (1.0, True, "everywhere")
    assert "numerically constant" in res.notes[-1]
