"""The paper text: the pinned copy shipped with the package, a version the user gives
(``--paper``, ``NBL_PAPER``), and what a version that differs leaves stale.

The shipped copy is checked on every run, never skipped (here its digest; ``test_audit`` and the
coverage tests of ``test_claims`` re-derive the packaged data from it). When a source is given
(``NBL_PAPER``: ``.ci/run`` sets it to ``../shared/paper/nbl-paper.tex`` when that file exists),
:func:`test_the_given_paper_is_the_pinned_version` fails unless it is the pinned version, and
names the checks it leaves stale.
"""

from __future__ import annotations

import os

import pytest

from nbl_theory.errors import NBLInputError
from proofs_check import paper_source as ps
from proofs_check.audit.extracted import PAPER_SHA256
from proofs_check.audit.staleness import quoted_lines, staleness
from proofs_check.cli import main
from proofs_check.registry import all_claims

TEXT = ps.shipped_text()
LINES = TEXT.split("\n")
#: an audit claim: it reads the packaged data only, so it runs in a fraction of a second
CLAIM = "hypotheses-prop-local-jacobian"


def test_the_shipped_text_is_the_pinned_version_the_data_was_made_from():
    assert ps.digest(TEXT) == ps.PINNED_SHA256 == PAPER_SHA256
    src = ps.paper_source() if not os.environ.get(ps.ENV_VAR) else None
    if src is not None:
        assert (src.origin, src.path, src.pinned) == ("shipped", None, True)


def test_the_given_paper_is_the_pinned_version():
    """The source CI (or a user) gives through NBL_PAPER is the version the package pins."""
    if not os.environ.get(ps.ENV_VAR):
        pytest.skip(
            f"no paper source given ({ps.ENV_VAR} unset): the shipped copy is checked "
            "by the other tests"
        )
    src = ps.paper_source()
    assert src.origin == ps.ENV_VAR
    assert src.pinned, (
        f"{src.path} is not the pinned version of the paper: {staleness(src.text).summary()}"
    )


def test_precedence_path_then_environment_then_shipped(tmp_path, monkeypatch):
    a, b = tmp_path / "a.tex", tmp_path / "b.tex"
    a.write_text("A", encoding="utf-8")
    b.write_text("B", encoding="utf-8")
    monkeypatch.setenv(ps.ENV_VAR, str(b))
    assert (ps.paper_source(a).text, ps.paper_source(a).origin) == ("A", "--paper")
    src = ps.paper_source()
    assert (src.text, src.origin, src.path, src.pinned) == ("B", ps.ENV_VAR, str(b), False)
    monkeypatch.delenv(ps.ENV_VAR)
    assert ps.paper_source().text == TEXT


@pytest.mark.parametrize(
    "content, match",
    [(None, "cannot read"), (b"\xff\xfe\x00", "not UTF-8"), (b"x" * 65, "more than the 64")],
)
def test_a_bad_paper_file_is_one_input_error(tmp_path, monkeypatch, content, match):
    monkeypatch.setattr(ps, "MAX_PAPER_BYTES", 64)
    f = tmp_path / "p.tex"
    if content is not None:
        f.write_bytes(content)
    with pytest.raises(NBLInputError, match=match):
        ps.paper_source(f)
    with pytest.raises(NBLInputError, match="not a regular file"):
        ps.paper_source(tmp_path)


# ------------------------------------------------------------------ staleness
def test_the_pinned_text_leaves_nothing_stale():
    s = staleness(TEXT)
    assert (s.changed_lines, s.stale) == (0, False)


def test_a_changed_quoted_line_makes_its_record_stale():
    what, line, quote = quoted_lines()[0]
    edited = LINES.copy()
    edited[line - 1] = edited[line - 1].replace(quote, "something else")
    s = staleness("\n".join(edited))
    assert s.changed_lines == 1
    assert (what, line, "changed or removed") in s.records
    assert not s.moved and all(r[1] == line for r in s.records)


def test_a_removed_line_moves_the_records_after_it():
    first = min(line for _, line, _ in quoted_lines())
    edited = LINES[: first - 2] + LINES[first - 1 :]  # the line before the first quote
    s = staleness("\n".join(edited))
    assert s.changed_lines == 1 and not s.records
    assert len(s.moved) == len(quoted_lines())
    assert all(b == a - 1 for _, a, b in s.moved)
    assert s.stale and "moved" in s.summary()


def test_a_relabelled_result_makes_its_claims_stale():
    s = staleness(TEXT.replace("\\label{prop:local_jacobian}", "\\label{prop:renamed}"))
    assert s.labels["prop:local_jacobian"] == "gone or relabelled"
    expected = {c.id for c in all_claims() if "prop:local_jacobian" in (c.label, *c.covers)}
    assert expected and expected <= set(s.claims)
    assert "prop:local_jacobian" in s.summary()


def test_a_changed_statement_line_makes_its_label_stale():
    from proofs_check.audit.extracted import INDEX

    st = INDEX["statements"]["prop:local_jacobian"]
    start, end = st["start"], st["end"]
    edited = LINES.copy()
    edited[(start + end) // 2 - 1] += " (edited)"
    s = staleness("\n".join(edited))
    assert s.labels.get("prop:local_jacobian") == "text changed"


# ------------------------------------------------------------------ nbl check --paper
def test_check_names_a_paper_that_is_not_the_pinned_version(tmp_path, capsys):
    given = tmp_path / "paper.tex"
    given.write_text(
        TEXT.replace("\\label{prop:local_jacobian}", "\\label{prop:renamed}"), encoding="utf-8"
    )
    out = tmp_path / "r"
    code = main(
        [
            "--quiet",
            "check",
            "--claim",
            CLAIM,
            "--paper",
            str(given),
            "--out",
            str(out),
            "--no-cache",
            "--workers",
            "1",
        ]
    )
    stdout = capsys.readouterr().out
    assert code == 0
    assert f"--paper {given} is not the pinned version" in stdout
    assert f"`{CLAIM}`" in stdout
    md = " ".join((out / "verification.md").read_text(encoding="utf-8").split())
    assert "is not the pinned version" in md and f"`{CLAIM}`" in md
    assert "`prop:local_jacobian` (gone or relabelled)" in md


def test_check_with_the_pinned_text_reports_as_without_it(tmp_path, capsys):
    given = tmp_path / "paper.tex"
    given.write_text(TEXT, encoding="utf-8")
    code = main(
        [
            "--quiet",
            "check",
            "--claim",
            CLAIM,
            "--paper",
            str(given),
            "--out",
            str(tmp_path / "r"),
            "--no-cache",
            "--workers",
            "1",
        ]
    )
    assert code == 0 and "not the pinned version" not in capsys.readouterr().out
    md = (tmp_path / "r" / "verification.md").read_text(encoding="utf-8")
    assert "not the pinned version" not in md


def test_check_refuses_an_unreadable_paper_before_any_work(tmp_path, capsys):
    out = tmp_path / "r"
    code = main(
        ["check", "--claim", CLAIM, "--paper", str(tmp_path / "missing.tex"), "--out", str(out)]
    )
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("nbl: error: --paper ") and err.count("\n") == 1
    assert not out.exists()
