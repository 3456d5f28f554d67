"""``nbl self-concordance LINK [--delta SPEC] [--json]``: R = sup|g''|/g' and the sufficient
condition of prop:self-concordance-stability, one row per combination of the ``--param`` and
``--delta`` values."""

from __future__ import annotations

from . import options as opt
from .display import show
from .grammar import GRAMMAR_HELP
from .jsonout import print_json
from .limits import MAX_ROWS

__all__ = ["NAME", "add_parser", "run", "json_row"]

NAME = "self-concordance"

HELP = "R = sup|g''|/g' and the sufficient condition"
DESCRIPTION = (
    "Self-concordance constant and prop:self-concordance-stability; one block "
    f"per combination of the --param and --delta values (at most {MAX_ROWS})."
)

EPILOG = f"""{GRAMMAR_HELP}

  margin(Delta) = Delta/2 - phi0(0) (1 - Delta^2/4) R / kappa(R Delta/2); the sufficient
  condition is margin > 0, and lambda* >= 2 mu* margin. Delta_SC is the largest Delta with
  margin <= 0; the exact threshold is the Delta above which lambda* > 0 on a 99-point scan.

examples:
  nbl self-concordance --family logistic --delta 0.2
  nbl self-concordance --family weighted-entropy --param rho=0.6,0.72,0.8
  nbl self-concordance --link 'sigmoid(a*z)**2' --param a=2 --delta 0.5 --json"""


def add_parser(sub):
    c = opt.command_parser(sub, NAME, HELP, DESCRIPTION, EPILOG, link=True)
    opt.add_delta_arg(c, "arm separation in (0, 2): D, D1,D2,... or LO:HI:N (optional)")
    return opt.finish_parser(c, run)


def json_row(rep, delta_text) -> dict:
    """The JSON row of one report: float64 quantities as numbers (see the schema)."""
    from nbl_sim.presentation.tables import exact_threshold_text

    c = rep.constant
    value, meaning = exact_threshold_text(rep)
    exact = value not in ("none", "-")
    return {
        "link": rep.link,
        "delta": delta_text,
        "R": c.R,
        "R_attained": c.attained,
        "R_where": c.where,
        "R_closed_form": None if c.closed_form is None else str(c.closed_form),
        "kappa": rep.kappa,
        "mu_star": rep.mu_star,
        "lambda_star": rep.lambda_star,
        "margin": rep.margin,
        "lower_bound": rep.lower_bound,
        "sufficient_condition_holds": rep.sufficient_condition_holds,
        "bound_consistent": rep.bound_consistent,
        "delta_sc": rep.delta_sc,
        "delta_sc_roots": list(rep.delta_sc_roots),
        "exact_threshold_delta": rep.exact_threshold_delta if exact else None,
        "exact_threshold": meaning,
        "delta_sc_minus_exact": rep.conservativeness if exact else None,
        "notes": list(c.notes) + list(rep.notes),
    }


def run(args) -> int:
    specs = opt.param_specs(args)
    dspec = opt.delta_spec(args, required=False)
    opt.check_sizes(
        [*specs.values(), dspec],
        MAX_ROWS,
        "rows (parameter values x delta values)",
        args.allow_large,
    )
    from nbl_theory.self_concordance import self_concordance_report
    from nbl_theory.validation import validate_delta

    deltas = dspec.values() if dspec is not None else [None]
    for d in deltas:
        if d is not None:
            validate_delta(d)
    source = opt.link_source(args)
    combos = opt.combinations(opt.param_values(source, specs))
    reports = opt.each_row(
        source, combos, deltas, opt.rows_label(NAME, combos, deltas), self_concordance_report
    )
    if args.json:
        texts = [d for _ in combos for d in deltas]
        print_json(NAME, [json_row(r, d) for r, d in zip(reports, texts)])
        return 0
    from nbl_sim.presentation.tables import concordance_report

    show(concordance_report(reports))
    return 0
