"""Gaussian expectations of a link by exact 1-D reductions (float64 and mpmath tiers).

With s² = 1 − Δ²/4, U ~ N(0, s²) and Z ~ N(0, 1) independent (eq:mu_star_m2_def), the
variable W = U + (Δ/2)Z is N(0, 1), Cov(W, Z) = Δ/2 and P(Z > 0 | W = w) = Φ(Δw/(2s)). Hence

.. math::

    μ_g = ∫ g'(w) φ_0(w) dw,\\qquad
    μ^\\star = ∫ g'(w) φ_0(w) Φ\\!\\left(\\frac{Δ w}{2s}\\right) dw,\\qquad
    m_0 = ∫ g(u) φ_s(u) du,\\qquad
    m_2 = ∫ g''(u) φ_s(u) du,

four single integrals. They are evaluated on the link's chart t ↦ z(t) (see
:mod:`nbl_theory.links`), so potential-defined links are integrated in m.

float64: the trapezoid rule on the chart over the range where |z| ≤ 10σ (σ = 1 or s) — widened
to 15σ, 20σ, 30σ while an integrand is not negligible (1e-18 of its L¹ norm) at the window
ends —, halving the step until two successive sums agree to 1e-13 of the L¹ norm. For
integrands analytic in a strip the trapezoid rule converges geometrically, so the difference of
the last two sums is a (conservative) estimate of the error of the last one. Gaussian
truncation beyond the window costs at most the end-value test's 1e-18 of the L¹ norm.

mpmath: the same trapezoid rule on the chart at ``dps + 10`` working digits, over |z| ≤ Lσ with
L² = 2(dps + 10) ln 10 (widened the same way for fast-growing links), halving until two sums
agree to 10^-(dps+5) of the L¹ norm (see :func:`moments_mpmath`).

A float64 value of an expression link that overflows in numpy's formula although the true value
is finite — e.g. g' = k e^{−kz}/(1 + e^{−kz})² of ``sigmoid(k*z)`` at kz < −709 — is evaluated
again in Arb and rounded (:class:`nbl_theory.link_numeric.ExpressionFunction`), at every such
node: the quadrature lifts that evaluator's per-call bound
(:func:`nbl_theory.link_numeric.patch_limit`), since its own bound on the nodes
(``FLOAT.start`` · 2^``max_levels``) bounds the work. Only a value that is not finite in Arb
either makes the float64 tier give up (:class:`FloatRangeError`).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from .link_numeric import patch_limit
from .numeric import FLOAT, MpContext, halving_trapezoid

__all__ = ["MOMENTS", "moments_float", "moments_mpmath", "Moment", "FloatRangeError", "ndtr"]


class FloatRangeError(ArithmeticError):
    """The float64 chart overflowed or underflowed (e.g. a potential whose dual map needs
    m ≈ e^{-1000}); callers fall back to the mpmath tier, which has no exponent limits."""


_SQRT2PI = math.sqrt(2 * math.pi)
_SQRT1_2 = math.sqrt(0.5)


def _ndtr1(a: float) -> float:
    """Φ(a), the standard normal CDF, from the C library's ``erf``/``erfc`` (:func:`math.erf`,
    :func:`math.erfc`) in cephes' arrangement: 0.5 + 0.5 erf(a/√2) while |a/√2| < 1, else
    0.5 erfc(|a|/√2), or one minus it for a > 0 — no cancellation in either tail."""
    x = a * _SQRT1_2
    z = abs(x)
    if z < 1.0:
        return 0.5 + 0.5 * math.erf(x)
    y = 0.5 * math.erfc(z)
    return 1.0 - y if x > 0 else y


_NDTR = np.frompyfunc(_ndtr1, 1, 1)


def ndtr(x) -> np.ndarray:
    """Φ elementwise on a float64 array (:func:`_ndtr1` at each element; NaN stays NaN).

    Not :func:`scipy.special.ndtr`, whose import (~0.3 s: scipy's array-API layer loads every
    lazily imported part of numpy) was a fifth of ``nbl stability``'s start-up, for the 257 to
    a few thousand nodes of one float64 quadrature. Against mpmath's ``ncdf`` at 40 digits on
    [−12, 12] (4,801 points): relative error ≤ 3.5e-16 for a ≥ −1, ≤ 3.4e-15 for |a| ≤ 5,
    ≤ 2.5e-14 down to −12 (the lower tail, where a/√2 is rounded before erfc: a relative
    error of about 2(a/√2)² ulp); scipy's ndtr measures 3.5e-16, 3.9e-15 and 3.1e-14 there
    (``tests/theory/test_gaussian.py``).

    Parameters
    ----------
    x : array_like of float
        The points.

    Returns
    -------
    numpy.ndarray of float
        Φ(x), the shape of ``x``.
    """
    with np.errstate(invalid="ignore"):  # a NaN in gives NaN out, said once by the caller
        return _NDTR(np.asarray(x, dtype=float)).astype(float)


_L = 10.0
#: Half-widths (in σ) tried for the float64 window, and the end-value test: an integrand whose
#: value at the window end exceeds _END_TOL × its L¹ norm is not yet Gaussian-negligible there
#: (fast-growing links such as g = e^{5z} put their mass near z = 5 and beyond).
_WINDOWS = (_L, 15.0, 20.0, 30.0)
_END_TOL = 1e-18

#: Names of the four link moments, and the Gaussian scale (1 or s) that each integrates against.
MOMENTS = ("mu_g", "mu_star", "m0", "m2")


class Moment(tuple):
    """(value, error_estimate) pair.

    Parameters
    ----------
    value : float or mpmath.mpf
        The quadrature value of the moment (the last trapezoid sum).
    error : float or mpmath.mpf
        Its error estimate: the absolute difference of the last two trapezoid sums.
    """

    __slots__ = ()

    def __new__(cls, value, error):
        return super().__new__(cls, (value, error))

    @property
    def value(self):
        """The moment's value (``self[0]``)."""
        return self[0]

    @property
    def error(self):
        """The moment's error estimate (``self[1]``)."""
        return self[1]


