"""Shared by the benchmark scripts: the CPU model name and the machine record of their JSON,
and the argparse type of their counts."""

from __future__ import annotations

import argparse
import json
import platform
from pathlib import Path

#: the largest count a benchmark option accepts (rounds, calls, cells per kind)
MAX_COUNT = 10_000


def cpu_model() -> str:
    """The CPU model from /proc/cpuinfo (Linux), else ``platform.processor()``."""
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return cpu


def machine_record() -> dict:
    """``cpu``, ``machine`` and ``python`` of a benchmark's JSON record."""
    return {
        "cpu": cpu_model(),
        "machine": platform.platform(),
        "python": platform.python_version(),
    }


def write_record(path, record: dict) -> None:
    """Write a benchmark's JSON ``record`` to ``path``, with :func:`machine_record` after it."""
    Path(path).write_text(json.dumps({**record, **machine_record()}, indent=1) + "\n")


def count(text: str) -> int:
    """argparse type: an integer in [1, :data:`MAX_COUNT`] (a one-line usage error otherwise,
    before any work)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 1 <= n <= MAX_COUNT:
        raise argparse.ArgumentTypeError(f"must lie in [1, {MAX_COUNT}], got {n}")
    return n
