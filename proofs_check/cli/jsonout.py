"""The one JSON convention of ``nbl ... --json``.

Every subcommand prints one object on stdout::

    {"command": "stability",        the subcommand
     "version": "0.1.0",            the nbl version that wrote it
     "format": 1,                   the version of this convention (raised on a breaking change)
     "results": [ {...}, ... ],     always a list, also for a single row
     "files": ["out/phase.csv"]}    files written by this run ([] when none)

Numbers:

* quantities that can carry more digits than a double — everything ``stability`` and
  ``threshold`` compute (λ*, μ*, roots and their brackets), Δ and parameter values — are
  **decimal strings** (``"2.0755352621921070176875120465514526259238e-5"``), so no digit is
  lost to a JSON parser's float; grid values are the user's text or the exact grid point, never
  float noise (:mod:`.grammar`);
* quantities computed in float64 (Monte Carlo means and standard errors, the float tier of a
  phase diagram, the self-concordance constant, timings) are **JSON numbers**; a non-finite
  float is the string ``"inf"``, ``"-inf"`` or ``"nan"`` (JSON has no such numbers);
* ``null`` means "not applicable" (e.g. the angle when d > 2, λ* when no Δ was given).

Each field's choice is stated in the subcommand's JSON Schema, shipped in the package
(``proofs_check/cli/schemas/<command>.json``, :func:`schema`), and the tests validate every
subcommand's output against it. Arrays with two axes say which is which in the schema and in
the row itself (``phase``: ``lambda_star[i][j]`` belongs to ``deltas[i]`` and ``values[j]``).
"""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

__all__ = ["FORMAT", "envelope", "dumps", "print_json", "schema", "plain", "version"]

#: The version of this JSON convention, the envelope's ``"format"`` (raised on a breaking change).
FORMAT = 1


def version() -> str:
    """The installed nbl version ("unknown" in a source tree without metadata)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nbl")
    except PackageNotFoundError:  # pragma: no cover - a source tree without metadata
        return "unknown"


def envelope(command: str, results, files=(), run_id: str | None = None) -> dict:
    """The top-level object (see the module docstring); ``run_id`` (the id of the run whose
    ``--out`` files the object lists, :func:`nbl_sim.outputs.output_set`) only when given."""
    out = {"command": command, "version": version(), "format": FORMAT,
           "results": list(results), "files": [str(f) for f in files]}
    if run_id is not None:
        out["run_id"] = run_id
    return out


def plain(x):
    """``x`` with numpy scalars/arrays, tuples and paths made plain JSON, and non-finite floats
    written as ``"inf"``, ``"-inf"``, ``"nan"``."""
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        if math.isfinite(x):
            return x
        return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, Path):
        return str(x)
    tolist = getattr(x, "tolist", None)         # numpy scalars and arrays
    if tolist is not None:
        return plain(tolist())
    return str(x)


def dumps(payload) -> str:
    """The JSON text of ``payload`` (strict JSON: no NaN or Infinity tokens)."""
    return json.dumps(plain(payload), indent=2, allow_nan=False, ensure_ascii=False)


def print_json(command: str, results, files=()) -> None:
    """Print the envelope of ``results`` on stdout."""
    print(dumps(envelope(command, results, files)))


def schema(command: str) -> dict:
    """The JSON Schema of ``nbl COMMAND --json`` (shipped as package data)."""
    text = resources.files(__package__).joinpath("schemas", f"{command}.json").read_text()
    return json.loads(text)
