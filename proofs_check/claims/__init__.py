"""The paper's claims, one module per part of the paper; importing this package registers them
in :data:`proofs_check.registry.REGISTRY` in the order elicitation, stability, self-concordance.
"""

from . import elicitation, self_concordance, stability  # noqa: F401  (registers on import)

__all__ = ["elicitation", "stability", "self_concordance"]
