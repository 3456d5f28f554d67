"""Float64 and mpmath evaluation of links: lambdified derivatives, the overflow-safe float64
evaluator of expression links, and the charts t ↦ m(t) of a potential's domain.

See :mod:`nbl_theory.links` for the charts' role in integration.
"""

from __future__ import annotations

import contextvars
import functools
from contextlib import contextmanager

import mpmath
import numpy as np
import sympy as sp
from flint import acb

from .arb_eval import arb_precision, compile_acb, to_fmpq
from .errors import NBLInputError
from .link_type import float_like

__all__ = [
    "lambdify_numpy",
    "lambdify_mpmath",
    "ExpressionFunction",
    "float_like",
    "domain_map_numpy",
    "domain_map_mpmath",
    "mp_exact",
    "bracket_t",
    "patch_limit",
    "BISECTIONS",
    "TREE_LEVELS",
    "bisect_increasing",
    "bisection_tree",
]

#: At most this many non-finite float64 values of one call are re-evaluated with Arb (a bound
#: on the work of one call; :func:`patch_limit` sets another for a block of code).
_MAX_PATCH = 20_000
_PATCH_LIMIT: contextvars.ContextVar = contextvars.ContextVar("nbl_patch_limit", default=None)


@contextmanager
def patch_limit(n: int):
    """Within the block (this thread or task), a call of an :class:`ExpressionFunction`
    re-evaluates up to ``n`` non-finite values instead of :data:`_MAX_PATCH`: for a caller whose
    own bound on the points it evaluates already bounds the work (the float64 quadrature of
    :func:`nbl_theory.gaussian.moments_float`)."""
    token = _PATCH_LIMIT.set(int(n))
    try:
        yield
    finally:
        _PATCH_LIMIT.reset(token)


@functools.cache
def _numpy_namespace() -> dict:
    """The names lambdify's ``modules=["numpy"]`` gives its generated code, built from what
    numpy has already loaded: sympy builds that namespace by ``from numpy import *``, which
    also imports numpy's lazily loaded submodules (f2py, testing, ...; ~0.2 s at start-up,
    for names no link expression prints). Numpy's public functions, its loaded submodules,
    and sympy's documented defaults and translations for numpy (``NUMPY_DEFAULT``,
    ``NUMPY_TRANSLATIONS``)."""
    from sympy.utilities.lambdify import NUMPY_DEFAULT, NUMPY_TRANSLATIONS

    space = {k: v for k, v in vars(np).items() if not k.startswith("_")}
    space.update(NUMPY_DEFAULT)
    space.update({name: getattr(np, target) for name, target in NUMPY_TRANSLATIONS.items()})
    return space


def lambdify_numpy(expr, var):
    """``expr`` as a numpy function of ``var`` (erf/erfc from scipy); constants broadcast.

    The function is the one ``sympy.lambdify(var, expr, modules=["numpy"])`` makes — the same
    printer with lambdify's own settings, so the same generated source, over the same numpy
    functions (tests/theory/test_lambdify_numpy.py compares both on the link corpus) — with
    erf/erfc taken from scipy.special (imported only when ``expr`` has them: a fifth of a
    second at start-up) and numpy's namespace as :func:`_numpy_namespace` builds it."""
    from sympy.printing.numpy import NumPyPrinter

    user = {}
    if expr.has(sp.erf, sp.erfc):
        import scipy.special

        user = {"erf": scipy.special.erf, "erfc": scipy.special.erfc}
    printer = NumPyPrinter(
        {
            "fully_qualified_modules": False,
            "inline": True,
            "allow_unknown_functions": True,
            "user_functions": {k: k for k in user},
        }
    )
    f = sp.lambdify(var, expr, modules=[{**_numpy_namespace(), **user}], printer=printer)
    if not expr.has(var):  # constant: broadcast
        const = float(expr)
        return lambda x: np.full(np.shape(x), const)
    return f


def lambdify_mpmath(expr, var):
    """``expr`` as an mpmath function of ``var`` at the caller's working precision."""
    f = sp.lambdify(var, expr, modules="mpmath")
    if not expr.has(var):
        return lambda x, _c=expr: mpmath.mpf(sp.Float(_c, mpmath.mp.dps + 5))
    return f


