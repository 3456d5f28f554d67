"""The paper's proofs and appendix derivations, parsed into relation steps.

A *display block* is one displayed formula (``\\[ ... \\]``, ``equation``, ``align`` and their
starred forms, ``gather``, ``multline``) inside a ``proof`` environment or in the appendix outside
any proof, statement or float. Its text is cut into *chains* — an ``align`` row that begins with
``&`` continues the chain of the row above, a row with a left side starts a new one, and a
top-level ``\\qquad`` (or ``\\quad`` followed by text) separates two statements — and each chain
``t0 r1 t1 r2 t2 ...`` at the top level (outside every bracket, brace and ``\\left..\\right``)
into the steps ``(t0 r1 t1), (t1 r2 t2), ...``.

Relations: ``=``, ``:=``, ``=:``, ``\\le``, ``\\leq``, ``\\ge``, ``\\geq``, ``<``, ``>``,
``\\lesssim``, ``\\gtrsim``, ``\\asymp``, ``\\neq``, ``\\approx``, ``\\propto``, ``\\equiv``.
``\\sim``, ``\\in`` and ``\\to`` are read as membership, law and limit (not steps). A block with no
relation is one *prose* entry.

Ids are stable under edits elsewhere in the paper: ``OWNER/bNN/sNN`` where OWNER is the proved
result's label (``prop:local_jacobian``) or, outside proofs, ``text:`` and the section label
(``text:app:local_jacobian``), NN the block's index inside its owner and the step's index
inside its block (1-based). Each step carries the SHA-256 (12 hex digits) of its whitespace-free
``lhs rel rhs`` LaTeX, so a transcription made from other text is *stale*.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from dataclasses import asdict, dataclass
from functools import lru_cache

from ..audit.latex import parse_paper

__all__ = ["RELATIONS", "Step", "Block", "Ledger", "parse_ledger", "step_hash", "owner_of"]

#: canonical relation name -> the LaTeX tokens that spell it
RELATIONS = {
    "=": ("=",),
    ":=": (":=",),
    "=:": ("=:",),
    "<=": ("\\leq", "\\le", "\\leqslant"),
    ">=": ("\\geq", "\\ge", "\\geqslant"),
    "<": ("<",),
    ">": (">",),
    "lesssim": ("\\lesssim",),
    "gtrsim": ("\\gtrsim",),
    "asymp": ("\\asymp",),
    "!=": ("\\neq", "\\ne"),
    "approx": ("\\approx",),
    "propto": ("\\propto",),
    "equiv": ("\\equiv",),
}
_TOKEN_REL = {tok: name for name, toks in RELATIONS.items() for tok in toks}
_REL = re.compile(
    r":=|=:|=|<|>|\\(?:leqslant|geqslant|leq|geq|le|ge|lesssim|gtrsim|asymp|"
    r"neq|ne|approx|propto|equiv)(?![A-Za-z])"
)
_DISPLAY_ENVS = (
    "equation",
    "equation*",
    "align",
    "align*",
    "gather",
    "gather*",
    "multline",
    "multline*",
)
_BEGIN_DISPLAY = re.compile(r"\\begin\{(" + "|".join(re.escape(e) for e in _DISPLAY_ENVS) + r")\}")
_LABEL = re.compile(r"\\label\{([^}]*)\}")
_BLANK_CMDS = re.compile(r"\\label\{[^}]*\}|\\nonumber\b|\\notag\b|\\tag\{[^}]*\}")
_OPEN = re.compile(
    r"\\left(?:\\[A-Za-z]+|\\\{|.)|\\(?:langle|lfloor|lceil)(?![A-Za-z])"
    r"|\\\{|[({\[]"
)
_CLOSE = re.compile(
    r"\\right(?:\\[A-Za-z]+|\\\}|.)|\\(?:rangle|rfloor|rceil)(?![A-Za-z])"
    r"|\\\}|[)}\]]"
)
_BEGIN_ANY = re.compile(r"\\begin\{[^}]*\}")
_END_ANY = re.compile(r"\\end\{[^}]*\}")
_SPACE_SEP = re.compile(r"\\qquad(?![A-Za-z])|\\quad(?![A-Za-z])")


def step_hash(lhs: str, rel: str, rhs: str) -> str:
    """The 12-hex-digit SHA-256 of ``lhs rel rhs`` with all whitespace removed."""
    text = "".join(f"{lhs}\x00{rel}\x00{rhs}".split())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Step:
    """One relation step (or a prose entry, ``rel == ""``) of a display block."""

    id: str
    owner: str  # proved result's label, or "text:" + section label
    block: int  # 1-based index of the block inside its owner
    index: int  # 1-based index of the step inside its block
    line: int  # source line of the relation (the block's first line for prose)
    rel: str  # canonical relation (a key of RELATIONS), "" for prose
    rel_tex: str  # the relation as printed
    lhs: str
    rhs: str
    hash: str
    block_labels: tuple = ()  # \label s of the block (eq:...)

    @property
    def latex(self) -> str:
        return f"{self.lhs} {self.rel_tex} {self.rhs}".strip()

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Block:
    owner: str
    index: int
    start: int
    end: int
    env: str
    text: str
    labels: tuple


@dataclass(frozen=True)
class Ledger:
    """Every step of the paper's proofs (``proof_steps``) and appendix derivations."""

    sha256: str
    blocks: tuple
    steps: tuple
    proofs: tuple  # the proved labels, paper order
    sections: tuple  # the "text:..." owners, paper order

    def of(self, owner: str) -> list[Step]:
        return [s for s in self.steps if s.owner == owner]

    def by_id(self) -> dict:
        return {s.id: s for s in self.steps}

    def relation_steps(self, owner: str | None = None) -> list[Step]:
        return [s for s in self.steps if s.rel and (owner is None or s.owner == owner)]


