"""Library mutation (proofs_check.libmutation): the operators on small sources, the sample, the
classification, the coverage map's selection, the worker's import hook, and end-to-end runs (a
tiny one in the default tier, a sample of one module marked slow)."""

from __future__ import annotations

import ast
import json
import os
import sys
from pathlib import Path

import pytest

from nbl_theory.errors import NBLInputError
from proofs_check.libmutation import operators as ops
from proofs_check.libmutation.coverage_map import CoverageMap, jit_lines, jitted_functions
from proofs_check.libmutation.run import (
    OUTCOMES,
    classify,
    markdown,
    stratified_sample,
    summarize,
)
from proofs_check.libmutation.targets import ROOT, TARGETS, module_path, numba_sensitive


def _after(src, operator):
    muts, _ = ops.generate(src, "m")
    return sorted(m.after for m in muts if m.operator == operator)


# ------------------------------------------------------------------ operators
def test_constants_doubled_halved_moved_and_negated():
    src = "def f(d):\n    return 1 - d * d / 4\n"
    assert _after(src, "const*2") == ["2", "8"]
    muts, _ = ops.generate(src, "m")
    four = {m.operator: m.after for m in muts if m.before == "4"}
    assert four == {
        "const*2": "8",
        "const-neg": "-4",
        "const/2": "2",
        "const+1": "5",
        "const-1": "3",
    }
    one = {m.operator: m.after for m in muts if m.before == "1"}
    # 1 * 2 == 1 + 1: the same text is generated once
    assert one == {"const*2": "2", "const-neg": "-1", "const-1": "0"}
    flt = {m.operator: m.after for m in ops.generate("x = 0.5\n", "m")[0]}
    assert flt == {"const*2": "1.0", "const-neg": "-0.5", "const/2": "0.25", "const+1": "1.5"}


def test_zero_is_not_scaled_and_booleans_are_not_numbers():
    muts, _ = ops.generate("x = 0\ny = True\nz = 0.0\n", "m")
    assert {(m.before, m.operator) for m in muts} == {("0", "const+1"), ("0", "const-1")}


def test_binop_drop_term_swap_operands_and_sign():
    src = "def f(a, b):\n    return (a - b) * -a\n"
    muts, _ = ops.generate(src, "m")
    got = {(m.operator, m.before, m.after) for m in muts}
    assert ("binop", "(a - b) * -a", "(a - b) / -a") in got
    assert ("binop", "a - b", "a + b") in got
    assert ("drop-term", "a - b", "a") in got  # a dropped term
    assert ("drop-term", "(a - b) * -a", "a - b") in got  # a dropped factor
    assert ("swap-operands", "a - b", "b - a") in got
    assert ("unary-sign", "-a", "a") in got


def test_compare_maxmin_swap_args_index_and_range():
    src = (
        "def f(x, y, n, a):\n"
        "    if x < y:\n"
        "        return max(x, y) + np.argmax(a) + g(x, y) + a[0, n]\n"
        "    return [k for k in range(1, n)]\n"
    )
    muts, _ = ops.generate(src, "m")
    got = {(m.operator, m.after) for m in muts}
    assert {("compare", "x <= y"), ("compare", "x > y")} <= got
    assert ("max-min", "min(x, y)") in got and ("max-min", "np.argmin(a)") in got
    assert ("swap-args", "g(y, x)") in got
    assert not any(op == "swap-args" and a.startswith("max") for op, a in got)  # symmetric
    assert ("swap-index", "a[n, 0]") in got
    assert {
        ("range-off-by-one", "range(1, n + 1)"),
        ("range-off-by-one", "range(1, n - 1)"),
        ("range-off-by-one", "range(1 + 1, n)"),
    } <= got


def test_strings_messages_decorators_and_annotations_are_not_mutated():
    src = (
        '"""doc 2"""\n'
        '__all__ = ["f"]\n'
        "@numba.njit(cache=True, fastmath=2)\n"
        'def f(x: "int" = 3) -> float:\n'
        '    """doc 1 + 1"""\n'
        "    if x > 9:\n"
        '        raise ValueError(f"x = {x + 1} is past 9")\n'
        '    assert x != 2, "two"\n'
        '    warnings.warn("w", stacklevel=2)\n'
        "    return x\n"
    )
    muts, _ = ops.generate(src, "m")
    lines = {m.line for m in muts}
    assert lines == {4, 6}  # the default 3, and x > 9
    assert {m.before for m in muts} == {"3", "x > 9", "9"}


def test_swapping_identical_arguments_is_not_generated():
    muts, _ = ops.generate("y = g(x, x) - x[i, i]\n", "m")
    assert not [m for m in muts if m.operator in ("swap-args", "swap-index")]


def test_mutate_tree_keeps_lines_and_refuses_a_changed_source():
    src = "a = 1\n\n\ndef f(d):\n    return 1 - d * d / 4\n"
    spec = next(m for m in ops.generate(src, "m")[0] if m.operator == "const/2")
    ns: dict = {}
    exec(ops.mutated_code(src, spec, "<m>"), ns)
    assert ns["f"](1.0) == 0.5 and ns["f"].__code__.co_firstlineno == 4
    with pytest.raises(LookupError):
        ops.mutate_tree(src.replace("d / 4", "d / 5"), spec)
    again = ops.MutantSpec.from_dict(json.loads(json.dumps(spec.to_dict())))
    assert again == spec and again.id == "m:5:23:const/2:0"


def test_dead_code_is_detected_as_equivalent():
    src = "def f(x):\n    if False:\n        return x + 1\n    return x * 3\n"
    muts, _ = ops.generate(src, "m")
    dead = [m for m in muts if m.line == 3]
    live = [m for m in muts if m.line == 4]
    assert dead and all(ops.equivalent_reason(src, m) for m in dead)
    assert live and not any(ops.equivalent_reason(src, m) for m in live)


def test_every_target_module_parses_and_has_mutants():
    for mod in TARGETS:
        path = module_path(mod)
        muts, _ = ops.generate((ROOT / path).read_text(), mod, path)
        assert muts, mod
    assert numba_sensitive("nbl_sim.engine.nbl_kernel") and not numba_sensitive(
        "nbl_theory.results"
    )


# ------------------------------------------------------------------ sample and classification
def _specs(counts):
    return [
        ops.MutantSpec(m, m + ".py", i + 1, 0, i + 1, "const*2", 0, "1", "2")
        for m, n in counts.items()
        for i in range(n)
    ]


def test_stratified_sample_is_proportional_seeded_and_reproducible():
    specs = _specs({"a": 60, "b": 30, "c": 9, "d": 1})
    s1 = stratified_sample(specs, 20, seed=3)
    assert len(s1) == 20 and s1 == stratified_sample(specs, 20, seed=3)
    assert s1 != stratified_sample(specs, 20, seed=4)
    per = {m: sum(s.module == m for s in s1) for m in "abcd"}
    assert per["a"] >= 11 and per["b"] >= 5 and per["c"] >= 1 and per["d"] == 1
    assert stratified_sample(specs, 500, seed=0) == specs


BASE = {"c1": "PASS", "c2": "PASS", "c3": "DISCREPANCY"}


def _ev(cid, status):
    return {"event": "claim", "id": cid, "status": status, "detail": ""}


def test_classification_of_each_outcome():
    def out(events, **kw):
        return classify(BASE, events, **kw)["outcome"]

    assert out([_ev("c1", "FAIL"), _ev("c2", "PASS")], n_claims=2) == "killed-as-FAIL"
    # a blame wins over a FAIL elsewhere: the report would still blame the paper
    r = classify(BASE, [_ev("c1", "FAIL"), _ev("c2", "DISCREPANCY")], n_claims=2)
    assert r["outcome"] == "blame" and r["reason"] == "c2: PASS -> DISCREPANCY"
    assert out([_ev("c3", "PASS")], n_claims=1) == "blame"  # a finding cleared
    assert out([{"event": "load_error", "detail": "NameError: x"}], n_claims=1) == "killed-as-FAIL"
    assert (
        out(
            [_ev("c1", "PASS"), {"event": "tests", "exit": 1, "failed": ["t::a"]}],
            n_claims=1,
            n_tests=1,
        )
        == "tests-only"
    )
    assert (
        out([_ev("c1", "PASS"), {"event": "tests", "exit": 0, "failed": []}], n_claims=1, n_tests=1)
        == "survived"
    )
    assert out([_ev("c1", "SKIPPED")], n_claims=1) == "survived"
    assert out([_ev("c1", "PASS")], timed_out=True, n_claims=3) == "timeout"
    assert out([], equivalent="the same bytecode") == "equivalent"
    r = classify(BASE, [], n_claims=0, n_tests=0)
    assert r["outcome"] == "survived" and "no claim or mapped test" in r["reason"]
    # pytest could not run the mapped tests (usage or internal error, no test failed): the
    # tests never judged the mutant, so it is no kill
    r = classify(
        BASE,
        [_ev("c1", "PASS"), {"event": "tests", "exit": 4, "failed": []}],
        n_claims=1,
        n_tests=7,
    )
    assert r["outcome"] == "survived" and "could not run (pytest exit 4" in r["reason"]
    # a collection error the mutant causes (exit 2) still is one
    assert (
        out([_ev("c1", "PASS"), {"event": "tests", "exit": 2, "failed": []}], n_claims=1, n_tests=1)
        == "tests-only"
    )


