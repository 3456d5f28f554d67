"""``nbl stability LINK --delta SPEC [--dps N] [--certify] [--contexts SPEC] [--arms SPEC]
[--json] [--verbose]``: λ*, μ*, m2, κ* and the local Jacobian spectrum, one row per combination
of the ``--param`` and ``--delta`` values; with ``--contexts``/``--arms`` beyond the paper's
model, the exact population analysis of :mod:`nbl_sim.beyond` instead."""

from __future__ import annotations

from . import beyond
from . import options as opt
from .display import note, show
from .errors import UsageError
from .grammar import GRAMMAR_HELP
from .jsonout import print_json
from .limits import MAX_ROWS, check_dps, dps_note

__all__ = ["NAME", "add_parser", "run"]

NAME = "stability"

HELP = "lambda*, mu*, m2, kappa* and the local Jacobian spectrum"
DESCRIPTION = (
    "Decision stability coefficient lambda* (eq:decision_stability) "
    "and the exact Jacobian spectrum (prop:local_jacobian); one row per combination of "
    f"the --param and --delta values (at most {MAX_ROWS} rows without --allow-large)."
)

EPILOG = f"""{GRAMMAR_HELP}

examples:
  nbl stability --family weighted-entropy --param rho=0.72 --delta 0.2 --dps 50
  nbl stability --link 'sigmoid(a*z)**2' --param a=0.5,1,2 --delta 0.2:1.8:5
  nbl stability --family two-transition --param mu2=-1.074037 --delta 0.2 --certify --json
  nbl stability --family logistic --delta 1 --contexts student-t:nu=5
  nbl stability --family logistic --delta 0.2,1 --contexts gaussian:cond=3,angle=90 --arms shift=0.1

  With --contexts/--arms other than the paper's (gaussian, symmetric), each row is the exact
  population analysis in d = 2 (float64, nbl_sim.beyond; not a result of the paper): the exact
  local rate at v* beside the Gaussian lambda*, v*'s fate and where NBL goes instead."""


def add_parser(sub):
    s = opt.command_parser(sub, NAME, HELP, DESCRIPTION, EPILOG, link=True)
    opt.add_delta_arg(s, "arm separation in (0, 2): D, D1,D2,... or LO:HI:N")
    s.add_argument(
        "--dps",
        type=opt.whole,
        default=None,
        help="mpmath precision in decimal digits (a long one says how long it takes)",
    )
    s.add_argument("--certify", action="store_true", help="certified Arb enclosures (python-flint)")
    beyond.add_beyond_args(s)
    s.add_argument("--verbose", "-v", action="store_true", help="full breakdown for every row")
    return opt.finish_parser(s, run)


def run(args) -> int:
    specs = opt.param_specs(args)
    dspec = opt.delta_spec(args)
    opt.check_sizes(
        [*specs.values(), dspec],
        MAX_ROWS,
        "rows (parameter values x delta values)",
        args.allow_large,
    )
    check_dps(args.dps, args.allow_large)
    contexts, arms = beyond.beyond_specs(args)
    exact = contexts is not None or arms is not None
    if exact and (args.dps is not None or args.certify):
        raise UsageError(
            "--contexts/--arms run the exact analysis in float64: --dps and --certify do not apply"
        )
    from nbl_theory.validation import validate_delta

    deltas = dspec.values()
    for d in deltas:  # every input checked before the first row
        validate_delta(d)
    beyond.context_law(contexts, 2)
    source = opt.link_source(args)
    combos = opt.combinations(opt.param_values(source, specs))
    label = opt.rows_label(NAME, combos, deltas)
    if exact:
        from nbl_sim.beyond import exact_stability

        results = opt.each_row(
            source,
            combos,
            deltas,
            label,
            lambda link, d: exact_stability(
                link, d, contexts=contexts or "gaussian", arms=arms or "symmetric"
            ),
            check=beyond.arms_check(arms),
        )
        if args.json:
            print_json(NAME, beyond.stability_rows(results))
        else:
            show(beyond.stability_report(results))
        return 0
    from nbl_theory.stability import stability

    msg = dps_note(args.dps, "per row")
    if msg:
        note(msg)
    results = opt.each_row(
        source,
        combos,
        deltas,
        label,
        lambda link, d: stability(link, d, dps=args.dps, certify=args.certify),
    )
    if args.json:
        print_json(NAME, [r.to_json() for r in results])
        return 0
    from nbl_sim.presentation.tables import stability_report

    show(stability_report(results, verbose=args.verbose))
    return 0
