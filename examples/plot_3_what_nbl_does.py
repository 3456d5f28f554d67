"""
What NBL does
=============

λ\\* is a statement about the population flow near the true boundary v\\*. What does Natural
Boundary Learning (alg:nbl) actually do when it runs? This example simulates

1. the paper's three two-transition links at Δ = 0.2 — stable, near-critical, unstable
   (app:stochastic-nbl) — from a 10° start: the signed angle α_t to v\\* is attracted,
   persists, or is repelled;
2. NBL against Greedy Logistic on common random numbers (app:logistic-comparison), with
   NBL's randomized start: most replications converge, a few start far from v\\* and pay
   for it — the heavy right tail of NBL's regret, which a mean ± SE hides.

The command-line equivalents::

    nbl simulate --family two-transition --param mu2=1.244122 --delta 0.2 --init-angle 10
    nbl simulate --family weighted-entropy --param rho=0.8 --delta 1 --n 2000 --n0 200 \\
        --policy both
"""

import os
import sys

import matplotlib.pyplot as plt
import numpy as np

from nbl_sim.engine.environment import Environment
from nbl_sim.studies.experiment import simulate
from nbl_theory import PAPER_LINKS, paper_link

QUICK = bool(os.environ.get("NBL_EXAMPLES_QUICK"))  # the tests' quick form: fewer rounds

# %%
# Stable, near-critical, unstable
# -------------------------------
# The paper's stochastic setting: a fixed 10° initial angle, step η_t = γ/(t + t0) with
# γ = 10, t0 = 500. Replication r uses its own random stream (``SeedSequence(seed).spawn``),
# so the numbers are the same on any executor.
n, reps = (2000, 20) if QUICK else (10_000, 100)
fig, ax = plt.subplots(figsize=(6.4, 3.6))
for i, key in enumerate(("tt-stable", "tt-near-critical", "tt-unstable")):
    env = Environment.build(paper_link(key), "0.2")
    res = simulate(env, n=n, reps=reps, init_angle=10, seed=0)
    band = res.band("nbl", "angle_deg")
    s = res.summary()["nbl"]
    print(
        f"{key:17s} ({PAPER_LINKS[key].regime}): final angle "
        f"{s['final_angle_deg_mean']:.3f} ± {s['final_angle_deg_se']:.3f} deg (mean ± SE), "
        f"R_n = {s['final_regret_mean']:.2f}"
    )
    ax.plot(res.record_rounds, band["mean"], color=f"C{i}", label=key)
    ax.fill_between(res.record_rounds, band["lo"], band["hi"], color=f"C{i}", alpha=0.2)
ax.axhline(0, color="0.5", lw=0.8)
ax.set_xlabel("round t")
ax.set_ylabel("signed angle α_t (degrees)")
ax.set_title("NBL from a 10° start, Δ = 0.2 (95% bands)")
ax.legend(fontsize=8)
fig.tight_layout()

# %%
# Against Greedy Logistic, and the heavy tail
# -------------------------------------------
# Both policies face the same contexts and rewards. NBL starts with ``n0`` randomized rounds
# (v_{n0} = ΣW_t/‖ΣW_t‖); Greedy Logistic fits one logistic regression per arm after the same
# start.
n, reps, n0 = (600, 16, 60) if QUICK else (2000, 60, 200)
env = Environment.build(paper_link("we-0.80"), "1")
res = simulate(env, n=n, reps=reps, n0=n0, policies=("nbl", "greedy-logistic"), seed=0)
summary = res.summary()
for name in ("nbl", "greedy-logistic"):
    final = res.policies[name].regret[:, -1]
    print(
        f"{name:16s} R_n mean {final.mean():7.2f} ± {summary[name]['final_regret_se']:.2f} "
        f"(SE)   median {np.median(final):7.2f}   max {final.max():7.2f}"
    )

# %%
# Where the tail comes from: the angle NBL starts from after its randomized rounds (the first
# recorded angle) against its final regret. Replications that start far from v\* cost most.
nbl = res.policies["nbl"]
first = np.array(
    [row[np.isfinite(row)][0] if np.isfinite(row).any() else np.nan for row in nbl.angle]
)
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8.4, 3.4))
bins = np.linspace(0, max(res.policies[p].regret[:, -1].max() for p in res.policies), 30)
for i, name in enumerate(("nbl", "greedy-logistic")):
    ax1.hist(res.policies[name].regret[:, -1], bins=bins, color=f"C{i}", alpha=0.6, label=name)
ax1.set_yscale("log")
ax1.set_xlabel("final regret R_n per replication")
ax1.set_ylabel("replications")
ax1.legend(fontsize=8)
ax2.scatter(np.degrees(np.abs(first)), nbl.regret[:, -1], s=10)
ax2.set_xlabel("|angle| after the randomized start (degrees)")
ax2.set_ylabel("NBL final regret")
fig.suptitle(f"weighted entropy ρ = 0.8, Δ = 1, n = {n}, n0 = {n0}")
fig.tight_layout()

# %%
# Run on its own (``python examples/plot_3_what_nbl_does.py``), the script writes its
# figures to files.
if "sphinx_gallery" not in sys.modules:
    for num in plt.get_fignums():
        plt.figure(num).savefig(f"plot_3_what_nbl_does_{num}.png", dpi=110)
        print(f"figure written to plot_3_what_nbl_does_{num}.png")
