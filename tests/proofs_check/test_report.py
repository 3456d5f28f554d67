"""The verification report (proofs_check.report): Findings first and ranked by consequence,
failures, per-section tables with anchored details, skipped claims, the mode, the JSON record
schema, and no line longer than a screen."""

from __future__ import annotations

import json

import jsonschema

from proofs_check import report
from proofs_check.cli.jsonout import schema
from proofs_check.registry import CAVEAT, DISCREPANCY, FAIL, PASS, SKIPPED, ClaimResult
from proofs_check.report import (
    MAX_LINE,
    infer_quick,
    quick_versions,
    render_markdown,
    summary_counts,
    summary_line,
    write_report,
)
from proofs_check.report_json import RECORD_KEYS, load_records


def _result(
    i,
    status,
    printed="1.00",
    computed="1.00",
    detail="",
    *,
    label="eq:x",
    section="sec:x",
    quick=True,
    covers=(),
    consequence=None,
    figure=None,
    evidence=None,
    cid=None,
    full_run=None,
):
    return ClaimResult(
        cid or f"claim-{i}",
        label,
        section,
        f"statement {i} with a | pipe",
        "symbolic",
        "exact",
        "why",
        printed,
        computed,
        status,
        detail,
        0.25,
        quick,
        tuple(covers),
        consequence,
        figure,
        dict(evidence or {}),
        full_run,
    )


def _sample():
    long = "a very long explanation " * 40
    return [
        _result(0, PASS, covers=("eq:y",), evidence={"eq:y": "eq:y checked: 1e-15"}),
        _result(
            1,
            CAVEAT,
            detail="needs a condition " + long,
            consequence="presentation",
            label="alg:nbl",
            section="sec:nbl",
        ),
        _result(
            2,
            DISCREPANCY,
            "2.15e-5",
            "2.08e-5",
            "paper value is off",
            consequence="number",
            figure="numerical-summary",
            label="tab:x",
            section="sec:numerics",
        ),
        _result(
            3,
            CAVEAT,
            detail="vacuous for the paper's examples",
            consequence="statement",
            label="prop:x",
            section="app:self_concordance",
            covers=("eq:a", "eq:b"),
            evidence={"eq:a": "eq:a holds with slack 0.3"},
        ),
        _result(4, FAIL, None, None, "check raised ValueError: bad"),
        _result(
            5,
            SKIPPED,
            None,
            None,
            "slow claim: not run in quick mode (run without --quick)",
            quick=False,
            label="prop:x",
            cid="claim-3-grid",
        ),
        _result(6, SKIPPED, None, None, "a definition, not a result"),
    ]


def _flat(text: str) -> str:
    """Whitespace collapsed: the report wraps prose, so checks of content ignore line breaks."""
    return " ".join(text.split())


def test_summary_line_format():
    results = [_result(0, PASS), _result(1, PASS), _result(2, DISCREPANCY), _result(3, SKIPPED)]
    assert summary_line(results) == "PASS 2 · CAVEAT 0 · DISCREPANCY 1 · FAIL 0 · SKIPPED 1"
    assert summary_counts([]) == {PASS: 0, CAVEAT: 0, DISCREPANCY: 0, FAIL: 0, SKIPPED: 0}


def test_findings_open_the_report_ranked_by_consequence():
    text = render_markdown(_sample(), version="x", date="d")
    top, rest = text.split("## Findings (3)", 1)
    assert "PASS 1 · CAVEAT 2 · DISCREPANCY 1 · FAIL 1 · SKIPPED 2" in top
    findings = rest.split("## Failures", 1)[0]
    # statement (claim-3) > number (claim-2) > presentation (claim-1)
    assert findings.index("`claim-3`") < findings.index("`claim-2`") < findings.index("`claim-1`")
    assert "claim-0" not in findings and "claim-4" not in findings
    block2 = findings.split("`claim-2`", 1)[1].split("### ", 1)[0]
    assert "2.15e-5" in block2 and "2.08e-5" in block2 and "paper value is off" in block2
    # no figure beside the report: how to draw it there, not a broken link
    assert "](figures/" not in block2
    assert "`nbl reproduce numerical-summary --out <report directory>/figures`" in _flat(block2)
    assert "(#claim-claim-2)" in block2
    block3 = findings.split("`claim-3`", 1)[1].split("### ", 1)[0]
    assert "`eq:a`: eq:a holds with slack 0.3" in block3
    assert "`eq:b`: (no evidence line of its own)" in block3


