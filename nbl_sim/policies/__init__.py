"""Bandit policies, one per module, each vectorized across replications.

All policies read the same realization arrays (see :mod:`nbl_sim.environment`): contexts ``X``
(R, n, d), potential rewards ``Y`` (R, n, 2) with column 0 = arm −1 and column 1 = arm +1, and the
common randomized-initialization actions ``coins`` (R, n0). They return actions in {−1, +1}.
"""

from .objects import NBL, GreedyLogistic

__all__ = ["NBL", "GreedyLogistic"]