def test_a_report_text_that_moves_without_a_verdict_is_listed():
    """A claim whose verdict stayed but whose printed text moved (its fingerprint differs
    from the unmutated one) is listed in ``report_moved``; the outcome is not changed by it,
    and a claim with no fingerprint on either side is not judged."""
    texts = {"c1": "aaaa", "c2": "bbbb"}
    events = [
        {**_ev("c1", "PASS"), "text": "aaaa"},
        {**_ev("c2", "PASS"), "text": "cccc"},
        {"event": "tests", "exit": 1, "failed": ["t::a"]},
    ]
    r = classify(BASE, events, n_claims=2, n_tests=1, texts=texts)
    assert r["outcome"] == "tests-only" and r["report_moved"] == ["c2"]
    # with the texts themselves, the first difference is kept for the report
    events[1]["shown"] = "3.70e-3 | certified, enclosure radius 5.0e-43; witness 0.0037"
    shown = {"c2": "3.70e-3 | certified, enclosure radius 5.0e-41; witness 0.0037"}
    r = classify(BASE, events, n_claims=2, n_tests=1, texts=texts, shown=shown)
    assert r["report_moves"] == [
        [
            "c2",
            "… | certified, enclosure radius 5.0e-41; witness 0.0037 → "
            "… | certified, enclosure radius 5.0e-43; witness 0.0037",
        ]
    ]
    assert classify(BASE, events, n_claims=2, n_tests=1)["report_moved"] == []
    # a moved verdict is a transition, not a moved text
    r = classify(BASE, [{**_ev("c2", "FAIL"), "text": "cccc"}], n_claims=1, texts=texts)
    assert r["outcome"] == "killed-as-FAIL" and r["report_moved"] == []


def test_the_report_text_of_an_unmutated_claim_is_the_same_in_two_processes():
    """The fingerprint the coverage map records for a claim (its chunk process) and the one a
    mutant's worker records are comparable only if the same library gives the same text in
    another process, after other claims: two workers of the unmutated library, the claims in
    two orders."""
    from proofs_check.libmutation.run import _run_mutant  # noqa: PLC2701 - the task itself

    claims = ["we-lambda-0.60", "sc-lower-bound-we-0.60", "z-reflection-identities"]
    got = []
    for order in (claims, claims[::-1]):
        res = _run_mutant(
            {
                "job": {
                    "mutant": None,
                    "claims": order,
                    "tests": [],
                    "baseline": {},
                    "budget": 100,
                },
                "timeout": 300,
                "fresh_numba_cache": False,
            }
        )
        got.append({e["id"]: e["text"] for e in res["events"] if e["event"] == "claim"})
    assert set(got[0]) == set(claims) and got[0] == got[1]


def test_summary_rates_and_markdown():
    recs = []
    for k, o in enumerate(
        ["killed-as-FAIL"] * 6 + ["tests-only"] * 2 + ["survived", "blame", "equivalent"]
    ):
        recs.append(
            {
                **_specs({"nbl_theory.x": 1})[0].to_dict(),
                "id": f"x{k}",
                "outcome": o,
                "reason": "r",
                "transitions": [["c2", "PASS", "DISCREPANCY", ""]],
                "n_claims": 1,
                "n_tests": 0,
                "line_text": "x = 1",
            }
        )
    env = summarize(
        recs,
        {"nbl_theory.x": {"unparses": 2}},
        {
            "sample": 11,
            "seed": 0,
            "mode": "quick",
            "tests": True,
            "budget": 10.0,
            "population": 99,
            "coverage_key": "k",
            "seconds": 1.0,
            "modules": [],
        },
    )
    t = env["totals"]
    assert [t[o] for o in OUTCOMES] == [6, 1, 2, 1, 0, 1] and t["total"] == 11
    assert t["kill_rate_registry"] == 0.6 and t["kill_rate_registry_tests"] == 0.8
    # every record has a claim on its line: the claimed rate is the registry's (6 of 10)
    assert t["claimed"] == 10 and t["kill_rate_registry_claimed"] == 0.6
    recs[6]["n_claims"] = recs[7]["n_claims"] = 0  # the two tests-only lines no claim runs
    t2 = summarize(recs, {}, env["meta"])["totals"]
    assert t2["claimed"] == 8 and t2["kill_rate_registry_claimed"] == 0.75
    assert len(env["blames"]) == 1 and len(env["survivors"]) == 1
    md = markdown(env, "python -m proofs_check.mutation --library --sample 11")
    assert "**60.0%**" in md and "`c2` PASS → DISCREPANCY" in md
    assert "--sample 11" in md and "seed 0," in md
    # a run of an earlier envelope's mutants (--sample-from) was drawn by no seed: it says so
    pinned = summarize(recs, {}, {**env["meta"], "sample_from": {"listed": 11, "found": 11}})
    md = markdown(pinned, "cmd")
    assert "the 11 of an earlier run's envelope (--sample-from)" in md and "seed 0" not in md
    json.dumps(env)


# ------------------------------------------------------------------ coverage map
def test_import_lines_stand_for_the_whole_module_and_claims_cheapest_first():
    cmap = CoverageMap(
        {
            "contexts": ["import", "c:slow", "c:fast", "t:tests/x.py::t"],
            "claims": {
                "slow": {"status": "PASS", "seconds": 9.0},
                "fast": {"status": "PASS", "seconds": 0.1},
            },
            "tests": {},
            "lines": {"m.py": {"1": [0], "5": [1, 2], "6": [3]}},
        }
    )
    assert cmap.claims_for("m.py", 5) == ["fast", "slow"]
    assert cmap.tests_for("m.py", 6) == ["tests/x.py::t"] and cmap.claims_for("m.py", 6) == []
    assert cmap.claims_for("m.py", 1) == ["fast", "slow"]  # a module-level constant
    assert cmap.claims_for("m.py", 5, 6) == ["fast", "slow"]


def test_tests_that_only_read_a_module_are_credited_to_its_import_time_lines():
    """A test that reads a module-level value (a dataclass default) executes no line of the
    module, so coverage cannot see it (rate_study:137, :144, :161 survived the harness though a
    test kills each): the static scan credits it to the module's import-time lines only."""
    from proofs_check.libmutation.coverage_map import ROOT, _credit_importers, importing_tests

    m = "nbl_sim.studies.rate_study"
    src = (ROOT / "tests/sim/test_survivor_kills.py").read_text()
    assert "test_the_full_studys_horizons_are_log_spaced" in importing_tests(src, m)
    assert importing_tests("import numpy\n\ndef test_a():\n    pass\n", m) == set()
    assert importing_tests("from nbl_sim.studies import rate_study\n", m) is None
    helper = "def build():\n    from nbl_sim.studies.rate_study import FULL\n    return FULL\n"
    assert importing_tests(helper, m) is None  # a helper's reader may be any test
    inside = "class TestA:\n    def test_b(self):\n        import nbl_sim.studies.rate_study\n"
    assert importing_tests(inside, m) == {"test_b"}
    node = "tests/sim/test_survivor_kills.py::test_the_full_studys_horizons_are_log_spaced"
    lines: dict = {}
    _credit_importers(lines, {node: 0.1, "tests/sim/test_survivor_kills.py::test_other": 0.1})
    assert lines["nbl_sim/studies/rate_study.py"]["0"] == {"t:" + node}
    # a test that calls a kernel itself: credited to the kernel's lines (numba runs them)
    pin = "tests/sim/test_pcg64.py::test_reward_pass_on_numpys_uniforms_is_the_definition[True]"
    lines = {}
    _credit_importers(lines, {pin: 0.1})
    passes = lines["nbl_sim/engine/environment_passes.py"]
    reward = jitted_functions((ROOT / "nbl_sim/engine/environment_passes.py").read_text())
    lo, hi = reward["_reward"]
    assert all("t:" + pin in passes[str(ln)] for ln in range(lo, hi + 1))
    assert "1" not in passes  # a line outside every kernel: coverage's to see
    cmap = CoverageMap(
        {
            "contexts": ["import", "t:" + node, "t:tests/x.py::t"],
            "claims": {},
            "tests": {},
            "lines": {"m.py": {"0": [1], "1": [0], "6": [2]}},
        }
    )
    assert cmap.tests_for("m.py", 1) == sorted([node, "tests/x.py::t"])  # import time: all
    assert cmap.tests_for("m.py", 6) == ["tests/x.py::t"]  # a line in a function: its own


