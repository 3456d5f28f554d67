"""The paper's claims, one module per part of the paper; importing this package registers them
in :data:`proofs_check.registry.REGISTRY` (modules in alphabetical order; the report sorts the
claims by paper section).
"""

from . import (  # noqa: F401  (registers on import)
    elicitation,
    local_dynamics,
    population,
    rate_constants,
    regret_study,
    self_concordance,
    simulation,
    stability,
    stein,
    stochastic,
)

__all__ = ["elicitation", "local_dynamics", "population", "rate_constants", "regret_study",
           "self_concordance", "simulation", "stability", "stein", "stochastic"]
