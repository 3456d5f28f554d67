"""Pseudo-arclength continuation of a zero curve {f(x, y) = 0} in the plane.

Used to trace the λ* = 0 boundary of a phase diagram (e.g. (mu2, Δ) for the two-transition
family) as a curve rather than a contour of a grid: every returned point satisfies
|f| ≤ ``tol`` (Newton-corrected along the gradient), so the curve is exact to the tolerance of f
wherever it goes, including around folds where a grid contour is coarsest.

Algorithm (in scaled coordinates u = x/sx, v = y/sy): at a point p on the curve take the unit
tangent t ⟂ ∇f (central differences), oriented like the previous tangent; predict q = p + h t;
correct q along the normal n = ∇f/‖∇f‖ with a 1-D secant/Newton solve of f(q + s n) = 0; accept
when |f| ≤ tol and the tangent turned by < 25°; otherwise halve h. Tracing stops when the curve
leaves the box, closes on itself, or ``max_points`` is reached; both directions from the start.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .errors import NBLInputError

__all__ = ["trace_zero_curve", "ZeroCurve"]


@dataclass
class ZeroCurve:
    """Points (x, y) along the traced curve, in order, with the residuals f(x, y).

    Parameters
    ----------
    x : numpy.ndarray
        The points' x coordinates, in order along the curve.
    y : numpy.ndarray
        Their y coordinates.
    residual : numpy.ndarray
        f(x, y) at each point.
    evaluations : int
        How many times f was evaluated.
    closed : bool
        Whether the curve closed on itself (returned to the start).
    notes : list of str
        Why tracing stopped in each direction, when not at the box's edge.
    """

    x: np.ndarray
    y: np.ndarray
    residual: np.ndarray
    evaluations: int
    closed: bool
    notes: list


def trace_zero_curve(
    f, start, box, *, scale=(1.0, 1.0), step=0.02, tol=1e-11, max_points=2000, min_step=1e-6
) -> ZeroCurve:
    """Trace {f = 0} through ``start`` (a point on or near the curve) inside ``box``.

    Parameters
    ----------
    f : callable
        ``f(x, y) -> float``, the function whose zero set is traced.
    start : tuple of float
        ``(x0, y0)``, a point on or near the curve (corrected onto it first).
    box : tuple of two (lo, hi) pairs
        ``((xlo, xhi), (ylo, yhi))``: tracing stops at its edges (the last point is on the
        edge).
    scale : tuple of float, default (1.0, 1.0)
        ``(sx, sy)``: typical sizes of x and y (the step is measured in scaled units).
    step : float, default 0.02
        The initial (and largest) arclength step, in scaled units.
    tol : float, default 1e-11
        Accept a corrected point when |f| ≤ tol.
    max_points : int, default 2000
        The most points traced in each direction.
    min_step : float, default 1e-6
        Stop a direction (with a note) when the step has to shrink below this.

    Returns
    -------
    ZeroCurve
        The points in order along the curve (both directions from ``start`` joined), the
        residuals, the number of evaluations of ``f``, and whether the curve closed.
    """
    sx, sy = (float(v) for v in scale)
    (xlo, xhi), (ylo, yhi) = box
    nev = [0]

    def F(u, v):
        nev[0] += 1
        return float(f(u * sx, v * sy))

    def grad(u, v, h=1e-6):
        return np.array(
            [(F(u + h, v) - F(u - h, v)) / (2 * h), (F(u, v + h) - F(u, v - h)) / (2 * h)]
        )

    def inside(u, v):
        return xlo <= u * sx <= xhi and ylo <= v * sy <= yhi

    def correct(q, n):
        """Solve F(q + s n) = 0 for s by secant iterations from s = 0."""
        s0, f0 = 0.0, F(*q)
        s1 = -f0 / max(abs(np.dot(grad(*q), n)), 1e-300) * np.sign(np.dot(grad(*q), n) or 1.0)
        f1 = F(*(q + s1 * n))
        for _ in range(30):
            if abs(f1) <= tol:
                return q + s1 * n, f1
            if f1 == f0:
                break
            s0, s1, f0 = s1, s1 - f1 * (s1 - s0) / (f1 - f0), f1
            f1 = F(*(q + s1 * n))
        return (q + s1 * n, f1) if abs(f1) <= tol else (None, f1)

    p0 = np.array([start[0] / sx, start[1] / sy], dtype=float)
    g0 = grad(*p0)
    if not np.all(np.isfinite(g0)) or np.linalg.norm(g0) == 0:
        raise NBLInputError("continuation: the gradient of f vanishes at the start point")
    p0, r0 = correct(p0, g0 / np.linalg.norm(g0))
    if p0 is None:
        raise NBLInputError(f"continuation: could not reach f = 0 from {start} (|f| = {r0:.3g})")
    notes: list = []
    branches = []
    closed = False
    for direction in (1.0, -1.0):
        pts, res = [p0], [r0]
        g = grad(*p0)
        t = direction * np.array([-g[1], g[0]]) / np.linalg.norm(g)
        h = step
        while len(pts) < max_points:
            p = pts[-1]
            q = p + h * t
            g = grad(*q)
            ng = np.linalg.norm(g)
            new, r = correct(q, g / ng) if ng > 0 else (None, math.nan)
            if new is not None:
                gn = grad(*new)
                tn = np.array([-gn[1], gn[0]]) / np.linalg.norm(gn)
                if np.dot(tn, t) < 0:
                    tn = -tn
                turn = math.degrees(math.acos(max(-1.0, min(1.0, float(np.dot(tn, t))))))
                moved = np.linalg.norm(new - p)
            if new is None or turn > 25 or moved > 2 * h or moved < 0.25 * h:
                h /= 2
                if h < min_step:
                    notes.append(
                        f"direction {direction:+.0f}: step below {min_step} at "
                        f"({p[0] * sx:.6g}, {p[1] * sy:.6g}); stopped"
                    )
                    break
                continue
            if not inside(*new):
                # the curve leaves the box: keep the edge crossing (bisection on the segment)
                pts.append(new)
                res.append(r)
                break
            pts.append(new)
            res.append(r)
            t = tn
            h = min(step, h * 1.5)
            if len(pts) > 10 and np.linalg.norm(new - p0) < 0.5 * step:
                closed = True
                break
        branches.append((pts, res))
        if closed:
            break
    fwd, bwd = branches[0], branches[1] if len(branches) > 1 else ([], [])
    pts = list(reversed(bwd[0][1:])) + fwd[0]
    res = list(reversed(bwd[1][1:])) + fwd[1]
    arr = np.array(pts)
    return ZeroCurve(arr[:, 0] * sx, arr[:, 1] * sy, np.array(res), nev[0], closed, notes)
