"""The parallel claim runner (proofs_check.runner): same results and order as the serial
registry, the claim cache (reuse, and invalidation of exactly the claims whose source changed),
a raising claim and a dying worker become FAIL, precision changes do not leak between tasks,
interrupted and killed runs leave a valid partial report and resume to the identical report,
and split claims (cells + combine).

The registry used here is TEST_REGISTRY below: tiny claims, importable by spawned workers as
``tests.proofs_check.test_runner:TEST_REGISTRY``. One test runs a handful of the paper's real
quick claims in a process pool.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import mpmath
import pytest

from nbl_sim.runs.execution import ProcessExecutor, SerialExecutor
from nbl_sim.runs.sweep import ChunkCache, cell_key
from nbl_sim.studies.rate_study import QUICK, plan, run_study, study_cell
from proofs_check import runner_keys
from proofs_check.registry import (
    CAVEAT,
    DISCREPANCY,
    FAIL,
    PASS,
    REGISTRY,
    SKIPPED,
    Outcome,
    Registry,
)
from proofs_check.report_json import load_records
from proofs_check.runner import (
    PENDING_DETAIL,
    CellPlan,
    ReplayExecutor,
    claims_cache,
    is_split,
    run_claims_parallel,
    split_check,
)

ROOT = Path(__file__).resolve().parents[2]
REG = "tests.proofs_check.test_runner:TEST_REGISTRY"
_PARENT = "NBL_TEST_RUNNER_PARENT"  # the pid of the test process (workers see it)
_SLEEP = "NBL_TEST_RUNNER_SLEEP"  # seconds the "t-sleep" claim sleeps
_SLEPT = "NBL_TEST_RUNNER_SLEPT"  # a file the "t-sleep" claim creates when it wakes

TEST_REGISTRY = Registry()
_reg = TEST_REGISTRY.register


@_reg("t-pass", "eq:a", "sec:a", "1 + 1 = 2", "symbolic", "exact", "integers", printed="2")
def _t_pass():
    return Outcome(PASS if 1 + 1 == 2 else DISCREPANCY, str(1 + 1), "added")


@_reg("t-caveat", "prop:b", "sec:a", "holds under a condition", "symbolic", "exact", "-")
def _t_caveat():
    return Outcome(CAVEAT, "x", "needs a condition", evidence={"eq:c": "checked"})


@_reg(
    "t-discrepancy",
    "tab:c",
    "sec:b",
    "the table prints 3",
    "high-precision",
    "1e-10",
    "float",
    printed="3",
)
def _t_discrepancy():
    return Outcome(DISCREPANCY, str(mpmath.mpf(2) + mpmath.mpf(1) / 10**12), "off by 1e-12")


@_reg("t-slow", "eq:d", "sec:b", "a slow claim", "symbolic", "exact", "-", quick=False)
def _t_slow():
    return Outcome(PASS, "slow", "ran")


@_reg("t-raises", "eq:e", "sec:b", "a check that raises", "symbolic", "exact", "-")
def _t_raises():
    raise ValueError("broken witness")


@_reg("t-precision", "eq:f", "sec:c", "changes mpmath's precision", "symbolic", "exact", "-")
def _t_precision():
    mpmath.mp.dps = 60  # deliberately not restored: a FAIL, and no leak
    return Outcome(PASS, "60")


@_reg("t-reads-dps", "eq:g", "sec:c", "reads mpmath's precision", "symbolic", "exact", "-")
def _t_reads_dps():
    return Outcome(PASS, str(mpmath.mp.dps))


def _square(x: int) -> int:
    """A cell (top-level, so workers can run it)."""
    if x < 0:
        raise ValueError(f"negative cell {x}")
    return x * x


def _cells():
    return CellPlan(_square, (1, 2, 3, 4), namespace="test-cells")


def _combine_sum(values):
    total = sum(values)
    return Outcome(PASS if total == 30 else DISCREPANCY, str(total), f"cells {list(values)}")


def _combine_max(values):
    return Outcome(PASS if max(values) == 16 else DISCREPANCY, str(max(values)))


_reg("t-split-sum", "eq:h", "sec:d", "1 + 4 + 9 + 16 = 30", "symbolic", "exact", "-")(
    split_check(_cells, _combine_sum)
)
_reg("t-split-max", "eq:i", "sec:d", "max of the squares is 16", "symbolic", "exact", "-")(
    split_check(_cells, _combine_max)
)
_reg("t-split-bad", "eq:j", "sec:d", "a cell that raises", "symbolic", "exact", "-")(
    split_check(lambda: CellPlan(_square, (1, -2)), _combine_sum)
)


@_reg("t-dies", "eq:k", "sec:e", "kills its worker", "symbolic", "exact", "-")
def _t_dies():
    if os.environ.get(_PARENT) and int(os.environ[_PARENT]) != os.getpid():
        os._exit(3)  # only ever in a worker process, never in pytest
    return Outcome(PASS, "alive")


@_reg("t-sleep", "eq:l", "sec:e", "takes its time", "symbolic", "exact", "-")
def _t_sleep():
    time.sleep(float(os.environ.get(_SLEEP, "0")))
    if os.environ.get(_SLEPT):
        Path(os.environ[_SLEPT]).touch()
    return Outcome(PASS, "slept")


# Two claims over the cells of one regret-rate study (the split proposed for the five study
# claims of proofs_check.claims.regret.study): a tiny configuration of nbl_sim.studies.rate_study (13
# cells), the cells cached in the "study" namespace under the sweep's own key, the study
# reassembled by run_study itself through ReplayExecutor.
STUDY = dataclasses.replace(
    QUICK, name="runner-test", reps=8, long_reps=4, gamma_reps=8, loc_reps=16, contrast_reps=8
)


@functools.cache
def _study_cells():
    return CellPlan(study_cell, tuple(plan(STUDY)[0]), namespace="study")


ANALYSES = []


@functools.lru_cache(maxsize=1)
def _study(results):
    """The study's analysis, once for every claim that shares its cells (``results`` is a
    CellResults, hashable by the cells' keys)."""
    ANALYSES.append(results.key)
    return run_study(STUDY, executor=ReplayExecutor(_study_cells().cells, results)).analysis()


