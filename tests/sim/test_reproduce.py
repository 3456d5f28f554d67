"""nbl_sim.presentation.reproduce: files, cache (resume, invalidation, data only), gallery, figure
names (ids and paper labels) and errors — with a small stand-in figure module, so the runner is
tested independently of the real figures. Planted and concurrent cache entries:
test_cache_security.py."""

import json
import types

import numpy as np
import pytest

from nbl_sim.presentation.figures.base import FigureData
from nbl_sim.presentation.reproduce import reproduce
from nbl_sim.presentation.style import new_figure
from nbl_theory.errors import NBLInputError

CALLS = []


@pytest.fixture(autouse=True)
def _user_cache_home(tmp_path, monkeypatch):
    """A private user cache directory (where the cache's HMAC key lives) per test."""
    monkeypatch.setenv("NBL_CACHE_DIR", str(tmp_path / "nbl-home"))


def _compute(quick):
    CALLS.append(quick)
    x = np.linspace(0, 1, 5 if quick else 9)
    return FigureData({"curve": {"x": x, "y": x**2}}, {"points": x.size}, f"{x.size} points")


def _draw(data):
    fig, ax = new_figure()
    t = data.table("curve")
    ax[0, 0].plot(t["x"], t["y"], label="y = x^2")
    ax[0, 0].legend()
    return fig


FAKE = types.ModuleType("fake_figure")
FAKE.ID, FAKE.LABEL, FAKE.TITLE, FAKE.CAPTION = "fake", "fig:fake", "A parabola", "y grows"
FAKE.compute, FAKE.draw = _compute, _draw


def _run(tmp_path, **kw):
    # inspect.getsource needs a real module; use this test module's source as the stand-in's
    import tests.sim.test_reproduce as me

    FAKE.__file__ = me.__file__
    return reproduce(
        ["fake"],
        out_dir=tmp_path / "out",
        cache_dir=tmp_path / "cache",
        registry={"fake": FAKE},
        **kw,
    )


def test_files_manifest_and_gallery(tmp_path, monkeypatch):
    import nbl_sim.presentation.reproduce as rp

    monkeypatch.setattr(rp, "cache_key", lambda fid, mod, quick: f"key-{quick}")
    CALLS.clear()
    (rec,) = _run(tmp_path, quick=True)
    out = tmp_path / "out"
    for name in ("fake.png", "fake.pdf", "fake__curve.csv", "fake.json", "index.md"):
        assert (out / name).stat().st_size > 0, name
    assert (out / "fake.png").read_bytes()[:4] == b"\x89PNG"
    lines = (out / "fake__curve.csv").read_text().splitlines()
    assert lines[0] == "x,y" and len(lines) == 6 and lines[-1] == "1.0,1.0"
    envelope = json.loads((out / "fake.json").read_text())
    assert envelope["command"] == "reproduce" and "fake.png" in envelope["files"]
    (man,) = envelope["results"]  # the toolkit's one envelope (records.py)
    assert man["settings"] == {"points": 5} and man["quick"] is True and "numpy" in man["versions"]
    index = (out / "index.md").read_text()
    assert "y grows" in index and "5 points" in index and "fig:fake" in index
    assert rec["cached"] is False and CALLS == [True]
    # written as a set: the manifest and the index name the same run
    assert len(envelope["run_id"]) == 16 and f"run `{envelope['run_id']}`" in index

    # resume: the second run reads the cache; full mode has its own entry
    (rec2,) = _run(tmp_path, quick=True)
    assert rec2["cached"] is True and CALLS == [True]
    (rec3,) = _run(tmp_path, quick=False)
    assert rec3["cached"] is False and CALLS == [True, False]


