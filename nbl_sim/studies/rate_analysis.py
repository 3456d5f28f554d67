"""Statistics of the regret-rate study (:mod:`nbl_sim.studies.rate_study`): growth-model fits,
log-log slopes with bootstrap intervals, exponents against their predictions, exit frequencies.

Kept apart from the cell code so that changing an analysis never invalidates cached cells.
Every function takes a :class:`~nbl_sim.studies.rate_study.StudyResult` (``self``) and returns plain
data (dicts of floats and lists) for the report, the claims and the plots.
"""

from __future__ import annotations

import math

import numpy as np

from nbl_theory.errors import NBLInputError

__all__ = [
    "analyze",
    "fit_growth",
    "bootstrap_slope",
    "regret_analysis",
    "estimation_analysis",
    "dimension_model",
    "gamma_analysis",
    "localization_analysis",
    "contrast_analysis",
]


def fit_growth(ns, samples: np.ndarray) -> dict:
    """GLS fits of E[R_n] = a + b f(n), f ∈ {log n, √n, n}, to per-replication R_n (reps × k).

    The covariance of the k means is the replication covariance / reps (the horizons share
    realizations, so their means are correlated); a tiny ridge (1e-9 of the mean variance)
    keeps it invertible. Returns per model a, b, their SEs and χ² (k − 2 degrees of freedom),
    and the model with the smallest χ²."""
    ns = np.asarray(ns, dtype=float)
    y = samples.mean(0)
    R = samples.shape[0]
    cov = np.cov(samples, rowvar=False) / R
    cov = cov + np.eye(ns.size) * 1e-9 * float(np.mean(np.diag(cov)) or 1.0)
    W = np.linalg.inv(cov)
    out = {}
    for name, f in (("log", np.log(ns)), ("sqrt", np.sqrt(ns)), ("linear", ns)):
        A = np.column_stack([np.ones_like(f), f])
        M = A.T @ W @ A
        P = np.linalg.inv(M)
        coef = P @ A.T @ W @ y
        res = y - A @ coef
        chi2 = float(res @ W @ res)
        out[name] = {
            "a": float(coef[0]),
            "b": float(coef[1]),
            "a_se": float(math.sqrt(P[0, 0])),
            "b_se": float(math.sqrt(P[1, 1])),
            "chi2": chi2,
            "dof": int(ns.size - 2),
        }
    out["best"] = min(("log", "sqrt", "linear"), key=lambda m: out[m]["chi2"])
    return out


def bootstrap_slope(
    x: np.ndarray,
    samples: np.ndarray,
    lo: float,
    hi: float | None = None,
    B: int = 400,
    seed: int = 0,
) -> dict:
    """Least-squares slope of log mean(samples) on log x over lo ≤ x ≤ hi, with a bootstrap
    (resampling replications, seeded) percentile 95% interval and SE."""
    x = np.asarray(x, dtype=float)
    sel = (x >= lo) & (x <= (hi if hi is not None else np.inf))
    if sel.sum() < 2:
        raise NBLInputError("slope window holds fewer than two points")
    lx = np.log(x[sel])

    def slope(m):
        if np.any(m[sel] <= 0):
            return float("nan")
        return float(np.polyfit(lx, np.log(m[sel]), 1)[0])

    full = slope(samples.mean(0))
    rng = np.random.default_rng(seed)
    R = samples.shape[0]
    bs = np.array([slope(samples[rng.integers(0, R, R)].mean(0)) for _ in range(B)])
    bs = bs[np.isfinite(bs)]
    return {
        "slope": full,
        "se": float(bs.std(ddof=1)) if bs.size > 1 else float("nan"),
        "lo": float(np.percentile(bs, 2.5)) if bs.size else float("nan"),
        "hi": float(np.percentile(bs, 97.5)) if bs.size else float("nan"),
        "window": [float(x[sel][0]), float(x[sel][-1])],
    }


def _mean_se(a: np.ndarray):
    """Mean and standard error over the replications (axis 0), summed replication after
    replication whatever the array's memory layout (numpy sums a contiguous axis pairwise, so an
    F-ordered array would give other last bits)."""
    a = np.ascontiguousarray(a, dtype=float)
    return a.mean(0), a.std(0, ddof=1) / math.sqrt(a.shape[0])