def _study_contrast(results):
    c = _study(results)["contrast"]
    u, s = c["tt-unstable"]["slope"]["slope"], c["tt-stable"]["slope"]["slope"]
    return Outcome(PASS if u > s else DISCREPANCY, f"{u:.12f} vs {s:.12f}")


def _study_localization(results):
    loc = _study(results)["localization"]["by_d"]
    return Outcome(
        PASS,
        "; ".join(
            f"d={d}: " + ", ".join(f"{r['p_exit']:.6f}" for r in rs) for d, rs in loc.items()
        ),
    )


_reg("t-study-contrast", "thm:x", "sec:f", "unstable grows faster", "monte-carlo", "-", "-")(
    split_check(_study_cells, _study_contrast)
)
_reg("t-study-localization", "lem:x", "sec:f", "exit frequencies", "monte-carlo", "-", "-")(
    split_check(_study_cells, _study_localization)
)


GOOD = [
    "t-pass",
    "t-caveat",
    "t-discrepancy",
    "t-slow",
    "t-raises",
    "t-split-sum",
    "t-split-max",
    "t-split-bad",
]


def _view(results):
    """What must not depend on the executor: everything but the seconds (and where a FAIL
    happened: a failed cell names itself after the serial message)."""
    return [
        (
            r.id,
            r.status,
            r.computed,
            r.detail.split(" (cell ")[0] if r.status == FAIL else r.detail,
            r.printed,
            r.covers,
            r.evidence,
        )
        for r in results
    ]


