"""What the code cites exists: no module cites a document that is not in the repository, and
every ``docs/architecture.md, "Heading"`` citation names a heading of that page."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
SOURCES = [
    p
    for d in ("nbl_theory", "nbl_sim", "proofs_check", "tests", "benchmarks", "examples")
    for p in sorted((ROOT / d).rglob("*"))
    if p.suffix in (".py", ".md")
]
#: a citation of the architecture page naming a section: docs/architecture.md, "Heading"
CITE = re.compile(r'docs/architecture\.md,\s+"([^"]+)"')


def _text(p: Path) -> str:
    return p.read_text(encoding="utf-8")


def test_no_module_cites_a_design_document_missing_from_the_repository():
    here = Path(__file__).name
    cites = [
        str(p.relative_to(ROOT)) for p in SOURCES if p.name != here and "DESIGN.md" in _text(p)
    ]
    assert not (ROOT / "DESIGN.md").exists()
    assert not cites, f"cite DESIGN.md, which is not in the repository: {cites}"


def test_architecture_citations_name_its_sections():
    headings = {
        re.sub(r"^#+\s*", "", ln).strip()
        for ln in _text(ARCHITECTURE).splitlines()
        if ln.startswith("#")
    }
    here = Path(__file__).name
    cited = {
        (str(p.relative_to(ROOT)), m)
        for p in SOURCES
        if p.name != here
        for m in CITE.findall(" ".join(_text(p).split()))
    }
    assert cited, "no module cites a section of docs/architecture.md"
    missing = sorted((where, h) for where, h in cited if h not in headings)
    assert not missing, f"cite a section docs/architecture.md does not have: {missing}"
