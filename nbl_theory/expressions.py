"""Whitelisted parsing of user expressions into sympy, with bounded work.

User text is never passed to ``eval`` or ``sympify``. It is parsed by Python's :mod:`ast` in
``eval`` mode and the tree is walked node by node; only numbers, the allowed variable, named
parameters, the constants ``pi`` and ``E``, the arithmetic operators ``+ - * / **`` and calls of
the functions in :data:`FUNCTIONS` are accepted. Anything else -- attribute access, subscripts,
lambdas, comprehensions, keyword arguments, dunder names, strings -- is rejected with a one-line
:class:`~nbl_theory.errors.NBLInputError`.

Decimal literals are converted to exact rationals from their source text (``0.1`` becomes
``1/10``, not the binary double nearest to it), so that the certified tier sees the number the
user typed.

Bounded work
------------
Every bound is checked *before* the exact arithmetic or symbolic work it protects, and a refusal
names the bound (a short input such as ``z*9**9**9`` would otherwise ask sympy for an integer
with 4·10⁸ digits):

* the text has at most :data:`MAX_LENGTH` characters and its syntax tree at most
  :data:`MAX_NODES` nodes; nesting is at most :data:`MAX_DEPTH` levels, where a chain of one
  associative operator (``z+z+...+z``, ``a*b*c``) counts as one level;
* a literal has at most :data:`MAX_DIGITS` significant digits and its magnitude lies in
  [10^-MAX_MAGNITUDE, 10^MAX_MAGNITUDE] (or it is 0); the decimal exponent is read from the text,
  so ``1e999999999`` is refused without building 10^999999999;
* an exponent that is a constant has |e| <= :data:`MAX_EXPONENT` (also after sympy combines
  powers: ``(z**1000)**1000``);
* a constant subexpression (no variable) is evaluated in Arb ball arithmetic *before* sympy
  builds it; its magnitude must lie in [10^-MAX_MAGNITUDE, 10^MAX_MAGNITUDE] (or be 0), and an
  exact rational constant has numerator and denominator of at most :data:`MAX_CONSTANT_BITS`
  bits.
"""

from __future__ import annotations

import ast
import math
import unicodedata
from collections.abc import Iterable, Mapping

import sympy as sp
from flint import acb, arb

from .arb_eval import compile_acb, enclose_constant
from .errors import NBLInputError
from .numbers import (
    DECIMAL,
    MAX_CONSTANT_BITS,
    MAX_DIGITS,
    MAX_LENGTH,
    MAX_MAGNITUDE,
    RANGE_TEXT,
    check_rational,
    decimal_fraction,
    exact_fraction,
    number_value,
    short,
)

__all__ = [
    "FUNCTIONS",
    "CONSTANTS",
    "parse_expression",
    "exact_number",
    "number_value",
    "MAX_LENGTH",
    "MAX_NODES",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_MAGNITUDE",
    "MAX_EXPONENT",
    "MAX_CONSTANT_BITS",
]

#: Nodes of its Python syntax tree (a sum of 500 terms has about 1000).
MAX_NODES = 1000
#: Levels of nesting (calls, parenthesised subexpressions of another operator).
MAX_DEPTH = 60
#: |exponent| of a constant power.
MAX_EXPONENT = 1000

_ARB_BITS = 64
_HUGE_BALL = arb(10) ** MAX_MAGNITUDE
_TINY_BALL = arb(10) ** -MAX_MAGNITUDE
_RANGE = RANGE_TEXT


def _normal_cdf(x):
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def _normal_pdf(x):
    return sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi)


