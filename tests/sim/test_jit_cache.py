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


def test_every_module_with_a_cached_kernel_installs_the_guard_first():
    """A module defining ``@numba.njit(cache=True)`` kernels imports :mod:`nbl_sim.engine.jit_cache`
    before the first one (numba picks a kernel's cache locator when it is decorated)."""
    modules = [p for p in PACKAGE.rglob("*.py")
               if p.name != "jit_cache.py" and re.search(r"cache\s*=\s*True", p.read_text())]
    assert len(modules) >= 6  # engine: pcg64, seeding, passes, lanes; policies: nbl, greedy
    for p in modules:
        text = p.read_text()
        guard = re.search(r"^from \.+(?:engine)? import jit_cache", text, re.M)
        assert guard, f"{p.relative_to(PACKAGE)} does not import jit_cache"
        assert guard.start() < re.search(r"cache\s*=\s*True", text).start(), p


# That the package's own kernels carry the package stamp is what the two tests around this line
# mean together, with no look into numba's private objects: every module that defines a cached
# kernel imports jit_cache first (above), and a kernel whose inlined helper in another file is
# edited recompiles in the next process (test_an_edit_of_an_inlined_helper_..., below).


def test_the_digest_covers_exactly_the_compiled_sources(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text("import numba\n")
    (pkg / "sub" / "b.py").write_text("from llvmlite import ir\n")
    (pkg / "c.py").write_text("x = 1  # mentions numba in a comment only\n")
    assert [p.name for p in jit_cache.compiled_sources(pkg)] == ["a.py", "b.py"]
    before = jit_cache.package_digest.__wrapped__(pkg)
    (pkg / "c.py").write_text("x = 2\n")
    assert jit_cache.package_digest.__wrapped__(pkg) == before
    (pkg / "sub" / "b.py").write_text("from llvmlite import ir  # edited\n")
    assert jit_cache.package_digest.__wrapped__(pkg) != before


def _package(root: Path, guarded: bool) -> None:
    pkg = root / "stalepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "engine").mkdir()  # jit_cache sits one folder below the package, as in nbl_sim
    (pkg / "engine" / "__init__.py").write_text("")
    shutil.copy(Path(jit_cache.__file__), pkg / "engine" / "jit_cache.py")
    (pkg / "helper.py").write_text(textwrap.dedent("""\
        import numba


        @numba.njit
        def value():
            return 1
        """))
    guard = "from .engine import jit_cache  # noqa: F401\n" if guarded else ""
    (pkg / "kern.py").write_text(textwrap.dedent("""\
        import numba

        {guard}from .helper import value


        @numba.njit(cache=True)
        def kernel():
            return value()
        """).format(guard=guard))


def _run(root: Path) -> str:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES", "NUMBA_DISABLE_JIT")}
    env["PYTHONPATH"] = str(root)
    code = "from stalepkg.kern import kernel; print(kernel())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, cwd=root)
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
    assert list(home.glob("numba/*/kern/kern.kernel-*.nbi")) or not guarded
    helper = tmp_path / "stalepkg" / "helper.py"
    helper.write_text(helper.read_text().replace("return 1", "return 2"))
    assert _run(tmp_path) == ("2" if guarded else "1")
