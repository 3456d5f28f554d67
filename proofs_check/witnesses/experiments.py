"""The paper's experiments re-run with the toolkit's simulator (app:stochastic-nbl,
app:logistic-comparison), with the settings the paper prints (:mod:`nbl_theory.paper`).

Not independent re-computations: these are the runs whose qualitative reading the numerics
claims compare with the paper's text. Every run is seeded and serial, so the numbers do not
depend on the machine.
"""

from __future__ import annotations

import math

import numpy as np

import nbl_sim.engine as engine
from nbl_sim.engine.environment import Environment
from nbl_sim.runs.execution import SerialExecutor
from nbl_sim.studies.experiment import simulate
from nbl_theory.paper import COMPARISON_SETTING, STOCHASTIC_SETTING, paper_link

__all__ = [
    "final_angle",
    "angle_path",
    "angle_paths",
    "regret_checkpoints",
    "paired_regret_gaps",
    "comparison_run",
    "comparison_run_reference",
    "comparison_cell",
    "load_comparisons",
]


#: the stochastic runs of this process, per (link, delta, seed, record rounds)
_RUNS: dict = {}


def _stochastic_run(link, delta: str, seed: int, record_rounds=None):
    memo = (link, delta, seed, None if record_rounds is None else tuple(record_rounds))
    if memo not in _RUNS:
        _RUNS[memo] = _simulate_stochastic(link, delta, seed, record_rounds)
    return _RUNS[memo]


def _simulate_stochastic(link, delta: str, seed: int, record_rounds=None):
    s = STOCHASTIC_SETTING
    env = Environment.build(link, delta, s["d"])
    kwargs = {} if record_rounds is None else {"record_rounds": record_rounds}
    return simulate(
        env,
        n=s["n"],
        reps=s["reps"],
        init_angle=s["init_angle"],
        gamma=s["gamma"],
        t0=s["t0"],
        seed=seed,
        executor=SerialExecutor(),
        **kwargs,
    )


def final_angle(link, delta: str, seed: int = 0) -> tuple[float, float]:
    """Mean and SE over replications of NBL's final signed angle (degrees) in the setting of
    app:stochastic-nbl (:data:`nbl_theory.paper.STOCHASTIC_SETTING`: 10° start, γ = 10,
    t0 = 500, n = 10,000, 100 replications, d = 2, Bernoulli rewards)."""
    s = _stochastic_run(link, delta, seed).summary()["nbl"]
    return s["final_angle_deg_mean"], s["final_angle_deg_se"]


def summary_sides(link, delta: str, seed: int = 0) -> tuple[dict, dict]:
    """NBL's summary in the run of :func:`final_angle` two ways: the library's
    (:meth:`~nbl_sim.studies.experiment.SimulationResult.summary`: mean and SE of the final
    regret, signed angle in degrees and squared error) and the same six numbers computed here
    from the run's per-replication values by :func:`~.stats.mean_se` (mean, sample SD/√R).

    Parameters
    ----------
    link : Link
        The shared link.
    delta : str
        Arm separation Δ.
    seed : int, default 0
        The run's seed.

    Returns
    -------
    tuple of dict
        ``(library, own)``, each ``{"final_regret": [mean, se], "final_angle_deg": ...,
        "final_sq_error": ...}``.
    """
    from .stats import mean_se

    run = _stochastic_run(link, delta, seed)
    s, p = run.summary()["nbl"], run.policies["nbl"]
    finals = {
        "final_regret": p.regret[:, -1],
        "final_angle_deg": np.degrees(p.angle[:, -1]),
        "final_sq_error": p.sq_error[:, -1],
    }
    library = {k: [s[f"{k}_mean"], s[f"{k}_se"]] for k in finals}
    own = {k: [float(v) for v in mean_se(np.asarray(x, dtype=float))] for k, x in finals.items()}
    return library, own


def angle_path(link, delta: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rounds, mean, SE) over replications of NBL's signed angle (degrees) at the recorded
    rounds (~500, to n) of the run of :func:`final_angle`."""
    run = _stochastic_run(link, delta, seed)
    ang = np.degrees(run.policies["nbl"].angle)
    return (
        np.asarray(run.record_rounds),
        ang.mean(axis=0),
        ang.std(axis=0, ddof=1) / np.sqrt(ang.shape[0]),
    )


def angle_paths(link, delta: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(rounds, angles): NBL's signed angle (degrees) per replication (reps, len(rounds)) at the
    recorded rounds of the run of :func:`final_angle` (the last column is the final angle)."""
    run = _stochastic_run(link, delta, seed)
    return np.asarray(run.record_rounds), np.degrees(run.policies["nbl"].angle)


def regret_checkpoints(link, delta: str, rounds, seed: int = 0) -> np.ndarray:
    """NBL's cumulative regret R_t at ``rounds`` per replication, shape (reps, len(rounds)), in
    the setting of :func:`final_angle`."""
    return _stochastic_run(link, delta, seed, record_rounds=rounds).policies["nbl"].regret


#: comparison_run's results in this process: computed, or loaded from cells (load_comparisons)
_COMPARISONS: dict = {}


def comparison_cell(params: tuple) -> dict:
    """:func:`comparison_run` of ``params`` = (paper-link key, intercept, seed, reps) as plain
    data: a cell the claim runner runs as a task (top-level, so any executor runs it)."""
    key, intercept, seed, reps = params
    return comparison_run(paper_link(key), intercept, seed, reps)


