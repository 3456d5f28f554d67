"""nbl_sim.presentation.reproduce: files, cache (resume, invalidation), gallery and errors — with a small
stand-in figure module, so the runner is tested independently of the real figures."""

import json
import types

import numpy as np
import pytest

from nbl_sim.presentation.figures.base import FigureData
from nbl_sim.presentation.reproduce import reproduce
from nbl_sim.presentation.style import new_figure
from nbl_theory.errors import NBLInputError

CALLS = []


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
    return reproduce(["fake"], out_dir=tmp_path / "out", cache_dir=tmp_path / "cache",
                     registry={"fake": FAKE}, **kw)


def test_files_manifest_and_gallery(tmp_path, monkeypatch):
    import nbl_sim.presentation.reproduce as rp

    monkeypatch.setattr(rp, "cache_key", lambda fid, mod, quick: f"k{quick}")
    CALLS.clear()
    (rec,) = _run(tmp_path, quick=True)
    out = tmp_path / "out"
    for name in ("fake.png", "fake.pdf", "fake__curve.csv", "fake.json", "index.md"):
        assert (out / name).stat().st_size > 0, name
    assert (out / "fake.png").read_bytes()[:4] == b"\x89PNG"
    lines = (out / "fake__curve.csv").read_text().splitlines()
    assert lines[0] == "x,y" and len(lines) == 6 and lines[-1] == "1.0,1.0"
    man = json.loads((out / "fake.json").read_text())
    assert man["settings"] == {"points": 5} and man["quick"] is True and "numpy" in man["versions"]
    index = (out / "index.md").read_text()
    assert "y grows" in index and "5 points" in index and "fig:fake" in index
    assert rec["cached"] is False and CALLS == [True]

    # resume: the second run reads the cache; full mode has its own entry
    (rec2,) = _run(tmp_path, quick=True)
    assert rec2["cached"] is True and CALLS == [True]
    (rec3,) = _run(tmp_path, quick=False)
    assert rec3["cached"] is False and CALLS == [True, False]


def test_changed_figure_source_invalidates_the_cache(tmp_path, monkeypatch):
    import nbl_sim.presentation.reproduce as rp

    keys = iter(["a", "b"])
    monkeypatch.setattr(rp, "cache_key", lambda fid, mod, quick: next(keys))
    CALLS.clear()
    _run(tmp_path, quick=True)
    _run(tmp_path, quick=True)
    assert CALLS == [True, True]  # a different key (source/version/mode) is recomputed


def test_unknown_figure(tmp_path):
    with pytest.raises(NBLInputError, match="unknown figure"):
        reproduce(["nope"], out_dir=tmp_path, cache_dir=None, registry={"fake": FAKE})


def test_cache_key_follows_the_figure_and_the_library_not_the_style(monkeypatch):
    """A figure's data-cache key changes when its module or a library module it imports changes,
    and not when the shared style changes (nbl_sim.sweep.source_fingerprint)."""
    from pathlib import Path

    import nbl_sim.presentation.figures.rates as fig
    import nbl_sim.presentation.style as style
    import nbl_theory.stability as lib
    from nbl_sim.presentation.reproduce import cache_key
    from nbl_sim.sweep import source_fingerprint

    real = Path.read_bytes
    edited = set()
    monkeypatch.setattr(Path, "read_bytes", lambda self: real(self) + (
        b"\n# edited\n" if self.resolve() in edited else b""))

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
