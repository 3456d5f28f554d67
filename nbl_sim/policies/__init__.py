"""Bandit policies, one per module, each vectorized across replications.

All policies read the same realization arrays (see :mod:`nbl_sim.engine.environment`):
contexts ``X`` (R, n, d), potential rewards ``Y`` (R, n, 2) with column 0 = arm −1 and column
1 = arm +1, and the common randomized-initialization actions ``coins`` (R, n0). They return
actions in {−1, +1}.

What it holds
-------------
* :mod:`.nbl` — alg:nbl: the compiled kernel, its inputs and options, the numpy reference loop;
* :mod:`.geometry` — the sphere geometry of the NBL update (eq:tangent_update, eq:nbl_update),
  the readable definitions the kernel is tested against;
* :mod:`.greedy_logistic` — Greedy Logistic of app:logistic-comparison (compiled Newton refits);
* :mod:`.oracle` — a*(x) = sgn(v*ᵀx);
* :mod:`.repairs` — NBL on whitened contexts / centred rewards;
* :mod:`.objects` — :class:`NBL` and :class:`GreedyLogistic`, the policy objects users hold.

What it may import
------------------
numpy, numba, nbl_theory. Within nbl_sim it may import: :mod:`nbl_sim.engine` (the numba cache,
the LLVM operations and NBL's vector lanes; the engine in turn fronts these policies) —
tests/test_import_rule.py checks this paragraph.
"""

from .objects import NBL, GreedyLogistic

__all__ = ["NBL", "GreedyLogistic"]
