"""The audit's check functions: each returns the :class:`~proofs_check.registry.Outcome` of one
claim of :mod:`proofs_check.claims.assumptions` and takes its data as arguments, so a test can
feed it a mutant (a deleted stated assumption, a spurious use, a changed algorithm line, a
toolkit probe that answers differently) and watch the status flip.

Statuses: ``DISCREPANCY`` — the paper is at fault (a result uses a hypothesis it does not
state; alg:nbl disagrees with its equations; a gap in alg:nbl changes a result; a symbol means
two things inside one proof where a reader could mix them up); ``FAIL`` — the toolkit or the
packaged data are (a probe contradicts the paper's convention, a curated line does not hold the
symbol it names); ``PASS`` otherwise, with the findings in ``computed``/``detail``.
"""

from __future__ import annotations

from ..registry import DISCREPANCY, FAIL, PASS, Outcome
from . import algorithm as alg
from . import extracted
from .graph import assumption_usage, audit_all, audit_result, default_data, restatement_mismatches
from .hypotheses_data import MITIGATIONS, NO_PROOF, NOTES
from .notation import ENTRIES

__all__ = [
    "hypotheses_outcome",
    "assumption_outcome",
    "printed_hypotheses",
    "steps_outcome",
    "gap_outcome",
    "notation_outcome",
    "RETRACTION_RTOL",
]

#: ||v + eta P_v w||^2 = 1 + eta^2 ||P_v w||^2 in float64: the residual v^T P_v w ~ 1e-16 ||w||
#: enters as 2 eta v^T P_v w, relative to ref >= 1; measured <= 2e-14 on the probe's inputs.
RETRACTION_RTOL = 1e-12


def _best(evidence, k: int = 2) -> str:
    ev = sorted(evidence, key=lambda e: (not e.certain, len(e.chain), e.chain))
    return " | ".join(e.render() for e in ev[:k])


def printed_hypotheses(label: str, data=None) -> str:
    """What the statement of ``label`` says it assumes, with line numbers."""
    data = data or default_data()
    a = audit_result(data, label)
    if not a.stated:
        return "no hypotheses stated"
    return "; ".join(f"{h} (line {line})" for h, (line, _how) in sorted(a.stated.items()))


def hypotheses_outcome(label: str, data=None) -> Outcome:
    """Stated vs used hypotheses of the result ``label``."""
    data = data or default_data()
    a = audit_result(data, label)
    used = ", ".join(sorted(a.used)) or "none"
    lines = [f"stated: {printed_hypotheses(label, data)}", f"used: {used}"]
    for h, evs in sorted(a.used.items()):
        lines.append(f"  {h}: {_best(evs, 1)}")
    findings = []
    for h, evs in sorted(a.unstated.items()):
        implied = [i for i in data.hypotheses[h].implied_by if i in a.unstated]
        note = f" (implied by {', '.join(implied)}, itself unstated)" if implied else ""
        findings.append(f"{h}{note}")
        lines.append(f"UNSTATED {h}{note}: {_best(evs, 3)}")
    for h, evs in sorted(a.plausible.items()):
        lines.append(f"plausible, not a finding: {h}: {_best(evs, 1)}")
    if label in NO_PROOF:
        line, quote = NO_PROOF[label]
        lines.append(
            f'no proof environment: the paper justifies it in the text (line {line}, "{quote}")'
        )
    for n in NOTES:
        if n.result == label:
            lines.append(f'note (line {n.line}, "{n.quote}"): {n.text}')
    mism = restatement_mismatches(data, label)
    lines += [f"restatement: {m}" for m in mism]
    if findings and label in MITIGATIONS:
        lines.append(f"context: {MITIGATIONS[label]}")
    detail = "\n".join(lines)
    if findings or mism:
        return Outcome(DISCREPANCY, "uses unstated: " + "; ".join(findings + mism), detail)
    standing = sorted(h for h in a.used if h not in a.stated)
    held = ", ".join(f"{h} (standing)" if h in standing else h for h in sorted(a.used)) or "none"
    return Outcome(
        PASS,
        "every hypothesis used is stated" + (" or standing" if standing else "") + f" ({held})",
        detail,
    )


