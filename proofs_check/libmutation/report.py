"""The markdown report of a library-mutation run (:func:`markdown`): the method, totals, per
module counts and kill rates, the blames, the survivors with their reasons, the equivalent
mutants and the modules not mutated."""

from __future__ import annotations

from collections import Counter

__all__ = ["markdown", "pct"]

#: the outcomes, in report order (the same as :data:`proofs_check.libmutation.run.OUTCOMES`)
OUTCOMES = ("killed-as-FAIL", "blame", "tests-only", "survived", "timeout", "equivalent")


def pct(x) -> str:
    """A rate as a percentage with one decimal ('—' for None)."""
    return "—" if x is None else f"{100 * x:.1f}%"


def markdown(env: dict, command: str) -> str:
    """The mutation report (markdown) of an envelope from :func:`run_library`."""
    t, m = env["totals"], env["meta"]
    out = [
        "# Library mutation report",
        "",
        "One-line bugs planted in the modules of `nbl_theory` and `nbl_sim` that compute a "
        "quantity of the paper, each run in a fresh process against the claims (and the "
        "library's tests) that execute the mutated line "
        "(`proofs_check/libmutation`, issue 34 item 3).",
        "",
        "Reproduce:",
        "",
        "```",
        command,
        "```",
        "",
        f"Mode {m['mode']} (claims run: {'quick ones' if m['mode'] == 'quick' else 'all'}), "
        f"sample {t['total']} of {m['population']} mutants, "
        + (
            f"the {m['sample_from']['found']} of an earlier run's envelope (--sample-from), "
            if m.get("sample_from")
            else f"seed {m['seed']}, "
        )
        + f"{'with' if m['tests'] else 'without'} tests, claim budget {m['budget']:.0f} s per "
        f"mutant, coverage map `{m['coverage_key']}`; {m['seconds']:.0f} s wall."
        + (
            f" **The run was {m['stopped']}: {len(env['not_run'])} sampled mutants did not "
            f"run** (listed at the end; the totals count the mutants that did)."
            if m.get("stopped")
            else ""
        ),
        "",
        *_METHOD,
        "## Totals",
        "",
        "| outcome | mutants |",
        "|---|---:|",
    ]
    out += [f"| {o} | {t[o]} |" for o in OUTCOMES]
    out += [
        f"| **total** | **{t['total']}** |",
        "",
        f"Kill rate by the registry alone (killed-as-FAIL / non-equivalent): "
        f"**{pct(t['kill_rate_registry'])}**; by registry + tests: "
        f"**{pct(t['kill_rate_registry_tests'])}**. A blame is never counted as a kill. "
        f"On the {t.get('claimed', '—')} non-equivalent mutants of lines that some claim "
        f"executes, the registry alone kills **{pct(t.get('kill_rate_registry_claimed'))}** "
        "(the other lines are reached by the library's tests only)."
        + (
            f" Leaving out also the {t['triaged_equivalent']} survivors that ran and that the "
            "triage argues equivalent (classes `equivalent`, `equivalent-by-contract`: the "
            "same numbers whatever the input, or by the reproducibility contract), the "
            f"registry alone kills **{pct(t['kill_rate_registry_not_equivalent'])}** and "
            f"registry + tests **{pct(t['kill_rate_registry_tests_not_equivalent'])}**."
            if t.get("triaged_equivalent")
            else ""
        )
        + (
            f" {t['triaged_not_run']} of the survivors are triaged known survivors that this "
            "run did not run (`--run-triaged` runs them); they count as not killed."
            if t.get("triaged_not_run")
            else ""
        ),
        "",
        *_report_moved(env),
        "## Per module",
        "",
        "| module | total | FAIL | blame | tests-only | survived | timeout | equiv. "
        "| registry | +tests |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, c in env["modules"].items():
        out.append(
            f"| `{name}` | {c['total']} | {c['killed-as-FAIL']} | {c['blame']} | "
            f"{c['tests-only']} | {c['survived']} | {c['timeout']} | "
            f"{c['equivalent']} | {pct(c['kill_rate_registry'])} | "
            f"{pct(c['kill_rate_registry_tests'])} |"
        )
    out += [
        "",
        f"## Blames ({len(env['blames'])})",
        "",
        "A claim's verdict about the paper moved and no claim FAILed: the report would "
        "blame (or clear) the paper for a bug of the library. Each is a claim that needs "
        "an independent witness (issue 34 item 1).",
        "",
    ]
    if env["blames"]:
        out += ["| module:line | operator | mutation | claims turned |", "|---|---|---|---|"]
        for b in env["blames"]:
            turned = "; ".join(f"`{c}` {a} → {s}" for c, a, s, _ in b["transitions"] if s != "FAIL")
            out.append(
                f"| `{b['path']}:{b['line']}` | {b['operator']} | "
                f"`{_cell(b['before'])}` → `{_cell(b['after'])}` | {turned} |"
            )
    else:
        out.append("None in this sample.")
    surv = env["survivors"]
    done = [s for s in surv if s.get("triage")]
    by_class = Counter(s["triage"]["class"] for s in done)
    out += [
        "",
        f"## Survivors ({len(surv)})",
        "",
        "Nothing noticed the mutant (or its process ran out of time before a verdict "
        "moved): what the run saw, and the triage — why the mutant is left as it is, from "
        "`proofs_check/libmutation/data/triage.json` (`proofs_check.libmutation.triage`).",
        "",
        f"Triaged: **{len(done)} of {len(surv)}**"
        + (" (" + ", ".join(f"{n} {c}" for c, n in by_class.most_common()) + ")" if done else "")
        + (
            f"; **{len(surv) - len(done)} not triaged yet** (marked —)."
            if len(done) < len(surv)
            else "."
        ),
        "",
    ]
    if surv:
        out += [
            "| module:line | operator | mutation | the run | triage |",
            "|---|---|---|---|---|",
        ]
        for s in surv:
            t = s.get("triage")
            tri = f"**{t['class']}**: {_cell(t['reason'], None)} ({t['triaged_at']})" if t else "—"
            out.append(
                f"| `{s['path']}:{s['line']}` | {s['operator']} | "
                f"`{_cell(s['before'])}` → `{_cell(s['after'])}` | {_cell(s['reason'])} | "
                f"{tri} |"
            )
        used = sorted({s["triage"]["class"] for s in done})
        if used:
            from .triage import CLASSES

            out += ["", "Triage classes:", ""]
            out += [f"- **{c}**: {CLASSES.get(c, '?')}" for c in used]
    out += ["", f"## Equivalent ({len(env['equivalents'])})", ""]
    out += [
        f"- `{e['path']}:{e['line']}` {e['operator']} `{_cell(e['before'])}` → "
        f"`{_cell(e['after'])}`: {e['reason']}"
        for e in env["equivalents"]
    ] or ["None."]
    ng = Counter()
    for per in env["not_generated"].values():
        ng.update(per)
    out += [
        "",
        "Trivially equivalent mutants not generated (over every target module): "
        + (", ".join(f"{v} ({k})" for k, v in ng.items()) or "none")
        + ".",
        "",
        "## Modules not mutated",
        "",
    ]
    out += [f"- `{k}`: {v}" for k, v in env["excluded"].items()]
    if env.get("not_run"):
        out += [
            "",
            f"## Sampled but not run ({len(env['not_run'])})",
            "",
            ", ".join(f"`{i}`" for i in env["not_run"]),
        ]
    return "\n".join(out) + "\n"


_METHOD = [
    "## Method",
    "",
    "- **Mutants** (`proofs_check/libmutation/operators.py`): from the syntax tree of each "
    "target module — a constant ×2, /2, ±1 or negated; `+`↔`-`, `*`↔`/`; a dropped term or "
    "factor; exchanged operands, call arguments or indices; `<`↔`<=`/`>`, `==`↔`!=`; "
    "`max`↔`min`; a range bound ±1; `-a`→`a`. Strings, messages, `raise`/`assert`, "
    "decorators and annotations are never mutated.",
    "- **Which claims and tests** run a mutant: those whose coverage.py context executes its "
    "line (one context per quick claim — every claim with `--full` — and one per test of "
    "`tests/theory` and `tests/sim`), collected once per source key and cached as JSON. A "
    "module-level line (executed at import) selects every context executing any line of its "
    "module; the lines of a numba-jitted function are credited to the contexts of the lines "
    "naming it; with `--full`, the cells that several claims read from a shared cache (the "
    "full study's) are computed once and credited to each of them. "
    "Claims run cheapest first within a time budget; tests run only when no "
    "verdict moved, with `pytest -x`. A mutant's process is ended at twice the seconds the "
    "map timed for its claims and tests, plus 120 s of start-up (60 s more for one that "
    "compiles the kernels), and at most 3 × budget + 120 s; its tests then get a worker of "
    "their own.",
    "- **Isolation**: each mutant runs in a fresh `python -m proofs_check.libmutation.worker` "
    "process; an import hook compiles the mutated tree under the module's own file name, so "
    "no file of the work tree is touched. A spawned worker would import the unmutated module, "
    "so every executor the mutant's code chooses by itself runs in its process "
    "(`NBL_IN_PROCESS=1`). Every mutant has an empty `NBL_CACHE_DIR` (no "
    "cached claim or sweep result stands in for a computation), and numba's kernels live "
    "there: a mutant of a module that numba code can reach compiles every kernel from the "
    "mutated code, never loading one of the original; any other mutant is given the "
    "unmutated kernels the run keeps (the same machine code, not compiled again); so are the "
    "coverage map's chunks.",
    "- **Outcomes**: *killed-as-FAIL* (a claim turned FAIL, or the registry no longer "
    "loads), *blame* (a verdict about the paper moved — PASS→DISCREPANCY/CAVEAT or a finding "
    "→PASS — without a FAIL; it wins over a FAIL elsewhere, since the report would still "
    "judge the paper by it), *tests-only*, *survived* (with the reason), *timeout*, "
    "*equivalent* (the mutated module compiles to the original's instructions).",
    "- **The report's text**: the coverage map records, for each claim, a fingerprint of what "
    "the report prints for it (its computed value and detail, SHA-256); each mutant's worker "
    "records the same. A mutant not killed lists the claims whose text moved while their "
    "verdict stayed (`report_moved`): a library bug that changed the report with no FAIL "
    "(or a move within the claim's tolerance). An empty list means every report the mutant "
    "reached reads the same, byte for byte.",
    "- **Known survivors**: a mutant the triage lists "
    "(`proofs_check/libmutation/data/triage.json`, with its class and reason) is reported "
    "*survived* with its triage and is not run, unless `--run-triaged`; it counts as not "
    "killed, so skipping it can only understate a rate. A check that kills it makes its entry "
    "stale: the entry is removed when the kill is seen (a run with `--run-triaged`).",
    "- **Why not mutmut or cosmic-ray**: both judge a mutant by a test command's exit status "
    "(killed or survived), so a claim turning DISCREPANCY and one turning FAIL look the same, "
    "and the distinction is the point here. mutmut 3 applies mutants through trampoline "
    "functions inside the mutated module, which numba cannot compile; cosmic-ray has no "
    "×2, /2, max↔min or dropped-term operators and distributes over its own HTTP workers, not "
    "the toolkit's executor (a local pool or Dask).",
    "",
]


def _cell(s, width: int | None = 90) -> str:
    """``s`` for a table cell: pipes escaped, one line, cut to ``width`` characters (None:
    whole)."""
    s = str(s).replace("|", "\\|").replace("\n", " ")
    return s if width is None or len(s) <= width else s[: width - 3] + "..."


def _report_moved(env: dict) -> list[str]:
    """The paragraph (and list) of the mutants not killed whose claims' report text moved."""
    t = env["totals"]
    if t.get("alive_claims_run") is None:
        return []
    moved = [
        r
        for r in env["mutants"]
        if r.get("report_moved") and r.get("outcome") in ("tests-only", "survived", "timeout")
    ]
    out = [
        f"**The report's text** (`run.classify`, `worker.report_text`): of the "
        f"{t['alive_claims_run']} mutants not killed whose claims ran, "
        f"**{t['report_moved']}** changed a printed value or detail of some claim whose "
        "verdict stayed (a library bug that moves the report with no FAIL, unless the move "
        "is within the claim's tolerance); the others left every report they reached the "
        "same, byte for byte.",
        "",
    ]
    if moved:
        out += [
            "| mutant | outcome | claims whose text moved: the first difference |",
            "|---|---|---|",
        ]
        for r in moved:
            diffs = dict(r.get("report_moves") or [])
            out.append(
                f"| `{r['id']}` | {r['outcome']} | "
                + "; ".join(
                    f"`{c}`" + (f": {_cell(diffs[c], None)}" if diffs.get(c) else "")
                    for c in r["report_moved"]
                )
                + " |"
            )
        out.append("")
    return out
