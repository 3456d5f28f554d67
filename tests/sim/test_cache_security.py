"""Fault injection on the one on-disk cache (nbl_sim.runs.cache.ChunkCache, sweeps and figures): what a
planted, damaged or forged entry can do — nothing. Issue 13, items 1, 2 and 8.

The victim's cell is the phase cell of the paper's unstable two-transition link (mu2 = 1.244122)
at Delta = 0.2, whose true lambda* is negative (about -0.0237, computed here directly, never
typed in); the planted value is the "stable" 9.0 of the security probe. Every test checks the
outcome that matters: the sweep returns the true value bit for bit (the cell is recomputed),
the bad entry is replaced, and a code-running payload (a pickle whose ``__reduce__`` creates a
marker file) never runs — the payload is first shown to be live by unpickling it here.

Each test gets its own user cache directory (``NBL_CACHE_DIR``, where the per-user HMAC key
lives); "another user" is simulated by a second such directory, i.e. another key.
"""

import json
import os
import pickle
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from nbl_sim.runs import cache as cache_mod
from nbl_sim.runs.cache import ChunkCache, default_cache_dir, private_dir
from nbl_sim.runs.execution import SerialExecutor
from nbl_sim.runs.sweep import LIBRARIES, cell_key, library_versions, run_sweep
from nbl_sim.studies.phase import PhaseCell, phase_cell, phase_diagram
from nbl_theory.errors import NBLInputError

ROOT = Path(__file__).resolve().parents[2]
CELL = PhaseCell("two-transition", "mu2", "1.244122", (), ("0.2",), "float")
OTHER = PhaseCell("two-transition", "mu2", "-1.074037", (), ("0.2",), "float")
PLANTED = {"lambda_star": np.array([9.0]), "sign": ["stable"]}


@pytest.fixture(autouse=True)
def user_home(tmp_path, monkeypatch):
    """This test's user cache directory (holds the HMAC key)."""
    home = tmp_path / "home"
    monkeypatch.setenv("NBL_CACHE_DIR", str(home))
    return home


@pytest.fixture(scope="module")
def truth():
    """The cell's value computed directly, and a sanity check that it is the unstable one."""
    val = phase_cell(CELL)
    assert val["lambda_star"][0] < 0 and val["sign"] == ["unstable"]
    return val


class _Boom:
    """Unpickling this creates the file ``path`` (a stand-in for arbitrary code)."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


def _payload(marker: Path) -> bytes:
    data = pickle.dumps(_Boom(marker))
    pickle.loads(data)  # the payload is live: it does run when unpickled
    assert marker.exists()
    marker.unlink()
    return data


def _files(cache: ChunkCache, key: str) -> tuple[Path, Path]:
    p = cache._path(key)
    return p, p.with_suffix(".npz")


def _same(a, b) -> None:
    """Bit-identical phase-cell values."""
    assert a["lambda_star"].dtype == b["lambda_star"].dtype
    assert a["lambda_star"].tobytes() == b["lambda_star"].tobytes() and a["sign"] == b["sign"]


def _recomputes(cache: ChunkCache, truth) -> None:
    """The sweep ignores the planted entry, recomputes the true value, and replaces the entry
    with a good one (a regular file, served on the next run)."""
    res = run_sweep(phase_cell, [CELL], executor=SerialExecutor(), cache=cache)
    assert (res.computed, res.cached) == (1, 0)
    _same(res.results[0], truth)
    again = run_sweep(phase_cell, [CELL], executor=SerialExecutor(), cache=cache)
    assert (again.computed, again.cached) == (0, 1)
    _same(again.results[0], truth)
    for f in _files(cache, cell_key(phase_cell, CELL)):
        assert stat.S_ISREG(os.lstat(f).st_mode)
    assert stat.S_ISDIR(os.lstat(_files(cache, cell_key(phase_cell, CELL))[0].parent).st_mode)


def _genuine(tmp_path) -> tuple[ChunkCache, str]:
    cache = ChunkCache(tmp_path / "cache", "phase")
    run_sweep(phase_cell, [CELL, OTHER], executor=SerialExecutor(), cache=cache)
    key = cell_key(phase_cell, CELL)
    assert cache.get(key)[0]
    return cache, key


def _entry(path: Path) -> dict:
    return json.loads(path.read_bytes())


def _npz_bytes(**arrays) -> bytes:
    import io

    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


# ---------------------------------------------------------------------- planted / damaged files
def _plant_pickle(cache, key, tmp_path, marker):
    js, npz = _files(cache, key)
    js.write_bytes(_payload(marker))
    npz.write_bytes(_payload(marker))
    js.with_suffix(".pkl").write_bytes(_payload(marker))  # the old layout's file name too


def _truncate(cache, key, tmp_path, marker):
    js, _ = _files(cache, key)
    js.write_bytes(js.read_bytes()[: js.stat().st_size // 2])


def _truncate_npz(cache, key, tmp_path, marker):
    _, npz = _files(cache, key)
    npz.write_bytes(npz.read_bytes()[:40])


def _empty(cache, key, tmp_path, marker):
    _files(cache, key)[0].write_bytes(b"")


def _empty_npz(cache, key, tmp_path, marker):
    _files(cache, key)[1].write_bytes(b"")


def _random(cache, key, tmp_path, marker):
    rng = np.random.default_rng(13)
    for f in _files(cache, key):
        f.write_bytes(rng.bytes(4096))


def _tamper_value(cache, key, tmp_path, marker):
    """The probe's attack: lambda* -> 9.0 "stable", the npz digest fixed up, the HMAC kept."""
    js, npz = _files(cache, key)
    e = _entry(js)
    raw = _npz_bytes(a0=np.array([9.0]))
    npz.write_bytes(raw)
    import hashlib

    e["npz_sha256"] = hashlib.sha256(raw).hexdigest()
    e["value"]["dict"]["sign"] = ["stable"]
    js.write_text(json.dumps(e))


