"""Numbers as the user writes them, read exactly, without sympy.

Every number nbl reads from text — ``--delta``, ``--param``, the numbers inside ``--contexts``
and ``--arms`` specs, the literals of a link expression — is a decimal (``-0.9``, ``1e-3``,
``.5``) or a fraction ``p/q`` of integers, in ASCII digits, read into an exact
:class:`fractions.Fraction` from its text (``0.1`` is 1/10, not the double nearest to it). The
bounds are checked on the text before any arithmetic: at most :data:`MAX_LENGTH` characters,
:data:`MAX_DIGITS` significant digits, a magnitude in [10^-MAX_MAGNITUDE, 10^MAX_MAGNITUDE]
(or 0), and numerators and denominators of at most :data:`MAX_CONSTANT_BITS` bits.

This module is the reader; :func:`nbl_theory.expressions.exact_number` is the same number as a
sympy Rational for the symbolic layer. It imports nothing but the standard library, so that the
simulation layer and the command line read numbers without importing sympy (a quarter of a
second at start-up).
"""

from __future__ import annotations

import re
from fractions import Fraction

from .errors import NBLInputError

__all__ = [
    "MAX_LENGTH",
    "MAX_DIGITS",
    "MAX_MAGNITUDE",
    "MAX_CONSTANT_BITS",
    "RANGE_TEXT",
    "DECIMAL",
    "short",
    "range_error",
    "check_rational",
    "decimal_fraction",
    "exact_fraction",
    "number_value",
    "is_sympy_rational",
]

#: Characters of an expression (and of a number's text).
MAX_LENGTH = 2000
#: Significant digits of a literal.
MAX_DIGITS = 100
#: Constants and literals lie in [10^-MAX_MAGNITUDE, 10^MAX_MAGNITUDE] in magnitude, or are 0.
MAX_MAGNITUDE = 300
#: Bits of the numerator and of the denominator of an exact rational constant.
MAX_CONSTANT_BITS = 10_000
#: The range of magnitudes, as messages print it.
RANGE_TEXT = f"[1e-{MAX_MAGNITUDE}, 1e{MAX_MAGNITUDE}]"

#: A decimal literal: sign, integer digits, fraction digits, exponent.
DECIMAL = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?")
_FRACTION = re.compile(r"([+-]?\d+)/(\d+)")
_POWER = 10**MAX_MAGNITUDE
_NON_FINITE = {"nan", "inf", "+inf", "-inf", "infinity", "-infinity", "+infinity"}


def short(text) -> str:
    """``text`` shortened for a message: at most 40 characters as given, else its first and last
    18 around ``...``.

    Parameters
    ----------
    text : object
        The text (anything with a ``str``).

    Returns
    -------
    str
        The text, shortened.
    """
    text = str(text)
    return text if len(text) <= 40 else text[:18] + "..." + text[-18:]


def range_error(text) -> NBLInputError:
    """The error of a literal outside the range of magnitudes.

    Parameters
    ----------
    text : object
        The literal as written (shortened in the message).

    Returns
    -------
    NBLInputError
        The error to raise.
    """
    return NBLInputError(f"literal {short(text)} is outside {RANGE_TEXT}")


def _in_range(p: int, q: int) -> bool:
    """10^-MAX_MAGNITUDE <= |p/q| <= 10^MAX_MAGNITUDE (q > 0), in integers."""
    return abs(p) * _POWER >= q and abs(p) <= _POWER * q


def check_rational(q, text, what: str = "constant"):
    """``q`` itself after checking the size and magnitude bounds of an exact rational constant.

    Parameters
    ----------
    q : fractions.Fraction or sympy.Rational
        The value (anything with integer ``numerator`` and ``denominator``).
    text : str
        The text it was read from, for the message.
    what : str, default "constant"
        What the value is, for the message.

    Returns
    -------
    fractions.Fraction or sympy.Rational
        ``q``.

    Raises
    ------
    NBLInputError
        A numerator or denominator of more than :data:`MAX_CONSTANT_BITS` bits, or a nonzero
        magnitude outside the range.
    """
    p, d = int(q.numerator), int(q.denominator)
    if p == 0:
        return q
    if p.bit_length() > MAX_CONSTANT_BITS or d.bit_length() > MAX_CONSTANT_BITS:
        raise NBLInputError(
            f"{what} {short(text)} has more than {MAX_CONSTANT_BITS} bits "
            "in its numerator or denominator"
        )
    if not _in_range(p, d):
        raise NBLInputError(f"{what} {short(text)} is outside {RANGE_TEXT}")
    return q


