"""Sympy expressions as real *interval* functions with Arb endpoints: rigorous bounds of an
expression over a whole real interval [lo, hi].

Arb's balls are midpoint ± radius, so a ball wider than the scale of an exponential loses its
sign: ``exp([1200, 1400])`` encloses [−5.6e598, 5.6e598], ``1 + exp(·)`` then contains 0 and
``k exp(−kz)/(1 + exp(−kz))²`` becomes NaN on any z-interval much wider than 1/k. Interval
arithmetic keeps the two endpoints instead: a monotone function maps endpoints to endpoints,
sums and products take the extreme endpoint combinations, so ``exp([1200, 1400])`` stays
positive and the quotient finite. :mod:`nbl_theory.certified` uses it to bound a steep link's
derivatives over the Gaussian tail shells in a few pieces where balls need ~k per unit length
(``sigmoid(100*z)`` is then certified in seconds, not tens of seconds).

Every endpoint is an exact Arb number (radius 0): an operation's result ball is computed at the
current precision and its lower (upper) bound taken for the lower (upper) endpoint, so each
interval encloses the true range (outward rounding). Rules:

* ``+``: endpoint sums; ``·``: the extreme of the four endpoint products;
* integer powers: monotone pieces (even powers through 0 give [0, max]); negative powers need
  an interval without 0; ``x^(p/2)`` needs x ≥ 0; other powers are exp(y log x) with x > 0;
* increasing functions ``exp``, ``tanh``, ``sinh``, ``erf``, ``atan``, ``asinh``, ``log``
  (on x > 0), ``sign``, ``re``; decreasing ``erfc``; ``cosh`` and ``Abs`` by their two monotone
  pieces; ``im`` of a real interval is 0.

Anything else (``sin``, ``cos``, ``tan``, a complex constant, a power of an interval that
contains a pole) raises :class:`NotInterval`: the caller falls back to ball arithmetic. A NaN
or infinite endpoint means "not decided", never "infinite".
"""

from __future__ import annotations

import sympy as sp
from flint import arb

from .arb_eval import cse_plan, number_ball
from .errors import NBLInputError

__all__ = ["NotInterval", "compile_interval"]


class NotInterval(ArithmeticError):
    """The expression has a part interval arithmetic does not bound here."""


def _pt(lo_ball: arb, hi_ball: arb) -> tuple[arb, arb]:
    return lo_ball.lower(), hi_ball.upper()


def _min(xs):
    out = xs[0]
    for x in xs[1:]:
        if x < out:
            out = x
    return out


def _max(xs):
    out = xs[0]
    for x in xs[1:]:
        if x > out:
            out = x
    return out


def _add(a, b):
    return _pt(a[0] + b[0], a[1] + b[1])


def _mul(a, b):
    ps = [x * y for x in a for y in b]
    return _min([p.lower() for p in ps]), _max([p.upper() for p in ps])


def _contains_zero(a) -> bool:
    return not (a[0] > 0 or a[1] < 0)


def _ipow(a, n: int):
    """a^n for an integer n ≠ 0."""
    if n < 0:
        if _contains_zero(a):
            raise NotInterval("a negative power of an interval containing 0")
        p = _ipow(a, -n)
        return _pt(1 / p[1], 1 / p[0])
    lo, hi = a
    if n % 2 or lo >= 0:  # odd, or even on [0, ∞): increasing
        return _pt(lo**n, hi**n)
    if hi <= 0:  # even on (−∞, 0]: decreasing
        return _pt(hi**n, lo**n)
    return arb(0), _max([(lo**n).upper(), (hi**n).upper()])


def _increasing(name):
    def f(a):
        return _pt(getattr(a[0], name)(), getattr(a[1], name)())

    return f


def _log(a):
    if not a[0] > 0:
        raise NotInterval("log of an interval reaching 0 or below")
    return _pt(a[0].log(), a[1].log())


