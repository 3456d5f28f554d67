"""nbl_sim.runs.outputs: an output file is replaced, never written through (a symbolic link planted
at its name is replaced and its target left alone), and a failed write leaves nothing behind.
Also end to end: `nbl phase --out DIR` with a link in DIR (found by an attacker's audit: the
linked file was overwritten with the phase CSV)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402

from nbl_sim.runs.outputs import replacing, save_figure, write_text  # noqa: E402


def _link(tmp_path: Path, name: str) -> tuple[Path, Path]:
    target = tmp_path / "precious.txt"
    target.write_text("precious\n")
    link = tmp_path / name
    link.symlink_to(target)
    return link, target


def test_write_text_replaces_a_link_and_leaves_its_target(tmp_path):
    link, target = _link(tmp_path, "out.json")
    write_text(link, "{}\n")
    assert target.read_text() == "precious\n"
    assert not link.is_symlink() and link.read_text() == "{}\n"


def test_save_figure_replaces_a_link_and_keeps_the_format(tmp_path):
    link, target = _link(tmp_path, "plot.png")
    fig = Figure()
    fig.add_subplot().plot([0, 1])
    save_figure(fig, link)
    assert target.read_text() == "precious\n"
    assert link.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "table.csv"
    path.write_text("old\n")
    with pytest.raises(RuntimeError), replacing(path) as tmp:
        tmp.write_text("half")
        raise RuntimeError("interrupted")
    assert path.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.csv"]


def test_phase_out_does_not_write_through_a_link(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    link, target = _link(tmp_path, "out/phase.csv")
    nbl = Path(sys.executable).with_name("nbl")
    proc = subprocess.run(
        [
            str(nbl),
            "phase",
            "--family",
            "two-transition",
            "--param",
            "mu2=0,1",
            "--delta",
            "0.2,1",
            "--no-cache",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert target.read_text() == "precious\n"
    assert not link.is_symlink() and link.read_text().startswith("delta,mu2,")
