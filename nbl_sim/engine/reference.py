"""The reference backend of :mod:`nbl_sim.engine`: plain numpy, **the definition of the numbers
of record**. The compiled backend (:mod:`nbl_sim.engine.compiled`) computes the same bits
(``tests/sim/test_engine_pin.py``).

Vectorized over replications, a loop over rounds. Every float operation is written out in the
order the numbers of record use; IEEE +, −, ×, ÷ and √ are correctly rounded, so that order fixes
the bits. Sums are folds from the stated start (``s = 0.0; s += a_0; s += a_1; …``) unless said
otherwise.

Streams (the "Common random numbers" of :mod:`nbl_sim.engine.environment`)
--------------------------------------------------------------------------
Replication r, sub-stream k ∈ {0 contexts, 1 rewards, 2 coins} is numpy's documented
``Generator(PCG64(SeedSequence(seed, spawn_key=(r, k))))`` (= sub-stream k of
``SeedSequence(seed).spawn(R)[r]``). Contexts: ``standard_normal((n, d))`` (or the context law's
own fill, :mod:`nbl_sim.beyond.contexts`); reward uniforms ``random((n, 2))``; coins
``random(n0) < 0.5`` → −1, else +1 (stream 2 is used only when n0 > 0). (An Environment
subclass overriding ``_draw_contexts`` is followed by the compiled draw only.)

This module calls no compiled code: it imports the input checks and result types that live
beside the kernels (:func:`nbl_sim.engine.contract.nbl_inputs`,
:class:`~nbl_sim.engine.contract.NBLTrace`, :func:`nbl_sim.engine.contract.greedy_inputs`,
:class:`nbl_sim.engine.realization.
Realization`), which loads numba without compiling anything. One exception: :func:`regret` of a
*lazily* drawn realization (compiled draws only) reads its means through the environment.

A replication
-------------
* indices z_{t,a} = β_aᵀX_t: ``z = 0.0; z += X_k β_{a,k}`` for k = 0, …, d − 1;
* a*(X_t) for one shared link: sgn(v*ᵀX_t), sgn(0) = +1, the sum v*ᵀX_t = Σ_k X_k v*_k in numpy's
  pairwise order (``pairwise_sum`` of numpy's ``loops_utils.h``: below 8 terms a fold from −0.0;
  up to 128 terms eight interleaved partial sums combined ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)),
  then the rest; beyond, the two halves, split at a multiple of 8); per-arm links:
  a* = +1 iff m_+ ≥ m_− on the clipped means;
* means g_a(z_a): the link's own ``g_numpy`` on the replication's (n, 2) array (one call for a
  shared link, one per arm on a contiguous column otherwise). This is numpy's vectorized
  evaluation — on hosts with SIMD transcendental functions (AVX512 here) its last bit differs
  from the C library's on some points, and the numbers of record are numpy's;
* Bernoulli: a non-finite mean, or one outside [−1e−12, 1 + 1e−12], is an error; means are
  clipped (m < 0 → 0.0, m > 1 → 1.0, −0.0 kept) and Y = 1{U < m}. Bounded: any non-finite mean
  is an error, Y = ((U·2) − 1)·b + m.

NBL (alg:nbl)
-------------
Stage I: w = 0.0 + Σ_t (A_t·Y_t) X_t (fold over t, per coordinate); ‖w‖ = √(0.0 + Σ_j w_j²);
v = w/‖w‖, or the fallback e1 when ‖w‖ = 0. Stage II, η_t = γ/(t + t0):
s = v_0x_0 + v_1x_1 (d = 2) or 0.0 + Σ_j v_jx_j (d ≥ 3); A = +1 if s ≥ 0 else −1;
c = η_t·(A·Y_{t,A}); v_j ← v_j + c·(x_j − s·v_j); ‖v‖² = v_0² + v_1² (d = 2) or 0.0 + Σ_j v_j²;
v_j ← v_j/√‖v‖². Records: ‖v − v*‖² = 0.0 + Σ_j (v_j − v*_j)², and in d = 2 the angle
``atan2(v*_0 v_1 − v*_1 v_0, 0.0 + Σ_j v_j v*_j)``.

Greedy Logistic (app:logistic-comparison)
-----------------------------------------
:mod:`nbl_sim.engine.greedy_kernel`, one replication at a time (each replication's Newton
iterations and line searches differ), vectorized over an arm's observations: η_i = 0.0 +
Σ_j z_ij θ_j; e = exp(−|η|), inv = 1/(1 + e), σ = inv (η ≥ 0) or e·inv; r = σ − y;
w = (e·inv)·inv; g_j = λθ_j + Σ_i r_i z_ij, H_jk = [λ or 0.0] + Σ_i (w_i z_ij) z_ik (folds over
i in row order); the objective 0.0 + Σ_i loss_i, then + ((0.5λ)θ_j)θ_j per j; Cholesky, the
Newton loop and the line search as written there.

**exp, log1p and atan2 are the C library's** (``math.exp``, ``math.log1p``, ``math.atan2``, the
functions the compiled kernels call), not numpy's: numpy's SIMD versions differ from them in
the last bit on a few percent of points on this host (measured: exp 4.6%, log1p 2.7%, atan2
4.7% of 10⁶ points). So Greedy Logistic's actions and NBL's recorded angles are those of the
host's C library, and the means those of the host's numpy: bit-identity across hosts holds
only where these agree.

Regret (eq:regret): gap_t = m_{a*} − m_{A_t}, R_t = np.cumsum over t (a fold), R_0 = 0.
"""

