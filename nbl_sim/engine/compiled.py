"""The compiled backend of :mod:`nbl_sim.engine`: the numba/LLVM kernels that compute the
reference's numbers (:mod:`nbl_sim.engine.reference`) faster, bit for bit
(``tests/sim/test_engine_pin.py``).

The kernels themselves live where they were written (:mod:`nbl_sim.engine.environment` and
its passes, :mod:`nbl_sim.engine.pcg64`, :mod:`nbl_sim.engine.nbl_kernel`,
:mod:`nbl_sim.engine.greedy_kernel`); this module is their one entry point. The regret is plain
numpy (:func:`nbl_sim.engine.metrics.recorded_regret`, summed over the rounds a policy
missed): its compiled pass earned 1.29–1.53× end
to end, at or under the 1.5× a piece of compiled machinery must earn (issue 37;
benchmarks/README.md, the engine section), and was cut.
"""

from __future__ import annotations

import numpy as np

from .nbl_kernel import nbl_run
from .reference import oracle as oracle_actions

__all__ = ["draw", "nbl", "greedy_logistic", "oracle", "regret"]


def draw(env, seed, reps, n, n0, *, out=None):
    """:meth:`nbl_sim.engine.environment.Environment.draw`."""
    return env.draw(seed, reps, n, n0, out=out)


def nbl(X, Y, coins, v_star, **options):
    """:func:`nbl_sim.engine.nbl_kernel.nbl_run` (the compiled kernel)."""
    return nbl_run(X, Y, coins, v_star, **options)


def greedy_logistic(X, Y, coins, **options):
    """:func:`nbl_sim.engine.greedy_kernel.greedy_logistic_actions` (compiled; its module
    is imported at the first call, so a run without it does not load it)."""
    from .greedy_kernel import greedy_logistic_actions

    return greedy_logistic_actions(X, Y, coins, **options)


def oracle(X, v_star) -> np.ndarray:
    """:func:`nbl_sim.engine.reference.oracle_actions` (numpy: nothing to compile)."""
    return oracle_actions(X, v_star)


def regret(env, real, actions, record_rounds, *, out=None) -> np.ndarray:
    """:meth:`nbl_sim.engine.environment.Environment.recorded_regret` (numpy, a block of
    replications at a time)."""
    return env.recorded_regret(real, actions, record_rounds, out=out)
