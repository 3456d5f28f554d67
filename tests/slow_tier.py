"""The slow tier by measurement: which default-tier tests move to ``pytest -m slow`` so that the
default tier stays within ~6 minutes on 2 cores (CONTRIBUTING.md, "Test tiers").

The list lives in ``tests/slow_tier.txt``, one pytest node id per line, each with the reason it
moved after ``#``. Two kinds of entries:

* hand-moved ones, each naming the default-tier test that keeps covering what it checks;
* measured ones, written by this module from a ``--durations=0`` log of the default tier: every
  test whose call took at least ``--threshold`` seconds on the machine
  the log came from, except the smoke tier's (``pytest -m smoke`` stays a subset of the
  default tier). Parametrized families keep their cheap members in the default tier, so each
  concept stays covered there; the heavy members run with ``-m slow``. Setup times are not
  counted: a module fixture's setup is paid by whichever of its tests runs first, so a heavy
  one is moved by hand (with the tests that use it) or made cheaper.

Regenerate after the suite changes much (the header of the file records the command, the
machine and the date)::

    .venv/bin/python -m pytest -n 2 -p no:cacheprovider --durations=0 -q > durations.log
    .venv/bin/python -m pytest -m smoke --collect-only -q > smoke.txt
    .venv/bin/python -m tests.slow_tier durations.log smoke.txt --threshold 1.5 \\
        --machine "2 cores, no AVX-512"

A test that was the only one to kill a library mutant in the newest measurement of the
mutation sample (:data:`KILLS`: ``tests_failed`` of its tests-only mutants) is never moved: the
mutation harness runs the default tier, so moving it would turn that kill back into a survivor
(the measured move of 2026-11-29 took five such kills; docs/mutation.md, 2026-11-30 evening).

Every entry already in the list is kept (moving the heaviest tests shifts shared one-off costs,
such as a warm cache, onto the next test of the same process, so the list grows over a few
rounds of measurement); delete the ``measured`` lines first to start again from one log.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
from pathlib import Path

__all__ = ["LIST", "MEASURED", "KILLS", "covers", "killers", "read_list", "measured_slow", "main"]

#: The list file, next to this module.
LIST = Path(__file__).with_name("slow_tier.txt")
#: The newest measurement of the seed-0 library-mutation sample (the harness's JSON envelope):
#: the tests that alone killed one of its mutants stay in the default tier.
KILLS = Path(__file__).resolve().parents[1] / "docs" / "mutation-runs" / "mutation-again-9.json"
#: Reason prefix of the entries this module writes (others are hand-moved and kept).
MEASURED = "measured"
_LINE = re.compile(r"([\d.]+)s (call|setup|teardown)\s+(\S+)")
_NODE = re.compile(r"tests/[\w/]+\.py::\w+(?:\[[^\]\s]*\])?")
_CLAIM = re.compile(r"the claim ([\w.-]+)")


def covers(reason: str) -> set[str]:
    """The default-tier tests a hand-moved entry's reason names as covering it: node ids, and
    ``the claim ID`` (its test in tests/proofs_check/test_claims.py). They must stay in the
    default tier: the measured entries never take them."""
    out = set(_NODE.findall(reason))
    out |= {f"tests/proofs_check/test_claims.py::test_claim[{c}]" for c in _CLAIM.findall(reason)}
    return out


def read_list(path: Path = LIST) -> dict[str, str]:
    """Node id → reason, from the list file (comments and blank lines skipped)."""
    out = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        node, _, reason = line.partition(" # ")
        out[node.strip()] = reason.strip()
    return out


def killers(path: Path = KILLS) -> set[str]:
    """The node ids of the tests that killed a mutant the registry did not (``tests-only``) in
    the mutation envelope ``path``."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    return {
        t
        for m in doc["mutants"]
        if m["outcome"] == "tests-only"
        for t in m["tests_failed"]
        if "::" in t
    }


def measured_slow(log: str, smoke: set[str], threshold: float) -> dict[str, float]:
    """Node id → seconds of the call of every test at or above ``threshold`` in a
    ``--durations=0`` log, the smoke tier left out."""
    total: dict[str, float] = {}
    for line in log.splitlines():
        m = _LINE.match(line.strip())
        if m and m[2] == "call":
            total[m[3]] = float(m[1])
    return {k: t for k, t in total.items() if t >= threshold and k not in smoke}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("durations", type=Path, help="a pytest --durations=0 log of the default tier")
    p.add_argument("smoke", type=Path, help="pytest -m smoke --collect-only -q output")
    p.add_argument("--threshold", type=float, default=1.5, help="seconds (default 1.5)")
    p.add_argument("--machine", required=True, help="what the log was measured on")
    a = p.parse_args(argv)
    smoke = {s.strip() for s in a.smoke.read_text().splitlines() if "::" in s}
    slow = measured_slow(a.durations.read_text(), smoke, a.threshold)
    kept = read_list()
    named = set().union(*(covers(r) for r in kept.values() if not r.startswith(MEASURED)))
    keep = named | killers()
    slow = {k: t for k, t in slow.items() if k not in keep}
    lines = [
        "# The slow tier's list (tests/slow_tier.py): node id # why it is not in the default tier.",
        f"# Measured entries (the last round): --threshold {a.threshold:g} s on {a.machine}, "
        f"{datetime.date.today().isoformat()}, written by python -m tests.slow_tier.",
        "",
        *(f"{k} # {r}" for k, r in sorted(kept.items()) if not r.startswith(MEASURED)),
        "",
        *sorted(
            [f"{k} # {r}" for k, r in kept.items() if r.startswith(MEASURED) and k not in named]
            + [f"{k} # {MEASURED} {t:.1f} s" for k, t in slow.items() if k not in kept]
        ),
    ]
    LIST.write_text("\n".join(lines) + "\n", encoding="utf-8")
    new = sum(k not in kept for k in slow)
    print(f"{len(kept)} listed before, {new} more measured at >= {a.threshold:g} s: {LIST}")


if __name__ == "__main__":
    main()
