"""Tests of the certified (Arb ball arithmetic) tier, nbl_theory/certified.py.

Reference values are computed in the test session with the mpmath tier at 50 digits,
``stability(link, "0.2", dps=50)`` (trapezoid rule on the chart, error estimate ~1e-55), and the
certified ball must contain them. Timing is not asserted here (see benchmarks/).
"""

from __future__ import annotations

import flint
import mpmath
import numpy as np
import pytest
import sympy as sp
from flint import arb

from nbl_theory import Link
from nbl_theory.arb_eval import arb_precision, arb_to_mpf, compile_acb
from nbl_theory.certified import (
    CertificationError,
    _chart,
    _family_derivative_bounds,
    _sign_of,
    lambda_star_arb,
    moments_certified,
    stability_certified,
)
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.links import M, Z
from nbl_theory.stability import stability

LINKS = {
    "tt-stable": lambda: make_family("two-transition", mu2="-1.074037"),
    "tt-critical": lambda: make_family("two-transition", mu2="2.144072"),
    "tt-unstable": lambda: make_family("two-transition", mu2="1.244122"),
    "we-0.60": lambda: make_family("weighted-entropy", rho="0.60"),
    "we-0.72": lambda: make_family("weighted-entropy", rho="0.72"),
    "we-0.80": lambda: make_family("weighted-entropy", rho="0.80"),
    "logistic": lambda: make_family("logistic"),
    "probit": lambda: make_family("probit"),
    "exp": lambda: Link.from_expression("exp(z)"),
    "negative-entropy": lambda: make_family("negative-entropy"),
    "quadratic": lambda: make_family("quadratic"),
}
PAPER_SIGNS = {
    "tt-stable": "stable",
    "tt-critical": "stable",
    "tt-unstable": "unstable",
    "we-0.60": "stable",
    "we-0.72": "stable",
    "we-0.80": "unstable",
}
_CACHE: dict = {}


def _link(name):
    if ("link", name) not in _CACHE:
        _CACHE["link", name] = LINKS[name]()
    return _CACHE["link", name]


def _reference(name):
    """mpmath tier at 50 digits (the reference)."""
    if ("ref", name) not in _CACHE:
        _CACHE["ref", name] = stability(_link(name), "0.2", dps=50)
    return _CACHE["ref", name]


def _certified(name):
    if ("cert", name) not in _CACHE:
        _CACHE["cert", name] = stability_certified(_link(name), "0.2")
    return _CACHE["cert", name]


@pytest.mark.parametrize("name", list(LINKS))
def test_enclosure_contains_mpmath_reference(name):
    ref, res = _reference(name), _certified(name)
    lo, hi = res.lambda_star_enclosure
    lam = ref.values["lambda_star"]
    assert lo <= lam <= hi, (name, lo, lam, hi)
    # radius well below the 1e-30 promised at 128 bits (reference error ~1e-55 is negligible)
    assert res.errors["lambda_star"] < mpmath.mpf("1e-30")
    with mpmath.workprec(600):  # exact arithmetic on the ~160-bit endpoints and values
        assert hi - lo < mpmath.mpf("2e-30")
        for key in ("mu_g", "mu_star", "m0", "m2", "kappa_star"):
            assert abs(res.values[key] - ref.values[key]) <= res.errors[key] + ref.errors[key]
    assert res.sign == ref.sign
    assert res.sign == PAPER_SIGNS.get(name, res.sign)
    assert res.tier == "certified" and res.certified
    assert 30 <= res.digits <= 45


def test_moments_and_lambda_balls_contain_reference():
    ref = _reference("we-0.72")
    mom = moments_certified(_link("we-0.72"), "0.2", prec=128)
    for key in ("mu_g", "mu_star", "m0", "m2"):
        assert isinstance(mom[key], arb)
        with mpmath.workprec(600):
            assert (
                abs(arb_to_mpf(mom[key].mid()) - ref.values[key])
                <= arb_to_mpf(mom[key].rad()) + ref.errors[key]
            )
    lam = lambda_star_arb(_link("we-0.72"), sp.Rational(1, 5), prec=256)
    assert lam > 0
    assert lam.rad() < arb("1e-70")  # 256 bits ≈ 77 digits


