"""Independence checked, not promised: what each witness shares with the library, which claims
can judge the paper, and the generated table of docs/witnesses.md.

docs/architecture.md, "Statuses and the two computations": a witness computes a quantity of the
paper without calling the library's computation of it. What a witness module may import from
the library is declared here, import by import (:data:`WITNESS_IMPORTS`), as

``shared``
    infrastructure or data that is not the quantity witnessed: the paper's printed parameters,
    Gauss–Legendre node arithmetic, a sympy symbol, the realization of contexts and rewards
    (common random numbers), a link's expression parsed by ``nbl_theory.Link``;
``dependent``
    the library's computation of a quantity the witness is used for (a known gap: the table
    says so for every claim that uses the witness, until the witness is rewritten);
``compared``
    the library run only to report its difference from the witness's own result (the library
    side of the comparison, never an input of the witness's value).

tests/proofs_check/test_independence.py reads every witness module's imports (AST, including
imports inside functions) and fails on an import that is not declared; it also checks the
claims' ``witness=`` declarations against what their check functions reference, the
declare-only rule for claim modules (:data:`DECLARE_ONLY`), and that docs/witnesses.md is
:func:`render_table`'s output (``python -m proofs_check.independence --write`` regenerates it).
"""

from __future__ import annotations

import argparse
import ast
import dis
import importlib
import inspect
import textwrap
import types
from pathlib import Path

__all__ = [
    "WITNESS_IMPORTS",
    "DECLARE_ONLY",
    "LIBRARY",
    "library_imports",
    "check_names",
    "can_return",
    "declared_witnesses",
    "witness_dependencies",
    "library_in_verdict",
    "render_table",
    "TABLE_PATH",
    "main",
]

#: The library packages (a witness's import of them is declared in WITNESS_IMPORTS).
LIBRARY = ("nbl_theory", "nbl_sim")

_PAPER = ("shared", "the paper's printed link parameters and settings (data)")
_NODES = ("shared", "Gauss-Legendre node arithmetic and the constant phi0(0)")
_ENV = (
    "shared",
    "the realization: contexts and rewards drawn by nbl_sim.engine.environment "
    "(common random numbers; the draw is judged against the witness's own before any "
    "verdict, witnesses.shared_inputs), and the link object",
)
_SCALE = (
    "shared",
    "the field scale S = max(1, E|g(s)|(1 + |s|)) that tolerances are "
    "relative to (nbl_sim.population.fields.quadrature_scale), not a verdict "
    "quantity",
)
_TOOLKIT = (
    "dependent",
    "the library's value, not a witness (proofs_check.witnesses.toolkit_values)",
)

