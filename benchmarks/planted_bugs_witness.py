"""Plant one-line library bugs by hand and see what the claims that depend on them say.

A library bug must end as a toolkit FAIL (library and witness disagree), never as a DISCREPANCY
that blames the paper (issue 34, docs/architecture.md, "Statuses and the two computations"). This
script copies ``nbl_theory``, ``nbl_sim`` and ``proofs_check`` from a source tree into a
temporary directory, applies one bug there (the working tree is never touched), runs the given
claims in a fresh interpreter with that copy first on ``sys.path``, and prints one line per
claim: ``bug | claim | status | detail``. Run it once on the current tree and once on an export of
an older commit (``git archive COMMIT | tar -x -C DIR``) to compare before and after.

Usage::

    python benchmarks/planted_bugs_witness.py [--tree DIR] [--bug NAME ...]

It is a demonstration, not a harness: the library mutation harness (issue 34, item 3) samples
mutants systematically.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: name -> (file, old text, new text, claims that depend on the line)
BUGS = {
    "s2-quarter-to-half": (
        "nbl_theory/results.py",
        "s2 = 1 - d * d / 4",
        "s2 = 1 - d * d / 2",
        (
            "we-lambda-0.60",
            "we-lambda-0.72",
            "we-lambda-0.80",
            "tt-unstable-regime",
            "we-0.72-regime",
            "numerics-instability-below-0.2",
        ),
    ),
    "certified-mu-half-delta": (
        "nbl_theory/certified.py",
        "c = -d / (2 * s * arb(2).sqrt())",
        "c = -d / (s * arb(2).sqrt())",
        (
            "tt-stable-regime",
            "tt-near-critical-regime",
            "tt-unstable-regime",
            "we-lambda-0.60",
            "we-0.72-regime",
        ),
    ),
    "float-mu-half-delta": (
        "nbl_theory/gaussian.py",
        "c = delta / (2.0 * s)",
        "c = delta / s",
        (
            "numerics-instability-below-0.2",
            "we-instability-weak-separation",
            "population-equilibrium",
            "restoring-condition-2d",
        ),
    ),
    "kappa-factor": (
        "nbl_theory/self_concordance.py",
        "return float(erfcx(float(a) / math.sqrt(2.0)) / 2.0)",
        "return float(erfcx(float(a) / math.sqrt(2.0)) / 2.2)",
        ("sc-sufficient-condition-vacuous", "sc-bound-conservative", "sc-lower-bound-tt-stable"),
    ),
    "arb-sum-drops-term": (
        "nbl_theory/arb_eval.py",
        "for f in fs[1:]:",
        "for f in fs[2:]:",
        (
            "tt-unstable-link-stabilises",
            "tt-three-links-stabilise",
            "tt-instability-intermediate-mu2",
        ),
    ),
    "tanh-term-dropped": (
        "nbl_theory/families.py",
        '        + p["a2"] * (1 + sp.tanh(p["b2"] * (Z - p["mu2"])))\n',
        "",
        ("two-transition-definition",),
    ),
    # issue 34, the claims witnessed last: the population field, the NBL step, the logistic fit
    "population-H-scaled": (
        "nbl_sim/population/fields.py",
        "    return (-sa * f[:, 0] + ca * f[:, 1]).reshape(a.shape)",
        "    return 1.01 * (-sa * f[:, 0] + ca * f[:, 1]).reshape(a.shape)",
        ("local-stability-radius", "localized-estimation-rate", "ce-explicit", "regret-rate"),
    ),
    "nbl-step-off-by-one": (
        "nbl_sim/engine/nbl_kernel.py",
        "eta = float(gamma) / (np.arange(1, n + 1, dtype=np.float64) + float(t0))",
        "eta = float(gamma) / (np.arange(0, n, dtype=np.float64) + float(t0))",
        (
            "stochastic-angle-regimes",
            "stochastic-separation-recovery",
            "stochastic-regret-panel-d",
            "localized-estimation-rate",
            "ce-explicit",
            "regret-rate",
        ),
    ),
    "greedy-logistic-ridge": (
        "nbl_sim/engine/greedy_kernel.py",
        "return bool(intercept), float(ridge), float(tol), int(max_iter)",
        "return bool(intercept), float(ridge) * 1e6, float(tol), int(max_iter)",
        ("logistic-comparison-two-transition",),
    ),
}

_RUN = """
import sys
from proofs_check.registry import REGISTRY
for cid in sys.argv[1:]:
    r = REGISTRY.run_one(REGISTRY.get(cid))
    print(f"{cid} | {r.status} | {' '.join(r.detail.split())[:220]}", flush=True)
"""


def run(tree: Path, name: str) -> None:
    """Apply the bug ``name`` to a copy of ``tree`` and run its claims."""
    path, old, new, claims = BUGS[name]
    with tempfile.TemporaryDirectory(prefix="nbl-planted-") as tmp:
        for pkg in ("nbl_theory", "nbl_sim", "proofs_check"):
            shutil.copytree(
                tree / pkg, Path(tmp) / pkg, ignore=shutil.ignore_patterns("__pycache__")
            )
        target = Path(tmp) / path
        text = target.read_text(encoding="utf-8")
        if text.count(old) != 1:
            raise SystemExit(f"{name}: {old!r} occurs {text.count(old)} times in {path}")
        target.write_text(text.replace(old, new), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": tmp + os.pathsep + os.environ.get("PYTHONPATH", "")}
        out = subprocess.run(
            [sys.executable, "-c", _RUN, *claims],
            env=env,
            cwd=tmp,
            capture_output=True,
            text=True,
            check=False,
        )
        for line in out.stdout.splitlines():
            print(f"{name} | {line}", flush=True)
        if out.returncode:
            print(f"{name} | error | {out.stderr.strip().splitlines()[-1:]}", flush=True)


def main(argv=None) -> None:
    """Command line (module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", type=Path, default=ROOT, help="source tree (default: this one)")
    ap.add_argument("--bug", action="append", choices=sorted(BUGS), help="default: all")
    args = ap.parse_args(argv)
    for name in args.bug or BUGS:
        run(args.tree, name)


if __name__ == "__main__":
    main()
