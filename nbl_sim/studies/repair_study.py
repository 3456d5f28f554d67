"""Repaired NBL in simulation: paired regret against Greedy Logistic, and how the regret grows.

:func:`compare_policies` runs plain NBL, the repairs of :mod:`nbl_sim.policies.repairs` and
Greedy Logistic on the *same* realizations (common random numbers: one draw of
:meth:`nbl_sim.engine.environment.Environment.draw` per block of replications, every policy on it)
and reports, per policy, R_n (mean, SE), the final angle to v* and the paired difference
R_n(policy) − R_n(Greedy Logistic) per replication: mean, SE and a 95% interval
(mean ± 1.96 SE; the replications are i.i.d., so the CLT interval).

:func:`growth_study` is the regret-rate study's method (:mod:`nbl_sim.studies.rate_study`) for the
same policies: R_n on a log grid of horizons from one run per replication (the runs for smaller n
are prefixes of the same realization: the policies are online), growth models a + b f(n),
f ∈ {log n, √n, n}, fitted by generalized least squares with the replication covariance
(:func:`nbl_sim.studies.rate_analysis.fit_growth`), and the log-log slope of the mean regret with a
bootstrap interval (:func:`nbl_sim.studies.rate_analysis.bootstrap_slope`).
"""

from __future__ import annotations

import math

import numpy as np

from nbl_theory.errors import NBLInputError
from nbl_theory.paper import paper_link
from nbl_theory.validation import positive_int

from .. import engine
from ..beyond.contexts import parse_context_spec
from ..engine.contract import GAMMA, T0
from ..engine.environment import Environment
from ..policies.repairs import REPAIRED_POLICIES, repaired_nbl_run
from .rate_analysis import bootstrap_slope, fit_growth

__all__ = ["compare_policies", "growth_study", "STUDY_POLICIES"]

#: the policies the study compares: plain NBL, every repair, Greedy Logistic
STUDY_POLICIES = ("nbl",) + REPAIRED_POLICIES + ("greedy-logistic",)
_BLOCK = 64  # replications per drawn block


def _env(link: str, delta: str, law: str, arms: str) -> Environment:
    lk = paper_link(link)
    ctx = parse_context_spec(law, 2)
    return Environment.build(lk, delta, 2, contexts=ctx, arms=arms)


def _regrets(
    env: Environment, policies, n: int, n0: int, reps: int, seed: int, rec, gamma: float, t0: float
) -> tuple[dict, dict]:
    cov = env.contexts.covariance if env.contexts is not None else np.eye(env.d)
    out = {p: np.empty((reps, rec.size)) for p in policies}
    ang = {p: np.full(reps, math.nan) for p in policies}
    for i0 in range(0, reps, _BLOCK):
        block = tuple(range(i0, min(reps, i0 + _BLOCK)))
        real = engine.draw(env, seed, block, n, n0)
        rows = slice(i0, i0 + len(block))
        for p in policies:
            if p == "nbl":
                tr = engine.nbl(
                    real.X, real.Y, real.coins, env.v_star, gamma=gamma, t0=t0, record_rounds=[n]
                )
                acts, ang[p][rows] = tr.actions, tr.angle[:, -1]
            elif p == "greedy-logistic":
                acts, _ = engine.greedy_logistic(real.X, real.Y, real.coins)
            else:
                tr = repaired_nbl_run(
                    p, real.X, real.Y, real.coins, env.v_star, cov=cov, gamma=gamma, t0=t0
                )
                acts, ang[p][rows] = tr.actions, tr.angle_final
            engine.regret(env, real, acts, rec, out=out[p][rows])
    return out, ang


def _check(policies, n, reps, n0):
    policies = tuple(dict.fromkeys(policies))
    bad = [p for p in policies if p not in STUDY_POLICIES]
    if bad or not policies:
        raise NBLInputError(f"unknown policy {bad or policies!r}; choose from {STUDY_POLICIES}")
    n = positive_int(n, "n")
    reps = positive_int(reps, "reps", 2)
    if not 1 <= n0 < n:
        raise NBLInputError(f"n0 must lie in [1, n), got {n0}")
    return policies, n, reps


