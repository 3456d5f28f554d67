"""Mutation testing of the claim registry (proofs_check.mutation): the runner on a toy registry,
every checked claim registers a mutant, and every mutant of the quick claims is killed.

Running every mutant of every quick claim (``test_every_quick_mutant_is_killed``) is slow
(measured ~16 min on the 2-core machine, see the report of issue 15); the default suite runs the
mutants of the cheaper claims modules (``FAST_MODULES``), the slow marker the rest.
"""

from __future__ import annotations

import json

import jsonschema
import pytest

from proofs_check.cli.jsonout import schema
from proofs_check.mutation import MutationReport, claim_module, main, run_mutation
from proofs_check.registry import (
    DISCREPANCY,
    FAIL,
    PASS,
    REGISTRY,
    Mutant,
    Outcome,
    Registry,
)

#: claims modules whose quick mutants run in the default suite (each well under a minute)
FAST_MODULES = ("assumptions", "elicitation", "setup")
#: claims modules of this helper whose quick mutants take longer: slow tests
SLOW_MODULES = ("decision_stability", "stein.identities", "stein.initialization")


# ------------------------------------------------------------------ the runner
def _toy():
    reg = Registry()

    @reg.register(
        "good",
        "eq:a",
        "sec:x",
        "1 + 1 = 2",
        "symbolic",
        "exact",
        "why",
        mutants=(Mutant.printed("two is three", two=3),),
    )
    def _good(two=2):
        return Outcome(PASS if 1 + 1 == two else DISCREPANCY, str(1 + 1))

    @reg.register(
        "weak",
        "eq:b",
        "sec:x",
        "a check that cannot fail",
        "symbolic",
        "exact",
        "why",
        mutants=(Mutant.printed("ignored", x=1), Mutant.formula("noticed", x=2)),
    )
    def _weak(x=0):
        return Outcome(FAIL if x == 2 else PASS, "1")

    @reg.register("bare", "eq:c", "sec:x", "no mutants", "symbolic", "exact", "why")
    def _bare():
        return Outcome(PASS, "1")

    @reg.register("slow", "eq:d", "sec:x", "slow", "symbolic", "exact", "why", quick=False)
    def _slow():
        return Outcome(PASS, "1")

    reg.register(
        "skip", "eq:e", "sec:x", "a definition", "not-checked", "-", "a definition, not a result"
    )(lambda: Outcome("SKIPPED", None, "def"))
    return reg


def test_runner_counts_kills_survivors_and_defects():
    seen = []
    rep = run_mutation(registry=_toy(), progress=lambda i, n, cm: seen.append((i, n, cm.id)))
    assert isinstance(rep, MutationReport) and rep.quick
    by = {c.id: c for c in rep.claims}
    assert set(by) == {"good", "weak", "bare", "slow"} and rep.not_checked == ["skip"]
    assert by["good"].killed == ["two is three"] and by["good"].defect is None
    assert by["weak"].survived == ["ignored"] and by["weak"].killed == ["noticed"]
    assert by["weak"].defect == "survived: ignored"
    assert by["bare"].defect == "no mutants" and not by["bare"].run
    assert by["slow"].defect == "no mutants" and not by["slow"].run  # slow, no mutants
    assert not rep.ok and {c.id for c in rep.defects} == {"weak", "bare", "slow"}
    assert seen[-1][:2] == (4, 4)
    js = rep.to_json()
    assert js["mutants"] == 3 and js["killed"] == 2 and js["kill_rate"] == pytest.approx(2 / 3)
    assert js["defects"] == {
        "weak": "survived: ignored",
        "bare": "no mutants",
        "slow": "no mutants",
    }
    json.dumps(js)  # JSON-ready
    text = rep.format(verbose=True)
    assert "2/3 mutants killed" in text and "SURVIVED [printed] ignored" in text


def test_runner_filters_and_full_mode():
    reg = _toy()
    rep = run_mutation(ids=["good"], registry=reg)
    assert [c.id for c in rep.claims] == ["good"] and rep.ok
    full = run_mutation(ids=["slow"], quick=False, registry=reg)
    assert full.claims[0].defect == "no mutants"
    with pytest.raises(Exception, match="unknown claim"):
        run_mutation(ids=["nope"], registry=reg)


def test_a_failing_baseline_is_a_defect():
    reg = Registry()
    reg.register(
        "broken",
        "eq:a",
        "sec:x",
        "s",
        "symbolic",
        "exact",
        "why",
        mutants=(Mutant.printed("m", x=1),),
    )(lambda x=0: Outcome(FAIL if x == 0 else PASS, "1"))
    rep = run_mutation(registry=reg)
    assert rep.claims[0].defect == "unmutated verdict is FAIL"


def test_command_line(capsys):
    assert main(["--quick", "--module", "assumptions", "--json"]) == 0
    envelope = json.loads(capsys.readouterr().out)
    # the toolkit's one JSON envelope (nbl check --mutate --json's schema)
    jsonschema.validate(envelope, schema("check"))
    assert envelope["command"] == "check" and envelope["mode"] == "quick"
    (out,) = envelope["results"]
    assert out["mode"] == "quick" and out["killed"] == out["mutants"] > 0
    assert set(out["modules"]) == {"assumptions"}


# ------------------------------------------------------------------ the paper's claims
def test_every_checked_claim_registers_a_mutant():
    bare = [c.id for c in REGISTRY.all_claims() if c.method != "not-checked" and not c.mutants]
    assert not bare, f"{len(bare)} checked claims without mutants: {bare}"


def test_claim_modules_are_named():
    mods = {claim_module(c) for c in REGISTRY.all_claims() if c.method != "not-checked"}
    assert set(FAST_MODULES) | set(SLOW_MODULES) <= mods


def _assert_all_killed(rep):
    # a defect: a survivor, a FAIL baseline, or (slow claims too) no mutant at all
    bad = {c.id: c.defect for c in rep.claims if c.defect}
    assert not bad, bad
    assert any(c.run for c in rep.claims)


@pytest.mark.parametrize("module", FAST_MODULES)
def test_quick_mutants_of_module_are_killed(module):
    _assert_all_killed(run_mutation(quick=True, modules=[module]))


@pytest.mark.slow
@pytest.mark.parametrize("module", SLOW_MODULES)
def test_quick_mutants_of_slow_module_are_killed(module):
    _assert_all_killed(run_mutation(quick=True, modules=[module]))


@pytest.mark.slow
def test_every_quick_mutant_is_killed():
    rep = run_mutation(quick=True)
    bad = {c.id: c.defect for c in rep.claims if c.defect}
    assert not bad, f"{len(bad)} defects: {bad}"


def test_kind_constructors_spell_the_same_mutant():
    for kind in ("printed", "formula", "link", "witness", "data"):
        short = getattr(Mutant, kind)("name", name=1, x=(2, 3))
        assert short == Mutant("name", kind, kwargs={"name": 1, "x": (2, 3)})
        assert short.kwargs == {"name": 1, "x": (2, 3)}


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--module", "experiments"], "no claim in module"),
        (["--claim", "no-such-claim"], "unknown claim id"),
    ],
)
def test_a_typo_is_one_line_and_exit_2(capsys, argv, fragment):
    """An unknown claims module used to run nothing and report 0/0 killed with exit 0; an
    unknown claim id printed a traceback."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err
