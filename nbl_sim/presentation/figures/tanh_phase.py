"""fig:app-tanh-phase — (mu2, Δ) decision-stability phase diagram of the two-transition family.

λ* (eq:decision_stability) is evaluated in float64 (:func:`nbl_theory.stability.lambda_star_float`)
on a (mu2, Δ) grid of the two-transition link (eq:link_tanh); the region λ* < 0 is shaded and the
λ* = 0 curve is the zero contour of the grid (contourpy, linear interpolation). Where the grid is
coarse the curve is pinned by exact points from :func:`nbl_theory.threshold.find_thresholds`:
roots in mu2 at fixed Δ (including the reference Δ = 0.2) and roots in Δ at fixed mu2 (which
resolve the top of the unstable region, where the two mu2 roots merge).
"""

from __future__ import annotations

import numpy as np

from nbl_sim.studies.phase import phase_diagram, threshold_scan
from nbl_theory import Link
from nbl_theory.continuation import trace_zero_curve
from nbl_theory.families import make_family
from nbl_theory.paper import PAPER_LINKS, REFERENCE_DELTA, TWO_TRANSITION_KEYS
from nbl_theory.stability import lambda_star_float

from ..style import LINK_NAMES, link_color, new_figure
from .base import FigureData

ID = "tanh-phase"
LABEL = "fig:app-tanh-phase"
TITLE = "Decision-stability phase diagram of the two-transition link family"
CAPTION = (
    "In the (mu2, Delta) plane of the two-transition family the region lambda* < 0 is shaded "
    "and bounded by the lambda* = 0 curve, with the reference line Delta = 0.2 and the three "
    "representative links."
)

MU2_RANGE = (-2.5, 3.5)
DELTA_RANGE = (0.02, 1.0)
REF_DELTA = REFERENCE_DELTA
REPRESENTATIVE = tuple((k, PAPER_LINKS[k].params["mu2"]) for k in TWO_TRANSITION_KEYS)


def _build(mu2: str) -> Link:
    return make_family("two-transition", mu2=mu2)


def _fmt(x: float) -> str:
    return f"{x:.10g}"


def _zero_contour(mu2s, deltas, lam):
    """Segments of the λ* = 0 contour of the grid as (mu2, delta, segment) columns."""
    import contourpy

    gen = contourpy.contour_generator(mu2s, deltas, lam, line_type="Separate")
    xs, ys, seg = [], [], []
    for k, line in enumerate(gen.lines(0.0)):
        xs.append(line[:, 0])
        ys.append(line[:, 1])
        seg.append(np.full(len(line), k))
    if not xs:
        return np.empty(0), np.empty(0), np.empty(0, dtype=int)
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(seg)


def _crossings_at(xs, ys, seg, level):
    """mu2 values where the contour polyline crosses delta = level (linear interpolation)."""
    out = []
    for k in np.unique(seg):
        x, y = xs[seg == k], ys[seg == k]
        for i in range(len(y) - 1):
            if (y[i] - level) * (y[i + 1] - level) < 0 or y[i] == level:
                w = 0.0 if y[i] == level else (level - y[i]) / (y[i + 1] - y[i])
                out.append(float(x[i] + w * (x[i + 1] - x[i])))
    return sorted(out)


def boundary_curve(mu2_start: float, box, step: float):
    """The λ* = 0 boundary of the two-transition family in (mu2, Δ) through its root
    (``mu2_start``, Δ = 0.2): pseudo-arclength continuation
    (:func:`nbl_theory.continuation.trace_zero_curve`) of the float64 λ* in ``box``, scaled
    (1, 1/4), every point with |λ*| ≤ 1e-12; a :class:`~nbl_theory.continuation.ZeroCurve`."""

    def lam_f(m, d):
        return lambda_star_float(_build(f"{m:.17g}"), d)

    return trace_zero_curve(
        lam_f, (mu2_start, float(REF_DELTA)), box, scale=(1.0, 0.25), step=step, tol=1e-12
    )


