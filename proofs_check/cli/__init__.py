"""The ``nbl`` command (contract in docs/architecture.md, "proofs_check/cli: the `nbl` command";
``nbl COMMAND --help`` for each subcommand).

::

    nbl stability        LINK --delta SPEC [--dps N] [--certify] [BEYOND] [--json]
    nbl threshold        LINK --solve-for delta|PARAM [--delta SPEC] [--plot FILE] [--json]
    nbl self-concordance LINK [--delta SPEC] [--json]
    nbl simulate         LINK --delta D [--d 2] [--n N] [--reps R] [--n0 N0 | --init-angle DEG]
                         [--policy nbl|greedy-logistic|oracle|both|all] [BEYOND] [EXEC]
                         [--out DIR] [--json]
    nbl phase            LINK --param NAME=LO:HI:N --delta LO:HI:N [--tier ...] [BEYOND]
                         [EXEC] [--out DIR] [--json]
    nbl reproduce        [FIGURE ...] [--quick] [--out DIR] [--list] [EXEC] [--json]
    nbl study            [--quick] [--out DIR] [EXEC] [--json]
    nbl check            [--quick] [--claim ID ...] [--out DIR] [EXEC] [--mutate] [--json]
    nbl proof            LABEL [--paper PATH] [--json] | --list   (the proof-step ledger)
    LINK := --link EXPR_IN_z | --potential EXPR_IN_m [--domain LO,HI] | --family NAME
            [--param NAME=SPEC ...]        (SPEC := V | V1,V2,... | LO:HI:N, see .grammar)
    BEYOND := [--contexts SPEC] [--arms SPEC]   (beyond the paper's model, see .beyond)
    EXEC := [--workers N | --scheduler ADDR] [--cache-dir DIR | --no-cache]

Global options (anywhere on the line): ``--debug`` (tracebacks of internal errors),
``--quiet`` (no progress display).

Exit status: 0 success; 1 an internal failure (one line ``nbl: internal error: ...``; ``--debug``
shows the traceback), and for ``check`` also a claim that FAILed (the report says which); 2 bad
input (one line ``nbl: error: ...`` on stderr, before any work and with nothing written —
argparse errors included, with "did you mean" for misspelt subcommands, options, families,
functions and parameters); 3 finished with some failed cells (``phase``, ``study``: the rest is
reported); 130 interrupted (Ctrl-C, or SIGTERM, which ``main`` turns into
the same KeyboardInterrupt; worker processes are ended by :mod:`nbl_sim.runs.execution`).

One module per subcommand holds its parser (``add_parser``) and its dispatch (``run``);
:mod:`.options` holds the arguments and steps they share, :mod:`.beyond` the context laws and
arms beyond the paper's model, :mod:`.grammar` the one grammar for values,
lists and grids, :mod:`.limits` the size bounds and output-path checks, :mod:`.jsonout` the JSON
convention and :mod:`.display` the output (tables on stdout, progress on stderr). Building the
parser imports nothing of the toolkit, so refusals of the command line itself are fast.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import threading

from ..process_end import end_after_exit_hooks, end_now, exit_status
from . import (
    check,
    phase,
    proof,
    reproduce,
    self_concordance,
    simulate,
    stability,
    study,
    threshold,
)
from .display import set_quiet
from .errors import UsageError, did_you_mean
from .jsonout import version
from .options import cache_warnings, glue_values

__all__ = ["main", "build_parser", "SUBCOMMANDS", "NBLParser"]

#: the subcommand modules, in the order ``nbl --help`` lists them
SUBCOMMANDS = (
    stability,
    threshold,
    self_concordance,
    simulate,
    phase,
    reproduce,
    study,
    check,
    proof,
)
_GLOBAL = ("--debug", "--quiet")


class NBLParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (:class:`UsageError`), with "did you mean"
    for an invalid choice; no prefix abbreviations (``--del`` is not ``--delta``).

    Parameters
    ----------
    *args
        Positional arguments of :class:`argparse.ArgumentParser`.
    **kwargs
        Its keyword arguments (``allow_abbrev`` defaults to False here).
    """

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message):
        """Raise the usage error as one line instead of printing usage and exiting.

        Parameters
        ----------
        message : str
            argparse's message.

        Raises
        ------
        UsageError
            Always: the message, with "did you mean" for an invalid choice.
        """
        raise UsageError(_usage_message(self.prog, message))


