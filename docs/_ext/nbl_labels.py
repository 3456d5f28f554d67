"""The PDF's numbers beside the paper's labels in the docs (issue 35, item 7).

The pages cite results by their LaTeX ``\\label`` in inline code (```prop:local_jacobian```); a
reader holding the PDF sees "Proposition 5". After a page is read, every inline literal whose
whole text is a label of the paper gets the number the PDF prints after it, as plain text:
``prop:local_jacobian`` (Proposition 5). The numbers are computed from the paper's LaTeX
(:func:`proofs_check.audit.numbering.printed_suffix`, the same function the report uses: the
pinned copy shipped with nbl, or ``$NBL_PAPER``). Code blocks are left as they are.
"""

from __future__ import annotations

from docutils import nodes

from proofs_check.audit.numbering import printed_suffix

__all__ = ["setup"]


def _annotate(app, doctree) -> None:
    for lit in list(doctree.findall(nodes.literal)):
        if isinstance(lit.parent, nodes.literal_block):
            continue
        suffix = printed_suffix(lit.astext().strip())
        if suffix:
            lit.parent.insert(lit.parent.index(lit) + 1, nodes.Text(suffix))


def setup(app):
    app.connect("doctree-read", _annotate)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
