"""Plain data: the values the cache stores, as JSON plus numeric arrays — never pickle.

"Plain data" is what sweep cells and figures return: ``None``, ``bool``, ``int``, ``float``
(NaN and ±inf included), ``str``, lists, tuples, dicts (keys: ``str``, or any of ``None``,
``bool``, ``int``, ``float``, numpy scalars and tuples of these), numpy arrays of a
boolean, numeric or fixed-width unicode dtype (``<U5``: a figure's text column) and numpy
scalars of those dtypes, nested in any way. :func:`encode`
splits such a value into a JSON-able tree and a list of arrays; :func:`decode` rebuilds it
exactly (same types — a tuple stays a tuple, an ``np.float64`` stays an ``np.float64`` — and
bit-identical floats) after checking the tree against this grammar. Anything else is refused:
at encoding with a ``TypeError`` naming the type and where it sits in the value (a cell that
returns such an object is a bug), at decoding with :class:`PlainDataError` (the cache treats
that as a miss).

The tree grammar (a node is one of):

* JSON ``null``, ``true``/``false``, an integer, a finite float, a string;
* a JSON array — a Python ``list`` of nodes;
* ``{"tuple": [node, ...]}``, ``{"dict": {str: node, ...}}`` (insertion order kept);
* ``{"items": [[key node, value node], ...]}`` — a dict with a key that is not a ``str``;
* ``{"float": "<16 hex digits>"}`` — a non-finite float by its IEEE-754 bits (JSON has no NaN);
* ``{"scalar": ["<dtype>", "<hex of the bytes>"]}`` — a numpy scalar (a ``str_`` by its text in
  UTF-32);
* ``{"array": i}`` — the ``i``-th array (each array is referenced exactly once).
"""

from __future__ import annotations

import math
import re
import struct

import numpy as np

__all__ = ["encode", "decode", "PlainDataError", "check_array", "ARRAY_KINDS"]

#: numpy dtype kinds a stored array or scalar may have: bool, signed/unsigned int, float,
#: complex, fixed-width unicode (none of them is pickled by ``np.save``)
ARRAY_KINDS = frozenset("biufcU")
_DTYPE = re.compile(r"[<>|=]?(?:[biufc][0-9]{1,2}|U[0-9]{1,6})")
_TAGS = frozenset({"tuple", "dict", "items", "float", "scalar", "array"})


class PlainDataError(ValueError):
    """A stored tree or array does not follow the plain-data grammar."""


# ---------------------------------------------------------------------- encoding
def encode(value) -> tuple[object, list[np.ndarray]]:
    """``(tree, arrays)`` for a plain-data ``value`` (see the module docstring).

    Parameters
    ----------
    value : object
        Plain data: None, bool, int, float, str, lists, tuples, dicts with str keys, numpy
        scalars and arrays (module docstring).

    Returns
    -------
    tree : object
        JSON data, arrays replaced by references.
    arrays : list of numpy.ndarray
        The arrays, in reference order.

    Raises
    ------
    TypeError
        ``value`` holds something other than plain data; the message names its type and its
        place in ``value`` (e.g. ``value['nbl'][4]``).
    """
    arrays: list[np.ndarray] = []
    return _encode(value, arrays, "value"), arrays


def _refuse(x, where: str, why: str = ""):
    t = type(x)
    raise TypeError(
        f"cannot store {t.__module__}.{t.__qualname__} at {where}{why}: cached "
        "results must be plain data (None, bool, int, float, str, list, tuple, "
        "dict, numpy arrays/scalars of bool, numeric or unicode dtype)"
    )


def _encode(x, arrays: list, where: str):
    t = type(x)
    if x is None or t is bool or t is str:
        return x
    if t is int:
        return x
    if t is float:
        return x if math.isfinite(x) else {"float": struct.pack(">d", x).hex()}
    if t is list:
        return [_encode(v, arrays, f"{where}[{i}]") for i, v in enumerate(x)]
    if t is tuple:
        return {"tuple": [_encode(v, arrays, f"{where}[{i}]") for i, v in enumerate(x)]}
    if t is dict:
        if all(type(k) is str for k in x):
            return {"dict": {k: _encode(v, arrays, f"{where}[{k!r}]") for k, v in x.items()}}
        for k in x:
            if not _is_key(k):
                _refuse(
                    k,
                    f"a key of {where}",
                    " (keys: str, None, bool, int, float, numpy scalars, tuples of these)",
                )
        return {
            "items": [
                [_encode(k, arrays, f"a key of {where}"), _encode(v, arrays, f"{where}[{k!r}]")]
                for k, v in x.items()
            ]
        }
    if t is np.ndarray:
        _check_dtype(x.dtype, x, where)
        arrays.append(x)
        return {"array": len(arrays) - 1}
    if isinstance(x, np.generic) and t is x.dtype.type:
        _check_dtype(x.dtype, x, where)
        raw = (
            str(x).encode(_utf32(x.dtype), "surrogatepass") if x.dtype.kind == "U" else x.tobytes()
        )
        return {"scalar": [x.dtype.str, raw.hex()]}
    _refuse(x, where)


def _is_key(k) -> bool:
    """A dict key plain data allows (hashable, and decoded as itself)."""
    if k is None or type(k) in (bool, int, float, str):
        return True
    if type(k) is tuple:
        return all(_is_key(v) for v in k)
    return isinstance(k, np.generic) and type(k) is k.dtype.type and k.dtype.kind in ARRAY_KINDS


