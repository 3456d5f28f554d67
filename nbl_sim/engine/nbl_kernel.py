"""Natural Boundary Learning, exactly as alg:nbl, vectorized across replications.

Stage I (rounds t = 1..n0): A_t = the common randomized-initialization coin, W_t = A_t Y_t X_t,
v_{n0} = ΣW_t/‖ΣW_t‖ (the unknown scale Δμ_g/2 cancels). Alternatively a given initial direction
v_0 and n0 = 0 (the stochastic-dynamics setting of app:stochastic-nbl, e.g. 10° from v*).

Stage II (t > n0): A_t = sgn(v_{t−1}ᵀX_t) with sgn(0) = +1, W_t = A_t Y_t X_t,
G_t = (I − v_{t−1}v_{t−1}ᵀ)W_t (eq:tangent_update), v_t = (v_{t−1} + η_t G_t)/‖·‖ (eq:nbl_update)
with η_t = γ/(t + t0) and t the 1-based round number.

Degenerate initialization: if ΣW_t = 0 exactly (possible with Bernoulli rewards when every
initialization reward is 0), the direction is undefined; the kernel then starts from the fallback
direction ``v_fallback`` (default v0 = e1) and counts the event in ``info["degenerate_init"]``.

What makes it fast: one compiled (numba) loop over replications and rounds — no per-round numpy
dispatch, no temporaries, ~20 flops per replication-step in d = 2. The recursion is sequential in
t (a sqrt and a division on every step's critical path), so eight replications advance in
lockstep and their independent dependency chains overlap in the CPU: in d = 2 with the states in
registers; in d ≥ 3 as the columns of a (d, 8) array, one round of all eight after the other.
(Hand-written 8-wide vector lanes in LLVM IR made the d ≥ 3 rounds ~3× faster but a run only
1.30× (d = 8) to 1.43× (d = 16) faster end to end, under the 1.5× a piece of compiled machinery
must earn (issue 37; benchmarks/README.md, "The engine"): they were cut.) Each replication is
still computed in its own fixed operation order, so results are bit-identical whatever the batch
(chunking, process count, block).
"""

from __future__ import annotations

import math

import numpy as np

from . import jit_cache  # the cached kernels are defined with jit_cache.njit
from .contract import GAMMA, LOCKSTEP, T0, NBLTrace, nbl_inputs

__all__ = [
    "nbl_run",
    "nbl_reference",
]


@jit_cache.njit(nogil=True)
def _nbl_kernel(X, Y, coins, v_init, use_init, eta, v_star, rec, actions, sq, ang, v_out):
    R, n, d = X.shape
    n0 = coins.shape[1] if use_init else 0
    n_rec = rec.shape[0]
    degenerate = 0
    # ---- Stage I (or the given start): v_out[r] := v_{n0}
    w = np.empty(d)
    for r in range(R):
        if use_init:
            for j in range(d):
                w[j] = 0.0
            for t in range(n0):
                a = coins[r, t]
                actions[r, t] = a
                y = Y[r, t, 1] if a > 0 else Y[r, t, 0]
                ay = a * y
                for j in range(d):
                    w[j] += ay * X[r, t, j]
            nrm = 0.0
            for j in range(d):
                nrm += w[j] * w[j]
            nrm = math.sqrt(nrm)
            if nrm > 0.0:
                for j in range(d):
                    v_out[r, j] = w[j] / nrm
            else:
                degenerate += 1
                for j in range(d):
                    v_out[r, j] = v_init[j]
        else:
            for j in range(d):
                v_out[r, j] = v_init[j]
    k0 = 0  # records before v_{n0} exists are NaN (v is undefined during Stage I)
    while k0 < n_rec and rec[k0] < n0:
        k0 += 1
    k1 = _record_round(v_out.T, R, 0, n0, k0, rec, v_star, sq, ang)  # records of v_{n0} itself
    # ---- Stage II: greedy rounds. W = ay x, G = W − (vᵀW)v = ay(x − s v), v ← (v + ηG)/‖·‖
    if d == 2:
        # the paper's setting: LOCKSTEP replications in lockstep, each state in registers; every
        # replication still sees exactly its own arithmetic (results do not depend on blocking)
        vb = np.empty((LOCKSTEP, 2))
        for r0 in range(0, R, LOCKSTEP):
            nb = min(LOCKSTEP, R - r0)
            for b in range(nb):
                vb[b, 0] = v_out[r0 + b, 0]
                vb[b, 1] = v_out[r0 + b, 1]
            k = k1
            for t in range(n0, n):
                et = eta[t]
                for b in range(nb):
                    r = r0 + b
                    x0 = X[r, t, 0]
                    x1 = X[r, t, 1]
                    v0 = vb[b, 0]
                    v1 = vb[b, 1]
                    s = v0 * x0 + v1 * x1
                    c = et * _act(s, Y, r, t, actions)
                    v0 = v0 + c * (x0 - s * v0)
                    v1 = v1 + c * (x1 - s * v1)
                    nrm = math.sqrt(v0 * v0 + v1 * v1)
                    vb[b, 0] = v0 / nrm
                    vb[b, 1] = v1 / nrm
                if k < n_rec and rec[k] == t + 1:
                    k = _record_round(vb.T, nb, r0, t + 1, k, rec, v_star, sq, ang)
            for b in range(nb):
                v_out[r0 + b, 0] = vb[b, 0]
                v_out[r0 + b, 1] = vb[b, 1]
    else:
        # any d: LOCKSTEP replications are the columns of V (d, LOCKSTEP), each with exactly
        # its own arithmetic, from one record round to the next
        V = np.empty((d, LOCKSTEP))
        for r0 in range(0, R, LOCKSTEP):
            nb = min(LOCKSTEP, R - r0)
            for b in range(nb):
                for j in range(d):
                    V[j, b] = v_out[r0 + b, j]
            k = k1
            t = n0
            while t < n:
                t_end = min(n, rec[k]) if k < n_rec else n  # rec[k] > t: the next record
                for u in range(t, t_end):
                    for b in range(nb):
                        _replication_round(X, Y, r0 + b, u, eta[u], V, b, actions)
                t = t_end
                if k < n_rec and rec[k] == t:
                    k = _record_round(V, nb, r0, t, k, rec, v_star, sq, ang)
            for b in range(nb):
                for j in range(d):
                    v_out[r0 + b, j] = V[j, b]
    return degenerate


