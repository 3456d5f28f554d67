"""numba's on-disk cache of compiled kernels, made to notice edits anywhere in this package.

numba stamps a cached kernel with a hash of the one file that defines it. The kernels here call
compiled code defined in other files — the LLVM IR of :mod:`nbl_sim.llvm_ops` and
:mod:`nbl_sim.environment_lanes`, the PCG64 stream of :mod:`nbl_sim.pcg64`, the NBL lanes — and
numba inlines that code into the cached kernel. After an edit of such a file alone, numba would
load the old kernel as current.

Importing this module (every module of the package that defines a cached kernel does, before its
first ``@numba.njit(cache=True)``; a test checks) puts one cache locator ahead of numba's own. For
a function defined in this package it finds the cache directory numba would have used, and stamps
the cache with the hash numba uses *and* a hash of every source file of the package that imports
numba or llvmlite: an edit of any of them recompiles every kernel of the package once, at its
next use. Functions defined elsewhere are left to numba's locators.

If numba's caching internals are not the ones this was written for (the list
``numba.core.caching.CacheImpl._locator_classes``; ``_CacheImpl`` in older numba), nothing is
installed and numba's own behaviour applies; :data:`INSTALLED` says which. With
``NUMBA_CACHE_LOCATOR_CLASSES`` set, numba uses the user's list and this one is left out.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

__all__ = ["INSTALLED", "package_digest", "compiled_sources"]

_PACKAGE = Path(__file__).resolve().parent
_COMPILED = re.compile(rb"^\s*(?:import numba|from numba|from llvmlite|import llvmlite)", re.M)


def compiled_sources(package: Path = _PACKAGE) -> list[Path]:
    """The package's source files that import numba or llvmlite (sorted)."""
    return sorted(p for p in package.rglob("*.py") if _COMPILED.search(p.read_bytes()))


@functools.cache
def package_digest(package: Path = _PACKAGE) -> str:
    """SHA-256 over the paths and contents of :func:`compiled_sources` (once per process)."""
    h = hashlib.sha256()
    for path in compiled_sources(package):
        h.update(path.relative_to(package).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def _install() -> bool:
    try:
        from numba.core import caching
    except ImportError:  # pragma: no cover - numba is a dependency
        return False
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    base = getattr(caching, "_CacheLocator", None)
    if not isinstance(classes, list) or base is None:
        return False
    if any(getattr(c, "_nbl_package", None) == _PACKAGE for c in classes):
        return True  # (a second import of this file, e.g. under another name)

    class PackageLocator(base):
        """numba's locator for a function of this package, with the package's stamp added."""

        _nbl_package = _PACKAGE

        def __init__(self, inner):
            self._inner = inner

        def __getattr__(self, name):  # e.g. _py_file, read by numba's warnings
            if name == "_inner":
                raise AttributeError(name)
            return getattr(self._inner, name)

        def ensure_cache_path(self):
            return self._inner.ensure_cache_path()

        def get_cache_path(self):
            return self._inner.get_cache_path()

        def get_disambiguator(self):
            return self._inner.get_disambiguator()

        def get_source_stamp(self):
            return (self._inner.get_source_stamp(), package_digest())

        @classmethod
        def from_function(cls, py_func, py_file):
            try:
                inside = Path(py_file).resolve().is_relative_to(_PACKAGE)
            except (OSError, ValueError):
                inside = False
            if not inside:
                return None
            for other in classes:
                if other is cls:
                    continue
                inner = other.from_function(py_func, py_file)
                if inner is not None:
                    return cls(inner)
            return None

    classes.insert(0, PackageLocator)
    from numba.core import config

    return not getattr(config, "CACHE_LOCATOR_CLASSES", None)


#: True if the package's stamp is added to numba's cache stamps in this process
INSTALLED = _install()
