"""numba's on-disk cache of this package's compiled kernels, placed and stamped through numba's
documented cache setting alone.

Every cached kernel of the package is defined with :func:`njit` (a test checks that no module
writes ``cache=True`` itself): ``numba.njit(...)`` with no file touched. Its on-disk cache is
turned on by :func:`enable`, which the entry points call once their input is checked (so a
refused command writes nothing): the kernel dispatcher's ``enable_caching`` — what numba's own
``cache=True`` calls — with numba's cache-directory setting (``numba.config.CACHE_DIR``, the
``NUMBA_CACHE_DIR`` of numba's documentation) pointed at :func:`numba_cache_dir` meanwhile and
restored right after: the choice binds this package's kernels only, never a user's own numba
functions.

**Why a directory of its own, named by a digest.** numba stamps a cached kernel with a hash of
the one file that defines it. The kernels here inline compiled code defined in other files —
the LLVM IR of :mod:`nbl_sim.engine.llvm_ops`, the PCG64 stream of
:mod:`nbl_sim.engine.pcg64`, the constants of :mod:`nbl_sim.engine.contract` — so after an edit
of such a file alone numba would load the old kernel as current. The directory is named by
:func:`package_digest`, a hash of every source file of the package that imports numba,
llvmlite or this module (and of the package's path): an edit of any of them gives a new, empty
directory, and every kernel compiles once again at its next use.

**Why not numba's own places.** numba's cache files (``*.nbi`` index, ``*.nbc`` code) are
pickles: whoever can write them can run code in nbl. numba's default places are ``__pycache__``
beside the package and a user-wide directory; here the kernels are cached in
``<nbl's cache directory>/numba/<digest>`` (``nbl_sim.runs.cache.default_cache_dir``:
``$NBL_CACHE_DIR`` or the user cache directory), created with mode 0o700 and held to the rules
of nbl's own cache (:func:`nbl_sim.runs.cache.private_dir`: refused when others can write to it
or it belongs to another user). When it cannot be used, this process's kernels are cached in a
new private temporary directory removed at exit — caching is then off across processes: every
run compiles its kernels again (about 60 s for ``nbl simulate`` on a cold cache,
benchmarks/README.md). The directory is decided, checked and created once per process, by the first
:func:`enable`.

With ``NUMBA_CACHE_LOCATOR_CLASSES`` set, numba uses the user's locators and the directory here
may be ignored; with ``NUMBA_DISABLE_JIT`` nothing is compiled or cached.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import re
import shutil
import tempfile
import threading
from pathlib import Path

import numba

__all__ = ["njit", "enable", "package_digest", "compiled_sources", "numba_cache_dir"]

_PACKAGE = Path(__file__).resolve().parents[1]
_COMPILED = re.compile(
    rb"^\s*(?:import numba|from numba|from llvmlite|import llvmlite"
    rb"|from \.+(?:engine)? import jit_cache)",
    re.M,
)


def compiled_sources(package: Path = _PACKAGE) -> list[Path]:
    """The package's source files that import numba, llvmlite or this module (the files whose
    code a cached kernel can hold).

    Parameters
    ----------
    package : pathlib.Path, optional
        The package's root folder (default: nbl_sim's).

    Returns
    -------
    list of pathlib.Path
        The files, sorted.
    """
    return sorted(p for p in package.rglob("*.py") if _COMPILED.search(p.read_bytes()))


@functools.cache
def package_digest(package: Path = _PACKAGE) -> str:
    """SHA-256 over the package's path and the paths and contents of :func:`compiled_sources`,
    of the engine's data files and of the seam's contract (whose constants the kernels freeze;
    computed once per process).

    Parameters
    ----------
    package : pathlib.Path, optional
        The package's root folder (default: nbl_sim's).

    Returns
    -------
    str
        The hexadecimal digest.
    """
    h = hashlib.sha256(str(package).encode() + b"\0")
    # the kernels also freeze the engine's data (numpy's ziggurat tables) and the constants of
    # the seam's contract (the line search's, the lockstep width) into their code
    frozen = sorted(package.glob("engine/data/*")) + sorted(package.glob("engine/contract.py"))
    for path in compiled_sources(package) + frozen:
        h.update(path.relative_to(package).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


@functools.cache
def numba_cache_dir() -> Path:
    """The private directory of this package's compiled kernels (module docstring).

    ``<nbl's cache directory>/numba/<first 16 hex digits of package_digest>``, created 0o700
    and checked like nbl's cache; a private temporary directory (removed at exit) when it cannot
    be used. Decided once per process.

    Returns
    -------
    pathlib.Path
        The directory, existing and private.
    """
    from nbl_sim.runs.cache import default_cache_dir, private_dir  # (absolute: tests copy this)
    from nbl_theory.errors import NBLInputError

    try:
        return private_dir(private_dir(default_cache_dir() / "numba") / package_digest()[:16])
    except (NBLInputError, OSError):
        tmp = Path(tempfile.mkdtemp(prefix="nbl-numba-"))
        atexit.register(shutil.rmtree, tmp, True)
        return tmp


_LOCK = threading.Lock()
#: the package's kernels defined before :func:`enable` (their cache is not on yet)
_WAITING: list = []
_ENABLED = False


def _cache_in_place(kernels) -> None:
    place = str(numba_cache_dir())
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = place
    try:
        for kernel in kernels:
            if hasattr(kernel, "enable_caching"):  # (not with NUMBA_DISABLE_JIT)
                kernel.enable_caching()
    finally:
        numba.config.CACHE_DIR = saved


def enable() -> None:
    """Turn on the on-disk cache of the package's kernels (idempotent, thread-safe).

    The entry points call it once their input is checked — :meth:`Environment.draw
    <nbl_sim.engine.environment.Environment.draw>`, :func:`nbl_sim.engine.nbl_kernel.nbl_run`,
    the Greedy Logistic fits — so a refused command writes nothing: defining a kernel (at
    import) touches no file, and the cache directory is decided, checked and created here. A
    kernel first called before (e.g. a test calling it directly) is compiled, used and not
    saved.
    """
    global _ENABLED
    if _ENABLED:
        return
    with _LOCK:
        if not _ENABLED:
            _cache_in_place(_WAITING)
            _WAITING.clear()
            _ENABLED = True


def njit(**options):
    """``numba.njit(**options)`` for a kernel of the package, cached on disk once
    :func:`enable` has run.

    numba's documented cache-directory setting (``numba.config.CACHE_DIR``) is pointed at
    :func:`numba_cache_dir` while the kernel's cache is turned on (numba chooses a kernel's
    cache place then) and restored right after.

    Parameters
    ----------
    **options
        numba's ``njit`` options (``nogil``, ``inline``, ...); never ``cache`` (this module
        decides it).

    Returns
    -------
    callable
        The decorator.
    """

    def define(fn):
        kernel = numba.njit(**options)(fn)
        with _LOCK:
            if _ENABLED:
                _cache_in_place((kernel,))
            else:
                _WAITING.append(kernel)
        return kernel

    return define
