"""Metrics of a run (eq:regret, app:stochastic-nbl) and Monte Carlo summaries.

* Regret with *expected* means (eq:regret): R_t = Σ_{s≤t} {m_{a*(X_s)}(X_s) − m_{A_s}(X_s)},
  a*(x) = sgn(v*ᵀx) with sgn(0) = +1 — so Bernoulli noise never enters the regret.
  :func:`cumulative_regret` is the readable numpy definition; :func:`recorded_regret` computes the
  same sums (numpy's sequential ``cumsum`` over the rounds a policy missed, so the same bits) and
  keeps only the recorded rounds.
* Average regret R_t/t; signed angle α_t = atan2(v*_1 v_{t,2} − v*_2 v_{t,1}, v*ᵀv_t) in d = 2
  (app:stochastic-nbl); squared error ‖v_t − v*‖² in any d.
* Monte Carlo bands: mean ± 1.96·SE with SE = sample standard deviation / √R (pointwise
  approximate 95% intervals for the mean trajectory, as in fig:app-stochastic-angle). Each
  statistic sums the R replications of one point in numpy's pairwise order over replications
  0, …, R−1, whatever the memory layout of the input, so a band does not depend on how the
  replications were chunked or stacked (and the band at the last round equals the summary of the
  final values).
"""

from __future__ import annotations

import numpy as np

from nbl_theory.errors import NBLInputError

__all__ = [
    "instantaneous_regret",
    "instantaneous_regret_into",
    "cumulative_regret",
    "recorded_regret",
    "mc_summary",
    "Z95",
]

#: replications per block of :func:`recorded_regret` (its temporaries: at most (block, n))
_REGRET_BLOCK = 64
#: the largest share of missed rounds in a block summed sparsely; past it the dense sum is faster
#: (the same bits either way). ``benchmarks/bench_regret.py`` (blocks of 8 and 64 × 10⁴ rounds):
#: the sparse sum 2.1–3.5× faster than the dense one at 6% misses, 1.1–1.8× at 10%, 1.3× at
#: 20%; before this bound it was 1.3× slower at 50% and 3–5× slower at 100%, and past it
#: ``recorded_regret`` is 0.9× the bare dense sum (counting the misses, checking the input).
_SPARSE_SHARE = 0.25
#: Φ⁻¹(0.975): the half-width of a 95% normal band is ``Z95`` standard errors.
Z95 = 1.959963984540054  # Φ⁻¹(0.975)


def instantaneous_regret(means: np.ndarray, actions: np.ndarray, optimal: np.ndarray) -> np.ndarray:
    """m_{a*}(X_t) − m_{A_t}(X_t) for means (R, n, 2) (column 0 = arm −1), actions (R, n).

    Parameters
    ----------
    means : (R, n, 2) float64 ndarray
        Expected rewards m_a(X_t) (column 0 = arm −1, column 1 = arm +1).
    actions : (R, n) int ndarray
        The actions taken, in {−1, +1} (a positive entry selects arm +1).
    optimal : (R, n) int ndarray
        The optimal actions a*(X_t), in {−1, +1}.

    Returns
    -------
    (R, n) float64 ndarray
        The gap of every round: 0 where the action is optimal, else the difference of means.
    """
    m_minus, m_plus = means[..., 0], means[..., 1]
    return np.where(optimal > 0, m_plus, m_minus) - np.where(actions > 0, m_plus, m_minus)


