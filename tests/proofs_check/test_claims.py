"""Every registered claim of the paper as a test, plus tests of the registry and the report.

A claim passes the test when its status is PASS or DISCREPANCY: a DISCREPANCY is the paper's
problem (the computation is sound and disagrees with what the paper prints) and is recorded in
the report; FAIL — or an exception inside a check — is the toolkit's problem and fails the test.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import mpmath
import pytest

from nbl_theory.errors import NBLInputError
from proofs_check.registry import (
    DISCREPANCY,
    FAIL,
    METHODS,
    PASS,
    REGISTRY,
    SKIPPED,
    ClaimResult,
    Outcome,
    Registry,
    all_claims,
    run_claims,
)
from proofs_check.report import RECORD_KEYS, summary_counts, summary_line, write_report

CLAIMS = all_claims()
PAPER = Path(__file__).resolve().parents[3] / "shared" / "paper" / "nbl-paper.tex"


# ------------------------------------------------------------------ the paper's claims
@pytest.mark.parametrize("claim", [
    pytest.param(c, id=c.id, marks=() if c.quick else pytest.mark.slow) for c in CLAIMS])
def test_claim(claim):
    res = REGISTRY.run_one(claim)
    if res.status == SKIPPED:
        pytest.skip(res.detail)
    assert res.status in (PASS, DISCREPANCY), f"{res.status}: {res.detail}"
    assert res.computed, "a claim must report what it computed"
    if res.status == DISCREPANCY:
        assert res.printed and res.detail, "a DISCREPANCY must show the paper's number and why"


def test_registry_is_well_formed():
    ids = [c.id for c in CLAIMS]
    assert len(ids) == len(set(ids))
    assert len(CLAIMS) >= 60
    for c in CLAIMS:
        assert c.method in METHODS
        assert c.label and c.section and c.statement and c.tolerance and c.tolerance_why, c.id
        assert re.fullmatch(r"[a-z0-9][a-z0-9.\-]*", c.id), c.id


@pytest.mark.skipif(not PAPER.exists(), reason="paper source not available")
def test_every_label_exists_in_the_paper():
    labels = set(re.findall(r"\\label\{([^}]*)\}", PAPER.read_text(encoding="utf-8")))
    missing = {c.id: (c.label, c.section) for c in CLAIMS
               if c.label not in labels or c.section not in labels}
    assert not missing, missing


def test_known_discrepancies_show_both_numbers():
    # rho = 0.72: the paper prints 2.15e-5; the certified lambda* is 2.0755...e-5
    (res,) = run_claims(ids=["we-lambda-0.72"])
    assert res.status == DISCREPANCY
    assert res.printed == "2.15e-5"
    assert res.computed.startswith("2.08e-5") and "2.07553526219" in res.computed


# ------------------------------------------------------------------ the registry
def _registry_with(*checks):
    reg = Registry()
    for i, (fn, quick) in enumerate(checks):
        reg.register(f"c{i}", "eq:x", "sec:x", f"claim {i}", "symbolic", "exact", "why",
                     printed="1", quick=quick)(fn)
    return reg


def test_exception_becomes_fail_with_message():
    def boom():
        raise ZeroDivisionError("division by zero in the check")
    (res,) = _registry_with((boom, True)).run_claims()
    assert res.status == FAIL
    assert "ZeroDivisionError" in res.detail and "division by zero in the check" in res.detail
    assert res.seconds >= 0


def test_wrong_return_type_and_unknown_status_become_fail():
    reg = _registry_with((lambda: 42, True), (lambda: Outcome("MAYBE", "1"), True))
    assert [r.status for r in reg.run_claims()] == [FAIL, FAIL]


def test_global_precision_change_is_fail_and_restored():
    def sloppy():
        mpmath.mp.dps = 50
        return Outcome(PASS, "1")
    dps = mpmath.mp.dps
    (res,) = _registry_with((sloppy, True)).run_claims()
    assert res.status == FAIL and "precision" in res.detail
    assert mpmath.mp.dps == dps


def test_duplicate_id_rejected():
    reg = Registry()
    reg.register("dup", "eq:x", "sec:x", "s", "symbolic", "exact", "why")(lambda: None)
    with pytest.raises(ValueError, match="duplicate"):
        reg.register("dup", "eq:y", "sec:y", "t", "symbolic", "exact", "why")


def test_unknown_method_rejected():
    with pytest.raises(ValueError, match="method"):
        Registry().register("m", "eq:x", "sec:x", "s", "guesswork", "exact", "why")


def test_quick_skips_slow_claims_and_ids_filter():
    ok = lambda: Outcome(PASS, "1")  # noqa: E731
    reg = _registry_with((ok, True), (ok, False))
    quick = reg.run_claims(quick=True)
    assert [r.status for r in quick] == [PASS, SKIPPED]
    assert "quick" in quick[1].detail
    assert [r.status for r in reg.run_claims()] == [PASS, PASS]
    seen = []
    only = reg.run_claims(ids=["c1"], progress=lambda i, n, r: seen.append((i, n, r.id)))
    assert [r.id for r in only] == ["c1"] and seen == [(1, 1, "c1")]
    with pytest.raises(NBLInputError, match="unknown claim"):
        reg.run_claims(ids=["nope"])


def test_result_carries_claim_fields():
    (res,) = _registry_with((lambda: Outcome(DISCREPANCY, 2, "two"), True)).run_claims()
    d = res.to_dict()
    assert d["printed"] == "1" and d["computed"] == "2" and d["status"] == DISCREPANCY
    assert set(d) >= {"id", "label", "section", "statement", "method", "tolerance",
                      "tolerance_why", "printed", "computed", "status", "detail", "seconds"}


# ------------------------------------------------------------------ the report
def _result(i, status, printed="1.00", computed="1.00", detail=""):
    return ClaimResult(f"claim-{i}", "eq:x", "sec:x", f"statement {i} with a | pipe", "symbolic",
                       "exact", "why", printed, computed, status, detail, 0.25)


def test_summary_line_format():
    results = [_result(0, PASS), _result(1, PASS), _result(2, DISCREPANCY), _result(3, SKIPPED)]
    assert summary_line(results) == "PASS 2 · DISCREPANCY 1 · FAIL 0 · SKIPPED 1"
    assert summary_counts([]) == {PASS: 0, DISCREPANCY: 0, FAIL: 0, SKIPPED: 0}


def test_write_report(tmp_path):
    results = [_result(0, PASS), _result(1, PASS),
               _result(2, DISCREPANCY, "2.15e-5", "2.08e-5", "paper value is off"),
               _result(3, FAIL, None, None, "check raised ValueError: bad"),
               _result(4, SKIPPED, detail="slow claim")]
    md, js = write_report(results, tmp_path / "reports")
    assert md.exists() and js.exists()
    assert md.name == "verification.md" and js.name == "verification.json"
    text = md.read_text(encoding="utf-8")
    assert "PASS 2 · DISCREPANCY 1 · FAIL 1 · SKIPPED 1" in text
    assert "| id | label | statement | method | printed | computed | status | seconds |" in text
    assert "with a \\| pipe" in text                     # table cells are escaped
    section = text.split("## Discrepancies and failures", 1)[1]
    assert "claim-2" in section and "2.15e-5" in section and "2.08e-5" in section
    assert "paper value is off" in section
    assert "claim-3" in section and "ValueError: bad" in section
    assert "claim-0" not in section.split("## Skipped")[0]
    data = json.loads(js.read_text(encoding="utf-8"))
    assert isinstance(data, list)  # a list of claim records with exactly the keys
    assert all(tuple(c) == RECORD_KEYS for c in data)
    assert [c["id"] for c in data] == [f"claim-{i}" for i in range(5)]
    assert data[2]["paper_value"] == "2.15e-5" and data[2]["computed"] == "2.08e-5"
    assert data[2]["reason"] == "paper value is off" and data[4]["status"] == SKIPPED


def test_write_report_without_problems(tmp_path):
    md, _ = write_report([_result(0, PASS)], tmp_path)
    assert "None." in md.read_text(encoding="utf-8")


# ------------------------------------------------------------------ coverage of the paper
RESULT_KINDS = ("eq", "lem", "prop", "cor", "thm", "tab")


@pytest.mark.skipif(not PAPER.exists(), reason="paper source not available")
def test_every_result_label_is_checked_or_listed_as_not_checked():
    """Every \\label of a numbered equation, lemma, proposition, theorem, corollary and table in
    the paper is the label of a claim, among the labels a claim covers, or listed with
    register_not_checked (a definition, an assumption, a restatement) — nothing is silently
    left out."""
    labels = {lab for lab in re.findall(r"\\label\{([^}]*)\}", PAPER.read_text(encoding="utf-8"))
              if lab.split(":")[0] in RESULT_KINDS}
    covered = set()
    for c in CLAIMS:
        covered |= {c.label, *c.covers}
    missing = sorted(labels - covered)
    assert not missing, f"{len(missing)} result labels neither checked nor listed: {missing}"


def test_not_checked_entries_give_a_reason():
    for c in CLAIMS:
        if c.method == "not-checked":
            assert len(c.tolerance_why) > 20, c.id
            assert c.label.split(":")[0] in RESULT_KINDS or c.label, c.id