#: witness module -> {"module:name" imported from the library (or toolkit_values): (kind, what)}
WITNESS_IMPORTS: dict = {
    "beyond": {
        "nbl_theory.numeric:PHI0": _NODES,
        "nbl_theory.numeric:gauss_legendre_panels": _NODES,
        "nbl_theory.paper:PAPER_LINKS": _PAPER,
    },
    "concordance": {"nbl_theory.elicitation:M": ("shared", "the sympy symbol m")},
    "concentration": {},
    "direct_definitions": {"nbl_theory.numeric:gauss_legendre_panels": _NODES},
    "disagreement": {
        "nbl_theory.numeric:PHI0": _NODES,
        "nbl_theory.numeric:gauss_legendre_panels": _NODES,
        "nbl_theory.numeric:gauss_legendre_uniform": _NODES,
    },
    "experiments": {
        "nbl_sim.engine:": (
            "compared",
            "the library's reference backend (draw, NBL, Greedy Logistic, regret) of the "
            "comparison runs' first replications, judged against the witness's re-run",
        ),
        "nbl_sim.engine.environment:Environment": _ENV,
        "nbl_sim.runs.execution:SerialExecutor": ("shared", "serial execution"),
        "nbl_sim.studies.experiment:simulate": (
            "dependent",
            "the toolkit's simulator (the paper's experiments re-run "
            "with the library's policies and regret)",
        ),
        "nbl_theory.paper:COMPARISON_SETTING": _PAPER,
        "nbl_theory.paper:STOCHASTIC_SETTING": _PAPER,
        "nbl_theory.paper:paper_link": ("shared", "the paper's link parsed by nbl_theory.Link"),
    },
    "fields": {"nbl_theory.numeric:PHI0": _NODES},
    "gaussian": {
        "nbl_theory.numeric:PHI0": _NODES,
        "nbl_theory.numeric:gauss_legendre_panels": _NODES,
        "nbl_theory.numeric:gauss_legendre_uniform": _NODES,
    },
    "geometry": {
        "nbl_sim.population:fields": (
            "shared",
            "the arm vectors beta_a = theta + a(Delta/2)v* (pop.arm_vectors)",
        )
    },
    "initialization": {
        "nbl_sim.engine.environment:Environment": _ENV,
        "nbl_theory.paper:paper_link": ("shared", "the paper's link parsed by nbl_theory.Link"),
    },
    "lambda0": {"nbl_sim.engine.environment:Environment": _ENV},
    "lambda_star": {"nbl_theory.paper:PAPER_LINKS": _PAPER},
    "links": {"nbl_theory.numeric:PHI0": _NODES, "nbl_theory.paper:PAPER_LINKS": _PAPER},
    "local_jacobian": {"nbl_theory.numeric:PHI0": _NODES},
    "local_expansions": {
        "nbl_sim.population:fields": (
            "compared",
            "the library's population field F along the paths "
            "(jacobian_steps: the library side of the comparison)",
        ),
        "nbl_theory.numeric:PHI0": _NODES,
        "nbl_theory.paper:PAPER_LINKS": _PAPER,
        "toolkit_values:field_scale": _SCALE,
        "toolkit_values:float_values": (
            "compared",
            "the library's stability values, carried beside the "
            "witness's 2-D moments for the claims' library "
            "comparison (PaperCase.st)",
        ),
    },
    "martingale": {
        "nbl_sim.engine.environment:Environment": _ENV,
        "nbl_sim.population.population_table:FieldTable": (
            "dependent",
            "the library's population field F (the statistics test "
            "the martingale property given F)",
        ),
        "nbl_theory.paper:PAPER_LINKS": _PAPER,
    },
    "polar_field": {},
    "paths": {
        "nbl_sim.engine.environment:Environment": _ENV,
        "nbl_sim.engine.nbl_kernel:nbl_run": (
            "compared",
            "the library's NBL run: run_paths reports its difference from "
            "the re-run (kernel_errors and the long-horizon runners use it as "
            "the toolkit's simulation)",
        ),
        "nbl_sim.engine.reference:nbl": (
            "compared",
            "the library's reference backend of the NBL run (the definition of its "
            "numbers of record): run_paths reports the larger difference of the two "
            "backends from the re-run",
        ),
    },
    "population": {
        "nbl_sim.engine.environment:Environment": _ENV,
        "nbl_sim.population:fields": (
            "compared",
            "the library's population field F, h and H(alpha): the "
            "library side of the comparisons, and the target of the "
            "Monte Carlo means of conditional_field_z",
        ),
        "nbl_theory.paper:PAPER_LINKS": _PAPER,
        "toolkit_values:field_scale": _SCALE,
    },
    "potentials": {
        "nbl_theory:elicitation": (
            "shared",
            "the sympy symbols, the Bregman table as transcribed and phi_rho",
        )
    },
    "printed": {"nbl_theory.paper:PAPER_LINKS": _PAPER},
    "regret": {},
    "study_constants": {},
    "regret_bound": {
        "nbl_theory.paper:COMPARISON_SETTING": _PAPER,
        "nbl_theory.paper:paper_link": ("shared", "the paper's link parsed by nbl_theory.Link"),
    },
    "realization": {},
    "repairs": {},
    "sa_recursion": {},
    "shared_inputs": {
        "nbl_sim.engine.environment:Environment": (
            "compared",
            "the library's compiled draw of a realization, judged against the witness's own "
            "draw (witnesses.realization) before any verdict",
        ),
        "nbl_sim.engine.reference:draw": (
            "compared",
            "the library's reference draw of a realization, judged against the witness's own "
            "draw before any verdict",
        ),
        "nbl_theory.numeric:PHI0": (
            "compared",
            "phi0(0), judged against 1/sqrt(2 pi) at 30 digits before any verdict",
        ),
        "nbl_theory.numeric:gauss_legendre_panels": (
            "compared",
            "the Gauss-Legendre rules, judged on closed-form integrals",
        ),
        "nbl_theory.numeric:gauss_legendre_uniform": (
            "compared",
            "the Gauss-Legendre rules, judged on closed-form integrals",
        ),
        "nbl_theory.paper:PAPER_LINKS": _PAPER,
        "nbl_theory.paper:paper_link": (
            "compared",
            "the library's paper links, judged against their written-out definitions",
        ),
    },
    "reruns": {
        "nbl_sim.engine.environment:Environment": _ENV,
        "nbl_theory.paper:COMPARISON_SETTING": _PAPER,
        "nbl_theory.paper:STOCHASTIC_SETTING": _PAPER,
    },
    "stats": {},
    "stein": {},
    "step_sizes": {},
    "study_analysis": {},
    "study_reruns": {
        "nbl_sim.engine.environment:Environment": _ENV,
        "nbl_theory.paper:paper_link": ("shared", "the paper's link parsed by nbl_theory.Link"),
    },
    "subgaussian": {"nbl_theory.numeric:gauss_legendre_uniform": _NODES},
    "weighted_entropy": {},
}

