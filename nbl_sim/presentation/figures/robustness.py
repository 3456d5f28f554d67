"""Beyond the paper: the robustness grid — does the Gaussian stability prediction survive other
context laws and arms?

The paper's prediction is the sign of λ* (eq:decision_stability): v* attracts NBL iff λ* > 0,
under assum:gaussian_context (X ~ N(0, I)), symmetric arms and one link. For the paper's named
links at Δ ∈ {0.2, 1} every departure cell of :mod:`nbl_sim.beyond.robustness` (an anisotropic
N(0, Σ), Student-t, asymmetric arms, an intercept on one arm, the ball / cube / Rademacher with
v* along an axis, a diagonal or in between, two scikit-learn datasets) is analysed exactly
(:func:`nbl_sim.beyond.robustness.run_cell`) and classified
(:func:`nbl_sim.beyond.robustness.classify_row`):

* ``agrees`` — v* is still an equilibrium and the sign of its exact local rate is λ*'s;
* ``sign-flip`` — v* is an equilibrium but its exact rate has the other sign (beyond error);
* ``biased`` — v* is no longer an equilibrium (beyond error) and the learned boundary is more
  than 1° from it;
* ``small-bias`` — v* is not an equilibrium but the learned boundary is within 1° (or the
  bias is not decided);
* ``undecided`` — a sign the model's error (Monte Carlo for the datasets) cannot decide.

The quick version runs a 13-cell subset on the three two-transition links; the full version
the whole default grid (six links, 636 cells, a few minutes on one core).
"""

from __future__ import annotations

import math

import numpy as np

from nbl_sim.beyond.robustness import (
    VERDICTS,
    RobustnessCell,
    classify_row,
    default_grid,
    run_cell,
)
from nbl_theory.paper import PAPER_LINKS, TWO_TRANSITION_KEYS

from ..style import new_figure
from .base import FigureData

ID = "robustness-grid"
LABEL = "assum:gaussian_context"
TITLE = (
    "Robustness grid: sign of the Gaussian lambda* vs the exact local rate at v* (beyond the paper)"
)
CAPTION = (
    "The paper predicts that v* attracts NBL iff lambda* > 0 (eq:decision_stability), "
    "for isotropic Gaussian contexts, symmetric arms and one link "
    "(assum:gaussian_context)."
)

COLORS = {
    "agrees": "#55a868",
    "sign-flip": "#c44e52",
    "biased": "#dd8452",
    "small-bias": "#ccb974",
    "undecided": "0.7",
}
DEPARTURE_ORDER = ("covariance", "student-t", "shift", "intercept", "shape", "dataset")
BIAS_DEG = 1.0

#: quick subset: (departure, law, arms, strength)
_QUICK = (
    ("covariance", "gaussian:cond=3,angle=0", "symmetric", "cond=3,angle=0"),
    ("covariance", "gaussian:cond=3,angle=45", "symmetric", "cond=3,angle=45"),
    ("covariance", "gaussian:cond=3,angle=90", "symmetric", "cond=3,angle=90"),
    ("student-t", "student-t:nu=3", "symmetric", "nu=3"),
    ("student-t", "student-t:nu=10", "symmetric", "nu=10"),
    ("shift", "gaussian", "shift=0.1", "shift=0.1"),
    ("shift", "gaussian", "shift=0.4", "shift=0.4"),
    ("intercept", "gaussian", "intercept=0.1", "intercept=0.1"),
    ("intercept", "gaussian", "intercept=0.5", "intercept=0.5"),
    ("shape", "cube", "symmetric", "cube,rotate=0"),
    ("shape", "cube", "rotate=45", "cube,rotate=45"),
    ("shape", "rademacher", "symmetric", "rademacher,rotate=0"),
    ("shape", "rademacher", "rotate=22.5", "rademacher,rotate=22.5"),
)


def _cells(quick: bool) -> list:
    if not quick:
        return default_grid()
    return [
        RobustnessCell(k, dl, law, arms, dep, strength)
        for k in TWO_TRANSITION_KEYS
        for dl in ("0.2", "1")
        for dep, law, arms, strength in _QUICK
    ]


def _num(x) -> float:
    return math.nan if x is None else float(x)