def compute(quick: bool = False) -> FigureData:
    n_mu, n_d = (40, 30) if quick else (160, 120)
    mu2s = np.linspace(*MU2_RANGE, n_mu)
    deltas = np.linspace(*DELTA_RANGE, n_d)
    grid = phase_diagram(
        "two-transition",
        "mu2",
        [_fmt(m) for m in mu2s],
        [f"{d:.17g}" for d in deltas],
        tier="float",
    )
    grid_failed = [f.params.value for f in grid.failures]
    lam = grid.lambda_star
    cx, cy, cseg = _zero_contour(mu2s, deltas, lam)

    # exact boundary points: roots in mu2 at fixed delta ...
    unstable_rows = deltas[(lam < 0).any(axis=1)]
    d_top = float(unstable_rows.max()) if unstable_rows.size else DELTA_RANGE[0]
    fixed_d = (
        ["0.05", REF_DELTA, "0.35"]
        if quick
        else ["0.03", "0.1", REF_DELTA, "0.3", "0.4", "0.45", "0.5"]
    )
    fixed_d = [d for d in fixed_d if float(d) <= d_top + (deltas[1] - deltas[0])] or [REF_DELTA]
    if REF_DELTA not in fixed_d:
        fixed_d.insert(0, REF_DELTA)
    pts = {"mu2": [], "delta": [], "solved_for": [], "certified": []}
    roots_ref = []
    bracket_mu = (_fmt(MU2_RANGE[0]), _fmt(MU2_RANGE[1]))
    scan = threshold_scan(
        "two-transition",
        "mu2",
        "mu2",
        fixed_d,
        bracket=bracket_mu,
        grid=41 if quick else 121,
        certify=True,
    )
    for d, roots in zip(fixed_d, scan.roots):
        for r in roots or []:
            pts["mu2"].append(float(r["value"]))
            pts["delta"].append(float(d))
            pts["solved_for"].append("mu2")
            pts["certified"].append(bool(r["certified"]))
            if d == REF_DELTA:
                roots_ref.append(r)
    # ... and roots in delta at fixed mu2 inside the unstable band at small delta
    if len(roots_ref) >= 2:
        lo, hi = float(roots_ref[0]["value"]), float(roots_ref[-1]["value"])
        n_fix = 3 if quick else 9
        fixed_mu = [_fmt(m) for m in np.linspace(lo, hi, n_fix + 2)[1:-1]]
        scan_d = threshold_scan(
            "two-transition",
            "mu2",
            "delta",
            fixed_mu,
            bracket=(_fmt(DELTA_RANGE[0]), _fmt(DELTA_RANGE[1])),
            grid=25 if quick else 60,
            certify=True,
        )
        for m, roots in zip(fixed_mu, scan_d.roots):
            for r in roots or []:
                pts["mu2"].append(float(m))
                pts["delta"].append(float(r["value"]))
                pts["solved_for"].append("delta")
                pts["certified"].append(bool(r["certified"]))
    failed = grid_failed + [f.params.at for f in scan.failures]
    if failed:
        raise RuntimeError(f"tanh-phase: cells failed at {failed}")

    rep = {"key": [], "mu2": [], "delta": [], "lambda_star": []}
    for key, m in REPRESENTATIVE:
        rep["key"].append(key)
        rep["mu2"].append(float(m))
        rep["delta"].append(float(REF_DELTA))
        rep["lambda_star"].append(lambda_star_float(_build(m), float(REF_DELTA)))

    # the whole boundary by pseudo-arclength continuation from the certified root at Δ = 0.2:
    # every traced point has |λ*| ≤ 1e-12 (float64 tier), so the curve is exact where the grid
    # contour is coarse (notably around the fold at the top of the unstable region)
    curve = None
    if roots_ref:
        curve = boundary_curve(
            float(roots_ref[0]["value"]),
            (MU2_RANGE, (0.005, DELTA_RANGE[1])),
            step=0.1 if quick else 0.04,
        )

    mg, dg = np.meshgrid(mu2s, deltas)
    tables = {
        "grid": {"mu2": mg.ravel(), "delta": dg.ravel(), "lambda_star": lam.ravel()},
        "boundary_contour": {"mu2": cx, "delta": cy, "segment": cseg},
        "boundary_exact": {k: np.asarray(v) for k, v in pts.items()},
        "representative": {k: np.asarray(v) for k, v in rep.items()},
    }
    if curve is not None:
        tables["boundary_continuation"] = {
            "mu2": curve.x,
            "delta": curve.y,
            "lambda_star": curve.residual,
        }
    grid_ref = _crossings_at(cx, cy, cseg, float(REF_DELTA))
    frac = float((lam < 0).mean())
    summary = (
        f"lambda* < 0 on {100 * frac:.1f}% of the {n_mu}x{n_d} grid, only for "
        f"Delta <= {d_top:.3g} and mu2 in an intermediate band; at Delta = {REF_DELTA} the "
        f"threshold solver gives critical mu2 = "
        + ", ".join(
            f"{r['value']} ({'certified' if r['certified'] else 'uncertified'})" for r in roots_ref
        )
        + " and the grid contour "
        + ", ".join(f"{x:.4f}" for x in grid_ref)
        + f" (mu2 spacing {mu2s[1] - mu2s[0]:.3f}); lambda* at Delta = {REF_DELTA}: "
        + ", ".join(f"mu2 = {m}: {v:.3g}" for m, v in zip(rep["mu2"], rep["lambda_star"]))
    )
    if curve is not None:
        top = int(np.argmax(curve.y))
        summary += (
            f"; the continued boundary ({curve.x.size} points, |lambda*| <= "
            f"{np.abs(curve.residual).max():.1e}) peaks at Delta = {curve.y[top]:.4f} "
            f"(mu2 = {curve.x[top]:.3f})"
        )
    settings = {
        "family": "two-transition (eq:link_tanh), p0=0.10 a1=0.10 a2=0.25 b1=2 b2=1.4 mu1=-1.25",
        "mu2_grid": [MU2_RANGE[0], MU2_RANGE[1], n_mu],
        "delta_grid": [DELTA_RANGE[0], DELTA_RANGE[1], n_d],
        "reference_delta": REF_DELTA,
        "fixed_delta_solves": fixed_d,
        "lambda_star": "float64 (lambda_star_float); exact points by find_thresholds, certified",
        "continuation": "nbl_theory.continuation.trace_zero_curve from the first certified root "
        "at the reference delta, tol 1e-12, scale (1, 0.25)",
        "grid_crossings_at_reference_delta": grid_ref,
    }
    return FigureData(tables=tables, settings=settings, summary=summary)


