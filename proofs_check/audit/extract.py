"""Write the packaged paper index (``proofs_check/audit/data/paper_index.json``, read by
:mod:`proofs_check.audit.extracted`) from the LaTeX source.

The claims read the packaged index, never the paper, so they run without it;
``tests/proofs_check/test_audit.py`` re-parses the pinned text shipped with the package
(:mod:`proofs_check.paper_source`) and fails when the package is stale. After the paper changes,
copy the new text to ``proofs_check/audit/data/nbl-paper.tex``, update
:data:`~proofs_check.paper_source.PINNED_SHA256`, then regenerate::

    python -m proofs_check.audit.extract > proofs_check/audit/data/paper_index.json

(``python -m proofs_check.audit.extract PAPER.tex`` parses another text; without an argument,
``$NBL_PAPER`` or the shipped copy, as :func:`~proofs_check.paper_source.paper_source` resolves.)
"""

from __future__ import annotations

import hashlib
import sys

from .latex import index_to_literal, parse_paper
from .notation import scan_symbols
from .packaged import dumps

__all__ = ["GENERATED_BY", "render", "main"]

#: the command that writes the data file (stored in it: the file is generated, not edited)
GENERATED_BY = "python -m proofs_check.audit.extract > proofs_check/audit/data/paper_index.json"


def render(text: str) -> str:
    """The JSON text of the packaged index for the paper ``text``: ``paper_sha256`` (the digest
    of the text, UTF-8, that the line numbers refer to), ``index`` (the parse, see
    :func:`~proofs_check.audit.latex.index_to_literal`) and ``symbols`` (the lines of every
    watched symbol variant, :func:`~proofs_check.audit.notation.scan_symbols`), one entry a
    line."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return dumps(
        {
            "generated_by": GENERATED_BY,
            "paper_sha256": digest,
            "index": index_to_literal(parse_paper(text)),
            "symbols": scan_symbols(text),
        },
        expand=3,
    )


def main(argv=None) -> int:
    """``python -m proofs_check.audit.extract [PAPER]`` prints the data file."""
    from nbl_theory.errors import NBLInputError

    from ..paper_source import paper_source

    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1:
        print("usage: python -m proofs_check.audit.extract [PAPER.tex]", file=sys.stderr)
        return 2
    try:
        src = paper_source(args[0] if args else None)
    except NBLInputError as exc:
        print(f"extract: error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render(src.text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