def _usage_message(prog: str, message: str) -> str:
    where = prog.split(" ", 1)[1] + ": " if " " in prog else ""
    m = re.search(r"invalid choice: '(.*?)' \(choose from (.*)\)", message)
    if m:
        choices = re.findall(r"'([^']*)'", m.group(2))
        head = message[: m.start()]
        if head.startswith("argument COMMAND"):
            return (
                f"unknown command {m.group(1)!r}{did_you_mean(m.group(1), choices)}; "
                f"commands: {', '.join(choices)}"
            )
        return (
            f"{where}{head}invalid choice {m.group(1)!r}{did_you_mean(m.group(1), choices)}"
            f"; choose from {', '.join(choices)}"
        )
    if not where and "required: COMMAND" in message:
        names = ", ".join(mod.NAME for mod in SUBCOMMANDS)
        return f"give a command: {names} (see nbl --help)"
    return f"{where}{message} (see {prog} --help)"


class _VersionAction(argparse.Action):
    """``--version``: prints ``nbl VERSION`` on stdout and exits 0, as argparse's ``version``
    action does, but reads the version (importlib.metadata) only when asked, not each time the
    parser is built."""

    def __init__(
        self,
        option_strings,
        dest=argparse.SUPPRESS,
        default=argparse.SUPPRESS,
        help="show program's version number and exit",
    ):
        super().__init__(
            option_strings=option_strings, dest=dest, default=default, nargs=0, help=help
        )

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"nbl {version()}")
        parser.exit()


def build_parser() -> NBLParser:
    """The ``nbl`` parser: one subparser per module of :data:`SUBCOMMANDS`.

    Returns
    -------
    NBLParser
        The parser of every subcommand and the global options.
    """
    p = NBLParser(
        prog="nbl",
        description="Natural Boundary Learning toolkit: decision stability of single-index "
        "bandit links (paper: 'Elicitation and Decision Geometry in Single-Index Bandits').",
        epilog="global options may also follow the subcommand. Exit status: 0 ok, 1 internal "
        "error (for check: also some claim FAILed), 2 bad input, 3 some cells failed, 130 "
        "interrupted.",
    )
    p.add_argument("--version", action=_VersionAction)
    p.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    p.add_argument("--quiet", action="store_true", help="no progress display on stderr")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in SUBCOMMANDS:
        module.add_parser(sub)
    return p


def _subparsers(parser) -> dict:
    for action in parser._actions:  # argparse keeps its subparsers here (no public API)
        if isinstance(action.choices, dict):
            return dict(action.choices)
    return {}


def _options(parser) -> dict:
    """option string → nargs of every option of ``parser``."""
    return {s: a.nargs for a in parser._actions for s in a.option_strings}


def _value_options(parser) -> set:
    out = set()
    for sp in _subparsers(parser).values():
        out |= {s for s, nargs in _options(sp).items() if nargs is None}
    return out


def _extras_message(parser, args, argv, extras) -> str:
    tok = extras[0]
    sp = _subparsers(parser).get(getattr(args, "command", None))
    if tok.startswith("-") and sp is not None:
        name = tok.split("=", 1)[0]
        return (
            f"{args.command}: unrecognized option {name!r}"
            f"{did_you_mean(name, list(_options(sp)))} (see nbl {args.command} --help)"
        )
    i = argv.index(tok) if tok in argv else -1
    if i >= 2 and argv[i - 2] == "--param" and "=" not in argv[i - 1]:
        return (
            f"--param takes NAME=SPEC in one word: write --param {argv[i - 1]}={tok}, "
            f"not --param {argv[i - 1]} {tok}"
        )
    return f"{getattr(args, 'command', 'nbl')}: unexpected argument {tok!r}"


