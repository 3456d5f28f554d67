"""The audit's JSON package data (``proofs_check/audit/data/*.json``): reading and writing.

The tables the audit reads — the parsed paper index, the hand-curated hypothesis facts, alg:nbl's
steps and gaps, the notation findings — are data, not code: they live in JSON files shipped with
the package and are read with :mod:`importlib.resources`, so they load from an installed wheel as
well as from a source tree. The modules that expose them (:mod:`~proofs_check.audit.extracted`,
:mod:`~proofs_check.audit.hypotheses_data`, :mod:`~proofs_check.audit.algorithm`,
:mod:`~proofs_check.audit.notation`) build their frozen dataclasses with :func:`records`.

JSON has no tuple: :func:`frozen` turns every list into a tuple, the form the dataclasses hold
(and compare by). :func:`dumps` writes the one layout every data file has: objects and lists one
item per line (down to a given depth), a list of plain values on one line.
"""

from __future__ import annotations

import json
from dataclasses import fields
from importlib import resources

__all__ = ["DATA_DIR", "read_text", "read_json", "frozen", "records", "dumps"]

#: the folder of the data files, inside this package
DATA_DIR = "data"


def read_text(name: str) -> str:
    """The text of the packaged data file ``name`` (e.g. ``"hypotheses.json"``)."""
    return resources.files(__package__).joinpath(DATA_DIR, name).read_text(encoding="utf-8")


def read_json(name: str):
    """The parsed packaged data file ``name`` (lists stay lists; see :func:`frozen`)."""
    return json.loads(read_text(name))


def frozen(value):
    """``value`` with every list (at any depth) turned into a tuple; dicts keep their order."""
    if isinstance(value, list):
        return tuple(frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: frozen(v) for k, v in value.items()}
    return value


def records(cls, rows, **nested) -> tuple:
    """A tuple of ``cls`` instances, one per JSON object in ``rows``.

    Parameters
    ----------
    cls : dataclass type
        The record type; every key of a row must be one of its fields.
    rows : list of dict
        The JSON objects.
    **nested : dataclass type
        ``field=RecordType`` for fields that hold a list of records themselves.

    Returns
    -------
    tuple
        The records, lists inside them turned into tuples.
    """
    names = {f.name for f in fields(cls)}
    out = []
    for row in rows:
        extra = set(row) - names
        if extra:
            raise ValueError(f"{cls.__name__}: unknown fields {sorted(extra)} in {row}")
        kw = {k: records(nested[k], v) if k in nested else frozen(v) for k, v in row.items()}
        out.append(cls(**kw))
    return tuple(out)


def dumps(value, expand: int | None = None) -> str:
    """``value`` as JSON text with a final newline.

    Objects, and lists holding objects or lists, are written one item per line (one space of
    indent per level) down to depth ``expand`` (every depth if None); deeper values and lists of
    plain values (numbers, strings) stand on one line. Non-ASCII characters are kept.
    """
    return _dump(value, expand, 0) + "\n"


def _flat(value) -> bool:
    return isinstance(value, (list, tuple)) and not any(
        isinstance(v, (dict, list, tuple)) for v in value
    )


def _dump(value, expand, depth: int) -> str:
    if (
        not isinstance(value, (dict, list, tuple))
        or not value
        or _flat(value)
        or (expand is not None and depth >= expand)
    ):
        return json.dumps(value, ensure_ascii=False)
    pad = " " * (depth + 1)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {_dump(v, expand, depth + 1)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"
    items = [pad + _dump(v, expand, depth + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"
