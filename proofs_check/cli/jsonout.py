"""The one JSON convention of ``nbl ... --json``.

Every subcommand prints one object on stdout::

    {"command": "stability",        the subcommand
     "version": "0.1.0",            the nbl version that wrote it
     "format": 1,                   the version of this convention (raised on a breaking change)
     "results": [ {...}, ... ],     always a list, also for a single row
     "files": ["out/phase.csv"]}    files written by this run ([] when none)

Numbers — one rule for every field of every subcommand (and the report, and mutation testing):

* **every quantity is a JSON number** (the float64 nearest to it): λ*, μ*, roots, brackets, Δ
  and parameter values, Monte Carlo means, timings;
* **where more digits exist, the exact decimal travels beside it as a string under the same
  name with the suffix ``_decimal``** (:data:`DECIMAL_SUFFIX`)::

      "lambda_star": 2.075535262192107e-05,
      "lambda_star_decimal": "2.0755352621921070176875120465514526259238e-5"

  A ``_decimal`` field is present exactly when the decimal is not the shortest repr of the
  float64 beside it (``"delta": 0.2`` has none; ``"delta": 0.3333333333333333`` for ``1/3``
  has ``"delta_decimal": "0.33333333333333333"``); for a list it is a list of the same
  length. Parse it with a decimal or arbitrary-precision reader, not as a float;
* a non-finite float is the string ``"inf"``, ``"-inf"`` or ``"nan"`` (JSON has no such
  numbers); ``null`` means "not applicable" (e.g. the angle when d > 2).

:func:`numbers` applies the rule to a whole result (the one writer, used by :func:`envelope`);
each field is stated in the subcommand's JSON Schema, shipped in the package
(``proofs_check/cli/schemas/<command>.json``, :func:`schema`), and the tests validate every
subcommand's output against it. Arrays with two axes say which is which in the schema and in
the row itself (``phase``: ``lambda_star[i][j]`` belongs to ``deltas[i]`` and ``values[j]``).
"""

from __future__ import annotations

import json
from importlib import resources

from nbl_theory.records import (
    DECIMAL_SUFFIX,
    FORMAT,
    TEXT_KEYS,
    envelope,
    numbers,
    plain,
    version,
)

__all__ = [
    "FORMAT",
    "DECIMAL_SUFFIX",
    "TEXT_KEYS",
    "envelope",
    "dumps",
    "print_json",
    "schema",
    "plain",
    "numbers",
    "version",
]


def dumps(payload) -> str:
    """The JSON text of ``payload`` (strict JSON: no NaN or Infinity tokens).

    Parameters
    ----------
    payload : object
        Data made plain by :func:`nbl_theory.records.plain`.

    Returns
    -------
    str
        Indented JSON text.
    """
    return json.dumps(plain(payload), indent=2, allow_nan=False, ensure_ascii=False)


def print_json(command: str, results, files=(), **extra) -> None:
    """Print the envelope of ``results`` on stdout (``extra``: fields beside the results).

    Parameters
    ----------
    command : str
        The subcommand, e.g. ``"stability"``.
    results : iterable
        The results.
    files : iterable, default ()
        The paths of the files written.
    **extra
        Further top-level fields.
    """
    print(dumps(envelope(command, results, files, **extra)))


def schema(command: str) -> dict:
    """The JSON Schema of ``nbl COMMAND --json`` (shipped as package data).

    Parameters
    ----------
    command : str
        The subcommand, e.g. ``"stability"``.

    Returns
    -------
    dict
        The schema.
    """
    text = resources.files(__package__).joinpath("schemas", f"{command}.json").read_text()
    return json.loads(text)