def owner_of(step_id: str) -> str:
    """The owner part of a step id (``prop:x/b01/s02`` -> ``prop:x``)."""
    return step_id.rsplit("/", 2)[0]


def _blank(text: str, pattern) -> str:
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def _strip_comments(text: str) -> str:
    return re.sub(r"(?<!\\)%[^\n]*", lambda m: " " * len(m.group(0)), text)


def _depths(s: str) -> list[int]:
    """Bracket depth before each character of ``s`` (braces, brackets, parentheses,
    ``\\left``/``\\right``, ``\\langle``, ``\\begin``/``\\end``); never below zero."""
    depth = [0] * (len(s) + 1)
    d, i = 0, 0
    events = []
    for pat, step in ((_OPEN, 1), (_CLOSE, -1), (_BEGIN_ANY, 1), (_END_ANY, -1)):
        for m in pat.finditer(s):
            events.append((m.start(), m.end(), step))
    events.sort()
    ev = 0
    while i < len(s):
        while ev < len(events) and events[ev][0] < i:
            ev += 1
        if ev < len(events) and events[ev][0] == i:
            start, end, step = events[ev]
            # \begin{..} and \end{..} contain braces: treat the whole token as one event
            for k in range(start, end):
                depth[k] = d
            d = max(0, d + step)
            i = end
            ev += 1
            continue
        depth[i] = d
        i += 1
    depth[len(s)] = d
    return depth


def _top_level_env_cells(s: str, depth, token: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(token), s) if depth[m.start()] == 0]


def _chains(body: str) -> list[tuple[int, int, list]]:
    """[(start, end, pieces)]: offsets of each chain's pieces ``(start, end)`` in ``body``."""
    depth = _depths(body)
    rows, last = [], 0
    for m in re.finditer(r"\\\\(?:\[[^\]]*\])?", body):
        if depth[m.start()] == 0:
            rows.append((last, m.start()))
            last = m.end()
    rows.append((last, len(body)))
    chains: list[list] = []
    for a, b in rows:
        row = body[a:b]
        if not row.strip():
            continue
        amp = [
            i
            for i, ch in enumerate(row)
            if ch == "&" and (i == 0 or row[i - 1] != "\\") and depth[a + i] == 0
        ]
        starts_cont = bool(amp) and not row[: amp[0]].strip()
        lead = row.lstrip()
        cont_by_op = (
            not amp
            and bool(chains)
            and (bool(re.match(r"[+\-]|\\cdot|\\times", lead)) or bool(_REL.match(lead)))
        )
        if (starts_cont or cont_by_op) and chains:
            chains[-1].append((a, b))
        else:
            chains.append([(a, b)])
    return chains


def _split_statements(body: str, pieces: list, depth) -> list[list]:
    """Split a chain's pieces at top-level ``\\qquad`` / ``\\quad`` followed by text or a
    new statement (not by an operator: that is a continued line)."""
    out, cur = [], []
    for a, b in pieces:
        last = a
        for m in _SPACE_SEP.finditer(body, a, b):
            if depth[m.start()] != 0:
                continue
            after = body[m.end() : b].replace("&", " ").lstrip()
            before = body[last : m.start()].replace("&", " ").rstrip()
            if (
                not before
                or re.match(r"[+\-]|\\cdot|\\times", after)
                or _REL.match(after)
                or re.search(r"(?:[+\-=]|\\cdot|\\times)$", before)
            ):
                continue
            cur.append((last, m.start()))
            out.append(cur)
            cur, last = [], m.end()
        cur.append((last, b))
    out.append(cur)
    return out


def _clean_term(t: str) -> str:
    t = t.replace("&", " ")
    t = re.sub(r"\s+", " ", t).strip()
    t = re.sub(r"(?:\\[,;:!]|~|\\quad|\\qquad)*\s*[.,;]?\s*$", "", t).strip()
    t = re.sub(r"^(?:\\quad|\\qquad|\\[,;:!])\s*", "", t).strip()
    return t


