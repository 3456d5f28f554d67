"""A small structural parser of the paper's LaTeX: labelled statements, proofs, references.

It reads what the audit needs and nothing more:

* every labelled theorem-like environment (theorem, proposition, lemma, corollary, assumption)
  with its line range and the ``\\ref``/``\\eqref`` labels inside it (with line numbers);
* every ``proof`` environment, the result it proves and the labels it cites;
* unlabelled restatements of a result (the appendix repeats ``thm:regret-rate``);
* where every ``\\label`` lives (a statement, a proof, running text, a heading, a float);
* the section of each statement and the lines of the ``algorithm`` environment.

How a proof is matched to its result (in this order; verified on the paper by
``tests/proofs_check/test_audit.py``):

1. ``\\begin{proof}[Proof of Lemma~\\ref{X}]`` names ``X``;
2. otherwise the heading right before the proof (nothing but labels and blank lines between
   them) says "Proof of" and contains ``\\ref{X}``;
3. otherwise the proof's closing lines say "proves ... \\ref{X}" for a result label ``X``;
4. otherwise the proof follows a labelled result with only blank lines between them.

A proof matched by none of the rules has ``result = None`` (the test fails on it).

Line numbers are 1-based, as an editor shows them.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

__all__ = [
    "RESULT_KINDS",
    "Statement",
    "Proof",
    "Restatement",
    "PaperIndex",
    "parse_paper",
    "index_to_literal",
    "index_from_literal",
]

#: Theorem-like environments that carry results; "assumption" carries hypotheses.
RESULT_KINDS = ("theorem", "proposition", "lemma", "corollary")
_ENVS = RESULT_KINDS + ("assumption",)
_REF = re.compile(r"\\(?:eq)?ref\{([^}]*)\}")
_LABEL = re.compile(r"\\label\{([^}]*)\}")
_BEGIN = re.compile(r"\\begin\{(" + "|".join(_ENVS) + r")\}(?:\[(.*?)\])?")
_PROOF = re.compile(r"\\begin\{proof\}(?:\[(.*)\])?")
_HEADING = re.compile(r"\\(section|subsection|subsubsection)\*?\{(.*)\}")
_FLOAT = re.compile(r"\\begin\{(figure\*?|table\*?|algorithm)\}")
_LEVEL = {"section": 1, "subsection": 2, "subsubsection": 3}
_PROVES = re.compile(r"proves?\b[^.]*?\\ref\{([^}]*)\}")


@dataclass(frozen=True)
class Statement:
    """A labelled theorem-like environment (a result or an assumption)."""

    label: str
    kind: str  # theorem / proposition / lemma / corollary / assumption
    title: str
    start: int
    end: int
    section: str  # the label of the innermost labelled heading ("" if none)
    refs: tuple = ()  # ((label, line), ...) inside the statement


@dataclass(frozen=True)
class Proof:
    """A ``proof`` environment and the result it proves."""

    start: int
    end: int
    result: str | None
    rule: str  # which matching rule applied (see the module docstring)
    section: str
    refs: tuple = ()  # ((label, line), ...) inside the proof


@dataclass(frozen=True)
class Restatement:
    """An unlabelled theorem-like environment repeating a labelled result (same title)."""

    of: str
    kind: str
    title: str
    start: int
    end: int
    refs: tuple = ()


@dataclass(frozen=True)
class PaperIndex:
    """Everything the audit reads from the paper."""

    n_lines: int
    statements: dict = field(default_factory=dict)  # label -> Statement
    proofs: tuple = ()
    restatements: tuple = ()
    labels: dict = field(default_factory=dict)  # label -> (line, where, owner)
    algorithm: tuple = ()  # ((line, text), ...) of alg:nbl

    def results(self) -> list[Statement]:
        """The labelled results (not the assumptions), in paper order."""
        return [s for s in self.statements.values() if s.kind in RESULT_KINDS]

    def proof_of(self, label: str) -> Proof | None:
        """The proof of ``label`` (None if the paper gives none)."""
        for p in self.proofs:
            if p.result == label:
                return p
        return None


def _strip_comment(line: str) -> str:
    m = re.search(r"(?<!\\)%", line)
    return line[: m.start()] if m else line


def _refs(lines, start: int, end: int) -> tuple:
    return tuple((lab, i) for i in range(start, end + 1) for lab in _REF.findall(lines[i - 1]))


def _env_end(lines, start: int, env: str) -> int:
    pat = "\\end{" + env + "}"
    for i in range(start, len(lines) + 1):
        if pat in lines[i - 1]:
            return i
    raise ValueError(f"\\begin{{{env}}} at line {start} is never closed")


def _headings(lines):
    """[(line, level, title, label)] — a heading's label sits on it or on the next lines."""
    out = []
    for i, text in enumerate(lines, 1):
        m = _HEADING.search(text)
        if not m:
            continue
        label = ""
        for j in range(i, min(i + 3, len(lines)) + 1):
            lab = _LABEL.findall(lines[j - 1])
            if lab:
                label = lab[0]
                break
            if j > i and lines[j - 1].strip():
                break
        out.append((i, _LEVEL[m.group(1)], m.group(2), label))
    return out


def _section_at(headings, line: int) -> str:
    """The innermost labelled heading among the headings in force at ``line``."""
    stack: list = []
    for h_line, level, _title, label in headings:
        if h_line > line:
            break
        stack = [h for h in stack if h[0] < level] + [(level, label)]
    for _level, label in reversed(stack):
        if label:
            return label
    return ""


