"""Independence checked, not promised (issue 34, item 2): every witness's library imports are
declared (proofs_check.independence.WITNESS_IMPORTS); a declared witness does not import the
library computation it witnesses; claim modules that only declare compute nothing inline; the
witness table of docs/witnesses.md is the generated one."""

import ast
import importlib
from pathlib import Path

import pytest

from proofs_check import independence as ind
from proofs_check.registry import all_claims

ROOT = Path(__file__).resolve().parents[2]
WITNESSES = sorted(
    p
    for p in (ROOT / "proofs_check" / "witnesses").glob("*.py")
    if p.stem not in ("__init__", "toolkit_values")
)


@pytest.mark.parametrize("path", WITNESSES, ids=lambda p: p.stem)
def test_witness_library_imports_are_declared(path):
    got = set(ind.library_imports(path))
    declared = ind.WITNESS_IMPORTS.get(path.stem)
    assert declared is not None, f"declare {path.stem}'s library imports in WITNESS_IMPORTS"
    assert got - set(declared) == set(), "undeclared import of the library"
    assert set(declared) - got == set(), "declared but no longer imported (stale entry)"
    for imp, (kind, what) in declared.items():
        assert kind in ("shared", "dependent", "compared") and what, imp


def test_the_import_reader_sees_every_form(tmp_path):
    f = tmp_path / "w.py"
    f.write_text(
        "import nbl_theory.stability\nfrom nbl_sim.population import fields as pop\n"
        "from .toolkit_values import certified_at\nimport numpy\n"
        "def g():\n    from nbl_theory.results import decision_quantities\n"
    )
    assert sorted(ind.library_imports(f)) == [
        "nbl_sim.population:fields",
        "nbl_theory.results:decision_quantities",
        "nbl_theory.stability:",
        "toolkit_values:certified_at",
    ]


def _declared():
    return [c for c in all_claims() if c.witness]


@pytest.mark.parametrize("claim", _declared(), ids=lambda c: c.id)
def test_a_declared_witness_exists_is_used_and_is_independent(claim):
    _, modules = ind.check_names(claim.check)
    for module, fn in ind.declared_witnesses(claim):
        assert module.startswith("proofs_check.witnesses.") and not module.endswith(
            ".toolkit_values"
        ), module
        assert callable(getattr(importlib.import_module(module), fn, None)), (module, fn)
        assert module in modules, f"{claim.id}: the check does not call {module}"
        assert ind.witness_dependencies(module, fn) == [], (
            f"{module}:{fn} reaches the library computation it witnesses"
        )
    assert claim.shares, f"{claim.id}: say what the witness shares with the library"
    assert any(m.kind == "witness" for m in claim.mutants), (
        f"{claim.id}: a claim with a witness keeps a mutant of kind 'witness'"
    )


_NUMERIC = {"math", "numpy", "scipy", "mpmath", "flint"}
_ARITH = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow, ast.Mod, ast.MatMult)


def _is_text(node) -> bool:
    """A string expression: a literal, an f-string, ``str(...)``/``"...".join(...)``, or a
    concatenation, choice or conditional of such."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        return (isinstance(f, ast.Attribute) and f.attr == "join") or (
            isinstance(f, ast.Name) and f.id == "str"
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_text(node.left) or _is_text(node.right)
    if isinstance(node, ast.BoolOp):
        return any(_is_text(v) for v in node.values)
    if isinstance(node, ast.IfExp):
        return _is_text(node.body) or _is_text(node.orelse)
    return False


def _inline_computation(tree: ast.AST) -> list:
    """The declare-only rule (proofs_check.independence.DECLARE_ONLY): the lines that import a
    numerical library, or do arithmetic with an operand that contains a call (a computed
    value), outside f-strings and string concatenation (presentation) and outside a ``holds=``
    predicate (the paper's statement, handed to the judgement)."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip |= {id(n) for n in ast.walk(node)}
        if isinstance(node, ast.keyword) and node.arg == "holds":
            skip |= {id(n) for n in ast.walk(node.value)}
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bad += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] in _NUMERIC]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] in _NUMERIC:
                bad.append((node.lineno, node.module))
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, _ARITH)
            and id(node) not in skip
            and not _is_text(node)
            and any(
                isinstance(n, ast.Call) for side in (node.left, node.right) for n in ast.walk(side)
            )
        ):
            bad.append((node.lineno, ast.unparse(node)))
    return bad


@pytest.mark.parametrize("rel", ind.DECLARE_ONLY)
def test_declare_only_claim_modules_compute_nothing_inline(rel):
    assert _inline_computation(ast.parse((ROOT / rel).read_text(encoding="utf-8"))) == []


