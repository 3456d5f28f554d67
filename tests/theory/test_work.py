"""nbl_theory.work under another trace function: coverage's C tracer.

The libmutation harness maps which claims and tests execute each library line by running them
under coverage; a work limit that coverage silently disabled made those runs take other paths
than a plain run (a sympy call finished instead of being cut short, its numeric fallback never
ran), so the map credited the wrong lines. Run in a subprocess: a Coverage started inside the
test process would replace the tracer of a run that is itself under coverage.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("coverage")

_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    import coverage

    here = Path(sys.argv[1])
    (here / "busy.py").write_text(
        "def leaf(k):\\n"
        "    return k + 1\\n"
        "\\n"
        "def busy(n):\\n"
        "    total = 0\\n"
        "    for k in range(n):\\n"
        "        total += leaf(k)\\n"
        "    return total\\n"
    )
    sys.path.insert(0, str(here))
    cov = coverage.Coverage(data_file=None, source=[str(here)], config_file=False)
    cov.start()
    tracer = type(sys.gettrace()).__name__
    import busy
    from nbl_theory.work import call_limited, count_calls

    value, calls = count_calls(lambda: busy.busy(50))
    limited = call_limited(lambda: busy.busy(10_000), 100)
    # nested blocks: each counts what runs inside it
    from nbl_theory.work import counting

    with counting() as outer:
        with counting() as inner:
            busy.busy(20)
        nested_limited = call_limited(lambda: busy.busy(10_000), 100)
    nested = [inner.calls, outer.calls, nested_limited]
    after = sys.gettrace() is not None and type(sys.gettrace()).__name__ == tracer
    cov.stop()
    lines = sorted(cov.get_data().lines(str(here / "busy.py")))
    print(json.dumps({"tracer": tracer, "value": value, "calls": calls, "nested": nested,
                      "limited": limited, "restored": after, "lines": lines}))
    """
)


def test_work_is_counted_and_limited_under_coverage_and_coverage_keeps_tracing(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["value"] == sum(k + 1 for k in range(50))
    # busy() and 50 leaf() calls (and the lambda): all counted, not only the first
    assert r["calls"] >= 52
    # the limit is reached: before the fix coverage's C tracer put itself back at the block's
    # first call and the count stopped there, so the 10,000 calls ran to the end
    assert r["limited"] == [None, True]
    # an outer block's counter, called from an inner one's, leaves the inner one counting
    inner, outer, nested_limited = r["nested"]
    assert inner >= 21 and outer >= inner + 100 and nested_limited == [None, True]
    # coverage recorded the lines run inside the blocks, and is the trace function after them
    assert {2, 5, 6, 7, 8} <= set(r["lines"])
    assert r["restored"]
