"""``nbl study [--quick] [--out DIR] [--json]``: the empirical regret-rate study
(:mod:`nbl_sim.studies.rate_study`; thm:regret-rate, prop:localized-estimation)."""

from __future__ import annotations

import sys

from . import options as opt
from .display import progress, show
from .jsonout import print_json
from .limits import check_out_dir

__all__ = ["NAME", "add_parser", "run", "json_row"]

NAME = "study"


def add_parser(sub):
    st = opt.command_parser(
        sub,
        NAME,
        help="the empirical regret-rate study (thm:regret-rate, prop:localized-estimation)",
        description="Run the regret-rate study of nbl_sim.studies.rate_study: regret growth "
        "over n and "
        "d with model selection, the localized estimation rate, the step-size threshold, "
        "localization against n0 and an unstable contrast. Cells are cached, so an interrupted "
        "study resumes; --scheduler runs it on a Dask cluster.",
    )
    st.add_argument(
        "--quick", action="store_true", help="small n, d in {2, 4}, few replications (~5 s)"
    )
    opt.add_exec_args(st)
    st.add_argument(
        "--out", default=None, metavar="DIR", help="write study.json, CSV tables and study.png here"
    )
    return opt.finish_parser(st, run)


def json_row(res, analysis: dict) -> dict:
    """The JSON row of a study: its configuration, run facts and every statistic."""
    import dataclasses

    return {
        "config": dataclasses.asdict(res.config),
        "seconds": res.seconds,
        "executor": res.executor,
        "cached": res.cached,
        "computed": res.computed,
        "failures": [{"cell": f.describe_params(), "error": f.error} for f in res.failures],
        "analysis": analysis,
    }


def run(args) -> int:
    check_out_dir(args.out, "--out")
    opt.check_exec(args)
    from nbl_sim.presentation.figures.regret_rate import figure_data
    from nbl_sim.presentation.reproduce import write_study
    from nbl_sim.studies.rate_study import FULL, QUICK, run_study

    cfg = QUICK if args.quick else FULL
    with opt.executing(args) as ex, progress(f"regret-rate study ({cfg.name})") as bar:
        res = run_study(cfg, executor=ex, cache=opt.cache_from_args(args, "study"), progress=bar)
    data = figure_data(res)
    an = data.extra["analysis"]
    files, out_fault = [], None
    if args.out:
        written, out_fault = opt.write_out(
            args.out, ("study.json",), lambda o: write_study(o.path, data, run_id=o.run_id)
        )
        files = [str(f) for f in written]
    if args.json:
        print_json(NAME, [json_row(res, an)], files)
        return opt.report_out_fault(out_fault) or (3 if res.failures else 0)
    from nbl_sim.presentation.tables import study_report

    show(study_report(res, an))
    for f in res.failures:
        print(f"nbl: failed cell {f.describe_params()}: {f.error}", file=sys.stderr)
    for f in files:
        print(f"wrote {f}")
    return opt.report_out_fault(out_fault) or (3 if res.failures else 0)
