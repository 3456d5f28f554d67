"""Numeric building blocks written once: φ0(0), Gauss–Legendre panels and the halving
trapezoid rule against a numeric context.

The trapezoid rule of :mod:`nbl_theory.gaussian` runs in float64 (numpy, vectorized over the
nodes) and in mpmath (node by node, at any precision). As mpmath writes ``QuadratureRule(ctx)``
once, the halving loop here is written once against a *context* that says how to evaluate the
integrands at a batch of nodes, how to sum, and which floors the stopping test uses:
:data:`FLOAT` and :class:`MpContext`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import mpmath
import numpy as np

__all__ = [
    "PHI0",
    "gauss_legendre_panels",
    "gauss_legendre_uniform",
    "FloatContext",
    "MpContext",
    "FLOAT",
    "halving_trapezoid",
]

#: φ0(0) = 1/√(2π), the standard normal density at 0 (prop:local_jacobian, eq:decision_stability).
PHI0 = 1.0 / math.sqrt(2.0 * math.pi)

_GL_ORDER = 16
_GL_X, _GL_W = np.polynomial.legendre.leggauss(_GL_ORDER)


def gauss_legendre_panels(edges, order: int = _GL_ORDER) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of ``order``-point Gauss–Legendre on every panel
    [edges[i], edges[i+1]] (flattened, in panel order).

    Parameters
    ----------
    edges : array_like
        The panels' edges, increasing.
    order : int, default 16
        The points per panel.

    Returns
    -------
    nodes : numpy.ndarray
        ``order × (len(edges) − 1)`` nodes.
    weights : numpy.ndarray
        Their weights.
    """
    x, w = (_GL_X, _GL_W) if order == _GL_ORDER else np.polynomial.legendre.leggauss(order)
    edges = np.asarray(edges, dtype=float)
    a, b = edges[:-1, None], edges[1:, None]
    return ((b - a) / 2 * x + (a + b) / 2).ravel(), ((b - a) / 2 * w).ravel()


def gauss_legendre_uniform(
    lo: float, hi: float, width: float, order: int = _GL_ORDER
) -> tuple[np.ndarray, np.ndarray]:
    """Gauss–Legendre on [lo, hi] cut into the fewest equal panels no wider than ``width``.

    Parameters
    ----------
    lo : float
        The interval's lower end.
    hi : float
        The interval's upper end.
    width : float
        The widest panel allowed.
    order : int, default 16
        The points per panel.

    Returns
    -------
    nodes : numpy.ndarray
        The nodes, in panel order.
    weights : numpy.ndarray
        Their weights.
    """
    n = max(1, math.ceil((hi - lo) / width - 1e-9))
    return gauss_legendre_panels(np.linspace(lo, hi, n + 1), order)


