"""The simulation engine: everything random and every policy run, behind one seam.

What it holds
-------------
The seam is five functions, each with a ``backend`` argument:

* :func:`draw` — the realization of replications ``reps`` of an environment (contexts, means,
  potential rewards, initialization coins, optimal actions: :class:`nbl_sim.engine.realization.
  Realization`), from ``SeedSequence(seed)`` spawn keys (r, k);
* :func:`nbl` — alg:nbl on a realization (:class:`nbl_sim.engine.contract.NBLTrace`);
* :func:`greedy_logistic` — Greedy Logistic of app:logistic-comparison (actions, info);
* :func:`oracle` — a*(x) = sgn(v*ᵀx);
* :func:`regret` — the recorded regret R_t of eq:regret.

Two backends compute them:

* ``"reference"`` (:mod:`nbl_sim.engine.reference`) — plain numpy, vectorized over
  replications with a loop over rounds: **the definition of the numbers of record**. Its module
  docstring states every operation and its order.
* ``"compiled"`` (:mod:`nbl_sim.engine.compiled`, the default) — the numba/LLVM kernels of
  :mod:`nbl_sim.engine.environment`, :mod:`nbl_sim.engine.pcg64`,
  :mod:`nbl_sim.engine.nbl_kernel` and
  :mod:`nbl_sim.engine.greedy_kernel` (the regret: numpy); the same bits, pinned to
  the reference by ``tests/sim/test_engine_pin.py``; faster by the ratios of
  ``benchmarks/bench_engine.py``.

Inputs are checked once, by the same functions for both backends
(:mod:`.contract`: :func:`~nbl_sim.engine.contract.nbl_inputs`,
:func:`~nbl_sim.engine.contract.greedy_inputs`; and
:meth:`nbl_sim.engine.environment.Environment.build`).

Neither the reference backend nor the environment model loads numba: the compiled modules
are imported on a first compiled call. :func:`nbl_sim.studies.experiment.simulate` therefore runs
a small chunk in a process without numba on the reference backend (the same bits; loading the
compiled one would cost more than it saves, ``_REFERENCE_WORK`` there).

The folder also holds what the seam is made of:

* the contract — :mod:`.contract` (what both backends take and give: the checked inputs and
  options of NBL and Greedy Logistic, NBL's trace, the line search's constants; numpy only);
* the policy runs — :mod:`.nbl_kernel` (alg:nbl: the compiled kernel and the numpy reference
  loop) and :mod:`.greedy_kernel` (Greedy Logistic of
  app:logistic-comparison: compiled Newton refits and the penalized MLE), with
  :mod:`.geometry` (the sphere geometry of the NBL update, eq:tangent_update, eq:nbl_update:
  the readable definitions the kernel is tested against);
* the bandit model — :mod:`.environment` (eq:model: arms, contexts, rewards, the draw),
  :mod:`.realization` (what a draw holds) and :mod:`.metrics` (regret of eq:regret, Monte Carlo
  bands);
* the stream — :mod:`.pcg64` (numpy's SeedSequence seeding, PCG64 and ziggurat inline in
  compiled code: the streams' states, the contexts' normals, the reward uniforms and the
  coins), :mod:`.ziggurat` (numpy's ziggurat tables as data), :mod:`.llvm_ops`
  (the 128-bit multiply-add in LLVM IR);
* the compiled passes — :mod:`.environment_passes` (indices, optimal actions, rewards; a
  block of replications in two calls),
  :mod:`.buffers` (reused per-thread buffers) and :mod:`.jit_cache` (numba's on-disk cache, in
  a private directory named by the package's digest).

What it may import
------------------
numpy, numba, llvmlite, nbl_theory; never proofs_check, never a private name of numba, numpy or
llvmlite (tests/test_import_rule.py; :mod:`.jit_cache` places the kernels' cache through numba's
documented ``numba.config.CACHE_DIR``).
:mod:`nbl_sim.engine.ziggurat` (numpy's ziggurat tables as data) imports numpy only, so the
compiled stream can import it. This ``__init__`` imports its backends when a function is first
called (the compiled modules import the tables from here).

Within nbl_sim it may import: :mod:`nbl_sim.beyond` (the context laws and arm models an
environment is built with) and :mod:`nbl_sim.runs` (the cache directory of the numba cache) —
tests/test_import_rule.py checks this paragraph against every import of the folder, and that no
two folders import each other.
"""

