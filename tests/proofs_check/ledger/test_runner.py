"""The ledger's checks: transcribed steps pass on the pinned text, every mutant is killed, and
a paper text with one step altered reports that step STALE — never PASS."""

from __future__ import annotations

import pytest

from proofs_check.ledger.parse import parse_ledger
from proofs_check.ledger.runner import coverage, run_ledger
from proofs_check.ledger.store import load_transcriptions, unlisted_modules
from proofs_check.paper_source import shipped_text

OWNER = "thm:regret-rate"


@pytest.fixture(scope="module")
def pinned():
    return run_ledger(shipped_text(), True, owners={OWNER})


def test_every_transcription_module_is_listed():
    assert unlisted_modules() == []
    assert load_transcriptions()


def test_transcriptions_match_the_pinned_text():
    steps = parse_ledger(shipped_text()).by_id()
    for sid, t in load_transcriptions().items():
        assert sid in steps, f"{sid}: no such step in the pinned text"
        assert steps[sid].hash == t.hash, f"{sid}: transcribed from other text"


def test_regret_proof_passes_step_by_step(pinned):
    res = pinned.of(OWNER)
    assert {r.status for r in res} == {"PASS"}, [
        (r.id, r.status, r.detail) for r in res if r.status != "PASS"
    ]
    assert coverage(res) == {"relation_steps": 14, "checked": 14, "proved": 6, "fraction": 1.0}


@pytest.mark.parametrize(
    "sid",
    sorted(
        s for s, t in load_transcriptions().items() if s.startswith(OWNER) and t.method != "prose"
    ),
)
def test_each_step_mutant_is_killed(sid):
    res = {r.id: r for r in run_ledger(shipped_text(), True, owners={OWNER}, mutate=sid).results}
    assert res[sid].status != "PASS", res[sid].detail


# one step altered three ways: a coefficient, a sign, the direction of an inequality
_STEP_LINE = 5852  # thm:regret-rate/b04/s02: 2B_Y P(tau <= n) <= 2B_Y n^{-4}
_ALTER = [
    ("2B_Yn^{-4}.", "3B_Yn^{-4}."),
    ("2B_Yn^{-4}.", "-2B_Yn^{-4}."),
    ("\\leq\n2B_Yn^{-4}.", "\\geq\n2B_Yn^{-4}."),
]


def _altered(old: str, new: str) -> str:
    text = shipped_text()
    lines = text.split("\n")
    block = "\n".join(lines[_STEP_LINE - 2 : _STEP_LINE + 1])
    assert block.count(old) == 1, block
    lines[_STEP_LINE - 2 : _STEP_LINE + 1] = block.replace(old, new).split("\n")
    return "\n".join(lines)


@pytest.mark.parametrize("old, new", _ALTER)
def test_an_altered_step_is_stale_never_pass(old, new, pinned):
    run = run_ledger(_altered(old, new), False, owners={OWNER})
    res = {r.id: r for r in run.results}
    assert res["thm:regret-rate/b04/s02"].status == "STALE"
    # every other step of the proof is untouched and still checked
    before = {r.id: r.status for r in pinned.of(OWNER)}
    assert {i: r.status for i, r in res.items() if i != "thm:regret-rate/b04/s02"} == {
        i: s for i, s in before.items() if i != "thm:regret-rate/b04/s02"
    }


def test_cli_reports_the_stale_step(tmp_path, capsys):
    from proofs_check.cli import main

    path = tmp_path / "paper.tex"
    path.write_text(_altered(*_ALTER[0]), encoding="utf-8")
    assert main(["proof", OWNER, "--paper", str(path)]) == 1
    out = capsys.readouterr().out
    assert "STALE" in out and "NOT the pinned version" in out
    # nothing was refuted: the status says the steps went unchecked, not FAIL
    assert "; status STALE" in out and "status FAIL" not in out
    assert main(["proof", OWNER]) == 0


def test_cli_json_validates(capsys):
    import jsonschema

    from proofs_check.cli.jsonout import schema
    from tests.proofs_check.cli_json import run_json

    data = run_json(capsys, "proof", OWNER)
    jsonschema.validate(data, schema("proof"))
    (row,) = data["results"]
    assert row["status"] == "PASS" and row["checked"] == 14 and row["pinned"] is True
    data = run_json(capsys, "proof", "--list")
    jsonschema.validate(data, schema("proof"))
    assert len([r for r in data["results"] if not r["owner"].startswith("text:")]) == 20


def test_cli_bad_label(capsys):
    from proofs_check.cli import main

    assert main(["proof", "thm:regret"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nbl: error:") and "thm:regret-rate" in err and err.count("\n") == 1


def test_a_ledger_claims_counts_read_as_words_in_the_report():
    """The ledger claims' computed value is JSON (the "Proofs, step by step" section reads it);
    the report shows it in words, with every count, and leaves other text as it is."""
    from proofs_check.ledger.report import computed_words, counts_json
    from proofs_check.ledger.runner import StepResult

    steps = [
        StepResult("a", "lem:x", 1, "=", "", "PASS", method="symbolic"),
        StepResult("b", "lem:x", 2, "=", "", "PASS", method="expectation"),
        StepResult("c", "lem:x", 3, "=", "", "FAIL", method="expectation"),
    ]
    words = computed_words(counts_json(steps))
    assert words.startswith("3 of 3 relation steps checked (1 proved); by method and status: ")
    assert "expectation/FAIL 1" in words and "expectation/PASS 1" in words
    assert "symbolic/PASS 1" in words and "{" not in words
    assert computed_words("lambda* = 0.5") == "lambda* = 0.5"
