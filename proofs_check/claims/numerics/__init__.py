"""Claims of the numerical illustrations (sec:numerics) with app:numerics and its subsections:
the link geometry of the named links (app:link-geometry, app:tanh-geometry,
app:elicitation-geometry; :mod:`.link_geometry`), the definition of the two-transition family
(:mod:`.two_transition`), the construction of the weighted entropy
(:mod:`.weighted_entropy`) and the re-run experiments (app:simulation-setup, app:stochastic-nbl,
app:logistic-comparison; :mod:`.experiments`). Importing the package registers them."""

from . import (  # noqa: F401  (registers on import)
    experiments,
    link_geometry,
    two_transition,
    weighted_entropy,
)

__all__ = ["experiments", "link_geometry", "two_transition", "weighted_entropy"]