def _tamper_type(cache, key, tmp_path, marker):
    """lambda* stored as a string / a float instead of an array (no arrays file)."""
    js, npz = _files(cache, key)
    e = _entry(js)
    e["value"]["dict"]["lambda_star"] = "9.0"
    e["arrays"], e["npz_sha256"] = [], None
    npz.unlink()
    js.write_text(json.dumps(e))


def _tamper_shape(cache, key, tmp_path, marker):
    """lambda* as a list of the wrong length."""
    js, npz = _files(cache, key)
    e = _entry(js)
    e["value"]["dict"]["lambda_star"] = [9.0, 9.0, 9.0]
    e["arrays"], e["npz_sha256"] = [], None
    js.write_text(json.dumps(e))


def _other_users_entry(cache, key, tmp_path, marker):
    """A well-formed entry with the planted value, written by someone else (another key): what
    an attacker who learned the key elsewhere can plant."""
    os.environ["NBL_CACHE_DIR"] = str(tmp_path / "attacker-home")
    try:
        ChunkCache(cache.root.parent, cache.root.name).put(key, PLANTED)
    finally:
        os.environ["NBL_CACHE_DIR"] = str(tmp_path / "home")
    assert _entry(_files(cache, key)[0])["value"]["dict"]["sign"] == ["stable"]


def _moved(cache, key, tmp_path, marker):
    """The genuine, correctly signed entry of another cell copied to this key."""
    src_js, src_npz = _files(cache, cell_key(phase_cell, OTHER))
    js, npz = _files(cache, key)
    js.write_bytes(src_js.read_bytes())
    npz.write_bytes(src_npz.read_bytes())


def _symlink(cache, key, tmp_path, marker):
    """The entry is a symlink to a copy outside the cache (a valid copy: only the link is
    wrong)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    for f in _files(cache, key):
        (outside / f.name).write_bytes(f.read_bytes())
    js = _files(cache, key)[0]
    js.unlink()
    js.symlink_to(outside / js.name)


def _symlink_npz(cache, key, tmp_path, marker):
    outside = tmp_path / "outside"
    outside.mkdir()
    npz = _files(cache, key)[1]
    (outside / npz.name).write_bytes(npz.read_bytes())
    npz.unlink()
    npz.symlink_to(outside / npz.name)


def _symlink_shard(cache, key, tmp_path, marker):
    """The entry's directory is a symlink to a directory elsewhere holding valid copies."""
    import shutil

    shard = _files(cache, key)[0].parent
    outside = tmp_path / "outside"
    shutil.copytree(shard, outside)
    shutil.rmtree(shard)
    shard.symlink_to(outside, target_is_directory=True)