class ExpressionFunction:
    """float64 values of one derivative of an expression link (lambdified numpy).

    Values that float64 cannot produce although the true value is finite -- NaN or inf from an
    overflow in an intermediate, e.g. e^{1000}/(1 + e^{1000})² in g' of sigmoid(100 z) at
    z = −10 -- are re-evaluated in Arb ball arithmetic at the same (exact) point, at 64, 128 or
    256 bits until the ball has 53 correct bits, and rounded to float64 (up to
    :data:`_MAX_PATCH` points a call, or the bound of :func:`patch_limit`). Where every value
    is finite the lambdified result is returned unchanged, bit for bit.
    """

    def __init__(self, expr, var):
        self.expr, self.var = expr, var
        self.f = lambdify_numpy(expr, var)
        self._arb = {}

    def __call__(self, x):
        with np.errstate(all="ignore"):
            out = self.f(x)
        arr = np.asarray(out)
        if arr.dtype.kind in "fiu" and np.all(np.isfinite(arr)):
            return out
        return self._patch(x, arr)

    def _patch(self, x, arr):
        if np.iscomplexobj(arr):
            arr = np.where(arr.imag == 0, arr.real, np.nan)
        arr = np.array(np.broadcast_to(arr, np.shape(x)), dtype=float)
        bad = np.flatnonzero(~np.isfinite(arr))
        limit = _PATCH_LIMIT.get()
        if bad.size == 0 or bad.size > (_MAX_PATCH if limit is None else limit):
            return arr
        xs = np.broadcast_to(np.asarray(x, dtype=float), arr.shape).ravel()
        flat = arr.reshape(-1)
        for i in bad:
            flat[i] = self._arb_value(float(xs[i]))
        return arr

    def _arb_value(self, x: float) -> float:
        if not np.isfinite(x):
            return np.nan
        re = None
        for bits in (64, 128, 256):
            if bits not in self._arb:
                try:
                    with arb_precision(bits):
                        self._arb[bits] = compile_acb([self.expr], self.var)
                except NBLInputError:
                    return np.nan
            with arb_precision(bits):
                v = self._arb[bits](acb(to_fmpq(x)), False)[0]
            if not v.imag.contains(0):
                return np.nan
            re = v.real
            if re.is_finite() and (re.is_zero() or re.rel_accuracy_bits() >= 53):
                break
        return float(re.mid()) if re is not None and re.is_finite() else np.nan


def domain_map_numpy(domain, t):
    """Chart of the domain: returns (m, m − lo, hi − m, dm/dt) at t (inf where unbounded)."""
    lo, hi = domain
    t = np.asarray(t, dtype=float)
    if lo.is_finite and hi.is_finite:
        a, b = float(lo), float(hi)
        w = b - a
        left = w / (1.0 + np.exp(-t))  # m − a
        right = w / (1.0 + np.exp(t))  # b − m
        m = np.where(t < 0, a + left, b - right)
        return m, left, right, left * right / w
    inf = np.full_like(t, np.inf)
    if lo.is_finite:
        e = np.exp(t)
        return float(lo) + e, e, inf, e
    if hi.is_finite:
        e = np.exp(-t)
        return float(hi) - e, inf, e, e
    return t, inf, inf, np.ones_like(t)


def mp_exact(q):
    """A finite sympy number as an mpf (rationals divided at working precision, anything else
    evaluated by sympy with 5 guard digits: ``sp.Float(q, n)`` refused √2)."""
    return mpmath.mpf(q.p) / q.q if q.is_Rational else mpmath.mpf(sp.N(q, mpmath.mp.dps + 5))


def domain_map_mpmath(domain, t):
    """mpmath version of :func:`domain_map_numpy` at one t."""
    lo, hi = domain
    if lo.is_finite and hi.is_finite:
        a, b = mp_exact(lo), mp_exact(hi)
        w = b - a
        left = w / (1 + mpmath.exp(-t))
        right = w / (1 + mpmath.exp(t))
        m = a + left if t < 0 else b - right
        return m, left, right, left * right / w
    if lo.is_finite:
        e = mpmath.exp(t)
        return mp_exact(lo) + e, e, mpmath.inf, e
    if hi.is_finite:
        e = mpmath.exp(-t)
        return mp_exact(hi) - e, mpmath.inf, e, e
    return t, mpmath.inf, mpmath.inf, mpmath.mpf(1)


def _expansion(side: str) -> np.ndarray:
    """The t that :func:`bracket_t` tries, in order: 0, then steps of 1, 1.5, 1.5², … down
    (``"lo"``) or up (``"hi"``), each sum formed one step at a time."""
    out, t, step = [], 0.0, 1.0
    for _ in range(_BRACKET_STEPS):
        out.append(t)
        t = t - step if side == "lo" else t + step
        step *= 1.5
    return np.array(out)


_BRACKET_STEPS = 200
_EXPANSIONS = {side: _expansion(side) for side in ("lo", "hi")}
_BRACKET_BLOCK = 12  # z at 12 of them per call: up to |t| ≈ 258 in the first call