from __future__ import annotations

import math

import numpy as np

from nbl_theory.errors import NBLInputError

from .contract import (
    ARMIJO,
    EPS,
    MAX_HALVINGS,
    NBLTrace,
    greedy_info,
    greedy_inputs,
    nbl_inputs,
)
from .environment import ROUNDING
from .realization import Realization, check_seed

__all__ = [
    "streams",
    "indices",
    "draw",
    "nbl",
    "greedy_logistic",
    "oracle",
    "regret",
    "pairwise_sum",
]

_PAIRWISE_BLOCK = 128  # numpy's PW_BLOCKSIZE


def _libm(f, a: np.ndarray) -> np.ndarray:
    """The C library's ``f`` (``math.exp`` …) on every element of ``a``."""
    a = np.asarray(a, dtype=np.float64)
    return np.fromiter(map(f, a.ravel().tolist()), np.float64, a.size).reshape(a.shape)


def _fold(start, terms: np.ndarray):
    """((start + t_0) + t_1) + … along the last axis (``np.add.accumulate`` is that fold)."""
    terms = np.asarray(terms, dtype=np.float64)
    start = np.broadcast_to(np.asarray(start, dtype=np.float64), terms.shape[:-1])
    if terms.shape[-1] == 0:
        return start.copy()
    return np.add.accumulate(np.concatenate([start[..., None], terms], axis=-1), axis=-1)[..., -1]


def pairwise_sum(terms: list) -> np.ndarray:
    """numpy's pairwise summation of the arrays ``terms`` (elementwise), in numpy's order
    (module docstring).

    Parameters
    ----------
    terms : list of array_like
        At least one term; all of one shape (or broadcastable), float64.

    Returns
    -------
    ndarray
        Their sum, rounded as numpy's ``np.add.reduce`` over an axis of len(terms) values
        rounds it (below 8 terms a fold from −0.0).
    """
    n = len(terms)
    if n < 8:
        res = np.full(np.shape(terms[0]), -0.0)
        for a in terms:
            res = res + a
        return res
    if n <= _PAIRWISE_BLOCK:
        r = [np.array(a, dtype=np.float64) for a in terms[:8]]
        m = n - n % 8
        for i in range(8, m, 8):
            for j in range(8):
                r[j] = r[j] + terms[i + j]
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for i in range(m, n):
            res = res + terms[i]
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return pairwise_sum(terms[:n2]) + pairwise_sum(terms[n2:])


# ------------------------------------------------------------------------------ draws
def streams(seed: int, r: int, k: int) -> np.random.Generator:
    """Sub-stream k of replication r: ``Generator(PCG64(SeedSequence(seed, spawn_key=(r, k))))``.

    Parameters
    ----------
    seed : int
        The run's seed (not checked here; :func:`draw` checks it).
    r : int
        The replication index.
    k : int
        The sub-stream: 0 contexts, 1 rewards, 2 coins.

    Returns
    -------
    numpy.random.Generator
        A fresh generator at the start of that sub-stream.
    """
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(r, k))))