def test_failures_sections_details_and_skipped():
    text = render_markdown(_sample(), version="x", date="d")
    failures = text.split("## Failures (1)", 1)[1].split("\n## ", 1)[0]
    assert "claim-4" in failures and "ValueError: bad" in failures
    assert "| claim | label | method | status | tolerance | reason | seconds |" in text
    for i in range(7):
        cid = "claim-3-grid" if i == 5 else f"claim-{i}"
        assert f'<a id="claim-{cid}"></a>' in text
    details0 = text.split('<a id="claim-claim-0"></a>', 1)[1].split("<a id", 1)[0]
    assert "`eq:y`: eq:y checked: 1e-15" in details0
    skipped = text.split("## Skipped (2)", 1)[1]
    assert "claim-3-grid" in skipped and "a definition, not a result" in skipped
    # sections follow the paper's order
    assert (
        text.index("## `sec:nbl`")
        < text.index("## `sec:numerics`")
        < text.index("## `app:self_concordance`")
    )


def test_no_line_longer_than_a_screen():
    text = render_markdown(_sample(), version="x", date="d")
    assert max(len(line) for line in text.splitlines()) <= MAX_LINE
    # the long detail is wrapped in the details, cut in the table cell
    assert "a very long explanation a very long explanation" in text
    row = next(ln for ln in text.splitlines() if ln.startswith("| `claim-1`"))
    assert row.count("a very long") <= 1 and "…" in row


def test_mode_is_stated_and_quick_versions_are_named():
    results = _sample()
    assert infer_quick(results)
    assert quick_versions(results) == {"claim-3": ["claim-3-grid"]}
    text = render_markdown(results, version="x", date="d")
    assert "**Mode: quick**" in text
    assert "1 finding comes from them" in _flat(text)
    block3 = text.split("## Findings", 1)[1].split("`claim-3`", 1)[1].split("### ", 1)[0]
    assert "cheaper quick version" in _flat(block3) and "`claim-3-grid`" in block3
    full = [r for r in results if r.id != "claim-3-grid"]
    assert not infer_quick(full)
    assert "**Mode: full**" in render_markdown(full, version="x", date="d")
    assert "**Mode: full**" in render_markdown(results, quick=False, version="x", date="d")


def test_previous_full_findings_listed_in_quick_mode(tmp_path):
    results = _sample()
    prev = [
        {
            "id": "claim-3-grid",
            "label": "prop:x",
            "section": "app:self_concordance",
            "statement": "s",
            "paper_value": "p",
            "computed": "full-run value",
            "status": DISCREPANCY,
            "reason": "r",
            "consequence": "statement",
            "figure": None,
            "evidence": {},
            "covers": [],
        }
    ]
    path = tmp_path / "full.json"
    path.write_text(json.dumps(prev))
    text = render_markdown(results, version="x", date="d", previous=load_records(path))
    findings = text.split("## Findings (4)", 1)[1].split("## Failures", 1)[0]
    assert "read from the full report given" in _flat(findings) and "full-run value" in findings


def test_write_report_json_schema(tmp_path):
    md, js = write_report(_sample(), tmp_path / "reports")
    assert md.name == "verification.md" and js.name == "verification.json"
    envelope = json.loads(js.read_text(encoding="utf-8"))
    # the toolkit's one envelope, with the run's mode and counts (schema check.json)
    jsonschema.validate(envelope, schema("check"))
    assert envelope["command"] == "check" and envelope["mode"] in ("quick", "full")
    assert envelope["counts"] == summary_counts(_sample())
    data = envelope["results"]
    assert isinstance(data, list) and all(tuple(c) == RECORD_KEYS for c in data)
    assert [c["id"] for c in data][:3] == ["claim-0", "claim-1", "claim-2"]
    d2 = data[2]
    assert d2["paper_value"] == "2.15e-5" and d2["computed"] == "2.08e-5"
    assert d2["reason"] == "paper value is off" and d2["status"] == DISCREPANCY
    assert d2["consequence"] == "number" and d2["figure"] == "numerical-summary"
    assert d2["section"] == "sec:numerics" and d2["tolerance"] == "exact (why)"
    assert data[0]["evidence"] == {"eq:y": "eq:y checked: 1e-15"} and data[0]["covers"] == ["eq:y"]
    assert data[5]["status"] == SKIPPED


