"""
Checking the paper
==================

Every checked statement of the paper is a *claim* in the registry of :mod:`proofs_check`: an
id, the paper's ``\\label``, the statement, a method (symbolic, high-precision, certified,
Monte Carlo, property-based), a tolerance with its reason, the printed value and the function
that computes it. ``nbl check`` runs them all and writes the verification report; here we run
a handful through the same function, read the findings, open one claim's evidence and run its
mutants — the deliberate corruptions under which the check must change its verdict.

The command-line equivalent (every claim, quick mode, about 90 s)::

    nbl check --quick --out reports
"""

import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

import matplotlib.pyplot as plt

from proofs_check.registry import FINDINGS, REGISTRY, STATUSES, run_claims
from proofs_check.report import summary_line, write_report

QUICK = bool(os.environ.get("NBL_EXAMPLES_QUICK"))  # the tests' quick form: fewer claims

# %%
# Run a few claims
# ----------------
# The printed λ\* of the weighted-entropy links, the regimes of the two-transition links, a
# statement about the numerics, a table row, and a label listed as not checked (SKIPPED, with
# its reason).
ids = [
    "we-lambda-0.72",
    "tt-unstable-regime",
    "bregman-table-quadratic",
    "dual-single-index-assumption",
]
if not QUICK:
    ids += [
        "we-lambda-0.60",
        "we-lambda-0.80",
        "tt-stable-regime",
        "tt-near-critical-regime",
        "numerics-instability-below-0.2",
        "local-jacobian-spectrum",
    ]
results = run_claims(ids=ids)
for r in results:
    print(f"{r.id:32s} {r.label:28s} {r.status:12s} {str(r.computed)[:60]}")
print(summary_line(results))

# %%
# The findings
# ------------
# A finding is a ``DISCREPANCY`` (the computation is sound and disagrees with the paper) or a
# ``CAVEAT`` (the paper is right, but needs an unstated condition). The report lists them
# first, ranked by consequence.
for r in results:
    if r.status in FINDINGS:
        print(f"{r.status}: {r.id} ({r.label}), consequence: {r.consequence}")
        print(f"  paper prints: {r.printed}")
        print(f"  computed:     {r.computed}")
        print(f"  why:          {r.detail[:300]}")

# %%
# One claim's evidence
# --------------------
# Everything the report says about a claim is on its result: the statement, the method, the
# tolerance and why, the printed and computed values and the full detail.
r = next(r for r in results if r.id == "we-lambda-0.72")
for field in ("statement", "method", "tolerance", "tolerance_why", "printed", "computed"):
    print(f"{field:14s} {getattr(r, field)}")

# %%
# Can this check fail? Its mutants replace, for instance, the printed value by the true one; a
# mutant is *killed* when the verdict changes. A claim whose mutants all survive is a defect.
for m in REGISTRY.run_mutants(REGISTRY.get("we-lambda-0.72"), baseline=r):
    print(f"mutant {m.mutant!r}: {m.baseline} -> {m.status}  killed: {m.killed}")

# %%
# The report files
# ----------------
# ``write_report`` writes the same ``verification.md`` and ``verification.json`` as
# ``nbl check`` (the JSON record format is on the "Verification report" page of these docs).
with tempfile.TemporaryDirectory() as tmp:
    md, js = write_report(results, Path(tmp))
    print("\n".join(md.read_text(encoding="utf-8").splitlines()[:12]))

# %%
# The statuses of this run.
counts = Counter(r.status for r in results)
fig, ax = plt.subplots(figsize=(5.2, 2.6))
ax.barh(list(STATUSES), [counts.get(s, 0) for s in STATUSES], color=["C2", "C1", "C3", "k", "0.6"])
ax.invert_yaxis()
ax.set_xlabel("claims")
ax.set_title(f"{len(results)} claims of the registry")
fig.tight_layout()

# %%
# Run on its own (``python examples/plot_4_checking_the_paper.py``), the script writes its
# figures to files.
if "sphinx_gallery" not in sys.modules:
    for num in plt.get_fignums():
        plt.figure(num).savefig(f"plot_4_checking_the_paper_{num}.png", dpi=110)
        print(f"figure written to plot_4_checking_the_paper_{num}.png")
