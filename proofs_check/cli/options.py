"""Arguments several subcommands share and the steps every subcommand takes with them.

* the link (``--link | --potential [--domain] | --family``) and its parameters ``--param``
  (:mod:`.grammar`): :func:`link_source`, :func:`param_values`, :func:`combinations`;
* execution (``--scheduler``, ``--workers``, ``--cache-dir``, ``--no-cache``): checked up front
  by :func:`check_exec` (bounds, address syntax, a reachable scheduler), used by
  :func:`executor`, :func:`cache_from_args`;
* ``--allow-large`` (:mod:`.limits`), ``--json`` (:mod:`.jsonout`);
* the shape every subcommand's parser shares (:func:`command_parser`, :func:`finish_parser`)
  and the run steps several share: :func:`executing` (the executor, closed at the end),
  :func:`each_row` (build every link, check every row, then compute the rows with progress);
* argument types that give one-line errors, and :func:`glue_values`, which lets values start
  with ``-`` (``--delta -0.5``, ``--potential -log(m)``, ``--param`` never needs it).

Nothing here imports the toolkit at module level: the parser and the checks before any work
stay fast.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from contextlib import contextmanager

from .errors import UsageError, did_you_mean
from .grammar import parse_params, parse_spec
from .limits import MAX_VALUES, bound, check_out_dir

__all__ = [
    "add_link_args",
    "add_exec_args",
    "add_allow_large",
    "add_json",
    "link_source",
    "param_specs",
    "param_values",
    "combinations",
    "delta_spec",
    "check_sizes",
    "check_exec",
    "executor",
    "executing",
    "cache_from_args",
    "cache_warnings",
    "write_out",
    "whole",
    "seed",
    "real",
    "glue_values",
    "command_parser",
    "add_delta_arg",
    "finish_parser",
    "each_row",
]


# ---------------------------------------------------------------------- argument types
def _digit_text(text, signs: str) -> str | None:
    """``text`` without spaces and ``_`` if it is ASCII digits after any of ``signs``, else
    None (the check of :func:`whole` and :func:`seed`)."""
    t = str(text).strip().replace("_", "")
    digits = t.lstrip(signs)
    return t if digits.isascii() and digits.isdigit() else None


def whole(text: str) -> int:
    """An integer option (one-line error)."""
    t = _digit_text(text, "+-")
    if t is None:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
    if len(t.lstrip("+-")) > 18:
        raise argparse.ArgumentTypeError(f"{text!r} is too large (at most 18 digits)")
    return int(t)


SEED_MAX = 2**64 - 1


def seed(text: str) -> int:
    """A seed option: a whole number from 0 to 2**64 - 1 (one-line error)."""
    t = _digit_text(text, "+")
    if t is None or len(t.lstrip("+")) > len(str(SEED_MAX)) or int(t) > SEED_MAX:
        raise argparse.ArgumentTypeError(
            f"a seed is a whole number from 0 to 2**64 - 1, got {text!r}"
        )
    return int(t)


def real(text: str) -> float:
    """A finite real option (one-line error); ASCII digits only, as every number of nbl."""
    if not str(text).isascii():
        raise argparse.ArgumentTypeError(f"numbers are written with ASCII digits 0-9, got {text!r}")
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if v != v or v in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
    return v


class _LazyText(str):
    """Help text computed when help is shown (argparse formats help with ``%``), so building
    the parser does not import the toolkit."""

    def __new__(cls, make):
        obj = super().__new__(cls, "(computed when shown)")
        obj._make = make
        return obj

    def __mod__(self, params):
        return self._make() % params


def _family_help() -> str:
    from nbl_theory.family_names import FAMILY_NAMES  # not .families: no sympy for --help

    return "a named family: " + ", ".join(sorted(FAMILY_NAMES))


# ---------------------------------------------------------------------- parsers
def command_parser(
    sub, name: str, help: str, description: str, epilog: str | None = None, link: bool = False
) -> argparse.ArgumentParser:
    """The subparser ``name`` (an ``epilog`` keeps its line breaks), with the link arguments
    (:func:`add_link_args`) first when ``link``."""
    extra = (
        {"epilog": epilog, "formatter_class": argparse.RawDescriptionHelpFormatter}
        if epilog
        else {}
    )
    p = sub.add_parser(name, help=help, description=description, **extra)
    if link:
        add_link_args(p)
    return p


def add_delta_arg(p: argparse.ArgumentParser, help: str) -> None:
    """``--delta SPEC`` (Δ values in the grammar of :mod:`.grammar`; read by
    :func:`delta_spec`)."""
    p.add_argument("--delta", default=None, metavar="SPEC", help=help)


def finish_parser(p: argparse.ArgumentParser, run) -> argparse.ArgumentParser:
    """The arguments every subcommand ends with (``--allow-large``, ``--json``) and its
    dispatch ``run``; returns ``p``."""
    add_allow_large(p)
    add_json(p)
    p.set_defaults(func=run)
    return p


# ---------------------------------------------------------------------- the link
def add_link_args(p: argparse.ArgumentParser, required: bool = True) -> None:
    """``--link | --potential [--domain] | --family``, ``--param NAME=SPEC``."""
    g = p.add_argument_group("link (exactly one of --link, --potential, --family)")
    g.add_argument(
        "--link",
        metavar="EXPR",
        help="link g as an expression in z, e.g. 'tanh(z)' or 'sigmoid(a*z)**2' "
        "(free names other than z are parameters: give them with --param)",
    )
    g.add_argument(
        "--potential",
        metavar="EXPR",
        help="strictly convex potential phi as an expression in m; g = (phi')^-1",
    )
    g.add_argument(
        "--domain",
        metavar="LO,HI",
        default=None,
        help="domain of the potential (default 0,1); inf/-inf for unbounded ends",
    )
    g.add_argument("--family", metavar="NAME", help=_LazyText(_family_help))
    g.add_argument(
        "--param",
        metavar="NAME=SPEC",
        action="append",
        default=[],
        help="a parameter of the link: one value, a list V1,V2 or a grid LO:HI:N "
        "(repeatable; see below)",
    )


def link_source(args):
    """The :class:`~nbl_theory.link_source.LinkSource` the link arguments name."""
    chosen = [x for x in (args.link, args.potential, args.family) if x is not None]
    if len(chosen) != 1:
        raise UsageError("give exactly one of --link EXPR, --potential EXPR, --family NAME")
    if args.domain is not None and args.potential is None:
        raise UsageError("--domain only applies to --potential")
    from nbl_theory.families import FAMILIES
    from nbl_theory.link_source import LinkSource

    if args.link is not None:
        _refuse_bare_name(args.link.strip(), FAMILIES)
        return LinkSource.expression(args.link)
    if args.potential is not None:
        return LinkSource.potential(args.potential, args.domain)
    return LinkSource.family(args.family)


def float_link(args, specs: dict):
    """The family's :class:`~nbl_theory.float_families.FloatFamilyLink` when the link arguments
    name a family of :data:`~nbl_theory.float_families.FLOAT_FAMILIES`, without ``--param`` or
    with one it takes (:data:`~nbl_theory.float_families.FLOAT_PARAMS`, one value): its g
    without sympy, the same bits as its Link; None otherwise (build the link from
    :func:`link_source`, which also gives every error)."""
    if args.link is not None or args.potential is not None or args.domain is not None:
        return None
    if args.family is None or any(s.n != 1 for s in specs.values()):
        return None
    from nbl_theory.float_families import float_family_link

    return float_family_link(args.family, {k: s.values()[0] for k, s in specs.items()})


#: links known by a name that is not a family of nbl: the expression to write instead
LINK_NAMES = {
    "cloglog": "1-exp(-exp(z))",
    "loglog": "exp(-exp(-z))",
    "cauchit": "1/2+atan(z)/pi",
    "sigmoid": "sigmoid(z)",
    "logit": "sigmoid(z)",
    "tanh": "tanh(z)",
    "erf": "erf(z)",
    "Phi": "Phi(z)",
    "arctan": "arctan(z)",
    "atan": "atan(z)",
    "linear": "z",
}


def _refuse_bare_name(text: str, families) -> None:
    """A --link that is one name other than z — a family, a link known by name, a typo — is
    refused with what to write instead (as an expression it would be a constant parameter)."""
    if not text.isidentifier() or text == "z":
        return
    if text in families:
        raise UsageError(
            f"--link takes an expression in z; {text!r} is a named family: write --family {text}"
        )
    if text in LINK_NAMES:
        raise UsageError(
            f"--link takes an expression in z; for the {text} link write "
            f"--link '{LINK_NAMES[text]}'"
        )
    near = did_you_mean(text, families)
    hint = (
        f"a named family{near}: --family NAME"
        if near
        else "a named family: --family NAME (" + ", ".join(sorted(families)) + ")"
    )
    raise UsageError(
        f"--link takes an expression in z, not the name {text!r}: write the link, "
        f"e.g. --link '1-exp(-exp(z))' (cloglog), or {hint}"
    )


def param_specs(args, default_n: int | None = None) -> dict:
    """``--param`` items parsed (no numbers read yet): name → :class:`~.grammar.Spec`."""
    specs = parse_params(args.param, "--param", default_n)
    for s in specs.values():
        bound(s.n, MAX_VALUES, f"{s.option}: number of values", args.allow_large)
    return specs


def delta_spec(args, required: bool = True, default_n: int | None = None):
    """``--delta`` parsed (None when absent and not required)."""
    if args.delta is None:
        if required:
            raise UsageError("--delta is required")
        return None
    spec = parse_spec(args.delta, "--delta", default_n)
    bound(spec.n, MAX_VALUES, "--delta: number of values", args.allow_large)
    return spec


def check_sizes(specs, limit: int, what: str, allow_large: bool) -> int:
    """The number of combinations of ``specs`` (a list of Specs/None), bounded by ``limit``."""
    count = 1
    for s in specs:
        if s is not None:
            count *= s.n
    bound(count, limit, what, allow_large)
    return count


def param_values(source, specs: dict) -> dict[str, list[str]]:
    """Every ``--param`` read exactly (name → decimal strings), names checked against the
    source (unknown names refused with the closest one; expression parameters without a value
    refused)."""
    source.check_names(list(specs))
    return {k: s.values() for k, s in specs.items()}


def combinations(values: dict[str, list[str]]) -> list[dict[str, str]]:
    """One dict per combination of the value lists (their product, in order)."""
    keys = list(values)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(values[k] for k in keys))]


# ---------------------------------------------------------------------- execution
def add_allow_large(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--allow-large",
        action="store_true",
        help="go past the size bounds (grid points, rows, workers, memory, digits)",
    )


def add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--json",
        action="store_true",
        help="machine-readable output (the JSON convention of nbl; schema in "
        "proofs_check/cli/schemas)",
    )


def add_exec_args(p: argparse.ArgumentParser, workers_help: str | None = None) -> None:
    """``--scheduler``, ``--workers``, ``--cache-dir``, ``--no-cache``."""
    p.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDR",
        help="run on a Dask cluster: tcp://HOST:PORT (loopback only, e.g. an SSH "
        "tunnel) or tls://HOST:PORT of a running scheduler, or local:N for a "
        "local cluster of N workers (default: $NBL_DASK_SCHEDULER, else local "
        "processes). Connecting to a scheduler trusts it and everyone who can "
        "reach its port to run any code in nbl (docs/security.md)",
    )
    p.add_argument(
        "--allow-tcp-scheduler",
        action="store_true",
        help="accept a plain tcp:// scheduler that is not on the loopback "
        "interface (unencrypted, unauthenticated; prefer tls:// or a tunnel)",
    )
    p.add_argument(
        "--workers",
        type=whole,
        default=None,
        metavar="N",
        help=workers_help
        or "local process pool of N workers (default: all cores "
        "when the work is large; 1 = in-process)",
    )
    p.add_argument(
        "--cache-dir",
        default=None,
        metavar="DIR",
        help="finished chunks are cached here, so an interrupted run resumes "
        "(default: the toolkit's cache directory)",
    )
    p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")


def check_exec(args) -> None:
    """``--workers``/``--scheduler`` (or ``$NBL_DASK_SCHEDULER``) and ``--cache-dir``, checked
    before any work: bounds (:data:`nbl_sim.runs.execution.MAX_WORKERS`), address syntax, a
    reachable scheduler, a writable cache directory."""
    workers = getattr(args, "workers", None)
    scheduler = getattr(args, "scheduler", None)
    if workers is not None and scheduler:
        raise UsageError("give either --scheduler or --workers, not both")
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be a positive integer, got {workers}")
    if not getattr(args, "no_cache", False):
        cache_dir = getattr(args, "cache_dir", None)
        if cache_dir is not None and str(cache_dir).startswith("~"):
            try:
                args.cache_dir = cache_dir = os.path.expanduser(cache_dir)
            except RuntimeError:
                pass
            if cache_dir.startswith("~") and cache_dir.split("/")[0] != "~":
                raise UsageError(
                    f"--cache-dir {cache_dir}: no such user {cache_dir.split('/')[0][1:]!r}"
                )
        check_out_dir(cache_dir, "--cache-dir")
    from nbl_sim.runs.execution import (
        check_workers,
        parse_scheduler,
        probe_scheduler,
        scheduler_from_env,
    )

    if workers is not None:
        check_workers(workers, "--workers", args.allow_large)
        return
    scheduler = scheduler or scheduler_from_env()
    if scheduler:
        kind, value = parse_scheduler(
            scheduler, args.allow_large, getattr(args, "allow_tcp_scheduler", False)
        )
        if getattr(args, "allow_tcp_scheduler", False):
            from nbl_sim.runs.execution import ALLOW_TCP_ENV

            os.environ[ALLOW_TCP_ENV] = "1"  # the executor made later parses it again
        if kind == "remote":
            probe_scheduler(value)  # NBLInputError: one line, exit 2


def executor(args):
    """The executor the user asked for (None: let the library choose for the work)."""
    workers, scheduler = getattr(args, "workers", None), getattr(args, "scheduler", None)
    if workers is None and not scheduler:
        from nbl_sim.runs.execution import scheduler_from_env

        scheduler = scheduler_from_env()
        if scheduler is None:
            return None
    from nbl_sim.runs.execution import make_executor

    return make_executor(workers, scheduler=scheduler, allow_large=args.allow_large)


@contextmanager
def executing(args):
    """``with executing(args) as ex:`` the executor of :func:`executor` (None: the library
    chooses), closed when the block ends — also on an error or an interrupt."""
    ex = executor(args)
    try:
        yield ex
    finally:
        if ex is not None:
            ex.close()


def count(n: int, noun: str) -> str:
    """``"1 row"``, ``"39 rows"``: a number with its noun in the right number."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def rows_label(command: str, combos, deltas) -> str:
    """The progress label of :func:`each_row`: ``"stability (1 link, 1 row)"``."""
    return f"{command} ({count(len(combos), 'link')}, {count(len(combos) * len(deltas), 'row')})"