def _part(self, long: bool):
    cfg = self.config
    if long:
        return (
            self.regret_long,
            cfg.long_links,
            cfg.long_dims,
            cfg.long_ns,
            self.constants.get("t_grid_long", {}),
        )
    return self.regret, cfg.links, cfg.dims, cfg.ns, self.constants["t_grid"]


def regret_analysis(self, long: bool = False) -> dict:
    """Growth-model fits per (link, d); ``long``: the long-horizon arm."""
    cfg = self.config
    data, links, dims_all, ns, _ = _part(self, long)
    out = {}
    for link in links:
        rows, bs, bse = {}, [], []
        for d in dims_all:
            r = data.get((link, d))
            if r is None:
                continue
            total = r["stage1"] + r["stage2"]
            m, se = _mean_se(total)
            m2, se2 = _mean_se(r["stage2"])
            fit = fit_growth(ns, total)
            fit2 = fit_growth(ns, r["stage2"])
            rows[d] = {
                "mean": m.tolist(),
                "se": se.tolist(),
                "stage2_mean": m2.tolist(),
                "stage2_se": se2.tolist(),
                "n0": r["n0s"].tolist(),
                "fit": fit,
                "fit_stage2": fit2,
                "b_over_d": fit["log"]["b"] / d,
                "b_over_d_se": fit["log"]["b_se"] / d,
            }
            bs.append(fit["log"]["b"])
            bse.append(fit["log"]["b_se"])
        dims = [d for d in dims_all if d in rows]
        q = None
        if len(dims) >= 2 and all(b > 0 for b in bs):
            # WLS of log b on log d (delta-method SEs of log b)
            ld = np.log(dims)
            lb = np.log(bs)
            w = (np.asarray(bs) / np.asarray(bse)) ** 2
            A = np.column_stack([np.ones_like(ld), ld])
            P = np.linalg.inv(A.T @ (w[:, None] * A))
            coef = P @ A.T @ (w * lb)
            q = {"q": float(coef[1]), "q_se": float(math.sqrt(P[1, 1]))}
        out[link] = {
            "by_d": rows,
            "b_exponent": q,
            "gamma": self.constants["gamma"][link],
            "C0": cfg.C0,
            "ns": list(ns),
        }
    return out


def estimation_analysis(self, long: bool = False) -> dict:
    """Log-log slope of the localized error per (link, d); ``long``: the long-horizon arm.
    Per link: ``by_d``, ``rates`` (each tangent direction's rate and 2γκ at the study's γ,
    :func:`_direction_rates`; also in ``d_model``, which the fit over d ≥ 3 needs two such d
    for) and ``d_model`` (:func:`dimension_model`)."""
    data, links, dims_all, _, grids = _part(self, long)
    out = {}
    for link in links:
        rows = {}
        for d in dims_all:
            r = data.get((link, d))
            if r is None:
                continue
            t = np.asarray(grids[(link, d)], dtype=float)
            n0 = int(r["n0s"][-1])
            stopped = r["e_grid"] * (r["tau"][:, None] > t[None, :])
            # the rate is asymptotic: judge it on the last decade of the run (at least 4 grid
            # points); the slope over everything after the initialization transient (t >= 10 n0)
            # is reported next to it
            lo = min(t[-1] / 10, t[-4])
            sl = bootstrap_slope(t + n0, stopped, lo + n0, seed=d)
            lo_all = min(max(10 * n0, t[0]), t[-4])
            sl_all = bootstrap_slope(t + n0, stopped, lo_all + n0, seed=d)
            m, se = _mean_se(stopped)
            rows[d] = {
                "t": t.tolist(),
                "t0": n0,
                "mean": m.tolist(),
                "se": se.tolist(),
                "slope": sl,
                "slope_all": sl_all,
                "scaled_end": float((t[-1] + n0) * m[-1] / d),
                "exited": int((r["tau"] <= t[-1]).sum()),
                "reps": int(stopped.shape[0]),
            }
        rates = _direction_rates(self, link)
        out[link] = {
            "by_d": rows,
            "rates": rates,
            "d_model": dimension_model(
                {
                    d: (
                        (r["t"][-1] + r["t0"]) * r["mean"][-1],
                        (r["t"][-1] + r["t0"]) * r["se"][-1],
                    )
                    for d, r in rows.items()
                },
                rates,
            ),
        }
    return out


