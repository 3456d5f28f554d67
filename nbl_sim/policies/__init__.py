"""The bandit policies users hold, and what is built on NBL's run.

Every policy reads the same realization arrays (see :mod:`nbl_sim.engine.environment`):
contexts ``X`` (R, n, d), potential rewards ``Y`` (R, n, 2) with column 0 = arm −1 and column
1 = arm +1, and the common randomized-initialization actions ``coins`` (R, n0). They return
actions in {−1, +1}. The runs themselves — NBL's and Greedy Logistic's kernels, the oracle —
are the engine's (:mod:`nbl_sim.engine`: :mod:`~nbl_sim.engine.nbl_kernel`,
:mod:`~nbl_sim.engine.greedy_kernel`, :func:`nbl_sim.engine.oracle`), and so is the sphere
geometry of the NBL update (:mod:`nbl_sim.engine.geometry`).

What it holds
-------------
* :mod:`.objects` — :class:`NBL` and :class:`GreedyLogistic`, the policy objects users hold
  (one round at a time);
* :mod:`.repairs` — NBL on whitened contexts / centred rewards.

What it may import
------------------
numpy, nbl_theory. Within nbl_sim it may import: :mod:`nbl_sim.engine` (the policy kernels the
objects and repairs run) — tests/test_import_rule.py checks this paragraph.
"""

from .objects import NBL, GreedyLogistic

__all__ = ["NBL", "GreedyLogistic"]
