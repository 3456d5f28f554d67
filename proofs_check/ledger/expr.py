"""Transcriptions' sympy text -> sympy objects, and evaluation of those objects (mpmath at a
point, Arb over a box).

The text is package data written by the ledger's transcribers, not user input; it is still
parsed with a closed namespace (no builtins): the declared symbols, the names in
:data:`NAMESPACE`, and the step's ``defs`` (macros evaluated in order).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from flint import arb, fmpq
from sympy.parsing.sympy_parser import parse_expr, standard_transformations

__all__ = ["NAMESPACE", "Phi", "phi", "E", "build", "to_mpmath", "arb_eval", "ASSUMPTIONS"]


class Phi(sp.Function):
    """The standard normal CDF."""

    @classmethod
    def eval(cls, x):
        if x.is_Number and x == 0:
            return sp.Rational(1, 2)
        if x.is_Number:
            return sp.erfc(-x / sp.sqrt(2)) / 2

    def _eval_rewrite_as_erfc(self, x, **kwargs):
        return sp.erfc(-x / sp.sqrt(2)) / 2

    def fdiff(self, argindex=1):
        return phi(self.args[0])


class phi(sp.Function):  # noqa: N801 - the paper's name
    """The standard normal density."""

    @classmethod
    def eval(cls, x):
        if x.is_Number:
            return sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi)

    def _eval_rewrite_as_exp(self, x, **kwargs):
        return sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi)

    def fdiff(self, argindex=1):
        return -self.args[0] * phi(self.args[0])


class E(sp.Function):  # noqa: N801 - the paper's name
    """A Gaussian expectation ``E(expr)`` over the step's ``gaussian`` variables (evaluated by
    the *expectation* method only)."""


NAMESPACE = {
    "exp": sp.exp,
    "log": sp.log,
    "sqrt": sp.sqrt,
    "sin": sp.sin,
    "cos": sp.cos,
    "tan": sp.tan,
    "atan": sp.atan,
    "tanh": sp.tanh,
    "cosh": sp.cosh,
    "sinh": sp.sinh,
    "erf": sp.erf,
    "erfc": sp.erfc,
    "Abs": sp.Abs,
    "Max": sp.Max,
    "Min": sp.Min,
    "pi": sp.pi,
    "oo": sp.oo,
    "I": sp.I,
    "Rational": sp.Rational,
    "Integer": sp.Integer,
    "Float": sp.Float,
    "Symbol": sp.Symbol,
    "Function": sp.Function,
    "Matrix": sp.Matrix,
    "diff": sp.diff,
    "Derivative": sp.Derivative,
    "Integral": sp.Integral,
    "integrate": sp.integrate,
    "Sum": sp.Sum,
    "summation": sp.summation,
    "limit": sp.limit,
    "Heaviside": sp.Heaviside,
    "Piecewise": sp.Piecewise,
    "eye": sp.eye,
    "zeros": sp.zeros,
    "ones": sp.ones,
    "Phi": Phi,
    "phi": phi,
    "E": E,
    "floor": sp.floor,
    "ceiling": sp.ceiling,
    "factorial": sp.factorial,
    "gamma": sp.gamma,
    "loggamma": sp.loggamma,
    "binomial": sp.binomial,
    "Eq": sp.Eq,
    "Lambda": sp.Lambda,
    "Tuple": sp.Tuple,
    "subs": None,
}
NAMESPACE.pop("subs")

#: assumption words a transcription may give a symbol
ASSUMPTIONS = {
    "real": {"real": True},
    "positive": {"positive": True},
    "nonnegative": {"nonnegative": True},
    "negative": {"negative": True},
    "integer": {"integer": True},
    "positive_integer": {"integer": True, "positive": True},
    "nonzero": {"real": True, "nonzero": True},
    "complex": {},
}


def build(symbols: dict, defs: dict, texts: list[str]) -> tuple[dict, list]:
    """Parse ``texts`` with the ``symbols`` ({name: assumption word}) and the macros ``defs``
    ({name: text}, in order). Returns (the namespace, the parsed objects)."""
    ns = {"__builtins__": {}}
    ns.update(NAMESPACE)
    for name, kind in symbols.items():
        if kind not in ASSUMPTIONS:
            raise ValueError(f"symbol {name}: unknown assumption {kind!r}")
        ns[name] = sp.Symbol(name, **ASSUMPTIONS[kind])
    for name, text in defs.items():
        ns[name] = parse_expr(
            text,
            local_dict=dict(ns),
            global_dict={"__builtins__": {}},
            transformations=standard_transformations,
            evaluate=True,
        )
    out = [
        parse_expr(
            t,
            local_dict=dict(ns),
            global_dict={"__builtins__": {}},
            transformations=standard_transformations,
            evaluate=True,
        )
        for t in texts
    ]
    return ns, out


def to_mpmath(expr):
    """A function of the free symbols (sorted by name) evaluating ``expr`` with mpmath."""
    expr = expr.rewrite(sp.erfc) if expr.has(Phi) else expr
    expr = expr.replace(phi, lambda x: sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi))
    syms = sorted(expr.free_symbols, key=lambda s: s.name)
    return syms, sp.lambdify(syms, expr, modules="mpmath")


def _arb_pow(base: arb, e, nonneg: bool = False):
    if e.is_Integer:
        n = int(e)
        return base**n if n >= 0 else 1 / (base ** (-n))
    if e.is_Rational and e.q in (2, 4):
        # a variable whose box starts at 0 is nonnegative: the ball's tiny negative overhang
        # (Arb rounds radii up) is not part of the domain, so sqrt(max(x, 0)) is exact there
        sq = (lambda x: x.sqrtpos()) if nonneg else (lambda x: x.sqrt())
        root = sq(base) if e.q == 2 else sq(base).sqrt()
        return _arb_pow(root, sp.Integer(e.p))
    return (base.log() * _arb(e, {})).exp()


def _arb(e, env):
    if e.is_Symbol:
        return env[e]
    if e.is_Integer:
        return arb(int(e))
    if e.is_Rational:
        return arb(int(e.p)) / int(e.q)
    if e is sp.pi:
        return arb.pi()
    if e is sp.E:
        return arb(1).exp()
    if e.is_Float:
        return arb(str(e))
    args = [_arb(a, env) for a in e.args] if not e.is_Pow else None
    if e.is_Add:
        out = args[0]
        for a in args[1:]:
            out = out + a
        return out
    if e.is_Mul:
        out = args[0]
        for a in args[1:]:
            out = out * a
        return out
    if e.is_Pow:
        b = e.args[0]
        return _arb_pow(_arb(b, env), e.args[1], nonneg=b in env.get("nonneg", ()))
    f = e.func
    table = {
        sp.exp: lambda x: x.exp(),
        sp.log: lambda x: x.log(),
        sp.sin: lambda x: x.sin(),
        sp.cos: lambda x: x.cos(),
        sp.tanh: lambda x: x.tanh(),
        sp.erf: lambda x: x.erf(),
        sp.erfc: lambda x: x.erfc(),
        sp.atan: lambda x: x.atan(),
        sp.cosh: lambda x: x.cosh(),
        sp.sinh: lambda x: x.sinh(),
        Phi: lambda x: (-x / arb(2).sqrt()).erfc() / 2,
        phi: lambda x: (-(x * x) / 2).exp() / (2 * arb.pi()).sqrt(),
        sp.Abs: lambda x: abs(x),
    }
    if f in table:
        return table[f](*args)
    if f is sp.Max:
        out = args[0]
        for a in args[1:]:
            out = out.max(a)
        return out
    if f is sp.Min:
        out = args[0]
        for a in args[1:]:
            out = out.min(a)
        return out
    raise ValueError(f"no Arb evaluation for {f}")


def arb_eval(expr, box: dict) -> arb:
    """An Arb ball enclosing ``expr`` over the box ``{symbol: (lo, hi)}`` (rational bounds)."""
    env: dict = {"nonneg": {s for s, (lo, _hi) in box.items() if Fraction(lo) >= 0}}
    for s, (lo, hi) in box.items():
        lo, hi = Fraction(lo), Fraction(hi)
        mid, rad = (lo + hi) / 2, (hi - lo) / 2
        ball = arb(fmpq(mid.numerator, mid.denominator))
        if rad:
            ball = ball + arb(0, arb(fmpq(rad.numerator, rad.denominator)).upper())
        env[s] = ball
    return _arb(expr, env)
