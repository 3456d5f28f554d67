"""The one result family and the one number convention of everything the toolkit returns.

Every result a user gets back in Python — :class:`~nbl_theory.results.StabilityResult`
(:func:`nbl_theory.stability.stability`), the rows of :func:`nbl_sim.beyond.exact_stability`,
the grids of :func:`nbl_theory.stability.stability_grid` — is a :class:`Result`:

* ``.to_dict()`` — plain JSON data under the one number convention (:func:`numbers`), the same
  text ``nbl ... --json`` prints for that row;
* ``.to_frame()`` — a :class:`pandas.DataFrame` (pandas is optional: it is imported inside, and
  its absence is one line, :class:`MissingPandas`).

The number convention (also stated in every JSON Schema of ``proofs_check/cli/schemas``):
every quantity is a JSON number (the float64 nearest to it); where more digits exist, the exact
decimal travels beside it as a string under the same name with the suffix ``_decimal``
(``"lambda_star": 2.075535262192107e-05, "lambda_star_decimal":
"2.0755352621921070176875120465514526259238e-5"``); a non-finite float is the string
``"inf"``, ``"-inf"`` or ``"nan"``; ``null`` means not applicable.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

__all__ = [
    "Result",
    "ResultRow",
    "ResultList",
    "MissingPandas",
    "numbers",
    "plain",
    "DECIMAL_SUFFIX",
    "TEXT_KEYS",
    "frame",
    "FORMAT",
    "envelope",
    "version",
    "manifest_text",
]

#: The version of the JSON convention, the envelope's ``"format"`` (raised on a breaking change;
#: 2: every quantity a JSON number, its exact decimal beside it under ``<name>_decimal``).
FORMAT = 2

#: The suffix of the field that carries a quantity's exact decimal.
DECIMAL_SUFFIX = "_decimal"
#: Fields that are text even when they look like a number (a version, a spec, a link's name).
TEXT_KEYS = frozenset(
    {
        "version",
        "command",
        "run_id",
        "link",
        "description",
        "spec",
        "contexts",
        "arms",
        "id",
        "label",
        "name",
        "text",
        "statement",
        "family",
        "tier",
        "notes",
        "claim",
        "policy",
        "figure",
        "path",
        "file",
        "files",
        "executor",
        "mode",
        "status",
        "paper_label",
        "method",
        "paper_value",
        "computed",
        "reason",
        "tolerance",
        "evidence",
        "consequence",
        "covers",
        "section",
        "defect",
        "baseline",
        "R_closed_form",
        "closed_form",
    }
)
_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_DECIMAL = re.compile(_NUM)
_FRACTION = re.compile(f"({_NUM})/({_NUM})")


def version() -> str:
    """The installed nbl version ("unknown" in a source tree without metadata).

    Returns
    -------
    str
        The version of the ``nbl`` distribution, or ``"unknown"``.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nbl")
    except PackageNotFoundError:  # pragma: no cover - a source tree without metadata
        return "unknown"


def envelope(command: str, results, files=(), **extra) -> dict:
    """The one top-level object of every JSON the toolkit writes (``nbl ... --json``, the
    report ``verification.json``, ``python -m proofs_check.mutation --json``, manifests)::

        {"command": ..., "version": ..., "format": FORMAT, **extra,
         "results": [...], "files": [...]}

    with the results (and ``extra``, e.g. the report's ``mode`` and ``counts``) under the one
    number rule (:func:`numbers`).

    Parameters
    ----------
    command : str
        What wrote the JSON, e.g. ``"nbl stability"``.
    results : iterable
        The results (each under :func:`numbers`).
    files : iterable, default ()
        The paths of the files written.
    **extra
        Further top-level keys (e.g. ``mode``, ``counts``).

    Returns
    -------
    dict
        The envelope.
    """
    return {
        "command": command,
        "version": version(),
        "format": FORMAT,
        **numbers(extra),
        "results": [numbers(r) for r in results],
        "files": [str(f) for f in files],
    }


