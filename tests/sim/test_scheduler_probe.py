"""nbl_sim.execution.probe_scheduler: an address where no Dask scheduler answers is refused in
one line within the probe's timeout (an attacker's audit: a web server's port hung `nbl` for
minutes, and an SSH banner became a 2.8 EiB allocation). A real scheduler's greeting passes
(tests/sim/test_dask.py runs real clusters)."""

from __future__ import annotations

import socket
import struct
import threading
import time

import pytest

from nbl_sim.execution import probe_scheduler
from nbl_theory.errors import NBLInputError


def _serve(greeting: bytes | None):
    """A one-connection TCP server on localhost that sends ``greeting`` (None: nothing) and
    keeps the connection open for a second; returns its tcp:// address."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)

    def run():
        conn, _ = srv.accept()
        if greeting is not None:
            conn.sendall(greeting)
        time.sleep(1.0)
        conn.close()
        srv.close()
    threading.Thread(target=run, daemon=True).start()
    return f"tcp://127.0.0.1:{srv.getsockname()[1]}"


def _dask_like() -> bytes:
    body = b"\x83\xabcompression\xc0"        # one msgpack frame, as a scheduler's handshake
    return struct.pack("<QQQ", 8 + 8 + len(body), 1, len(body)) + body


def test_a_dask_greeting_passes():
    probe_scheduler(_serve(_dask_like()), timeout=2.0)


def test_a_banner_is_not_dask():
    with pytest.raises(NBLInputError, match="does not speak Dask's protocol"):
        probe_scheduler(_serve(b"SSH-2.0-OpenSSH_8.9p1 Ubuntu-3\r\n"), timeout=2.0)


def test_silence_is_refused_within_the_timeout():
    tic = time.perf_counter()
    with pytest.raises(NBLInputError, match="sent no handshake within 0.3 s"):
        probe_scheduler(_serve(None), timeout=0.3)
    assert time.perf_counter() - tic < 1.0


def test_a_closed_port_cannot_be_reached():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with pytest.raises(NBLInputError, match="cannot reach the Dask scheduler"):
        probe_scheduler(f"tcp://127.0.0.1:{port}", timeout=1.0)
