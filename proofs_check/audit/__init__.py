"""Audit of the paper's hypotheses, its algorithm and its notation (issue 15, item 4).

Modules
-------
latex
    A structural parser of the LaTeX: labelled statements, proofs and what they cite.
extract, extracted
    The parser's output, packaged as ``data/paper_index.json`` (the claims never read the paper).
packaged
    Reading (with :mod:`importlib.resources`) and writing the JSON package data in ``data/``.
hypotheses_data
    Hand-curated uses of hypotheses the parser cannot see, each with a line and a quote
    (``data/hypotheses.json``).
graph
    Hypotheses stated vs used, transitively through the results a proof cites.
algorithm
    alg:nbl as printed against its equations (``data/algorithm.json``); what it leaves
    undefined; toolkit probes.
notation
    Symbols with two meanings and constants renamed mid-proof (``data/notation.json``).
checks
    The claims' check functions (data as arguments, so tests can build mutants).
mutants
    The corrupted data the claims register as mutants and the tests reuse.
staleness
    Which checks a version of the paper other than the pinned one leaves stale (quoted lines,
    labels, claims).

The registrations are in :mod:`proofs_check.claims.assumptions`.
"""

__all__ = [
    "algorithm",
    "checks",
    "extract",
    "extracted",
    "graph",
    "hypotheses_data",
    "latex",
    "mutants",
    "notation",
    "packaged",
    "staleness",
]
