"""The one root scan on the circle (nbl_sim.population.circle.circle_zeros): the Gaussian results of the
plain scan unchanged, a reference angle, rounding-level sign disagreements, jumps of H."""

import math

import numpy as np
import pytest
from scipy.optimize import brentq

from nbl_sim.population.circle import circle_equilibria, circle_zeros
from nbl_sim.population.fields import circle_functions
from nbl_theory.errors import NBLInputError
from nbl_theory.paper import PAPER_LINKS, paper_link


def _plain_scan(H, dH, n_grid, tol, xtol):
    """The scan as it was before the extension (commit 8582e6c: grid, sign changes, brentq,
    labels from H'), restated in vectorized form as an independent reference: the same grid
    and the same brentq calls on the same brackets, so the same floats."""
    n = int(n_grid) + int(n_grid) % 2
    grid = -math.pi + (2 * math.pi / n) * np.arange(1, n + 1)
    grid[[-1, n // 2 - 1]] = math.pi, 0.0
    sg = np.sign(np.asarray(H(grid), dtype=float))
    left = np.flatnonzero(sg * np.roll(sg, -1) < 0)  # sign change from grid[j] to grid[j+1]
    right = (left + 1) % n
    brackets = zip(grid[left], grid[right] + np.where(right == 0, 2 * math.pi, 0.0))
    refined = np.array(
        [
            brentq(
                lambda x: float(H(np.array([x]))[0]), a, b, xtol=xtol, rtol=4 * np.finfo(float).eps
            )
            for a, b in brackets
        ]
    )
    refined = np.where(refined > math.pi, refined - 2 * math.pi, refined)
    roots = np.sort(np.concatenate([grid[sg == 0], refined]))
    d1s = np.asarray(dH(roots), dtype=float)
    res = np.abs(np.asarray(H(roots), dtype=float))
    return [
        (
            float(a),
            math.degrees(a),
            float(d1),
            "attracting" if d1 < -tol else "repelling" if d1 > tol else "degenerate",
            float(r),
        )
        for a, d1, r in zip(roots, d1s, res)
    ]


@pytest.mark.parametrize("delta", ["0.2", "1"])
@pytest.mark.parametrize("key", list(PAPER_LINKS))
def test_gaussian_scan_is_the_plain_scan_bit_for_bit(key, delta):
    """With ref = 0 and no jump detection, every field of every zero of the paper's Gaussian
    H equals the pre-extension scan exactly (==, not a tolerance)."""
    h, dh, scale = circle_functions(paper_link(key), delta)
    tol = 1e-9 * max(1.0, scale)
    new = circle_zeros(h, dh, 720, tol, 1e-13)
    old = _plain_scan(h, dh, 720, tol, 1e-13)
    assert [(e.alpha, e.degrees, e.dH, e.stability, e.residual) for e in new] == old
    assert all(e.kind == "zero" and e.jump == 0.0 for e in new) and new.ref == 0.0


def test_reference_angle():
    """H(α) = sin(α − c): zeros c (repelling, H' = 1) and c + π (attracting). With ref = c the
    zero at c is a grid point (exactly), degrees are measured from c, α ∈ (c − π, c + π]."""
    c = 2.0

    def H(a):
        return np.sin(np.asarray(a) - c)

    def dH(a):
        return np.cos(np.asarray(a) - c)

    z = circle_zeros(H, dH, 360, ref=c)
    assert z.ref == c and len(z) == 2
    at = {e.stability: e for e in z}
    assert at["repelling"].alpha == c and at["repelling"].degrees == 0.0  # a grid point
    # the zero c + π, the upper end of (c − π, c + π]; brentq xtol 1e-13, so 1e-12
    assert at["attracting"].alpha == pytest.approx(c + math.pi, abs=1e-12)
    assert abs(at["attracting"].degrees) == pytest.approx(180.0, abs=1e-9)
    assert all(c - math.pi < e.alpha <= c + math.pi for e in z)
    # the same zeros from ref = 0, as absolute angles
    z0 = circle_zeros(H, dH, 360)
    assert sorted(round(math.remainder(e.alpha, 2 * math.pi), 10) for e in z0) == sorted(
        round(math.remainder(e.alpha, 2 * math.pi), 10) for e in z
    )


def test_rounding_level_sign_disagreement_is_a_zero_at_the_end():
    """H evaluated on the whole grid says −1e-18 at a grid angle where one-point evaluation
    says +1e-18 (a batch that rounds differently): no brentq error, the zero is the end with
    the smaller |H|, reported once."""
    n = 360
    step = 2 * math.pi / n
    target = -math.pi + step * 100  # a grid angle (j = 99)

    def H(a):
        a = np.asarray(a, dtype=float)
        out = np.sin(a - target) + np.where(a == target, 1e-18, 0.0)
        if a.size > 1:  # the batch rounds the other way at the target
            out = np.where(a == target, -1e-18, out)
        return out

    z = circle_zeros(H, lambda a: np.cos(np.asarray(a) - target), n)
    assert sum(abs(math.remainder(e.alpha - target, 2 * math.pi)) < 1e-12 for e in z) == 1
    assert any(e.alpha == target for e in z)


def test_jumps_are_reported_as_jumps():
    """A piecewise-smooth H: +0.5 on (−1, 1), −0.5 + 0.8 exp(−((α − 2.5)/0.2)²) elsewhere. It
    jumps + → − at α = 1 (no zero there: the flow is pushed into the jump from both sides,
    jump-attracting) and − → + at α = −1 (jump-repelling), and has two smooth zeros
    2.5 ∓ 0.2 (ln 1.6)^{1/2} (repelling, then attracting)."""

    def H(a):
        w = np.mod(np.asarray(a, dtype=float) + math.pi, 2 * math.pi) - math.pi
        return np.where((w > -1.0) & (w < 1.0), 0.5, -0.5 + 0.8 * np.exp(-(((w - 2.5) / 0.2) ** 2)))

    def dH(a):
        w = np.mod(np.asarray(a, dtype=float) + math.pi, 2 * math.pi) - math.pi
        return np.where(
            (w > -1.0) & (w < 1.0),
            0.0,
            -0.8 * np.exp(-(((w - 2.5) / 0.2) ** 2)) * 2 * (w - 2.5) / 0.04,
        )

    r = 0.2 * math.sqrt(math.log(1.6))
    plain = circle_zeros(H, dH, 720)
    z = circle_zeros(H, dH, 720, jump_rtol=1e-6)
    kinds = {round(e.alpha, 6): (e.kind, e.stability) for e in z}
    assert kinds == {
        -1.0: ("jump", "jump-repelling"),
        1.0: ("jump", "jump-attracting"),
        round(2.5 - r, 6): ("zero", "repelling"),
        round(2.5 + r, 6): ("zero", "attracting"),
    }
    # a jump of size 1 (0.5 to −0.5 + 0.8 e^{−56.25}, i.e. 1 − 4e-25)
    assert all(abs(abs(e.jump) - 1.0) < 1e-12 for e in z if e.kind == "jump")
    # without jump detection the same angles are found, labelled from H' only
    assert [round(e.alpha, 6) for e in plain] == [round(e.alpha, 6) for e in z]
    assert all(e.kind == "zero" for e in plain)


def test_gaussian_equilibria_unchanged_by_the_new_options():
    """circle_equilibria (the paper's model) still finds α = 0 and ±73.2056° for the unstable
    link at Δ = 0.2 (the global-field figure's reference)."""
    eqs = circle_equilibria(paper_link("tt-unstable"), "0.2", n_grid=720)
    att = sorted(abs(e.degrees) for e in eqs if e.stability == "attracting")
    # reference: 73.205631 deg, printed by the global-field figure test (brentq xtol 1e-13)
    assert att == pytest.approx([73.205631, 73.205631], abs=1e-6)


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        (dict(n_grid=4), "n_grid"),
        (dict(n_grid=True), "n_grid"),
        (dict(ref=float("nan")), "ref"),
        (dict(jump_rtol=0.0), "jump_rtol"),
        (dict(jump_rtol="x"), "jump_rtol"),
    ],
)
def test_bad_input(kwargs, fragment):
    with pytest.raises(NBLInputError, match=fragment):
        circle_zeros(np.sin, np.cos, **{"n_grid": 16, **kwargs})


