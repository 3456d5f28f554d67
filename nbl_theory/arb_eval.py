"""Sympy expressions as Arb ball functions (python-flint): rigorous enclosures at a point.

:func:`compile_acb` turns sympy expressions in one variable into a closure
``f(x: acb, analytic: bool) -> list[acb]`` (common subexpressions shared, constants folded at
compile time, so compile at the precision you evaluate at). With ``analytic=True`` functions with
branch cuts return NaN on a ball that touches the cut (what ``acb.integral`` needs); with
``analytic=False`` they evaluate on the principal branch, so e.g. ``log(-1)`` encloses ``iπ`` and
proves that the value is not real.

:func:`enclose` evaluates one expression at an exact rational point at a given precision and
:func:`enclose_constant` a constant expression. Both are rigorous: the true value lies in the
returned ball (Arb's guarantee); a non-finite ball means "not decided", never "infinite".

This is the compiler of :mod:`nbl_theory.certified` (same node set, same semantics), plus
``Abs``, ``sign``, ``re``, ``im`` and the imaginary unit, which sympy creates from whitelisted
input (``sqrt(z**2)`` is ``Abs(z)`` for real z).

:func:`format_ball` prints a real ball as a 3-digit value and an interval rounded *outward*
(the printed interval still encloses), for the witnesses of :mod:`nbl_theory.link_checks`.
"""

from __future__ import annotations

import decimal
import threading
from contextlib import contextmanager
from fractions import Fraction
from functools import lru_cache

import flint
import mpmath
import sympy as sp
from flint import acb, arb, fmpq
from mpmath.libmp import from_man_exp

from .errors import NBLInputError

__all__ = [
    "compile_acb",
    "enclose",
    "enclose_constant",
    "arb_precision",
    "to_fmpq",
    "number_ball",
    "arb_to_mpf",
    "format_ball",
    "format_point",
    "cse_plan",
]


#: held while a thread works at a precision of its own: python-flint's precision is one
#: process-wide setting, and threads of a simulation (nbl_sim.studies.experiment) may repair
#: non-finite values of a link in Arb at the same time
_PRECISION_LOCK = threading.RLock()


@contextmanager
def arb_precision(bits: int):
    """Set ``flint.ctx.prec`` to ``bits`` and always restore it; other threads wait meanwhile
    (re-entrant: a nested use in the same thread does not)."""
    with _PRECISION_LOCK:
        saved = flint.ctx.prec
        flint.ctx.prec = bits
        try:
            yield
        finally:
            flint.ctx.prec = saved


def to_fmpq(x) -> fmpq:
    """Exact conversion of an int, Fraction, float (a dyadic rational) or sympy Rational."""
    if isinstance(x, sp.Rational):
        return fmpq(int(x.p), int(x.q))
    f = Fraction(x)
    return fmpq(f.numerator, f.denominator)


def _imag_axis_cuts(method):
    """atan, asinh: cuts (−i∞, −i] ∪ [i, i∞); in analytic mode a ball touching them → NaN."""

    def f(x, an):
        if an and x.real.contains(0) and x.imag.abs_upper() >= 1:
            return acb(arb.nan())
        return getattr(x, method)()

    return f


_FUNCS = {
    fn: (lambda name: lambda x, an: getattr(x, name)())(fn.__name__)
    for fn in (sp.exp, sp.tanh, sp.sinh, sp.cosh, sp.sin, sp.cos, sp.tan, sp.erf, sp.erfc)
}
_FUNCS.update(
    {
        sp.log: lambda x, an: x.log(analytic=an),
        sp.atan: _imag_axis_cuts("atan"),
        sp.asinh: _imag_axis_cuts("asinh"),
        sp.Abs: lambda x, an: x.real_abs(analytic=True) if an else acb(abs(x)),
        sp.sign: lambda x, an: x.real_sgn(analytic=an) if an or x.imag == 0 else x / abs(x),
        sp.re: lambda x, an: acb(x.real),
        sp.im: lambda x, an: acb(x.imag),
    }
)


