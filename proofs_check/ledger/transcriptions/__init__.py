"""Transcriptions of the paper's proof steps, one data module per proof (or appendix section);
the format is in :mod:`proofs_check.ledger`. A new module is added to :data:`MODULES` (static
imports, so the claim runner's cache keys follow every transcription)."""

from . import thm_regret_rate

__all__ = ["MODULES"]

#: every transcription module, in paper order
MODULES = (thm_regret_rate,)