def _fifo(cache, key, tmp_path, marker):
    js = _files(cache, key)[0]
    js.unlink()
    os.mkfifo(js)  # opening it for reading would block: it must not be opened blocking


def _directory(cache, key, tmp_path, marker):
    js = _files(cache, key)[0]
    js.unlink()
    (js / "x").mkdir(parents=True)


PLANTS = [
    _plant_pickle,
    _truncate,
    _truncate_npz,
    _empty,
    _empty_npz,
    _random,
    _tamper_value,
    _tamper_type,
    _tamper_shape,
    _other_users_entry,
    _moved,
    _symlink,
    _symlink_npz,
    _symlink_shard,
    _fifo,
    _directory,
]


@pytest.mark.parametrize("plant", PLANTS, ids=lambda f: f.__name__.strip("_"))
def test_planted_entry_is_never_served_nor_executed(plant, tmp_path, truth):
    cache, key = _genuine(tmp_path)
    marker = tmp_path / "PWNED"
    plant(cache, key, tmp_path, marker)
    assert cache.get(key) == (False, None)
    _recomputes(cache, truth)
    assert not marker.exists()


def test_the_planted_value_is_served_when_the_checks_are_bypassed(tmp_path):
    """Control for the test above: the other user's entry holds the planted value and would be
    returned if the signature were not checked (so the checks are what rejects it)."""
    cache, key = _genuine(tmp_path)
    _other_users_entry(cache, key, tmp_path, None)
    os.environ["NBL_CACHE_DIR"] = str(tmp_path / "attacker-home")  # the attacker's own key
    hit, val = ChunkCache(cache.root.parent, cache.root.name).get(key)
    assert hit and val["lambda_star"].tolist() == [9.0] and val["sign"] == ["stable"]


# ---------------------------------------------------------------------- signed but malformed
def _forge(
    cache: ChunkCache, key: str, value_tree, arrays: dict | None, specs=None, **fields
) -> None:
    """Write an entry signed with this user's key (as if our own writer had a bug), so only the
    structural validation can reject it."""
    import hashlib

    js, npz = _files(cache, key)
    js.parent.mkdir(mode=0o700, exist_ok=True)
    raw = _npz_bytes(**arrays) if arrays else None
    if raw is not None:
        npz.write_bytes(raw)
    if specs is None:
        specs = [{"dtype": a.dtype.str, "shape": list(a.shape)} for a in (arrays or {}).values()]
    entry = {
        "schema": "nbl-cache-entry",
        "version": 1,
        "key": key,
        "arrays": specs,
        "npz_sha256": hashlib.sha256(raw).hexdigest() if raw else None,
        "value": value_tree,
        **fields,
    }
    entry["mac"] = cache_mod._mac(entry, cache._key)
    js.write_text(json.dumps(entry))


GOOD_TREE = {"dict": {"lambda_star": {"array": 0}, "sign": ["stable"]}}


def test_forged_entry_control_is_served(tmp_path):
    """Control: a forged, well-formed entry is served (so the rejections below come from the
    structural checks, not from a broken forgery)."""
    cache = ChunkCache(tmp_path / "c", "phase")
    _forge(cache, "k" * 64, GOOD_TREE, {"a0": np.array([9.0])})
    hit, val = cache.get("k" * 64)
    assert hit and val["lambda_star"].tolist() == [9.0] and val["sign"] == ["stable"]


