"""The smoke tier's own checks (``pytest -m smoke``, under 2 minutes; README): every module of
the three packages imports, and the command answers. The tier also holds the value grammar
(tests/proofs_check/test_cli_grammar.py), λ* of the paper's links (tests/theory/test_stability.py),
one claim per section of the paper (tests/proofs_check/test_claims.py) and one small simulation
(tests/sim/test_experiment.py)."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import nbl_sim
import nbl_theory
import proofs_check
from proofs_check.cli import main

pytestmark = pytest.mark.smoke

MODULES = sorted(
    m.name
    for pkg in (nbl_theory, nbl_sim, proofs_check)
    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")
    if not m.name.endswith("__main__")
)


def test_every_module_imports():
    assert len(MODULES) > 50
    for name in MODULES:
        importlib.import_module(name)


def test_the_command_answers(capsys):
    code = main(["stability", "--family", "logistic", "--delta", "1", "--json"])
    out = capsys.readouterr().out
    assert code == 0 and '"lambda_star"' in out
