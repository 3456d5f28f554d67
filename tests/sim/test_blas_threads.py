"""``nbl_sim.runs.execution.one_blas_thread``: every BLAS loaded in the process (numpy's and
scipy's OpenBLAS) runs on one thread inside it and at its former limit after it, while the
libraries are looked up once per set of imported modules (not on every claim)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import types

from nbl_sim.runs import execution


def test_the_libraries_are_looked_up_again_only_after_an_import(monkeypatch):
    with execution.one_blas_thread():
        pass
    first = execution._blas_controller()
    assert execution._blas_controller() is first  # nothing imported: reused
    monkeypatch.setitem(sys.modules, "nbl_test_fake_module", types.ModuleType("fake"))
    assert execution._blas_controller() is not first  # an import: looked up again


def test_every_blas_runs_on_one_thread_inside_and_as_before_after():
    code = textwrap.dedent("""
        from threadpoolctl import threadpool_info
        from nbl_sim.runs.execution import one_blas_thread
        blas = lambda: [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
        for _ in range(2):                    # the second time with the kept controller
            with one_blas_thread():
                inside = blas()
            print(len(inside), max(inside), min(blas()))
    """)
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"OPENBLAS_NUM_THREADS": "2", "PATH": "/usr/bin"},
    )
    for line in out.stdout.splitlines():
        n, most, after = map(int, line.split())
        assert n >= 2 and most == 1 and after == 2