MALFORMED = {
    "object-array": lambda m: (GOOD_TREE, {"a0": np.array([_Boom(m)], dtype=object)}, None, {}),
    "bytes-array": lambda m: (GOOD_TREE, {"a0": np.array([b"9.0"])}, None, {}),
    "datetime-array": lambda m: (GOOD_TREE, {"a0": np.array(["2024-01-01"], "M8[D]")}, None, {}),
    "structured-array": lambda m: (GOOD_TREE, {"a0": np.zeros(1, "f8,i4")}, None, {}),
    "declared-dtype": lambda m: (
        GOOD_TREE,
        {"a0": np.array([9.0])},
        [{"dtype": "<f4", "shape": [1]}],
        {},
    ),
    "declared-shape": lambda m: (
        GOOD_TREE,
        {"a0": np.array([9.0])},
        [{"dtype": "<f8", "shape": [2]}],
        {},
    ),
    "extra-array": lambda m: (
        GOOD_TREE,
        {"a0": np.array([9.0]), "a1": np.array([1.0])},
        [{"dtype": "<f8", "shape": [1]}],
        {},
    ),
    "unreferenced-array": lambda m: (
        {"dict": {"sign": ["stable"]}},
        {"a0": np.array([9.0])},
        None,
        {},
    ),
    "array-twice": lambda m: (
        {"tuple": [{"array": 0}, {"array": 0}]},
        {"a0": np.array([9.0])},
        None,
        {},
    ),
    "unknown-tag": lambda m: ({"pickle": pickle.dumps(_Boom(m)).hex()}, None, None, {}),
    "two-tags": lambda m: ({"tuple": [], "dict": {}}, None, None, {}),
    "list-as-key": lambda m: ({"items": [[[1], 2]]}, None, None, {}),
    "duplicate-key": lambda m: ({"items": [[1, 2], [1, 3]]}, None, None, {}),
    "bare-object": lambda m: ({"lambda_star": 9.0}, None, None, {}),
    "float-bits-finite": lambda m: ({"float": "4022000000000000"}, None, None, {}),
    "scalar-object-dtype": lambda m: ({"scalar": ["|O8", "00" * 8]}, None, None, {}),
    "scalar-wrong-size": lambda m: ({"scalar": ["<f8", "00"]}, None, None, {}),
    "schema-version": lambda m: (GOOD_TREE, {"a0": np.array([9.0])}, None, {"version": 2}),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_signed_but_malformed_entry_is_a_miss(case, tmp_path):
    cache = ChunkCache(tmp_path / "c", "phase")
    marker = tmp_path / "PWNED"
    tree, arrays, specs, fields = MALFORMED[case](marker)
    _forge(cache, "k" * 64, tree, arrays, specs, **fields)
    assert cache.get("k" * 64) == (False, None)
    assert not marker.exists()
    cache.put("k" * 64, PLANTED)  # ... and is replaced by the next put
    hit, val = cache.get("k" * 64)
    assert hit and val["sign"] == ["stable"]


# ---------------------------------------------------------------------- the probe, end to end
def test_planted_phase_cache_does_not_change_the_phase_csv(tmp_path, monkeypatch, truth):
    """The probe's scenario through ``nbl phase``: another user ran the sweep with a cache in a
    directory, learned the keys, and replaced every entry by the "stable" 9.0 (well-formed,
    signed with their key). The victim runs ``nbl phase`` there — with the default cache and
    with ``--cache-dir`` pointing at the planted directory: phase.csv shows the true lambda*."""
    from proofs_check.cli import main

    work = tmp_path / "work"
    work.mkdir()
    planted_dirs = [work / ".nbl_cache" / "sweeps", work / "planted"]
    monkeypatch.setenv("NBL_CACHE_DIR", str(tmp_path / "attacker-home"))
    for d in planted_dirs:
        c = ChunkCache(d, "phase")
        phase_diagram(
            "two-transition", "mu2", ["1.244122"], ["0.2"], executor=SerialExecutor(), cache=c
        )
        keys = [p.stem for p in c.root.glob("??/*.json")]
        assert keys
        for k in keys:
            c.put(k, PLANTED)
            assert c.get(k)[1]["lambda_star"].tolist() == [9.0]
    monkeypatch.setenv("NBL_CACHE_DIR", str(tmp_path / "home"))
    monkeypatch.chdir(work)
    want = repr(float(truth["lambda_star"][0]))
    args = [
        "phase",
        "--family",
        "two-transition",
        "--param",
        "mu2",
        "--range",
        "1.244122:1.244122:1",
        "--delta-range",
        "0.2:0.2:1",
    ]
    for extra in ([], ["--cache-dir", str(planted_dirs[1])]):
        out = tmp_path / f"out{len(extra)}"
        assert main([*args, "--out", str(out), *extra]) == 0
        rows = (out / "phase.csv").read_text().splitlines()
        assert rows[1].split(",")[2:] == [want, "unstable"], rows


def test_planted_simulate_cache_never_runs_code(tmp_path, monkeypatch):
    """Every entry a simulation reads replaced by a code-running pickle: the simulation gives
    the results of an uncached run and the payload never runs."""
    from nbl_sim.engine.environment import Environment
    from nbl_sim.studies.experiment import simulate
    from nbl_theory.families import make_family

    env = Environment.build(make_family("two-transition", mu2="1.244122"), "0.2", 2)
    kw = dict(n=200, reps=4, n0=20, seed=3, chunk_size=2, executor=SerialExecutor())
    cache = ChunkCache(tmp_path / "cache", "simulate")
    simulate(env, cache=cache, **kw)
    marker = tmp_path / "PWNED"
    entries = list(cache.root.glob("??/*.json"))
    assert len(entries) == 2
    for js in entries:
        js.write_bytes(_payload(marker))
        js.with_suffix(".npz").write_bytes(_payload(marker))
    got = simulate(env, cache=cache, **kw)
    plain = simulate(env, **kw)
    for name in plain.policies:
        for k in ("regret", "sq_error", "angle"):
            assert np.array_equal(
                getattr(got.policies[name], k), getattr(plain.policies[name], k), equal_nan=True
            )
    assert not marker.exists()


# ---------------------------------------------------------------------- concurrent writers
_RACE = textwrap.dedent("""
    import sys
    import numpy as np
    from nbl_sim.runs.cache import ChunkCache
    cache = ChunkCache(sys.argv[1], "race")
    values = {f"key{i}": {"x": np.arange(2000.0) * i, "i": i, "t": (i, "s")} for i in range(4)}
    hits = 0
    for _ in range(int(sys.argv[2])):
        for k, v in values.items():
            cache.put(k, v)
            hit, got = cache.get(k)
            if hit:
                hits += 1
                assert got["i"] == v["i"] and got["t"] == v["t"]
                assert got["x"].tobytes() == v["x"].tobytes()
    print("ok", hits)
""")


def test_concurrent_writers_and_readers_of_the_same_keys(tmp_path):
    """Two processes put and get the same keys 4 x 150 times each, starting together on a fresh
    user directory (so they also race to create the HMAC key): neither crashes, every hit is the
    right value, and the entries are good afterwards."""
    script = tmp_path / "race.py"
    script.write_text(_RACE)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NBL_CACHE_DIR": str(tmp_path / "home")}
    procs = [
        subprocess.Popen(
            [sys.executable, str(script), str(tmp_path / "c"), "150"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert out.startswith("ok ")
        assert int(out.split()[1]) > 0
    cache = ChunkCache(tmp_path / "c", "race")
    for i in range(4):
        hit, got = cache.get(f"key{i}")
        assert hit and got["x"].tobytes() == (np.arange(2000.0) * i).tobytes()
    assert not list(cache.root.glob("??/*.tmp")) and not list(cache.root.glob("??/.*.tmp"))


_FIGURE = textwrap.dedent("""
    import numpy as np
    from nbl_sim.presentation.figures.base import FigureData
    from nbl_sim.presentation.style import new_figure
    ID, LABEL, TITLE, CAPTION = "race", "fig:race", "A race", "no crash"

    def compute(quick):
        x = np.linspace(0, 1, 5 if quick else 9)
        return FigureData({"curve": {"x": x, "y": x**2}}, {"points": x.size}, "ok")

    def draw(data):
        fig, ax = new_figure()
        ax[0, 0].plot(data.table("curve")["x"], data.table("curve")["y"])
        return fig
""")

_REPRODUCE = textwrap.dedent("""
    import sys
    import race_figure
    from nbl_sim.presentation.reproduce import reproduce
    for i in range(4):
        reproduce(["race"], quick=bool(i % 2), out_dir=sys.argv[1], cache_dir=sys.argv[2],
                  registry={"race": race_figure})
    print("ok")
""")


def test_concurrent_reproduce_runs_share_cache_and_output(tmp_path):
    """Two ``reproduce`` runs at once on the same cache and output directories (the probe saw 1
    of 5 such pairs crash on the cache's fixed temporary name): both finish, the outputs and the
    cached figure data are complete."""
    (tmp_path / "race_figure.py").write_text(_FIGURE)
    (tmp_path / "run.py").write_text(_REPRODUCE)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)]),
        "NBL_CACHE_DIR": str(tmp_path / "home"),
        "MPLBACKEND": "Agg",
    }
    for _ in range(2):
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    str(tmp_path / "run.py"),
                    str(tmp_path / "out"),
                    str(tmp_path / "cache"),
                ],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        outs = [p.communicate(timeout=300) for p in procs]
        for p, (out, err) in zip(procs, outs):
            assert p.returncode == 0 and out.strip() == "ok", err
    lines = (tmp_path / "out" / "race__curve.csv").read_text().splitlines()
    assert lines[0] == "x,y" and len(lines) == 6  # both ended with quick mode (5 points)
    assert (tmp_path / "out" / "race.png").read_bytes()[:4] == b"\x89PNG"
    assert not [f for f in (tmp_path / "out").iterdir() if f.name.endswith(".tmp")]
    assert len(ChunkCache(tmp_path / "cache", "figures")) == 2


