"""Pin every claim's verdict: ``tests/proofs_check/verdicts.json`` = {claim id: status}.

``tests/proofs_check/test_claims.py::test_claim`` asserts that each claim returns its pinned
status, so any change of verdict — a PASS turning DISCREPANCY, a finding disappearing, a new
claim — fails the tests until the file is regenerated and the change reviewed.

Usage (from the repository root)::

    python -m tests.proofs_check.pin_verdicts            # run every claim (full), write the file
    python -m tests.proofs_check.pin_verdicts --quick    # re-pin the quick claims only
    python -m tests.proofs_check.pin_verdicts --claim ID [--claim ID ...]
    python -m tests.proofs_check.pin_verdicts --check    # show the differences, write nothing

Every run prints the changes (``id: old -> new``) for review; ``--quick`` and ``--claim`` keep the
other pins, and pins of claims no longer registered are dropped (and listed). A ``FAIL`` is never
pinned: the toolkit's failure is a bug to fix, not a verdict (the script exits 1 and leaves the
claim's old pin).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

PINS = Path(__file__).with_name("verdicts.json")


def load_pins(path: Path = PINS) -> dict:
    """The pinned {claim id: status} ({} if the file does not exist)."""
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def main(argv=None) -> int:
    from proofs_check.registry import FAIL, REGISTRY

    p = argparse.ArgumentParser(
        prog="python -m tests.proofs_check.pin_verdicts", description=__doc__.split("\n\n")[0]
    )
    p.add_argument("--quick", action="store_true", help="re-pin only the quick claims")
    p.add_argument("--claim", action="append", default=None, metavar="ID")
    p.add_argument("--check", action="store_true", help="show the differences, write nothing")
    a = p.parse_args(argv)
    old = load_pins()
    claims = REGISTRY.all_claims()
    known = {c.id for c in claims}
    todo = [c for c in claims if (a.claim is None or c.id in a.claim) and (not a.quick or c.quick)]
    new = {k: v for k, v in old.items() if k in known}
    failed = []
    for i, c in enumerate(todo, 1):
        res = REGISTRY.run_one(c)
        print(
            f"[{i}/{len(todo)}] {res.status:<11} {c.id} ({res.seconds:.1f} s)",
            file=sys.stderr,
            flush=True,
        )
        if res.status == FAIL:
            failed.append(f"{c.id}: {res.detail}")
            continue
        new[c.id] = res.status
    new = {c.id: new[c.id] for c in claims if c.id in new}  # registration order
    changes = [f"  {k}: {old.get(k, '(new)')} -> {v}" for k, v in new.items() if old.get(k) != v]
    changes += [f"  {k}: {v} -> (no longer registered)" for k, v in old.items() if k not in known]
    print(f"{len(changes)} change(s)" + (":" if changes else ""))
    print("\n".join(changes))
    missing = sorted(known - set(new))
    if missing:
        print(f"not pinned ({len(missing)}): {', '.join(missing)}")
    if failed:
        print("FAIL (not pinned; fix the toolkit):\n  " + "\n  ".join(failed))
    if not a.check:
        PINS.write_text(json.dumps(new, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {PINS}")
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
