"""Beyond the paper: what each repair of NBL does to each departure, exactly, and how the
regret of a repaired NBL grows.

Row 1 (exact, :func:`nbl_sim.beyond.repairs.analyze_repair`, tt-stable at Δ = 1): per repair
(plain NBL, whitened contexts — Σ known or estimated on the fly, the same population field —,
centred rewards, both), against the strength of a departure: the local rate at v* (> 0:
attracting) for N(0, Σ) with its major axis along θ and for the uniform cube as v* turns from an
axis to the diagonal; the learned boundary's angle to v* for a Σ tilted 30° from v* and for
shifted arms, where no candidate keeps v* an equilibrium.

Row 2 (simulation, :func:`nbl_sim.studies.repair_study.growth_study`; skipped with ``quick``):
the mean regret R_n (± 1.96 SE) of plain NBL, whitened NBL (known and running Σ̂) and Greedy
Logistic on a log grid of horizons, common random numbers, for N(0, Σ) of cond 3 with its
major axis along θ, and the growth model the regret-rate study's GLS fit picks for each.
"""

from __future__ import annotations

import numpy as np

from nbl_sim.beyond import parse_arms_spec, parse_context_spec
from nbl_sim.beyond.repairs import analyze_repair
from nbl_sim.studies.repair_study import growth_study
from nbl_theory.paper import paper_link

from ..style import new_figure, policy_color
from .base import FigureData

ID = "repairs"
LABEL = "beyond:repairs"
TITLE = "Repairs of NBL beyond the paper: which departure each repair fixes (exact) and regret"
CAPTION = (
    "Beyond the paper: whitened contexts and centred rewards restore an attracting v* "
    "under some departures; none restores v* under a tilted covariance or shifted arms."
)

LINK, DELTA = "tt-stable", "1"
REPAIRS = ("plain", "whitened", "centred", "whitened-centred")
_COLORS = {
    "plain": "#1f77b4",
    "whitened": "#2ca02c",
    "whitened-running": "#98df8a",
    "centred": "#d62728",
    "whitened-centred": "#9467bd",
}
#: panel -> (x label, full grid, quick grid, (law, arms) of a strength, quantity)
PANELS = {
    "covariance-along-theta": (
        "cond Sigma (major axis along theta)",
        [1, 1.5, 2, 3, 5, 10],
        [1, 3, 10],
        lambda s: (f"gaussian:cond={s:g},angle=90", "symmetric"),
        "rate",
    ),
    "cube-rotation": (
        "cube: angle of v* from an axis (deg)",
        [0, 10, 20, 30, 40, 45],
        [0, 45],
        lambda s: ("cube", f"rotate={s:g}" if s else "symmetric"),
        "rate",
    ),
    "covariance-tilted": (
        "cond Sigma (major axis 30 deg from v*)",
        [1, 1.5, 2, 3, 5, 10],
        [1, 3, 10],
        lambda s: (f"gaussian:cond={s:g},angle=30", "symmetric"),
        "angle",
    ),
    "shift": (
        "arm shift c",
        [0, 0.1, 0.2, 0.3, 0.4],
        [0, 0.4],
        lambda s: ("gaussian", f"shift={s:g}"),
        "angle",
    ),
}
GROWTH = {
    "law": "gaussian:cond=3,angle=90",
    "n_max": 10_000,
    "points": 6,
    "reps": 32,
    "n0": 1000,
    "t0": 1000.0,
}


