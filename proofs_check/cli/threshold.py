"""``nbl threshold LINK --solve-for delta|PARAM [--delta SPEC] [--param NAME=SPEC ...] [--plot
FILE] [--json]``: every sign change of λ* in a range, refined, with certified brackets.

The unknown's range is written in the common grammar: ``--delta LO:HI:N`` when solving for Δ,
``--param NAME=LO:HI:N`` when solving for a parameter (``LO:HI`` takes N = 160; without a range
the defaults of :data:`nbl_theory.threshold.DEFAULT_BRACKETS` apply). Lists in the other
parameters (and in ``--delta`` when solving for a parameter) give one threshold problem per
combination. The old form ``--bracket LO HI --grid N`` still works.
"""

from __future__ import annotations

import argparse

from . import options as opt
from .display import note, progress, show
from .errors import UsageError
from .grammar import GRAMMAR_HELP, parse_spec
from .jsonout import print_json
from .limits import MAX_SCAN_POINTS, bound, check_dps, check_plot_path, dps_note

__all__ = ["NAME", "add_parser", "run", "DEFAULT_GRID"]

NAME = "threshold"
#: scan points of a range given as LO:HI (or not given)
DEFAULT_GRID = 160

HELP = "solve lambda* = 0 for delta or a parameter of the link"
DESCRIPTION = (
    "All sign changes of lambda* in a range, refined and with certified "
    f"brackets (at most {MAX_SCAN_POINTS} scan points in all without --allow-large)."
)

EPILOG = f"""{GRAMMAR_HELP}
  The unknown's range: --delta LO:HI:N (solving for delta) or --param NAME=LO:HI:N (solving
  for NAME); LO:HI without N scans {DEFAULT_GRID} points. The old form --bracket LO HI
  [--grid N] is still accepted.

examples:
  nbl threshold --family two-transition --solve-for mu2 --delta 0.2
  nbl threshold --link 'sigmoid(a*z)**2' --solve-for a --param a=0.1:3:30 --delta 0.3
  nbl threshold --family weighted-entropy --param rho=0.72 --solve-for delta --delta 0.05:1.95
  nbl threshold --family weighted-entropy --solve-for rho --param rho=-0.9:0.9:19 --delta 0.2"""


def add_parser(sub):
    t = opt.command_parser(sub, NAME, HELP, DESCRIPTION, EPILOG, link=True)
    t.add_argument(
        "--solve-for",
        required=True,
        metavar="delta|PARAM",
        help="the unknown: delta, or a parameter of the link",
    )
    opt.add_delta_arg(
        t,
        "the scan range LO:HI:N when solving for delta; else the fixed delta (one value or a list)",
    )
    t.add_argument("--bracket", default=None, metavar="LO HI", help=argparse.SUPPRESS)
    t.add_argument("--grid", type=opt.whole, default=None, metavar="N", help=argparse.SUPPRESS)
    t.add_argument(
        "--dps", type=opt.whole, default=None, help="refine roots with mpmath at N digits"
    )
    t.add_argument("--no-certify", action="store_true", help="skip the Arb bracket certification")
    t.add_argument(
        "--plot",
        metavar="FILE",
        default=None,
        help="also save a plot of lambda* over the scan (PNG/PDF/SVG by extension)",
    )
    return opt.finish_parser(t, run)


