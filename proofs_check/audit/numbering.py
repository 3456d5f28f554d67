"""The numbers the PDF prints for the paper's labels, computed from the LaTeX as LaTeX would.

The report and the docs cite results by their ``\\label`` (``prop:local_jacobian``); a reader
holding the PDF sees "Proposition 5" and "(12)". :func:`latex_numbers` walks the paper's text
once, with LaTeX's counters and its rules for which number a ``\\label`` takes:

* the preamble decides the counters: ``\\newtheorem{name}{Title}`` starts a counter,
  ``\\newtheorem{name}[shared]{Title}`` shares one, ``\\newtheorem{name}{Title}[section]`` and
  ``\\numberwithin{counter}{section}`` (also ``\\counterwithin``) reset a counter at each section
  and print it as ``<section>.<n>``; without them (the ``article`` class) equations, theorems,
  figures and tables are numbered through the whole paper;
* ``\\section`` / ``\\subsection`` / ``\\subsubsection`` step their counters (the starred forms
  do not); after ``\\appendix`` sections are lettered A, B, …;
* ``equation`` takes one number, ``align`` (``gather``, ``multline``, ``flalign``,
  ``alignat``, ``eqnarray``) one per row — rows end at a top-level ``\\\\`` (not inside
  ``split``, ``aligned``, ``cases`` or braces) — except rows with ``\\nonumber`` / ``\\notag``;
  ``\\tag{x}`` prints ``(x)`` instead; starred forms are unnumbered;
* a float's ``\\caption`` steps ``figure`` / ``table`` / ``algorithm``;
* ``\\label`` takes the number last stepped in its group (LaTeX's ``\\@currentlabel``,
  restored at ``\\end``), and in ``align`` the number of its own row.

:func:`label_numbers` returns ``{label: PrintedNumber}``; :func:`printed` words it as the PDF
does ("Proposition 5", "Equation (12)", "Appendix A.3").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["PrintedNumber", "latex_numbers", "printed", "paper_numbers", "printed_suffix"]

_MATH_ROWS = ("align", "gather", "multline", "flalign", "alignat", "eqnarray", "xalignat")
_FLOATS = {
    "figure": "figure",
    "figure*": "figure",
    "table": "table",
    "table*": "table",
    "algorithm": "algorithm",
}
_SECTIONS = ("section", "subsection", "subsubsection")
_TOKEN = re.compile(
    r"\\(?P<cmd>begin|end|label|section|subsection|subsubsection|appendix|caption|tag|"
    r"nonumber|notag|newtheorem|numberwithin|counterwithin)(?![A-Za-z])(?P<star>\*?)"
    r"|(?P<rowend>\\\\)|(?P<open>(?<!\\)\{)|(?P<close>(?<!\\)\})"
)


@dataclass(frozen=True)
class PrintedNumber:
    """What the PDF prints for one label: ``kind`` (e.g. "Proposition", "Equation",
    "Section", "Appendix", "Figure") and ``number`` ("5", "(12)", "A.3")."""

    kind: str
    number: str
    note: str = ""

    def __str__(self) -> str:
        return f"{self.kind} {self.number}" + (f": {self.note}" if self.note else "")


def _strip_comments(text: str) -> str:
    return re.sub(r"(?<!\\)%[^\n]*", "", text)


def _group(text: str, i: int) -> tuple[str, int]:
    """The brace group starting at or after ``i`` (skipping spaces): (content, end index)."""
    while i < len(text) and text[i] in " \t\n":
        i += 1
    if i >= len(text) or text[i] != "{":
        return "", i
    depth, j = 0, i
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
        j += 1
    return text[i + 1 :], len(text)


def _optional(text: str, i: int) -> tuple[str | None, int]:
    while i < len(text) and text[i] in " \t\n":
        i += 1
    if i < len(text) and text[i] == "[":
        j = text.find("]", i)
        if j > 0:
            return text[i + 1 : j], j + 1
    return None, i


def _alph(n: int) -> str:
    out = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        out = chr(ord("A") + r) + out
    return out


class _State:
    def __init__(self):
        self.count = {
            "section": 0,
            "subsection": 0,
            "subsubsection": 0,
            "equation": 0,
            "figure": 0,
            "table": 0,
            "algorithm": 0,
        }
        self.theorems: dict[str, tuple[str, str]] = {}  # env -> (counter, title)
        self.within: dict[str, str] = {}  # counter -> reset-by counter
        self.appendix = False

    def section_text(self, level: int) -> str:
        s = self.count["section"]
        head = _alph(s) if self.appendix else str(s)
        parts = [head] + [str(self.count[c]) for c in _SECTIONS[1 : level + 1]]
        return ".".join(parts)

    def step(self, counter: str) -> str:
        self.count[counter] = self.count.get(counter, 0) + 1
        for c, parent in self.within.items():  # counters reset by this one
            if parent == counter:
                self.count[c] = 0
        n = str(self.count[counter])
        parent = self.within.get(counter)
        if parent in _SECTIONS:
            return f"{self.section_text(_SECTIONS.index(parent))}.{n}"
        return n


def latex_numbers(text: str) -> dict[str, PrintedNumber]:
    """``{label: PrintedNumber}`` for every ``\\label`` of the LaTeX ``text`` (module
    docstring for the rules)."""
    text = _strip_comments(text)
    st = _State()
    out: dict[str, PrintedNumber] = {}
    current: list[PrintedNumber | None] = [None]  # \@currentlabel per group (env)
    envs: list[tuple[str, int]] = []  # (env, brace depth at its \begin)
    depth = 0
    row_labels: list[str] = []
    row_tag: list[str | None] = [None]
    row_numbered = [True]
    row_start = [0]  # where the current row's text begins

    def close_row(env: str) -> None:
        starred = env.endswith("*")
        if row_tag[0] is not None:
            num = PrintedNumber("Equation", f"({row_tag[0]})")
        elif row_numbered[0] and not starred:
            num = PrintedNumber("Equation", f"({st.step('equation')})")
        else:
            num = None
        for lab in row_labels:
            if num is not None:
                out[lab] = num
            else:  # amsmath writes the label with \@currentlabel as is
                cur = current[-1] or PrintedNumber("", "?")
                out[lab] = PrintedNumber(
                    "Equation",
                    f"({cur.number})",
                    f"the label is on an unnumbered row: \\eqref prints the number of "
                    f"{cur.kind} {cur.number}",
                )
        if num is not None:
            current[-1] = num
        row_labels.clear()
        row_tag[0] = None
        row_numbered[0] = True

    def math_env() -> str | None:
        """The numbered display environment the position is directly in (not nested)."""
        if not envs:
            return None
        env, d = envs[-1]
        base = env.rstrip("*")
        if (base in _MATH_ROWS or base == "equation") and d == depth:
            return env
        return None

    i = 0
    while True:
        m = _TOKEN.search(text, i)
        if not m:
            break
        i = m.end()
        if m.group("open"):
            depth += 1
            continue
        if m.group("close"):
            depth -= 1
            continue
        if m.group("rowend"):
            env = math_env()
            if env and env.rstrip("*") in _MATH_ROWS:
                close_row(env)
                row_start[0] = i
            continue
        cmd, star = m.group("cmd"), m.group("star")
        if cmd == "newtheorem":
            name, i = _group(text, i)
            shared, i = _optional(text, i)
            title, i = _group(text, i)
            within, i = _optional(text, i)
            counter = shared or name
            st.theorems[name + star] = (counter, title)
            if within and not shared:
                st.within[counter] = within
        elif cmd in ("numberwithin", "counterwithin"):
            _, i = _optional(text, i)
            counter, i = _group(text, i)
            parent, i = _group(text, i)
            st.within[counter] = parent
        elif cmd == "appendix":
            st.appendix = True
            st.count["section"] = 0
        elif cmd in _SECTIONS:
            _, i = _optional(text, i)
            _, i = _group(text, i)
            if star:
                continue
            st.step(cmd)
            level = _SECTIONS.index(cmd)
            for lower in _SECTIONS[level + 1 :]:
                st.count[lower] = 0
            kind = "Appendix" if st.appendix else "Section"
            current[-1] = PrintedNumber(kind, st.section_text(level))
        elif cmd == "begin":
            env, i = _group(text, i)
            envs.append((env, depth))
            current.append(current[-1])
            if env in st.theorems:
                _, i_opt = _optional(text, i)
                counter, title = st.theorems[env]
                current[-1] = PrintedNumber(title, st.step(counter))
            if env.rstrip("*") in _MATH_ROWS or env.rstrip("*") == "equation":
                row_labels.clear()
                row_tag[0] = None
                row_numbered[0] = True
                row_start[0] = i
        elif cmd == "end":
            end_at = m.start()
            env, i = _group(text, i)
            if envs and envs[-1][0] == env:
                if env.rstrip("*") in _MATH_ROWS or env.rstrip("*") == "equation":
                    # a trailing \\ before \end leaves an empty last row: amsmath numbers none
                    empty = not text[row_start[0] : end_at].strip() and not row_labels
                    if not (empty and env.rstrip("*") in _MATH_ROWS):
                        close_row(env)
                envs.pop()
                if len(current) > 1:
                    current.pop()
        elif cmd == "caption":
            _, i = _optional(text, i)
            kind = next((_FLOATS[e] for e, _ in reversed(envs) if e in _FLOATS), None)
            if kind:
                current[-1] = PrintedNumber(kind.capitalize(), st.step(kind))
        elif cmd == "tag":
            tag, i = _group(text, i)
            if math_env() is not None or any(
                e.rstrip("*") in _MATH_ROWS + ("equation",) for e, _ in envs
            ):
                row_tag[0] = tag
        elif cmd in ("nonumber", "notag"):
            row_numbered[0] = False
        elif cmd == "label":
            label, i = _group(text, i)
            label = label.strip()
            in_math = any(e.rstrip("*") in _MATH_ROWS + ("equation",) for e, _ in envs)
            if in_math:
                row_labels.append(label)
            else:
                out[label] = current[-1] or PrintedNumber("", "?")
    return out


def printed(label: str, numbers: dict) -> str:
    """How the PDF shows ``label`` ("Proposition 5", "Equation (12)"), "" if unknown."""
    n = numbers.get(label)
    return "" if n is None or n.number == "?" else str(n)


def paper_numbers(path=None) -> dict[str, PrintedNumber]:
    """:func:`latex_numbers` of the paper in force
    (:func:`proofs_check.paper_source.paper_source`: ``path``, ``$NBL_PAPER`` or the shipped
    copy)."""
    from ..paper_source import paper_source

    return latex_numbers(paper_source(path).text)


_CACHE: dict = {}


def printed_suffix(label: str) -> str:
    """``" (Proposition 7)"`` — what the PDF prints for ``label``, from the paper in force —
    or ``""`` when the label is not the paper's or the paper cannot be read (the report then
    shows the label alone)."""
    if "numbers" not in _CACHE:
        try:
            _CACHE["numbers"] = paper_numbers()
        except Exception:  # noqa: BLE001 - a report never fails on a number
            _CACHE["numbers"] = {}
    text = printed(label, _CACHE["numbers"])
    return f" ({text})" if text else ""