def _contexts(env, rng: np.random.Generator, n: int) -> np.ndarray:
    """One replication's contexts from its stream 0 (the environment's context law)."""
    X = np.empty((n, env.d))
    law = env.contexts
    if law is not None and law.family != "gaussian":
        law.fill(rng, X)
        return X
    rng.standard_normal(out=X)
    if law is not None:
        law.apply_transform(X)
    return X


def _means(env, z: np.ndarray) -> np.ndarray:
    """g_a(z_a) of one replication's (n, 2) indices: the link's own numpy evaluation."""
    if env.shared_link:
        return np.asarray(env.links[1].g_numpy(z), dtype=np.float64).reshape(z.shape)
    g = np.empty_like(z)
    for a in (0, 1):
        g[:, a] = np.asarray(
            env.links[a].g_numpy(np.ascontiguousarray(z[:, a])), dtype=np.float64
        ) * np.ones(z.shape[0])
    return g


def _check(env, g: np.ndarray, z: np.ndarray, bernoulli: bool) -> None:
    """The error of a mean that is not finite, or (Bernoulli) outside [−1e−12, 1 + 1e−12]."""
    flat = g.ravel()
    bad = np.flatnonzero(~np.isfinite(flat))
    if bad.size:
        raise NBLInputError(f"link {env.links[bad[0] % 2].name!r} gave a non-finite mean reward")
    if bernoulli:
        bad = np.flatnonzero((flat < -ROUNDING) | (flat > 1.0 + ROUNDING))
        if bad.size:
            i = bad[0]
            raise NBLInputError(
                f"a Bernoulli mean left [0, 1]: g({z.ravel()[i]:.6g}) = "
                f"{flat[i]:.17g}; use reward='bounded'"
            )


def indices(X: np.ndarray, beta: np.ndarray, v_star: np.ndarray) -> tuple:
    """The indices z_{t,a} = β_aᵀX_t, (…, n, 2), and the optimal actions sgn(v*ᵀX_t) of a shared
    link, (…, n) int8, of contexts X (…, n, d) (module docstring: a fold, and numpy's pairwise
    sum).

    Parameters
    ----------
    X : ndarray, shape (..., n, d)
        Contexts, float64.
    beta : (2, d) ndarray
        The arm vectors: row 0 = β_−, row 1 = β_+.
    v_star : (d,) ndarray
        The direction v*.

    Returns
    -------
    z : (..., n, 2) float64 ndarray
        The indices β_aᵀX_t (column 0 = arm −1).
    optimal : (..., n) int8 ndarray
        sgn(v*ᵀX_t), sgn(0) = +1 (the optimal actions of a shared link).
    """
    z = np.zeros(X.shape[:-1] + (2,))
    for k in range(X.shape[-1]):
        z += X[..., k, None] * beta[:, k]
    s = pairwise_sum([X[..., k] * v_star[k] for k in range(X.shape[-1])])
    return z, np.where(s >= 0.0, 1, -1).astype(np.int8)


