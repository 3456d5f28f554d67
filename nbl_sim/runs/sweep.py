"""Sweeps: independent cells on an executor, cached on disk, resumable, with failures reported.

:func:`run_sweep` is the one entry point every sweep uses (simulation replications, phase
diagrams, threshold scans, the regret-rate study, figure reproduction)::

    res = run_sweep(fn, cells, executor=make_executor(scheduler="local:2"),
                    cache=ChunkCache(namespace="phase"), progress=callback)
    res.results      # fn(cells[i]) in cell order (None where a cell failed)
    res.failures     # [CellFailure(index, params, error, traceback), ...]

* **Reproducible.** Results come back in cell order whatever the executor, the number of workers
  or the completion order; cells carry their own seeds, so nothing depends on where they ran.
* **Cached.** A finished cell is written (atomically) to ``cache`` (a
  :class:`~nbl_sim.runs.cache.ChunkCache`) under a SHA-256 key of the function's name, the cell's
  parameters (canonical JSON), the versions of Python, nbl and the numerical libraries, and a
  fingerprint of the source of the function's module and every nbl module it imports (so an
  edited checkout or an upgraded numpy never reuses a stale chunk, and editing unrelated code
  does not throw the cache away). A rerun after an interruption computes only the cells that
  are missing.
* **Failures.** A cell that raises is reported with its parameters and the rest of the sweep
  still completes and is saved; ``on_error="raise"`` raises :class:`SweepError` after the sweep
  for callers that need every cell.

Cell results must be plain data (:mod:`nbl_sim.runs.plain_data`: dicts, lists, tuples, numbers,
strings, numeric numpy arrays); the cache stores them as JSON and ``.npz`` — never pickle — in a
private directory, validates and authenticates every entry before serving it, and recomputes
anything else (:mod:`nbl_sim.runs.cache`).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import platform
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from nbl_theory.errors import NBLInputError
from nbl_theory.validation import validate_delta

from .cache import ChunkCache, default_cache_dir
from .execution import Executor, TaskError, make_executor

__all__ = [
    "run_sweep",
    "SweepResult",
    "CellFailure",
    "SweepError",
    "ChunkCache",
    "canonical",
    "cell_key",
    "source_fingerprint",
    "imported_modules",
    "reachable",
    "library_versions",
    "LIBRARIES",
    "default_cache_dir",
    "DEFAULT_CACHE_DIR",
    "decimal_strings",
    "sweep_grid",
]

#: ``ChunkCache(DEFAULT_CACHE_DIR, ns)`` is the cache in the user's cache directory
#: (:func:`nbl_sim.runs.cache.default_cache_dir`: ``$NBL_CACHE_DIR``, else e.g. ``~/.cache/nbl``),
#: resolved when the cache is made — never the current directory
DEFAULT_CACHE_DIR = None


class SweepError(RuntimeError):
    """Some cells of a sweep failed (the others were computed and cached).

    Parameters
    ----------
    failures : iterable of CellFailure
        The failed cells (the message lists the first ten).
    """

    def __init__(self, failures):
        self.failures = list(failures)
        lines = [f"  cell {f.index} {f.describe_params()}: {f.error}" for f in self.failures[:10]]
        more = len(self.failures) - 10
        super().__init__(
            f"{len(self.failures)} cell(s) failed:\n"
            + "\n".join(lines)
            + (f"\n  ... and {more} more" if more > 0 else "")
        )


@dataclass(frozen=True)
class CellFailure:
    """A cell that raised: its index in the sweep, its parameters, the one-line error and the
    worker's traceback.

    Parameters
    ----------
    index : int
        The cell's position in the sweep.
    params : object
        The cell itself (its parameters).
    error : str
        The one-line error, ``"Type: message"``.
    traceback : str, default ""
        The worker's formatted traceback.
    """

    index: int
    params: object
    error: str
    traceback: str = ""

    def describe_params(self) -> str:
        """The cell's parameters as short JSON (for messages).

        Returns
        -------
        str
            At most 300 characters (the ``repr`` if the parameters are not JSON-able).
        """
        try:
            return json.dumps(canonical(self.params), sort_keys=True)[:300]
        except Exception:  # noqa: BLE001 - only for the message
            return repr(self.params)[:300]


@dataclass
class SweepResult:
    """What :func:`run_sweep` returns: ``results`` in cell order (None for a failed cell),
    ``failures`` (:class:`CellFailure`), how many cells came from the cache and how many were
    computed, the seconds and a description of the executor.

    Parameters
    ----------
    results : list
        One value per cell, in cell order (None for a failed cell).
    failures : list of CellFailure, default []
        The cells that raised.
    cached : int, default 0
        How many cells came from the cache.
    computed : int, default 0
        How many cells were computed in this run.
    seconds : float, default 0.0
        The sweep's wall time.
    executor : str, default ""
        The executor's description (:meth:`Executor.describe`).
    """

    results: list
    failures: list = field(default_factory=list)
    cached: int = 0
    computed: int = 0
    seconds: float = 0.0
    executor: str = ""

    @property
    def ok(self) -> bool:
        """True when no cell failed."""
        return not self.failures

    def raise_failures(self) -> None:
        """Raise :class:`SweepError` if any cell failed."""
        if self.failures:
            raise SweepError(self.failures)


# ---------------------------------------------------------------------- canonical parameters
def canonical(x):
    """A JSON-able, deterministic description of ``x`` (cell parameters) for cache keys.

    Floats are written with ``repr`` (exact round trip), arrays with dtype, shape and values,
    dataclasses and objects with ``__getstate__`` by their defining fields, sympy objects by
    ``srepr``. A dataclass field with ``metadata={"cache_key": False}`` says how a cell is
    computed, not what (e.g. a simulation chunk's engine backend, whose bits are the same either
    way) and is left out.

    Parameters
    ----------
    x : object
        Cell parameters: numbers, strings, None, arrays, lists, tuples, dicts, dataclasses,
        objects with ``__getstate__``, sympy objects.

    Returns
    -------
    object
        Plain JSON data (dicts, lists, strings, ints, bools, None) that determines ``x``.
    """
    if isinstance(x, np.floating):  # before float: np.float64 subclasses float
        return {"float": repr(float(x))}
    if isinstance(x, np.integer):
        return int(x)
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):  # repr round-trips exactly, nan/inf included
        return {"float": repr(x)}
    if isinstance(x, np.ndarray):
        return {
            "array": str(x.dtype),
            "shape": list(x.shape),
            "values": [canonical(v) for v in x.ravel().tolist()],
        }
    if isinstance(x, dict):
        return {
            "dict": sorted(
                ([json.dumps(canonical(k), sort_keys=True), canonical(v)] for k, v in x.items()),
                key=lambda kv: kv[0],
            )
        }
    if isinstance(x, (list, tuple)):
        return [canonical(v) for v in x]
    mod = type(x).__module__
    if mod.startswith("sympy"):
        import sympy as sp

        return {"sympy": sp.srepr(x)}
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        state = (
            x.__getstate__()
            if hasattr(type(x), "__getstate__") and type(x).__getstate__ is not object.__getstate__
            else {
                f.name: getattr(x, f.name)
                for f in dataclasses.fields(x)
                if f.metadata.get("cache_key", True)
            }
        )
        return {"type": f"{mod}.{type(x).__qualname__}", "state": canonical(state)}
    if hasattr(x, "__getstate__"):
        state = x.__getstate__()
        if isinstance(state, dict):
            return {"type": f"{mod}.{type(x).__qualname__}", "state": canonical(state)}
    if callable(x) and hasattr(x, "__qualname__"):
        return {"callable": f"{x.__module__}.{x.__qualname__}"}
    raise NBLInputError(
        f"cannot describe a sweep parameter of type {type(x).__name__} for the cache key"
    )


#: the folder of figures, plots and text tables: its modules draw and write finished data, so
#: editing them never changes a cell's value (see :func:`source_fingerprint`)
_PRESENTATION = "nbl_sim/presentation/"
_PACKAGES = ("nbl_theory", "nbl_sim")
_ROOT = Path(__file__).resolve().parents[2]


def _module_file(name: str) -> Path | None:
    base = _ROOT.joinpath(*name.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


@functools.lru_cache(maxsize=4096)
def imported_modules(name: str, is_package: bool, source: bytes) -> frozenset[str]:
    """Every module imported anywhere in ``source`` (module level or inside functions), the
    text of module ``name`` (``is_package``: its ``__init__.py``), relative imports resolved.

    Names imported *from* a module are listed as ``module.name`` too (they may be submodules;
    a caller that looks them up finds out). Memoized on the text: each file is parsed once
    per process. Used by :func:`source_fingerprint` and by the claim runner's keys
    (:mod:`proofs_check.runner_keys`).

    Parameters
    ----------
    name : str
        The dotted name of the module whose text ``source`` is.
    is_package : bool
        Whether ``source`` is a package's ``__init__.py`` (relative imports resolve from the
        package itself).
    source : bytes
        The module's source text.

    Returns
    -------
    frozenset of str
        The dotted names imported.

    Examples
    --------
    >>> sorted(imported_modules("pkg.mod", False, b"from .sub import f; import os"))
    ['os', 'pkg.sub', 'pkg.sub.f']
    """
    import ast

    pkg = name if is_package else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = pkg.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                mod = f"{base}.{node.module}" if node.module else base
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)  # submodules imported by name
    return frozenset(out)


def _imports(name: str, path: Path) -> set[str]:
    """nbl modules imported anywhere in ``path`` (module level or inside functions)."""
    found = imported_modules(name, path.name == "__init__.py", path.read_bytes())
    return {m for m in found if m.split(".")[0] in _PACKAGES}


def reachable(start: str, step: Callable[[str], Iterable[str]]) -> set[str]:
    """Every name reachable from ``start`` by ``step`` (``step(name)``: the names it leads to,
    called once per name), ``start`` included: the module walk of :func:`source_fingerprint`
    and of the claim runner's keys (:mod:`proofs_check.runner_keys`).

    Parameters
    ----------
    start : str
        The first name.
    step : callable
        ``step(name)``: the names ``name`` leads to.

    Returns
    -------
    set of str
        Every name reached, ``start`` included.

    Examples
    --------
    >>> sorted(reachable("a", {"a": "bc", "b": "a", "c": ""}.get))
    ['a', 'b', 'c']
    """
    seen: set[str] = set()
    todo = [start]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(step(m))
    return seen


@functools.cache
def source_fingerprint(module: str | None = None) -> str:
    """SHA-256 over the source of the code a cell's value can depend on.

    The fingerprint covers ``module`` (the module of the cell function) and every nbl module it
    imports, transitively — imports at module level and inside functions, and the packages
    above each module — except the modules under ``nbl_sim/presentation/`` other than
    ``module`` itself (their imports are still followed). With ``module`` None it covers every
    module of nbl_theory and nbl_sim outside ``nbl_sim/presentation/``.

    So editing a figure's colors, a plot or a text table never invalidates a cached cell,
    while editing a figure's own module invalidates that figure's data (the figure's data are
    keyed by the fingerprint of the figure module,
    :func:`nbl_sim.presentation.reproduce.cache_key`). The rule is by folder, not a hand-kept
    list. Orchestration modules a cell imports (``nbl_sim.runs.sweep``, ``nbl_sim.runs.execution``,
    ``nbl_sim.studies.rate_analysis``) are covered on purpose: being conservative there is correct —
    editing them may throw away cells that were still valid (one recomputation), but can never
    let a stale cell be reused.

    Parameters
    ----------
    module : str, optional
        The dotted name of the cell function's module (None: every module of nbl_theory and
        nbl_sim outside ``nbl_sim/presentation/``).

    Returns
    -------
    str
        64 hexadecimal digits.
    """
    if module is None:
        names = sorted(
            ".".join(p.relative_to(_ROOT).with_suffix("").parts)
            for pkg in _PACKAGES
            for p in (_ROOT / pkg).rglob("*.py")
        )
    else:

        def step(m: str) -> list[str]:
            f = _module_file(m)
            if f is None:
                return []
            parent = m.rpartition(".")[0]
            return [*([parent] if parent else []), *_imports(m, f)]

        names = sorted(reachable(module, step))
    own = _module_file(module) if module is not None else None
    h = hashlib.sha256()
    for m in names:
        f = _module_file(m.removesuffix(".__init__"))
        if f is None:
            continue
        rel = f.relative_to(_ROOT).as_posix()
        if rel.startswith(_PRESENTATION) and f != own:
            continue
        h.update(rel.encode())
        h.update(f.read_bytes())
    return h.hexdigest()


#: the distributions whose versions enter every cache key (numerical results may change with
#: any of them); a missing one counts as None
LIBRARIES = ("nbl", "numpy", "scipy", "mpmath", "sympy", "python-flint", "numba")


@functools.cache
def library_versions() -> dict:
    """``{distribution: version or None}`` for :data:`LIBRARIES`, and the Python version, from
    the installed metadata (:func:`importlib.metadata.version`; nothing is imported)."""
    from importlib import metadata

    out = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except Exception:  # noqa: BLE001 - not installed, or a source tree without metadata
            out[name] = None
    return out


def cell_key(fn: Callable, params) -> str:
    """The cache key of ``fn(params)``: SHA-256 of the function's name, the parameters
    (:func:`canonical`), the versions of Python and the numerical libraries
    (:func:`library_versions`) and the source fingerprint of the function's module
    (:func:`source_fingerprint`).

    Parameters
    ----------
    fn : callable
        The cell function (a top-level function).
    params : object
        The cell's parameters.

    Returns
    -------
    str
        64 hexadecimal digits.
    """
    payload = {
        "fn": f"{fn.__module__}.{fn.__qualname__}",
        "params": canonical(params),
        "versions": library_versions(),
        "source": source_fingerprint(fn.__module__),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


# ---------------------------------------------------------------------- the runner
def run_sweep(
    fn: Callable,
    cells: Sequence,
    *,
    executor: Executor | None = None,
    cache: ChunkCache | None = None,
    progress=None,
    on_error: str = "collect",
    weights: Sequence[float] | None = None,
    on_result=None,
) -> SweepResult:
    """Run ``fn(cell)`` for every cell; results in cell order.

    Parameters
    ----------
    fn : callable
        A top-level (picklable) function of one cell.
    cells : sequence
        The cells (picklable; their parameters form the cache key).
    executor : Executor, optional
        Where to run (default: ``make_executor(None, work=0.0)``: in-process, or the Dask
        scheduler of ``$NBL_DASK_SCHEDULER``).
    cache : ChunkCache, optional
        Where finished cells are stored and found again (None: no caching).
    progress : callable, optional
        ``progress(done, total)`` callback (``done``/``total`` in ``weights`` units, default
        one per cell); cached cells count as done at once.
    on_error : {"collect", "raise"}, default "collect"
        "collect": failures in the result; "raise": :class:`SweepError` at the end, after
        every other cell was computed and cached.
    weights : sequence of float, optional
        The relative work of each cell, for ``progress`` (default: 1 per cell).
    on_result : callable, optional
        ``on_result(i, value)`` called as each computed cell arrives (e.g. to persist it
        elsewhere).

    Returns
    -------
    SweepResult
        The results in cell order (None for a failed cell), the failures, and how many
        cells were cached and computed.
    """
    if on_error not in ("collect", "raise"):
        raise NBLInputError(f"on_error must be 'collect' or 'raise', got {on_error!r}")
    cells = list(cells)
    w = [1.0] * len(cells) if weights is None else [float(x) for x in weights]
    if len(w) != len(cells):
        raise NBLInputError("weights must have one entry per cell")
    total = sum(w)
    tic = time.perf_counter()
    results: list = [None] * len(cells)
    keys = [cell_key(fn, c) for c in cells] if cache is not None else [None] * len(cells)
    todo, done, n_cached = [], 0.0, 0
    for i, k in enumerate(keys):
        hit, val = cache.get(k) if cache is not None else (False, None)
        if hit:
            results[i] = val
            done += w[i]
            n_cached += 1
        else:
            todo.append(i)
    if progress:
        progress(_rounded(done, total), _rounded(total, total))
    failures = []
    own = executor is None
    if todo:
        if own:
            executor = make_executor(None, work=0.0)
        try:
            for j, res in executor.run(fn, [cells[i] for i in todo]):
                i = todo[j]
                if isinstance(res, TaskError):
                    failures.append(CellFailure(i, cells[i], str(res), res.traceback))
                else:
                    results[i] = res
                    if cache is not None:
                        _store(cache, keys[i], res, fn)
                    if on_result is not None:
                        on_result(i, res)
                done += w[i]
                if progress:
                    progress(_rounded(done, total), _rounded(total, total))
        finally:
            if own:
                executor.close()
    failures.sort(key=lambda f: f.index)
    out = SweepResult(
        results,
        failures,
        n_cached,
        len(todo) - len(failures),
        time.perf_counter() - tic,
        executor.describe() if (executor is not None and todo) else "cache",
    )
    if on_error == "raise":
        out.raise_failures()
    return out


def _store(cache: ChunkCache, key: str, value, fn: Callable) -> None:
    try:
        cache.put(key, value)
    except TypeError as exc:  # a cell returning something other than plain data: a bug
        raise TypeError(
            f"{fn.__module__}.{fn.__qualname__} returned a value the cache cannot store: {exc}"
        ) from None


def _rounded(x: float, total: float):
    """Integers for the progress bar when the weights are whole numbers."""
    return int(round(x)) if float(total).is_integer() else x


def decimal_strings(xs) -> list[str]:
    """``xs`` as decimal strings: strings are kept, numbers written with 17 significant digits
    (so a float round-trips).

    Parameters
    ----------
    xs : iterable of str or float
        The values.

    Returns
    -------
    list of str
        One string per value.
    """
    return [x if isinstance(x, str) else f"{float(x):.17g}" for x in xs]


def sweep_grid(what: str, values, deltas, fixed) -> tuple[list[str], list[str], tuple]:
    """The grid of a (parameter, Δ) sweep: ``values`` and ``deltas`` as
    :func:`decimal_strings` with every Δ validated, and ``fixed`` (a dict or None) as sorted
    (name, value) string pairs. An empty grid is an NBLInputError naming ``what``.

    Parameters
    ----------
    what : str
        The sweep's name, for the error message.
    values : iterable of str or float
        The parameter values.
    deltas : iterable of str or float
        The separations Δ.
    fixed : dict or None
        The other parameters' values.

    Returns
    -------
    tuple
        ``(values, deltas, fixed)`` as lists of decimal strings and a tuple of sorted pairs.
    """
    values, deltas = decimal_strings(values), decimal_strings(deltas)
    if not values or not deltas:
        raise NBLInputError(f"{what} needs at least one parameter value and one delta")
    for x in deltas:
        validate_delta(x)
    return values, deltas, tuple(sorted((str(k), str(v)) for k, v in (fixed or {}).items()))
