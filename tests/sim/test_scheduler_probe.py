"""nbl_sim.runs.execution.probe_scheduler: an address where no Dask scheduler answers is refused in
one line within the probe's timeout (an attacker's audit: a web server's port hung `nbl` for
minutes, and an SSH banner became a 2.8 EiB allocation). A real scheduler's greeting passes
(tests/sim/test_dask.py runs real clusters).

No outcome here depends on the machine's load: the servers hold their connection open until the
test ends (a loaded machine cannot make a greeting look like silence, or silence like a closed
connection), the cases that must pass allow a minute, and "within the timeout" is checked as
what it means — the probe's socket carries the timeout — not with a stopwatch."""

from __future__ import annotations

import socket
import struct
import threading

import pytest

from nbl_sim.runs.execution import probe_scheduler
from nbl_theory.errors import NBLInputError

#: seconds the probes that must pass may wait (far more than a loaded machine needs)
PATIENT = 60.0


@pytest.fixture
def serve():
    """``serve(greeting)``: a one-connection TCP server on localhost that sends ``greeting``
    (None: nothing) and keeps the connection open until the test ends; returns its tcp://
    address."""
    done = threading.Event()
    threads = []

    def start(greeting: bytes | None) -> str:
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(1)

        def run():
            conn, _ = srv.accept()
            if greeting is not None:
                conn.sendall(greeting)
            done.wait()
            conn.close()
            srv.close()

        th = threading.Thread(target=run, daemon=True)
        th.start()
        threads.append(th)
        return f"tcp://127.0.0.1:{srv.getsockname()[1]}"

    yield start
    done.set()
    for th in threads:
        th.join(PATIENT)


def _dask_like() -> bytes:
    body = b"\x83\xabcompression\xc0"  # one msgpack frame, as a scheduler's handshake
    return struct.pack("<QQQ", 8 + 8 + len(body), 1, len(body)) + body


def test_a_dask_greeting_passes(serve):
    probe_scheduler(serve(_dask_like()), timeout=PATIENT)


def test_a_banner_is_not_dask(serve):
    with pytest.raises(NBLInputError, match="does not speak Dask's protocol"):
        probe_scheduler(serve(b"SSH-2.0-OpenSSH_8.9p1 Ubuntu-3\r\n"), timeout=PATIENT)


def test_silence_is_refused_within_the_timeout(serve, monkeypatch):
    """A server that never speaks is refused, and the wait is bounded by the probe's timeout:
    the probe's socket is opened with it, so connecting and every read give up after it."""
    timeouts = []
    connect = socket.create_connection

    def recording(address, timeout=None, **kw):
        timeouts.append(timeout)
        return connect(address, timeout=timeout, **kw)

    monkeypatch.setattr(socket, "create_connection", recording)
    with pytest.raises(NBLInputError, match="sent no handshake within 0.3 s"):
        probe_scheduler(serve(None), timeout=0.3)
    assert timeouts == [0.3]


def test_a_closed_port_cannot_be_reached():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with pytest.raises(NBLInputError, match="cannot reach the Dask scheduler"):
        probe_scheduler(f"tcp://127.0.0.1:{port}", timeout=1.0)