#: Claim modules that only declare (tests/proofs_check/test_independence.py): no import of a
#: numerical library (math, numpy, scipy, mpmath, flint), and no arithmetic whose operand is a
#: call result or an attribute of one outside f-strings (presentation) and outside the
#: ``holds=`` predicate of :func:`proofs_check.judgement.judge` (the paper's statement).
DECLARE_ONLY = (
    "proofs_check/claims/assumptions.py",
    "proofs_check/claims/beyond.py",
    "proofs_check/claims/decision_stability.py",
    "proofs_check/claims/elicitation.py",
    "proofs_check/claims/ledger.py",
    "proofs_check/claims/nbl/broken_witnesses.py",
    "proofs_check/claims/nbl/library_side.py",
    "proofs_check/claims/nbl/local_jacobian.py",
    "proofs_check/claims/nbl/local_stability.py",
    "proofs_check/claims/nbl/population.py",
    "proofs_check/claims/numerics/experiments.py",
    "proofs_check/claims/numerics/link_geometry.py",
    "proofs_check/claims/numerics/two_transition.py",
    "proofs_check/claims/numerics/weighted_entropy.py",
    "proofs_check/claims/regret/concentration.py",
    "proofs_check/claims/regret/error_to_regret.py",
    "proofs_check/claims/regret/estimation.py",
    "proofs_check/claims/regret/init_bound.py",
    "proofs_check/claims/regret/localization.py",
    "proofs_check/claims/regret/recursion.py",
    "proofs_check/claims/regret/study.py",
    "proofs_check/claims/repairs.py",
    "proofs_check/claims/setup.py",
    "proofs_check/claims/stein/identities.py",
    "proofs_check/claims/stein/initialization.py",
)

#: Where the generated table lives (relative to the repository root).
TABLE_PATH = "docs/witnesses.md"


