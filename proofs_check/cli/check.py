"""``nbl check [--quick] [--claim ID ...] [--out DIR] [--paper PATH] [--workers N | --scheduler
ADDR] [--cache-dir DIR | --no-cache] [--mutate] [--json]``.

Without ``--mutate``: run the registered claims through
:func:`proofs_check.runner.run_claims_parallel` — independent claims in parallel (a local
process pool, or Dask with ``--scheduler``), each result cached (:func:`proofs_check.runner.
claims_cache`), the report ``verification.md`` / ``.json`` written incrementally into ``--out``
— print each claim's status as it finishes, then the table and the summary. Exit status 1 if
any claim FAILs; an interrupted run (Ctrl-C) leaves a valid partial report, the claims not yet
finished marked SKIPPED, and exits 130; the same command resumes from the cache.

With ``--mutate``: run every claim's mutants (:func:`proofs_check.mutation.run_mutation`) and
print the kill rate per claims module and the defects (a checked claim without mutants, a
mutant that survives, a FAIL baseline); exit status 1 on a defect.

The paper text (:func:`proofs_check.paper_source.paper_source`): ``--paper PATH``, else
``$NBL_PAPER``, else the copy shipped with the package. The claims read the packaged data made
from the pinned version; a given text that is not that version is named in the report and on
stdout together with the checks it leaves stale (:func:`proofs_check.audit.staleness.staleness`)
— it is never used silently.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from . import options as opt
from .display import claim_progress, progress, show
from .errors import UsageError, did_you_mean
from .jsonout import print_json
from .limits import check_out_dir

__all__ = ["NAME", "add_parser", "run"]

NAME = "check"


def add_parser(sub):
    k = sub.add_parser(
        NAME,
        help="run every registered claim and write the verification report",
        description="Check the paper's claims (proofs_check registry) in parallel, cached per "
        "claim, and write DIR/verification.md and .json as results arrive (an interrupted "
        "run leaves a valid partial report and resumes from the cache). Exit status 1 if any "
        "FAIL. --mutate instead runs every claim's mutants and reports the kill rates.",
    )
    k.add_argument("--quick", action="store_true", help="skip the slow claims (reported SKIPPED)")
    k.add_argument(
        "--claim",
        action="append",
        default=None,
        metavar="ID",
        help="run only this claim (repeatable)",
    )
    k.add_argument(
        "--out", default="reports", metavar="DIR", help="report directory (default reports)"
    )
    k.add_argument(
        "--paper",
        default=None,
        metavar="PATH",
        help="the paper's LaTeX to check against (default: $NBL_PAPER, else the "
        "pinned copy shipped with nbl); a text that differs from the pinned "
        "version is reported with the checks it leaves stale",
    )
    k.add_argument(
        "--mutate",
        action="store_true",
        help="run the claims' mutants instead (each must turn the verdict); print "
        "the kill rate per module and the defects; exit 1 on a defect",
    )
    k.add_argument(
        "--library",
        action="store_true",
        help="with --mutate: mutate the library (nbl_theory, nbl_sim) and report "
        "per mutant whether a claim FAILed, a verdict about the paper moved "
        "(a blame), a test failed or nothing noticed "
        "(proofs_check.libmutation); exit 1 on a blame",
    )
    from ..libmutation.arguments import add_arguments as add_library_arguments

    add_library_arguments(k)
    opt.add_exec_args(
        k,
        workers_help="run the claims on a local pool of N processes (default: "
        "every core when the work repays it; 1 = in this process)",
    )
    opt.add_allow_large(k)
    opt.add_json(k)
    k.set_defaults(func=run)
    return k


def _claim_ids(wanted):
    if not wanted:
        return None
    from ..registry import REGISTRY

    known = [c.id for c in REGISTRY.all_claims()]
    for w in wanted:
        if w not in known:
            raise UsageError(
                f"unknown claim {w!r}{did_you_mean(w, known)} "
                f"({len(known)} claims; nbl check --json lists them)"
            )
    return list(dict.fromkeys(wanted))


def _paper(path, ids):
    """(PaperSource, Staleness or None): the paper text in force and, when it is not the pinned
    version, what it leaves stale among the selected claims (``ids``; None: all)."""
    from ..paper_source import paper_source

    src = paper_source(path)
    if src.pinned:
        return src, None
    from ..audit.staleness import staleness
    from ..registry import REGISTRY

    claims = [c for c in REGISTRY.all_claims() if ids is None or c.id in ids]
    return src, staleness(src.text, claims=claims)


def _paper_note(paper) -> str | None:
    src, stale = paper
    if stale is None:
        return None
    return (
        f"paper: {src.origin} {src.path} is not the pinned version (sha256 "
        f"{src.sha256[:16]}…); the checks ran on the pinned version's data. "
        + (
            f"Stale: {stale.summary()}"
            if stale.stale
            else "No label, claim or quoted line refers to the text that changed."
        )
    )


def run(args) -> int:
    if args.library and not args.mutate:
        raise UsageError("--library goes with --mutate (nbl check --mutate --library)")
    if args.mutate:
        return _mutate(args)
    check_out_dir(args.out, "--out")
    opt.check_exec(args)
    ids = _claim_ids(args.claim)
    paper = _paper(args.paper, ids)
    from ..registry import DISCREPANCY, FAIL
    from ..report import summary_line
    from ..runner import claims_cache, run_claims_parallel

    cache = None if args.no_cache else claims_cache(args.cache_dir)
    tic = time.perf_counter()
    faults: list = []
    with claim_progress("checking claims") as report:
        results = run_claims_parallel(
            ids=ids,
            quick=args.quick,
            workers=args.workers,
            scheduler=args.scheduler,
            allow_large=args.allow_large,
            cache=cache,
            progress=report,
            out_dir=args.out,
            report_options=None if paper[1] is None else {"paper": paper},
            report_fault=faults,
        )
    seconds = time.perf_counter() - tic
    md, js = Path(args.out) / "verification.md", Path(args.out) / "verification.json"
    status = 1 if any(r.status == FAIL for r in results) else 0
    out_fault = None
    if faults:  # the report could not be written: the result is printed all the same
        why = faults[0].strerror or str(faults[0])
        out_fault = (
            f"cannot write the report into --out {args.out}: {why}; the result above "
            "is complete"
            + ("" if cache is None else " and cached (a re-run writes the report in seconds)")
        )
    if args.json:
        from ..report import infer_quick, summary_counts
        from ..report_json import record

        print_json(
            NAME,
            [record(r) for r in results],
            [] if faults else [md, js],
            mode="quick" if (args.quick or infer_quick(results)) else "full",
            counts=summary_counts(results),
        )
        note = _paper_note(paper)
        if note:
            print(note, file=sys.stderr)
        return opt.report_out_fault(out_fault) or status
    from nbl_sim.presentation.tables import claims_report

    show(claims_report(results, flagged_statuses=(DISCREPANCY, FAIL)))
    print(f"\n{summary_line(results)}")
    print(f"{len(results)} claim{'' if len(results) == 1 else 's'} in {seconds:.1f} s")
    if not faults:
        print(f"report: {md}\n        {js}")
    note = _paper_note(paper)
    if note:
        print(note)
    return opt.report_out_fault(out_fault) or status


def _mutate_library(args) -> int:
    import sys

    from ..libmutation.run import check_arguments, run_from_args

    why = check_arguments(args)
    if why:
        raise UsageError(why)
    if args.claim or args.cache_dir or args.no_cache:
        raise UsageError(
            "--mutate --library chooses the claims by coverage and caches its "
            "coverage map itself: --claim, --cache-dir and --no-cache do not apply"
        )
    opt.check_exec(args)
    return run_from_args(
        args,
        "nbl " + " ".join(sys.argv[1:]),
        workers=args.workers,
        scheduler=args.scheduler,
        as_json=args.json,
        emit=lambda env: print_json(NAME, [env]),
    )


def _mutate(args) -> int:
    """``nbl check --mutate``: the mutants run in this process, nothing is written.
    ``--mutate --library``: library mutants on the executor (proofs_check.libmutation)."""
    if args.library:
        return _mutate_library(args)
    given = [
        o
        for o, v in (
            ("--workers", args.workers),
            ("--scheduler", args.scheduler),
            ("--cache-dir", args.cache_dir),
            ("--paper", args.paper),
        )
        if v is not None
    ]
    if given:
        raise UsageError(
            f"--mutate runs the mutants in this process and caches nothing: "
            f"{', '.join(given)} does not apply"
        )
    ids = _claim_ids(args.claim)
    from ..mutation import run_mutation

    with progress("running mutants") as bar:

        def report(i, n, cm) -> None:
            state = (
                f"{cm.baseline}, killed {len(cm.killed)}/{len(cm.mutants)}" if cm.run else "not run"
            )
            bar.note(
                f"{cm.id}: {state} ({cm.seconds:.1f} s)"
                + (f"  DEFECT: {cm.defect}" if cm.defect else "")
            )
            bar(i, n)

        rep = run_mutation(ids=ids, quick=args.quick, progress=report)
    status = 0 if rep.ok else 1
    if args.json:
        print_json(NAME, [rep.to_json()], mode="quick" if args.quick else "full")
        return status
    print(rep.format())
    return status
