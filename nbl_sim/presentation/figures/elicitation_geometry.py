"""fig:app-elicitation-geometry — potential φ_ρ and dual map z = φ_ρ'(m) of the weighted entropy.

The potential is the library's :func:`nbl_theory.elicitation.weighted_entropy_potential`
(app:elicitation-geometry), differentiated symbolically and evaluated on a grid of m in (0, 1)
for ρ ∈ {0, 0.2, 0.4, 0.6, 0.8}.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from nbl_theory.elicitation import M, weighted_entropy_potential
from nbl_theory.paper import RHO_SWEEP

from ..style import link_color, new_figure
from .base import FigureData

ID = "elicitation-geometry"
LABEL = "fig:app-elicitation-geometry"
TITLE = "Elicitation geometry of the weighted negative-entropy family"
CAPTION = (
    "Panel (a) shows the weighted negative-entropy potential phi_rho and panel (b) the dual map "
    "z = phi_rho'(m); the induced link g_rho = (phi_rho')^{-1} is shown in "
    "fig:numerical-summary(e)."
)

RHOS = RHO_SWEEP


def _key(rho: str) -> str:
    return f"we-{rho}"


def compute(quick: bool = False) -> FigureData:
    n = 201 if quick else 2001
    eps = 1e-3
    m = np.linspace(eps, 1 - eps, n)
    tables = {}
    checks = []
    for rho in RHOS:
        phi = weighted_entropy_potential(sp.Rational(rho))
        d1, d2 = sp.diff(phi, M), sp.diff(phi, M, 2)
        f0, f1 = (sp.lambdify(M, e, "numpy") for e in (phi, d1))
        tables[_key(rho)] = {"m": m, "phi": f0(m), "dual_z": f1(m)}
        half = sp.Rational(1, 2)
        checks.append((float(d1.subs(M, half)), float(d2.subs(M, half))))
    z0 = max(abs(c[0]) for c in checks)
    c2 = max(abs(c[1] - 4) for c in checks)
    summary = (
        f"for rho in {{{', '.join(RHOS)}}} the dual maps all pass through (m, z) = (1/2, 0) "
        f"(max |phi_rho'(1/2)| = {z0:.1e}) with common slope phi_rho''(1/2) = 4 "
        f"(max deviation {c2:.1e}); the potentials differ in asymmetry, z ranges "
        f"[{min(t['dual_z'].min() for t in tables.values()):.2f}, "
        f"{max(t['dual_z'].max() for t in tables.values()):.2f}] on m in [{eps}, {1 - eps}]"
    )
    settings = {"rho": list(RHOS), "m_grid": [eps, 1 - eps, n]}
    return FigureData(tables=tables, settings=settings, summary=summary)


def draw(data: FigureData):
    fig, axes = new_figure(1, 2, width=9.0, height=3.8)
    ax_a, ax_b = axes[0]
    for rho in data.settings["rho"]:
        t = data.table(_key(rho))
        kw = {"color": link_color(_key(rho)), "label": rf"$\rho={rho}$", "lw": 1.6}
        ax_a.plot(t["m"], t["phi"], **kw)
        ax_b.plot(t["m"], t["dual_z"], **kw)
    ax_a.set_xlabel(r"$m$")
    ax_a.set_ylabel(r"$\varphi_\rho(m)$")
    ax_a.set_title("(a) Elicitation potential")
    ax_b.set_xlabel(r"$m$")
    ax_b.set_ylabel(r"$z=\varphi_\rho'(m)$")
    ax_b.set_title("(b) Dual map")
    ax_b.axhline(0, color="0.7", lw=0.8, zorder=0)
    ax_b.axvline(0.5, color="0.7", lw=0.8, zorder=0)
    ax_b.set_ylim(-8, 8)
    for ax in (ax_a, ax_b):
        ax.legend(fontsize=8, frameon=False)
        ax.grid(alpha=0.3)
    return fig