@pytest.fixture
def cache(tmp_path):
    return claims_cache(tmp_path / "cache")


@pytest.fixture(autouse=True)
def _parent_pid(monkeypatch):
    monkeypatch.setenv(_PARENT, str(os.getpid()))


@pytest.mark.parametrize("quick", [False, True])
def test_same_results_and_order_as_the_serial_registry(quick, tmp_path):
    serial = TEST_REGISTRY.run_claims(quick=quick, ids=GOOD)
    with ProcessExecutor(2) as ex:
        par = run_claims_parallel(GOOD, quick=quick, executor=ex, registry=REG)
    assert [r.id for r in par] == GOOD
    assert _view(par) == _view(serial)
    status = {r.id: r.status for r in par}
    assert status["t-raises"] == FAIL and status["t-split-bad"] == FAIL
    assert status["t-slow"] == (SKIPPED if quick else PASS)
    bad = next(r for r in par if r.id == "t-split-bad")
    assert bad.detail == "check raised ValueError: negative cell -2 (cell 1 of 2)"


def test_split_cells_run_once_and_are_cached(cache):
    seen = []
    first = run_claims_parallel(
        ["t-split-sum", "t-split-max"],
        executor=SerialExecutor(),
        cache=cache,
        registry=REG,
        on_task=seen.append,
    )
    assert [(r.status, r.computed) for r in first] == [(PASS, "30"), (PASS, "16")]
    # the four shared cells ran once, for both claims; the claims themselves were combined
    assert sorted(t.name for t in seen if t.kind == "cell") == [
        f"t-split-sum#{i}" for i in range(4)
    ]
    assert sorted(t.name for t in seen if t.kind == "combine") == ["t-split-max", "t-split-sum"]
    # the cells are in the sweep cache under the sweep's key (shared with run_sweep)
    cells = ChunkCache(cache.root.parent, "test-cells")
    assert cells.get(cell_key(_square, 3)) == (True, 9)
    # a claim result lost from the cache is recombined from the cached cells, running nothing
    for f in cache.root.glob("??/*.json"):
        f.unlink()
    seen.clear()
    again = run_claims_parallel(
        ["t-split-sum", "t-split-max"],
        executor=SerialExecutor(),
        cache=cache,
        registry=REG,
        on_task=seen.append,
    )
    assert _view(again) == _view(first)
    assert [t.kind for t in seen] == []


def test_split_claims_are_planned_after_the_longest_claims_started(monkeypatch):
    """The split claims' ``cells()`` (the study's plan takes ~10 s) run once the first round
    of claims is submitted, so the workers compute while the parent plans."""
    events = []
    check = next(c.check for c in TEST_REGISTRY.all_claims() if c.id == "t-split-sum")
    monkeypatch.setattr(check, "cells", lambda: events.append("plan") or _cells())
    ids = ["t-pass", "t-caveat", "t-discrepancy", "t-reads-dps", "t-split-sum"]
    res = run_claims_parallel(
        ids,
        executor=SerialExecutor(),
        registry=REG,
        chunk=False,
        on_task=lambda t: events.append(t.kind),
    )
    assert [r.status for r in res] == [PASS, CAVEAT, DISCREPANCY, PASS, PASS]
    assert events.index("plan") == 2  # after the first round: two claims (1 worker x 2)
    assert events.count("cell") == 4 and events.count("combine") == 1


