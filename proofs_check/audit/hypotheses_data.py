r"""Hand-curated facts about the paper's hypotheses that the LaTeX parser cannot see.

The tables are data: they live in the package data file ``proofs_check/audit/data/hypotheses.json``
(one JSON object per entry, its keys the fields of the record types below) and are loaded here
into frozen dataclasses. Edit the JSON; the names of this module stay the interface.

Every entry carries the paper's line number and a quote: the exact words, a substring of that
one line of ``nbl-paper.tex`` (``tests/proofs_check/test_audit.py`` checks each quote against the
paper). What the parser does see — the ``\ref{assum:...}`` inside statements and proofs and the
labels a proof cites — lives in :mod:`proofs_check.audit.extracted`.

Hypothesis ids: the paper's assumption labels (``assum:...``), conditions on the step size and
the initialization length (``cond:...``, not labelled in the paper) and the standing
assumptions of sec:setup (``std:...``; in force throughout, so using them is never a finding).

A *use* is ``certain`` when the quoted words invoke the hypothesis (or a result that states it)
and the argument needs it as written; otherwise it is only *plausible* (the argument would need
it, but the paper never points at it) and is listed without making a finding.
"""

from __future__ import annotations

from dataclasses import dataclass

from .packaged import frozen, read_json, records

__all__ = [
    "Hypothesis",
    "Use",
    "Cite",
    "Note",
    "HYPOTHESES",
    "LABEL_CONDITIONS",
    "STATED_CONDITIONS",
    "STATED_BY_REFERENCE",
    "DIRECT_USES",
    "EXTRA_CITATIONS",
    "TEXT_DERIVATIONS",
    "DEFINITIONS",
    "DISCHARGES",
    "NOTES",
    "MITIGATIONS",
    "NO_PROOF",
]


@dataclass(frozen=True)
class Hypothesis:
    """An assumption, a condition or a standing assumption of the paper."""

    id: str
    kind: str  # "assumption" / "condition" / "standing"
    text: str  # what it assumes, in words
    line: int  # where the paper states it (or first uses it, if it never states it)
    quote: str
    implied_by: tuple = ()  # hypotheses that imply it (with the standing n0 >= 1)


@dataclass(frozen=True)
class Use:
    """A result whose proof (or stated hypotheses) relies on ``hyp`` at ``line``."""

    result: str
    hyp: str
    line: int
    quote: str
    why: str
    certain: bool = True


@dataclass(frozen=True)
class Cite:
    """``source`` relies on ``target`` (a label or a hypothesis id) at ``line``."""

    source: str
    target: str
    line: int
    quote: str
    why: str = ""


@dataclass(frozen=True)
class Note:
    """A remark on a result's hypotheses that is *not* a finding (with the reason)."""

    result: str
    line: int
    quote: str
    text: str


_DATA = read_json("hypotheses.json")

#: hypothesis id -> :class:`Hypothesis`: the assumptions, conditions and standing assumptions
HYPOTHESES = {h.id: h for h in records(Hypothesis, _DATA["hypotheses"])}

#: Paper labels whose citation means a condition (statement refs or proof refs).
LABEL_CONDITIONS = dict(_DATA["label_conditions"])

#: Conditions a statement imposes in words (assumption refs are found by the parser).
#: ``in_context`` entries are stated in the sentence right before the statement.
STATED_CONDITIONS = records(Cite, _DATA["stated_conditions"])

#: "Under the conditions as in Lemma X": the statement takes over X's stated hypotheses.
STATED_BY_REFERENCE = records(Cite, _DATA["stated_by_reference"])

#: Direct uses the parser cannot see (an explicit \ref{assum:...} in a proof is found by the
#: parser and need not be repeated here).
DIRECT_USES = records(Use, _DATA["direct_uses"])

#: Citations without a \ref (or through a quantity defined by a cited result).
EXTRA_CITATIONS = records(Cite, _DATA["extra_citations"])


def _by_source(cites: tuple) -> dict:
    out: dict = {}
    for c in cites:
        out[c.source] = out.get(c.source, ()) + (c,)
    return out


#: Equations of the running text that proofs cite: equation -> what its derivation relies on
#: (the JSON lists the citations; their ``source`` is the equation).
TEXT_DERIVATIONS = _by_source(records(Cite, _DATA["text_derivations"]))

#: Text equations that only define a quantity (citing them brings in no hypothesis):
#: label -> (line, what it defines).
DEFINITIONS = frozen(_DATA["definitions"])

#: Conditions a cited result needs that the citing proof establishes itself.
DISCHARGES = records(Cite, _DATA["discharges"])

#: Remarks that are not findings (a use that follows from stated or standing hypotheses).
NOTES = records(Note, _DATA["notes"])

#: Context that softens a finding (shown with it; it does not remove it).
MITIGATIONS = dict(_DATA["mitigations"])

#: Results without a proof environment, and where the paper justifies them instead:
#: label -> (line, quote).
NO_PROOF = frozen(_DATA["no_proof"])
