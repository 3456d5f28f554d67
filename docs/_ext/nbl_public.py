"""The public API of nbl: which modules are public, in which order the reference lists them.

This list is the contract. A module listed here is public: every name in its ``__all__`` is
supported, documented (the API reference renders each one) and has a docstring (a test checks
this, ``tests/docs/test_docs_build.py``) with its numpydoc sections (numpydoc's validator,
``tests/docs/test_numpydoc_sections.py``). A module that is not listed is internal — it has an
``__all__`` too (module hygiene), but its names may change without notice.

Packages that only re-export names of their modules (``nbl_theory``) are listed in
:data:`REEXPORTS`: their names are documented where they are defined.
"""

from __future__ import annotations

import functools

#: (section title, intro, [(module, one-line summary), ...]) in reference order.
SECTIONS = (
    (
        "nbl_theory — the theory core",
        "Exact and high-precision mathematics: what a link is and what it implies "
        "(sympy, mpmath, python-flint). Imports nothing of the other two layers.",
        [
            ("nbl_theory.links", "Link: a strictly increasing link with exact derivatives"),
            (
                "nbl_theory.link_source",
                "LinkSource: a family, expression or potential with free parameters",
            ),
            ("nbl_theory.families", "the named link families (make_family)"),
            (
                "nbl_theory.float_families",
                "a named family's float64 g before its symbolic Link (no sympy)",
            ),
            ("nbl_theory.link_type", "LinkType: what every link is (no sympy)"),
            ("nbl_theory.paper", "the paper's named links, separations and printed values"),
            ("nbl_theory.stability", "λ*, μ*, m2, κ* in three precision tiers"),
            (
                "nbl_theory.results",
                "StabilityResult, StabilityGrid and the one assembly of λ*, κ*, the Jacobian rates",
            ),
            (
                "nbl_theory.records",
                "the one result family (to_dict, to_frame) and the one JSON "
                "number convention and envelope",
            ),
            ("nbl_theory.certified", "the certified tier: Arb ball arithmetic"),
            ("nbl_theory.threshold", "where λ* changes sign (certified brackets)"),
            ("nbl_theory.continuation", "the λ* = 0 curve by pseudo-arclength continuation"),
            ("nbl_theory.self_concordance", "R = sup|g''|/g', κ(a) and the sufficient condition"),
            ("nbl_theory.elicitation", "Bregman losses, potentials and conjugates (sympy)"),
            ("nbl_theory.gaussian", "the Gaussian moments μ*, m2, m0, μ_g"),
            ("nbl_theory.expressions", "the whitelisted expression parser and its bounds"),
            ("nbl_theory.numbers", "numbers as written, read exactly (no sympy)"),
            ("nbl_theory.validation", "the one set of input validators"),
            ("nbl_theory.numeric", "φ0(0), Gauss–Legendre rules, the halving trapezoid rule"),
            ("nbl_theory.work", "a deterministic work measure and limit (Python calls)"),
            ("nbl_theory.errors", "NBLInputError and DivergentIntegralError"),
        ],
    ),
    (
        "nbl_sim — simulation and population numerics",
        "What happens when NBL runs: the bandit environment, the policies, the population "
        "fields, sweeps on any executor. Imports nbl_theory, never proofs_check.",
        [
            (
                "nbl_sim.engine.environment",
                "the two-armed single-index bandit with common random numbers",
            ),
            ("nbl_sim.studies.experiment", "simulate: policies on replications, regret and angles"),
            (
                "nbl_sim.engine",
                "the engine's seam: draw, NBL, Greedy Logistic, oracle, regret, "
                "on the compiled or the reference backend",
            ),
            (
                "nbl_sim.engine.reference",
                "the reference engine in plain numpy: the definition of the numbers of record",
            ),
            (
                "nbl_sim.engine.contract",
                "what both backends take and give: checked inputs, options, NBL's trace",
            ),
            ("nbl_sim.engine.nbl_kernel", "Natural Boundary Learning (alg:nbl)"),
            ("nbl_sim.engine.greedy_kernel", "Greedy Logistic (per-arm penalized MLE)"),
            (
                "nbl_sim.policies.repairs",
                "repaired NBL: the NBL kernel on whitened contexts or centred rewards",
            ),
            (
                "nbl_sim.policies.objects",
                "NBL and GreedyLogistic as policy objects on your own "
                "stream (choose, update, state)",
            ),
            ("nbl_sim.population.fields", "F, h, J, H(α) and Jacobians by quadrature"),
            (
                "nbl_sim.population.population_table",
                "F and h at many directions from a table in one angle",
            ),
            ("nbl_sim.population.circle", "every equilibrium on the circle (d = 2)"),
            (
                "nbl_sim.engine.geometry",
                "tangent projection, retraction, the NBL update, signed angles",
            ),
            ("nbl_sim.engine.metrics", "regret and Monte Carlo summaries"),
            (
                "nbl_sim.studies.rate_theory",
                "exact local rates, tangent noise, the linearized recursion",
            ),
            (
                "nbl_sim.studies.regret_geometry",
                "error-to-regret geometry and the stability radius",
            ),
            ("nbl_sim.studies.rate_study", "the regret-rate study (nbl study)"),
            ("nbl_sim.studies.phase", "phase diagrams and threshold scans as sweeps"),
            ("nbl_sim.studies.repair_study", "repaired NBL against Greedy Logistic in simulation"),
            ("nbl_sim.runs.sweep", "run_sweep: cells, cache, resume, failures"),
            ("nbl_sim.runs.execution", "executors: in-process, local pool, Dask"),
            ("nbl_sim.runs.cache", "ChunkCache: data-only, signed, atomic cache entries"),
            ("nbl_sim.runs.plain_data", "the plain-data codec of the cache"),
            ("nbl_sim.beyond", "beyond the paper: other context laws and arms"),
            (
                "nbl_sim.presentation.reproduce",
                "nbl reproduce: figures, their data and the gallery",
            ),
            ("nbl_sim.presentation.plots", "the pictures of single results"),
            ("nbl_sim.presentation.conclusions", "every conclusion in words beside its numbers"),
        ],
    ),
    (
        "proofs_check — is the paper right?",
        "The claim registry, the verification report, mutation testing and the nbl command. "
        "Imports both other layers; nothing imports it.",
        [
            ("proofs_check.registry", "claims, outcomes, statuses, mutants"),
            ("proofs_check.judgement", "the one rule from library and witness to a verdict"),
            (
                "proofs_check.independence",
                "what each witness shares with the library; the witness table",
            ),
            ("proofs_check.report", "the verification report (Markdown and JSON)"),
            ("proofs_check.report_context", "the report's provenance and its glossary of names"),
            ("proofs_check.report_json", "the verification report's JSON records"),
            (
                "proofs_check.paper_source",
                "the paper's text: the pinned copy shipped, or a given version",
            ),
            ("proofs_check.audit.staleness", "which checks a version of the paper leaves stale"),
            ("proofs_check.mutation", "mutation testing of the registry"),
            ("proofs_check.cli", "the nbl command's entry point and parser"),
            ("proofs_check.cli.grammar", "the one grammar for values, lists and grids"),
            ("proofs_check.cli.jsonout", "the one JSON convention of --json"),
        ],
    ),
)

