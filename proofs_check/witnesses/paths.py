"""NBL paths re-run independently of the compiled kernel, and the path statistics the
stochastic analysis (sec:regret and its appendices) manipulates.

:func:`run_paths` re-runs alg:nbl in numpy from the realization ``Environment.draw`` gives (the
same one ``nbl_sim.engine.nbl_kernel.nbl_run`` uses) and records every per-step quantity of the
proofs; it also runs the compiled kernel on that realization and reports the largest difference,
so a claim can confirm the re-run reproduces ``nbl_run`` before checking anything else.
:func:`kernel_errors` and the runners built on it (among them
:func:`localization_probabilities`) use the compiled kernel itself (for long horizons), as the
toolkit's simulation of the algorithm. The statistics the recursion and localization claims
compare with the paper's inequalities are computed here from those per-step quantities
(:func:`pathwise_slack`, :func:`xi_statistics`, :func:`one_step_moments`,
:func:`stopped_recursion_slacks`, :func:`pooled_mean_zero`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from nbl_sim.engine.environment import Environment
from nbl_sim.engine.nbl_kernel import nbl_run
from nbl_sim.engine.reference import nbl as nbl_reference

from .lambda0 import h_along
from .stats import mean_se

__all__ = [
    "environment",
    "reward_bound",
    "Paths",
    "run_paths",
    "exit_index",
    "stopped_terms",
    "one_step_sample",
    "cap_point",
    "kernel_errors",
    "tau_from_sq",
    "init_exceed",
    "regret_by_horizon",
    "localized_error_run",
    "literal_step",
    "reference_errors",
    "WITNESS_PATHS",
    "agree_on_paths",
    "drift_sums",
    "pathwise_slack",
    "xi_statistics",
    "cap_angle",
    "direction_at_angle",
    "one_step_moments",
    "distance_at_angle",
    "stopped_errors",
    "stopped_recursion_slacks",
    "pooled_mean_zero",
    "localization_probabilities",
]

#: How many replications (the first ones) the witness re-runs beside a kernel run: a wrong
#: update, step size, initialization or regret in the library changes every path, so a few
#: paths catch it; 20 keeps the re-run under a second for 10^4 rounds.
WITNESS_PATHS = 20


def agree_on_paths(tol: float):
    """The agreement rule of the witness's re-run of the first paths with the kernel's: arrays
    of the same shape whose largest |library − witness| is at most ``tol``.

    Returns
    -------
    callable
        ``agree(library, witness) -> bool``; its docstring states the rule (quoted in a
        toolkit-defect message).
    """

    def agree(a, b) -> bool:
        return a.shape == b.shape and float(np.abs(a - b).max()) <= tol

    agree.__doc__ = "max |library - witness| over the first paths' values <= " + f"{tol:g}".replace(
        "e-0", "e-"
    )
    return agree


@functools.cache
def environment(
    link, delta: str, d: int = 2, reward: str = "bernoulli", geometry_seed: int | None = None
) -> Environment:
    """The bandit instance of a check: the paper's rotation (v* = e1, θ ∝ e2) when
    ``geometry_seed`` is None, else a random v*, θ from that seed (cached per arguments)."""
    if geometry_seed is None:
        return Environment.build(link, delta, d, reward=reward)
    return Environment.build(
        link,
        delta,
        d,
        v_star="random",
        theta_dir="random",
        geometry_seed=geometry_seed,
        reward=reward,
    )


def reward_bound(env: Environment) -> float:
    """The reward bound B_Y of assum:bounded_rewards: 1 for Bernoulli rewards, 1 + b for
    Y = g + U(−b, b) (every link used with bounded rewards here maps into [0, 1])."""
    return 1.0 if env.reward == "bernoulli" else 1.0 + env.noise


@dataclass
class Paths:
    """Per-step quantities of NBL paths (:func:`run_paths`); index k ↔ round t = n0 + 1 + k
    (Stage II)."""

    n0: int
    e0: np.ndarray  # (R,) e_{n0}
    e_prev: np.ndarray  # (R, m) e_{t−1}
    e: np.ndarray  # (R, m) e_t
    eta: np.ndarray  # (m,) η_t
    inner: np.ndarray  # (R, m) ⟨v_{t−1} − v*, G_t⟩
    gsq: np.ndarray  # (R, m) ‖G_t‖²
    xsq: np.ndarray  # (R, m) ‖X_t‖²
    ubound: np.ndarray  # (R, m) |⟨P⊥_{v_{t−1}}(v_{t−1} − v*), X_t⟩|
    slack_formula: np.ndarray  # (R, m) (r − 1)(r + 1 − 2xᵀv*/r), r = ‖v_{t−1} + η_t G_t‖
    v_prev: np.ndarray | None  # (R, m, d) v_{t−1} (if kept)
    regret: np.ndarray  # (R, n) instantaneous regret r_t, all rounds
    match_nbl_run: float  # max |e_t(re-run) − e_t(library)| over rounds ≥ n0 and both backends


def run_paths(
    env,
    seed: int,
    R: int,
    n: int,
    *,
    gamma: float,
    t0: float,
    n0: int = 0,
    v0=None,
    keep_v: bool = False,
    rep0: int = 0,
) -> Paths:
    """Re-run alg:nbl in numpy (all replications at once) on ``env.draw(seed, ...)`` and record
    every per-step quantity the stochastic analysis uses.

    The update is written from the paper (A = sgn(vᵀx) with sgn 0 = +1, W = A Y_A x,
    G = W − (vᵀW)v, v ← (v + ηG)/‖v + ηG‖, η_t = γ/(t + t0)); Stage I is the randomized
    initialization v_{n0} = ΣW/‖ΣW‖ unless a start ``v0`` is given (then n0 = 0). The same
    realization is run through both backends of the library (the compiled kernel ``nbl_run`` and
    the numpy reference :func:`nbl_sim.engine.reference.nbl`) and the largest difference of
    ‖v_t − v*‖² from the re-run over all rounds and both backends is recorded (``match_nbl_run``,
    inf if any action differs).

    Parameters
    ----------
    env : nbl_sim.engine.environment.Environment
    seed, R, n : int
        Realization seed, replications (``rep0`` .. ``rep0 + R − 1``) and horizon.
    gamma, t0 : float
        Step sizes η_t = γ/(t + t0).
    n0 : int
        Stage-I rounds (ignored when ``v0`` is given).
    v0 : array_like, optional
        Start direction.
    keep_v : bool
        Record v_{t−1} (memory R × (n − n0) × d).

    Returns
    -------
    Paths
    """
    real = env.draw(seed, range(rep0, rep0 + R), n, n0)
    X, Y = real.X, real.Y
    vs = env.v_star
    d = env.d
    if v0 is None:
        c = real.coins.astype(float)
        y0 = np.where(real.coins > 0, Y[:, :n0, 1], Y[:, :n0, 0])
        S = ((c * y0)[..., None] * X[:, :n0]).sum(axis=1)
        nrm = np.linalg.norm(S, axis=1)
        V = np.where(nrm[:, None] > 0, S / np.where(nrm > 0, nrm, 1.0)[:, None], np.eye(d)[0])
        actions = np.empty((R, n), dtype=np.int8)
        actions[:, :n0] = real.coins
    else:
        V = np.tile(np.asarray(v0, float) / np.linalg.norm(v0), (R, 1))
        actions = np.empty((R, n), dtype=np.int8)
        n0 = 0
    m = n - n0
    eta = gamma / (np.arange(n0 + 1, n + 1, dtype=float) + t0)
    out = {k: np.empty((R, m)) for k in ("e_prev", "e", "inner", "gsq", "xsq", "ubound", "slack")}
    vkeep = np.empty((R, m, d)) if keep_v else None
    e0 = ((V - vs) ** 2).sum(1)
    for k in range(m):
        t = n0 + k
        x = X[:, t]
        s = (V * x).sum(1)
        a = np.where(s >= 0, 1, -1)
        y = np.where(a > 0, Y[:, t, 1], Y[:, t, 0])
        W = (a * y)[:, None] * x
        G = W - (V * W).sum(1)[:, None] * V
        D = V - vs
        out["e_prev"][:, k] = (D * D).sum(1)
        out["inner"][:, k] = (D * G).sum(1)
        out["gsq"][:, k] = (G * G).sum(1)
        out["xsq"][:, k] = (x * x).sum(1)
        PD = D - (V * D).sum(1)[:, None] * V
        out["ubound"][:, k] = np.abs((PD * x).sum(1))
        if keep_v:
            vkeep[:, k] = V
        xt = V + eta[k] * G
        r = np.linalg.norm(xt, axis=1)
        out["slack"][:, k] = (r - 1) * (r + 1 - 2 * (xt @ vs) / r)
        V = xt / r[:, None]
        out["e"][:, k] = ((V - vs) ** 2).sum(1)
        actions[:, t] = a
    opt = env.optimal_actions(X)
    gap = np.abs(real.means[..., 1] - real.means[..., 0])
    regret = np.where(actions != opt, gap, 0.0)
    # the same realization through both backends of the library: the compiled kernel and the
    # plain-numpy reference that defines the numbers of record
    mine = np.concatenate([e0[:, None], out["e"]], axis=1)
    match = 0.0
    for run in (nbl_run, nbl_reference):
        tr = run(
            X,
            Y,
            real.coins if v0 is None else np.zeros((R, 0), np.int8),
            vs,
            v0=None if v0 is None else np.asarray(v0, float),
            gamma=gamma,
            t0=t0,
            record_rounds=np.arange(max(n0, 1) if v0 is None else 0, n + 1),
        )
        diff = np.abs(tr.sq_error - mine)  # a round the library left unrecorded (NaN) differs
        match = max(match, math.inf if np.isnan(diff).any() else float(diff.max()))
        if not np.array_equal(tr.actions, actions):
            match = math.inf
    return Paths(
        n0,
        e0,
        out["e_prev"],
        out["e"],
        eta,
        out["inner"],
        out["gsq"],
        out["xsq"],
        out["ubound"],
        out["slack"],
        vkeep,
        regret,
        match,
    )


def exit_index(e0: np.ndarray, e: np.ndarray, r0: float) -> np.ndarray:
    """τ − n0 per path, τ = inf{t ≥ n0: ‖v_t − v*‖ > r0}, from e_{n0} (R,) and e_t (R, m); a
    large sentinel (> 1e18) if the path never exits."""
    E = np.concatenate([e0[:, None], e], axis=1)
    ex = E > r0 * r0
    return np.where(ex.any(1), ex.argmax(1), np.iinfo(np.int64).max // 2)


def stopped_terms(env: Environment, p: Paths, r0: float):
    """The stopped quantities of app:localization along the paths ``p`` (kept v required).

    Returns
    -------
    tau : ndarray
        τ − n0 (:func:`exit_index`).
    ind : ndarray
        1{t ≤ τ} per step.
    dh : ndarray
        ⟨v_{t−1} − v*, h(v_{t−1})⟩ (h from :func:`.lambda0.h_along`).
    M, Q : ndarray
        The running sums of eq:localization-martingale (2η_t⟨v_{t−1} − v*, ξ_t⟩1{t ≤ τ}) and
        eq:localization-quadratic (η_t²‖G_t‖²1{t ≤ τ}).
    """
    tau = exit_index(p.e0, p.e, r0)
    k = np.arange(1, p.e.shape[1] + 1)
    ind = (k[None, :] <= tau[:, None]).astype(float)
    h = h_along(env, p.v_prev)
    dh = ((p.v_prev - env.v_star) * h).sum(-1)
    eta = p.eta[None, :]
    M = np.cumsum(2 * eta * (p.inner - dh) * ind, axis=1)
    Q = np.cumsum(eta**2 * p.gsq * ind, axis=1)
    return tau, ind, dh, M, Q


def one_step_sample(env: Environment, v: np.ndarray, eta: float, N: int, seed: int):
    """N independent next NBL steps from the fixed direction v with step η: (e_t samples,
    ‖G‖² samples), from ``env.draw(seed, [0], N, 0)``."""
    real = env.draw(seed, [0], N, 0)
    X, Y = real.X[0], real.Y[0]
    s = X @ v
    a = np.where(s >= 0, 1, -1)
    y = np.where(a > 0, Y[:, 1], Y[:, 0])
    W = (a * y)[:, None] * X
    G = W - (W @ v)[:, None] * v
    xt = v + eta * G
    vn = xt / np.linalg.norm(xt, axis=1)[:, None]
    return ((vn - env.v_star) ** 2).sum(1), (G * G).sum(1)


def cap_point(env: Environment, r: float, seed: int) -> np.ndarray:
    """A unit v with ‖v − v*‖ = r in a seeded random tangent direction at v*."""
    u = np.random.default_rng(seed).standard_normal(env.d)
    u -= (u @ env.v_star) * env.v_star
    u /= np.linalg.norm(u)
    a = 2 * math.asin(r / 2)
    return math.cos(a) * env.v_star + math.sin(a) * u


def kernel_errors(
    env: Environment,
    seed: int,
    R: int,
    n: int,
    n0: int,
    gamma: float,
    t0: float,
    chunk: int = 250,
    coins_n0: int | None = None,
):
    """e_t for t = n0..n (R, n − n0 + 1) and the cumulative regret R_n (R,), from
    ``nbl_run`` (compiled kernel) on ``env.draw(seed, ...)``, in chunks of replications.
    ``coins_n0`` draws that many coins (>= n0) so runs with different n0 share realizations."""
    cn = max(n0, coins_n0 or n0)
    sq = np.empty((R, n - n0 + 1))
    reg = np.empty(R)
    for c0 in range(0, R, chunk):
        idx = range(c0, min(R, c0 + chunk))
        real = env.draw(seed, idx, n, cn)
        tr = nbl_run(
            real.X,
            real.Y,
            real.coins[:, :n0],
            env.v_star,
            gamma=gamma,
            t0=t0,
            record_rounds=np.arange(n0, n + 1),
        )
        sq[c0 : c0 + len(idx)] = tr.sq_error
        opt = env.optimal_actions(real.X)
        gap = np.abs(real.means[..., 1] - real.means[..., 0])
        reg[c0 : c0 + len(idx)] = np.where(tr.actions != opt, gap, 0.0).sum(1)
    return sq, reg


def tau_from_sq(sq: np.ndarray, r0: float) -> np.ndarray:
    """τ − n0 from e_t, t = n0..n (a large sentinel if no exit)."""
    ex = sq > r0 * r0
    return np.where(ex.any(1), ex.argmax(1), np.iinfo(np.int64).max // 2)


def init_exceed(
    env: Environment, grid: np.ndarray, R: int, r: float, seed: int, chunk: int = 500
) -> np.ndarray:
    """P(‖v_{n0} − v*‖ > r) of the randomized initialization for every n0 in ``grid`` (all n0
    from one prefix-sharing realization per replication; W̄ = 0 counts as an exceedance)."""
    n = int(grid[-1])
    count = np.zeros(grid.size)
    for r0 in range(0, R, chunk):
        real = env.draw(seed, range(r0, min(R, r0 + chunk)), n, n)
        c = real.coins.astype(float)
        y = np.where(real.coins > 0, real.Y[..., 1], real.Y[..., 0])
        S = np.cumsum((c * y)[..., None] * real.X, axis=1)[:, grid - 1]
        nrm = np.linalg.norm(S, axis=2)
        v = S / np.where(nrm > 0, nrm, 1.0)[..., None]
        e = ((v - env.v_star) ** 2).sum(2)
        count += ((e > r * r) | (nrm == 0)).sum(0)
    return count / R


def stage_one_errors(env: Environment, seed: int, reps: int, n0: int) -> np.ndarray:
    """The witness's e_{n0} = ‖v_{n0} − v*‖² of the randomized initialization on replications
    0..reps−1 of ``env.draw(seed, ..., n0, n0)``: v_{n0} = Σ_{t≤n0} A_t Y_t X_t/‖·‖ (the
    running sum of :func:`init_exceed`; e₁ when the sum is 0, the algorithm's fallback)."""
    real = env.draw(seed, range(reps), n0, n0)
    c = real.coins.astype(float)
    y = np.where(real.coins > 0, real.Y[..., 1], real.Y[..., 0])
    S = np.cumsum((c * y)[..., None] * real.X, axis=1)[:, -1]
    nrm = np.linalg.norm(S, axis=1)
    v = np.where(nrm[:, None] > 0, S / np.where(nrm > 0, nrm, 1.0)[:, None], np.eye(env.d)[0])
    return ((v - env.v_star) ** 2).sum(1)


@functools.cache
def regret_by_horizon(
    env: Environment,
    ns: tuple,
    C0: float,
    R: int,
    seed: int,
    gamma: float = 5.0,
    keep_errors: bool = False,
):
    """R_n for n in ``ns`` with n0 = ceil(C0 (d + log n)), t0 = n0, on one realization (common
    random numbers: the runs for smaller n use its prefix), plus e_{n0} and whether the path
    leaves the unit ball ‖v − v*‖ ≤ 1 (compiled kernel, chunks of 100 replications).

    Returns
    -------
    (n0s, regret, e_n0, exits) : dicts keyed by n
        and, with ``keep_errors``, a fifth: e_t (t = n0..n) of the first :data:`WITNESS_PATHS`
        paths, keyed by n (for :func:`reference_errors`' comparison).
    """
    d = env.d
    n0s = {n: math.ceil(C0 * (d + math.log(n))) for n in ns}
    nmax, cmax = max(ns), max(n0s.values())
    regret = {n: np.empty(R) for n in ns}
    e_n0 = {n: np.empty(R) for n in ns}
    exits = {n: np.empty(R, dtype=bool) for n in ns}
    head = {}
    chunk = 100
    for c0 in range(0, R, chunk):
        idx = range(c0, min(R, c0 + chunk))
        real = env.draw(seed, idx, nmax, cmax)
        opt = env.optimal_actions(real.X)
        gap = np.abs(real.means[..., 1] - real.means[..., 0])
        for n in ns:
            n0 = n0s[n]
            tr = nbl_run(
                real.X[:, :n],
                real.Y[:, :n],
                real.coins[:, :n0],
                env.v_star,
                gamma=gamma,
                t0=float(n0),
                record_rounds=np.arange(n0, n + 1),
            )
            sl = slice(c0, c0 + len(idx))
            regret[n][sl] = np.where(tr.actions != opt[:, :n], gap[:, :n], 0.0).sum(1)
            e_n0[n][sl] = tr.sq_error[:, 0]
            exits[n][sl] = (tr.sq_error > 1.0).any(1)
            if c0 == 0:
                head[n] = tr.sq_error[:WITNESS_PATHS].copy()
    return (n0s, regret, e_n0, exits) + ((head,) if keep_errors else ())


@functools.cache
def localized_error_run(
    env: Environment, R: int, n: int, n0: int, gamma: float, seed: int, r0: float
) -> dict:
    """a_t = E[e_t 1{τ > t}] for t = n0..n (t0 = n0, C_off = 1) over ``R`` kernel paths, with
    its standard error, the means over 10 batches of paths (for a slope's SE) and E[e_{n0}].

    Returns
    -------
    dict
        ``t, t0, n0, gamma, a, se, batches, e_n0, R``, and ``sq_head``: the kernel's e_t of the
    first :data:`WITNESS_PATHS` paths (for :func:`reference_errors`' comparison).
    """
    t0 = float(n0)
    sq, _ = kernel_errors(env, seed, R, n, n0, gamma, t0)
    head = sq[:WITNESS_PATHS].copy()
    tau = tau_from_sq(sq, r0)
    k = np.arange(sq.shape[1])
    y = sq * (k[None, :] < tau[:, None])  # e_t 1{τ > t}, t = n0 + k
    a, se = mean_se(y)
    batch_means = np.stack([b.mean(0) for b in np.array_split(y, 10)])  # for the slope's SE
    return dict(
        t=n0 + k,
        t0=t0,
        n0=n0,
        gamma=gamma,
        a=a,
        se=se,
        batches=batch_means,
        e_n0=float(sq[:, 0].mean()),
        R=R,
        sq_head=head,
    )


def literal_step(v, x, y, eta):
    """One round of alg:nbl written from the paper: A = sgn(vᵀx) (sgn 0 = +1, the greedy rule
    of lem:conditional_population_field), W = A Y_A x, G = (I − vvᵀ)W, v ← (v + ηG)/‖v + ηG‖.

    Returns
    -------
    (A, v_next, G)
    """
    d = v.size
    a = 1 if float(v @ x) >= 0 else -1
    w = a * (y[1] if a > 0 else y[0]) * x
    g = (np.eye(d) - np.outer(v, v)) @ w
    nxt = v + eta * g
    return a, nxt / math.sqrt(float(nxt @ nxt)), g


def reference_errors(
    env: Environment,
    seed: int,
    R: int,
    n: int,
    n0: int,
    gamma: float,
    t0: float,
    coins_n0: int | None = None,
):
    """The witness's own run of alg:nbl on replications 0..R−1 of ``env.draw(seed, ...)``, in
    numpy (no compiled kernel, no library policy or regret): e_t = ‖v_t − v*‖² for
    t = n0..n (R, n − n0 + 1) and the cumulative regret R_n (R,).

    Stage I: v_{n0} = Σ_{t<n0} A_t Y_t X_t/‖·‖ (e₁ if the sum is 0) with the coins A_t; then
    A_t = sgn(v_{t−1}ᵀX_t) (sgn 0 = +1), G_t = P⊥(A_t Y_t X_t), v_t = (v + η_t G_t)/‖·‖,
    η_t = γ/(t + t0), t the 1-based round (eq:nbl_update). Regret: Σ_t |m_+ − m_−|(X_t) over
    the rounds whose action differs from a*(X_t) = sgn(v*ᵀX_t) (sgn 0 = +1), with the means
    m_a(X_t) of the realization (eq:regret). ``coins_n0`` draws that many coins (>= n0), as
    :func:`kernel_errors` and :func:`regret_by_horizon` do, so the realization is theirs.
    """
    real = env.draw(seed, range(R), n, max(n0, coins_n0 or n0))
    X, Y, coins = real.X, real.Y, real.coins[:, :n0]
    vs = env.v_star
    d = env.d
    c = coins.astype(float)
    y0 = np.where(coins > 0, Y[:, :n0, 1], Y[:, :n0, 0])
    S = ((c * y0)[..., None] * X[:, :n0]).sum(axis=1)
    nrm = np.linalg.norm(S, axis=1)
    V = np.where(nrm[:, None] > 0, S / np.where(nrm > 0, nrm, 1.0)[:, None], np.eye(d)[0])
    acts = np.empty((R, n), dtype=np.int8)
    acts[:, :n0] = coins
    sq = np.empty((R, n - n0 + 1))
    sq[:, 0] = ((V - vs) ** 2).sum(1)
    for t in range(n0, n):
        x = X[:, t]
        a = np.where((V * x).sum(1) >= 0, 1, -1)
        y = np.where(a > 0, Y[:, t, 1], Y[:, t, 0])
        W = (a * y)[:, None] * x
        G = W - (V * W).sum(1)[:, None] * V
        z = V + gamma / (t + 1 + t0) * G
        V = z / np.linalg.norm(z, axis=1)[:, None]
        sq[:, t - n0 + 1] = ((V - vs) ** 2).sum(1)
        acts[:, t] = a
    best = np.where(X @ vs >= 0, 1, -1)
    gap = np.abs(real.means[..., 1] - real.means[..., 0])
    return sq, np.where(acts != best, gap, 0.0).sum(1)


def drift_sums(p: Paths, env: Environment) -> np.ndarray:
    """Per path, Σ_t ⟨v_{t−1} − v*, h(v_{t−1})⟩ along the re-run ``p`` (run with
    ``keep_v=True``), h by :func:`.lambda0.h_along` (the spline of the witness's field)."""
    return ((p.v_prev - env.v_star) * h_along(env, p.v_prev)).sum(-1).sum(1)


def pathwise_slack(terms: dict, quad_coef: float = 1.0, slack_scale: float = 1.0) -> dict:
    """The slack of eq:pathwise-error-recursion at every step of a re-run, from its per-step
    ``terms`` (e_prev, e, eta, inner = ⟨v_{t−1} − v*, G_t⟩, gsq = ‖G_t‖², slack_formula):
    e_{t−1} + 2η_t⟨v_{t−1} − v*, G_t⟩ + quad_coef·η_t²‖G_t‖² − e_t (quad_coef = 1 as printed).

    Returns
    -------
    dict
        ``min``, ``max``, ``median`` of the slack, ``formula_error`` = max |slack −
        slack_scale·(r − 1)(r + 1 − 2xᵀv*/r)| (lem:normalization's formula; slack_scale = 1)
        and ``steps``, the number of steps.
    """
    t = terms
    rhs = t["e_prev"] + 2 * t["eta"] * t["inner"] + quad_coef * t["eta"] ** 2 * t["gsq"]
    slack = rhs - t["e"]
    return {
        "min": float(slack.min()),
        "max": slack.max(),
        "median": np.median(slack),
        "formula_error": float(np.abs(slack - slack_scale * t["slack_formula"]).max()),
        "steps": slack.size,
    }


def xi_statistics(inner, dh, field_scale: float = 1.0, k: float = 5.0) -> dict:
    """E[ξ_t | H_{t−1}] = 0 tested on per-path sums: with ``inner`` = Σ_t ⟨v_{t−1} − v*, G_t⟩
    and ``dh`` = Σ_t ⟨v_{t−1} − v*, h(v_{t−1})⟩ (``field_scale`` multiplies h: a broken
    witness for the mutants), the mean ``m`` and SE ``se`` of Σ_t ⟨v_{t−1} − v*, ξ_t⟩, its
    ``z`` = m/se, ``drift`` = |mean of dh| and ``resolution`` = k·SE/drift (the error of h, as a
    fraction of it, that the test sees)."""
    m, se = mean_se(inner - field_scale * dh)
    drift = abs(float(dh.mean()))
    return {
        "m": m,
        "se": se,
        "z": float(m / se),
        "drift": drift,
        "resolution": k * float(se) / max(drift, 1e-300),
    }


def cap_angle(r: float) -> float:
    """The angle α (radians) between unit vectors at distance ‖v − v*‖ = r: 2 arcsin(r/2)."""
    return 2 * math.asin(r / 2)


def direction_at_angle(env: Environment, alpha: float) -> np.ndarray:
    """``env.initial_direction`` at the angle ``alpha`` in radians (the environment takes
    degrees)."""
    return env.initial_direction(math.degrees(alpha))


def one_step_moments(
    env: Environment, v: np.ndarray, eta: float, N: int, seed: int, drift: float
) -> dict:
    """Monte Carlo of one NBL step from the fixed v with step η (:func:`one_step_sample`, N
    steps from ``seed``), for lem:local_one_step, given ``drift`` = ⟨v − v*, h(v)⟩.

    Returns
    -------
    dict
        ``e`` = ‖v − v*‖², ``dist`` = ‖v − v*‖, ``abs_drift`` = |drift|; ``m``, ``se``: mean and
        SE of e_t; ``dm``, ``dse``: of the paired e + 2η drift + η²‖G‖² − e_t (the first
        bound's right side minus e_t); ``gm``, ``gse``: of ‖G‖².
    """
    D = v - env.v_star
    e = float(D @ D)
    et, gsq = one_step_sample(env, v, eta, N, seed)
    m, se = mean_se(et)
    dm, dse = mean_se(e + 2 * eta * drift + eta**2 * gsq - et)  # RHS1 - e_t, paired
    return dict(
        e=e,
        dist=math.sqrt(e),
        abs_drift=abs(drift),
        m=m,
        se=se,
        dm=dm,
        dse=dse,
        gm=float(gsq.mean()),
        gse=float(mean_se(gsq)[1]),
    )


def distance_at_angle(degrees: float) -> float:
    """‖v − v*‖ = 2 sin(α/2) for unit vectors at the angle α (in degrees): the inverse of
    :func:`cap_angle`."""
    return 2 * math.sin(math.radians(degrees) / 2)


def stopped_errors(p: Paths, tau: np.ndarray) -> np.ndarray:
    """e_{t∧τ} per path and step of the re-run ``p`` (τ − n0 from :func:`exit_index`)."""
    k = np.arange(1, p.e.shape[1] + 1)  # t − n0 of step k
    E = np.concatenate([p.e0[:, None], p.e], axis=1)
    return E[np.arange(p.e.shape[0])[:, None], np.minimum(k[None, :], tau[:, None])]


def stopped_recursion_slacks(
    s: dict, lam0: float, quad_coef: float, B: float, field_scale: float, r0: float
) -> dict:
    """The inequalities of app:localization along the paths of one setting, from its stopped
    terms ``s`` (tau, ind = 1{t ≤ τ}, dh = ⟨v_{t−1} − v*, h⟩, stopped = e_{t∧τ}, e0, e,
    e_prev, eta (1, m), inner, gsq, xsq, ubound), with λ0 = ``lam0``, B_Y = ``B``, the
    second-order term times ``quad_coef`` and h times ``field_scale`` (1, 1 and 1 as printed;
    other values are the claim's mutants).

    Returns
    -------
    dict
        ``slacks``: the smallest slack of each inequality — ``one-step``
        (eq:stopped_one_step_inequality at the active steps), ``cor`` (−λ0 e_{t−1} − ⟨v − v*,
        h⟩, cor:local_stability), ``sum`` (the first inequality of eq:stopped-error-bound),
        ``drop-drift`` (the dropped drift term), ``Qmono`` (increments of Q_t), ``U``
        (eq:Us-pointwise-bound), ``Q`` (eq:QT-gaussian-bound); ``M_n`` per path with its mean
        ``m``, SE ``se`` and |z| ``z``; ``drift_sum`` per path, Σ 2η⟨v − v*, h⟩1{s ≤ τ} (h
        unscaled); ``exits``, ``exit_at_n0``, ``q_max`` (max Q_n) and ``n_good``, ``n_bad``:
        the paths with e_{n0}, max M_t, Q_n all ≤ r0²/4 and those of them that exit.
    """
    ind, eta, tau = s["ind"], s["eta"], s["tau"]
    dh = field_scale * s["dh"]
    dxi = s["inner"] - dh
    drift = -2 * lam0 * eta * s["e_prev"] * ind
    dM = 2 * eta * dxi * ind
    dQ = quad_coef * eta**2 * s["gsq"] * ind
    on = ind > 0  # active steps (elsewhere both sides are 0)
    M, Q, Dr = np.cumsum(dM, 1), np.cumsum(dQ, 1), np.cumsum(drift, 1)
    slacks = {
        "one-step": float(
            np.where(on, drift + dM + dQ - (s["e"] - s["e_prev"]) * ind, np.inf).min()
        ),
        "cor": float(np.where(on, -lam0 * s["e_prev"] - dh, np.inf).min()),
        "sum": float((s["e0"][:, None] + Dr + M + Q - s["stopped"]).min()),
        "drop-drift": float((-Dr).min()),
        "Qmono": float(np.diff(Q, axis=1).min()),
        "U": float((B * s["ubound"] - np.abs(s["inner"])).min()),
        "Q": float((B**2 * (eta * eta * s["xsq"]).sum(1) - Q[:, -1]).min()),
    }
    m, se = mean_se(M[:, -1])
    # the inclusion E_init ∩ E_M ∩ E_Q ⊆ {τ > n} of lem:finite-horizon-localization's proof
    good = (s["e0"] <= r0**2 / 4) & (np.maximum(M.max(1), 0) <= r0**2 / 4) & (Q[:, -1] <= r0**2 / 4)
    return {
        "slacks": slacks,
        "M_n": M[:, -1],
        "m": m,
        "se": se,
        "z": abs(float(m / se)),
        "drift_sum": np.cumsum(2 * eta * s["dh"] * ind, 1)[:, -1],
        "exits": int((tau < 10**9).sum()),
        "exit_at_n0": int((tau == 0).sum()),
        "q_max": Q[:, -1].max(),
        "n_good": int(good.sum()),
        "n_bad": int((good & (tau < 10**9)).sum()),
    }


def pooled_mean_zero(samples, drifts, k: float = 5.0) -> dict:
    """A mean-zero test pooled over settings: the mean ``m`` and SE ``se`` of the concatenated
    ``samples``, ``drift`` = |mean of the concatenated ``drifts``| and ``resolution`` = k·SE/
    drift (the error of the field, as a fraction of the drift, that the test sees)."""
    m, se = mean_se(np.concatenate(samples))
    drift = abs(float(np.concatenate(drifts).mean()))
    return {"m": m, "se": se, "drift": drift, "resolution": k * float(se) / max(drift, 1e-300)}


def localization_probabilities(
    env: Environment, seed: int, n0s: tuple, reps: tuple, horizons: tuple, gamma: float, r0: float
) -> dict:
    """Exit probabilities of the r0-cap by the compiled kernel (:func:`kernel_errors`, t0 = n0):
    with (R, long_R) = ``reps`` and (n, long_n) = ``horizons``, P(τ ≤ n) and P(τ = n0) for
    every n0 of ``n0s`` on R paths (common random numbers: the coins of max(n0s)), and at
    n0 = n0s[1] on long_R fresh paths (seed + 1) P(τ ≤ n), P(τ ≤ long_n) and the number of
    paths exiting in (n, long_n].

    Returns
    -------
    dict
        ``P``, ``tau0`` (tuples over n0s), ``p_short``, ``p_long``, ``late_exits``, and
        ``sq_head``: the kernel's e_t, t = n0..n, of the first :data:`WITNESS_PATHS` paths at
        n0 = n0s[0] (for the comparison with :func:`reference_errors`).
    """
    (R, long_R), (n, long_n) = reps, horizons
    P, tau0, head = [], [], None
    for n0 in n0s:
        sq, _ = kernel_errors(env, seed, R, n, n0, gamma, float(n0), coins_n0=max(n0s))
        head = sq[:WITNESS_PATHS].copy() if head is None else head
        tau = tau_from_sq(sq, r0)
        P.append(float((tau <= n - n0).mean()))
        tau0.append(float((tau == 0).mean()))
    n0 = n0s[1]
    sq, _ = kernel_errors(env, seed + 1, long_R, long_n, n0, gamma, float(n0))
    tau = tau_from_sq(sq, r0)
    return dict(
        P=tuple(P),
        tau0=tuple(tau0),
        p_short=float((tau <= n - n0).mean()),
        p_long=float((tau <= long_n - n0).mean()),
        late_exits=int(((tau > n - n0) & (tau <= long_n - n0)).sum()),
        sq_head=head,
    )
