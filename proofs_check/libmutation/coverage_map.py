"""Which claims and tests execute each line of the library: coverage.py contexts, collected once.

Why coverage.py and not a line tracer of our own: the interpreter here is Python 3.11 (no
``sys.monitoring``), where a ``sys.settrace`` tracer written in Python is called on every
function call of sympy and mpmath — several times slower than coverage.py's C tracer, which
also records *dynamic contexts* (:meth:`coverage.Coverage.switch_context`): one context per
claim, one per test (a small pytest plugin switches it at each test's setup).

Collection (:func:`collect`) runs in fresh subprocesses (``python -m
proofs_check.libmutation.coverage_map``), the claims and the test files split into chunks on the
executor (:mod:`nbl_sim.runs.execution`), each with an empty ``NBL_CACHE_DIR`` so that no claim
reads a cached result instead of executing the library. Every target module is imported under the
context ``import`` before the first claim, so a module-level line (a constant) is known as
import-time: a mutant there runs against every claim and test that executes any line of its
module.

Memoized computations: a claim that finds a result another claim computed earlier in the
same process (a ``functools`` cache: the quick study, a certified λ*, a paper link; or a
module-level memo, :data:`PROCESS_MEMOS`: a stochastic run, a self-concordance constant) would
not execute its lines, and a mutant there would not be run against it — although in a mutant's
own process that claim may be the first to compute it. Every ``functools`` cache of the three
packages and every process memo is therefore cleared before each claim
(:func:`_forget_memos`): a claim's lines are the ones it executes when it runs first.

Values read, not run: a test that only reads a module-level value (a dataclass default, a
constant) executes no line of the module, and coverage.py cannot credit it. The tests that
import a target module by name (a static scan of their files, :func:`importing_tests`) are
credited to its import-time lines too.

Numba: the lines of a ``@numba.njit`` function never run in Python, so coverage.py does not
see them. A jitted function's lines are credited to the contexts of every library line that
names it (a call, or the function passed on), closed transitively over jitted functions
naming each other (:func:`jit_lines`) — an over-approximation, which only runs more claims.

Shared cells (``--full``): the claims of a chunk share its nbl cache directory, and the study
claims read the full study's cells from it — computed by the first of them only. A split check
that reads its cells through its own ``run`` has them computed once per chunk under the plan's
context, which is then credited to every claim reading them (:func:`credit_readers`); the
readers of one plan are put into one chunk (:func:`_claim_chunks`), so it is computed once.

Pools: every automatically chosen executor of a collector (and of a mutant) runs in-process
(``NBL_IN_PROCESS``, set by :func:`~proofs_check.libmutation.targets.subprocess_env`): a spawned
worker is neither traced nor given the mutated module.

Work limits: a claim's sympy calls run under :func:`nbl_theory.work.call_limited`, a call
counter installed with ``sys.settrace`` that passes each event on to coverage's tracer; the
counter keeps its place when coverage's C tracer tries to take the global slot back (it does,
when called as a Python function), so a limit is reached under coverage exactly as without it
and the map records the lines of the run a mutant's process makes.

The map is data, not a pickle: one JSON file per key in the user cache directory
(``<cache>/libmutation/``), the key a SHA-256 of the sources of the library, the claims, the
tests and the numerical libraries' versions, written atomically.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .targets import (
    ROOT,
    jitted_functions,
    keep_kernels,
    module_path,
    named_lines,
    seed_kernels,
    subprocess_env,
    target_modules,
    target_paths,
)
from .worker import SHOWN_CHARS, report_text, shown

__all__ = [
    "ROOT",
    "TEST_DIRS",
    "CoverageMap",
    "child_setup",
    "collect",
    "load_or_collect",
    "source_key",
    "jit_lines",
    "jitted_functions",
    "named_lines",
    "test_files",
    "cache_path",
    "importing_tests",
    "credit_readers",
]

_LIBS = ("numpy", "scipy", "mpmath", "sympy", "python-flint", "numba", "coverage")
#: test directories whose tests are mapped (the library's own tests; the claims' pinned
#: verdicts in tests/proofs_check run the registry, which the registry side already covers)
TEST_DIRS = ("tests/theory", "tests/sim")
IMPORT = "import"
#: the sources a coverage map depends on (the library, what the claims run, the tests)
_KEYED = (
    "nbl_theory",
    "nbl_sim",
    "proofs_check/claims",
    "proofs_check/witnesses",
    "proofs_check/audit",
    "proofs_check/registry.py",
    "proofs_check/runner_tasks.py",
    "proofs_check/paper_source.py",
    "proofs_check/libmutation/coverage_map.py",  # how the map is collected
    *TEST_DIRS,
)


def source_key(extra: str = "") -> str:
    """SHA-256 of the library, claims, witnesses, audit and tests' sources and the numerical
    libraries' versions (the key of a coverage map)."""
    from importlib import metadata  # here, not at the nbl command's start-up (its parser
    # imports this package for `nbl check`'s options)

    h = hashlib.sha256(extra.encode())
    for pkg in _KEYED:
        files = [ROOT / pkg] if pkg.endswith(".py") else sorted((ROOT / pkg).rglob("*.py"))
        for p in files:
            h.update(p.relative_to(ROOT).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    for lib in _LIBS:
        try:
            h.update(f"{lib}={metadata.version(lib)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{lib}=-".encode())
    return h.hexdigest()


def jit_lines(
    sources: dict[str, str], lines: dict[str, dict[int, set]]
) -> dict[str, dict[int, set]]:
    """The contexts of the lines of jitted functions, from the lines that name them.

    ``sources`` {path: text}; ``lines`` {path: {line: contexts}} as measured. Returns
    {path: {line: contexts}} for every line inside a jitted function (the union of the
    contexts of every measured line naming it, closed over jitted functions naming each
    other)."""
    jitted = {p: jitted_functions(s) for p, s in sources.items()}
    names = {p: named_lines(s) for p, s in sources.items()}
    by_name: dict[str, set] = {}
    inside = {(p, n): rng for p, js in jitted.items() for n, rng in js.items()}
    all_names = {n for (_, n) in inside}
    for p, per_line in lines.items():
        for ln, ctx in per_line.items():
            for n in names.get(p, {}).get(ln, set()) & all_names:
                by_name.setdefault(n, set()).update(ctx)
    changed = True
    while changed:  # a jitted function named inside another jitted function
        changed = False
        for (p, n), (lo, hi) in inside.items():
            mine = by_name.get(n, set())
            for ln in range(lo, hi + 1):
                for m in names.get(p, {}).get(ln, set()) & all_names:
                    if m != n and not mine <= by_name.get(m, set()):
                        by_name.setdefault(m, set()).update(mine)
                        changed = True
    out: dict[str, dict[int, set]] = {}
    for (p, n), (lo, hi) in inside.items():
        ctx = by_name.get(n, set())
        for ln in range(lo, hi + 1):
            out.setdefault(p, {})[ln] = set(ctx)
    return out


class CoverageMap:
    """Per library line, the claims and tests that execute it.

    ``data`` is the JSON document: ``key``, ``claims`` {id: {"status", "seconds"}} (the
    unmutated verdicts), ``tests`` {nodeid: seconds}, ``contexts`` (a list) and ``lines``
    {path: {line: [context index, ...]}}; a context is ``c:<claim id>``, ``t:<test node id>``
    or ``import``.
    """

    def __init__(self, data: dict):
        self.data = data
        self._ctx = data["contexts"]
        self._lines = {p: {int(k): v for k, v in d.items()} for p, d in data["lines"].items()}

    @property
    def baseline(self) -> dict:
        return {k: v["status"] for k, v in self.data["claims"].items()}

    @property
    def texts(self) -> dict:
        """{claim: :func:`~proofs_check.libmutation.worker.report_text` of its unmutated
        result} (claims of a map made before the fingerprints have none)."""
        return {k: v["text"] for k, v in self.data["claims"].items() if "text" in v}

    @property
    def shown(self) -> dict:
        """{claim: :func:`~proofs_check.libmutation.worker.shown` of its unmutated result}."""
        return {k: v["shown"] for k, v in self.data["claims"].items() if "shown" in v}

    def contexts(self, path: str, line: int, end_line: int | None = None) -> set:
        """The contexts executing ``path`` at ``line`` (to ``end_line``); a line executed at
        import time stands for every context executing any line of ``path``."""
        per = self._lines.get(path, {})
        idx: set = set()
        for ln in range(line, (end_line or line) + 1):
            idx.update(per.get(ln, ()))
        names = {self._ctx[i] for i in idx}
        if IMPORT in names or "" in names:
            names = {self._ctx[i] for v in per.values() for i in v}
        return names - {IMPORT, ""}

    def claims_for(self, path, line, end_line=None) -> list[str]:
        ctx = self.contexts(path, line, end_line)
        order = self.data["claims"]
        return sorted(
            (c[2:] for c in ctx if c.startswith("c:")),
            key=lambda c: (order.get(c, {}).get("seconds", 0.0), c),
        )

    def tests_for(self, path, line, end_line=None) -> list[str]:
        """The tests executing the line, quickest first (as timed in the mapping run): a mutant
        is run with ``pytest -x``, so the first failing test ends it, and a quick one that
        fails spares the slow ones."""
        ctx = self.contexts(path, line, end_line)
        took = self.data.get("tests", {})
        return sorted(
            (c[2:] for c in ctx if c.startswith("t:")), key=lambda t: (took.get(t, 0.0), t)
        )


# ------------------------------------------------------------------ collection (subprocess)
#: the process memos the three packages keep as module-level mappings (not ``functools``
#: caches): ``"module:name"``, each cleared with the ``functools`` caches before every claim.
#: A claim that found a result there (a self-concordance constant, a stochastic run, an
#: initialization setting, a compiled Arb template, a population-field table) executed none of
#: the lines that compute it, and a mutant there was not run against it although, in the
#: mutant's own process, it may be the first to compute it. ``tests/proofs_check/
#: test_libmutation.py`` fails on a module-level mapping listed neither here nor in
#: :data:`NOT_MEMOS`.
PROCESS_MEMOS = (
    "nbl_theory.expressions:_TEMPLATES",
    "nbl_theory.self_concordance:_CACHE",
    "nbl_sim.beyond.linkeval:_CACHE",
    "nbl_sim.population.fields:_CACHE",
    "nbl_sim.studies.regret_geometry:_SMOOTH_CACHE",
    "proofs_check.audit.numbering:_CACHE",
    "proofs_check.ledger.runner:_CACHE",
    "proofs_check.witnesses.experiments:_RUNS",
    "proofs_check.witnesses.experiments:_COMPARISONS",
    "proofs_check.witnesses.initialization:_SETTINGS",
)
#: module-level mappings and lists that are not memos of a computation, and why
NOT_MEMOS = {
    "nbl_sim.engine.jit_cache:_WAITING": "kernels defined before the cache was enabled",
    "nbl_sim.engine.pcg64:_AGREES": "a once-per-process self-check of the random streams "
    "(not mutated: a change is another seed)",
    "nbl_sim.runs.cache:_secrets": "the cache's signing keys per directory",
    "nbl_sim.runs.cache:_write_faults": "the cache write faults to report",
}


def _forget_memos(keep: str | None = None) -> int:
    """Clear every ``functools`` cache (``lru_cache``/``cache``) held at module level by a
    module of nbl_theory, nbl_sim or proofs_check but ``keep`` (``"module:function"``: the
    registry's preflight, computed once per process and turning every claim FAIL alike, so one
    claim executing it is enough), and every memo of :data:`PROCESS_MEMOS`; the number
    cleared."""
    kept = None
    if keep:
        module, name = keep.split(":")
        kept = getattr(sys.modules.get(module), name, None)
    n = 0
    for name, mod in list(sys.modules.items()):
        if name.split(".")[0] not in ("nbl_theory", "nbl_sim", "proofs_check"):
            continue
        for value in list(vars(mod).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and hasattr(value, "__wrapped__") and value is not kept:
                clear()
                n += 1
    for memo in PROCESS_MEMOS:
        module, name = memo.split(":")
        held = getattr(sys.modules.get(module), name, None)
        if held:
            held.clear()
            n += 1
    return n


def _claims_chunk(ids: list[str], quick: bool = False) -> dict:
    """In a fresh process: import the targets under ``import``, run each claim under its
    context (as a quick run runs it when ``quick``: a slow claim through its reduced gates,
    :meth:`~proofs_check.registry.Registry.run_quick`); {"claims": {...}, "lines": {path:
    {line: [context]}}}."""
    import coverage

    cov = coverage.Coverage(
        data_file=None, source_pkgs=["nbl_theory", "nbl_sim"], config_file=False
    )
    cov.start()
    cov.switch_context(IMPORT)
    import importlib

    for mod in target_modules():
        importlib.import_module(mod)
    from proofs_check.registry import REGISTRY

    claims = {c.id: c for c in REGISTRY.all_claims()}
    out, readers, computed = {}, {}, {}
    for i in ids:
        _forget_memos(REGISTRY.preflight)  # the claim's lines as if it ran first
        key = None
        if not quick:  # a quick run reads no plan's cells (a slow claim runs its reduced gates)
            key = _shared_cells(claims[i].check, cov, computed)
            if key:
                readers.setdefault(key, []).append(i)
        cov.switch_context("c:" + i)
        r = REGISTRY.run_quick(claims[i]) if quick else REGISTRY.run_one(claims[i])
        # a reader's seconds include the cells' (in a mutant's process, the first reader
        # computes them): what its time limit is drawn from (run.time_limit)
        seconds = r.seconds + computed.get(key, 0.0)
        out[i] = {
            "status": r.status,
            "seconds": round(seconds, 3),
            "text": report_text(r),
            "shown": shown(r)[:SHOWN_CHARS],
        }
        print(f"coverage: claim {i}: {r.status} ({r.seconds:.1f} s)", file=sys.stderr, flush=True)
    cov.stop()
    return {"claims": out, "lines": credit_readers(_lines_of(cov), readers)}


def _shared_cells(check, cov, computed: dict) -> str | None:
    """For a split check (:func:`~proofs_check.runner_tasks.split_check`) that a direct call
    runs through its cells with its own ``run`` (a cache the claims share): compute the cells
    under the context ``p:<plan key>`` unless this chunk did already (``computed``: {context:
    seconds the cells took}), and return that context; else None.

    Why: the claims of a chunk share its nbl cache directory, and the full study's cells
    (``toolkit_values.study_cells``) are read from there by every study claim after the first
    — which alone would have executed the lines computing them, and a mutant of those lines
    would run against it only, although the others read the mutated cells in its process.
    The plan's lines are credited to every claim that reads it (:func:`credit_readers`). A
    plan whose cells fail is credited to the claim, and computed again for the next reader."""
    shared = _shared_plan(check)
    if shared is None:
        return None
    ctx, plan = shared
    if ctx not in computed:
        cov.switch_context(ctx)
        t0 = time.perf_counter()
        try:
            check.run(plan)
            computed[ctx] = time.perf_counter() - t0
        except Exception:  # noqa: BLE001, S110 - the claim reports it; the next reader retries
            pass
    return ctx


def _shared_plan(check):
    """``("p:<plan key>", plan)`` for a split check that a direct call runs through its cells
    with its own ``run`` (a cache the claims may share); None for any other check (no cells,
    a ``direct`` stand-in, cells each claim computes itself, or cells without a key)."""
    from proofs_check.runner_tasks import cell_keys, is_split, plan_key

    if not is_split(check) or getattr(check, "direct", None) is not None:
        return None
    if getattr(check, "run", None) is None:
        return None
    plan = check.cells()
    key = plan_key(cell_keys(plan))
    return None if key is None else ("p:" + key, plan)


def credit_readers(lines: dict, readers: dict) -> dict:
    """``lines`` ({path: {line: [context]}}) with each plan context ``p:<key>`` replaced by
    the contexts ``c:<id>`` of the claims that read that plan's cells (``readers``: {context:
    [claim ids]}), so that a mutant of a line computing the cells runs against each of them.

    Example
    -------
    >>> credit_readers({"m.py": {"3": ["p:k", "c:a"]}}, {"p:k": ["b", "c"]})
    {'m.py': {'3': ['c:a', 'c:b', 'c:c']}}
    """
    out = {}
    for path, per in lines.items():
        out[path] = {}
        for ln, ctxs in per.items():
            new = set()
            for c in ctxs:
                new.update(["c:" + i for i in readers[c]] if c in readers else [c])
            out[path][ln] = sorted(new)
    return out


def _lines_of(cov) -> dict:
    data = cov.get_data()
    lines = {}
    for f in data.measured_files():
        try:
            rel = Path(f).resolve().relative_to(ROOT).as_posix()
        except ValueError:
            continue
        lines[rel] = {str(k): sorted(v) for k, v in data.contexts_by_lineno(f).items()}
    return lines


class _ContextPlugin:
    """pytest plugin: one coverage context per test (its node id)."""

    def __init__(self, cov):
        self.cov, self.seconds, self._t0 = cov, {}, 0.0

    def pytest_runtest_setup(self, item):
        self.cov.switch_context("t:" + item.nodeid)
        self._t0 = time.perf_counter()

    def pytest_runtest_teardown(self, item):
        self.seconds[item.nodeid] = round(time.perf_counter() - self._t0, 3)


def _tests_chunk(files: list[str]) -> dict:
    import coverage
    import pytest

    cov = coverage.Coverage(
        data_file=None, source_pkgs=["nbl_theory", "nbl_sim"], config_file=False
    )
    cov.start()
    cov.switch_context(IMPORT)
    plugin = _ContextPlugin(cov)
    rc = pytest.main(
        [
            *(str(ROOT / f) for f in files),
            "-q",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            "-m",
            "not slow",
            f"--rootdir={ROOT}",
            "-c",
            str(ROOT / "pyproject.toml"),
            "--no-header",
            "-p",
            "no:randomly",
        ],
        plugins=[plugin],
    )
    cov.stop()
    return {"tests": plugin.seconds, "lines": _lines_of(cov), "pytest_exit": int(rc)}


#: pytest's exit codes of a complete session: all passed, some failed, none collected
_COMPLETE_EXITS = (0, 1, 5)


def complete_part(part: dict, kind: str, n_items: int) -> dict:
    """``part`` if its session ran to the end, else a RuntimeError: a tests chunk whose pytest
    session was interrupted (exit 2, e.g. a stray SIGINT), crashed (3) or refused its arguments
    (4) mapped only the files before the stop, and a map missing the rest would call their
    mutants survivors.

    Parameters
    ----------
    part : dict
        A chunk's result (``pytest_exit`` for a tests chunk).
    kind : str
        ``"claims"`` or ``"tests"``.
    n_items : int
        The chunk's size (for the message).

    Returns
    -------
    dict
        ``part``.

    Raises
    ------
    RuntimeError
        A tests chunk whose pytest exit code is not one of a complete session.
    """
    code = part.get("pytest_exit", 0)
    if kind == "tests" and code not in _COMPLETE_EXITS:
        raise RuntimeError(
            f"coverage chunk (tests, {n_items} files): pytest stopped early (exit {code}); "
            "the map would miss the files after the stop"
        )
    return part


def _run_chunk(task) -> dict:
    """Executor task: one chunk in a fresh subprocess (empty NBL_CACHE_DIR but for the
    unmutated kernels, cwd a temp dir); a tests chunk whose session stopped early is run once
    more (:func:`complete_part`). ``task`` is ``(kind, items)`` or ``(kind, items, shared)``,
    ``shared`` {"kernels": a directory of the run where the first chunk to finish keeps the
    numba kernels it compiled and later chunks find them (:func:`~proofs_check.libmutation.
    targets.seed_kernels`), "pycache": the run's bytecode directory}: compiled kernels and
    bytecode are the library's code, not a cached result, and every chunk compiling the
    kernels again under coverage tracing cost ~20 s of its worker each."""
    kind, items, shared = (*task, None)[:3]
    try:
        return complete_part(_run_chunk_once(kind, items, shared), kind, len(items))
    except RuntimeError:
        return complete_part(_run_chunk_once(kind, items, shared), kind, len(items))


def _run_chunk_once(kind: str, items: list, shared=None) -> dict:
    """One run of a chunk in a fresh subprocess; its result as it wrote it."""
    shared = shared or {}
    kernels = shared.get("kernels")
    with tempfile.TemporaryDirectory(prefix="nbl-libmut-cov-") as tmp:
        cache = Path(tmp) / "cache"
        seed_kernels(kernels, cache)
        env = subprocess_env(pycache=shared.get("pycache"), NBL_CACHE_DIR=str(cache))
        out = Path(tmp) / "out.json"
        spec = Path(tmp) / "in.json"
        spec.write_text(json.dumps({"kind": kind, "items": items, "out": str(out)}))
        proc = subprocess.run(
            [sys.executable, "-m", "proofs_check.libmutation.coverage_map", str(spec)],
            cwd=tmp,
            env=env,
            stdin=subprocess.DEVNULL,
            preexec_fn=child_setup,
        )
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(
                f"coverage chunk ({kind}, {len(items)} items) exited {proc.returncode}"
            )
        keep_kernels(cache, kernels)
        return json.loads(out.read_text())


def child_setup():  # pragma: no cover - runs in the child after fork
    """A mutant's or collector's process: SIGINT at its default and not blocked (a pool worker
    ignores it and starts with it blocked, nbl_sim.runs.execution, and the child would inherit
    both: a blocked SIGINT stayed pending in the chunk's pytest, was delivered tests later and
    interrupted the session), and killed when its parent dies (Linux)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def test_files() -> list[str]:
    """The test files mapped (relative to :data:`ROOT`; none outside a source checkout)."""
    out = []
    for d in TEST_DIRS:
        out += sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / d).rglob("test_*.py"))
    return out


def _imported(node) -> set:
    """The dotted names an import statement may bind a module under (``from a.b import c``:
    ``a.b`` and ``a.b.c``)."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names}
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return set()


def _unit_imports(tree) -> list:
    """(test function name, or None for anything else at module level, and the dotted names
    its statements import) per top-level unit of a test file (a class's methods one by one)."""
    out = []
    for node in tree.body:
        units = [node]
        if isinstance(node, ast.ClassDef):
            units = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for unit in units:
            names = set().union(*(_imported(n) for n in ast.walk(unit)))
            is_test = isinstance(unit, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                unit.name.startswith("test")
            )
            out.append((unit.name if is_test else None, names))
    return out


def _who_imports(units: list, module: str):
    names: set = set()
    for name, imported in units:
        if module in imported:
            if name is None:
                return None
            names.add(name)
    return names


def importing_tests(source, module: str):
    """Which tests of a test file import ``module`` by name: ``None`` when every test may read
    it (an import at module level, or in a helper or fixture), else the names of the test
    functions whose bodies import it (empty: none does).

    Why: a test that only *reads* a module-level value (a dataclass default, a constant)
    executes no line of the module, so coverage.py cannot credit it; :func:`collect` credits
    such tests to the module's import-time lines from this static scan, so a mutant of the
    value still runs against them (an over-approximation: it only runs more tests).
    ``source`` is the file's text or its parsed :class:`ast.Module`."""
    tree = ast.parse(source) if isinstance(source, str) else source
    return _who_imports(_unit_imports(tree), module)


def _credit_importers(lines: dict, tests: dict) -> None:
    """Add to each target module's line 0 (a pseudo line, read only with its import-time
    lines: :meth:`CoverageMap.contexts`) the tests that import it by name
    (:func:`importing_tests`), and to every line of its jitted functions: a test that calls a
    kernel itself runs no library line naming it, so :func:`jit_lines` cannot credit it
    (``environment_passes:115``, the clip of a −0.0 mean, survived the harness though
    ``tests/sim/test_pcg64.py`` kills it)."""
    units = {f: _unit_imports(ast.parse((ROOT / f).read_text())) for f in test_files()}
    by_file: dict = {}
    for nodeid in tests:
        by_file.setdefault(nodeid.split("::", 1)[0], []).append(nodeid)
    for module in target_modules():
        path = module_path(module)
        kernels = jitted_functions((ROOT / path).read_text()).values()
        for f, per in units.items():
            who = _who_imports(per, module)
            if who is not None and not who:
                continue
            for nodeid in by_file.get(f, ()):
                func = nodeid.split("::")[-1].split("[", 1)[0]
                if who is None or func in who:
                    per_line = lines.setdefault(path, {})
                    per_line.setdefault("0", set()).add("t:" + nodeid)
                    for lo, hi in kernels:
                        for ln in range(lo, hi + 1):
                            per_line.setdefault(str(ln), set()).add("t:" + nodeid)


def _chunks(items: list, n: int) -> list[list]:
    return [items[i::n] for i in range(n) if items[i::n]]


def _claim_chunks(claims: list, n: int, quick: bool) -> list[list[str]]:
    """The claims' ids in ``n`` chunks, round robin; in a full map the claims that read the
    cells of one plan (:func:`_shared_cells`: the study claims) go into one chunk together, so
    that the cells are computed once and credited to all of them."""
    units: dict = {}
    for c in claims:
        shared = None if quick else _shared_plan(c.check)
        units.setdefault(c.id if shared is None else shared[0], []).append(c.id)
    return [sum(u, []) for u in _chunks(list(units.values()), n)]


def collect(
    quick: bool = True,
    tests: bool = True,
    executor=None,
    chunks: int = 4,
    progress=None,
    resume: Path | None = None,
    kernels=None,
    pycache=None,
) -> dict:
    """Collect the coverage map (see the module docstring): the claims (only the quick ones
    when ``quick``) and, with ``tests``, the library's tests, on ``executor`` (serial when
    None), in ``chunks`` chunks of each, the claims' first. With ``resume`` (a path prefix),
    each finished chunk is kept as ``<resume>-<n>.json`` and not run again. ``kernels``: a
    directory where the chunks share the unmutated numba kernels; ``pycache``: the run's
    bytecode directory (:func:`_run_chunk`).

    Why four chunks of each on two workers: each chunk is a process of its own (imports, the
    kernels loaded), ~10 s, but a pool ends when its last chunk does. In two chunks of each the
    quick map took 11.4 min, ~1.7 min past half its work (the claims' halves held 310 and 374 s
    of claims, the tests' 142 and 269 s); smaller chunks, the heavier claims' handed out first,
    leave less to the last one. Measured: four of each took 11.85 min while every chunk still
    compiled the kernels under coverage, 10.67 min once they shared them (docs/mutation.md) —
    the four chunks alone were not a gain until then."""
    from nbl_sim.runs.execution import SerialExecutor
    from proofs_check.registry import REGISTRY

    claims = [
        c
        for c in REGISTRY.all_claims()
        if c.method != "not-checked" and (c.quick or c.reduced is not None or not quick)
    ]
    kind = "quick-claims" if quick else "claims"
    tasks = [(kind, ch) for ch in _claim_chunks(claims, chunks, quick)]
    if tests:
        tasks += [("tests", ch) for ch in _chunks(test_files(), chunks)]
    if kernels is not None or pycache is not None:
        shared = {"kernels": kernels and str(kernels), "pycache": pycache and str(pycache)}
        tasks = [(*t, shared) for t in tasks]
    merged: dict = {"claims": {}, "tests": {}, "lines": {}}
    ex = executor or SerialExecutor()
    parts, todo = [], []
    for n, t in enumerate(tasks):
        kept = None if resume is None else Path(f"{resume}-{n}.json")
        if kept is not None and kept.exists():
            parts.append(json.loads(kept.read_text()))
        else:
            todo.append((n, t))
    for k, part in ex.run(_run_chunk, [t for _, t in todo]):
        if not isinstance(part, dict):
            raise RuntimeError(f"coverage collection failed: {part}")
        if resume is not None:
            _atomic_json(Path(f"{resume}-{todo[k][0]}.json"), part)
        parts.append(part)
        if progress:
            progress(len(parts), len(tasks))
    for part in parts:
        merged["claims"].update(part.get("claims", {}))
        merged["tests"].update(part.get("tests", {}))
        for path, per in part["lines"].items():
            dst = merged["lines"].setdefault(path, {})
            for ln, ctx in per.items():
                dst.setdefault(ln, set()).update(ctx)
    # the jitted functions' lines, credited from the lines naming them
    sources = {p: (ROOT / p).read_text() for p in merged["lines"]}
    sources.update({p: (ROOT / p).read_text() for p in target_paths()})
    measured = {p: {int(k): v for k, v in d.items()} for p, d in merged["lines"].items()}
    for path, per in jit_lines(sources, measured).items():
        dst = merged["lines"].setdefault(path, {})
        for ln, ctx in per.items():
            if ctx:
                dst.setdefault(str(ln), set()).update(ctx)
    if tests:
        _credit_importers(merged["lines"], merged["tests"])
    contexts = sorted({c for per in merged["lines"].values() for v in per.values() for c in v})
    index = {c: i for i, c in enumerate(contexts)}
    lines = {
        p: {
            ln: sorted(index[c] for c in v)
            for ln, v in sorted(per.items(), key=lambda x: int(x[0]))
        }
        for p, per in sorted(merged["lines"].items())
    }
    return {
        "schema": 2,
        "mode": "quick" if quick else "full",
        "tests_mapped": bool(tests),
        "claims": merged["claims"],
        "tests": merged["tests"],
        "contexts": contexts,
        "lines": lines,
    }


def cache_path(key: str, quick: bool, tests: bool) -> Path:
    from nbl_sim.runs.cache import default_cache_dir, private_dir

    d = private_dir(default_cache_dir() / "libmutation")
    return d / f"coverage-{'quick' if quick else 'full'}{'-tests' if tests else ''}-{key[:24]}.json"


def load_or_collect(
    quick: bool = True,
    tests: bool = True,
    executor=None,
    progress=None,
    refresh: bool = False,
    kernels=None,
    pycache=None,
) -> CoverageMap:
    """The cached coverage map for the current sources, collected (and cached) if missing
    (without ``tests``, a cached map that has the tests too serves); ``kernels``, ``pycache``:
    where the collecting chunks share the unmutated numba kernels and bytecode
    (:func:`collect`)."""
    if not tests and not refresh:
        wider = source_key(f"quick={quick};tests=True")
        path = cache_path(wider, quick, True)
        if path.exists():
            data = json.loads(path.read_text())
            if data.get("key") == wider:
                return CoverageMap(data)
    key = source_key(f"quick={quick};tests={tests}")
    path = cache_path(key, quick, tests)
    if path.exists() and not refresh:
        data = json.loads(path.read_text())
        if data.get("key") == key:
            return CoverageMap(data)
    resume = path.with_name(path.stem + "-chunk")
    data = collect(
        quick=quick,
        tests=tests,
        executor=executor,
        progress=progress,
        resume=resume,
        kernels=kernels,
        pycache=pycache,
    )
    data["key"] = key
    _atomic_json(path, data)
    for kept in path.parent.glob(resume.name + "-*.json"):
        kept.unlink()
    return CoverageMap(data)


def _atomic_json(path: Path, data) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)


def _main(argv) -> int:  # pragma: no cover - the collector's subprocess
    spec = json.loads(Path(argv[0]).read_text())
    if spec["kind"] == "tests":
        res = _tests_chunk(spec["items"])
    else:
        res = _claims_chunk(spec["items"], quick=spec["kind"] == "quick-claims")
    Path(spec["out"]).write_text(json.dumps(res))
    return 0


if __name__ == "__main__":  # pragma: no cover
    from proofs_check.process_end import run_then_end

    # ~1 s less per process: no freeing of every object at exit (the results are written)
    run_then_end(_main, sys.argv[1:])
