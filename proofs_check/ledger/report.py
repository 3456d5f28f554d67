"""The ledger in words: per-proof counts, the report's "Proofs, step by step" section and the
output of ``nbl proof LABEL``.

The registry claim of a proof (``ledger-...``, :mod:`proofs_check.claims.ledger`) carries its
counts as JSON in ``computed`` (:func:`counts_json`), so the verification report renders the
section from the claim results alone (also from a previous run's JSON)."""

from __future__ import annotations

import json
import textwrap
from collections import Counter

from .methods import METHODS, PROOF_METHODS
from .runner import (
    FINDING_STATUSES,
    GENERAL_METHODS,
    STEP_STATUSES,
    LedgerRun,
    StepResult,
    coverage,
)

__all__ = [
    "claim_status",
    "counts_json",
    "summary_detail",
    "proof_text",
    "proof_json",
    "section_markdown",
    "claim_id",
    "owner_label",
    "STATUS_ORDER",
]

#: failing first
STATUS_ORDER = {s: i for i, s in enumerate(STEP_STATUSES)}


def claim_id(owner: str) -> str:
    """The registry id of a ledger owner (``thm:regret-rate`` -> ``ledger-thm-regret-rate``)."""
    return "ledger-" + owner.replace("text:", "text-").replace(":", "-").replace("_", "-").lower()


def owner_label(owner: str) -> str:
    """The paper label of an owner (the proved result, or the section for ``text:``)."""
    return owner[len("text:") :] if owner.startswith("text:") else owner


def claim_status(results: list[StepResult]) -> str:
    """The registry status of a proof's steps: a finding if any step is one, FAIL if a step
    failed or is stale (a claim on the pinned text never is), else PASS."""
    st = {r.status for r in results}
    for s in ("DISCREPANCY", "CAVEAT"):
        if s in st:
            return s
    if st & {"FAIL", "STALE"}:
        return "FAIL"
    return "PASS"


def proof_status(results: list[StepResult]) -> str:
    """The status ``nbl proof`` prints: :func:`claim_status`, except that steps left unchecked
    because the paper's text changed (STALE) with none failed read ``STALE``, not FAIL (nothing
    was refuted)."""
    st = {r.status for r in results}
    if "STALE" in st and not st & {"FAIL", "DISCREPANCY", "CAVEAT"}:
        return "STALE"
    return claim_status(results)


def checked_words(cov: dict) -> str:
    """``N checked (F%): P proved (symbolic, certified), R at the instances they state``."""
    frac = "-" if cov["fraction"] is None else f"{cov['fraction']:.0%}"
    others = ", ".join(m for m in PROOF_METHODS if m not in GENERAL_METHODS)
    return (
        f"{cov['checked']} checked ({frac}): {cov['proved']} proved (symbolic, or certified "
        f"over a box), {cov['checked'] - cov['proved']} at the instances they state ({others})"
    )


def counts_json(results: list[StepResult]) -> str:
    """``{"relation_steps", "checked", "by": {"method/STATUS": n}}`` as compact JSON."""
    cov = coverage(results)
    by = Counter(f"{r.method or '-'}/{r.status}" for r in results)
    return json.dumps(
        {
            "relation_steps": cov["relation_steps"],
            "checked": cov["checked"],
            "proved": cov["proved"],
            "by": dict(sorted(by.items())),
        },
        separators=(",", ":"),
    )


def computed_words(computed: str) -> str:
    """A ledger claim's computed value (:func:`counts_json`) as the report shows it: ``"6 of 6
    relation steps checked (2 proved); by method and status: expectation/PASS 4, symbolic/PASS
    2"``; anything that is not such JSON is returned as it is."""
    try:
        c = json.loads(computed)
        steps, checked, by = c["relation_steps"], c["checked"], c["by"]
    except (TypeError, ValueError, KeyError):
        return computed
    proved = f" ({c['proved']} proved)" if "proved" in c else ""
    methods = ", ".join(f"{k} {n}" for k, n in by.items())
    return f"{checked} of {steps} relation steps checked{proved}; by method and status: {methods}"


def _sorted(results):
    return sorted(results, key=lambda r: (STATUS_ORDER.get(r.status, 99), r.line))