#: Packages whose ``__all__`` re-exports names documented in their home modules.
REEXPORTS = ("nbl_theory",)

#: Modules whose module docstring is not valid reStructuredText yet, with what is wrong: the
#: reference shows it verbatim (a literal block) until it is fixed; the names are rendered as
#: usual. Remove an entry when its docstring is fixed (the docs build then renders it).
VERBATIM_DOCSTRINGS = {
    "nbl_sim.beyond": "the 'Modules' list is two plain-text columns with continuation lines "
    "(docutils: unexpected indentation); write it as a definition list or "
    "a literal block",
}


#: Public names that have no docstring yet, with the fix (library code, not docs/): the API
#: reference still lists them; ``tests/docs/test_docs_build.py`` fails when an entry is fixed
#: but still listed here, so remove the entry together with the fix.
PENDING_DOCSTRINGS: dict = {}

#: Modules that are internal on purpose (module, or a prefix ending in ``*`` -> why). Every
#: module of the three packages is public (:data:`SECTIONS`), a re-exporting package
#: (:data:`REEXPORTS`) or listed here; the docs test fails on a module that is neither, so a
#: new module has to be classified.
INTERNAL = {
    "nbl_theory.arb_eval": "the sympy -> Arb compiler behind nbl_theory.certified",
    "nbl_theory.arb_interval": "interval bounds behind the tail shells of nbl_theory.certified",
    "nbl_theory.derivatives": "exact derivatives behind Link",
    "nbl_theory.family_names": "the family names without sympy, for the nbl command's --help",
    "nbl_theory.link_checks": "the sound monotonicity/definedness checks behind Link",
    "nbl_theory.link_numeric": "numeric evaluators behind Link",
    "nbl_theory.link_input": "what the Link constructors accept, and their error guard",
    "nbl_sim": "the package itself re-exports nothing",
    "nbl_sim.policies": "the package: it re-exports NBL and GreedyLogistic of the public "
    "nbl_sim.policies.objects",
    "nbl_sim.studies.rate_analysis": "statistics behind the regret-rate study",
    "nbl_sim.engine.environment_passes": "the compiled passes that draw a replication of "
    "Environment",
    "nbl_sim.engine.pcg64": "numpy's PCG64 stream compiled inline, behind Environment.draw",
    "nbl_sim.engine.realization": "Realization and the replication streams (re-exported by "
    "nbl_sim.engine.environment)",
    "nbl_sim.engine.llvm_ops": "the 128-bit multiply-add (LLVM IR) behind the PCG64 stream",
    "nbl_sim.engine.compiled": "the compiled backend of nbl_sim.engine (the kernels' one "
    "entry point)",
    "nbl_sim.engine.ziggurat": "numpy's ziggurat tables as data, behind the compiled normals",
    "nbl_sim.engine.jit_cache": "numba's kernel cache stamped with the package's compiled sources",
    "nbl_sim.runs.lifeline": "worker processes end with their parent (a pool's initializer)",
    "nbl_sim.runs.dask_plugins": "the local Dask cluster's worker plugin (workers log at "
    "CRITICAL only)",
    "nbl_sim.engine.buffers": "scratch buffers kept per thread for the next simulate/draw call",
    "nbl_sim.runs.outputs": "how the commands write their output files (replace, never write "
    "through a link; docs/security.md)",
    "nbl_sim.beyond.*": "the parts of nbl_sim.beyond (documented by the package page and "
    "docs/beyond.md)",
    "nbl_sim.presentation": "the package; its public parts are listed",
    "nbl_sim.runs": "the package (sweeps, executors, cache, outputs); its public parts are listed",
    "nbl_sim.studies": "the package (simulate and the studies); its public parts are listed",
    "nbl_sim.population": "the package (the population fields); its public parts are listed",
    "nbl_sim.presentation.figures*": "one module per figure, documented on the figure pages",
    "nbl_sim.presentation.style": "colours and display names of the pictures",
    "nbl_sim.presentation.tables": "the text tables the nbl command prints",
    "proofs_check": "the package itself re-exports nothing",
    "proofs_check.__main__": "python -m proofs_check",
    "proofs_check.audit*": "the paper audit, reached through its claims",
    "proofs_check.claims*": "registrations only; the claims are listed by the report",
    "proofs_check.witnesses*": "independent re-computations used by the claims only",
    "proofs_check.cli.*": "the parts of the nbl command (the command is documented on the "
    "CLI page, generated from its parser)",
    "proofs_check.ledger*": "the proof-step ledger, reached through nbl proof and its claims "
    "(its transcription format is the package docstring)",
    "proofs_check.runner": "the parallel claims runner behind nbl check",
    "proofs_check.process_end": "how the nbl command and the mutation harness's processes end "
    "(right after their exit hooks; docs/architecture.md)",
    "proofs_check.libmutation*": "library mutation behind nbl check --mutate --library "
    "(documented on docs/mutation.md)",
    "proofs_check.runner_keys": "cache keys of the claims runner",
    "proofs_check.runner_tasks": "claims as executor tasks",
    "proofs_check.wording": "the words of claim messages that state what a computation "
    "established (certified or not), read from the values",
}