#: Functions a user expression may call, with their arity.
FUNCTIONS: dict[str, tuple[object, int]] = {
    "exp": (sp.exp, 1),
    "log": (sp.log, 1),
    "sqrt": (sp.sqrt, 1),
    "sin": (sp.sin, 1),
    "cos": (sp.cos, 1),
    "tan": (sp.tan, 1),
    "atan": (sp.atan, 1),
    "arctan": (sp.atan, 1),
    "sinh": (sp.sinh, 1),
    "cosh": (sp.cosh, 1),
    "tanh": (sp.tanh, 1),
    "asinh": (sp.asinh, 1),
    "arcsinh": (sp.asinh, 1),
    "erf": (sp.erf, 1),
    "erfc": (sp.erfc, 1),
    "Phi": (_normal_cdf, 1),
    "phi": (_normal_pdf, 1),
    "log1p": (lambda x: sp.log(1 + x), 1),
    "expm1": (lambda x: sp.exp(x) - 1, 1),
    "sigmoid": (lambda x: 1 / (1 + sp.exp(-x)), 1),
}

#: Named constants.
CONSTANTS = {"pi": sp.pi, "E": sp.E}

_BINOPS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a**b,
}
#: Left-associative operator classes whose chains count as one nesting level.
_CHAIN_CLASS = {ast.Add: "add", ast.Sub: "add", ast.Mult: "mul", ast.Div: "mul"}

_DECIMAL = DECIMAL


# ----------------------------------------------------------------------------- numbers
_short = short
_check_rational = check_rational


def _rational(q) -> sp.Rational:
    """A :class:`fractions.Fraction` as a sympy Rational (an Integer when it is one)."""
    return sp.Rational(q.numerator, q.denominator)


def _decimal(s: str, shown: str) -> sp.Rational:
    """Exact rational of a decimal literal, bounds checked on the text before any arithmetic
    (:func:`nbl_theory.numbers.decimal_fraction`)."""
    return _rational(decimal_fraction(s, shown))


def exact_number(text: str | int | float) -> sp.Rational:
    """Convert a decimal string (or int) to an exact sympy Rational: the number
    :func:`nbl_theory.numbers.exact_fraction` reads (the one reader of numbers), as sympy's.

    Floats are converted through ``repr`` (the shortest decimal that round-trips), so
    ``exact_number(0.1) == Rational(1, 10)``. NaN and infinities are rejected, and so are
    numbers outside [1e-300, 1e300] in magnitude (other than 0) or with more than
    :data:`MAX_DIGITS` significant digits -- checked on the text, before any arithmetic.
    Strings may also be fractions ``p/q`` of integers.

    Parameters
    ----------
    text : str, int or float
        A decimal string, a fraction ``p/q``, an int, a float or a sympy Rational (returned as
        it is).

    Returns
    -------
    sympy.Rational
        The exact value.

    Raises
    ------
    NBLInputError
        A bool, NaN, an infinity, a number out of range or with too many digits, or text that
        is not a number.
    """
    if isinstance(text, sp.Rational):
        return text
    return _rational(exact_fraction(text))


# ----------------------------------------------------------------------------- constants
def _arb_magnitude_error(ball, text) -> NBLInputError | None:
    """An error when the ball proves |x| out of range (or is not finite: too large to
    evaluate); None otherwise, including when the ball cannot decide."""
    mag = abs(ball)
    if not mag.is_finite():
        return NBLInputError(
            f"constant {_short(text)} is undefined or too large to evaluate (outside {_RANGE})"
        )
    if mag.lower() > _HUGE_BALL:
        return NBLInputError(f"constant {_short(text)} is outside {_RANGE}")
    if not ball.is_zero() and mag.upper() < _TINY_BALL:
        return NBLInputError(
            f"constant {_short(text)} is outside {_RANGE} (nonzero "
            "constants must be representable in float64)"
        )
    return None


def _check_constant(value, text):
    """Bounds of a constant (no free symbols) sympy value that has just been built."""
    if value.free_symbols or value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return value
    if value.is_Rational:
        return _check_rational(value, text)
    try:
        ball = enclose_constant(value, _ARB_BITS)
    except NBLInputError:
        return value  # a function ball arithmetic cannot evaluate: nothing to bound here
    err = _arb_magnitude_error(ball, text)
    if err is not None:
        raise err
    return value


_TEMPLATE_VAR = sp.Symbol("x")
_TEMPLATES: dict = {}


