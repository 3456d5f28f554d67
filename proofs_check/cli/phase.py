"""``nbl phase LINK --param NAME=LO:HI:N --delta LO:HI:N [--tier ...] [--contexts SPEC]
[--arms SPEC] [--out DIR] [--json]``: λ* of any link with a parameter on a (parameter, Δ) grid
(:func:`nbl_sim.studies.phase.phase_diagram`); with ``--contexts``/``--arms`` beyond the paper's
model, the exact local rate and verdict on the grid (:func:`nbl_sim.beyond.exact_phase`).

The swept parameter is the one ``--param`` with several values (a grid or a list); the other
``--param`` values are fixed. The old form ``--family F --param NAME --range LO:HI:N
--delta-range LO:HI:N --fixed K=V`` still works.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from nbl_sim.runs.outputs import replacing, write_text

from . import beyond
from . import options as opt
from .display import progress, show
from .errors import UsageError
from .grammar import GRAMMAR_HELP
from .jsonout import dumps, envelope, print_json
from .limits import MAX_PHASE_POINTS, bound, check_out_dir

__all__ = ["NAME", "add_parser", "run", "write_phase", "json_row"]

NAME = "phase"

HELP = "phase diagram: lambda* of a link on a (parameter, Delta) grid"
DESCRIPTION = (
    "Sweep lambda* (eq:decision_stability) of any link (family, expression or "
    "potential) over a grid of one parameter and Delta, in float64, mpmath "
    "(30 digits) or certified (Arb) precision, locally or on a Dask cluster; "
    "finished columns are cached, so an interrupted sweep resumes."
)

EPILOG = f"""{GRAMMAR_HELP}
  The swept parameter is the --param with several values; the others are fixed.
  Bounds: {MAX_PHASE_POINTS["float"]} grid points (float tier), {MAX_PHASE_POINTS["certified"]}
  (certified), {MAX_PHASE_POINTS["mpmath"]} (mpmath); --allow-large to go past them.
  The old form --param NAME --range LO:HI:N --delta-range LO:HI:N [--fixed K=V] is still
  accepted.

