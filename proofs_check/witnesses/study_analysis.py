"""The regret-rate study's statistics (sec:regret) recomputed from its raw replications, never
through :mod:`nbl_sim.studies.rate_analysis` or :mod:`nbl_sim.studies.rate_theory`.

The study's cells are judged by :mod:`.study_reruns` (the witness re-runs their first
replications); what the study claims then judge the paper with is the *analysis* of all the
replications: the growth-model fits of E[R_n], the log-log slopes with their bootstrap
intervals, the fit C (d − c) of the localized error over d, the exit frequencies and the
linearized recursion's exponent. A bug there would move a verdict about the paper with no
disagreement anywhere, so :func:`study_statistics` recomputes each from the raw arrays of a
:class:`~nbl_sim.studies.rate_study.StudyResult` in another way:

* the GLS fits a + b f(n) by whitening with the Cholesky factor of the means' covariance and a
  QR least squares (the library inverts the covariance and the normal matrix);
* a log-log slope in closed form (sums of centred logs; the library calls ``numpy.polyfit``);
* the bootstrap over replications with the study's seeds and numpy's documented
  ``Generator.integers`` draws (the same resamples, so the same interval up to rounding);
* C (d − c) by the weighted normal equations written out for two parameters;
* the exponent q of the log-n coefficient, b ~ d^q, by least squares on rows scaled by the
  square roots of the weights (:func:`b_exponent`; the library solves the normal equations);
* the linearized recursion a_t = (1 − η_tκ)² a_{t−1} + η_t²σ² as the plain loop (the library
  works in blocks in log space).

Shared, by design and declared: the study's raw arrays (what is analysed), its settings (seeds,
horizons, windows, t0, the 2γκ multiples), its constants κ, σ² of the step-size part (from
:mod:`nbl_sim.studies.rate_theory`, judged by the Jacobian claims), and the relative ridge
1e-9 that keeps the covariance of the means invertible (a documented setting of the fit).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import linalg
from scipy.stats import chi2 as _chi2

__all__ = [
    "study_statistics",
    "study_comparison",
    "b_exponent",
    "GLS_RIDGE",
    "BOOTSTRAP_SAMPLES",
    "FLOOR_RULE",
]

#: the relative ridge on the covariance of the means (the study's fit setting)
GLS_RIDGE = 1e-9
#: bootstrap resamples per slope (the study's setting)
BOOTSTRAP_SAMPLES = 400
#: the unit roundoff of float64
_U = float(np.finfo(float).eps) / 2
#: how :func:`study_comparison`'s floors are computed, as the agreement's rule states it
FLOOR_RULE = (
    "a first-order rounding floor (GLS fits: u x cond(cov) and the means' R u in units of "
    "the SE; log-log slopes: the log means' (R + 1) u through the fit's weights)"
)
_Z95 = 1.959963984540054


def _mean_se(a) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard error over the rows (replications) of ``a``."""
    a = np.asarray(a, dtype=float)
    n = a.shape[0]
    m = np.add.reduce(a, axis=0) / n
    dev = a - m
    return m, np.sqrt(np.add.reduce(dev * dev, axis=0) / (n - 1) / n)


