"""The verification report: ``verification.md`` and ``verification.json``.

``verification.md`` (readable; no line longer than :data:`MAX_LINE` characters):

1. the title, the summary counts, the **mode** that produced it (``quick``: ``nbl check
   --quick``, slow claims not run; ``full``) and the toolkit version;
2. **Findings** — every ``DISCREPANCY`` and ``CAVEAT``, ranked by consequence (statement >
   number > experiment > presentation, then by paper section): the paper's words, what it
   prints, what was computed, one evidence line per covered label, the figure that shows it
   (``figures/<id>.png`` relative to the report, and the id for ``nbl reproduce <id>``) and a
   link to the claim's details. In quick mode a finding computed by a cheaper version of a slow
   claim says so; the findings of slow claims not run are read from a computation, never
   declared: from a previous full report (``previous``) or from the cached full run of the
   claim's current code (``ClaimResult.full_run``, attached by :mod:`proofs_check.runner`),
   each with the commit it ran at; a slow claim with neither is named under the counts as
   not known to this report — so the quick report hides no finding, and announces none it did
   not read from a run;
3. **Failures** — every ``FAIL`` (the toolkit's problem) with the message;
4. **Beyond the paper** — the claims of sections ``beyond:*``: nbl's own statements about
   context laws, arms and links the paper does not treat (not findings about the paper, so
   not counted among the Findings);
5. **Proofs, step by step** — the proof-step ledger (:mod:`proofs_check.ledger`): per proof
   its relation steps by method and status, failing proofs first, and their failing steps;
6. one section per paper section (in the paper's order): a table (claim | label | method |
   status | tolerance | reason | seconds, long cells cut with "…") and, below it in the same
   order, each claim's details under an anchor ``<a id="claim-ID">``: statement, printed and
   computed values, tolerance and why, covered labels with their own evidence lines, figure,
   and the full detail, wrapped;
7. **Skipped** — every ``SKIPPED`` claim with its reason (not-checked labels, slow claims).

``verification.json``: the claim records of :mod:`proofs_check.report_json`.
"""

from __future__ import annotations

import datetime as _dt
import platform
import textwrap
from collections import Counter
from contextvars import ContextVar
from pathlib import Path

from .audit.numbering import printed_suffix
from .registry import (
    CONSEQUENCES,
    DISCREPANCY,
    FAIL,
    FINDINGS,
    PENDING_DETAIL,
    SKIPPED,
    STATUSES,
)
from .report_context import glossary, paper_paragraphs, toolkit_commit
from .report_json import RECORD_KEYS, load_records, record, report_text  # noqa: F401  (their old home)

__all__ = [
    "write_report",
    "render_markdown",
    "summary_line",
    "summary_counts",
    "toolkit_version",
    "infer_quick",
    "quick_versions",
    "SECTION_ORDER",
    "MAX_LINE",
    "BEYOND_PREFIX",
    "is_beyond",
]

#: No line of verification.md is longer than this (table rows included).
MAX_LINE = 200
_WRAP = 100  # prose in the details is wrapped at this width
_WHY_LIMIT = 700  # a finding's "why" is cut here (the details hold all of it)
_SLOW_REASON = "slow claim: not run in quick mode"
#: Sections whose claims are nbl's own statements beyond the paper (:mod:`.claims.beyond`).
BEYOND_PREFIX = "beyond:"

#: The paper's sections and appendices in the order they appear (the report follows it).
SECTION_ORDER = (
    "sec:setup",
    "sec:stein",
    "sec:nbl",
    "sec:elicitation",
    "sec:elicitation_geometry",
    "sec:decision_stability_geometry",
    "sec:regret",
    "sec:numerics",
    "app:gaussian_stein",
    "app:initialization",
    "app:conditional_population_field",
    "app:local_stability_in_2D",
    "app:local_jacobian",
    "app:local_stability",
    "app:elicitation",
    "app:bregman_mean",
    "app:primal_dual",
    "app:link_to_potential",
    "app:elicitation_stability",
    "app:self_concordance",
    "app:stochastic_analysis",
    "app:localization",
    "app:stopped-stochastic-control",
    "app:localized-estimation",
    "app:error-to-regret",
    "app:numerics",
    "app:simulation-setup",
    "app:link-geometry",
    "app:elicitation-geometry",
    "app:tanh-geometry",
    "app:stochastic-nbl",
    "app:logistic-comparison",
)


