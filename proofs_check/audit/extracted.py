"""The paper index the audit claims read: the package data file ``data/paper_index.json``,
generated from nbl-paper.tex by :mod:`proofs_check.audit.extract` (do not edit it: regenerate,
see that module).

:data:`INDEX` is the parse as JSON values (lists where the index has tuples; rebuild the typed
index with :func:`~proofs_check.audit.latex.index_from_literal`), :data:`SYMBOLS` maps every
watched symbol variant (:data:`proofs_check.audit.notation.WATCH`) to the lines where it occurs,
:data:`ALGORITHM` holds alg:nbl's lines as ``((line, text), ...)``.
"""

from __future__ import annotations

from .packaged import read_json

__all__ = ["FILE", "PAPER_SHA256", "INDEX", "SYMBOLS", "ALGORITHM"]

#: the data file's name inside ``proofs_check/audit/data``
FILE = "paper_index.json"

_DATA = read_json(FILE)

#: SHA-256 of the paper text the index (and every quoted line number) was made from
PAPER_SHA256 = _DATA.get("paper_sha256", "")

#: the parsed paper: n_lines, statements, proofs, restatements, labels, algorithm
INDEX = _DATA["index"]

#: lines of every watched symbol variant (proofs_check.audit.notation.WATCH)
SYMBOLS = _DATA["symbols"]

#: alg:nbl as printed: ((line, text), ...)
ALGORITHM = tuple(tuple(a) for a in INDEX["algorithm"])
