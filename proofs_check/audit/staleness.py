"""Which checks refer to paper text that changed: a given version of the paper against the
pinned one (:mod:`proofs_check.paper_source`).

Every quoted line of the audit's tables (:func:`quoted_lines`), every label of the packaged
index and every claim refer to the pinned version. For another version, :func:`staleness`
aligns the two texts line by line (:class:`difflib.SequenceMatcher`) and reports

* the audit records whose quoted line changed or disappeared (*stale*), and those whose line is
  unchanged but now has another number (*moved*: the quote holds, the line number does not);
* the labels whose text changed — a labelled statement's lines from ``\\begin`` to ``\\end``,
  any other label's paragraph (the lines between the blank lines around its ``\\label``) — and
  the labels that disappeared;
* the claims whose label or a label they cover is among those.

The checks themselves still run on the pinned data (the claims read the packaged index, never
the paper); the report says which of them no longer describe the given text.

Example
-------
>>> from proofs_check.paper_source import shipped_text
>>> text = shipped_text()
>>> staleness(text).changed_lines
0
>>> s = staleness(text.replace("\\\\label{prop:local_jacobian}", "\\\\label{prop:local-jac}"))
>>> "prop:local_jacobian" in s.labels
True
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from . import algorithm as alg
from . import hypotheses_data as hd
from .extracted import INDEX
from .latex import index_from_literal
from .notation import ENTRIES

__all__ = ["quoted_lines", "Staleness", "staleness"]


def quoted_lines():
    """``(what, line, quote)`` of every quoted line in the audit's packaged tables (hypotheses,
    stated and cited conditions, direct uses, notes, alg:nbl's steps and gaps, notation); the
    line numbers refer to the pinned paper.

    Returns
    -------
    list of tuple of (str, int, str)
        ``(what, pinned line, quoted text)``.
    """
    out = []
    for h in hd.HYPOTHESES.values():
        out.append((h.id, h.line, h.quote))
    for c in (
        hd.STATED_CONDITIONS
        + hd.STATED_BY_REFERENCE
        + hd.EXTRA_CITATIONS
        + hd.DISCHARGES
        + tuple(c for v in hd.TEXT_DERIVATIONS.values() for c in v)
    ):
        out.append((f"{c.source}->{c.target}", c.line, c.quote))
    for u in hd.DIRECT_USES:
        out.append((f"{u.result} uses {u.hyp}", u.line, u.quote))
    for n in hd.NOTES:
        out.append((f"note {n.result}", n.line, n.quote))
    for k, (line, quote) in hd.NO_PROOF.items():
        out.append((k, line, quote))
    for s in alg.STEPS:
        for line, quote in s.paper:
            out.append((f"step {s.id}", line, quote))
    for g in alg.GAPS:
        out.append((f"gap {g.id}", g.line, g.quote))
        for line, quote, _ in g.resolution:
            out.append((f"gap {g.id} resolution", line, quote))
    for e in ENTRIES:
        for m in e.meanings:
            out.append((f"notation {e.symbol}", m.line, m.quote))
    return out


@dataclass(frozen=True)
class Staleness:
    """What a given paper text leaves stale (see the module docstring).

    Parameters
    ----------
    changed_lines : int
        Lines of the pinned text changed or deleted in the given one.
    records : tuple of (str, int, str)
        ``(what, pinned line, why)`` of every audit record whose quoted line changed.
    moved : tuple of (str, int, int)
        ``(what, pinned line, new line)`` of the records whose line only moved.
    labels : dict
        label -> why (its text changed, or it is gone).
    claims : tuple of str
        Ids of the claims whose label or covered labels are in ``labels``.
    moved_labels : tuple of str
        Labels whose text is unchanged but whose line number in the packaged index is not the
        given text's.
    """

    changed_lines: int
    records: tuple = ()
    moved: tuple = ()
    labels: dict = field(default_factory=dict)
    claims: tuple = ()
    moved_labels: tuple = ()

    @property
    def stale(self) -> bool:
        """Whether any check refers to changed text (moved line numbers included)."""
        return bool(self.records or self.moved or self.labels or self.claims or self.moved_labels)

    def summary(self, limit: int = 8) -> str:
        """One paragraph: counts, then the first ``limit`` names of each kind.

        Parameters
        ----------
        limit : int, default 8
            The most names listed per kind (the rest are counted).

        Returns
        -------
        str
            The paragraph.
        """

        def few(names):
            names = list(names)
            more = f", … ({len(names) - limit} more)" if len(names) > limit else ""
            return ", ".join(names[:limit]) + more

        parts = [f"{self.changed_lines} line(s) of the pinned text changed or removed"]
        if self.claims:
            parts.append(
                f"{len(self.claims)} claim(s) check a label whose text changed: "
                + few(f"`{c}`" for c in self.claims)
            )
        if self.labels:
            parts.append(
                f"{len(self.labels)} label(s) changed: "
                + few(f"`{k}` ({v})" for k, v in self.labels.items())
            )
        if self.records:
            parts.append(
                f"{len(self.records)} audit record(s) quote a line that changed: "
                + few(f"{w} (line {ln})" for w, ln, _ in self.records)
            )
        if self.moved:
            parts.append(
                f"{len(self.moved)} audit record(s) quote a line that moved: "
                + few(f"{w} ({a} -> {b})" for w, a, b in self.moved)
            )
        if self.moved_labels:
            parts.append(
                f"{len(self.moved_labels)} label(s) of the packaged index have another "
                "line number in the given text"
            )
        return "; ".join(parts) + "."


def _alignment(old: list, new: list):
    """pinned line number (1-based) -> new line number, for the lines kept unchanged."""
    sm = difflib.SequenceMatcher(None, old, new, autojunk=False)
    keep = {}
    for a, b, n in sm.get_matching_blocks():
        for k in range(n):
            keep[a + k + 1] = b + k + 1
    return keep


def _label_spans(index, lines):
    """label -> (first, last) pinned line of the text it names."""
    spans = {}
    for lab, (line, _where, _owner) in index.labels.items():
        st = index.statements.get(lab)
        if st is not None:
            spans[lab] = (st.start, st.end)
            continue
        lo = hi = line
        while lo > 1 and lines[lo - 2].strip():
            lo -= 1
        while hi < len(lines) and lines[hi].strip():
            hi += 1
        spans[lab] = (lo, hi)
    return spans


def staleness(text: str, pinned: str | None = None, claims=None) -> Staleness:
    """What ``text`` (a version of the paper) leaves stale among the checks made for the pinned
    version ``pinned`` (default: the shipped copy).

    Parameters
    ----------
    text : str
        The given LaTeX source.
    pinned : str, optional
        The pinned source (default :func:`proofs_check.paper_source.shipped_text`).
    claims : iterable of Claim, optional
        The registered claims to check (default: all of them).

    Returns
    -------
    Staleness
        The changed lines, the stale audit records and labels, and the claims they touch.
    """
    from ..paper_source import shipped_text

    if pinned is None:
        pinned = shipped_text()
    old, new = pinned.split("\n"), text.split("\n")
    keep = _alignment(old, new)
    n_old = len(old) - (1 if old and old[-1] == "" else 0)
    changed = n_old - sum(1 for a in keep if a <= n_old)
    records, moved = [], []
    for what, line, _quote in quoted_lines():
        if line not in keep:
            records.append((what, line, "changed or removed"))
        elif keep[line] != line:
            moved.append((what, line, keep[line]))
    index = index_from_literal(INDEX)
    labels, moved_labels = {}, []
    for lab, (lo, hi) in _label_spans(index, old).items():
        line = index.labels[lab][0]
        if line not in keep or f"\\label{{{lab}}}" not in new[keep[line] - 1]:
            labels[lab] = "gone or relabelled"
        elif any(k not in keep for k in range(lo, hi + 1)):
            labels[lab] = "text changed"
        elif keep[line] != line:
            moved_labels.append(lab)
    if claims is None:
        from ..registry import all_claims

        claims = all_claims()
    stale_claims = tuple(
        c.id for c in claims if c.label in labels or any(k in labels for k in c.covers)
    )
    return Staleness(
        changed, tuple(records), tuple(moved), labels, stale_claims, tuple(moved_labels)
    )
