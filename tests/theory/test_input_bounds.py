"""Bounded work before any work: pathological short inputs are refused (or accepted) within a
bounded amount of work, with a one-line NBLInputError, never a traceback, a hang or an exhausted
memory.

Each input runs in a worker process with an address-space limit of 1.5 GB above what the worker
holds after importing the toolkit (``resource.setrlimit(RLIMIT_AS)``), and the test waits at most
60 s for its answer: an input that regresses into unbounded work fails its own test (the worker
is killed and replaced) instead of hanging the suite. The work is measured in Python function
calls around the constructor call alone (:func:`nbl_theory.work.counting`, after a warm-up link),
not in seconds: the same input gives the same count on any machine under any load. CPU and
wall-clock seconds are reported alongside, never asserted.
"""

import json
import os
import select
import subprocess
import sys
import textwrap

import pytest

MEMORY_LIMIT = 1536 * 2**20
WAIT = 60.0
#: the work bound, in Python function calls: 3x the most any case below needs when they run in
#: this order in one worker (2.07e6, the product of 15 tanh factors; 1.35e6 the next; measured
#: 2026-11-28 with sympy 1.14 by counting each case as the worker does)
CALLS = 6_000_000

_WORKER = textwrap.dedent("""
    import json, resource, sys, time
    from nbl_theory import Link, NBLInputError
    from nbl_theory.expressions import parse_expression
    from nbl_theory.work import counting

    def vm_bytes():
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
        return 0

    Link.from_expression("sigmoid(z)")  # warm-up: lazy imports and compiled caches
    Link.from_potential("m*log(m)+(1-m)*log(1-m)", domain="0,1")
    limit = vm_bytes() + int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        case = json.loads(line)
        t0, c0 = time.perf_counter(), time.process_time()
        work = None
        try:
            with counting() as work:
                if case["kind"] == "link":
                    Link.from_expression(case["text"])
                elif case["kind"] == "potential":
                    Link.from_potential(case["text"], domain=case["domain"])
                else:
                    parse_expression(case["text"], "z")
            out = {"outcome": "accepted"}
        except NBLInputError as exc:
            out = {"outcome": "refused", "type": type(exc).__name__, "message": str(exc)}
        except BaseException as exc:  # the test fails on these
            out = {"outcome": "crashed", "type": type(exc).__name__, "message": str(exc)[:300]}
        out["seconds"] = time.perf_counter() - t0
        out["cpu"] = time.process_time() - c0
        out["calls"] = None if work is None else work.calls
        print(json.dumps(out), flush=True)
""")


