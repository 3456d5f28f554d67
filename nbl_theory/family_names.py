"""The names of the named link families, importable without sympy.

:mod:`nbl_theory.families` builds the families (sympy, at import); the ``nbl`` command lists
their names in a subcommand's ``--help``, which should not import sympy for it. A test keeps this
tuple equal to the keys of :data:`nbl_theory.families.FAMILIES`, in their order.
"""

from __future__ import annotations

__all__ = ["FAMILY_NAMES"]

#: the keys of :data:`nbl_theory.families.FAMILIES`, in its order
FAMILY_NAMES = (
    "two-transition",
    "weighted-entropy",
    "quadratic",
    "negative-entropy",
    "binary-negative-entropy",
    "burg-entropy",
    "logistic",
    "probit",
    "identity",
    "exp",
)
