"""Plots of simulation results (matplotlib, Agg backend; functions take computed data)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["plot_simulation", "POLICY_COLORS"]

POLICY_COLORS = {"nbl": "C0", "greedy-logistic": "C1", "oracle": "0.4"}


def plot_simulation(result, path) -> Path:
    """R_t/t and (d = 2) the signed angle, or ‖v_t − v*‖², with pointwise 95% bands."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    t = result.record_rounds
    d2 = result.params["d"] == 2
    second = "angle_deg" if d2 else "sq_error"
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), constrained_layout=True)
    for name in result.policies:
        color = POLICY_COLORS.get(name, None)
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
    fig.suptitle(f"{env['link']}, $\\Delta$ = {env['delta']}, d = {env['d']}: "
                 f"means and 95% bands over {p['reps']} replications", fontsize=10)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path
