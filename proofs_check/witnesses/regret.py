"""Regret (eq:regret) and the actions of the three policies, computed without the library's
policies or its regret accounting.

* :func:`nbl_actions` — alg:nbl written out from the paper: Stage I plays the randomized
  coins for t < n0 and starts from v_{n0} = Σ A_t Y_t X_t / ‖·‖ (e1 if the sum is 0); then
  A_t = sgn(v_{t−1}ᵀX_t) (sgn 0 = +1), G_t = P⊥_{v} (A_t Y_t X_t) (eq:tangent_update) and
  v_t = (v + η_t G_t)/‖v + η_t G_t‖ (eq:nbl_update), η_t = γ/(t + t0) with t the 1-based round;
* :func:`greedy_logistic_actions` — Greedy Logistic (app:logistic-comparison) with its own
  penalized logistic MLE per arm (ridge 1e-6 on every coefficient, intercept, the library's
  documented settings), solved by Newton's method with step halving written here (numpy
  ``linalg.solve``), warm-started, to ‖step‖∞ < 1e-10 or Newton decrement < 1e-10; the greedy
  rule plays +1 on ties;
* :func:`regret_by_loop` — R_t = Σ_{s ≤ t} {m_{a*(X_s)}(X_s) − m_{A_s}(X_s)} with
  m_a(x) = g(β_aᵀx), a plain loop over the recorded actions, summed with ``math.fsum``.

Shared with the library: the realization (contexts, potential rewards, coins) drawn by
``nbl_sim.engine.environment`` and the link's g parsed by ``nbl_theory.Link`` (passed in by the
caller).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "nbl_actions",
    "nbl_from_start",
    "regret_at",
    "greedy_logistic_actions",
    "oracle_actions",
    "regret_by_loop",
    "logistic_fit",
    "negative_terms",
    "shifted",
    "any_nonzero",
]


def nbl_actions(X, Y, coins, *, gamma: float = 10.0, t0: float = 500.0) -> np.ndarray:
    """Actions (R, n) int8 of alg:nbl on the realization (module docstring)."""
    R, n, d = X.shape
    n0 = coins.shape[1]
    A = np.empty((R, n), dtype=np.int8)
    A[:, :n0] = coins
    for r in range(R):
        s = np.zeros(d)
        for t in range(n0):
            a = int(coins[r, t])
            s += a * Y[r, t, 1 if a > 0 else 0] * X[r, t]
        nrm = math.sqrt(float(s @ s))
        v = s / nrm if nrm > 0 else np.eye(d)[0]
        for t in range(n0, n):
            x = X[r, t]
            a = 1 if float(v @ x) >= 0 else -1
            w = a * Y[r, t, 1 if a > 0 else 0] * x
            g = w - float(v @ w) * v
            z = v + gamma / (t + 1 + t0) * g
            v = z / math.sqrt(float(z @ z))
            A[r, t] = a
    return A


def nbl_from_start(X, Y, v0, *, gamma: float, t0: float, rounds) -> tuple:
    """alg:nbl without Stage I from the unit start ``v0`` (app:stochastic-nbl), all replications
    at once (``gamma`` a scalar or one per replication): A_t = sgn(v_{t−1}ᵀX_t) (sgn 0 = +1),
    G_t = P⊥_v(A_t Y_t X_t), v_t = (v + η_t G_t)/‖·‖, η_t = γ/(t + t0), t the 1-based round.

    Returns
    -------
    actions : ndarray (R, n) int8
    V : ndarray (R, len(rounds), d)
        v_t at the 0-based-count ``rounds`` (t = 0 is v0).
    """
    R, n, d = X.shape
    V = np.tile(np.asarray(v0, dtype=float), (R, 1))
    gamma = np.asarray(gamma, dtype=float).reshape(-1, 1)  # a scalar, or one per replication
    want = {int(t): j for j, t in enumerate(rounds)}
    out = np.empty((R, len(want), d))
    A = np.empty((R, n), dtype=np.int8)
    if 0 in want:
        out[:, want[0]] = V
    for t in range(n):
        x = X[:, t]
        a = np.where((V * x).sum(1) >= 0, 1, -1)
        y = np.where(a > 0, Y[:, t, 1], Y[:, t, 0])
        w = (a * y)[:, None] * x
        g = w - (V * w).sum(1)[:, None] * V
        z = V + gamma / (t + 1 + t0) * g
        V = z / np.sqrt((z * z).sum(1))[:, None]
        A[:, t] = a
        if t + 1 in want:
            out[:, want[t + 1]] = V
    return A, out


def regret_at(g, beta, v_star, X, actions, rounds) -> np.ndarray:
    """(R, len(rounds)) cumulative regret R_t (eq:regret) at the 1-based ``rounds``: the
    vectorized form of :func:`regret_by_loop` (m_a(x) = g(β_aᵀx), a*(x) = sgn(v*ᵀx), sgn 0 =
    +1), summed by ``numpy.cumsum`` (rounding ~1e-13 for 10⁴ terms of size ≤ 1)."""
    m = np.asarray(g(np.einsum("rtd,ad->rta", X, beta)), dtype=float)
    best = np.where(X @ v_star >= 0, m[..., 1], m[..., 0])
    played = np.where(actions > 0, m[..., 1], m[..., 0])
    cum = np.concatenate([np.zeros((X.shape[0], 1)), np.cumsum(best - played, axis=1)], axis=1)
    return cum[:, np.asarray(rounds, dtype=int)]


def _objective(Z, y, w, ridge):
    eta = Z @ w
    return float(np.sum(np.logaddexp(0.0, eta) - y * eta) + ridge / 2 * (w @ w))


def logistic_fit(Z, y, w0, ridge: float = 1e-6, tol: float = 1e-10, max_iter: int = 50):
    """argmin Σ [log(1 + e^{zᵢᵀw}) − yᵢ zᵢᵀw] + (ridge/2)‖w‖² by Newton's method from ``w0``;
    stops when the step has ‖·‖∞ < ``tol`` or the Newton decrement is < ``tol`` (that last step
    applied). A full step with max‖zᵢ‖·‖step‖₂ ≤ 1 is taken as it is: the logistic loss is
    generalized self-concordant (|ℓ‴| ≤ ℓ″), so such a step decreases the objective (Bach 2010);
    otherwise the step is halved until the objective does not increase."""
    w = np.array(w0, dtype=float)
    p = Z.shape[1]
    zmax = float(np.sqrt((Z * Z).sum(1)).max()) if len(Z) else 0.0
    for _ in range(max_iter):
        mu = 0.5 * (1 + np.tanh(0.5 * (Z @ w)))  # sigmoid, overflow-free
        grad = Z.T @ (mu - y) + ridge * w
        H = (Z * (mu * (1 - mu))[:, None]).T @ Z + ridge * np.eye(p)
        step = np.linalg.solve(H, grad)
        dec = math.sqrt(max(float(grad @ step), 0.0))
        if np.max(np.abs(step)) < tol or dec < tol:
            return w - step
        t = 1.0
        if zmax * math.sqrt(float(step @ step)) > 1:
            f0 = _objective(Z, y, w, ridge)
            while t > 1e-12 and _objective(Z, y, w - t * step, ridge) > f0:
                t /= 2
        w = w - t * step
    return w


def greedy_logistic_actions(
    X, Y, coins, *, ridge: float = 1e-6, intercept: bool = True
) -> np.ndarray:
    """Actions (R, n) int8 of Greedy Logistic with intercept (or without: ``intercept=False``)
    on the realization (module docstring): coins for t < n0; each arm fit at t = n0 on its
    initialization data (from 0), then A_t = +1 iff score_+ ≥ score_−, score_a(x) = w_aᵀ(x, 1)
    (w_aᵀx without intercept), and arm A_t refit (warm)."""
    return np.stack(
        [_greedy_one(X[r], Y[r], coins[r], ridge, intercept) for r in range(X.shape[0])]
    )


def _greedy_one(X, Y, coins, ridge, intercept=True):
    n, d = X.shape
    n0 = coins.shape[0]
    A = np.empty(n, dtype=np.int8)
    A[:n0] = coins
    Z = np.concatenate([X, np.ones((n, 1))], axis=1) if intercept else np.array(X, float)
    d = Z.shape[1] - 1
    data = {a: (np.empty((n, d + 1)), np.empty(n)) for a in (-1, 1)}  # each arm's rows
    count = {-1: 0, 1: 0}

    def add(a, t):
        data[a][0][count[a]] = Z[t]
        data[a][1][count[a]] = Y[t, 1 if a > 0 else 0]
        count[a] += 1

    def fit(a, start):
        k = count[a]
        return logistic_fit(data[a][0][:k], data[a][1][:k], start, ridge) if k else start

    for t in range(n0):
        add(int(coins[t]), t)
    w = {a: fit(a, np.zeros(d + 1)) for a in (-1, 1)}
    for t in range(n0, n):
        a = 1 if float(Z[t] @ w[1]) >= float(Z[t] @ w[-1]) else -1
        A[t] = a
        add(a, t)
        w[a] = fit(a, w[a])
    return A


def regret_by_loop(g, beta, v_star, X, actions, rounds, sign: int = 1) -> np.ndarray:
    """(R, len(rounds)) cumulative regret R_t at the 1-based ``rounds`` (eq:regret): a plain loop
    over s = 1..t of m_{a*(X_s)}(X_s) − m_{A_s}(X_s), a*(x) = sgn(``sign``·v*ᵀx) (sgn 0 = +1),
    m_a(x) = g(β_aᵀx) (``beta`` rows: arm −1, arm +1), each prefix summed by ``math.fsum``."""
    R, n, _ = X.shape
    out = np.empty((R, len(rounds)))
    for r in range(R):
        terms = []
        for s in range(n):
            x = X[r, s]
            best = 1 if sign * float(v_star @ x) >= 0 else -1
            m = {-1: float(g(np.array([beta[0] @ x]))[0]), 1: float(g(np.array([beta[1] @ x]))[0])}
            terms.append(m[best] - m[int(actions[r, s])])
        for j, t in enumerate(rounds):
            out[r, j] = math.fsum(terms[:t])
    return out


def oracle_actions(v_star, X) -> np.ndarray:
    """a*(X_t) = sgn(v*ᵀX_t), sgn 0 = +1 (eq:separation_direction), (R, n) int8."""
    return np.where(X @ v_star >= 0, 1, -1).astype(np.int8)


def negative_terms(g, beta, v_star, X, actions) -> int:
    """How many instantaneous regrets m_{a*}(X_t) − m_{A_t}(X_t) are < −1e-15 (none by
    eq:separation_direction)."""
    m = g(np.einsum("rtd,ad->rta", X, beta))
    best = np.where(X @ v_star >= 0, m[..., 1], m[..., 0])
    played = np.where(actions > 0, m[..., 1], m[..., 0])
    return int(np.sum(best - played < -1e-15))


def shifted(rounds, short: int) -> tuple:
    """The rounds t − ``short`` (``short`` = 1: the definition summed one round short, a
    mutant)."""
    return tuple(t - short for t in rounds)


def any_nonzero(a) -> bool:
    """Whether any entry of ``a`` is not 0."""
    return bool(np.any(np.asarray(a) != 0))