def manifest_text(command: str, results, files=(), **extra) -> str:
    """The one writer of manifests (``nbl simulate --out``'s ``manifest.json``, each figure's
    ``<id>.json`` of ``nbl reproduce``): the JSON text of :func:`envelope`, strict (no NaN
    tokens), with a final newline.

    Parameters
    ----------
    command : str
        What wrote the manifest.
    results : iterable
        The results.
    files : iterable, default ()
        The paths of the files written.
    **extra
        Further top-level keys.

    Returns
    -------
    str
        Indented JSON text ending in a newline.
    """
    import json

    return (
        json.dumps(
            envelope(command, results, files, **extra),
            indent=2,
            ensure_ascii=False,
            allow_nan=False,
        )
        + "\n"
    )


class MissingPandas(ImportError):
    """``to_frame()`` without pandas installed (one line: what to install)."""


def plain(x):
    """``x`` with numpy scalars/arrays, mpmath numbers, tuples and paths made plain JSON, and
    non-finite floats written as ``"inf"``, ``"-inf"``, ``"nan"``.

    Parameters
    ----------
    x : object
        Results, dicts, lists, tuples, numbers (numpy, mpmath), paths or strings.

    Returns
    -------
    object
        Plain JSON data (dicts, lists, str, int, float, bool, None).
    """
    if isinstance(x, Result):
        return x.to_dict()
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if x is None or isinstance(x, (bool, str, int)):
        return x
    if isinstance(x, float):
        if math.isfinite(x):
            return x
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, Path):
        return str(x)
    tolist = getattr(x, "tolist", None)  # numpy scalars and arrays
    if tolist is not None:
        return plain(tolist())
    if type(x).__module__.startswith("mpmath"):  # an mpf: every digit it carries
        import mpmath

        return mpmath.nstr(x, max(1, int(x.context.dps)), min_fixed=1, max_fixed=0)
    return str(x)


def _decimal(text: str):
    """(float, exact decimal text or None) of a numeric string (a decimal or a fraction p/q),
    or None when it is not one."""
    from decimal import Decimal

    t = text.strip()
    if _DECIMAL.fullmatch(t):
        dec, exact_text = Decimal(t), t
    elif _FRACTION.fullmatch(t):
        from decimal import Context, Inexact
        from fractions import Fraction

        m = _FRACTION.fullmatch(t)
        ends = (Decimal(m.group(1)), Decimal(m.group(2)))
        if any(abs(e.adjusted()) > 400 for e in ends if e):  # no giant integers from text
            return None
        num, den = Fraction(ends[0]), Fraction(ends[1])
        if den == 0:
            return None
        q = num / den
        exact = Context(prec=30)  # the grammar's rule: exact when it terminates
        dec = exact.divide(Decimal(q.numerator), Decimal(q.denominator))
        if exact.flags[Inexact]:  # within 30 digits, else 17 significant digits
            dec = Context(prec=17).divide(Decimal(q.numerator), Decimal(q.denominator))
        exact_text = str(dec)
    else:
        return None
    x = float(dec)
    if not math.isfinite(x):
        return None
    return x, (None if Decimal(repr(x)) == dec else exact_text)


def _exact_text(v):
    if isinstance(v, list):
        return [_exact_text(x) for x in v]
    return repr(v) if isinstance(v, float) else v


def _split(value):
    """(the value under the number rule, its ``_decimal`` companion or None)."""
    if isinstance(value, str):
        got = _decimal(value)
        return (value, None) if got is None else got
    if isinstance(value, dict):
        return numbers(value), None
    if isinstance(value, list):
        parts = [_split(v) for v in value]
        vals = [p[0] for p in parts]
        if any(p[1] is not None for p in parts):
            return vals, [
                p[1] if p[1] is not None else orig if isinstance(orig, str) else _exact_text(p[0])
                for p, orig in zip(parts, value)
            ]
        return vals, None
    return value, None


