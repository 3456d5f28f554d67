"""``nbl reproduce [FIGURE ...] [--quick] [--out DIR] [--no-cache] [--list] [--json]``:
regenerate the paper's figures (:mod:`nbl_sim.presentation.reproduce`). A FIGURE is a figure id
or the paper's label of it (``fig:...``); a misspelt one is refused with the closest names."""

from __future__ import annotations

from . import options as opt
from .display import progress, show
from .jsonout import print_json
from .limits import check_out_dir

__all__ = ["NAME", "add_parser", "run"]

NAME = "reproduce"


def add_parser(sub):
    f = opt.command_parser(
        sub,
        NAME,
        help="regenerate the paper's figures (PNG, PDF, CSV data, manifest, gallery)",
        description="Compute and draw the paper's figures and the pictures beyond it; writes "
        "FIGURE.png/.pdf, the plotted data as CSV, a JSON manifest per figure and index.md. "
        "Figure data are cached (resume after an interruption).",
    )
    f.add_argument(
        "figures",
        nargs="*",
        metavar="FIGURE",
        help="figure ids or paper labels (default: all; --list shows them)",
    )
    f.add_argument("--quick", action="store_true", help="fewer replications, coarser grids")
    f.add_argument("--out", default="figures", metavar="DIR", help="output directory (figures)")
    opt.add_exec_args(
        f, workers_help="compute the figures on a local pool of N processes (default: here)"
    )
    f.add_argument("--list", action="store_true", help="list the figures and exit")
    return opt.finish_parser(f, run)


def run(args) -> int:
    if not args.list:
        check_out_dir(args.out, "--out")
        opt.check_exec(args)
    from nbl_sim.presentation.figures import load_figures
    from nbl_sim.presentation.reproduce import figure_id, reproduce

    registry = load_figures()
    if args.list:
        if args.json:
            rows = [
                {"id": fid, "label": _attr(mod, "LABEL", fid), "title": _attr(mod, "TITLE", fid)}
                for fid, mod in registry.items()
            ]
            print_json(NAME, rows)
            return 0
        from nbl_sim.presentation.tables import figure_list_report

        show(figure_list_report(registry))
        return 0
    ids = [figure_id(name, registry) for name in args.figures]
    faults = []

    def writer(write):  # --out as a set; a file-system fault is reported after
        faults.append(opt.write_out(args.out, ("index.md",), write)[1])

    with opt.executing(args) as ex, progress("reproducing figures") as bar:
        records = reproduce(
            ids,
            quick=args.quick,
            out_dir=args.out,
            cache=opt.cache_from_args(args, "figures"),
            progress=bar,
            executor=ex,
            writer=writer,
        )
    if args.json:
        files = [f"{args.out}/{name}" for r in records for name in r["files"]]
        print_json(NAME, records, files)
        return opt.report_out_fault(faults[0])
    from nbl_sim.presentation.tables import reproduce_report

    show(reproduce_report(records, args.out))
    return opt.report_out_fault(faults[0])


def _attr(module, name: str, fig_id: str) -> str:
    val = getattr(module, name)
    return val if isinstance(val, str) else val[fig_id]
