"""Phase-diagram sweeps and threshold scans on an executor (local, process pool or Dask).

* :func:`phase_diagram` — λ* (eq:decision_stability) of a link family on a (parameter, Δ) grid,
  one cell per parameter value. Tiers: ``float`` (float64, :func:`lambda_star_float`),
  ``mpmath`` (``stability(..., dps=30)`` with its sign analysis) and ``certified`` (Arb
  enclosures: the sign of λ* at every grid point is *proved*, or reported ``undecided``).
* :func:`threshold_scan` — the roots of λ* = 0 (:func:`nbl_theory.threshold.find_thresholds`,
  certified brackets) at each of several fixed values (of Δ when solving for a parameter, of the
  parameter when solving for Δ), one cell per fixed value.

Both run through :func:`nbl_sim.sweep.run_sweep`: results are in cell order whatever the
executor, finished cells are cached, and a cell that fails (e.g. a parameter outside the family's
domain) is reported without losing the others.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from nbl_theory import Link
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.link_source import LinkSource
from nbl_theory.stability import lambda_star_float, stability
from nbl_theory.validation import validate_delta

from .execution import Executor, make_executor
from .sweep import ChunkCache, run_sweep

__all__ = ["PhaseDiagram", "PhaseCell", "phase_cell", "phase_diagram", "ThresholdScan",
           "threshold_scan", "TIERS", "grid_values"]

TIERS = ("float", "mpmath", "certified")


def grid_values(lo: float, hi: float, n: int) -> list[str]:
    """``n`` evenly spaced values as exact decimal strings (shortest round-trip repr)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or n < 1 or (n > 1 and not lo < hi):
        raise NBLInputError(f"grid needs finite lo < hi and n >= 1, got {lo}, {hi}, {n}")
    return [repr(float(x)) for x in np.linspace(lo, hi, n)]


def _family_link(family: str | LinkSource, param: str, value: str, fixed: tuple) -> Link:
    if isinstance(family, LinkSource):
        return family.link({**dict(fixed), param: value})
    return make_family(family, **{**dict(fixed), param: value})


def _check_family(family: str | LinkSource, param: str, fixed: tuple) -> None:
    """Bad names are input errors up front (not per-cell failures): the family, the swept
    parameter and the fixed ones (built once with the family's defaults)."""
    from nbl_theory.families import FAMILIES

    if isinstance(family, LinkSource):
        family.check_names([*dict(fixed), param])
        return
    if family not in FAMILIES:
        raise NBLInputError(f"unknown family {family!r}; choose from {', '.join(sorted(FAMILIES))}")
    probe = make_family(family, **dict(fixed))
    if param not in probe.params:
        raise NBLInputError(f"family {family!r} has no parameter {param!r}; parameters are "
                            f"{sorted(probe.params)}")


# ---------------------------------------------------------------------- phase diagram
@dataclass(frozen=True)
class PhaseCell:
    family: str | LinkSource
    param: str
    value: str
    fixed: tuple
    deltas: tuple
    tier: str


def phase_cell(cell: PhaseCell) -> dict:
    link = _family_link(cell.family, cell.param, cell.value, cell.fixed)
    lam, sign = [], []
    for d in cell.deltas:
        if cell.tier == "float":
            x = lambda_star_float(link, float(d))
            lam.append(x)
            sign.append("stable" if x > 0 else "unstable" if x < 0 else "undecided")
        else:
            res = (stability(link, d, certify=True) if cell.tier == "certified"
                   else stability(link, d, dps=30))
            lam.append(float(res.values["lambda_star"]))
            sign.append(res.sign)
    return {"lambda_star": np.asarray(lam), "sign": sign}


@dataclass
class PhaseDiagram:
    family: str
    param: str
    values: list          # parameter values (decimal strings), columns
    deltas: list          # Δ values (decimal strings), rows
    tier: str
    lambda_star: np.ndarray   # (len(deltas), len(values)); NaN in failed columns
    sign: np.ndarray          # same shape, "stable" | "unstable" | "undecided" | "failed"
    failures: list = field(default_factory=list)
    seconds: float = 0.0
    executor: str = ""
    cached: int = 0

    def unstable_fraction(self) -> float:
        ok = self.sign != "failed"
        return float((self.sign[ok] == "unstable").mean()) if ok.any() else float("nan")

    def unstable_intervals(self) -> list[tuple[str, float, float]]:
        """Per Δ row: the smallest and largest grid parameter value with λ* < 0."""
        out = []
        x = np.array([float(v) for v in self.values])
        for i, d in enumerate(self.deltas):
            m = self.sign[i] == "unstable"
            if m.any():
                out.append((d, float(x[m].min()), float(x[m].max())))
        return out

    def to_json(self) -> dict:
        return {"family": self.family, "param": self.param, "tier": self.tier,
                "values": self.values, "deltas": self.deltas,
                "lambda_star": [[None if not math.isfinite(v) else v for v in row]
                                for row in self.lambda_star.tolist()],
                "sign": self.sign.tolist(),
                "unstable_fraction": self.unstable_fraction(),
                "failures": [{"value": f.params.value, "error": f.error} for f in self.failures],
                "seconds": self.seconds, "executor": self.executor}


