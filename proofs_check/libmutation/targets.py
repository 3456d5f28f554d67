"""The library modules that compute a quantity of the paper: the ones mutated.

Left out, with the reason (:data:`EXCLUDED`): the paper's own printed values (mutating them is
the comparison side, which the claims' registered mutants already perturb), the expression
parser and input validation (what a link *is*, not what it implies), the machinery (caches,
sweeps, executors, output files, the random streams and the LLVM IR kernels, whose sources are
strings), the figures and tables, and ``nbl_sim.beyond`` (beyond the paper: no claim judges the
paper by it).
"""

from __future__ import annotations

import ast
import os
import shutil
from functools import cache
from pathlib import Path

__all__ = [
    "ROOT",
    "subprocess_env",
    "seed_kernels",
    "keep_kernels",
    "TARGETS",
    "EXCLUDED",
    "target_modules",
    "target_paths",
    "module_path",
    "numba_sensitive",
    "jitted_functions",
    "named_lines",
    "executed_span",
]

#: the project root (the directory holding the packages, and tests/ in a source checkout)
ROOT = Path(__file__).resolve().parents[2]


def subprocess_env(pycache: str | None = None, **extra) -> dict:
    """The environment of a collector's or a mutant's subprocess: this process's, with
    :data:`ROOT` first on ``PYTHONPATH`` (so the subprocess imports the sources this harness
    maps and mutates — a worktree's, not whatever checkout is installed) and ``extra``.

    Bytecode never lands in the work tree: with ``pycache`` (a directory outside it, one per
    run) the subprocess writes and reads the compiled modules there (``PYTHONPYCACHEPREFIX``;
    a mutated module is compiled by the worker's import hook and has none), so a run's later
    mutants do not compile the unmutated library and re-rewrite the tests' assertions again;
    without it nothing is written (``PYTHONDONTWRITEBYTECODE``).

    Every automatically chosen executor of the subprocess runs in-process
    (``NBL_IN_PROCESS=1``, :data:`nbl_sim.runs.execution.IN_PROCESS_ENV`): a spawned pool
    worker, or a Dask worker named by ``$NBL_DASK_SCHEDULER``, imports the library from disk —
    a mutant's cells would be computed by the unmutated code, and the map's tracer would not
    see them."""
    from nbl_sim.runs.execution import IN_PROCESS_ENV

    path = os.environ.get("PYTHONPATH", "")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + (os.pathsep + path if path else ""))
    env[IN_PROCESS_ENV] = "1"
    env.update(extra)
    if pycache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def seed_kernels(warm, cache_dir) -> bool:
    """Give a subprocess's empty nbl cache directory ``cache_dir`` the compiled kernels of the
    unmutated library kept in ``warm`` (a directory of the run, outside the work tree; None:
    nothing). numba's kernels live in the nbl cache (:func:`nbl_sim.engine.jit_cache.
    numba_cache_dir`: ``<cache>/numba/<digest of the sources on disk>``), so a mutant process,
    whose nbl cache is empty so that no cached claim result stands in for a computation,
    would otherwise compile every kernel again (~1 min) on its first compiled run. Only for a
    mutant that cannot change compiled code (not :func:`numba_sensitive`): its kernels *are*
    the unmutated library's. Returns whether kernels were copied."""
    if warm is None or not (Path(warm) / "numba").is_dir():
        return False
    cache_dir = Path(cache_dir)
    cache_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    shutil.copytree(Path(warm) / "numba", cache_dir / "numba", dirs_exist_ok=True)
    return True


def keep_kernels(cache_dir, warm) -> bool:
    """After a subprocess that cannot change compiled code ended normally, keep the kernels it
    compiled in its nbl cache ``cache_dir`` as the run's ``warm`` copy (:func:`seed_kernels`),
    unless one is kept already: copied beside it, then renamed into place, so a concurrent
    worker sees all of a copy or none. Returns whether this call kept them."""
    src = Path(cache_dir) / "numba"
    if warm is None or (Path(warm) / "numba").exists() or not src.is_dir():
        return False
    if not any(p.is_file() for p in src.rglob("*")):
        return False
    part = Path(warm) / f"numba.part-{os.getpid()}"
    shutil.copytree(src, part, dirs_exist_ok=True)
    try:
        os.rename(part, Path(warm) / "numba")
    except OSError:  # another worker's copy came first
        shutil.rmtree(part, ignore_errors=True)
        return False
    return True


#: the mutated modules, by layer
TARGETS = (
    "nbl_theory.results",
    "nbl_theory.stability",
    "nbl_theory.gaussian",
    "nbl_theory.numeric",
    "nbl_theory.certified",
    "nbl_theory.arb_eval",
    "nbl_theory.arb_interval",
    "nbl_theory.threshold",
    "nbl_theory.continuation",
    "nbl_theory.self_concordance",
    "nbl_theory.elicitation",
    "nbl_theory.derivatives",
    "nbl_theory.links",
    "nbl_theory.link_numeric",
    "nbl_theory.families",
    "nbl_theory.float_families",
    "nbl_sim.population.fields",
    "nbl_sim.population.population_table",
    "nbl_sim.population.circle",
    "nbl_sim.engine.geometry",
    "nbl_sim.engine.metrics",
    "nbl_sim.studies.rate_theory",
    "nbl_sim.studies.rate_study",
    "nbl_sim.studies.rate_analysis",
    "nbl_sim.studies.regret_geometry",
    "nbl_sim.studies.phase",
    "nbl_sim.studies.experiment",
    "nbl_sim.engine.environment",
    "nbl_sim.engine.environment_passes",
    "nbl_sim.engine.realization",
    "nbl_sim.engine.nbl_kernel",
    "nbl_sim.engine.greedy_kernel",
    "nbl_sim.engine.reference",
)