def test_json_is_decimal_strings():
    out = _certified("tt-critical").to_json()
    assert out["tier"] == "certified" and out["certified"] is True
    assert isinstance(out["lambda_star"], str) and out["lambda_star"].startswith("2.91763077715789")
    with mpmath.workprec(600):
        lo, hi = (mpmath.mpf(x) for x in out["lambda_star_enclosure"])
        assert 0 < lo < hi
        ball = lambda_star_arb(_link("tt-critical"), "0.2", prec=128)
        assert lo <= arb_to_mpf(ball.mid()) - arb_to_mpf(ball.rad())
        assert hi >= arb_to_mpf(ball.mid()) + arb_to_mpf(ball.rad())
    assert out["jacobian_rates"]["theta_multiplicity"] == 1  # an int, in --json too
    assert _certified("tt-critical").to_dict()["jacobian_rates"]["theta_multiplicity"] == 1
    assert isinstance(
        _certified("tt-critical").to_dict()["jacobian_rates"]["theta_multiplicity"], int
    )


def test_stability_certify_dispatch():
    res = stability(_link("tt-unstable"), "0.2", certify=True)
    assert res.tier == "certified" and res.sign == "unstable" and res.seconds > 0


def test_growth_hypothesis_note_only_without_proven_bounds():
    assert not any("growth hypothesis" in n for n in _certified("tt-stable").notes)
    assert not any("growth hypothesis" in n for n in _certified("we-0.60").notes)
    assert any(
        "growth hypothesis" in n and "assum:polygrowth_g" in n for n in _certified("exp").notes
    )


@pytest.mark.parametrize(
    "text, domain",
    [
        ("log(1+exp(z))", None),  # softplus: log branch cut, shells
        ("z + atan(z) + sqrt(1+z**2)/3", None),  # atan, sqrt branch cuts
        ("m*log(m)+(1-m)*log(1-m)", (0, 1)),  # user potential: shells through the chart
        # the same potential moved to (2, 3): the chart's width is hi − lo, not hi (or hi + lo)
        ("(m-2)*log(m-2)+(3-m)*log(3-m)", (2, 3)),
    ],
)
def test_user_links_without_proven_bounds(text, domain):
    link = Link.from_expression(text) if domain is None else Link.from_potential(text, domain)
    ref = stability(link, "0.3", dps=40)
    res = stability_certified(link, "0.3")
    lo, hi = res.lambda_star_enclosure
    assert lo <= ref.values["lambda_star"] <= hi
    assert res.errors["lambda_star"] < mpmath.mpf("1e-30")


def test_sign_helper_on_synthetic_balls():
    assert _sign_of(arb(0, 1e-20)) == "undecided"
    assert _sign_of(arb("1e-25", "2e-25")) == "undecided"
    assert _sign_of(arb(1e-25, 1e-26)) == "stable"
    assert _sign_of(arb(-1e-25, 1e-26)) == "unstable"


def test_ladder_raises_precision_and_reports_undecided(monkeypatch):
    import nbl_theory.certified as cert

    seen = []

    def fake_combine(mom, delta_q):  # λ* ball that always contains 0
        seen.append(flint.ctx.prec)
        return {
            **mom,
            "kappa_star": arb(1),
            "lambda_star": arb(0, 1e-20),
            "orthogonal": arb(1),
            "theta": arb(1),
            "contraction_rate_d3plus": arb(1),
        }

    monkeypatch.setattr(cert, "_combine", fake_combine)
    res = cert.stability_certified(_link("tt-stable"), "0.2", max_prec=256)
    assert res.sign == "undecided"
    assert seen == [128 + cert._GUARD, 256 + cert._GUARD]
    assert any("undecided" in n for n in res.notes)
    res = cert.stability_certified(_link("tt-stable"), "0.2", auto_raise=False)
    assert res.sign == "undecided" and len(seen) == 3
    # a ball with no correct digit is still printed at one significant digit, outward: Arb's
    # radius 1e-20 rounds up in binary, so the ends are -2e-20 and 2e-20 (not -1e-19, 1e-19
    # at "zero digits", nor a bare 0)
    # (the decimal ends are stored rounded outward in binary, 68 bits: float64 rounds them back)
    assert tuple(map(float, res.lambda_star_enclosure)) == (-2e-20, 2e-20)


def test_precision_restored_after_calls_and_errors():
    flint.ctx.prec = 77
    try:
        stability_certified(_link("tt-stable"), "0.2", auto_raise=False)
        assert flint.ctx.prec == 77
        bad = Link.from_expression(Z + sp.Abs(Z) / 2, validate=False)
        with pytest.raises(NBLInputError):
            stability_certified(bad, "0.2")
        assert flint.ctx.prec == 77
    finally:
        flint.ctx.prec = 53