def test_a_write_fault_keeps_the_records_and_leaves_the_directory(tmp_path, monkeypatch):
    """issue 36: the files are written as a set. A fault while writing (here: the PDF writer
    fails as on a full disk) leaves --out as it was — no half set, no staging directory —
    and the records (the result) are returned all the same through the command's writer."""
    import nbl_sim.presentation.reproduce as rp
    from proofs_check.cli.options import write_out

    monkeypatch.setattr(rp, "cache_key", lambda fid, mod, quick: "key")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "old.txt").write_text("an earlier run's file")
    real = rp.save_figure

    def full(fig, path, **kw):
        if str(path).endswith(".pdf"):
            raise OSError(28, "No space left on device")
        return real(fig, path, **kw)

    monkeypatch.setattr(rp, "save_figure", full)
    faults = []
    (rec,) = _run(
        tmp_path,
        quick=True,
        writer=lambda w: faults.append(write_out(tmp_path / "out", ("index.md",), w)),
    )
    assert rec["summary"] and rec["settings"] == {"points": 5}  # the result is kept
    assert faults[0][0] == [] and "No space left on device" in faults[0][1]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["old.txt"]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_changed_figure_source_invalidates_the_cache(tmp_path, monkeypatch):
    import nbl_sim.presentation.reproduce as rp

    keys = iter(["aa", "bb"])
    monkeypatch.setattr(rp, "cache_key", lambda fid, mod, quick: next(keys))
    CALLS.clear()
    _run(tmp_path, quick=True)
    _run(tmp_path, quick=True)
    assert CALLS == [True, True]  # a different key (source/version/mode) is recomputed


def test_unknown_figure(tmp_path):
    with pytest.raises(NBLInputError, match="unknown figure") as err:
        reproduce(["nope"], out_dir=tmp_path, cache_dir=None, registry={"fake": FAKE})
    assert "\n" not in str(err.value) and "figures: fake" in str(err.value)
    with pytest.raises(NBLInputError, match=r"did you mean 'fake' \(fig:fake\)\?") as err:
        reproduce(["fig:fak"], out_dir=tmp_path, registry={"fake": FAKE})
    assert "\n" not in str(err.value)
    assert not (tmp_path / "index.md").exists()  # refused before any work


def test_paper_label_names_the_figure(tmp_path):
    (rec,) = reproduce(
        ["fig:fake", "fake"], quick=True, out_dir=tmp_path / "out", registry={"fake": FAKE}
    )
    assert rec["id"] == "fake" and rec["label"] == "fig:fake"  # named twice, drawn once


def test_every_paper_label_resolves_to_its_figure():
    """nbl reproduce takes the ids and the paper labels that --list shows."""
    from nbl_sim.presentation.figures import load_figures
    from nbl_sim.presentation.reproduce import figure_id
    from nbl_sim.presentation.tables import figure_list_report, render

    reg = load_figures()
    assert figure_id("fig:numerical-summary") == "numerical-summary"
    labels = {fid: mod.LABEL for fid, mod in reg.items()}
    for fid, label in labels.items():
        assert figure_id(fid, reg) == fid and figure_id(label, reg) == fid
    assert len(set(labels.values())) == len(labels)
    with pytest.raises(
        NBLInputError, match=r"did you mean 'numerical-summary' \(fig:numerical-summary\)\?"
    ):
        figure_id("fig:numerical_summary", reg)
    listing = render(figure_list_report(reg))
    assert "paper label" in listing and all(label in listing for label in labels.values())


def _entry_files(cache_dir):
    return sorted(p.name.rsplit(".", 1)[1] for p in (cache_dir / "figures").glob("??/*"))