#: modules not mutated, and why
EXCLUDED = {
    "nbl_theory.paper": "the paper's printed values: the comparison side (claims' mutants)",
    "nbl_theory.expressions": "the whitelisted expression parser (input, not a quantity)",
    "nbl_theory.link_input": "input parsing",
    "nbl_theory.link_source": "input recipes",
    "nbl_theory.link_checks": "input checks (is the link increasing)",
    "nbl_theory.validation": "input validation",
    "nbl_theory.errors": "exception types",
    "nbl_sim.runs.cache": "machinery",
    "nbl_sim.runs.sweep": "machinery",
    "nbl_sim.runs.execution": "machinery",
    "nbl_sim.runs.outputs": "machinery",
    "nbl_sim.runs.plain_data": "machinery",
    "nbl_sim.engine.buffers": "machinery",
    "nbl_sim.engine.jit_cache": "machinery",
    "nbl_sim.engine.pcg64": "random streams (a change is a different seed, not a wrong quantity)",
    "nbl_sim.engine.llvm_ops": "LLVM IR in strings",
    "nbl_sim.presentation": "figures and tables",
    "nbl_sim.beyond": "beyond the paper",
}


def jitted_functions(source: str) -> dict[str, tuple[int, int]]:
    """{name: (first line, last line)} of the functions of ``source`` decorated with numba's
    ``njit``/``jit`` (called or not)."""
    out = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list:
                f = d.func if isinstance(d, ast.Call) else d
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in ("njit", "jit"):
                    out[node.name] = (node.lineno, node.end_lineno)
    return out


def named_lines(source: str) -> dict[int, set]:
    """{line: names loaded on it} (``Name`` ids and ``Attribute`` attributes)."""
    out: dict[int, set] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            out.setdefault(node.lineno, set()).add(node.id)
        elif isinstance(node, ast.Attribute):
            out.setdefault(node.lineno, set()).add(node.attr)
    return out


def executed_span(source: str, line: int, col: int, end_line: int) -> tuple[int, int]:
    """The lines whose execution a mutant at (``line``, ``col``) .. ``end_line`` of ``source``
    can change: the lines themselves, except for a mutant inside a function's default argument
    values — evaluated once, at import, where coverage sees every context of the module — for
    which it is the function's body, run by the callers that may use the default."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            defaults = [*node.args.defaults, *(k for k in node.args.kw_defaults if k is not None)]
            for default in defaults:
                for sub in ast.walk(default):
                    if (getattr(sub, "lineno", None), getattr(sub, "col_offset", None)) == (
                        line,
                        col,
                    ):
                        body = node.body if isinstance(node.body, list) else [node.body]
                        return body[0].lineno, node.end_lineno
    return line, end_line


def module_path(module: str) -> str:
    """``nbl_sim.engine.nbl_kernel`` -> ``nbl_sim/engine/nbl_kernel.py`` (relative to the root)."""
    return module.replace(".", "/") + ".py"


def target_modules() -> tuple[str, ...]:
    return TARGETS


def target_paths() -> list[str]:
    return [module_path(m) for m in TARGETS]


@cache
def _names_from(path: str, module: str) -> frozenset:
    """The names under which ``path`` binds ``module`` or what it imports from it."""
    tree = ast.parse((ROOT / path).read_text())
    pkg = path.rsplit("/", 1)[0].replace("/", ".")
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = pkg.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            for a in node.names:
                if base == module or f"{base}.{a.name}" == module:
                    out.add(a.asname or a.name)
        elif isinstance(node, ast.Import):
            out.update(a.asname or a.name for a in node.names if a.name == module)
    return frozenset(out)


@cache
def _jitted_names(path: str) -> frozenset:
    """The names read inside the numba-jitted functions of ``path``."""
    src = (ROOT / path).read_text()
    names = named_lines(src)
    out = set()
    for lo, hi in jitted_functions(src).values():
        for ln in range(lo, hi + 1):
            out.update(names.get(ln, ()))
    return frozenset(out)


@cache
def numba_sensitive(module: str) -> bool:
    """Whether a mutant of ``module`` can change compiled code: the module imports numba, or a
    jitted function of a module that does reads a name it imports from ``module`` (a jitted
    function freezes the globals it reads when it compiles). Such a mutant runs with an empty
    nbl cache and no kept kernels (:func:`seed_kernels`), so every kernel is compiled from the
    mutated source — never a cached kernel of the original; any other mutant's kernels are
    the original's, so it is given the run's copy of them. A kernel reads other modules'
    values only as arguments or as these imported names
    (``tests/proofs_check/test_libmutation.py`` checks which modules the compiled ones import
    from)."""
    from nbl_sim.engine.jit_cache import compiled_sources

    compiled = [p.relative_to(ROOT).as_posix() for p in compiled_sources()]
    path = module_path(module)
    if path in compiled:
        return True
    return any(_names_from(p, module) & _jitted_names(p) for p in compiled)
