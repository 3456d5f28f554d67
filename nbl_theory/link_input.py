"""What the :class:`~nbl_theory.links.Link` constructors accept: the variables ``z`` and ``m``,
expressions as strings or sympy objects, a potential's domain, and the guard that turns errors of
sympy, lambdify or numpy on oversized or degenerate input into
one-line :class:`~nbl_theory.errors.NBLInputError` messages.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from .errors import NBLInputError
from .expressions import exact_number, parse_expression

__all__ = ["Z", "M", "short_text", "as_symbolic", "guarded", "resolve_signs", "parse_domain"]

#: The dual coordinate (index) variable of a link.
Z = sp.Symbol("z", real=True)
#: The primal (mean) variable of a potential.
M = sp.Symbol("m", real=True)

#: Errors sympy, lambdify or numpy raise on oversized or degenerate input; the constructors turn
#: them into one-line NBLInputErrors.
_WORK_ERRORS = (
    MemoryError,
    RecursionError,
    ArithmeticError,
    ValueError,
    TypeError,
    NotImplementedError,
    SyntaxError,
    AttributeError,
    KeyError,
    IndexError,
)


def short_text(expr) -> str:
    """``str(expr)`` cut to at most 80 characters for messages (a placeholder where even
    ``str`` fails)."""
    try:
        text = str(expr)
    except (ValueError, RecursionError, MemoryError):  # e.g. an integer of > 4300 digits
        return f"<{type(expr).__name__}>"
    return text if len(text) <= 80 else text[:38] + "..." + text[-38:]


def as_symbolic(expr, var: str, symbol: sp.Symbol, what: str, subject: str) -> sp.Expr:
    """``expr`` (a string for the whitelist parser, or a sympy expression in the variable
    named ``var``) as a sympy expression in ``symbol``; anything else raises an NBLInputError
    naming ``what``, free symbols other than ``var`` one naming ``subject``."""
    if isinstance(expr, str):
        return parse_expression(expr, var)
    if isinstance(expr, sp.Basic):
        stray = {str(s) for s in expr.free_symbols} - {var}
        if stray:
            raise NBLInputError(f"{subject} has free symbols other than {var}: {sorted(stray)}")
        return expr.subs(sp.Symbol(var), symbol)
    raise NBLInputError(f"{what} must be a string or sympy expression, got {type(expr).__name__}")


def guarded(text: str, what: str, build):
    """Run a constructor; errors sympy, lambdify or numpy raise on oversized or degenerate user
    input become one-line NBLInputErrors naming what failed."""
    try:
        return build()
    except NBLInputError:
        raise
    except _WORK_ERRORS as exc:
        detail = (str(exc).splitlines() or [""])[0][:100]
        raise NBLInputError(
            f"{what} {short_text(text)!r} could not be processed: {type(exc).__name__}"
            + (f" ({detail})" if detail else "")
        ) from None


def resolve_signs(expr, lo, hi):
    """|h| and sign(h) in a potential, evaluated by sympy where the domain decides them: with
    m = lo + t (or hi − t), t > 0, sympy rewrites |m − lo| as t; the result is written back in m.
    Otherwise their derivatives carry a DiracDelta at a point outside the domain."""
    t = sp.Symbol("t", positive=True)
    if lo.is_finite:
        return expr.subs(M, lo + t).subs(t, M - lo)
    if hi.is_finite:
        return expr.subs(M, hi - t).subs(t, hi - M)
    return expr


def parse_domain(domain) -> tuple:
    """The open interval (lo, hi) of a potential's domain as sympy numbers: a pair or a
    string ``"LO,HI"``; ``inf``/``-inf`` (also ``oo``, float infinities) for unbounded ends."""
    if isinstance(domain, str):
        parts = domain.split(",")
        if len(parts) != 2:
            raise NBLInputError(f"domain must be 'LO,HI', got {domain!r}")
        domain = parts
    try:
        lo_raw, hi_raw = domain
    except (TypeError, ValueError):
        raise NBLInputError(f"domain must be a pair (lo, hi), got {domain!r}") from None

    def conv(v):
        if isinstance(v, sp.Basic):
            return v
        if isinstance(v, float) and np.isinf(v):
            return sp.oo if v > 0 else -sp.oo
        s = str(v).strip().lower()
        if s in {"inf", "+inf", "oo", "infinity"}:
            return sp.oo
        if s in {"-inf", "-oo", "-infinity"}:
            return -sp.oo
        try:
            return exact_number(v)
        except NBLInputError as exc:
            raise NBLInputError(f"domain {domain_text!r}: {exc}") from None

    domain_text = ",".join(str(v).strip() for v in domain)
    lo, hi = conv(lo_raw), conv(hi_raw)
    if not lo < hi:
        raise NBLInputError(f"domain ({lo}, {hi}) is empty: need lo < hi")
    return lo, hi
