"""The library-mutation options of the command line (``nbl check --mutate --library`` and
``python -m proofs_check.mutation --library``), apart from the run itself so that building the
``nbl`` parser imports nothing of the harness."""

from __future__ import annotations

import argparse

__all__ = ["add_arguments"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The library-mutation options (shared by ``nbl check --mutate --library``)."""
    p.add_argument(
        "--sample",
        type=int,
        default=60,
        metavar="N",
        help="mutants in the stratified sample (default 60)",
    )
    p.add_argument("--seed", type=int, default=0, help="the sample's seed (default 0)")
    p.add_argument(
        "--full",
        action="store_true",
        help="run every claim, slow ones too (default: the quick claims)",
    )
    p.add_argument(
        "--no-tests",
        action="store_true",
        help="judge by the registry only (do not map or run the library's tests)",
    )
    p.add_argument(
        "--budget",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="seconds of claims per mutant, cheapest claims first (default 120; "
        "three budgets for a mutant that recompiles the numba kernels)",
    )
    p.add_argument("--json-out", default=None, metavar="FILE", help="write the JSON envelope here")
    p.add_argument(
        "--markdown",
        default=None,
        metavar="FILE",
        help="write the markdown report here (e.g. docs/mutation-runs/NAME.md)",
    )
    p.add_argument(
        "--stop-after",
        type=float,
        default=None,
        metavar="MINUTES",
        help="wait for no further mutant after this many minutes; the report lists "
        "the sampled mutants not run (0: run nothing, report the outcomes kept "
        "from earlier runs)",
    )
    p.add_argument(
        "--run-triaged",
        action="store_true",
        help="also run the mutants the triage lists as known survivors (default: report "
        "each with its triage, not run, counted as not killed)",
    )
    p.add_argument(
        "--fresh",
        action="store_true",
        help="run every mutant again (ignore the outcomes kept from earlier runs; this "
        "run's are still kept, so a run without --fresh resumes it)",
    )
    p.add_argument(
        "--from-json",
        default=None,
        metavar="FILE",
        help="summarize again the mutants of an earlier run's JSON envelope (no mutant "
        "runs): its totals and report with this version's rates",
    )
    p.add_argument(
        "--again",
        default=None,
        metavar="FILE",
        help="run only the mutants of an earlier run's JSON envelope (same --sample and "
        "--seed) that the registry did not kill: those killed by tests only, survived or "
        "timed out",
    )
    p.add_argument(
        "--sample-from",
        default=None,
        metavar="FILE",
        help="run the mutants of an earlier run's JSON envelope instead of a stratified sample, "
        "found among today's by what they change (the same sample when lines above them move)",
    )
    p.add_argument(
        "--library-module",
        action="append",
        default=None,
        metavar="MODULE",
        help="only this target module (e.g. nbl_theory.results; repeatable)",
    )
