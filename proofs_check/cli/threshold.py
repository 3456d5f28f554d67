"""``nbl threshold LINK --solve-for delta|PARAM [--delta D] [--bracket LO HI] [--plot FILE]
[--json]``: every sign change of λ* in a range, refined, with certified brackets."""

from __future__ import annotations

from nbl_sim.presentation.tables import threshold_report
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.links import Link

from .display import progress, show
from .options import add_link_args, links_from_args, parse_params, print_json

__all__ = ["NAME", "add_parser", "run"]

NAME = "threshold"


def add_parser(sub):
    t = sub.add_parser(
        NAME,
        help="solve lambda* = 0 for delta or a family parameter",
        description="All sign changes of lambda* in a range, refined and with certified brackets.",
    )
    add_link_args(t)
    t.add_argument("--solve-for", required=True, metavar="delta|PARAM")
    t.add_argument("--delta", default=None, metavar="D",
                   help="fixed delta when solving for a parameter")
    t.add_argument("--bracket", nargs=2, metavar=("LO", "HI"), default=None, help="search range")
    t.add_argument("--grid", type=int, default=160, help="scan points (default 160)")
    t.add_argument("--dps", type=int, default=None, help="refine roots with mpmath at N digits")
    t.add_argument("--no-certify", action="store_true", help="skip the Arb bracket certification")
    t.add_argument("--plot", metavar="FILE", default=None,
                   help="also save a plot of lambda* over the scan (PNG/PDF/SVG by extension)")
    t.add_argument("--json", action="store_true")
    t.set_defaults(func=run)
    return t


def _solve_delta(args, find_thresholds):
    links = links_from_args(args)
    if len(links) != 1:
        raise NBLInputError("threshold takes a single link (no comma lists in --param)")
    link = links[0]
    with progress("scanning delta") as bar:
        return find_thresholds(link, "delta", bracket=args.bracket, grid=args.grid, dps=args.dps,
                               certify=not args.no_certify, label=link.name, progress=bar)


def _solve_parameter(args, find_thresholds):
    solve_for = args.solve_for
    if args.family is None:
        raise NBLInputError(f"--solve-for {solve_for} needs --family (parameters belong to "
                            "families)")
    fixed = parse_params(args.param)
    if solve_for in fixed:
        raise NBLInputError(f"do not fix --param {solve_for}: it is the unknown")
    if any(len(v) != 1 for v in fixed.values()):
        raise NBLInputError("threshold takes a single value per fixed --param")
    fixed1 = {k: v[0] for k, v in fixed.items()}
    # validate the family and parameter name once, with a clear message
    probe = make_family(args.family, **fixed1)
    if solve_for not in probe.params:
        raise NBLInputError(f"family {args.family!r} has no parameter {solve_for!r}; "
                            f"parameters are {sorted(probe.params)}")

    def build(value: str) -> Link:
        return make_family(args.family, **fixed1, **{solve_for: value})

    with progress(f"scanning {solve_for}") as bar:
        return find_thresholds(build, solve_for, delta=args.delta, bracket=args.bracket,
                               grid=args.grid, dps=args.dps, certify=not args.no_certify,
                               label=probe.name.split("(")[0], progress=bar)


def run(args) -> int:
    from nbl_theory.threshold import find_thresholds

    solve = _solve_delta if args.solve_for == "delta" else _solve_parameter
    res = solve(args, find_thresholds)
    if args.plot:
        from nbl_sim.presentation.plots import plot_threshold_scan

        written = plot_threshold_scan(res, args.plot)
        res.notes.append(f"plot written to {written}")
    if args.json:
        print_json(res.to_json())
        return 0
    show(threshold_report(res))
    return 0