def draw(data: FigureData):
    fig, axes = new_figure(1, 1, width=5.6, height=4.2)
    ax = axes[0][0]
    g = data.table("grid")
    n_mu, n_d = data.settings["mu2_grid"][2], data.settings["delta_grid"][2]
    mg = g["mu2"].reshape(n_d, n_mu)
    dg = g["delta"].reshape(n_d, n_mu)
    lam = g["lambda_star"].reshape(n_d, n_mu)
    if (lam < 0).any() and (lam > 0).any():
        ax.contourf(mg, dg, lam, levels=[lam.min() - 1, 0.0], colors=["#d62728"], alpha=0.22)
    c = data.table("boundary_contour")
    for k in np.unique(c["segment"]):
        sel = c["segment"] == k
        ax.plot(
            c["mu2"][sel],
            c["delta"][sel],
            color="k",
            lw=1.5,
            label=r"$\lambda_\star=0$ (grid contour)" if k == 0 else None,
        )
    if "boundary_continuation" in data.tables:
        cc = data.table("boundary_continuation")
        ax.plot(
            cc["mu2"],
            cc["delta"],
            color="#1f3b73",
            lw=1.0,
            ls="--",
            label=r"$\lambda_\star=0$ (continuation)",
        )
    ex = data.table("boundary_exact")
    if ex["mu2"].size:
        ax.plot(
            ex["mu2"],
            ex["delta"],
            "x",
            color="k",
            ms=5,
            mew=1.1,
            label=r"$\lambda_\star=0$ (threshold solver)",
        )
    ref = float(data.settings["reference_delta"])
    ax.axhline(ref, color="0.3", ls=":", lw=1.2, label=rf"$\Delta_\beta={ref:g}$")
    rep = data.table("representative")
    for key, m, d in zip(rep["key"], rep["mu2"], rep["delta"]):
        ax.plot(
            [m],
            [d],
            "o",
            color=link_color(str(key)),
            ms=7,
            mec="k",
            mew=0.6,
            zorder=4,
            label=LINK_NAMES.get(str(key), str(key)),
        )
    ax.plot([], [], "s", color="#d62728", alpha=0.22, ms=9, label=r"$\lambda_\star<0$")
    ax.set_xlim(mg.min(), mg.max())
    ax.set_ylim(dg.min(), dg.max())
    ax.set_xlabel(r"second transition location $\mu_2$")
    ax.set_ylabel(r"arm separation $\Delta_\beta$")
    ax.set_title("Two-transition family: decision stability")
    ax.legend(fontsize=7.5, frameon=True, framealpha=0.9, loc="upper right")
    return fig
