"""The one on-disk cache of finished results (sweep cells and figure data): data only, validated,
authenticated, in a private directory.

Layout: ``<directory>/<namespace>/<key[:2]>/<key>.json`` (+ ``<key>.npz`` when the value holds
arrays). The JSON file declares ``"schema": "nbl-cache-entry"`` and ``"version": 1`` and holds
the key, the value's tree (:mod:`nbl_sim.runs.plain_data`), the dtype and shape of every array, the
SHA-256 of the ``.npz`` file and an HMAC-SHA256 of all of it under a per-user secret. Arrays are
read with ``np.load(..., allow_pickle=False)``. Nothing is ever unpickled or executed.

**What is served.** An entry is returned only if every check passes: both files are regular
files (a symlink, a FIFO or a directory is not), the JSON parses and declares this schema,
version and key, the HMAC matches (so a file planted by someone else, copied from another
machine or moved from another key is not served), the ``.npz`` digest matches, the arrays are
bool, numeric or unicode with the declared dtypes and shapes, and the tree follows the plain-data
grammar. Anything else — truncated, empty, random bytes, a pickle, a wrong type or shape — is a
miss: the caller recomputes and :meth:`ChunkCache.put` replaces the bad entry.

**Directories.** :func:`default_cache_dir` is ``$NBL_CACHE_DIR`` if set, else the user's cache
directory (``platformdirs.user_cache_dir("nbl")`` when platformdirs is installed, else
``$XDG_CACHE_HOME/nbl`` or ``~/.cache/nbl``) — never the current directory. Directories are
created with mode 0o700; a cache directory writable by others (group or other write bit without
the sticky bit) or owned by another user is refused with a one-line
:class:`~nbl_theory.errors.NBLInputError` (:func:`private_dir`). The secret lives in
``<default_cache_dir()>/secret.key`` (mode 0o600), so it is the same whichever ``directory`` a
cache uses.

**Writes** go to a unique temporary file in the entry's directory, then ``os.replace``: readers
see the old entry or the new one, and concurrent writers of the same key never collide. A write
that fails (read-only or full file system) is recorded in :attr:`ChunkCache.fault` and never
raised: a cache fault never loses a result.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import re
import secrets
import shutil
import stat
import tempfile
from pathlib import Path

import numpy as np

from nbl_theory.errors import NBLInputError

from .plain_data import PlainDataError, check_array, decode, encode

__all__ = [
    "ChunkCache",
    "default_cache_dir",
    "private_dir",
    "take_write_faults",
    "CACHE_DIR_ENV",
    "SCHEMA",
    "SCHEMA_VERSION",
]

#: Environment variable that sets the default cache directory (see :func:`default_cache_dir`).
CACHE_DIR_ENV = "NBL_CACHE_DIR"
#: ``SCHEMA``: the ``"schema"`` field of every entry's JSON; ``SCHEMA_VERSION``: its
#: ``"version"`` (an entry of another schema or version is recomputed, never read).
SCHEMA, SCHEMA_VERSION = "nbl-cache-entry", 1
_KEY = re.compile(r"[A-Za-z0-9_-]{2,128}")
_NAMESPACE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_SECRET_FILE = "secret.key"
#: an entry's JSON beyond this is not ours: it is refused before it is parsed (parsing takes
#: up to ~12× the text), and :meth:`ChunkCache.put` does not write a larger one (arrays go to
#: the ``.npz``, which is not bounded but is read whole only after its digest matched)
_MAX_JSON = 16 * 2**20
_secrets: dict[Path, bytes] = {}
_write_faults: list[str] = []


def take_write_faults() -> list[str]:
    """The distinct write faults recorded by :meth:`ChunkCache.put` in this process since the
    last call (then forgotten): what a command reports as one warning line each.

    Returns
    -------
    list of str
        The faults, in the order first seen.
    """
    out = list(dict.fromkeys(_write_faults))
    _write_faults.clear()
    return out


# ---------------------------------------------------------------------- directories
def default_cache_dir() -> Path:
    """``$NBL_CACHE_DIR`` if set, else the user's cache directory for nbl (platformdirs when
    installed, else ``$XDG_CACHE_HOME/nbl`` with an absolute ``$XDG_CACHE_HOME``, else
    ``~/.cache/nbl``). Never relative to the current directory unless ``$NBL_CACHE_DIR`` is.

    Returns
    -------
    pathlib.Path
        The directory (not created here).
    """
    env = os.environ.get(CACHE_DIR_ENV, "").strip()
    if env:
        return _expand(env, CACHE_DIR_ENV).absolute()
    try:
        import platformdirs
    except ImportError:
        platformdirs = None
    if platformdirs is not None:
        p = Path(platformdirs.user_cache_dir("nbl", appauthor=False))
        if p.is_absolute():
            return p
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "nbl"


def _expand(path, what: str) -> Path:
    """``path`` with a leading ``~`` or ``~user`` expanded (one-line error for an unknown user
    or no home directory)."""
    try:
        return Path(path).expanduser()
    except RuntimeError:
        raise NBLInputError(
            f"{what} {path}: cannot expand {str(path).split('/')[0]!r} (no such "
            "user, or no home directory)"
        ) from None


def _unsafe(st: os.stat_result) -> str:
    """Why a directory with this status is not private ('' if it is; POSIX permissions only —
    on Windows the user profile's ACLs apply)."""
    if os.name != "posix":
        return ""
    if st.st_uid != os.geteuid():
        return "is owned by another user"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not st.st_mode & stat.S_ISVTX:
        return "is writable by others (chmod go-w, or choose another directory)"
    return ""


def private_dir(path) -> Path:
    """``path`` as an absolute directory that only this user can write, created (with missing
    parents) with mode 0o700.

    Parameters
    ----------
    path : str or pathlib.Path
        The directory (a leading ``~`` or ``~user`` expanded).

    Returns
    -------
    pathlib.Path
        The absolute directory.

    Raises
    ------
    NBLInputError
        ``path`` or a directory created on the way is writable by others (group/other write bit
        without the sticky bit) or owned by another user, or is not a directory.
    """
    path = _expand(path, "cache directory").absolute()
    missing = []
    p = path
    while not p.exists() and p != p.parent:
        missing.append(p)
        p = p.parent
    for d in reversed(missing):
        try:
            os.mkdir(d, 0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise NBLInputError(
                f"cannot create the cache directory {d}: {exc.strerror} (set "
                f"{CACHE_DIR_ENV} or use --cache-dir / --no-cache)"
            ) from None
    for d in [*reversed(missing), path]:
        try:
            st = os.stat(d)
        except OSError as exc:
            raise NBLInputError(f"cache directory {d}: {exc.strerror}") from None
        if not stat.S_ISDIR(st.st_mode):
            raise NBLInputError(f"cache directory {d} is not a directory")
        why = _unsafe(st)
        if why:
            raise NBLInputError(f"refusing cache directory {d}: it {why}")
    return path


def _secret() -> bytes:
    """The per-user key of the entries' HMAC (created once, mode 0o600, in
    :func:`default_cache_dir`)."""
    home = default_cache_dir()
    f = home / _SECRET_FILE
    if f in _secrets:
        return _secrets[f]
    private_dir(home)
    for _ in range(3):
        try:
            fd = os.open(
                f, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
            )
        except FileNotFoundError:
            fd = None
        except OSError:  # a symlink (ELOOP) or worse in its place
            os.unlink(f)
            fd = None
        if fd is not None:
            st = os.fstat(fd)
            if stat.S_ISDIR(st.st_mode):  # never removed for the user: it may hold anything
                os.close(fd)
                raise NBLInputError(
                    f"the cache key {f} is a directory; remove it or choose another cache directory"
                )
            with os.fdopen(fd, "rb") as fh:
                key = fh.read(65) if stat.S_ISREG(st.st_mode) else b""
            if len(key) == 64 and not _unsafe_file(st):
                _secrets[f] = key
                return key
            os.unlink(f)  # unusable (wrong size, readable by others, ...): make a new one
        try:
            tmp = tempfile.NamedTemporaryFile(dir=home, prefix=".secret.", delete=False)
        except OSError as exc:
            raise NBLInputError(
                f"cannot create the cache key in {home}: {exc.strerror} (set "
                f"{CACHE_DIR_ENV}, or use --no-cache)"
            ) from None
        try:
            tmp.write(secrets.token_bytes(64))
            tmp.close()
            os.link(tmp.name, f)  # never a half-written key: fails if one exists
        except FileExistsError:
            pass  # another process made it first: read theirs
        except OSError as exc:
            raise NBLInputError(f"cannot create the cache key {f}: {exc.strerror}") from None
        finally:
            os.unlink(tmp.name)
    raise NBLInputError(f"cannot set up the cache key {f}")


def _unsafe_file(st: os.stat_result) -> bool:
    return os.name == "posix" and (st.st_uid != os.geteuid() or bool(st.st_mode & 0o077))


# ---------------------------------------------------------------------- the cache
class ChunkCache:
    """Finished results on disk: ``<directory>/<namespace>/<key[:2]>/<key>.json`` (+ ``.npz``).

    Values are plain data (:mod:`nbl_sim.runs.plain_data`); see the module docstring for what is
    checked before a stored value is served.

    Parameters
    ----------
    directory : str or pathlib.Path, optional
        The cache directory (None: :func:`default_cache_dir`); created with mode 0o700 and
        refused (:class:`~nbl_theory.errors.NBLInputError`) if others can write to it.
    namespace : str, default "default"
        A subdirectory (letters, digits, ``-``, ``_``), e.g. ``"simulate"``, ``"figures"``.
    """

    def __init__(self, directory=None, namespace: str = "default"):
        if not isinstance(namespace, str) or not _NAMESPACE.fullmatch(namespace):
            raise NBLInputError(
                f"cache namespace must be letters, digits, '-' or '_', got {namespace!r}"
            )
        self._key = _secret()  # an unusable key location is refused now, before any work
        base = private_dir(default_cache_dir() if directory is None else directory)
        self.root = private_dir(base / namespace)
        #: why writing failed (None while every write succeeded); see :meth:`put`
        self.fault: str | None = None

    def __repr__(self) -> str:
        return f"ChunkCache({str(self.root.parent)!r}, {self.root.name!r})"

    def _path(self, key: str) -> Path:
        if not isinstance(key, str) or not _KEY.fullmatch(key):
            raise NBLInputError(f"bad cache key {key!r}")
        return self.root / key[:2] / f"{key}.json"

    # ------------------------------------------------------------------ reading
    def get(self, key: str):
        """``(True, value)`` for a valid entry, else ``(False, None)`` (missing, or anything not
        passing the checks of the module docstring).

        Parameters
        ----------
        key : str
            The entry's key: 2–128 letters, digits, ``-`` or ``_`` (e.g.
            :func:`nbl_sim.runs.sweep.cell_key`).

        Returns
        -------
        tuple
            ``(found, value)``.
        """
        p = self._path(key)
        try:
            return True, self._read(key, p)
        except (OSError, ValueError, KeyError, TypeError, RecursionError, MemoryError, EOFError):
            return False, None

    def _read(self, key: str, p: Path):
        shard = os.lstat(p.parent)
        if not stat.S_ISDIR(shard.st_mode) or _unsafe(shard):
            raise PlainDataError("the entry directory is not a private directory")
        entry = json.loads(_read_regular(p, _MAX_JSON))
        if type(entry) is not dict or "mac" not in entry:
            raise PlainDataError("not a cache entry")
        mac = entry.pop("mac")
        if (
            entry.get("schema") != SCHEMA
            or entry.get("version") != SCHEMA_VERSION
            or entry.get("key") != key
            or type(mac) is not str
            or not hmac.compare_digest(mac, _mac(entry, self._key))
        ):
            raise PlainDataError("schema, version, key or signature mismatch")
        specs, digest = entry["arrays"], entry["npz_sha256"]
        if type(specs) is not list:
            raise PlainDataError("arrays must be a list")
        arrays = []
        if specs:
            if type(digest) is not str:
                raise PlainDataError("the arrays file does not match the entry")
            raw = _read_verified(p.with_suffix(".npz"), digest)
            if not raw.startswith(b"PK\x03\x04"):
                raise PlainDataError("the arrays file is not an npz archive")
            with np.load(io.BytesIO(raw), allow_pickle=False) as npz:
                names = [f"a{i}" for i in range(len(specs))]
                if sorted(npz.files) != sorted(names):
                    raise PlainDataError("the arrays file holds other arrays")
                for name, spec in zip(names, specs):
                    if type(spec) is not dict or set(spec) != {"dtype", "shape"}:
                        raise PlainDataError("bad array description")
                    arrays.append(check_array(npz[name], spec["dtype"], spec["shape"]))
        elif digest is not None:
            raise PlainDataError("an arrays digest without arrays")
        return decode(entry["value"], arrays)

    # ------------------------------------------------------------------ writing
    def put(self, key: str, value) -> bool:
        """Store ``value`` (plain data, else ``TypeError`` naming the offending type) under
        ``key``, replacing whatever is there, atomically; True if it was stored.

        A fault of the file system (read-only, full, an I/O error, a directory that became
        unusable) never loses the result that was to be stored: it is recorded in
        :attr:`fault` (the first one; the caller reports it as one warning line), later puts
        are skipped, and False is returned.

        Parameters
        ----------
        key : str
            The entry's key.
        value : object
            Plain data (:mod:`nbl_sim.runs.plain_data`).

        Returns
        -------
        bool
            Whether the value was stored.
        """
        p = self._path(key)
        tree, arrays = encode(value)
        if self.fault is not None:
            return False
        try:
            self._write(key, p, tree, arrays)
        except (OSError, NBLInputError) as exc:
            why = getattr(exc, "strerror", None) or str(exc)
            self.fault = f"{why} ({self.root})"
            _write_faults.append(self.fault)
            return False
        return True

    def _write(self, key: str, p: Path, tree, arrays) -> None:
        shard = _private_subdir(p.parent)
        entry = {
            "schema": SCHEMA,
            "version": SCHEMA_VERSION,
            "key": key,
            "arrays": [{"dtype": a.dtype.str, "shape": list(a.shape)} for a in arrays],
            "npz_sha256": None,
            "value": tree,
        }
        raw = None
        if arrays:
            buf = io.BytesIO()
            np.savez(buf, **{f"a{i}": a for i, a in enumerate(arrays)})
            raw = buf.getvalue()
            entry["npz_sha256"] = hashlib.sha256(raw).hexdigest()
        entry["mac"] = _mac(entry, self._key)
        body = json.dumps(entry, allow_nan=False).encode()
        if len(body) > _MAX_JSON:  # would never be read back: not cached (not a fault)
            return
        if raw is not None:
            _atomic_write(shard, p.with_suffix(".npz"), raw)
        _atomic_write(shard, p, body)

    def __len__(self) -> int:
        """The number of entries (JSON files; valid or not)."""
        return sum(1 for _ in self.root.glob("??/*.json"))


def _mac(entry: dict, key: bytes) -> str:
    body = json.dumps(entry, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def _read_regular(p: Path, limit: int | None) -> bytes:
    """The bytes of ``p`` if it is a regular file (not a symlink, FIFO, device, directory)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(p, flags)
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (limit is not None and st.st_size > limit):
            raise PlainDataError("not a regular file of a plausible size")
        return fh.read()


def _read_verified(p: Path, digest: str) -> bytes:
    """The bytes of the regular file ``p`` if their SHA-256 is ``digest``. The digest is first
    computed a block at a time (1 MiB), so a planted file of any size is refused without being
    read whole; only a file that matches is read into memory (and its digest checked again on
    what was read)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(p, flags)
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise PlainDataError("not a regular file")
        h = hashlib.sha256()
        for block in iter(lambda: fh.read(2**20), b""):
            h.update(block)
        if h.hexdigest() != digest:
            raise PlainDataError("the arrays file does not match the entry")
        fh.seek(0)
        raw = fh.read()
    if hashlib.sha256(raw).hexdigest() != digest:
        raise PlainDataError("the arrays file changed while it was read")
    return raw


def _private_subdir(d: Path) -> Path:
    """The entry directory ``d`` as a private directory of ours (a symlink, a file or a loose
    mode in its place is replaced or fixed; another user's directory is refused)."""
    try:
        st = os.lstat(d)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISDIR(st.st_mode):
        os.unlink(d)  # a symlink or a file: not ours to follow
        st = None
    if st is None:
        try:
            os.mkdir(d, 0o700)
        except FileExistsError:
            pass
        st = os.lstat(d)
        if not stat.S_ISDIR(st.st_mode):
            raise NBLInputError(f"cache directory {d} keeps being replaced")
    why = _unsafe(st)
    if why.startswith("is writable"):
        os.chmod(d, 0o700)
    elif why:
        raise NBLInputError(f"refusing cache directory {d}: it {why}")
    return d


def _atomic_write(directory: Path, target: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        try:
            os.replace(tmp, target)
        except OSError:
            if not stat.S_ISDIR(os.lstat(target).st_mode):
                raise
            shutil.rmtree(target)  # a directory where an entry belongs: not an entry
            os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