def test_write_report_without_findings(tmp_path):
    md, _ = write_report([_result(0, PASS)], tmp_path)
    text = md.read_text(encoding="utf-8")
    assert "## Findings (0)" in text and "None." in text and "**Mode: full**" in text


def _findings_part(md: str) -> str:
    return md.split("## Findings", 1)[1].split("## Failures", 1)[0]


def _full_run(status, computed, commit="abc1234", cid="slow-one", label="prop:slow"):
    """A cached full-run record as the runner attaches it (a ClaimResult's fields + commit)."""
    rec = _result(
        7,
        status,
        None,
        computed,
        f"full-run reason for {status}",
        label=label,
        cid=cid,
        quick=False,
        consequence="statement",
    ).to_dict()
    return {**rec, "commit": commit}


def _slow_skipped(full=None, cid="slow-one", label="prop:slow"):
    return _result(
        7,
        SKIPPED,
        None,
        None,
        "slow claim: not run in quick mode (run without --quick)",
        quick=False,
        label=label,
        cid=cid,
        full_run=full,
    )


def test_quick_report_reads_slow_findings_from_their_cached_full_run():
    """A slow claim's finding in a quick report is read from a full run of its current code,
    with the commit it ran at — never declared: the text follows that run's status and value."""
    for status, computed, commit in (
        (DISCREPANCY, "full value 0.5104", "abc1234"),
        (CAVEAT, "another value 7.25", "def5678"),
    ):
        md = render_markdown(
            _sample() + [_slow_skipped(_full_run(status, computed, commit))], quick=True
        )
        found = _flat(_findings_part(md))
        assert "`slow-one`" in found and f"{status} in the cached full run" in found
        assert computed in found and f"at commit {commit}" in found
        assert found.startswith("(4)")  # three computed findings + one read
        head = _flat(md.split("## Findings")[0])
        assert f"1 {status}" in head and f"`slow-one` (at commit {commit})" in head
    # a full run that found nothing: no finding is announced
    md = render_markdown(_sample() + [_slow_skipped(_full_run(PASS, "fine"))], quick=True)
    assert "`slow-one`" not in _findings_part(md)
    unknown = _flat(md).split("**Not known here:**", 1)[1].split("Run `nbl check`", 1)[0]
    assert "`claim-3-grid`" in unknown and "`slow-one`" not in unknown
    # the full report lists only what it computed
    full = render_markdown(
        _sample()[:5] + [_result(7, DISCREPANCY, label="prop:slow", cid="slow-one", quick=False)],
        quick=False,
    )
    assert "cached full run" not in full and "Not known here" not in full


def test_quick_report_says_which_slow_verdicts_it_does_not_know():
    md = render_markdown(_sample() + [_slow_skipped()], quick=True)
    assert "`slow-one`" not in _findings_part(md)
    head = _flat(md.split("## Findings")[0])
    assert "**Not known here:**" in head and "`slow-one`" in head and "`claim-3-grid`" in head
    assert "2 slow claims did not run" in head


def test_no_claim_declares_its_full_verdict():
    """A finding in a quick report comes from a run (issue 34): no claim carries a literal
    verdict of its full run."""
    import dataclasses

    import proofs_check.claims  # noqa: F401  (registers)
    from proofs_check.registry import REGISTRY, Claim

    assert "full_finding" not in {f.name for f in dataclasses.fields(Claim)}
    assert all(not hasattr(c, "full_finding") for c in REGISTRY.all_claims())


def test_beyond_claims_have_their_own_section_and_are_not_findings():
    beyond = _result(
        9,
        CAVEAT,
        None,
        "5 of 5 departures flip the sign",
        "assumption needed",
        label="assum:gaussian_context",
        section="beyond:contexts",
        cid="beyond-x",
    )
    md = render_markdown(_sample() + [beyond], quick=False)
    assert "`beyond-x`" not in _findings_part(md)
    part = md.split("## Beyond the paper", 1)[1].split("\n## ", 1)[0]
    assert "`beyond-x`" in part and "not the paper's" in _flat(part)
    assert "5 of 5 departures flip the sign" in _flat(part)
    head = _flat(md.split("## Findings")[0])  # the counts say which of them are not findings
    assert "**Beyond the paper:** 1 CAVEAT of these counts is about nbl's own statements" in head
    assert "Beyond the paper:" not in _flat(
        render_markdown(_sample(), quick=False).split("## Findings")[0]
    )