def _direction_rates(self, link: str) -> dict:
    """The exact local rates of ``link`` at the study's Δ and what 2γκ each tangent direction
    has at the study's γ (:func:`nbl_sim.studies.rate_theory.local_rates`): the θ-direction
    contracts at κ_θ in every d; the d − 2 directions ⊥ θ (d ≥ 3) at κ_⊥ = Δμ*."""
    from nbl_theory.paper import paper_link

    from .rate_theory import local_rates

    r = local_rates(paper_link(link), self.config.delta, 3)
    gamma = float(self.constants["gamma"][link])
    return {
        "kappa_theta": r["kappa_theta"],
        "kappa_perp": r["kappa_perp"],
        "gamma": gamma,
        "two_gamma_kappa_theta": 2 * gamma * r["kappa_theta"],
        "two_gamma_kappa_perp": 2 * gamma * r["kappa_perp"],
    }


#: two-sided 95% normal quantile (the model's SEs come from the replications' SEs)
_Z95 = 1.959963984540054


def dimension_model(scaled: dict, rates: dict | None = None) -> dict | None:
    """How the localized error at the end of the run grows with d, fitted where the dimension
    dependence is identifiable (prop:localized-estimation's C_e d/(t + t0)).

    ``scaled`` maps d to (S_d, SE): S_d = (t + t0) E[‖v_t − v*‖² 1{τ > t}] at the last grid t.
    Each tangent direction contributes about (its constant)/(t + t0): in d = 2 the only one is
    θ (rate κ_θ); in d ≥ 3 the d − 2 directions ⊥ θ all contract at κ_⊥ — the same 2γκ_⊥ in
    every d — next to θ. So over d ≥ 3, S_d = C (d − c) with C the ⊥-direction constant and
    C (2 − c) the θ-direction's (c = 1 when κ_θ = κ_⊥, as for a symmetric link). A power
    (d − 1)^q over every d mixes the two kinds of direction and is not reported.

    Returns None with fewer than two dimensions d ≥ 3, else a dict: ``dims`` (the d ≥ 3
    fitted), ``C``, ``C_se``, ``C_ci``, ``c``, ``c_se``, ``c_ci`` (95%, normal; c by the delta
    method), ``chi2`` and ``dof`` (the weighted residual; dof 0 with two dimensions),
    ``chi2_p`` (the upper-tail probability, None when dof = 0), ``d2`` (None, or d = 2 reported
    apart: its S, SE and the fit's extrapolation C (2 − c) with its SE) and ``rates``.
    """
    from scipy.stats import chi2 as _chi2

    dims = sorted(d for d in scaled if d >= 3)
    if len(dims) < 2:
        return None
    S = np.array([scaled[d][0] for d in dims], dtype=float)
    se = np.array([scaled[d][1] for d in dims], dtype=float)
    w = 1.0 / np.maximum(se, 1e-300) ** 2
    A = np.column_stack([np.ones(len(dims)), np.asarray(dims, dtype=float)])
    P = np.linalg.inv(A.T @ (w[:, None] * A))
    alpha, beta = P @ A.T @ (w * S)
    res = S - A @ np.array([alpha, beta])
    chi2 = float(res @ (w * res))
    dof = len(dims) - 2
    c = -alpha / beta
    grad = np.array([-1.0 / beta, alpha / beta**2])
    c_se = float(math.sqrt(max(grad @ P @ grad, 0.0)))
    C_se = float(math.sqrt(P[1, 1]))
    out = {
        "dims": dims,
        "C": float(beta),
        "C_se": C_se,
        "C_ci": [float(beta - _Z95 * C_se), float(beta + _Z95 * C_se)],
        "c": float(c),
        "c_se": c_se,
        "c_ci": [float(c - _Z95 * c_se), float(c + _Z95 * c_se)],
        "chi2": chi2,
        "dof": dof,
        "chi2_p": float(_chi2.sf(chi2, dof)) if dof > 0 else None,
        "d2": None,
        "rates": rates,
    }
    if 2 in scaled:
        x = np.array([1.0, 2.0])
        out["d2"] = {
            "S": float(scaled[2][0]),
            "se": float(scaled[2][1]),
            "extrapolated": float(alpha + 2 * beta),
            "extrapolated_se": float(math.sqrt(max(x @ P @ x, 0.0))),
        }
    return out


