"""The one-way import rule of DESIGN.md: nbl_theory <- nbl_sim <- proofs_check, never upward."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORBIDDEN = {"nbl_theory": {"nbl_sim", "proofs_check"}, "nbl_sim": {"proofs_check"}}


def _imports(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module.split(".")[0]


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_upward_imports(package):
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"package {package} has no modules"
    bad = [f"{p.relative_to(ROOT)}:{line} imports {mod}"
           for p in files for line, mod in _imports(p) if mod in FORBIDDEN[package]]
    assert not bad, "upward imports break the layer rule:\n" + "\n".join(bad)


def test_rule_checker_detects_violation(tmp_path):
    bad = tmp_path / "m.py"
    bad.write_text("import proofs_check.cli\nfrom nbl_sim import x\n")
    assert {m for _, m in _imports(bad)} == {"proofs_check", "nbl_sim"}


def test_library_never_imports_test_references():
    for package in ("nbl_theory", "nbl_sim", "proofs_check"):
        for p in (ROOT / package).rglob("*.py"):
            assert "tests" not in {m for _, m in _imports(p)}, p
