"""nbl_theory: exact and high-precision theory of Natural Boundary Learning.

Public entry points: :class:`Link` and :func:`make_family` (what a link is),
:func:`nbl_theory.stability.stability` (λ* in three precision tiers),
:func:`find_thresholds` (where λ* changes sign), :func:`self_concordance_report`,
:func:`paper_link` (the paper's named links) and the error types.

The names are resolved on first use (PEP 562 ``__getattr__``): importing a light submodule such
as :mod:`nbl_theory.records` (the JSON convention of the ``nbl`` command) or
:mod:`nbl_theory.errors` does not import sympy, scipy or python-flint, so the command's start-up
pays only for what a subcommand uses.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - for type checkers, readers and the static import walk
    # (nbl_sim.runs.sweep.imported_modules: cache keys cover the modules the names come from)
    from .errors import DivergentIntegralError, NBLInputError
    from .families import make_family
    from .links import Link
    from .paper import PAPER_LINKS, paper_link
    from .self_concordance import self_concordance_report
    from .threshold import find_thresholds

__all__ = [
    "Link",
    "make_family",
    "find_thresholds",
    "self_concordance_report",
    "paper_link",
    "PAPER_LINKS",
    "NBLInputError",
    "DivergentIntegralError",
]

#: public name -> the submodule that defines it
_HOME = {
    "Link": "links",
    "make_family": "families",
    "find_thresholds": "threshold",
    "self_concordance_report": "self_concordance",
    "paper_link": "paper",
    "PAPER_LINKS": "paper",
    "NBLInputError": "errors",
    "DivergentIntegralError": "errors",
}


def __getattr__(name: str):
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value  # resolved once; later look-ups are plain attributes
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