class FloatContext:
    """float64: integrands evaluated on numpy arrays of nodes."""

    #: nodes of the first level
    start = 128
    #: floor of the stopping test's L¹ scale
    floor = 1e-300
    #: rounding allowance, a multiple of the L¹ norm (16 ulps: each node value carries a few
    #: ulps, the sum adds a few more)
    rounding = 16 * 2.0**-52

    @staticmethod
    def first_nodes(t_lo, t_hi, n):
        """The nodes of the first level.

        Parameters
        ----------
        t_lo : float or mpmath.mpf
            The interval's lower end.
        t_hi : float or mpmath.mpf
            The interval's upper end.
        n : int
            The number of panels.

        Returns
        -------
        numpy.ndarray
            The n + 1 equally spaced nodes from ``t_lo`` to ``t_hi``.
        """
        return np.linspace(t_lo, t_hi, n + 1)

    @staticmethod
    def midpoints(t_lo, h, n):
        """The nodes a halving adds.

        Parameters
        ----------
        t_lo : float or mpmath.mpf
            The interval's lower end.
        h : float or mpmath.mpf
            The new (halved) step.
        n : int
            The number of panels before halving.

        Returns
        -------
        numpy.ndarray
            The n new nodes t_lo + (2j + 1)h, j = 0, …, n − 1.
        """
        return t_lo + h * (2 * np.arange(n) + 1)

    @staticmethod
    def evaluate(f, nodes):
        """The integrands at an array of nodes (float64 warnings silenced: the caller checks
        finiteness).

        Parameters
        ----------
        f : callable
            The integrands (vectorized over a node array).
        nodes : numpy.ndarray
            The nodes.

        Returns
        -------
        list
            One sequence of values per component.
        """
        with np.errstate(all="ignore"):
            return f(nodes)

    @staticmethod
    def first_sums(v, h):
        """(trapezoid sum, L¹ norm) of the first level (the L¹ norm carries the factor h).

        Parameters
        ----------
        v : numpy.ndarray
            The component's values at the first level's nodes.
        h : float
            The first level's step.

        Returns
        -------
        tuple
            ``(trapezoid sum without the factor h, L¹ accumulator)``.
        """
        return np.sum(v) - 0.5 * (v[0] + v[-1]), np.sum(np.abs(v)) * h

    @staticmethod
    def add_level(total, l1, v, h):
        """Add the new midpoints of a level at step h.

        Parameters
        ----------
        total : float
            The running trapezoid sum (without the factor h).
        l1 : float
            The running L¹ accumulator.
        v : numpy.ndarray
            The component's values at the level's new nodes.
        h : float
            The new step.

        Returns
        -------
        tuple
            The updated ``(total, l1)``.
        """
        return total + np.sum(v), 0.5 * l1 + np.sum(np.abs(v)) * h

    @staticmethod
    def l1_norm(l1, h):
        """The L¹ norm of a component (the float accumulator already carries h).

        Parameters
        ----------
        l1 : float
            The running L¹ accumulator.
        h : float
            The current step.

        Returns
        -------
        float
            The L¹ norm estimate: ``l1`` itself.
        """
        return l1

    @staticmethod
    def finite(x) -> bool:
        """Whether a float64 value is finite.

        Parameters
        ----------
        x : float
            A value.

        Returns
        -------
        bool
            Whether ``x`` is finite (not NaN or infinite).
        """
        return bool(np.isfinite(x))

    @staticmethod
    def result(value, error):
        """The pair returned for a component.

        Parameters
        ----------
        value : float
            The integral's estimate.
        error : float
            Its error estimate.

        Returns
        -------
        tuple
            ``(value, error)`` as Python floats.
        """
        return float(value), float(error)


class MpContext:
    """mpmath at the current working precision: integrands evaluated node by node.

    Parameters
    ----------
    dps : int
        The digits wanted; the stopping test's floor is 10^(−3 dps) and the rounding allowance
        10^(−(dps + 8)) of the L¹ norm.
    """

    start = 64

    def __init__(self, dps: int):
        self.floor = mpmath.mpf(10) ** (-3 * dps)
        self.rounding = mpmath.mpf(10) ** (-(dps + 8))

    @staticmethod
    def first_nodes(t_lo, t_hi, n):
        """The nodes of the first level.

        Parameters
        ----------
        t_lo : float or mpmath.mpf
            The interval's lower end.
        t_hi : float or mpmath.mpf
            The interval's upper end.
        n : int
            The number of panels.

        Returns
        -------
        list of mpmath.mpf
            The n + 1 equally spaced nodes from ``t_lo`` to ``t_hi``.
        """
        h = (t_hi - t_lo) / n
        return [t_lo + j * h for j in range(n + 1)]

    @staticmethod
    def midpoints(t_lo, h, n):
        """The nodes a halving adds.

        Parameters
        ----------
        t_lo : float or mpmath.mpf
            The interval's lower end.
        h : float or mpmath.mpf
            The new (halved) step.
        n : int
            The number of panels before halving.

        Returns
        -------
        list of mpmath.mpf
            The n new nodes t_lo + (2j + 1)h, j = 0, …, n − 1.
        """
        return [t_lo + (2 * j + 1) * h for j in range(n)]

    @staticmethod
    def evaluate(f, nodes):
        """The integrands node by node, regrouped per component.

        Parameters
        ----------
        f : callable
            The integrands (``f(t)`` returns a tuple for one node).
        nodes : list of mpmath.mpf
            The nodes.

        Returns
        -------
        list
            One sequence of values per component.
        """
        rows = [f(t) for t in nodes]
        return [[row[k] for row in rows] for k in range(len(rows[0]))]

    @staticmethod
    def first_sums(v, h):
        """(trapezoid sum, Σ|f|) of the first level, accumulated node by node.

        Parameters
        ----------
        v : list of mpmath.mpf
            The component's values at the first level's nodes.
        h : mpmath.mpf
            The first level's step.

        Returns
        -------
        tuple
            ``(trapezoid sum without the factor h, L¹ accumulator)``.
        """
        total, l1 = mpmath.mpf(0), mpmath.mpf(0)
        last = len(v) - 1
        for j, x in enumerate(v):
            total += (mpmath.mpf(0.5) if j in (0, last) else 1) * x
            l1 += abs(x)
        return total, l1

    @staticmethod
    def add_level(total, l1, v, h):
        """Add the new midpoints of a level, node by node.

        Parameters
        ----------
        total : mpmath.mpf
            The running trapezoid sum (without the factor h).
        l1 : mpmath.mpf
            The running L¹ accumulator.
        v : list of mpmath.mpf
            The component's values at the level's new nodes.
        h : mpmath.mpf
            The new step.

        Returns
        -------
        tuple
            The updated ``(total, l1)``.
        """
        for x in v:
            total += x
            l1 += abs(x)
        return total, l1

    @staticmethod
    def l1_norm(l1, h):
        """The L¹ norm of a component: the accumulated Σ|f| times the step.

        Parameters
        ----------
        l1 : mpmath.mpf
            The running L¹ accumulator.
        h : mpmath.mpf
            The current step.

        Returns
        -------
        mpmath.mpf
            The L¹ norm estimate: ``l1 * h``.
        """
        return l1 * h

    @staticmethod
    def finite(x) -> bool:
        """Whether an mpmath value is finite.

        Parameters
        ----------
        x : mpmath.mpf
            A value.

        Returns
        -------
        bool
            Whether ``x`` is finite (not NaN or infinite).
        """
        return bool(mpmath.isfinite(x))

    @staticmethod
    def result(value, error):
        """The pair returned for a component, rounded to the current precision.

        Parameters
        ----------
        value : mpmath.mpf
            The integral's estimate.
        error : mpmath.mpf
            Its error estimate.

        Returns
        -------
        tuple
            ``(value, error)`` as mpmath numbers at the working precision.
        """
        return +value, +error