def library_imports(path: Path) -> list:
    """Every ``"module:name"`` a witness module imports from the library (and from
    ``toolkit_values``, as ``"toolkit_values:name"``), top level or inside functions.

    Parameters
    ----------
    path : pathlib.Path
        A witness module's source file.

    Returns
    -------
    list of str
        ``"module:name"`` per imported name (``"module:"`` for ``import module``).
    """
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.level == 0 and node.module.split(".")[0] in LIBRARY:
                out += [f"{node.module}:{a.name}" for a in node.names]
            elif node.level > 0 and node.module.split(".")[-1] == "toolkit_values":
                out += [f"toolkit_values:{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            out += [f"{a.name}:" for a in node.names if a.name.split(".")[0] in LIBRARY]
    return out


def _code_names(code: types.CodeType) -> set:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def check_names(fn) -> tuple:
    """(names, modules): the global names a check function uses, following the functions of its
    own module and of the claims' shared helper modules that it calls (transitively), and the
    modules those names resolve to.

    Parameters
    ----------
    fn : callable
        A check function (decorators unwrapped).

    Returns
    -------
    names : set of str
        The global names used.
    modules : set of str
        The dotted names of the modules they resolve to.
    """
    seen, names, modules = set(), set(), set()
    todo = [fn]
    while todo:
        f = inspect.unwrap(todo.pop())
        if not isinstance(f, types.FunctionType) or f.__code__ in seen:
            continue
        seen.add(f.__code__)
        for n in _code_names(f.__code__):
            names.add(n)
            obj = f.__globals__.get(n)
            if isinstance(obj, types.ModuleType):
                modules.add(obj.__name__)
            elif callable(obj) and isinstance(getattr(obj, "__module__", None), str):
                inner = inspect.unwrap(obj) if hasattr(obj, "__wrapped__") else obj
                if isinstance(inner, types.FunctionType) and _followed(inner.__module__, fn):
                    todo.append(inner)  # (a cached helper is followed like any other)
                elif obj.__module__ != fn.__module__:  # functions, cached ones, classes
                    modules.add(obj.__module__)
        for cell in f.__closure__ or ():
            try:
                val = cell.cell_contents
            except ValueError:
                continue
            if isinstance(val, types.FunctionType) and val.__module__ == fn.__module__:
                todo.append(val)
    return names, modules


def _followed(module: str, fn) -> bool:
    """Whether :func:`check_names` reads into a function of ``module``: the check's own module
    and the claims' shared helper modules (e.g. ``claims.nbl.library_side``)."""
    return module == fn.__module__ or module.startswith("proofs_check.claims.")


def can_return(claim) -> set:
    """The verdicts about the paper the claim's check can return, read from its code:
    ``DISCREPANCY`` / ``CAVEAT`` when it names them, or calls the judgement (which may).

    Parameters
    ----------
    claim : Claim
        A registered claim.

    Returns
    -------
    set of str
        A subset of {"DISCREPANCY", "CAVEAT"}.
    """
    names, _ = check_names(claim.check)
    out = {s for s in ("DISCREPANCY", "CAVEAT") if s in names}
    if "judge" in names or "combine" in names:
        out.add("DISCREPANCY")
    return out


def declared_witnesses(claim) -> list:
    """The claim's ``witness=`` entries as (module, function) pairs.

    Parameters
    ----------
    claim : Claim
        A registered claim.

    Returns
    -------
    list of tuple of (str, str)
        ``(module, function)`` per declared witness (empty when none is declared).
    """
    return [tuple(w.strip().split(":", 1)) for w in (claim.witness or "").split(",") if w.strip()]


def witness_dependencies(module: str, function: str) -> list:
    """The ``dependent`` imports of the witness module that the witness ``function`` reaches
    (its own code and the functions of its module it calls, read from the code objects), as
    ``"module:name (what)"``: empty when the function is independent of the library
    computations its module imports for other purposes.

    Parameters
    ----------
    module : str
        The witness module's dotted name.
    function : str
        The witness function's name in it.

    Returns
    -------
    list of str
        ``"module:name (what)"`` per dependent import reached.
    """
    mod = importlib.import_module(module)
    names, _ = check_names(getattr(mod, function))
    return [f"{imp} ({what})" for imp, what in _imports_reached(module, "dependent", names)]


def _imports_reached(module: str, kind: str, names) -> list:
    """[(import, what)] of the witness ``module``'s declared imports of ``kind`` whose local
    name is among ``names`` (the names its code reaches)."""
    alias = _local_names(Path(importlib.import_module(module).__file__))
    return [
        (imp, what)
        for imp, (k, what) in WITNESS_IMPORTS.get(module.rsplit(".", 1)[-1], {}).items()
        if k == kind and alias.get(imp, imp.split(":", 1)[1]) in names
    ]


def _local_names(path: Path) -> dict:
    """{"module:name": the name it is bound to in the module (``as`` alias or itself)}."""
    out = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            mod = node.module if node.level == 0 else node.module.split(".")[-1]
            out.update({f"{mod}:{a.name}": a.asname or a.name for a in node.names})
    return out


def _dependent(module: str, function: str) -> list:
    return witness_dependencies(module, function)


def _counted(module: str) -> bool:
    """A library module whose computation can reach a verdict (the printed parameters and the
    error type cannot)."""
    return module.split(".")[0] in LIBRARY and module not in (
        "nbl_theory.paper",
        "nbl_theory.errors",
    )


def _loaded_globals(code: types.CodeType) -> set:
    """The global names ``code`` (and the code nested in it) loads — not attribute names."""
    out = {
        i.argval
        for i in dis.get_instructions(code)
        if i.opname in ("LOAD_GLOBAL", "LOAD_NAME") and isinstance(i.argval, str)
    }
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out |= _loaded_globals(const)
    return out


def _toolkit_library(names) -> set:
    """The library modules the ``toolkit_values`` functions among ``names`` reach: the modules
    of the globals their code loads (following toolkit_values' own helpers) and those they
    import inside the function."""
    from .witnesses import toolkit_values as tv

    out: set = set()
    todo = [getattr(tv, n, None) for n in names]
    seen: set = set()
    while todo:
        f = inspect.unwrap(todo.pop() or (lambda: None))
        if not isinstance(f, types.FunctionType) or f.__module__ != tv.__name__ or f in seen:
            continue
        seen.add(f)
        for n in _loaded_globals(f.__code__):
            obj = f.__globals__.get(n)
            home = (
                obj.__name__
                if isinstance(obj, types.ModuleType)
                else getattr(obj, "__module__", "")
            )
            if home == tv.__name__:
                todo.append(obj)
            elif isinstance(home, str) and _counted(home):
                out.add(home)
        for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(f)))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                out |= {node.module} if _counted(node.module) else set()
    return out