def test_a_default_argument_is_mapped_to_its_functions_body():
    """A default value is evaluated at import (coverage sees every context of the module on
    that line); its mutant is run against the callers of the function, whose body they
    execute (fields:646 of the full sample, jacobian_fd's default step, had been run against
    every claim importing the module and timed out)."""
    from proofs_check.libmutation.targets import executed_span

    src = (
        "import math\n"
        "\n"
        "def f(x, eps=1e-3, *, k=(2, 3)):\n"
        '    """Doc."""\n'
        "    y = x + eps\n"
        "    return y * k[0]\n"
        "\n"
        "g = lambda t, s=0.5: t * s\n"
        "LIMIT = 40\n"
    )
    assert executed_span(src, 3, 13, 3) == (4, 6)  # eps=1e-3
    assert executed_span(src, 3, 28, 3) == (4, 6)  # inside k's default tuple
    assert executed_span(src, 5, 8, 5) == (5, 5)  # a body line: itself
    assert executed_span(src, 8, 16, 8) == (8, 8)  # a lambda's default: its body's line
    assert executed_span(src, 9, 8, 9) == (9, 9)  # a module constant: itself (every context)


def test_a_mutants_tests_run_quickest_first():
    """``pytest -x`` stops at the first failure: the quick tests go first (the mapping run's
    durations; an untimed test counts as 0 s), ties by name."""
    cmap = CoverageMap(
        {
            "contexts": ["t:tests/a.py::slow", "t:tests/b.py::quick", "t:tests/c.py::t"],
            "claims": {},
            "tests": {"tests/a.py::slow": 30.0, "tests/b.py::quick": 0.2, "tests/c.py::t": 0.2},
            "lines": {"m.py": {"3": [0, 1, 2]}},
        }
    )
    assert cmap.tests_for("m.py", 3) == ["tests/b.py::quick", "tests/c.py::t", "tests/a.py::slow"]
    assert cmap.claims_for("other.py", 1) == []


def test_jitted_lines_are_credited_from_the_lines_naming_them():
    kern = (
        "import numba\n@numba.njit(cache=True)\ndef inner(x):\n    return x + 1\n\n"
        "@numba.njit\ndef outer(x):\n    return inner(x) * 2\n"
    )
    caller = "from k import outer\ndef run(x):\n    return outer(x)\n"
    assert jitted_functions(kern) == {"inner": (3, 4), "outer": (7, 8)}
    got = jit_lines({"k.py": kern, "c.py": caller}, {"c.py": {3: {"c:claim"}}})
    assert got["k.py"][8] == {"c:claim"} and got["k.py"][4] == {"c:claim"}


# ------------------------------------------------------------------ the worker
def _results_spec():
    """nbl_theory/results.py: ``s2 = 1 - d * d / 4`` with the 4 halved (the example of
    issue 34)."""
    path = "nbl_theory/results.py"
    src = (ROOT / path).read_text()
    line = next(i for i, t in enumerate(src.splitlines(), 1) if "s2 = 1 - d * d / 4" in t)
    return next(
        m
        for m in ops.generate(src, "nbl_theory.results", path)[0]
        if m.line == line and m.before == "4" and m.operator == "const/2"
    )


