"""The shape of proofs_check's claims and witnesses (docs/architecture.md: one module per paper section
holding only registrations; witnesses in their own documented package; no import of another
module's underscore names). The line cap is retired, as in tests/test_import_rule.py: modules
are split by concept, never by size."""

import ast
from pathlib import Path

import pytest

from proofs_check.registry import all_claims

ROOT = Path(__file__).resolve().parents[2] / "proofs_check"
MODULES = sorted((ROOT / "claims").rglob("*.py")) + sorted((ROOT / "witnesses").rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_module_imports_no_private_names(path):
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    private = [
        f"{node.module}.{a.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for a in node.names
        if a.name.startswith("_") and a.name != "__future__"
    ]
    assert not private, f"imports another module's private names: {private}"


@pytest.mark.parametrize("path", sorted((ROOT / "witnesses").glob("*.py")), ids=lambda p: p.name)
def test_witness_modules_are_documented(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert ast.get_docstring(tree), "module docstring"
    names = [
        t.id
        for node in tree.body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(t, ast.Name)
    ]
    assert "__all__" in names, "__all__"
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            assert ast.get_docstring(node), f"{path.name}: {node.name} has no docstring"


def test_witnesses_do_not_register_claims():
    for path in sorted((ROOT / "witnesses").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "registry" not in text and "register(" not in text, path.name


def test_every_claim_is_registered_from_a_claims_module():
    for c in all_claims():
        module = c.check.__module__
        assert module.startswith("proofs_check.claims.") or module == "proofs_check.registry", (
            c.id,
            module,
        )