def _utf32(dtype: np.dtype) -> str:
    return "utf-32-be" if dtype.str[0] == ">" else "utf-32-le"


def _check_dtype(dtype: np.dtype, x, where: str) -> None:
    if dtype.kind not in ARRAY_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        _refuse(x, where, f" (dtype {dtype} is not bool, numeric or unicode)")


# ---------------------------------------------------------------------- decoding
def check_array(a, dtype: str | None = None, shape=None) -> np.ndarray:
    """``a`` if it is a plain numpy array of a bool/numeric/unicode dtype (and the given ``dtype``
    string and ``shape``), else :class:`PlainDataError`.

    Parameters
    ----------
    a : object
        The value to check.
    dtype : str, optional
        The required ``dtype.str`` (e.g. ``"<f8"``).
    shape : sequence of int, optional
        The required shape.

    Returns
    -------
    numpy.ndarray
        ``a`` itself.

    Raises
    ------
    PlainDataError
        ``a`` is not such an array.
    """
    if type(a) is not np.ndarray:
        raise PlainDataError(f"expected an array, got {type(a).__name__}")
    if a.dtype.kind not in ARRAY_KINDS or a.dtype.fields is not None or a.dtype.hasobject:
        raise PlainDataError(f"array of dtype {a.dtype} is not bool, numeric or unicode")
    if dtype is not None and a.dtype.str != dtype:
        raise PlainDataError(f"array dtype {a.dtype.str} is not the declared {dtype}")
    if shape is not None and list(a.shape) != list(shape):
        raise PlainDataError(f"array shape {a.shape} is not the declared {tuple(shape)}")
    return a


def decode(tree, arrays: list[np.ndarray]):
    """The value :func:`encode` split into ``tree`` and ``arrays``.

    Parameters
    ----------
    tree : object
        The JSON part of :func:`encode`.
    arrays : list of numpy.ndarray
        The arrays it references by index.

    Returns
    -------
    object
        The value.

    Raises
    ------
    PlainDataError
        ``tree`` does not follow the grammar, an array is not bool/numeric/unicode, or an array is
        missing, referenced twice or not referenced at all.
    """
    for a in arrays:
        check_array(a)
    used: set[int] = set()
    try:
        value = _decode(tree, arrays, used)
    except RecursionError:
        raise PlainDataError("the stored value is nested too deeply") from None
    if len(used) != len(arrays):
        raise PlainDataError(f"{len(arrays) - len(used)} stored array(s) are not referenced")
    return value


def _decode(node, arrays: list, used: set):
    t = type(node)
    if node is None or t in (bool, str, int):
        return node
    if t is float:
        if not math.isfinite(node):
            raise PlainDataError("a non-finite float must be stored by its bits")
        return node
    if t is list:
        return [_decode(v, arrays, used) for v in node]
    if t is not dict or len(node) != 1:
        raise PlainDataError(f"unexpected node of type {t.__name__}")
    ((tag, body),) = node.items()
    if tag not in _TAGS:
        raise PlainDataError(f"unknown tag {tag[:40]!r}")
    if tag == "tuple":
        if type(body) is not list:
            raise PlainDataError("a tuple must hold a list")
        return tuple(_decode(v, arrays, used) for v in body)
    if tag == "dict":
        if type(body) is not dict:
            raise PlainDataError("a dict must hold an object")
        return {k: _decode(v, arrays, used) for k, v in body.items()}
    if tag == "items":
        if type(body) is not list:
            raise PlainDataError("items must hold a list")
        out = {}
        for item in body:
            if type(item) is not list or len(item) != 2:
                raise PlainDataError("an item must be [key, value]")
            k = _decode(item[0], arrays, used)
            if not _is_key(k) or k in out:
                raise PlainDataError("a dict key must be a plain scalar or tuple, once")
            out[k] = _decode(item[1], arrays, used)
        return out
    if tag == "float":
        if type(body) is not str or not re.fullmatch(r"[0-9a-f]{16}", body):
            raise PlainDataError("a float must be 16 hex digits")
        x = struct.unpack(">d", bytes.fromhex(body))[0]
        if math.isfinite(x):
            raise PlainDataError("a finite float must be stored as a JSON number")
        return x
    if tag == "scalar":
        if (
            type(body) is not list
            or len(body) != 2
            or type(body[0]) is not str
            or type(body[1]) is not str
            or not _DTYPE.fullmatch(body[0])
            or not re.fullmatch(r"(?:[0-9a-f]{2})*", body[1])
        ):
            raise PlainDataError("a scalar must be [dtype, hex bytes]")
        dtype = np.dtype(body[0])
        raw = bytes.fromhex(body[1])
        if dtype.kind == "U":  # by its text (numpy drops trailing NULs of str_ anyway)
            if len(raw) % 4:
                raise PlainDataError("a unicode scalar must be UTF-32")
            return np.str_(raw.decode(_utf32(dtype), "surrogatepass"))
        if dtype.kind not in ARRAY_KINDS or len(raw) != dtype.itemsize:
            raise PlainDataError(f"scalar bytes do not fit dtype {dtype}")
        return np.frombuffer(raw, dtype=dtype)[0]
    # tag == "array"
    if type(body) is not int or not 0 <= body < len(arrays) or body in used:
        raise PlainDataError(f"bad array reference {body!r}")
    used.add(body)
    return arrays[body]