def load_comparisons(cells, results) -> None:
    """Make :func:`comparison_run` return the results of ``cells`` (computed elsewhere, e.g. by
    the claim runner's workers, by :func:`comparison_cell`) instead of simulating again."""
    for (key, intercept, seed, reps), res in zip(cells, results):
        _COMPARISONS.setdefault((paper_link(key), intercept, seed, reps), dict(res))


def comparison_run(link, intercept: bool = True, seed: int = 0, reps: int | None = None) -> dict:
    """One link in the setting of app:logistic-comparison
    (:data:`nbl_theory.paper.COMPARISON_SETTING`: Δ = 1, n = 2000, n0 = 200, γ = 10, t0 = 500,
    100 replications; common random numbers and the same randomized initialization for both
    policies), kept per (link, intercept, seed, reps) in this process.

    ``intercept`` is Greedy Logistic's choice of fitting an intercept per arm (the simulator's
    default, scikit-learn's default) or not; the paper does not say which. ``reps`` (default:
    the printed 100) runs the first ``reps`` replications only (replication r is seeded by
    ``SeedSequence(seed).spawn(...)[r]`` whatever the total).

    Returns
    -------
    dict
        ``nbl``, ``gl``: final regret R_n per replication; ``start_angle``: NBL's signed angle
        (degrees) at v_{n0}, per replication.
    """
    memo = (link, intercept, seed, reps)
    if memo not in _COMPARISONS:
        _COMPARISONS[memo] = _comparison(link, intercept, seed, reps)
    return _COMPARISONS[memo]


def _comparison(link, intercept: bool, seed: int, reps: int | None) -> dict:
    c = COMPARISON_SETTING
    env = Environment.build(link, c["delta"], c["d"])
    res = simulate(
        env,
        n=c["n"],
        reps=c["reps"] if reps is None else reps,
        n0=c["n0"],
        gamma=c["gamma"],
        t0=c["t0"],
        seed=seed,
        policies=("nbl", "greedy-logistic"),
        intercept=intercept,
        executor=SerialExecutor(),
    )
    k0 = int(np.searchsorted(res.record_rounds, c["n0"]))
    return {
        "nbl": res.policies["nbl"].regret[:, -1],
        "gl": res.policies["greedy-logistic"].regret[:, -1],
        "start_angle": np.degrees(res.policies["nbl"].angle[:, k0]),
    }


def comparison_run_reference(link, intercept: bool, reps: int) -> dict:
    """:func:`comparison_run`'s final regrets of replications 0..``reps``−1 (seed 0) through
    the library's *reference* backend (``nbl_sim.engine``'s plain-numpy definition of the
    numbers of record: the draw, NBL, Greedy Logistic and the regret), which ``simulate`` does
    not run; kept per (link, intercept, reps) in this process.

    Returns
    -------
    dict
        ``nbl``, ``gl``: final regret R_n per replication.
    """
    memo = ("reference", link, intercept, reps)
    if memo not in _COMPARISONS:
        c = COMPARISON_SETTING
        env = Environment.build(link, c["delta"], c["d"])
        ref = {"backend": "reference"}
        real = engine.draw(env, 0, range(reps), c["n"], c["n0"], **ref)
        nbl = engine.nbl(
            real.X, real.Y, real.coins, env.v_star, gamma=c["gamma"], t0=c["t0"], **ref
        ).actions
        gl, _ = engine.greedy_logistic(real.X, real.Y, real.coins, intercept=intercept, **ref)
        _COMPARISONS[memo] = {
            name: engine.regret(env, real, acts, [c["n"]], **ref)[:, -1]
            for name, acts in (("nbl", nbl), ("gl", gl))
        }
    return _COMPARISONS[memo]


def paired_regret_gaps(links, seed: int = 0, intercept: bool = True):
    """NBL minus Greedy Logistic final regret, paired within replications, in the setting of
    app:logistic-comparison (:func:`comparison_run`).

    Parameters
    ----------
    links : sequence of (name, Link)
    intercept : bool
        Greedy Logistic fits an intercept per arm.

    Returns
    -------
    gaps : list of (name, mean, SE)
    notes : list of str
        Per link, a diagnostic splitting the replications by whether NBL's randomized start
        v_{n0} is within 30° of v*.
    """
    reps = COMPARISON_SETTING["reps"]
    out, notes = [], []
    for name, link in links:
        run = comparison_run(link, intercept, seed)
        nbl, gl = run["nbl"], run["gl"]
        diff = nbl - gl
        out.append((name, float(diff.mean()), float(diff.std(ddof=1) / math.sqrt(reps))))
        # diagnostic: how far the randomized start v_{n0} is from v*
        good = np.abs(run["start_angle"]) < 30
        if 1 < good.sum() < reps:
            se_good = diff[good].std(ddof=1) / math.sqrt(good.sum())
            notes.append(
                f"{name}: median R_n NBL {np.median(nbl):.1f} vs GL {np.median(gl):.1f}; "
                f"{int(good.sum())} reps start within 30 deg of v*, their NBL - GL = "
                f"{diff[good].mean():+.2f} +- {se_good:.2f} (SE); the rest "
                f"{diff[~good].mean():+.2f}"
            )
    return out, notes