def toolkit_version() -> str:
    """Installed version of the ``nbl`` distribution (``"unknown"`` if not installed).

    Returns
    -------
    str
        The version, e.g. ``"0.9.0"``.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nbl")
    except PackageNotFoundError:
        return "unknown"


def summary_counts(results) -> dict:
    """{status: count} for every status, zeros included, in report order.

    Parameters
    ----------
    results : iterable of ClaimResult
        The claims' results.

    Returns
    -------
    dict of str to int
        Status -> count, in the order of :data:`~proofs_check.registry.STATUSES`.
    """
    c = Counter(r.status for r in results)
    return {s: c.get(s, 0) for s in STATUSES}


def summary_line(results) -> str:
    """E.g. ``"PASS 40 · CAVEAT 2 · DISCREPANCY 1 · FAIL 0 · SKIPPED 0"``.

    Parameters
    ----------
    results : iterable of ClaimResult
        The claims' results.

    Returns
    -------
    str
        The counts of :func:`summary_counts` on one line.
    """
    return " · ".join(f"{s} {n}" for s, n in summary_counts(results).items())


def infer_quick(results) -> bool:
    """True when some slow claim was skipped because the run was ``quick``.

    Parameters
    ----------
    results : iterable of ClaimResult
        The claims' results.

    Returns
    -------
    bool
        Whether the run was quick.
    """
    return any(
        r.status == SKIPPED
        and not getattr(r, "quick", True)
        and str(r.detail).startswith(_SLOW_REASON)
        for r in results
    )


def quick_versions(results) -> dict:
    """{claim id: [slow claim ids]} for the claims that, in this quick run, stand in for slow
    claims that were not run.

    A result is a cheaper quick version when the registry marks it so (a truthy
    ``quick_version`` attribute, for a check run at reduced strength in quick mode), or when a
    slow claim skipped in this run extends its id (``<id>-...``) and checks the same label — its
    own or one it covers (``init-mse-bound`` and ``init-mse-bound-grid``).

    Parameters
    ----------
    results : iterable of ClaimResult
        The claims' results.

    Returns
    -------
    dict of str to list of str
        Quick claim id -> the ids of the slow claims it stands in for.
    """
    skipped = [
        r
        for r in results
        if r.status == SKIPPED
        and not getattr(r, "quick", True)
        and str(r.detail).startswith(_SLOW_REASON)
    ]
    out: dict = {}
    for r in results:
        if r.status == SKIPPED:
            continue
        mine = {r.label, *getattr(r, "covers", ())}
        slow = [
            s.id
            for s in skipped
            if s.id.startswith(r.id + "-") and ({s.label, *getattr(s, "covers", ())} & mine)
        ]
        if slow or getattr(r, "quick_version", False):
            out[r.id] = slow
    return out


# ---------------------------------------------------------------------------- Markdown
def _flat(x) -> str:
    return "—" if x is None or str(x).strip() == "" else " ".join(str(x).split())


def _computed(r) -> str:
    """A claim's computed value as the report shows it: a proof-step ledger claim's counts
    (JSON, read by the "Proofs, step by step" section) in words."""
    if str(r.id).startswith("ledger-") and r.computed:
        from .ledger.report import computed_words

        return computed_words(r.computed)
    return r.computed


def _cell(x, limit: int) -> str:
    s = _flat(x).replace("|", "\\|")
    return s if len(s) <= limit else s[: limit - 1].rstrip("\\") + "…"


def _wrap(text, first: str, rest: str | None = None) -> list[str]:
    """``text`` (newlines kept as line breaks) wrapped at :data:`_WRAP`, the first line
    prefixed with ``first``, the others with ``rest`` (two spaces — a list item's continuation —
    when ``first`` is a list marker, nothing for a plain paragraph). A prefix too long to leave
    room for words (a long link) stands on a line of its own."""
    if rest is None:
        rest = "  " if first.lstrip().startswith("-") else ""
    out: list[str] = []
    if len(first) > _WRAP - 20:
        out, first = [first.rstrip()], rest
    paragraphs = [p for p in str(text if text is not None else "—").split("\n")] or ["—"]
    for i, para in enumerate(paragraphs):
        para = " ".join(para.split()) or ("—" if i == 0 else "")
        if not para:
            continue
        lines = textwrap.wrap(
            para,
            _WRAP,
            initial_indent=first if i == 0 else rest,
            subsequent_indent=rest,
            break_on_hyphens=False,
        )
        out += lines or [first]
    return out


def _anchor(cid: str) -> str:
    return f"claim-{cid}"


#: the figures present beside the report being rendered (``figures/<id>.png``)
_FIGURES: ContextVar[frozenset] = ContextVar("report_figures", default=frozenset())


def _figure_link(fig: str) -> str:
    """A link to the figure if it is beside the report, else how to draw it there."""
    if "/" in fig or fig.endswith((".png", ".pdf", ".svg")):
        return f"[{fig}]({fig})"
    if fig in _FIGURES.get():
        return f"[figures/{fig}.png](figures/{fig}.png) (`nbl reproduce {fig}`)"
    return (
        f"`{fig}` — draw it beside this report with `nbl reproduce {fig} --out "
        f"<report directory>/figures`"
    )


def _section_key(section: str):
    rank = {sec: i for i, sec in enumerate(SECTION_ORDER)}
    return (rank.get(section, len(rank)), section)


def _consequence(r) -> str:
    c = getattr(r, "consequence", None)
    return c if c in CONSEQUENCES else "experiment"


def _evidence_lines(r, indent: str = "  ") -> list[str]:
    ev = getattr(r, "evidence", None) or {}
    out = []
    for lab in getattr(r, "covers", ()):
        text = ev.get(lab)
        out += _wrap(
            text if text else "(no evidence line of its own)", f"{indent}- `{lab}`: ", indent + "  "
        )
    for lab, text in ev.items():  # evidence for labels not in covers
        if lab not in getattr(r, "covers", ()):
            out += _wrap(text, f"{indent}- `{lab}`: ", indent + "  ")
    return out


def _why(text, first: str, limit: int = _WHY_LIMIT) -> list[str]:
    """A finding's reason: its first line after ``first``, each further line of ``text`` a
    sub-item, all cut at a word boundary before ``limit`` characters in all."""
    paras = [" ".join(p.split()) for p in str(text).split("\n")]
    paras, left, out = [p for p in paras if p] or ["—"], limit, []
    for i, para in enumerate(paras):
        cut = len(para) > left
        if cut:
            para = para[:left].rsplit(" ", 1)[0] + " … (the full detail is in the claim's details)"
        out += _wrap(para, first) if i == 0 else _wrap(para, "  - ", "    ")
        left -= len(para)
        if cut or left <= 0:
            break
    return out


def is_beyond(r) -> bool:
    """True for a claim of a ``beyond:*`` section (nbl's statement, not the paper's).

    Parameters
    ----------
    r : ClaimResult or Claim
        A claim or its result (anything with a ``section``).

    Returns
    -------
    bool
        Whether its section starts with ``beyond:``.
    """
    return str(getattr(r, "section", "")).startswith(BEYOND_PREFIX)


def _at(commit) -> str:
    return f"at commit {commit}" if commit else "at an unrecorded commit"


def _finding(i: int, r, quick_of: dict, source: str = "") -> list[str]:
    status = r.status
    where = {
        "cached": " in the cached full run, not run here",
        "previous": " in the full report, not run here",
    }.get(source, "")
    head = (
        f"### {i}. {status}{where} ({_consequence(r)}): `{r.id}` — `{r.label}`"
        f"{printed_suffix(r.label)}, {r.section}"
    )
    lines = [head[:MAX_LINE], ""]
    if source == "previous":
        lines += _wrap(
            f"not run in this quick report; read from the full report given "
            f"({_at(r.commit)}; below, its status and computed value there)",
            "- **Source:** ",
        )
    elif source == "cached":
        lines += _wrap(
            f"not run in this quick report; read from the cached full run of this "
            f"claim's current code ({_at(r.commit)}: the cache key covers the claim, "
            f"the code it imports and the numerical libraries' versions); below, its "
            f"status and computed value there",
            "- **Source:** ",
        )
    elif r.id in quick_of:
        slow = ", ".join(f"`{s}`" for s in quick_of[r.id]) or "the full-strength check"
        lines += _wrap(
            f"computed by the cheaper quick version; the full report runs {slow}", "- **Source:** "
        )
    lines += _wrap(r.statement, "- **The paper:** ")
    if r.printed:
        lines += _wrap(r.printed, "- **It prints:** ")
    lines += _wrap(_computed(r), "- **Computed:** ")
    if getattr(r, "evidence", None) or getattr(r, "covers", ()):
        lines.append("- **Evidence per label:**")
        lines += _evidence_lines(r)
    if getattr(r, "figure", None):
        lines += _wrap(_figure_link(r.figure), "- **Figure:** ")
    lines += _why(r.detail, "- **Why:** ")
    if not source:
        lines.append(f"- [details](#{_anchor(r.id)})")
    return lines + [""]


class _Prev:
    """A full run's record — of a previous full report (its JSON keys) or of the claims cache
    (a ClaimResult's fields, ``ClaimResult.full_run``) — shaped like a ClaimResult for
    :func:`_finding`, with the ``commit`` it ran at ("" when not recorded)."""

    def __init__(self, d: dict):
        self.id, self.label, self.section = d["id"], d["label"], d.get("section", "")
        self.status, self.statement = d["status"], d["statement"]
        self.printed = d.get("paper_value", d.get("printed"))
        self.computed, self.detail = d.get("computed"), d.get("reason", d.get("detail", ""))
        self.consequence, self.figure = d.get("consequence"), d.get("figure")
        self.evidence, self.covers = d.get("evidence") or {}, tuple(d.get("covers") or ())
        self.commit = d.get("commit") or ""


def _findings(results, quick: bool, previous) -> list[str]:
    quick_of = quick_versions(results) if quick else {}
    found = [(r, "") for r in results if r.status in FINDINGS and not is_beyond(r)]
    found += _not_run_findings(results, quick, previous)
    order = {r.id: i for i, r in enumerate(results)}
    found.sort(
        key=lambda f: (
            CONSEQUENCES.index(_consequence(f[0])),
            _section_key(f[0].section),
            order.get(f[0].id, 0),
        )
    )
    lines = [f"## Findings ({len(found)})", ""]
    lines += _wrap(
        "Every DISCREPANCY and CAVEAT, most consequential first: a theorem, "
        "proposition, lemma or corollary as stated; then a printed number; then a "
        "statement about the experiments; then presentation (notation, an undefined "
        "step).",
        "",
    )
    lines.append("")
    if not found:
        return lines + ["None.", ""]
    n_read = sum(1 for _, src in found if src in ("cached", "previous"))
    if n_read:
        lines += _wrap(
            f"{n_read} of them {'comes' if n_read == 1 else 'come'} from full runs "
            "of slow claims not run in this quick report (each says which run, and "
            "its commit).",
            "",
        ) + [""]
    entries = _grouped(found)
    if len(entries) < len(found):
        lines += _wrap(
            f"A check run for each of the paper's links is one entry: {len(found)} "
            f"findings in {len(entries)} entries.",
            "",
        ) + [""]
    for i, entry in enumerate(entries, 1):
        lines += (
            _finding(i, entry[0][0], quick_of, entry[0][1])
            if len(entry) == 1
            else _finding_group(i, [r for r, _ in entry])
        )
    return lines


def _per_link(cid: str):
    """(check, link key) when the claim id is ``<check>-<paper link key>``, else None."""
    from nbl_theory.paper import PAPER_LINKS

    return next(((cid[: -len(k) - 1], k) for k in PAPER_LINKS if cid.endswith("-" + k)), None)


def _grouped(found) -> list[list]:
    """The ranked findings as entries: three or more consecutive findings of one check run per
    paper link (same status, label and consequence) become one entry."""

    def key(f):
        r, src = f
        fam = _per_link(r.id)
        return fam and not src and (fam[0], r.status, r.label, _consequence(r))

    entries: list[list] = []
    for f in found:
        if entries and key(f) and key(f) == key(entries[-1][-1]):
            entries[-1].append(f)
        else:
            entries.append([f])
    return [e for entry in entries for e in ([entry] if len(entry) >= 3 else [[f] for f in entry])]


def _finding_group(i: int, rs: list) -> list[str]:
    first, (check, key0) = rs[0], _per_link(rs[0].id)
    head = (
        f"### {i}. {first.status} ({_consequence(first)}): `{check}-*` for "
        f"{len(rs)} links — `{first.label}`, {first.section}"
    )
    lines = [head[:MAX_LINE], ""]
    lines += _wrap(
        f"one check run for each of the paper's links; {len(rs)} give this "
        "finding (each link's claim in full under its details link)",
        "- **What:** ",
    )
    lines += _wrap(first.statement, f"- **The paper** (for `{key0}`): ")
    lines.append("- **Per link:**")
    for r in rs:
        lines += _wrap(
            f"{_flat(_computed(r))} — [details](#{_anchor(r.id)})",
            f"  - `{_per_link(r.id)[1]}`: ",
            "    ",
        )
    lines += _why(first.detail, f"- **Why** (for `{key0}`): ")
    return lines + [""]


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _full_runs(results, quick: bool, previous) -> dict:
    """{claim id: (record, source)}: the full run of each claim skipped in a quick report,
    from a previous full report (``"previous"``, a :class:`_Prev`) or else from the claims
    cache (``"cached"``, ``ClaimResult.full_run``); empty in a full report."""
    if not quick:
        return {}
    skipped = {r.id: r for r in results if r.status == SKIPPED}
    out = {d["id"]: (_Prev(d), "previous") for d in previous or () if d.get("id") in skipped}
    for cid, r in skipped.items():
        full = getattr(r, "full_run", None)
        if cid not in out and isinstance(full, dict):
            out[cid] = (_Prev(full), "cached")
    return out


def _not_run_findings(results, quick: bool, previous) -> list[tuple]:
    """(record, source) of the findings of claims not run in a quick report, read from their
    full runs (:func:`_full_runs`); none in a full report."""
    return [
        (p, src)
        for p, src in _full_runs(results, quick, previous).values()
        if p.status in FINDINGS and not is_beyond(p)
    ]


def _unknown_slow(results, quick: bool, previous) -> list:
    """The slow claims a quick report skipped without any full run to read: their verdicts are
    not known to it."""
    if not quick:
        return []
    runs = _full_runs(results, quick, previous)
    return [
        r
        for r in results
        if r.status == SKIPPED
        and not getattr(r, "quick", True)
        and str(r.detail).startswith(_SLOW_REASON)
        and r.id not in runs
    ]


def _headline_findings(results, quick: bool, previous) -> list[str]:
    """Under the counts: the DISCREPANCYs by name, and (quick mode) the findings of slow claims
    the counts leave out because those claims did not run here."""
    lines = []
    found = sorted(
        (r for r in results if r.status == DISCREPANCY and not is_beyond(r)),
        key=lambda r: (CONSEQUENCES.index(_consequence(r)), _section_key(r.section)),
    )
    if found:
        lines += _wrap("; ".join(f"`{r.id}` ({r.label})" for r in found), "**Discrepancies:** ") + [
            ""
        ]
    beyond = Counter(r.status for r in results if is_beyond(r) and r.status in FINDINGS)
    if beyond:
        what = " and ".join(_count(beyond[st], st) for st in FINDINGS if beyond.get(st))
        lines += _wrap(
            f"**Beyond the paper:** {what} of these counts "
            f"{'is' if sum(beyond.values()) == 1 else 'are'} about nbl's own "
            "statements, not the paper's (own section, not among the Findings).",
            "",
        ) + [""]
    not_run = _not_run_findings(results, quick, previous)
    if not_run:
        by = Counter(r.status for r, _src in not_run)
        what = " and ".join(_count(by[st], st) for st in FINDINGS if by.get(st))
        lines += _wrap(
            f"**Not in these counts:** full runs of slow claims not run here report "
            f"{what} ("
            + ", ".join(f"`{r.id}` ({_at(r.commit)})" for r, _ in not_run)
            + "; under Findings, each marked as read from that run).",
            "",
        ) + [""]
    unknown = _unknown_slow(results, quick, previous)
    if unknown:
        lines += _wrap(
            f"**Not known here:** {_count(len(unknown), 'slow claim')} did not run "
            "and no full run of "
            + ("its" if len(unknown) == 1 else "their")
            + " current code was found (in the cache or a full report given), so "
            "whether "
            + ("it reports a finding" if len(unknown) == 1 else "they report findings")
            + " is not known to this report: "
            + ", ".join(f"`{r.id}`" for r in unknown)
            + ". Run `nbl check` (full) to compute them.",
            "",
        ) + [""]
    return lines


def _beyond(results) -> list[str]:
    rows = [r for r in results if is_beyond(r)]
    if not rows:
        return []
    lines = [f"## Beyond the paper ({summary_line(rows)})", ""]
    lines += _wrap(
        "These statements are nbl's, not the paper's: the population analysis redone "
        "for context laws, arms and links the paper does not treat (its results are "
        "stated under assum:gaussian_context), checked against an independent "
        "witness. A CAVEAT here says the paper's assumption is needed — a user whose "
        "contexts or arms differ cannot rely on the Gaussian λ*; it is not a "
        "discrepancy of the paper. A FAIL is the toolkit's.",
        "",
    ) + [""]
    for r in rows:
        lines.append(f"### {r.status}: `{r.id}`"[:MAX_LINE])
        lines.append("")
        lines += _wrap(r.statement, "- **nbl states:** ")
        if r.computed is not None:
            lines += _wrap(_computed(r), "- **Computed:** ")
        if getattr(r, "figure", None):
            lines += _wrap(_figure_link(r.figure), "- **Figure:** ")
        lines += _why(r.detail, "- **Why:** ")
        lines += [f"- [details](#{_anchor(r.id)})", ""]
    return lines


def _failures(results) -> list[str]:
    bad = [r for r in results if r.status == FAIL]
    lines = [f"## Failures ({len(bad)})", ""]
    if not bad:
        return lines + ["None.", ""]
    lines += _wrap(
        "FAIL: the toolkit could not confirm something that should hold — a bug "
        "until shown otherwise.",
        "",
    ) + [""]
    for r in bad:
        lines.append(f"### `{r.id}` — `{r.label}`{printed_suffix(r.label)}, {r.section}"[:MAX_LINE])
        lines += _wrap(r.statement, "- **The paper:** ")
        lines += _wrap(_computed(r), "- **Computed:** ")
        lines += _wrap(r.detail, "- **Message:** ")
        lines += [f"- [details](#{_anchor(r.id)})", ""]
    return lines


_COLS = (
    ("claim", 44),
    ("label", 36),
    ("method", 14),
    ("status", 15),
    ("tolerance", 30),
    ("reason", 30),
    ("seconds", 7),
)


def _row(r) -> str:
    tol = f"{_flat(r.tolerance)} ({_flat(r.tolerance_why)})"
    cells = (
        f"`{_cell(r.id, _COLS[0][1] - 2)}`",
        f"`{_cell(r.label, _COLS[1][1] - 2)}`",
        r.method,
        f"**{r.status}**",
        _cell(tol, _COLS[4][1]),
        _cell(r.detail, _COLS[5][1]),
        f"{r.seconds:.2f}",
    )
    return "| " + " | ".join(cells) + " |"


def _details(r) -> list[str]:
    lines = [f'<a id="{_anchor(r.id)}"></a>', f"#### `{r.id}` — {r.status}"[:MAX_LINE], ""]
    lines += _wrap(
        f"`{r.label}`" + "".join(f", `{c}`" for c in getattr(r, "covers", ())), "- **Label(s):** "
    )
    lines += _wrap(r.statement, "- **Statement:** ")
    lines += _wrap(
        f"{r.method}; tolerance {_flat(r.tolerance)} — {_flat(r.tolerance_why)}", "- **Method:** "
    )
    if r.printed:
        lines += _wrap(r.printed, "- **Paper prints:** ")
    if r.computed is not None:
        lines += _wrap(_computed(r), "- **Computed:** ")
    if getattr(r, "covers", ()) or getattr(r, "evidence", None):
        lines.append("- **Covered labels:**")
        lines += _evidence_lines(r)
    if r.status in FINDINGS:
        lines.append(f"- **Consequence:** {_consequence(r)}")
    if getattr(r, "figure", None):
        lines += _wrap(_figure_link(r.figure), "- **Figure:** ")
    lines += _wrap(r.detail, "- **Detail:** ")
    return lines + [""]


def _sections(results) -> list[str]:
    sections: dict[str, list] = {}
    for r in results:
        sections.setdefault(r.section, []).append(r)
    lines = []
    head = "| " + " | ".join(c for c, _ in _COLS) + " |"
    rule = "|" + "|".join("---:" if c == "s" else "---" for c, _ in _COLS) + "|"
    for section, rows in sorted(sections.items(), key=lambda kv: _section_key(kv[0])):
        lines += [f"## `{section}` ({summary_line(rows)})", "", head, rule]
        lines += [_row(r) for r in rows]
        lines.append("")
        for r in rows:
            lines += _details(r)
    return lines


def _skipped(results) -> list[str]:
    skipped = [r for r in results if r.status == SKIPPED]
    if not skipped:
        return []
    lines = [f"## Skipped ({len(skipped)})", ""]
    for r in skipped:
        lines += _wrap(r.detail, f"- [`{r.id}`](#{_anchor(r.id)}) (`{r.label}`): ", "  ")
    return lines + [""]


def render_markdown(
    results,
    quick: bool | None = None,
    version: str = "unknown",
    date: str = "",
    previous=None,
    figures_dir=None,
    cached: bool = True,
    paper=None,
) -> str:
    """verification.md (module docstring); ``quick=None`` infers the mode; figures found as
    ``figures_dir/<id>.png`` are linked; ``cached``: False for a ``--no-cache`` run;
    ``paper``: the paper text in force when it is not the pinned version.

    Parameters
    ----------
    results : iterable of ClaimResult
        The claims' results.
    quick : bool, optional
        The run's mode (None: inferred by :func:`infer_quick`).
    version : str, default "unknown"
        The toolkit's version named in the header.
    date : str, default ""
        The run's date named in the header.
    previous : list of dict, optional
        Records of a previous full ``verification.json``, whose findings a quick run lists for
        the claims it did not run.
    figures_dir : str or pathlib.Path, optional
        Where the figures are looked for.
    cached : bool, default True
        False for a ``--no-cache`` run.
    paper : (PaperSource, Staleness), optional
        A paper text that is not the pinned version, and the checks it leaves stale.

    Returns
    -------
    str
        The Markdown text.
    """
    present = frozenset(p.stem for p in Path(figures_dir).glob("*.png")) if figures_dir else None
    token = _FIGURES.set(present or frozenset())
    try:
        return _render(results, quick, version, date, previous, cached, paper)
    finally:
        _FIGURES.reset(token)


def _render(results, quick, version, date, previous, cached: bool = True, paper=None) -> str:
    quick = infer_quick(results) if quick is None else quick
    n_slow = sum(1 for r in results if r.status == SKIPPED and not getattr(r, "quick", True))
    n_skipped = sum(1 for r in results if r.status == SKIPPED)
    if quick:
        qv = quick_versions(results)
        n_qf = sum(1 for r in results if r.id in qv and r.status in FINDINGS)
        others = n_skipped - n_slow
        mode = (
            f"**Mode: quick** (`nbl check --quick`): {_count(n_slow, 'slow claim')} "
            f"{'was' if n_slow == 1 else 'were'} not run"
            + (
                f" (the other {others} SKIPPED "
                + ("is a label" if others == 1 else "are labels")
                + " not checked, by design, with the reason)"
                if others > 0
                else ""
            )
            + "; all are listed under Skipped. "
            + (
                "Cheaper quick versions of slow claims ran instead ("
                + ", ".join(f"`{i}`" for i in qv)
                + f"); {_count(n_qf, 'finding')} "
                f"{'comes' if n_qf == 1 else 'come'} from them, and each says so."
                if qv
                else "No claim ran as a cheaper quick version of a slow one."
            )
            + (
                " Findings of slow claims are taken from the full report given."
                if previous
                else " Run `nbl check` (full) for the slow claims."
            )
        )
    else:
        mode = "**Mode: full** (`nbl check`): every claim in this report ran at full strength."
    lines = [
        "# Verification of “Elicitation and Decision Geometry in Single-Index Bandits”",
        "",
        f"**{summary_line(results)}**",
        "",
    ]
    n_pending = sum(1 for r in results if r.status == SKIPPED and r.detail == PENDING_DETAIL)
    if n_pending:
        lines += _wrap(
            f"**Incomplete: {n_pending} of {len(results)} claims did not run** — the "
            "check was interrupted (or is still running) before they finished; they "
            "are listed as SKIPPED with that reason. Run the same `nbl check` again: "
            + (
                "the claims that finished come from the cache."
                if cached
                else "this run did not use the cache (--no-cache): every claim runs again."
            ),
            "",
        )
        lines += [""]
    lines += _headline_findings(results, quick, previous)
    lines += _wrap(mode, "") + [""]
    head, *more = paper_paragraphs(paper)
    for par in [f"nbl {version} · {date} · Python {platform.python_version()} · {head}", *more]:
        lines += _wrap(par, "") + [""]
    lines += _wrap(
        "Statuses: PASS (confirmed within the stated tolerance); CAVEAT (confirmed, "
        "but the statement needs a condition the paper does not state, is vacuous "
        "for the paper's own examples, or depends on a choice the paper leaves open); "
        "DISCREPANCY (the library's computation and an independent witness agree with "
        "each other and disagree with what the paper prints or states; in an audit of the "
        "paper's text - notation, cross-references - the paper's own lines, quoted with their "
        "numbers, are the evidence and no library computation is involved); FAIL (the "
        "toolkit could not confirm something that should hold, or its own two computations "
        "disagree: a defect of the toolkit, and the paper is not judged); SKIPPED (not run, "
        "with the reason).",
        "",
    )
    lines.append("")
    body = _findings(results, quick, previous)
    body += _failures(results)
    body += _beyond(results)
    from .ledger.report import section_markdown

    body += section_markdown(results)
    body += _sections(results)
    body += _skipped(results)
    names = glossary("\n".join(body))
    if names:
        lines += _wrap(
            "Names of links and conditions (`tt-stable`, `we-0.72`, `cond:…`) and a "
            "few terms of the checks are the toolkit's, explained under [Names used "
            "in this report](#names).",
            "",
        )
        lines.append("")
        at = next(
            (
                i
                for i, ln in enumerate(body)
                if ln.startswith("## ")
                and i > 0
                and not ln.startswith(("## Failures", "## Findings"))
            ),
            len(body),
        )
        body[at:at] = (
            ['<a id="names"></a>', "## Names used in this report", ""]
            + _wrap(
                "Short names of links, conditions named by the toolkit's hypotheses audit "
                "(`cond:*`, quoted from the paper line given) and terms of the checks: not labels "
                "or words of the paper.",
                "",
            )
            + [""]
            + [ln for key, text in names for ln in _wrap(text, f"- `{key}`: ")]
            + [""]
        )
    lines += body
    return "\n".join(lines).rstrip() + "\n"


def write_report(
    results,
    out_dir,
    quick: bool | None = None,
    previous=None,
    figures_dir=None,
    cached: bool = True,
    paper=None,
) -> tuple[Path, Path]:
    """Write ``verification.md`` and ``verification.json`` into ``out_dir`` (created if needed;
    ``cached`` and ``paper``: as in :func:`render_markdown`).

    Parameters
    ----------
    results : list of ClaimResult
        The claims' results, in registration order.
    out_dir : str or pathlib.Path
        The directory written into (created if needed).
    quick : bool, optional
        The mode of the run (``nbl check --quick``); inferred from the results when None (a slow
        claim skipped as slow means quick).
    previous : list of dict, optional
        Records of a previous *full* ``verification.json`` (:func:`load_records`): in quick
        mode its findings for claims not run now are listed as read from that report.
    figures_dir : path, optional
        Where the report's figure links point (default ``out_dir/figures``): a figure found
        there as ``<id>.png`` is linked, another says how to draw it there.
    cached : bool, default True
        False for a ``--no-cache`` run (the report says so).
    paper : (PaperSource, Staleness), optional
        A given paper text that is not the pinned version, named in the report with the checks
        it leaves stale (:func:`proofs_check.report_context.paper_paragraphs`).

    Returns
    -------
    md_path : pathlib.Path
        The path of ``verification.md``.
    json_path : pathlib.Path
        The path of ``verification.json``.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    date = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
    md_path, json_path = out / "verification.md", out / "verification.json"
    commit = toolkit_commit()
    version = toolkit_version() + (f" (commit {commit})" if commit else "")
    md_path.write_text(
        render_markdown(
            results,
            quick,
            version,
            date,
            previous,
            figures_dir=Path(figures_dir or out / "figures"),
            cached=cached,
            paper=paper,
        ),
        encoding="utf-8",
    )
    mode = "quick" if (infer_quick(results) if quick is None else quick) else "full"
    json_path.write_text(
        report_text(
            [record(r) for r in results], mode, summary_counts(results), [md_path, json_path]
        ),
        encoding="utf-8",
    )
    return md_path, json_path
