"""The ``nbl`` command (contract in DESIGN.md).

::

    nbl stability        LINK --delta D [--dps N] [--certify] [--json]
    nbl threshold        LINK --solve-for delta|PARAM [--delta D] [--bracket LO HI] [--json]
    nbl self-concordance LINK [--delta D] [--json]
    nbl simulate         LINK --delta D [--d 2] [--n N] [--reps R] [--n0 N0 | --init-angle DEG]
                         [--gamma G] [--t0 T0] [--policy nbl|greedy-logistic|oracle|both|all]
                         [--seed S] [--out DIR] [--json]
    nbl reproduce        [FIGURE ...] [--quick] [--out DIR] [--no-cache] [--list]
    nbl phase            --family NAME --param P --range LO:HI:N --delta-range LO:HI:N [...]
    nbl study            [--quick] [--out DIR] [--json]
    nbl check            [--quick] [--out DIR]
    LINK := --link EXPR_IN_z | --potential EXPR_IN_m [--domain LO,HI]
          | --family NAME [--param k=v ...]

One module per subcommand holds its parser (``add_parser``) and its dispatch (``run``);
:mod:`.options` holds the arguments they share and :mod:`.display` the output (tables on stdout,
progress on stderr). Bad input prints one line ``nbl: error: ...`` on stderr and exits with
status 2; nothing else happens. Comma-separated values in ``--param k=v1,v2`` and
``--delta D1,D2`` give one row per combination.
"""

from __future__ import annotations

import argparse
import sys

from nbl_theory.errors import NBLInputError

from . import check, phase, reproduce, self_concordance, simulate, stability, study, threshold
from .options import glue_values

__all__ = ["main", "build_parser", "SUBCOMMANDS"]

#: the subcommand modules, in the order ``nbl --help`` lists them
SUBCOMMANDS = (stability, threshold, self_concordance, simulate, reproduce, phase, study, check)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("nbl")
    except PackageNotFoundError:  # pragma: no cover - a source tree without metadata
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    """The ``nbl`` parser: one subparser per module of :data:`SUBCOMMANDS`."""
    p = argparse.ArgumentParser(
        prog="nbl",
        description="Natural Boundary Learning toolkit: decision stability of single-index "
        "bandit links (paper: 'Elicitation and Decision Geometry in Single-Index Bandits').",
    )
    p.add_argument("--version", action="version", version=f"nbl {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in SUBCOMMANDS:
        module.add_parser(sub)
    return p


def main(argv=None) -> int:
    """Run ``nbl`` with ``argv`` (default: the process's arguments); returns the exit status."""
    from nbl_sim.sweep import SweepError

    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(glue_values(argv))
    try:
        return args.func(args)
    except NBLInputError as exc:
        print(f"nbl: error: {exc}", file=sys.stderr)
        return 2
    except SweepError as exc:
        print(f"nbl: {exc}", file=sys.stderr)
        return 3
    except BrokenPipeError:  # pragma: no cover - e.g. `nbl ... | head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:  # pragma: no cover - interactive
        print("nbl: interrupted", file=sys.stderr)
        return 130