def assumption_outcome(assumption: str, data=None) -> Outcome:
    """Which results state and use ``assumption``; DISCREPANCY if no proof uses it or no
    result states it (a dead assumption)."""
    data = data or default_data()
    audits = audit_all(data)
    u = assumption_usage(data, audits, assumption)
    hyp = data.hypotheses[assumption]
    computed = (
        f"stated by {len(u['stated_by'])} results, used by {len(u['used_by'])}; "
        f"used without being stated by {len(u['unstated_by'])}"
        + (
            f" ({', '.join(u['unstated_by'])}: see the hypotheses-* claims)"
            if u["unstated_by"]
            else ""
        )
    )
    detail = (
        f"{assumption} (line {hyp.line}): {hyp.text}\n"
        f"stated by: {', '.join(u['stated_by']) or 'none'}\n"
        f"used by: {', '.join(u['used_by']) or 'none'}"
    )
    for r in u["used_by"]:
        detail += f"\n  {r}: {_best(audits[r].used[assumption], 1)}"
    if not u["used_by"] or not u["stated_by"]:
        why = "no proof uses it" if not u["used_by"] else "no result states it"
        return Outcome(DISCREPANCY, f"{why}; " + computed, detail)
    return Outcome(PASS, computed, detail)


def steps_outcome(algorithm=None, steps=alg.STEPS) -> Outcome:
    """alg:nbl's steps against eq:tangent_update, eq:nbl_update and the text."""
    algorithm = algorithm if algorithm is not None else extracted.ALGORITHM
    rows = alg.compare_steps(algorithm, steps)
    bad = [r for r in rows if not r[3]]
    detail = "\n".join(
        f"{'ok ' if ok else 'DIFF'} {sid}: alg {a} | paper {p}" for sid, a, p, ok in rows
    )
    gaps = "; ".join(f"{g.id} (line {g.line}): {g.undefined}" for g in alg.GAPS)
    detail += f"\nleft undefined (see the alg-nbl-* claims): {gaps}"
    if bad:
        return Outcome(
            DISCREPANCY,
            f"{len(bad)} of {len(rows)} steps differ from the text: "
            + ", ".join(r[0] for r in bad),
            detail,
        )
    return Outcome(
        PASS,
        f"all {len(rows)} steps agree with eq:tangent_update, eq:nbl_update "
        f"and sec:nbl; {len(alg.GAPS)} things left undefined",
        detail,
    )


def _toolkit(gap_id: str, probe):
    """(ok, summary) of the toolkit's choice for one gap."""
    if gap_id == "sgn-zero":
        a = (probe or alg.probe_sgn_zero)()
        return a == 1, f"the toolkit's NBL breaks the tie with A_t = {a:+d}"
    if gap_id == "degenerate-init":
        p = (probe or alg.probe_degenerate_init)()
        ok = p["unit"] and p["degenerate_init"] == p["replications"]
        return ok, (
            f"the toolkit's NBL, run on {p['replications']} replications whose Stage I "
            f"estimate is exactly 0, reports the event in "
            f"{p['degenerate_init']} of them and starts from {p['v'][0]} "
            f"({'a' if p['unit'] else 'not a'} unit vector)"
        )
    if gap_id == "step-sizes":
        acc = (probe or alg.probe_step_sizes)()
        ok = acc[(10.0, 500.0)] and not any(
            acc[k] for k in ((0.0, 500.0), (-1.0, 500.0), (10.0, -1.0))
        )
        return ok, (
            "the toolkit's step-size check accepts "
            + ", ".join(f"(gamma={g}, t0={t})" for (g, t), v in acc.items() if v)
            + "; t0 in (-1, 0) is accepted although the proofs use t0 >= 0"
        )
    if gap_id == "retraction-norm":
        err = (probe or alg.probe_retraction)()
        return err <= RETRACTION_RTOL, (
            f"max relative error of ||v + eta G||^2 = 1 + eta^2 "
            f"||G||^2 with the toolkit's projection: {err:.1e} "
            f"(tolerance {RETRACTION_RTOL:g})"
        )
    if gap_id == "horizon":
        h = (probe or alg.probe_horizon)()
        vals = list(h.values())
        ok = (
            vals[0].startswith("rejected")
            and vals[2].startswith("rejected")
            and vals[1].startswith("accepted")
            and "non-finite" not in vals[1]
        )
        return ok, "the toolkit's NBL: " + "; ".join(f"n0 = {k} (n = 3) {v}" for k, v in h.items())
    if gap_id == "given-start":
        p = (probe or alg.probe_given_start)()
        return p["n0"] == 0, (
            f"the toolkit's NBL given a start v0 runs without Stage I (n0 = {p['n0']})"
        )
    raise KeyError(gap_id)


