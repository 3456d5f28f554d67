"""The compiled passes that draw a replication of :class:`nbl_sim.environment.Environment`
(its module docstring, "How a replication is drawn"): the context fill, the index and
optimal-action pass, and the reward pass. Each does the numpy definition's float operations in
the same order, so the results are the same bits (tested against it).
"""

from __future__ import annotations

import math

import numba
import numpy as np

__all__ = ["PAIRWISE_MAX", "index_pass", "standard_normal_fill", "compiled_normals_agree",
           "reward_pass"]

#: numpy's pairwise block: up to this many terms a sum is one block (beyond: let numpy sum)
PAIRWISE_MAX = 128


@numba.njit(cache=True, nogil=True, inline="always")
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


@numba.njit(cache=True, nogil=True)
def index_pass(X, beta, v_star, z, optimal):
    """z[t, a] = β_aᵀX_t (coordinates summed in order from 0.0) and optimal[t] = a*(X_t)."""
    n, d = X.shape
    if d == 2:  # the paper's setting, unrolled (the same operations)
        b00, b01, b10, b11 = beta[0, 0], beta[0, 1], beta[1, 0], beta[1, 1]
        for t in range(n):
            x0 = X[t, 0]
            x1 = X[t, 1]
            z[t, 0] = (0.0 + x0 * b00) + x1 * b01
            z[t, 1] = (0.0 + x0 * b10) + x1 * b11
            optimal[t] = _optimal_action(X, t, v_star, 2)
        return
    for t in range(n):
        s0 = 0.0
        s1 = 0.0
        for k in range(d):
            x = X[t, k]
            s0 += x * beta[0, k]
            s1 += x * beta[1, k]
        z[t, 0] = s0
        z[t, 1] = s1
        optimal[t] = _optimal_action(X, t, v_star, d)


@numba.njit(cache=True, nogil=True)
def standard_normal_fill(rng, X):
    """``rng.standard_normal(out=X)`` for a C-contiguous 2-D ``X``, in a compiled loop: numba's
    ``Generator.standard_normal`` is numpy's ziggurat (same tables, same bit-generator calls
    through the generator's ctypes interface), so the values and the generator's final state are
    numpy's, bit for bit, ~2.5× faster (tested against numpy)."""
    n, d = X.shape
    for t in range(n):
        for k in range(d):
            X[t, k] = rng.standard_normal()


_SELF_CHECK: list = []  # [bool] once checked: compiled normals equal numpy's in this process


def compiled_normals_agree() -> bool:
    """Once per process: 100,000 normals (~700 ziggurat slow paths, ~30 tails) from the compiled
    loop and from numpy's fill, and the generators' final states, must be identical; otherwise
    (a numba or numpy whose ziggurats differ) the contexts fall back to numpy's own fill."""
    if not _SELF_CHECK:
        a, b = np.random.default_rng(20261126), np.random.default_rng(20261126)
        x, y = np.empty((50_000, 2)), np.empty((50_000, 2))
        standard_normal_fill(a, x)
        b.standard_normal(out=y)
        _SELF_CHECK.append(bool(np.array_equal(x, y)
                                and a.bit_generator.state == b.bit_generator.state))
    return _SELF_CHECK[0]


@numba.njit(cache=True, nogil=True)
def reward_pass(g, means, Y, bernoulli, noise, rounding):
    """Check the link values ``g`` (n, 2), store them clipped in ``means``, and turn the uniforms
    U in ``Y`` into rewards in place.

    Returns (1, i) at the first non-finite value, (2, i) for Bernoulli rewards at the first value
    outside [−rounding, 1 + rounding] (flat indices; nothing is written then), else (0, −1)
    after setting means = g, clipped to [0, 1] as ``np.clip`` does for Bernoulli rewards (a −0.0
    stays −0.0), and Y = 1{U < m} (Bernoulli) or ((U·2 − 1)·b) + m (bounded)."""
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
    for t in range(n):
        for a in range(2):
            m = g[t, a]
            if bernoulli:
                if m < 0.0:
                    m = 0.0
                elif m > 1.0:
                    m = 1.0
                Y[t, a] = 1.0 if Y[t, a] < m else 0.0
            else:
                Y[t, a] = ((Y[t, a] * 2.0) - 1.0) * noise + m
            means[t, a] = m
    return 0, -1
