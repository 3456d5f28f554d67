"""
A family of links
=================

A link of your own with a free parameter: a logistic curve plus a second, steeper transition
of weight ``a``,

.. math::

    g_a(z) = \\frac{\\sigma(z) + a\\,\\sigma(6(z - 1))}{1 + a}.

For ``a = 0`` it is the logistic link (stable at every Δ); as ``a`` grows the second
transition adds curvature m₂ = E g''(U) > 0 and NBL becomes unstable at small separations.
This example draws the phase diagram — the sign of λ\\* on an (a, Δ) grid, computed as a
sweep (:func:`nbl_sim.studies.phase.phase_diagram`) — and its threshold curve: the critical ``a`` at
a few separations, each certified (:func:`nbl_theory.threshold.find_thresholds`).

On the command line::

    nbl phase --link '(sigmoid(z) + a*sigmoid(6*(z-1)))/(1+a)' \\
        --param a=0:2:41 --delta 0.05:1.5:30 --out runs/my-family
"""

import os
import sys

import matplotlib.pyplot as plt
import numpy as np

from nbl_sim.studies.phase import grid_values, phase_diagram
from nbl_theory import find_thresholds
from nbl_theory.link_source import LinkSource

QUICK = bool(os.environ.get("NBL_EXAMPLES_QUICK"))  # the tests' quick form: a coarser grid

# %%
# The family
# ----------
# A :class:`~nbl_theory.link_source.LinkSource` is a recipe for links: an expression whose
# free names other than ``z`` are parameters. ``link({"a": "0.5"})`` makes one member.
family = LinkSource.expression("(sigmoid(z) + a*sigmoid(6*(z-1)))/(1+a)")
print("parameters:", family.parameters())

# %%
# The phase diagram
# -----------------
# One sweep cell per value of ``a`` (a column of Δ values); in float64 a cell is fast, so the
# default in-process executor is used. ``pd.lambda_star`` has shape (len(deltas), len(values)).
a_values = grid_values(0, 2, 9 if QUICK else 41)
deltas = grid_values(0.05, 1.5, 8 if QUICK else 25)
pd = phase_diagram(family, "a", a_values, deltas, tier="float")
print(
    f"{pd.lambda_star.shape} grid, unstable fraction {pd.unstable_fraction():.3f}, "
    f"{pd.seconds:.2f} s on {pd.executor}"
)
for delta, lo, hi in pd.unstable_intervals()[:5]:
    print(f"delta = {float(delta):.6g}: unstable for a in [{lo:.6g}, {hi:.6g}] (grid)")

# %%
# The threshold curve
# -------------------
# At a few separations, every sign change of λ\* in ``a`` is found, refined and certified.
at = ["0.2", "0.6"] if QUICK else ["0.1", "0.3", "0.6"]
curve = []
for delta in at:
    thr = find_thresholds(
        lambda a: family.link({"a": a}),
        "a",
        delta=delta,
        bracket=("0", "2"),
        grid=11 if QUICK else 21,
    )
    for root in thr.roots:
        print(
            f"delta = {delta}: critical a = {root.value}  certified: {root.certified}  "
            f"({root.crossing} as a grows)"
        )
        curve.append((float(root.value), float(delta)))

# %%
# λ\* shaded on the grid, the λ\* = 0 contour of the grid, and the certified thresholds.
a_num = np.array([float(a) for a in a_values])
d_num = np.array([float(d) for d in deltas])
lam = np.asarray(pd.lambda_star, dtype=float)
lim = np.nanmax(np.abs(lam))
fig, ax = plt.subplots(figsize=(6.4, 4.2))
mesh = ax.pcolormesh(a_num, d_num, lam, cmap="RdBu", vmin=-lim, vmax=lim, shading="nearest")
ax.contour(a_num, d_num, lam, levels=[0.0], colors="k", linewidths=1)
if curve:
    ca, cd = zip(*curve)
    ax.plot(ca, cd, "o", color="gold", mec="k", label="certified threshold")
    ax.legend(loc="upper right", fontsize=8)
fig.colorbar(mesh, ax=ax, label="λ* (red: unstable)")
ax.set_xlabel("a (weight of the second transition)")
ax.set_ylabel("arm separation Δ")
ax.set_title("phase diagram of g_a")
fig.tight_layout()

# %%
# Run on its own (``python examples/plot_2_family_of_links.py``), the script writes its
# figures to files.
if "sphinx_gallery" not in sys.modules:
    for num in plt.get_fignums():
        plt.figure(num).savefig(f"plot_2_family_of_links_{num}.png", dpi=110)
        print(f"figure written to plot_2_family_of_links_{num}.png")
