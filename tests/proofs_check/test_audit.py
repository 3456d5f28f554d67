"""The audit's packaged data against the paper itself (proofs_check.audit).

These tests re-parse the pinned paper text shipped with the package
(:func:`proofs_check.paper_source.shipped_text`, checked against its SHA-256 here) on every run,
never skipped: the packaged index, the curated quotes and the proof matching are only as good as
their agreement with the paper. A source given through ``NBL_PAPER`` (CI gives the paper's own
file) is checked to be that version in ``test_paper_source``.
"""

from __future__ import annotations

import re

import pytest

from proofs_check.audit import algorithm as alg
from proofs_check.audit import extracted
from proofs_check.audit import hypotheses_data as hd
from proofs_check.audit.extract import GENERATED_BY, render
from proofs_check.audit.latex import index_from_literal, parse_paper
from proofs_check.audit.notation import ENTRIES, WATCH, scan_symbols
from proofs_check.audit.packaged import read_text
from proofs_check.audit.staleness import quoted_lines
from proofs_check.claims.assumptions import ASSUMPTIONS
from proofs_check.paper_source import PINNED_SHA256, digest, shipped_text

REGENERATE = f"regenerate: {GENERATED_BY}, then re-check the curated tables"


@pytest.fixture(scope="module")
def text() -> str:
    """The pinned paper text shipped with the package (its digest checked)."""
    t = shipped_text()
    assert digest(t) == PINNED_SHA256 == extracted.PAPER_SHA256
    return t


@pytest.fixture(scope="module")
def lines(text) -> list[str]:
    return text.split("\n")


@pytest.fixture(scope="module")
def index(text):
    return parse_paper(text)


def test_packaged_index_is_the_parse_of_the_paper(text, index):
    assert index_from_literal(extracted.INDEX) == index, REGENERATE
    assert extracted.SYMBOLS == scan_symbols(text), REGENERATE
    assert read_text(extracted.FILE) == render(text), REGENERATE


def test_every_proof_is_matched_once(index):
    assert len(index.proofs) == 20 and len(index.results()) == 21
    assert all(p.result for p in index.proofs), [p for p in index.proofs if not p.result]
    proved = [p.result for p in index.proofs]
    assert len(proved) == len(set(proved))
    unproved = {s.label for s in index.results()} - set(proved)
    assert unproved == set(hd.NO_PROOF) == {"prop:first-order-stein"}


def test_proof_matching_rules_on_the_paper(index, lines):
    """Each rule of proofs_check.audit.latex, verified on the proofs it matched."""
    rules = {p.start: p.rule for p in index.proofs}
    assert set(rules.values()) == {
        "named in \\begin{proof}[...]",
        "named in the heading before the proof",
        "its closing sentence says which result it proves",
        "directly follows the statement",
    }
    for p in index.proofs:
        head = lines[p.start - 1]
        if p.rule.startswith("named in \\begin"):
            assert f"\\ref{{{p.result}}}" in head and head.startswith("\\begin{proof}[Proof of")
        elif p.rule.startswith("named in the heading"):
            # the heading right above the proof (only its \label between) names the result
            at = _heading_above(lines, p.start)
            assert p.result == "prop:randomized_initialization"
            assert f"Proof of Proposition~\\ref{{{p.result}}}" in lines[at - 1]
            assert all(not t.strip() or t.startswith("\\label") for t in lines[at : p.start - 1])
        elif p.rule.startswith("its closing"):
            assert p.result == "prop:local_jacobian"
            closing = " ".join(lines[p.end - 4 : p.end])
            assert "which proves Proposition~\\ref{prop:local_jacobian}" in closing
            assert (
                lines[_heading_above(lines, p.start) - 1]
                == "\\subsubsection{Proof of the local population Jacobian}"
            )
        else:
            st = index.statements[p.result]
            assert all(not t.strip() for t in lines[st.end : p.start - 1])
            assert head == "\\begin{proof}"


def _heading_above(lines, line: int) -> int:
    """The line number of the nearest sectioning command above ``line``."""
    k = line - 1
    while not re.match(r"\\(sub)*section\*?\{", lines[k - 1]):
        k -= 1
    return k


