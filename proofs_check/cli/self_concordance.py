"""``nbl self-concordance LINK [--delta D] [--json]``: R = sup|g''|/g' and the sufficient
condition of prop:self-concordance-stability."""

from __future__ import annotations

from .options import add_link_args, deltas, links_from_args, one_or_list, print_json

__all__ = ["NAME", "add_parser", "run"]

NAME = "self-concordance"


def add_parser(sub):
    c = sub.add_parser(
        NAME,
        help="R = sup|g''|/g' and the sufficient condition",
        description="Self-concordance constant and prop:self-concordance-stability.",
    )
    add_link_args(c)
    c.add_argument("--delta", default=None, metavar="D", help="arm separation in (0, 2)")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=run)
    return c


def run(args) -> int:
    from nbl_theory.self_concordance import self_concordance_report

    links = links_from_args(args)
    ds = deltas(args.delta) if args.delta is not None else [None]
    reports = [self_concordance_report(link, d) for link in links for d in ds]
    if args.json:
        print_json(one_or_list([r.to_json() for r in reports]))
        return 0
    # the table is the theory layer's own (nbl_theory.self_concordance), printed as it is
    print("\n\n".join(r.format_table() for r in reports))
    return 0
