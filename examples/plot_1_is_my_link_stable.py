"""
Is my link stable?
==================

You have a link g of your own — here a logistic curve with a second, steeper transition at
z = 1 — and an arm separation Δ. Is NBL decision-stable there, i.e. is the decision stability
coefficient

.. math::

    \\lambda^* = \\Delta\\mu^* - 2\\varphi_0(0)\\,(m_2)_+\\,(1 - \\Delta^2/4)
    \\qquad\\text{(eq:decision\\_stability)}

positive? This example computes λ\\* in the three precision tiers (float64, mpmath, certified
Arb enclosures), reads the certified sign, finds the critical Δ where the sign changes, puts
the self-concordance lower bound of prop:self-concordance-stability next to the exact value,
and does the same for a link given by its convex potential φ instead.

The command-line equivalent of the first step is::

    nbl stability --link '(sigmoid(z) + sigmoid(6*(z-1)))/2' --delta 1 --certify
"""

import os
import sys

import matplotlib.pyplot as plt
import numpy as np

from nbl_theory import Link, find_thresholds
from nbl_theory.self_concordance import self_concordance_report
from nbl_theory.stability import lambda_star_float, stability

QUICK = bool(os.environ.get("NBL_EXAMPLES_QUICK"))  # the tests' quick form: fewer points

# %%
# The link
# --------
# A link is a strictly increasing function g; :meth:`~nbl_theory.links.Link.from_expression`
# parses it with a whitelist (nothing is ``eval``-ed) and derives g' and g'' exactly.
link = Link.from_expression("(sigmoid(z) + sigmoid(6*(z-1)))/2")
delta = "1"

# %%
# λ\* in three tiers
# ------------------
# float64 (the default, with an error estimate), mpmath at 30 digits, and certified: an Arb
# ball that encloses λ\* rigorously, so its sign is *proved*.
# ``to_dict()`` gives every quantity as a number and, where more digits exist, its exact
# decimal under ``<name>_decimal`` — the digits each tier carries, never float noise.
for kwargs in ({}, {"dps": 30}, {"certify": True}):
    r = stability(link, delta, **kwargs).to_dict()
    lam = r.get("lambda_star_decimal", repr(r["lambda_star"]))
    print(f"{r['tier']:>10}  lambda* = {lam}   sign: {r['sign']}   ({r['digits']} digits)")

certified = stability(link, delta, certify=True).to_dict()
lo, hi = certified["lambda_star_enclosure_decimal"]
print(f"certified enclosure of lambda*: [{lo}, {hi}]")
print(f"mu* = {certified['mu_star_decimal']}   m2 = {certified['m2_decimal']}")

# %%
# Where does it stop being stable?
# --------------------------------
# :func:`~nbl_theory.threshold.find_thresholds` scans λ\* over Δ, refines every sign change
# and certifies each bracket (the two ends are enclosed with Arb and their signs differ).
thr = find_thresholds(link, "delta", grid=21 if QUICK else 41)
for root in thr.roots:
    print(
        f"critical delta = {root.value}  bracket [{root.bracket[0]}, {root.bracket[1]}]  "
        f"certified: {root.certified}  ({root.crossing} as delta grows)"
    )
delta_c = float(thr.roots[0].value)

# %%
# The sufficient condition next to the exact value
# ------------------------------------------------
# prop:self-concordance-stability bounds λ\* from below through R = sup \|g''\| / g'. The
# bound is sufficient, not necessary: it can be far below the exact λ\*.
sc = self_concordance_report(link, delta)
print(
    f"R = {sc.R:.6g}   lower bound = {sc.lower_bound:.6g}   exact lambda* = "
    f"{sc.lambda_star:.6g}   bound <= exact: {sc.bound_consistent}"
)
print(
    f"the sufficient condition holds for delta > {sc.delta_sc:.6g}; "
    f"the link is in fact stable for delta > {sc.exact_threshold_delta:.6g}"
)

# %%
# λ\* against Δ, with the critical Δ and the self-concordance threshold.
deltas = np.linspace(0.02, 1.98, 25 if QUICK else 60)
lam = [lambda_star_float(link, float(d)) for d in deltas]
fig, ax = plt.subplots(figsize=(6.4, 3.6))
ax.plot(deltas, lam, color="C0", label="λ* (float64)")
ax.axhline(0, color="0.5", lw=0.8)
ax.axvline(delta_c, color="C3", ls="--", label=f"critical Δ = {delta_c:.4f} (certified)")
ax.axvline(sc.delta_sc, color="C2", ls=":", label=f"self-concordance Δ_SC = {sc.delta_sc:.3f}")
ax.fill_between(deltas, lam, 0, where=np.array(lam) < 0, color="C3", alpha=0.15)
ax.set_xlabel("arm separation Δ")
ax.set_ylabel("λ*")
ax.set_title("(σ(z) + σ(6(z − 1)))/2")
ax.legend(fontsize=8)
fig.tight_layout()

# %%
# A link given by its potential
# -----------------------------
# A strictly convex potential φ on a domain defines the link g = (φ')⁻¹. It is never inverted
# numerically: expectations are integrated in m with z = φ'(m), g' = 1/φ''(m). Here
# φ(m) = m⁴/12 + m²/2 on ℝ, whose dual domain φ'(ℝ) = ℝ covers the Gaussian index.
pot = Link.from_potential("m**4/12 + m**2/2", domain=("-inf", "inf"))
rp = stability(pot, delta, certify=True)
print(
    f"potential link: lambda* = {rp.to_dict()['lambda_star_decimal']}  sign {rp.sign}  "
    f"({rp.tier}, {rp.digits} digits)"
)

# %%
# Run on its own (``python examples/plot_1_is_my_link_stable.py``), the script writes its
# figures to files.
if "sphinx_gallery" not in sys.modules:
    for num in plt.get_fignums():
        plt.figure(num).savefig(f"plot_1_is_my_link_stable_{num}.png", dpi=110)
        print(f"figure written to plot_1_is_my_link_stable_{num}.png")