@pytest.mark.parametrize(
    "expr, match",
    [
        (Z + sp.Abs(Z) / 2, "cannot evaluate"),
        (Z + sp.gamma(Z**2 + 1) / 1000, "gamma"),
    ],
)
def test_unsupported_function_is_input_error(expr, match):
    link = Link.from_expression(expr, validate=False)
    with pytest.raises(NBLInputError, match=match):
        stability_certified(link, "0.2")
    assert issubclass(CertificationError, NBLInputError)


def test_compiled_evaluator_matches_mpmath():
    expr = (
        sp.exp(Z / 3)
        + sp.log(2 + Z**2)
        + sp.tanh(Z)
        + sp.sinh(Z) / 5
        + sp.cosh(Z) / 7
        + sp.sin(Z)
        + sp.cos(Z)
        + sp.atan(Z)
        + sp.asinh(Z)
        + sp.erf(Z)
        + sp.erfc(Z)
        + (1 + Z**2) ** sp.Rational(1, 3)
        + sp.sqrt(3 + Z) / (1 + Z**2)
        + sp.pi * sp.E
        + sp.Float(0.1) * Z
        + sp.tan(Z / 4)
    )
    with arb_precision(200):
        f = compile_acb([expr], Z)
        val = f(flint.acb(arb("0.7")), True)[0]
    with mpmath.workdps(50):
        ref = sp.lambdify(Z, expr, "mpmath")(mpmath.mpf("0.7"))
        assert abs(arb_to_mpf(val.real.mid()) - ref) < mpmath.mpf("1e-45")
    assert val.real.rad() < arb("1e-50") and val.imag.contains(0)


def test_analytic_flag_rejects_branch_cut():
    with arb_precision(128):
        f = compile_acb([sp.log(Z) + sp.sqrt(Z) + sp.atan(Z)], Z)
        near_cut = flint.acb(arb(-1), arb(0, 0.1))
        assert not f(near_cut, True)[0].is_finite()
        assert f(flint.acb(2), True)[0].is_finite()


def test_potential_chart_matches_mpmath_chart():
    link = _link("we-0.80")
    chart = _chart(link, 160)
    for tk in (-30, -3, 0, 2.5, 30):  # larger t: the mpmath chart itself loses digits
        with mpmath.workdps(60):
            ref = link.chart_mpmath(mpmath.mpf(tk))
        with arb_precision(160):
            t = flint.acb(tk)
            z, w0, w2 = chart.group2(t, False)
            got = (z, w0, chart.group1(t, False)[1], w2)
        for a, b in zip(got, ref):  # 160 bits ≈ 48 digits; relative 1e-40 leaves margin
            assert abs(arb_to_mpf(a.real.mid()) - b) <= mpmath.mpf("1e-40") * max(1, abs(b))


_Z = np.linspace(-8.0, 8.0, 4001)  # wider grids underflow in the float64 chart of links.py


@pytest.mark.parametrize(
    "family, params",
    [
        ("two-transition", {}),
        ("two-transition", {"mu2": "1.244122"}),
        ("two-transition", {"p0": "-0.3", "a1": "0.7", "b1": "5", "b2": "0.2", "mu1": "3"}),
        ("logistic", {}),
        ("probit", {}),
        ("weighted-entropy", {"rho": "0.72"}),
        ("weighted-entropy", {"rho": "0.95"}),
        ("weighted-entropy", {"rho": "-0.9"}),
        ("weighted-entropy", {"rho": "0"}),
        ("binary-negative-entropy", {}),
    ],
)
def test_family_derivative_bounds_hold_on_grid(family, params):
    link = make_family(family, **params)
    bounds = _family_derivative_bounds(link)
    assert bounds is not None
    for j in range(3):
        vals = np.abs(link.derivative_numpy(_Z, j))
        assert np.all(np.isfinite(vals))
        # the bounds are proven; the grid only guards against a wrong formula
        assert vals.max() <= float(bounds[j]) * (1 + 1e-12), (family, j, vals.max(), bounds[j])
    if link.kind == "potential":  # whole domain m ∈ (0, 1), in m at 60 digits
        d = link.derivatives
        g1, g2 = (sp.lambdify(M, d[k], "mpmath") for k in ("g1_m", "g2_m"))
        with mpmath.workdps(60):
            b1, b2 = (mpmath.mpf(b.p) / b.q for b in bounds[1:])
            for t in np.linspace(-60, 60, 2401):
                m = 1 / (1 + mpmath.exp(-mpmath.mpf(float(t))))
                assert abs(g1(m)) <= b1 and abs(g2(m)) <= b2, (t, m)


