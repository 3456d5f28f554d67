"""The paper's claims, one module per part of the paper; importing this package registers them
in :data:`proofs_check.registry.REGISTRY` in the order elicitation, stability,
self-concordance, simulation.
"""

from . import elicitation, self_concordance, simulation, stability  # noqa: F401  (registers)

__all__ = ["elicitation", "stability", "self_concordance", "simulation"]
