"""Library mutation: plant one-line bugs in the library and see what the claims say.

Every module of nbl_theory and nbl_sim that computes a quantity of the paper
(:mod:`~proofs_check.libmutation.targets`) is mutated from its syntax tree
(:mod:`~proofs_check.libmutation.operators`); a seeded sample, stratified over the modules, is
run, each mutant in a fresh subprocess (:mod:`~proofs_check.libmutation.worker`) against the
claims and tests that execute its line (:mod:`~proofs_check.libmutation.coverage_map`), on the
toolkit's executor (a local process pool, or Dask with ``--scheduler``). Each mutant ends as
one of :data:`OUTCOMES`:

``killed-as-FAIL``
    a claim turned FAIL, the registry no longer loads, or its process died twice before
    finishing (a process that dies is run once more: a kill from outside is not the mutant's
    doing): the toolkit reports its own defect, or fails visibly;
``blame``
    a claim's verdict about the paper moved without any FAIL — PASS → DISCREPANCY/CAVEAT, or a
    finding → PASS: the report blames (or clears) the paper for a library bug, a defect of the
    registry (issue 34: there must be none);
``tests-only``
    no verdict moved, a test of the library failed;
``survived``
    nothing noticed (the reason says whether any claim or test executes the line);
``timeout``
    the mutant's process ran past its time limit before any verdict moved, and its mapped
    tests, then run in a worker of their own, passed (or ran past the limit too);
``equivalent``
    the mutated module compiles to the original's bytecode (the reason is given).

Kill rates: *registry alone* = killed-as-FAIL / (mutants − equivalent); *registry + tests* =
(killed-as-FAIL + tests-only) / (mutants − equivalent). A blame is never counted as a kill.
The second pair (``*_not_equivalent``) also leaves out the survivors this run ran whose triage
argues them equivalent (:data:`EQUIVALENT_CLASSES`, each with its reason in the report).

Command line::

    python -m proofs_check.mutation --library [--sample N] [--seed S] [--full]
        [--workers N | --scheduler ADDR] [--budget SECONDS] [--no-tests]
        [--json FILE] [--markdown FILE] [--module NAME ...]
    nbl check --mutate --library ...   (the same options)

``--quick`` (the default) runs the quick claims (a sample of 60 within 30 minutes on 2 cores);
``--full`` every claim, slow ones too (meant for the Dask executor). Progress goes to stderr;
Ctrl-C ends every worker and its mutant's process.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from nbl_theory.errors import NBLInputError

from . import triage
from .arguments import add_arguments
from .coverage_map import CoverageMap, child_setup, load_or_collect, source_key, test_files
from .operators import MutantSpec, equivalent_reason, generate
from .report import OUTCOMES as REPORT_OUTCOMES
from .report import markdown, pct
from .targets import (
    EXCLUDED,
    ROOT,
    TARGETS,
    executed_span,
    keep_kernels,
    module_path,
    numba_sensitive,
    seed_kernels,
    subprocess_env,
)

__all__ = [
    "OUTCOMES",
    "enumerate_mutants",
    "stratified_sample",
    "classify",
    "run_library",
    "summarize",
    "markdown",
    "add_arguments",
    "check_arguments",
    "run_from_args",
    "again_ids",
    "pinned_specs",
    "AGAIN_OUTCOMES",
]

OUTCOMES = REPORT_OUTCOMES
_FINDINGS = ("DISCREPANCY", "CAVEAT")


# ------------------------------------------------------------------ the mutants
def enumerate_mutants(modules=None) -> tuple[list[MutantSpec], dict]:
    """Every mutant of the target modules (or of ``modules``), and per module the count of
    trivially equivalent mutants not generated, by reason."""
    specs, skipped = [], {}
    for mod in modules or TARGETS:
        path = module_path(mod)
        muts, sk = generate((ROOT / path).read_text(), mod, path)
        specs += muts
        skipped[mod] = dict(sk)
    return specs, skipped


def stratified_sample(specs: list[MutantSpec], n: int, seed: int) -> list[MutantSpec]:
    """``n`` mutants (all if fewer), stratified over the modules: each module gets a share
    proportional to its number of mutants (largest remainders), at least one while any is
    left; within a module the first of a seeded shuffle (``random.Random(f"{seed}:{module}")``)
    of its mutants in source order, so a smaller sample of the same seed is (up to the
    rounding of the shares) part of a larger one. The same seed and sources give the same
    sample."""
    by_mod: dict[str, list] = {}
    for s in specs:
        by_mod.setdefault(s.module, []).append(s)
    total = len(specs)
    if n >= total:
        return list(specs)
    mods = sorted(by_mod)
    quota = {m: max(1, int(n * len(by_mod[m]) / total)) for m in mods}
    rema = sorted(mods, key=lambda m: (-(n * len(by_mod[m]) / total) % 1, m))
    while sum(quota.values()) < n:
        for m in rema:
            if sum(quota.values()) >= n:
                break
            if quota[m] < len(by_mod[m]):
                quota[m] += 1
    while sum(quota.values()) > n:  # the floors of one pushed it over
        m = max(mods, key=lambda m: (quota[m], m))
        quota[m] -= 1
    out = []
    for m in mods:
        order = list(by_mod[m])
        random.Random(f"{seed}:{m}").shuffle(order)
        out += sorted(order[: quota[m]], key=lambda s: (s.line, s.col, s.operator, s.variant))
    return out


# ------------------------------------------------------------------ classification
def first_difference(before: str, after: str, words: int = 4) -> str:
    """The first place two texts differ, word by word, with ``words`` words around it:
    ``"… a b OLD c d … → … a b NEW c d …"`` (an empty string when they are equal)."""
    a, b = before.split(), after.split()
    if a == b:
        return ""
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))

    def around(t):
        lo, hi = max(0, i - words), i + words + 1
        return ("… " if lo else "") + " ".join(t[lo:hi]) + (" …" if hi < len(t) else "")

    return f"{around(a)} → {around(b)}"


def classify(
    baseline: dict,
    events: list[dict],
    equivalent: str | None = None,
    timed_out: bool = False,
    n_claims: int = 0,
    n_tests: int = 0,
    texts: dict | None = None,
    shown: dict | None = None,
) -> dict:
    """The outcome of one mutant from its worker's events (see the module docstring).

    ``texts``: {claim: fingerprint of its unmutated report text} (the coverage map's,
    :func:`~proofs_check.libmutation.worker.report_text`). A claim whose verdict stayed but
    whose printed value or detail moved is listed in ``report_moved``: the mutant changed
    what the report says without a FAIL. That does not change the outcome (a library change
    may rightly move a printed digit within the claim's tolerance), but a mutant not killed
    with an empty ``report_moved`` left every report it reached as it was, byte for byte.

    ``shown``: {claim: its unmutated text} (the coverage map's); a moved text's first
    difference is kept in ``report_moves`` ([[claim, "… before … → … after …"]...]).

    Returns {"outcome", "reason", "transitions": [[claim, before, after, detail]...],
    "tests_failed": [...], "claims_run", "claims_not_run", "report_moved": [claim...],
    "report_moves": [[claim, difference]...]}."""
    trans, failed, run, not_run, load_error, tests_ran = [], [], 0, [], None, False
    unrun = None  # pytest's exit when the mapped tests could not run at all
    texts, shown, report_moved, report_moves = texts or {}, shown or {}, [], []
    for ev in events:
        if ev["event"] == "claim":
            run += 1
            before = baseline.get(ev["id"])
            if ev["status"] not in (before, "SKIPPED"):
                trans.append([ev["id"], before, ev["status"], ev.get("detail", "")])
            elif ev["status"] == before:
                now, then = ev.get("text"), texts.get(ev["id"])
                if now and then and now != then:
                    report_moved.append(ev["id"])
                    if ev["id"] in shown and "shown" in ev:
                        report_moves.append(
                            [ev["id"], first_difference(shown[ev["id"]], ev["shown"])]
                        )
        elif ev["event"] == "load_error":
            load_error = ev["detail"]
        elif ev["event"] == "budget":
            not_run = ev["not_run"]
        elif ev["event"] == "claims_timed_out":  # the tests then ran in a worker of their own
            timed_out = True
        elif ev["event"] == "died":  # twice (_run_mutant runs a dead worker once more)
            load_error = load_error or (
                f"its process died twice before finishing (exit code {ev['code']}), "
                f"after {run} claim(s)"
            )
        elif ev["event"] == "tests":
            tests_ran = True
            if ev["exit"] in _PYTEST_UNRUN and not ev["failed"]:
                unrun = ev["exit"]  # no test failed: pytest could not run them
            elif ev["exit"] not in (0, 5):  # 5: no tests collected
                failed = ev["failed"] or [f"pytest exit {ev['exit']}"]
    out = {
        "transitions": trans,
        "tests_failed": failed,
        "claims_run": run,
        "claims_not_run": len(not_run),
        "report_moved": report_moved,
        "report_moves": report_moves,
    }
    blamed = [t for t in trans if t[2] != "FAIL"]
    if equivalent:
        return {**out, "outcome": "equivalent", "reason": equivalent}
    if blamed:
        return {
            **out,
            "outcome": "blame",
            "reason": "; ".join(f"{c}: {a} -> {b}" for c, a, b, _ in blamed),
        }
    if load_error or trans:
        why = (
            (
                load_error
                if load_error.startswith("its process died")
                else f"the registry does not load: {load_error}"
            )
            if load_error
            else "; ".join(f"{c}: {a} -> FAIL" for c, a, _, _ in trans[:3])
            + (f" (+{len(trans) - 3})" if len(trans) > 3 else "")
        )
        return {**out, "outcome": "killed-as-FAIL", "reason": why}
    if failed:
        first = "the claims ran past the time limit; " if timed_out else ""
        return {
            **out,
            "outcome": "tests-only",
            "reason": first + "failed: " + ", ".join(failed[:3]),
        }
    if timed_out:
        return {
            **out,
            "outcome": "timeout",
            "reason": f"ran past its time limit after {run} claim(s), no verdict moved",
        }
    if n_claims == 0 and n_tests == 0:
        return {
            **out,
            "outcome": "survived",
            "reason": "no claim or mapped test executes this line",
        }
    why = (
        "no claim executes this line" if n_claims == 0 else f"{run} claim(s) run, no verdict moved"
    )
    why = (
        why
        + (f" ({len(not_run)} not run: time budget)" if not_run else "")
        + (
            f"; the {n_tests} mapped test(s) could not run (pytest exit {unrun}: "
            f"{_PYTEST_UNRUN[unrun]}), not a kill"
            if unrun is not None
            else f"; {n_tests} test(s) passed"
            if tests_ran
            else "; no mapped test executes this line"
            if n_tests == 0
            else ""
        )
    )
    return {**out, "outcome": "survived", "reason": why}


#: pytest exits that mean the mapped tests did not run (no test failed): counting them as a
#: kill would credit the tests with a mutant they never judged
_PYTEST_UNRUN = {3: "internal error", 4: "usage error, e.g. a node id not found"}


# ------------------------------------------------------------------ one mutant (executor task)
def _run_mutant(task: dict) -> dict:
    """Executor task: run one mutant's worker subprocess; its events and wall time.

    When the claims run past the time limit with no verdict moved (a mutant that makes a claim
    loop — e.g. a continuation stepping from its start point for ever), the mapped tests get a
    worker of their own with the same limit: a hang the tests notice at once is theirs to
    kill, not a timeout."""
    t0 = time.perf_counter()
    job = task["job"]
    events, timed_out = _worker(job, task)
    if events is not None and _died(events):
        # once more: a process killed from outside (or by a passing shortage) is not the
        # mutant's doing; a second death is
        events, timed_out = _worker(job, task)
    if events is None:
        return {"interrupted": True, "seconds": round(time.perf_counter() - t0, 2)}
    moved = classify(job.get("baseline", {}), events)["outcome"] in ("killed-as-FAIL", "blame")
    ran_tests = any(e["event"] == "tests" for e in events)
    if timed_out and job.get("tests") and not moved and not ran_tests:
        more, timed_out = _worker({**job, "claims": [], "baseline": {}}, task)
        if more is None:
            return {"interrupted": True, "seconds": round(time.perf_counter() - t0, 2)}
        events += [e for e in more if e["event"] == "tests"]
        events.append({"event": "claims_timed_out"})
    return {
        "events": events,
        "timed_out": timed_out,
        "seconds": round(time.perf_counter() - t0, 2),
    }


#: seconds a mutant's process gets beyond twice its expected work: starting Python, importing
#: the library (and pytest), loading or compiling what the first claim needs
_START_SECONDS = 120.0
#: and beyond that, for a mutant that compiles every numba kernel from its mutated source
#: (~15 s on the 2-core host of docs/mutation.md; the margin is for a loaded machine)
_COMPILE_SECONDS = 60.0


def expected_seconds(claim_seconds, test_seconds, budget: float) -> float:
    """The work of a mutant as the coverage map timed it: its claims' seconds (only those
    within ``budget`` run — the claim running when the budget passes is finished, so at most
    budget + the longest) plus its mapped tests' seconds. The map times each claim cold (its
    memos cleared) and under coverage tracing, so this is above what the unmutated library
    needs in a mutant's process: of the mutants of docs/mutation-runs/mutation-quick-60c with at
    least 10 s of mapped work, all but the one that loops took 0.01–2.5× it (0.4× at the
    median), and every mutant but that one ended before half of its :func:`time_limit` (a mutant
    with less work is dominated by its process's start-up, which the limit adds apart)."""
    claim_seconds = [float(x) for x in claim_seconds]
    claims = min(sum(claim_seconds), budget + max(claim_seconds, default=0.0))
    return claims + sum(float(x) for x in test_seconds)


def time_limit(budget: float, expected: float, fresh: bool) -> float:
    """The seconds after which a mutant's process is ended (then its tests get a worker of
    their own, :func:`_run_mutant`): twice its :func:`expected_seconds` plus start-up (and the
    kernels' compiling when ``fresh``), never more than 3 × ``budget`` + 120 s. A mutant that
    makes a claim loop (e.g. a line search that never ends, ``reference:468`` of the quick
    sample: 491 s at the flat limit) is ended when it is past any time the unmutated work
    takes, not at a limit sized for the most expensive mutant of the run."""
    flat = 3 * budget + _START_SECONDS
    return min(flat, 2 * expected + _START_SECONDS + (_COMPILE_SECONDS if fresh else 0.0))


def schedule(tasks: list, records: list, stop_after) -> list:
    """The order the mutants' tasks are handed to the executor.

    With ``stop_after`` (a run that may end early) the mutants that recompile every numba
    kernel come last (a run stopped early leaves the most expensive ones) and the rest
    round-robin over the modules (the first mutant of every module, then the second, ...), so
    that what ran is still stratified. Without it every mutant runs, and the order is what
    finishes first on a pool: the longest first (longest-processing-time), the kernel
    compilers first among equals — their compile makes them the costliest class (100–190 s
    each in the quick sample, against ~20 s at the median), and a pool that starts with them
    does not end on one while the other workers idle. A Ctrl-C keeps the outcomes of the run
    so far (``resume``), so an interrupted run loses no mutant's outcome either way."""
    if stop_after is None:
        return sorted(
            tasks,
            key=lambda it: (not it[1]["fresh_numba_cache"], -it[1].get("expected", 0.0), it[0]),
        )
    rank, seen = {}, Counter()
    for i, _ in tasks:
        rank[i] = seen[records[i]["module"]]
        seen[records[i]["module"]] += 1
    return sorted(tasks, key=lambda it: (it[1]["fresh_numba_cache"], rank[it[0]], it[0]))


def _died(events: list) -> bool:
    return any(e["event"] == "died" for e in events)


def _worker(job: dict, task: dict):
    """One worker subprocess on ``job``: (its events, whether it ran past ``task["timeout"]``);
    a process that ended before its time without finishing gets a ``died`` event with its exit
    code; (None, False) when a Ctrl-C or a stop ended it."""
    with tempfile.TemporaryDirectory(prefix="nbl-libmut-") as tmp:
        tmpd = Path(tmp)
        env = subprocess_env(
            pycache=task.get("pycache"),
            NBL_CACHE_DIR=str(tmpd / "cache"),
            NBL_DASK_SCHEDULER="",
        )
        # the kernels: compiled from the mutated code for a mutant that can change them (its
        # nbl cache, where numba's lives, is empty), else the unmutated ones the run keeps
        warm = None if task["fresh_numba_cache"] else task.get("kernels")
        if task["fresh_numba_cache"]:
            # what makes the kernels fresh is the empty nbl cache above (jit_cache places them
            # there); this empties numba's own place too, for a cached function jit_cache does
            # not place (none today: tests/sim/test_jit_cache.py)
            env["NUMBA_CACHE_DIR"] = str(tmpd / "numba")
        seed_kernels(warm, tmpd / "cache")
        jobf, log = tmpd / "job.json", tmpd / "events.jsonl"
        jobf.write_text(json.dumps(job))
        timed_out = False
        try:
            proc = subprocess.run(
                [sys.executable, "-m", "proofs_check.libmutation.worker", str(jobf), str(log)],
                cwd=tmp,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=task["timeout"],
                preexec_fn=child_setup,
            )
        except subprocess.TimeoutExpired:
            timed_out = True
        else:
            if proc.returncode in (-signal.SIGINT, -signal.SIGTERM):
                # a Ctrl-C (or a stop) ended the mutant, not its own run: no outcome (kept
                # outcomes must not record an interruption as a timeout)
                return None, False
        events = []
        if log.exists():
            for line in log.read_text().splitlines():
                try:
                    events.append(json.loads(line))
                except json.JSONDecodeError:  # the last line of a killed process
                    pass
        if not timed_out and not any(e["event"] == "done" for e in events):
            # ended before its time and without finishing: it died (a crash, or a kill)
            events.append({"event": "died", "code": proc.returncode})
        elif not timed_out:
            keep_kernels(tmpd / "cache", warm)
        return events, timed_out


# ------------------------------------------------------------------ the run
def run_library(
    sample: int = 60,
    seed: int = 0,
    quick: bool = True,
    tests: bool = True,
    workers: int | None = None,
    scheduler: str | None = None,
    budget: float = 120.0,
    modules=None,
    progress=None,
    coverage: CoverageMap | None = None,
    resume: bool = True,
    stop_after: float | None = None,
    only=None,
    pinned=None,
    run_triaged: bool = True,
) -> dict:
    """Run a sample of library mutants and return the JSON envelope (see :func:`summarize`).

    Parameters
    ----------
    sample, seed : the stratified sample's size and seed (:func:`stratified_sample`)
    quick : only the quick claims (False: every claim — for the Dask executor)
    tests : also run the library's tests that execute the line (when no verdict moved)
    workers, scheduler : the executor (:func:`nbl_sim.runs.execution.make_executor`)
    budget : seconds of claims per mutant (cheapest claims first; the rest reported not run);
        three budgets for a mutant that recompiles the numba kernels; the mutant's process
        is ended at :func:`time_limit` (twice the work the coverage map timed for its claims
        and tests, plus start-up; at most 3 × its budget + 120 s)
    modules : only these target modules
    progress : ``progress(i, n, record)`` after each mutant (stderr lines by default)
    coverage : a coverage map (default: the cached one, collected if missing)
    resume : reuse the outcomes kept by earlier runs: an interrupted run resumes, a larger
        sample of the same seed runs only its new mutants. Each mutant's outcome is kept as it
        finishes (a JSON-lines log in the cache directory, keyed by the sources, the mode,
        tests and budget) either way, so a run stopped without a report loses none
    stop_after : seconds after which no further mutant is waited for (the running ones are
        ended); the mutants not run are listed as such (as after a Ctrl-C); 0 runs nothing and
        reports the outcomes kept from earlier runs
    only : the ids of the sample's mutants to run (None: all): e.g. those an earlier run did
        not kill (``--again``)
    pinned : the mutant records of an earlier envelope (``--sample-from``): run those instead
        of a stratified sample, found among today's mutants by what they change
        (:func:`pinned_specs`), so a sample stays the same when lines above it move
    run_triaged : also run the mutants the triage (:mod:`.triage`) lists as known survivors;
        False reports each as ``survived`` with its triage and ``not run`` in the reason
        (an outcome kept from an earlier run is used as it is). The rates count them as not
        killed, so skipping them can only understate a rate; a triage that a new check has
        made stale is found by a run with them (the record's).
    """
    from nbl_sim.runs.execution import make_executor

    tic = time.perf_counter()
    specs, skipped = enumerate_mutants(modules)
    pin = None
    if pinned is None:
        chosen = stratified_sample(specs, sample, seed)
    else:
        chosen, missing = pinned_specs(specs, pinned)
        pin = {"listed": len(pinned), "found": len(pinned) - missing}
        if not chosen:
            raise NBLInputError(
                f"--sample-from: none of the {len(pinned)} mutant(s) it lists is among today's "
                "mutants (their lines changed)"
            )
    again = None
    if only is not None:
        sampled = {s.to_dict()["id"] for s in chosen}
        again = {"listed": len(only), "in_sample": len(sampled & set(only))}
        if not again["in_sample"]:
            raise NBLInputError(
                f"--again: none of the {len(only)} mutant(s) it lists is in this sample "
                f"(--sample {sample} --seed {seed}, {len(specs)} mutants generated): give the "
                "earlier run's --sample and --seed, on the same library"
            )
        chosen = [s for s in chosen if s.to_dict()["id"] in only]
    with (
        make_executor(workers=workers, scheduler=scheduler) as ex,
        tempfile.TemporaryDirectory(prefix="nbl-libmut-pyc-") as pycache,
        tempfile.TemporaryDirectory(prefix="nbl-libmut-kernels-") as kernels,
    ):
        cov = coverage or load_or_collect(
            quick=quick,
            tests=tests,
            executor=ex,
            progress=_cov_progress,
            kernels=kernels,
            pycache=pycache,
        )
        base, texts, shown = cov.baseline, cov.texts, cov.shown
        tasks, records = [], []
        for s in chosen:
            src = (ROOT / s.path).read_text()
            eq = equivalent_reason(src, s)
            span = executed_span(src, s.line, s.col, s.end_line)
            claims = [c for c in cov.claims_for(s.path, *span) if c in base]
            tsts = cov.tests_for(s.path, *span) if tests else []
            rec = {
                **s.to_dict(),
                "equivalent": eq,
                "n_claims": len(claims),
                "n_tests": len(tsts),
                "line_text": _line(src, s.line),
            }
            records.append(rec)
            if eq or not (claims or tsts):
                continue
            fresh = numba_sensitive(s.module)
            # compiling every kernel anew takes a minute or more: such a mutant's claims get
            # three budgets
            mine = budget * (3 if fresh else 1)
            took = cov.data.get("tests", {})
            expected = expected_seconds(
                [cov.data["claims"][c].get("seconds", 0.0) for c in claims],
                [took.get(t, 0.0) for t in tsts],
                mine,
            )
            tasks.append(
                (
                    len(records) - 1,
                    {
                        "job": {
                            "mutant": s.to_dict(),
                            "claims": claims,
                            "tests": tsts,
                            "baseline": {c: base[c] for c in claims},
                            "budget": mine,
                            "quick": quick,
                        },
                        "timeout": time_limit(mine, expected, fresh),
                        "expected": expected,
                        "fresh_numba_cache": fresh,
                        "pycache": pycache,
                        "kernels": kernels,
                    },
                )
            )
        for rec in records:
            if rec["equivalent"] or not (rec["n_claims"] or rec["n_tests"]):
                rec.update(
                    classify(base, [], rec["equivalent"], n_claims=0, n_tests=0), seconds=0.0
                )
        # a fresh run reads no kept outcome but keeps its own: stopped (a SIGTERM, a machine
        # going down), it loses no finished mutant, and a run without --fresh takes them up
        kept = _ResultLog(source_key(f"quick={quick}"), quick, tests, budget, read=resume)
        if resume:
            for rec in records:
                old = kept.get(rec["id"])
                if old is not None:
                    rec.update(old)
            tasks = [(i, t) for i, t in tasks if kept.get(records[i]["id"]) is None]
            for i, t in tasks:  # every claim already run without a moved verdict:
                if kept.claims_cleared(records[i]["id"]):  # only the tests are left
                    t["job"]["claims"] = []
                    records[i]["claims_cleared"] = True
        if not run_triaged:
            tasks = [(i, t) for i, t in tasks if not _skip_triaged(records[i])]
        tasks = schedule(tasks, records, stop_after)
        done = len(records) - len(tasks)
        stopped = None
        if stop_after is not None and stop_after <= 0:
            stopped, tasks = "not run: --stop-after 0 reports the kept outcomes only", []
        runs = ex.run(_run_mutant, [t for _, t in tasks])
        try:
            for k, res in runs:
                rec = records[tasks[k][0]]
                if isinstance(res, dict) and res.get("interrupted"):
                    continue  # not run (listed as such if the run then stops)
                if not isinstance(res, dict):
                    res = {"events": [], "timed_out": True, "seconds": 0.0, "error": str(res)}
                rec.update(
                    classify(
                        base,
                        res["events"],
                        None,
                        res["timed_out"],
                        rec["n_claims"],
                        rec["n_tests"],
                        texts=texts,
                        shown=shown,
                    ),
                    seconds=res["seconds"],
                )
                if rec.get("claims_cleared") and rec["outcome"] == "survived":
                    rec["reason"] = (
                        f"{rec['n_claims']} claim(s) run (an earlier run without "
                        f"tests), no verdict moved; {rec['n_tests']} test(s) "
                        f"passed"
                        if rec["n_tests"]
                        else f"{rec['n_claims']} claim(s) run, no verdict moved; no "
                        f"mapped test executes this line"
                    )
                if kept is not None:
                    kept.add(rec)
                done += 1
                if progress:
                    progress(done, len(records), rec)
                if stop_after is not None and time.perf_counter() - tic > stop_after:
                    stopped = f"stopped after {stop_after:.0f} s (--stop-after)"
                    break
        except KeyboardInterrupt:
            stopped = "interrupted"
        finally:
            runs.close()  # ends the workers (and their mutants' processes)
    return summarize(
        records,
        skipped,
        {
            "sample": sample,
            "seed": seed,
            "mode": "quick" if quick else "full",
            "tests": tests,
            "budget": budget,
            "modules": list(modules or TARGETS),
            "population": len(specs),
            "coverage_key": cov.data.get("key", "")[:24],
            "stopped": stopped,
            "seconds": round(time.perf_counter() - tic, 1),
            **({} if again is None else {"again": again}),
            **({} if pin is None else {"sample_from": pin}),
        },
    )


def _skip_triaged(rec: dict) -> bool:
    """Whether ``rec`` is a triaged survivor (:func:`.triage.lookup`); if so it is given its
    outcome without a run: ``survived``, the triage's class and reason, ``not run``."""
    entry = triage.lookup(rec)
    if entry is None:
        return False
    rec.update(
        outcome="survived",
        reason=f"triaged {entry['class']} at {entry['triaged_at']}, not run "
        f"(--run-triaged runs it): {entry['reason']}",
        transitions=[],
        tests_failed=[],
        claims_run=0,
        claims_not_run=rec["n_claims"],
        seconds=0.0,
        triaged_not_run=True,
    )
    return True


_KEPT = (
    "outcome",
    "reason",
    "transitions",
    "tests_failed",
    "claims_run",
    "claims_not_run",
    "report_moved",
    "report_moves",
    "seconds",
)


class _ResultLog:
    """The outcomes of finished mutants, one JSON object per line, appended as they finish
    (a torn last line is ignored on reading)."""

    def __init__(self, key: str, quick: bool, tests: bool, budget: float, read: bool = True):
        from nbl_sim.runs.cache import default_cache_dir, private_dir

        self.tag = f"quick={quick};tests={tests};budget={budget:g}"
        # a run without tests decides the same way for a mutant whose verdict moved (tests
        # only run when none did): its FAILs and blames serve a run with tests
        self.narrow = f"quick={quick};tests=False;budget={budget:g}" if tests else None
        self.path = private_dir(default_cache_dir() / "libmutation") / f"outcomes-{key[:24]}.jsonl"
        self.done: dict = {}
        self.decided: dict = {}
        self.cleared: set = set()  # survived every claim in a run without tests
        # a run stopped mid-write leaves a torn last line: the next outcome starts a new one
        data = self.path.read_bytes() if self.path.exists() else b""
        self._torn = data[-1:] not in (b"", b"\n")
        if read:
            for line in data.decode(errors="replace").splitlines():
                try:
                    d = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if d.get("tag") == self.tag:
                    self.done[d["id"]] = d["outcome"]
                elif d.get("tag") == self.narrow and d["outcome"].get("outcome") in (
                    "killed-as-FAIL",
                    "blame",
                ):
                    self.decided[d["id"]] = d["outcome"]
                elif (
                    d.get("tag") == self.narrow
                    and d["outcome"].get("outcome") == "survived"
                    and not d["outcome"].get("claims_not_run")
                ):
                    self.cleared.add(d["id"])

    def get(self, mutant_id: str):
        return self.done.get(mutant_id) or self.decided.get(mutant_id)

    def claims_cleared(self, mutant_id: str) -> bool:
        return mutant_id in self.cleared

    def add(self, rec: dict) -> None:
        d = {k: rec.get(k) for k in _KEPT}
        self.done[rec["id"]] = d
        with self.path.open("a") as f:
            f.write(
                ("\n" if self._torn else "")
                + json.dumps({"tag": self.tag, "id": rec["id"], "outcome": d})
                + "\n"
            )
        self._torn = False


def _line(src: str, line: int) -> str:
    lines = src.splitlines()
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def _cov_progress(i, n):
    print(f"libmutation: coverage map chunk {i}/{n}", file=sys.stderr, flush=True)


def summarize(records: list[dict], skipped: dict, meta: dict) -> dict:
    """The JSON envelope: ``meta``, ``totals`` (count per outcome and the kill rates, over the
    mutants that ran to an outcome), ``not_run`` (the ids of the sampled mutants a stopped run
    did not finish),
    ``modules`` (the same per module), ``blames``, ``survivors``, ``equivalents``, ``mutants``
    (every record), ``not_generated`` (trivially equivalent, by module and reason) and
    ``excluded`` (modules not mutated, with the reason)."""
    not_run = [r for r in records if not r.get("outcome")]
    records = [r for r in records if r.get("outcome")]

    def counts(recs):
        c = Counter(r.get("outcome") for r in recs)
        out = {o: c.get(o, 0) for o in OUTCOMES}
        live = len(recs) - out["equivalent"]
        out["total"] = len(recs)
        out["kill_rate_registry"] = round(out["killed-as-FAIL"] / live, 4) if live else None
        out["kill_rate_registry_tests"] = (
            round((out["killed-as-FAIL"] + out["tests-only"]) / live, 4) if live else None
        )
        # the registry where it looks: the mutants on lines some claim executes (the others
        # are reached by the library's tests only — input checks, display, settings)
        claimed = [
            r for r in recs if (r.get("n_claims") or 0) > 0 and r.get("outcome") != "equivalent"
        ]
        # not killed, and some report it reached reads differently (classify): what the
        # registry printed moved with no FAIL
        alive = [
            r
            for r in recs
            if r.get("outcome") in ("tests-only", "survived", "timeout") and r.get("claims_run")
        ]
        out["alive_claims_run"] = len(alive)
        out["report_moved"] = sum(bool(r.get("report_moved")) for r in alive)
        out["claimed"] = len(claimed)
        out["kill_rate_registry_claimed"] = (
            round(sum(r.get("outcome") == "killed-as-FAIL" for r in claimed) / len(claimed), 4)
            if claimed
            else None
        )
        # the triage's equivalents that this run ran and did not kill leave the denominator
        # (the "equivalent (with the reason)"); one not run stays a survivor
        eq = sum(_triaged_equivalent(r) for r in recs)
        out["triaged_equivalent"] = eq
        rest = live - eq
        out["kill_rate_registry_not_equivalent"] = (
            round(out["killed-as-FAIL"] / rest, 4) if rest else None
        )
        out["kill_rate_registry_tests_not_equivalent"] = (
            round((out["killed-as-FAIL"] + out["tests-only"]) / rest, 4) if rest else None
        )
        return out

    mods: dict[str, list] = {}
    for r in records:
        mods.setdefault(r["module"], []).append(r)

    def brief(r):
        return {
            k: r.get(k)
            for k in (
                "id",
                "path",
                "line",
                "operator",
                "before",
                "after",
                "line_text",
                "reason",
                "transitions",
                "n_claims",
                "n_tests",
                "report_moved",
                "report_moves",
            )
        }

    survivors = []
    for r in records:
        if r.get("outcome") in ("survived", "timeout"):
            entry = triage.lookup(r)
            survivors.append(
                {**brief(r), "triage": None if entry is None else {k: entry[k] for k in _TRIAGE}}
            )
    totals = counts(records)
    totals["triaged"] = dict(Counter(s["triage"]["class"] for s in survivors if s["triage"]))
    totals["triaged_not_run"] = sum(bool(r.get("triaged_not_run")) for r in records)
    return {
        "nbl_libmutation": 1,
        "meta": meta,
        "totals": totals,
        "modules": {m: counts(v) for m, v in sorted(mods.items())},
        "blames": [brief(r) for r in records if r.get("outcome") == "blame"],
        "survivors": survivors,
        "equivalents": [brief(r) for r in records if r.get("outcome") == "equivalent"],
        "not_run": [r["id"] for r in not_run],
        "mutants": records,
        "not_generated": skipped,
        "excluded": EXCLUDED,
    }


_TRIAGE = ("class", "reason", "triaged_at")

#: triage classes that name a mutant computing the same numbers as the original
#: (triage.CLASSES); "equivalent-on-inputs" is not among them: it differs on some input
EQUIVALENT_CLASSES = ("equivalent", "equivalent-by-contract")


def _triaged_equivalent(rec: dict) -> bool:
    """A survivor this run ran, whose triage argues it equivalent (:data:`EQUIVALENT_CLASSES`)."""
    if rec.get("outcome") != "survived" or rec.get("triaged_not_run"):
        return False
    entry = triage.lookup(rec)
    return entry is not None and entry["class"] in EQUIVALENT_CLASSES


def _progress(i, n, rec):
    extra = f" — {rec['reason']}" if rec.get("outcome") in ("blame", "survived") else ""
    print(
        f"[{i}/{n}] {rec['id']}: {rec.get('outcome')} ({rec.get('seconds', 0):.0f} s){extra}",
        file=sys.stderr,
        flush=True,
    )


def check_arguments(a) -> str | None:
    """The first bad library-mutation option, as an error message (None if all are fine)."""
    import importlib.util

    if importlib.util.find_spec("coverage") is None:
        return (
            "library mutation needs coverage.py (it chooses the claims of a mutant by "
            "coverage): pip install 'nbl[mutation]'"
        )
    if a.sample < 1:
        return f"--sample must be a positive integer, got {a.sample}"
    if not a.budget > 0:
        return f"--budget must be positive, got {a.budget}"
    if a.stop_after is not None and not a.stop_after >= 0:
        return f"--stop-after must be >= 0, got {a.stop_after}"
    for m in a.library_module or ():
        if m not in TARGETS:
            return f"--library-module {m!r} is not a target module ({', '.join(TARGETS)})"
    for f in (a.json_out, a.markdown):
        if f and not Path(f).resolve().parent.is_dir():
            return f"cannot write {f}: its directory does not exist"
    for opt, f in (
        ("--from-json", a.from_json),
        ("--again", getattr(a, "again", None)),
        ("--sample-from", getattr(a, "sample_from", None)),
    ):
        if f is None:
            continue
        try:
            size = Path(f).stat().st_size
            if size > MAX_ENVELOPE_BYTES:
                return (
                    f"{opt} {f}: {size} bytes, more than an envelope of the largest sample "
                    f"holds ({MAX_ENVELOPE_BYTES} bytes)"
                )
            earlier = _read_envelope(f)
        except (OSError, ValueError) as e:
            return f"{opt} {f}: {e}"
        if not earlier:
            return f"{opt} {f}: not a library-mutation envelope"
    if a.from_json is not None:
        return None
    if not a.no_tests and not test_files():
        return (
            f"the library's tests are not beside the package ({ROOT} has no tests/theory or "
            "tests/sim: a non-editable install), so no mutant could be judged by them: run "
            "from an editable install of a checkout (pip install -e '.[test,mutation]') or "
            "pass --no-tests to judge by the registry alone"
        )
    return None


def run_from_args(a, command: str, workers=None, scheduler=None, as_json=False, emit=None) -> int:
    """Run from parsed options (:func:`add_arguments`); print the summary (or, ``as_json``,
    the envelope — through ``emit(envelope)`` when given) on stdout; exit status 1 when a
    mutant is a blame, 130 when interrupted."""
    if getattr(a, "from_json", None):
        earlier = _read_envelope(a.from_json)
        records = earlier["mutants"] + [{"id": i} for i in earlier["not_run"]]
        env = summarize(records, earlier["not_generated"], earlier["meta"])
        command = earlier["meta"].get("command", command)
    else:
        env = _run(a, workers, scheduler)
    env["meta"]["command"] = command
    return _emit(a, env, command, as_json, emit)


#: the largest ``--from-json`` file read: an envelope holds ~1.5 kB a mutant (docs/mutation.json,
#: 177 mutants run: 0.26 MB), so all ~14,600 library mutants fit in ~22 MB; 64 MB leaves room
MAX_ENVELOPE_BYTES = 64 * 2**20


def _read_envelope(path) -> dict | None:
    """The JSON envelope of an earlier run (None when the file is JSON of another kind)."""
    doc = json.loads(Path(path).read_text())
    keys = ("nbl_libmutation", "mutants", "not_run", "not_generated", "meta")
    return doc if isinstance(doc, dict) and all(k in doc for k in keys) else None


def _run(a, workers, scheduler) -> dict:
    return run_library(
        sample=a.sample,
        seed=a.seed,
        quick=not a.full,
        tests=not a.no_tests,
        workers=workers,
        scheduler=scheduler,
        budget=a.budget,
        modules=a.library_module,
        progress=_progress,
        resume=not a.fresh,
        stop_after=None if a.stop_after is None else 60 * a.stop_after,
        only=None if getattr(a, "again", None) is None else again_ids(a.again),
        pinned=None
        if getattr(a, "sample_from", None) is None
        else _read_envelope(a.sample_from)["mutants"],
        run_triaged=getattr(a, "run_triaged", True),
    )


def _signature(d: dict, text: str) -> tuple:
    return (
        d["module"],
        text.strip(),
        d["col"],
        d["operator"],
        d["variant"],
        d["before"],
        d["after"],
        d.get("dup", 0),
    )


def pinned_specs(specs, records) -> tuple[list, int]:
    """Today's mutants that are an earlier envelope's (``--sample-from``).

    A mutant is known by what it changes — its module, the text of its line, column, operator,
    variant, before and after (and its position among equal ones) — not by its line number,
    which moves when lines above it are added: a sample pinned this way stays the same while
    the lines it mutates do. Where a module holds the same line twice, the line number only
    decides between them: a record takes the nearest of today's equal mutants.

    Parameters
    ----------
    specs : list of MutantSpec
        Today's mutants (:func:`enumerate_mutants`).
    records : list of dict
        The envelope's mutant records (``module``, ``line_text``, ``col``, ``operator``,
        ``variant``, ``before``, ``after``, ``dup``).

    Returns
    -------
    chosen : list of MutantSpec
        The matches, in today's order.
    missing : int
        How many records have no match (their line changed or is gone).
    """
    want: dict = {}  # signature → the records' line numbers
    for r in records:
        want.setdefault(_signature(r, r["line_text"]), []).append(r.get("line", 0))
    texts: dict = {}
    found: dict = {}  # signature → today's mutants that have it
    for s in specs:
        lines = texts.get(s.path)
        if lines is None:
            lines = texts[s.path] = (ROOT / s.path).read_text().splitlines()
        key = _signature(s.to_dict(), lines[s.line - 1] if 0 < s.line <= len(lines) else "")
        if key in want:
            found.setdefault(key, []).append(s)
    picked, missing = set(), 0
    for key, at in want.items():
        # equal lines (the same text twice in a module): each record takes the nearest of
        # today's unused ones by line number, as lines move by what is added above them
        free = list(found.get(key, []))
        for line in sorted(at):
            if not free:
                missing += 1
                continue
            best = min(free, key=lambda s: (abs(s.line - line), s.line))
            free.remove(best)
            picked.add(best.id)
    return [s for s in specs if s.id in picked], missing


#: the outcomes an ``--again`` run takes up: what the registry did not kill
AGAIN_OUTCOMES = ("tests-only", "survived", "timeout")


def again_ids(path) -> frozenset:
    """The mutants of an earlier run the registry did not kill: an ``--again`` run's sample.

    Parameters
    ----------
    path : str or Path
        The earlier run's JSON envelope (``--json-out``).

    Returns
    -------
    frozenset of str
        The ids of its mutants whose outcome is one of :data:`AGAIN_OUTCOMES`.
    """
    env = _read_envelope(path)
    return frozenset(m["id"] for m in env["mutants"] if m["outcome"] in AGAIN_OUTCOMES)


def _emit(a, env: dict, command: str, as_json: bool, emit) -> int:
    if a.json_out:
        _atomic(a.json_out, json.dumps(env, indent=1))
    if a.markdown:
        _atomic(a.markdown, markdown(env, command))
    if as_json:
        if emit is not None:
            emit(env)
        else:
            print(json.dumps(env, indent=1))
        return 130 if env["meta"].get("stopped") == "interrupted" else 1 if env["blames"] else 0
    t = env["totals"]
    print(
        f"library mutation ({env['meta']['mode']}): {t['total']} mutants — "
        + ", ".join(f"{o} {t[o]}" for o in OUTCOMES)
        + f"; registry {pct(t['kill_rate_registry'])}, registry + tests "
        f"{pct(t['kill_rate_registry_tests'])}"
    )
    pin = env["meta"].get("sample_from")
    if pin and pin["found"] < pin["listed"]:
        print(
            f"  --sample-from: {pin['found']} of the {pin['listed']} mutants it lists are among "
            "today's (the others' lines changed)"
        )
    again = env["meta"].get("again")
    if again and again["in_sample"] < again["listed"]:
        print(
            f"  --again: {again['in_sample']} of the {again['listed']} mutants it lists are in "
            "this sample (the others: another --sample/--seed, or a changed library)"
        )
    for b in env["blames"]:
        print(f"  BLAME {b['path']}:{b['line']} {b['operator']}: {b['reason']}")
    if env["meta"].get("stopped"):
        print(f"  {env['meta']['stopped']}: {len(env['not_run'])} sampled mutants not run")
    if env["meta"].get("stopped") == "interrupted":
        return 130
    return 1 if env["blames"] else 0


def _atomic(path, text: str) -> None:
    p = Path(path)
    tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, p)