@pytest.mark.slow
def test_study_claims_split_into_shared_cached_cells(cache):
    ids = ["t-study-contrast", "t-study-localization"]
    seen = []
    _study.cache_clear()
    ANALYSES.clear()
    res = run_claims_parallel(
        ids, executor=SerialExecutor(), cache=cache, registry=REG, on_task=seen.append
    )
    n_cells = len(plan(STUDY)[0])
    # the 13 cells ran once for both claims, then each claim was combined in this process,
    # sharing one analysis
    assert sum(t.kind == "cell" for t in seen) == n_cells
    assert sorted(t.name for t in seen if t.kind == "combine") == sorted(ids)
    assert len(ANALYSES) == 1 and ANALYSES[0] is not None
    # the same outcome as each check run whole, in this process (cells recomputed, the
    # analysis redone from them)
    _study.cache_clear()
    direct = TEST_REGISTRY.run_claims(ids=ids)
    assert len(ANALYSES) == 2 and ANALYSES[1] == ANALYSES[0]  # the same cell keys
    assert _view(res) == _view(direct)
    # the cells sit in the study cache under the sweep's key: run_study (nbl study) reuses them
    again = run_study(STUDY, cache=ChunkCache(cache.root.parent, "study"))
    assert (again.cached, again.computed) == (n_cells, 0)


def test_the_paper_study_claims_are_split_over_the_study_cells():
    """The five regret-study claims are split checks over one plan, the study's cells
    (``study_plan``: ``nbl_sim.studies.rate_study.study_cell`` over ``plan(FULL)`` in the "study"
    namespace), so the runner runs the study once, cell by cell, for all five."""
    from proofs_check.witnesses.toolkit_values import study_plan

    ids = {
        "regret-rate-d-log-n",
        "localized-estimation-rate-study",
        "step-size-exponent",
        "localization-vs-n0",
        "regret-rate-unstable-contrast",
    }
    checks = {c.id: c.check for c in REGISTRY.all_claims() if c.id in ids}
    assert set(checks) == ids
    for check in checks.values():
        assert is_split(check) and check.cells is study_plan
        assert check.__module__ == "proofs_check.claims.regret.study"


def test_a_split_check_called_directly_computes_its_cells_with_run():
    """``split_check(..., run=)``: the direct call (the serial registry, mutants) gets the
    cells' results from ``run`` (e.g. a cached sweep), the combine unchanged."""
    plans = []

    def run(plan):
        plans.append(plan)
        return [plan.fn(c) for c in reversed(plan.cells)][::-1]

    check = split_check(_cells, _combine_sum, run=run)
    out = check()
    assert (out.status, out.computed) == (PASS, "30") and len(plans) == 1
    assert split_check(_cells, _combine_sum)().computed == "30"


def test_a_split_check_with_direct_runs_it_when_called_directly():
    """``split_check(..., direct=)``: a direct call (the serial registry, a mutant with its
    own inputs) runs ``direct(**kwargs)`` and plans no cells; the runner still splits it."""
    planned = []

    def cells():
        planned.append(1)
        return _cells()

    check = split_check(cells, _combine_sum, direct=lambda scale=1: Outcome(PASS, str(30 * scale)))
    assert check().computed == "30" and check(scale=2).computed == "60" and not planned
    assert is_split(check) and check.combine([1, 4, 9, 16]).computed == "30"


def test_the_heavy_paper_claims_are_split_into_shared_cells():
    """The claims that bound a cluster's makespan are split: the four initialization-grid
    claims share one plan of 30 settings (each drawn once), the two Greedy Logistic panels run
    one cell per (link, intercept), the large trajectory check one cell per link."""
    checks = {c.id: c.check for c in REGISTRY.all_claims()}
    grid = [
        checks[f"{k}-grid"]
        for k in (
            "init-mse-bound",
            "init-high-probability",
            "init-vector-concentration",
            "init-fixed-direction-tail",
        )
    ]
    plans = [c.cells() for c in grid]
    assert all(is_split(c) for c in grid) and len(plans[0].cells) == 30
    assert all(p.cells == plans[0].cells and p.fn is plans[0].fn for p in plans)
    assert len(checks["logistic-comparison-rho"].cells().cells) == 10
    assert len(checks["logistic-comparison-two-transition"].cells().cells) == 6
    assert len(checks["conditional-field-trajectories-large"].cells().cells) == 6


