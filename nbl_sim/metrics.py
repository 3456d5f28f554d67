"""Metrics of a run (eq:regret, app:stochastic-nbl) and Monte Carlo summaries.

* Regret with *expected* means (eq:regret): R_t = Σ_{s≤t} {m_{a*(X_s)}(X_s) − m_{A_s}(X_s)},
  a*(x) = sgn(v*ᵀx) with sgn(0) = +1 — so Bernoulli noise never enters the regret.
* Average regret R_t/t; signed angle α_t = atan2(v*_1 v_{t,2} − v*_2 v_{t,1}, v*ᵀv_t) in d = 2
  (app:stochastic-nbl); squared error ‖v_t − v*‖² in any d.
* Monte Carlo bands: mean ± 1.96·SE with SE = sample standard deviation / √R (pointwise
  approximate 95% intervals for the mean trajectory, as in fig:app-stochastic-angle).
"""

from __future__ import annotations

import numpy as np

__all__ = ["instantaneous_regret", "cumulative_regret", "mc_summary", "Z95"]

Z95 = 1.959963984540054  # Φ⁻¹(0.975)


def instantaneous_regret(means: np.ndarray, actions: np.ndarray,
                         optimal: np.ndarray) -> np.ndarray:
    """m_{a*}(X_t) − m_{A_t}(X_t) for means (R, n, 2) (column 0 = arm −1), actions (R, n)."""
    m_minus, m_plus = means[..., 0], means[..., 1]
    return np.where(optimal > 0, m_plus, m_minus) - np.where(actions > 0, m_plus, m_minus)


def cumulative_regret(means, actions, optimal) -> np.ndarray:
    """R_t for t = 1..n, shape (R, n) (eq:regret, expected means)."""
    return np.cumsum(instantaneous_regret(means, actions, optimal), axis=1)


def mc_summary(values: np.ndarray) -> dict:
    """Mean, standard error and the 95% band over replications (axis 0), ignoring nothing:
    NaN stays NaN (a metric undefined in some replication is undefined on average)."""
    values = np.asarray(values, dtype=float)
    R = values.shape[0]
    mean = values.mean(axis=0)
    se = values.std(axis=0, ddof=1) / np.sqrt(R) if R > 1 else np.full_like(mean, np.nan)
    return {"mean": mean, "se": se, "lo": mean - Z95 * se, "hi": mean + Z95 * se, "reps": R}
