"""All equilibria of the population dynamics on the circle (d = 2, app:local_stability_in_2D).

In d = 2 every direction is v(α) = cos α v* + sin α v*_⊥ and the tangent field is
h(v(α)) = H(α) v(α)_⊥; the equilibria are the zeros of H on (−π, π] and a zero is attracting
when H'(α) < 0. :func:`circle_zeros` finds them for any pair of callables (H, H') — the
paper's Gaussian model (:func:`circle_equilibria`, through
:func:`nbl_sim.population.circle_functions`) and the models beyond the paper
(:mod:`nbl_sim.beyond`) share it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import brentq

from nbl_theory.errors import NBLInputError
from nbl_theory.links import Link

from .population import circle_functions

__all__ = ["CircleEquilibrium", "CircleEquilibria", "circle_zeros", "circle_equilibria"]


@dataclass(frozen=True)
class CircleEquilibrium:
    """A zero of H on the circle: v(α) = (cos α, sin α) with h(v(α)) = 0."""

    alpha: float  # radians, in (−π, π]
    degrees: float
    dH: float  # H'(α)
    stability: str  # "attracting" (H' < −tol), "repelling" (H' > tol), "degenerate"
    residual: float  # |H(α)| at the returned α


@dataclass
class CircleEquilibria(Sequence):
    """All zeros of H found by :func:`circle_zeros` (a sequence of :class:`CircleEquilibrium`,
    sorted by angle) plus the scan settings and the grid caveat."""

    equilibria: list
    n_grid: int
    grid_step: float
    dH_tol: float  # absolute threshold on |H'| used for the stability labels
    caveat: str = field(
        default="zeros are found from sign changes of H on the grid: two zeros closer than one "
        "grid step (or a zero where H touches 0 without changing sign) can be missed"
    )

    def __len__(self) -> int:
        return len(self.equilibria)

    def __getitem__(self, i):
        return self.equilibria[i]

    def __iter__(self):
        return iter(self.equilibria)


def circle_zeros(H: Callable, dH: Callable, n_grid: int = 3600, tol: float = 1e-9,
                 xtol: float = 1e-13) -> CircleEquilibria:
    """All zeros of a 2π-periodic H on (−π, π], with their stability.

    H is evaluated on the periodic grid α_j = −π + 2πj/n (j = 1..n, n = ``n_grid`` rounded up to
    even, so α = 0 and α = π are grid points); every sign change between neighbours is refined
    with ``brentq`` (``xtol`` rad), and a grid value that is exactly 0 is a zero. A zero is
    "attracting" if H' < −tol, "repelling" if H' > tol, otherwise "degenerate".

    Parameters
    ----------
    H, dH : callable
        H(α) and H'(α) for an array of angles (radians).
    n_grid : int
        Grid points (≥ 8).
    tol : float
        Absolute threshold on |H'| for the stability labels.
    """
    if isinstance(n_grid, bool) or not isinstance(n_grid, (int, np.integer)) or n_grid < 8:
        raise NBLInputError(f"n_grid must be an integer >= 8, got {n_grid!r}")
    n = int(n_grid) + int(n_grid) % 2
    step = 2 * math.pi / n
    grid = -math.pi + step * np.arange(1, n + 1)
    grid[-1] = math.pi
    grid[n // 2 - 1] = 0.0
    hv = np.asarray(H(grid), dtype=float)
    sg = np.sign(hv)
    roots = []
    for j in range(n):
        if sg[j] == 0:
            roots.append(float(grid[j]))
            continue
        k = (j + 1) % n
        if sg[j] * sg[k] < 0:
            a, b = grid[j], grid[k] + (2 * math.pi if k == 0 else 0.0)
            root = brentq(lambda x: float(H(np.array([x]))[0]), a, b,
                          xtol=xtol, rtol=4 * np.finfo(float).eps)
            if root > math.pi:
                root -= 2 * math.pi
            roots.append(float(root))
    roots = np.array(sorted(roots))
    out = []
    if roots.size:
        d1s = np.asarray(dH(roots), dtype=float)
        res = np.abs(np.asarray(H(roots), dtype=float))
        for a, d1, r in zip(roots, d1s, res):
            kind = "attracting" if d1 < -tol else "repelling" if d1 > tol else "degenerate"
            out.append(CircleEquilibrium(float(a), math.degrees(a), float(d1), kind, float(r)))
    return CircleEquilibria(out, n, step, tol)


def circle_equilibria(link: Link, delta, n_grid: int = 3600, dH_tol: float = 1e-9,
                      xtol: float = 1e-13) -> CircleEquilibria:
    """All equilibria of the paper's population dynamics on the circle (d = 2, Gaussian
    contexts, symmetric arms): zeros of H on (−π, π] (:func:`circle_zeros`).

    H'(α) comes from :func:`nbl_sim.population.H_alpha_derivative` (exact boundary-term
    formula, error ≲ 1e-12 · max(1, S)); the stability threshold is dH_tol · max(1, S),
    S = :func:`nbl_sim.population.quadrature_scale`.

    α = 0 (v*) is always a zero (prop:population_equilibrium) and so is α = π (F(−v*) ∥ v* by
    the symmetry Z → −Z of the proof), up to the quadrature error.

    Caveat (stated in the result): zeros closer together than one grid step 2π/n_grid, and
    zeros of even multiplicity, can be missed; increase ``n_grid`` to resolve them.
    """
    if isinstance(n_grid, bool) or not isinstance(n_grid, (int, np.integer)) or n_grid < 8:
        raise NBLInputError(f"n_grid must be an integer >= 8, got {n_grid!r}")
    h, dh, scale = circle_functions(link, delta)
    return circle_zeros(h, dh, n_grid, dH_tol * max(1.0, scale), xtol)