examples:
  nbl phase --family weighted-entropy --param rho=-0.9:0.9:19 --delta 0.05:1.95:20
  nbl phase --link 'sigmoid(a*z)**2' --param a=0.25:3:12 --delta 0.1:1.9:10 --out ph
  nbl phase --family two-transition --param mu2=-2:3:26 --delta 0.2,0.5,1 --tier certified
  nbl phase --family two-transition --param mu2=-1,1.244122 --delta 0.2,1 --contexts cube

  With --contexts/--arms other than the paper's (gaussian, symmetric) every grid point is the
  exact population analysis in d = 2 (float64, nbl_sim.beyond; not the paper's model): the
  exact local rate at v* and the verdict against the Gaussian lambda* (agrees, sign-flip,
  biased). Bound: {MAX_PHASE_POINTS["mpmath"]} grid points (each takes ~0.1-1 s)."""


def add_parser(sub):
    ph = opt.command_parser(sub, NAME, HELP, DESCRIPTION, EPILOG, link=True)
    opt.add_delta_arg(ph, "Delta values in (0, 2): LO:HI:N, a list or one value")
    ph.add_argument("--range", default=None, help=argparse.SUPPRESS)
    ph.add_argument("--delta-range", default=None, help=argparse.SUPPRESS)
    ph.add_argument("--fixed", nargs="*", default=None, help=argparse.SUPPRESS)
    ph.add_argument(
        "--tier",
        choices=["float", "mpmath", "certified"],
        default="float",
        help="precision tier (default float)",
    )
    beyond.add_beyond_args(ph)
    opt.add_exec_args(ph)
    ph.add_argument("--out", default=None, metavar="DIR", help="write phase.csv/.png/.json here")
    return opt.finish_parser(ph, run)


def _old_form(args) -> None:
    """``--param NAME --range LO:HI:N --delta-range LO:HI:N --fixed K=V`` → the new form."""
    bare = [p for p in args.param if "=" not in p]
    if args.range is not None:
        if len(bare) != 1:
            raise UsageError("--range is the old form of --param NAME=LO:HI:N; write that")
        args.param = [p for p in args.param if "=" in p] + [f"{bare[0]}={args.range}"]
    elif bare:
        raise UsageError(f"--param takes NAME=SPEC: write --param {bare[0]}=LO:HI:N")
    if args.delta_range is not None:
        if args.delta is not None:
            raise UsageError("give --delta once (--delta-range is its old name)")
        args.delta = args.delta_range
    args.param = args.param + list(args.fixed or [])


def _swept(specs) -> str:
    multi = [k for k, s in specs.items() if s.n > 1 or s.kind != "value"]
    if len(multi) > 1:
        raise UsageError(
            f"phase sweeps one parameter; {' and '.join(multi)} both have several values"
        )
    if multi:
        return multi[0]
    if len(specs) == 1:
        return next(iter(specs))
    raise UsageError(
        "phase sweeps one parameter: give --param NAME=LO:HI:N (e.g. --param rho=-0.9:0.9:19)"
    )


def json_row(pd, fixed: dict) -> dict:
    """The JSON row of a phase diagram (layout: ``lambda_star[i][j]`` at ``deltas[i]``,
    ``values[j]``)."""
    row = pd.to_json()
    link = row.pop("family")
    return {
        "link": link,
        "param": row.pop("param"),
        "fixed": dict(fixed),
        "axes": {"rows": "delta", "columns": pd.param},
        **row,
    }


def _write_csv(path: Path, grid, columns: dict) -> None:
    """One line per grid cell (delta, the parameter, then ``columns``: name → array indexed
    [delta row, value column]; NaN written empty)."""
    import numpy as np

    def cell(x) -> str:
        if isinstance(x, (float, np.floating)):
            return "" if np.isnan(x) else repr(float(x))
        return str(x)

    with replacing(path) as tmp, tmp.open("w") as fh:
        fh.write(",".join(["delta", grid.param, *columns]) + "\n")
        for i, d in enumerate(grid.deltas):
            for j, v in enumerate(grid.values):
                fh.write(
                    ",".join([str(d), str(v), *(cell(a[i, j]) for a in columns.values())]) + "\n"
                )


def write_phase(
    pd, out_dir, fixed: dict | None = None, run_id: str | None = None, shown_dir=None
) -> list[Path]:
    """``phase.csv`` (one row per grid cell: delta, parameter, λ*, sign), ``phase.png`` and
    ``phase.json`` (the ``--json`` envelope, with ``run_id``) in ``out_dir``; for an exact grid
    beyond the paper (:class:`nbl_sim.beyond.ExactPhase`) ``phase.csv`` (λ*, exact rate,
    verdict, bias) and ``phase.json``. ``shown_dir``: the directory the envelope names the
    files in (default ``out_dir``; the final place when ``out_dir`` is a staging directory).
    Returns the paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    csv_path = out / "phase.csv"
    if hasattr(pd, "exact_rate"):
        _write_csv(
            csv_path,
            pd,
            {
                "lambda_star": pd.lambda_star,
                "exact_rate": pd.exact_rate,
                "verdict": pd.verdict,
                "bias_deg": pd.bias_deg,
            },
        )
        files = [csv_path, out / "phase.json"]
        row = beyond.phase_row(pd, fixed or {})
    else:
        from nbl_sim.presentation.plots import plot_phase

        _write_csv(csv_path, pd, {"lambda_star": pd.lambda_star, "sign": pd.sign})
        files = [csv_path, plot_phase(pd, out / "phase.png"), out / "phase.json"]
        row = json_row(pd, fixed or {})
    shown = [Path(shown_dir) / f.name for f in files] if shown_dir is not None else files
    write_text(files[-1], dumps(envelope(NAME, [row], shown, run_id=run_id)) + "\n")
    return files


def run(args) -> int:
    _old_form(args)
    specs = opt.param_specs(args)
    dspec = opt.delta_spec(args)
    name = _swept(specs)
    swept = specs.pop(name)
    if any(s.n != 1 for s in specs.values()):
        raise UsageError("phase sweeps one parameter; give the others one value each")
    contexts, arms = beyond.beyond_specs(args)
    exact = contexts is not None or arms is not None
    if exact and args.tier != "float":
        raise UsageError(
            "--contexts/--arms run the exact analysis in float64: --tier "
            f"{args.tier} does not apply"
        )
    tier = "mpmath" if exact else args.tier  # the bound of ~1 s grid points
    bound(
        swept.n * dspec.n,
        MAX_PHASE_POINTS[tier],
        f"phase grid points ({swept.n} x {dspec.n}, "
        + ("exact analysis" if exact else f"tier {args.tier}")
        + ")",
        args.allow_large,
    )
    check_out_dir(args.out, "--out", files=("phase.csv", "phase.png", "phase.json"))
    opt.check_exec(args)
    from nbl_theory.validation import validate_delta

    deltas = dspec.values()
    for d in deltas:
        validate_delta(d)
    values = swept.values()
    fixed = {k: s.values()[0] for k, s in specs.items()}
    beyond.context_law(contexts, 2)
    source = opt.link_source(args)
    source.check_names([*fixed, name])
    for end in {values[0], values[-1]}:  # a grid end outside the link's domain
        beyond.arms_check(arms)(source.link({**fixed, name: end}), deltas[0])
    with (
        opt.executing(args) as ex,
        progress(
            f"phase diagram ({len(values)} x {len(deltas)}, {'exact' if exact else args.tier})"
        ) as bar,
    ):
        if exact:
            from nbl_sim.beyond import exact_phase

            # the cells' cache key holds the spec, not the content of a file it names
            # (empirical:FILE, cov=FILE): such a grid is not cached
            spec = (contexts or "").lower()
            names_file = spec.startswith("empirical") or "cov=" in spec
            pd = exact_phase(
                source,
                name,
                values,
                deltas,
                fixed=fixed,
                contexts=contexts or "gaussian",
                arms=arms or "symmetric",
                executor=ex,
                progress=bar,
                cache=None if names_file else opt.cache_from_args(args, "phase-beyond"),
            )
        else:
            from nbl_sim.studies.phase import phase_diagram

            pd = phase_diagram(
                source,
                name,
                values,
                deltas,
                fixed=fixed,
                tier=args.tier,
                executor=ex,
                cache=opt.cache_from_args(args, "phase"),
                progress=bar,
            )
    files, out_fault = [], None
    if args.out:
        files, out_fault = opt.write_out(
            args.out,
            ("phase.json",),
            lambda o: write_phase(pd, o.path, fixed, run_id=o.run_id, shown_dir=args.out),
        )
    if args.json:
        print_json(NAME, [beyond.phase_row(pd, fixed) if exact else json_row(pd, fixed)], files)
    else:
        from nbl_sim.presentation.tables import phase_report

        show(beyond.phase_report(pd) if exact else phase_report(pd))
        for f in files:
            print(f"wrote {f}")
    for f in pd.failures:
        print(f"nbl: failed cell {name} = {f.params.value}: {f.error}", file=sys.stderr)
    return opt.report_out_fault(out_fault) or (3 if pd.failures else 0)
