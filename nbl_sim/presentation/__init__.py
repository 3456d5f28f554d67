"""Presentation: every figure, plot and text table of the toolkit, in one place.

* :mod:`.style` — one color per link (keyed by :func:`nbl_theory.paper.canonical_key`) and per
  policy, display names, :func:`~.style.new_figure` (a :class:`matplotlib.figure.Figure`; no
  backend is ever selected and pyplot is never imported);
* :mod:`.figures` — the paper's figures and the pictures beyond it, one module per figure;
* :mod:`.reproduce` — figure orchestration: compute the figures' data as sweep cells, cache them,
  draw, write PNG/PDF, CSV, JSON manifests and the gallery;
* :mod:`.plots` — plots of single results (a simulation, a threshold scan, a phase diagram);
* :mod:`.tables` — the text tables the ``nbl`` command prints.

The library (nbl_theory and the rest of nbl_sim) never imports this package: the library
computes, this package shows. Editing a module here never invalidates a cached
simulation cell (:func:`nbl_sim.runs.sweep.source_fingerprint` skips this folder), except that a
figure's own module is part of its data's cache key.

Within nbl_sim it may import: :mod:`nbl_sim.engine`, :mod:`nbl_sim.studies`,
:mod:`nbl_sim.population`, :mod:`nbl_sim.beyond` and :mod:`nbl_sim.runs` — everything it shows;
nothing imports it (tests/test_import_rule.py checks both).
"""

__all__: list[str] = []
