"""All equilibria of the population dynamics on the circle (d = 2, app:local_stability_in_2D).

In d = 2 every direction is v(α) = cos α v* + sin α v*_⊥ and the tangent field is
h(v(α)) = H(α) v(α)_⊥; the equilibria are the zeros of H on the circle and a zero is attracting
when H'(α) < 0. :func:`circle_zeros` is the one root scan for any pair of callables (H, H'):
the paper's Gaussian model (:func:`circle_equilibria`, through
:func:`nbl_sim.population.fields.circle_functions`) and the models beyond the paper
(:func:`nbl_sim.beyond.analysis.circle_equilibria`) share it.

Beyond the Gaussian model the scan needs three more things, all off by default (so the
Gaussian results are those of the plain scan, bit for bit):

* a reference angle ``ref`` other than 0 (the optimal normal of a law in general position);
  angles are then reported from it;
* robustness to rounding: H evaluated on the whole grid at once and H evaluated at one angle
  may round differently, so a sign change of the grid values is re-checked with one-point
  evaluations before ``brentq``; a sign change that does not survive is a zero at the end
  with the smaller |H| (always on);
* jumps: for a discrete context law H is piecewise smooth and jumps where the boundary
  crosses an atom. ``brentq`` then converges to the jump, where H does not vanish: with
  ``jump_rtol`` set, a refined zero at which H(α ± δ) differ by more than ``jump_rtol`` ·
  max|H| is reported with ``kind="jump"`` and the label ``jump-attracting`` (H from + to −:
  the flow pushes into the jump from both sides) or ``jump-repelling``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import brentq

from nbl_theory.errors import NBLInputError
from nbl_theory.links import Link

from .fields import circle_functions

__all__ = ["CircleEquilibrium", "CircleEquilibria", "circle_zeros", "circle_equilibria"]

_JUMP_STEP = 1e-9  # δ of the one-sided values H(α ± δ) (≫ xtol, ≪ any grid step)


@dataclass(frozen=True)
class CircleEquilibrium:
    """A zero of H on the circle: v(α) = (cos α, sin α) with h(v(α)) = 0 (or, ``kind="jump"``,
    a sign change of H across a jump).

    ``alpha`` is the absolute angle in (ref − π, ref + π] and ``degrees`` the signed angle
    from the reference direction (``ref = 0``: degrees(alpha)).

    Parameters
    ----------
    alpha : float
        The angle, radians, in (ref − π, ref + π].
    degrees : float
        The signed angle from the reference direction, degrees.
    dH : float
        H'(α) (of the smooth piece, for a jump).
    stability : str
        ``"attracting"`` (H' < −tol), ``"repelling"`` (H' > tol), ``"degenerate"``, or for
        jumps ``"jump-attracting"`` / ``"jump-repelling"``.
    residual : float
        |H(α)| at the returned α.
    kind : {"zero", "jump"}, default "zero"
        A zero of H or a sign change across a jump.
    jump : float, default 0.0
        H(α + δ) − H(α − δ) for a jump, else 0.
    """

    alpha: float  # radians, in (ref − π, ref + π]
    degrees: float
    dH: float  # H'(α) (of the smooth piece, for a jump)
    stability: str  # "attracting" (H' < −tol), "repelling" (H' > tol), "degenerate",
    #                 or for jumps "jump-attracting" / "jump-repelling"
    residual: float  # |H(α)| at the returned α
    kind: str = "zero"  # "zero" or "jump"
    jump: float = 0.0  # H(α + δ) − H(α − δ) for a jump, else 0


@dataclass
class CircleEquilibria(Sequence):
    """All zeros of H found by :func:`circle_zeros` (a sequence of :class:`CircleEquilibrium`,
    sorted by angle) plus the scan settings and the grid caveat.

    Parameters
    ----------
    equilibria : list of CircleEquilibrium
        The zeros found, sorted by angle.
    n_grid : int
        The grid size of the scan.
    grid_step : float
        Its step, radians.
    dH_tol : float
        The absolute threshold on |H'| used for the stability labels.
    caveat : str, optional
        What the grid scan can miss, in words.
    ref : float, default 0.0
        The reference angle (radians) the degrees are measured from.
    """

    equilibria: list
    n_grid: int
    grid_step: float
    dH_tol: float  # absolute threshold on |H'| used for the stability labels
    caveat: str = field(
        default="zeros are found from sign changes of H on the grid: two zeros closer than one "
        "grid step (or a zero where H touches 0 without changing sign) can be missed"
    )
    ref: float = 0.0  # the reference angle (radians) the degrees are measured from

    def __len__(self) -> int:
        return len(self.equilibria)

    def __getitem__(self, i):
        return self.equilibria[i]

    def __iter__(self):
        return iter(self.equilibria)


def _check_real(x, name: str, positive: bool = False) -> float:
    if (
        isinstance(x, bool)
        or not isinstance(x, (int, float, np.integer, np.floating))
        or not math.isfinite(x)
        or (positive and not x > 0)
    ):
        raise NBLInputError(
            f"{name} must be a finite{' positive' if positive else ''} number, got {x!r}"
        )
    return float(x)


def circle_zeros(
    H: Callable,
    dH: Callable,
    n_grid: int = 3600,
    tol: float = 1e-9,
    xtol: float = 1e-13,
    *,
    ref: float = 0.0,
    jump_rtol: float | None = None,
) -> CircleEquilibria:
    """All zeros of a 2π-periodic H on the circle, with their stability.

    H is evaluated on the periodic grid α_j = ref − π + 2πj/n (j = 1..n, n = ``n_grid`` rounded
    up to even, so α = ref and α = ref + π are grid points); every sign change between
    neighbours is re-checked with one-point evaluations of H at its ends and refined with
    ``brentq`` (``xtol`` rad); a sign change that is only rounding (the one-point values agree
    in sign) is a zero at the end with the smaller |H|, and a grid value that is exactly 0 is a
    zero. A zero is "attracting" if H' < −tol, "repelling" if H' > tol, otherwise
    "degenerate" (module docstring for ``jump_rtol``).

    Parameters
    ----------
    H : callable
        H(α) for an array of angles (radians).
    dH : callable
        H'(α) for an array of angles (radians).
    n_grid : int
        Grid points (≥ 8).
    tol : float
        Absolute threshold on |H'| for the stability labels.
    xtol : float
        ``brentq``'s absolute tolerance on α.
    ref : float
        Reference angle (radians): the grid is anchored on it and ``degrees`` are measured
        from it.
    jump_rtol : float or None
        Report sign changes across jumps of H (discrete laws): a zero whose one-sided values
        H(α ± 1e-9) differ by more than ``jump_rtol`` · max|H(grid)| is a jump. None (default):
        H is taken to be continuous.

    Returns
    -------
    CircleEquilibria
        Every zero found (and jump, with ``jump_rtol``), sorted by angle.
    """
    if isinstance(n_grid, bool) or not isinstance(n_grid, (int, np.integer)) or n_grid < 8:
        raise NBLInputError(f"n_grid must be an integer >= 8, got {n_grid!r}")
    ref = _check_real(ref, "ref")
    if jump_rtol is not None:
        jump_rtol = _check_real(jump_rtol, "jump_rtol", positive=True)
    n = int(n_grid) + int(n_grid) % 2
    step = 2 * math.pi / n
    grid = -math.pi + step * np.arange(1, n + 1)
    grid[-1] = math.pi
    grid[n // 2 - 1] = 0.0
    if ref != 0.0:
        grid = grid + ref
        grid[n // 2 - 1] = ref
    hv = np.asarray(H(grid), dtype=float)
    sg = np.sign(hv)

    def h1(x):
        return float(H(np.array([x]))[0])

    roots = []
    for j in range(n):
        if sg[j] == 0:
            roots.append(float(grid[j]))
            continue
        k = (j + 1) % n
        if sg[j] * sg[k] < 0:
            a, b = grid[j], grid[k] + (2 * math.pi if k == 0 else 0.0)
            fa, fb = h1(a), h1(b)
            if fa == 0 or fb == 0 or fa * fb > 0:  # the sign change was rounding
                root = a if abs(fa) <= abs(fb) else b
            else:
                root = brentq(h1, a, b, xtol=xtol, rtol=4 * np.finfo(float).eps)
            if root > ref + math.pi:
                root -= 2 * math.pi
            root = float(root)
            if any(abs(math.remainder(root - r, 2 * math.pi)) < 1e-12 for r in roots):
                continue
            roots.append(root)
    roots = np.array(sorted(roots))
    out = []
    if roots.size:
        d1s = np.asarray(dH(roots), dtype=float)
        res = np.abs(np.asarray(H(roots), dtype=float))
        scale = float(np.max(np.abs(hv))) if hv.size else 0.0
        for a, d1, r in zip(roots, d1s, res):
            kind = "attracting" if d1 < -tol else "repelling" if d1 > tol else "degenerate"
            zk, jump = "zero", 0.0
            if jump_rtol is not None:
                left, right = (float(x) for x in H(np.array([a - _JUMP_STEP, a + _JUMP_STEP])))
                if abs(right - left) > jump_rtol * scale and left * right <= 0:
                    zk, jump = "jump", right - left
                    kind = (
                        "jump-attracting"
                        if left > 0 >= right or left >= 0 > right
                        else "jump-repelling"
                    )
            out.append(
                CircleEquilibrium(
                    float(a),
                    math.degrees(a - ref) if ref != 0.0 else math.degrees(a),
                    float(d1),
                    kind,
                    float(r),
                    zk,
                    jump,
                )
            )
    return CircleEquilibria(out, n, step, tol, ref=ref)


def circle_equilibria(
    link: Link, delta, n_grid: int = 3600, dH_tol: float = 1e-9, xtol: float = 1e-13
) -> CircleEquilibria:
    """All equilibria of the paper's population dynamics on the circle (d = 2, Gaussian
    contexts, symmetric arms): zeros of H on (−π, π] (:func:`circle_zeros`).

    H'(α) comes from :func:`nbl_sim.population.fields.H_alpha_derivative` (exact boundary-term
    formula, error ≲ 1e-12 · max(1, S)); the stability threshold is dH_tol · max(1, S),
    S = :func:`nbl_sim.population.fields.quadrature_scale`.

    α = 0 (v*) is always a zero (prop:population_equilibrium) and so is α = π (F(−v*) ∥ v* by
    the symmetry Z → −Z of the proof), up to the quadrature error.

    Caveat (stated in the result): zeros closer together than one grid step 2π/n_grid, and
    zeros of even multiplicity, can be missed; increase ``n_grid`` to resolve them.

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        Arm separation Δ ∈ (0, 2).
    n_grid : int, default 3600
        Grid points on the circle (≥ 8).
    dH_tol : float, default 1e-9
        The stability threshold on |H'|, relative to max(1, S).
    xtol : float, default 1e-13
        ``brentq``'s absolute tolerance on α.

    Returns
    -------
    CircleEquilibria
        Every zero found, with its stability, and the grid caveat.
    """
    if isinstance(n_grid, bool) or not isinstance(n_grid, (int, np.integer)) or n_grid < 8:
        raise NBLInputError(f"n_grid must be an integer >= 8, got {n_grid!r}")
    h, dh, scale = circle_functions(link, delta)
    return circle_zeros(h, dh, n_grid, dH_tol * max(1.0, scale), xtol)