def bracket_t(zfun, target: float, side: str) -> float:
    """The first t of the expansion 0, ∓1, ∓2.5, ∓4.75, … (:func:`_expansion`) where z(t) is
    at or beyond ``target`` (z is increasing in t): ≤ target for ``side="lo"``, ≥ for "hi".
    z is evaluated at a block of the expansion's points per call (its float64 value at a point
    does not depend on the others: numpy's elementwise loops)."""
    ts = _EXPANSIONS[side]
    with np.errstate(all="ignore"):
        for i in range(0, ts.size, _BRACKET_BLOCK):
            block = ts[i : i + _BRACKET_BLOCK]
            z = np.asarray(zfun(block), dtype=float)
            hit = np.flatnonzero(z <= target if side == "lo" else z >= target)
            if hit.size:
                return float(block[hit[0]])
    raise NBLInputError(f"could not bracket the dual coordinate: phi' does not reach {target:g}")


#: Halvings of the chart bracket in :func:`bisect_increasing` (the float64 inverse of φ').
BISECTIONS = 80
#: Levels of the bisection tree shared by every point of a call (2^16 − 1 nodes, each one
#: evaluation of zfun; kept per bracket by the caller, :func:`nbl_theory.links._invert_dual`).
TREE_LEVELS = 16


def bisection_tree(zfun, t_lo: float, t_hi: float, levels: int = TREE_LEVELS):
    """The first ``levels`` levels of :func:`bisect_increasing` from [t_lo, t_hi], common to
    every point: ``(bounds, z_nodes)`` with ``bounds`` the 2^levels + 1 ends of the leaves in
    increasing order (the midpoints computed as the bisection computes them, level by level)
    and ``z_nodes`` the float64 z at the 2^levels − 1 inner ones — or None when those z are not
    finite and strictly increasing (then the tree could not stand for the comparisons)."""
    lo, hi = np.array([float(t_lo)]), np.array([float(t_hi)])
    for _ in range(levels):
        mid = 0.5 * (lo + hi)
        lo = np.stack([lo, mid], axis=1).ravel()
        hi = np.stack([mid, hi], axis=1).ravel()
    bounds = np.append(lo, hi[-1])
    with np.errstate(all="ignore"):
        z_nodes = np.asarray(zfun(bounds[1:-1]), dtype=float)
    if not (
        np.all(np.diff(bounds) > 0)
        and np.all(np.isfinite(z_nodes))
        and np.all(np.diff(z_nodes) > 0)
    ):
        return None
    return bounds, z_nodes


def bisect_increasing(zfun, target: np.ndarray, t_lo: float, t_hi: float, tree=None):
    """t with zfun(t) = target by :data:`BISECTIONS` halvings of [t_lo, t_hi], elementwise:
    each step sets ``mid = 0.5 (lo + hi)``, then ``lo = mid`` where ``zfun(mid) < target`` and
    ``hi = mid`` elsewhere; returns ``0.5 (lo + hi)`` — the inverse to float resolution when
    zfun(t_lo) < target ≤ zfun(t_hi) (:func:`bracket_t` finds such brackets).

    The result is that of the plain loop, bit for bit, with far fewer evaluations of zfun (whose
    float64 value at a point must not depend on the other points of the call — numpy's
    elementwise loops):

    * ``tree`` (:func:`bisection_tree` of the same bracket) decides the first levels for every
      point at once: while the z at the tree's inner nodes strictly increase, the comparisons a
      point meets on its way down are decided by its place among them (``searchsorted``);
    * a point whose next midpoint ``0.5 (lo + hi)`` rounds to ``lo`` or ``hi`` leaves the loop:
      whatever the later comparisons, the loop then either keeps the bracket or collapses it
      onto that midpoint, and returns that midpoint.
    """
    flat = np.asarray(target, dtype=float)
    n = flat.size
    lo, hi = np.full(n, float(t_lo)), np.full(n, float(t_hi))
    done = 0
    with np.errstate(all="ignore"):
        if tree is not None and n:
            bounds, z_nodes = tree
            leaf = np.searchsorted(z_nodes, flat, side="left")
            leaf[np.isnan(flat)] = 0  # every comparison with NaN is false: down
            lo, hi = bounds[leaf], bounds[leaf + 1]
            done = int(round(np.log2(bounds.size - 1)))
        idx = np.arange(n)  # the points still in the loop, and their
        a_lo, a_hi, a_z = lo.copy(), hi.copy(), flat.copy()  # brackets and targets
        for _ in range(done, BISECTIONS):
            if idx.size == 0:
                break
            mid = 0.5 * (a_lo + a_hi)
            up = np.asarray(zfun(mid), dtype=float) < a_z
            a_lo = np.where(up, mid, a_lo)
            a_hi = np.where(up, a_hi, mid)
            nxt = 0.5 * (a_lo + a_hi)
            fixed = (nxt == a_lo) | (nxt == a_hi)
            if fixed.any():
                lo[idx], hi[idx] = a_lo, a_hi
                keep = ~fixed
                idx, a_lo, a_hi, a_z = idx[keep], a_lo[keep], a_hi[keep], a_z[keep]
        lo[idx], hi[idx] = a_lo, a_hi
        return 0.5 * (lo + hi)