@jit_cache.njit(nogil=True, inline="always")
def _replication_round(X, Y, r, t, et, V, b, actions):
    """One Stage II round of replication r, held in column b of V (d, ·) (d ≥ 3)."""
    d = V.shape[0]
    s = 0.0
    for j in range(d):
        s += V[j, b] * X[r, t, j]
    c = et * _act(s, Y, r, t, actions)
    nrm = 0.0
    for j in range(d):
        vj = V[j, b] + c * (X[r, t, j] - s * V[j, b])
        V[j, b] = vj
        nrm += vj * vj
    nrm = math.sqrt(nrm)
    for j in range(d):
        V[j, b] /= nrm


@jit_cache.njit(nogil=True, inline="always")
def _act(s, Y, r, t, actions):
    """Stage II action A_t = sgn(s) with sgn(0) = +1 for s = v_{t−1}ᵀX_t, stored in
    ``actions[r, t]``; returns A_t Y_t (the reward of the chosen arm, signed). No branch: the
    sign of s is a coin flip near the boundary, and a mispredicted branch per step costs more
    than the step's arithmetic."""
    pos = np.int64(s >= 0.0)
    a = 2 * pos - 1
    actions[r, t] = a
    return a * Y[r, t, pos]


@jit_cache.njit(nogil=True, inline="always")
def _record_round(V, nb, r0, t, k, rec, v_star, sq, ang):
    """Record ‖v − v*‖² and (d = 2) the signed angle of app:stochastic-nbl for the columns
    0..nb−1 of V (d, ·) (replications r0..r0+nb−1) in every record slot k, k+1, ... of round t
    (no angle when ``ang`` has no columns); returns the first slot after them."""
    d = V.shape[0]
    angles = ang.shape[1] > 0  # (R, 0): angles not recorded
    while k < rec.shape[0] and rec[k] == t:
        for b in range(nb):
            e = 0.0
            c = 0.0
            for j in range(d):
                diff = V[j, b] - v_star[j]
                e += diff * diff
                c += V[j, b] * v_star[j]
            sq[r0 + b, k] = e
            if angles:
                ang[r0 + b, k] = (
                    math.atan2(v_star[0] * V[1, b] - v_star[1] * V[0, b], c) if d == 2 else np.nan
                )
        k += 1
    return k