def each_row(source, combos, deltas, label: str, compute, check=None) -> list:
    """``compute(link, delta)`` for every link of ``source`` (one per parameter combination of
    ``combos``) and every Δ of ``deltas``, in that order, with a progress display: every link
    is built (and ``check(link, delta)``, if given, run on every row) before the first row is
    computed, so bad input is refused before any work."""
    from .display import progress

    total = len(combos) * len(deltas)  # the counter counts rows, and only rows
    out: list = []
    with progress(label) as bar:
        bar(0, total)
        links = [source.link(c) for c in combos]
        if check is not None:
            for link in links:
                for d in deltas:
                    check(link, d)
        for link in links:
            for d in deltas:
                out.append(compute(link, d))
                bar(len(out), total)
    return out


def cache_from_args(args, namespace: str):
    """The :class:`~nbl_sim.runs.sweep.ChunkCache` the execution options ask for (None: no cache).
    A write fault of the cache is reported once, as a warning, when the command ends
    (:func:`cache_warnings`); the results are printed and written all the same."""
    if args.no_cache:
        return None
    from nbl_sim.runs.sweep import ChunkCache

    if args.cache_dir is None:
        return ChunkCache(namespace=namespace)
    return ChunkCache(args.cache_dir, namespace)


def write_out(out, index: tuple, write) -> tuple[list, str | None]:
    """Write a run's ``--out`` files as a set (:func:`nbl_sim.runs.outputs.output_set`):
    ``write(o)`` writes them into ``o.path``. Returns ``(files, None)``, or ``([], message)``
    when the file system failed (full, read-only): the caller prints its result all the same
    and then the message as one error line (exit 1) — an output fault never loses a result."""
    from nbl_sim.runs.outputs import output_set

    try:
        with output_set(out, index=index) as o:
            write(o)
        return o.files, None
    except OSError as exc:
        why = exc.strerror or str(exc)
        return [], (
            f"cannot write --out {out}: {why}; the result above is complete and "
            f"{out} was left as it was"
        )


