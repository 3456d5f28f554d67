"""Hypotheses stated vs hypotheses used, for every labelled result of the paper.

For a result R:

* **stated** — the ``\\ref{assum:...}`` inside R's statement (parser), conditions cited by label
  (``eq:self-concordance-link``), conditions stated in words (curated), and everything a
  statement takes over by "Under the conditions as in Lemma X";
* **used** — the ``\\ref{assum:...}`` inside R's proof (parser), curated direct uses, and, for
  every result R's proof cites (``\\ref``/``\\eqref`` of the result or of an equation inside its
  statement or proof, plus curated citations without a ref), that result's stated *and* used
  hypotheses, transitively; an equation of the running text contributes what its derivation
  relies on (curated), a definition nothing. A condition the citing proof establishes itself
  (curated "discharges") is not passed on.

Every use carries its chain of citations with line numbers, down to the quoted words. A use is
*unstated* when R neither states the hypothesis nor anything that implies it, and it is not a
standing assumption of sec:setup. Only *certain* uses make a finding; plausible ones are listed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import extracted
from . import hypotheses_data as hd
from .latex import RESULT_KINDS, PaperIndex, index_from_literal

__all__ = [
    "AuditData",
    "Evidence",
    "ResultAudit",
    "AuditError",
    "default_data",
    "stated",
    "used",
    "in_force",
    "audit_result",
    "audit_all",
    "assumption_usage",
    "restatement_mismatches",
]


class AuditError(RuntimeError):
    """The packaged data are incomplete (a cited text equation nobody described, a cycle)."""


@dataclass(frozen=True)
class AuditData:
    """Everything the comparison reads; tests build mutants with ``dataclasses.replace``."""

    index: PaperIndex
    hypotheses: dict = field(default_factory=lambda: dict(hd.HYPOTHESES))
    label_conditions: dict = field(default_factory=lambda: dict(hd.LABEL_CONDITIONS))
    stated_conditions: tuple = hd.STATED_CONDITIONS
    stated_by_reference: tuple = hd.STATED_BY_REFERENCE
    direct_uses: tuple = hd.DIRECT_USES
    extra_citations: tuple = hd.EXTRA_CITATIONS
    text_derivations: dict = field(default_factory=lambda: dict(hd.TEXT_DERIVATIONS))
    definitions: dict = field(default_factory=lambda: dict(hd.DEFINITIONS))
    discharges: tuple = hd.DISCHARGES


@dataclass(frozen=True)
class Evidence:
    """Why a result uses a hypothesis: ``chain`` of (source, target, line, quote) steps."""

    hyp: str
    chain: tuple
    certain: bool = True
    why: str = ""  # why the last step of the chain needs the hypothesis

    def render(self) -> str:
        steps = [f'{src} -> {tgt} (line {line}: "{quote}")' for src, tgt, line, quote in self.chain]
        return (
            "; ".join(steps)
            + (f" — {self.why}" if self.why else "")
            + ("" if self.certain else " [plausible]")
        )


@dataclass(frozen=True)
class ResultAudit:
    """Stated vs used hypotheses of one result."""

    label: str
    stated: dict  # hyp -> (line, how it is stated)
    used: dict  # hyp -> tuple of Evidence
    unstated: dict  # hyp -> tuple of certain Evidence (the findings)
    plausible: dict  # hyp -> tuple of plausible-only Evidence (not findings)

    @property
    def ok(self) -> bool:
        return not self.unstated


def default_data() -> AuditData:
    """The packaged paper index and the curated tables."""
    return AuditData(index_from_literal(extracted.INDEX))


def _is_result(data: AuditData, label: str) -> bool:
    st = data.index.statements.get(label)
    return st is not None and st.kind in RESULT_KINDS


def stated(data: AuditData, result: str, _seen=()) -> dict:
    """Hypotheses ``result`` states: hyp -> (line, how)."""
    if result in _seen:
        raise AuditError(f"circular 'conditions as in' at {result}")
    st = data.index.statements[result]
    out = {}
    for lab, line in st.refs:
        if lab.startswith("assum:"):
            out.setdefault(lab, (line, f"\\ref{{{lab}}} in the statement"))
        elif lab in data.label_conditions:
            out.setdefault(data.label_conditions[lab], (line, f"\\eqref{{{lab}}} in the statement"))
    for c in data.stated_conditions:
        if c.source == result:
            out.setdefault(c.target, (c.line, c.quote + (f" ({c.why})" if c.why else "")))
    for c in data.stated_by_reference:
        if c.source == result:
            for hyp, (line, how) in stated(data, c.target, _seen + (result,)).items():
                out.setdefault(hyp, (c.line, f"{c.quote} -> {c.target}, line {line}: {how}"))
    return out


def _owner(data: AuditData, label: str, citing: str):
    """What a label cited from ``citing``'s proof stands for: ("result", R) / ("text", eq) /
    ("hyp", id) / None (a section, a figure, or ``citing`` itself)."""
    if label in data.hypotheses:
        return "hyp", label
    if label in data.label_conditions:
        return "hyp", data.label_conditions[label]
    if _is_result(data, label):
        return None if label == citing else ("result", label)
    loc = data.index.labels.get(label)
    if loc is None:
        raise AuditError(f"{citing} cites {label!r}, which is not a label of the paper")
    _line, where, owner = loc
    if where in ("statement", "proof") and owner and _is_result(data, owner):
        return None if owner == citing else ("result", owner)
    if where == "text":
        return "text", label
    return None


def _requirements(data, target, memo, stack):
    """What citing ``target`` (a result or a text equation) brings in: hyp -> [Evidence]."""
    kind, lab = target
    if kind == "result":
        req = {
            h: [
                Evidence(
                    h,
                    ((lab, h, line, "states: " + how),),
                    True,
                    f"applying {lab} needs its hypotheses",
                )
            ]
            for h, (line, how) in stated(data, lab).items()
        }
        _merge(req, {h: list(evs) for h, evs in used(data, lab, memo, stack).items()})
        return req
    if lab in data.definitions:
        return {}
    if lab not in data.text_derivations:
        raise AuditError(
            f"text equation {lab} is cited in a proof but its derivation is not "
            "described (hypotheses_data.TEXT_DERIVATIONS or DEFINITIONS)"
        )
    req: dict = {}
    for c in data.text_derivations[lab]:
        _merge(req, _cite(data, lab, c.target, c.line, c.quote, memo, stack, c.why))
    return req


def _merge(into: dict, more: dict) -> None:
    for h, evs in more.items():
        into.setdefault(h, []).extend(evs)


def _cite(data, source, label, line, quote, memo, stack, why=""):
    """Evidence that ``source`` relies on ``label`` at ``line``: hyp -> [Evidence]."""
    if label in data.hypotheses:
        return {
            label: [
                Evidence(
                    label, ((source, label, line, quote),), True, why or "the proof invokes it"
                )
            ]
        }
    tgt = _owner(data, label, source)
    if tgt is None:
        return {}
    if tgt[0] == "hyp":
        return {
            tgt[1]: [
                Evidence(
                    tgt[1],
                    ((source, label, line, quote),),
                    True,
                    why or "the proof cites the condition",
                )
            ]
        }
    step = (source, tgt[1], line, quote)
    out = {}
    for h, evs in _requirements(data, tgt, memo, stack).items():
        out[h] = [Evidence(h, (step,) + e.chain, e.certain, e.why) for e in evs]
    return out


def used(data: AuditData, result: str, _memo=None, _stack=()) -> dict:
    """Hypotheses ``result``'s proof relies on: hyp -> tuple of :class:`Evidence`."""
    memo = {} if _memo is None else _memo
    if result in memo:
        return memo[result]
    if result in _stack:
        raise AuditError("citation cycle: " + " -> ".join(_stack + (result,)))
    stack = _stack + (result,)
    out: dict = {}
    proof = data.index.proof_of(result)
    if proof is not None:
        for lab, line in proof.refs:
            _merge(out, _cite(data, result, lab, line, f"\\ref{{{lab}}}", memo, stack))
    for c in data.extra_citations:
        if c.source == result:
            _merge(out, _cite(data, result, c.target, c.line, c.quote, memo, stack, c.why))
    for u in data.direct_uses:
        if u.result == result:
            out.setdefault(u.hyp, []).append(
                Evidence(u.hyp, ((result, u.hyp, u.line, u.quote),), u.certain, u.why)
            )
    for c in data.discharges:
        if c.source == result and c.target in out:
            # the proof establishes the condition itself: keep only its own direct uses
            out[c.target] = [e for e in out[c.target] if len(e.chain) == 1]
            if not out[c.target]:
                del out[c.target]
    res = {h: tuple(_dedupe(evs)) for h, evs in out.items()}
    memo[result] = res
    return res


