"""The compiled passes that draw a replication of :class:`nbl_sim.engine.environment.Environment`
(its module docstring, "How a replication is drawn"): the context fill, the index and
optimal-action pass, and the reward pass. Each does the numpy definition's float operations in
the same order, so the results are the same bits (tested against it).
"""

from __future__ import annotations

import math

import numpy as np

from . import jit_cache  # the cached kernels are defined with jit_cache.njit
from .pcg64 import as_double, fill_doubles, fill_normals, next_word, seeded_state

__all__ = [
    "PAIRWISE_MAX",
    "check_means",
    "index_pass",
    "reward_pass",
    "block_contexts_pass",
    "block_rewards_pass",
]

#: numpy's pairwise block: up to this many terms a sum is one block (beyond: let numpy sum)
PAIRWISE_MAX = 128


@jit_cache.njit(nogil=True, inline="always")
def _optimal_action(X, t, v_star, d):
    """sgn(v*ᵀX_t) (sgn 0 = +1), v*ᵀX_t = Σ_k X[t, k] v*_k summed in numpy's pairwise order for
    d ≤ 128 (``pairwise_sum`` of numpy's add reduction, i.e. ``(X * v*).sum(-1)``): one by one
    below 8 terms; from 8 on, eight interleaved partial sums over the largest multiple of 8
    terms, combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then the rest one by
    one."""
    if d < 8:
        s = -0.0
        for k in range(d):
            s += X[t, k] * v_star[k]
    else:
        r0, r1 = X[t, 0] * v_star[0], X[t, 1] * v_star[1]
        r2, r3 = X[t, 2] * v_star[2], X[t, 3] * v_star[3]
        r4, r5 = X[t, 4] * v_star[4], X[t, 5] * v_star[5]
        r6, r7 = X[t, 6] * v_star[6], X[t, 7] * v_star[7]
        m = d - d % 8
        for i in range(8, m, 8):
            r0 += X[t, i] * v_star[i]
            r1 += X[t, i + 1] * v_star[i + 1]
            r2 += X[t, i + 2] * v_star[i + 2]
            r3 += X[t, i + 3] * v_star[i + 3]
            r4 += X[t, i + 4] * v_star[i + 4]
            r5 += X[t, i + 5] * v_star[i + 5]
            r6 += X[t, i + 6] * v_star[i + 6]
            r7 += X[t, i + 7] * v_star[i + 7]
        s = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        for i in range(m, d):
            s += X[t, i] * v_star[i]
    return 1 if 0.0 + s >= 0.0 else -1


@jit_cache.njit(nogil=True, inline="always")
def _index_row(X, t, beta, v_star, z, optimal, d):
    """z[t, a] = β_aᵀX_t (coordinates summed in order from 0.0) and optimal[t] = a*(X_t)."""
    if d == 2:  # the paper's setting, unrolled (the same operations)
        x0 = X[t, 0]
        x1 = X[t, 1]
        z[t, 0] = (0.0 + x0 * beta[0, 0]) + x1 * beta[0, 1]
        z[t, 1] = (0.0 + x0 * beta[1, 0]) + x1 * beta[1, 1]
    else:
        s0 = 0.0
        s1 = 0.0
        for k in range(d):
            x = X[t, k]
            s0 += x * beta[0, k]
            s1 += x * beta[1, k]
        z[t, 0] = s0
        z[t, 1] = s1
    optimal[t] = _optimal_action(X, t, v_star, d)


@jit_cache.njit(nogil=True)
def index_pass(X, beta, v_star, z, optimal):
    """z[t, a] = β_aᵀX_t and optimal[t] = a*(X_t) for every row of given contexts X, one row
    after the other (:func:`_index_row`)."""
    n, d = X.shape
    for t in range(n):
        _index_row(X, t, beta, v_star, z, optimal, d)


@jit_cache.njit(nogil=True)
def check_means(g, bernoulli, rounding):
    """(1, i) at the first non-finite value of ``g`` (n, 2), (2, i) for Bernoulli rewards at
    the first value outside [−rounding, 1 + rounding] (flat indices), else (0, −1)."""
    n = g.shape[0]
    for t in range(n):
        for a in range(2):
            if not math.isfinite(g[t, a]):
                return 1, 2 * t + a
    if bernoulli:
        for t in range(n):
            for a in range(2):
                if g[t, a] < -rounding or g[t, a] > 1.0 + rounding:
                    return 2, 2 * t + a
    return 0, -1