def _check_utf8(argv) -> None:
    for i, a in enumerate(argv):
        try:
            a.encode("utf-8")
        except UnicodeEncodeError:
            raise UsageError(f"argument {i + 1} is not valid UTF-8: {os.fsencode(a)!r}") from None


def _input_error(exc) -> bool:
    errors = sys.modules.get("nbl_theory.errors")
    return errors is not None and isinstance(exc, errors.NBLInputError)


def _one_line(exc) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 400 else text[:397] + "..."


def _on_sigterm(signum, frame):
    raise KeyboardInterrupt


def _run(argv: list[str], debug: bool) -> int:
    try:
        _check_utf8(argv)
        parser = build_parser()
        glued = glue_values(argv, _value_options(parser))
        args, extras = parser.parse_known_args(glued)
        if extras:
            raise UsageError(_extras_message(parser, args, glued, extras))
        try:
            return args.func(args)
        finally:
            for line in cache_warnings():  # a cache fault never loses a result (issue 36)
                print(f"nbl: {_one_line(line)}", file=sys.stderr)
    except UsageError as exc:
        print(f"nbl: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nbl: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - e.g. `nbl ... | head`
        sys.stderr.close()
        return 0
    except Exception as exc:  # noqa: BLE001 - every failure ends as one line
        if _input_error(exc):
            print(f"nbl: error: {_one_line(exc)}", file=sys.stderr)
            return 2
        failures = getattr(exc, "failures", None)  # nbl_sim.runs.sweep.SweepError
        if debug:
            import traceback

            traceback.print_exc()
            if failures:
                print(failures[0].traceback, file=sys.stderr)
        if failures:
            print(
                f"nbl: internal error: {len(failures)} cell(s) failed; the first: "
                f"{_one_line(failures[0].error)}"
                + ("" if debug else " (run with --debug for the details)"),
                file=sys.stderr,
            )
            return 1
        print(
            f"nbl: internal error: {type(exc).__name__}: {_one_line(exc)}"
            + ("" if debug else " (run with --debug for the traceback)"),
            file=sys.stderr,
        )
        return 1


def main(argv=None) -> int:
    """Run ``nbl`` with ``argv`` (default: the process's arguments); returns the exit status.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: ``sys.argv[1:]``, and the process is the installed command).

    Returns
    -------
    int
        The exit status: 0 ok, 1 internal error (``check``: also a claim FAILed), 2 bad input,
        3 some cells failed, 130 interrupted.
    """
    as_command = argv is None  # the installed command, not main([...]) in-process
    argv = list(sys.argv[1:] if argv is None else argv)
    debug, quiet = "--debug" in argv, "--quiet" in argv
    argv = [a for a in argv if a not in _GLOBAL]
    for stream in (sys.stdout, sys.stderr):  # never a UnicodeEncodeError while reporting
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError, OSError):
            pass
    if sys.stdout is None:  # started with stdout closed (`nbl ... >&-`)
        if sys.stderr is not None:
            print(
                "nbl: error: standard output is closed; redirect it (e.g. > /dev/null)",
                file=sys.stderr,
            )
        return 2
    set_quiet(quiet)
    # the installed command ends right after its exit hooks, without the interpreter's
    # freeing of every object (~0.4 s after sympy's import; proofs_check.process_end)
    status = end_after_exit_hooks() if as_command else [1]
    main_thread = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGTERM, _on_sigterm) if main_thread else None
    try:
        rc = _run(argv, debug)
    except KeyboardInterrupt:  # a second interrupt while the first one was reported
        rc = 130
    except SystemExit as e:  # argparse's --help and --version end the command this way
        status[0] = exit_status(e.code)
        raise
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, old)
    status[0] = rc
    if rc == 130 and as_command:
        # at once, before the exit hooks: Dask's closes its clusters again and would print
        # tracebacks when a second Ctrl-C reaches it (and end the process by SIGINT, not 130);
        # the workers were ended, or end with this process (nbl_sim.runs.lifeline)
        end_now(rc)
    return rc