def _scale(delta: float) -> float:
    return math.sqrt(1.0 - delta * delta / 4.0)


def _integrands_float(link, t, delta, s, group):
    z, w0, w1, w2 = link.chart_numpy(t, group)
    z = np.asarray(z, dtype=float)
    if group == 1:
        phi = np.exp(-0.5 * z * z) / _SQRT2PI
        c = delta / (2.0 * s)
        f_mug = w1 * phi
        return [f_mug, f_mug * ndtr(c * z)]  # μ_g, μ* via W, Φ(Δw/2s)
    phis = np.exp(-0.5 * (z / s) ** 2) / (_SQRT2PI * s)
    return [w0 * phis, w2 * phis]  # m0, m2


def _require_finite(link, vals):
    for v in vals:
        if not np.all(np.isfinite(v)):
            raise FloatRangeError(f"float64 overflow/underflow evaluating link {link.name!r}")


def moments_float(link, delta: float, rel_tol: float = 1e-13, max_levels: int = 14) -> dict:
    """μ_g, μ*, m0, m2 in float64 with error estimates (see module docstring).

    Parameters
    ----------
    link : nbl_theory.links.Link
        The link g (its chart and float64 evaluators are used).
    delta : float
        The arm separation Δ, 0 < Δ < 2 (s² = 1 − Δ²/4).
    rel_tol : float, default 1e-13
        Stop halving when two successive sums agree to this fraction of the L¹ norm.
    max_levels : int, default 14
        The most halvings of the trapezoid step.

    Returns
    -------
    dict of str to Moment
        ``{"mu_g", "mu_star", "m0", "m2"}`` (:data:`MOMENTS`) to (value, error estimate).

    Raises
    ------
    FloatRangeError
        The float64 chart overflows or the integrands are not negligible at the widest window
        (callers fall back to :func:`moments_mpmath`).
    """
    with patch_limit(_NO_PATCH_LIMIT):  # every overflowing node in Arb (module docstring)
        return _moments_float(link, float(delta), rel_tol, max_levels)


#: The per-call bound of Arb re-evaluations inside the quadrature: none beyond its node count.
_NO_PATCH_LIMIT = 2**62


def _moments_float(link, delta: float, rel_tol: float, max_levels: int) -> dict:
    s = _scale(delta)
    out = {}
    for group, sigma in ((1, 1.0), (2, s)):

        def f(t, group=group):
            return _integrands_float(link, t, delta, s, group)

        for big_l in _WINDOWS:  # widen until the integrands are negligible at the window ends
            t_lo, t_hi = link.t_range(-big_l * sigma, big_l * sigma)
            n = FLOAT.start
            h = (t_hi - t_lo) / n
            first = FLOAT.evaluate(f, FLOAT.first_nodes(t_lo, t_hi, n))
            _require_finite(link, first)
            if all(max(abs(v[0]), abs(v[-1])) <= _END_TOL * np.sum(np.abs(v)) * h for v in first):
                break
        else:
            raise FloatRangeError(
                f"link {link.name!r}: the Gaussian integrands are not negligible at |z| = "
                f"{_WINDOWS[-1]} sigma (the link grows too fast for the float64 window)"
            )

        def checked(t, f=f):
            vals = FLOAT.evaluate(f, t)
            _require_finite(link, vals)
            return vals

        names = ("mu_g", "mu_star") if group == 1 else ("m0", "m2")
        pairs = halving_trapezoid(FLOAT, checked, t_lo, t_hi, rel_tol, max_levels, first=first)
        out.update({k: Moment(*p) for k, p in zip(names, pairs)})
    return out


