"""Fault injection (issue 36): no result lost to a cache or output fault, outputs as a set,
leftovers of killed runs cleaned up, one line for every fault.

File-system faults are injected by a mocked ``OSError`` (the default suite) and, where this
machine lets the tests mount one, by a real full tmpfs (``slow``; root can write through
``chmod``, so a read-only *mode* proves nothing here).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import nbl_sim.runs.cache as cache_mod
import nbl_sim.runs.outputs as outputs
from proofs_check.cli import main

NBL = Path(sys.executable).with_name("nbl")
PHASE = ["phase", "--family", "two-transition", "--param", "mu2=-1,1.244122", "--delta", "0.2,1"]


def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip()]


# ---------------------------------------------------------------------- cache faults
def test_cache_write_fault_keeps_the_result(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cache_mod, "_atomic_write", _enospc)
    rc = main(PHASE + ["--cache-dir", str(tmp_path / "c")])
    out, err = capsys.readouterr()
    assert rc == 0
    assert "stable 3, unstable 1" in out  # the result is printed
    warn = [ln for ln in _lines(err) if ln.startswith("nbl:")]
    assert len(warn) == 1 and warn[0].startswith("nbl: warning: results were not cached"), err
    assert "No space left on device" in warn[0]
    assert "Traceback" not in err


def test_cache_put_records_the_first_fault_and_skips_the_rest(tmp_path, monkeypatch):
    c = cache_mod.ChunkCache(tmp_path / "c", "t")
    calls = []

    def fail(*a, **k):
        calls.append(1)
        _enospc()

    monkeypatch.setattr(cache_mod, "_atomic_write", fail)
    assert c.put("ab12", {"x": 1.0}) is False
    assert c.put("cd34", {"x": 2.0}) is False
    assert len(calls) == 1 and "No space left" in c.fault
    assert cache_mod.take_write_faults() == [c.fault]
    assert cache_mod.take_write_faults() == []
    with pytest.raises(TypeError):  # a bug stays a bug, not a fault
        c.put("ef56", {1, 2})


def test_unwritable_key_location_is_one_line(tmp_path, monkeypatch, capsys):
    # the cache key cannot be created (read-only home of the key): a one-line refusal before
    # any work, not "internal error" with a temporary file's name
    monkeypatch.setenv("NBL_CACHE_DIR", str(tmp_path / "home"))
    monkeypatch.setattr(cache_mod, "_secrets", {})

    def no_tmp(*a, **k):
        raise PermissionError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(cache_mod.tempfile, "NamedTemporaryFile", no_tmp)
    rc = main(PHASE)
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert _lines(err) == [
        ln for ln in _lines(err) if ln.startswith("nbl: error: cannot create the cache key")
    ]
    assert ".secret." not in err


# ---------------------------------------------------------------------- --out faults
def test_out_fault_prints_the_result_and_writes_nothing(tmp_path, monkeypatch, capsys):
    import proofs_check.cli.phase as phase_cli

    real = phase_cli.write_phase

    def half(pd, out_dir, *a, **k):  # one file written, then the disk is full
        (Path(out_dir) / "phase.csv").write_text("partial\n")
        _enospc()

    monkeypatch.setattr(phase_cli, "write_phase", half)
    out_dir = tmp_path / "out"
    rc = main(PHASE + ["--no-cache", "--out", str(out_dir)])
    out, err = capsys.readouterr()
    assert real is not half
    assert rc == 1
    assert "stable 3, unstable 1" in out
    assert _lines(err)[-1].startswith(f"nbl: error: cannot write --out {out_dir}: No space")
    assert not out_dir.exists()
    assert os.listdir(tmp_path) == []  # no staging directory left behind


def test_check_report_fault_prints_the_result(tmp_path, monkeypatch, capsys):
    """A full disk under ``nbl check --out`` (before issue 36's fix: "internal error: OSError"
    after the run): the claims run to the end, the table and the counts are printed, then one
    error line, exit 1; no half-written report and no temporary directory are left."""
    import proofs_check.report as report_mod

    monkeypatch.setattr(report_mod, "write_report", _enospc)
    out_dir = tmp_path / "reports"
    rc = main(
        ["check", "--quick", "--claim", "kappa-closed-form", "--no-cache", "--out", str(out_dir)]
    )
    out, err = capsys.readouterr()
    assert rc == 1
    assert "kappa-closed-form" in out and "PASS 1 · CAVEAT 0" in out
    assert "report:" not in out  # no report is announced
    errs = [ln for ln in _lines(err) if ln.startswith("nbl:")]
    assert errs == [
        f"nbl: error: cannot write the report into --out {out_dir}: No space left "
        "on device; the result above is complete"
    ], err
    assert "Traceback" not in err
    assert [p.name for p in out_dir.iterdir()] == []


def test_out_is_a_set_with_a_run_id(tmp_path, capsys):
    out_dir = tmp_path / "out"
    assert main(PHASE + ["--no-cache", "--out", str(out_dir), "--quiet"]) == 0
    capsys.readouterr()
    first = json.loads((out_dir / "phase.json").read_text())
    assert len(first["run_id"]) == 16
    assert sorted(os.listdir(out_dir)) == ["phase.csv", "phase.json", "phase.png"]
    assert first["files"] == [str(out_dir / n) for n in ("phase.csv", "phase.png", "phase.json")]
    assert main(PHASE + ["--no-cache", "--out", str(out_dir), "--quiet"]) == 0
    second = json.loads((out_dir / "phase.json").read_text())
    assert second["run_id"] != first["run_id"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_install_into_a_full_directory_leaves_no_stale_index(tmp_path, monkeypatch):
    # DIR already holds another run's set: the old index goes first, so a fault while moving
    # the new files in never leaves an index next to files of another run
    d = tmp_path / "out"
    d.mkdir()
    (d / "keep.txt").write_text("the user's\n")
    (d / "manifest.json").write_text('{"run_id": "old"}\n')
    (d / "a.csv").write_text("old\n")
    moves = []
    real_replace = os.replace

    def replace(src, dst):
        moves.append(Path(dst).name)
        if len(moves) == 2:
            _enospc()
        real_replace(src, dst)

    monkeypatch.setattr(outputs.os, "replace", replace)
    with pytest.raises(OSError), outputs.output_set(d, index=("manifest.json",)) as o:
        (o.path / "a.csv").write_text("new\n")
        (o.path / "b.csv").write_text("new\n")
        (o.path / "manifest.json").write_text('{"run_id": "new"}\n')
    assert not (d / "manifest.json").exists()
    assert (d / "keep.txt").read_text() == "the user's\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_leftovers_of_killed_runs_are_removed(tmp_path):
    d = tmp_path / "out"
    d.mkdir()
    dead = _dead_pid()
    stage = tmp_path / f".out.nbl-{dead}-0123456789ab.tmp"
    stage.mkdir()
    (stage / "trajectories_nbl.csv").write_text("x" * 1000)
    tmp_file = d / f".trajectories_nbl.csv.{dead}.a1b2c3d4e5f6.tmp"
    tmp_file.write_text("x" * 1000)
    alive = d / f".bands_nbl.csv.{os.getpid()}.a1b2c3d4e5f6.tmp"  # a live run's: kept
    alive.write_text("y")
    other = tmp_path / f".other.nbl-{dead}-0123456789ab.tmp"  # another DIR's: kept
    other.mkdir()
    with outputs.output_set(d) as o:
        (o.path / "x.txt").write_text("1")
    assert not stage.exists() and not tmp_file.exists()
    assert alive.exists() and other.exists() and (d / "x.txt").exists()


# ---------------------------------------------------------------------- a real full tmpfs
@pytest.fixture
def tiny_tmpfs(tmp_path):
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root and mount(8)")
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mnt)], capture_output=True
    )
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.decode().strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], check=False)


@pytest.mark.slow
def test_full_tmpfs_cache_and_out(tiny_tmpfs, tmp_path):
    (tiny_tmpfs / "c").mkdir()
    with open(tiny_tmpfs / "fill", "wb", buffering=0) as fh:  # fill it up
        try:
            while True:
                fh.write(b"\0" * 4096)
        except OSError:
            pass
    env = {**os.environ, "NBL_CACHE_DIR": str(tmp_path / "home")}
    for extra, rc_want, needle in (
        (["--cache-dir", str(tiny_tmpfs / "c")], 0, "nbl: warning: results were not cached"),
        (["--no-cache", "--out", str(tiny_tmpfs / "out")], 1, "nbl: error: cannot write --out"),
    ):
        r = subprocess.run(
            [str(NBL), *PHASE, *extra], capture_output=True, text=True, env=env, timeout=300
        )
        assert r.returncode == rc_want, r.stderr
        assert "stable 3, unstable 1" in r.stdout
        errs = [ln for ln in _lines(r.stderr) if ln.startswith("nbl:")]
        assert len(errs) == 1 and errs[0].startswith(needle), r.stderr
        assert "Traceback" not in r.stderr
    assert sorted(os.listdir(tiny_tmpfs)) == ["c", "fill"]


# ---------------------------------------------------------------------- bounded reads
def _genuine_entry(tmp_path):
    import numpy as np

    c = cache_mod.ChunkCache(tmp_path / "c", "t")
    key = "ab" * 32
    assert c.put(key, {"x": np.arange(10.0)})
    js = c.root / key[:2] / f"{key}.json"
    return c, key, js


def test_planted_npz_is_not_read_whole(tmp_path):
    # a large planted .npz behind a genuine JSON: its digest is streamed, the file never read
    # whole (before issue 36: read into memory first, 3.2 GB for a 3 GiB file)
    import tracemalloc

    c, key, js = _genuine_entry(tmp_path)
    npz = js.with_suffix(".npz")
    size = 64 * 2**20
    with open(npz, "r+b") as fh:
        fh.truncate(size)
    tracemalloc.start()
    try:
        hit, _ = c.get(key)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not hit
    assert peak < size / 16, peak


def test_oversized_json_entry_is_not_parsed(tmp_path, monkeypatch):
    c, key, js = _genuine_entry(tmp_path)
    js.write_bytes(b'{"pad": "' + b"x" * (20 * 2**20) + b'"}')  # 20 MiB of valid JSON
    parsed = []
    real = cache_mod.json.loads
    monkeypatch.setattr(cache_mod.json, "loads", lambda b: parsed.append(1) or real(b))
    assert c.get(key) == (False, None)
    assert parsed == []


def test_csv_read_memory_is_bounded(tmp_path):
    import tracemalloc

    import numpy as np

    from nbl_sim.beyond.contexts import read_csv_matrix

    f = tmp_path / "x.csv"
    np.savetxt(f, np.random.default_rng(0).standard_normal((40_000, 2)), delimiter=",", fmt="%.6g")
    tracemalloc.start()
    try:
        a = read_csv_matrix(f, "data")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert a.shape == (40_000, 2)
    # measured 0.98x (the float64 array itself is 0.9x of this text); before: ~7x
    assert peak <= 1.5 * f.stat().st_size, peak / f.stat().st_size


# ---------------------------------------------------------------------- one line, exit 2
STAB = ["stability", "--family", "two-transition", "--delta", "0.5"]


@pytest.mark.parametrize(
    "argv, needle",
    [
        # the one digit rule: ASCII digits 0-9 in every number (was: accepted by --delta/--param,
        # refused by --n; full-width letters read as exp/z)
        (["stability", "--family", "two-transition", "--delta", "\u0660.\u0665"], "ASCII digits"),
        (STAB[:-1] + ["\uff10.5"], "ASCII digits"),
        (STAB + ["--param", "mu2=\uff11"], "ASCII digits"),
        (
            ["simulate", "--family", "two-transition", "--delta", "0.5", "--gamma", "\uff11"],
            "ASCII digits",
        ),
        (
            ["stability", "--link", "\uff45\uff58\uff50(\uff5a)/(1+exp(z))", "--delta", "0.5"],
            "look-alike",
        ),
        (PHASE + ["--scheduler", "local:\u0662"], "positive N"),
        # misattributed or internal before issue 36
        (
            ["threshold", "--family", "two-transition", "--solve-for", "delta", "--grid", "-1"],
            "--grid must be",
        ),
        (PHASE + ["--cache-dir", "~nosuchuser-nbl/x"], "no such user"),
        (PHASE + ["--scheduler", "tcp://10.1.2.3:8786"], "refusing the plain tcp://"),
        (PHASE + ["--scheduler", "tls://127.0.0.1:8786"], "needs Dask's TLS configuration"),
    ],
)
def test_one_line_refusals(argv, needle, capsys, monkeypatch, tmp_path):
    for k in [k for k in os.environ if k.startswith("DASK_DISTRIBUTED__COMM__TLS")]:
        monkeypatch.delenv(k)
    monkeypatch.delenv("NBL_DASK_ALLOW_TCP", raising=False)
    monkeypatch.chdir(tmp_path)
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    lines = _lines(err)
    assert len(lines) == 1 and lines[0].startswith("nbl: error: ") and needle in lines[0], err
    assert os.listdir(tmp_path) == []


def test_nbl_cache_dir_of_an_unknown_user(monkeypatch, capsys):
    monkeypatch.setenv("NBL_CACHE_DIR", "~nosuchuser-nbl/c")
    monkeypatch.setattr(cache_mod, "_secrets", {})
    assert main(PHASE) == 2
    assert "cannot expand '~nosuchuser-nbl'" in capsys.readouterr().err


def test_stdout_closed_is_one_line(tmp_path):
    r = subprocess.run(
        [str(NBL), *STAB],
        stdout=subprocess.DEVNULL,
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        preexec_fn=lambda: os.close(1),
    )
    assert r.returncode == 2
    assert _lines(r.stderr) == [
        "nbl: error: standard output is closed; redirect it (e.g. > /dev/null)"
    ]


def test_tcp_scheduler_off_loopback_needs_the_opt_in(monkeypatch):
    from nbl_sim.runs.execution import parse_scheduler
    from nbl_theory.errors import NBLInputError

    monkeypatch.delenv("NBL_DASK_ALLOW_TCP", raising=False)
    for ok in (
        "tcp://127.0.0.1:8786",
        "tcp://localhost:1",
        "tcp://[::1]:8786",
        "tcp://127.9.8.7:99",
    ):
        assert parse_scheduler(ok) == ("remote", ok)
    with pytest.raises(NBLInputError, match="loopback"):
        parse_scheduler("tcp://192.168.1.5:8786")
    assert parse_scheduler("tcp://192.168.1.5:8786", allow_tcp=True)[0] == "remote"
    monkeypatch.setenv("NBL_DASK_ALLOW_TCP", "1")
    assert parse_scheduler("tcp://scheduler.example:8786")[0] == "remote"


def test_phase_executor_says_cache_when_nothing_ran(tmp_path, capsys):
    argv = PHASE + ["--cache-dir", str(tmp_path / "c"), "--json", "--quiet"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)["results"][0]["executor"]
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)["results"][0]["executor"]
    assert first != "cache" and again == "cache"


def test_no_cache_partial_report_says_so():
    from proofs_check.registry import PENDING_DETAIL, SKIPPED
    from proofs_check.report import render_markdown
    from tests.proofs_check.test_report import _result

    results = [_result(0, SKIPPED, None, None, PENDING_DETAIL)]
    with_cache = " ".join(render_markdown(results, version="x", date="d").split())
    without = " ".join(render_markdown(results, version="x", date="d", cached=False).split())
    assert "come from the cache" in with_cache
    assert "come from the cache" not in without and "(--no-cache)" in without


# ---------------------------------------------------------------------- processes
@pytest.mark.slow
@pytest.mark.parametrize("sig", ["SIGKILL", "SIGHUP"])
def test_pool_workers_die_with_their_parent(tmp_path, sig):
    """The parent is killed as soon as its two pool workers exist (they may still be
    starting): 0 of them may be alive 5 s later, and the caller's stderr reaches EOF. Before
    issue 36 they were still alive at 150 s."""
    import signal
    import time

    import psutil

    argv = [
        str(NBL),
        "simulate",
        "--family",
        "logistic",
        "--delta",
        "1",
        "--n",
        "2000000",
        "--reps",
        "40",
        "--workers",
        "2",
        "--no-cache",
        "--quiet",
    ]
    env = {**os.environ, "NBL_CACHE_DIR": str(tmp_path / "cache")}
    p = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, start_new_session=True
    )
    parent = psutil.Process(p.pid)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        kids = [c for c in parent.children(recursive=True) if "spawn_main" in " ".join(c.cmdline())]
        if len(kids) >= 2:
            break
        time.sleep(0.1)
    kids = parent.children(recursive=True)
    assert kids
    os.kill(p.pid, getattr(signal, sig))
    p.wait()
    time.sleep(5)

    def alive(c):
        try:
            return c.is_running() and c.status() != psutil.STATUS_ZOMBIE
        except psutil.Error:
            return False

    left = [c for c in kids if alive(c)]
    for c in left:
        c.kill()
    assert not left
    with p.stderr:
        assert p.stderr.read() is not None  # EOF: nobody holds the pipe


# ---------------------------------------------------------------------- numba's cache
_KERNELS = """
import numpy as np
import nbl_sim.engine.pcg64 as m
from nbl_sim.engine import jit_cache
jit_cache.enable()                                # what the entry points do
U = np.empty((2, 2))
m.fill_doubles(m.state_words(1, 3), U)            # compiled, used and saved
print(U[0, 0] < 1)
"""


@pytest.mark.slow
def test_numba_never_reads_pickles_beside_the_package(tmp_path):
    """numba's index files are pickles. Planted in ``__pycache__`` beside the package (where
    numba's own locator looks first), they ran code in nbl before issue 36; now the package's
    kernels are cached only in the toolkit's private directory: the files a run saves land
    there, and pickles planted beside the package under the same names are never read."""
    import pickle

    import nbl_sim

    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    r = subprocess.run(
        [sys.executable, "-c", _KERNELS],
        capture_output=True,
        text=True,
        env={**env, "NBL_CACHE_DIR": str(tmp_path / "home")},
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    saved = list((tmp_path / "home" / "numba").rglob("*.nbi"))
    assert any(p.name.startswith("pcg64.fill_doubles-") for p in saved)
    package = Path(nbl_sim.__file__).parent
    planted = [
        package / "engine" / "__pycache__" / p.name
        for p in saved
        if not (package / "engine" / "__pycache__" / p.name).exists()
    ]
    planted[0].parent.mkdir(exist_ok=True)
    try:
        for f in planted:
            f.write_bytes(pickle.dumps(Evil()))
        r = subprocess.run(
            [sys.executable, "-c", _KERNELS],
            capture_output=True,
            text=True,
            env={**env, "NBL_CACHE_DIR": str(tmp_path / "home2")},
            timeout=600,
        )
        assert r.returncode == 0, r.stderr
    finally:
        for f in planted:
            f.unlink(missing_ok=True)
    assert not marker.exists()
    assert list((tmp_path / "home2" / "numba").rglob("*.nbi"))
    mode = os.stat(tmp_path / "home2" / "numba").st_mode & 0o777
    assert mode == 0o700


_SAVE_AFTER_CHANGE = """
import os, sys
from pathlib import Path
import numpy as np
after, home = Path(sys.argv[1]), Path(os.environ["NBL_CACHE_DIR"])
if sys.argv[2] == "not-private":                  # the planned place others can write to
    (home / "numba").mkdir(parents=True)
    os.chmod(home / "numba", 0o777)
