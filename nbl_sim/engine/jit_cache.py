"""numba's on-disk cache of compiled kernels, made to notice edits anywhere in this package.

numba stamps a cached kernel with a hash of the one file that defines it. The kernels here call
compiled code defined in other files — the LLVM IR of :mod:`nbl_sim.engine.llvm_ops` and
:mod:`nbl_sim.engine.environment_lanes`, the PCG64 stream of :mod:`nbl_sim.engine.pcg64`, the NBL
lanes — and numba inlines that code into the cached kernel. After an edit of such a file alone,
numba would load the old kernel as current.

Importing this module (every module of the package that defines a cached kernel does, before its
first ``@numba.njit(cache=True)``; a test checks) puts one cache locator ahead of numba's own. For
a function defined in this package it finds the cache directory numba would have used, and stamps
the cache with the hash numba uses *and* a hash of every source file of the package that imports
numba or llvmlite: an edit of any of them recompiles every kernel of the package once, at its
next use. Functions defined elsewhere are left to numba's locators.

**Where the kernels are cached.** numba's cache files (``*.nbi`` index, ``*.nbc`` code) are
pickles: whoever can write them can run code in nbl. So for a function of this package the
locator never uses numba's own places (``__pycache__`` beside the package, numba's user-wide
directory): it uses :func:`numba_cache_dir`, ``<nbl's cache directory>/numba/<package hash>``
(``nbl_sim.runs.cache.default_cache_dir``: ``$NBL_CACHE_DIR`` or the user cache directory), a
directory the toolkit owns, created with mode 0o700 and held to the rules of nbl's own cache
(:func:`nbl_sim.runs.cache.private_dir`: refused when others can write to it or it belongs to
another user). The directory is decided once per process, when the first kernel is defined, and
created only when a kernel is first saved. When it cannot be used, the kernels of this process
are cached in a new private temporary directory removed at exit, or, when that is found only at
save time, not saved (:class:`CacheUnusable`, caught around numba's ``Cache.save_overload``) —
caching is then off: every run compiles its kernels again (about 60 s for ``nbl simulate`` on a
cold cache, benchmarks/README.md).

If numba's caching internals are not the ones this was written for (the list
``numba.core.caching.CacheImpl._locator_classes``; ``_CacheImpl`` in older numba), nothing is
installed and numba's own behaviour applies; :data:`INSTALLED` says which. With
``NUMBA_CACHE_LOCATOR_CLASSES`` set, numba uses the user's list and this one is left out.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import os
import re
import shutil
import tempfile
from pathlib import Path

__all__ = ["INSTALLED", "package_digest", "compiled_sources", "numba_cache_dir",
           "planned_cache_dir", "CacheUnusable"]

_PACKAGE = Path(__file__).resolve().parents[1]
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


@functools.cache
def planned_cache_dir() -> Path:
    """Where this package's kernels are cached: ``<nbl's cache directory>/numba/<tag>``, the
    tag a hash of the package's path. Decided once per process, when the first kernel is
    defined (at import), from the environment of that moment, and without creating anything
    (a refused command writes nothing); :func:`numba_cache_dir` checks and creates it."""
    from nbl_sim.runs.cache import default_cache_dir  # (absolute: tests copy this file)

    tag = hashlib.sha256(str(_PACKAGE).encode()).hexdigest()[:16]
    return default_cache_dir() / "numba" / tag


@functools.cache
def numba_cache_dir() -> Path:
    """The private directory of this package's compiled kernels (module docstring): the
    :func:`planned_cache_dir`, created 0o700 and checked like nbl's cache; a private temporary
    directory (removed at exit) when it cannot be used. Asked once, when a kernel is first
    loaded or saved."""
    from nbl_sim.runs.cache import private_dir  # (absolute: tests copy this file)
    from nbl_theory.errors import NBLInputError

    planned = planned_cache_dir()
    try:
        return private_dir(private_dir(planned.parent) / planned.name)
    except (NBLInputError, OSError):
        tmp = Path(tempfile.mkdtemp(prefix="nbl-numba-"))
        atexit.register(shutil.rmtree, tmp, True)
        return tmp


class CacheUnusable(OSError):
    """The planned cache directory turned out not to be private when a kernel was saved: the
    kernel is used, only not saved (caught around numba's ``Cache.save_overload``)."""


def _locator_path() -> Path:
    """The directory a kernel defined now reads its cache from: the planned one if part of it
    exists already (then it is checked now, and a temporary one is used if it is not private),
    else the planned path, checked and created when the first kernel is saved."""
    planned = planned_cache_dir()
    if planned.parent.exists():
        return numba_cache_dir()
    return planned


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

        def __init__(self, inner, py_file):
            self._inner = inner
            rel = Path(py_file).resolve().relative_to(_PACKAGE).with_suffix("")
            # decided without creating anything: a refused command writes nothing
            self._path = _locator_path() / "-".join(rel.parts)

        def __getattr__(self, name):  # e.g. _py_file, read by numba's warnings
            if name in ("_inner", "_path"):
                raise AttributeError(name)
            return getattr(self._inner, name)

        def ensure_cache_path(self):
            if numba_cache_dir() != self._path.parent:   # the planned place is not usable
                raise CacheUnusable(f"nbl's numba cache {self._path.parent} is not private")
            os.makedirs(self._path, mode=0o700, exist_ok=True)

        def get_cache_path(self):
            return str(self._path)

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
                if inner is not None:     # its disambiguator and stamp; never its directory
                    return cls(inner, py_file)
            return None

    cache_class = getattr(caching, "Cache", None)
    save = getattr(cache_class, "save_overload", None)
    if save is None:
        return False
    if not getattr(save, "_nbl_wrapped", False):
        @functools.wraps(save)
        def save_overload(self, sig, data):
            try:
                return save(self, sig, data)
            except CacheUnusable:
                return None        # compiled and used; only not saved (CacheUnusable)

        save_overload._nbl_wrapped = True
        cache_class.save_overload = save_overload
    classes.insert(0, PackageLocator)
    from numba.core import config

    return not getattr(config, "CACHE_LOCATOR_CLASSES", None)


#: True if the package's stamp is added to numba's cache stamps in this process
INSTALLED = _install()