def _call_constant(fname: str, arg, text):
    """Arb value of ``fname(arg)`` for a constant ``arg``, checked before sympy evaluates it
    (``exp(1000*log(10**300))`` would otherwise become an integer of 300000 digits)."""
    if fname not in _TEMPLATES:
        func = FUNCTIONS[fname][0]
        _TEMPLATES[fname] = compile_acb([func(_TEMPLATE_VAR)], _TEMPLATE_VAR)
    try:
        ball = _TEMPLATES[fname](enclose_constant(arg, _ARB_BITS), False)[0]
    except NBLInputError:
        return
    err = _arb_magnitude_error(ball, text)
    if err is not None:
        raise err


def _check_exponents(value, text):
    """|e| <= MAX_EXPONENT for the constant exponents at the top of a freshly built value
    (sympy combines (z**a)**b and z**a*z**b)."""
    pows = [value] if value.is_Pow else [a for a in value.args if a.is_Pow] if value.is_Mul else []
    for p in pows:
        e = p.exp
        if e.is_Rational and abs(e) > MAX_EXPONENT:
            raise NBLInputError(
                f"exponent {_short(e)} (in {_short(text)}) exceeds the bound |e| <= {MAX_EXPONENT}"
            )


def _ball_or_none(value):
    """Arb ball of a constant; the whole complex plane (which decides nothing) when ball
    arithmetic cannot evaluate it."""
    try:
        return enclose_constant(value, _ARB_BITS)
    except NBLInputError:
        return acb(arb(0, math.inf), arb(0, math.inf))


def _power(base, ex, ex_text, text):
    """base**ex with the exponent and the size of a constant result bounded first."""
    if not ex.free_symbols:
        if ex.is_Rational:
            big = abs(ex) > MAX_EXPONENT
        else:
            mag = abs(_ball_or_none(ex))
            big = not mag.is_finite() or mag.lower() > MAX_EXPONENT
        if big:
            raise NBLInputError(
                f"exponent {_short(ex_text)} exceeds the bound |e| <= {MAX_EXPONENT}"
            )
        if not base.free_symbols:
            if base.is_Rational and ex.is_Rational:
                if base != 0 and abs(base) != 1:
                    log10 = abs(math.log10(abs(base.p)) - math.log10(base.q))
                    if log10 * abs(ex) > MAX_MAGNITUDE + 1:
                        raise NBLInputError(f"constant {_short(text)} is outside {_RANGE}")
                    # sympy computes an exact power only to the integer part of a
                    # fractional exponent (the rest stays a root)
                    bits = max(base.p.bit_length(), base.q.bit_length()) * math.ceil(abs(ex))
                    if bits > MAX_CONSTANT_BITS:
                        raise NBLInputError(
                            f"constant {_short(text)} has more than {MAX_CONSTANT_BITS} bits"
                        )
            else:
                err = _arb_magnitude_error(_ball_or_none(base) ** _ball_or_none(ex), text)
                if err is not None:
                    raise err
    return base**ex


# ----------------------------------------------------------------------------- parser
def _literal(node: ast.Constant, source: str) -> sp.Rational:
    value = node.value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise NBLInputError(f"only numeric literals are allowed, got {value!r}")
    text = (ast.get_source_segment(source, node) or repr(value)).replace("_", "")
    if isinstance(value, int) and not _DECIMAL.fullmatch(text):  # 0x.., 0o.., 0b..
        text = str(value) if value.bit_length() < 4 * MAX_LENGTH else text
    return _decimal(text, text)


#: what a disallowed syntax node is, in a user's words (the node's own name otherwise)
_NODE_NAMES = {
    "Attribute": "attribute access (a.b)",
    "Subscript": "indexing (a[i])",
    "Compare": "a comparison",
    "BoolOp": "and/or",
    "IfExp": "a conditional (x if c else y)",
    "Lambda": "lambda",
    "Tuple": "a tuple",
    "List": "a list",
    "Dict": "a dict",
    "Set": "a set",
    "Starred": "unpacking (*a)",
    "NamedExpr": "assignment (:=)",
}