def draw(env, seed, reps, n, n0, *, out=None) -> Realization:
    """The realization of replications ``reps`` (module docstring). ``out``: optional
    :meth:`Realization.empty` buffers.

    Parameters
    ----------
    env : nbl_sim.engine.environment.Environment
        The environment (its context law, arms, link, reward law and noise).
    seed : int
        The run's seed, a non-negative integer.
    reps : iterable of int
        Replication indices (≥ 0, at least one).
    n : int
        Rounds.
    n0 : int
        Initialization coins per replication.
    out : Realization, optional
        Buffers with at least ``len(reps)`` rows, horizon n and n0 coins, into which the drawn
        arrays are copied; None returns the arrays drawn.

    Returns
    -------
    Realization
        ``X`` (R, n, d), ``means`` (clipped to [0, 1] for Bernoulli) and ``Y`` (R, n, 2),
        ``coins`` (R, n0) int8, ``optimal`` (R, n) int8.

    Raises
    ------
    NBLInputError
        If ``reps`` is empty or has a negative index, ``seed`` is invalid, a mean is not finite
        or (Bernoulli) leaves [0, 1] beyond rounding, or ``out`` does not fit.
    """
    reps = tuple(int(r) for r in reps)
    if not reps:
        raise NBLInputError("no replications requested")
    if min(reps) < 0:
        raise NBLInputError(f"replication indices must be >= 0, got {min(reps)}")
    seed = check_seed(seed)
    R, d = len(reps), env.d
    X = np.empty((R, n, d))
    optimal = np.empty((R, n), dtype=np.int8)
    bernoulli = env.reward == "bernoulli"
    means, Y = np.empty((R, n, 2)), np.empty((R, n, 2))
    for i, r in enumerate(reps):  # one replication at a time: its arrays stay in cache
        X[i] = _contexts(env, streams(seed, r, 0), n)
        z, optimal[i] = indices(X[i], env.beta, env.v_star)
        g = _means(env, z)
        _check(env, g, z, bernoulli)
        U = streams(seed, r, 1).random((n, 2))
        if bernoulli:
            m = np.where(g < 0.0, 0.0, np.where(g > 1.0, 1.0, g))
            Y[i] = (U < m).astype(np.float64)
        else:
            m = g
            Y[i] = ((U * 2.0) - 1.0) * float(env.noise) + m
        means[i] = m
    if not env.shared_link:
        optimal = np.where(means[..., 1] >= means[..., 0], 1, -1).astype(np.int8)
    coins = np.empty((R, n0), dtype=np.int8)
    if n0:
        for i, r in enumerate(reps):
            coins[i] = np.where(streams(seed, r, 2).random(n0) < 0.5, -1, 1)
    if out is None:
        return Realization(X, means, Y, coins, reps, optimal)
    if (
        out.X.shape[0] < R
        or out.X.shape[1:] != (n, d)
        or out.coins.shape[1] != n0
        or out.optimal is None
    ):
        raise NBLInputError(
            "draw(out=...) buffers do not fit: use Realization.empty("
            "R, n, n0, d) with R >= len(reps)"
        )
    real = Realization(out.X[:R], out.means[:R], out.Y[:R], out.coins[:R], reps, out.optimal[:R])
    for a, b in (
        (real.X, X),
        (real.means, means),
        (real.Y, Y),
        (real.coins, coins),
        (real.optimal, optimal),
    ):
        a[...] = b
    return real


# ------------------------------------------------------------------------------ NBL
def _record(V, v_star, t, k, rec, sq, ang) -> int:
    """Record ‖v − v*‖² (and the angle in d = 2) of the directions V (R, d) in every slot
    k, k + 1, … of round t; returns the first slot after them."""
    d = V.shape[1]
    while k < rec.size and rec[k] == t:
        e = np.zeros(V.shape[0])
        c = np.zeros(V.shape[0])
        for j in range(d):
            diff = V[:, j] - v_star[j]
            e += diff * diff
            c += V[:, j] * v_star[j]
        sq[:, k] = e
        if ang.shape[1]:
            ang[:, k] = (
                np.array(
                    list(
                        map(
                            math.atan2,
                            (v_star[0] * V[:, 1] - v_star[1] * V[:, 0]).tolist(),
                            c.tolist(),
                        )
                    )
                )
                if d == 2
                else np.nan
            )
        k += 1
    return k


