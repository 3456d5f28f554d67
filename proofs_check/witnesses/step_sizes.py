"""The step sizes η_t = γ/(t + t0) of eq:step_size summed directly: tails and partial sums of
(t + t0)^−k by the Hurwitz zeta function and the digamma function at 30 digits (mpmath), and
short partial sums in exact rational arithmetic (:class:`fractions.Fraction`). Nothing here
calls the library.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

__all__ = [
    "harmonic_sum",
    "tail_bound_ratios",
    "full_square_sums",
    "divergent_sums",
    "exact_tail_sums",
]


def harmonic_sum(power, t0, N):
    """Σ_{t=1}^N (t + t0)^−power (mpf at the working precision; Hurwitz zeta, digamma for
    power 1)."""
    if power == 1:
        return mpmath.psi(0, N + 1 + t0) - mpmath.psi(0, 1 + t0)
    return mpmath.zeta(power, 1 + t0) - mpmath.zeta(power, N + 1 + t0)


def tail_bound_ratios(
    n0s, t0s, power: float = 1.0, sq_offset: int = 0, fourth_factor: int = 3, dps: int = 30
) -> dict:
    """The largest ratios of the tails of eq:step_size to the bounds the proofs use, over the
    grid n0 ∈ ``n0s``, t0 ∈ ``t0s`` (decimal strings) with n0 + t0 ≥ 1, at ``dps`` digits:
    ``sq``: Σ_{s>n0} (s + t0)^−2p · (n0 + t0 + sq_offset), ``fourth``: Σ_{s>n0} (s + t0)^−4p ·
    fourth_factor (n0 + t0)³ and ``max``: (n0 + t0)²/(n0 + 1 + t0)^2p, each ≤ 1 as claimed
    (p = ``power`` = 1, sq_offset = 0 and fourth_factor = 3 as printed; other values are the
    claim's mutants). Tails are Hurwitz zeta values ζ(k, n0 + 1 + t0). Returns floats."""
    worst2 = worst4 = worstmax = float("-inf")
    with mpmath.workdps(dps):
        for n0 in n0s:
            for t0 in (mpmath.mpf(t) for t in t0s):
                c = n0 + t0
                if c < 1:
                    continue  # the proofs use n0 + t0 >= 1
                x = n0 + 1 + t0
                tail2 = mpmath.zeta(2 * power, x)  # sum_{s>n0} (s+t0)^-2p
                tail4 = mpmath.zeta(4 * power, x)
                r2 = tail2 * (c + sq_offset)  # <= 1 claimed
                r4 = tail4 * fourth_factor * c**3  # <= 1 claimed
                rmax = c**2 / x ** (2 * power)  # <= 1 claimed
                worst2, worst4 = max(worst2, float(r2)), max(worst4, float(r4))
                worstmax = max(worstmax, float(rmax))
    return {"sq": worst2, "fourth": worst4, "max": worstmax}


def full_square_sums(t0s, power: float = 1.0, dps: int = 30) -> list:
    """Σ_{t≥1} (t + t0)^−2p = ζ(2p, 1 + t0) for each t0 of ``t0s`` (finite for p > 1/2), as
    floats computed at ``dps`` digits."""
    with mpmath.workdps(dps):
        return [float(mpmath.zeta(2 * power, 1 + t0)) for t0 in t0s]


def divergent_sums(power, t0, Ns, dps: int = 30) -> tuple:
    """(Σ_{t≤N} (t + t0)^−power, log((N + 1 + t0)/(1 + t0))) for each N of ``Ns``, as floats
    computed at ``dps`` digits: the integral test's lower bound of the sum, unbounded in N (so
    Σ_t η_t = ∞ when the sum stays above it)."""
    with mpmath.workdps(dps):
        harm = [float(harmonic_sum(power, t0, N)) for N in Ns]
        lower = [float(mpmath.log(mpmath.mpf(N + 1 + t0) / (1 + t0))) for N in Ns]
    return harm, lower


def exact_tail_sums(n0: int, t0: int, n: int) -> tuple:
    """(Σ_{s=n0+1}^n (s + t0)^−2, Σ_{s=n0+1}^n (s + t0)^−4) as exact fractions."""
    s2 = sum(Fraction(1, (s + t0) ** 2) for s in range(n0 + 1, n + 1))
    s4 = sum(Fraction(1, (s + t0) ** 4) for s in range(n0 + 1, n + 1))
    return s2, s4