def _problem(args):
    """(the unknown, its scan Spec, the Specs of the fixed values: name → Spec)."""
    if args.grid is not None and args.grid < 3:
        raise UsageError(f"--grid must be a whole number >= 3 (the scan points), got {args.grid}")
    n = args.grid if args.grid is not None else DEFAULT_GRID
    specs = opt.param_specs(args, default_n=n)
    unknown = args.solve_for.strip()
    dspec = opt.delta_spec(args, required=False, default_n=n if unknown == "delta" else None)
    if args.bracket is not None:
        where = "--delta" if unknown == "delta" else f"--param {unknown}"
        if (dspec if unknown == "delta" else specs.get(unknown)) is not None:
            raise UsageError(f"give the range once: {where}=LO:HI:N (--bracket is the old form)")
        scan = parse_spec(f"{args.bracket}:{n}", "--bracket")
    elif unknown == "delta":
        scan = dspec if dspec is not None else parse_spec(f"0.01:1.99:{n}", "--delta")
    else:
        scan = specs.get(unknown)
        if scan is None:
            from nbl_theory.threshold import DEFAULT_BRACKETS

            if unknown not in DEFAULT_BRACKETS:
                source = opt.link_source(args)
                if unknown not in source.parameters():
                    source.check_names([unknown])  # no such parameter: the closest one
                raise UsageError(f"give the range of the unknown: --param {unknown}=LO:HI:N")
            lo, hi = DEFAULT_BRACKETS[unknown]
            scan = parse_spec(f"{lo}:{hi}:{n}", f"--param {unknown}")
    if scan.kind != "range":
        where = "--delta LO:HI:N" if unknown == "delta" else f"--param {unknown}=LO:HI:N"
        raise UsageError(f"--solve-for {unknown} scans a range: give {where}, not {scan.text!r}")
    given = dspec if unknown == "delta" else specs.get(unknown)
    if args.grid is not None and given is not None and given.text.count(":") == 2:
        raise UsageError(f"give the number of scan points once: {given.text!r} or --grid")
    if scan.n < 3:
        raise UsageError(f"a threshold scan needs at least 3 points, got N = {scan.n}")
    fixed = {k: s for k, s in specs.items() if k != unknown}
    if unknown != "delta":
        if dspec is None:
            raise UsageError(f"solving for {unknown} needs a fixed --delta")
        fixed["delta"] = dspec
    return unknown, scan, fixed


def run(args) -> int:
    unknown, scan, fixed = _problem(args)
    problems = opt.check_sizes(list(fixed.values()), float("inf"), "", True)
    bound(
        problems * scan.n,
        MAX_SCAN_POINTS,
        "scan points (threshold problems x grid points)",
        args.allow_large,
    )
    check_dps(args.dps, args.allow_large)
    check_plot_path(args.plot)
    if args.plot and problems > 1:
        raise UsageError(f"--plot draws one scan; these values give {problems} threshold problems")
    from nbl_theory.threshold import find_thresholds
    from nbl_theory.validation import delta_inside, validate_delta

    lo, hi = scan.items
    lo_q, hi_q = scan.ends()
    if unknown == "delta" and not (delta_inside(lo_q) and delta_inside(hi_q)):
        raise UsageError(
            f"{scan.option}: the delta scan must lie inside (0, 2), also as "
            f"float64 numbers, got {lo}:{hi}"
        )
    source = opt.link_source(args)
    values = {k: s.values() for k, s in fixed.items()}
    for d in values.get("delta", []):
        validate_delta(d)
    params = {k: v for k, v in values.items() if k != "delta"}
    source.check_names([*params, unknown] if unknown != "delta" else list(params))
    combos = opt.combinations(values)
    builds = []
    for c in combos:  # every link checked (and the scan's ends built) up front
        p = {k: v for k, v in c.items() if k != "delta"}
        if unknown == "delta":
            builds.append(source.link(p))
        else:
            for end in (lo, hi):
                source.link({**p, unknown: end})
            builds.append(lambda x, p=p: source.link({**p, unknown: x}))
    msg = dps_note(args.dps, "per evaluation (a root takes several)")
    if msg:
        note(msg)
    results = []
    per = scan.n  # the counter counts the scan's points, and only those
    total = problems * per
    with progress(
        f"scanning {unknown} ({opt.count(total, 'point')}, each root then refined)"
    ) as bar:
        bar(0, total)
        for k, (c, build) in enumerate(zip(combos, builds)):

            def step(i, n, k=k):
                bar(k * per + i, total)

            p = {kk: v for kk, v in c.items() if kk != "delta"}
            res = find_thresholds(
                build,
                unknown,
                delta=c.get("delta"),
                bracket=(lo, hi),
                grid=scan.n,
                dps=args.dps,
                certify=not args.no_certify,
                label=source.text,
                progress=step,
            )
            res.fixed = {**p, **res.fixed}
            results.append(res)
            bar((k + 1) * per, total)
    files = []
    if args.plot:
        from nbl_sim.presentation.plots import plot_threshold_scan

        files.append(plot_threshold_scan(results[0], args.plot))
    if args.json:
        rows = []
        for res in results:
            row = res.to_json()
            row.pop("value", None)  # the first root only: every root is in "roots"
            row.pop("bracket", None)
            rows.append(row)
        print_json(NAME, rows, files)
        return 0
    from nbl_sim.presentation.tables import threshold_report

    report: list = []
    for res in results:
        report += (["\n"] if report else []) + threshold_report(res)
    show(report)
    for f in files:
        print(f"plot written to {f}")
    return 0
