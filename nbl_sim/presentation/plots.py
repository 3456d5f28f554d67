"""Plots of single results (the ``nbl`` command's ``--out``/``--plot`` pictures): a simulation,
a threshold scan, a phase diagram. Each function takes computed data, builds a
:class:`matplotlib.figure.Figure` (no backend, no pyplot) and writes it to ``path`` (the format
follows the extension)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..runs.outputs import save_figure
from .style import new_figure, policy_color

__all__ = [
    "plot_simulation",
    "plot_threshold_scan",
    "unstable_spans",
    "plot_phase",
    "diverging_norm",
]


def _save(fig, path, dpi: int) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return save_figure(fig, path, dpi=dpi)  # replaces a link at ``path``, never its target


def plot_simulation(result, path) -> Path:
    """R_t/t and (d = 2) the signed angle, or ‖v_t − v*‖², with pointwise 95% bands, of a
    :class:`~nbl_sim.studies.experiment.SimulationResult`. Returns the written path.

    Parameters
    ----------
    result : SimulationResult
        The simulation.
    path : str or pathlib.Path
        The image file to write (its suffix picks the format).

    Returns
    -------
    pathlib.Path
        The path written.
    """
    t = result.record_rounds
    d2 = result.params["d"] == 2
    second = "angle_deg" if d2 else "sq_error"
    fig, axes = new_figure(1, 2, width=10, height=3.8)
    axes = axes[0]
    for name in result.policies:
        color = policy_color(name)
        for ax, metric in zip(axes, ("avg_regret", second)):
            b = result.band(name, metric)
            if np.all(np.isnan(b["mean"])):
                continue
            ax.plot(t, b["mean"], color=color, lw=1.5, label=name)
            ax.fill_between(t, b["lo"], b["hi"], color=color, alpha=0.2, lw=0)
    axes[0].set_ylabel(r"$R_t/t$  (eq:regret)")
    axes[1].set_ylabel(r"signed angle $\alpha_t$ (deg)" if d2 else r"$\|v_t-v^\star\|^2$")
    if d2:
        axes[1].axhline(0.0, color="0.3", lw=0.8)
    for ax in axes:
        ax.set_xlabel("round $t$")
        ax.legend(loc="best", fontsize=8)
    env = result.environment
    p = result.params
    fig.suptitle(
        f"{env['link']}, $\\Delta$ = {env['delta']}, d = {env['d']}: "
        f"means and 95% bands over {p['reps']} replications",
        fontsize=10,
    )
    return _save(fig, path, dpi=130)


def unstable_spans(result) -> list[tuple[float, float]]:
    """The intervals of the scan range where λ* < 0, bounded by the refined (certified when
    ``root.certified``) roots of a :class:`~nbl_theory.threshold.ThresholdResult`, not by grid
    points: the range is cut at every root and each piece takes the sign of the scan values
    inside it (a piece with no grid point inside takes the sign of its midpoint's neighbours).

    Parameters
    ----------
    result : ThresholdResult
        The threshold scan.

    Returns
    -------
    list of tuple of (float, float)
        The unstable intervals ``(lo, hi)``, in increasing order.
    """
    xs, vals = (np.asarray(v, dtype=float) for v in result.scan)
    cuts = [float(xs[0]), *sorted(float(r.value) for r in result.roots), float(xs[-1])]
    spans = []
    for a, b in zip(cuts[:-1], cuts[1:]):
        inside = (xs > a) & (xs < b)
        if inside.any():
            negative = bool(np.median(vals[inside]) < 0)
        else:
            negative = bool(np.interp(0.5 * (a + b), xs, vals) < 0)
        if negative and b > a:
            if spans and spans[-1][1] == a:
                spans[-1] = (spans[-1][0], b)
            else:
                spans.append((a, b))
    return spans


def plot_threshold_scan(result, path) -> Path:
    """λ* on the scan grid of a :class:`~nbl_theory.threshold.ThresholdResult`, with the unstable
    region (λ* < 0) shaded between the refined roots (:func:`unstable_spans`) and every root
    marked. Returns the written path.

    Parameters
    ----------
    result : ThresholdResult
        The threshold scan.
    path : str or pathlib.Path
        The image file to write (its suffix picks the format).

    Returns
    -------
    pathlib.Path
        The path written.
    """
    xs, vals = (np.asarray(v, dtype=float) for v in result.scan)
    fig, axes = new_figure(1, 1, width=6.4, height=3.8)
    ax = axes[0, 0]
    ax.plot(xs, vals, color="C0", lw=1.6, label=r"$\lambda_\star$ (float64 scan)")
    ax.axhline(0.0, color="0.3", lw=0.8)
    for i, (a, b) in enumerate(unstable_spans(result)):
        ax.axvspan(a, b, color="C3", alpha=0.18, lw=0, label="unstable" if i == 0 else None)
    for i, root in enumerate(result.roots):
        x = float(root.value)
        ax.axvline(x, color="C3", ls="--", lw=0.9)
        tag = "certified" if root.certified else "not certified"
        ax.annotate(
            f"{x:.6g}\n({tag})",
            (x, 0.0),
            textcoords="offset points",
            xytext=(4, 8 + 22 * (i % 2)),
            fontsize=8,
            color="C3",
        )
    var = {"delta": r"$\Delta$", "rho": r"$\rho$", "mu2": r"$\mu_2$"}.get(
        result.solve_for, result.solve_for
    )
    ax.set_xlabel(var)
    ax.set_ylabel(r"$\lambda_\star$  (eq:decision_stability)")
    fixed = ", ".join(f"{k} = {v}" for k, v in result.fixed.items())
    ax.set_title(f"{result.link}" + (f"   ({fixed})" if fixed else ""), fontsize=10)
    ax.legend(loc="best", fontsize=8)
    return _save(fig, path, dpi=130)


def diverging_norm(values):
    """A colour norm centred at λ* = 0 that scales each sign to its own extreme
    (:class:`matplotlib.colors.TwoSlopeNorm`), so a small unstable region (λ* slightly below 0
    beside large positive values) is as visible as the stable one.

    Parameters
    ----------
    values : array_like
        The λ* values (NaN and infinities ignored).

    Returns
    -------
    matplotlib.colors.TwoSlopeNorm
        The norm, centred at 0.
    """
    from matplotlib.colors import TwoSlopeNorm

    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    top = float(finite.max()) if finite.size else 1.0
    bottom = float(finite.min()) if finite.size else -1.0
    scale = max(abs(top), abs(bottom), 1e-300)
    return TwoSlopeNorm(vcenter=0.0, vmin=min(bottom, -1e-9 * scale), vmax=max(top, 1e-9 * scale))


def plot_phase(pd, path) -> Path:
    """λ* of a :class:`~nbl_sim.studies.phase.PhaseDiagram` on its (parameter, Δ) grid (a diverging
    colour scale centred at 0, each sign scaled to its own extreme), the λ* = 0 contour where
    both signs occur and the cells whose sign is undecided. Returns the path.

    Parameters
    ----------
    pd : PhaseDiagram
        The phase diagram.
    path : str or pathlib.Path
        The image file to write (its suffix picks the format).

    Returns
    -------
    pathlib.Path
        The path written.
    """
    x = np.array([float(v) for v in pd.values])
    y = np.array([float(d) for d in pd.deltas])
    fig, axes = new_figure(1, 1, width=6.4, height=4.4)
    ax = axes[0, 0]
    lam = np.ma.masked_invalid(pd.lambda_star)
    norm = diverging_norm(pd.lambda_star)
    lim = float(np.nanmax(np.abs(pd.lambda_star))) if np.isfinite(pd.lambda_star).any() else 1.0
    if x.size > 1 and y.size > 1:
        m = ax.pcolormesh(x, y, lam, cmap="RdBu", norm=norm, shading="nearest")
        fig.colorbar(m, ax=ax, label="lambda* (each sign scaled to its own extreme)")
        if (pd.sign == "unstable").any() and (pd.sign == "stable").any():
            ax.contour(
                x,
                y,
                np.nan_to_num(pd.lambda_star, nan=lim),
                levels=[0.0],
                colors="k",
                linewidths=1.2,
            )
    else:
        m = ax.scatter(
            np.repeat(x[None, :], y.size, 0),
            np.repeat(y[:, None], x.size, 1),
            c=np.nan_to_num(pd.lambda_star),
            cmap="RdBu",
            norm=norm,
        )
        fig.colorbar(m, ax=ax, label="lambda* (each sign scaled to its own extreme)")
    und = pd.sign == "undecided"
    if und.any():
        ii, jj = np.nonzero(und)
        ax.plot(x[jj], y[ii], "kx", ms=4, label="sign undecided")
        ax.legend(loc="upper right")
    ax.set_xlabel(pd.param)
    ax.set_ylabel("Delta")
    ax.set_title(f"{pd.family}: lambda* ({pd.tier}); black line lambda* = 0")
    return _save(fig, path, dpi=150)