def nbl(X, Y, coins, v_star, **options) -> NBLTrace:
    """alg:nbl (module docstring; the arguments of :func:`nbl_sim.engine.nbl_kernel.nbl_run`).

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
    **options
        ``v0``, ``gamma``, ``t0``, ``record_rounds``, ``record_angle``
        (:class:`nbl_sim.engine.contract.NBLOptions`).

    Returns
    -------
    NBLTrace
        The same fields, and bits, as :func:`nbl_sim.engine.nbl_kernel.nbl_run`'s.

    Raises
    ------
    NBLInputError
        On bad input (:func:`nbl_sim.engine.contract.nbl_inputs`).
    TypeError
        If an option is not a field of :class:`nbl_sim.engine.contract.NBLOptions`.
    """
    inp = nbl_inputs(X, Y, coins, v_star, **options)
    X, Y, rec, eta, vs = inp.X, inp.Y, inp.rec, inp.eta, inp.v_star
    R, n, d = X.shape
    n0 = inp.coins.shape[1]
    actions = np.empty((R, n), dtype=np.int8)
    sq = np.full((R, rec.size), np.nan)
    ang = np.full((R, rec.size if inp.record_angle else 0), np.nan)
    degenerate = 0
    if inp.use_init:  # Stage I
        w = np.zeros((R, d))
        for t in range(n0):
            a = inp.coins[:, t]
            actions[:, t] = a
            ay = a * np.where(a > 0, Y[:, t, 1], Y[:, t, 0])
            for j in range(d):
                w[:, j] += ay * X[:, t, j]
        nrm = np.zeros(R)
        for j in range(d):
            nrm += w[:, j] * w[:, j]
        nrm = np.sqrt(nrm)
        ok = nrm > 0.0
        degenerate = int(R - ok.sum())
        V = np.where(ok[:, None], w / np.where(ok, nrm, 1.0)[:, None], inp.v_init)
    else:
        V = np.tile(inp.v_init, (R, 1))
    k = int(np.searchsorted(rec, n0))  # slots before v_{n0} exists stay NaN
    k = _record(V, vs, n0, k, rec, sq, ang)
    # Stage II. One contiguous row per round and coordinate (the loop's numpy calls are on R
    # numbers each, so their count sets the time): the operations of the module docstring on
    # the same numbers, in the same order — the same bits. A·Y_{t,A} is Y_{t,+} for A = +1 and
    # −Y_{t,−} for A = −1, a sign flip (exact, −0.0 included).
    xs = np.ascontiguousarray(X[:, n0:].transpose(1, 2, 0))  # (n − n0, d, R)
    steps = eta[n0:n, None]
    up = steps * Y[:, n0:, 1].T  # c = η_t·Y_{t,+} when A = +1
    down = steps * -Y[:, n0:, 0].T  # c = η_t·(−Y_{t,−}) when A = −1
    plays_up = np.empty((n - n0, R), dtype=bool)
    v = np.ascontiguousarray(V.T)  # (d, R)
    for i in range(n - n0):
        t = n0 + i
        x = xs[i]
        vx = v * x
        if d == 2:
            s = vx[0] + vx[1]
        else:
            s = np.zeros(R)
            for j in range(d):
                s += vx[j]
        pos = np.greater_equal(s, 0.0, out=plays_up[i])
        c = np.where(pos, up[i], down[i])
        new = v + c * (x - s * v)
        squares = new * new
        if d == 2:
            nrm = np.sqrt(squares[0] + squares[1])
        else:
            nrm = np.zeros(R)
            for j in range(d):
                nrm += squares[j]
            nrm = np.sqrt(nrm)
        v = new / nrm
        if k < rec.size and rec[k] == t + 1:
            k = _record(v.T, vs, t + 1, k, rec, sq, ang)
    actions[:, n0:] = np.where(plays_up.T, 1, -1)
    V = np.ascontiguousarray(v.T)
    return NBLTrace(actions, rec, sq, ang, V, {"degenerate_init": degenerate, "n0": int(n0)})


# ------------------------------------------------------------------------------ Greedy Logistic
def _grad_hess(Z, y, theta, lam):
    """Gradient and Hessian of the penalized objective on the rows Z (m, p), y (m,)."""
    p = theta.size
    eta = np.zeros(Z.shape[0])
    for j in range(p):
        eta += Z[:, j] * theta[j]
    e = _libm(math.exp, -np.abs(eta))
    inv = 1.0 / (1.0 + e)
    r = np.where(eta >= 0.0, inv, e * inv) - y
    w = (e * inv) * inv
    g = np.array([_fold(lam * theta[j], r * Z[:, j]) for j in range(p)])
    H = np.empty((p, p))
    for j in range(p):
        wz = w * Z[:, j]
        for k in range(j + 1):
            H[j, k] = H[k, j] = _fold(lam if j == k else 0.0, wz * Z[:, k])
    return g, H


def _objective(Z, y, theta, lam) -> float:
    """The penalized objective, loss terms in their overflow-free form."""
    eta = np.zeros(Z.shape[0])
    for j in range(theta.size):
        eta += Z[:, j] * theta[j]
    a = np.abs(eta)
    lg = _libm(math.log1p, _libm(math.exp, -a))
    terms = np.where(eta >= 0.0, y * lg + (1.0 - y) * (a + lg), y * (a + lg) + (1.0 - y) * lg)
    f = float(_fold(0.0, terms))
    for j in range(theta.size):
        f += 0.5 * lam * float(theta[j]) * float(theta[j])
    return f