def internal_reason(module: str) -> str | None:
    """Why ``module`` is internal, or None. A key of :data:`INTERNAL` names one module; a key
    ending in ``*`` covers every module whose name starts with the text before it (``pkg*``:
    the package and everything in it; ``pkg.*``: everything in it)."""
    for key, why in INTERNAL.items():
        if module == key or (key.endswith("*") and module.startswith(key[:-1])):
            return why
    return None


def public_modules() -> list[str]:
    """Every public module, in reference order."""
    return [m for _, _, mods in SECTIONS for m, _ in mods]


# ---------------------------------------------------------------------- where a name lives
@functools.cache
def _module_ast(module: str):
    import ast
    import importlib.util

    spec = importlib.util.find_spec(module)
    with open(spec.origin, encoding="utf-8") as fh:
        return ast.parse(fh.read())


def _assigned(tree, name: str) -> bool:
    import ast

    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for t in targets:
            names = t.elts if isinstance(t, ast.Tuple) else [t]
            if any(isinstance(n, ast.Name) and n.id == name for n in names):
                return True
    return False


def _top_level_imports(tree):
    """The module's top-level statements, and those of a top-level ``if TYPE_CHECKING:``
    block: a package that resolves its names on first use (PEP 562 ``__getattr__``, e.g.
    ``nbl_theory``) names their modules there."""
    import ast

    for node in tree.body:
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
        ):
            yield from node.body
        else:
            yield node