def summary_detail(results: list[StepResult]) -> str:
    """The claim's detail: the steps that are not PASS/EVIDENCE/PROSE first (status, id, line,
    relation, what the check found), then one count line."""
    bad = [
        r
        for r in _sorted(results)
        if r.status not in ("PASS", "EVIDENCE", "PROSE", "UNTRANSCRIBED")
    ]
    lines = [
        f"{r.status} {r.id} (line {r.line}, {r.rel}): {r.detail}"
        + (f"; counterexample {r.counterexample}" if r.counterexample else "")
        + (f"; second method {r.second}" if r.second else "")
        for r in bad
    ]
    cov = coverage(results)
    un = sum(r.status == "UNTRANSCRIBED" for r in results)
    lines.append(
        f"{cov['relation_steps']} relation steps, {checked_words(cov)}; {un} not "
        "transcribed yet (nbl proof LABEL lists them)"
    )
    return " | ".join(lines)


def _by_method(results) -> dict:
    out: dict = {}
    for r in results:
        out.setdefault(r.method or "-", Counter())[r.status] += 1
    return out


def proof_text(run: LedgerRun, owner: str, source_note: str = "") -> str:
    """``nbl proof LABEL``: a header with the counts, then every step (failing first)."""
    res = run.of(owner)
    cov = coverage(res)
    lines = [
        f"proof of {owner_label(owner)}"
        if not owner.startswith("text:")
        else f"derivations of {owner_label(owner)} (outside proofs)",
        f"  paper: {source_note or run.sha256[:12]}",
        f"  {cov['relation_steps']} relation steps; {checked_words(cov)}; status "
        f"{proof_status(res)}",
    ]
    for m, c in _by_method(res).items():
        lines.append(
            f"  {m:<12} "
            + ", ".join(
                f"{k} {v}" for k, v in sorted(c.items(), key=lambda kv: STATUS_ORDER.get(kv[0], 99))
            )
        )
    stale = [r.id for r in res if r.status == "STALE"]
    if stale:
        lines.append(f"  STALE (the paper's text changed): {', '.join(stale)}")
    orphans = [i for i in run.orphans if i.rsplit("/", 2)[0] == owner]
    if orphans:
        lines.append(
            f"  transcriptions matching no step of this text (stale): {', '.join(orphans)}"
        )
    lines.append("")
    for r in _sorted(res):
        lines.append(f"{r.status:<13} {r.id}  line {r.line}  [{r.method or '-'}]")
        lines.append(f"    latex:  {' '.join(r.latex.split())}")
        if r.transcription:
            lines.append(f"    sympy:  {r.transcription}")
        if r.detail:
            lines.append(f"    result: {r.detail}")
        if r.counterexample:
            lines.append(f"    counterexample (50 digits): {r.counterexample}")
        if r.second:
            lines.append(f"    second method: {r.second}")
        if r.moved_from:
            lines.append(f"    (transcription found under {r.moved_from}: the same text moved)")
    return "\n".join(lines)


def proof_json(run: LedgerRun, owner: str, steps_by_id: dict) -> dict:
    """One ``results`` row of ``nbl proof --json``."""
    res = run.of(owner)
    cov = coverage(res)
    rows = []
    for r in res:
        st = steps_by_id[r.id]
        d = r.to_dict()
        d.update(
            {
                "lhs": st.lhs,
                "rhs": st.rhs,
                "hash": st.hash,
                "block": st.block,
                "seconds": round(r.seconds, 4),
            }
        )
        rows.append(d)
    return {
        "owner": owner,
        "label": owner_label(owner),
        "paper_sha256": run.sha256,
        "pinned": run.pinned,
        "status": proof_status(res),
        "relation_steps": cov["relation_steps"],
        "checked": cov["checked"],
        "proved": cov["proved"],
        "counts": {m: dict(c) for m, c in _by_method(res).items()},
        "stale": [r.id for r in res if r.status == "STALE"],
        "orphans": [i for i in run.orphans if i.rsplit("/", 2)[0] == owner],
        "steps": rows,
    }