def test_no_bounds_for_unbounded_links():
    assert _family_derivative_bounds(make_family("quadratic")) is None
    assert _family_derivative_bounds(Link.from_expression("exp(z)")) is None


def test_certified_says_monotonicity_is_checked_not_proved():
    """'certified' is the enclosure of lambda* for g as given: a link is refused only with a
    proven witness of a decrease, so z + 1.0000001 sin z (decreasing on intervals of width
    9e-4, between the scan points) is accepted - the result says what was not proved."""
    res = _certified("tt-critical")
    assert any("that g is increasing" in n and "not proved" in n for n in res.notes)


@pytest.mark.parametrize("mid, rad", [(0.0, 1e-3), (2e-3, 5e-3), (-1e-3, 4e-3)])
def test_the_positive_part_of_a_ball_straddling_zero_encloses_it(mid, rad):
    """(m2)+ of a ball containing 0 (tanh's m2 is exactly 0) is enclosed by [0, upper]: every
    point of max(x, 0) over the ball lies in the result (a mutant doubling the upper end's
    midpoint gave [1.5u, 2.5u], which excludes 0, and survived every claim)."""
    from flint import arb

    from nbl_theory.certified import _ArbOps

    x = arb(mid, rad)
    out = _ArbOps.pos(x)
    assert out.contains(arb(0)) and out.contains(x.upper())
    assert out.contains(arb(max(float(mid), 0.0)))


def test_a_piece_whose_bound_stays_infinite_ends_after_its_bisection_budget():
    """``_piece_bound`` bisects a piece while its bound is not finite, at most ``depth`` (24)
    times along any path: an integrand with a pole at one point (here a stub chart whose sup
    is +inf on every piece that contains 7/10) returns an infinite bound after 2 calls per
    level — not an unbounded recursion."""
    from nbl_theory.certified import _piece_bound

    pole, calls = arb(7) / 10, []

    class Chart:
        def interval_sups(self, group, lo, hi):
            return None  # no interval form: one ball evaluation per piece

        def group1(self, ball, _):
            calls.append(ball)
            w = flint.acb(arb("inf")) if ball.real.contains(pole) else flint.acb(1)
            return [flint.acb(0), w]  # (z, w_1)

    out = _piece_bound(Chart(), 1, arb(0), arb(1), arb(1))
    assert len(out) == 1 and not out[0].is_finite()
    assert len(calls) <= 2 * 24 + 1


def test_a_bisected_piece_bound_is_the_sum_of_its_halves_bounds():
    """``_piece_bound`` bisects a piece whose one-ball bound is not finite; the bound of the
    piece is then the sum of its halves' bounds, still an upper bound of ∫|w| ϕ_σ(z) dt. A
    stub chart (z = t, |w| ≤ 1 on pieces of width ≤ 1/4, +inf on wider ones) on [0, 1], σ = 1:
    the four quarter bounds are each (1/4)·ϕ(left end), whose sum 0.3649 (by hand, from
    ϕ(0), ϕ(1/4), ϕ(1/2), ϕ(3/4)) bounds ∫_0^1 ϕ = 0.3413 (mpmath)."""
    from nbl_theory.certified import _piece_bound

    class Chart:
        def interval_sups(self, group, lo, hi):
            return None  # no interval form: one ball evaluation per piece

        def group1(self, ball, _):
            wide = ball.real.rad() > arb("0.2")  # a half (radius 1/4), not a quarter (1/8)
            return [ball, flint.acb(arb("inf")) if wide else flint.acb(1)]  # (z, w_1)

    (out,) = _piece_bound(Chart(), 1, arb(0), arb(1), arb(1))
    phi = [mpmath.npdf(x) for x in (0, 0.25, 0.5, 0.75)]
    by_hand = sum(phi) / 4
    assert out.is_finite()
    # upward only, by the union ball's radius (Arb keeps radii to 30 bits, so min|z| comes
    # out ~1e-9 low: 8e-11 relative measured)
    assert arb(by_hand) <= out and out <= arb(by_hand) * (1 + 1e-8)
    assert out >= arb(mpmath.ncdf(1) - mpmath.ncdf(0))