def _growth(ns, samples) -> tuple[dict, dict]:
    """GLS of the mean R_n on a + b f(n), f ∈ {log n, √n, n}: per model a, b, their SEs and χ²,
    whitened by the Cholesky factor of the means' covariance (replication covariance / R plus
    the relative ridge); and the fits' rounding floors (:data:`FLOOR_RULE`).

    A fit computed by inverting the means' covariance (the library) carries rounding of
    relative size u·κ, κ its condition number (up to 1e9 with the ridge: horizons close
    together make it near singular). To first order that moves W by a relative u·κ, so an SE
    and χ² by a relative u·κ, and a coefficient by u·κ·SE·√max(χ², 1) (W's error acting on
    the whitened residual, in units of the SE); each mean carries up to R·u (a sum of R
    positive values), which moves a coefficient by up to 2(R + 1)·u·‖L⁻¹y‖·SE (both sides'
    means). A coefficient near zero then differs by more than its relative tolerance with
    neither side wrong (measured: 5.5e-9 relative on b ≈ −3.9e-4 when two horizons are
    2·10⁴ and 21,544)."""
    x = np.asarray(ns, dtype=float)
    s = np.asarray(samples, dtype=float)
    R = s.shape[0]
    y, _ = _mean_se(s)
    dev = s - y
    cov = (dev.T @ dev) / (R - 1) / R
    cov[np.diag_indices_from(cov)] += GLS_RIDGE * float(np.trace(cov) / x.size or 1.0)
    kappa = float(np.linalg.cond(cov))
    low = linalg.cholesky(cov, lower=True)
    yw = linalg.solve_triangular(low, y, lower=True)
    mean_err = 2 * (R + 1) * _U * float(np.linalg.norm(yw))
    out, floors = {}, {}
    for name, f in (("log", np.log(x)), ("sqrt", np.sqrt(x)), ("linear", x)):
        aw = linalg.solve_triangular(low, np.column_stack([np.ones_like(f), f]), lower=True)
        q, r = np.linalg.qr(aw)
        coef = linalg.solve_triangular(r, q.T @ yw)
        resid = yw - aw @ coef
        rinv = linalg.solve_triangular(r, np.eye(2))
        pcov = rinv @ rinv.T
        fit = {
            "a": float(coef[0]),
            "b": float(coef[1]),
            "a_se": math.sqrt(pcov[0, 0]),
            "b_se": math.sqrt(pcov[1, 1]),
            "chi2": float(resid @ resid),
        }
        per_se = _U * kappa * math.sqrt(max(fit["chi2"], 1.0)) + mean_err
        out[name] = fit
        floors[name] = {
            "a": per_se * fit["a_se"],
            "b": per_se * fit["b_se"],
            "a_se": _U * kappa * fit["a_se"],
            "b_se": _U * kappa * fit["b_se"],
            "chi2": _U * kappa * max(fit["chi2"], 1.0),
        }
    return out, floors


def _slope(lx: np.ndarray, ly: np.ndarray) -> float:
    """Least-squares slope of ly on lx in closed form."""
    cx = lx - lx.sum() / lx.size
    return float((cx * (ly - ly.sum() / ly.size)).sum() / (cx * cx).sum())


def _bootstrap(x, samples, lo: float, seed: int) -> tuple[dict, dict]:
    """Slope of log mean(samples) on log x over x ≥ ``lo`` and its bootstrap over replications
    (:data:`BOOTSTRAP_SAMPLES` resamples drawn by ``default_rng(seed).integers(0, R, R)``): the
    slope, the SE and the 2.5/97.5 percentiles, and the window; and its rounding floors
    (:data:`FLOOR_RULE`): each log mean
    carries up to (R + 1)·u absolute (a mean of R positive values, then a log) and the fit
    n·u·|log mean|, so a slope, either percentile and the SE of the slopes (1-Lipschitz in
    the largest error) differ between two computations by up to
    2u·Σ|c_i|((R + 1) + n·max|log mean|)/Σc_i², c_i the centred log x; a slope near zero is
    all cancellation."""
    x = np.asarray(x, dtype=float)
    s = np.asarray(samples, dtype=float)
    keep = x >= lo
    lx = np.log(x[keep])

    def one(rows) -> float:
        m = rows[:, keep].sum(axis=0) / rows.shape[0]
        return _slope(lx, np.log(m)) if np.all(m > 0) else math.nan

    rng = np.random.default_rng(seed)
    R = s.shape[0]
    boot = np.array([one(s[rng.integers(0, R, R)]) for _ in range(BOOTSTRAP_SAMPLES)])
    boot = boot[np.isfinite(boot)]
    out = {
        "slope": one(s),
        "se": float(np.std(boot, ddof=1)),
        "lo": float(np.percentile(boot, 2.5)),
        "hi": float(np.percentile(boot, 97.5)),
        "window": [float(x[keep][0]), float(x[keep][-1])],
    }
    m = s[:, keep].sum(axis=0) / R
    big = float(np.max(np.abs(np.log(m)))) if np.all(m > 0) else 0.0
    cx = lx - lx.sum() / lx.size
    floor = 2 * _U * float(np.abs(cx).sum()) * ((R + 1) + lx.size * (big + 1.0))
    floor /= float((cx * cx).sum())
    return out, {k: floor for k in ("slope", "se", "lo", "hi")}