def section_markdown(results) -> list[str]:
    """The report's "Proofs, step by step" section from the ledger claims' results
    (``ClaimResult`` or their dicts' wrappers): one table row per proof, failing first, then
    the non-passing steps of each."""
    rows = [r for r in results if str(r.id).startswith("ledger-")]
    if not rows:
        return []
    parsed = []
    for r in rows:
        try:
            c = json.loads(r.computed) if r.computed else None
        except (TypeError, ValueError):
            c = None
        parsed.append((r, c))
    tot_steps = sum(c["relation_steps"] for _r, c in parsed if c)
    tot_checked = sum(c["checked"] for _r, c in parsed if c)
    tot_proved = sum(c.get("proved", 0) for _r, c in parsed if c)
    by = Counter()
    for _r, c in parsed:
        if c:
            by.update(c["by"])
    order = {"FAIL": 0, "DISCREPANCY": 1, "CAVEAT": 2, "SKIPPED": 3, "PASS": 4}
    intro = (
        "The relation steps (=, <=, >=, <, >, lesssim) of the proofs and appendix "
        "derivations, transcribed and checked one by one where a transcription exists (the "
        "counts below say how many; `nbl proof LABEL` lists a proof's steps; *prose* has no "
        "relation to check, and *sampled* is evidence, not proof: neither counts as checked)."
    )
    counts = (
        f"Over the {len(parsed)} proofs and sections with a transcription: {tot_checked} "
        f"of {tot_steps} relation steps checked, {tot_proved} of them proved (symbolic, or "
        "certified over a box) and the others at the instances they state (expectation, "
        "asymptotic, cited). By method and status: "
        + (", ".join(f"{k} {v}" for k, v in sorted(by.items())) or "none")
        + "."
    )
    from ..paper_source import shipped_text
    from .parse import parse_ledger

    ledger = parse_ledger(shipped_text())
    in_proofs = sum(len(ledger.relation_steps(o)) for o in ledger.proofs)
    in_text = sum(len(ledger.relation_steps(o)) for o in ledger.sections)
    done = {r.label: c for r, c in parsed if c}
    cov_p = sum(done[o]["checked"] for o in ledger.proofs if o in done)
    cov_t = sum(done[owner_label(o)]["checked"] for o in ledger.sections if owner_label(o) in done)
    paper = (
        f"The pinned paper has {in_proofs} relation steps in its {len(ledger.proofs)} "
        f"proofs and {in_text} in appendix derivations outside proofs; checked (proved or "
        f"at stated instances): {cov_p} of the proofs' ({cov_p / max(in_proofs, 1):.0%}) "
        f"and {cov_t} of the derivations' ({cov_t / max(in_text, 1):.0%}). Proofs without a "
        "transcription yet are listed with their step counts."
    )
    lines = [
        "## Proofs, step by step",
        "",
        *textwrap.wrap(intro, 100),
        "",
        *textwrap.wrap(paper, 100),
        "",
        *textwrap.wrap(counts, 100),
        "",
        "| proof | status | relation steps | checked | by method/status |",
        "|---|---|---|---|---|",
    ]
    parsed.sort(key=lambda rc: (order.get(rc[0].status, 9), rc[0].label))
    for r, c in parsed:
        if c is None:
            lines.append(f"| `{r.label}` | {r.status} | - | - | {r.detail[:120]} |")
            continue
        cells = ", ".join(
            f"{k} {v}"
            for k, v in sorted(
                c["by"].items(), key=lambda kv: (STATUS_ORDER.get(kv[0].split("/")[1], 99), kv[0])
            )
        )
        if len(cells) > 120:
            cells = cells[:119] + "…"
        lines.append(
            f"| `{r.label}` | {r.status} | {c['relation_steps']} | {c['checked']} | {cells} |"
        )
    for o in list(ledger.proofs) + list(ledger.sections):
        if owner_label(o) not in {r.label for r, _c in parsed}:
            lines.append(
                f"| `{owner_label(o)}` | not transcribed | "
                f"{len(ledger.relation_steps(o))} | 0 | - |"
            )
    bad = [(r, c) for r, c in parsed if r.status != "PASS"]
    for r, _c in bad:
        lines += ["", f"### `{r.label}`: {r.status}", ""]
        for part in str(r.detail).split(" | "):
            lines += textwrap.wrap(
                part, 100, initial_indent="- ", subsequent_indent="  ", break_on_hyphens=False
            )
    lines.append("")
    return lines


assert set(FINDING_STATUSES) <= set(STEP_STATUSES) and "prose" in METHODS