from __future__ import annotations

import numpy as np

from nbl_theory.errors import NBLInputError

from .contract import MAX_ITER, RIDGE, TOL

__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "backend_module",
    "draw",
    "nbl",
    "greedy_logistic",
    "oracle",
    "regret",
]

#: the backends of the seam
BACKENDS = ("compiled", "reference")
#: the backend of every caller that does not name one
DEFAULT_BACKEND = "compiled"


def backend_module(backend: str = DEFAULT_BACKEND):
    """The module implementing ``backend`` (one of :data:`BACKENDS`).

    Parameters
    ----------
    backend : {"compiled", "reference"}, default "compiled"
        The backend (:data:`BACKENDS`; default :data:`DEFAULT_BACKEND`).

    Returns
    -------
    module
        :mod:`nbl_sim.engine.compiled` or :mod:`nbl_sim.engine.reference`, imported on first
        use; it has the five functions of the seam (without ``backend``).

    Raises
    ------
    NBLInputError
        If ``backend`` is not one of :data:`BACKENDS`.
    """
    if backend == "compiled":
        from . import compiled

        return compiled
    if backend == "reference":
        from . import reference

        return reference
    raise NBLInputError(f"backend must be one of {BACKENDS}, got {backend!r}")


def draw(env, seed: int, reps, n: int, n0: int, *, out=None, backend: str = DEFAULT_BACKEND):
    """The realization of replications ``reps`` (indices into ``SeedSequence(seed).spawn``) of
    ``env`` (:class:`nbl_sim.engine.environment.Environment`) over n rounds with n0 initialization
    coins.

    Parameters
    ----------
    env : nbl_sim.engine.environment.Environment
        The environment.
    seed : int
        The run's seed, a non-negative integer.
    reps : iterable of int
        Replication indices (≥ 0, at least one), in the order of the result's rows.
    n : int
        Rounds.
    n0 : int
        Initialization coins per replication.
    out : nbl_sim.engine.realization.Realization, optional
        :meth:`~nbl_sim.engine.realization.Realization.empty` buffers with at least
        ``len(reps)`` rows, filled in place (the result then holds views of them); None
        allocates.
    backend : {"compiled", "reference"}, default "compiled"
        The backend (:data:`BACKENDS`; default :data:`DEFAULT_BACKEND`).

    Returns
    -------
    nbl_sim.engine.realization.Realization
        Contexts, means, potential rewards, coins and optimal actions of the replications.

    Raises
    ------
    NBLInputError
        If ``backend`` is not one of :data:`BACKENDS`, ``reps`` is empty or negative, ``seed``
        is invalid, ``out`` does not fit, or a realized mean is not finite or (Bernoulli)
        leaves [0, 1] beyond rounding.
    """
    return backend_module(backend).draw(env, seed, reps, n, n0, out=out)


def nbl(X, Y, coins, v_star, *, backend: str = DEFAULT_BACKEND, **options):
    """alg:nbl on pre-drawn realizations: the arguments of
    :func:`nbl_sim.engine.nbl_kernel.nbl_run`,
    its keyword ``options`` (v0, gamma, t0, record_rounds, record_angle) those of
    :class:`nbl_sim.engine.contract.NBLOptions`, with their defaults.

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts.
    Y : array_like, shape (R, n, 2)
        Potential rewards (column 0 = arm −1).
    coins : array_like, shape (R, n0)
        Stage I actions in {−1, +1}; ignored when ``v0`` is given.
    v_star : array_like, shape (d,)
        The true direction v* (for the records only).
    backend : {"compiled", "reference"}, default "compiled"
        The backend (:data:`BACKENDS`; default :data:`DEFAULT_BACKEND`).
    **options
        ``v0``, ``gamma``, ``t0``, ``record_rounds``, ``record_angle``
        (:class:`nbl_sim.engine.contract.NBLOptions`).

    Returns
    -------
    nbl_sim.engine.contract.NBLTrace
        Actions, recorded errors and angles, final iterates and ``info``.

    Raises
    ------
    NBLInputError
        If ``backend`` is not one of :data:`BACKENDS`, or on bad input
        (:func:`nbl_sim.engine.contract.nbl_inputs`).
    TypeError
        If an option is not a field of :class:`nbl_sim.engine.contract.NBLOptions`.
    """
    return backend_module(backend).nbl(X, Y, coins, v_star, **options)