def _match_proof(lines, start, end, opt, headings, stmts, proved) -> tuple[str | None, str]:
    if opt:
        refs = _REF.findall(opt)
        if refs:
            return refs[0], "named in \\begin{proof}[...]"
    prev = [h for h in headings if h[0] < start]
    if prev:
        h_line, _lv, title, _lab = prev[-1]
        between = [t for t in lines[h_line : start - 1] if t.strip() and not _LABEL.search(t)]
        if not between and "Proof of" in title and _REF.findall(title):
            return _REF.findall(title)[0], "named in the heading before the proof"
    tail = " ".join(lines[max(start, end - 4) - 1 : end])
    for lab in _PROVES.findall(tail):
        if lab in stmts and stmts[lab].kind in RESULT_KINDS:
            return lab, "its closing sentence says which result it proves"
    before = [s for s in stmts.values() if s.end < start and s.kind in RESULT_KINDS]
    if before:
        last = max(before, key=lambda s: s.end)
        if all(not t.strip() for t in lines[last.end : start - 1]) and last.label not in proved:
            return last.label, "directly follows the statement"
    return None, "unmatched"


def parse_paper(text: str) -> PaperIndex:
    """Parse the paper's LaTeX source into a :class:`PaperIndex`."""
    lines = [_strip_comment(t) for t in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    headings = _headings(lines)
    stmts: dict[str, Statement] = {}
    restated = []
    spans = []  # (start, end, where, owner) of statements/proofs/floats
    for i, t in enumerate(lines, 1):
        m = _BEGIN.search(t)
        if not m:
            continue
        env, title = m.group(1), (m.group(2) or "").strip()
        end = _env_end(lines, i, env)
        labels = [lab for j in range(i, end + 1) for lab in _LABEL.findall(lines[j - 1])]
        own = [lab for lab in labels if lab.split(":")[0] in ("thm", "prop", "lem", "cor", "assum")]
        if own:
            stmts[own[0]] = Statement(
                own[0], env, title, i, end, _section_at(headings, i), _refs(lines, i, end)
            )
            spans.append((i, end, "statement", own[0]))
        else:
            restated.append((env, title, i, end))
    restatements = []
    for env, title, i, end in restated:
        same = [s.label for s in stmts.values() if s.kind == env and s.title == title]
        restatements.append(
            Restatement(same[0] if same else "", env, title, i, end, _refs(lines, i, end))
        )
        spans.append((i, end, "statement", same[0] if same else None))
    proofs, proved = [], set()
    for i, t in enumerate(lines, 1):
        m = _PROOF.search(t)
        if not m:
            continue
        end = _env_end(lines, i, "proof")
        result, rule = _match_proof(lines, i, end, m.group(1), headings, stmts, proved)
        proved.add(result)
        proofs.append(Proof(i, end, result, rule, _section_at(headings, i), _refs(lines, i, end)))
        spans.append((i, end, "proof", result))
    algorithm = ()
    for i, t in enumerate(lines, 1):
        m = _FLOAT.search(t)
        if m:
            end = _env_end(lines, i, m.group(1))
            spans.append((i, end, "algorithm" if m.group(1) == "algorithm" else "float", None))
            if m.group(1) == "algorithm":
                algorithm = tuple((j, lines[j - 1]) for j in range(i, end + 1))
    heading_lines = {h[0] for h in headings}
    labels = {}
    for i, t in enumerate(lines, 1):
        for lab in _LABEL.findall(t):
            where, owner = "text", None
            for s, e, w, o in spans:
                if s <= i <= e:
                    where, owner = w, o
                    break
            if where == "text" and any(0 <= i - h <= 2 for h in heading_lines):
                where = "heading"
            labels[lab] = (i, where, owner)
    for lab, st in list(stmts.items()):  # no labelled heading: the proof's section
        if not st.section:
            prf = [p for p in proofs if p.result == lab]
            if prf:
                stmts[lab] = Statement(
                    st.label, st.kind, st.title, st.start, st.end, prf[0].section, st.refs
                )
    return PaperIndex(len(lines), stmts, tuple(proofs), tuple(restatements), labels, algorithm)


def index_to_literal(index: PaperIndex) -> dict:
    """The index as plain Python literals (dicts, lists, tuples, str, int) for packaging."""
    return {
        "n_lines": index.n_lines,
        "statements": {k: asdict(v) for k, v in index.statements.items()},
        "proofs": [asdict(p) for p in index.proofs],
        "restatements": [asdict(r) for r in index.restatements],
        "labels": dict(index.labels),
        "algorithm": list(index.algorithm),
    }


def _tuples(refs) -> tuple:
    return tuple(tuple(r) for r in refs)


def index_from_literal(data: dict) -> PaperIndex:
    """Inverse of :func:`index_to_literal`."""
    stmts = {
        k: Statement(**{**v, "refs": _tuples(v["refs"])}) for k, v in data["statements"].items()
    }
    proofs = tuple(Proof(**{**p, "refs": _tuples(p["refs"])}) for p in data["proofs"])
    rest = tuple(Restatement(**{**r, "refs": _tuples(r["refs"])}) for r in data["restatements"])
    labels = {k: tuple(v) for k, v in data["labels"].items()}
    return PaperIndex(
        data["n_lines"], stmts, proofs, rest, labels, tuple(tuple(a) for a in data["algorithm"])
    )