def _v_shaped(inner):
    """A function decreasing on (−∞, 0] and increasing on [0, ∞), ``inner`` on points."""

    def f(a):
        lo, hi = a
        if lo >= 0:
            return _pt(inner(lo), inner(hi))
        if hi <= 0:
            return _pt(inner(hi), inner(lo))
        return inner(arb(0)).lower(), _max([inner(lo).upper(), inner(hi).upper()])

    return f


def _sign(a):
    return tuple(arb(1 if x > 0 else -1 if x < 0 else 0) for x in a)


_FUNCS = {
    sp.exp: _increasing("exp"),
    sp.tanh: _increasing("tanh"),
    sp.sinh: _increasing("sinh"),
    sp.erf: _increasing("erf"),
    sp.atan: _increasing("atan"),
    sp.asinh: _increasing("asinh"),
    sp.erfc: lambda a: _pt(a[1].erfc(), a[0].erfc()),
    sp.log: _log,
    sp.cosh: _v_shaped(lambda x: x.cosh()),
    sp.Abs: _v_shaped(abs),
    sp.sign: _sign,
    sp.re: lambda a: a,
    sp.im: lambda a: (arb(0), arb(0)),
}


def _const(e):
    try:
        c = number_ball(e)
    except NBLInputError:
        raise NotInterval(f"the constant {e}") from None
    if not c.imag == 0:
        raise NotInterval("a complex constant")
    return c.real.lower(), c.real.upper()


def _node(e, slots):
    if e in slots:
        i = slots[e]
        return lambda env: env[i]
    if not e.free_symbols:
        c = _const(e) if e.is_Atom else _build(e, slots)([])
        if not (c[0].is_finite() and c[1].is_finite()):
            raise NotInterval("a constant that is not finite")
        return lambda env: c
    if e.is_Atom:
        raise NotInterval(f"free symbol {e}")
    f = _build(e, slots)

    def finite(env):  # a NaN or infinite endpoint is "not decided": never computed on
        r = f(env)
        if not (r[0].is_finite() and r[1].is_finite()):
            raise NotInterval("an endpoint is not finite")
        return r

    return finite


def _build(e, slots):
    if isinstance(e, (sp.Add, sp.Mul)):
        fs = [_node(a, slots) for a in e.args]
        op = _add if isinstance(e, sp.Add) else _mul

        def nary(env):
            r = fs[0](env)
            for f in fs[1:]:
                r = op(r, f(env))
            return r

        return nary
    if isinstance(e, sp.Pow):
        base, ex = e.args
        b = _node(base, slots)
        if ex.is_Integer:
            n = int(ex)
            return lambda env: _ipow(b(env), n)
        if ex.is_Rational and ex.q == 2:
            p = int(ex.p)

            def half(env):
                a = b(env)
                if a[0] < 0:
                    raise NotInterval("a square root of an interval below 0")
                return _ipow(_pt(a[0].sqrt(), a[1].sqrt()), p)

            return half
        x = _node(ex, slots)
        return lambda env: _FUNCS[sp.exp](_mul(x(env), _log(b(env))))
    fn = _FUNCS.get(e.func)
    if fn is None or len(e.args) != 1:
        raise NotInterval(f"{type(e).__name__} is not bounded by interval rules here")
    a = _node(e.args[0], slots)
    return lambda env: fn(a(env))


def compile_interval(exprs, var):
    """Compile sympy expressions in ``var`` (common subexpressions shared; constants folded at
    the current precision) into ``f(lo: arb, hi: arb) -> list of (lo, hi)`` enclosing each
    expression's range over [lo, hi] (lo ≤ hi exact).

    Raises
    ------
    NotInterval
        At compile time or when called, for a part the rules above do not bound.
    """
    steps, outs = cse_plan(exprs, var, _node)

    def f(lo, hi):
        env = [(lo, hi)]
        for step in steps:
            env.append(step(env))
        return [o(env) for o in outs]

    return f
