"""``nbl check`` on the parallel claim runner (issue 16) and ``nbl check --mutate`` (issue 15):
results cached per claim and served from the cache, a FAIL exits 1, the JSON envelope valid
against the shipped schema, Ctrl-C leaving a valid partial report with exit status 130, and
the mutation report per module with its defects."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest

import proofs_check.runner as runner
from proofs_check.cli import main
from proofs_check.cli.jsonout import schema
from proofs_check.registry import REGISTRY
from proofs_check.report_json import load_records

from .test_cli_signals import default_sigint

NBL = Path(sys.executable).with_name("nbl")
# quick claims that take milliseconds (assumptions, algorithm steps, a Bregman table row)
FAST = ["assumption-gaussian-context", "alg-nbl-steps", "bregman-table-quadratic"]


def _check(capsys, *argv):
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _claim_args(ids=FAST) -> list[str]:
    return [a for i in ids for a in ("--claim", i)]


def _statuses(report_dir: Path) -> dict:
    return {
        r["id"]: (r["status"], r["computed"])
        for r in load_records(report_dir / "verification.json")
    }


def test_results_are_cached_and_served_from_the_cache(tmp_path, capsys, monkeypatch):
    cache, out1, out2 = tmp_path / "cache", tmp_path / "r1", tmp_path / "r2"
    code, out, err = _check(
        capsys, *_claim_args(), "--workers", "1", "--cache-dir", str(cache), "--out", str(out1)
    )
    assert code == 0, err
    first = _statuses(out1)
    assert list(first) == FAST and "FAIL" not in {s for s, _ in first.values()}
    for cid in FAST:  # each claim's status as it finishes
        assert any(ln.split()[:2] == [first[cid][0], cid] for ln in err.splitlines()), err
    assert f"{len(FAST)} claims in" in out and "report:" in out

    # a task that runs now FAILs: the second run must take every result from the cache
    def no_work(spec):
        raise RuntimeError("a claim was recomputed")

    monkeypatch.setattr(runner, "run_task", no_work)
    code, _, err = _check(
        capsys, *_claim_args(), "--workers", "1", "--cache-dir", str(cache), "--out", str(out2)
    )
    assert code == 0, err
    assert _statuses(out2) == first
    # without the cache the claims run, FAIL, and the exit status says so
    code, out, _ = _check(
        capsys,
        *_claim_args(FAST[:1]),
        "--workers",
        "1",
        "--no-cache",
        "--out",
        str(tmp_path / "r3"),
    )
    assert code == 1
    assert _statuses(tmp_path / "r3")[FAST[0]][0] == "FAIL"


def test_json_envelope(tmp_path, capsys):
    code, out, err = _check(
        capsys,
        *_claim_args(FAST[:2]),
        "--workers",
        "1",
        "--no-cache",
        "--out",
        str(tmp_path),
        "--json",
        "--quiet",
    )
    assert code == 0, err
    data = json.loads(out)
    jsonschema.validate(data, schema("check"))
    assert [r["id"] for r in data["results"]] == FAST[:2]
    assert data["files"] == [str(tmp_path / "verification.md"), str(tmp_path / "verification.json")]


def test_ctrl_c_leaves_a_valid_partial_report(tmp_path):
    """SIGINT to a 2-worker quick check once its first partial report exists: exit 130 with
    one line, and a complete report in which the unfinished claims are SKIPPED as pending."""
    out = tmp_path / "report"
    env = {**os.environ, "NBL_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("NBL_DASK_SCHEDULER", None)
    proc = subprocess.Popen(
        [
            str(NBL),
            "check",
            "--quick",
            "--workers",
            "2",
            "--no-cache",
            "--out",
            str(out),
            "--quiet",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=tmp_path,
        text=True,
        start_new_session=True,
        preexec_fn=default_sigint,
    )
    try:
        deadline = time.monotonic() + 60
        while not (out / "verification.json").exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no partial report within 60 s"
            time.sleep(0.1)
        time.sleep(1.0)
        assert proc.poll() is None, "the check ended before the signal"
        os.kill(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        if not proc.stdout.closed:
            proc.communicate()  # reap it and close the pipes
    assert proc.returncode == 130, stderr
    assert stderr.splitlines() == ["nbl: interrupted"] and stdout == ""
    records = load_records(out / "verification.json")
    assert [r["id"] for r in records] == [c.id for c in REGISTRY.all_claims()]
    pending = [r for r in records if r["reason"] == runner.PENDING_DETAIL]
    assert pending and all(r["status"] == "SKIPPED" for r in pending)
    assert (out / "verification.md").read_text().startswith("#")


# ---------------------------------------------------------------------- --mutate
def test_mutate_reports_kill_rates(capsys):
    ids = ["assumption-gaussian-context", "notation-audit"]
    code, out, err = _check(capsys, "--mutate", *_claim_args(ids), "--json", "--quiet")
    data = json.loads(out)
    jsonschema.validate(data, schema("check"))
    (rep,) = data["results"]
    assert [c["id"] for c in rep["per_claim"]] == ids
    for c in rep["per_claim"]:
        assert c["n_mutants"] == len(REGISTRY.get(c["id"]).mutants)
        assert len(c["killed"]) + len(c["survived"]) == c["n_mutants"]
    assert rep["mutants"] == sum(c["n_mutants"] for c in rep["per_claim"])
    assert code == (1 if rep["defects"] else 0)
    code2, text, _ = _check(capsys, "--mutate", *_claim_args(ids), "--quiet")
    assert code2 == code
    assert text.startswith(f"mutation (full): {rep['killed']}/{rep['mutants']} mutants killed")
    for module in rep["modules"]:
        assert any(ln.startswith(module) for ln in text.splitlines())


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--mutate", "--workers", "2"], "--workers does not apply"),
        (["--mutate", "--claim", "kapa-identity"], "did you mean 'kappa-identity'"),
        (["--workers", "0"], "--workers must be a positive integer"),
    ],
)
def test_bad_options_are_one_line(capsys, tmp_path, argv, fragment):
    code, out, err = _check(capsys, *argv, "--out", str(tmp_path / "r"))
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and fragment in err
    assert not (tmp_path / "r").exists()
