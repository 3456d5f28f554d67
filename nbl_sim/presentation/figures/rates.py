"""Beyond the paper: the exact local contraction rate next to λ*, against Δ.

prop:local_jacobian gives the tangent rates Δμ* (orthogonal to θ, d ≥ 3) and
Δμ* − 2φ0(0)m2(1 − Δ²/4) (along θ). λ* (eq:decision_stability) is the slowest rate in d ≥ 3 and a
lower bound in d = 2, where only the θ-direction exists: where m2 < 0 the d = 2 rate exceeds λ*.
"""

from __future__ import annotations

import numpy as np

from nbl_theory.paper import TWO_TRANSITION_KEYS, paper_link
from nbl_theory.stability import stability

from ..style import link_color, new_figure
from .base import FigureData

ID = "rates-vs-delta"
LABEL = "prop:local_jacobian"
TITLE = "Exact local contraction rates and lambda* against Delta (beyond the paper)"
CAPTION = (
    "lambda* is the contraction coefficient the paper uses; the exact spectrum of "
    "Dh(v*) is in prop:local_jacobian."
)

#: Δ grid: this many evenly spaced points on [0.02, 1.98] (inside eq:model's 0 < Δ < 2), by
#: ``quick``
DELTA_POINTS = {True: 50, False: 197}


def compute(quick: bool) -> FigureData:
    deltas = np.linspace(0.02, 1.98, DELTA_POINTS[bool(quick)])
    tables, parts = {}, []
    for key in TWO_TRANSITION_KEYS:
        link = paper_link(key)
        lam, r2, r3 = [], [], []
        for d in deltas:
            res = stability(link, repr(float(d)))
            lam.append(float(res.values["lambda_star"]))
            r2.append(float(res.jacobian_rates["contraction_rate_d2"]))
            r3.append(float(res.jacobian_rates["contraction_rate_d3plus"]))
        lam, r2 = np.asarray(lam), np.asarray(r2)
        tables[key] = {
            "delta": deltas,
            "lambda_star": lam,
            "rate_d2": r2,
            "rate_d3plus": np.asarray(r3),
        }
        gap = np.max(r2 - lam)
        parts.append(f"{key}: d = 2 rate exceeds lambda* by up to {gap:.3g}")
    return FigureData(
        tables,
        {"deltas": deltas.size, "tier": "float64"},
        "; ".join(parts) + " (lambda* = the d >= 3 rate)",
    )


def draw(data: FigureData):
    fig, axes = new_figure(1, 1, 7.0, 4.2)
    ax = axes[0, 0]
    for key in ("tt-stable", "tt-near-critical", "tt-unstable"):
        t = data.table(key)
        ax.plot(
            t["delta"],
            t["lambda_star"],
            color=link_color(key),
            lw=1.6,
            label=rf"{key}: $\lambda_\star$",
        )
        ax.plot(
            t["delta"],
            t["rate_d2"],
            color=link_color(key),
            lw=1.2,
            ls="--",
            label=f"{key}: exact rate, d = 2",
        )
    ax.axhline(0.0, color="0.3", lw=0.8)
    ax.set_xlabel(r"arm separation $\Delta$")
    ax.set_ylabel("local contraction rate")
    ax.legend(fontsize=7, ncol=1, loc="upper left")
    return fig
