"""``nbl stability LINK --delta D [--dps N] [--certify] [--json] [--verbose]``: λ*, μ*, m2, κ*
and the local Jacobian spectrum."""

from __future__ import annotations

from nbl_sim.presentation.tables import stability_report

from .display import show
from .options import add_link_args, deltas, links_from_args, one_or_list, print_json

__all__ = ["NAME", "add_parser", "run"]

NAME = "stability"


def add_parser(sub):
    s = sub.add_parser(
        NAME,
        help="lambda*, mu*, m2, kappa* and the local Jacobian spectrum",
        description="Decision stability coefficient lambda* (eq:decision_stability) "
        "and the exact Jacobian spectrum (prop:local_jacobian).",
    )
    add_link_args(s)
    s.add_argument("--delta", required=True, metavar="D",
                   help="arm separation in (0, 2); D1,D2,... allowed")
    s.add_argument("--dps", type=int, default=None, help="mpmath precision in decimal digits")
    s.add_argument("--certify", action="store_true", help="certified Arb enclosures (python-flint)")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.add_argument("--verbose", "-v", action="store_true", help="full breakdown for every row")
    s.set_defaults(func=run)
    return s


def run(args) -> int:
    from nbl_theory.stability import stability

    links = links_from_args(args)
    ds = deltas(args.delta)
    results = [stability(link, d, dps=args.dps, certify=args.certify) for link in links for d in ds]
    if args.json:
        print_json(one_or_list([r.to_json() for r in results]))
        return 0
    show(stability_report(results, verbose=args.verbose))
    return 0