def _unsupported(e) -> NBLInputError:
    names = sorted({f.__name__ for f in _FUNCS} | {"sqrt", "rational powers", "pi", "E"})
    return NBLInputError(
        f"ball arithmetic cannot evaluate {type(e).__name__} in "
        f"{sp.sstr(e)[:80]!r}; supported: +, *, powers, {', '.join(names)}"
    )


def number_ball(e) -> acb:
    """The Arb ball of a sympy number atom (rational, binary float, pi, E or I)."""
    if e.is_Rational:
        return acb(to_fmpq(e))
    if isinstance(e, sp.Float):  # a binary float is an exact dyadic number
        sign, man, exp, _ = e._mpf_
        return acb((-1) ** sign * arb(int(man)) * arb(2) ** int(exp))
    if e is sp.pi:
        return acb.pi()
    if e is sp.E:
        return acb(1).exp()
    if e is sp.I:
        return acb(0, 1)
    raise _unsupported(e)


def _node(e, slots):
    """Compile ``e`` into a closure (env, analytic) → acb; constants are folded now."""
    if e in slots:
        i = slots[e]
        return lambda env, an: env[i]
    if not e.free_symbols:
        c = number_ball(e) if e.is_Atom else _build(e, slots)([], False)
        return lambda env, an: c
    if e.is_Atom:
        raise NBLInputError(f"ball arithmetic cannot evaluate the free symbol {e} here")
    return _build(e, slots)


def _build(e, slots):
    if isinstance(e, (sp.Add, sp.Mul)):
        fs = [_node(a, slots) for a in e.args]
        add = isinstance(e, sp.Add)

        def nary(env, an):
            r = fs[0](env, an)
            for f in fs[1:]:
                r = r + f(env, an) if add else r * f(env, an)
            return r

        return nary
    if isinstance(e, sp.Pow):
        base, ex = e.args
        b = _node(base, slots)
        if ex.is_Integer:
            n = int(ex)
            if n == 2:
                return lambda env, an: (lambda v: v * v)(b(env, an))
            if n > 0:
                return lambda env, an: b(env, an) ** n
            return lambda env, an: 1 / b(env, an) ** (-n)
        if ex.is_Rational and ex.q == 2:  # sqrt(x)^p, branch cut of sqrt
            p = int(ex.p)
            return lambda env, an: b(env, an).sqrt(analytic=an) ** p
        x = _node(ex, slots)
        return lambda env, an: b(env, an).pow(x(env, an), analytic=an)
    fn = _FUNCS.get(e.func)
    if fn is None or len(e.args) != 1:
        raise _unsupported(e)
    a = _node(e.args[0], slots)
    return lambda env, an: fn(a(env, an), an)


@lru_cache(maxsize=128)
def _cse(exprs: tuple):
    return sp.cse(list(exprs), symbols=sp.numbered_symbols("_cse"))


def cse_plan(exprs, var, node):
    """The common subexpressions of ``exprs`` (sympy's ``cse``, cached: the ball and the
    interval compilers of one chart share it) compiled by ``node(expr, slots)``, where
    ``slots`` maps ``var`` to 0 and the k-th subexpression to k + 1: (steps, outputs), to be
    evaluated in order on an environment list that starts with the variable's value."""
    reps, reduced = _cse(tuple(exprs))
    slots = {var: 0}
    steps = []
    for k, (sym, sub) in enumerate(reps):
        steps.append(node(sub, slots))
        slots[sym] = k + 1
    return steps, [node(r, slots) for r in reduced]


def compile_acb(exprs, var):
    """Compile sympy expressions in ``var`` (common subexpressions shared) at the current
    precision into ``f(x: acb, analytic: bool) -> list of acb``.

    Raises
    ------
    NBLInputError
        If an expression uses a function ball arithmetic cannot evaluate.
    """
    steps, outs = cse_plan(exprs, var, _node)

    def f(x, an):
        env = [x]
        for step in steps:
            env.append(step(env, an))
        return [o(env, an) for o in outs]

    return f


