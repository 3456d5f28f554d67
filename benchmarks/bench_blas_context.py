"""Benchmark: entering and leaving ``nbl_sim.runs.execution.one_blas_thread`` (the context every
claim and cell runs in) with the kept ``ThreadpoolController`` against threadpoolctl's
``threadpool_limits(limits=1, user_api="blas")``, which looks the libraries up again each time
(it reads ``/proc/self/maps``) — what the context did before, in one process after importing
what a claims worker imports.

    python benchmarks/bench_blas_context.py [--calls 500] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._machine import count, cpu_model  # noqa: E402


def _per_call(make, calls: int) -> float:
    c0 = time.process_time()
    for _ in range(calls):
        with make():
            pass
    return (time.process_time() - c0) / calls


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=count, default=500)
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)
    from threadpoolctl import threadpool_limits

    import proofs_check.claims  # noqa: F401  (numpy, scipy, numba, sympy: a worker's libraries)
    from nbl_sim.runs.execution import one_blas_thread

    def before():
        return threadpool_limits(limits=1, user_api="blas")

    one_blas_thread().__exit__(None, None, None)  # build the controller once
    old = new = 0.0
    for _ in range(3):  # alternating rounds
        old += _per_call(before, args.calls)
        new += _per_call(one_blas_thread, args.calls)
    old, new = old / 3, new / 3
    print(f"threadpool_limits per call:  {1e3 * old:.3f} ms CPU")
    print(f"one_blas_thread per call:    {1e3 * new:.3f} ms CPU   ratio {old / new:.0f}x")
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {"cpu": cpu_model(), "old_s": old, "new_s": new, "ratio": old / new}, indent=1
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
