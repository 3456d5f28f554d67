"""The transcriptions: one Python data module per proof (or appendix section) in
:mod:`proofs_check.ledger.transcriptions`, each a dict literal ``STEPS = {step id: {...}}``
(the format is in the package docstring). Loaded into :class:`Transcription` objects; nothing
is executed but the literal and, when a step is checked, its sympy text in a closed namespace.
"""

from __future__ import annotations

import pkgutil
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache

from . import METHODS
from .transcriptions import MODULES

__all__ = [
    "Transcription",
    "load_transcriptions",
    "transcription_modules",
    "unlisted_modules",
    "FIELDS",
]


@dataclass(frozen=True)
class Transcription:
    """A step's transcription (see the package docstring for each field)."""

    id: str
    hash: str
    method: str
    lhs: str = ""
    rhs: str = ""
    rel: str | None = None
    symbols: dict = field(default_factory=dict)
    defs: dict = field(default_factory=dict)
    domain: dict = field(default_factory=dict)
    gaussian: tuple = ()
    breaks: tuple = (0,)
    at: tuple = ()
    sequence: dict = field(default_factory=dict)
    modulo: tuple = ()
    cite: str = ""
    via: str = ""
    second: str = ""
    hypotheses: str = ""
    note: str = ""
    mutant: dict = field(default_factory=dict)
    finding: dict = field(default_factory=dict)
    module: str = ""

    def with_(self, **kw) -> Transcription:
        return replace(self, **kw)


#: the keys a transcription dict may have
FIELDS = tuple(f.name for f in fields(Transcription) if f.name not in ("id", "module"))


def transcription_modules() -> list[str]:
    """The modules of :data:`proofs_check.ledger.transcriptions.MODULES` (short names)."""
    return [m.__name__.rsplit(".", 1)[1] for m in MODULES]


def unlisted_modules() -> list[str]:
    """Modules in the transcriptions folder missing from ``MODULES`` (a test fails on them)."""
    from . import transcriptions

    return sorted(
        set(m.name for m in pkgutil.iter_modules(transcriptions.__path__))
        - set(transcription_modules())
    )


def _make(sid: str, d: dict, module: str) -> Transcription:
    unknown = set(d) - set(FIELDS)
    if unknown:
        raise ValueError(f"{module}: {sid}: unknown keys {sorted(unknown)}")
    if d.get("method") not in METHODS:
        raise ValueError(f"{module}: {sid}: method must be one of {METHODS}")
    if not d.get("hash"):
        raise ValueError(f"{module}: {sid}: a transcription records the hash of its LaTeX")
    if d["method"] != "prose" and not (d.get("lhs") and d.get("rhs")):
        raise ValueError(f"{module}: {sid}: lhs and rhs are required for method {d['method']}")
    if d["method"] == "cited" and not (d.get("cite") and d.get("via")):
        raise ValueError(f"{module}: {sid}: a cited step names what it cites and 'via'")
    kw = dict(d)
    for k in ("gaussian", "breaks", "at", "modulo"):
        if k in kw:
            kw[k] = tuple(kw[k])
    return Transcription(id=sid, module=module, **kw)


@lru_cache(maxsize=1)
def load_transcriptions() -> dict:
    """{step id: Transcription} of every module (ValueError on a malformed entry or an id
    transcribed twice)."""
    out: dict = {}
    for mod in MODULES:
        name = mod.__name__.rsplit(".", 1)[1]
        for sid, d in mod.STEPS.items():
            if sid in out:
                raise ValueError(f"{sid} is transcribed twice ({out[sid].module}, {name})")
            out[sid] = _make(sid, d, name)
    return out
