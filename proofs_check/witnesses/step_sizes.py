"""The step sizes η_t = γ/(t + t0) of eq:step_size summed directly: tails and partial sums of
(t + t0)^−k by the Hurwitz zeta function and the digamma function at 30 digits (mpmath), and
short partial sums in exact rational arithmetic (:class:`fractions.Fraction`). Nothing here
calls the library.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath

__all__ = [
    "harmonic_sum",
    "tail_bound_ratios",
    "full_square_sums",
    "divergent_sums",
    "exact_tail_sums",
    "threshold_row_errors",
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


def _verdict_class(kappa: float, gamma: float) -> str:
    if kappa <= 0:
        return "unstable"
    x = 2 * gamma * kappa
    return "above" if x > 1 else "at" if x == 1 else "below"


def threshold_row_errors(rows, gamma: float, rel: float = 1e-12) -> list:
    """The rows of a step-size table (:func:`nbl_sim.studies.rate_theory.step_size_table`) whose
    derived entries do not follow from the row's own κ by prop:localized-estimation's rule:
    γ_c = 1/(2κ) (∞ for κ ≤ 0), 2γκ, the exponent min(1, 2γκ) and the verdict (above the
    threshold when 2γκ > 1, at it when = 1, below it when < 1, unstable when κ ≤ 0), each to
    ``rel`` relative (the same float64 operations in another order: rounding only).

    Parameters
    ----------
    rows : list of dict
        The table's rows (``kappa_d2``, ``gamma_c_d2``, ``two_gamma_kappa_d2``,
        ``exponent_d2``, ``verdict_d2`` and the same for ``d3``; ``link``, ``delta``).
    gamma : float
        The step-size constant the table was built at.
    rel : float
        The relative tolerance.

    Returns
    -------
    list of str
        One description per wrong entry (empty when every row follows from its κ).
    """
    bad = []
    for r in rows:
        for d in ("d2", "d3"):
            k = r[f"kappa_{d}"]
            want = {
                "gamma_c": 1 / (2 * k) if k > 0 else math.inf,
                "two_gamma_kappa": 2 * gamma * k,
                "exponent": min(1.0, 2 * gamma * k),
            }
            for name, w in want.items():
                got = r[f"{name}_{d}"]
                if not (got == w or abs(got - w) <= rel * abs(w)):
                    bad.append(
                        f"{r['link']} Delta={r['delta']:g} {name}_{d} {got:.6g} (not {w:.6g})"
                    )
            cls = _verdict_class(k, gamma)
            if not r[f"verdict_{d}"].startswith(cls):
                bad.append(
                    f"{r['link']} Delta={r['delta']:g} verdict_{d} '{r[f'verdict_{d}']}' ({cls})"
                )
    return bad
