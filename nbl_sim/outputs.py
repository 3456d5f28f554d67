"""Output files of the ``nbl`` commands, written the safe way.

Every file goes to a unique temporary name in its directory and is then moved onto its name
with :func:`os.replace`. So a reader never sees half a file, two runs writing the same output
never interleave, and a name that is a symbolic link is *replaced* — the file it points to is
left alone (a link planted in an output directory cannot make a run overwrite someone else's
file, or write into ``/dev/full``).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

__all__ = ["replacing", "write_text", "save_figure"]


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
