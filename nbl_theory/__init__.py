"""nbl_theory: exact and high-precision theory of Natural Boundary Learning.

Public entry points: :class:`Link` and :func:`make_family` (what a link is),
:func:`nbl_theory.stability.stability` (λ* in three precision tiers),
:func:`find_thresholds` (where λ* changes sign), :func:`self_concordance_report`,
:func:`paper_link` (the paper's named links) and the error types.
"""

from .errors import DivergentIntegralError, NBLInputError
from .families import make_family
from .links import Link
from .paper import PAPER_LINKS, paper_link
from .self_concordance import self_concordance_report
from .threshold import find_thresholds

__all__ = ["Link", "make_family", "find_thresholds", "self_concordance_report", "paper_link",
           "PAPER_LINKS", "NBLInputError", "DivergentIntegralError"]
