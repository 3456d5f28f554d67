"""The ``nbl`` command imports only what a subcommand needs (issue 37, item 4).

Each case runs the command in a fresh interpreter (``main`` in-process, output discarded) and
reads ``sys.modules`` at the end. The heavy libraries named here are the ones the start-up
profile (``python -X importtime -m proofs_check.cli ...``, benchmarks/README.md "Start-up") found
imported without being used:

* ``nbl --help``, ``nbl stability --help`` and ``nbl proof --list`` need none of them (the
  parser, the family names of :mod:`nbl_theory.family_names`, the ledger's index);
* ``nbl stability`` (the float64 tier) needs sympy (a link is a sympy expression), mpmath and
  python-flint, but not numba (the simulation), matplotlib, Dask, scipy.optimize (the exact
  analysis beyond the paper, thresholds) or scipy at all (Φ in μ* is
  :func:`nbl_theory.gaussian.ndtr`, from the C library's erf/erfc: importing scipy.special
  cost ~0.3 s of the command's start);
* importing the simulation (:mod:`nbl_sim.studies.experiment`) brings numpy and nothing else
  of them: numba loads on the first compiled call, sympy with the first symbolic link;
* ``nbl simulate --family logistic`` (and the other families of
  :mod:`nbl_theory.float_families`) needs numpy only: the family's g in float64, numbers read
  by :mod:`nbl_theory.numbers` (no sympy: a third of a second of the command's start-up), with
  or without the chunk cache; a ``--link`` expression brings sympy (the probe's control).

Timing is not asserted anywhere (benchmarks/bench_startup.py measures it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.smoke

#: the libraries whose import the cases check (a module counts with its submodules)
HEAVY = (
    "numpy",
    "sympy",
    "mpmath",
    "flint",
    "scipy",
    "scipy.special",
    "scipy.optimize",
    "numba",
    "llvmlite",
    "matplotlib",
    "dask",
    "distributed",
)

_PROBE = """
import contextlib, importlib, io, json, sys
args, heavy = json.loads(sys.argv[1]), json.loads(sys.argv[2])
if args[0] == "import":
    importlib.import_module(args[1])
else:
    from proofs_check.cli import main
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(args)
    except SystemExit as exc:          # argparse's --help ends the parse with SystemExit(0)
        code = exc.code
    assert code == 0, code