def test_the_import_hook_makes_the_mutant_take_effect(tmp_path):
    import subprocess

    spec = _results_spec()
    code = (
        "import json, sys; from pathlib import Path\n"
        "from proofs_check.libmutation.operators import MutantSpec\n"
        "from proofs_check.libmutation.worker import install\n"
        f"install(MutantSpec.from_dict(json.loads({json.dumps(json.dumps(spec.to_dict()))})),"
        f" Path({str(ROOT)!r}))\n"
        "import nbl_theory.results as r\n"
        "print(r.__file__)\n"
        "q = r.decision_quantities(r.FLOAT_OPS, 1.0, 0.0, 1.0)\n"
        "print(q['curvature'] / r.FLOAT_OPS.two_phi0)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONDONTWRITEBYTECODE": "1", "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    first, lam = out.stdout.splitlines()
    assert first == str(ROOT / "nbl_theory/results.py")
    assert float(lam) == 0.5  # s2 = 1 - Δ²/2 at Δ = 1 (the original: 1 - Δ²/4 = 0.75)


def test_tiny_end_to_end_one_module_one_claim():
    """One mutant of nbl_theory.results against one claim that executes its line, in a fresh
    process: the claim's verdict must move from its pinned one (the mutant takes effect).
    (issue 34 reports this very mutant turning we-lambda-0.60 into a DISCREPANCY: until the
    claim has an independent witness the outcome is a blame; with one, killed-as-FAIL.)"""
    from proofs_check.libmutation.run import _run_mutant  # noqa: PLC2701 - the task itself

    spec = _results_spec()
    claim = "we-lambda-0.60"
    pinned = json.loads((ROOT / "tests/proofs_check/verdicts.json").read_text())
    base = pinned[claim]  # the unmutated verdict (pinned)
    mutated = _run_mutant(
        {
            "job": {
                "mutant": spec.to_dict(),
                "claims": [claim],
                "tests": [],
                "baseline": {claim: base},
                "budget": 100,
            },
            "timeout": 300,
            "fresh_numba_cache": False,
        }
    )
    got = classify({claim: base}, mutated["events"], n_claims=1)
    assert not mutated["timed_out"]
    assert got["outcome"] in ("killed-as-FAIL", "blame"), got
    assert got["transitions"][0][0] == claim


@pytest.mark.slow
def test_end_to_end_sample_of_one_module(tmp_path):
    """A seeded sample of four mutants of nbl_theory.results with the real coverage map and
    executor: every mutant gets an outcome and the report names each."""
    from proofs_check.libmutation.run import run_library

    env = run_library(
        sample=4,
        seed=1,
        quick=True,
        tests=False,
        workers=2,
        budget=60,
        modules=["nbl_theory.results"],
    )
    assert env["totals"]["total"] == 4
    assert all(m["outcome"] in OUTCOMES for m in env["mutants"])
    md = markdown(env, "cmd")
    assert all(
        m["path"] in md or m["outcome"] in ("killed-as-FAIL", "tests-only") for m in env["mutants"]
    )
    assert ast.parse("x = 1")  # (markdown is plain text; nothing else to parse)


def test_outcomes_log_resumes_and_serves_a_run_with_tests(tmp_path, monkeypatch):
    """A run without tests decides FAILs and blames for a run with tests; a mutant that
    survived every claim there only needs its tests; a torn last line is ignored."""
    from proofs_check.libmutation.run import _ResultLog  # noqa: PLC2701 - the log itself

    monkeypatch.setenv("NBL_CACHE_DIR", str(tmp_path))
    narrow = _ResultLog("k" * 24, True, False, 60.0)
    for mid, outcome, not_run in (
        ("a", "killed-as-FAIL", 0),
        ("b", "survived", 0),
        ("c", "survived", 3),
        ("d", "blame", 0),
    ):
        narrow.add({"id": mid, "outcome": outcome, "reason": "r", "claims_not_run": not_run})
    with narrow.path.open("a") as f:
        f.write('{"tag": "torn')
    wide = _ResultLog("k" * 24, True, True, 60.0)
    assert wide.get("a")["outcome"] == "killed-as-FAIL" and wide.get("d")["outcome"] == "blame"
    assert wide.get("b") is None and wide.claims_cleared("b")
    assert wide.get("c") is None and not wide.claims_cleared("c")  # claims left unrun
    assert _ResultLog("k" * 24, True, False, 90.0).get("a") is None  # another budget
    again = _ResultLog("k" * 24, True, False, 60.0)
    assert again.get("b")["outcome"] == "survived"


def test_a_fresh_run_reads_no_kept_outcome_but_keeps_its_own(tmp_path, monkeypatch):
    """``--fresh`` (``read=False``) ignores what earlier runs kept, and still keeps each of its
    own outcomes as it finishes: a fresh run stopped before its report loses none, and the
    next run without ``--fresh`` takes them up (the newest outcome of a mutant wins). An
    outcome written after a torn last line is read back."""
    from proofs_check.libmutation.run import _ResultLog  # noqa: PLC2701 - the log itself

    monkeypatch.setenv("NBL_CACHE_DIR", str(tmp_path))
    old = _ResultLog("k" * 24, True, True, 60.0)
    old.add({"id": "a", "outcome": "survived", "reason": "old"})
    with old.path.open("a") as f:
        f.write('{"tag": "torn')
    fresh = _ResultLog("k" * 24, True, True, 60.0, read=False)
    assert fresh.get("a") is None
    fresh.add({"id": "a", "outcome": "tests-only", "reason": "new", "report_moved": ["c"]})
    fresh.add({"id": "b", "outcome": "killed-as-FAIL", "reason": "new"})
    later = _ResultLog("k" * 24, True, True, 60.0)
    assert later.get("a")["outcome"] == "tests-only" and later.get("a")["report_moved"] == ["c"]
    assert later.get("b")["outcome"] == "killed-as-FAIL"


@pytest.mark.parametrize("code, interrupted", [(-2, True), (-15, True), (-9, False), (1, False)])
def test_a_mutant_ended_by_ctrl_c_has_no_outcome(monkeypatch, code, interrupted):
    """A mutant process ended by SIGINT/SIGTERM (a Ctrl-C of the whole run) reports no outcome,
    so the kept outcomes never record an interruption as a timeout; a process that died
    otherwise (killed, crashed) before its time without finishing is run once more, and a
    second death is the mutant's: killed-as-FAIL, the reason says so — not a timeout (the
    quick sample at 8310105 had recorded a worker dead after 0.35 s as a "timeout")."""
    import subprocess

    from proofs_check.libmutation import run as lm

    calls = []

    def fake_run(*a, **k):
        calls.append(1)
        return subprocess.CompletedProcess(a[0], code)

    monkeypatch.setattr(lm.subprocess, "run", fake_run)
    res = lm._run_mutant({"job": {}, "timeout": 10, "fresh_numba_cache": False})
    assert bool(res.get("interrupted")) is interrupted
    if not interrupted:
        assert len(calls) == 2 and res["timed_out"] is False
        assert res["events"] == [{"event": "died", "code": code}]
        r = classify({}, res["events"])
        assert r["outcome"] == "killed-as-FAIL"
        assert r["reason"].startswith(f"its process died twice before finishing (exit code {code})")


def test_a_worker_killed_once_from_outside_is_run_again(monkeypatch):
    """One death, then a normal run: the second run's events decide (here: survived)."""
    from proofs_check.libmutation import run as lm

    runs = iter(
        [
            ([{"event": "died", "code": -9}], False),
            ([_ev("c1", "PASS"), {"event": "done"}], False),
        ]
    )
    monkeypatch.setattr(lm, "_worker", lambda job, task: next(runs))
    res = lm._run_mutant({"job": {"baseline": {"c1": "PASS"}}, "timeout": 10})
    r = classify(BASE, res["events"], n_claims=1)
    assert r["outcome"] == "survived" and not res["timed_out"]


def test_a_pinned_sample_is_found_by_what_its_mutants_change_not_their_line(tmp_path):
    """--sample-from: a line added above a sampled mutant moves its line number (and its id),
    and the seed's stratified sample with it (d95206b's check in StudyConfig left 261 of the
    seed-0 sample's 300 drawn); the envelope's mutants are found by their module, line text,
    column, operator and change (measured: all 299 of docs/mutation-runs/mutation-quick.json, the 1f3803b
    sample, are found in the library of this commit)."""
    import argparse

    from proofs_check.libmutation import run as libmut

    specs, _ = libmut.enumerate_mutants(["nbl_theory.results"])
    lines = (ROOT / specs[0].path).read_text().splitlines()
    picked = specs[:5]
    records = [{**s.to_dict(), "line_text": lines[s.line - 1].strip()} for s in picked]
    moved = [{**r, "line": r["line"] + 3, "id": "moved"} for r in records]
    chosen, missing = libmut.pinned_specs(specs, moved)
    assert [c.id for c in chosen] == [s.id for s in picked] and missing == 0
    changed = [{**moved[0], "after": moved[0]["after"] + " + 1"}, *moved[1:]]
    chosen, missing = libmut.pinned_specs(specs, changed)
    assert len(chosen) == 4 and missing == 1
    p = argparse.ArgumentParser()
    libmut.add_arguments(p)
    why = libmut.check_arguments(p.parse_args(["--sample-from", str(tmp_path / "no.json")]))
    assert why.startswith("--sample-from ") and "no.json" in why


def test_a_pinned_mutant_on_a_line_a_module_holds_twice_is_the_nearest_one():
    """``return m, left, right, left * right / w`` stands twice in link_numeric (the float64
    and the mpmath charts): a record of the second is found as the second, not as the first
    (a one-record envelope used to select the first equal line of the module)."""
    from proofs_check.libmutation import run as libmut

    specs, _ = libmut.enumerate_mutants(["nbl_theory.link_numeric"])
    lines = (ROOT / specs[0].path).read_text().splitlines()
    text = "return m, left, right, left * right / w"
    twins = [
        s
        for s in specs
        if lines[s.line - 1].strip() == text and s.operator == "binop" and s.after.endswith("* w")
    ]
    assert len(twins) == 2 and twins[0].line < twins[1].line
    for i, twin in enumerate(twins):
        record = {**twin.to_dict(), "line_text": text, "line": twin.line - 2}  # moved up by 2
        chosen, missing = libmut.pinned_specs(specs, [record])
        assert [c.id for c in chosen] == [twin.id] and missing == 0, i
    both = [{**t.to_dict(), "line_text": text} for t in twins]
    chosen, missing = libmut.pinned_specs(specs, both + both[:1])
    assert sorted(c.id for c in chosen) == sorted(t.id for t in twins) and missing == 1


def test_a_run_without_the_tests_beside_the_package_is_refused(monkeypatch):
    """From a non-editable install the tests are not beside the package: the run used to go on
    with no test mapped and report every survivor as "no mapped test executes this line"
    (found measuring the quick sample from a fresh clone). It is now refused up front, unless
    --no-tests says the registry alone judges."""
    import argparse

    from proofs_check.libmutation import run as libmut

    p = argparse.ArgumentParser()
    libmut.add_arguments(p)
    monkeypatch.setattr(libmut, "test_files", lambda: [])
    why = libmut.check_arguments(p.parse_args([]))
    assert why and "tests are not beside the package" in why and "--no-tests" in why
    assert libmut.check_arguments(p.parse_args(["--no-tests"])) is None
    monkeypatch.undo()
    assert libmut.check_arguments(p.parse_args([])) is None  # a checkout has its tests


def test_an_earlier_envelope_is_summarized_again(tmp_path, capsys):
    """``--from-json``: an earlier run's mutants are counted again (no mutant runs) — the same
    totals, this version's rates, the earlier run's command in the report; anything else is
    refused in one line."""
    from proofs_check.libmutation import run as librun
    from proofs_check.mutation import main

    recs = [
        {
            **_specs({"nbl_theory.x": 1})[0].to_dict(),
            "id": f"x{k}",
            "outcome": o,
            "reason": "r",
            "transitions": [],
            "n_claims": c,
            "n_tests": 1,
            "line_text": "x = 1",
        }
        for k, (o, c) in enumerate([("killed-as-FAIL", 2), ("tests-only", 0), ("survived", 1)])
    ]
    meta = {
        "sample": 4,
        "seed": 0,
        "mode": "full",
        "tests": True,
        "budget": 90.0,
        "population": 9,
        "coverage_key": "k",
        "seconds": 1.0,
        "modules": [],
        "command": "python -m proofs_check.mutation --library --full --sample 4",
    }
    env = summarize(recs + [{"id": "x3"}], {}, meta)
    old = tmp_path / "old.json"
    old.write_text(json.dumps(env))
    new, md = tmp_path / "new.json", tmp_path / "new.md"
    argv = ["--library", "--from-json", str(old), "--json-out", str(new), "--markdown", str(md)]
    assert main(argv) == 0
    t = json.loads(new.read_text())["totals"]
    assert (t["total"], t["killed-as-FAIL"], t["claimed"]) == (3, 1, 2)
    assert t["kill_rate_registry_claimed"] == 0.5
    text = md.read_text()
    assert "--full --sample 4" in text and "**50.0%**" in text
    assert json.loads(new.read_text())["not_run"] == ["x3"]
    big = tmp_path / "big.json"
    with big.open("wb") as f:  # sparse: nothing is read past the size check
        f.truncate(librun.MAX_ENVELOPE_BYTES + 1)
    assert main(["--library", "--from-json", str(big)]) == 2
    assert "more than an envelope" in capsys.readouterr().err
    (tmp_path / "other.json").write_text('{"a": 1}')
    assert main(["--library", "--from-json", str(tmp_path / "other.json")]) == 2
    assert "not a library-mutation envelope" in capsys.readouterr().err


def test_a_test_module_the_mutant_breaks_at_import_is_a_kill(tmp_path):
    """A mutant that makes a test module fail at import (its collection errors) kills: pytest
    reports the module's node ids as not found (exit 4), and without the collection error
    recorded that exit would read as "the tests could not run" (a survivor). Reproduced with
    a module that raises at import, run by node id through the worker's plugin."""
    import pytest as _pytest

    from proofs_check.libmutation.worker import _Failures

    (tmp_path / "test_broken.py").write_text(
        "raise ValueError('refused')\ndef test_x():\n    pass\n"
    )
    fails = _Failures()
    rc = _pytest.main(
        [str(tmp_path / "test_broken.py") + "::test_x", "-q", "-p", "no:cacheprovider", "-n", "0"],
        plugins=[fails],
    )
    assert rc == 4 and len(fails.failed) == 1
    assert fails.failed[0].startswith("collecting ") and "test_broken.py" in fails.failed[0]
    r = classify(
        BASE,
        [_ev("c1", "PASS"), {"event": "tests", "exit": int(rc), "failed": fails.failed}],
        n_claims=1,
        n_tests=1,
    )
    assert r["outcome"] == "tests-only"


@pytest.mark.parametrize("tests_exit, outcome", [(1, "tests-only"), (0, "timeout")])
def test_claims_that_hang_leave_the_tests_their_turn(monkeypatch, tests_exit, outcome):
    """A mutant whose claims run past the time limit (no verdict moved) gets a second worker
    for its mapped tests alone: a hang the tests notice is theirs to kill (continuation:132 of
    the full sample stepped from its start point for ever inside a claim, while
    tests/theory/test_continuation.py fails on it in 0.6 s); if they pass, it stays a timeout."""
    from proofs_check.libmutation import run as librun

    jobs = []

    def fake_worker(job, task):
        jobs.append(job)
        if job["claims"]:  # the claims' worker: one claim ran, then the limit
            return [_ev("c1", "PASS")], True
        failed = ["tests/t.py::x"] if tests_exit else []
        return [{"event": "tests", "exit": tests_exit, "failed": failed}, {"event": "done"}], False

    monkeypatch.setattr(librun, "_worker", fake_worker)
    task = {
        "job": {"claims": ["c1", "c2"], "tests": ["tests/t.py::x"], "baseline": {"c1": "PASS"}},
        "timeout": 1.0,
        "fresh_numba_cache": False,
    }
    res = librun._run_mutant(task)
    assert [j["claims"] for j in jobs] == [["c1", "c2"], []]
    r = classify(BASE, res["events"], None, res["timed_out"], n_claims=2, n_tests=1)
    assert r["outcome"] == outcome
    if outcome == "tests-only":
        assert r["reason"] == "the claims ran past the time limit; failed: tests/t.py::x"


def test_a_tests_chunk_that_stopped_early_is_not_merged():
    """A tests chunk whose pytest session was interrupted (exit 2: a stray SIGINT stopped one
    chunk of the quick sample's map after tests/sim/test_execution_signals.py, and 13 files
    were never mapped) is refused, not merged as if complete; a complete session (all passed,
    some failed, none collected) and a claims chunk pass through."""
    from proofs_check.libmutation.coverage_map import complete_part

    for code in (0, 1, 5):
        part = {"pytest_exit": code, "lines": {}}
        assert complete_part(part, "tests", 3) is part
    assert complete_part({"lines": {}}, "claims", 3) == {"lines": {}}
    for code in (2, 3, 4):
        with pytest.raises(RuntimeError, match=f"stopped early \\(exit {code}\\)"):
            complete_part({"pytest_exit": code, "lines": {}}, "tests", 3)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
def test_a_collector_child_starts_with_sigint_unblocked():
    """A pool worker starts with SIGINT blocked (nbl_sim.runs.execution); the coverage chunks
    and mutants it starts must not inherit the mask (it made the signal test's SIGINT pending
    in the chunk's pytest, delivered later, which cut the session and the map short)."""
    import signal
    import subprocess
    import sys

    from proofs_check.libmutation.coverage_map import child_setup

    probe = (
        "print(next(int(l.split()[1], 16) for l in open('/proc/self/status') "
        "if l.startswith('SigBlk:')))"
    )
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        inherited = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
        child = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, preexec_fn=child_setup
        )
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    bit = 1 << (signal.SIGINT - 1)
    assert int(inherited.stdout) & bit  # the probe sees an inherited mask
    assert not int(child.stdout) & bit