def decimal_fraction(s: str, shown: str) -> Fraction:
    """The exact value of the decimal literal ``s``, its bounds checked on the text before any
    arithmetic (``1e999999999`` is refused without building 10^999999999).

    Parameters
    ----------
    s : str
        The literal, underscores removed.
    shown : str
        The text as the user wrote it, for messages.

    Returns
    -------
    fractions.Fraction
        The exact value.

    Raises
    ------
    NBLInputError
        Not a decimal literal, too many significant digits, or out of range.
    """
    m = DECIMAL.fullmatch(s)
    if m is None or not (m.group(2) or m.group(3)):
        raise NBLInputError(f"expected a decimal number, got {short(shown)!r}")
    sign, ip, fp, ex = m.group(1), m.group(2) or "", m.group(3) or "", m.group(4)
    digits = (ip + fp).lstrip("0")
    if not digits:
        return Fraction(0)
    significant = len(digits.rstrip("0"))
    if significant > MAX_DIGITS:
        raise NBLInputError(
            f"literal {short(shown)} has {significant} significant digits; "
            f"at most {MAX_DIGITS} are allowed"
        )
    if ex is not None and len(ex.lstrip("+-").lstrip("0")) > 6:
        raise range_error(shown)
    e = int(ex or 0)
    head = ip.lstrip("0")
    order = len(head) - 1 + e if head else e - (len(fp) - len(fp.lstrip("0"))) - 1
    if not -MAX_MAGNITUDE - 1 <= order <= MAX_MAGNITUDE:  # |x| in [10^order, 10^(order+1))
        raise range_error(shown)
    n, k = int(ip + fp or "0"), e - len(fp)
    value = Fraction(n * 10**k) if k >= 0 else Fraction(n, 10**-k)
    value = -value if sign == "-" else value
    if value != 0 and not _in_range(value.numerator, value.denominator):
        raise range_error(shown)
    return value


def is_sympy_rational(x) -> bool:
    """Whether ``x`` is a sympy Rational (an Integer included), without importing sympy.

    Parameters
    ----------
    x : object
        Any value.

    Returns
    -------
    bool
        True for a sympy Rational.
    """
    return type(x).__module__.startswith("sympy") and getattr(x, "is_Rational", False) is True


def exact_fraction(text) -> Fraction:
    """A decimal string, a fraction ``p/q``, an int or a float, exactly.

    Floats are read through ``repr`` (the shortest decimal that round-trips), so
    ``exact_fraction(0.1) == Fraction(1, 10)``. NaN and infinities are refused, and so are
    numbers outside [1e-300, 1e300] in magnitude (other than 0) or with more than
    :data:`MAX_DIGITS` significant digits — checked on the text, before any arithmetic. An
    exact rational (a Fraction, a sympy Rational) is taken as it is.

    Parameters
    ----------
    text : str, int, float, fractions.Fraction or sympy.Rational
        The number.

    Returns
    -------
    fractions.Fraction
        The exact value.

    Raises
    ------
    NBLInputError
        A bool, NaN, an infinity, a number out of range or with too many digits, or text that
        is not a number.
    """
    if isinstance(text, bool):
        raise NBLInputError(f"expected a number, got {text!r}")
    if isinstance(text, Fraction):
        return text
    if is_sympy_rational(text):
        return Fraction(int(text.p), int(text.q))
    if isinstance(text, int):
        if text and not 10**-MAX_MAGNITUDE <= abs(text) <= 10**MAX_MAGNITUDE:
            raise range_error(f"(an integer of {text.bit_length()} bits)")
        return Fraction(text)
    if isinstance(text, float):
        text = repr(text)
    s = str(text).strip()
    if s.lower() in _NON_FINITE:
        raise NBLInputError(f"expected a finite number, got {s!r}")
    if len(s) > MAX_LENGTH:
        raise NBLInputError(f"number longer than {MAX_LENGTH} characters")
    if not s.isascii():
        raise NBLInputError(f"numbers are written with ASCII digits 0-9, got {short(s)!r}")
    plain = s.replace("_", "")
    frac = _FRACTION.fullmatch(plain)
    if frac:
        num, den = (decimal_fraction(g, s) for g in frac.groups())
        if den == 0:
            raise NBLInputError(f"division by zero in {s!r}")
        return check_rational(num / den, s, "number")
    return decimal_fraction(plain, s)


def number_value(text: str, name: str) -> float:
    """A value of the command line's one grammar (a decimal or a fraction ``p/q``, read exactly
    by :func:`exact_fraction`) as a float64, with a one-line error naming ``name``.

    Used wherever a spec carries a number (``--contexts student-t:nu=9/2``, ``--arms
    shift=1/10``), so every value position reads numbers the way ``--delta`` and ``--param``
    do (proofs_check/cli/grammar.py).

    Parameters
    ----------
    text : str
        The value as written.
    name : str
        What the value is, for the error message (e.g. ``"nu"``).

    Returns
    -------
    float
        The float64 nearest to the exact value.

    Raises
    ------
    NBLInputError
        Text that is not a decimal or a fraction.
    """
    try:
        return float(exact_fraction(str(text)))
    except NBLInputError as exc:
        raise NBLInputError(
            f"{name} must be a number (a decimal or a fraction p/q), got {text!r}: {exc}"
        ) from None
