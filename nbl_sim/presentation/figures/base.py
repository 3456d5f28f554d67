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

    def to_data(self) -> dict:
        """The fields as one plain-data dict (:mod:`nbl_sim.runs.plain_data`), for the cache."""
        return {
            "tables": self.tables,
            "settings": self.settings,
            "summary": self.summary,
            "extra": self.extra,
        }

    @classmethod
    def from_data(cls, data) -> FigureData:
        """The :class:`FigureData` of :meth:`to_data`'s dict; ``ValueError`` if ``data`` does not
        have that structure (tables a dict of dicts, settings and extra dicts, summary a str)."""
        if type(data) is not dict or set(data) != {"tables", "settings", "summary", "extra"}:
            raise ValueError("not the data of a FigureData")
        tables, settings, summary, extra = (
            data["tables"],
            data["settings"],
            data["summary"],
            data["extra"],
        )
        if (
            type(tables) is not dict
            or any(type(t) is not dict for t in tables.values())
            or type(settings) is not dict
            or type(summary) is not str
            or type(extra) is not dict
        ):
            raise ValueError("a FigureData field has the wrong type")
        return cls(tables, settings, summary, extra)