# ------------------------------------------------------------------ the survivors' triage
def test_every_triage_entry_names_a_line_of_todays_sources():
    """The default tier's quick form of the staleness check below (which generates every
    mutant, ~4 s, and runs in the slow tier): each entry's line is still a line of its module.
    An entry whose line was edited names no mutant any more, and a run would not skip or
    explain the mutants of the new line."""
    from proofs_check.libmutation import triage
    from proofs_check.libmutation.targets import module_path

    lines = {}
    for e in triage.entries().values():
        if e["module"] not in lines:
            src = (ROOT / module_path(e["module"])).read_text()
            lines[e["module"]] = {ln.strip() for ln in src.splitlines()}
        assert e["line_text"].strip() in lines[e["module"]], (e["module"], e["line_text"])


def test_every_triage_entry_is_well_formed_and_matches_a_mutant_of_the_sources():
    """proofs_check/libmutation/data/triage.json: a known class, a reason and the commit of
    each entry; and no entry is stale — each still names a mutant the operators generate from
    today's sources (an edited line must be triaged again, not carried over)."""
    from proofs_check.libmutation import triage
    from proofs_check.libmutation.run import _line, enumerate_mutants

    for e in triage.entries().values():
        assert e["class"] in triage.CLASSES, e
        assert len(e["reason"]) > 20 and e["triaged_at"], e
    specs, _ = enumerate_mutants()
    src = {}
    keys = [
        triage.key_of(
            {
                **s.to_dict(),
                "line_text": _line(src.setdefault(s.path, (ROOT / s.path).read_text()), s.line),
            }
        )
        for s in specs
    ]
    assert triage.stale(keys) == []


def test_the_report_states_each_survivors_triage_or_that_it_has_none(tmp_path):
    """A survivor with an entry (its own, or its line's "*" entry) carries the class and the
    reason into the envelope and the report; one without is counted as not triaged."""
    from proofs_check.libmutation import triage
    from proofs_check.libmutation.report import markdown
    from proofs_check.libmutation.run import summarize

    entry = next(iter(triage.entries().values()))
    base = {
        "path": "x.py",
        "line": 1,
        "col": 0,
        "n_claims": 1,
        "n_tests": 1,
        "reason": "1 claim(s) run, no verdict moved",
        "outcome": "survived",
    }
    known = {
        **base,
        "id": f"{entry['module']}:1:0:op:0",
        "module": entry["module"],
        "line_text": "  " + entry["line_text"],
        "operator": entry["operator"],
        "before": entry["before"],
        "after": entry["after"],
    }
    unknown = {**known, "line_text": "nothing = 'like this'", "id": "m:2:0:op:0"}
    meta = {
        "mode": "quick",
        "population": 2,
        "seed": 0,
        "tests": True,
        "budget": 1,
        "coverage_key": "k",
        "seconds": 1,
    }
    env = summarize([known, unknown], {}, meta)
    assert env["survivors"][0]["triage"]["class"] == entry["class"]
    assert env["survivors"][1]["triage"] is None
    assert env["totals"]["triaged"] == {entry["class"]: 1}
    md = markdown(env, "cmd")
    assert "Triaged: **1 of 2**" in md and "**1 not triaged yet**" in md
    assert f"**{entry['class']}**" in md