class _Worker:
    """A worker process answering one case per line; replaced after a timeout or a crash."""

    def __init__(self):
        self.proc = None

    def _start(self):
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(MEMORY_LIMIT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
        )
        assert json.loads(self._read(120.0))["ready"]

    def _read(self, timeout):
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            return None
        return self.proc.stdout.readline() or None

    def run(self, case: dict) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        self.proc.stdin.write(json.dumps(case) + "\n")
        self.proc.stdin.flush()
        line = self._read(WAIT)
        if line is None:  # hung or died (e.g. killed by the memory limit): replace it
            self.close()
            return {"outcome": "timeout or died", "seconds": WAIT, "cpu": None, "calls": None}
        return json.loads(line)

    def close(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc.stdin.close()
            self.proc.stdout.close()
            self.proc = None


@pytest.fixture(scope="module")
def worker():
    w = _Worker()
    yield w
    w.close()


def _product(n):
    return "*".join(f"(3+tanh(z/{k}))" for k in range(1, n + 1))


REFUSED = [
    # (kind, text, domain, exception type, regex naming the bound or the witness)
    (
        "link",
        "z*9**9**9",
        None,
        "NBLInputError",
        r"exponent 9\*\*9 exceeds the bound \|e\| <= 1000",
    ),
    ("link", "z*2**10**10", None, "NBLInputError", r"exponent 10\*\*10 exceeds the bound"),
    (
        "link",
        "z*1e999999999",
        None,
        "NBLInputError",
        r"literal 1e999999999 is outside \[1e-300, 1e300\]",
    ),
    ("link", "tanh(z)**(10**9+1)", None, "NBLInputError", r"exponent 10\*\*9\+1 exceeds the bound"),
    ("link", "z+10**5000", None, "NBLInputError", r"exponent 5000 exceeds the bound"),
    ("link", "z+1e5000", None, "NBLInputError", r"literal 1e5000 is outside"),
    ("link", "exp(exp(exp(z)))", None, "DivergentIntegralError", r"E\|g\(Z\)\| diverges"),
    (
        "link",
        "exp(1000*log(10**300))*z",
        None,
        "NBLInputError",
        r"constant exp\(1000\*log\(10\*\*300\)\) is outside",
    ),
    (
        "link",
        "(z**1000)**1000",
        None,
        "NBLInputError",
        r"exponent 1000000 \(in \(z\*\*1000\)\*\*1000\)",
    ),
    ("link", "z*(1+1e-20)**1000", None, "NBLInputError", r"has more than 10000 bits"),
    ("link", "z*" + "1" * 150, None, "NBLInputError", r"150 significant digits; at most 100"),
    (
        "link",
        "exp(" * 100 + "z" + ")" * 100,
        None,
        "NBLInputError",
        r"nested too deeply \(more than 60",
    ),
    ("link", "(" * 5000 + "z" + ")" * 5000, None, "NBLInputError", r"longer than 2000 characters"),
    ("link", "-" * 1999 + "z", None, "NBLInputError", r"4001 syntax nodes; the bound is 1000"),
    (
        "link",
        "+".join(f"z**{k}" for k in range(1, 300)),
        None,
        "NBLInputError",
        r"syntax nodes; the bound is 1000",
    ),
    (
        "link",
        _product(30),
        None,
        "NBLInputError",
        r"g'' would have about \d+ expression nodes; the bound is 30000",
    ),
    ("link", "sinh(2.903)**sinh(z)", None, "DivergentIntegralError", r"diverges"),
    (
        "link",
        "tanh(z)**1000",
        None,
        "NBLInputError",
        r"not strictly increasing: g'\([-0-9.]+\) = -",
    ),
    ("potential", "m**9**9**9", "-1,1", "NBLInputError", r"exponent 9\*\*9 exceeds the bound"),
    (
        "potential",
        "m*log(m)+(1-m)*log(1-m)",
        "0,1e999999",
        "NBLInputError",
        r"literal 1e999999 is outside",
    ),
    ("potential", "(-0.532)**m", "-1,1", "NBLInputError", r"not real at m = "),
    ("potential", "sigmoid(Phi(sigmoid(m)))", "0,1", "NBLInputError", r"not strictly convex"),
]

ACCEPTED = [
    ("link", _product(10), None),  # monotone, bounded: the former 938 MB expand
    ("link", _product(15), None),
    ("link", "tanh(z)**21", None),  # was refused: cancellation made g' < 0
    ("link", "tanh(z)**999", None),
    ("link", "+".join(["z"] * 61), None),  # a flat sum is not "nested too deeply"
    ("link", "+".join(f"sigmoid(z-{k}/10)" for k in range(30)), None),
    ("link", "sigmoid(100*z)", None),
    ("link", "1-exp(-exp(10*z))", None),
    ("link", "Phi(20*z)", None),
    ("link", "z*exp(690)", None),  # a large scale factor is not fast growth
    ("parse", "(" * 190 + "z" + ")" * 190, None),
    ("potential", "1.6*m*log(m)+0.4*(1-m)*log(1-m)-1.2*(1-log(2))*m", "0,1"),
]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and RLIMIT_AS")
@pytest.mark.parametrize(
    "kind, text, domain, exc, reason", REFUSED, ids=[f"{r[0]}:{r[1][:30]}" for r in REFUSED]
)
def test_refused_quickly_with_one_line(worker, kind, text, domain, exc, reason):
    import re

    out = worker.run({"kind": kind, "text": text, "domain": domain})
    assert out["outcome"] == "refused", out
    assert out["type"] == exc, out
    assert re.search(reason, out["message"]), out["message"]
    assert "\n" not in out["message"]
    assert out["calls"] <= CALLS, out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc and RLIMIT_AS")
@pytest.mark.parametrize(
    "kind, text, domain", ACCEPTED, ids=[f"{r[0]}:{r[1][:30]}" for r in ACCEPTED]
)
def test_accepted_quickly(worker, kind, text, domain):
    out = worker.run({"kind": kind, "text": text, "domain": domain})
    assert out["outcome"] == "accepted", out
    assert out["calls"] <= CALLS, out
