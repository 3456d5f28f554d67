"""Beyond the paper: the global population field H(α) on the whole circle (d = 2).

fig:local-stability-2d is a sketch of the restoring condition αH(α) < 0 near v*. Here the real
field H(α) = v⊥(α)ᵀF(v(α)) (eq:H-alpha) is computed by quadrature for the three two-transition
links at Δ = 0.2, with every zero on the circle and its stability (H' < 0: attracting).
"""

from __future__ import annotations

import numpy as np

from nbl_sim.population import fields as pop
from nbl_sim.population.circle import circle_equilibria
from nbl_theory.paper import TWO_TRANSITION_KEYS, paper_link

from ..style import link_color, new_figure
from .base import FigureData

ID = "global-field"
LABEL = "fig:local-stability-2d"
TITLE = "Global population field H(alpha) in d = 2 (beyond the paper's sketch)"
CAPTION = (
    "Near v*, restoring motion requires alpha H(alpha) < 0 (the paper draws this as a "
    "sketch, not from a computed field)."
)


def compute(quick: bool) -> FigureData:
    delta = "0.2"
    n = 721 if quick else 2881
    alpha = np.linspace(-np.pi, np.pi, n)
    tables, zeros, parts = {}, {"link": [], "alpha_deg": [], "dH": [], "stability": []}, []
    for key in TWO_TRANSITION_KEYS:
        link = paper_link(key)
        tables[key] = {"alpha_deg": np.degrees(alpha), "H": pop.H_alpha(link, delta, alpha)}
        eqs = circle_equilibria(link, delta, n_grid=720 if quick else 3600)
        att = []
        for e in eqs:
            zeros["link"].append(key)
            zeros["alpha_deg"].append(e.degrees)
            zeros["dH"].append(e.dH)
            zeros["stability"].append(e.stability)
            if e.stability == "attracting":
                att.append(f"{round(e.degrees, 1) + 0.0:.1f}")
        parts.append(f"{key}: attracting at {', '.join(att)} deg")
    tables["zeros"] = {k: np.asarray(v) for k, v in zeros.items()}
    return FigureData(
        tables,
        {
            "delta": delta,
            "d": 2,
            "alpha_points": n,
            "method": "nbl_sim.population.fields.H_alpha (quadrature ~1e-15)",
        },
        "; ".join(parts) + " (v* = 0 deg)",
    )


def draw(data: FigureData):
    fig, axes = new_figure(1, 1, 7.5, 4.2)
    ax = axes[0, 0]
    z = data.table("zeros")
    # concentric markers (largest first) so zeros shared by several links stay visible
    for key, ms in (("tt-stable", 11), ("tt-near-critical", 7.5), ("tt-unstable", 4.5)):
        t = data.table(key)
        ax.plot(t["alpha_deg"], t["H"], color=link_color(key), lw=1.5, label=key)
        sel = z["link"] == key
        for a, st in zip(z["alpha_deg"][sel], z["stability"][sel]):
            for x in [a, -a] if abs(abs(a) - 180) < 1e-9 else [a]:  # ±180° is one point
                ax.plot(
                    [x],
                    [0.0],
                    "o",
                    color=link_color(key),
                    ms=ms,
                    mew=1.5,
                    zorder=3,
                    mfc=link_color(key) if st == "attracting" else "white",
                )
    ax.axhline(0.0, color="0.3", lw=0.8)
    ax.set_xlabel(r"signed angle $\alpha$ from $v^\star$ (deg)")
    ax.set_ylabel(r"$H(\alpha)$  (eq:H-alpha)")
    ax.set_xticks(np.arange(-180, 181, 45))
    ax.set_title(r"$\Delta = 0.2$: filled = attracting zero, open = repelling", fontsize=10)
    ax.legend(loc="upper right", fontsize=8)
    return fig