def _cholesky_solve(H, g):
    """−H⁻¹g by H = LLᵀ, or None if H is not numerically positive definite."""
    p = g.size
    L = np.zeros((p, p))
    for j in range(p):
        s = float(H[j, j])
        for k in range(j):
            s -= float(L[j, k]) * float(L[j, k])
        if not s > 0.0:
            return None
        ljj = math.sqrt(s)
        L[j, j] = ljj
        for i in range(j + 1, p):
            t = float(H[i, j])
            for k in range(j):
                t -= float(L[i, k]) * float(L[j, k])
            L[i, j] = t / ljj
    delta = np.empty(p)
    for i in range(p):
        t = -float(g[i])
        for k in range(i):
            t -= float(L[i, k]) * float(delta[k])
        delta[i] = t / float(L[i, i])
    for i in range(p - 1, -1, -1):
        t = float(delta[i])
        for k in range(i + 1, p):
            t -= float(L[k, i]) * float(delta[k])
        delta[i] = t / float(L[i, i])
    return delta


def _newton(Z, y, zmax, theta, lam, tol, max_iter, stats) -> int:
    """One fit, in place, warm-started at ``theta`` (:func:`nbl_sim.engine.greedy_kernel.
    _newton`'s steps, tests and counters)."""
    p = theta.size
    g, H = _grad_hess(Z, y, theta, lam)
    it = 0
    while True:
        if it >= max_iter:
            stats[2] += 1
            break
        delta = _cholesky_solve(H, g)
        if delta is None:
            stats[3] += 1
            break
        it += 1
        step = norm2 = dec2 = 0.0
        for j in range(p):
            step = max(step, abs(float(delta[j])))
            norm2 += float(delta[j]) * float(delta[j])
            dec2 -= float(g[j]) * float(delta[j])
        if step < tol or dec2 < tol * tol:
            theta += delta
            break
        if zmax * math.sqrt(norm2) <= 1.0:
            theta += delta
            g, H = _grad_hess(Z, y, theta, lam)
            continue
        f = _objective(Z, y, theta, lam)
        stats[4] += 1
        slack = 16.0 * EPS * f
        t = 1.0
        for _ in range(MAX_HALVINGS):
            trial = theta + t * delta
            ft = _objective(Z, y, trial, lam)
            stats[4] += 1
            if ft <= f - ARMIJO * t * dec2 + slack:
                break
            t *= 0.5
            stats[1] += 1
        else:
            stats[3] += 1
            break
        theta[...] = trial
        g, H = _grad_hess(Z, y, theta, lam)
    stats[0] += it
    return it


def _greedy_replication(X, Y, coins, intercept, lam, tol, max_iter):
    """Actions (n,), final fits (2, p) and counts (8,) of one replication."""
    n, d = X.shape
    n0 = coins.size
    p = d + 1 if intercept else d
    Z = np.hstack([X, np.ones((n, 1))]) if intercept else X
    actions = np.empty(n, dtype=np.int8)
    theta = np.zeros((2, p))
    rows = ([], [])
    zmax = [0.0, 0.0]
    stats = np.zeros(8, dtype=np.int64)  # iterations, halvings, hits, failures, evals, ties,
    fits = max_it = ties = 0  # fits, max per fit

    def fit(a):
        nonlocal fits, max_it
        idx = np.array(rows[a], dtype=np.int64)
        it = _newton(Z[idx], Y[idx, a], zmax[a], theta[a], lam, tol, max_iter, stats)
        fits += 1
        max_it = max(max_it, it)

    for t in range(n):
        if t < n0:
            arm = 1 if coins[t] > 0 else 0
        else:
            if t == n0:
                fit(0)
                fit(1)
            s_minus = s_plus = 0.0
            for j in range(d):
                s_minus += float(theta[0, j]) * float(X[t, j])
                s_plus += float(theta[1, j]) * float(X[t, j])
            if intercept:
                s_minus += float(theta[0, d])
                s_plus += float(theta[1, d])
            ties += s_plus == s_minus
            arm = 1 if s_plus >= s_minus else 0
        actions[t] = 1 if arm == 1 else -1
        rows[arm].append(t)
        s2 = 0.0
        for j in range(p):
            s2 += float(Z[t, j]) * float(Z[t, j])
        zmax[arm] = max(zmax[arm], math.sqrt(s2))
        if t >= n0:
            fit(arm)
    if n0 == n:
        fit(0)
        fit(1)
    stats[5], stats[6], stats[7] = ties, fits, max_it
    return actions, theta, stats