def test_survivors_the_triage_argues_equivalent_leave_the_second_rates_denominator():
    """The issue's outcome "equivalent (with the reason)": a survivor that ran and whose triage
    class is ``equivalent`` or ``equivalent-by-contract`` leaves the denominator of the second
    pair of rates; one of another class (``tuning``), or one the run did not run, stays."""
    from proofs_check.libmutation import triage
    from proofs_check.libmutation.run import summarize

    def rec_of(entry, i, **extra):
        return {
            "id": f"{entry['module']}:{i}:0:op:0",
            "module": entry["module"],
            "path": "x.py",
            "line": i,
            "col": 0,
            "line_text": entry["line_text"],
            "operator": entry["operator"],
            "before": entry["before"],
            "after": entry["after"],
            "n_claims": 1,
            "n_tests": 1,
            "reason": "r",
            "outcome": "survived",
            **extra,
        }

    by_class: dict = {}
    for e in triage.entries().values():
        if e["operator"] != "*":
            by_class.setdefault(e["class"], e)
    eq, tuning = by_class["equivalent"], by_class["tuning"]
    killed = {**rec_of(eq, 9), "line_text": "y = 2", "outcome": "killed-as-FAIL"}
    tests = {**killed, "id": "m:8:0:op:0", "outcome": "tests-only"}
    recs = [killed, tests, rec_of(eq, 1), rec_of(tuning, 2), rec_of(eq, 3, triaged_not_run=True)]
    t = summarize(recs, {}, {})["totals"]
    assert t["kill_rate_registry"] == 0.2 and t["kill_rate_registry_tests"] == 0.4
    assert t["triaged_equivalent"] == 1
    assert t["kill_rate_registry_not_equivalent"] == 0.25
    assert t["kill_rate_registry_tests_not_equivalent"] == 0.5


def test_mutants_of_nested_expressions_at_one_column_have_distinct_names():
    """``a * 1e-9 * b`` and its inner ``a * 1e-9`` start at one column: dropping a term of
    each gave two mutants named ``m:1:4:drop-term:0`` (found at rate_analysis.py:41, where the
    name planted the other mutant than the sample had run). The later one is ``...#1``, both
    apply to the source by their own text, and a spec survives the JSON round trip."""
    src = "x = a * 1e-9 * b\n"
    muts, _ = ops.generate(src, "m")
    ids = [m.id for m in muts]
    assert len(ids) == len(set(ids))
    drops = [m for m in muts if m.operator == "drop-term" and m.col == 4 and m.variant == 0]
    assert [m.id for m in drops] == ["m:1:4:drop-term:0", "m:1:4:drop-term:0#1"]
    assert [ast.unparse(ops.mutate_tree(src, m)) for m in drops] == ["x = a * 1e-09", "x = a * b"]
    assert ops.MutantSpec.from_dict(drops[1].to_dict()) == drops[1]


def test_the_coverage_map_forgets_memos_between_claims_but_the_preflight():
    """A claim that finds a memoized result computed by an earlier claim would not execute its
    lines: the collector clears every functools cache of the three packages before each claim
    (but the registry's preflight, which turns every claim FAIL alike)."""
    from nbl_theory.paper import paper_link
    from proofs_check.libmutation.coverage_map import _forget_memos
    from proofs_check.registry import REGISTRY
    from proofs_check.witnesses import lambda0, shared_inputs

    REGISTRY.all_claims()
    lambda0.lambda0_2d(paper_link("logistic"), "1", 0.5)
    shared_inputs.shared_inputs_defect()
    assert lambda0.lambda0_2d.cache_info().currsize >= 1
    assert _forget_memos(REGISTRY.preflight) > 0
    assert lambda0.lambda0_2d.cache_info().currsize == 0
    assert shared_inputs.shared_inputs_defect.cache_info().currsize == 1


