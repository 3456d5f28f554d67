"""Plots of theory results (matplotlib, Agg backend; functions take computed data)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["plot_threshold_scan"]


def plot_threshold_scan(result, path) -> Path:
    """λ* on the scan grid of a :class:`~nbl_theory.threshold.ThresholdResult`, with the unstable
    region (λ* < 0) shaded and every refined root marked. Returns the written path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    xs, vals = (np.asarray(v, dtype=float) for v in result.scan)
    fig, ax = plt.subplots(figsize=(6.4, 3.8), constrained_layout=True)
    ax.plot(xs, vals, color="C0", lw=1.6, label=r"$\lambda_\star$ (float64 scan)")
    ax.axhline(0.0, color="0.3", lw=0.8)
    ax.fill_between(xs, vals, 0.0, where=vals < 0, color="C3", alpha=0.18, label="unstable")
    for i, root in enumerate(result.roots):
        x = float(root.value)
        ax.axvline(x, color="C3", ls="--", lw=0.9)
        tag = "certified" if root.certified else "not certified"
        ax.annotate(f"{x:.6g}\n({tag})", (x, 0.0), textcoords="offset points",
                    xytext=(4, 8 + 22 * (i % 2)), fontsize=8, color="C3")
    var = {"delta": r"$\Delta$", "rho": r"$\rho$", "mu2": r"$\mu_2$"}.get(result.solve_for,
                                                                            result.solve_for)
    ax.set_xlabel(var)
    ax.set_ylabel(r"$\lambda_\star$  (eq:decision_stability)")
    fixed = ", ".join(f"{k} = {v}" for k, v in result.fixed.items())
    ax.set_title(f"{result.link}" + (f"   ({fixed})" if fixed else ""), fontsize=10)
    ax.legend(loc="best", fontsize=8)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path
