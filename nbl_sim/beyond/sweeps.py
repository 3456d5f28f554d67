"""The exact analysis beyond the paper for any link, as one call or a (parameter, Δ) sweep —
what ``nbl stability`` and ``nbl phase`` run with ``--contexts SPEC`` / ``--arms SPEC``.

* :func:`exact_stability` — one (link, Δ, context law, arms): the exact local picture
  (:func:`nbl_sim.beyond.analyze`) next to the Gaussian prediction, as plain JSON-able data.
* :func:`exact_phase` — the same on a grid of one link parameter × Δ (like
  :func:`nbl_sim.studies.phase.phase_diagram`, which it mirrors: one cell per parameter value, run
  through :func:`nbl_sim.runs.sweep.run_sweep` on any executor, cached, failed cells reported).

``contexts`` and ``arms`` are the spec strings of :func:`nbl_sim.beyond.contexts.
parse_context_spec` and :func:`nbl_sim.beyond.arms.parse_arms_spec` (defaults: the paper's
``gaussian`` and ``symmetric``). The exact rate is −(largest tangent eigenvalue of Dh(v*)); it
is NaN where v* is not an equilibrium (then ``bias_deg`` says where NBL goes instead).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from nbl_theory.families import make_family
from nbl_theory.link_source import LinkSource
from nbl_theory.links import Link
from nbl_theory.records import ResultRow

from ..runs.execution import Executor, executor_for
from ..runs.sweep import ChunkCache, run_sweep, sweep_grid
from .arms import parse_arms_spec
from .case import analyze
from .contexts import parse_context_spec
from .robustness import classify_row

__all__ = ["exact_stability", "exact_phase", "ExactPhase"]


def _num(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def exact_stability(
    link: Link,
    delta,
    *,
    contexts: str = "gaussian",
    arms: str = "symmetric",
    d: int = 2,
    n_grid: int = 720,
    **model_options,
) -> ResultRow:
    """The exact local analysis of one case with the Gaussian prediction beside it.

    Returns a :class:`~nbl_theory.records.ResultRow` — the same result family as
    :func:`nbl_theory.stability.stability` (``.to_dict()``, ``.to_frame()``) and a dict: the
    specs, ``lambda_star`` and ``gaussian_rate_d`` (the paper's
    prediction for the nominal link and Δ), ``vstar_equilibrium``, ``vstar_stability``,
    ``exact_rate`` (None when v* is not an equilibrium) and its error, ``verdict``
    (:func:`nbl_sim.beyond.robustness.classify_row`), the learned boundary (``bias_deg``,
    ``learned_regret``), the best linear boundary (d = 2), every equilibrium found, notes and
    the full analysis under ``analysis``.

    Parameters
    ----------
    link : Link
        The nominal link g.
    delta : float, int or decimal str
        The separation Δ ∈ (0, 2).
    contexts : str, default "gaussian"
        The context spec.
    arms : str, default "symmetric"
        The arms spec.
    d : int, default 2
        The dimension.
    n_grid : int, default 720
        Grid points of the circle scan (d = 2).
    **model_options
        Options of :func:`nbl_sim.beyond.analysis.field_model` (method, mc_samples, seed, ...).

    Returns
    -------
    ResultRow
        The row described above.
    """
    law = parse_context_spec(contexts, d)
    model_arms = parse_arms_spec(arms, link, delta, d)
    a = analyze(law, model_arms, n_grid=n_grid, **model_options)
    g = a.gaussian
    row = {
        "vstar_equilibrium": a.vstar_equilibrium,
        "vstar_decided": a.vstar_decided,
        "vstar_stability": a.vstar_stability,
        "lambda_star": g["lambda_star"],
        "learned_angle_deg": a.bias_deg,
    }
    return ResultRow(
        {
            "link": link.name,
            "delta": str(delta),
            "d": d,
            "contexts": contexts,
            "arms": arms,
            "lambda_star": g["lambda_star"],
            "gaussian_rate_d": g["rate_d"],
            "gaussian_predicts": "attracting" if g["lambda_star"] > 0 else "repelling",
            "vstar_equilibrium": a.vstar_equilibrium,
            "vstar_stability": a.vstar_stability,
            "exact_rate": a.vstar_rate if a.vstar_equilibrium else None,
            "exact_rate_error": a.vstar_eigenvalue_error,
            "decided": a.vstar_decided,
            "verdict": classify_row(row),
            "bias_deg": _num(a.bias_deg),
            "learned_regret": None if a.learned is None else a.learned.regret,
            "best_linear_angle_deg": _num(a.best_linear_angle_deg),
            "best_linear_regret": _num(a.best_linear_regret),
            "equilibria": [
                {
                    "angle_deg": e.angle_deg,
                    "stability": e.stability,
                    "rate": e.rate,
                    "regret": e.regret,
                }
                for e in a.equilibria
            ],
            "notes": a.notes,
            "seconds": a.seconds,
            "analysis": a.to_dict(),
        }
    )


@dataclass(frozen=True)
class _Cell:
    family: str | LinkSource
    param: str
    value: str
    fixed: tuple
    deltas: tuple
    contexts: str
    arms: str
    d: int
    n_grid: int


def _link(cell: _Cell) -> Link:
    params = {**dict(cell.fixed), cell.param: cell.value}
    if isinstance(cell.family, LinkSource):
        return cell.family.link(params)
    return make_family(cell.family, **params)


def _cell(cell: _Cell) -> dict:
    link = _link(cell)
    out = {k: [] for k in ("lambda_star", "exact_rate", "verdict", "bias_deg")}
    for dl in cell.deltas:
        r = exact_stability(
            link, dl, contexts=cell.contexts, arms=cell.arms, d=cell.d, n_grid=cell.n_grid
        )
        out["lambda_star"].append(r["lambda_star"])
        out["exact_rate"].append(math.nan if r["exact_rate"] is None else r["exact_rate"])
        out["verdict"].append(r["verdict"])
        out["bias_deg"].append(math.nan if r["bias_deg"] is None else r["bias_deg"])
    return {k: (np.asarray(v) if k != "verdict" else v) for k, v in out.items()}


@dataclass
class ExactPhase:
    """:func:`exact_phase`'s result: arrays (len(deltas), len(values)); NaN / "failed" in
    failed columns.

    Parameters
    ----------
    family : str
        The family name (or the link source's text).
    param : str
        The parameter varied along the columns.
    values : list of str
        Its values.
    deltas : list of str
        The separations Δ (rows).
    contexts : str
        The context spec.
    arms : str
        The arms spec.
    lambda_star : numpy.ndarray
        The Gaussian λ* of the nominal link, shape (len(deltas), len(values)).
    exact_rate : numpy.ndarray
        The exact rate at v* (NaN where v* is not an equilibrium or the column failed).
    verdict : numpy.ndarray of str
        The verdict against λ* (:func:`nbl_sim.beyond.robustness.classify_row`) or ``"failed"``.
    bias_deg : numpy.ndarray
        The signed angle (degrees) from v* to the learned boundary.
    failures : list of CellFailure, default []
        The failed columns.
    seconds : float, default 0.0
        The wall time.
    executor : str, default ""
        Where the columns ran (``"cache"`` when none was computed).
    cached : int, default 0
        Columns read from the cache.
    """

    family: str
    param: str
    values: list
    deltas: list
    contexts: str
    arms: str
    lambda_star: np.ndarray
    exact_rate: np.ndarray
    verdict: np.ndarray
    bias_deg: np.ndarray
    failures: list = field(default_factory=list)
    seconds: float = 0.0
    executor: str = ""
    cached: int = 0

    def to_json(self) -> dict:
        """JSON-ready dict (the rows of ``nbl phase --contexts ... --json``): the grid, the
        arrays (None where not finite), the mispredicted fraction, the failures and the timing.

        Returns
        -------
        dict
            The result as plain data.
        """

        def rows(a):
            return [[None if not math.isfinite(x) else x for x in r] for r in a.tolist()]

        return {
            "family": self.family,
            "param": self.param,
            "values": self.values,
            "deltas": self.deltas,
            "contexts": self.contexts,
            "arms": self.arms,
            "lambda_star": rows(self.lambda_star),
            "exact_rate": rows(self.exact_rate),
            "verdict": self.verdict.tolist(),
            "bias_deg": rows(self.bias_deg),
            "mispredicted_fraction": self.mispredicted_fraction(),
            "failures": [{"value": f.params.value, "error": f.error} for f in self.failures],
            "seconds": self.seconds,
            "executor": self.executor,
        }

    def mispredicted_fraction(self) -> float:
        """Fraction of the computed grid points classed sign-flip or biased.

        Returns
        -------
        float
            In [0, 1]; NaN when every column failed.
        """
        ok = self.verdict != "failed"
        return (
            float(np.isin(self.verdict[ok], ("sign-flip", "biased")).mean())
            if ok.any()
            else math.nan
        )


def exact_phase(
    family: str | LinkSource,
    param: str,
    values,
    deltas,
    *,
    fixed=None,
    contexts: str = "gaussian",
    arms: str = "symmetric",
    d: int = 2,
    n_grid: int = 360,
    executor: Executor | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    cache: ChunkCache | None = None,
    progress=None,
) -> ExactPhase:
    """The exact rate at v* and the verdict against λ* on the grid ``values`` × ``deltas``
    for the link ``make_family(family, param=value, **fixed)`` (or a LinkSource), under the
    context law ``contexts`` with the arms ``arms`` (module docstring). Bad specs, Δ values or
    parameter names raise a one-line NBLInputError before any work.

    Parameters
    ----------
    family : str or LinkSource
        The family name or link source.
    param : str
        The parameter varied (columns).
    values : iterable of str or float
        Its values.
    deltas : iterable of str or float
        The separations Δ ∈ (0, 2) (rows).
    fixed : dict, optional
        Values of the other parameters.
    contexts : str, default "gaussian"
        The context spec.
    arms : str, default "symmetric"
        The arms spec.
    d : int, default 2
        The dimension.
    n_grid : int, default 360
        Grid points of the circle scan (d = 2).
    executor : Executor, optional
        Where the columns run (default: chosen by the work).
    scheduler : str, optional
        A Dask scheduler address for the default executor.
    workers : int, optional
        Local worker processes for the default executor.
    cache : ChunkCache, optional
        Where finished columns are stored and found again.
    progress : callable, optional
        ``progress(done, total)`` in columns.

    Returns
    -------
    ExactPhase
        The exact rates and verdicts on the grid.
    """
    values, deltas, fixed_t = sweep_grid("exact_phase", values, deltas, fixed)
    parse_context_spec(contexts, d)
    probe = _Cell(family, param, values[0], fixed_t, tuple(deltas), contexts, arms, d, n_grid)
    if isinstance(family, LinkSource):
        family.check_names([*dict(fixed_t), param])
    parse_arms_spec(arms, _link(probe), deltas[0], d)
    cells = [
        _Cell(family, param, v, fixed_t, tuple(deltas), contexts, arms, d, n_grid) for v in values
    ]
    with executor_for(
        executor, workers, work=0.3 * len(values) * len(deltas), threshold=5.0, scheduler=scheduler
    ) as ex:
        res = run_sweep(_cell, cells, executor=ex, cache=cache, progress=progress)
        where = ex.describe() if res.cached < len(cells) else "cache"  # nothing ran
    shape = (len(deltas), len(values))
    lam, rate, bias = (np.full(shape, np.nan) for _ in range(3))
    verdict = np.full(shape, "failed", dtype=object)
    for j, r in enumerate(res.results):
        if r is not None:
            lam[:, j], rate[:, j], bias[:, j] = r["lambda_star"], r["exact_rate"], r["bias_deg"]
            verdict[:, j] = r["verdict"]
    name = family if isinstance(family, str) else family.text
    return ExactPhase(
        name,
        param,
        values,
        deltas,
        contexts,
        arms,
        lam,
        rate,
        verdict.astype(str),
        bias,
        res.failures,
        res.seconds,
        where,
        res.cached,
    )
