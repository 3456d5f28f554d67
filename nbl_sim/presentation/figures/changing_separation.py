"""fig:tanh-changing-separation — a fixed link's g', g'' under the U densities of three separations.

The two-transition link with mu2 = 1.244122 (locally unstable at Δ = 0.2) is held fixed; its
sensitivity g' and curvature g'' are overlaid with the densities of U ~ N(0, 1 − Δ²/4) for
Δ ∈ {0.2, 1.0, 1.8}, all multiplied by one common factor (chosen so the tallest density reaches
a set fraction of the panel's curve height); in panel (b) the densities are also reflected about
zero, for visual reference only. The population quantities μ*, m2 and λ* at each Δ come from the
library (float64 Gaussian moments).
"""

from __future__ import annotations

import math

import numpy as np

from nbl_theory.families import make_family
from nbl_theory.gaussian import moments_float
from nbl_theory.paper import PAPER_LINKS
from nbl_theory.stability import lambda_star_float

from ..style import LINK_NAMES, link_color, new_figure
from .base import FigureData

ID = "tanh-changing-separation"
LABEL = "fig:tanh-changing-separation"
TITLE = "Effect of arm separation on the population weighting of a fixed link"
CAPTION = (
    "The mu2 = 1.244122 link (locally unstable at Delta = 0.2) is held fixed while the density "
    "of U ~ N(0, 1 - Delta^2/4) for Delta = 0.2, 1.0, 1.8, rescaled by a common factor, is "
    "overlaid on g' (a) and on g'' (b, reflected about zero)."
)

LINK_KEY = "tt-unstable"
MU2 = PAPER_LINKS[LINK_KEY].params["mu2"]
DELTAS = ("0.2", "1.0", "1.8")
DELTA_COLORS = {"0.2": "#4c72b0", "1.0": "#55a868", "1.8": "#8172b3"}
Z_RANGE = (-4.0, 4.0)
#: tallest rescaled density as a fraction of max |g'| (panel a) and max |g''| (panel b)
DENSITY_FRACTION = 0.8


def compute(quick: bool = False) -> FigureData:
    n = 401 if quick else 2001
    z = np.linspace(*Z_RANGE, n)
    link = make_family("two-transition", mu2=MU2)
    g1 = np.asarray(link.derivative_numpy(z, 1), dtype=float)
    g2 = np.asarray(link.derivative_numpy(z, 2), dtype=float)
    dens = {}
    for d in DELTAS:
        s = math.sqrt(1.0 - float(d) ** 2 / 4.0)
        dens[d] = np.exp(-0.5 * (z / s) ** 2) / (s * math.sqrt(2.0 * math.pi))
    top = max(v.max() for v in dens.values())
    scale_a = DENSITY_FRACTION * np.abs(g1).max() / top
    scale_b = DENSITY_FRACTION * np.abs(g2).max() / top
    tables = {"link": {"z": z, "g1": g1, "g2": g2}}
    for d in DELTAS:
        tables[f"density_delta_{d}"] = {
            "z": z,
            "density": dens[d],
            "scaled_for_g1": scale_a * dens[d],
            "scaled_for_g2": scale_b * dens[d],
        }
    pop = {"delta": [], "sd_U": [], "mu_star": [], "m2": [], "lambda_star": []}
    for d in DELTAS:
        mom = moments_float(link, float(d))
        pop["delta"].append(float(d))
        pop["sd_U"].append(math.sqrt(1.0 - float(d) ** 2 / 4.0))
        pop["mu_star"].append(mom["mu_star"].value)
        pop["m2"].append(mom["m2"].value)
        pop["lambda_star"].append(lambda_star_float(link, float(d)))
    tables["population"] = {k: np.asarray(v) for k, v in pop.items()}
    summary = (
        f"for the mu2 = {MU2} link, as Delta goes {' -> '.join(DELTAS)} the sd of U shrinks "
        + " -> ".join(f"{v:.3f}" for v in pop["sd_U"])
        + ", m2 = E g''(U) moves "
        + " -> ".join(f"{v:.4f}" for v in pop["m2"])
        + ", mu* "
        + " -> ".join(f"{v:.4f}" for v in pop["mu_star"])
        + " and lambda* "
        + " -> ".join(f"{v:.3g}" for v in pop["lambda_star"])
        + f"; g'' changes sign on z in {Z_RANGE} at "
        + ", ".join(f"{x:.3f}" for x in z[:-1][np.diff(np.sign(g2)) != 0])
    )
    settings = {
        "mu2": MU2,
        "deltas": list(DELTAS),
        "z_grid": [Z_RANGE[0], Z_RANGE[1], n],
        "density_common_factor_panel_a": float(scale_a),
        "density_common_factor_panel_b": float(scale_b),
        "density_fraction": DENSITY_FRACTION,
    }
    return FigureData(tables=tables, settings=settings, summary=summary)


def draw(data: FigureData):
    fig, axes = new_figure(1, 2, width=9.6, height=4.4)
    ax_a, ax_b = axes[0]
    lk = data.table("link")
    color = link_color(LINK_KEY)
    name = LINK_NAMES.get(LINK_KEY, rf"$\mu_2={data.settings['mu2']}$")
    for d in data.settings["deltas"]:
        t = data.table(f"density_delta_{d}")
        c = DELTA_COLORS.get(d, "0.5")
        lab = rf"$U$ density, $\Delta_\beta={d}$"
        ax_a.fill_between(t["z"], 0.0, t["scaled_for_g1"], color=c, alpha=0.18, lw=0)
        ax_a.plot(t["z"], t["scaled_for_g1"], color=c, lw=0.9, label=lab)
        ax_b.fill_between(
            t["z"], -t["scaled_for_g2"], t["scaled_for_g2"], color=c, alpha=0.15, lw=0
        )
        ax_b.plot(t["z"], t["scaled_for_g2"], color=c, lw=0.9, label=lab)
        ax_b.plot(t["z"], -t["scaled_for_g2"], color=c, lw=0.9)
    ax_a.plot(lk["z"], lk["g1"], color=color, lw=2.0, label=rf"$g'(z)$, {name}")
    ax_b.plot(lk["z"], lk["g2"], color=color, lw=2.0, label=rf"$g''(z)$, {name}")
    ax_b.axhline(0.0, color="0.5", lw=0.8, zorder=0)
    ax_a.set_xlabel(r"$z$")
    ax_a.set_ylabel(r"$g'(z)$")
    ax_a.set_title(r"(a) Link sensitivity $g'(z)$")
    ax_b.set_xlabel(r"$z$")
    ax_b.set_ylabel(r"$g''(z)$")
    ax_b.set_title(r"(b) Link curvature $g''(z)$")
    for ax in (ax_a, ax_b):
        ax.grid(alpha=0.3)
    handles, labels = ax_a.get_legend_handles_labels()
    h_b, l_b = ax_b.get_legend_handles_labels()
    fig.legend(
        handles + h_b[-1:],
        labels + l_b[-1:],
        loc="outside lower center",
        ncol=3,
        fontsize=8,
        frameon=False,
    )
    return fig
