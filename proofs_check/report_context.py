"""What a verification report says about itself: where it comes from (:func:`toolkit_commit`;
the paper text's digest is :data:`proofs_check.audit.extracted.PAPER_SHA256`) and the names it
uses that are not the paper's labels (:func:`glossary`): the paper's named links by their short keys
(``tt-stable`` …, ``we-0.72`` …, :data:`nbl_theory.paper.PAPER_LINKS`), links the toolkit adds
(:data:`EXTRA_LINKS`), and the conditions ``cond:*`` of the hypotheses audit — a condition a
result's statement or proof relies on, named by the toolkit and quoted from the paper's line
(:data:`proofs_check.audit.hypotheses_data.HYPOTHESES`), and a few phrases of the checks'
texts (:data:`TERMS`). Only the names the report uses are listed.
"""

from __future__ import annotations

import re
import subprocess
from functools import lru_cache
from pathlib import Path

__all__ = ["EXTRA_LINKS", "TERMS", "glossary", "paper_paragraphs", "toolkit_commit"]

#: links some claims use besides the paper's six named ones (key → what it is)
EXTRA_LINKS = {
    "logistic4": "g(z) = 1/(1 + e^(-4z)), a steeper logistic link the toolkit adds to test "
    "the paper's regret statements on a second smooth link (not one of the "
    "paper's links)",
}


#: phrases of the checks' texts a reader of the paper alone would not know (phrase → meaning)
TERMS = {
    "own field": "the population field F (and the tangent field h) computed by the check "
    "itself from its definition as an expectation (eq:Fdef), by its own one-arm "
    "Gauss-Legendre integrals: independent of the toolkit's library and of the "
    "paper's formulas, so the check does not compare the library with itself",
    "curated direct uses": "uses of a hypothesis inside a proof that the hypotheses audit "
    "records by hand, each with the quoted paper line, beyond the "
    "proof's explicit \\ref{assum:...}",
    "packaged index": "the toolkit's parse of the paper's LaTeX (labels, statements, proofs, "
    "line numbers), made from the paper text whose SHA-256 the report gives",
    # the paper itself uses kappa for kappa(a) = e^(a^2/2) Phi(-a) and for kappa* (F(v*) =
    # kappa* v*), a collision notation-audit lists; the checks add these two
    "kappa_theta": "the toolkit's name for the exact local contraction rate at v* along "
    "theta, Delta mu* - 2 phi0(0) m2 (1 - Delta^2/4) without the positive part "
    "(the only tangent rate in d = 2); not the paper's kappa(a) or kappa*",
    "kappa_rho": "the linear coefficient 2 rho (1 - log 2) of the weighted-entropy potential "
    "phi_rho (app:elicitation-geometry); not the paper's kappa(a) or kappa*",
}


def _uses(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w.-]*\w)", text) is not None


def glossary(text: str) -> list[tuple[str, str]]:
    """(name, explanation) for the names ``text`` uses, in a fixed order (empty if none).

    Parameters
    ----------
    text : str
        The report's text.

    Returns
    -------
    list of tuple of (str, str)
        ``(name, explanation)`` pairs.
    """
    from nbl_theory.paper import PAPER_LINKS

    from .audit.hypotheses_data import HYPOTHESES

    items = []
    for key, pl in PAPER_LINKS.items():
        if _uses(text, key):
            name, value = pl.parameter
            items.append(
                (
                    key,
                    f"the {pl.family} link with {name} = {value} ({pl.label}; "
                    f"{pl.regime} at Delta = {pl.delta})",
                )
            )
    items += [(k, v) for k, v in EXTRA_LINKS.items() if _uses(text, k)]
    items += [
        (h.id, f"{h.text} (paper line {h.line})")
        for h in HYPOTHESES.values()
        if h.id.startswith("cond:") and _uses(text, h.id)
    ]
    items += [(k, v) for k, v in TERMS.items() if _uses(text, k)]
    return items


@lru_cache(maxsize=1)
def toolkit_commit() -> str:
    """The short git commit of the toolkit's source tree, when that tree is itself a git
    checkout ("" if not — e.g. an installed copy inside some other repository — or git is
    unavailable); with ``+`` when the tree has uncommitted changes. Asked once a process (a
    check rewrites its report many times)."""
    root = Path(__file__).resolve().parents[1]
    if not (root / ".git").exists():
        return ""
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
        )
        if head.returncode:
            return ""
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


def paper_paragraphs(paper) -> list[str]:
    """The report's words on the paper text: the pinned version every quoted line number refers
    to and, for a given text that is not that version, a paragraph naming it and what it leaves
    stale. ``paper``: None or ``(PaperSource, Staleness)``
    (:func:`proofs_check.report.write_report`).

    Parameters
    ----------
    paper : tuple of (PaperSource, Staleness) or None
        The given paper text and what it leaves stale (None: the pinned text).

    Returns
    -------
    list of str
        The paragraphs (one for the pinned text).
    """
    from .audit.extracted import PAPER_SHA256

    pinned = (
        f"paper text sha256 {PAPER_SHA256[:16]}… (the version every quoted line number refers to)"
    )
    if paper is None or paper[0].pinned:
        return [pinned]
    src, stale = paper
    return [
        pinned,
        f"**The paper text given ({src.origin} {src.path}, sha256 {src.sha256[:16]}…) is "
        "not the pinned version**: every check ran on the pinned version's packaged data "
        "(labels, quoted lines), not on the given text. "
        + (
            f"Stale for the given text: {stale.summary()}"
            if stale.stale
            else "No label, claim or quoted line refers to the text that changed."
        ),
    ]