def compare_policies(
    link: str,
    delta: str,
    law: str = "gaussian",
    arms: str = "symmetric",
    *,
    n: int = 2000,
    reps: int = 50,
    n0: int = 200,
    seed: int = 0,
    policies=STUDY_POLICIES,
    gamma: float = GAMMA,
    t0: float = T0,
) -> dict:
    """Final regret of every policy on common random numbers and the paired differences
    against Greedy Logistic (module docstring). Plain data.

    Parameters
    ----------
    link : str
        A paper link (e.g. ``"tt-stable"``).
    delta : str
        The arm separation Δ.
    law : str
        Context-law spec (:func:`nbl_sim.beyond.contexts.parse_context_spec`), d = 2.
    arms : str
        Arms spec (:func:`nbl_sim.beyond.arms.parse_arms_spec`).
    n, reps, n0, seed : int
        Horizon, replications, randomized-initialization rounds, seed.
    policies : sequence of str
        A subset of :data:`STUDY_POLICIES`.
    gamma, t0 : float
        NBL's step η_t = γ/(t + t0).

    Returns
    -------
    dict
        The settings and, per policy, the mean final regret with its SE, the median final
        angle (NBL and its repairs) and the paired difference against Greedy Logistic with its
        95% interval.
    """
    policies, n, reps = _check(policies, n, reps, n0)
    env = _env(link, delta, law, arms)
    reg, ang = _regrets(env, policies, n, n0, reps, seed, np.array([n]), gamma, t0)
    res = {
        "link": link,
        "delta": delta,
        "law": law,
        "arms": arms,
        "n": n,
        "reps": reps,
        "n0": n0,
        "seed": seed,
        "gamma": gamma,
        "t0": t0,
        "policies": {},
    }
    for p in policies:
        r = reg[p][:, -1]
        a = np.degrees(ang[p])
        row = {
            "regret_mean": float(r.mean()),
            "regret_se": float(r.std(ddof=1) / math.sqrt(reps)),
            "angle_median_deg": None if np.all(np.isnan(a)) else float(np.nanmedian(a)),
            "angle_abs_median_deg": None if np.all(np.isnan(a)) else float(np.nanmedian(np.abs(a))),
        }
        if "greedy-logistic" in policies and p != "greedy-logistic":
            diff = r - reg["greedy-logistic"][:, -1]
            m, se = float(diff.mean()), float(diff.std(ddof=1) / math.sqrt(reps))
            row.update(
                {
                    "diff_vs_gl_mean": m,
                    "diff_vs_gl_se": se,
                    "diff_vs_gl_ci95": [m - 1.96 * se, m + 1.96 * se],
                }
            )
        res["policies"][p] = row
    return res


def growth_study(
    link: str,
    delta: str,
    law: str,
    arms: str = "symmetric",
    *,
    n_max: int = 10_000,
    points: int = 8,
    reps: int = 20,
    n0: int = 1000,
    seed: int = 0,
    policies=("nbl", "whitened", "whitened-running", "greedy-logistic"),
    gamma: float = GAMMA,
    t0: float = 1000.0,
) -> dict:
    """R_n on a log grid of horizons and its growth model per policy (module docstring).

    The defaults localize the start as the regret-rate study does (thm:regret-rate needs
    prop:randomized-initialization's n0 ≥ C(d + log n)): n0 = 1000, t0 = n0. With n0 = 200
    (t0 = 500) 5–14% of the replications of whitened or centred NBL start in the basin of the
    reversed boundary (an attracting equilibrium near 180° for the two-transition links, as in
    the paper's own model) and their linear regret hides the log n of the rest.

    Parameters
    ----------
    link : str
        A paper link (e.g. ``"tt-stable"``).
    delta : str
        The arm separation Δ.
    law : str
        Context-law spec (:func:`nbl_sim.beyond.contexts.parse_context_spec`), d = 2.
    arms : str
        Arms spec (:func:`nbl_sim.beyond.arms.parse_arms_spec`).
    n_max, points : int
        The largest horizon and the number of horizons on the log grid.
    reps, n0, seed : int
        Replications, randomized-initialization rounds, seed.
    policies : sequence of str
        A subset of :data:`STUDY_POLICIES`.
    gamma, t0 : float
        NBL's step η_t = γ/(t + t0).

    Returns
    -------
    dict
        The settings, the horizons and, per policy, the mean regret and SE at each horizon,
        the growth fit (:func:`nbl_sim.studies.rate_analysis.fit_growth`), its best model and
        the bootstrapped log-log slope.

    Raises
    ------
    NBLInputError
        On bad sizes or policies, or ``n_max`` not past the first horizon max(2 n0, 1000).
    """
    policies, n_max, reps = _check(policies, n_max, reps, n0)
    lo = max(2 * n0, 1000)  # past Stage I, whose regret grows linearly up to n0
    if n_max <= lo:
        raise NBLInputError(f"n_max must exceed {lo}")
    ns = np.unique(np.rint(np.geomspace(lo, n_max, points)).astype(np.int64))
    env = _env(link, delta, law, arms)
    reg, _ = _regrets(env, policies, n_max, n0, reps, seed, ns, gamma, t0)
    out = {
        "link": link,
        "delta": delta,
        "law": law,
        "arms": arms,
        "ns": ns.tolist(),
        "reps": reps,
        "n0": n0,
        "seed": seed,
        "gamma": gamma,
        "t0": t0,
        "policies": {},
    }
    for p in policies:
        s = reg[p]
        fit = fit_growth(ns, s)
        slope = bootstrap_slope(ns, s, float(ns[0]), seed=seed)
        out["policies"][p] = {
            "regret_mean": s.mean(0).tolist(),
            "regret_se": (s.std(0, ddof=1) / math.sqrt(reps)).tolist(),
            "fit": fit,
            "best_model": fit["best"],
            "loglog_slope": slope,
        }
    return out
