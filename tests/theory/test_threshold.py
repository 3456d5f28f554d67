"""Thresholds: every sign change in a range, refined, with certified brackets."""

import math

import mpmath
import pytest

from nbl_theory import NBLInputError, threshold
from nbl_theory.families import make_family
from nbl_theory.links import Link
from nbl_theory.stability import stability
from nbl_theory.threshold import find_thresholds


def _family(name, **fixed):
    def build(value, _key=None):
        return make_family(name, **fixed, **{_key or KEYS[name]: value})

    return build


KEYS = {"weighted-entropy": "rho", "two-transition": "mu2"}


def test_weighted_entropy_critical_rho_is_certified():
    res = find_thresholds(
        _family("weighted-entropy"), "rho", delta="0.2", bracket=("0.6", "0.8"), grid=9
    )
    assert len(res.roots) == 1
    root = res.roots[0]
    assert root.certified and root.crossing == "stable->unstable"
    lo, hi = root.bracket
    # the certificate itself: opposite certified signs at the exact bracket ends
    assert stability(make_family("weighted-entropy", rho=lo), "0.2", certify=True).sign == "stable"
    assert (
        stability(make_family("weighted-entropy", rho=hi), "0.2", certify=True).sign == "unstable"
    )
    assert float(hi) - float(lo) < 1e-9


def test_two_transition_has_two_critical_mu2_at_delta_02():
    res = find_thresholds(_family("two-transition"), "mu2", delta="0.2", grid=50)
    assert [r.crossing for r in res.roots] == ["stable->unstable", "unstable->stable"]
    assert all(r.certified for r in res.roots)
    # the paper's links sit on the expected sides: -1.074037 < root1 < 1.244122 < root2 < 2.144072
    r1, r2 = (float(r.value) for r in res.roots)
    assert -1.074037 < r1 < 1.244122 < r2 < 2.144072


def test_delta_threshold_of_unstable_link_and_mpmath_refinement():
    link = make_family("two-transition", mu2="1.244122")
    res = find_thresholds(link, "delta", grid=30, dps=25)
    assert len(res.roots) == 1 and res.roots[0].certified
    root = res.roots[0]
    with mpmath.workdps(30):
        lam = stability(link, root.value, dps=25).lambda_star
        # the refined root has |lambda*| at the 25-digit level (slope of lambda* in delta ~ 0.2)
        assert abs(lam) < mpmath.mpf(10) ** -20
    assert root.crossing == "unstable->stable"


def test_no_sign_change_reported():
    res = find_thresholds(make_family("logistic"), "delta", grid=10)
    assert res.roots == []
    assert "no sign change of lambda* in the range: lambda* > 0 (stable) at all 10" in res.notes[-1]


@pytest.mark.parametrize(
    "lam, words",
    [
        (lambda x: -1.0 - x, "lambda* < 0 (unstable) at all 5 finite points"),
        (lambda x: max(0.0, 1.0 - x), "lambda* > 0 at 2, < 0 at 0 and = 0 at 3 points"),
        (lambda x: math.nan if x > 1.2 else 2.0, "> 0 (stable) at all 3 finite points; 2 point"),
    ],
)
def test_the_no_root_note_states_the_signs_the_scan_saw(monkeypatch, lam, words):
    """The note is drawn from the scanned values, never a fixed sentence: a scan that saw
    λ* < 0 throughout says so (the header once read "lambda* = 0 for delta in …")."""
    monkeypatch.setattr(threshold, "lambda_star_float", lambda link, x: lam(x))
    res = find_thresholds(make_family("logistic"), "delta", grid=5, bracket=("0.5", "1.5"))
    assert res.roots == [] and words in res.notes[-1]


def test_a_sign_change_through_an_exact_zero_is_a_root(monkeypatch):
    """λ* = +, 0, − on three grid points: neither neighbouring product is negative, and the
    root at the zero grid point used to be missed."""
    monkeypatch.setattr(threshold, "lambda_star_float", lambda link, x: 1.0 - x)
    res = find_thresholds(
        make_family("logistic"), "delta", grid=3, bracket=("0.5", "1.5"), certify=False
    )
    assert [(r.value, r.crossing) for r in res.roots] == [("1.0", "stable->unstable")]


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"solve_for": "rho", "bracket": ("0.1", "0.2")}, "fixed --delta"),
        ({"solve_for": "rho", "delta": "0.2", "bracket": ("0.3", "0.2")}, "empty"),
        ({"solve_for": "foo", "delta": "0.2"}, "--bracket"),
        ({"solve_for": "rho", "delta": "0.2", "bracket": ("0.1", "0.2"), "grid": 2}, "at least 3"),
    ],
)
def test_threshold_input_errors(kwargs, fragment):
    with pytest.raises(NBLInputError, match=fragment):
        find_thresholds(_family("weighted-entropy"), **kwargs)


@pytest.fixture(scope="module")
def exp_root_40():
    """The exp link's Δ root (λ* changes sign between 0.75 and 1: closed-form integrals, so
    mpmath is cheap) refined at 40 digits."""
    link = Link.from_expression("exp(z)")
    res = find_thresholds(link, "delta", grid=3, bracket=("0.5", "1.0"), dps=40, certify=False)
    assert len(res.roots) == 1
    return link, res.roots[0].value


@pytest.mark.parametrize("dps", [5, 8, 12, 20])
def test_a_root_refined_at_few_digits_is_the_finer_root_rounded(exp_root_40, dps):
    """The mpmath refinement works at no fewer than REFINE_MIN_DPS digits and prints ``dps``:
    at ``dps=8`` its secant used to start inside λ*'s own noise and mpmath's findroot gave up
    (``nbl threshold --dps 8`` ended in an internal error). Every ``dps`` prints the 40-digit
    root rounded to ``dps`` digits, and that root is one: |λ*| < 1e-35 there (40 digits)."""
    link, fine = exp_root_40
    got = find_thresholds(link, "delta", grid=3, bracket=("0.5", "1.0"), dps=dps, certify=False)
    with mpmath.workdps(45):
        assert got.roots[0].value == mpmath.nstr(mpmath.mpf(fine), dps)
    with mpmath.workdps(45):
        lam = stability(link, fine, dps=40).lambda_star
        assert abs(lam) < mpmath.mpf(10) ** -35


def test_progress_counts_each_scan_point_once_ending_at_the_grid(monkeypatch):
    """``progress(i, n)`` is called after each scan point with i = 1 … n (a bar that ends full)."""
    monkeypatch.setattr(threshold, "lambda_star_float", lambda link, x: 1.0 + x)
    calls = []
    find_thresholds(
        make_family("logistic"),
        "delta",
        grid=5,
        bracket=("0.5", "1.5"),
        progress=lambda i, n: calls.append((i, n)),
    )
    assert calls == [(i, 5) for i in range(1, 6)]
