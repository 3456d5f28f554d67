"""Words of the report that state what a computation established: "certified" only when an
Arb enclosure or a certified bracket says so, never from a literal (issue 34, item 4).

Every function reads the flag of the object it describes — :attr:`StabilityResult.certified
<nbl_theory.results.StabilityResult>` and its ``sign`` and ``tier``, :attr:`Root.certified
<nbl_theory.threshold.Root>` and its ``bracket`` — so a claim's message follows the value it
reports: an uncertified bracket is never called a certified root.
"""

from __future__ import annotations

__all__ = ["sign_words", "root_words", "proved_sign"]


def proved_sign(res) -> bool:
    """True when ``res`` (a StabilityResult) proves its sign: certified and not undecided."""
    return bool(getattr(res, "certified", False)) and res.sign in ("stable", "unstable")


def sign_words(res) -> str:
    """``"certified stable"`` when an Arb enclosure proves the sign, else the sign with the tier
    that estimated it and "not certified" (``"stable (float64 tier, not certified)"``)."""
    if proved_sign(res):
        return f"certified {res.sign}"
    return f"{res.sign} ({getattr(res, 'tier', 'unknown')} tier, not certified)"


def root_words(root) -> str:
    """A root of λ* = 0 with its bracket: ``"certified root, bracket [lo, hi]"`` when Arb proved
    opposite signs at the bracket's ends, else ``"uncertified root (float64 estimate), bracket
    [lo, hi] not proved"``."""
    lo, hi = root.bracket
    if root.certified:
        return f"certified root, bracket [{lo}, {hi}]"
    return f"uncertified root (float64 estimate), bracket [{lo}, {hi}] not proved"
