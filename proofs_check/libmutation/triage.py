"""The triage of library mutants that no claim and no test kills: why each survivor is left as
it is, kept as data (``data/triage.json``) so that every run's report states the reason beside
the mutant, not only in the notes of the session that looked at it (issue 34: "every survivor
listed with its reason, or a new check that kills it").

An entry names a mutant by what does not move when other lines of its module change — the
module, the stripped source line, the operator and the text before and after (``"*"`` for all
three: every mutant of the line, e.g. a work estimate that only sizes blocks) — and gives its
class (:data:`CLASSES`), the reason, and the commit it was triaged at. A mutant killed since by
a new check has no entry (it is no longer a survivor); an entry whose line changed no longer
matches any generated mutant and is reported stale by
``tests/proofs_check/test_libmutation.py`` until it is re-triaged or removed.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

__all__ = ["CLASSES", "PATH", "entries", "key_of", "lookup", "stale"]

PATH = Path(__file__).resolve().parent / "data" / "triage.json"

#: class -> what it means (the report's legend)
CLASSES = {
    "equivalent": "the same computation whatever the input (e.g. index 1 → −1 on a pair)",
    "equivalent-by-contract": "changes only what the reproducibility contract makes "
    "irrelevant (chunking, block size, executor): the numbers are the same, a test pins that",
    "equivalent-on-inputs": "differs only on inputs no configured link or setting reaches "
    "(measured or argued in the reason)",
    "tuning": "a constant of a numerical method (panels, guard bits, iteration caps) whose "
    "result stays within its stated accuracy",
    "settings": "a setting of a study's design that its claims read from the full run",
    "display": "how a value is written, not the value",
    "untested-bound": "a refusal bound no test probes exactly (left open)",
    "hangs": "the mutant never returns on the inputs that reach it (an infinite loop): every "
    "run that reaches it hangs, which no user misses; the harness counts a timeout as not "
    "killed",
    "untested-branch": "a branch no configured input takes (left open)",
}


def key_of(rec: dict) -> tuple:
    """The stable name of a mutant record (module, stripped line, operator, before, after)."""
    module = rec.get("module") or rec["id"].split(":", 1)[0]
    return (module, rec["line_text"].strip(), rec["operator"], rec["before"], rec["after"])


@cache
def entries() -> dict:
    """{key: entry} of the triage file (``class``, ``reason``, ``triaged_at``)."""
    data = json.loads(PATH.read_text(encoding="utf-8"))
    return {key_of(e): e for e in data}


def lookup(rec: dict) -> dict | None:
    """The triage entry of a mutant record — its own, else its line's (an entry with operator,
    before and after ``"*"`` covers every mutant of the line) — or None when it has not been
    triaged."""
    k = key_of(rec)
    return entries().get(k) or entries().get((*k[:2], "*", "*", "*"))


def stale(current_keys) -> list:
    """The entries that match no key among ``current_keys`` (the generated mutants' keys)."""
    have = set(current_keys)
    lines = {k[:2] for k in have}
    return [
        e
        for k, e in entries().items()
        if k not in have and not (k[2:] == ("*", "*", "*") and k[:2] in lines)
    ]
