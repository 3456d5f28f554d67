"""The look shared by every figure and plot: one color per link and per policy, the links'
display names, and a figure factory that needs no matplotlib backend.

Colors of links are keyed by the canonical keys of :mod:`nbl_theory.paper`, so every spelling
of a link (``we-0.6`` and ``we-0.60``) gets the same color; the paper's regimes are green
(stable), orange (near-critical) and red (unstable), the weighted-entropy links blues and purples
by ρ.
"""

from __future__ import annotations

from matplotlib.figure import Figure

from nbl_theory.errors import NBLInputError
from nbl_theory.paper import PAPER_LINKS, TWO_TRANSITION_KEYS, canonical_key

__all__ = ["LINK_COLORS", "LINK_NAMES", "POLICY_COLORS", "link_color", "policy_color", "new_figure"]

#: One color per link, keyed by :func:`nbl_theory.paper.canonical_key`.
LINK_COLORS = {
    "tt-stable": "#2ca02c",
    "tt-near-critical": "#ff7f0e",
    "tt-unstable": "#d62728",
    "we-0": "#1f77b4",
    "logistic": "#1f77b4",  # ρ = 0 is the logistic link
    "we-0.2": "#17becf",
    "we-0.4": "#9467bd",
    "we-0.60": "#8c564b",
    "we-0.72": "#e377c2",
    "we-0.80": "#7f7f7f",
}
#: One color per policy (matplotlib's first two cycle colors and a grey for the oracle).
POLICY_COLORS = {"nbl": "#1f77b4", "greedy-logistic": "#ff7f0e", "oracle": "0.4"}
#: Legend names of the paper's two-transition links (app:tanh-geometry).
LINK_NAMES = {
    k: rf"$\mu_2={PAPER_LINKS[k].params['mu2']}$ ({PAPER_LINKS[k].regime})"
    for k in TWO_TRANSITION_KEYS
}

_DEFAULT = "0.3"


def link_color(key: str) -> str:
    """The color of the link ``key`` (any spelling :mod:`nbl_theory.paper` accepts); grey for
    links without one."""
    try:
        return LINK_COLORS.get(canonical_key(key), _DEFAULT)
    except NBLInputError:
        return _DEFAULT


def policy_color(name: str) -> str | None:
    """The color of the policy ``name`` (None: matplotlib's next cycle color)."""
    return POLICY_COLORS.get(name)


def new_figure(nrows: int = 1, ncols: int = 1, width: float = 6.4, height: float = 4.0):
    """``(fig, axes)``: a :class:`matplotlib.figure.Figure` (constrained layout; no backend and
    no pyplot involved) and its ``nrows`` × ``ncols`` array of axes."""
    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.subplots(nrows, ncols, squeeze=False)