def nbl_run(
    X: np.ndarray,
    Y: np.ndarray,
    coins: np.ndarray,
    v_star: np.ndarray,
    *,
    v0: np.ndarray | None = None,
    gamma: float = GAMMA,
    t0: float = T0,
    record_rounds=None,
    record_angle: bool = True,
) -> NBLTrace:
    """Run NBL (alg:nbl) on pre-drawn realizations: the compiled backend of
    :func:`nbl_sim.engine.nbl`.

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts.
    Y : array_like, shape (R, n, 2)
        Potential rewards (column 0 = arm −1).
    coins : (R, n0) int8 array_like
        Randomized-initialization actions in {−1, +1}; ignored (may have n0 = 0) when ``v0``
        is given.
    v_star : array_like, shape (d,)
        The true boundary direction (for the recorded errors only; NBL never sees it).
    v0 : array_like, shape (d,), optional
        Initial direction (normalized here); replaces Stage I (n0 = 0). None: Stage I.
    gamma : float, default 10.0
        Step scale γ of η_t = γ/(t + t0) (the paper's default).
    t0 : float, default 500.0
        Step offset t0 (the paper's default).
    record_rounds : sequence of int, optional
        Strictly increasing rounds in [0, n] at which ‖v_t − v*‖² and α_t are recorded
        (default None: every round 1..n).
    record_angle : bool, default True
        False: α_t is not computed and ``angle`` has no columns (R, 0) — for callers that need
        ‖v_t − v*‖² only (the regret-rate study records every round of 10⁵).

    Returns
    -------
    NBLTrace
        Actions, records, final iterates and ``info`` (``degenerate_init``, ``n0``).

    Raises
    ------
    NBLInputError
        On bad input (:func:`nbl_inputs`).
    """
    inp = nbl_inputs(
        X,
        Y,
        coins,
        v_star,
        v0=v0,
        gamma=gamma,
        t0=t0,
        record_rounds=record_rounds,
        record_angle=record_angle,
    )
    jit_cache.enable()  # the input is checked: the kernels' cache may be written
    R, n, d = inp.X.shape
    n0, rec = inp.coins.shape[1], inp.rec
    actions = np.empty((R, n), dtype=np.int8)
    # every slot from v_{n0} on is written by the kernel; the earlier ones are NaN (Stage I)
    k0 = int(np.searchsorted(rec, n0))
    sq = np.empty((R, rec.size))
    sq[:, :k0] = np.nan
    ang = np.empty((R, rec.size if inp.record_angle else 0))
    ang[:, :k0] = np.nan
    v_out = np.empty((R, d))
    degenerate = _nbl_kernel(
        inp.X,
        inp.Y,
        inp.coins,
        inp.v_init,
        inp.use_init,
        inp.eta,
        inp.v_star,
        rec,
        actions,
        sq,
        ang,
        v_out,
    )
    return NBLTrace(
        actions, rec, sq, ang, v_out, {"degenerate_init": int(degenerate), "n0": int(n0)}
    )


def nbl_reference(X, Y, coins, *, v0=None, gamma: float = GAMMA, t0: float = T0):
    """alg:nbl written literally in numpy, one round at a time for all replications at once.

    The obvious way to write it (the benchmark baseline of bench_nbl.py; the compiled kernel's
    actions are tested against it). Its operations are not the kernel's (W = AYx is formed
    first, then projected), so v_n agrees to rounding only; the operation order that defines
    the numbers of record is :func:`nbl_sim.engine.reference.nbl`'s.

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts.
    Y : array_like, shape (R, n, 2)
        Potential rewards (column 0 = arm −1).
    coins : (R, n0) int ndarray
        Stage I actions in {−1, +1}; not read when ``v0`` is given. Not checked.
    v0 : array_like, shape (d,), optional
        A given initial direction (retracted to the sphere), replacing Stage I.
    gamma : float, default 10.0
        Step scale γ of η_t = γ/(t + t0).
    t0 : float, default 500.0
        Step offset t0.

    Returns
    -------
    actions : (R, n) int8 ndarray
        The actions A_t in {−1, +1}.
    v_final : (R, d) float64 ndarray
        The last iterate v_n.
    """
    from .geometry import nbl_update, retract

    X = np.asarray(X, dtype=float)
    Y = np.asarray(Y, dtype=float)
    R, n, d = X.shape
    actions = np.empty((R, n), dtype=np.int8)
    if v0 is None:
        n0 = coins.shape[1]
        A = coins.astype(float)
        y = np.where(coins > 0, Y[:, :n0, 1], Y[:, :n0, 0])
        W = (A * y)[..., None] * X[:, :n0]  # W_t = A_t Y_t X_t
        actions[:, :n0] = coins
        V = retract(W.sum(axis=1))
    else:
        n0 = 0
        V = np.tile(retract(np.asarray(v0, dtype=float)), (R, 1))
    for t in range(n0, n):
        x = X[:, t]
        a = np.where((V * x).sum(axis=1) >= 0, 1, -1)  # A_t = sgn(v_{t-1}ᵀX_t)
        y = np.where(a > 0, Y[:, t, 1], Y[:, t, 0])
        W = (a * y)[:, None] * x
        V = nbl_update(V, W, gamma / (t + 1 + t0))
        actions[:, t] = a
    return actions, V
