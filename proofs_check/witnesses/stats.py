"""Monte Carlo statistics shared by the claims: means with standard errors, binomial z-scores,
order-statistic quantile intervals, Clopper–Pearson bounds, Gaussian-limit quantiles, and the
least-squares fits the Monte Carlo claims read their rates from.

Everything here is plain numpy/scipy arithmetic on samples the claims simulate; nothing calls the
library under test.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy.stats import beta as beta_dist
from scipy.stats import chi as chi_dist

__all__ = [
    "CHI_CONSTANT",
    "mean_se",
    "binomial_z",
    "quantile_ci",
    "clopper_pearson_upper",
    "gaussian_limit_quantile",
    "chi_constant_sup",
    "loglog_slope_batches",
    "log_probability_fit",
    "paired_ratio",
    "BOUND_VERDICTS",
    "bound_verdict",
    "equivalence_verdict",
    "interval_verdict",
    "one_sided_power",
    "decay_models",
    "power_law_fit",
    "median_abs_angle_error",
    "increasing_by_bound",
    "ci_within",
    "mean_ci",
    "z_score",
    "bound_verdicts",
    "smallest_ratio",
    "max_abs_difference",
    "max_over_min",
    "implied_c_loc",
    "clopper_pearson_lower",
    "normal_band",
]


def mean_se(x, axis=0):
    """Sample mean and its standard error along ``axis``.

    Parameters
    ----------
    x : array_like
        Samples; ``axis`` indexes independent replications.
    axis : int

    Returns
    -------
    mean, se : ndarray or float
        ``x.mean(axis)`` and ``x.std(axis, ddof=1)/sqrt(n)`` (exact arithmetic of the sample; its
        accuracy as an estimate is the Monte Carlo error it reports).
    """
    x = np.asarray(x, dtype=float)
    n = x.shape[axis]
    return x.mean(axis), x.std(axis, ddof=1) / math.sqrt(n)


def normal_band(x, level: float = 0.95) -> tuple:
    """(mean, SE, mean − z SE, mean + z SE) of the replications ``x`` (:func:`mean_se`), z the
    two-sided normal quantile of ``level`` (scipy's ndtri): a figure's band of a Monte Carlo
    mean."""
    from scipy.special import ndtri

    m, se = mean_se(x)
    z = float(ndtri(0.5 + level / 2))
    return float(m), float(se), float(m - z * se), float(m + z * se)


def binomial_z(freq: float, bound: float, N: int) -> float:
    """z-score of an observed tail frequency above a claimed bound on its probability.

    The standard error is the binomial one *under the bound*, sqrt(bound(1 − bound)/N), so a
    frequency that exceeds a correct bound by more than a few of them is unlikely.

    Parameters
    ----------
    freq : float
        Observed frequency of the event in ``N`` independent trials.
    bound : float
        The claimed upper bound on its probability.
    N : int
    """
    se = math.sqrt(max(bound * (1 - bound), 1e-300) / N)
    return (freq - bound) / se


def quantile_ci(x, p: float, z: float = 3.0) -> tuple:
    """Empirical p-quantile of ``x`` with a distribution-free interval from order statistics.

    The number of samples below the true quantile is Binomial(R, p); the interval is the pair of
    order statistics at ranks pR ∓ z sqrt(R p (1 − p)) (clipped to the sample), so it covers the
    true quantile with the normal-approximation probability of ±z standard deviations.

    Returns
    -------
    (q, q_lo, q_hi) : tuple of float
        ``numpy.quantile(x, p)`` and the two order statistics.
    """
    s = np.sort(np.asarray(x, dtype=float))
    R = s.size
    k = p * R
    half = z * math.sqrt(R * p * (1 - p))
    lo = int(min(R - 1, max(0, math.floor(k - half))))
    hi = int(min(R - 1, max(0, math.ceil(k + half))))
    return float(np.quantile(s, p)), float(s[lo]), float(s[hi])


def clopper_pearson_upper(k: int, n: int, level: float = 0.999) -> float:
    """One-sided Clopper–Pearson upper confidence bound for a binomial proportion.

    ``k`` successes in ``n`` trials; the bound is the ``level`` quantile of Beta(k + 1, n − k)
    (exact coverage ≥ ``level``), and 1 when k = n.
    """
    return 1.0 if k >= n else float(beta_dist.ppf(level, k + 1, n - k))


def gaussian_limit_quantile(cov, p: float, project=None, n: int = 200_000, seed: int = 0):
    """p-quantile of ‖P G‖, G ~ N(0, cov), by seeded Monte Carlo.

    ``P`` is the matrix ``project`` (a projection) or the identity. The law of ‖PG‖ depends only
    on the eigenvalues λ of P cov P: ‖PG‖² = Σ λ_i ξ_i², ξ ~ N(0, I), sampled ``n`` times.
    Accuracy: the Monte Carlo error of an empirical quantile of ``n`` draws (~1e-3 relative for
    the default n).
    """
    cov = np.asarray(cov, dtype=float)
    if project is not None:
        cov = project @ cov @ project
    lam = np.clip(np.linalg.eigvalsh(cov), 0, None)
    xi = np.random.default_rng(seed).standard_normal((n, lam.size))
    return float(np.quantile(np.sqrt((xi**2 * lam).sum(axis=1)), p))


#: √3: q_{1−δ}(χ_k) ≤ √k + √(2 log(1/δ)) ≤ √3 √(k + log(2/δ)) (Gaussian concentration of the
#: norm, then Cauchy–Schwarz), the Gaussian-limit constant C_4 of
#: prop:randomized_initialization (C = 2√3, c_0 = 1/2); :func:`chi_constant_sup` checks it.
CHI_CONSTANT = math.sqrt(3.0)


@functools.cache
def chi_constant_sup() -> float:
    """max over k = 1..400 and δ in [1e-14, 1/2] (300 log-spaced values) of
    q_{1−δ}(χ_k)/√(k + log(2/δ)).

    The numerical face of the bound √3 behind the Gaussian-limit constants of
    prop:randomized_initialization (√k + √(2 log(1/δ)) ≤ √3 √(k + log(2/δ))); the χ quantiles
    come from scipy's ``chi.isf`` (double precision).
    """
    k = np.arange(1, 401)[:, None]
    dl = np.logspace(-14, math.log10(0.5), 300)[None, :]
    return float(np.max(chi_dist.isf(dl, k) / np.sqrt(k + np.log(2 / dl))))


def loglog_slope_batches(t, t0: float, a, batches, t_lo: int) -> tuple[float, float]:
    """Least-squares slope of log a_t on log(t + t0) over t ≥ ``t_lo``, with a standard error
    from batches of independent paths.

    Parameters
    ----------
    t : ndarray
        Rounds.
    t0 : float
        Step-size offset.
    a : ndarray
        Mean curve over all paths (same length as ``t``).
    batches : sequence of ndarray
        The same mean over disjoint batches of paths.
    t_lo : int

    Returns
    -------
    slope, se : float
        ``numpy.polyfit`` slope of the full curve, and the standard deviation of the batch slopes
        divided by √(number of batches).
    """
    sel = t >= t_lo
    X = np.log(t[sel] + t0)

    def slope(y):
        return float(np.polyfit(X, np.log(y[sel]), 1)[0])

    full = slope(a)
    bs = [slope(b) for b in batches]
    return full, float(np.std(bs, ddof=1) / math.sqrt(len(bs)))


def log_probability_fit(x, P, R: int):
    """Weighted least squares of log P on (1, x, (x − x̄)²) over the points with ≥ 5 events.

    The weights are the reciprocal delta-method variances of log P̂, R P/(1 − P); x̄ is the
    mean of the used x. A positive quadratic coefficient means decay slower than exponential.

    Parameters
    ----------
    x : ndarray
        Abscissae (e.g. n0).
    P : ndarray
        Estimated probabilities from ``R`` independent replications.
    R : int

    Returns
    -------
    coef, cov : ndarray
        The three coefficients and their covariance matrix (A^T W A)^{-1}.
    """
    use = P * R >= 5
    lp = np.log(P[use])
    w = 1 / ((1 - P[use]) / (R * P[use]))
    A = np.stack([np.ones(use.sum()), x[use], (x[use] - x[use].mean()) ** 2], axis=1)
    cov = np.linalg.inv(A.T @ (A * w[:, None]))
    coef = cov @ (A.T @ (w * lp))
    return coef, cov


def paired_ratio(d1, d2) -> tuple[float, float]:
    """Ratio of means E[d2]/E[d1] of paired samples and its delta-method standard error.

    Returns
    -------
    ratio, se : float
        ``mean(d2)/mean(d1)`` and √(gᵀ C g) with g = (−m2/m1², 1/m1) and C the sample covariance
        of (d1, d2) divided by the number of pairs.
    """
    ratio = float(d2.mean() / d1.mean())
    m1, m2 = float(d1.mean()), float(d2.mean())
    cov = np.cov(np.stack([d1, d2])) / d1.size
    g = np.array([-m2 / m1**2, 1 / m1])
    return ratio, float(math.sqrt(g @ cov @ g))


#: Outcomes of :func:`bound_verdict`.
BOUND_VERDICTS = ("below", "at", "above", "unresolved")


def bound_verdict(mean: float, se: float, bound: float, resolution: float, k: float = 5.0) -> str:
    """Decide a Monte Carlo estimate against a claimed upper bound so that noise never helps a
    check pass.

    ``above``: the estimate exceeds the bound by more than ``k`` standard errors (the bound is
    violated). ``below``: the estimate plus ``k`` SE is below the bound (the bound is confirmed
    with room to spare). ``at``: the estimate is within ``k`` SE of the bound *and* ``k`` SE is
    at most ``resolution`` (the bound holds to within the stated resolution — the right verdict
    for a nearly tight bound). ``unresolved``: the estimate is within ``k`` SE of the bound but
    the noise exceeds the resolution, so the check cannot tell (more samples are needed).

    Parameters
    ----------
    mean, se : float
        The estimate and its standard error.
    bound : float
        The claimed upper bound.
    resolution : float
        The largest violation the check must be able to see (same units as ``mean``).
    k : float
        Standard errors allowed on either side (5: one-sided false alarm ~2.9e-7).

    Returns
    -------
    str
        One of :data:`BOUND_VERDICTS`.
    """
    if mean - k * se > bound:
        return "above"
    if mean + k * se <= bound:
        return "below"
    return "at" if k * se <= resolution else "unresolved"


def equivalence_verdict(
    estimate: float, se: float, target: float, margin: float, z: float = 1.6448536269514722
) -> str:
    """Two one-sided tests (TOST) of ``|estimate − target| < margin``.

    ``equivalent`` when the (1 − 2α) interval estimate ± z·SE lies inside target ± margin
    (α = 5% for the default z); ``different`` when it lies entirely outside; otherwise
    ``unresolved`` (the noise is too large for the margin). Larger noise can only move a
    verdict towards ``unresolved``, never towards ``equivalent``.
    """
    dev = abs(estimate - target)
    if dev + z * se < margin:
        return "equivalent"
    if dev - z * se > margin:
        return "different"
    return "unresolved"


def interval_verdict(
    lo: float, hi: float, threshold: float, below: str = "below", above: str = "above"
) -> str:
    """``below`` when a confidence interval [lo, hi] lies at or below ``threshold``, ``above``
    when it lies strictly above it, otherwise ``unresolved``: more noise widens the interval,
    so it can only move a verdict towards ``unresolved``."""
    if hi <= threshold:
        return below
    return above if lo > threshold else "unresolved"


def one_sided_power(effect: float, se: float, k: float) -> float:
    """Probability that a one-sided test rejecting when estimate > k·SE detects a true
    ``effect`` (normal approximation): Φ(effect/SE − k)."""
    from scipy.stats import norm

    if se <= 0:
        return 1.0 if effect > 0 else 0.0
    return float(norm.cdf(effect / se - k))


def decay_models(x, P, R: int) -> dict:
    """Weighted least squares of log P on n0 (exponential decay, P = A e^{b n0}) and on log n0
    (power-law decay, P = A n0^b), over the points with at least 5 events and 5 non-events.

    The weights are the reciprocal delta-method variances of log P̂, R P/(1 − P). Both models
    have two parameters, so their χ² rank them as AIC does.

    Returns
    -------
    dict
        ``exp`` and ``pow``: ``a``, ``b``, ``b_se``, ``chi2``; ``used``: number of points
        (``exp``/``pow`` are None when fewer than 3 points are usable).
    """
    x = np.asarray(x, dtype=float)
    P = np.asarray(P, dtype=float)
    use = (P * R >= 5) & ((1 - P) * R >= 5)
    out: dict = {"used": int(use.sum()), "exp": None, "pow": None}
    if use.sum() < 3:
        return out
    lp = np.log(P[use])
    w = R * P[use] / (1 - P[use])
    for name, f in (("exp", x[use]), ("pow", np.log(x[use]))):
        A = np.column_stack([np.ones_like(f), f])
        cov = np.linalg.inv(A.T @ (A * w[:, None]))
        coef = cov @ (A.T @ (w * lp))
        r = lp - A @ coef
        out[name] = {
            "a": float(coef[0]),
            "b": float(coef[1]),
            "b_se": float(math.sqrt(cov[1, 1])),
            "chi2": float(r @ (w * r)),
        }
    return out


def power_law_fit(x, y, y_se) -> dict | None:
    """Weighted least squares of log y on log x (y ~ x^q), with delta-method weights
    (y/SE)^2; None when fewer than two points or a non-positive y.

    Returns
    -------
    dict
        ``q`` and ``q_se``.
    """
    x, y, s = (np.asarray(v, dtype=float) for v in (x, y, y_se))
    if x.size < 2 or np.any(y <= 0):
        return None
    w = (y / np.maximum(s, 1e-300)) ** 2
    A = np.column_stack([np.ones_like(x), np.log(x)])
    P = np.linalg.inv(A.T @ (w[:, None] * A))
    coef = P @ A.T @ (w * np.log(y))
    return {"q": float(coef[1]), "q_se": float(math.sqrt(P[1, 1]))}


def median_abs_angle_error(angles, predicted_deg: float) -> float:
    """Median over replications of ||angle| − predicted| in degrees.

    Parameters
    ----------
    angles : array_like
        Final signed angles in radians, one per replication.
    predicted_deg : float
        The predicted unsigned angle in degrees.

    Returns
    -------
    float
        The median absolute error (degrees).
    """
    return float(np.median(np.abs(np.abs(np.degrees(np.asarray(angles, float))) - predicted_deg)))


def increasing_by_bound(means, z: float = 1.96) -> bool:
    """Each (mean, SE) exceeds the previous one by a one-sided bound of the (independent)
    difference: b − a > z·hypot(se_a, se_b) for every consecutive pair.

    Parameters
    ----------
    means : sequence of (float, float)
        (mean, standard error) pairs, in the claimed increasing order.
    z : float, default 1.96
        The normal quantile (1.96: one-sided 97.5%).

    Returns
    -------
    bool
    """
    return all(b - a > z * math.hypot(sa, sb) for (a, sa), (b, sb) in zip(means, means[1:]))


def ci_within(mean: float, se: float, margin: float, z: float = 1.96) -> bool:
    """Whether the interval mean ± z·se lies strictly inside (−margin, margin).

    Parameters
    ----------
    mean, se : float
        A sample mean and its standard error.
    margin : float
        The half-width of the equivalence band.
    z : float, default 1.96

    Returns
    -------
    bool
    """
    return abs(mean) + z * se < margin


def mean_ci(x, z: float = 1.96) -> tuple:
    """Sample mean of a 1-D sample with its normal-approximation interval mean ± z·SE.

    Parameters
    ----------
    x : ndarray
        Independent replications.
    z : float, default 1.96

    Returns
    -------
    (mean, lo, hi) : tuple of float
    """
    m, se = (float(v) for v in mean_se(x))
    return m, m - z * se, m + z * se


def z_score(mean: float, se: float, reference: float) -> float:
    """(mean − reference)/se: a Monte Carlo estimate's distance from a reference value in
    standard errors."""
    return (mean - reference) / se


def bound_verdicts(means, ses, bounds, rel_resolution: float, k: float = 5.0) -> list:
    """:func:`bound_verdict` of each (mean, SE, bound), with resolution ``rel_resolution`` times
    the bound."""
    return [
        bound_verdict(float(m), float(e), float(b), rel_resolution * float(b), k)
        for m, e, b in zip(means, ses, bounds)
    ]


def smallest_ratio(num, den) -> float:
    """min over the entries of num/den, den floored at 1e-300 (how far below a bound ``num``
    the estimates ``den`` stay)."""
    return float((num / np.maximum(den, 1e-300)).min())


def max_abs_difference(a, b) -> float:
    """max |a − b| over all entries (inf if the shapes differ)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(np.abs(a - b).max()) if a.shape == b.shape else math.inf


def max_over_min(values) -> float:
    """max(values)/min(values): the spread of positive values as a factor."""
    return max(values) / min(values)


def implied_c_loc(x, P, d: int) -> float:
    """The smallest C_loc with P ≤ exp(d − n0/C_loc) at every grid point (n0 in ``x``, the
    exit probabilities ``P``, dimension ``d``): max over P > 0 of n0/(d − log P)
    (lem:finite-horizon-localization's form P(τ ≤ n) ≤ δ once n0 ≥ C_loc(d + log 1/δ))."""
    return float(max(a / (d - math.log(p)) for a, p in zip(x, P) if p > 0))


def clopper_pearson_lower(k: int, n: int, alpha: float = 0.001) -> float:
    """One-sided Clopper–Pearson lower confidence bound (level 1 − ``alpha``) for a binomial
    proportion: the ``alpha`` quantile of Beta(k, n − k + 1), and 0 when k = 0."""
    return float(beta_dist.ppf(alpha, k, n - k + 1)) if k > 0 else 0.0
