"""The verification report: ``verification.md`` and ``verification.json``.

The Markdown file opens with the summary line, then one table row per claim
(id | label | statement | method | printed | computed | status | seconds), then a section that
repeats every ``DISCREPANCY`` and ``FAIL`` with the paper's number, the toolkit's number and the
explanation. The JSON file holds the same results as a list of dicts, with the summary counts,
the toolkit version and the date.
"""

from __future__ import annotations

import datetime as _dt
import json
import platform
from collections import Counter
from pathlib import Path

from .registry import DISCREPANCY, FAIL, STATUSES

__all__ = ["write_report", "summary_line", "summary_counts", "toolkit_version"]

_MAX_CELL = 160


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
             "| id | label | statement | method | printed | computed | status | seconds |",
             "|---|---|---|---|---|---|---|---:|"]
    for r in results:
        lines.append("| " + " | ".join([
            f"`{r.id}`", f"`{r.label}`", _cell(r.statement), r.method, _cell(r.printed),
            _cell(r.computed), f"**{r.status}**", f"{r.seconds:.2f}"]) + " |")
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
    payload = {
        "toolkit": "nbl", "version": version, "date": date,
        "python": platform.python_version(),
        "summary": summary_counts(results), "summary_line": summary_line(results),
        "claims": [r.to_dict() for r in results],
    }
    json_path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n",
                         encoding="utf-8")
    return md_path, json_path