#: The float64 context.
FLOAT = FloatContext()


def halving_trapezoid(
    ctx,
    f: Callable,
    t_lo,
    t_hi,
    rel_tol,
    max_levels: int = 14,
    start: int | None = None,
    first=None,
) -> list[tuple]:
    """∫_{t_lo}^{t_hi} of each component of ``f`` by the trapezoid rule, halving the step
    until two successive sums of *every* component agree to ``rel_tol`` of its L¹ norm.

    Parameters
    ----------
    ctx : FloatContext or MpContext
        How to evaluate and sum (see the module docstring).
    f : callable
        ``f(nodes)`` returns one sequence of values per component (float context: arrays over
        the node array; mpmath context: ``f(t)`` for one node returns a tuple).
    t_lo : float or mpmath.mpf
        The lower end of the interval.
    t_hi : float or mpmath.mpf
        The upper end of the interval.
    rel_tol : float or mpmath.mpf
        Stopping tolerance relative to the L¹ norm (floored at ``ctx.floor``).
    max_levels : int, default 14
        The most halvings; the last estimate is returned if they do not converge (its error
        says so).
    start : int, optional
        Panels of the first level (default ``ctx.start``).
    first : list, optional
        The values of ``f`` at the first level's nodes, when the caller has them already.

    Returns
    -------
    list of (value, error)
        One pair per component. The error is the difference of the last two sums (for
        integrands analytic in a strip the trapezoid rule converges geometrically, so this is a
        conservative estimate of the last sum's error) plus ``ctx.rounding`` × the L¹ norm.
    """
    n = start or ctx.start
    h = (t_hi - t_lo) / n
    vals = first if first is not None else ctx.evaluate(f, ctx.first_nodes(t_lo, t_hi, n))
    sums, l1 = map(list, zip(*(ctx.first_sums(v, h) for v in vals)))
    est = [x * h for x in sums]
    err: list = [math.inf] * len(vals)
    for _ in range(max_levels):
        h /= 2
        new = ctx.evaluate(f, ctx.midpoints(t_lo, h, n))
        n *= 2
        done = True
        for k, v in enumerate(new):
            sums[k], l1[k] = ctx.add_level(sums[k], l1[k], v, h)
            value = sums[k] * h
            err[k] = abs(value - est[k])
            est[k] = value
            if not ctx.finite(value) or err[k] > rel_tol * max(ctx.l1_norm(l1[k], h), ctx.floor):
                done = False
        if done:
            break
    return [
        ctx.result(est[k], err[k] + ctx.rounding * ctx.l1_norm(l1[k], h)) for k in range(len(vals))
    ]
