"""The ``nbl`` parser as the CLI reference page renders it (``docs/cli.rst``).

sphinx-argparse reads descriptions, epilogs and option help as reStructuredText, while the
parser writes them for a terminal, where ``|v_n - v*|`` is a norm, not a substitution
reference. :func:`parser` returns :func:`proofs_check.cli.build_parser` with every bar of
those texts escaped; nothing else changes, so the page stays the parser's own text.
"""

from __future__ import annotations

import argparse

from proofs_check.cli import build_parser

__all__ = ["parser"]


def _escape(text):
    return text.replace("|", "\\|") if isinstance(text, str) else text


def _walk(p: argparse.ArgumentParser) -> None:
    # argparse has no public API to list a parser's actions; sphinx-argparse reads the same
    # attributes (``_actions``, and ``_choices_actions`` for the subcommands' one-line help).
    p.description = _escape(p.description)
    p.epilog = _escape(p.epilog)
    for action in p._actions:
        action.help = _escape(action.help)
        subs = action.choices if isinstance(action.choices, dict) else {}
        for choice in getattr(action, "_choices_actions", ()):
            choice.help = _escape(choice.help)
        for sub in subs.values():
            if isinstance(sub, argparse.ArgumentParser):
                _walk(sub)


def parser() -> argparse.ArgumentParser:
    """The ``nbl`` parser with reStructuredText-safe texts."""
    p = build_parser()
    _walk(p)
    return p
