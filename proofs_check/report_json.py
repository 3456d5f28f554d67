"""The claim records of a verification report: ``verification.json`` is the toolkit's one JSON
envelope (``command``, ``version``, ``format``, ``mode``, ``counts``, ``results``, ``files``;
:func:`proofs_check.report.report_json`) whose ``results`` are these records, one per claim in
registration order, each with exactly the keys :data:`RECORD_KEYS`:

============  ==========================================================================
key           value
============  ==========================================================================
id            the claim id (str)
label         the paper's ``\\label`` the claim checks (str)
statement     the paper's statement, in words (str)
method        how it is checked (one of :data:`proofs_check.registry.METHODS`)
tolerance     the tolerance and why, ``"<tolerance> (<why>)"`` (str)
paper_value   what the paper prints (str or null)
computed      what the toolkit computed (str or null)
status        PASS / CAVEAT / DISCREPANCY / FAIL / SKIPPED
reason        how it was computed, why it disagrees, why it was skipped (str)
seconds       run time of the check (float, 4 decimals)
consequence   for a finding: statement / number / experiment / presentation (else null)
figure        the ``nbl reproduce`` figure id (or a file) that shows the evidence (or null)
evidence      {covered label: its evidence line} (object; empty when the claim covers none)
covers        the further labels the check verifies (list of str)
section       the paper section or appendix label the claim belongs to (str)
============  ==========================================================================
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["RECORD_KEYS", "record", "load_records", "report_text"]

#: The keys of a claim record in verification.json, in order (see the module docstring).
RECORD_KEYS = (
    "id",
    "label",
    "statement",
    "method",
    "tolerance",
    "paper_value",
    "computed",
    "status",
    "reason",
    "seconds",
    "consequence",
    "figure",
    "evidence",
    "covers",
    "section",
)


def record(r) -> dict:
    """One claim as a JSON record with exactly :data:`RECORD_KEYS` (module docstring).

    Parameters
    ----------
    r : ClaimResult
        A claim's result.

    Returns
    -------
    dict
        The record.
    """
    return {
        "id": r.id,
        "label": r.label,
        "statement": r.statement,
        "method": r.method,
        "tolerance": f"{r.tolerance} ({r.tolerance_why})",
        "paper_value": r.printed,
        "computed": r.computed,
        "status": r.status,
        "reason": r.detail,
        "seconds": round(r.seconds, 4),
        "consequence": getattr(r, "consequence", None),
        "figure": getattr(r, "figure", None),
        "evidence": {str(k): str(v) for k, v in (getattr(r, "evidence", None) or {}).items()},
        "covers": list(getattr(r, "covers", ())),
        "section": r.section,
    }


def report_text(records, mode: str, counts: dict, files=()) -> str:
    """The text of ``verification.json``: the toolkit's one JSON envelope
    (:func:`nbl_theory.records.envelope`, command ``check``) with the run's ``mode``
    (``quick`` or ``full``) and ``counts`` (claims per status) beside the claim ``records``;
    schema ``proofs_check/cli/schemas/check.json``.

    Parameters
    ----------
    records : list of dict
        The claim records (:func:`record`).
    mode : {"quick", "full"}
        The run's mode.
    counts : dict
        Claims per status.
    files : iterable, default ()
        The paths of the files written.

    Returns
    -------
    str
        Indented JSON text ending in a newline.
    """
    from nbl_theory.records import envelope

    payload = envelope("check", records, files, mode=mode, counts=counts)
    return json.dumps(payload, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def load_records(path) -> list[dict]:
    """The records of a ``verification.json`` (e.g. a previous full run, for ``previous``).

    Parameters
    ----------
    path : str or pathlib.Path
        A ``verification.json`` (the envelope, or a bare list of records).

    Returns
    -------
    list of dict
        The claim records.

    Raises
    ------
    ValueError
        The file is not a verification.json.
    """
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict) and data.get("command") == "check":
        data = data.get("results")
    if not isinstance(data, list) or not all(isinstance(d, dict) and "id" in d for d in data):
        raise ValueError(f"{path}: not a verification.json (an envelope of claim records)")
    return data