def enclose(exprs, var, point, bits: int) -> list:
    """Balls enclosing each of ``exprs`` at the exact rational ``point`` (int, Fraction, float
    or sympy Rational), computed at ``bits`` bits of working precision."""
    with arb_precision(bits):
        return compile_acb(exprs, var)(acb(to_fmpq(point)), False)


def enclose_constant(expr, bits: int) -> acb:
    """A ball enclosing the constant sympy expression ``expr`` at ``bits`` bits."""
    with arb_precision(bits):
        return number_ball(expr) if expr.is_Atom else _build(expr, {})([], False)


# ----------------------------------------------------------------------------- formatting
def format_point(p: Fraction) -> str:
    """Exact decimal of a rational whose denominator divides a power of 10, else ~17 digits."""
    q = p.denominator
    while q % 2 == 0:
        q //= 2
    while q % 5 == 0:
        q //= 5
    if q == 1:
        with decimal.localcontext() as ctx:
            ctx.prec = 60
            s = format(decimal.Decimal(p.numerator) / decimal.Decimal(p.denominator), "f")
        return s.rstrip("0").rstrip(".") if "." in s else s
    return repr(float(p))


def arb_to_mpf(x: arb) -> mpmath.mpf:
    """Exact value of an exact (radius 0) finite arb, e.g. an endpoint or a midpoint.

    Parameters
    ----------
    x : flint.arb
        An exact, finite ball (radius 0).

    Returns
    -------
    mpmath.mpf
        Its value, exactly (an mpmath number keeps every bit of the mantissa).
    """
    man, exp = (int(v) for v in x.man_exp())
    return mpmath.mp.make_mpf(from_man_exp(man, exp))


def _outward(x: arb, up: bool) -> str:
    """Exact endpoint rounded outward to 3 significant digits (any exponent)."""
    if not x.is_finite():
        return "inf" if up else "-inf"
    v = arb_to_mpf(x)
    if v == 0:
        return "0"
    man, exp = (int(c) for c in x.man_exp())
    if abs(exp) <= 4000:  # exact decimal arithmetic
        f = Fraction(man) * Fraction(2) ** exp
        with decimal.localcontext() as ctx:
            ctx.prec, ctx.Emax, ctx.Emin = 3, decimal.MAX_EMAX, decimal.MIN_EMIN
            ctx.rounding = decimal.ROUND_CEILING if up else decimal.ROUND_FLOOR
            d = decimal.Decimal(f.numerator) / decimal.Decimal(f.denominator)
        return _fmt_decimal(d)
    with mpmath.workdps(40):
        k = int(mpmath.floor(mpmath.log10(abs(v))))
        scaled = v / mpmath.mpf(10) ** (k - 2)
        nudge = mpmath.mpf(10) ** -30  # covers the rounding of the 40-digit division
        scaled *= (1 + nudge) if (scaled > 0) == up else (1 - nudge)
        n = int(mpmath.ceil(scaled) if up else mpmath.floor(scaled))
    return _fmt_decimal(decimal.Decimal(n).scaleb(k - 2))


def _fmt_decimal(d: decimal.Decimal) -> str:
    """A decimal of at most 4 significant digits as Python prints floats ('%.4g')."""
    if abs(d.adjusted()) < 300:
        return f"{float(d):.4g}"  # float(d) is within half an ulp: '%.4g' gives d's digits
    return format(d.normalize(), "g").replace("E", "e")


def format_ball(x: arb) -> tuple[str, str]:
    """(value to 3 digits, "[lo, hi]" outward) of a real ball."""
    mid = arb_to_mpf(x.mid())
    return (
        f"{float(mid):.3g}"
        if abs(mid) < 1e300 and (mid == 0 or abs(mid) > 1e-300)
        else mpmath.nstr(mid, 3),
        f"[{_outward(x.lower(), False)}, {_outward(x.upper(), True)}]",
    )