# ---------------------------------------------------------------------- directories
@pytest.mark.parametrize("mode", [0o777, 0o770, 0o722, 0o702])
def test_directory_writable_by_others_is_refused(tmp_path, mode):
    d = tmp_path / "shared"
    d.mkdir()
    os.chmod(d, mode)
    with pytest.raises(NBLInputError, match="writable by others") as err:
        ChunkCache(d, "phase")
    assert "\n" not in str(err.value)
    assert not (d / "phase").exists()  # refused before anything is written


def test_directory_writable_by_others_as_namespace_or_user_dir_is_refused(tmp_path, monkeypatch):
    good = tmp_path / "good"
    (good / "phase").mkdir(parents=True)
    os.chmod(good, 0o700)
    os.chmod(good / "phase", 0o777)
    with pytest.raises(NBLInputError, match="writable by others"):
        ChunkCache(good, "phase")
    shared_home = tmp_path / "shared-home"
    shared_home.mkdir(mode=0o700)
    os.chmod(shared_home, 0o777)
    monkeypatch.setenv("NBL_CACHE_DIR", str(shared_home))
    with pytest.raises(NBLInputError, match="writable by others"):
        ChunkCache(tmp_path / "elsewhere", "phase")  # the HMAC key's directory is shared
    assert not (tmp_path / "elsewhere").exists()
    with pytest.raises(NBLInputError, match="writable by others"):
        ChunkCache(None, "phase")


