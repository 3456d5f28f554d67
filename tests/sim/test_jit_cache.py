"""numba's kernel cache notices an edit of any compiled source of the package
(:mod:`nbl_sim.engine.jit_cache`): without the guard, a cached kernel that inlines a function of another
file survives an edit of that file (shown below on a small package), with it the kernel is
recompiled."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import nbl_sim
from nbl_sim.engine import jit_cache

PACKAGE = Path(nbl_sim.__file__).resolve().parent


def test_every_cached_kernel_is_defined_through_jit_cache():
    """No module of the package writes ``cache=True`` itself: every cached kernel is defined with
    :func:`nbl_sim.engine.jit_cache.njit`, so it is cached in the private, digest-named
    directory (numba picks a kernel's cache place when it is defined)."""
    modules = [p for p in PACKAGE.rglob("*.py") if "jit_cache.njit(" in p.read_text()]
    assert len(modules) >= 4  # engine: pcg64, passes; policies: nbl, greedy
    for p in PACKAGE.rglob("*.py"):
        if p.name != "jit_cache.py":
            assert not re.search(r"cache\s*=\s*True", p.read_text()), p.relative_to(PACKAGE)
    assert set(modules) <= set(jit_cache.compiled_sources())


def test_the_cache_setting_binds_only_the_package_s_kernels():
    """numba's CACHE_DIR is set while a kernel of the package is defined and restored after."""
    import numba

    before = numba.config.CACHE_DIR

    @jit_cache.njit()
    def twice(x):
        return 2 * x

    assert numba.config.CACHE_DIR == before
    assert twice(3) == 6


# That the package's own kernels are cached in the digest-named private directory is what the
# tests around this line mean together, with no look into numba's private objects: every cached
# kernel is defined through jit_cache (above), the kernel files land there
# (tests/proofs_check/test_faults.py) and a kernel whose inlined helper in another file is
# edited recompiles in the next process (test_an_edit_of_an_inlined_helper_..., below).


def test_the_digest_covers_exactly_the_compiled_sources(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text("import numba\n")
    (pkg / "sub" / "b.py").write_text("from llvmlite import ir\n")
    (pkg / "c.py").write_text("x = 1  # mentions numba in a comment only\n")
    (pkg / "sub" / "d.py").write_text("from ..engine import jit_cache\n")
    assert [p.name for p in jit_cache.compiled_sources(pkg)] == ["a.py", "b.py", "d.py"]
    before = jit_cache.package_digest.__wrapped__(pkg)
    (pkg / "c.py").write_text("x = 2\n")
    assert jit_cache.package_digest.__wrapped__(pkg) == before
    (pkg / "sub" / "b.py").write_text("from llvmlite import ir  # edited\n")
    edited = jit_cache.package_digest.__wrapped__(pkg)
    assert edited != before
    (pkg / "engine" / "data").mkdir(parents=True)  # data a kernel freezes (ziggurat tables)
    (pkg / "engine" / "data" / "tables.json").write_text("[1]\n")
    assert jit_cache.package_digest.__wrapped__(pkg) != edited


def _package(root: Path, guarded: bool) -> None:
    pkg = root / "stalepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "engine").mkdir()  # jit_cache sits one folder below the package, as in nbl_sim
    (pkg / "engine" / "__init__.py").write_text("")
    shutil.copy(Path(jit_cache.__file__), pkg / "engine" / "jit_cache.py")
    (pkg / "helper.py").write_text(
        textwrap.dedent("""\
        import numba


        @numba.njit
        def value():
            return 1
        """)
    )
    guard = "from .engine import jit_cache\n" if guarded else ""
    define = "jit_cache.njit()" if guarded else "numba.njit(cache=True)"
    (pkg / "kern.py").write_text(
        textwrap.dedent("""\
        import numba

        {guard}from .helper import value


        @{define}
        def kernel():
            return value()
        """).format(guard=guard, define=define)
        + ("\n\njit_cache.enable()  # what the package's entry points do\n" if guarded else "")
    )


def _run(root: Path) -> str:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES", "NUMBA_DISABLE_JIT")
    }
    env["PYTHONPATH"] = str(root)
    code = "from stalepkg.kern import kernel; print(kernel())"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120, cwd=root
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.parametrize("guarded", [True, False])
def test_an_edit_of_an_inlined_helper_recompiles_the_cached_kernel(tmp_path, guarded):
    """The kernel's file is unchanged, the helper it inlines is edited: with the guard the next
    process computes with the new helper; without it numba loads the stale kernel (the hazard
    the guard exists for — if numba ever notices by itself, this half fails and can go)."""
    _package(tmp_path, guarded)
    assert _run(tmp_path) == "1"
    # in the toolkit's private directory, never beside the package (issue 36)
    assert not list((tmp_path / "stalepkg").rglob("kern.kernel-*.nbi")) or not guarded
    home = Path(os.environ["NBL_CACHE_DIR"])
    assert list(home.glob("numba/*/*/kern.kernel-*.nbi")) or not guarded
    helper = tmp_path / "stalepkg" / "helper.py"
    helper.write_text(helper.read_text().replace("return 1", "return 2"))
    assert _run(tmp_path) == ("2" if guarded else "1")