def greedy_logistic(
    X,
    Y,
    coins,
    *,
    intercept: bool = True,
    ridge: float = RIDGE,
    tol: float = TOL,
    max_iter: int = MAX_ITER,
    backend: str = DEFAULT_BACKEND,
):
    """Greedy Logistic (the arguments and result of
    :func:`nbl_sim.engine.greedy_kernel.greedy_logistic_actions`).

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts (real, finite).
    Y : array_like, shape (R, n, 2)
        Potential rewards in [0, 1] (column 0 = arm −1).
    coins : array_like, shape (R, n0)
        Initialization actions ±1, n0 <= n.
    intercept : bool, default True
        Fit each arm with an intercept.
    ridge : float, default 1e-6
        The fits' ridge penalty, positive and finite.
    tol : float, default 1e-10
        The Newton stopping tolerance, positive and finite.
    max_iter : int, default 50
        Newton iterations per fit, a positive integer.
    backend : {"compiled", "reference"}, default "compiled"
        The backend (:data:`BACKENDS`; default :data:`DEFAULT_BACKEND`).

    Returns
    -------
    actions : (R, n) int8 ndarray
        The actions in {−1, +1}.
    info : dict
        The diagnostics and final fits of
        :func:`nbl_sim.engine.greedy_kernel.greedy_logistic_actions`.

    Raises
    ------
    NBLInputError
        If ``backend`` is not one of :data:`BACKENDS`, or on bad input
        (:func:`nbl_sim.engine.contract.greedy_inputs`).
    """
    return backend_module(backend).greedy_logistic(
        X, Y, coins, intercept=intercept, ridge=ridge, tol=tol, max_iter=max_iter
    )


def oracle(X, v_star, *, backend: str = DEFAULT_BACKEND) -> np.ndarray:
    """(R, n) int8 actions sgn(v*ᵀX_t), sgn(0) = +1 (:mod:`nbl_sim.engine.reference`).

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts.
    v_star : array_like, shape (d,)
        The true direction v*.
    backend : {"compiled", "reference"}, default "compiled"
        The backend (:data:`BACKENDS`; default :data:`DEFAULT_BACKEND`).

    Returns
    -------
    (R, n) int8 ndarray
        sgn(v*ᵀX_t) in {−1, +1}, the sum over coordinates a fold from 0.0.

    Raises
    ------
    NBLInputError
        If ``backend`` is not one of :data:`BACKENDS`, ``X`` is not (R, n, d) or ``v_star``
        not (d,).
    """
    return backend_module(backend).oracle(X, v_star)


def regret(
    env, real, actions, record_rounds, *, out=None, backend: str = DEFAULT_BACKEND
) -> np.ndarray:
    """R_t (eq:regret, expected means) of ``actions`` on the realization ``real`` at the rounds
    ``record_rounds`` (R_0 = 0), shape (R, K).

    Parameters
    ----------
    env : nbl_sim.engine.environment.Environment
        The environment that drew ``real``.
    real : nbl_sim.engine.realization.Realization
        The realization (drawn lazily or not).
    actions : (R, n) int8 ndarray
        A policy's actions on ``real``, in {−1, +1}.
    record_rounds : sequence of int
        K strictly increasing rounds in [0, n].
    out : (R, K) float64 ndarray, optional
        Filled in place; None allocates.
    backend : {"compiled", "reference"}, default "compiled"
        The backend (:data:`BACKENDS`; default :data:`DEFAULT_BACKEND`).

    Returns
    -------
    (R, K) float64 ndarray
        R_t at each recorded round (``out`` when given).

    Raises
    ------
    NBLInputError
        If ``backend`` is not one of :data:`BACKENDS` (the compiled backend also, for a
        realization not drawn lazily, when the shapes disagree or ``record_rounds`` is
        invalid).
    """
    return backend_module(backend).regret(env, real, actions, record_rounds, out=out)