def dimension_fit(scaled: dict) -> dict | None:
    """S_d = C (d − c) over d ≥ 3 by weighted least squares (weights 1/SE²) written out for two
    parameters; d = 2 apart (its S, SE and the extrapolation C (2 − c))."""
    dims = sorted(d for d in scaled if d >= 3)
    if len(dims) < 2:
        return None
    d = np.asarray(dims, dtype=float)
    S = np.array([scaled[k][0] for k in dims], dtype=float)
    w = np.array([scaled[k][1] for k in dims], dtype=float) ** -2.0
    sw, swd, swdd = w.sum(), (w * d).sum(), (w * d * d).sum()
    sws, swds = (w * S).sum(), (w * d * S).sum()
    det = sw * swdd - swd * swd
    beta = (sw * swds - swd * sws) / det  # slope C
    alpha = (swdd * sws - swd * swds) / det  # intercept -C c
    v_aa, v_bb, v_ab = swdd / det, sw / det, -swd / det
    resid = S - alpha - beta * d
    chi2 = float((w * resid * resid).sum())
    c = -alpha / beta
    # delta method for c = -alpha/beta: gradient (-1/beta, alpha/beta^2)
    ga, gb = -1.0 / beta, alpha / beta**2
    c_se = math.sqrt(max(ga * ga * v_aa + 2 * ga * gb * v_ab + gb * gb * v_bb, 0.0))
    C_se = math.sqrt(v_bb)
    dof = len(dims) - 2
    out = {
        "C": float(beta),
        "C_se": C_se,
        "C_ci": [float(beta - _Z95 * C_se), float(beta + _Z95 * C_se)],
        "c": float(c),
        "c_se": c_se,
        "c_ci": [float(c - _Z95 * c_se), float(c + _Z95 * c_se)],
        # with two dimensions the line passes through both points: χ² is rounding (~1e-28),
        # not a statistic, and is not compared
        "chi2": chi2 if dof > 0 else None,
        "dof": dof,
        "chi2_p": float(_chi2.sf(chi2, dof)) if dof > 0 else None,
    }
    if 2 in scaled:
        out["d2"] = {
            "S": float(scaled[2][0]),
            "se": float(scaled[2][1]),
            "extrapolated": float(alpha + 2 * beta),
            "extrapolated_se": math.sqrt(max(v_aa + 4 * v_ab + 4 * v_bb, 0.0)),
        }
    return out


def _stopped(raw: dict, t: np.ndarray) -> np.ndarray:
    """e_t 1{τ > t} on the grid ``t`` (replications × grid)."""
    return np.where(raw["tau"][:, None] > t[None, :], raw["e_grid"], 0.0)


def b_exponent(b: dict) -> dict | None:
    """q in b ~ d^q: the weighted least-squares line of log b on log d, each point weighted by
    1/SE(log b)² = (b/SE(b))² (the delta method), and the SE of its slope; ``b`` maps d to the
    log-n coefficient's (value, SE). None unless there are two or more d and every b > 0.

    Solved as an ordinary least-squares problem on rows scaled by the square roots of the
    weights (``numpy.linalg.lstsq``); the slope's variance is the (1, 1) entry of
    (AᵀWA)⁻¹, A = [1, log d].

    Parameters
    ----------
    b : dict
        d → (b, SE(b)).

    Returns
    -------
    dict or None
        ``{"q": slope, "q_se": its SE}``.
    """
    dims = sorted(b)
    if len(dims) < 2 or not all(b[d][0] > 0 for d in dims):
        return None
    val = np.array([b[d][0] for d in dims], dtype=float)
    root_w = val / np.array([b[d][1] for d in dims], dtype=float)
    A = np.column_stack([np.ones(len(dims)), np.log(np.array(dims, dtype=float))])
    coef = np.linalg.lstsq(A * root_w[:, None], np.log(val) * root_w, rcond=None)[0]
    cov = np.linalg.inv((A * root_w[:, None]).T @ (A * root_w[:, None]))
    return {"q": float(coef[1]), "q_se": math.sqrt(cov[1, 1])}


