"""Shared by the benchmark scripts: the CPU model name for their machine records."""

from __future__ import annotations

import platform


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