def test_sticky_directory_of_ours_is_accepted_and_created_dirs_are_private(tmp_path):
    d = tmp_path / "sticky"
    d.mkdir()
    os.chmod(d, 0o1777)
    cache = ChunkCache(d / "a" / "b", "phase")
    for p in (d / "a", d / "a" / "b", cache.root):
        assert stat.S_IMODE(os.stat(p).st_mode) == 0o700, p
    cache.put("key1", 1.5)
    js = cache._path("key1")
    assert stat.S_IMODE(os.stat(js.parent).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(js).st_mode) == 0o600
    secret = default_cache_dir() / "secret.key"
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="giving a directory to another user needs root",
)
def test_directory_owned_by_another_user_is_refused(tmp_path):
    d = tmp_path / "theirs"
    d.mkdir(mode=0o755)
    os.chown(d, 65534, 65534)
    with pytest.raises(NBLInputError, match="owned by another user"):
        ChunkCache(d, "phase")


def test_non_directory_is_refused(tmp_path):
    f = tmp_path / "file"
    f.write_text("")
    with pytest.raises(NBLInputError, match="not a directory|cannot create"):
        ChunkCache(f, "phase")
    with pytest.raises(NBLInputError, match="namespace"):
        ChunkCache(tmp_path, "../escape")
    with pytest.raises(NBLInputError, match="bad cache key"):
        ChunkCache(tmp_path, "ok").get("../../x")