def _dedupe(evs):
    seen, out = set(), []
    for e in evs:
        if (e.chain, e.certain) not in seen:
            seen.add((e.chain, e.certain))
            out.append(e)
    return out


def in_force(data: AuditData, h: str, st) -> bool:
    """Whether hypothesis ``h`` holds for a result that states ``st``: stated, standing (an
    assumption the paper makes "throughout"), or implied by a stated or standing one
    (assum:gaussian_context by the standing "we specialize to Gaussian contexts", line 222)."""
    hyp = data.hypotheses[h]
    return (
        h in st
        or hyp.kind == "standing"
        or any(i in st or data.hypotheses[i].kind == "standing" for i in hyp.implied_by)
    )


def audit_result(data: AuditData, result: str, memo=None) -> ResultAudit:
    """Compare ``result``'s stated and used hypotheses."""
    st = stated(data, result)
    us = used(data, result, memo)
    unstated, plausible = {}, {}
    for h, evs in us.items():
        hyp = data.hypotheses.get(h)
        if hyp is None:
            raise AuditError(f"unknown hypothesis {h!r} used by {result}")
        if in_force(data, h, st):
            continue
        sure = tuple(e for e in evs if e.certain)
        if sure:
            unstated[h] = sure
        else:
            plausible[h] = evs
    return ResultAudit(result, st, us, unstated, plausible)


def audit_all(data: AuditData) -> dict:
    """:class:`ResultAudit` of every labelled result, in paper order."""
    memo: dict = {}
    return {s.label: audit_result(data, s.label, memo) for s in data.index.results()}


def assumption_usage(data: AuditData, audits: dict, assumption: str) -> dict:
    """Which results state, use, and use-without-stating ``assumption``."""
    return {
        "stated_by": [r for r, a in audits.items() if assumption in a.stated],
        "used_by": [r for r, a in audits.items() if assumption in a.used],
        "unstated_by": [r for r, a in audits.items() if assumption in a.unstated],
    }


def restatement_mismatches(data: AuditData, label: str | None = None) -> list[str]:
    """Restatements (of ``label``, or of any result) whose assumption refs differ from the
    original statement's."""
    out = []
    for r in data.index.restatements:
        if label is not None and r.of != label:
            continue
        if not r.of:
            out.append(f"lines {r.start}-{r.end}: restatement of no labelled result")
            continue
        a = {lab for lab, _ in data.index.statements[r.of].refs if lab.startswith("assum:")}
        b = {lab for lab, _ in r.refs if lab.startswith("assum:")}
        if a != b:
            out.append(
                f"lines {r.start}-{r.end} restate {r.of} with {sorted(b)} instead of {sorted(a)}"
            )
    return out