def _integrands_mpmath(link, t, c, s, group):
    z, w0, w1, w2 = link.chart_mpmath(t)
    if group == 1:
        phi = mpmath.exp(-z * z / 2) / mpmath.sqrt(2 * mpmath.pi)
        f_mug = w1 * phi
        return (f_mug, f_mug * mpmath.erfc(-c * z / mpmath.sqrt(2)) / 2)  # Φ(Δw/2s)
    zs = z / s
    dens = mpmath.exp(-zs * zs / 2) / (mpmath.sqrt(2 * mpmath.pi) * s)
    return (w0 * dens, w2 * dens)


def moments_mpmath(link, delta, dps: int = 50, max_levels: int = 14) -> dict:
    """μ_g, μ*, m0, m2 with mpmath at ``dps`` digits (10 guard digits).

    The trapezoid rule on the chart over |z| ≤ Lσ with L² = 2 (dps + 10) ln 10 (so the Gaussian
    tail is below 10^-(dps+10)), halving the step until two successive sums agree to
    10^-(dps+5) of the L¹ norm. ``delta`` may be a sympy Rational or a decimal string; it enters
    at working precision.

    Parameters
    ----------
    link : nbl_theory.links.Link
        The link g (its mpmath chart is used).
    delta : float, str, sympy.Rational or mpmath.mpf
        The arm separation Δ, 0 < Δ < 2, converted at the working precision.
    dps : int, default 50
        The decimal digits wanted; the work runs at ``dps + 10``.
    max_levels : int, default 14
        The most halvings of the trapezoid step.

    Returns
    -------
    dict of str to Moment
        ``{"mu_g", "mu_star", "m0", "m2"}`` (:data:`MOMENTS`) to (value, error estimate) as
        mpmath numbers.
    """
    out = {}
    with mpmath.workdps(dps + 10):
        ctx = MpContext(dps)
        d = _to_mpf(delta)
        s = mpmath.sqrt(1 - d * d / 4)
        c = d / (2 * s)
        big_l = math.sqrt(2 * (dps + 10) * math.log(10))
        tol = mpmath.mpf(10) ** (-(dps + 5))
        for names, group, sigma in ((("mu_g", "mu_star"), 1, 1.0), (("m0", "m2"), 2, float(s))):
            t_lo, t_hi = _window_mpmath(link, big_l, sigma, c, s, group, tol)
            pairs = halving_trapezoid(
                ctx,
                lambda t, group=group: _integrands_mpmath(link, t, c, s, group),
                t_lo,
                t_hi,
                tol,
                max_levels,
            )
            out.update({k: Moment(*p) for k, p in zip(names, pairs)})
    return out


def _window_mpmath(link, big_l, sigma, c, s, group, tol):
    """Chart interval for |z| ≤ Lσ, widened (×1.5, up to 4 times) while an integrand at a
    window end exceeds ``tol`` × (a crude L¹ estimate on 65 nodes): fast-growing links put
    Gaussian mass beyond the default L."""
    for _ in range(5):
        t_lo, t_hi = (mpmath.mpf(x) for x in link.t_range(-big_l * sigma, big_l * sigma))
        h = (t_hi - t_lo) / 64
        nodes = [_integrands_mpmath(link, t_lo + j * h, c, s, group) for j in range(65)]
        ok = all(
            max(abs(nodes[0][k]), abs(nodes[-1][k])) <= tol * sum(abs(v[k]) for v in nodes) * h
            for k in range(2)
        )
        if ok:
            return t_lo, t_hi
        big_l *= 1.5
    raise ArithmeticError(
        f"link {link.name!r}: Gaussian integrands not negligible at |z| = {big_l / 1.5:.3g} sigma"
    )


def _to_mpf(x):
    if isinstance(x, mpmath.mpf):
        return x
    try:
        import sympy as sp

        if isinstance(x, sp.Basic):
            return (
                mpmath.mpf(x.p) / x.q if x.is_Rational else mpmath.mpf(sp.Float(x, mpmath.mp.dps))
            )
    except ImportError:  # pragma: no cover
        pass
    return mpmath.mpf(str(x))