def greedy_logistic(X, Y, coins, **options):
    """Greedy Logistic (module docstring; the arguments and result of
    :func:`nbl_sim.engine.greedy_kernel.greedy_logistic_actions`).

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts (real, finite).
    Y : array_like, shape (R, n, 2)
        Potential rewards in [0, 1].
    coins : array_like, shape (R, n0)
        Initialization actions ±1, n0 <= n.
    **options
        ``intercept``, ``ridge``, ``tol``, ``max_iter`` (their defaults those of
        :func:`nbl_sim.engine.greedy_kernel.greedy_logistic_actions`).

    Returns
    -------
    actions : (R, n) int8 ndarray
        The actions in {−1, +1}.
    info : dict
        :func:`nbl_sim.engine.contract.greedy_info` of the final fits and counts.

    Raises
    ------
    NBLInputError
        On bad input (:func:`nbl_sim.engine.contract.greedy_inputs`).
    """
    inp = greedy_inputs(X, Y, coins, **options)
    R, n, d = inp.X.shape
    p = d + 1 if inp.intercept else d
    actions = np.empty((R, n), dtype=np.int8)
    coef = np.zeros((R, 2, p))
    rep = np.zeros((R, 8), dtype=np.int64)
    for r in range(R):
        actions[r], coef[r], rep[r] = _greedy_replication(
            inp.X[r], inp.Y[r], inp.coins[r], inp.intercept, inp.ridge, inp.tol, inp.max_iter
        )
    return actions, greedy_info(coef, rep, inp.intercept)


# ------------------------------------------------------------------------------ oracle, regret
def oracle(X, v_star) -> np.ndarray:
    """sgn(v*ᵀX_t), sgn(0) = +1, the sum a fold from 0.0 over coordinates.

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts (converted to float64).
    v_star : array_like, shape (d,)
        The direction v*.

    Returns
    -------
    (R, n) int8 ndarray
        The oracle's actions in {−1, +1}.

    Raises
    ------
    NBLInputError
        If ``X`` is not three-dimensional or ``v_star`` not of shape (d,).
    """
    X = np.asarray(X, dtype=np.float64)
    v_star = np.asarray(v_star, dtype=np.float64)
    if X.ndim != 3 or v_star.shape != (X.shape[2],):
        raise NBLInputError(f"X must be (R, n, d) and v_star (d,); got {X.shape}, {v_star.shape}")
    s = np.zeros(X.shape[:2])
    for k in range(X.shape[2]):
        s += X[..., k] * v_star[k]
    return np.where(s >= 0, 1, -1).astype(np.int8)


def regret(env, real, actions, record_rounds, *, out=None) -> np.ndarray:
    """R_t at ``record_rounds`` (R_0 = 0): the cumulative sum of gap_t = m_{a*} − m_{A_t}.

    Parameters
    ----------
    env : nbl_sim.engine.environment.Environment
        The environment that drew ``real`` (not read: the means are ``real``'s).
    real : Realization
        The realization (``means`` and ``optimal`` are read).
    actions : array_like, shape (R, n)
        A policy's actions in {−1, +1}.
    record_rounds : sequence of int
        Rounds in [0, n] to read (not checked here).
    out : (R, K) float64 ndarray, optional
        Filled in place; None allocates.

    Returns
    -------
    (R, K) float64 ndarray
        R_t at each recorded round, R_0 = 0 (``out`` when given).
    """
    means = real.means
    rec = np.asarray(record_rounds, dtype=np.int64)
    m_minus, m_plus = means[..., 0], means[..., 1]
    gap = np.where(real.optimal > 0, m_plus, m_minus) - np.where(
        np.asarray(actions) > 0, m_plus, m_minus
    )
    cum = np.concatenate([np.zeros((gap.shape[0], 1)), np.cumsum(gap, axis=1)], axis=1)
    if out is None:
        out = np.empty((gap.shape[0], rec.size))
    out[...] = cum[:, rec]
    return out
