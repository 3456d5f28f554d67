"""Phase-diagram sweeps and threshold scans on an executor (local, process pool or Dask).

* :func:`phase_diagram` — λ* (eq:decision_stability) of a link family on a (parameter, Δ) grid,
  one cell per parameter value. Tiers: ``float`` (float64, :func:`lambda_star_float`),
  ``mpmath`` (``stability(..., dps=30)`` with its sign analysis) and ``certified`` (Arb
  enclosures: the sign of λ* at every grid point is *proved*, or reported ``undecided``).
* :func:`threshold_scan` — the roots of λ* = 0 (:func:`nbl_theory.threshold.find_thresholds`,
  certified brackets) at each of several fixed values (of Δ when solving for a parameter, of the
  parameter when solving for Δ), one cell per fixed value.

Both run through :func:`nbl_sim.runs.sweep.run_sweep`: results are in cell order whatever the
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

from ..runs.execution import Executor, executor_for
from ..runs.sweep import ChunkCache, decimal_strings, run_sweep, sweep_grid

__all__ = [
    "PhaseDiagram",
    "PhaseCell",
    "phase_cell",
    "phase_diagram",
    "ThresholdScan",
    "threshold_scan",
    "TIERS",
    "grid_values",
]

#: The precision tiers of a phase diagram: float64, mpmath (30 digits) and certified (Arb).
TIERS = ("float", "mpmath", "certified")


def grid_values(lo: float, hi: float, n: int) -> list[str]:
    """``n`` evenly spaced values as exact decimal strings (shortest round-trip repr).

    Parameters
    ----------
    lo : float
        The first value.
    hi : float
        The last value (> ``lo`` when n > 1).
    n : int
        The number of values, ≥ 1.

    Returns
    -------
    list of str
        ``numpy.linspace(lo, hi, n)`` as reprs.

    Raises
    ------
    NBLInputError
        A non-finite end, n < 1, or lo ≥ hi with n > 1.
    """
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
        raise NBLInputError(
            f"family {family!r} has no parameter {param!r}; parameters are {sorted(probe.params)}"
        )


# ---------------------------------------------------------------------- phase diagram
@dataclass(frozen=True)
class PhaseCell:
    """One column of a phase diagram: λ* of the link ``family`` (a family name or a
    :class:`~nbl_theory.link_source.LinkSource`) at ``param`` = ``value`` (other parameters
    ``fixed``, as sorted (name, value) pairs) for every Δ of ``deltas``, in ``tier``.

    Parameters
    ----------
    family : str or LinkSource
        The family name or link source.
    param : str
        The parameter varied.
    value : str
        Its value in this column (a decimal string).
    fixed : tuple of (str, str)
        The other parameters' values, sorted.
    deltas : tuple of str
        The separations Δ of the rows (decimal strings).
    tier : {"float", "mpmath", "certified"}
        How λ* is computed.
    """

    family: str | LinkSource
    param: str
    value: str
    fixed: tuple
    deltas: tuple
    tier: str


def phase_cell(cell: PhaseCell) -> dict:
    """Compute one :class:`PhaseCell`: ``{"lambda_star": [...], "sign": [...]}`` per Δ (float64
    values; the sign from the tier's own analysis, ``"undecided"`` where it cannot tell).

    Parameters
    ----------
    cell : PhaseCell
        The column to compute.

    Returns
    -------
    dict
        ``lambda_star`` (float array, one per Δ) and ``sign`` (list of str).
    """
    link = _family_link(cell.family, cell.param, cell.value, cell.fixed)
    lam, sign = [], []
    for d in cell.deltas:
        if cell.tier == "float":
            x = lambda_star_float(link, float(d))
            lam.append(x)
            sign.append("stable" if x > 0 else "unstable" if x < 0 else "undecided")
        else:
            res = (
                stability(link, d, certify=True)
                if cell.tier == "certified"
                else stability(link, d, dps=30)
            )
            lam.append(float(res.values["lambda_star"]))
            sign.append(res.sign)
    return {"lambda_star": np.asarray(lam), "sign": sign}


@dataclass
class PhaseDiagram:
    """λ* of a link family on a (parameter, Δ) grid (:func:`phase_diagram`).

    ``lambda_star`` and ``sign`` have shape (len(deltas), len(values)): row i is ``deltas[i]``,
    column j is ``values[j]``; a failed column is NaN / ``"failed"`` and listed in
    ``failures`` (:class:`~nbl_sim.runs.sweep.CellFailure`). ``cached`` counts the columns read
    from the cache; ``executor`` says where the others ran.

    Parameters
    ----------
    family : str
        The family name (or the link source's text).
    param : str
        The parameter varied along the columns.
    values : list of str
        The parameter's values (columns).
    deltas : list of str
        The separations Δ (rows).
    tier : str
        ``"float"``, ``"mpmath"`` or ``"certified"``.
    lambda_star : numpy.ndarray
        λ*, shape (len(deltas), len(values)); NaN in failed columns.
    sign : numpy.ndarray of str
        Same shape: ``"stable"``, ``"unstable"``, ``"undecided"`` or ``"failed"``.
    failures : list of CellFailure, default []
        The failed columns.
    seconds : float, default 0.0
        The wall time.
    executor : str, default ""
        Where the columns ran (``"cache"`` when none was computed).
    cached : int, default 0
        The number of columns read from the cache.
    """

    family: str
    param: str
    values: list  # parameter values (decimal strings), columns
    deltas: list  # Δ values (decimal strings), rows
    tier: str
    lambda_star: np.ndarray  # (len(deltas), len(values)); NaN in failed columns
    sign: np.ndarray  # same shape, "stable" | "unstable" | "undecided" | "failed"
    failures: list = field(default_factory=list)
    seconds: float = 0.0
    executor: str = ""
    cached: int = 0

    def unstable_fraction(self) -> float:
        """The fraction of computed grid points where λ* < 0.

        Returns
        -------
        float
            In [0, 1]; NaN when every column failed.
        """
        ok = self.sign != "failed"
        return float((self.sign[ok] == "unstable").mean()) if ok.any() else float("nan")

    def unstable_intervals(self) -> list[tuple[str, float, float]]:
        """Per Δ row, every run of consecutive grid values with λ* < 0: its first and last value.

        A row whose unstable points are interrupted by a stable (undecided, failed) one gives
        one entry per run, so no interval holds a grid point that is not unstable.

        Returns
        -------
        list of tuple of (str, float, float)
            ``(delta, lo, hi)`` for each run, rows in order (a row without an unstable point
            gives none).
        """
        out = []
        x = np.array([float(v) for v in self.values])
        for i, d in enumerate(self.deltas):
            m = np.concatenate([[False], self.sign[i] == "unstable", [False]])
            edges = np.flatnonzero(m[1:] != m[:-1])  # run starts and (exclusive) ends
            out += [(d, float(x[a]), float(x[b - 1])) for a, b in zip(edges[::2], edges[1::2])]
        return out

    def to_json(self) -> dict:
        """JSON-ready dict (the ``phase`` rows of ``nbl phase --json``).

        Returns
        -------
        dict
            The grid, λ* (None where not finite), the signs, the unstable fraction, the failures
            (value and error) and the timing.
        """
        return {
            "family": self.family,
            "param": self.param,
            "tier": self.tier,
            "values": self.values,
            "deltas": self.deltas,
            "lambda_star": [
                [None if not math.isfinite(v) else v for v in row]
                for row in self.lambda_star.tolist()
            ],
            "sign": self.sign.tolist(),
            "unstable_fraction": self.unstable_fraction(),
            "failures": [{"value": f.params.value, "error": f.error} for f in self.failures],
            "seconds": self.seconds,
            "executor": self.executor,
        }


def phase_diagram(
    family: str | LinkSource,
    param: str,
    values,
    deltas,
    *,
    fixed=None,
    tier: str = "float",
    executor: Executor | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    cache: ChunkCache | None = None,
    progress=None,
) -> PhaseDiagram:
    """λ* of ``make_family(family, param=value, **fixed)`` on the grid ``values`` × ``deltas``.

    ``family`` is a family name or any :class:`~nbl_theory.link_source.LinkSource` (a user's
    expression or potential with parameters: ``source.link({**fixed, param: value})``).

    ``values`` and ``deltas`` are decimal strings (or numbers, converted with 17 digits). One
    cell per parameter value; failed cells (e.g. a value outside the family's domain) are NaN /
    "failed" and listed in ``failures``.

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
        Values of the other parameters (default: the family's defaults).
    tier : {"float", "mpmath", "certified"}, default "float"
        float64 (no sign analysis), mpmath at 30 digits, or certified Arb enclosures.
    executor : Executor, optional
        Where the cells run (left open); default: chosen by
        :func:`~nbl_sim.runs.execution.make_executor` from the work.
    scheduler : str, optional
        A Dask scheduler address for the default executor.
    workers : int, optional
        Local worker processes for the default executor (1: in-process).
    cache : ChunkCache, optional
        Where finished cells are stored and found again (None: no caching).
    progress : callable, optional
        ``progress(done, total)`` in cells.

    Returns
    -------
    PhaseDiagram
        λ* and its sign on the grid.

    Raises
    ------
    NBLInputError
        An unknown tier, an empty grid, a Δ outside (0, 2), or an unknown family or parameter.
    """
    if tier not in TIERS:
        raise NBLInputError(f"tier must be one of {TIERS}, got {tier!r}")
    values, deltas, fixed_t = sweep_grid("phase_diagram", values, deltas, fixed)
    _check_family(family, param, fixed_t)
    cells = [PhaseCell(family, param, v, fixed_t, tuple(deltas), tier) for v in values]
    per_point = {"float": 5e-4, "mpmath": 0.4, "certified": 0.02}[tier]  # s, measured
    with executor_for(
        executor,
        workers,
        work=len(values) * len(deltas) * per_point,
        threshold=5.0,
        scheduler=scheduler,
    ) as ex:
        res = run_sweep(phase_cell, cells, executor=ex, cache=cache, progress=progress)
        where = ex.describe() if res.cached < len(cells) else "cache"  # nothing ran
    lam = np.full((len(deltas), len(values)), np.nan)
    sign = np.full((len(deltas), len(values)), "failed", dtype=object)
    for j, r in enumerate(res.results):
        if r is not None:
            lam[:, j] = r["lambda_star"]
            sign[:, j] = r["sign"]
    name = family if isinstance(family, str) else family.text
    return PhaseDiagram(
        name,
        param,
        values,
        deltas,
        tier,
        lam,
        sign.astype(str),
        res.failures,
        res.seconds,
        where,
        res.cached,
    )


# ---------------------------------------------------------------------- threshold scans
@dataclass(frozen=True)
class _ThresholdCell:
    family: str
    param: str
    solve_for: str  # "delta" or the parameter name
    at: str  # the fixed value (Δ when solving for the parameter, else the param)
    fixed: tuple
    bracket: tuple
    grid: int
    certify: bool


def _threshold_cell(cell: _ThresholdCell) -> list[dict]:
    from nbl_theory.threshold import find_thresholds

    if cell.solve_for == "delta":
        res = find_thresholds(
            _family_link(cell.family, cell.param, cell.at, cell.fixed),
            "delta",
            bracket=cell.bracket,
            grid=cell.grid,
            certify=cell.certify,
        )
    else:

        def build(value: str) -> Link:
            return _family_link(cell.family, cell.param, value, cell.fixed)

        res = find_thresholds(
            build,
            cell.param,
            delta=cell.at,
            bracket=cell.bracket,
            grid=cell.grid,
            certify=cell.certify,
        )
    return [
        {
            "value": str(r.value),
            "certified": bool(r.certified),
            "bracket": [str(b) for b in r.bracket],
        }
        for r in res.roots
    ]


@dataclass
class ThresholdScan:
    """Roots of λ* = 0 at each fixed value (:func:`threshold_scan`): ``roots[i]`` is the list
    of roots (dicts with ``value``, ``certified``, ``bracket``) at ``at[i]``, or None when that
    cell failed (see ``failures``).

    Parameters
    ----------
    family : str
        The family name.
    param : str
        The family's parameter.
    solve_for : str
        ``"delta"`` or ``param``: the variable whose roots are found.
    at : list of str
        The fixed values of the other variable, one cell each.
    roots : list
        Per fixed value, the list of root dicts (``value``, ``certified``, ``bracket``), or None
        where the cell failed.
    failures : list of CellFailure, default []
        The failed cells.
    seconds : float, default 0.0
        The wall time.
    executor : str, default ""
        Where the cells ran (``"cache"`` when none was computed).
    """

    family: str
    param: str
    solve_for: str
    at: list
    roots: list  # per fixed value: list of root dicts (None if the cell failed)
    failures: list = field(default_factory=list)
    seconds: float = 0.0
    executor: str = ""


def threshold_scan(
    family: str,
    param: str,
    solve_for: str,
    at,
    *,
    bracket,
    fixed=None,
    grid: int = 121,
    certify: bool = True,
    executor: Executor | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    cache: ChunkCache | None = None,
    progress=None,
) -> ThresholdScan:
    """Roots of λ* = 0 in ``bracket`` (for ``solve_for`` = "delta" or ``param``) at each fixed
    value in ``at``; one cell per fixed value.

    Parameters
    ----------
    family : str
        The family name.
    param : str
        The family's parameter.
    solve_for : str
        ``"delta"`` (roots in Δ at each parameter value of ``at``) or ``param`` (roots in the
        parameter at each Δ of ``at``).
    at : iterable of str or float
        The fixed values, one cell each.
    bracket : tuple of two
        The interval in which roots are searched.
    fixed : dict, optional
        Values of the family's other parameters.
    grid : int, default 121
        The points of the sign scan inside ``bracket``
        (:func:`nbl_theory.threshold.find_thresholds`).
    certify : bool, default True
        Certify each root with Arb enclosures.
    executor : Executor, optional
        Where the cells run (left open); default: chosen by
        :func:`~nbl_sim.runs.execution.make_executor` from the work.
    scheduler : str, optional
        A Dask scheduler address for the default executor.
    workers : int, optional
        Local worker processes for the default executor (1: in-process).
    cache : ChunkCache, optional
        Where finished cells are stored and found again (None: no caching).
    progress : callable, optional
        ``progress(done, total)`` in cells.

    Returns
    -------
    ThresholdScan
        The roots at each fixed value.

    Raises
    ------
    NBLInputError
        A ``solve_for`` that is neither ``"delta"`` nor ``param``, a Δ outside (0, 2), or an
        unknown family or parameter.
    """
    if solve_for not in ("delta", param):
        raise NBLInputError(f"solve_for must be 'delta' or {param!r}, got {solve_for!r}")
    at = decimal_strings(at)
    if solve_for != "delta":
        for a in at:
            validate_delta(a)
    fixed_t = tuple(sorted((str(k), str(v)) for k, v in (fixed or {}).items()))
    _check_family(family, param, fixed_t)
    cells = [
        _ThresholdCell(
            family,
            param,
            solve_for,
            a,
            fixed_t,
            tuple(str(b) for b in bracket),
            int(grid),
            bool(certify),
        )
        for a in at
    ]
    with executor_for(
        executor, workers, work=float(len(at)), threshold=4.0, scheduler=scheduler
    ) as ex:
        res = run_sweep(_threshold_cell, cells, executor=ex, cache=cache, progress=progress)
        where = ex.describe() if res.cached < len(cells) else "cache"  # nothing ran
    return ThresholdScan(
        family, param, solve_for, at, res.results, res.failures, res.seconds, where
    )
