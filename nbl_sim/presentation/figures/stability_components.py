"""fig:app-stability-components — the two half-scaled contributions to λ* at Δ = 0.2 against ρ.

λ* = Δμ* − 2φ0(0)(m2)+(1 − Δ²/4) (eq:decision_stability), so λ* = 0 exactly where the
half-scaled restoring contribution (Δ/2)μ* equals the curvature contribution
φ0(0)(m2)+(1 − Δ²/4). Both are computed from the library's float64 Gaussian moments of the
weighted-entropy link g_ρ on a ρ grid; the crossing is marked with the root of λ* = 0 from
:func:`nbl_theory.threshold.find_thresholds` (Arb-certified bracket).
"""

from __future__ import annotations

import numpy as np

from nbl_theory import Link
from nbl_theory.families import make_family
from nbl_theory.gaussian import moments_float
from nbl_theory.numeric import PHI0
from nbl_theory.paper import PAPER_LINKS, REFERENCE_DELTA, WEIGHTED_ENTROPY_KEYS
from nbl_theory.threshold import find_thresholds

from ..style import link_color, new_figure
from .base import FigureData

ID = "stability-components"
LABEL = "fig:app-stability-components"
TITLE = "Components of the decision stability coefficient at Delta = 0.2"
CAPTION = (
    "At Delta = 0.2 the half-scaled restoring contribution (Delta/2) mu* and the curvature "
    "contribution phi0(0)(m2)_+(1 - Delta^2/4) of the weighted-entropy links cross where "
    "lambda* = 0 (near rho = 0.72)."
)

DELTA = REFERENCE_DELTA
RHO_RANGE = ("0", "0.95")
#: the paper's stable / near-critical / unstable examples of app:elicitation-geometry
MARKED = tuple(PAPER_LINKS[k].params["rho"] for k in WEIGHTED_ENTROPY_KEYS)


def _build(rho: str) -> Link:
    return make_family("weighted-entropy", rho=rho)


def _components(rho: str, delta: float) -> tuple:
    mom = moments_float(_build(rho), delta)
    mu_star, m2 = mom["mu_star"].value, mom["m2"].value
    restoring = 0.5 * delta * mu_star
    curvature = PHI0 * max(m2, 0.0) * (1.0 - delta * delta / 4.0)
    return mu_star, m2, restoring, curvature


def compute(quick: bool = False) -> FigureData:
    delta = float(DELTA)
    n = 39 if quick else 191
    rhos = np.linspace(float(RHO_RANGE[0]), float(RHO_RANGE[1]), n)
    cols = np.array([_components(f"{r:.6f}", delta) for r in rhos])
    diff = cols[:, 2] - cols[:, 3]
    # crossing read off the grid (linear interpolation of restoring - curvature)
    idx = np.flatnonzero(diff[:-1] * diff[1:] < 0)
    grid_cross = [
        float(rhos[i] - diff[i] * (rhos[i + 1] - rhos[i]) / (diff[i + 1] - diff[i])) for i in idx
    ]
    # the theory core's threshold solver: every root of lambda* = 0 for rho in the range
    res = find_thresholds(
        _build,
        "rho",
        delta=DELTA,
        bracket=RHO_RANGE,
        grid=20 if quick else 96,
        certify=True,
        label="weighted-entropy",
    )
    roots = res.roots
    marked = np.array([_components(r, delta) for r in MARKED])
    tables = {
        "components": {
            "rho": rhos,
            "mu_star": cols[:, 0],
            "m2": cols[:, 1],
            "restoring_half": cols[:, 2],
            "curvature_half": cols[:, 3],
            "lambda_star": 2.0 * diff,
        },
        "marked_links": {
            "rho": np.array([float(r) for r in MARKED]),
            "restoring_half": marked[:, 2],
            "curvature_half": marked[:, 3],
            "lambda_star": 2.0 * (marked[:, 2] - marked[:, 3]),
        },
        "threshold": {
            "rho": np.array([float(r.value) for r in roots]),
            "bracket_lo": np.array([float(r.bracket[0]) for r in roots]),
            "bracket_hi": np.array([float(r.bracket[1]) for r in roots]),
            "certified": np.array([bool(r.certified) for r in roots]),
        },
    }
    if roots:
        r0 = roots[0]
        gc = f"{grid_cross[0]:.5f}" if grid_cross else "none"
        summary = (
            f"at Delta = {DELTA} the two half-scaled contributions cross once in rho in "
            f"[{RHO_RANGE[0]}, {RHO_RANGE[1]}]: threshold solver rho* = {r0.value} "
            f"({'certified' if r0.certified else 'uncertified'} bracket "
            f"[{r0.bracket[0]}, {r0.bracket[1]}]), grid interpolation {gc}; restoring "
            f"(Delta/2)mu* spans [{cols[:, 2].min():.4f}, {cols[:, 2].max():.4f}] while the "
            f"curvature term spans [{cols[:, 3].min():.4f}, {cols[:, 3].max():.4f}]; "
            f"lambda* at rho = {', '.join(MARKED)}: "
            + ", ".join(f"{v:.3g}" for v in tables["marked_links"]["lambda_star"])
        )
    else:
        summary = f"no crossing of the two contributions found for rho in {RHO_RANGE}"
    settings = {
        "delta": DELTA,
        "rho_grid": [RHO_RANGE[0], RHO_RANGE[1], n],
        "threshold_scan_points": res.grid_points,
        "threshold_notes": res.notes,
        "grid_crossings": grid_cross,
        "moments": "float64 (nbl_theory.gaussian.moments_float)",
    }
    return FigureData(tables=tables, settings=settings, summary=summary)


def draw(data: FigureData):
    fig, axes = new_figure(1, 1, width=5.2, height=3.8)
    ax = axes[0][0]
    t = data.table("components")
    ax.plot(
        t["rho"],
        t["restoring_half"],
        color="#1f77b4",
        lw=1.8,
        label=r"restoring $(\Delta_\beta/2)\mu^\star$",
    )
    ax.plot(
        t["rho"],
        t["curvature_half"],
        color="#d62728",
        lw=1.8,
        ls="--",
        label=r"curvature $\phi_0(0)(m_2)_+(1-\Delta_\beta^2/4)$",
    )
    mk = data.table("marked_links")
    for rho, y in zip(mk["rho"], mk["curvature_half"]):
        key = f"we-{rho:.2f}"
        ax.plot([rho], [y], "o", color=link_color(key), ms=5, zorder=3, label=rf"$\rho={rho:.2f}$")
    th = data.table("threshold")
    for i, rho in enumerate(th["rho"]):
        ax.axvline(
            rho,
            color="0.3",
            lw=0.9,
            ls=":",
            label=rf"$\lambda_\star=0$: $\rho={rho:.6f}$" if i == 0 else None,
        )
    ax.set_xlabel(r"$\rho$")
    ax.set_ylabel("contribution")
    ax.set_title(rf"Weighted entropy, $\Delta_\beta={data.settings['delta']}$")
    ax.legend(fontsize=7.5, frameon=False, loc="lower right")
    ax.grid(alpha=0.3)
    return fig