def library_in_verdict(claim) -> list:
    """The library modules (and ``toolkit_values``, the library's values) the claim's check
    reaches: directly, through the ``toolkit_values`` functions it calls (the library modules
    those use), or through a witness module's declared ``dependent`` imports. Empty:
    no library computation enters the verdict (e.g. a claim about the paper's text, or a
    formula derived in sympy by a witness), so a library bug cannot turn it.

    Parameters
    ----------
    claim : Claim
        A registered claim.

    Returns
    -------
    list of str
        The sorted module names (``module:name`` for a witness's dependent imports).
    """
    names, modules = check_names(claim.check)
    out = {m for m in modules if _counted(m)}
    if any(m.endswith(".toolkit_values") for m in modules):
        out.add("proofs_check.witnesses.toolkit_values")
        out |= _toolkit_library(names)
    for m in modules:
        if m.startswith("proofs_check.witnesses."):
            out |= {
                i.replace("toolkit_values:", "proofs_check.witnesses.toolkit_values:")
                for i, (k, _) in WITNESS_IMPORTS.get(m.rsplit(".", 1)[-1], {}).items()
                if k == "dependent"
            }
            out |= {f"{i} (compared)" for i in _compared_reached(m, names)}
    return sorted(out)


def _compared_reached(module: str, names) -> set:
    """The ``compared`` imports of the witness ``module`` that its functions among ``names``
    reach (the library run beside the witness and judged against it inside the witness's
    result, e.g. the kernel's paths that ``witnesses.paths`` returns next to its own)."""
    mod = importlib.import_module(module)
    reached: set = set()
    for n in names:
        fn = getattr(mod, n, None)
        inner = inspect.unwrap(fn) if callable(fn) else None
        if isinstance(inner, types.FunctionType) and inner.__module__ == module:
            reached |= check_names(inner)[0]
    return {imp for imp, _ in _imports_reached(module, "compared", reached)}