def gamma_analysis(self) -> dict:
    from .rate_theory import Mode, linear_recursion_mse, loglog_slope, predicted_exponent

    cfg = self.config
    k = self.constants["gamma_kappa"]
    s2 = self.constants["gamma_sigma2"]
    t = np.asarray(self.constants["gamma_t_grid"], dtype=float)
    t0 = cfg.gamma_t0
    rows = []
    for mult in cfg.gamma_multiples:
        r = self.gamma.get(mult)
        if r is None:
            continue
        gamma = mult / (2 * k)
        stopped = r["e_grid"] * (r["tau"][:, None] > t[None, :])
        lo = max(t[-1] / 100, 10.0)
        sl = bootstrap_slope(t + t0, stopped, lo + t0, seed=int(mult * 100))
        a0 = float(r["e_0"].mean())
        ti = np.arange(0, int(t[-1]) + 1)
        lin = linear_recursion_mse([Mode(k, s2, a0)], gamma, t0, 0, ti)
        pred_window = loglog_slope(ti[1:] + t0, lin[1:], lo + t0)
        rows.append(
            {
                "two_gamma_kappa": mult,
                "gamma": gamma,
                "predicted_exponent": predicted_exponent(k, gamma),
                "window_prediction": -pred_window,
                "measured": -sl["slope"],
                "measured_lo": -sl["hi"],
                "measured_hi": -sl["lo"],
                "measured_se": sl["se"],
                "window": sl["window"],
                "exited": int((r["tau"] <= t[-1]).sum()),
                "reps": int(stopped.shape[0]),
                "t": t.tolist(),
                "mean": stopped.mean(0).tolist(),
                "linear": lin[t.astype(int)].tolist(),
            }
        )
    return {"kappa": k, "sigma2": s2, "gamma_c": 1 / (2 * k), "rows": rows}


def localization_analysis(self) -> dict:
    cfg = self.config
    out = {}
    for d in cfg.loc_dims:
        rows = []
        for n0 in cfg.loc_n0s:
            r = self.localization.get((d, n0))
            if r is None:
                continue
            N = r["exit"].size
            p = float(r["exit"].mean())
            rows.append(
                {
                    "n0": n0,
                    "p_exit": p,
                    "se": math.sqrt(max(p * (1 - p), 1e-12) / N),
                    "exits": int(r["exit"].sum()),
                    "reps": N,
                    "start_outside": int(r["start_out"].sum()),
                    "e_n0": float(r["e_n0"].mean()),
                }
            )
        out[d] = rows
    return {
        "r0": {d: r for d, r in self.constants["loc_r0"].items()},
        "gamma": self.constants["gamma"][cfg.links[0]],
        "link": cfg.links[0],
        "by_d": out,
    }


def contrast_analysis(self) -> dict:
    cfg = self.config
    out = {}
    ns = np.asarray(cfg.contrast_ns, dtype=float)
    for link in cfg.contrast_links:
        r = self.contrast.get(link)
        if r is None:
            continue
        m, se = _mean_se(r["regret"])
        sl = bootstrap_slope(
            ns, r["regret"], ns[len(ns) // 2 - 1] if len(ns) > 3 else ns[0], seed=7
        )
        ang, ang_se = _mean_se(np.degrees(r["angle"]))
        out[link] = {
            "ns": ns.tolist(),
            "mean": m.tolist(),
            "se": se.tolist(),
            "slope": sl,
            "fit": fit_growth(ns, r["regret"]),
            "per_round_end": float(m[-1] / ns[-1]),
            "angle_deg": ang.tolist(),
            "angle_se": ang_se.tolist(),
        }
    return out


def analyze(self) -> dict:
    """All statistics of a :class:`~nbl_sim.studies.rate_study.StudyResult`."""
    return {
        "regret": regret_analysis(self),
        "estimation": estimation_analysis(self),
        "regret_long": regret_analysis(self, True),
        "estimation_long": estimation_analysis(self, True),
        "gamma": gamma_analysis(self),
        "localization": localization_analysis(self),
        "contrast": contrast_analysis(self),
        "config": self.config.name,
        "seconds": self.seconds,
        "executor": self.executor,
        "failures": [f"{f.describe_params()}: {f.error}" for f in self.failures],
    }
