"""Shared pieces of the figures: the data container and the style."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["FigureData", "LINK_COLORS", "LINK_NAMES", "link_color", "new_figure",
           "paper_two_transition_links"]

#: One color per named link, used by every panel (the paper's regimes: green stable, orange
#: near-critical, red unstable; weighted entropy in blues/purples by rho).
LINK_COLORS = {
    "tt-stable": "#2ca02c",
    "tt-near-critical": "#ff7f0e",
    "tt-unstable": "#d62728",
    "we-0": "#1f77b4",
    "we-0.2": "#17becf",
    "we-0.4": "#9467bd",
    "we-0.6": "#8c564b",
    "we-0.60": "#8c564b",
    "we-0.72": "#e377c2",
    "we-0.8": "#7f7f7f",
    "we-0.80": "#7f7f7f",
    "nbl": "#1f77b4",
    "greedy-logistic": "#ff7f0e",
}
LINK_NAMES = {
    "tt-stable": r"$\mu_2=-1.074037$ (stable)",
    "tt-near-critical": r"$\mu_2=2.144072$ (near-critical)",
    "tt-unstable": r"$\mu_2=1.244122$ (unstable)",
}


def link_color(key: str) -> str:
    return LINK_COLORS.get(key, "0.3")


@dataclass
class FigureData:
    """What a figure's ``compute`` returns.

    tables : {name: {column: 1-D array}} — every plotted number; written as CSV files
    settings : JSON-able dict — grids, seeds, replications, tolerances
    summary : one line on what the reproduction shows (computed from the data)
    """

    tables: dict
    settings: dict
    summary: str
    extra: dict = field(default_factory=dict)

    def table(self, name: str) -> dict:
        return {k: np.asarray(v) for k, v in self.tables[name].items()}


def new_figure(nrows: int = 1, ncols: int = 1, width: float = 6.4, height: float = 4.0):
    """A figure with the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots(nrows, ncols, figsize=(width, height), constrained_layout=True,
                        squeeze=False)


def paper_two_transition_links() -> list:
    """[(key, Link)] for the paper's three two-transition links, keys tt-stable,
    tt-near-critical, tt-unstable (nbl_theory.paper)."""
    from nbl_theory.paper import TWO_TRANSITION_KEYS, paper_link

    return [(k, paper_link(k)) for k in TWO_TRANSITION_KEYS]
