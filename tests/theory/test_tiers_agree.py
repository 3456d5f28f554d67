"""The three precision tiers of nbl_theory.stability agree on the paper's six named links; the
float64 tier survives nodes where numpy's formulas overflow.

Moved here from the claim registry (formerly the claims ``tiers-agree-<key>``): it compares the
toolkit with itself, so it is a test of the toolkit, not a check of the paper.
"""

import math

import mpmath
import numpy as np
import pytest

from nbl_theory.gaussian import FloatRangeError, moments_float
from nbl_theory.link_numeric import patch_limit
from nbl_theory.link_source import LinkSource
from nbl_theory.paper import PAPER_LINKS, REFERENCE_DELTA
from nbl_theory.stability import lambda_star_float, stability


@pytest.mark.parametrize("key", list(PAPER_LINKS))
def test_three_tiers_agree(key):
    """float64, 50-digit mpmath and certified Arb values of λ* at Δ = 0.2 agree.

    Tolerances are each tier's own error bound: the float64 value lies within its error estimate
    (plus 1e-15 of the scale Δμ* of the two terms of λ*) of the 50-digit value, the 50-digit value
    inside the certified Arb ball (plus its own error estimate and 1e-45 Δμ*), and all three tiers
    give the same, decided sign. Any disagreement is a toolkit bug.
    """
    link = PAPER_LINKS[key].link()
    f = stability(link, REFERENCE_DELTA, auto_raise=False)  # float64
    m50 = stability(link, REFERENCE_DELTA, dps=50, auto_raise=False)
    c = stability(link, REFERENCE_DELTA, certify=True)
    with mpmath.workdps(60):
        lam_f, err_f = mpmath.mpf(f.values["lambda_star"]), mpmath.mpf(f.errors["lambda_star"])
        lam_m, err_m = m50.values["lambda_star"], m50.errors["lambda_star"]
        mid, rad = c.values["lambda_star"], c.errors["lambda_star"]
        scale = abs(mpmath.mpf(f.values["mu_star"])) * mpmath.mpf(REFERENCE_DELTA)
        assert abs(lam_f - lam_m) <= err_f + err_m + mpmath.mpf("1e-15") * scale, (
            "float64 not within its error estimate of the 50-digit value"
        )
        assert abs(lam_m - mid) <= rad + err_m + mpmath.mpf("1e-45") * scale, (
            "50-digit value outside the certified ball"
        )
    assert {f.sign, m50.sign, c.sign} == {c.sign}, "the tiers disagree on the sign"
    assert c.sign != "undecided"


def test_tiers_check_detects_a_wrong_tier():
    """The float64-vs-50-digit comparison above can fail: a value shifted by 1e-12 (far above
    the float64 error estimate of ~1e-16) is rejected."""
    link = PAPER_LINKS["we-0.72"].link()
    f = stability(link, REFERENCE_DELTA, auto_raise=False)
    m50 = stability(link, REFERENCE_DELTA, dps=50, auto_raise=False)
    with mpmath.workdps(60):
        lam_f = mpmath.mpf(f.values["lambda_star"]) + mpmath.mpf("1e-12")
        err = mpmath.mpf(f.errors["lambda_star"]) + m50.errors["lambda_star"]
        scale = abs(mpmath.mpf(f.values["mu_star"])) * mpmath.mpf(REFERENCE_DELTA)
        assert abs(lam_f - m50.values["lambda_star"]) > err + mpmath.mpf("1e-15") * scale


def test_float64_tier_evaluates_every_overflowing_node_in_arb():
    """sigmoid(1000 z): numpy's formulas for g', g'' overflow (inf/inf) at chart nodes where the
    true values underflow to 0. ExpressionFunction re-evaluates such values in Arb, but at most
    20,000 a call, and the quadrature's deeper levels have more: the float64 tier used to give
    up there and fall back to the mpmath tier (36 s on the command line). The quadrature now
    lifts that per-call bound (nbl_theory.link_numeric.patch_limit) and stays float64 (~1 s).

    Reference λ* (= μ* at Δ = 1, m2 = 0 by symmetry): 0.199470812084975898165110714859, printed
    by ``nbl stability --link 'sigmoid(1e3*z)' --delta 1`` at commit 02f7bc3, i.e. by the mpmath
    tier at 30 digits that the float64 tier fell back to. Tolerance: the float64 error estimate
    plus 1e-15 of the value (float64 rounding of the sum)."""
    link = LinkSource.expression("sigmoid(1e3*z)").link()
    r = stability(link, "1", auto_raise=False)
    assert r.tier == "float64" and not r.notes
    ref = mpmath.mpf("0.199470812084975898165110714859")
    assert (
        abs(mpmath.mpf(r.values["lambda_star"]) - ref)
        <= mpmath.mpf(r.errors["lambda_star"]) + mpmath.mpf("1e-15") * ref
    )
    assert r.sign == "stable"


def test_float64_tier_still_gives_up_past_float64s_range():
    # 1e300 e^{2z} exceeds float64's range for z > ~9.9 (inside the window |z| <= 10) in mpmath
    # too: the float64 tier refuses
    link = LinkSource.expression("1e300*exp(2*z)").link()
    with pytest.raises(FloatRangeError):
        moments_float(link, 1.0)


def test_patch_limit_holds_only_inside_its_block():
    # outside the quadrature ExpressionFunction keeps its per-call bound (20,000 Arb values)
    g1 = LinkSource.expression("sigmoid(1e3*z)").link()._np["g1"]
    z = np.full(25_000, -10.0)  # every value overflows in numpy (the true one is ~1e-4340)
    assert np.isnan(g1(z)).all()
    with patch_limit(len(z)):
        assert np.array_equal(g1(z), np.zeros_like(z))
    assert np.isnan(g1(z)).all()


def test_the_float_lambda_star_falls_back_to_mpmath_past_float64s_range():
    """``lambda_star_float`` (the sweeps' fast path) takes the moments from the mpmath tier
    when the float64 chart overflows: for 1e300 e^{2z} (see above) it returns λ* ≈ 1e300,
    equal to the 30-digit λ* of ``stability`` to float64 rounding (1e-13 relative: the
    fallback computes at 20 digits and rounds once)."""
    link = LinkSource.expression("1e300*exp(2*z)").link()
    got = lambda_star_float(link, 1.0)
    ref = stability(link, "1", dps=30).values["lambda_star"]
    assert math.isfinite(got) and abs(got) > 1e299
    assert abs(got - float(ref)) <= 1e-13 * abs(float(ref))