def numbers(x):
    """``x`` as plain JSON data (:func:`plain`) under the one number rule: every numeric
    string becomes a JSON number, with its exact decimal beside it under ``<name>_decimal``
    where it has more digits than the float (module docstring); fields of :data:`TEXT_KEYS`
    stay text. Applying it twice changes nothing.

    Parameters
    ----------
    x : object
        Results, dicts, lists, numbers or strings.

    Returns
    -------
    object
        Plain JSON data.
    """
    x = plain(x)
    if isinstance(x, list):
        return [numbers(v) for v in x]
    if not isinstance(x, dict):
        return x
    out = {}
    for k, v in x.items():
        if k in TEXT_KEYS or k.endswith(DECIMAL_SUFFIX):
            out[k] = v
            continue
        val, dec = _split(v)
        out[k] = val
        if dec is not None and k + DECIMAL_SUFFIX not in x:
            out[k + DECIMAL_SUFFIX] = dec
    return out


def _flat(d: dict, skip=()) -> dict:
    """One table row: nested dicts flattened to ``outer.inner``; lists of dicts dropped."""
    out = {}
    for k, v in d.items():
        if k in skip:
            continue
        if isinstance(v, dict):
            for kk, vv in _flat(v).items():
                out[f"{k}.{kk}"] = vv
        elif isinstance(v, list) and any(isinstance(e, (dict, list)) for e in v):
            continue
        else:
            out[k] = v
    return out


def frame(results):
    """A :class:`pandas.DataFrame` with one row per result (its :meth:`Result.to_dict`,
    flattened; the ``_decimal`` strings as columns of their own).

    Parameters
    ----------
    results : iterable
        Results (:class:`Result`) or plain data.

    Returns
    -------
    pandas.DataFrame
        One row per result (a :class:`ResultList` gives one per element).

    Raises
    ------
    MissingPandas
        pandas is not installed.
    """
    try:
        import pandas as pd
    except ImportError:
        raise MissingPandas("to_frame() needs pandas: pip install pandas") from None
    rows = []
    for r in results:
        rows.extend(r.frame_rows() if isinstance(r, Result) else [_flat(numbers(r))])
    return pd.DataFrame(rows)


class Result:
    """The family of results: :meth:`to_dict` (JSON data, the one number convention) and
    :meth:`to_frame` (a DataFrame, pandas optional)."""

    #: keys left out of :meth:`to_frame` (nested analyses that are not one row's cells)
    FRAME_SKIP: tuple = ()

    def to_dict(self) -> dict:  # pragma: no cover - every subclass defines it
        """The result as plain JSON data under the one number rule (each subclass defines it).

        Returns
        -------
        dict
            The result's fields.
        """
        raise NotImplementedError

    def frame_rows(self) -> list:
        """The rows this result contributes to a DataFrame (one, for a single result).

        Returns
        -------
        list of dict
            Flattened rows (nested keys joined with ``.``), without the keys of ``FRAME_SKIP``.
        """
        return [_flat(self.to_dict(), self.FRAME_SKIP)]

    def to_frame(self):
        """A :class:`pandas.DataFrame` of this result (:func:`frame`).

        Returns
        -------
        pandas.DataFrame
            One row per result.

        Raises
        ------
        MissingPandas
            pandas is not installed.
        """
        return frame([self])


class ResultRow(dict, Result):
    """A result that is a dict (``row["lambda_star"]``, as the JSON row it prints) and a
    :class:`Result`."""

    FRAME_SKIP = ("analysis", "equilibria")

    def to_dict(self) -> dict:
        """The row as plain JSON data under the one number rule.

        Returns
        -------
        dict
            The row's keys and values.
        """
        return numbers(dict(self))


class ResultList(list, Result):
    """A list of results that is itself a result: :meth:`to_dict` gives ``{"results": [...]}``
    and :meth:`to_frame` one row per element.

    Parameters
    ----------
    iterable : iterable, default ()
        The elements (results, or anything :func:`numbers` accepts), as for :class:`list`.
    """

    def to_dict(self) -> dict:
        """The elements as plain JSON data.

        Returns
        -------
        dict
            ``{"results": [...]}``, one entry per element under the one number rule.
        """
        return {"results": [numbers(r) for r in self]}

    def frame_rows(self) -> list:
        """The rows of every element, in order.

        Returns
        -------
        list of dict
            Flattened rows (nested keys joined with ``.``), without the keys of ``FRAME_SKIP``.
        """
        out = []
        for r in self:
            out.extend(r.frame_rows() if isinstance(r, Result) else [_flat(numbers(r))])
        return out
