"""``nbl check [--quick] [--claim ID ...] [--out DIR] [--json]``: run the registered claims,
print each claim's status as it finishes, and write ``verification.md`` and ``.json``."""

from __future__ import annotations

import time

from .display import claim_progress, show
from .errors import UsageError, did_you_mean
from .jsonout import print_json
from .limits import check_out_dir
from .options import add_json

__all__ = ["NAME", "add_parser", "run"]

NAME = "check"


def add_parser(sub):
    k = sub.add_parser(
        NAME,
        help="run every registered claim and write the verification report",
        description="Check the paper's claims (proofs_check registry) and write "
        "reports/verification.md and .json. Exit status 1 if any FAIL.",
    )
    k.add_argument("--quick", action="store_true", help="skip the slow claims (reported SKIPPED)")
    k.add_argument("--claim", action="append", default=None, metavar="ID",
                   help="run only this claim (repeatable)")
    k.add_argument("--out", default="reports", metavar="DIR",
                   help="report directory (default reports)")
    add_json(k)
    k.set_defaults(func=run)
    return k


def _claim_ids(wanted):
    if not wanted:
        return None
    from ..registry import REGISTRY

    known = [c.id for c in REGISTRY.all_claims()]
    for w in wanted:
        if w not in known:
            raise UsageError(f"unknown claim {w!r}{did_you_mean(w, known)} "
                             f"({len(known)} claims; nbl check --json lists them)")
    return wanted


def run(args) -> int:
    check_out_dir(args.out, "--out")
    from ..registry import DISCREPANCY, FAIL, run_claims
    from ..report import record, summary_line, write_report

    ids = _claim_ids(args.claim)
    tic = time.perf_counter()
    with claim_progress("checking claims") as report:
        results = run_claims(quick=args.quick, ids=ids, progress=report)
    seconds = time.perf_counter() - tic
    md, js = write_report(results, args.out)
    status = 1 if any(r.status == FAIL for r in results) else 0
    if args.json:
        print_json(NAME, [record(r) for r in results], [md, js])
        return status
    from nbl_sim.presentation.tables import claims_report

    show(claims_report(results, flagged_statuses=(DISCREPANCY, FAIL)))
    print(f"\n{summary_line(results)}")
    print(f"{len(results)} claims in {seconds:.1f} s")
    print(f"report: {md}\n        {js}")
    return status