def _imported_from(tree, module: str, name: str) -> str | None:
    import ast

    for node in _top_level_imports(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    base = module.split(".")
                    pkg = base if _is_package(module) else base[:-1]
                    if node.level:
                        pkg = pkg[: len(pkg) - node.level + 1]
                        return ".".join(pkg + ([node.module] if node.module else []))
                    return node.module
    return None


@functools.cache
def _is_package(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module).submodule_search_locations is not None


def home(module: str, name: str) -> tuple[str, str]:
    """``(home module, kind)`` of the public name ``module.name``: the module whose source
    defines it (following ``from ... import`` re-exports) and ``"class"``, ``"function"`` or
    ``"data"``."""
    import ast

    tree = _module_ast(module)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return module, "class"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return module, "function"
    if _assigned(tree, name):
        return module, "data"
    source = _imported_from(tree, module, name)
    if source is None:
        raise LookupError(f"{module}.{name} is neither defined nor imported by name there")
    return home(source, name)


def _data_docstring(module: str, name: str) -> str | None:
    """The documentation of a module-level assignment, as autodoc reads it: the ``#:`` comment
    lines right above it (or ``#:`` after it on its line), or a string literal right after it.
    Plain ``ast`` (no Sphinx needed, so the fast docs tests run with the test extra only)."""
    import ast
    import importlib.util

    with open(importlib.util.find_spec(module).origin, encoding="utf-8") as fh:
        source = fh.read()
    lines = source.splitlines()
    body = ast.parse(source).body
    for i, node in enumerate(body):
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        names = [n for t in targets for n in (t.elts if isinstance(t, ast.Tuple) else [t])]
        if not any(isinstance(n, ast.Name) and n.id == name for n in names):
            continue
        doc, j = [], node.lineno - 2
        while j >= 0 and lines[j].lstrip().startswith("#:"):
            doc.insert(0, lines[j].lstrip()[2:].strip())
            j -= 1
        if not doc and "#:" in lines[node.lineno - 1]:
            doc = [lines[node.lineno - 1].split("#:", 1)[1].strip()]
        nxt = body[i + 1] if i + 1 < len(body) else None
        if (
            not doc
            and isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)
            and isinstance(nxt.value.value, str)
        ):
            doc = [nxt.value.value]
        return "\n".join(doc).strip() or None
    return None


def docstring(module: str, name: str) -> str | None:
    """The docstring of ``module.name`` as written in the source: a class's or function's own
    docstring (a dataclass's generated signature does not count), or the documentation comment
    (``#:``) or string literal of a module-level assignment."""
    import ast

    mod, kind = home(module, name)
    if kind == "data":
        return _data_docstring(mod, name)
    for node in _module_ast(mod).body:
        if getattr(node, "name", None) == name and isinstance(
            node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        ):
            return ast.get_docstring(node)
    return None