def instantaneous_regret_into(means, actions, optimal, out) -> np.ndarray:
    """:func:`instantaneous_regret` for means (R, n', 2) with n' >= n, actions and optimal
    (R, n) int8, written into ``out`` (R, n) float64 (may be a view of a wider buffer): the
    same subtraction, so the same bits.

    Parameters
    ----------
    means : (R, n', 2) float64 ndarray
        Expected rewards (column 0 = arm −1), n' >= n; only the first n rounds are read.
    actions : (R, n) int8 ndarray
        The actions taken, in {−1, +1}.
    optimal : (R, n) int8 ndarray
        The optimal actions, in {−1, +1}.
    out : (R, n) float64 ndarray
        Filled in place with the gaps.

    Returns
    -------
    (R, n) float64 ndarray
        ``out``.

    Raises
    ------
    NBLInputError
        If ``means`` is not (R, >= n, 2) or ``out`` not (R, n) for actions (R, n).
    """
    R, n = actions.shape
    if means.shape[0] != R or means.shape[1] < n or means.shape[2] != 2 or out.shape != (R, n):
        raise NBLInputError(
            f"means must be (R, >= n, 2) and out (R, n) for actions {(R, n)}; "
            f"got {means.shape}, {out.shape}"
        )
    out[...] = instantaneous_regret(means[:, :n], actions, optimal)
    return out


def cumulative_regret(means, actions, optimal) -> np.ndarray:
    """R_t for t = 1..n, shape (R, n) (eq:regret, expected means).

    Parameters
    ----------
    means : (R, n, 2) float64 ndarray
        Expected rewards m_a(X_t) (column 0 = arm −1).
    actions : (R, n) int ndarray
        The actions taken, in {−1, +1}.
    optimal : (R, n) int ndarray
        The optimal actions a*(X_t), in {−1, +1}.

    Returns
    -------
    (R, n) float64 ndarray
        ``np.cumsum`` over rounds of :func:`instantaneous_regret`: column t − 1 holds R_t.
    """
    return np.cumsum(instantaneous_regret(means, actions, optimal), axis=1)


def recorded_regret(means, actions, optimal, record_rounds, out=None) -> np.ndarray:
    """R_t at the rounds ``record_rounds`` (R_0 = 0), shape (R, K): the values of
    :func:`cumulative_regret` at those rounds, bit for bit, without the (R, n) arrays.

    Only the rounds where the action is not optimal are summed. Elsewhere the gap
    m_{a*} − m_{A_t} is m − m = +0.0 exactly (finite means), and adding +0.0 leaves a running
    sum unchanged unless that sum is −0.0; so the sequential sum (numpy's ``cumsum``) of the
    nonzero gaps of a replication, read at the last miss before t, is R_t bit for bit. The two
    inputs where that could fail — a mean that is not finite (m − m is NaN) and a gap of −0.0
    (−0.0 − (+0.0)) — take the dense sum of :func:`cumulative_regret` instead, and so does a
    block where more than a quarter of the rounds were missed (:data:`_SPARSE_SHARE`: there
    the dense sum is faster). A policy that learns misses few rounds (NBL in d = 2 with the
    logistic link: ~6%), so this reads the means of those rounds only: 2.1–3.5× less time than
    the dense sum there (``benchmarks/bench_regret.py``).

    Parameters
    ----------
    means : (R, n, 2) float64 ndarray
        Expected rewards (column 0 = arm −1).
    actions : (R, n) int8 ndarray
        The actions taken, in {−1, +1}.
    optimal : (R, n) int8 ndarray
        The optimal actions, in {−1, +1}.
    record_rounds : sequence of int
        K strictly increasing rounds in [0, n] (round 0 records R_0 = 0).
    out : (R, K) float64 ndarray, optional
        The array to fill (may be a row block of a larger array); None allocates one.

    Returns
    -------
    (R, K) float64 ndarray
        R_t at each recorded round (``out`` when given).

    Raises
    ------
    NBLInputError
        If the shapes disagree, or ``record_rounds`` is not strictly increasing in [0, n].
    """
    means = np.ascontiguousarray(means, dtype=np.float64)
    actions = np.ascontiguousarray(actions, dtype=np.int8)
    optimal = np.ascontiguousarray(optimal, dtype=np.int8)
    rec = np.ascontiguousarray(record_rounds, dtype=np.int64)
    R, n = actions.shape
    if means.shape != (R, n, 2) or optimal.shape != (R, n):
        raise NBLInputError(
            f"means must be (R, n, 2) and optimal (R, n) for actions {(R, n)}; "
            f"got {means.shape}, {optimal.shape}"
        )
    if rec.ndim != 1 or np.any(np.diff(rec) <= 0) or (rec.size and (rec[0] < 0 or rec[-1] > n)):
        raise NBLInputError("record_rounds must be strictly increasing integers in [0, n]")
    if out is None:
        out = np.empty((R, rec.size))
    ones = rec > 0  # R_0 = 0; R_t = the running sum at round t − 1
    out[:, ~ones] = 0.0
    for r in range(0, R, _REGRET_BLOCK):  # bounded temporaries: a block of replications
        rows = slice(r, r + _REGRET_BLOCK)
        _sparse_block(means[rows], actions[rows], optimal[rows], rec, ones, out[rows])
    return out