print(json.dumps(sorted(m for m in heavy if m in sys.modules)))
"""


def imported(args: list[str], env: dict | None = None) -> set[str]:
    """The libraries of :data:`HEAVY` in ``sys.modules`` after ``nbl ARGS`` (or, with
    ``["import", MODULE]``, after importing MODULE) in a fresh interpreter (``env``: variables
    added to its environment)."""
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(args), json.dumps(HEAVY)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "args",
    [["--help"], ["stability", "--help"], ["proof", "--list"]],
    ids=["help", "stability-help", "proof-list"],
)
def test_parser_and_listings_import_no_heavy_library(args):
    found = imported(args)
    assert found == set(), f"nbl {' '.join(args)} imported {sorted(found)}"


def test_stability_imports_what_the_float64_tier_needs_only():
    found = imported(["stability", "--family", "logistic", "--delta", "1", "--json"])
    assert {"sympy", "mpmath"} <= found  # the probe sees what is used
    unneeded = found & {"numba", "llvmlite", "matplotlib", "dask", "distributed", "scipy"}
    assert not unneeded, f"nbl stability imported {sorted(unneeded)}"


def test_the_simulation_imports_numpy_only():
    found = imported(["import", "nbl_sim.studies.experiment"])
    # numba loads on the first compiled call only (a small run never loads it), sympy with the
    # first symbolic link
    assert found == {"numpy"}, f"nbl_sim.studies.experiment imported {sorted(found)}"


SMALL_RUN = ["simulate", "--delta", "1", "--reps", "4", "--n", "300"]


@pytest.mark.parametrize(
    "family",
    [
        ["logistic"],
        ["two-transition"],
        ["two-transition", "--param", "mu2=1.244122"],  # issue 37's unstable link
        ["exp", "--reward", "bounded"],
    ],
    ids=str,
)
@pytest.mark.parametrize("cache", [False, True], ids=["no-cache", "cache"])
def test_simulate_of_a_built_in_family_imports_numpy_only(family, cache, tmp_path):
    args = [*SMALL_RUN, "--family", *family, *([] if cache else ["--no-cache"])]
    found = imported(args, env={"NBL_CACHE_DIR": str(tmp_path)})
    assert found == {"numpy"}, f"nbl {' '.join(args)} imported {sorted(found)}"


def test_simulate_of_an_expression_builds_its_symbolic_link(tmp_path):
    found = imported([*SMALL_RUN, "--link", "sigmoid(z)"], env={"NBL_CACHE_DIR": str(tmp_path)})
    assert "sympy" in found  # the probe sees what is used


@pytest.mark.parametrize("param", ["mu1=-1", "mu2=1e-7"], ids=str)
def test_simulate_with_a_parameter_outside_the_float_path_builds_the_link(param, tmp_path):
    """Another parameter, or a value whose label is not written without the Link, goes
    through the Link."""
    args = [*SMALL_RUN, "--family", "two-transition", "--param", param, "--no-cache"]
    assert "sympy" in imported(args, env={"NBL_CACHE_DIR": str(tmp_path)})


@pytest.mark.parametrize("package", ["nbl_theory", "nbl_sim.beyond"])
def test_lazy_package_names_resolve_to_their_definitions(package):
    """The packages that resolve their public names on first use (PEP 562) give every name of
    ``__all__`` as the object its home module defines, and refuse other names."""
    import importlib

    pkg = importlib.import_module(package)
    for name in pkg.__all__:
        value = getattr(pkg, name)
        home = importlib.import_module(f"{package}.{pkg._HOME[name]}")
        assert value is getattr(home, name), name
        assert name in dir(pkg)
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        pkg.not_a_name  # noqa: B018


@pytest.mark.parametrize("package", ["nbl_theory", "nbl_sim.beyond"])
def test_lazy_packages_still_name_their_modules_to_the_static_import_walk(package):
    """The cache keys follow imports by reading the source (nbl_sim.runs.sweep.imported_modules):
    a lazy ``__init__`` still names, under ``TYPE_CHECKING``, the module of every public name,
    so code that imports ``from package import name`` keeps that module in its key."""
    import importlib
    from pathlib import Path

    from nbl_sim.runs.sweep import imported_modules

    pkg = importlib.import_module(package)
    found = imported_modules(package, True, Path(pkg.__file__).read_bytes())
    for name, home in pkg._HOME.items():
        assert f"{package}.{home}" in found and f"{package}.{home}.{name}" in found, name


def test_ledger_vocabulary_is_one_object():
    from proofs_check import ledger
    from proofs_check.ledger import methods, store

    assert methods.METHODS is ledger.METHODS and methods.PROOF_METHODS is ledger.PROOF_METHODS
    assert store.METHODS is ledger.METHODS
    assert set(ledger.PROOF_METHODS) < set(ledger.METHODS)


def test_the_family_names_are_the_families():
    from nbl_theory.families import FAMILIES
    from nbl_theory.family_names import FAMILY_NAMES

    assert FAMILY_NAMES == tuple(FAMILIES)


_LAST_HOOK = r"""
import atexit, sys
from pathlib import Path
import proofs_check.cli as cli

out = Path(sys.argv[1])

def fake_run(argv, debug):
    # a hook registered during the command, as Dask's, multiprocessing's or a temporary
    # file's is: it must still run, before the process ends
    atexit.register(lambda: out.write_text("hook ran"))
    print("result")
    return int(argv[0])

cli._run = fake_run
sys.argv = ["nbl", sys.argv[2]]
sys.exit(cli.main())
"""


@pytest.mark.parametrize("status", [0, 2, 3])
def test_the_command_ends_after_every_exit_hook_with_its_status(tmp_path, status):
    """The installed command skips the interpreter's freeing of every object at exit
    (``proofs_check.process_end``, the last exit hook: ~0.4 s after sympy was imported), and loses nothing
    by it: a hook registered during the command runs, stdout is flushed, the status is the
    command's. In-process ``main([...])`` registers no such hook (the test process would end)."""
    out = tmp_path / "hook.txt"
    proc = subprocess.run(
        [sys.executable, "-c", _LAST_HOOK, str(out), str(status)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == status, proc.stderr
    assert proc.stdout == "result\n"
    assert out.read_text() == "hook ran"


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["stability", "--help"]])
def test_help_and_version_of_the_installed_command_end_with_status_0(args):
    """argparse ends ``--help`` and ``--version`` with SystemExit(0) out of the command: the
    last exit hook ends the process with that status, not with the 1 it holds until the
    command returns (a regression the exit hook once had)."""
    proc = subprocess.run(
        [sys.executable, "-m", "proofs_check.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()
