"""``nbl phase --family NAME --param P --range LO:HI:N --delta-range LO:HI:N ...``: λ* of a link
family on a (parameter, Δ) grid (:func:`nbl_sim.phase.phase_diagram`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from nbl_sim.presentation.tables import phase_report
from nbl_theory.errors import NBLInputError

from .display import progress, show
from .options import add_exec_args, cache_from_args, grid_arg, print_json

__all__ = ["NAME", "add_parser", "run", "write_phase"]

NAME = "phase"


def add_parser(sub):
    ph = sub.add_parser(
        NAME,
        help="phase diagram: lambda* of a link family on a (parameter, Delta) grid",
        description="Sweep lambda* (eq:decision_stability) of a named family over a grid of "
        "one parameter and Delta, in float64, mpmath (30 digits) or certified (Arb) precision, "
        "locally or on a Dask cluster; finished columns are cached, so an interrupted sweep "
        "resumes.",
    )
    ph.add_argument("--family", required=True, metavar="NAME", help="named link family")
    ph.add_argument("--param", required=True, metavar="NAME", help="the family parameter to sweep")
    ph.add_argument("--range", required=True, metavar="LO:HI:N", help="parameter grid")
    ph.add_argument("--delta-range", required=True, metavar="LO:HI:N", help="Delta grid in (0, 2)")
    ph.add_argument("--fixed", nargs="*", metavar="NAME=VALUE",
                    help="other family parameters (default: the family's defaults)")
    ph.add_argument("--tier", choices=["float", "mpmath", "certified"], default="float",
                    help="precision tier (default float)")
    add_exec_args(ph, ".nbl_cache/sweeps")
    ph.add_argument("--out", default=None, metavar="DIR", help="write phase.csv/.png/.json here")
    ph.add_argument("--json", action="store_true")
    ph.set_defaults(func=run)
    return ph


def _fixed(items) -> dict[str, str]:
    fixed = {}
    for item in items or []:
        if "=" not in item:
            raise NBLInputError(f"--fixed takes NAME=VALUE, got {item!r}")
        k, v = item.split("=", 1)
        fixed[k.strip()] = v.strip()
    return fixed


def write_phase(pd, out_dir) -> list[Path]:
    """``phase.csv`` (one row per grid cell: delta, parameter, λ*, sign), ``phase.png`` and
    ``phase.json`` in ``out_dir``. Returns the paths."""
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
    files = [csv_path, plot_phase(pd, out / "phase.png")]
    (out / "phase.json").write_text(json.dumps(pd.to_json(), indent=2) + "\n")
    return files + [out / "phase.json"]


def run(args) -> int:
    from nbl_sim.phase import grid_values, phase_diagram

    fixed = _fixed(args.fixed)
    values = grid_values(*grid_arg(args.range, "--range"))
    deltas = grid_values(*grid_arg(args.delta_range, "--delta-range"))
    for d in deltas:
        if not 0 < float(d) < 2:
            raise NBLInputError(f"--delta-range must lie in (0, 2); got {d}")
    with progress(f"phase diagram ({len(values)} x {len(deltas)}, {args.tier})") as bar:
        pd = phase_diagram(args.family, args.param, values, deltas, fixed=fixed, tier=args.tier,
                           workers=args.workers, scheduler=args.scheduler,
                           cache=cache_from_args(args, "phase"), progress=bar)
    files = write_phase(pd, args.out) if args.out else []
    if args.json:
        payload = pd.to_json()
        payload["files"] = [str(f) for f in files]
        print_json(payload)
    else:
        show(phase_report(pd))
        for f in files:
            print(f"wrote {f}")
    for f in pd.failures:
        print(f"nbl: failed cell {args.param} = {f.params.value}: {f.error}", file=sys.stderr)
    return 3 if pd.failures else 0
