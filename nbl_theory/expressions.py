"""Whitelisted parsing of user expressions into sympy.

User text is never passed to ``eval`` or ``sympify``. It is parsed by Python's :mod:`ast` in
``eval`` mode and the tree is walked node by node; only numbers, the allowed variable, named
parameters, the constants ``pi`` and ``E``, the arithmetic operators ``+ - * / **`` and calls of
the functions in :data:`FUNCTIONS` are accepted. Anything else -- attribute access, subscripts,
lambdas, comprehensions, keyword arguments, dunder names, strings -- is rejected with a one-line
:class:`~nbl_theory.errors.NBLInputError`.

Decimal literals are converted to exact rationals from their source text (``0.1`` becomes
``1/10``, not the binary double nearest to it), so that the certified tier sees the number the
user typed.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

import sympy as sp

from .errors import NBLInputError

__all__ = ["FUNCTIONS", "CONSTANTS", "parse_expression", "exact_number"]

_MAX_LENGTH = 2000
_MAX_DEPTH = 60


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


def exact_number(text: str | int | float) -> sp.Rational:
    """Convert a decimal string (or int) to an exact sympy Rational.

    Floats are converted through ``repr`` (the shortest decimal that round-trips), so
    ``exact_number(0.1) == Rational(1, 10)``. NaN and infinities are rejected.
    """
    if isinstance(text, bool):
        raise NBLInputError(f"expected a number, got {text!r}")
    if isinstance(text, int):
        return sp.Integer(text)
    if isinstance(text, float):
        text = repr(text)
    if isinstance(text, sp.Rational):
        return text
    s = str(text).strip()
    low = s.lower()
    if low in {"nan", "inf", "+inf", "-inf", "infinity", "-infinity", "+infinity"}:
        raise NBLInputError(f"expected a finite number, got {s!r}")
    try:
        value = sp.Rational(s)
    except (TypeError, ValueError, SyntaxError) as exc:  # pragma: no cover - message path
        raise NBLInputError(f"expected a decimal number, got {s!r}") from exc
    if not isinstance(value, sp.Rational):
        raise NBLInputError(f"expected a decimal number, got {s!r}")
    return value


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

    Raises
    ------
    NBLInputError
        If the text is not a well-formed expression over the whitelist.
    """
    if not isinstance(text, str):
        raise NBLInputError(f"expression must be a string, got {type(text).__name__}")
    if len(text) > _MAX_LENGTH:
        raise NBLInputError(f"expression longer than {_MAX_LENGTH} characters")
    if not text.strip():
        raise NBLInputError("expression is empty")
    if "^" in text:
        raise NBLInputError("'^' is not a power operator here; write powers as '**'")
    params = {
        k: exact_number(v) if not isinstance(v, sp.Basic) else v
        for k, v in (parameters or {}).items()
    }
    allowed_free = {variable, *extra_names}
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise NBLInputError(f"malformed expression {text!r}: {exc.msg}") from None
    source = text.strip()
    symbols = {name: sp.Symbol(name, real=True) for name in allowed_free}

    def build(node: ast.AST, depth: int) -> sp.Expr:
        if depth > _MAX_DEPTH:
            raise NBLInputError("expression is nested too deeply")
        if isinstance(node, ast.Expression):
            return build(node.body, depth + 1)
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise NBLInputError(f"only numeric literals are allowed, got {node.value!r}")
            literal = ast.get_source_segment(source, node) or repr(node.value)
            return exact_number(literal.replace("_", ""))
        if isinstance(node, ast.Name):
            name = node.id
            if name.startswith("_"):
                raise NBLInputError(f"name {name!r} is not allowed")
            if name in symbols:
                return symbols[name]
            if name in params:
                return params[name]
            if name in CONSTANTS:
                return CONSTANTS[name]
            if name in FUNCTIONS:
                raise NBLInputError(f"function {name!r} must be called with an argument")
            raise NBLInputError(
                f"unknown name {name!r}: the expression may use the variable {variable!r}"
                + (f", parameters {sorted(params)}" if params else "")
                + ", pi, E and the functions "
                + ", ".join(sorted(FUNCTIONS))
            )
        if isinstance(node, ast.BinOp):
            op = _BINOPS.get(type(node.op))
            if op is None:
                raise NBLInputError(f"operator {type(node.op).__name__} is not allowed")
            left, right = build(node.left, depth + 1), build(node.right, depth + 1)
            if isinstance(node.op, ast.Div) and right == 0:
                raise NBLInputError("division by zero in expression")
            return op(left, right)
        if isinstance(node, ast.UnaryOp):
            operand = build(node.operand, depth + 1)
            if isinstance(node.op, ast.USub):
                return -operand
            if isinstance(node.op, ast.UAdd):
                return operand
            raise NBLInputError(f"operator {type(node.op).__name__} is not allowed")
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name):
                raise NBLInputError(
                    "this call is not allowed: only plain function calls like exp(z)"
                )
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
            return func(*(build(a, depth + 1) for a in node.args))
        raise NBLInputError(f"{type(node).__name__} is not allowed in an expression")

    try:
        expr = build(tree, 0)
    except NBLInputError:
        raise
    except (RecursionError, MemoryError):
        raise NBLInputError("expression is too large") from None
    except (TypeError, ValueError, ZeroDivisionError, AttributeError) as exc:
        raise NBLInputError(f"malformed expression {text!r}: {exc}") from None
    if not isinstance(expr, sp.Basic):  # pragma: no cover - build() returns sympy objects
        raise NBLInputError(f"expression {text!r} did not produce a sympy expression")
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise NBLInputError(f"expression {text!r} is undefined (division by zero or infinity)")
    stray = {str(s) for s in expr.free_symbols} - allowed_free
    if stray:  # pragma: no cover - cannot happen through build()
        raise NBLInputError(f"unexpected free symbols {sorted(stray)}")
    return expr