def _module_level_containers():
    """``"module:name"`` of every module-level name of the three packages bound to an empty
    dict, OrderedDict, weak dictionary, list or set (a memo in the making), ``__all__`` aside."""
    out = set()
    for pkg in ("nbl_theory", "nbl_sim", "proofs_check"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            module = module.removesuffix(".__init__")
            for node in ast.parse(path.read_text()).body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    target, value = node.targets[0], node.value
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    target, value = node.target, node.value
                else:
                    continue
                if not isinstance(target, ast.Name) or target.id == "__all__":
                    continue
                empty = (isinstance(value, ast.Dict) and not value.keys) or (
                    isinstance(value, ast.List) and not value.elts
                )
                if isinstance(value, ast.Call) and not value.args and not value.keywords:
                    f = value.func
                    called = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                    empty = called in (
                        "dict",
                        "OrderedDict",
                        "defaultdict",
                        "WeakKeyDictionary",
                        "WeakValueDictionary",
                        "set",
                        "list",
                    )
                if empty:
                    out.add(f"{module}:{target.id}")
    return out


def test_every_module_level_memo_is_forgotten_between_claims_or_said_not_to_be_one():
    """The coverage map clears the process memos before each claim (a claim that found a
    stochastic run, a self-concordance constant or a field table an earlier claim computed ran
    none of its lines, and a mutant there was not run against it): every module-level mapping
    or list of the three packages is listed as a memo, or as not one with the reason."""
    from proofs_check.libmutation.coverage_map import NOT_MEMOS, PROCESS_MEMOS

    found = _module_level_containers()
    assert found == set(PROCESS_MEMOS) | set(NOT_MEMOS), (
        f"not declared: {sorted(found - set(PROCESS_MEMOS) - set(NOT_MEMOS))}; "
        f"declared but gone: {sorted((set(PROCESS_MEMOS) | set(NOT_MEMOS)) - found)}"
    )


def test_the_process_memos_are_cleared_with_the_functools_caches():
    import importlib

    from proofs_check.libmutation.coverage_map import PROCESS_MEMOS, _forget_memos

    held = []
    for memo in PROCESS_MEMOS:
        module, name = memo.split(":")
        mapping = getattr(importlib.import_module(module), name)
        key = object() if not hasattr(mapping, "keyrefs") else type("K", (), {})()
        mapping[key] = "memo"
        held.append((mapping, key))
    assert _forget_memos() >= len(PROCESS_MEMOS)
    assert all(len(mapping) == 0 for mapping, _ in held)


def test_subprocesses_import_the_sources_the_harness_maps(monkeypatch, tmp_path):
    """A collector's or a mutant's subprocess (cwd a temp dir) imports the packages from the
    harness's own ROOT (a worktree's), not from whatever checkout is installed."""
    import subprocess
    import sys

    from proofs_check.libmutation.targets import ROOT, subprocess_env

    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    env = subprocess_env(EXTRA="1")
    assert env["PYTHONPATH"].split(os.pathsep) == [str(ROOT), "/elsewhere"]
    assert env["EXTRA"] == "1"
    out = subprocess.run(
        [sys.executable, "-c", "import proofs_check; print(proofs_check.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert out.startswith(str(ROOT))


_SWEEP_UNDER_A_MUTANT = """
import sys
from proofs_check.libmutation.worker import MutantFinder
path = sys.argv[1]
code = compile(open(path).read().replace("x + 1", "x + 2"), path, "exec")
sys.meta_path.insert(0, MutantFinder("toycells", path, code))
import toycells
from nbl_sim.runs.execution import executor_for
from nbl_sim.runs.sweep import run_sweep
with executor_for(None, work=1e12) as ex:  # large work: a spawned pool, unless in-process
    print(type(ex).__name__, run_sweep(toycells.cell, [1, 2, 3], executor=ex).results)
"""


def test_a_mutants_process_computes_sweep_cells_with_the_mutated_code(tmp_path):
    """A claim of a mutant's process that computes cells through an automatically chosen
    executor (the full study's cells, ``toolkit_values.study_cells``) must compute them with
    the mutated module. A spawned pool worker imports the module from disk — the unmutated
    code — so the harness's subprocesses run such choices in-process (``NBL_IN_PROCESS``).
    Here a toy module's cell ``x + 1`` is mutated to ``x + 2`` by the worker's import hook;
    without the variable, on two or more cores, the pool returned the unmutated cells."""
    import subprocess
    import sys

    from nbl_sim.runs.execution import IN_PROCESS_ENV
    from proofs_check.libmutation.targets import subprocess_env

    (tmp_path / "toycells.py").write_text("def cell(x):\n    return x + 1\n")
    env = subprocess_env()
    assert env[IN_PROCESS_ENV] == "1"
    env["PYTHONPATH"] += os.pathsep + str(tmp_path)
    script = [sys.executable, "-c", _SWEEP_UNDER_A_MUTANT, str(tmp_path / "toycells.py")]
    out = subprocess.run(script, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.stdout.split() == ["SerialExecutor", "[3,", "4,", "5]"], out.stderr[-2000:]


def test_again_takes_up_what_the_registry_did_not_kill(tmp_path):
    """``--again FILE`` runs, of the same sample, only the mutants the earlier envelope lists as
    killed by tests only, survived or timed out (no mutant is run here: --stop-after 0)."""
    import json

    from proofs_check.libmutation import run as R

    specs, _ = R.enumerate_mutants(["nbl_theory.results"])
    chosen = R.stratified_sample(specs, 6, 0)
    ids = [s.to_dict()["id"] for s in chosen]
    outcomes = ["killed-as-FAIL", "tests-only", "survived", "timeout", "blame", "killed-as-FAIL"]
    env = {
        "nbl_libmutation": 1,
        "mutants": [{"id": i, "outcome": o} for i, o in zip(ids, outcomes)],
        "not_run": [],
        "not_generated": {},
        "meta": {},
    }
    f = tmp_path / "earlier.json"
    f.write_text(json.dumps(env))
    assert R.again_ids(f) == frozenset(ids[1:4])
    empty = CoverageMap({"contexts": [], "claims": {}, "tests": {}, "lines": {}})
    kw = dict(
        sample=6,
        seed=0,
        tests=False,
        workers=1,
        modules=["nbl_theory.results"],
        coverage=empty,
        resume=False,
        stop_after=0,
    )
    out = R.run_library(only=R.again_ids(f), **kw)
    assert {m["id"] for m in out["mutants"]} == set(ids[1:4])
    assert out["meta"]["again"] == {"listed": 3, "in_sample": 3}
    # a list from another sample: said, and refused in one line when nothing of it is here
    part = R.run_library(only=frozenset([ids[1], "nbl_theory.results:1:0:const+1:0"]), **kw)
    assert part["meta"]["again"] == {"listed": 2, "in_sample": 1}
    with pytest.raises(NBLInputError, match="--again: none of the 1 mutant"):
        R.run_library(only=frozenset(["nbl_theory.results:1:0:const+1:0"]), **kw)


def test_subprocess_bytecode_goes_to_the_runs_own_directory(tmp_path, monkeypatch):
    """A mutant's subprocess never writes bytecode into the work tree: with the run's
    directory it writes there (``PYTHONPYCACHEPREFIX``, whatever the calling shell's
    ``PYTHONDONTWRITEBYTECODE``), without one it writes nothing."""
    import subprocess
    import sys

    from proofs_check.libmutation.targets import subprocess_env

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert subprocess_env()["PYTHONDONTWRITEBYTECODE"] == "1"
    pyc = tmp_path / "pyc"
    env = subprocess_env(pycache=str(pyc))
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["PYTHONPYCACHEPREFIX"] == str(pyc)
    subprocess.run(
        [sys.executable, "-c", "import proofs_check.libmutation.triage"],
        cwd=tmp_path,
        env=env,
        check=True,
    )
    written = [p.name for p in pyc.rglob("*.pyc")]
    assert any(n.startswith("triage.") for n in written), written


def test_a_triaged_survivor_is_reported_with_its_triage_and_not_run():
    """``--run-triaged`` off: a mutant the triage lists gets ``survived`` with the triage's
    class and reason and ``not run``, counted as not killed; any other mutant runs."""
    from proofs_check.libmutation import run as R
    from proofs_check.libmutation import triage

    entry = next(e for e in json.loads(triage.PATH.read_text()) if e["operator"] != "*")
    base = {
        "id": f"{entry['module']}:1:0:{entry['operator']}:0",
        "module": entry["module"],
        "line_text": entry["line_text"],
        "operator": entry["operator"],
        "before": entry["before"],
        "after": entry["after"],
        "n_claims": 3,
        "n_tests": 5,
    }
    rec = dict(base)
    assert R._skip_triaged(rec)  # noqa: SLF001 - the rule itself
    assert rec["outcome"] == "survived" and rec["claims_run"] == 0
    assert rec["reason"].startswith(f"triaged {entry['class']} at {entry['triaged_at']}, not run")
    other = {**base, "id": base["id"] + "x", "after": base["after"] + " + 0"}
    assert not R._skip_triaged(other)  # noqa: SLF001
    env = R.summarize([rec, {**other, "outcome": "killed-as-FAIL"}], {}, {})
    assert env["totals"]["triaged_not_run"] == 1
    assert env["totals"]["kill_rate_registry"] == 0.5  # the triaged one counts as not killed


def test_kept_kernels_go_to_later_mutants_and_the_first_copy_stays(tmp_path):
    """``keep_kernels`` keeps one finished process's numba directory as the run's copy (the
    first one; a later one is not written over it), ``seed_kernels`` gives it to a later
    process's empty nbl cache; nothing is kept from a cache without kernels."""
    from proofs_check.libmutation.targets import keep_kernels, seed_kernels

    warm = tmp_path / "warm"
    warm.mkdir()
    empty = tmp_path / "a" / "cache"
    (empty / "numba" / "d1").mkdir(parents=True)
    assert not keep_kernels(empty, warm)  # directories but no kernel file
    first = tmp_path / "b" / "cache"
    (first / "numba" / "d1").mkdir(parents=True)
    (first / "numba" / "d1" / "k.nbi").write_text("first")
    assert keep_kernels(first, warm)
    second = tmp_path / "c" / "cache"
    (second / "numba" / "d1").mkdir(parents=True)
    (second / "numba" / "d1" / "k.nbi").write_text("second")
    assert not keep_kernels(second, warm)
    later = tmp_path / "d" / "cache"
    assert seed_kernels(warm, later)
    assert (later / "numba" / "d1" / "k.nbi").read_text() == "first"
    assert oct(later.stat().st_mode & 0o777) == "0o700"  # an nbl cache directory is private
    assert not seed_kernels(None, tmp_path / "e") and not seed_kernels(tmp_path / "none", later)
    assert sorted(p.name for p in warm.iterdir()) == ["numba"]  # no part copy left behind


def _package_imports(module: str) -> set:
    """The package modules ``module`` imports (statically, at any depth of its own code)."""
    from proofs_check.libmutation.targets import ROOT

    rel = module.replace(".", "/")
    path = ROOT / f"{rel}.py"
    is_pkg = not path.exists()
    if is_pkg:
        path = ROOT / rel / "__init__.py"
    parts = module.split(".") if is_pkg else module.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for n in names:
            r = n.replace(".", "/")
            if n.split(".")[0] in ("nbl_sim", "nbl_theory") and (
                (ROOT / f"{r}.py").exists() or (ROOT / r / "__init__.py").exists()
            ):
                out.add(n)
    return out


def test_compiled_code_reads_no_target_through_another_module():
    """What giving a mutant the unmutated kernels rests on (``seed_kernels``): a kernel reads
    another module's values only as arguments or as names its module imports. A target module
    imported that way is ``numba_sensitive`` when a jitted function reads the name; any other
    module a jitted function reads a name from must not itself import a target (whose mutant
    would then change the name's value without being numba-sensitive)."""
    from nbl_sim.engine.jit_cache import compiled_sources
    from proofs_check.libmutation.targets import (
        ROOT,
        TARGETS,
        _jitted_names,
        _names_from,
        numba_sensitive,
    )

    compiled = {
        p.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".") for p in compiled_sources()
    }
    checked = 0
    for module in sorted(compiled):
        path = module_path(module)
        jitted = _jitted_names(path)
        for other in sorted(_package_imports(module) - compiled):
            read = _names_from(path, other) & jitted
            if not read:
                continue
            checked += 1
            if other in TARGETS:
                assert numba_sensitive(other), (module, other, read)
                continue
            seen, todo = set(), [other]
            while todo:
                m = todo.pop()
                if m not in seen:
                    seen.add(m)
                    todo.extend(_package_imports(m))
            assert not seen & set(TARGETS), (
                module,
                other,
                sorted(read),
                sorted(seen & set(TARGETS)),
            )
    assert checked >= 2  # the kernels do read imported constants (contract's, the tables)


# ------------------------------------------------------------------ time limits and the order
def test_a_mutants_time_limit_follows_the_work_the_map_timed_for_it():
    """Twice the claims' and tests' seconds in the coverage map plus start-up (and the kernels'
    compiling for a numba-sensitive mutant), capped at the flat 3 × budget + 120 s; the claims
    past the budget do not count, but the one running when it passes does (to its end)."""
    from proofs_check.libmutation.run import expected_seconds, time_limit

    # reference:468 of docs/mutation-quick-60c: two claims and a test, 72.4 s in the map; it
    # looped until the flat limit, 480 s; now it is ended at 264.8 s
    work = expected_seconds([24.9, 29.3], [18.2], budget=120.0)
    assert work == pytest.approx(72.4)
    assert time_limit(120.0, work, fresh=False) == pytest.approx(2 * 72.4 + 120)
    assert time_limit(120.0, work, fresh=True) == pytest.approx(2 * 72.4 + 180)
    # the budget: of claims 50 + 90 + 100 + 300 s only those started within 120 s run
    assert expected_seconds([50, 90, 100, 300], [], budget=120.0) == 120.0 + 300
    # never above the flat limit
    assert time_limit(120.0, 10_000.0, fresh=False) == 3 * 120.0 + 120
    assert time_limit(360.0, 10_000.0, fresh=True) == 3 * 360.0 + 120
    # no work mapped: start-up alone
    assert time_limit(120.0, expected_seconds([], [], 120.0), fresh=False) == 120.0


def test_a_full_run_hands_out_the_longest_mutants_first_a_stoppable_one_stratified():
    from proofs_check.libmutation.run import schedule

    records = [{"module": m} for m in ("a", "a", "b", "b", "c")]
    tasks = [
        (0, {"fresh_numba_cache": False, "expected": 10.0}),
        (1, {"fresh_numba_cache": False, "expected": 50.0}),
        (2, {"fresh_numba_cache": True, "expected": 5.0}),
        (3, {"fresh_numba_cache": False, "expected": 30.0}),
        (4, {"fresh_numba_cache": True, "expected": 40.0}),
    ]
    # everything runs: the kernel compilers first, then the longest expected first
    assert [i for i, _ in schedule(tasks, records, None)] == [4, 2, 1, 3, 0]
    # a run that may stop early: round-robin over the modules, kernel compilers last
    assert [i for i, _ in schedule(tasks, records, 600.0)] == [0, 1, 3, 2, 4]


def test_a_ctrl_c_while_the_map_is_collected_ends_the_module_with_one_line(monkeypatch, capsys):
    """``python -m proofs_check.mutation --library``: a Ctrl-C in the coverage map's phase (the
    mutants' phase reports what ran itself) printed a traceback; now one line and exit 130."""
    from proofs_check import mutation
    from proofs_check.libmutation import run as libmut

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(libmut, "run_from_args", interrupted)
    assert mutation.main(["--library", "--sample", "1", "--workers", "1"]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "interrupted" in err[0] and "Traceback" not in err[0]


def test_the_maps_chunks_share_the_kernels_the_first_one_compiled(tmp_path, monkeypatch):
    """The coverage map's chunks: each runs with an empty nbl cache (no cached result stands in
    for a computation) but for the numba kernels, which the first chunk to finish keeps and
    later ones are given (each chunk compiled them all again, under coverage tracing), and
    with the run's bytecode directory."""
    import subprocess

    from proofs_check.libmutation import coverage_map as cm

    seen = []

    def chunk(cmd, cwd, env, **kw):  # a chunk's process: it compiles one kernel of its own
        cache = Path(env["NBL_CACHE_DIR"])
        found = sorted(p.name for p in cache.rglob("*.nbi"))
        seen.append((found, env.get("PYTHONPYCACHEPREFIX")))
        (cache / "numba" / "d").mkdir(parents=True, exist_ok=True)
        (cache / "numba" / "d" / f"k{len(seen)}.nbi").write_text("compiled")
        spec = json.loads(Path(cmd[-1]).read_text())
        Path(spec["out"]).write_text(json.dumps({"claims": {}, "lines": {}}))
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(cm.subprocess, "run", chunk)
    (tmp_path / "kernels").mkdir()
    shared = {"kernels": str(tmp_path / "kernels"), "pycache": str(tmp_path / "pyc")}
    for _ in range(3):
        cm._run_chunk(("quick-claims", ["c1"], shared))
    # the first chunk found none and kept its own; the later ones were given the first's
    pyc = shared["pycache"]
    assert seen == [([], pyc), (["k1.nbi"], pyc), (["k1.nbi"], pyc)]
    # without the shared directories (a map collected outside a run) nothing is shared
    seen.clear()
    cm._run_chunk(("quick-claims", ["c1"]))
    assert seen == [([], None)]


def test_the_map_credits_a_plans_cells_to_every_claim_that_reads_them(tmp_path, monkeypatch):
    """The claims of a map chunk share its nbl cache directory: the first study claim computes
    the full study's cells, the others read them. A mutant of a line computing the cells must
    run against every claim that reads them (in its process they read the mutated cells), so
    the map computes a split check's cells once under the plan's own context and credits it
    to each reader (``coverage_map._shared_cells``, ``credit_readers``). Without it, the cell's
    line was mapped to the first reader only."""
    import coverage

    from proofs_check.libmutation import coverage_map
    from proofs_check.runner_tasks import CellPlan, split_check

    (tmp_path / "toyplan.py").write_text("def cell(x):\n    return x * 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import toyplan

    def mapped(share: bool) -> list:
        store = {}  # the chunk's cache: cells computed once, read after

        def run(plan):
            return [store[c] if c in store else store.setdefault(c, plan.fn(c)) for c in plan.cells]

        check = split_check(lambda: CellPlan(toyplan.cell, (1, 2)), sum, run=run)
        cov = coverage.Coverage(data_file=None, source=[str(tmp_path)], config_file=False)
        cov.start()
        computed, readers = {}, {}
        for cid in ("a", "b"):
            key = coverage_map._shared_cells(check, cov, computed) if share else None
            if key:
                readers.setdefault(key, []).append(cid)
            cov.switch_context("c:" + cid)
            assert check() == 6
        cov.stop()
        data = cov.get_data()
        path = next(f for f in data.measured_files() if f.endswith("toyplan.py"))
        per = {str(k): sorted(v) for k, v in data.contexts_by_lineno(path).items()}
        return coverage_map.credit_readers({"toyplan.py": per}, readers)["toyplan.py"]["2"]

    assert mapped(share=False) == ["c:a"]
    assert mapped(share=True) == ["c:a", "c:b"]
    assert coverage_map.credit_readers({"m.py": {"3": ["p:k", "c:a"]}}, {"p:k": ["b", "c"]}) == {
        "m.py": {"3": ["c:a", "c:b", "c:c"]}
    }


def test_a_full_map_puts_the_readers_of_one_plan_in_one_chunk():
    """The cells of a plan are computed once per chunk (``_shared_cells``): in a full map
    the claims that read one plan (the study claims) go into one chunk, so the cells are
    computed once and credited to all; a quick map (no claim reads cells) keeps the plain
    round robin. Round robin alone had put the five study claims into several chunks."""
    from types import SimpleNamespace

    from proofs_check.libmutation.coverage_map import _chunks, _claim_chunks
    from proofs_check.runner_tasks import CellPlan, split_check

    def runs(plan):
        return [plan.fn(c) for c in plan.cells]

    shared = split_check(lambda: CellPlan(abs, (-1, 2)), sum, run=runs)
    own = split_check(lambda: CellPlan(abs, (-3,)), sum)  # cells of its own: no run
    claims = [
        SimpleNamespace(id=f"c{i}", check=shared if i % 3 == 0 else own if i == 4 else print)
        for i in range(10)
    ]
    full = _claim_chunks(claims, 4, quick=False)
    assert sorted(sum(full, [])) == sorted(c.id for c in claims)
    readers = [ch for ch in full if "c0" in ch]
    assert len(readers) == 1 and {"c0", "c3", "c6", "c9"} <= set(readers[0])
    assert _claim_chunks(claims, 4, quick=True) == _chunks([c.id for c in claims], 4)