def test_replay_executor_refuses_other_cells():
    ex = ReplayExecutor([1, 2], ["a", "b"])
    assert list(ex.run(str, [2, 1])) == [(0, "b"), (1, "a")]
    with pytest.raises(ValueError, match="no result for the cell"):
        list(ex.run(str, [3]))


def test_cache_reuse_skips_every_task_and_fail_is_not_cached(cache):
    ids = ["t-pass", "t-caveat", "t-raises"]
    seen = []
    first = run_claims_parallel(
        ids, executor=SerialExecutor(), cache=cache, registry=REG, on_task=seen.append
    )
    assert sorted(t.name for t in seen) == sorted(ids)
    seen.clear()
    second = run_claims_parallel(
        ids, executor=SerialExecutor(), cache=cache, registry=REG, on_task=seen.append
    )
    assert [t.name for t in seen] == ["t-raises"]  # a FAIL is re-examined every run
    assert [r.to_dict() for r in second[:2]] == [r.to_dict() for r in first[:2]]
    # the mode is part of the key
    seen.clear()
    run_claims_parallel(
        ids, quick=True, executor=SerialExecutor(), cache=cache, registry=REG, on_task=seen.append
    )
    assert sorted(t.name for t in seen) == sorted(ids)


_PKG = {
    "__init__.py": "",
    "shared.py": "FACTOR = 2\n",
    "mod_a.py": """
        from proofs_check.registry import PASS, Outcome
        from .reg import REG
        from .shared import FACTOR

        @REG.register("a-one", "eq:a1", "sec:a", "a one", "symbolic", "exact", "-")
        def _a1():
            return Outcome(PASS, str(FACTOR))

        @REG.register("a-two", "eq:a2", "sec:a", "a two", "symbolic", "exact", "-")
        def _a2():
            return Outcome(PASS, str(2 * FACTOR))
        """,
    "mod_b.py": """
        from nbl_theory.numeric import PHI0
        from proofs_check.registry import PASS, Outcome
        from .reg import REG

        @REG.register("b-one", "eq:b1", "sec:b", "b one", "symbolic", "exact", "-")
        def _b1():
            return Outcome(PASS, f"{PHI0:.6f}")
        """,
    "reg.py": "from proofs_check.registry import Registry\nREG = Registry(loader=__package__ "
    "+ '.load')\n",
    "load.py": "from . import mod_a, mod_b  # noqa: F401\n",
}