def compute(quick: bool = False) -> FigureData:
    rows = [run_cell(c) for c in _cells(quick)]
    cols = {
        k: []
        for k in (
            "link",
            "delta",
            "departure",
            "strength",
            "lambda_star",
            "gaussian_rate_d2",
            "exact_rate",
            "vstar_stability",
            "learned_angle_deg",
            "learned_regret",
            "method",
            "verdict",
        )
    }
    for r in rows:
        v = classify_row(r, BIAS_DEG)
        for k, x in (
            ("link", r["link"]),
            ("delta", r["delta"]),
            ("departure", r["departure"]),
            ("strength", r["strength"]),
            ("lambda_star", r["lambda_star"]),
            ("gaussian_rate_d2", r["gaussian_rate_d"]),
            ("exact_rate", r["vstar_rate"] if r["vstar_equilibrium"] else None),
            ("vstar_stability", r["vstar_stability"]),
            ("learned_angle_deg", r["learned_angle_deg"]),
            ("learned_regret", r["learned_regret"]),
            ("method", r["method"]),
            ("verdict", v),
        ):
            cols[k].append(
                _num(x)
                if k
                in (
                    "lambda_star",
                    "gaussian_rate_d2",
                    "exact_rate",
                    "learned_angle_deg",
                    "learned_regret",
                )
                else x
            )
    tables = {"cells": {k: np.asarray(v) for k, v in cols.items()}}
    counts = {v: int(np.sum(tables["cells"]["verdict"] == v)) for v in VERDICTS}
    per = []
    for dep in DEPARTURE_ORDER:
        sel = tables["cells"]["departure"] == dep
        if sel.any():
            bad = int(np.sum(np.isin(tables["cells"]["verdict"][sel], ("sign-flip", "biased"))))
            per.append(f"{dep} {bad}/{int(sel.sum())}")
    summary = (
        f"{len(rows)} cells: "
        + ", ".join(f"{counts[v]} {v}" for v in VERDICTS)
        + "; mispredicted (sign-flip or biased) per departure: "
        + ", ".join(per)
    )
    settings = {
        "links": sorted({c.link for c in _cells(quick)}),
        "deltas": ["0.2", "1"],
        "bias_threshold_deg": BIAS_DEG,
        "n_grid": 720,
        "d": 2,
        "method": "nbl_sim.beyond.robustness.run_cell (exact analysis per cell)",
    }
    return FigureData(tables, settings, summary)


def draw(data: FigureData):
    t = data.table("cells")
    deps = [d for d in DEPARTURE_ORDER if np.any(t["departure"] == d)]
    ncol = min(3, len(deps))
    nrow = math.ceil(len(deps) / ncol)
    fig, axes = new_figure(nrow, ncol, 4.2 * ncol, 3.6 * nrow)
    rows = [
        (k, dl)
        for k in PAPER_LINKS
        for dl in ("0.2", "1")
        if np.any((t["link"] == k) & (t["delta"] == dl))
    ]
    for i, dep in enumerate(deps):
        ax = axes[i // ncol, i % ncol]
        sel = t["departure"] == dep
        strengths = list(dict.fromkeys(t["strength"][sel].tolist()))
        for j, (k, dl) in enumerate(rows):
            for x, s in enumerate(strengths):
                m = sel & (t["link"] == k) & (t["delta"] == dl) & (t["strength"] == s)
                if not m.any():
                    continue
                idx = int(np.flatnonzero(m)[0])
                v = t["verdict"][idx]
                marker = "^" if t["lambda_star"][idx] > 0 else "v"
                ax.plot([x], [j], marker, color=COLORS[v], ms=8, mec="0.2", mew=0.5)
        ax.set_xticks(range(len(strengths)))
        ax.set_xticklabels(strengths, rotation=60, ha="right", fontsize=6)
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([f"{k} D={dl}" for k, dl in rows], fontsize=6)
        ax.set_xlim(-0.6, len(strengths) - 0.4)
        ax.set_ylim(-0.6, len(rows) - 0.4)
        ax.set_title(dep, fontsize=9)
    for i in range(len(deps), nrow * ncol):
        axes[i // ncol, i % ncol].axis("off")
    handles = [axes[0, 0].plot([], [], "s", color=COLORS[v], label=v)[0] for v in VERDICTS]
    handles += [
        axes[0, 0].plot([], [], "^", color="0.5", label="lambda* > 0")[0],
        axes[0, 0].plot([], [], "v", color="0.5", label="lambda* < 0")[0],
    ]
    fig.legend(handles=handles, loc="outside lower center", ncol=7, fontsize=7, frameon=False)
    return fig
