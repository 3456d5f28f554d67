"""Large scratch buffers kept for the next call in the same thread, so that memory already
touched is written again instead of new pages being faulted in.

A ``simulate`` call streams its replications through a few megabytes of realization buffers,
and a draw of eight replications through 1.3 MB of indices. Allocated afresh on every call,
such buffers come from ``mmap`` (glibc, above its adaptive threshold) and are returned to the
system when freed, so the next call faults every page in again: ~1,800 page faults per
``simulate`` of 100 replications × 10⁴ rounds in d = 8, ~2–3 ms of its ~55 ms on the machine
of benchmarks/, depending on what else the process allocated before (the process-to-process
spread of that benchmark). Kept here, the second call touches no new page.

:func:`reused` lends a buffer out of the calling thread's pool and takes it back afterwards; a
nested or concurrent user of the same key meanwhile gets a buffer of its own (the pool holds
only buffers nobody is using), and every user fills what it reads. The pool of a thread keeps at
most :data:`KEEP_BYTES` bytes, the least recently returned buffers going first; a buffer larger
than that is never kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["KEEP_BYTES", "reused"]

#: bytes of idle buffers a thread keeps (a few blocks of realization)
KEEP_BYTES = 64 * 2**20

_LOCAL = threading.local()


def _pool() -> OrderedDict:
    pool = getattr(_LOCAL, "pool", None)
    if pool is None:
        pool = _LOCAL.pool = OrderedDict()
    return pool


@contextmanager
def reused(key: tuple, make: Callable[[], object], nbytes: int) -> Iterator[object]:
    """A buffer for ``key``: the idle one this thread kept, else ``make()``; kept again
    afterwards if ``nbytes`` ≤ :data:`KEEP_BYTES` (its contents are whatever the last user left:
    write before reading)."""
    pool = _pool()
    held = pool.pop(key, None)
    buf = make() if held is None else held[0]
    try:
        yield buf
    finally:
        if nbytes <= KEEP_BYTES:
            pool[key] = (buf, nbytes)
            total = sum(size for _, size in pool.values())
            while total > KEEP_BYTES:
                _, (_, size) = pool.popitem(last=False)
                total -= size
