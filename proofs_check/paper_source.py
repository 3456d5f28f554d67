"""The paper's LaTeX text: the pinned copy shipped with the package, or a version the user gives.

Every line number, label and quoted sentence the registry, the audit and the proof-step ledger
use refers to one version of ``nbl-paper.tex``, pinned by its SHA-256 (:data:`PINNED_SHA256`) and
shipped inside the package (``proofs_check/audit/data/nbl-paper.tex``), so a clone or an installed
wheel has everything the default runs need and nothing outside the package is read.

A user may give another version of the text (``--paper PATH`` on the command line, or the
``NBL_PAPER`` environment variable); :func:`paper_source` says which text is in force and whether
it is the pinned one. A text that differs from the pinned version is never used silently: callers
report which of their checks refer to text that changed (*stale*).

Example
-------
>>> src = paper_source()
>>> src.pinned
True
>>> src.origin in ("shipped", "NBL_PAPER")   # "NBL_PAPER" when the environment names a text
True
>>> "\\\\label{prop:local_jacobian}" in src.text
True
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from nbl_theory.errors import NBLInputError

__all__ = [
    "PINNED_SHA256",
    "ENV_VAR",
    "MAX_PAPER_BYTES",
    "PaperSource",
    "paper_source",
    "shipped_text",
    "digest",
]

#: SHA-256 of the version of the paper every packaged table and transcription refers to
PINNED_SHA256 = "e0eb54d30127251d8751ffd390e3ce1692cca68ef14d1e250b1fc8a16fb5a771"
#: the environment variable naming a paper text to use instead of the shipped copy
ENV_VAR = "NBL_PAPER"
#: a paper text larger than this is refused before it is read (the pinned one is 166 kB)
MAX_PAPER_BYTES = 8 * 1024 * 1024


def digest(text: str) -> str:
    """SHA-256 (hex) of ``text`` encoded as UTF-8: the digest :data:`PINNED_SHA256` is.

    Parameters
    ----------
    text : str
        The text.

    Returns
    -------
    str
        64 hexadecimal digits.
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def shipped_text() -> str:
    """The pinned paper text shipped with the package.

    Returns
    -------
    str
        The LaTeX source.
    """
    return (
        resources.files("proofs_check.audit")
        .joinpath("data", "nbl-paper.tex")
        .read_text(encoding="utf-8")
    )


@dataclass(frozen=True)
class PaperSource:
    """A paper text and where it came from.

    Parameters
    ----------
    text : str
        The LaTeX source.
    origin : str
        ``"shipped"`` (the package's pinned copy), ``"--paper"`` or ``"NBL_PAPER"``.
    path : str or None
        The file read, for a text the user gave.
    sha256 : str
        Its digest.
    """

    text: str
    origin: str
    path: str | None
    sha256: str

    @property
    def pinned(self) -> bool:
        """Whether this is the version every packaged table refers to."""
        return self.sha256 == PINNED_SHA256


def _read_user_paper(path: str, origin: str) -> str:
    p = Path(path).expanduser()
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise NBLInputError(
            f"{origin} {path}: cannot read the paper text ({exc.strerror})"
        ) from None
    if not p.is_file():
        raise NBLInputError(f"{origin} {path}: not a regular file")
    if size > MAX_PAPER_BYTES:
        raise NBLInputError(
            f"{origin} {path}: {size} bytes, more than the {MAX_PAPER_BYTES} a paper text may have"
        )
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise NBLInputError(f"{origin} {path}: not UTF-8 text") from None
    except OSError as exc:
        raise NBLInputError(
            f"{origin} {path}: cannot read the paper text ({exc.strerror})"
        ) from None


def paper_source(path: str | os.PathLike | None = None) -> PaperSource:
    """The paper text in force: ``path`` if given, else ``$NBL_PAPER`` if set, else the shipped
    pinned copy.

    Parameters
    ----------
    path : str or os.PathLike, optional
        A LaTeX file to read (``--paper``).

    Returns
    -------
    PaperSource
        The text, where it came from and its digest.

    Raises
    ------
    NBLInputError
        A given file that cannot be read, is not UTF-8 text or is larger than
        :data:`MAX_PAPER_BYTES`.
    """
    if path is not None:
        text, origin, where = _read_user_paper(str(path), "--paper"), "--paper", str(path)
    elif os.environ.get(ENV_VAR):
        where = os.environ[ENV_VAR]
        text, origin = _read_user_paper(where, ENV_VAR), ENV_VAR
    else:
        text, origin, where = shipped_text(), "shipped", None
    return PaperSource(text, origin, where, digest(text))
