"""The verification report: ``verification.md`` and ``verification.json``.

The Markdown file opens with the summary line, then one table row per claim
(id | label | statement | method | printed | computed | status | seconds), then a section that
repeats every ``DISCREPANCY`` and ``FAIL`` with the paper's number, the toolkit's number and the
explanation. The JSON file is a list of claim records with exactly the keys
:data:`RECORD_KEYS` (the summary counts follow from their ``status``).
"""

from __future__ import annotations

import datetime as _dt
import json
import platform
from collections import Counter
from pathlib import Path

from .registry import DISCREPANCY, FAIL, STATUSES

__all__ = ["write_report", "summary_line", "summary_counts", "toolkit_version", "record",
           "RECORD_KEYS"]

_MAX_CELL = 160

#: The paper's sections and appendices in the order they appear (the report follows it).
SECTION_ORDER = (
    "sec:setup", "sec:stein", "sec:nbl", "sec:elicitation", "sec:elicitation_geometry",
    "sec:decision_stability_geometry", "sec:regret", "sec:numerics", "app:gaussian_stein",
    "app:initialization", "app:conditional_population_field", "app:local_stability_in_2D",
    "app:local_jacobian", "app:local_stability", "app:elicitation", "app:bregman_mean",
    "app:primal_dual", "app:link_to_potential", "app:elicitation_stability",
    "app:self_concordance", "app:stochastic_analysis", "app:localization",
    "app:stopped-stochastic-control", "app:localized-estimation", "app:error-to-regret",
    "app:numerics", "app:simulation-setup", "app:link-geometry", "app:elicitation-geometry",
    "app:tanh-geometry", "app:stochastic-nbl", "app:logistic-comparison",
)


def toolkit_version() -> str:
    """Installed version of the ``nbl`` distribution (``"unknown"`` if not installed)."""
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover - Python < 3.8
        return "unknown"
    try:
        return version("nbl")
    except PackageNotFoundError:
        return "unknown"


def summary_counts(results) -> dict:
    """{status: count} for every status, zeros included, in report order."""
    c = Counter(r.status for r in results)
    return {s: c.get(s, 0) for s in STATUSES}


def summary_line(results) -> str:
    """E.g. ``"PASS 40 · DISCREPANCY 1 · FAIL 0 · SKIPPED 0"``."""
    return " · ".join(f"{s} {n}" for s, n in summary_counts(results).items())


def _cell(x, limit: int | None = _MAX_CELL) -> str:
    if x is None:
        return "—"
    s = " ".join(str(x).split()).replace("|", "\\|")
    if limit and len(s) > limit:
        s = s[: limit - 1] + "…"
    return s


def _markdown(results, version: str, date: str) -> str:
    lines = ["# Verification of “Elicitation and Decision Geometry in Single-Index Bandits”", "",
             f"**{summary_line(results)}**", "",
             f"nbl {version} · {date} · Python {platform.python_version()}", "",
             "Statuses: PASS (confirmed within the stated tolerance); DISCREPANCY (sound "
             "computation that disagrees with what the paper prints); FAIL (the toolkit could "
             "not confirm something that should hold); SKIPPED (not run, with the reason).", "",
             ]
    header = ["| id | label | statement | method | printed | computed | status | seconds |",
              "|---|---|---|---|---|---|---|---:|"]
    sections: dict[str, list] = {}
    for r in results:
        sections.setdefault(r.section, []).append(r)
    rank = {sec: i for i, sec in enumerate(SECTION_ORDER)}
    for section, rows in sorted(sections.items(), key=lambda kv: rank.get(kv[0], len(rank))):
        counts = summary_line(rows)
        lines += [f"## `{section}` ({counts})", "", *header]
        for r in rows:
            label = f"`{r.label}`" + "".join(f", `{c}`" for c in getattr(r, "covers", ()))
            lines.append("| " + " | ".join([
                f"`{r.id}`", label, _cell(r.statement), r.method, _cell(r.printed),
                _cell(r.computed), f"**{r.status}**", f"{r.seconds:.2f}"]) + " |")
        lines.append("")
    bad = [r for r in results if r.status in (DISCREPANCY, FAIL)]
    lines += ["", "## Discrepancies and failures", ""]
    if not bad:
        lines.append("None.")
    for r in bad:
        lines += [f"### {r.status}: `{r.id}` (`{r.label}`, {r.section})", "",
                  f"- **Statement:** {_cell(r.statement, None)}",
                  f"- **Paper prints:** {_cell(r.printed, None)}",
                  f"- **Computed:** {_cell(r.computed, None)}",
                  f"- **Method / tolerance:** {r.method}; {_cell(r.tolerance, None)} "
                  f"({_cell(r.tolerance_why, None)})",
                  f"- **Detail:** {_cell(r.detail, None)}", ""]
    skipped = [r for r in results if r.status == "SKIPPED"]
    if skipped:
        lines += ["", "## Skipped", ""]
        lines += [f"- `{r.id}`: {_cell(r.detail, None)}" for r in skipped]
    lines += ["", "## Details", ""]
    lines += [f"- `{r.id}` — tolerance {_cell(r.tolerance, None)} ({_cell(r.tolerance_why, None)})."
              f" {_cell(r.detail, None)}" for r in results]
    return "\n".join(lines) + "\n"


#: The keys of a claim record in verification.json (issue 4), in order.
RECORD_KEYS = ("id", "label", "statement", "method", "tolerance", "paper_value", "computed",
               "status", "reason", "seconds")


def record(r) -> dict:
    """One claim as a JSON record with exactly :data:`RECORD_KEYS`: ``tolerance`` carries the
    tolerance and why; ``reason`` the detail (how it was computed, why it disagrees, why it was
    skipped)."""
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
    }


def write_report(results, out_dir) -> tuple[Path, Path]:
    """Write ``verification.md`` and ``verification.json`` into ``out_dir`` (created if needed).

    Returns
    -------
    (md_path, json_path)
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    version = toolkit_version()
    date = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
    md_path, json_path = out / "verification.md", out / "verification.json"
    md_path.write_text(_markdown(results, version, date), encoding="utf-8")
    payload = [record(r) for r in results]
    json_path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n",
                         encoding="utf-8")
    return md_path, json_path
