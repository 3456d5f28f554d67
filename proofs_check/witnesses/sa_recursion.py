"""The stochastic-approximation recursion of lem:sa-recursion, iterated directly.

:func:`sa_recursion_ratios` runs random sequences a_t ≤ (1 − α/(t + t0)) a_{t−1} + b/(t + t0)²
(with equality or with a random slack) and reports the largest a_t (t + t0)/C, C = max{(n0 +
t0) a_{n0}, b/(α − 1)}, which the lemma says is at most 1: 300 short sequences in exact rational
arithmetic (:class:`fractions.Fraction`) and 400 long float64 sequences advanced together.
Plain Python and numpy; nothing here calls the library.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

__all__ = ["sa_recursion_ratios"]


def _exact_ratio(rng, alpha_shift: int) -> tuple:
    worst = Fraction(0)
    for i in range(300):
        alpha = Fraction(int(rng.integers(11, 60)), 10)
        b = Fraction(int(rng.integers(1, 100)), 10)
        t0 = int(rng.integers(0, 20))
        n0 = max(int(rng.integers(0, 20)), int(math.ceil(alpha)) - 1 - t0, 0)
        a = Fraction(int(rng.integers(0, 100)), int(rng.integers(1, 50)))
        Cc = max((n0 + t0) * a, b / (alpha - 1 + alpha_shift))
        for t in range(n0 + 1, n0 + 40):
            slack = Fraction(0) if i % 3 == 0 else Fraction(int(rng.integers(0, 5)), 1000) * a
            a = max(Fraction(0), (1 - alpha / (t + t0)) * a + b / (t + t0) ** 2 - slack)
            worst = max(worst, a * (t + t0) / Cc)
    return worst


def sa_recursion_ratios(seed: int = 77, alpha_shift: int = 0) -> dict:
    """The largest a_t (t + t0)/C of lem:sa-recursion over random sequences from
    ``numpy.random.default_rng(seed)``: first 300 exact sequences (α ∈ [1.1, 5.9], b ∈ [0.1,
    9.9], t0, n0 < 20 with n0 + 1 + t0 ≥ α, 39 steps, a third with equality, the others with a
    random slack up to 0.4% of a_{t−1}), then 400 float64 sequences of 3000 steps (α ∈ [1.01,
    8], b ∈ [1e-3, 1e2], t0 up to 1000, half with equality, half with b scaled by U(0, 1) and
    a_t clipped at 0). ``alpha_shift`` replaces b/(α − 1) in C by b/(α − 1 + alpha_shift) (a
    mutant).

    Returns
    -------
    dict
        ``exact`` (a Fraction), ``float`` (over all float sequences) and ``near_one`` (over
        the equality sequences: how close the bound is approached).
    """
    rng = np.random.default_rng(seed)
    worst_exact = _exact_ratio(rng, alpha_shift)
    K = 400  # float sequences, advanced together (vectorized)
    alpha = rng.uniform(1.01, 8, K)
    b = 10 ** rng.uniform(-3, 2, K)
    t0 = np.where(np.arange(K) % 2 == 1, rng.uniform(0, 1000, K), rng.integers(0, 5, K))
    n0 = np.maximum(rng.integers(0, 200, K), np.maximum(np.ceil(alpha - 1 - t0), 0))
    n0 = np.where(n0 + t0 <= 0, 1, n0)
    a = 10 ** rng.uniform(-4, 1, K)
    Cc = np.maximum((n0 + t0) * a, b / (alpha - 1 + alpha_shift))
    eq = np.arange(K) % 2 == 0  # equality case: the recursion exactly
    ratio = np.zeros(K)
    for k in range(1, 3001):
        tt = n0 + k + t0
        nxt = (1 - alpha / tt) * a + b / tt**2 * np.where(eq, 1.0, rng.uniform(size=K))
        a = np.where(eq, nxt, np.maximum(nxt, 0.0))
        ratio = np.maximum(ratio, a * tt / Cc)
    return {"exact": worst_exact, "float": float(ratio.max()), "near_one": float(ratio[eq].max())}
