"""The documentation is tested: the public API is listed and documented, every gallery example
has a title and runs, and the site builds with warnings as errors.

Fast (default suite): the module classification of ``docs/_ext/nbl_public.py`` (every module of
the three packages is public, a re-exporting package or internal with a reason), a docstring
for every public name, a title docstring for every ``examples/plot_*.py`` and the docstring
examples (doctests) of the library, and every example in its quick form as a plain script
(about 35 s for the five). Slow (``pytest -m slow``): the full Sphinx build
(``sphinx-build -W``, which runs the gallery) in a temporary directory.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
EXAMPLES = sorted((ROOT / "examples").glob("plot_*.py"))
PACKAGES = ("nbl_theory", "nbl_sim", "proofs_check")


def _load_public():
    spec = importlib.util.spec_from_file_location("nbl_public", DOCS / "_ext" / "nbl_public.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


nbl_public = _load_public()


def _all_modules() -> list[str]:
    """Every module of the three packages, from the file tree (nothing is imported)."""
    out = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out.append(".".join(parts))
    return out


def _source(module: str) -> Path:
    rel = Path(*module.split("."))
    return ROOT / rel / "__init__.py" if (ROOT / rel).is_dir() else ROOT / rel.with_suffix(".py")


def _module_all(module: str) -> list[str] | None:
    """The literal ``__all__`` of ``module``'s source (None if it has none)."""
    for node in ast.parse(_source(module).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return list(ast.literal_eval(node.value))
    return None


# ---------------------------------------------------------------------- fast
def test_every_module_is_classified():
    """A module is public (listed, with an ``__all__``), a re-exporting package, or internal
    with a reason: a new module cannot silently stay out of the API reference."""
    public = nbl_public.public_modules()
    assert len(public) == len(set(public)), "a module is listed twice in nbl_public.SECTIONS"
    modules = _all_modules()
    unknown = [m for m in public + list(nbl_public.REEXPORTS) if m not in modules]
    assert not unknown, f"listed but not a module: {unknown}"
    unclassified = [
        m
        for m in modules
        if m not in public
        and m not in nbl_public.REEXPORTS
        and nbl_public.internal_reason(m) is None
    ]
    assert not unclassified, (
        "modules neither public nor internal (classify them in "
        f"docs/_ext/nbl_public.py): {unclassified}"
    )
    without_all = [m for m in public + list(nbl_public.REEXPORTS) if not _module_all(m)]
    assert not without_all, f"public modules without a non-empty __all__: {without_all}"


def test_every_public_name_has_a_docstring():
    """Every name in a public ``__all__`` has a docstring where it is defined (its own, or a
    ``#:`` comment for data); the pending entries of nbl_public are the known gaps and must
    still be gaps (so the list cannot go stale)."""
    missing = []
    for module in nbl_public.public_modules() + list(nbl_public.REEXPORTS):
        for name in _module_all(module):
            home, _ = nbl_public.home(module, name)
            if not nbl_public.docstring(module, name):
                missing.append((home, name))
    pending = set(nbl_public.PENDING_DOCSTRINGS)
    assert set(missing) - pending == set(), f"public names without a docstring: {missing}"
    fixed = pending - set(missing)
    assert not fixed, f"documented now, remove from nbl_public.PENDING_DOCSTRINGS: {fixed}"


def test_reexports_have_a_public_home():
    """A name a package re-exports is documented in its home module, which must be public."""
    public = set(nbl_public.public_modules())
    for package in nbl_public.REEXPORTS:
        for name in _module_all(package):
            home, _ = nbl_public.home(package, name)
            assert home in public, f"{package}.{name} lives in {home}, which is not public"


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_has_a_title(path):
    """sphinx-gallery needs a docstring whose first line is a title underlined with '='; the
    script reads the quick-mode variable and uses no private name."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=False)
    assert doc, f"{path.name} has no module docstring"
    lines = doc.strip("\n").splitlines()
    assert len(lines) >= 2 and lines[0].strip(), f"{path.name}: the docstring starts with a title"
    assert re.fullmatch(r"=+", lines[1].strip()) and len(lines[1].strip()) >= len(
        lines[0].strip()
    ), f"{path.name}: the title must be underlined with '='"
    text = path.read_text(encoding="utf-8")
    assert "NBL_EXAMPLES_QUICK" in text, f"{path.name} has no quick form"
    private = re.findall(r"(?:from\s+\S+\s+import\s+[^\n]*\b_\w+|\w\._[a-z]\w*\()", text)
    assert not private, f"{path.name} uses private names: {private}"


def test_the_five_gallery_examples_exist():
    titles = {
        ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))).splitlines()[0]
        for p in EXAMPLES
    }
    for title in (
        "Is my link stable?",
        "A family of links",
        "What NBL does",
        "Checking the paper",
        "Scaling out",
    ):
        assert title in titles


_DOCTEST_MODULES = (
    "nbl_sim.runs.sweep",
    "proofs_check.judgement",
    "proofs_check.registry",
    "proofs_check.runner_tasks",
    "nbl_theory.work",
    "proofs_check.paper_source",
    "proofs_check.audit.staleness",
    "proofs_check.libmutation.operators",
    "proofs_check.libmutation.coverage_map",
)


@pytest.mark.parametrize("module", _DOCTEST_MODULES)
def test_docstring_examples_run(module):
    """The ``>>>`` examples of the library's docstrings are doctests (these modules are the
    ones that have them; the list is checked below)."""
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_doctest_module_list_is_complete():
    have = [m for m in _all_modules() if ">>>" in _source(m).read_text(encoding="utf-8")]
    assert sorted(have) == sorted(_DOCTEST_MODULES)


# ---------------------------------------------------------------------- slow
def _env(**extra) -> dict:
    env = dict(os.environ, MPLBACKEND="Agg", **extra)
    env.pop("PYTHONPATH", None)
    return env


#: Examples whose quick run is a slow test (6–10 s each: a simulation, a family scan, a Dask
#: cluster); the first and the checking-the-paper one stay in the default suite, and the slow
#: suite's docs build runs them all again.
_SLOW_EXAMPLES = {
    "plot_2_family_of_links",
    "plot_3_what_nbl_does",
    "plot_5_scaling_out",
    "plot_6_policies_on_your_data",
}


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.slow) if p.stem in _SLOW_EXAMPLES else p for p in EXAMPLES],
    ids=[p.stem for p in EXAMPLES],
)
def test_example_runs_quick(path, tmp_path):
    """Each example runs as a plain script in its quick form (its output is not checked here:
    every example prints what it computed and the build below renders it)."""
    proc = subprocess.run(
        [sys.executable, str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env=_env(NBL_EXAMPLES_QUICK="1"),
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip(), f"{path.name} printed nothing"
    # run on its own, it saves its figures (sphinx-gallery is not there to capture them)
    assert sorted(tmp_path.glob(f"{path.stem}*.png")), f"{path.name} saved no figure"
    # clean numbers: no float noise such as 0.11041666666666666 (a 17-digit float64 repr with
    # a run of repeated digits) and no mpf(...) reprs (an enclosure is printed as [lo, hi])
    noise = [
        m.group(0) for m in re.finditer(r"\b\d\.(?=\d{15,})\d*?(\d)\1{5,}\d{0,2}\b", proc.stdout)
    ]
    assert not noise, f"{path.name} prints float noise: {noise}"
    assert "mpf(" not in proc.stdout, f"{path.name} prints raw mpf values"


@pytest.mark.slow
def test_docs_build_without_warnings(tmp_path):
    """``sphinx-build -W`` on a copy of the sources as a fresh clone has them (so the generated
    pages and the gallery's outputs do not touch docs/, and a folder git cannot hold — an empty
    one — is not there), running every example in its quick form; the figure data
    come from the documentation's own cache (docs/_build/.nbl_cache) when it is there."""
    pytest.importorskip("sphinx_gallery")
    src = tmp_path / "src"
    generated = ("_build", "api", "figures", "auto_examples", "sg_execution_times.rst")
    skip_generated = shutil.ignore_patterns(*generated)

    def ignore(folder, names):  # what a fresh clone has: no generated pages, no empty folders
        return set(skip_generated(folder, names)) | {
            n
            for n in names
            if (Path(folder) / n).is_dir()
            and not any(p.is_file() for p in (Path(folder) / n).rglob("*"))
        }

    shutil.copytree(DOCS, src / "docs", ignore=ignore)
    shutil.copytree(ROOT / "examples", src / "examples")
    for name in ("CHANGELOG.md", "CONTRIBUTING.md", "CITATION.cff"):
        shutil.copy(ROOT / name, src / name)
    cache = os.environ.get("NBL_DOCS_CACHE", str(DOCS / "_build" / ".nbl_cache"))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            str(src / "docs"),
            str(tmp_path / "html"),
        ],
        capture_output=True,
        text=True,
        timeout=3600,
        env=_env(NBL_DOCS_QUICK="1", NBL_DOCS_CACHE=cache),
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    html = tmp_path / "html"
    for page in (
        "index",
        "guide",
        "cli",
        "notation",
        "architecture",
        "report",
        "api/index",
        "figures/index",
        "auto_examples/index",
    ):
        assert (html / f"{page}.html").is_file(), page
    cli = (html / "cli.html").read_text(encoding="utf-8")
    assert "--solve-for" in cli and "--certify" in cli  # generated from the parser
    # the PDF's numbers beside the paper's labels (docs/_ext/nbl_labels.py), computed from the
    # LaTeX: notation.md cites `thm:regret-rate` and `prop:local_jacobian`
    from proofs_check.audit.numbering import printed_suffix

    notation = (html / "notation.html").read_text(encoding="utf-8")
    for label in ("thm:regret-rate", "prop:local_jacobian"):
        assert printed_suffix(label) and printed_suffix(label) in notation, label