def _block_steps(body: str, offset: int, line_of) -> list[tuple]:
    """[(line, rel, rel_tex, lhs, rhs)] of one block's text."""
    depth = _depths(body)
    out = []
    for pieces in _chains(body):
        for stmt in _split_statements(body, pieces, depth):
            rels = []
            for a, b in stmt:
                for m in _REL.finditer(body, a, b):
                    if depth[m.start()] == 0:
                        # "<" or ">" glued to "=" are handled by the regex order; skip \le in \left
                        rels.append((m.start(), m.end(), m.group(0)))
            if not rels:
                continue

            # the terms between relations, made of the text of the statement's pieces
            def text(lo, hi, stmt=stmt):
                return "".join(
                    body[max(a, lo) : min(b, hi)] + " " for a, b in stmt if min(b, hi) > max(a, lo)
                )

            lo = stmt[0][0]
            bounds = [lo] + [x for r in rels for x in (r[0], r[1])] + [stmt[-1][1]]
            terms = [
                _clean_term(text(bounds[2 * k], bounds[2 * k + 1])) for k in range(len(rels) + 1)
            ]
            for k, (s, _e, tok) in enumerate(rels):
                out.append((line_of(offset + s), _TOKEN_REL[tok], tok, terms[k], terms[k + 1]))
    return out


def _display_blocks(text: str):
    """[(start_offset, end_offset, env, body_offset, body)] of every display in ``text``."""
    out = []
    i = 0
    pat = re.compile(r"\\\[|" + _BEGIN_DISPLAY.pattern)
    while True:
        m = pat.search(text, i)
        if not m:
            break
        if m.group(0) == "\\[":
            end = text.find("\\]", m.end())
            env, body_start, body_end, stop = "\\[", m.end(), end, end + 2
        else:
            env = m.group(1)
            close = "\\end{" + env + "}"
            end = text.find(close, m.end())
            env, body_start, body_end, stop = env, m.end(), end, end + len(close)
        if end < 0:
            raise ValueError(f"display {env} at offset {m.start()} is never closed")
        out.append((m.start(), stop, env, body_start, text[body_start:body_end]))
        i = stop
    return out


@lru_cache(maxsize=4)
def parse_ledger(text: str) -> Ledger:
    """Parse the paper ``text`` into its :class:`Ledger`."""
    clean = _strip_comments(text)
    starts = [0] + [m.end() for m in re.finditer("\n", clean)]

    def line_of(off: int) -> int:
        return bisect.bisect_right(starts, off)

    index = parse_paper(text)
    appendix = clean.find("\\appendix")
    app_line = line_of(appendix) if appendix >= 0 else index.n_lines + 1
    excluded = [(s.start, s.end) for s in index.statements.values()]
    excluded += [(r.start, r.end) for r in index.restatements]
    floats = [
        (m.start(), m.group(1))
        for m in re.finditer(r"\\begin\{(figure\*?|table\*?|algorithm|tikzpicture)\}", clean)
    ]
    for off, env in floats:
        end = clean.find("\\end{" + env + "}", off)
        excluded.append((line_of(off), line_of(end)))
    proofs = [(p.start, p.end, p.result or f"proof@{p.start}") for p in index.proofs]
    headings = []
    for m in re.finditer(r"\\(?:section|subsection|subsubsection)\*?\{", clean):
        lab = _LABEL.search(clean, m.end(), m.end() + 400)
        if lab and clean.count("\n", m.end(), lab.start()) <= 2:
            headings.append((line_of(m.start()), lab.group(1)))
    blocks, steps, counts = [], [], {}
    for start, stop, env, body_off, body in _display_blocks(clean):
        ls, le = line_of(start), line_of(stop)
        owner = next((lab for a, b, lab in proofs if a <= ls <= b), None)
        if owner is None:
            if ls < app_line or any(a <= ls <= b for a, b in excluded):
                continue
            sec = [lab for h, lab in headings if h <= ls]
            owner = "text:" + (sec[-1] if sec else "appendix")
        counts[owner] = counts.get(owner, 0) + 1
        bi = counts[owner]
        labels = tuple(_LABEL.findall(body))
        blocks.append(Block(owner, bi, ls, le, env, text[body_off : body_off + len(body)], labels))
        cleaned = _blank(body, _BLANK_CMDS)
        found = _block_steps(cleaned, body_off, line_of)
        if not found:
            sid = f"{owner}/b{bi:02d}/s00"
            steps.append(
                Step(
                    sid,
                    owner,
                    bi,
                    0,
                    ls,
                    "",
                    "",
                    _clean_term(cleaned),
                    "",
                    step_hash(_clean_term(cleaned), "", ""),
                    labels,
                )
            )
        for k, (line, rel, tok, lhs, rhs) in enumerate(found, 1):
            steps.append(
                Step(
                    f"{owner}/b{bi:02d}/s{k:02d}",
                    owner,
                    bi,
                    k,
                    line,
                    rel,
                    tok,
                    lhs,
                    rhs,
                    step_hash(lhs, tok, rhs),
                    labels,
                )
            )
    order = []
    for st in steps:
        if st.owner not in order:
            order.append(st.owner)
    return Ledger(
        hashlib.sha256(text.encode("utf-8")).hexdigest(),
        tuple(blocks),
        tuple(steps),
        tuple(o for o in order if not o.startswith("text:")),
        tuple(o for o in order if o.startswith("text:")),
    )
