"""Concept rules instead of a size cap (issue 37, item 5): a function of the library takes at
most ``max-args`` arguments and holds at most ``max-statements`` statements (ruff's pylint rules
PLR0913 and PLR0915, limits in pyproject.toml ``[tool.ruff.lint.pylint]``).

The functions past the limits when the rule came in are listed in ``tests/lint_debt.json`` by
``file::function``: a function not on that list fails the test, and so does a listed one that
is now within the limits (take it off the list — the debt only shrinks).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("nbl_theory", "nbl_sim", "proofs_check")
RULES = ("PLR0913", "PLR0915")
DEBT = ROOT / "tests" / "lint_debt.json"


def _function_at(path: Path, row: int) -> str:
    """The qualified name of the function defined at line ``row`` of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef) and child.lineno == row:
                    names.append(name)
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return names[0] if names else f"line {row}"


def offenders() -> dict[str, list[str]]:
    """``{rule: sorted ["file::function", ...]}`` of the functions past the limits now."""
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--select",
            ",".join(RULES),
            "--output-format",
            "json",
            "--exit-zero",
            *PACKAGES,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    out: dict[str, set] = {rule: set() for rule in RULES}
    for item in json.loads(r.stdout):
        path = Path(item["filename"])
        rel = path.relative_to(ROOT).as_posix()
        out[item["code"]].add(f"{rel}::{_function_at(path, item['location']['row'])}")
    return {rule: sorted(v) for rule, v in out.items()}


def test_the_limits_are_stated():
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11

    pylint = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]["lint"]["pylint"]
    assert pylint == {"max-args": 8, "max-statements": 80}


@pytest.mark.parametrize("rule", RULES)
def test_no_function_past_the_limits_but_the_listed_debt(rule):
    now = set(offenders()[rule])
    debt = set(json.loads(DEBT.read_text())[rule])
    assert sorted(now - debt) == [], f"new functions past the {rule} limit (split by concept)"
    assert sorted(debt - now) == [], f"within the {rule} limit now: take them off {DEBT.name}"


def test_the_rule_sees_a_function_past_the_limits(tmp_path):
    args = ", ".join(f"a{i}" for i in range(9))
    body = "\n".join(f"    x{i} = {i}" for i in range(81))
    (tmp_path / "m.py").write_text(f"def f({args}):\n{body}\n    return x0\n")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--select",
            ",".join(RULES),
            "--config",
            str(ROOT / "pyproject.toml"),
            "--output-format",
            "json",
            "--exit-zero",
            str(tmp_path / "m.py"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert sorted(i["code"] for i in json.loads(r.stdout)) == list(RULES)


def test_the_code_is_ruff_formatted():
    """Issue 37, item 5: ``ruff format`` applied to the whole repository (the formatter's
    version is pinned in the test extra: another version may format differently)."""
    r = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--quiet", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert r.returncode == 0, "files ruff would reformat:\n" + r.stdout + r.stderr
