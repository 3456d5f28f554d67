"""Corrupted copies of the audit's data: the mutants of the audit claims.

Every audit check takes its data as arguments (:mod:`proofs_check.audit.checks`), so a mutant is
the packaged data with one thing changed: an assumption deleted from every statement, a spurious
use added, an algorithm line edited, a toolkit probe that answers otherwise, a notation entry
moved. The claims of :mod:`proofs_check.claims.assumptions` register these as their
:class:`~proofs_check.registry.Mutant` s and ``tests/proofs_check/test_audit*.py`` build theirs
from the same functions, so a mutant is written once.

Each function returns new data and leaves its argument unchanged (the dataclasses are frozen).
"""

from __future__ import annotations

from dataclasses import replace

from . import hypotheses_data as hd
from .graph import AuditData, in_force, stated
from .latex import Proof, Statement

__all__ = [
    "with_statement_refs",
    "unstated_everywhere",
    "unused_everywhere",
    "spurious_use",
    "hypotheses_stated",
    "edit_algorithm",
    "gap_changes_result",
    "BAD_PROBES",
    "calm_entries",
    "meaning_moved",
]


# ------------------------------------------------------------------ hypotheses
def with_statement_refs(data: AuditData, label: str, refs) -> AuditData:
    """``data`` with the statement ``label`` citing ``refs`` (``((label, line), ...)``)."""
    st = data.index.statements[label]
    statements = dict(data.index.statements)
    statements[label] = Statement(
        st.label, st.kind, st.title, st.start, st.end, st.section, tuple(refs)
    )
    return replace(data, index=replace(data.index, statements=statements))


def unstated_everywhere(data: AuditData, assumption: str) -> AuditData:
    """``data`` with ``assumption`` deleted from every statement (no result states it)."""
    for s in tuple(data.index.statements.values()):
        if any(lab == assumption for lab, _ in s.refs):
            data = with_statement_refs(data, s.label, [r for r in s.refs if r[0] != assumption])
    return data


def unused_everywhere(
    data: AuditData, assumption: str, keeper: str = "thm:regret-rate", line: int = 977
) -> AuditData:
    """``data`` with every use of ``assumption`` deleted (statements, proofs, curated uses,
    text derivations), stated only by ``keeper`` (at ``line``), a result no proof cites: no
    proof uses it, directly or through a cited result."""
    original = data
    for s in tuple(original.index.statements.values()):
        if s.label != keeper:
            data = with_statement_refs(data, s.label, [r for r in s.refs if r[0] != assumption])
    data = with_statement_refs(
        data, keeper, list(original.index.statements[keeper].refs) + [(assumption, line)]
    )
    proofs = tuple(
        Proof(
            p.start,
            p.end,
            p.result,
            p.rule,
            p.section,
            tuple(r for r in p.refs if r[0] != assumption),
        )
        for p in data.index.proofs
    )
    return replace(
        data,
        index=replace(data.index, proofs=proofs),
        direct_uses=tuple(u for u in original.direct_uses if u.hyp != assumption),
        text_derivations={
            k: tuple(c for c in v if c.target != assumption)
            for k, v in original.text_derivations.items()
        },
    )


def spurious_use(data: AuditData, label: str) -> tuple[str, AuditData]:
    """``(hyp, mutant)``: the first non-standing hypothesis ``label`` does not state, and
    ``data`` with ``label``'s proof (or, without a proof, its statement) using it."""
    own = stated(data, label)
    hyp = next(h for h in data.hypotheses if not in_force(data, h, own))
    p = data.index.proof_of(label)
    line = p.start if p else data.index.statements[label].start
    return hyp, replace(
        data, direct_uses=data.direct_uses + (hd.Use(label, hyp, line, "spurious", "mutant"),)
    )


def hypotheses_stated(data: AuditData, label: str, hyps) -> AuditData:
    """``data`` with the statement of ``label`` also stating ``hyps`` (in words)."""
    start = data.index.statements[label].start
    return replace(
        data,
        stated_conditions=data.stated_conditions
        + tuple(hd.Cite(label, h, start, "mutant") for h in hyps),
    )


# ------------------------------------------------------------------ alg:nbl
def edit_algorithm(algorithm: tuple, line: int, old: str, new: str) -> tuple:
    """``algorithm`` (``((line, text), ...)``) with ``old`` replaced by ``new`` on ``line``;
    ValueError if ``old`` is not on that line (the edit would change nothing)."""
    out = []
    for ln, t in algorithm:
        if ln == line:
            if old not in t:
                raise ValueError(f"line {line} of alg:nbl does not hold {old!r}: {t!r}")
            t = t.replace(old, new)
        out.append((ln, t))
    return tuple(out)


def gap_changes_result(gaps: tuple, gap_id: str) -> tuple:
    """``gaps`` with the gap ``gap_id`` marked as changing a result."""
    return tuple(replace(g, changes_result=True) if g.id == gap_id else g for g in gaps)


#: gap id -> a probe answering as a toolkit that contradicts the paper's convention would
BAD_PROBES = {
    "sgn-zero": lambda: -1,
    "degenerate-init": lambda: {
        "degenerate_init": 0,
        "replications": 3,
        "v": [[None] * 2],
        "unit": False,
    },
    "step-sizes": lambda: {
        (10.0, 500.0): True,
        (0.0, 500.0): True,
        (-1.0, 500.0): False,
        (10.0, -1.0): False,
    },
    "retraction-norm": lambda: 0.5,
    "horizon": lambda: {
        0: "accepted, non-finite v_n",
        3: "accepted (Stage II empty)",
        4: "rejected: no",
    },
    "given-start": lambda: {"n0": 5, "angle_deg": 10.0},
}


# ------------------------------------------------------------------ notation
def calm_entries(entries: tuple) -> tuple:
    """The notation ``entries`` with none judged confusable."""
    return tuple(replace(e, confusable=False) for e in entries)


def meaning_moved(entries: tuple) -> tuple:
    """The notation ``entries`` with the first meaning of the first entry one line down (a
    line that does not hold its symbol)."""
    e0 = entries[0]
    m0 = e0.meanings[0]
    moved = replace(e0, meanings=(replace(m0, line=m0.line + 1),) + e0.meanings[1:])
    return (moved,) + tuple(entries[1:])