def test_the_growth_hypothesis_takes_over_where_the_last_shell_ends(monkeypatch):
    """``_shell_tails`` bounds ∫_{|z|>a} by dyadic shells a·2^(k−1) ≤ |z| ≤ a·2^k, k ≤ S, then
    by the growth hypothesis beyond X: the two must meet (X = a·2^S, the last shell's end), or
    the mass between them is bounded by nothing. The shells' ends are read from the targets
    the chart search is asked for (a stub that returns them; the pieces' bounds are zeroed)."""
    import nbl_theory.certified as cert

    targets = []

    def t_beyond(link, chart, target, side):
        targets.append(abs(target))
        return target

    monkeypatch.setattr(cert, "_t_beyond", t_beyond)
    monkeypatch.setattr(cert, "_piece_bound", lambda *a, **k: [arb(0), arb(0)])
    a = arb(3)
    _, x = cert._shell_tails(None, None, a, arb(1), (-a, a), 2)
    assert len(targets) == 2 * cert._SHELLS
    assert x == float(max(targets, key=float)) == 3 * 2**cert._SHELLS


@pytest.mark.parametrize("exp10", [-7, -2, -1, 0, 1, 2, 3, 8])
def test_decimal_outward_keeps_the_digits_asked_for_at_every_decimal_exponent(exp10):
    """nbl_theory.results.decimal_outward rounds man·2^exp outward to exactly ``digits``
    significant decimals, whatever the parity of its decimal exponent (by hand: 1.23456·10^e
    to 4 digits is 1.235·10^e up and 1.234·10^e down)."""
    from fractions import Fraction

    from nbl_theory.results import decimal_outward

    x = mpmath.mpf("1.23456") * mpmath.mpf(10) ** exp10
    man, exp = (int(v) for v in x.man_exp)
    up, down = decimal_outward(man, exp, 4, True), decimal_outward(man, exp, 4, False)
    scale = Fraction(10) ** exp10
    assert up == Fraction(1235, 1000) * scale and down == Fraction(1234, 1000) * scale
    assert down <= Fraction(man) * Fraction(2) ** exp <= up


def test_the_certified_window_covers_minus_a_to_a_on_a_potential_link(monkeypatch):
    """_window's integration window [t-, t+] must contain z^-1[-a, a] (a = L sigma, beyond
    which the tails are bounded): z(t-) <= -a and z(t+) >= a, certified in Arb. On a potential
    link (weighted entropy, rho = 0.80; an expression link's chart is z itself) the edge found
    on the wrong side of -a would leave a sliver of the line neither integrated nor bounded."""
    from nbl_theory import certified

    link = _link("we-0.80")
    chart = _chart(link, 160)
    asked = []
    real = certified._t_beyond

    def recording(link_, chart_, target, side):
        asked.append((target, side))
        return real(link_, chart_, target, side)

    monkeypatch.setattr(certified, "_t_beyond", recording)
    with arb_precision(160):
        # with the family's derivative bounds the tails need no shells: the only calls of
        # _t_beyond are the two edges of each try of the window
        bounds = _family_derivative_bounds(link)
        (lo, hi), _, _ = certified._window(link, chart, arb(1), 1, 128, bounds)
        (a_lo, s_lo), (a_hi, s_hi) = asked[-2], asked[-1]
        assert (s_lo, s_hi) == (-1, 1) and a_lo == -a_hi and a_hi > 0
        assert chart.group1(flint.acb(lo), False)[0].real <= a_lo
        assert chart.group1(flint.acb(hi), False)[0].real >= a_hi


@pytest.mark.parametrize("w", [200, 2000])
def test_the_retry_with_larger_limits_certifies_an_oscillating_integral(w):
    """nbl_theory.certified._integrate retries a panel with 64 more bits and acb.integral's
    larger limits when the default leaves the ball too wide: ∫_0^1 sin(w z) dz at 64 bits
    needs that retry (its extra bits: without them the ball stays too wide), and must come
    back certified and holding (1 − cos w)/w (by hand)."""
    from nbl_theory import certified

    tot, ok = certified._integrate(lambda z, analytic: (w * z).sin(), arb(0), arb(1), 64)
    assert ok
    # _integrate calls a panel good at a radius <= 2^-(64 - 8) (1 + |value|); 2^-50 asks for that
    # order without pinning the last bits of Arb's radius
    assert tot.real.rad() <= arb(2) ** -50
    with arb_precision(200):  # the reference far tighter than the integral's ball
        ref = (1 - arb(w).cos()) / w
    assert tot.real.overlaps(ref)
