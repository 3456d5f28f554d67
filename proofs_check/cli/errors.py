"""The command line's own error: bad usage found before the toolkit is imported.

:class:`UsageError` carries a one-line message; :func:`proofs_check.cli.main` prints it as
``nbl: error: ...`` and exits with status 2, exactly like an
:class:`nbl_theory.errors.NBLInputError` raised by the toolkit. It exists so that argparse
errors, the grammar, the size bounds and the output-path checks need not import the toolkit
(sympy, scipy, numba): those refusals take a fraction of a second.
"""

from __future__ import annotations

import difflib

__all__ = ["UsageError", "did_you_mean"]


class UsageError(ValueError):
    """Bad command-line input (one line)."""


def did_you_mean(word: str, choices) -> str:
    """`` (did you mean 'x'?)`` for the choice closest to ``word`` (difflib), else ``""``."""
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
