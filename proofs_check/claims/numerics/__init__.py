"""Claims of the numerical illustrations (sec:numerics) with app:numerics and its subsections:
the link geometry of the named links (app:link-geometry, app:tanh-geometry,
app:elicitation-geometry; :mod:`.link_geometry`), the construction of the weighted entropy
(:mod:`.weighted_entropy`) and the re-run experiments (app:simulation-setup, app:stochastic-nbl,
app:logistic-comparison; :mod:`.experiments`). Importing the package registers them."""

from . import experiments, link_geometry, weighted_entropy  # noqa: F401  (registers on import)

__all__ = ["experiments", "link_geometry", "weighted_entropy"]