def render_table() -> str:
    """docs/witnesses.md: per checked claim, its witness and what it shares with the library.

    Returns
    -------
    str
        The Markdown text of docs/witnesses.md.
    """
    from .registry import all_claims

    rows, capable, declared, dependent, free, both, partial = [], 0, 0, 0, 0, 0, 0
    for c in all_claims():
        if c.method == "not-checked":
            continue
        verdicts = can_return(c)
        wit = declared_witnesses(c)
        deps = sorted({d for m, f in wit for d in _dependent(m, f)})
        lib = library_in_verdict(c)
        if "DISCREPANCY" in verdicts:
            capable += 1
            declared += bool(wit)
            dependent += bool(wit) and bool(deps)
            both += bool(wit) and bool(lib)
            free += not wit and not lib
            # the statistic itself reaches the verdict through a witness module's dependent
            # import (the library's run), the declared witness re-running part of it
            partial += bool(wit) and any(
                ":" in m and "(compared)" not in m and "toolkit_values" not in m for m in lib
            )
        calls = sorted(
            m.rsplit(".", 1)[-1]
            for m in check_names(c.check)[1]
            if m.startswith("proofs_check.witnesses.")
            and not m.endswith((".toolkit_values", ".printed", ".stats"))
        )
        wtext = ", ".join(f"`{m.rsplit('.', 1)[-1]}.{f}`" for m, f in wit) or (
            "— (not declared; calls " + ", ".join(f"`{m}`" for m in calls) + ")"
            if calls
            else "— (not declared)"
        )
        share = c.shares or ("—" if not wit else "not stated")
        if deps:
            share += "; **not independent**: " + "; ".join(deps)
        libtext = ", ".join(f"`{m.replace('proofs_check.witnesses.', '')}`" for m in lib) or "none"
        rows.append(
            f"| `{c.id}` | {', '.join(sorted(verdicts)) or '—'} | {libtext} | {wtext} "
            f"| {share.replace('|', '/')} |"
        )
    head = [
        "# Witnesses: what each claim compares the paper and the library with",
        "",
        "<!-- generated by `python -m proofs_check.independence --write`; "
        "tests/proofs_check/test_independence.py checks it is current -->",
        "",
        "A claim that judges the paper compares it with the library *and* with an independent "
        "witness (`proofs_check/witnesses`); `proofs_check.judgement.judge` decides: library and "
        "witness disagree → FAIL (a toolkit defect, the paper is not judged); both agree and "
        "the paper differs → DISCREPANCY. This table is generated from the claims' `witness=` "
        "and `shares=` declarations, from what each check function references (read from its "
        "code) and from what each witness module imports from the library "
        "(`proofs_check.independence.WITNESS_IMPORTS`).",
        "",
        "Columns: *can return* — the verdicts about the paper the check can give (read from its "
        "code, conservatively); *library in the verdict* — the library modules whose "
        "computation reaches the verdict (directly, through `toolkit_values`, through a "
        "witness's declared dependent import, or through a witness's *compared* import: the "
        "library run beside the witness and judged against it; `nbl_theory.paper`, the printed "
        "parameters, is not counted); *witness* — the declared independent computation(s); "
        "*shares* — what the witness shares with the library.",
        "",
        "Shared inputs are judged before any verdict: the registry's preflight "
        "(`proofs_check.witnesses.shared_inputs`) compares the paper's links (g, g', g''), "
        "φ0(0), the Gauss–Legendre rules and the simulations' realizations (drawn through both "
        "backends of the library against the witness's own draw from the model and numpy's "
        "documented streams, `proofs_check.witnesses.realization`) with their definitions; "
        "while one differs, every verdict reads FAIL (a toolkit defect).",
        "",
        f"**{capable}** checked claims can return DISCREPANCY. **{declared}** of them declare a "
        f"witness ({both} of those compare it with the library's computation too; "
        f"{dependent} through a witness that still imports the library "
        f"computation it is used for, marked *not independent*; {partial} take their statistic "
        "from the library's run, through a witness module's dependent import, and the declared "
        f"witness re-runs part of it, as their *shares* column says); **{free}** involve no "
        "library computation at all (their verdict comes from the paper's text or from a witness "
        "alone, so a library bug cannot turn them); the remaining "
        f"**{capable - declared - free}** are open work (issue 34).",
        "",
        "| claim | can return | library in the verdict | witness | shares with the library |",
        "|---|---|---|---|---|",
    ]
    return "\n".join(head + rows) + "\n"


def main(argv=None) -> int:
    """``python -m proofs_check.independence [--write]``: print the table, or write it to
    docs/witnesses.md of this source tree.

    Parameters
    ----------
    argv : list of str, optional
        The command-line arguments (default ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status, 0.
    """
    ap = argparse.ArgumentParser(description="the witness table of docs/witnesses.md")
    ap.add_argument("--write", action="store_true", help=f"write {TABLE_PATH}")
    args = ap.parse_args(argv)
    text = render_table()
    if args.write:
        (Path(__file__).resolve().parents[1] / TABLE_PATH).write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