def _regret(data: dict, ns) -> tuple[dict, dict]:
    out: dict = {}
    floors: dict = {}
    for (link, d), raw in data.items():
        total = raw["stage1"] + raw["stage2"]
        m, se = _mean_se(total)
        fit, fit_floors = _growth(ns, total)
        out.setdefault(link, {"by_d": {}})["by_d"][d] = {
            "mean": m.tolist(),
            "se": se.tolist(),
            "fit": fit,
        }
        floors.setdefault(link, {"by_d": {}})["by_d"][d] = {"fit": fit_floors}
    for a in out.values():
        q = b_exponent(
            {d: (r["fit"]["log"]["b"], r["fit"]["log"]["b_se"]) for d, r in a["by_d"].items()}
        )
        if q is not None:
            a["b_exponent"] = q
    return out, floors


def _estimation(data: dict, grids: dict) -> tuple[dict, dict]:
    out: dict = {}
    floors: dict = {}
    for (link, d), raw in data.items():
        t = np.asarray(grids[(link, d)], dtype=float)
        n0 = int(raw["n0s"][-1])
        stopped = _stopped(raw, t)
        m, se = _mean_se(stopped)
        lo = min(t[-1] / 10, t[-4])  # the last decade, at least four grid points
        lo_all = min(max(10 * n0, t[0]), t[-4])  # after the initialization transient
        slope, slope_floors = _bootstrap(t + n0, stopped, lo + n0, seed=d)
        slope_all, all_floors = _bootstrap(t + n0, stopped, lo_all + n0, seed=d)
        floors.setdefault(link, {"by_d": {}})["by_d"][d] = {
            "slope": slope_floors,
            "slope_all": all_floors,
        }
        out.setdefault(link, {"by_d": {}})["by_d"][d] = {
            "t": t.tolist(),  # the design's grid and n0, as the analysis carries them
            "t0": n0,
            "mean": m.tolist(),
            "se": se.tolist(),
            "slope": slope,
            "slope_all": slope_all,
            "scaled_end": float((t[-1] + n0) * m[-1] / d),
            "exited": int(np.count_nonzero(raw["tau"] <= t[-1])),
            "reps": int(stopped.shape[0]),
            "_S": ((t[-1] + n0) * m[-1], (t[-1] + n0) * se[-1]),
        }
    for a in out.values():
        a["d_model"] = dimension_fit({d: r.pop("_S") for d, r in a["by_d"].items()})
    return out, floors


def linear_recursion(kappa: float, sigma2: float, a0: float, gamma: float, t0: float, T: int):
    """a_t for t = 0..T of a_t = (1 − η_tκ)² a_{t−1} + η_t² σ², η_t = γ/(t + t0), a_0 = a0
    (the plain loop)."""
    a = np.empty(T + 1)
    a[0] = a0
    for t in range(1, T + 1):
        eta = gamma / (t + t0)
        a[t] = (1 - eta * kappa) ** 2 * a[t - 1] + eta * eta * sigma2
    return a


def _gamma_row(
    mult: float, raw: dict, k: float, s2: float, t: np.ndarray, t0: float
) -> tuple[dict, dict]:
    """One 2γκ multiple of the step-size part: the measured exponent over t ≥ max(T/100, 10)
    with its bootstrap, and the linearized recursion's on the same window; and the floors of
    the measured exponent."""
    gamma = mult / (2 * k)
    stopped = _stopped(raw, t)
    lo = max(t[-1] / 100, 10.0)
    sl, fl = _bootstrap(t + t0, stopped, lo + t0, seed=int(mult * 100))
    lin = linear_recursion(k, s2, float(np.mean(raw["e_0"])), gamma, t0, int(t[-1]))
    ti = np.arange(1, lin.size, dtype=float) + t0
    keep = ti >= lo + t0
    return {
        "two_gamma_kappa": mult,
        "gamma": gamma,
        "predicted_exponent": min(1.0, 2 * gamma * k),
        "window_prediction": -_slope(np.log(ti[keep]), np.log(lin[1:][keep])),
        "measured": -sl["slope"],
        "measured_lo": -sl["hi"],
        "measured_hi": -sl["lo"],
        "measured_se": sl["se"],
        "exited": int(np.count_nonzero(raw["tau"] <= t[-1])),
        "reps": int(stopped.shape[0]),
    }, {
        "measured": fl["slope"],
        "measured_lo": fl["hi"],
        "measured_hi": fl["lo"],
        "measured_se": fl["se"],
    }


