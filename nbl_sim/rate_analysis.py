"""Statistics of the regret-rate study (:mod:`nbl_sim.rate_study`): growth-model fits, log-log
slopes with bootstrap intervals, exponents against their predictions, exit frequencies.

Kept apart from the cell code so that changing an analysis never invalidates cached cells.
Every function takes a :class:`~nbl_sim.rate_study.StudyResult` (``self``) and returns plain
data (dicts of floats and lists) for the report, the claims and the plots.
"""

from __future__ import annotations

import math

import numpy as np

from nbl_theory.errors import NBLInputError

__all__ = ["analyze", "fit_growth", "bootstrap_slope", "regret_analysis",
           "estimation_analysis", "gamma_analysis", "localization_analysis",
           "contrast_analysis"]


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
        out[name] = {"a": float(coef[0]), "b": float(coef[1]),
                     "a_se": float(math.sqrt(P[0, 0])), "b_se": float(math.sqrt(P[1, 1])),
                     "chi2": chi2, "dof": int(ns.size - 2)}
    out["best"] = min(("log", "sqrt", "linear"), key=lambda m: out[m]["chi2"])
    return out


def bootstrap_slope(x: np.ndarray, samples: np.ndarray, lo: float, hi: float | None = None,
                    B: int = 400, seed: int = 0) -> dict:
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
    return {"slope": full, "se": float(bs.std(ddof=1)) if bs.size > 1 else float("nan"),
            "lo": float(np.percentile(bs, 2.5)) if bs.size else float("nan"),
            "hi": float(np.percentile(bs, 97.5)) if bs.size else float("nan"),
            "window": [float(x[sel][0]), float(x[sel][-1])]}


def _mean_se(a: np.ndarray):
    """Mean and standard error over the replications (axis 0), summed replication after
    replication whatever the array's memory layout (numpy sums a contiguous axis pairwise, so an
    F-ordered array would give other last bits)."""
    a = np.ascontiguousarray(a, dtype=float)
    return a.mean(0), a.std(0, ddof=1) / math.sqrt(a.shape[0])



def _part(self, long: bool):
    cfg = self.config
    if long:
        return (self.regret_long, cfg.long_links, cfg.long_dims, cfg.long_ns,
                self.constants.get("t_grid_long", {}))
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
            rows[d] = {"mean": m.tolist(), "se": se.tolist(), "stage2_mean": m2.tolist(),
                       "stage2_se": se2.tolist(), "n0": r["n0s"].tolist(), "fit": fit,
                       "fit_stage2": fit2,
                       "b_over_d": fit["log"]["b"] / d, "b_over_d_se": fit["log"]["b_se"] / d}
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
        out[link] = {"by_d": rows, "b_exponent": q, "gamma": self.constants["gamma"][link],
                     "C0": cfg.C0, "ns": list(ns)}
    return out


def estimation_analysis(self, long: bool = False) -> dict:
    """Log-log slope of the localized error per (link, d); ``long``: the long-horizon arm."""
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
            rows[d] = {"t": t.tolist(), "t0": n0, "mean": m.tolist(), "se": se.tolist(),
                       "slope": sl, "slope_all": sl_all,
                       "scaled_end": float((t[-1] + n0) * m[-1] / d),
                       "exited": int((r["tau"] <= t[-1]).sum()),
                       "reps": int(stopped.shape[0])}
        dims = sorted(rows)
        qd = None
        if len(dims) >= 2:
            ends = np.array([rows[d]["mean"][-1] for d in dims])
            ses = np.array([rows[d]["se"][-1] for d in dims])
            if np.all(ends > 0):
                # against the number of tangent directions d - 1 (each carries one mode)
                ld, le = np.log(np.asarray(dims) - 1.0), np.log(ends)
                w = (ends / np.maximum(ses, 1e-300)) ** 2
                A = np.column_stack([np.ones_like(ld), ld])
                P = np.linalg.inv(A.T @ (w[:, None] * A))
                coef = P @ A.T @ (w * le)
                qd = {"q": float(coef[1]), "q_se": float(math.sqrt(P[1, 1]))}
        out[link] = {"by_d": rows, "d_exponent": qd}
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
        rows.append({"two_gamma_kappa": mult, "gamma": gamma,
                     "predicted_exponent": predicted_exponent(k, gamma),
                     "window_prediction": -pred_window, "measured": -sl["slope"],
                     "measured_lo": -sl["hi"], "measured_hi": -sl["lo"],
                     "measured_se": sl["se"], "window": sl["window"],
                     "exited": int((r["tau"] <= t[-1]).sum()),
                     "reps": int(stopped.shape[0]),
                     "t": t.tolist(), "mean": stopped.mean(0).tolist(),
                     "linear": lin[t.astype(int)].tolist()})
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
            rows.append({"n0": n0, "p_exit": p, "se": math.sqrt(max(p * (1 - p), 1e-12) / N),
                         "exits": int(r["exit"].sum()), "reps": N,
                         "start_outside": int(r["start_out"].sum()),
                         "e_n0": float(r["e_n0"].mean())})
        out[d] = rows
    return {"r0": {d: r for d, r in self.constants["loc_r0"].items()},
            "gamma": self.constants["gamma"][cfg.links[0]],
            "link": cfg.links[0], "by_d": out}

def contrast_analysis(self) -> dict:
    cfg = self.config
    out = {}
    ns = np.asarray(cfg.contrast_ns, dtype=float)
    for link in cfg.contrast_links:
        r = self.contrast.get(link)
        if r is None:
            continue
        m, se = _mean_se(r["regret"])
        sl = bootstrap_slope(ns, r["regret"], ns[len(ns) // 2 - 1] if len(ns) > 3 else ns[0],
                             seed=7)
        ang, ang_se = _mean_se(np.degrees(r["angle"]))
        out[link] = {"ns": ns.tolist(), "mean": m.tolist(), "se": se.tolist(),
                     "slope": sl, "fit": fit_growth(ns, r["regret"]),
                     "per_round_end": float(m[-1] / ns[-1]),
                     "angle_deg": ang.tolist(), "angle_se": ang_se.tolist()}
    return out

def analyze(self) -> dict:
    """All statistics of a :class:`~nbl_sim.rate_study.StudyResult`."""
    return {"regret": regret_analysis(self), "estimation": estimation_analysis(self),
            "regret_long": regret_analysis(self, True),
            "estimation_long": estimation_analysis(self, True),
            "gamma": gamma_analysis(self), "localization": localization_analysis(self),
            "contrast": contrast_analysis(self), "config": self.config.name,
            "seconds": self.seconds, "executor": self.executor,
            "failures": [f"{f.describe_params()}: {f.error}" for f in self.failures]}


