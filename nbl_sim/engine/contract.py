"""What every backend of the engine's seam takes and gives (:mod:`nbl_sim.engine`).

The checked inputs and options of alg:nbl (:func:`nbl_inputs`, :class:`NBLOptions`,
:func:`validate_step`) and the trace of a run (:class:`NBLTrace`); the checked inputs of Greedy
Logistic (app:logistic-comparison: :func:`greedy_inputs`) and the ``info`` of a run
(:func:`greedy_info`), with the line search's constants both backends use. Each input is checked
here once, whichever backend then runs.

What it may import: numpy and nbl_theory only — no compiled code — so the reference backend
(:mod:`nbl_sim.engine.reference`) runs without loading numba.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from nbl_theory.errors import NBLInputError

__all__ = [
    "GAMMA",
    "T0",
    "RIDGE",
    "TOL",
    "MAX_ITER",
    "NBLTrace",
    "NBLInputs",
    "NBLOptions",
    "nbl_inputs",
    "validate_step",
    "MAX_GAMMA",
    "GreedyInputs",
    "greedy_inputs",
    "greedy_info",
    "ARMIJO",
    "MAX_HALVINGS",
    "EPS",
    "LOCKSTEP",
]

#: the one default of each step parameter of NBL (η_t = γ/(t + t0)) and of each option of
#: Greedy Logistic's fits: every signature of the engine, the policies and the studies refers
#: to these (issue 37: one default per parameter; the command line's own are tested equal)
GAMMA, T0 = 10.0, 500.0
RIDGE, TOL, MAX_ITER = 1e-6, 1e-10, 50

#: replications the NBL kernel advances in lockstep (their independent dependency chains
#: overlap in the CPU). Callers size blocks of replications in multiples of it so the groups are
#: full (a partial group is slower, never different).
LOCKSTEP = 8


# ---------------------------------------------------------------------- alg:nbl
class NBLTrace:
    """Output of :func:`~nbl_sim.engine.nbl_kernel.nbl_run`.

    Parameters
    ----------
    actions : (R, n) int8 ndarray
        The actions A_t in {−1, +1} (the coins during Stage I).
    record_rounds : (K,) int64 ndarray
        The rounds t recorded (1-based; 0 = the given start v_0).
    sq_error : (R, K) float64 ndarray
        ‖v_t − v*‖² at each recorded round (NaN during Stage I, where v_t is undefined).
    angle : (R, K) or (R, 0) float64 ndarray
        The signed angle α_t in radians (d = 2; NaN otherwise); no columns when the run was
        made with ``record_angle=False``.
    v_final : (R, d) float64 ndarray
        The last iterate v_n (unit vectors).
    info : dict
        ``degenerate_init``: how many replications had ΣW_t exactly 0 (and started from the
        fallback direction); ``n0``: the Stage I length (0 with a given start).
    """

    def __init__(self, actions, record_rounds, sq_error, angle, v_final, info):
        self.actions = actions
        self.record_rounds = record_rounds
        self.sq_error = sq_error
        self.angle = angle
        self.v_final = v_final
        self.info = info


#: The largest step scale γ accepted: with rewards |Y| <= 1 + 1e6 (the noise bound of
#: :mod:`nbl_sim.engine.environment`) and t0 > −1, every intermediate of a round stays far inside
#: float64's range (|η_t G_t| <~ 1e3 γ |Y| ‖X‖ < 1e20); γ = 1e200 overflowed to 0/0.
MAX_GAMMA = 1e6


def validate_step(gamma, t0) -> None:
    """Check the step η_t = γ/(t + t0): finite, 0 < γ <= :data:`MAX_GAMMA` and t0 > −1 (so
    η_t > 0 for t ≥ 1).

    Parameters
    ----------
    gamma : int or float
        The step scale γ.
    t0 : int or float
        The step offset t0.

    Raises
    ------
    NBLInputError
        If either is not a finite int or float (a bool is refused), γ is outside
        (0, :data:`MAX_GAMMA`], or t0 <= −1.
    """
    for name, val in (("gamma", gamma), ("t0", t0)):
        if isinstance(val, bool) or not (isinstance(val, (int, float)) and math.isfinite(val)):
            raise NBLInputError(f"{name} must be a finite number, got {val!r}")
    if not 0 < gamma <= MAX_GAMMA:
        raise NBLInputError(f"gamma must be in (0, {MAX_GAMMA:g}], got {gamma}")
    if not t0 > -1:
        raise NBLInputError(f"t0 must be > -1 so that eta_t = gamma/(t + t0) > 0, got {t0}")


class NBLInputs(NamedTuple):
    """The checked inputs of one NBL run (:func:`nbl_inputs`), as every engine backend takes
    them (:mod:`nbl_sim.engine`).

    Parameters
    ----------
    X : (R, n, d) float64 ndarray
        Contexts, C-contiguous.
    Y : (R, n, 2) float64 ndarray
        Potential rewards (column 0 = arm −1), C-contiguous.
    coins : (R, n0) int8 ndarray
        Stage I actions in {−1, +1} (n0 = 0 with a given start).
    v_star : (d,) float64 ndarray
        The true direction v* (for the records only).
    v_init : (d,) float64 ndarray
        The start v_0 (normalized), or the fallback direction e1 of a degenerate Stage I.
    use_init : bool
        True for the randomized initialization (Stage I), False for a given v_0.
    eta : (n,) float64 ndarray
        The steps η_t = γ/(t + t0), t = 1..n.
    rec : (K,) int64 ndarray
        The record rounds, strictly increasing (without 0 under Stage I).
    record_angle : bool
        Whether the signed angle α_t is recorded.
    """

    X: np.ndarray
    Y: np.ndarray
    coins: np.ndarray
    v_star: np.ndarray
    v_init: np.ndarray
    use_init: bool
    eta: np.ndarray
    rec: np.ndarray
    record_angle: bool


class NBLOptions(NamedTuple):
    """The keyword options of an NBL run (the docstring of
    :func:`~nbl_sim.engine.nbl_kernel.nbl_run`), with their one default each; an unknown keyword
    is a TypeError.

    Parameters
    ----------
    v0 : (d,) array_like or None, default None
        A given initial direction (replaces Stage I); None: the randomized initialization.
    gamma : float, default 10.0
        The step scale γ of η_t = γ/(t + t0).
    t0 : float, default 500.0
        The step offset t0.
    record_rounds : sequence of int or None, default None
        Strictly increasing rounds in [0, n] to record; None: every round 1..n.
    record_angle : bool, default True
        Whether to record the signed angle α_t (d = 2).
    """

    v0: np.ndarray | None = None
    gamma: float = GAMMA
    t0: float = T0
    record_rounds: object = None
    record_angle: bool = True


def nbl_inputs(X, Y, coins, v_star, **options) -> NBLInputs:
    """Check and convert the arguments of :func:`~nbl_sim.engine.nbl_kernel.nbl_run` (its
    docstring; ``options`` are :class:`NBLOptions`) once, for any backend; raises
    :class:`~nbl_theory.errors.NBLInputError` on bad input.

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts.
    Y : array_like, shape (R, n, 2)
        Potential rewards (column 0 = arm −1).
    coins : array_like, shape (R, n0)
        Stage I actions in {−1, +1}, 1 <= n0 <= n; ignored when ``v0`` is given.
    v_star : array_like, shape (d,)
        The true direction v*.
    **options
        The fields of :class:`NBLOptions` (``v0``, ``gamma``, ``t0``, ``record_rounds``,
        ``record_angle``).

    Returns
    -------
    NBLInputs
        The converted arrays, the steps η_t and the record rounds (round 0 dropped under
        Stage I, where v_0 does not exist).

    Raises
    ------
    NBLInputError
        If a shape disagrees, the step is invalid (:func:`validate_step`), the coins are not
        (R, n0) with 1 <= n0 <= n and values ±1, ``v0`` is not a finite non-zero (d,) vector,
        or ``record_rounds`` is not strictly increasing in [0, n].
    TypeError
        If an option is not a field of :class:`NBLOptions`.
    """
    v0, gamma, t0, record_rounds, record_angle = NBLOptions(**options)
    X = np.ascontiguousarray(X, dtype=np.float64)
    Y = np.ascontiguousarray(Y, dtype=np.float64)
    if X.ndim != 3 or Y.shape != X.shape[:2] + (2,):
        raise NBLInputError(f"X must be (R, n, d) and Y (R, n, 2); got {X.shape}, {Y.shape}")
    R, n, d = X.shape
    v_star = np.ascontiguousarray(v_star, dtype=np.float64)
    if v_star.shape != (d,):
        raise NBLInputError(f"v_star must have shape ({d},), got {v_star.shape}")
    validate_step(gamma, t0)
    use_init = v0 is None
    if use_init:
        coins = np.ascontiguousarray(coins, dtype=np.int8)
        if coins.ndim != 2 or coins.shape[0] != R or coins.shape[1] > n:
            raise NBLInputError(f"coins must be (R, n0) with n0 <= n; got {coins.shape}")
        if coins.shape[1] == 0:
            raise NBLInputError("randomized initialization needs n0 >= 1 (or give v0)")
        if not np.all(np.abs(coins) == 1):
            raise NBLInputError("coins must be +1 or -1")
        v_init = np.eye(d)[0]
    else:
        coins = np.zeros((R, 0), dtype=np.int8)
        v_init = np.asarray(v0, dtype=np.float64)
        if v_init.shape != (d,) or not np.all(np.isfinite(v_init)) or not np.any(v_init):
            raise NBLInputError(f"v0 must be a finite non-zero vector of shape ({d},)")
        v_init = v_init / np.linalg.norm(v_init)
    if record_rounds is None:
        rec = np.arange(1, n + 1, dtype=np.int64)
    else:
        rec = np.asarray(record_rounds, dtype=np.int64)
        if rec.ndim != 1 or np.any(np.diff(rec) <= 0) or rec[0] < 0 or rec[-1] > n:
            raise NBLInputError("record_rounds must be strictly increasing integers in [0, n]")
        if use_init:
            rec = rec[rec >= 1]  # round 0 does not exist with a randomized start
    eta = float(gamma) / (np.arange(1, n + 1, dtype=np.float64) + float(t0))  # η_t, t = 1..n
    return NBLInputs(X, Y, coins, v_star, v_init, use_init, eta, rec, bool(record_angle))


# ---------------------------------------------------------------------- Greedy Logistic
#: sufficient-decrease constant of the line search
ARMIJO = 1e-4
#: step ≥ 2⁻⁶⁰: beyond that the line search gives up (counted, never seen)
MAX_HALVINGS = 60
#: float64's machine epsilon 2⁻⁵² (the rounding slack of the line search)
EPS = 2.220446049250313e-16


def real_array(name, a, ndim):
    """``a`` as a C-contiguous float64 array of ``ndim`` dimensions, refused (one line, named
    ``name``) when it is not real, numeric and finite."""
    arr = np.asarray(a)
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.floating)
        or np.issubdtype(arr.dtype, np.integer)
        or arr.dtype == np.bool_
    ):
        raise NBLInputError(f"{name} must be a real numeric array, got dtype {arr.dtype}")
    if arr.ndim != ndim:
        raise NBLInputError(f"{name} must have {ndim} dimensions, got shape {arr.shape}")
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    if not np.all(np.isfinite(arr)):
        raise NBLInputError(f"{name} has non-finite values")
    return arr


def check_greedy_options(intercept, ridge, tol, max_iter):
    """Greedy Logistic's options checked and converted: ``(bool, float, float, int)``; a bad one
    is refused in one line."""
    if not isinstance(intercept, (bool, np.bool_)):
        raise NBLInputError(f"intercept must be a bool, got {intercept!r}")
    for name, v in (("ridge", ridge), ("tol", tol)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(
            v, (int, float, np.integer, np.floating)
        ):
            raise NBLInputError(f"{name} must be a positive number, got {v!r}")
        if not (math.isfinite(float(v)) and float(v) > 0):
            raise NBLInputError(f"{name} must be a positive finite number, got {v!r}")
    if (
        isinstance(max_iter, (bool, np.bool_))
        or not isinstance(max_iter, (int, np.integer))
        or max_iter < 1
    ):
        raise NBLInputError(f"max_iter must be a positive integer, got {max_iter!r}")
    return bool(intercept), float(ridge), float(tol), int(max_iter)


class GreedyInputs(NamedTuple):
    """The checked inputs of one Greedy Logistic run (:func:`greedy_inputs`), in the order of
    the kernel's arguments, as every engine backend takes them (:mod:`nbl_sim.engine`).

    Parameters
    ----------
    X : (R, n, d) float64 ndarray
        Contexts, C-contiguous and finite.
    Y : (R, n, 2) float64 ndarray
        Potential rewards in [0, 1], C-contiguous.
    coins : (R, n0) int8 ndarray
        Initialization actions in {−1, +1}, n0 <= n.
    intercept : bool
        Whether each arm's fit has an intercept.
    ridge : float
        The ridge penalty.
    tol : float
        The Newton stopping tolerance.
    max_iter : int
        The most Newton iterations per fit.
    """

    X: np.ndarray
    Y: np.ndarray
    coins: np.ndarray
    intercept: bool
    ridge: float
    tol: float
    max_iter: int


def greedy_inputs(
    X, Y, coins, *, intercept=True, ridge=RIDGE, tol=TOL, max_iter=MAX_ITER
) -> GreedyInputs:
    """Check and convert the arguments of
    :func:`~nbl_sim.engine.greedy_kernel.greedy_logistic_actions` once, for any backend; raises
    :class:`~nbl_theory.errors.NBLInputError` on bad input.

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts: real, finite, d >= 1.
    Y : array_like, shape (R, n, 2)
        Potential rewards in [0, 1].
    coins : array_like, shape (R, n0)
        Integer (or float) entries ±1, n0 <= n.
    intercept : bool, default True
        Fit an intercept b (p = d + 1 coefficients) or not (p = d).
    ridge : float, default 1e-6
        The penalty (ridge/2)‖(w, b)‖², positive and finite.
    tol : float, default 1e-10
        Newton stops when ‖Δ‖∞ or the Newton decrement is below it; positive and finite.
    max_iter : int, default 50
        Newton iterations per fit, a positive integer (a fit that hits it is counted, not
        raised).

    Returns
    -------
    GreedyInputs
        The converted arrays (float64, coins int8, C-contiguous) and options.

    Raises
    ------
    NBLInputError
        If an option is invalid, an array is not real, finite or of the right shape, n0 > n,
        ``Y`` leaves [0, 1] or a coin is not ±1.
    """
    intercept, ridge, tol, max_iter = check_greedy_options(intercept, ridge, tol, max_iter)
    X = real_array("X", X, 3)
    Y = real_array("Y", Y, 3)
    c = np.asarray(coins)
    if c.dtype == object or not (
        np.issubdtype(c.dtype, np.integer) or np.issubdtype(c.dtype, np.floating)
    ):
        raise NBLInputError(f"coins must be an integer array of ±1, got dtype {c.dtype}")
    if c.ndim != 2:
        raise NBLInputError(f"coins must have 2 dimensions (R, n0), got shape {c.shape}")
    R, n, d = X.shape
    if d < 1:
        raise NBLInputError("X must have d >= 1 context coordinates")
    if Y.shape != (R, n, 2):
        raise NBLInputError(f"Y must have shape (R, n, 2) = {(R, n, 2)}, got {Y.shape}")
    if c.shape[0] != R:
        raise NBLInputError(f"coins has {c.shape[0]} replications but X has {R}")
    if c.shape[1] > n:
        raise NBLInputError(f"n0 = {c.shape[1]} initialization rounds exceed the horizon n = {n}")
    if np.any((Y < 0) | (Y > 1)):
        raise NBLInputError("Y must lie in [0, 1]")
    if not np.all((c == 1) | (c == -1)):
        raise NBLInputError("coins must have entries in {-1, +1}")
    c = np.ascontiguousarray(c, dtype=np.int8)
    return GreedyInputs(X, Y, c, intercept, ridge, tol, max_iter)


def greedy_info(coef: np.ndarray, rep: np.ndarray, intercept: bool) -> dict:
    """The ``info`` dict of :func:`~nbl_sim.engine.greedy_kernel.greedy_logistic_actions` from
    the final fits ``coef`` (R, 2, p) and the per-replication counts ``rep`` (R, 8) of a backend.

    Parameters
    ----------
    coef : (R, 2, p) float64 ndarray
        Each replication's final fits, arm −1 then arm +1; the last coefficient is the
        intercept when ``intercept``.
    rep : (R, 8) int64 ndarray
        Per-replication counts: iterations, halvings, max_iter hits, failures, objective
        evaluations, ties, fits, max per fit.
    intercept : bool
        Whether ``coef`` holds an intercept.

    Returns
    -------
    dict
        The totals, ``per_replication`` (``rep`` itself), ``w`` (R, 2, d) and ``b`` (R, 2)
        (:func:`~nbl_sim.engine.greedy_kernel.greedy_logistic_actions`).
    """
    R, d = coef.shape[0], coef.shape[2] - (1 if intercept else 0)
    info = {
        "newton_iterations": int(rep[:, 0].sum()),
        "fits": int(rep[:, 6].sum()),
        "max_iterations_per_fit": int(rep[:, 7].max()) if R else 0,
        "max_iter_hits": int(rep[:, 2].sum()),
        "line_search_halvings": int(rep[:, 1].sum()),
        "objective_evaluations": int(rep[:, 4].sum()),
        "failures": int(rep[:, 3].sum()),
        "ties": int(rep[:, 5].sum()),
        "per_replication": rep,
        "w": coef[:, :, :d].copy(),
        "b": coef[:, :, d].copy() if intercept else np.zeros((R, 2)),
    }
    return info
