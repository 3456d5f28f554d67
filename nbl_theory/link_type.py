"""What every link of nbl is, importable without sympy.

:class:`LinkType` is the base of :class:`nbl_theory.links.Link` (symbolic: exact derivatives,
sympy) and of :class:`nbl_theory.float_families.FloatFamilyLink` (a named family known by its
float64 g, whose symbolic form is built on first need). Layers that only evaluate g — the
simulation's draw, the command's checks — test ``isinstance(link, LinkType)`` and never import
sympy for it.

Also here: :func:`float_like`, the float64 array a link's ``g_numpy`` returns (one recipe for
both kinds).
"""

from __future__ import annotations

import abc

import numpy as np

__all__ = ["LinkType", "float_like"]


class LinkType(abc.ABC):  # noqa: B024 - a marker base: its interface is documented, not abstract
    """A strictly increasing shared link g of eq:model.

    Every link has ``name`` (str), ``kind`` ("expression" or "potential"), ``family_name``
    (str or None) and ``g_numpy(z)`` (float64 values of g, of the shape of ``z``); a
    :class:`nbl_theory.links.Link` has everything else (derivatives, charts, mpmath values).
    """


def float_like(values, like: np.ndarray) -> np.ndarray:
    """``values`` as a float64 array of ``like``'s shape: ``values · ones_like(like)`` (which
    broadcasts a constant and copies an input returned as is), skipping that extra pass when
    ``values`` already is a fresh float64 array of the shape — the same numbers, as x·1 = x
    exactly.

    Parameters
    ----------
    values : array_like
        The values (a constant, or an array of ``like``'s shape).
    like : numpy.ndarray
        The points the values belong to.

    Returns
    -------
    numpy.ndarray
        A float64 array of ``like``'s shape that does not share memory with ``like``.
    """
    arr = np.asarray(values, dtype=float)
    if arr.shape == like.shape and not np.may_share_memory(arr, like):
        return arr
    return arr * np.ones_like(like)