def test_cache_invalidation_follows_the_source(tmp_path, monkeypatch, cache):
    """Editing a module recomputes exactly the claims whose module imports it."""
    pkg = tmp_path / "runner_pkg_x"
    pkg.mkdir()
    for name, text in _PKG.items():
        (pkg / name).write_text(textwrap.dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = "runner_pkg_x.reg:REG"

    def run():
        runner_keys.claim_fingerprint.cache_clear()
        seen = []
        res = run_claims_parallel(
            executor=SerialExecutor(), cache=cache, registry=spec, on_task=seen.append
        )
        assert all(r.status == PASS for r in res)
        return sorted(t.name for t in seen)

    try:
        assert run() == ["a-one", "a-two", "b-one"]
        assert run() == []
        (pkg / "shared.py").write_text("FACTOR = 2  # edited\n")  # imported by mod_a only
        assert run() == ["a-one", "a-two"]
        (pkg / "mod_b.py").write_text((pkg / "mod_b.py").read_text() + "\n# edited\n")
        assert run() == ["b-one"]
        (pkg / "load.py").write_text((pkg / "load.py").read_text() + "# edited\n")
        assert run() == []  # a parent/loader module is not a dependency of a claim
        # an nbl module a claim imports counts through nbl_sim.runs.sweep.source_fingerprint
        before = {
            m: runner_keys.claim_fingerprint(m)
            for m in ("runner_pkg_x.mod_a", "runner_pkg_x.mod_b")
        }
        real = runner_keys.source_fingerprint
        monkeypatch.setattr(
            runner_keys,
            "source_fingerprint",
            lambda m: "changed" if m == "nbl_theory.numeric" else real(m),
        )
        runner_keys.claim_fingerprint.cache_clear()
        assert runner_keys.claim_fingerprint("runner_pkg_x.mod_a") == before["runner_pkg_x.mod_a"]
        assert runner_keys.claim_fingerprint("runner_pkg_x.mod_b") != before["runner_pkg_x.mod_b"]
    finally:
        for m in [m for m in sys.modules if m.startswith("runner_pkg_x")]:
            del sys.modules[m]
        runner_keys.claim_fingerprint.cache_clear()


@pytest.mark.parametrize("batched", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_a_dying_worker_is_a_fail_and_the_others_finish(batched):
    """Alone, or batched with the others (tiny estimates: one task) and then re-run claim by
    claim to find the one at fault."""
    ids = ["t-pass", "t-caveat", "t-dies"]  # registration order
    seen = []
    with ProcessExecutor(2, retries=0) as ex:
        res = run_claims_parallel(
            ids,
            executor=ex,
            registry=REG,
            on_task=seen.append,
            estimates=dict.fromkeys(ids, 0.01 if batched else 10.0),
        )
    assert len([t for t in seen if t.kind == "claims"]) == 2  # the tasks that finished
    assert all(len(t.parts) == 1 for t in seen)
    by = {r.id: r for r in res}
    assert [r.id for r in res] == ids
    assert by["t-dies"].status == FAIL and "worker process" in by["t-dies"].detail
    assert by["t-pass"].status == PASS and by["t-caveat"].status == CAVEAT


def test_precision_changes_do_not_leak_to_the_next_task():
    ids = ["t-precision", "t-reads-dps"]
    dps = mpmath.mp.dps
    with ProcessExecutor(1) as ex:  # one worker runs both, in this order
        res = run_claims_parallel(ids, executor=ex, registry=REG)
    assert res[0].status == FAIL and "precision" in res[0].detail
    assert (res[1].status, res[1].computed) == (PASS, str(dps))
    assert mpmath.mp.dps == dps


def _records(out):
    return load_records(Path(out) / "verification.json")  # the envelope's results


def test_interrupted_run_leaves_a_partial_report_and_resumes(tmp_path, cache):
    out = tmp_path / "report"
    calls = []

    def stop_after_three(i, res):
        calls.append(res.id)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_claims_parallel(
            GOOD,
            executor=SerialExecutor(),
            cache=cache,
            registry=REG,
            out_dir=out,
            on_result=stop_after_three,
            report_every=0,
        )
    partial = _records(out)
    assert [r["id"] for r in partial] == GOOD
    pending = [r for r in partial if r["reason"] == PENDING_DETAIL]
    assert len(pending) == len(GOOD) - 3
    assert all(r["status"] == SKIPPED for r in pending)
    md = (out / "verification.md").read_text()
    assert "not run: the check was interrupted" in md and all(r["id"] in md for r in pending)
    # and its headline says so, before anything else (a probe found it only in each reason)
    head = md.split("## ")[0]
    assert f"**Incomplete: {len(pending)} of {len(GOOD)} claims did not run**" in head
    assert not list(out.glob(".verification-*"))  # no temporary left behind
    seen = []
    resumed = run_claims_parallel(
        GOOD, executor=SerialExecutor(), cache=cache, registry=REG, out_dir=out, on_task=seen.append
    )
    # only the claims not finished before (and the FAIL, never cached) ran again
    done_before = {
        r["id"] for r in partial if r["reason"] != PENDING_DETAIL and r["status"] != FAIL
    }
    assert {t.name.split("#")[0] for t in seen}.isdisjoint(done_before)
    final = _records(out)
    assert [r for r in final if r["id"] in done_before] == [
        r for r in partial if r["id"] in done_before
    ]
    assert "Incomplete" not in (out / "verification.md").read_text()
    assert _view(resumed) == _view(TEST_REGISTRY.run_claims(ids=GOOD))
    run_claims_parallel(GOOD, executor=SerialExecutor(), cache=cache, registry=REG, out_dir=out)
    again = _records(out)
    for rec in (final, again):  # a FAIL is recomputed: its seconds differ
        for r in rec:
            if r["status"] == FAIL:
                r["seconds"] = None
    assert again == final


def test_an_interrupt_stops_the_workers_at_once(tmp_path, monkeypatch):
    """Ctrl-C in the parent (here: raised from a callback) while a worker runs a long claim:
    the run ends without waiting for it (the claim never wakes: its worker was ended, not
    waited for), no worker is left and the partial report shows the claim pending."""
    import multiprocessing

    slept = tmp_path / "slept"
    monkeypatch.setenv(_SLEEP, "120")
    monkeypatch.setenv(_SLEPT, str(slept))
    out = tmp_path / "report"

    def stop(i, res):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        with ProcessExecutor(2) as ex:
            run_claims_parallel(
                ["t-pass", "t-sleep"],
                executor=ex,
                registry=REG,
                out_dir=out,
                on_result=stop,
                estimates={"t-sleep": 100.0, "t-pass": 1.0},
            )
    assert multiprocessing.active_children() == []
    assert not slept.exists()  # the sleeping claim was stopped, not awaited
    recs = _records(out)
    assert [(r["id"], r["status"]) for r in recs] == [("t-pass", PASS), ("t-sleep", SKIPPED)]
    assert recs[1]["reason"] == PENDING_DETAIL


def test_a_killed_run_leaves_a_valid_partial_report(tmp_path):
    """SIGKILL in the middle: the report on disk is complete JSON with the unfinished claims
    pending."""
    out = tmp_path / "report"
    code = (
        "from proofs_check.runner import run_claims_parallel\n"
        "from nbl_sim.runs.execution import SerialExecutor\n"
        f"run_claims_parallel(['t-pass', 't-caveat', 't-sleep', 't-discrepancy'], "
        f"executor=SerialExecutor(), registry={REG!r}, out_dir={str(out)!r}, "
        f"report_every=0)\n"
    )
    env = {**os.environ, _SLEEP: "60", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                recs = _records(out)
                if [r["status"] for r in recs[:3]] == [PASS, CAVEAT, DISCREPANCY]:
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.2)
        else:
            pytest.fail("the run never reported its first three claims")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    recs = _records(out)
    assert [r["id"] for r in recs] == ["t-pass", "t-caveat", "t-discrepancy", "t-sleep"]
    assert [r["status"] for r in recs] == [PASS, CAVEAT, DISCREPANCY, SKIPPED]
    assert recs[3]["reason"] == PENDING_DETAIL


def test_unknown_ids_are_refused_before_any_work():
    from nbl_theory.errors import NBLInputError

    with pytest.raises(NBLInputError, match="unknown claim id"):
        run_claims_parallel(["t-pass", "no-such-claim"], registry=REG)


def test_real_quick_claims_in_a_process_pool():
    """A handful of the paper's quick claims from several modules: the same results as the
    serial registry."""
    ids = [
        "kappa-closed-form",
        "bregman-table-burg",
        "sc-constant-exp",
        "notation-audit",
        "h-linearization",
        "alg-nbl-steps",
    ]
    serial = REGISTRY.run_claims(quick=True, ids=ids)
    with ProcessExecutor(2) as ex:
        par = run_claims_parallel(ids, quick=True, executor=ex)
    assert [r.id for r in par] == [r.id for r in serial]
    assert _view(par) == _view(serial)


@pytest.mark.slow
def test_dask_local_cluster_gives_the_serial_results():
    """The same tasks on a Dask LocalCluster (``nbl check --scheduler local:2``)."""
    pytest.importorskip("distributed")
    from nbl_sim.runs.execution import DaskExecutor

    serial = TEST_REGISTRY.run_claims(ids=GOOD)
    with DaskExecutor("local:2") as ex:
        par = run_claims_parallel(GOOD, executor=ex, registry=REG)
    assert _view(par) == _view(serial)


@pytest.mark.slow
def test_the_whole_quick_check_serial_pool_and_cached(tmp_path):
    """Every claim of the paper (quick mode): in process (``workers=1``), on a 2-process pool
    and re-run from the cache, the same ids, statuses, computed values and details as the
    serial registry, in registration order; the cached re-run computes only the FAILs."""
    serial = REGISTRY.run_claims(quick=True)
    cache = claims_cache(tmp_path / "cache")
    one = run_claims_parallel(quick=True, workers=1, cache=cache)
    with ProcessExecutor(2) as ex:
        two = run_claims_parallel(quick=True, executor=ex)
    seen = []
    again = run_claims_parallel(quick=True, workers=1, cache=cache, on_task=seen.append)
    assert [r.id for r in one] == [c.id for c in REGISTRY.all_claims()]
    for res in (one, two, again):
        assert _view(res) == _view(serial)
    assert {p for t in seen for p, _ in t.parts} == {r.id for r in serial if r.status == FAIL}


# ---------------------------------------------------------------- a slow claim in a quick run
_SLOW_FINDING = {"status": CAVEAT, "value": "7.25"}


@_reg(
    "t-slow-finding",
    "prop:m",
    "sec:g",
    "a slow claim with a finding",
    "monte-carlo",
    "-",
    "-",
    quick=False,
)
def _t_slow_finding():
    return Outcome(_SLOW_FINDING["status"], _SLOW_FINDING["value"], "from the run")


@pytest.mark.parametrize(
    "status, value", [(CAVEAT, "7.25"), (DISCREPANCY, "0.4832"), (PASS, "1.5")]
)
def test_quick_run_reads_a_slow_claims_verdict_from_its_cached_full_run(
    status, value, tmp_path, monkeypatch
):
    """Issue 34: a quick report announces a slow claim's finding only as read from a full run
    of the claim's current code, with the commit it ran at; the text follows that run (its
    status and value), and without one it says the verdict is not known."""
    import proofs_check.runner as runner_module

    monkeypatch.setitem(_SLOW_FINDING, "status", status)
    monkeypatch.setitem(_SLOW_FINDING, "value", value)
    monkeypatch.setattr(runner_module, "toolkit_commit", lambda: "c0ffee1")
    cache = claims_cache(tmp_path / "cache")
    ids = ["t-pass", "t-slow-finding"]

    def quick(out):
        res = run_claims_parallel(
            ids, quick=True, executor=SerialExecutor(), cache=cache, registry=REG, out_dir=out
        )
        return res[1], " ".join((out / "verification.md").read_text(encoding="utf-8").split())

    before, md = quick(tmp_path / "q0")
    assert before.status == SKIPPED and before.full_run is None
    assert "**Not known here:**" in md and "`t-slow-finding`" in md.split("## Findings")[0]
    assert value not in md

    full = run_claims_parallel(
        ids, quick=False, executor=SerialExecutor(), cache=cache, registry=REG
    )
    assert full[1].status == status
    after, md = quick(tmp_path / "q1")
    assert after.status == SKIPPED
    assert after.full_run["status"] == status and after.full_run["computed"] == value
    assert after.full_run["commit"] == "c0ffee1" and f"reports {status}" in after.detail
    findings = md.split("## Findings", 1)[1].split("## Failures", 1)[0]
    assert "Not known here" not in md
    if status == PASS:
        assert "`t-slow-finding`" not in findings
    else:
        assert f"{status} in the cached full run" in findings and value in findings
        assert "at commit c0ffee1" in findings