import nbl_sim.engine.pcg64 as m                  # kernels defined: no file touched yet
from nbl_sim.engine import jit_cache
if sys.argv[2] == "env":                          # the environment changes before the first use
    os.environ["NBL_CACHE_DIR"] = str(after)
jit_cache.enable()                                # the place is decided (what entry points do)
U = np.empty((2, 2))
m.fill_doubles(m.state_words(1, 3), U)            # compiled, used, then saved (or not)
print(sorted(p.suffix for p in home.rglob("*.nbi")), U[0, 0] < 1)
"""


@pytest.mark.parametrize("change", ["env", "not-private"])
def test_a_kernel_saved_after_the_cache_place_changed_is_no_crash(tmp_path, change):
    """CI of 2026-11-28: ``$NBL_CACHE_DIR`` changed between the import of the kernels and their
    first save (a test's monkeypatch), and numba raised ``OSError: ... is not private`` from
    inside the call. The place is decided (and checked) once, when the kernels are first used
    (jit_cache.enable): the environment of that moment counts, and a place others can write to
    is never used (a private temporary one instead)."""
    env = {**os.environ, "NBL_CACHE_DIR": str(tmp_path / "home")}
    r = subprocess.run(
        [sys.executable, "-c", _SAVE_AFTER_CHANGE, str(tmp_path / "other"), change],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    saved, used = r.stdout.split("]")
    assert used.strip() == "True"
    if change == "env":  # saved where NBL_CACHE_DIR said at first use
        assert ".nbi" not in saved and list((tmp_path / "other" / "numba").rglob("*.nbi"))
    else:  # not saved in a directory others can write
        assert ".nbi" not in saved


def test_numba_cache_dir_refused_when_others_can_write(tmp_path, monkeypatch):
    from nbl_sim.engine import jit_cache

    home = tmp_path / "home"
    (home / "numba").mkdir(parents=True)
    os.chmod(home / "numba", 0o777)  # group/other-writable, no sticky bit
    monkeypatch.setenv("NBL_CACHE_DIR", str(home))
    jit_cache.numba_cache_dir.cache_clear()
    try:
        d = jit_cache.numba_cache_dir()
        assert not d.is_relative_to(home)  # a private temporary one instead
        assert os.stat(d).st_mode & 0o077 == 0
    finally:
        jit_cache.numba_cache_dir.cache_clear()


@pytest.mark.slow
def test_two_ctrl_c_under_a_local_dask_cluster(tmp_path):
    """Two Ctrl-C 0.3 s apart with --scheduler local:2: exit 130 within 2 s of the second,
    no traceback, no process left (before issue 36: 10.9 s and ~200 lines of tracebacks)."""
    pytest.importorskip("distributed")
    import signal
    import time

    import psutil

    from tests.proofs_check.test_cli_signals import default_sigint

    argv = [
        str(NBL),
        "simulate",
        "--family",
        "logistic",
        "--delta",
        "1",
        "--n",
        "2000000",
        "--reps",
        "40",
        "--no-cache",
        "--quiet",
        "--scheduler",
        "local:2",
    ]
    env = {**os.environ, "NBL_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("NBL_DASK_SCHEDULER", None)
    p = subprocess.Popen(
        argv,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=default_sigint,
    )
    parent = psutil.Process(p.pid)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(parent.children(recursive=True)) < 3:
        time.sleep(0.2)
    time.sleep(3)
    kids = parent.children(recursive=True)
    os.kill(p.pid, signal.SIGINT)
    time.sleep(0.3)
    t0 = time.monotonic()
    os.kill(p.pid, signal.SIGINT)
    err = p.communicate(timeout=60)[1]
    took = time.monotonic() - t0
    assert p.returncode == 130, err
    assert took < 2.0, took
    assert "Traceback" not in err, err
    assert "nbl: interrupted" in err
    time.sleep(3)
    left = [c for c in kids if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    for c in left:
        c.kill()
    assert not left
