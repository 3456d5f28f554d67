"""``nbl reproduce [FIGURE ...] [--quick] [--out DIR] [--no-cache] [--list]``: regenerate the
paper's figures (:mod:`nbl_sim.presentation.reproduce`)."""

from __future__ import annotations

from nbl_sim.presentation.tables import figure_list_report, reproduce_report

from .display import progress, show

__all__ = ["NAME", "add_parser", "run"]

NAME = "reproduce"


def add_parser(sub):
    f = sub.add_parser(
        NAME,
        help="regenerate the paper's figures (PNG, PDF, CSV data, manifest, gallery)",
        description="Compute and draw the paper's figures and the pictures beyond it; writes "
        "FIGURE.png/.pdf, the plotted data as CSV, a JSON manifest per figure and index.md. "
        "Figure data are cached (resume after an interruption).",
    )
    f.add_argument("figures", nargs="*", metavar="FIGURE", help="figure ids (default: all)")
    f.add_argument("--quick", action="store_true", help="fewer replications, coarser grids")
    f.add_argument("--out", default="figures", metavar="DIR", help="output directory (figures)")
    f.add_argument("--cache-dir", default=".nbl_cache/figures", metavar="DIR",
                   help="data cache (default .nbl_cache/figures)")
    f.add_argument("--no-cache", action="store_true", help="recompute everything, cache nothing")
    f.add_argument("--workers", type=int, default=None, metavar="N",
                   help="compute the figures on a local pool of N processes (default: here)")
    f.add_argument("--scheduler", default=None, metavar="ADDR",
                   help="compute the figures on a Dask cluster: tcp://HOST:PORT or local:N "
                        "(default: $NBL_DASK_SCHEDULER)")
    f.add_argument("--list", action="store_true", help="list the figures and exit")
    f.set_defaults(func=run)
    return f


def run(args) -> int:
    from nbl_sim.presentation.figures import load_figures
    from nbl_sim.presentation.reproduce import reproduce

    if args.list:
        show(figure_list_report(load_figures()))
        return 0
    with progress("reproducing figures") as bar:
        records = reproduce(args.figures, quick=args.quick, out_dir=args.out,
                            cache_dir=None if args.no_cache else args.cache_dir, progress=bar,
                            workers=args.workers, scheduler=args.scheduler)
    show(reproduce_report(records, args.out))
    return 0
