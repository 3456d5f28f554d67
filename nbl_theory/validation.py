"""Input validators shared by every layer.

Each validator either returns the value in the type the caller computes with or raises a
one-line :class:`~nbl_theory.errors.NBLInputError` naming the condition that failed, so the
``nbl`` command can print it verbatim. They are the only place these checks are written.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from .errors import NBLInputError
from .link_type import LinkType
from .numbers import exact_fraction, is_sympy_rational

if TYPE_CHECKING:
    import sympy as sp

__all__ = [
    "check_link",
    "validate_delta",
    "delta_fraction",
    "delta_inside",
    "delta_value",
    "real",
    "positive",
    "positive_int",
    "dimension",
    "finite_array",
    "unit_vector",
]


def check_link(link) -> LinkType:
    """``link`` itself, after checking it is a link (:class:`~nbl_theory.links.Link`, or a
    :class:`~nbl_theory.float_families.FloatFamilyLink`, which has the Link's attributes).

    Parameters
    ----------
    link : object
        The value given as a link.

    Returns
    -------
    LinkType
        ``link`` itself.

    Raises
    ------
    NBLInputError
        ``link`` is not a Link.
    """
    if not isinstance(link, LinkType):
        raise NBLInputError(f"link must be an nbl_theory Link, got {type(link).__name__}")
    return link


def delta_inside(q) -> bool:
    """0 < Δ < 2 for the exact value ``q`` and for its float64 rounding, which every tier also
    evaluates at (1.9999999999999999 is 2.0 in float64).

    Parameters
    ----------
    q : fractions.Fraction or sympy.Rational
        The exact Δ.

    Returns
    -------
    bool
        Whether both ``q`` and ``float(q)`` lie strictly between 0 and 2.
    """
    return 0 < q < 2 and 0.0 < float(q) < 2.0


def delta_fraction(delta) -> Fraction:
    """Δ exactly, after checking 0 < Δ < 2 (also in float64) and finiteness; no sympy.

    Decimal strings are taken exactly (``"0.2"`` is 1/5); floats through their shortest repr;
    numpy scalars are accepted.

    Parameters
    ----------
    delta : int, float, str, fractions.Fraction, sympy.Rational or numpy scalar
        The separation Δ as given.

    Returns
    -------
    fractions.Fraction
        Δ exactly.

    Raises
    ------
    NBLInputError
        Not a number (:func:`nbl_theory.numbers.exact_fraction`), not finite, or Δ outside
        (0, 2) exactly or as a float64 number.
    """
    if isinstance(delta, (np.floating, np.integer)):
        delta = delta.item()
    if isinstance(delta, float) and not math.isfinite(delta):
        raise NBLInputError(f"delta must be a finite number in (0, 2), got {delta!r}")
    q = exact_fraction(delta)
    if not (0 < q < 2):
        raise NBLInputError(f"delta must lie in the open interval (0, 2), got {delta}")
    if not delta_inside(q):
        raise NBLInputError(
            f"delta must lie in (0, 2) also as a float64 number: {delta} rounds to {float(q)!r}"
        )
    return q


def validate_delta(delta) -> sp.Rational:
    """Return Δ as an exact sympy Rational after checking 0 < Δ < 2 and finiteness
    (:func:`delta_fraction`; a Rational given is returned as it is).

    Parameters
    ----------
    delta : int, float, str, sympy.Rational or numpy scalar
        The separation Δ as given.

    Returns
    -------
    sympy.Rational
        Δ exactly.

    Raises
    ------
    NBLInputError
        As :func:`delta_fraction`.
    """
    q = delta_fraction(delta)
    if is_sympy_rational(delta):
        return delta
    import sympy as sp

    return sp.Rational(q.numerator, q.denominator)


def delta_value(delta) -> tuple:
    """(the value as given, for :func:`~nbl_theory.stability.stability`; float Δ), validated.

    Numpy scalars become Python numbers; anything but a number or a decimal string is refused.

    Parameters
    ----------
    delta : int, float, str or sympy.Rational
        The separation Δ as given.

    Returns
    -------
    tuple
        ``(delta, float Δ)``: the value as given (numpy scalars made Python numbers) and its
        float.

    Raises
    ------
    NBLInputError
        Not a number or decimal string, or Δ outside (0, 2).
    """
    if isinstance(delta, (np.floating, np.integer)):
        delta = delta.item()
    if isinstance(delta, bool) or not (
        isinstance(delta, (int, float, str)) or is_sympy_rational(delta)
    ):
        raise NBLInputError(f"delta must be a number or a decimal string, got {delta!r}")
    return delta, float(validate_delta(delta))


def real(x, name: str) -> float:
    """A finite real number as float.

    Parameters
    ----------
    x : float
        The value given.
    name : str
        The argument's name, for the error message.

    Returns
    -------
    float
        ``x`` as a float.

    Raises
    ------
    NBLInputError
        A bool, not convertible to float, or not finite.
    """
    if isinstance(x, bool):
        raise NBLInputError(f"{name} must be a real number, got {x!r}")
    try:
        v = float(x)
    except (TypeError, ValueError, OverflowError) as exc:
        raise NBLInputError(f"{name} must be a real number, got {x!r}") from exc
    if not math.isfinite(v):
        raise NBLInputError(f"{name} must be finite, got {x!r}")
    return v


def positive(x, name: str) -> float:
    """A finite real number > 0 as float.

    Parameters
    ----------
    x : float
        The value given.
    name : str
        The argument's name, for the error message.

    Returns
    -------
    float
        ``x`` as a float.

    Raises
    ------
    NBLInputError
        Not a finite real number, or not > 0.
    """
    v = real(x, name)
    if v <= 0:
        raise NBLInputError(f"{name} must be > 0, got {x!r}")
    return v


def positive_int(x, name: str, minimum: int = 1) -> int:
    """An integer ≥ ``minimum`` (bools refused).

    Parameters
    ----------
    x : int
        The value given.
    name : str
        The argument's name, for the error message.
    minimum : int, default 1
        The smallest value allowed.

    Returns
    -------
    int
        ``x`` as a Python int.

    Raises
    ------
    NBLInputError
        Not an integer (a bool is not) or below ``minimum``.
    """
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < minimum:
        what = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise NBLInputError(f"{name} must be {what}, got {x!r}")
    return int(x)


def dimension(d) -> int:
    """The context dimension d, an integer ≥ 2.

    Parameters
    ----------
    d : int
        The dimension given.

    Returns
    -------
    int
        ``d`` as a Python int.

    Raises
    ------
    NBLInputError
        Not an integer (a bool is not) or below 2.
    """
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 2:
        raise NBLInputError(f"dimension d must be an integer >= 2, got {d!r}")
    return int(d)


def finite_array(x, name: str) -> np.ndarray:
    """A float array with no NaN or infinite entries.

    Parameters
    ----------
    x : array_like
        The values given.
    name : str
        The argument's name, for the error message.

    Returns
    -------
    numpy.ndarray
        ``x`` as a float array.

    Raises
    ------
    NBLInputError
        Not numeric, or a NaN or infinite entry.
    """
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise NBLInputError(f"{name} must be a real numeric array") from exc
    if not np.all(np.isfinite(arr)):
        raise NBLInputError(f"{name} contains NaN or infinite entries")
    return arr


def unit_vector(x, name: str, d: int | None = None) -> np.ndarray:
    """A nonzero 1-D vector (of length ``d`` when given), normalized.

    Parameters
    ----------
    x : array_like
        The vector given.
    name : str
        The argument's name, for the error message.
    d : int, optional
        The length required.

    Returns
    -------
    numpy.ndarray, shape (d,)
        ``x / ‖x‖``.

    Raises
    ------
    NBLInputError
        Not a finite 1-D vector (of length ``d``), or zero.
    """
    arr = finite_array(x, name)
    if arr.ndim != 1 or (d is not None and arr.shape != (d,)):
        want = f"have shape ({d},)" if d is not None else "be a 1-D vector"
        raise NBLInputError(f"{name} must {want}, got shape {arr.shape}")
    n = float(np.linalg.norm(arr))
    if n == 0:
        raise NBLInputError(f"{name} must be a non-zero vector")
    return arr / n
