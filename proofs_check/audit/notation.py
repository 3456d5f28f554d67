r"""Notation audit: symbols with two meanings, constants renamed mid-proof, dangling symbols.

Semi-automatic. :data:`WATCH` lists regular expressions for the symbol variants worth watching
(``\kappa^\star``, ``\kappa(``, ``\kappa_\rho``, ``C_0``, ``C_{\rm init}``, ...);
:func:`scan_symbols` records the lines where each occurs, and the packaged scan
(``extracted.SYMBOLS``) backs the hand-curated table :data:`ENTRIES` (package data:
``proofs_check/audit/data/notation.json``, one object per entry). Every meaning there
carries a line number and a quote (the exact words on that line); the test checks the quotes
against the paper and the claim checks that each meaning's line is among the scanned
occurrences of its variant.

Kinds: ``collision`` (one symbol, two meanings), ``renamed`` (one constant, a second name or a
second value under the same name inside a proof), ``dangling`` (used, never defined), ``near``
(two visually close symbols). ``same_proof`` names the result whose proof holds both meanings;
``confusable`` is the judgement that a careful reader of that proof could mix them up — the
claim is a DISCREPANCY when some entry is both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .packaged import read_json, records

__all__ = ["WATCH", "Meaning", "Entry", "ENTRIES", "scan_symbols"]

#: variant name -> regular expression over one line of LaTeX
WATCH = {
    "kappa*": r"\\kappa\^\\star",
    "kappa(a)": r"\\kappa(?:\\left)?\(",
    "kappa_rho": r"\\kappa_\\rho",
    "Phi": r"\\Phi(?![a-zA-Z])",
    "phi_0": r"\\phi_0",
    "varphi": r"\\varphi",
    "Delta_beta": r"\\Delta_\\beta",
    "Delta": r"\\Delta(?![_a-zA-Z])",
    "delta": r"\\delta(?![_a-zA-Z])",
    "delta_jk": r"\\delta_\{jk\}",
    "C": r"(?<![A-Za-z\\_])C(?=B_Y|[^_A-Za-z'])",
    "C_0": r"(?<![A-Za-z\\])C_0",
    "C_2": r"(?<![A-Za-z\\])C_2",
    "C_init": r"C_\{\\(?:mathrm\{init\}|rm init)\}(?!')",
    "C'_init": r"C_\{\\rm init\}'",
    "16B": r"\\frac\{16B_Y\^2d\}",
    "c=": r"(?<![A-Za-z\\_{])c=",
    "m_0": r"(?<![A-Za-z\\])m_0",
    "m_2": r"(?<![A-Za-z\\])m_2",
    "m_a": r"(?<![A-Za-z\\])m_(?:a|\+|-)",
    "mu_2": r"\\mu_2",
    "J": r"\\mathcal J",
    "F": r"(?<![A-Za-z\\])F(?=\(v|\\in)",
    "U": r"(?<![A-Za-z\\])U(?![A-Za-z])",
    "Z": r"(?<![A-Za-z\\])Z(?![A-Za-z])",
    "R": r"(?<![A-Za-z\\])R(?![a-z]{2}|[A-Z_])",
    "r(v)": r"(?<![A-Za-z\\])r\(v\)",
    "r_0": r"(?<![A-Za-z\\])r_0",
    "alpha": r"\\alpha(?![a-zA-Z])",
    "sigma": r"\\sigma(?![a-zA-Z])",
    "theta": r"\\theta(?![a-zA-Z])",
    "vartheta": r"\\vartheta",
    "h": r"(?<![A-Za-z\\])h\((?:v|X)",
    "q": r"(?<![A-Za-z\\])q(?:\(w\)|\\geq0)",
    "w": r"(?<![A-Za-z\\])w(?:\(r\)|\\in)",
    "lambda": r"\\lambda(?![_a-zA-Z])",
    "lambda*": r"\\lambda_\\star",
    "v_eps": r"v_\\epsilon|v_u\(\\epsilon\)",
}


@dataclass(frozen=True)
class Meaning:
    """One meaning of a symbol, where the paper gives it."""

    text: str
    variant: str  # key of WATCH
    line: int
    quote: str  # exact words on that line


@dataclass(frozen=True)
class Entry:
    """A notation finding."""

    symbol: str
    kind: str  # collision / renamed / dangling / near
    meanings: tuple
    same_proof: str = ""  # the result whose proof holds the meanings ("" if none)
    confusable: bool = False
    why: str = ""


#: the hand-curated findings, from the package data file ``data/notation.json``
ENTRIES = records(Entry, read_json("notation.json")["entries"], meanings=Meaning)


def scan_symbols(text: str) -> dict:
    """variant -> sorted list of the (1-based) lines where its pattern occurs."""
    lines = text.split("\n")
    return {
        name: [i for i, t in enumerate(lines, 1) if re.search(pat, t)]
        for name, pat in WATCH.items()
    }