def compute(quick: bool = False) -> FigureData:
    tables, parts = {}, []
    link = paper_link(LINK)
    for panel, (_, full, fast, spec, what) in PANELS.items():
        for rep in REPAIRS:
            cols = {"strength": [], "rate": [], "angle_deg": [], "regret": []}
            for s in fast if quick else full:
                law, arms = spec(float(s))
                r = analyze_repair(
                    parse_context_spec(law),
                    parse_arms_spec(arms, link, DELTA),
                    rep,
                    n_grid=360,
                    best_linear=(0.0, 0.0),
                )
                ok = r["verdict"] == "repaired"
                cols["strength"].append(float(s))
                cols["rate"].append(r["repaired_rate"] if r["vstar_equilibrium"] else np.nan)
                cols["angle_deg"].append(
                    0.0
                    if ok
                    else (r["learned_angle_deg"] if r["learned_angle_deg"] is not None else np.nan)
                )
                cols["regret"].append(0.0 if ok else (r["learned_regret"] or np.nan))
            tables[f"{panel}_{rep}"] = {k: np.asarray(v, dtype=float) for k, v in cols.items()}
            last = cols["rate" if what == "rate" else "angle_deg"][-1]
            parts.append(f"{panel} {rep}: {what} {last:+.3f} at {cols['strength'][-1]:g}")
    settings = {"link": LINK, "delta": DELTA, "d": 2, "n_grid": 360, "repairs": list(REPAIRS)}
    if not quick:
        g = growth_study(
            LINK,
            DELTA,
            GROWTH["law"],
            n_max=GROWTH["n_max"],
            points=GROWTH["points"],
            reps=GROWTH["reps"],
            n0=GROWTH["n0"],
            t0=GROWTH["t0"],
            seed=0,
            policies=("nbl", "whitened", "whitened-running", "centred", "greedy-logistic"),
        )
        for p, row in g["policies"].items():
            tables[f"growth_{p}"] = {
                "n": np.asarray(g["ns"], dtype=float),
                "regret_mean": np.asarray(row["regret_mean"]),
                "regret_se": np.asarray(row["regret_se"]),
            }
            parts.append(
                f"growth {p}: best model {row['best_model']}, log-log slope "
                f"{row['loglog_slope']['slope']:.2f}"
            )
        settings["growth"] = {
            **GROWTH,
            "seed": 0,
            "gamma": 10.0,
            "best_model": {p: r["best_model"] for p, r in g["policies"].items()},
        }
    return FigureData(tables, settings, "; ".join(parts))


def draw(data: FigureData):
    panels = list(PANELS)
    growth = [n for n in data.tables if n.startswith("growth_")]
    fig, axes = new_figure(
        2 if growth else 1, len(panels), 3.6 * len(panels), 6.4 if growth else 3.4
    )
    axes = np.asarray(axes).reshape(2 if growth else 1, len(panels))
    top = axes[0]
    for j, panel in enumerate(panels):
        what = PANELS[panel][4]
        for rep in REPAIRS:
            t = data.table(f"{panel}_{rep}")
            top[j].plot(
                t["strength"],
                t["rate" if what == "rate" else "angle_deg"],
                "o-",
                ms=3,
                color=_COLORS[rep],
                label=rep,
            )
        top[j].axhline(0.0, color="0.4", lw=0.8)
        top[j].set_title(panel, fontsize=9)
        top[j].set_xlabel(PANELS[panel][0], fontsize=8)
        top[j].set_ylabel(
            "local rate at v* (> 0 attracting)"
            if what == "rate"
            else "learned boundary: angle to v* (deg)",
            fontsize=8,
        )
    top[0].legend(fontsize=7)
    if growth:
        ax = axes[1][0]
        for name in growth:
            p = name[len("growth_") :]
            t = data.table(name)
            col = policy_color(p) or _COLORS.get(p, "0.3")
            ax.errorbar(
                t["n"],
                t["regret_mean"],
                yerr=1.96 * t["regret_se"],
                fmt="o-",
                ms=3,
                color=col,
                label=p,
            )
        ax.set_xscale("log")
        ax.set_xlabel("horizon n (Sigma cond 3 along theta)", fontsize=8)
        ax.set_ylabel("mean regret R_n", fontsize=8)
        ax.legend(fontsize=7)
        for ax in axes[1][1:]:
            ax.axis("off")
    return fig