def test_figure_links_only_to_figures_beside_the_report(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "numerical-summary.png").write_bytes(b"png")
    text = render_markdown(_sample(), version="x", date="d", figures_dir=tmp_path / "figures")
    assert "[figures/numerical-summary.png](figures/numerical-summary.png)" in text
    assert "--out <report directory>/figures" not in text


def test_first_screen_names_discrepancies_and_reconciles_the_skipped():
    text = render_markdown(_sample(), version="x", date="d")
    top = _flat(text.split("## Findings", 1)[0])
    assert "**Discrepancies:** `claim-2` (tab:x)" in top
    # two SKIPPED: one slow claim, one label not checked by design
    assert "1 slow claim was not run (the other 1 SKIPPED is a label not checked" in top
    assert "paper text sha256 " in top


def test_long_link_prefix_does_not_split_a_word():
    lines = report._wrap("slow claim: not run in quick mode", "- [`" + "x" * 90 + "`](#a): ")
    assert lines[1].strip().startswith("slow claim")


def test_glossary_explains_the_names_the_report_uses():
    from proofs_check.report_context import glossary

    names = dict(glossary("tt-unstable at Delta=1; logistic4; uses unstated: cond:t0-nonneg"))
    assert names["tt-unstable"].startswith("the two-transition link with mu2 = 1.244122")
    assert names["logistic4"].startswith("g(z) = 1/(1 + e^(-4z))")
    assert names["cond:t0-nonneg"].startswith("t0 >= 0")
    assert set(names) == {"tt-unstable", "logistic4", "cond:t0-nonneg"}  # only the names used
    assert "independent of the toolkit's library" in dict(glossary("the own field h"))["own field"]
    assert glossary("nothing named here") == []
    kappas = dict(glossary("lambda0 = kappa_theta; kappa_rho = 2 rho (1 - log 2); kappa(a)"))
    assert set(kappas) == {"kappa_theta", "kappa_rho"}  # the paper's own kappas are not
    assert "not the paper's kappa(a) or kappa*" in kappas["kappa_theta"]
    assert glossary("we-0.605 and sc-lower-bound-we-0.60x") == []
    text = render_markdown(
        _sample() + [_result(9, CAVEAT, cid="uses-names", detail="tt-stable needs cond:t0-nonneg")],
        version="x",
        date="d",
    )
    top, rest = text.split("## Findings", 1)
    assert "[Names used in this report](#names)" in top
    assert '<a id="names"></a>' in rest and "- `tt-stable`: the two-transition" in rest


def test_per_link_findings_of_one_check_are_one_entry():
    links = ("tt-stable", "tt-unstable", "we-0.60")
    per_link = [
        _result(
            20 + k,
            CAVEAT,
            computed=f"bound {k}",
            label="prop:sc",
            cid=f"sc-bound-{key}",
            consequence="statement",
        )
        for k, key in enumerate(links)
    ]
    text = render_markdown(_sample() + per_link, version="x", date="d")
    findings = text.split("## Findings", 1)[1].split("## Failures", 1)[0]
    assert "6 findings in 4 entries" in _flat(findings)
    entry = findings.split("`sc-bound-*` for 3 links", 1)[1].split("### ", 1)[0]
    for k, key in enumerate(links):
        assert f"- `{key}`: bound {k} — [details](#claim-sc-bound-{key})" in entry
    # two of them are not grouped
    two = render_markdown(_sample() + per_link[:2], version="x", date="d")
    assert "`sc-bound-*`" not in two and "### " in two.split("`sc-bound-tt-stable`", 1)[0]


def test_the_atomic_writer_links_the_figures_beside_the_final_report(tmp_path):
    """write_partial_report renders in a temporary directory: the links must still follow the
    figures beside the final report."""
    from proofs_check.runner import write_partial_report

    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "numerical-summary.png").write_bytes(b"png")
    md, _ = write_partial_report(_sample(), tmp_path)
    assert "[figures/numerical-summary.png](figures/numerical-summary.png)" in md.read_text()


def test_a_reason_of_several_lines_keeps_them_as_sub_items():
    lines = report._why("first reason\nstated: a\nused: a, b\n" + "x " * 600, "- **Why:** ")
    assert lines[0] == "- **Why:** first reason"
    assert lines[1:3] == ["  - stated: a", "  - used: a, b"]
    assert lines[-1].endswith("(the full detail is in the claim's details)")
    assert sum(len(ln) for ln in lines) < report._WHY_LIMIT + 200
