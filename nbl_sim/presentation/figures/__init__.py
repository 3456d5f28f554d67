"""Figures of the paper and beyond (issue: reproduce every figure).

Each figure is a module in this package defining

* ``ID`` (str, the name used by ``nbl reproduce``), ``LABEL`` (the paper's ``\\label`` or
  ``"beyond"``), ``TITLE``, ``CAPTION`` (the paper's caption claim, one sentence);
* ``compute(quick: bool) -> FigureData`` — the numbers, no plotting;
* ``draw(data: FigureData) -> matplotlib.figure.Figure`` — the picture, from the data only.

:mod:`.base` holds :class:`~.base.FigureData`; :mod:`nbl_sim.presentation.style` the shared style
(one color per link across all panels); :mod:`nbl_sim.presentation.reproduce` runs figures,
caches their data and writes the files. A figure's data depend on its own module and on the
library modules it imports, never on the rest of :mod:`nbl_sim.presentation` (the cache key,
:func:`nbl_sim.runs.sweep.source_fingerprint`, relies on this).
"""

from __future__ import annotations

import importlib

__all__ = ["FIGURE_MODULES", "load_figures"]

#: Figure modules in gallery order (a module listed here but not yet written is skipped).
FIGURE_MODULES = (
    "numerical_summary",
    "stochastic_angle",
    "elicitation_geometry",
    "stability_components",
    "tanh_phase",
    "changing_separation",
    "global_field",
    "rates",
    "regret_rate",
    "robustness",
    "bias_angle",
    "repairs",
)


def load_figures() -> dict:
    """{ID: module} for every figure module present, in gallery order."""
    out = {}
    for name in FIGURE_MODULES:
        try:
            mod = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue
            raise
        for fig_id in getattr(mod, "IDS", (mod.ID,)):
            out[fig_id] = mod
    return out
