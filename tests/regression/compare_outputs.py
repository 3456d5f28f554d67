"""Before/after comparison of the toolkit's observable outputs (issue 12: the renovation must
leave every result unchanged).

A *snapshot* records, for a fixed set of commands,

* ``nbl check --quick``: every claim's id, status and computed value;
* ``nbl reproduce --quick --no-cache``: the SHA-256 of every CSV file written;
* ``nbl simulate ... --json`` (three fixed-seed runs, one with ``--out``): the JSON with the
  volatile keys (seconds, executor, chunk size, versions) removed, and the CSV hashes.

``python -m tests.regression.compare_outputs --snapshot FILE`` runs the commands with the
installed ``nbl`` and writes a snapshot; ``--compare FILE`` runs them and lists every
difference against a committed snapshot (exit 1 if any); ``--from-dir DIR`` builds a snapshot
from outputs already written by the same commands (how ``renovation_baseline.json`` was made
from the pre-renovation commit, 85bfac5).

Claims that the renovation moved out of the registry (toolkit self-consistency checks that
became tests) are listed in ``MOVED`` with the test that now holds them; they are reported as
moved, not as differences.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["COMMANDS", "run_commands", "snapshot_from_dir", "compare", "MOVED"]

#: (name, argv after ``nbl``) — outputs land in OUT/<name>
COMMANDS = (
    ("check_quick", ["check", "--quick", "--out", "{out}"]),
    ("repro", ["reproduce", "--quick", "--no-cache", "--out", "{out}"]),
    (
        "sim1",
        [
            "simulate",
            "--family",
            "two-transition",
            "--param",
            "mu2=1.244122",
            "--delta",
            "0.2",
            "--init-angle",
            "10",
            "--n",
            "3000",
            "--reps",
            "20",
            "--seed",
            "7",
            "--policy",
            "nbl",
            "--json",
        ],
    ),
    (
        "sim2",
        [
            "simulate",
            "--family",
            "logistic",
            "--delta",
            "1",
            "--d",
            "3",
            "--n",
            "1500",
            "--reps",
            "10",
            "--n0",
            "100",
            "--seed",
            "3",
            "--policy",
            "both",
            "--json",
        ],
    ),
    (
        "sim3",
        [
            "simulate",
            "--family",
            "two-transition",
            "--param",
            "mu2=1.244122",
            "--delta",
            "0.5",
            "--n",
            "3000",
            "--reps",
            "20",
            "--n0",
            "100",
            "--seed",
            "7",
            "--policy",
            "all",
            "--json",
            "--out",
            "{out}",
        ],
    ),
)

#: claim id -> where the check lives now (claims moved out of the registry by the renovation).
MOVED: dict[str, str] = {
    # toolkit self-consistency (the three precision tiers agree): tests, not claims (issue 12)
    **{
        f"tiers-agree-{key}": f"tests/theory/test_tiers_agree.py::test_three_tiers_agree[{key}]"
        for key in ("tt-stable", "tt-near-critical", "tt-unstable", "we-0.60", "we-0.72", "we-0.80")
    },
    # the compiled kernel against the literal update
    "nbl-update-kernel": (
        "tests/sim/test_nbl_update_kernel.py::"
        "test_one_step_matches_the_literal_update, "
        "::test_trajectories_match_the_literal_update"
    ),
    # eq:error-to-regret was checked twice; its in/out-of-plane evidence is now part of
    # error-to-regret (proofs_check/claims/regret/error_to_regret.py)
    "error-to-regret-constant": "merged into error-to-regret",
    # issue 15: a toolkit test, not a claim about the paper
    "burg-rejected-by-toolkit": (
        "tests/theory/test_full_dual_domain.py::test_burg_entropy_is_rejected_naming_the_condition"
    ),
    # issue 15: a tautology of the integral (any lower limit changes phi_g by a constant);
    # the computed constant is now part of link-induced-potential's detail
    "link-induced-potential-reference-point": "merged into link-induced-potential",
}

_VOLATILE = {"seconds", "executor", "chunk_size", "versions", "files"}


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _strip(x):
    if isinstance(x, dict):
        return {k: _strip(v) for k, v in x.items() if k not in _VOLATILE}
    if isinstance(x, list):
        return [_strip(v) for v in x]
    return x


def snapshot_from_dir(root: Path) -> dict:
    """Snapshot of the outputs under ``root`` (one entry per command name)."""
    root = Path(root)
    records = json.loads((root / "check_quick" / "verification.json").read_text())
    if isinstance(records, dict):  # the report in the one JSON envelope (issue 35)
        records = records["results"]
    snap = {
        "check_quick": {r["id"]: [r["status"], r["computed"]] for r in records},
        "repro": {p.name: _sha(p) for p in sorted((root / "repro").glob("*.csv"))},
    }
    for name in ("sim1", "sim2", "sim3"):
        data = json.loads((root / f"{name}.json").read_text())
        if isinstance(data, dict) and "results" in data:  # the JSON envelope of issue 14
            data = data["results"][0] if len(data["results"]) == 1 else data["results"]
        entry = {"json": _strip(data)}
        if (root / name).is_dir():
            entry["csv"] = {p.name: _sha(p) for p in sorted((root / name).glob("*.csv"))}
        snap[name] = entry
    return snap


def run_commands(root: Path, nbl: str | None = None) -> None:
    """Run :data:`COMMANDS` with the installed ``nbl``, writing into ``root``."""
    nbl = nbl or shutil.which("nbl") or str(Path(sys.executable).with_name("nbl"))
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    for name, argv in COMMANDS:
        args = [a.format(out=root / name) for a in argv]
        res = subprocess.run([nbl, *args], capture_output=True, text=True, cwd=root)
        if name.startswith("sim"):
            (root / f"{name}.json").write_text(res.stdout)
        if res.returncode not in (0, 1):
            raise RuntimeError(f"nbl {' '.join(args)} exited {res.returncode}: {res.stderr}")


def compare(old: dict, new: dict) -> list[str]:
    """Every difference between two snapshots, one line each."""
    out = []
    oc, nc = old["check_quick"], new["check_quick"]
    for cid in oc:
        if cid in MOVED:
            if cid in nc:
                out.append(f"claim {cid}: listed as moved to {MOVED[cid]} but still registered")
            continue
        if cid not in nc:
            out.append(f"claim {cid}: missing")
        elif nc[cid] != oc[cid]:
            out.append(f"claim {cid}: {oc[cid]} -> {nc[cid]}")
    out += [f"claim {cid}: new" for cid in nc if cid not in oc]
    for f in sorted(set(old["repro"]) | set(new["repro"])):
        if old["repro"].get(f) != new["repro"].get(f):
            out.append(f"reproduce CSV {f}: differs")
    for name in ("sim1", "sim2", "sim3"):
        if old[name] != new[name]:
            out.append(f"simulate {name}: differs")
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--snapshot", metavar="FILE", help="run the commands, write a snapshot")
    g.add_argument("--compare", metavar="FILE", help="run the commands, compare with FILE")
    g.add_argument(
        "--from-dir",
        nargs=2,
        metavar=("DIR", "FILE"),
        help="snapshot of outputs already in DIR, written to FILE",
    )
    p.add_argument("--keep", metavar="DIR", help="run in DIR (kept) instead of a temp dir")
    a = p.parse_args(argv)
    if a.from_dir:
        Path(a.from_dir[1]).write_text(
            json.dumps(snapshot_from_dir(Path(a.from_dir[0])), indent=1, sort_keys=True) + "\n"
        )
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(a.keep or tmp)
        run_commands(root)
        snap = snapshot_from_dir(root)
    if a.snapshot:
        Path(a.snapshot).write_text(json.dumps(snap, indent=1, sort_keys=True) + "\n")
        return 0
    diffs = compare(json.loads(Path(a.compare).read_text()), snap)
    moved = [f"claim {c}: moved to {w}" for c, w in MOVED.items()]
    print("\n".join(moved + (diffs or ["no differences"])))
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
