"""A real Dask cluster over TLS (issue 36, item 3): ``nbl --scheduler tls://…`` with
certificates from Dask's configuration gives the same numbers as a run in the process, and a
client whose certificate another CA signed, or that does not trust the scheduler's CA, is
refused in one line (exit 2), before any work.

Slow: it makes a CA and three certificates with ``openssl`` (skipped with the reason when the
command is missing) and starts ``dask scheduler`` and one ``dask worker`` on loopback, for
about 15 s.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent
PHASE = [
    "phase",
    "--family",
    "two-transition",
    "--param",
    "mu2=-1,1.244122",
    "--delta",
    "0.2,1",
    "--no-cache",
    "--json",
]


def _openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def _authority(d: Path, name: str) -> None:
    _openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        f"{name}-key.pem",
        "-out",
        f"{name}.pem",
        "-days",
        "1",
        "-subj",
        f"/CN={name}",
        cwd=d,
    )


def _certificate(d: Path, who: str, ca: str) -> None:
    (d / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    _openssl(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        f"{who}-key.pem",
        "-out",
        f"{who}.csr",
        "-subj",
        "/CN=127.0.0.1",
        cwd=d,
    )
    _openssl(
        "x509",
        "-req",
        "-in",
        f"{who}.csr",
        "-CA",
        f"{ca}.pem",
        "-CAkey",
        f"{ca}-key.pem",
        "-CAcreateserial",
        "-out",
        f"{who}.pem",
        "-days",
        "1",
        "-extfile",
        "ext.cnf",
        cwd=d,
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (it makes the test's certificates)")
    d = tmp_path_factory.mktemp("tls")
    _authority(d, "ca")
    _authority(d, "rogue-ca")
    for who in ("scheduler", "worker", "client"):
        _certificate(d, who, "ca")
    _certificate(d, "rogue", "rogue-ca")
    port = _free_port()
    address = f"tls://127.0.0.1:{port}"
    tls = ["--tls-ca-file", "ca.pem"]
    logs = [(d / "scheduler.log").open("w"), (d / "worker.log").open("w")]
    procs = [
        subprocess.Popen(
            [
                str(BIN / "dask"),
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--protocol",
                "tls",
                *tls,
                "--tls-cert",
                "scheduler.pem",
                "--tls-key",
                "scheduler-key.pem",
                "--no-dashboard",
            ],
            cwd=d,
            stdout=subprocess.DEVNULL,
            stderr=logs[0],
            start_new_session=True,
        )
    ]
    try:
        deadline = time.monotonic() + 60
        while "Scheduler at:" not in (d / "scheduler.log").read_text():
            assert time.monotonic() < deadline, (d / "scheduler.log").read_text()[-2000:]
            time.sleep(0.2)
        procs.append(
            subprocess.Popen(
                [
                    str(BIN / "dask"),
                    "worker",
                    address,
                    "--nworkers",
                    "1",
                    "--nthreads",
                    "1",
                    *tls,
                    "--tls-cert",
                    "worker.pem",
                    "--tls-key",
                    "worker-key.pem",
                    "--no-dashboard",
                ],
                cwd=d,
                stdout=subprocess.DEVNULL,
                stderr=logs[1],
                start_new_session=True,
            )
        )
        while "Registered to:" not in (d / "worker.log").read_text():
            assert time.monotonic() < deadline, (d / "worker.log").read_text()[-2000:]
            time.sleep(0.2)
        yield d, address
    finally:
        for p in procs:
            os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        for f in logs:
            f.close()


def _nbl(args, d: Path, ca: str, cert: str, tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DASK_")}
    env.update(
        DASK_DISTRIBUTED__COMM__TLS__CA_FILE=str(d / f"{ca}.pem"),
        DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT=str(d / f"{cert}.pem"),
        DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY=str(d / f"{cert}-key.pem"),
        NBL_CACHE_DIR=str(tmp_path / "cache"),
    )
    env.pop("NBL_DASK_SCHEDULER", None)
    return subprocess.run(
        [str(BIN / "nbl"), *args], capture_output=True, text=True, env=env, timeout=300
    )


def test_a_tls_cluster_gives_the_numbers_of_a_run_here(tls_cluster, tmp_path):
    d, address = tls_cluster
    there = _nbl(PHASE + ["--scheduler", address], d, "ca", "client", tmp_path)
    assert there.returncode == 0, there.stderr
    here = _nbl(PHASE, d, "ca", "client", tmp_path)
    assert here.returncode == 0, here.stderr
    a, b = json.loads(there.stdout)["results"][0], json.loads(here.stdout)["results"][0]
    assert "Dask" in str(a["executor"]) or "tls://" in str(a["executor"]), a["executor"]
    for key in ("values", "deltas", "lambda_star", "sign"):
        assert a[key] == b[key], key  # bit for bit, whatever the executor


@pytest.mark.parametrize(
    "ca, cert, why",
    [
        ("ca", "rogue", "a client certificate that another CA signed"),
        ("rogue-ca", "rogue", "a client that does not trust the scheduler's CA"),
    ],
)
def test_a_client_the_cluster_does_not_trust_is_one_line(tls_cluster, tmp_path, ca, cert, why):
    d, address = tls_cluster
    r = _nbl(PHASE + ["--scheduler", address], d, ca, cert, tmp_path)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.returncode == 2, (why, r.stderr)
    assert r.stdout == "" and len(lines) == 1, (why, r.stderr)
    assert lines[0].startswith(f"nbl: error: cannot reach the Dask scheduler at '{address}'")