def _gamma(res) -> tuple[dict, dict]:
    k, s2 = res.constants["gamma_kappa"], res.constants["gamma_sigma2"]
    grid = np.array(res.constants["gamma_t_grid"], dtype=float)
    pairs = [
        _gamma_row(m, res.gamma[m], k, s2, grid, res.config.gamma_t0)
        for m in res.config.gamma_multiples
        if m in res.gamma
    ]
    rows = [row for row, _ in pairs]
    stats = {"kappa": k, "sigma2": s2, "gamma_c": 1 / (2 * k), "rows": rows}
    return stats, {"rows": [fl for _, fl in pairs]}


def _localization(res) -> dict:
    by_d: dict = {}
    for (d, n0), raw in sorted(res.localization.items()):
        N = raw["exit"].size
        exits = int(np.count_nonzero(raw["exit"]))
        p = exits / N
        by_d.setdefault(d, []).append(
            {
                "n0": n0,
                "p_exit": p,
                "se": math.sqrt(max(p * (1 - p), 1e-12) / N),
                "exits": exits,
                "reps": N,
                "start_outside": int(np.count_nonzero(raw["start_out"])),
                "e_n0": float(np.mean(raw["e_n0"])),
            }
        )
    # the radii the part started from: the design's r0 of the study's first link (gated against
    # the witness's own field by the study claims' radius checks)
    first = res.config.links[0]
    return {"by_d": by_d, "r0": {d: res.constants["r0"][(first, d)] for d in by_d}}


def _contrast(res) -> tuple[dict, dict]:
    ns = np.asarray(res.config.contrast_ns, dtype=float)
    lo = ns[len(ns) // 2 - 1] if len(ns) > 3 else ns[0]  # the upper half of the horizons
    out, floors = {}, {}
    for link, raw in res.contrast.items():
        m, se = _mean_se(raw["regret"])
        ang, _ = _mean_se(np.degrees(raw["angle"]))
        slope, slope_floors = _bootstrap(ns, raw["regret"], lo, seed=7)
        fit, fit_floors = _growth(ns, raw["regret"])
        out[link] = {
            "mean": m.tolist(),
            "se": se.tolist(),
            "slope": slope,
            "fit": fit,
            "per_round_end": float(m[-1] / ns[-1]),
            "ns": ns.tolist(),
            "angle_deg": ang.tolist(),
        }
        floors[link] = {"slope": slope_floors, "fit": fit_floors}
    return out, floors


def study_statistics(res, part: str) -> dict:
    """The statistics of ``part`` of the study ``res`` the claims judge the paper with, keyed as
    :func:`nbl_sim.studies.rate_analysis.analyze` keys them (a subset of its keys).

    Parameters
    ----------
    res : nbl_sim.studies.rate_study.StudyResult
        The study (its raw arrays, settings and constants).
    part : {"regret", "regret_long", "estimation", "estimation_long", "gamma", "localization",
        "contrast"}
        The part of the analysis.

    Returns
    -------
    dict
        The witness's statistics of that part.
    """
    return study_comparison(res, part)[0]


def study_comparison(res, part: str) -> tuple[dict, dict]:
    """:func:`study_statistics` and, at the same paths, the absolute rounding floors of the
    values a cancellation can bring near zero (:data:`FLOOR_RULE`): the GLS fits'
    coefficients, SEs and χ², and the log-log slopes with their bootstrap.

    Parameters
    ----------
    res : nbl_sim.studies.rate_study.StudyResult
        The study.
    part : str
        The part of the analysis (as :func:`study_statistics`).

    Returns
    -------
    tuple of dict
        The statistics and their floors (``tree_agreement``'s ``floors``).
    """
    cfg, const = res.config, res.constants
    if part == "regret":
        return _regret(res.regret, cfg.ns)
    if part == "regret_long":
        return _regret(res.regret_long, cfg.long_ns)
    if part == "estimation":
        return _estimation(res.regret, const["t_grid"])
    if part == "estimation_long":
        return _estimation(res.regret_long, const.get("t_grid_long", {}))
    if part == "gamma":
        return _gamma(res)
    if part == "localization":
        return _localization(res), {}
    if part == "contrast":
        return _contrast(res)
    raise ValueError(f"unknown part of the study {part!r}")
