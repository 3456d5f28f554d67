"""Greedy Logistic (app:logistic-comparison), vectorized across replications.

The parametric benchmark of the paper (greedy generalized-linear contextual bandit,
Bastani et al. 2021): after a common randomized initialization, fit a separate logistic regression
to each arm's observed rewards and play the arm with the larger fitted mean.

Rule
----
* Rounds t < n0: A_t = ``coins[r, t]``. The observed reward Y[r, t, arm(A_t)] joins that arm's data.
* Rounds t ≥ n0: A_t = +1 if score_+(x_t) ≥ score_−(x_t) else −1, where score_a(x) = w_aᵀx + b_a
  from the current fit of arm a. The sigmoid is strictly increasing, so comparing scores is
  comparing fitted means. Then the observation joins arm A_t's data and that arm is refit.
* **Ties** (score_+ = score_− exactly) go to +1, the convention of sgn in NBL (vᵀx ≥ 0 → +1). An
  arm with no data has w = 0, b = 0 and score 0, so e.g. with n0 = 0 the first round is a tie and
  plays +1; with all coins +1, the first greedy rounds play +1 iff score_+(x_t) ≥ 0.

Fit
---
Per arm, the penalized logistic MLE

    minimize  Σ_i [log(1 + e^{η_i}) − y_i η_i] + (ridge/2)‖(w, b)‖²,   η_i = wᵀx_i + b,

with responses y_i ∈ [0, 1] (Bernoulli 0/1, but fractional responses are fine for this
log-likelihood). It is solved by Newton's method: the (p × p) system, p = d + 1 (d without
intercept), is factorized by a Cholesky decomposition written out in the compiled kernel (any d),
with a backtracking (step-halving, Armijo) line search on the objective, so every step decreases
the objective and the iteration converges from any start. The full step is tried first and, when
‖z‖max·‖Δ‖₂ ≤ 1, is accepted without evaluating the objective: the logistic loss is generalized
self-concordant (|ℓ‴| ≤ ℓ″), which proves the Armijo condition for such steps (Bach 2010; see
``_newton``). Warm-started refits almost always take this path, so a typical Newton iteration is
one pass over the arm's data computing one exp per point (no log). It stops when the Newton step has
‖Δ‖∞ < ``tol`` or the Newton decrement (gᵀH⁻¹g)^½ < ``tol`` (then f − f* ≈ decrement²/2 <
tol²/2; this is the test that fires under separation, where the Hessian is ≈ ridge in some
direction and rounding alone keeps ‖Δ‖∞ ~ 1e-15/ridge); that last (tiny) step is applied.
log(1 + e^η) and the sigmoid are evaluated in the overflow-free forms max(η, 0) + log1p(e^{−|η|})
and 1/(1 + e^{−|η|}) (or its complement).

The greedy phase refits the chosen arm after every observation, warm-started from its previous
fit (about 3 Newton iterations per round in the paper's setting, see ``info``). Each arm is first
fit at t = n0, from 0, on its initialization data: actions before n0 do not depend on the fits,
and the minimizer is unique, so fitting once there gives the same decisions as refitting after
every initialization round. Each Newton iteration costs O(n_a p²) for an arm with n_a
observations.

Defaults and why
----------------
* ``intercept=True``. The true mean g(βᵀx) has g(0) ≠ 1/2 in general (e.g. the two-transition
  links of app:tanh-geometry, or any link not symmetric about 1/2), and the logistic working model
  can only approximate it with a free intercept; it is also scikit-learn's default
  (``LogisticRegression(fit_intercept=True)``). ``intercept=False`` fits w only (p = d).
* ``ridge=1e-6``, applied to every coefficient including the intercept. It makes the objective
  strictly convex with a unique finite minimizer in every case: under separation (e.g. an arm's
  rewards all 0, all 1, or perfectly split by a hyperplane, common with few observations) the
  unpenalized MLE does not exist, and an arm without data has minimizer 0. Otherwise the Hessian
  of the log-likelihood is a sum of n_a ≥ 1 terms of O(1) curvature (σ(1 − σ)‖x‖² ≲ d/4), against
  which 1e-6 is negligible: the fit equals the unpenalized MLE up to O(ridge · ‖θ‖ / curvature).
* ``tol=1e-10`` on ‖Δ‖∞ / the Newton decrement and ``max_iter=50`` Newton steps per fit. A fit
  stopped by ``max_iter`` is counted in ``info["max_iter_hits"]`` (it does not raise).

Reproducibility: replications are independent (per-replication buffers), so the actions of a
replication do not depend on which other replications are run with it, and the same inputs give
bit-identical outputs.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from nbl_theory.errors import NBLInputError

from . import jit_cache  # the cached kernels are defined with jit_cache.njit
from .contract import (
    ARMIJO,
    EPS,
    MAX_HALVINGS,
    MAX_ITER,
    RIDGE,
    TOL,
    check_greedy_options,
    greedy_info,
    greedy_inputs,
    real_array,
)

__all__ = [
    "greedy_logistic_actions",
    "fit_penalized_logistic",
    "LogisticFit",
    "newton_refit",
]


# --------------------------------------------------------------------------------------------
# compiled kernels
# --------------------------------------------------------------------------------------------


@jit_cache.njit(inline="always")
def _residual_weight(eta, yi):
    """(σ(η) − y, σ(η)σ(−η)) without overflow: the terms of one row in the gradient and the
    Hessian."""
    e = math.exp(-abs(eta))
    inv = 1.0 / (1.0 + e)
    s = inv if eta >= 0.0 else e * inv
    return s - yi, e * inv * inv


@jit_cache.njit()
def _grad_hess(Z, y, m, theta, lam, g, H):
    """Gradient (into g) and Hessian (into H) of the objective at ``theta``, rows 0..m-1.

    p = 2 and p = 3 (d = 2 without and with intercept, the paper's comparison) take unrolled
    passes that keep the sums in registers; they do the same operations in the same order as
    the loop of :func:`_grad_hess_any` (every sum gets the same terms in the same order), so
    the same bits (tests/sim/test_greedy_logistic.py), 1.4-1.55x faster
    (benchmarks/bench_logistic_pass.py).
    """
    p = theta.shape[0]
    if p == 3:
        _grad_hess3(Z, y, m, theta, lam, g, H)
    elif p == 2:
        _grad_hess2(Z, y, m, theta, lam, g, H)
    else:
        _grad_hess_any(Z, y, m, theta, lam, g, H)


@jit_cache.njit()
def _grad_hess3(Z, y, m, theta, lam, g, H):
    """:func:`_grad_hess_any` for p = 3, unrolled."""
    t0, t1, t2 = theta[0], theta[1], theta[2]
    g0, g1, g2 = lam * t0, lam * t1, lam * t2
    h00, h11, h22 = lam, lam, lam
    h10, h20, h21 = 0.0, 0.0, 0.0
    for i in range(m):
        z0, z1, z2 = Z[i, 0], Z[i, 1], Z[i, 2]
        eta = 0.0
        eta += z0 * t0
        eta += z1 * t1
        eta += z2 * t2
        r, w = _residual_weight(eta, y[i])
        g0 += r * z0
        g1 += r * z1
        g2 += r * z2
        wz = w * z0
        h00 += wz * z0
        wz = w * z1
        h10 += wz * z0
        h11 += wz * z1
        wz = w * z2
        h20 += wz * z0
        h21 += wz * z1
        h22 += wz * z2
    g[0], g[1], g[2] = g0, g1, g2
    H[0, 0], H[1, 1], H[2, 2] = h00, h11, h22
    H[1, 0], H[2, 0], H[2, 1] = h10, h20, h21
    H[0, 1], H[0, 2], H[1, 2] = h10, h20, h21


@jit_cache.njit()
def _grad_hess2(Z, y, m, theta, lam, g, H):
    """:func:`_grad_hess_any` for p = 2, unrolled."""
    t0, t1 = theta[0], theta[1]
    g0, g1 = lam * t0, lam * t1
    h00, h11, h10 = lam, lam, 0.0
    for i in range(m):
        z0, z1 = Z[i, 0], Z[i, 1]
        eta = 0.0
        eta += z0 * t0
        eta += z1 * t1
        r, w = _residual_weight(eta, y[i])
        g0 += r * z0
        g1 += r * z1
        wz = w * z0
        h00 += wz * z0
        wz = w * z1
        h10 += wz * z0
        h11 += wz * z1
    g[0], g[1] = g0, g1
    H[0, 0], H[1, 1], H[1, 0], H[0, 1] = h00, h11, h10, h10


@jit_cache.njit()
def _grad_hess_any(Z, y, m, theta, lam, g, H):
    """:func:`_grad_hess` for any p (a loop over the coefficients)."""
    p = theta.shape[0]
    for j in range(p):
        g[j] = lam * theta[j]
        for k in range(p):
            H[j, k] = 0.0
        H[j, j] = lam
    for i in range(m):
        eta = 0.0
        for j in range(p):
            eta += Z[i, j] * theta[j]
        r, w = _residual_weight(eta, y[i])
        for j in range(p):
            zj = Z[i, j]
            g[j] += r * zj
            wz = w * zj
            for k in range(j + 1):
                H[j, k] += wz * Z[i, k]
    for j in range(p):
        for k in range(j):
            H[k, j] = H[j, k]


@jit_cache.njit()
def _objective(Z, y, m, theta, lam):
    """The objective; loss terms y·softplus(−η) + (1 − y)·softplus(η) ≥ 0, overflow-free."""
    p = theta.shape[0]
    f = 0.0
    for i in range(m):
        eta = 0.0
        for j in range(p):
            eta += Z[i, j] * theta[j]
        a = abs(eta)
        lg = math.log1p(math.exp(-a))
        if eta >= 0.0:
            f += y[i] * lg + (1.0 - y[i]) * (a + lg)
        else:
            f += y[i] * (a + lg) + (1.0 - y[i]) * lg
    for j in range(p):
        f += 0.5 * lam * theta[j] * theta[j]
    return f


@jit_cache.njit()
def _cholesky_solve(H, g, L, delta):
    """delta = −H⁻¹g via H = LLᵀ (lower L, overwritten). False if H is not numerically PD."""
    p = g.shape[0]
    for j in range(p):
        s = H[j, j]
        for k in range(j):
            s -= L[j, k] * L[j, k]
        if not s > 0.0:
            return False
        ljj = math.sqrt(s)
        L[j, j] = ljj
        for i in range(j + 1, p):
            t = H[i, j]
            for k in range(j):
                t -= L[i, k] * L[j, k]
            L[i, j] = t / ljj
    for i in range(p):  # forward: L u = −g
        t = -g[i]
        for k in range(i):
            t -= L[i, k] * delta[k]
        delta[i] = t / L[i, i]
    for i in range(p - 1, -1, -1):  # back: Lᵀ δ = u
        t = delta[i]
        for k in range(i + 1, p):
            t -= L[k, i] * delta[k]
        delta[i] = t / L[i, i]
    return True


@jit_cache.njit()
def _newton(Z, y, m, zmax, theta, lam, tol, max_iter, g, H, L, delta, trial, stats):
    """Minimize the penalized objective on rows 0..m-1 in place, warm-started at ``theta``.

    zmax ≥ max_i ‖z_i‖₂ over the rows. g, H, L, delta, trial are work buffers. stats (int64[5])
    is incremented: [0] Newton iterations, [1] line-search halvings, [2] 1 if max_iter was hit,
    [3] 1 if the line search or the factorization gave up, [4] objective evaluations.
    Returns the number of iterations of this fit.

    Line search. The full step is tried first. When zmax·‖Δ‖₂ ≤ 1 it satisfies the Armijo
    condition without evaluating f: the logistic loss has |ℓ‴| ≤ ℓ″, so the objective is
    generalized self-concordant, |f‴(θ)[u,u,u]| ≤ zmax‖u‖₂ f″(θ)[u,u], and (Bach 2010,
    "Self-concordant analysis for logistic regression", Prop. 1)
    f(θ + Δ) ≤ f(θ) + ∇fᵀΔ + ΔᵀHΔ·φ(zmax‖Δ‖₂), φ(s) = (eˢ − s − 1)/s² ≤ e − 2 for s ≤ 1,
    which for the Newton step (∇fᵀΔ = −ΔᵀHΔ = −dec²) is ≤ f(θ) − (3 − e)·dec² with
    3 − e ≈ 0.28 ≥ the Armijo constant. Otherwise the objective is evaluated and the step halved
    until the Armijo condition holds.
    """
    p = theta.shape[0]
    _grad_hess(Z, y, m, theta, lam, g, H)
    it = 0
    while True:
        if it >= max_iter:
            stats[2] += 1
            break
        if not _cholesky_solve(H, g, L, delta):
            stats[3] += 1
            break
        it += 1
        step = 0.0
        norm2 = 0.0
        dec2 = 0.0  # Newton decrement² = −gᵀΔ > 0
        for j in range(p):
            step = max(step, abs(delta[j]))
            norm2 += delta[j] * delta[j]
            dec2 -= g[j] * delta[j]
        # converged when the step or the Newton decrement is below tol; the decrement is the
        # test that stops under separation, where the Hessian is ~ridge in some direction and
        # rounding of the gradient (~1e-15) alone makes steps of ~1e-15/ridge ≫ tol there
        if step < tol or dec2 < tol * tol:
            for j in range(p):  # apply the last tiny step (quadratic-convergence polish)
                theta[j] += delta[j]
            break
        if zmax * math.sqrt(norm2) <= 1.0:  # full step: Armijo holds (docstring)
            for j in range(p):
                theta[j] += delta[j]
            _grad_hess(Z, y, m, theta, lam, g, H)
            continue
        # backtracking on the objective: accept the Armijo decrease, or a change below the
        # rounding of f (f is a sum of non-negative terms, so its rounding is relative)
        f = _objective(Z, y, m, theta, lam)
        stats[4] += 1
        slack = 16.0 * EPS * f
        t = 1.0
        accepted = False
        for _ in range(MAX_HALVINGS):
            for j in range(p):
                trial[j] = theta[j] + t * delta[j]
            ft = _objective(Z, y, m, trial, lam)
            stats[4] += 1
            if ft <= f - ARMIJO * t * dec2 + slack:
                accepted = True
                break
            t *= 0.5
            stats[1] += 1
        if not accepted:
            stats[3] += 1
            break
        for j in range(p):
            theta[j] = trial[j]
        _grad_hess(Z, y, m, theta, lam, g, H)
    stats[0] += it
    return it


@jit_cache.njit()
def _newton_workspace(p):
    """Scratch arrays of :func:`_newton` for p coefficients: gradient g, Hessian H, Cholesky
    factor L, step delta, trial point, and the 5 counters ``stats``."""
    return (
        np.empty(p),
        np.empty((p, p)),
        np.zeros((p, p)),
        np.empty(p),
        np.empty(p),
        np.zeros(5, dtype=np.int64),
    )


@jit_cache.njit()
def newton_refit(Z, y, m, zmax, theta, lam, tol, max_iter):
    """One fit of the bandit kernel, in place: :func:`_newton` on rows 0..m−1 of ``Z``/``y``,
    warm-started at ``theta``, with fresh work buffers (the kernel's buffers carry no state
    between fits: g and H are recomputed from ``theta``, L's upper triangle stays 0). The
    step :class:`nbl_sim.policies.objects.GreedyLogistic` takes after each observation, so it
    computes exactly the kernel's numbers. Returns the iterations of this fit.

    Parameters
    ----------
    Z : (m', p) float64 ndarray
        Design rows (the contexts, with a trailing 1 for an intercept); rows 0..m−1 are used.
    y : (m',) float64 ndarray
        Responses in [0, 1]; entries 0..m−1 are used.
    m : int
        How many rows are the arm's data.
    zmax : float
        An upper bound on max_i ‖z_i‖₂ over those rows (certifies full Newton steps).
    theta : (p,) float64 ndarray
        The warm start, overwritten with the fit.
    lam : float
        The ridge penalty.
    tol : float
        The stopping tolerance on ‖Δ‖∞ and the Newton decrement.
    max_iter : int
        The most Newton iterations.

    Returns
    -------
    int
        The Newton iterations of this fit.
    """
    g, H, L, delta, trial, stats = _newton_workspace(theta.shape[0])
    return _newton(Z, y, m, zmax, theta, lam, tol, max_iter, g, H, L, delta, trial, stats)


@jit_cache.njit(inline="always")
def _row_norm(Z, i):
    """‖Z[i]‖₂, summed in the order of the row (the ``zmax`` of :func:`_newton` is the largest
    over an arm's rows)."""
    s = 0.0
    for j in range(Z.shape[1]):
        s += Z[i, j] * Z[i, j]
    return math.sqrt(s)


@jit_cache.njit()
def _fit_kernel(Z, y, lam, tol, max_iter):
    n, p = Z.shape
    theta = np.zeros(p)
    g, H, L, delta, trial, stats = _newton_workspace(p)
    zmax = 0.0
    for i in range(n):
        zmax = max(zmax, _row_norm(Z, i))
    _newton(Z, y, n, zmax, theta, lam, tol, max_iter, g, H, L, delta, trial, stats)
    return theta, stats


@jit_cache.njit()
def _greedy_kernel(X, Y, coins, intercept, lam, tol, max_iter):
    R, n, d = X.shape
    n0 = coins.shape[1]
    p = d + 1 if intercept else d
    actions = np.empty((R, n), dtype=np.int8)
    coef = np.zeros((R, 2, p))
    # per replication: [iterations, halvings, max_iter hits, failures, objective evaluations,
    # ties, fits, max per fit]
    rep_stats = np.zeros((R, 8), dtype=np.int64)
    Zb = np.empty((2, n, p))  # each arm's design rows, contiguous
    yb = np.empty((2, n))
    g, H, L, delta, trial, stats = _newton_workspace(p)
    counts = np.zeros(2, dtype=np.int64)
    zmax = np.zeros(2)
    for r in range(R):
        counts[0] = 0
        counts[1] = 0
        zmax[0] = 0.0
        zmax[1] = 0.0
        for j in range(5):
            stats[j] = 0
        ties = 0
        fits = 0
        max_it = 0
        theta = coef[r]
        for t in range(n):
            if t < n0:
                arm = 1 if coins[r, t] > 0 else 0
            else:
                if t == n0:  # first fit of both arms, from 0, on their initialization data
                    for a in range(2):
                        it = _newton(
                            Zb[a],
                            yb[a],
                            counts[a],
                            zmax[a],
                            theta[a],
                            lam,
                            tol,
                            max_iter,
                            g,
                            H,
                            L,
                            delta,
                            trial,
                            stats,
                        )
                        fits += 1
                        max_it = max(max_it, it)
                s_minus = 0.0
                s_plus = 0.0
                for j in range(d):
                    s_minus += theta[0, j] * X[r, t, j]
                    s_plus += theta[1, j] * X[r, t, j]
                if intercept:
                    s_minus += theta[0, d]
                    s_plus += theta[1, d]
                if s_plus == s_minus:
                    ties += 1
                arm = 1 if s_plus >= s_minus else 0
            actions[r, t] = 1 if arm == 1 else -1
            k = counts[arm]
            for j in range(d):
                Zb[arm, k, j] = X[r, t, j]
            if intercept:
                Zb[arm, k, d] = 1.0
            yb[arm, k] = Y[r, t, arm]
            counts[arm] = k + 1
            zmax[arm] = max(zmax[arm], _row_norm(Zb[arm], k))
            if t >= n0:
                it = _newton(
                    Zb[arm],
                    yb[arm],
                    counts[arm],
                    zmax[arm],
                    theta[arm],
                    lam,
                    tol,
                    max_iter,
                    g,
                    H,
                    L,
                    delta,
                    trial,
                    stats,
                )
                fits += 1
                max_it = max(max_it, it)
        if n0 == n:  # no greedy round: still report the fits on all the data
            for a in range(2):
                it = _newton(
                    Zb[a],
                    yb[a],
                    counts[a],
                    zmax[a],
                    theta[a],
                    lam,
                    tol,
                    max_iter,
                    g,
                    H,
                    L,
                    delta,
                    trial,
                    stats,
                )
                fits += 1
                max_it = max(max_it, it)
        for j in range(5):
            rep_stats[r, j] = stats[j]
        rep_stats[r, 5] = ties
        rep_stats[r, 6] = fits
        rep_stats[r, 7] = max_it
    return actions, coef, rep_stats


# --------------------------------------------------------------------------------------------
# validation and public API
# --------------------------------------------------------------------------------------------


class LogisticFit(NamedTuple):
    """Result of :func:`fit_penalized_logistic`: score(x) = wᵀx + b (b = 0 without intercept).

    Parameters
    ----------
    w : (d,) float64 ndarray
        The fitted weights.
    b : float
        The fitted intercept (0.0 without intercept).
    iterations : int
        Newton iterations taken.
    converged : bool
        False if ``max_iter`` was hit or the line search or factorization gave up.
    """

    w: np.ndarray
    b: float
    iterations: int
    converged: bool


def fit_penalized_logistic(
    X, y, *, intercept=True, ridge=RIDGE, tol=TOL, max_iter=MAX_ITER
) -> LogisticFit:
    """The per-arm fit of :func:`greedy_logistic_actions` on one data set, from 0.

    Calls the same compiled Newton routine as the bandit kernel. ``converged`` is False if
    ``max_iter`` was hit (or the line search failed).

    Parameters
    ----------
    X : array_like, shape (m, d)
        Contexts: real, finite, d >= 1.
    y : array_like, shape (m,)
        Responses in [0, 1], finite.
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
    LogisticFit
        The weights, intercept, iterations and convergence flag.

    Raises
    ------
    NBLInputError
        If an option is invalid, ``X`` or ``y`` is not a finite real array of the right
        dimension, their lengths differ, d = 0, or ``y`` leaves [0, 1].
    """
    intercept, ridge, tol, max_iter = check_greedy_options(intercept, ridge, tol, max_iter)
    X = real_array("X", X, 2)
    y = real_array("y", y, 1)
    if y.shape[0] != X.shape[0]:
        raise NBLInputError(f"X has {X.shape[0]} rows but y has {y.shape[0]} entries")
    if X.shape[1] < 1:
        raise NBLInputError("X must have at least one column (d >= 1)")
    if np.any((y < 0) | (y > 1)):
        raise NBLInputError("y must lie in [0, 1]")
    Z = np.hstack([X, np.ones((X.shape[0], 1))]) if intercept else X
    jit_cache.enable()  # the input is checked: the kernels' cache may be written
    theta, stats = _fit_kernel(np.ascontiguousarray(Z), y, ridge, tol, max_iter)
    d = X.shape[1]
    b = float(theta[d]) if intercept else 0.0
    return LogisticFit(
        w=theta[:d].copy(),
        b=b,
        iterations=int(stats[0]),
        converged=bool(stats[2] == 0 and stats[3] == 0),
    )


def greedy_logistic_actions(
    X, Y, coins, *, intercept=True, ridge=RIDGE, tol=TOL, max_iter=MAX_ITER
):
    """Actions of Greedy Logistic on R replications (see the module docstring for the rule).

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts (real, finite; converted to float64).
    Y : array_like, shape (R, n, 2)
        Potential rewards in [0, 1]; column 0 = arm −1, column 1 = arm +1.
    coins : array_like, shape (R, n0)
        Entries ±1, the randomized-initialization actions (n0 ≤ n).
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
    actions : (R, n) int8 ndarray
        The actions in {−1, +1}.
    info : dict
        Diagnostics, totals over all replications unless noted —
        ``newton_iterations`` (int), ``fits`` (number of Newton solves), ``max_iterations_per_fit``,
        ``max_iter_hits`` (fits stopped by max_iter), ``line_search_halvings``,
        ``objective_evaluations`` (line-search passes; 0 while every full step is certified),
        ``failures`` (line search/factorization gave up; 0 in practice), ``ties`` (greedy rounds
        with score_+ = score_− exactly, played +1), ``per_replication`` (R, 8) int64 array of the
        same counts per replication (columns: iterations, halvings, max_iter hits, failures,
        objective evaluations, ties, fits, max per fit), ``w`` (R, 2, d) and ``b`` (R, 2) — each
        arm's final fit (arm axis 0 = arm −1); ``b`` is 0 without intercept.

    Raises
    ------
    NBLInputError
        On bad input (:func:`greedy_inputs`).
    """
    inp = greedy_inputs(X, Y, coins, intercept=intercept, ridge=ridge, tol=tol, max_iter=max_iter)
    jit_cache.enable()  # the input is checked: the kernels' cache may be written
    actions, coef, rep = _greedy_kernel(*inp)
    return actions, greedy_info(coef, rep, inp.intercept)