@jit_cache.njit(nogil=True, inline="always")
def _reward(g, means, Y, t, a, u, bernoulli, noise):
    """means[t, a] = g[t, a] (clipped to [0, 1] as ``np.clip`` for Bernoulli rewards: a −0.0
    stays −0.0) and Y[t, a] = 1{u < m} (Bernoulli) or ((u·2 − 1)·b) + m (bounded)."""
    m = g[t, a]
    if bernoulli:
        if m < 0.0:
            m = 0.0
        elif m > 1.0:
            m = 1.0
        Y[t, a] = np.float64(u < m)  # no branch: u < m is a coin flip
    else:
        Y[t, a] = ((u * 2.0) - 1.0) * noise + m
    means[t, a] = m


@jit_cache.njit(nogil=True)
def reward_pass(g, means, Y, bernoulli, noise, rounding):
    """Check the link values ``g`` (n, 2), store them clipped in ``means``, and turn the uniforms
    U in ``Y`` into rewards in place.

    Returns the code of :func:`check_means` (nothing is written when it is not 0); else
    (0, −1) after setting means and Y as :func:`_reward`."""
    code, i = check_means(g, bernoulli, rounding)
    if code:
        return code, i
    for t in range(g.shape[0]):
        for a in range(2):
            _reward(g, means, Y, t, a, Y[t, a], bernoulli, noise)
    return 0, -1


# ---------------------------------------------------------------- a block of replications
# Steps 1–2 and 4 of the draw for a whole block in one call each, the streams seeded compiled
# (:func:`nbl_sim.engine.pcg64.seeded_state`): between the two calls only the link's own
# evaluation (step 3) runs in Python, so a block holds the GIL for a few calls, not a few per
# replication, and blocks on threads run side by side.


@jit_cache.njit(nogil=True)
def block_contexts_pass(seed, reps, states, X, beta, v_star, z, optimal):
    """For each replication i of the block (replication index ``reps[i]``): the states of its
    sub-streams k = 0, 1, … into ``states[i, k]`` ((R, 2 or 3, 4) uint64: the coin stream only
    when there are coins), its contexts X[i]
    (standard normals of sub-stream 0, memory order), and z[i], optimal[i] (:func:`index_pass`).
    """
    for i in range(reps.shape[0]):
        for k in range(states.shape[1]):
            seeded_state(seed, reps[i], k, states[i, k])
        fill_normals(states[i, 0], X[i])
        index_pass(X[i], beta, v_star, z[i], optimal[i])


@jit_cache.njit(nogil=True)
def block_rewards_pass(states, means, Y, coins, bernoulli, noise, rounding):
    """For each replication i of the block, whose link values g sit in ``means[i]``: check
    them (:func:`check_means`), draw the reward uniforms Y[i] from sub-stream 1 and turn them
    into rewards with the clipped means (:func:`reward_pass`), and draw the coins[i] from
    sub-stream 2 (a double < 0.5 is −1, as ``np.where(random(n0) < 0.5, -1, 1)``).

    Returns (code, i, j): the check's code and flat index j in replication i at the first
    replication that fails (nothing of it is written), else (0, −1, −1)."""
    for i in range(means.shape[0]):
        code, j = check_means(means[i], bernoulli, rounding)
        if code:
            return code, i, j
        fill_doubles(states[i, 1], Y[i])
        g, m, y = means[i], means[i], Y[i]
        for t in range(g.shape[0]):
            for a in range(2):
                _reward(g, m, y, t, a, y[t, a], bernoulli, noise)
        if coins.shape[1]:
            s_hi, s_lo, c_hi, c_lo = (
                states[i, 2, 0],
                states[i, 2, 1],
                states[i, 2, 2],
                states[i, 2, 3],
            )
            for t in range(coins.shape[1]):
                w, s_hi, s_lo = next_word(s_hi, s_lo, c_hi, c_lo)
                coins[i, t] = -1 if as_double(w) < 0.5 else 1
    return 0, -1, -1