def gap_outcome(gap_id: str, probe=None, gaps=alg.GAPS) -> Outcome:
    """One thing alg:nbl leaves undefined: where the paper resolves it, whether it changes a
    result, and what the toolkit chooses (probed)."""
    gap = next(g for g in gaps if g.id == gap_id)
    ok, toolkit = _toolkit(gap_id, probe)
    res = "; ".join(f'line {ln} ("{q}"): {what}' for ln, q, what in gap.resolution)
    detail = (
        f'alg:nbl line {gap.line} ("{gap.quote}") leaves undefined: {gap.undefined}\n'
        f"elsewhere in the paper: {res}\n"
        f"changes a result: {'yes' if gap.changes_result else 'no'} — {gap.why}\n"
        f"toolkit: {toolkit}"
    )
    computed = f"undefined in the paper: {gap.undefined}; toolkit: {toolkit}"
    if not ok:
        return Outcome(
            FAIL,
            computed,
            detail + "\nthe toolkit's choice contradicts the paper's "
            "convention or is not a valid choice",
        )
    if gap.changes_result:
        return Outcome(DISCREPANCY, computed, detail)
    return Outcome(PASS, computed, detail)


def notation_outcome(entries=ENTRIES, symbols=None, index=None) -> Outcome:
    """The curated notation findings, checked against the packaged symbol scan and proofs."""
    symbols = symbols if symbols is not None else extracted.SYMBOLS
    index = index or default_data().index
    broken, hits, rows, evidence = [], [], [], {}
    for e in sorted(entries, key=lambda e: not e.confusable):  # the confusable ones first
        for m in e.meanings:
            if m.line not in symbols.get(m.variant, ()):
                broken.append(f"{e.symbol}: line {m.line} holds no {m.variant}")
        if e.same_proof:
            p = index.proof_of(e.same_proof)
            inside = [m for m in e.meanings if p and p.start <= m.line <= p.end]
            if len(inside) < (1 if e.kind == "dangling" else 2):
                broken.append(f"{e.symbol}: not two meanings inside the proof of {e.same_proof}")
            elif e.confusable:
                hits.append(
                    f"{e.symbol} in the proof of {e.same_proof} (lines "
                    + ", ".join(str(m.line) for m in inside)
                    + ")"
                )
        mean = "; ".join(f'{m.text} [line {m.line}: "{m.quote}"]' for m in e.meanings)
        where = f" — same proof: {e.same_proof}" if e.same_proof else ""
        rows.append(
            f"{e.symbol} [{e.kind}{', confusable' if e.confusable else ''}]{where}: {mean}. {e.why}"
        )
        if e.confusable and e.same_proof:
            evidence[e.same_proof] = f"{e.symbol} [{e.kind}]: {mean}. {e.why}"
    kinds = {
        k: sum(e.kind == k for e in entries) for k in ("collision", "renamed", "dangling", "near")
    }
    computed = (
        f"{len(entries)} notation findings ("
        + ", ".join(f"{v} {k}" for k, v in kinds.items())
        + f"); {len(hits)} confusable "
        "inside one proof" + (": " + "; ".join(hits) if hits else "")
    )
    lead = (
        "a reader can confuse two meanings inside one proof: "
        + "; ".join(hits)
        + ". The other entries are notes (distinct sections or decorations tell the "
        "meanings apart):"
        if hits
        else "no two confusable meanings share a proof:"
    )
    detail = lead + "\n" + "\n".join(rows)
    if broken:
        return Outcome(
            FAIL,
            computed,
            "packaged notation data inconsistent: " + "; ".join(broken) + "\n" + detail,
        )
    return Outcome(DISCREPANCY if hits else PASS, computed, detail, evidence=evidence)
