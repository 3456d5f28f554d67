"""Output files of the ``nbl`` commands, written the safe way.

Every file goes to a unique temporary name in its directory and is then moved onto its name
with :func:`os.replace`. So a reader never sees half a file, two runs writing the same output
never interleave, and a name that is a symbolic link is *replaced* — the file it points to is
left alone (a link planted in an output directory cannot make a run overwrite someone else's
file, or write into ``/dev/full``).

The files of one run are written **as a set** (:func:`output_set`): into a temporary sibling
directory ``.DIR.nbl-<pid>-<hex>.tmp``, which is renamed onto ``DIR`` when ``DIR`` does not
exist or is empty (one atomic rename). When ``DIR`` already holds files, the run's index file
(its manifest) is removed first, the other files are moved in, and the index comes last: a
directory with an index holds the files that index lists, all of one run (the index carries the
run's id), and a run killed half-way leaves no index. Leftovers of killed runs — staging
directories and ``.NAME.<pid>.<hex>.tmp`` files whose process is gone — are removed by the next
run that writes there.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "replacing",
    "write_text",
    "save_figure",
    "output_set",
    "OutputSet",
    "remove_leftovers",
    "new_run_id",
]

_STAGING = re.compile(r"\.(?P<name>.+)\.nbl-(?P<pid>[0-9]+)-[0-9a-f]{12}\.tmp")
_TMPFILE = re.compile(r"\..+\.(?P<pid>[0-9]+)\.[0-9a-f]{12}\.tmp")


@contextlib.contextmanager
def replacing(path) -> Iterator[Path]:
    """A unique temporary path next to ``path``, moved onto ``path`` when the block succeeds
    (removed if it fails); the file gets the usual permissions (umask)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(6)}.tmp")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)


def write_text(path, text: str) -> Path:
    """Write ``text`` to ``path`` through :func:`replacing`; returns the path."""
    with replacing(path) as tmp:
        tmp.write_text(text)
    return Path(path)


def save_figure(fig, path, **kwargs) -> Path:
    """``fig.savefig`` through :func:`replacing` (the format follows ``path``'s extension)."""
    path = Path(path)
    with replacing(path) as tmp:
        fig.savefig(tmp, format=path.suffix.lstrip(".").lower(), **kwargs)
    return path


def new_run_id() -> str:
    """A new run id: 16 hex digits, random."""
    return secrets.token_hex(8)


@dataclass
class OutputSet:
    """What :func:`output_set` yields: write the run's files into :attr:`path` (the staging
    directory); :attr:`files` are their final paths once the block has ended."""

    target: Path
    path: Path
    run_id: str
    files: list = field(default_factory=list)


def _gone(pid: int) -> bool:
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, but another user's
        return False
    return False


def remove_leftovers(out_dir) -> list[Path]:
    """Remove what killed runs left at ``out_dir`` (staging directories beside it, temporary
    files in it) whose process no longer exists; returns what was removed."""
    out = Path(out_dir)
    removed = []
    places = [(out.parent, _STAGING, True), (out, _TMPFILE, False)]
    for where, pattern, is_dir in places:
        try:
            names = os.listdir(where)
        except OSError:
            continue
        for name in names:
            m = pattern.fullmatch(name)
            if not m or (is_dir and m.group("name") != out.name) or not _gone(int(m["pid"])):
                continue
            p = where / name
            try:
                if is_dir and p.is_dir() and not p.is_symlink():
                    shutil.rmtree(p)
                elif not is_dir and p.is_file() and not p.is_symlink():
                    p.unlink()
                else:
                    continue
            except OSError:
                continue
            removed.append(p)
    return removed


@contextlib.contextmanager
def output_set(out_dir, index: tuple = (), run_id: str | None = None) -> Iterator[OutputSet]:
    """``with output_set(DIR, index=("manifest.json",)) as o:`` write the run's files into
    ``o.path``; when the block succeeds they appear in ``DIR`` as a set (module docstring),
    ``index`` (file names) last. If the block or the move fails, the staging directory is
    removed and ``DIR`` is left as it was (an OSError then propagates)."""
    target = Path(os.path.abspath(out_dir))
    remove_leftovers(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.parent / f".{target.name}.nbl-{os.getpid()}-{secrets.token_hex(6)}.tmp"
    os.mkdir(staging, 0o755)
    o = OutputSet(Path(out_dir), staging, run_id or new_run_id())
    try:
        yield o
        names = sorted(os.listdir(staging))
        _install(staging, target, names, index)
        o.files = [o.target / n for n in names]
    finally:
        if os.path.lexists(staging):
            shutil.rmtree(staging, ignore_errors=True)


def _install(staging: Path, target: Path, names: list, index: tuple) -> None:
    if not os.path.lexists(target) or (
        target.is_dir() and not target.is_symlink() and not os.listdir(target)
    ):
        try:
            os.rename(staging, target)  # onto nothing or an empty directory: atomic
            return
        except OSError:
            if not target.is_dir():
                raise
    last = [n for n in names if n in index]
    for n in index:  # the old index goes first: no stale set
        with contextlib.suppress(FileNotFoundError):
            if not (target / n).is_dir():
                os.unlink(target / n)
    for n in [n for n in names if n not in index] + last:
        os.replace(staging / n, target / n)