@pytest.mark.parametrize("ref", [0.0, 1.0])
def test_a_zero_in_the_wrapping_cell_is_brought_back_into_the_window(ref):
    """A zero between the grid's last point ref + π and its first point past the wrap lies in
    (ref − π, ref − π + step): found on the bracket [ref + π, ref + π + step], it is reported
    2π lower, inside (ref − π, ref + π] (H(α) = sin(α − c), c a quarter step past ref − π)."""
    n = 360
    c = ref - math.pi + 0.25 * (2 * math.pi / n)

    def H(a):
        return np.sin(np.asarray(a) - c)

    def dH(a):
        return np.cos(np.asarray(a) - c)

    z = circle_zeros(H, dH, n, ref=ref)
    assert all(ref - math.pi < e.alpha <= ref + math.pi for e in z)
    at = {e.stability: e.alpha for e in z}
    assert at["repelling"] == pytest.approx(c, abs=1e-12)
    assert at["attracting"] == pytest.approx(c + math.pi, abs=1e-12)


def test_the_least_grid_the_scan_accepts_is_eight_points():
    """n_grid >= 8 (the documented least): 8 is accepted by circle_equilibria and finds the
    logistic link's attracting v* (alpha = 0) and repelling -v* (alpha = pi) at Delta = 1
    (H = -kappa sin alpha, by hand); 7 is refused."""
    eqs = circle_equilibria(paper_link("logistic"), "1", n_grid=8)
    got = {(round(abs(e.degrees), 6), e.stability) for e in eqs}
    assert got == {(0.0, "attracting"), (180.0, "repelling")}
    with pytest.raises(NBLInputError, match="n_grid"):
        circle_equilibria(paper_link("logistic"), "1", n_grid=7)
