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

The two-transition family is here at its defaults only (``make_family("two-transition")``);
parameters go through the Link.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass

import numpy as np
from numpy import exp, sqrt, tanh

from .link_type import LinkType, float_like

__all__ = ["FLOAT_FAMILIES", "FloatFamilyLink", "float_family_link"]


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
    """The link of a family of :data:`FLOAT_FAMILIES` at its defaults (module docstring).

    Parameters
    ----------
    family : str
        A key of :data:`FLOAT_FAMILIES`.
    """

    family: str
    kind = "expression"

    @property
    def name(self) -> str:
        """The family Link's name."""
        return FLOAT_FAMILIES[self.family][0]

    @property
    def family_name(self) -> str:
        """The family."""
        return self.family

    @functools.cached_property
    def symbolic(self):
        """The family's :class:`~nbl_theory.links.Link` (built on first use: sympy)."""
        from .families import make_family

        return make_family(self.family)

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
            out = np.asarray(FLOAT_FAMILIES[self.family][1](z))
        if out.dtype.kind in "fiu" and np.all(np.isfinite(out)):
            return float_like(out, z)
        return self.symbolic.g_numpy(z)

    def __getattr__(self, attr):
        if attr.startswith("__") or attr in ("family", "symbolic"):
            raise AttributeError(attr)
        return getattr(self.symbolic, attr)

    def __getstate__(self) -> dict:
        """The family and the source of its g (so that a cache key changes with g's
        definition); the Link is rebuilt where it is needed."""
        return {"family": self.family, "g": inspect.getsource(FLOAT_FAMILIES[self.family][1])}

    def __setstate__(self, state: dict) -> None:
        object.__setattr__(self, "family", state["family"])

    def __repr__(self) -> str:  # pragma: no cover - cosmetic
        return f"FloatFamilyLink({self.family!r})"


def float_family_link(family: str) -> FloatFamilyLink | None:
    """The :class:`FloatFamilyLink` of ``family`` at its defaults, or None when the family has
    none (build its Link with :func:`nbl_theory.families.make_family`).

    Parameters
    ----------
    family : str
        A family name.

    Returns
    -------
    FloatFamilyLink or None
        The link, or None for a family outside :data:`FLOAT_FAMILIES`.
    """
    return FloatFamilyLink(family) if family in FLOAT_FAMILIES else None
