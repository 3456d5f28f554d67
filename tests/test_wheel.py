"""The built wheel installs and runs on its own (issue 35, item 8).

The wheel is built from a copy of this checkout (``pip wheel . --no-deps``; a copy, so the build
writes nothing into the checkout), installed with its
dependencies into a fresh virtual environment (no system site-packages, nothing of this
environment on its path: pip installs the dependencies from its index or its cache), and run from
a directory outside the checkout: ``nbl stability --family logistic --delta 1``, the paper text
shipped in the package (the pinned version), and one claim through ``nbl check``. Slow: building
and installing take minutes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: an audit claim (reads the packaged data made from the shipped paper text)
CLAIM = "hypotheses-prop-local-jacobian"

pytestmark = pytest.mark.slow


def _run(args, cwd, env=None, timeout=1800):
    out = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert out.returncode == 0, (args, out.stdout[-2000:], out.stderr[-2000:])
    return out.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(python, nbl, environment, work directory) of a fresh venv with the wheel installed."""
    tmp = tmp_path_factory.mktemp("wheel")
    src, dist = tmp / "src", tmp / "dist"
    shutil.copytree(
        ROOT,
        src,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv*",
            "__pycache__",
            "build",
            "dist",
            "*.egg-info",
            ".hypothesis",
            ".pytest_cache",
            "_build",
            "reports",
            "figures",
            "*.nbi",
            "*.nbc",
        ),
    )
    _run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q", "-w", dist], cwd=src)
    (wheel,) = dist.glob("nbl-*.whl")
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False, clear=True).create(env_dir)
    python, nbl = env_dir / "bin" / "python", env_dir / "bin" / "nbl"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "NBL_PAPER", "PYTHONSTARTUP")
    }
    env["NBL_CACHE_DIR"] = str(tmp / "cache")
    _run([python, "-m", "pip", "install", "-q", wheel], cwd=tmp, env=env)
    work = tmp / "work"
    work.mkdir()
    return python, nbl, env, work


def test_the_wheel_is_what_runs(installed):
    python, _, env, work = installed
    where = _run(
        [
            python,
            "-c",
            "import sys, proofs_check, nbl_theory, nbl_sim; "
            "print(sys.flags.no_site, sys.prefix); "
            "print(*(m.__file__ for m in (proofs_check, nbl_theory, nbl_sim)), sep='\\n')",
        ],
        cwd=work,
        env=env,
    ).split("\n")
    prefix = Path(where[0].split(" ", 1)[1]).resolve()
    assert prefix == python.parent.parent.resolve()
    for f in where[1:4]:
        assert Path(f).resolve().is_relative_to(prefix), f  # not this checkout
    paths = _run([python, "-c", "import sys; print('\\n'.join(sys.path))"], cwd=work, env=env)
    assert str(ROOT) not in paths and sys.prefix not in paths


def test_the_installed_command_computes_stability(installed):
    _, nbl, env, work = installed
    out = json.loads(
        _run(
            [nbl, "stability", "--family", "logistic", "--delta", "1", "--json"], cwd=work, env=env
        )
    )
    text = _run([nbl, "stability", "--family", "logistic", "--delta", "1"], cwd=work, env=env)
    assert "λ*" in text or "lambda" in text
    assert "lambda_star" in json.dumps(out)


def test_the_paper_text_ships_and_one_claim_runs(installed):
    python, nbl, env, work = installed
    info = _run(
        [
            python,
            "-c",
            "from proofs_check.paper_source import paper_source, "
            "PINNED_SHA256; s = paper_source(); print(s.origin, s.pinned, len(s.text))",
        ],
        cwd=work,
        env=env,
    ).split()
    assert info[:2] == ["shipped", "True"] and int(info[2]) > 100_000
    out = _run(
        [
            nbl,
            "--quiet",
            "check",
            "--claim",
            CLAIM,
            "--out",
            work / "r",
            "--no-cache",
            "--workers",
            "1",
        ],
        cwd=work,
        env=env,
    )
    assert "PASS 1 · CAVEAT 0 · DISCREPANCY 0 · FAIL 0 · SKIPPED 0" in out
    assert (work / "r" / "verification.md").is_file()
