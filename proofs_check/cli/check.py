"""``nbl check [--quick] [--out DIR]``: run every registered claim, print each claim's status as
it finishes, and write ``verification.md`` and ``.json``."""

from __future__ import annotations

import time

from nbl_sim.presentation.tables import claims_report

from .display import claim_progress, show

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
    k.add_argument("--out", default="reports", metavar="DIR",
                   help="report directory (default reports)")
    k.set_defaults(func=run)
    return k


def run(args) -> int:
    from ..registry import DISCREPANCY, FAIL, run_claims
    from ..report import summary_line, write_report

    tic = time.perf_counter()
    with claim_progress("checking claims") as report:
        results = run_claims(quick=args.quick, progress=report)
    seconds = time.perf_counter() - tic
    md, js = write_report(results, args.out)
    show(claims_report(results, flagged_statuses=(DISCREPANCY, FAIL)))
    print(f"\n{summary_line(results)}")
    print(f"{len(results)} claims in {seconds:.1f} s")
    print(f"report: {md}\n        {js}")
    return 1 if any(r.status == FAIL for r in results) else 0
