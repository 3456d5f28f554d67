"""What a figure's ``compute`` returns: the :class:`FigureData` container."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["FigureData"]


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