def phase_diagram(family: str | LinkSource, param: str, values, deltas, *, fixed=None,
                  tier: str = "float",
                  executor: Executor | None = None, scheduler: str | None = None,
                  workers: int | None = None, cache: ChunkCache | None = None,
                  progress=None) -> PhaseDiagram:
    """λ* of ``make_family(family, param=value, **fixed)`` on the grid ``values`` × ``deltas``.

    ``family`` is a family name or any :class:`~nbl_theory.link_source.LinkSource` (a user's
    expression or potential with parameters: ``source.link({**fixed, param: value})``).

    ``values`` and ``deltas`` are decimal strings (or numbers, converted with 17 digits). One
    cell per parameter value; failed cells (e.g. a value outside the family's domain) are NaN /
    "failed" and listed in ``failures``.
    """
    if tier not in TIERS:
        raise NBLInputError(f"tier must be one of {TIERS}, got {tier!r}")
    values = [v if isinstance(v, str) else f"{float(v):.17g}" for v in values]
    deltas = [d if isinstance(d, str) else f"{float(d):.17g}" for d in deltas]
    if not values or not deltas:
        raise NBLInputError("phase_diagram needs at least one parameter value and one delta")
    for d in deltas:
        validate_delta(d)
    fixed_t = tuple(sorted((str(k), str(v)) for k, v in (fixed or {}).items()))
    _check_family(family, param, fixed_t)
    cells = [PhaseCell(family, param, v, fixed_t, tuple(deltas), tier) for v in values]
    own = executor is None
    if own:
        per_point = {"float": 5e-4, "mpmath": 0.4, "certified": 0.02}[tier]   # s, measured
        executor = make_executor(workers, work=len(values) * len(deltas) * per_point,
                                 threshold=5.0, scheduler=scheduler)
    try:
        res = run_sweep(phase_cell, cells, executor=executor, cache=cache, progress=progress)
        where = executor.describe()
    finally:
        if own:
            executor.close()
    lam = np.full((len(deltas), len(values)), np.nan)
    sign = np.full((len(deltas), len(values)), "failed", dtype=object)
    for j, r in enumerate(res.results):
        if r is not None:
            lam[:, j] = r["lambda_star"]
            sign[:, j] = r["sign"]
    name = family if isinstance(family, str) else family.text
    return PhaseDiagram(name, param, values, deltas, tier, lam, sign.astype(str),
                        res.failures, res.seconds, where, res.cached)


# ---------------------------------------------------------------------- threshold scans
@dataclass(frozen=True)
class _ThresholdCell:
    family: str
    param: str
    solve_for: str          # "delta" or the parameter name
    at: str                 # the fixed value (Δ when solving for the parameter, else the param)
    fixed: tuple
    bracket: tuple
    grid: int
    certify: bool


def _threshold_cell(cell: _ThresholdCell) -> list[dict]:
    from nbl_theory.threshold import find_thresholds

    if cell.solve_for == "delta":
        res = find_thresholds(_family_link(cell.family, cell.param, cell.at, cell.fixed),
                              "delta", bracket=cell.bracket, grid=cell.grid,
                              certify=cell.certify)
    else:
        def build(value: str) -> Link:
            return _family_link(cell.family, cell.param, value, cell.fixed)

        res = find_thresholds(build, cell.param, delta=cell.at, bracket=cell.bracket,
                              grid=cell.grid, certify=cell.certify)
    return [{"value": str(r.value), "certified": bool(r.certified),
             "bracket": [str(b) for b in r.bracket]} for r in res.roots]


@dataclass
class ThresholdScan:
    family: str
    param: str
    solve_for: str
    at: list
    roots: list          # per fixed value: list of root dicts (None if the cell failed)
    failures: list = field(default_factory=list)
    seconds: float = 0.0
    executor: str = ""


def threshold_scan(family: str, param: str, solve_for: str, at, *, bracket, fixed=None,
                   grid: int = 121, certify: bool = True, executor: Executor | None = None,
                   scheduler: str | None = None, workers: int | None = None,
                   cache: ChunkCache | None = None, progress=None) -> ThresholdScan:
    """Roots of λ* = 0 in ``bracket`` (for ``solve_for`` = "delta" or ``param``) at each fixed
    value in ``at``; one cell per fixed value."""
    if solve_for not in ("delta", param):
        raise NBLInputError(f"solve_for must be 'delta' or {param!r}, got {solve_for!r}")
    at = [a if isinstance(a, str) else f"{float(a):.17g}" for a in at]
    if solve_for != "delta":
        for a in at:
            validate_delta(a)
    fixed_t = tuple(sorted((str(k), str(v)) for k, v in (fixed or {}).items()))
    _check_family(family, param, fixed_t)
    cells = [_ThresholdCell(family, param, solve_for, a, fixed_t,
                            tuple(str(b) for b in bracket), int(grid), bool(certify)) for a in at]
    own = executor is None
    if own:
        executor = make_executor(workers, work=float(len(at)), threshold=4.0, scheduler=scheduler)
    try:
        res = run_sweep(_threshold_cell, cells, executor=executor, cache=cache,
                        progress=progress)
        where = executor.describe()
    finally:
        if own:
            executor.close()
    return ThresholdScan(family, param, solve_for, at, res.results, res.failures, res.seconds,
                         where)
