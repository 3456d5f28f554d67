"""Pages generated at build time: the API reference and one page per figure.

* API reference (``docs/api/``): the index lists the public modules of
  :mod:`nbl_public` by layer; each module page renders the module docstring, a summary table
  of its ``__all__`` and every name in it (autodoc + numpydoc). A name re-exported from another
  public module links to its home instead of being documented twice.
* Figures (``docs/figures/``): ``nbl_sim.presentation.reproduce.reproduce(quick=True)`` —
  the same computation as ``nbl reproduce --quick`` — writes the PNG, CSV and JSON files into
  ``docs/figures/_data/``; each figure gets a page from its module (ID, LABEL, TITLE, CAPTION,
  the module docstring) and the data (summary, settings, tables). The figures' data are cached
  in ``docs/_build/.nbl_cache`` (``NBL_DOCS_CACHE`` overrides), so a rebuild only redraws.
  ``NBL_DOCS_WORKERS=N`` computes them on N local processes.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import textwrap
from pathlib import Path

import nbl_public

_DATA_KINDS = (str, int, float, bool)


def _write(path: Path, text: str) -> None:
    """Write ``text`` unless the file already holds it (so Sphinx does not rebuild it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _title(text: str, char: str = "=") -> str:
    return f"{text}\n{char * len(text)}\n"


def _summary(module: str) -> str:
    for _, _, mods in nbl_public.SECTIONS:
        for m, s in mods:
            if m == module:
                return s
    return ""


# ---------------------------------------------------------------------- API reference
def _api_index() -> str:
    out = [
        ".. _api:",
        "",
        _title("API reference"),
        textwrap.dedent("""\
        The public API of nbl is the ``__all__`` of the modules listed on this page: every
        name in it is documented here and has a docstring (``tests/docs/test_docs_build.py``
        checks both). Modules that are not listed are internal (the witnesses of
        ``proofs_check``, the claim modules, the parts of the ``nbl`` command, helpers such
        as ``nbl_theory.arb_eval``); :doc:`../architecture` says what each one does. Imports
        go one way only: ``nbl_theory`` ← ``nbl_sim`` ← ``proofs_check``.

        The package ``nbl_theory`` re-exports its entry points (:doc:`nbl_theory`).
        """),
    ]
    for title, intro, mods in nbl_public.SECTIONS:
        out += ["", _title(title, "-"), intro, "", ".. list-table::", "   :widths: 35 65", ""]
        for m, s in mods:
            out += [f"   * - :mod:`{m}`", f"     - {_escape_inline(s)}"]
        out += ["", ".. toctree::", "   :hidden:", ""]
        if title.startswith("nbl_theory"):
            out.append("   nbl_theory")
        out += [f"   {m}" for m, _ in mods]
    return "\n".join(out) + "\n"


def _reexport_page(package: str) -> str:
    mod = importlib.import_module(package)
    out = [
        _title(f"{package} (package)"),
        f".. automodule:: {package}",
        "   :no-members:",
        "",
        "Names re-exported by the package, documented in their home modules:",
        "",
        ".. list-table::",
        "   :widths: 35 65",
        "",
    ]
    for name in mod.__all__:
        home, _ = nbl_public.home(package, name)
        doc = (nbl_public.docstring(package, name) or "").strip().splitlines()
        first = doc[0] if doc else ""
        out += [f"   * - :obj:`~{home}.{name}`", f"     - {_escape_inline(first)}"]
    return "\n".join(out) + "\n"


def _data_options(obj) -> list[str]:
    small = isinstance(obj, _DATA_KINDS) and len(repr(obj)) <= 80
    return [] if small else ["   :no-value:"]


def _module_page(module: str) -> str:
    mod = importlib.import_module(module)
    names = list(getattr(mod, "__all__", []))
    own, linked = [], []
    public = set(nbl_public.public_modules())
    for name in names:
        home, kind = nbl_public.home(module, name)
        if home != module and home in public:
            linked.append((name, home))
        else:
            own.append((name, kind))
    out = [f".. _api-{module}:", "", _title(module)]
    if module in nbl_public.VERBATIM_DOCSTRINGS:
        out += [
            f".. py:module:: {module}",
            "",
            ".. code-block:: text",
            "",
            _indent(textwrap.dedent(mod.__doc__ or "").strip()),
            "",
        ]
    else:
        out += [f".. automodule:: {module}", "   :no-members:", ""]
    out += [f".. currentmodule:: {module}", ""]
    if own:
        out += [".. rubric:: Public names", "", ".. autosummary::", "   :nosignatures:", ""]
        out += [f"   {name}" for name, _ in own]
        out.append("")
    if linked:
        out += [".. rubric:: Re-exported here", "", ".. list-table::", "   :widths: 35 65", ""]
        for name, home in linked:
            out += [f"   * - ``{name}``", f"     - :obj:`{home}.{name}`"]
        out.append("")
    for name, kind in own:
        out.append("")
        if kind == "class":
            out += [f".. autoclass:: {name}", "   :members:"]
        elif kind == "function":
            out += [f".. autofunction:: {name}"]
        else:
            out += [f".. autodata:: {name}"] + _data_options(getattr(mod, name))
    return "\n".join(out) + "\n"


def generate_api(srcdir: Path) -> None:
    api = srcdir / "api"
    _write(api / "index.rst", _api_index())
    for package in nbl_public.REEXPORTS:
        _write(api / f"{package}.rst", _reexport_page(package))
    for module in nbl_public.public_modules():
        _write(api / f"{module}.rst", _module_page(module))


# ---------------------------------------------------------------------- figures
def _figure_records(data_dir: Path, cache_dir: Path) -> list[dict]:
    from nbl_sim.presentation.reproduce import reproduce

    workers = os.environ.get("NBL_DOCS_WORKERS")
    return reproduce(
        quick=True, out_dir=data_dir, cache_dir=cache_dir, workers=int(workers) if workers else None
    )


def _indent(text: str, n: int = 3) -> str:
    return textwrap.indent(text, " " * n)


def _figure_page(rec: dict, module, data_dir: Path) -> str:
    fid = rec["id"]
    out = [
        f".. _figure-{fid}:",
        "",
        _title(rec["title"]),
        f"``{fid}`` — paper label ``{rec['label']}`` — module :mod:`{module.__name__}`",
        "",
        f".. figure:: _data/{fid}.png",
        "   :width: 100%",
        f"   :alt: {fid}",
        "",
        f"   ``nbl reproduce {fid} --quick`` (computed while these pages were built).",
        "",
        ".. rubric:: The paper's caption claim",
        "",
        _escape_inline(rec["caption"]),
        "",
        ".. rubric:: What the reproduction shows",
        "",
        _escape_inline(rec["summary"]),
        "",
        ".. rubric:: How it is computed",
        "",
    ]
    doc = textwrap.dedent((module.__doc__ or "").strip())
    out += plain_bars(doc.splitlines()) + [""]
    out += [
        ".. rubric:: Regenerate it",
        "",
        ".. code-block:: console",
        "",
        f"   $ nbl reproduce {fid} --quick --out figures   # the picture above",
        f"   $ nbl reproduce {fid} --out figures           # the full settings",
        "",
        "Files written per figure: the PNG and PDF, one CSV per data table and a JSON "
        "manifest (settings, seeds, package versions, seconds).",
        "",
        ".. rubric:: Settings (quick mode)",
        "",
        ".. code-block:: json",
        "",
    ]
    out += [_indent(json.dumps(rec["settings"], indent=2, default=str, ensure_ascii=False)), ""]
    tables = [f for f in rec["files"] if f.endswith(".csv")]
    if tables:
        out += [
            ".. rubric:: Data tables",
            "",
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 40 60",
            "",
            "   * - file",
            "     - columns",
        ]
        for f in tables:
            header = (data_dir / f).read_text(encoding="utf-8").splitlines()[0]
            cols = ", ".join(f"``{c}``" for c in header.split(","))
            out += [f"   * - ``{f}``", f"     - {cols}"]
        out.append("")
    return "\n".join(out) + "\n"


def generate_figures(srcdir: Path) -> None:
    from nbl_sim.presentation.figures import load_figures

    figdir = srcdir / "figures"
    data_dir = figdir / "_data"
    cache_dir = Path(os.environ.get("NBL_DOCS_CACHE", srcdir / "_build" / ".nbl_cache"))
    records = _figure_records(data_dir, cache_dir)
    modules = load_figures()
    index = [
        ".. _figures:",
        "",
        _title("Figures"),
        textwrap.dedent("""\
        Every figure of the paper, regenerated from its stated settings, and the figures
        beyond the paper that the theory implies. The pictures on these pages are those of
        ``nbl reproduce --quick`` (coarser grids and fewer replications than the full
        ``nbl reproduce``), computed while the documentation was built; each page says what
        the figure shows, how its numbers are computed and which files hold them.
        """),
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 30 25 45",
        "",
        "   * - figure",
        "     - paper label",
        "     - what the reproduction shows",
    ]
    for rec in records:
        index += [
            f"   * - :ref:`{rec['id']} <figure-{rec['id']}>`",
            f"     - ``{rec['label']}``",
            f"     - {_escape_inline(rec['summary'])}",
        ]
        _write(figdir / f"{rec['id']}.rst", _figure_page(rec, modules[rec["id"]], data_dir))
    index += ["", ".. toctree::", "   :hidden:", ""] + [f"   {r['id']}" for r in records]
    _write(figdir / "index.rst", "\n".join(index) + "\n")


# ---------------------------------------------------------------------- docstring text
# The docstrings are written to be read in a terminal (``help()``) and write absolute values
# and norms as |x|, which reStructuredText would read as substitution references. Outside
# literals, math and tables a bar is text, so it is escaped before docutils sees it.
_INLINE_KEEP = re.compile(r"(``.+?``|:math:`[^`]*`|`[^`]*`_?)")
_LITERAL_DIRECTIVE = re.compile(r"^\s*\.\. (math|code-block|code|sourcecode)::")
_TABLE_LINE = re.compile(r"^\s*([+|].*[+|]|[+][-=+]+)\s*$")


def _escape_inline(line: str) -> str:
    parts = _INLINE_KEEP.split(line)
    for i in range(0, len(parts), 2):  # even parts lie outside literals and roles
        parts[i] = re.sub(r"(?<!\\)\|", r"\\|", parts[i])
    return "".join(parts)


def plain_bars(lines: list[str]) -> list[str]:
    """``lines`` with every bar of running text escaped (see above); literal blocks, math
    blocks, inline literals, roles and grid tables are left as they are."""
    out, block_indent = [], None
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if block_indent is not None:
            if not line.strip() or indent > block_indent:
                out.append(line)  # inside a literal or math block
                continue
            block_indent = None
        if _LITERAL_DIRECTIVE.match(line):
            block_indent = indent
            out.append(line)
        elif line.rstrip().endswith("::"):  # a literal block follows
            block_indent = indent
            out.append(_escape_inline(line))
        else:
            out.append(line if _TABLE_LINE.match(line) else _escape_inline(line))
    return out


def _process_docstring(app, what, name, obj, options, lines) -> None:
    lines[:] = plain_bars(lines)


# ---------------------------------------------------------------------- Sphinx hooks
def _generate(app) -> None:
    srcdir = Path(app.srcdir)
    generate_api(srcdir)
    generate_figures(srcdir)


def setup(app):
    app.connect("builder-inited", _generate)
    app.connect("autodoc-process-docstring", _process_docstring, priority=100)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