def test_assumption_labels_are_all_covered(index):
    in_paper = {lab for lab in index.labels if lab.startswith("assum:")}
    assert in_paper == set(ASSUMPTIONS)
    assert in_paper == {h for h, v in hd.HYPOTHESES.items() if v.kind == "assumption"}
    assert {s.label for s in index.statements.values() if s.kind == "assumption"} == in_paper


@pytest.mark.parametrize("what, line, quote", quoted_lines())
def test_curated_quote_is_on_its_line(lines, what, line, quote):
    assert quote in lines[line - 1], f"{what}: line {line} is {lines[line - 1]!r}"


def test_curated_uses_sit_in_the_right_place(index):
    """Direct uses and citations inside the result's proof (or, without a proof, the text
    justifying it), stated conditions inside the statement (or right before it), text
    derivations outside every proof."""

    def in_proof(result, line):
        p = index.proof_of(result)
        return p is not None and p.start <= line <= p.end

    for u in hd.DIRECT_USES:
        if u.result in hd.NO_PROOF:
            assert (
                index.statements[u.result].start - 5 <= u.line < index.statements[u.result].start
            ), u
        else:
            assert in_proof(u.result, u.line), u
    for c in hd.EXTRA_CITATIONS + hd.DISCHARGES:
        assert in_proof(c.source, c.line), c
    for c in hd.STATED_CONDITIONS + hd.STATED_BY_REFERENCE:
        st = index.statements[c.source]
        if c.why.startswith("in context"):
            assert st.start - 10 <= c.line < st.start, c
        else:
            assert st.start <= c.line <= st.end, c
    for eq, cites in hd.TEXT_DERIVATIONS.items():
        assert index.labels[eq][1] == "text", eq
        for c in cites:
            assert not any(p.start <= c.line <= p.end for p in index.proofs), c
    for eq, (line, _why) in hd.DEFINITIONS.items():
        assert index.labels[eq] == (line, "text", None), eq


def test_every_cited_text_equation_is_described(index):
    """Every running-text equation a proof or a derivation cites is described."""
    described = set(hd.TEXT_DERIVATIONS) | set(hd.DEFINITIONS) | set(hd.LABEL_CONDITIONS)
    cited = {lab for p in index.proofs for lab, _ in p.refs}
    cited |= {c.target for v in hd.TEXT_DERIVATIONS.values() for c in v}
    cited |= {c.target for c in hd.EXTRA_CITATIONS}
    text_eqs = {
        lab
        for lab in cited
        if lab in index.labels and index.labels[lab][1] == "text" and lab.startswith("eq:")
    }
    assert text_eqs <= described, sorted(text_eqs - described)


def test_curated_labels_exist(index):
    labels = set(index.labels)
    for c in hd.STATED_CONDITIONS + hd.STATED_BY_REFERENCE + hd.EXTRA_CITATIONS + hd.DISCHARGES:
        assert c.source in index.statements, c
        assert c.target in labels or c.target in hd.HYPOTHESES, c
    for u in hd.DIRECT_USES + tuple(hd.NOTES):
        assert u.result in index.statements
    assert set(hd.MITIGATIONS) <= set(index.statements)


def test_algorithm_lines(index, lines):
    alg_lines = {ln for ln, _ in index.algorithm}
    # alg:nbl's lines are its algorithm environment, \begin to \end, its label inside
    assert lines[min(alg_lines) - 1].startswith("\\begin{algorithm}")
    assert lines[max(alg_lines) - 1] == "\\end{algorithm}"
    assert alg_lines == set(range(min(alg_lines), max(alg_lines) + 1))
    line, where, owner = index.labels["alg:nbl"]
    assert (where, owner) == ("algorithm", None) and line in alg_lines
    assert "\\label{alg:nbl}" in lines[line - 1]
    for s in alg.STEPS:
        assert set(s.alg_lines) <= alg_lines, s.id
    for g in alg.GAPS:
        assert g.line in alg_lines, g.id


def test_notation_lines_hold_their_symbol(lines):
    for e in ENTRIES:
        for m in e.meanings:
            assert re.search(WATCH[m.variant], lines[m.line - 1]), (e.symbol, m)