def parse_expression(
    text: str,
    variable: str,
    parameters: Mapping[str, object] | None = None,
    extra_names: Iterable[str] = (),
) -> sp.Expr:
    """Parse ``text`` into a sympy expression in the single free symbol ``variable``.

    Parameters
    ----------
    text : str
        The expression, e.g. ``"log(1+exp(z))"`` or ``"m*log(m)+(1-m)*log(1-m)"``.
    variable : str
        The one free variable allowed (``"z"`` for links, ``"m"`` for potentials).
    parameters : mapping, optional
        Named parameters substituted by value (numbers or decimal strings, entered exactly).
    extra_names : iterable of str
        Further symbol names allowed to remain free (used internally).

    Returns
    -------
    sympy.Expr
        The expression, with the parameters substituted.

    Raises
    ------
    NBLInputError
        If the text is not a well-formed expression over the whitelist, or exceeds one of the
        bounds of the module docstring (the message names the bound).
    """
    if not isinstance(text, str):
        raise NBLInputError(f"expression must be a string, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise NBLInputError(f"expression longer than {MAX_LENGTH} characters")
    if not text.strip():
        raise NBLInputError("expression is empty")
    if "^" in text:
        raise NBLInputError("'^' is not a power operator here; write powers as '**'")
    odd = next((c for c in text if unicodedata.normalize("NFKC", c) != c), None)
    if odd is not None:
        # Python reads identifiers NFKC-normalized: 'ｅｘｐ' would silently be exp
        raise NBLInputError(
            f"expression {_short(text)!r} contains {odd!r} "
            f"(U+{ord(odd):04X}), a look-alike of "
            f"{unicodedata.normalize('NFKC', odd)!r}: write it in ASCII"
        )
    if any(c.isdigit() and not c.isascii() for c in text):
        raise NBLInputError(
            f"expression {_short(text)!r}: numbers are written with ASCII digits 0-9"
        )
    params = {
        k: exact_number(v) if not isinstance(v, sp.Basic) else v
        for k, v in (parameters or {}).items()
    }
    allowed_free = {variable, *extra_names}
    source = text.strip()
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as exc:
        raise NBLInputError(f"malformed expression {_short(text)!r}: {exc.msg}") from None
    except (RecursionError, MemoryError, ValueError) as exc:
        raise NBLInputError(
            f"malformed expression {_short(text)!r}: {type(exc).__name__}"
        ) from None
    n_nodes = sum(1 for _ in ast.walk(tree))
    if n_nodes > MAX_NODES:
        raise NBLInputError(f"expression has {n_nodes} syntax nodes; the bound is {MAX_NODES}")
    symbols = {name: sp.Symbol(name, real=True) for name in allowed_free}

    def seg(node) -> str:
        return ast.get_source_segment(source, node) or "?"

    def name(node: ast.Name) -> sp.Expr:
        n = node.id
        if n.startswith("_"):
            raise NBLInputError(f"name {n!r} is not allowed")
        if n in symbols:
            return symbols[n]
        if n in params:
            return params[n]
        if n in CONSTANTS:
            return CONSTANTS[n]
        if n in FUNCTIONS:
            raise NBLInputError(f"function {n!r} must be called with an argument")
        raise NBLInputError(
            f"unknown name {n!r}: the expression may use the variable {variable!r}"
            + (f", parameters {sorted(params)}" if params else "")
            + ", pi, E and the functions "
            + ", ".join(sorted(FUNCTIONS))
        )

    def checked(value, node):
        _check_exponents(value, seg(node))
        return _check_constant(value, seg(node))

    def binop_chain(node: ast.BinOp, depth: int) -> sp.Expr:
        if isinstance(node.op, ast.Pow):  # right-associative: a ** (b ** c)
            links = []
            cur = node
            while isinstance(cur, ast.BinOp) and isinstance(cur.op, ast.Pow):
                links.append(cur)
                cur = cur.right
            bases = [build(link.left, depth + 1) for link in links]
            value = build(cur, depth + 1)
            for link, base in zip(reversed(links), reversed(bases)):
                value = checked(_power(base, value, seg(link.right), seg(link)), link)
            return value
        cls = _CHAIN_CLASS.get(type(node.op))
        if cls is None:
            raise NBLInputError(f"operator {type(node.op).__name__} is not allowed")
        chain = []
        cur = node
        while isinstance(cur, ast.BinOp) and _CHAIN_CLASS.get(type(cur.op)) == cls:
            chain.append(cur)
            cur = cur.left
        value = build(cur, depth + 1)
        for link in reversed(chain):
            right = build(link.right, depth + 1)
            if isinstance(link.op, ast.Div) and right == 0:
                raise NBLInputError("division by zero in expression")
            value = checked(_BINOPS[type(link.op)](value, right), link)
        return value

    def call(node: ast.Call, depth: int) -> sp.Expr:
        if not isinstance(node.func, ast.Name):
            raise NBLInputError("this call is not allowed: only plain function calls like exp(z)")
        fname = node.func.id
        if fname not in FUNCTIONS:
            raise NBLInputError(
                f"function {fname!r} is not allowed; use one of " + ", ".join(sorted(FUNCTIONS))
            )
        if node.keywords:
            raise NBLInputError(f"keyword arguments are not allowed in {fname}(...)")
        func, arity = FUNCTIONS[fname]
        if len(node.args) != arity or any(isinstance(a, ast.Starred) for a in node.args):
            raise NBLInputError(f"{fname} takes exactly {arity} argument(s)")
        args = [build(a, depth + 1) for a in node.args]
        if not any(a.free_symbols for a in args):
            _call_constant(fname, args[0], seg(node))
        return checked(func(*args), node)

    def build(node: ast.AST, depth: int) -> sp.Expr:
        if depth > MAX_DEPTH:
            raise NBLInputError(f"expression is nested too deeply (more than {MAX_DEPTH} levels)")
        if isinstance(node, ast.Expression):
            return build(node.body, depth)
        if isinstance(node, ast.Constant):
            return _literal(node, source)
        if isinstance(node, ast.Name):
            return name(node)
        if isinstance(node, ast.BinOp):
            return binop_chain(node, depth)
        if isinstance(node, ast.UnaryOp):
            ops = []
            cur = node
            while isinstance(cur, ast.UnaryOp):
                if not isinstance(cur.op, (ast.USub, ast.UAdd)):
                    raise NBLInputError(f"operator {type(cur.op).__name__} is not allowed")
                ops.append(cur.op)
                cur = cur.operand
            value = build(cur, depth + 1)
            for op in reversed(ops):
                value = -value if isinstance(op, ast.USub) else value
            return value
        if isinstance(node, ast.Call):
            return call(node, depth)
        what = _NODE_NAMES.get(type(node).__name__, type(node).__name__)
        part = ast.get_source_segment(source, node) or source
        raise NBLInputError(f"{what} is not allowed in an expression: {part!r}")

    try:
        expr = build(tree, 0)
    except NBLInputError:
        raise
    except (RecursionError, MemoryError):
        raise NBLInputError("expression is too large") from None
    except (TypeError, ValueError, ZeroDivisionError, AttributeError, OverflowError) as exc:
        raise NBLInputError(
            f"malformed expression {_short(text)!r}: {_short(str(exc)) or type(exc).__name__}"
        ) from None
    if not isinstance(expr, sp.Basic):  # pragma: no cover - build() returns sympy objects
        raise NBLInputError(f"expression {_short(text)!r} did not produce a sympy expression")
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise NBLInputError(
            f"expression {_short(text)!r} is undefined (division by zero or infinity)"
        )
    stray = {str(s) for s in expr.free_symbols} - allowed_free
    if stray:  # pragma: no cover - cannot happen through build()
        raise NBLInputError(f"unexpected free symbols {sorted(stray)}")
    return expr
