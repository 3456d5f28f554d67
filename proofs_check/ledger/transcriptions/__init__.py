"""Transcriptions of the paper's proof steps, one data module per proof (or appendix section);
the format is in :mod:`proofs_check.ledger`."""
