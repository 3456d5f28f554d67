"""Beyond the paper: the equilibrium bias and its regret per round against the strength of a
departure from the paper's model.

prop:population_equilibrium makes v* an equilibrium of greedy NBL for the paper's model. Off it
— a covariance Σ tilted against v* (cond Σ growing, major axis 30° from v*), asymmetric arms
β_± = θ + (Δ/2 ± c)v*, an intercept c on arm +1 (per-arm links) — the population flow from v*
reaches another boundary (:func:`nbl_sim.beyond.analyze`, the learned boundary): panel row 1
shows its signed angle to v*, row 2 its regret per round E[max_a m_a(X) − m_{sgn(v̄ᵀX)}(X)]
and, dashed, the regret of the best linear boundary (zero for a shared link, where v* is
optimal; positive with an intercept, where no boundary through 0 is optimal).
"""

from __future__ import annotations

import numpy as np

from nbl_sim.beyond import analyze, parse_arms_spec, parse_context_spec
from nbl_theory.paper import paper_link

from ..style import link_color, new_figure
from .base import FigureData

ID = "bias-angle"
LABEL = "prop:population_equilibrium"
TITLE = "Equilibrium bias and its regret per round vs the departure's strength (beyond the paper)"
CAPTION = (
    "prop:population_equilibrium: v* is an equilibrium of the population dynamics for "
    "Gaussian contexts, symmetric arms and one link."
)

DELTA = "1"
#: departure -> (label of the strength, full grid, quick grid, (law, arms) from a strength)
DEPARTURES = {
    "covariance": (
        "cond Sigma (axis 30 deg from v*)",
        np.linspace(1, 10, 10),
        [1, 2, 4, 10],
        lambda s: (f"gaussian:cond={s:g},angle=30", "symmetric"),
    ),
    "shift": (
        "arm shift c (a+- = Delta/2 +- c)",
        np.linspace(0, 0.45, 10),
        [0, 0.15, 0.3, 0.45],
        lambda s: ("gaussian", f"shift={s:g}"),
    ),
    "intercept": (
        "intercept c on arm +1",
        np.linspace(0, 0.5, 11),
        [0, 0.15, 0.3, 0.5],
        lambda s: ("gaussian", f"intercept={s:g}"),
    ),
}
LINKS, QUICK_LINKS = ("tt-stable", "tt-unstable", "we-0.72"), ("tt-stable",)


def compute(quick: bool = False) -> FigureData:
    tables, parts = {}, []
    for dep, (_, full, fast, spec) in DEPARTURES.items():
        for key in QUICK_LINKS if quick else LINKS:
            link = paper_link(key)
            cols = {
                k: []
                for k in (
                    "strength",
                    "bias_deg",
                    "regret",
                    "best_linear_regret",
                    "rate",
                    "vstar_equilibrium",
                )
            }
            for s in fast if quick else full:
                law, arms = spec(float(s))
                a = analyze(parse_context_spec(law), parse_arms_spec(arms, link, DELTA), n_grid=360)
                cols["strength"].append(float(s))
                cols["bias_deg"].append(a.bias_deg if a.learned else np.nan)
                cols["regret"].append(a.learned.regret if a.learned else np.nan)
                cols["best_linear_regret"].append(a.best_linear_regret)
                cols["rate"].append(a.learned.rate if a.learned else np.nan)
                cols["vstar_equilibrium"].append("yes" if a.vstar_equilibrium else "no")
            tables[f"{dep}_{key}"] = {k: np.asarray(v) for k, v in cols.items()}
            parts.append(
                f"{dep} {key}: bias {cols['bias_deg'][-1]:+.2f} deg, regret "
                f"{cols['regret'][-1]:.2e}/round at {cols['strength'][-1]:g}"
            )
    settings = {
        "delta": DELTA,
        "d": 2,
        "n_grid": 360,
        "links": list(QUICK_LINKS if quick else LINKS),
        "method": "nbl_sim.beyond.analyze (learned boundary: the attracting "
        "equilibrium the population flow reaches from v*)",
    }
    return FigureData(tables, settings, "; ".join(parts))


def draw(data: FigureData):
    deps = list(DEPARTURES)
    fig, axes = new_figure(2, len(deps), 4.0 * len(deps), 6.4)
    for j, dep in enumerate(deps):
        for name in data.tables:
            if not name.startswith(dep + "_"):
                continue
            key = name[len(dep) + 1 :]
            t = data.table(name)
            axes[0, j].plot(
                t["strength"], t["bias_deg"], "o-", color=link_color(key), ms=3, label=key
            )
            axes[1, j].plot(t["strength"], t["regret"], "o-", color=link_color(key), ms=3)
            axes[1, j].plot(
                t["strength"], t["best_linear_regret"], "--", color=link_color(key), lw=1
            )
        axes[0, j].axhline(0.0, color="0.4", lw=0.8)
        axes[0, j].set_title(dep, fontsize=10)
        axes[1, j].set_xlabel(DEPARTURES[dep][0], fontsize=8)
    axes[0, 0].set_ylabel("learned boundary: angle to v* (deg)")
    axes[1, 0].set_ylabel("regret per round (dashed: best linear)")
    axes[0, 0].legend(fontsize=7)
    return fig