def _sparse_block(means, actions, optimal, rec, ones, out) -> None:
    """:func:`recorded_regret` of one block of replications, written into ``out``."""
    R, n = actions.shape
    opt = optimal > 0
    miss = np.flatnonzero(opt != (actions > 0))  # row-major: by replication, then round
    if miss.size > _SPARSE_SHARE * actions.size:
        _dense_recorded_regret(means, actions, optimal, rec, ones, out)
        return
    col = opt.ravel()[miss].astype(np.intp)  # the optimal arm's column; the action's is 1 − it
    flat = means.reshape(R * n, 2)
    gaps = flat[miss, col] - flat[miss, 1 - col]
    if not np.isfinite(means.sum()) or np.any(np.signbit(gaps[gaps == 0.0])):
        _dense_recorded_regret(means, actions, optimal, rec, ones, out)
        return
    first = np.searchsorted(miss, np.arange(R) * n)  # each replication's first miss
    row = miss // n
    width = int(np.max(np.diff(np.append(first, miss.size)), initial=0))
    sums = np.zeros((R, width + 1))  # column k: the sum of a replication's first k gaps
    sums[row, np.arange(miss.size) - first[row] + 1] = gaps
    np.cumsum(sums[:, 1:], axis=1, out=sums[:, 1:])
    before = np.arange(R)[:, None] * n + (rec[ones] - 1)  # round t − 1 of each replication
    out[:, ones] = sums[
        np.arange(R)[:, None], np.searchsorted(miss, before, "right") - first[:, None]
    ]


def _dense_recorded_regret(means, actions, optimal, rec, ones, out) -> None:
    """:func:`recorded_regret` of one block by the dense sum of :func:`cumulative_regret`."""
    out[:, ones] = cumulative_regret(means, actions, optimal)[:, rec[ones] - 1]


def mc_summary(values: np.ndarray) -> dict:
    """Mean, standard error and the 95% band over replications (axis 0), ignoring nothing:
    NaN stays NaN (a metric undefined in some replication is undefined on average).

    Every statistic reduces the R values of one point as one contiguous run (numpy's pairwise
    summation over replications in index order), so the result depends on the values only, not
    on the memory layout of ``values`` (e.g. how chunks of replications were stacked).

    Parameters
    ----------
    values : array_like, shape (R, ...)
        One row per replication (converted to float).

    Returns
    -------
    dict
        ``mean``, ``se`` (sample standard deviation / √R; NaN everywhere when R = 1), ``lo``
        and ``hi`` (mean ∓ :data:`Z95`·se), arrays of shape ``values.shape[1:]``, and
        ``reps`` (R, an int).
    """
    values = np.asarray(values, dtype=float)
    R = values.shape[0]
    runs = np.ascontiguousarray(np.moveaxis(values, 0, -1))  # (..., R), each run contiguous
    mean = runs.mean(axis=-1)
    se = runs.std(axis=-1, ddof=1) / np.sqrt(R) if R > 1 else np.full_like(mean, np.nan)
    return {"mean": mean, "se": se, "lo": mean - Z95 * se, "hi": mean + Z95 * se, "reps": R}