def report_out_fault(message: str | None) -> int:
    """The exit status of a command after :func:`write_out`: 0 when the files were written,
    else 1 after printing ``message`` as one error line (the result was printed before)."""
    if message is None:
        return 0
    print(f"nbl: error: {message}", file=sys.stderr)
    return 1


def cache_warnings() -> list[str]:
    """One line per distinct cache write fault of this process
    (:func:`nbl_sim.runs.cache.take_write_faults`; nothing if the cache was never loaded)."""
    cache = sys.modules.get("nbl_sim.runs.cache")
    faults = cache.take_write_faults() if cache is not None else []
    return [f"warning: results were not cached: cannot write the cache: {f}" for f in faults]


# ---------------------------------------------------------------------- argv
def glue_values(argv: list[str], value_options) -> list[str]:
    """Write ``--opt -value`` as ``--opt=-value`` for options that take one value, so argparse
    does not take a value starting with ``-`` for an option (``--delta -0.5``,
    ``--potential -log(m)``, ``--range -0.9:0.9:19``); ``--bracket LO HI`` (the old threshold
    form) becomes ``--bracket=LO:HI``."""
    out, i = [], 0
    while i < len(argv):
        tok = argv[i]
        if tok == "--":
            out += argv[i:]
            break
        if tok == "--bracket" and i + 2 < len(argv):
            out.append(f"--bracket={argv[i + 1]}:{argv[i + 2]}")
            i += 3
            continue
        if (
            tok in value_options
            and i + 1 < len(argv)
            and argv[i + 1].startswith("-")
            and argv[i + 1] not in value_options
            and not argv[i + 1].startswith("--")
            and argv[i + 1] not in ("-h", "-v")
        ):
            out.append(f"{tok}={argv[i + 1]}")
            i += 2
            continue
        out.append(tok)
        i += 1
    return out
