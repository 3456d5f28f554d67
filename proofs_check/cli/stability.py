"""``nbl stability LINK --delta SPEC [--dps N] [--certify] [--json] [--verbose]``: λ*, μ*, m2,
κ* and the local Jacobian spectrum, one row per combination of the ``--param`` and ``--delta``
values."""

from __future__ import annotations

import argparse

from .display import note, progress, show
from .grammar import GRAMMAR_HELP
from .jsonout import print_json
from .limits import MAX_ROWS, check_dps, dps_note
from .options import (
    add_allow_large,
    add_json,
    add_link_args,
    check_sizes,
    combinations,
    delta_spec,
    link_source,
    param_specs,
    param_values,
    whole,
)

__all__ = ["NAME", "add_parser", "run"]

NAME = "stability"

EPILOG = f"""{GRAMMAR_HELP}

examples:
  nbl stability --family weighted-entropy --param rho=0.72 --delta 0.2 --dps 50
  nbl stability --link 'sigmoid(a*z)**2' --param a=0.5,1,2 --delta 0.2:1.8:5
  nbl stability --family two-transition --param mu2=-1.074037 --delta 0.2 --certify --json"""


def add_parser(sub):
    s = sub.add_parser(
        NAME,
        help="lambda*, mu*, m2, kappa* and the local Jacobian spectrum",
        description="Decision stability coefficient lambda* (eq:decision_stability) "
        "and the exact Jacobian spectrum (prop:local_jacobian); one row per combination of "
        f"the --param and --delta values (at most {MAX_ROWS} rows without --allow-large).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_link_args(s)
    s.add_argument("--delta", default=None, metavar="SPEC",
                   help="arm separation in (0, 2): D, D1,D2,... or LO:HI:N")
    s.add_argument("--dps", type=whole, default=None,
                   help="mpmath precision in decimal digits (a long one says how long it takes)")
    s.add_argument("--certify", action="store_true", help="certified Arb enclosures (python-flint)")
    add_allow_large(s)
    add_json(s)
    s.add_argument("--verbose", "-v", action="store_true", help="full breakdown for every row")
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    specs = param_specs(args)
    dspec = delta_spec(args)
    rows = check_sizes([*specs.values(), dspec], MAX_ROWS, "rows (parameter values x delta "
                       "values)", args.allow_large)
    check_dps(args.dps, args.allow_large)
    from nbl_theory.stability import stability
    from nbl_theory.validation import validate_delta

    deltas = dspec.values()
    for d in deltas:                        # every input checked before the first row
        validate_delta(d)
    source = link_source(args)
    combos = combinations(param_values(source, specs))
    msg = dps_note(args.dps, "per row")
    if msg:
        note(msg)
    results = []
    total = len(combos) + rows           # building (and checking) every link comes first
    with progress(f"stability ({len(combos)} links, {rows} rows)") as bar:
        links = []
        bar(0, total)
        for c in combos:
            links.append(source.link(c))
            bar(len(links), total)
        for link in links:
            for d in deltas:
                results.append(stability(link, d, dps=args.dps, certify=args.certify))
                bar(len(links) + len(results), total)
    if args.json:
        print_json(NAME, [r.to_json() for r in results])
        return 0
    from nbl_sim.presentation.tables import stability_report

    show(stability_report(results, verbose=args.verbose))
    return 0
