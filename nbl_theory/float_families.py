"""The named families whose g is a closed-form float64 function, usable before their symbolic
form is built.

``nbl simulate --family logistic`` needs g in float64 and nothing else, yet building the
:class:`~nbl_theory.links.Link` of a family imports sympy and derives g', g'' (a third of a
second at start-up, more than the simulation of the command's default sizes). For the families
below, :func:`float_family_link` gives a :class:`FloatFamilyLink` instead: its ``g_numpy`` is the
function lambdify generates from the family's expression, written out here, and anything else
(derivatives, charts, mpmath values, ``params``) is the family's symbolic Link, built on first
use. ``tests/theory/test_float_families.py`` pins each function to the family's Link: the same
expression tree as lambdify's generated source, and the same bits on a grid and on random
points, overflow included.

Where a value overflows in float64 (exp at z = 710), the Link re-evaluates it in Arb
(:class:`nbl_theory.link_numeric.ExpressionFunction`); a FloatFamilyLink then hands the whole
call to its Link, so its values are the Link's everywhere, bit for bit.

The two-transition family is here at its defaults and with its own ``mu2`` (the position of
the second transition, the parameter of the paper's regimes; every other parameter at its
default): lambdify's source is then the same tree with the constant (7/5)·mu2, a Rational it
prints as ``p/q`` and Python divides correctly rounded — ``float(Fraction)``
(:func:`_two_transition_at`). Other parameters, and a ``mu2`` whose decimal label this module
does not print as the Link does (:func:`decimal_label`), go through the Link.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy import exp, sqrt, tanh

from .link_type import LinkType, float_like

__all__ = [
    "FLOAT_FAMILIES",
    "FLOAT_PARAMS",
    "FloatFamilyLink",
    "float_family_link",
    "decimal_label",
]


def erf(x):
    """scipy.special.erf, as lambdify_numpy binds it (imported on probit's first call)."""
    from scipy.special import erf as scipy_erf

    return scipy_erf(x)


# lambdify's generated source of each family's g at its defaults (nbl_theory.families), with
# the function names it prints bound to numpy's (scipy's erf)
def _logistic(z):
    return (1 + exp(-z)) ** (-1.0)


def _probit(z):
    return (1 / 2) * erf((1 / 2) * sqrt(2) * z) + 1 / 2


def _identity(z):
    return z


def _exp(z):
    return exp(z)


def _two_transition(z):
    return (1 / 4) * tanh((7 / 5) * z - 1876063 / 625000) + (1 / 10) * tanh(2 * z + 5 / 2) + 9 / 20


def _two_transition_at(c: float):
    """lambdify's source of two-transition's g with mu2 ≠ its default: the default's tree (above)
    with its constant (7/5)·mu2 = ``c``; x − c is x + (−c) bit for bit, and x − 0.0 is x, so
    the one tree serves every sign of mu2 (lambdify prints ``+ a`` and no term for them)."""

    def g(z):
        return (1 / 4) * tanh((7 / 5) * z - c) + (1 / 10) * tanh(2 * z + 5 / 2) + 9 / 20

    return g


#: family → the parameters its float64 g takes (each alone; the others at their defaults)
FLOAT_PARAMS = {"two-transition": ("mu2",)}
#: the largest |value| of such a parameter taken here (beyond, the Link)
_MAX_PARAM = Fraction(10**6)


def decimal_label(q: Fraction) -> str | None:
    """How a family's Link prints a parameter in its name (``nbl_theory.families._fmt``: an
    integer as such, else 15 significant digits), for a decimal of at most 15 significant digits
    with 1e-4 ≤ |q| < 1e6, where that is the decimal itself with no trailing zeros; None for
    any other value (the Link's name is then not written here).

    Parameters
    ----------
    q : fractions.Fraction
        The parameter's exact value.

    Returns
    -------
    str or None
        The label, or None.
    """
    if q.denominator == 1:
        return str(q.numerator) if abs(q) < _MAX_PARAM else None
    if not Fraction(1, 10**4) <= abs(q) < _MAX_PARAM:
        return None
    # |q| >= 1e-4 with at most 15 significant digits: at most 4 + 15 - 1 = 18 decimal places
    for k in range(1, 19):
        scaled = q * 10**k
        if scaled.denominator == 1:
            digits = str(abs(scaled.numerator)).rjust(k + 1, "0")
            if len(digits.lstrip("0")) > 15:
                return None
            text = f"{digits[:-k]}.{digits[-k:]}".rstrip("0").rstrip(".")
            return ("-" if q < 0 else "") + text
    return None


#: family → (its Link's ``name``, g in float64); the names are the Links' (a test checks)
FLOAT_FAMILIES = {
    "logistic": ("logistic", _logistic),
    "probit": ("probit", _probit),
    "identity": ("identity", _identity),
    "exp": ("exp", _exp),
    "two-transition": ("two-transition(mu2=2.144072)", _two_transition),
}


@dataclass(frozen=True, eq=False)
class FloatFamilyLink(LinkType):
    """The link of a family of :data:`FLOAT_FAMILIES` at its defaults, or with a parameter of
    :data:`FLOAT_PARAMS` (module docstring).

    Parameters
    ----------
    family : str
        A key of :data:`FLOAT_FAMILIES`.
    overrides : tuple of (str, fractions.Fraction), default ()
        At most one parameter of :data:`FLOAT_PARAMS` and its exact value (use
        :func:`float_family_link`, which checks them).
    """

    family: str
    overrides: tuple = ()
    kind = "expression"

    @property
    def name(self) -> str:
        """The family Link's name."""
        if not self.overrides:
            return FLOAT_FAMILIES[self.family][0]
        inner = ", ".join(f"{k}={decimal_label(v)}" for k, v in self.overrides)
        return f"{self.family}({inner})"

    @functools.cached_property
    def _g(self):
        if not self.overrides:
            return FLOAT_FAMILIES[self.family][1]
        ((_, mu2),) = self.overrides  # two-transition's mu2 (FLOAT_PARAMS)
        return _two_transition_at(float(Fraction(7, 5) * mu2))

    @property
    def family_name(self) -> str:
        """The family."""
        return self.family

    @functools.cached_property
    def symbolic(self):
        """The family's :class:`~nbl_theory.links.Link` (built on first use: sympy)."""
        from .families import make_family

        return make_family(
            self.family, **{k: f"{v.numerator}/{v.denominator}" for k, v in self.overrides}
        )

    def g_numpy(self, z):
        """g(z) in float64, the Link's bits (module docstring).

        Parameters
        ----------
        z : array_like
            Points of the index axis.

        Returns
        -------
        numpy.ndarray
            g(z), of the shape of ``z``.
        """
        z = np.asarray(z, dtype=float)
        with np.errstate(all="ignore"):
            out = np.asarray(self._g(z))
        if out.dtype.kind in "fiu" and np.all(np.isfinite(out)):
            return float_like(out, z)
        return self.symbolic.g_numpy(z)

    def __getattr__(self, attr):
        if attr.startswith("__") or attr in ("family", "overrides", "symbolic", "_g"):
            raise AttributeError(attr)
        return getattr(self.symbolic, attr)

    def __getstate__(self) -> dict:
        """The family and the source of its g (so that a cache key changes with g's
        definition); the Link is rebuilt where it is needed."""
        if not self.overrides:
            return {"family": self.family, "g": inspect.getsource(FLOAT_FAMILIES[self.family][1])}
        return {
            "family": self.family,
            "g": inspect.getsource(_two_transition_at),
            "overrides": {k: f"{v.numerator}/{v.denominator}" for k, v in self.overrides},
        }

    def __setstate__(self, state: dict) -> None:
        object.__setattr__(self, "family", state["family"])
        pairs = tuple((k, Fraction(v)) for k, v in state.get("overrides", {}).items())
        object.__setattr__(self, "overrides", pairs)

    def __repr__(self) -> str:  # pragma: no cover - cosmetic
        return f"FloatFamilyLink({self.family!r}, {self.overrides!r})"


def float_family_link(family: str, params: dict | None = None) -> FloatFamilyLink | None:
    """The :class:`FloatFamilyLink` of ``family`` at its defaults, or with ``params`` (one
    parameter of :data:`FLOAT_PARAMS`, its value a number as ``--param`` writes it), or None
    when it has none here (build its Link with :func:`nbl_theory.families.make_family`, which
    also gives any error of the value).

    Parameters
    ----------
    family : str
        A family name.
    params : dict, optional
        {name: value} (decimal strings, Fractions, ints).

    Returns
    -------
    FloatFamilyLink or None
        The link, or None for a family or a parameter outside this module, or a value it does
        not read or label as the Link does.
    """
    if family not in FLOAT_FAMILIES:
        return None
    if not params:
        return FloatFamilyLink(family)
    if len(params) != 1 or not set(params) <= set(FLOAT_PARAMS.get(family, ())):
        return None
    from .errors import NBLInputError
    from .numbers import exact_fraction

    ((key, text),) = params.items()
    try:
        value = exact_fraction(text)
    except NBLInputError:  # the Link's path words the refusal
        return None
    if decimal_label(value) is None:
        return None
    return FloatFamilyLink(family, ((key, value),))
