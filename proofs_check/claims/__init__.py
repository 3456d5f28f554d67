"""The paper's claims, one module per part of the paper; importing this package registers them
in :data:`proofs_check.registry.REGISTRY` in the order elicitation, population,
self-concordance, simulation, stability (alphabetical).
"""

from . import (  # noqa: F401  (registers on import)
    elicitation,
    population,
    self_concordance,
    simulation,
    stability,
)

__all__ = ["elicitation", "population", "self_concordance", "simulation", "stability"]
