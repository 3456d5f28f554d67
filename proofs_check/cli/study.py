"""``nbl study [--quick] [--out DIR] [--json]``: the empirical regret-rate study
(:mod:`nbl_sim.rate_study`; thm:regret-rate, prop:localized-estimation)."""

from __future__ import annotations

import sys

from nbl_sim.presentation.reproduce import json_default
from nbl_sim.presentation.tables import study_report

from .display import progress, show
from .options import add_exec_args, cache_from_args, print_json

__all__ = ["NAME", "add_parser", "run"]

NAME = "study"


def add_parser(sub):
    st = sub.add_parser(
        NAME,
        help="the empirical regret-rate study (thm:regret-rate, prop:localized-estimation)",
        description="Run the regret-rate study of nbl_sim.rate_study: regret growth over n and "
        "d with model selection, the localized estimation rate, the step-size threshold, "
        "localization against n0 and an unstable contrast. Cells are cached, so an interrupted "
        "study resumes; --scheduler runs it on a Dask cluster.",
    )
    st.add_argument("--quick", action="store_true",
                    help="small n, d in {2, 4}, few replications (~1 min)")
    add_exec_args(st, ".nbl_cache/sweeps")
    st.add_argument("--out", default=None, metavar="DIR",
                    help="write study.json, CSV tables and study.png here")
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=run)
    return st


def run(args) -> int:
    from nbl_sim.presentation.figures.regret_rate import figure_data
    from nbl_sim.presentation.reproduce import write_study
    from nbl_sim.rate_study import FULL, QUICK, run_study

    cfg = QUICK if args.quick else FULL
    with progress(f"regret-rate study ({cfg.name})") as bar:
        res = run_study(cfg, workers=args.workers, scheduler=args.scheduler,
                        cache=cache_from_args(args, "study"), progress=bar)
    data = figure_data(res)
    an = data.extra["analysis"]
    files = write_study(args.out, data) if args.out else []
    if args.json:
        print_json(an, indent=1, default=json_default)
        return 3 if res.failures else 0
    show(study_report(res, an))
    for f in res.failures:
        print(f"nbl: failed cell {f.describe_params()}: {f.error}", file=sys.stderr)
    for f in files:
        print(f"wrote {f}")
    return 3 if res.failures else 0
