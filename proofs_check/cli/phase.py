"""``nbl phase LINK --param NAME=LO:HI:N --delta LO:HI:N [--tier ...] [--out DIR] [--json]``:
λ* of any link with a parameter on a (parameter, Δ) grid (:func:`nbl_sim.phase.phase_diagram`).

The swept parameter is the one ``--param`` with several values (a grid or a list); the other
``--param`` values are fixed. The old form ``--family F --param NAME --range LO:HI:N
--delta-range LO:HI:N --fixed K=V`` still works.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .display import progress, show
from .errors import UsageError
from .grammar import GRAMMAR_HELP
from .jsonout import dumps, envelope, print_json
from .limits import MAX_PHASE_POINTS, bound, check_out_dir
from .options import (
    add_allow_large,
    add_exec_args,
    add_json,
    add_link_args,
    cache_from_args,
    check_exec,
    delta_spec,
    executor,
    link_source,
    param_specs,
)

__all__ = ["NAME", "add_parser", "run", "write_phase", "json_row"]

NAME = "phase"

EPILOG = f"""{GRAMMAR_HELP}
  The swept parameter is the --param with several values; the others are fixed.
  Bounds: {MAX_PHASE_POINTS['float']} grid points (float tier), {MAX_PHASE_POINTS['certified']}
  (certified), {MAX_PHASE_POINTS['mpmath']} (mpmath); --allow-large to go past them.

examples:
  nbl phase --family weighted-entropy --param rho=-0.9:0.9:19 --delta 0.05:1.95:20
  nbl phase --link 'sigmoid(a*z)**2' --param a=0.25:3:12 --delta 0.1:1.9:10 --out ph
  nbl phase --family two-transition --param mu2=-2:3:26 --delta 0.2,0.5,1 --tier certified"""


def add_parser(sub):
    ph = sub.add_parser(
        NAME,
        help="phase diagram: lambda* of a link on a (parameter, Delta) grid",
        description="Sweep lambda* (eq:decision_stability) of any link (family, expression or "
        "potential) over a grid of one parameter and Delta, in float64, mpmath (30 digits) or "
        "certified (Arb) precision, locally or on a Dask cluster; finished columns are "
        "cached, so an interrupted sweep resumes.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_link_args(ph)
    ph.add_argument("--delta", default=None, metavar="SPEC",
                    help="Delta values in (0, 2): LO:HI:N, a list or one value")
    ph.add_argument("--range", default=None, help=argparse.SUPPRESS)
    ph.add_argument("--delta-range", default=None, help=argparse.SUPPRESS)
    ph.add_argument("--fixed", nargs="*", default=None, help=argparse.SUPPRESS)
    ph.add_argument("--tier", choices=["float", "mpmath", "certified"], default="float",
                    help="precision tier (default float)")
    add_exec_args(ph)
    ph.add_argument("--out", default=None, metavar="DIR", help="write phase.csv/.png/.json here")
    add_allow_large(ph)
    add_json(ph)
    ph.set_defaults(func=run)
    return ph


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
        raise UsageError(f"phase sweeps one parameter; {' and '.join(multi)} both have several "
                         "values")
    if multi:
        return multi[0]
    if len(specs) == 1:
        return next(iter(specs))
    raise UsageError("phase sweeps one parameter: give --param NAME=LO:HI:N (e.g. "
                     "--param rho=-0.9:0.9:19)")


def json_row(pd, fixed: dict) -> dict:
    """The JSON row of a phase diagram (layout: ``lambda_star[i][j]`` at ``deltas[i]``,
    ``values[j]``)."""
    row = pd.to_json()
    link = row.pop("family")
    return {"link": link, "param": row.pop("param"), "fixed": dict(fixed),
            "axes": {"rows": "delta", "columns": pd.param}, **row}


def write_phase(pd, out_dir, fixed: dict | None = None) -> list[Path]:
    """``phase.csv`` (one row per grid cell: delta, parameter, λ*, sign), ``phase.png`` and
    ``phase.json`` (the ``--json`` envelope) in ``out_dir``. Returns the paths."""
    import numpy as np

    from nbl_sim.presentation.plots import plot_phase

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    csv_path = out / "phase.csv"
    with csv_path.open("w") as fh:
        fh.write(f"delta,{pd.param},lambda_star,sign\n")
        for i, d in enumerate(pd.deltas):
            for j, v in enumerate(pd.values):
                lam = pd.lambda_star[i, j]
                fh.write(f"{d},{v},{'' if np.isnan(lam) else repr(float(lam))},"
                         f"{pd.sign[i, j]}\n")
    files = [csv_path, plot_phase(pd, out / "phase.png"), out / "phase.json"]
    files[2].write_text(dumps(envelope(NAME, [json_row(pd, fixed or {})], files)) + "\n")
    return files


def run(args) -> int:
    _old_form(args)
    specs = param_specs(args)
    dspec = delta_spec(args)
    name = _swept(specs)
    swept = specs.pop(name)
    if any(s.n != 1 for s in specs.values()):
        raise UsageError("phase sweeps one parameter; give the others one value each")
    bound(swept.n * dspec.n, MAX_PHASE_POINTS[args.tier],
          f"phase grid points ({swept.n} x {dspec.n}, tier {args.tier})", args.allow_large)
    check_out_dir(args.out, "--out")
    check_exec(args)
    from nbl_sim.phase import phase_diagram
    from nbl_theory.validation import validate_delta

    deltas = dspec.values()
    for d in deltas:
        validate_delta(d)
    values = swept.values()
    fixed = {k: s.values()[0] for k, s in specs.items()}
    source = link_source(args)
    source.check_names([*fixed, name])
    for end in {values[0], values[-1]}:           # a grid end outside the link's domain
        source.link({**fixed, name: end})
    ex = executor(args)
    try:
        with progress(f"phase diagram ({len(values)} x {len(deltas)}, {args.tier})") as bar:
            pd = phase_diagram(source, name, values, deltas, fixed=fixed, tier=args.tier,
                               executor=ex, cache=cache_from_args(args, "phase"), progress=bar)
    finally:
        if ex is not None:
            ex.close()
    files = write_phase(pd, args.out, fixed) if args.out else []
    if args.json:
        print_json(NAME, [json_row(pd, fixed)], files)
    else:
        from nbl_sim.presentation.tables import phase_report

        show(phase_report(pd))
        for f in files:
            print(f"wrote {f}")
    for f in pd.failures:
        print(f"nbl: failed cell {name} = {f.params.value}: {f.error}", file=sys.stderr)
    return 3 if pd.failures else 0