def test_figure_cache_holds_data_and_recomputes_a_damaged_entry(tmp_path, monkeypatch):
    """The figure data are stored as JSON + npz (no pickle); a truncated, empty or ill-shaped
    entry is recomputed and replaced instead of raising on every run (issue 13, item 2)."""
    import nbl_sim.presentation.reproduce as rp
    from nbl_sim.runs.cache import ChunkCache

    monkeypatch.setattr(rp, "cache_key", lambda fid, mod, quick: f"key-{quick}")
    CALLS.clear()
    _run(tmp_path, quick=True)
    cache = ChunkCache(tmp_path / "cache", "figures")
    assert _entry_files(tmp_path / "cache") == ["json", "npz"]
    entry = cache._path("key-True")
    good = entry.read_bytes()
    for damage in (good[: len(good) // 2], b"", b"\x80\x04K\x01."):
        entry.write_bytes(damage)
        (rec,) = _run(tmp_path, quick=True)
        assert rec["cached"] is False
        (rec,) = _run(tmp_path, quick=True)
        assert rec["cached"] is True
    assert CALLS == [True] * 4
    cache.put("key-True", {"tables": [], "settings": {}, "summary": "", "extra": {}})
    (rec,) = _run(tmp_path, quick=True)  # plain data, but not a figure's
    assert rec["cached"] is False and rec["summary"] == "5 points" and CALLS == [True] * 5


def test_figure_data_round_trip_and_unsupported_data():
    x = np.linspace(0, 1, 4)
    fd = FigureData(
        {"t": {"x": x, "n": [1, 2], "name": ["a", "b"]}},
        {"seed": 3, "eps": 1e-9},
        "s",
        {"analysis": {"fit": (1.0, float("nan"))}},
    )
    from nbl_sim.runs.plain_data import decode, encode

    back = FigureData.from_data(decode(*encode(fd.to_data())))
    assert back.tables["t"]["x"].tobytes() == x.tobytes()
    assert back.tables["t"]["n"] == [1, 2] and back.tables["t"]["name"] == ["a", "b"]
    assert (back.settings, back.summary) == (fd.settings, fd.summary)
    fit = back.extra["analysis"]["fit"]
    assert type(fit) is tuple and fit[0] == 1.0 and np.isnan(fit[1])
    for bad in (
        [],
        {"tables": {}, "settings": {}, "summary": 1, "extra": {}},
        {"tables": {"t": []}, "settings": {}, "summary": "", "extra": {}},
    ):
        with pytest.raises(ValueError):
            FigureData.from_data(bad)


def test_figure_returning_unsupported_data_is_an_error_naming_it(tmp_path):
    bad = types.ModuleType("bad_figure")
    bad.__dict__.update({k: getattr(FAKE, k) for k in ("ID", "LABEL", "TITLE", "CAPTION", "draw")})
    bad.__file__ = __file__
    bad.compute = lambda quick: FigureData({"t": {"x": {1, 2}}}, {}, "")
    with pytest.raises(TypeError, match=r"figure 'fake'.*builtins\.set at value\['tables'\]"):
        reproduce(
            ["fake"], out_dir=tmp_path / "out", cache_dir=tmp_path / "cache", registry={"fake": bad}
        )


def test_cache_key_follows_the_figure_and_the_library_not_the_style(monkeypatch):
    """A figure's data-cache key changes when its module or a library module it imports changes,
    and not when the shared style changes (nbl_sim.runs.sweep.source_fingerprint)."""
    from pathlib import Path

    import nbl_sim.presentation.figures.rates as fig
    import nbl_sim.presentation.style as style
    import nbl_theory.stability as lib
    from nbl_sim.presentation.reproduce import cache_key
    from nbl_sim.runs.sweep import source_fingerprint

    real = Path.read_bytes
    edited = set()
    monkeypatch.setattr(
        Path,
        "read_bytes",
        lambda self: real(self) + (b"\n# edited\n" if self.resolve() in edited else b""),
    )

    def key_after_editing(module):
        if module is not None:
            edited.add(Path(module.__file__).resolve())
        source_fingerprint.cache_clear()
        return cache_key(fig.ID, fig, True)

    try:
        before = key_after_editing(None)
        assert key_after_editing(style) == before
        assert key_after_editing(lib) != before
        assert cache_key(fig.ID, fig, False) != cache_key(fig.ID, fig, True)
    finally:
        source_fingerprint.cache_clear()