def test_default_directory(tmp_path, monkeypatch):
    """NBL_CACHE_DIR, else platformdirs when installed, else $XDG_CACHE_HOME/nbl (absolute
    only), else ~/.cache/nbl — never the current directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NBL_CACHE_DIR", str(tmp_path / "mine"))
    assert default_cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("NBL_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    monkeypatch.setitem(sys.modules, "platformdirs", None)  # not installed
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "nbl"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")  # ignored (XDG rule)
    assert default_cache_dir() == tmp_path / "h" / ".cache" / "nbl"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache_dir() == tmp_path / "h" / ".cache" / "nbl"
    import types

    fake = types.ModuleType("platformdirs")
    fake.user_cache_dir = lambda app, appauthor=None: str(tmp_path / "pd" / app)
    monkeypatch.setitem(sys.modules, "platformdirs", fake)
    assert default_cache_dir() == tmp_path / "pd" / "nbl"
    cache = ChunkCache(None, "phase")
    assert cache.root == tmp_path / "pd" / "nbl" / "phase"
    assert not (tmp_path / ".nbl_cache").exists()


def test_private_dir_returns_an_absolute_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert private_dir("rel/dir") == tmp_path / "rel" / "dir"


# ---------------------------------------------------------------------- the key
@pytest.fixture
def fresh_versions():
    library_versions.cache_clear()
    yield
    library_versions.cache_clear()


def test_key_changes_with_every_numerical_library_version(monkeypatch, fresh_versions):
    from importlib import metadata

    from nbl_sim.presentation.figures import rates
    from nbl_sim.presentation.reproduce import cache_key

    real = metadata.version
    base = cell_key(phase_cell, CELL)
    fig = cache_key(rates.ID, rates, True)
    assert set(LIBRARIES) >= {"numpy", "scipy", "mpmath", "sympy", "python-flint", "numba", "nbl"}
    seen = {base}
    for lib in LIBRARIES:
        monkeypatch.setattr(
            metadata, "version", lambda name, lib=lib: "0.0+changed" if name == lib else real(name)
        )
        library_versions.cache_clear()
        assert library_versions()[lib] == "0.0+changed"
        key = cell_key(phase_cell, CELL)
        assert key not in seen, lib
        seen.add(key)
        assert cache_key(rates.ID, rates, True) != fig, lib
    import platform

    real_python = platform.python_version
    monkeypatch.setattr(metadata, "version", real)
    monkeypatch.setattr(platform, "python_version", lambda: "3.0.0")
    library_versions.cache_clear()
    assert cell_key(phase_cell, CELL) not in seen
    monkeypatch.setattr(platform, "python_version", real_python)
    library_versions.cache_clear()
    assert cell_key(phase_cell, CELL) == base  # nothing else moved


# ---------------------------------------------------------------------- what may be stored
class _Unsupported:
    pass


def _returns_a_set(cell):
    return {"lambda_star": np.array([1.0]), "sign": {"stable"}}


@pytest.mark.parametrize(
    "value, where, what",
    [
        ({"x": _Unsupported()}, "value['x']", "_Unsupported"),
        ({"x": [1, {2, 3}]}, "value['x'][1]", "builtins.set"),
        ({frozenset(): "a"}, "a key of value", "builtins.frozenset"),
        ({(1, _Unsupported()): "a"}, "a key of value", "builtins.tuple"),
        ((np.array([b"a", b"b"]),), "value[0]", "dtype |S1"),
        ({"x": np.zeros(2, "f8,i4")}, "value['x']", "dtype [('f0', '<f8'), ('f1', '<i4')]"),
        ({"x": np.datetime64("2024-01-01")}, "value['x']", "numpy.datetime64"),
        ([np.array([None])], "value[0]", "dtype object"),
        ({"x": np.ma.masked_array([1.0])}, "value['x']", "MaskedArray"),
        ({"x": 1 + 2j}, "value['x']", "builtins.complex"),
    ],
)
def test_put_refuses_anything_but_plain_data(tmp_path, value, where, what):
    cache = ChunkCache(tmp_path, "t")
    with pytest.raises(TypeError) as err:
        cache.put("key1", value)
    assert where in str(err.value) and what in str(err.value)
    assert len(cache) == 0


def test_a_cell_returning_unsupported_data_is_reported_with_its_function(tmp_path):
    with pytest.raises(TypeError, match=r"_returns_a_set returned .*builtins\.set"):
        run_sweep(_returns_a_set, [1], executor=SerialExecutor(), cache=ChunkCache(tmp_path))