def test_the_declare_only_rule_sees_inline_computation():
    src = (
        "import numpy as np\nx = lib(1) * 2\ny = f'{lib(1) * 2}'\n"
        "z = judge('q', holds=lambda v: abs(v - lib(0)) < 1)\nw = 1.5 * bound\n"
        "t = 'a: ' + ', '.join(rows) + str(lib(2))\nu = lib(3) + other(4)\n"
    )
    assert [line for line, _ in _inline_computation(ast.parse(src))] == [1, 2, 7]


def test_a_dependent_witness_function_is_seen():
    # experiments imports the library's simulator (declared dependent): a function using it is
    # not independent, one that does not is (the lambda0 witness imports no library field since
    # it computes its own, proofs_check.witnesses.polar_field)
    deps = ind.witness_dependencies("proofs_check.witnesses.experiments", "final_angle")
    assert deps and deps[0].startswith("nbl_sim.studies.experiment:simulate")
    assert ind.witness_dependencies("proofs_check.witnesses.experiments", "load_comparisons") == []
    assert ind.witness_dependencies("proofs_check.witnesses.lambda0", "h_spline") == []
    assert ind.witness_dependencies("proofs_check.witnesses.lambda_star", "lambda_star") == []


def test_every_finding_capable_claim_of_a_declare_only_module_has_a_witness():
    modules = {rel.removesuffix(".py").replace("/", ".") for rel in ind.DECLARE_ONLY}
    # (a claim whose verdict no library computation reaches, e.g. one about the paper's text,
    # cannot be turned by a library bug: it needs no witness; docs/witnesses.md counts it apart)
    missing = [
        c.id
        for c in all_claims()
        if c.check.__module__ in modules
        and "DISCREPANCY" in ind.can_return(c)
        and not c.witness
        and ind.library_in_verdict(c)
    ]
    assert missing == []


def test_the_witness_table_is_generated():
    committed = (ROOT / ind.TABLE_PATH).read_text(encoding="utf-8")
    assert committed == ind.render_table(), (
        "docs/witnesses.md is stale: run python -m proofs_check.independence --write"
    )


def test_a_cached_helper_of_the_claim_module_is_followed():
    """init-bound-localization reaches the library's mu_g (nbl_theory.stability) only through a
    ``functools.cache``d helper of its own module. The reading of a check's code used to stop
    at the cache wrapper, so the table called the claim "no library computation" and it had no
    witness (issue 34); the helper is now followed like any other."""
    claim = next(c for c in all_claims() if c.id == "init-bound-localization")
    assert "nbl_theory.stability" in ind.library_in_verdict(claim)
    assert claim.witness


def test_every_claim_module_only_declares():
    """Issue 34, item 2: every module of proofs_check/claims that registers a claim is under the
    declare-only rule (its computations live in witnesses and toolkit_values)."""
    registering = sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "proofs_check" / "claims").rglob("*.py")
        if "register" in p.read_text(encoding="utf-8") and p.name != "__init__.py"
    )
    assert [r for r in registering if r not in ind.DECLARE_ONLY] == []


def test_the_table_names_what_toolkit_values_reaches():
    """A claim that reads the library through toolkit_values lists the library modules those
    functions use (their loaded globals and in-function imports), not toolkit_values alone:
    beyond-isotropic-gaussian-reproduces reaches nbl_sim.beyond's analysis through
    toolkit_values.isotropic_spectrum, and an attribute named like a library function
    (``e.stability``) is not a use of nbl_theory.stability."""
    claim = next(c for c in all_claims() if c.id == "beyond-isotropic-gaussian-reproduces")
    reached = ind.library_in_verdict(claim)
    assert "nbl_sim.beyond.analysis" in reached and "nbl_theory.stability" not in reached


def test_a_library_run_beside_the_witness_counts_as_the_library_side():
    """A witness's ``compared`` import reached by the check (the kernel's paths returned next to
    the witness's own) puts the library in the verdict; one the check's witness functions never
    reach does not."""
    from proofs_check.registry import REGISTRY

    loc = ind.library_in_verdict(REGISTRY._claims["finite-horizon-localization"])
    assert "nbl_sim.engine.nbl_kernel:nbl_run (compared)" in loc
    assert ind._compared_reached("proofs_check.witnesses.paths", {"mean_se"}) == set()
    # the library side reached through the claims' shared helper module (library_side)
    spec = ind.library_in_verdict(REGISTRY._claims["local-jacobian-spectrum"])
    assert "proofs_check.witnesses.toolkit_values" in spec
    assert "nbl_sim.population.fields" in spec
