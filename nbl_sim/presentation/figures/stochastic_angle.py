"""fig:app-stochastic-angle — signed angular error of stochastic NBL (app:stochastic-nbl).

Panel (a): Δ = 0.2, the three two-transition links (stable / near-critical / unstable at
Δ = 0.2); panel (b): the link with μ2 = 1.244122 (unstable at Δ = 0.2) at Δ ∈ {0.2, 1.0, 1.8}.
The paper does not list panel (b)'s separations; we use those of fig:tanh-changing-separation.

Setting (app:simulation-setup, app:stochastic-nbl): d = 2, X ~ N(0, I_2), Bernoulli rewards,
v_0 at a signed angle of +10° from v*, η_t = γ/(t + t0) with γ = 10, t0 = 500, n = 10,000,
100 replications; curves are Monte Carlo means of α_t (degrees) with pointwise mean ± 1.96 SE.

Beyond the paper: each curve carries the linearized prediction from the exact d = 2 contraction
rate κ = ``stability(link, Δ).jacobian_rates["theta"]`` (the Jacobian eigenvalue along θ, which in
d = 2 is the only tangent direction): E[α_t] ≈ α_0 Π_{s=1}^t (1 − η_s κ) (the product is what is
drawn, dashed; the table also holds its power-law form α_0 ((t0 + 1)/(t + t0))^{γκ}).
"""

from __future__ import annotations

import numpy as np

from nbl_sim.engine.environment import Environment
from nbl_sim.studies.experiment import simulate
from nbl_theory.families import make_family
from nbl_theory.paper import PAPER_LINKS, TWO_TRANSITION_KEYS
from nbl_theory.stability import stability

from ..style import LINK_NAMES, link_color, new_figure
from .base import FigureData

ID = "stochastic-angle"
LABEL = "fig:app-stochastic-angle"
TITLE = "Signed angular error of stochastic NBL: varying link (a) and arm separation (b)"
CAPTION = (
    "Signed angular error of NBL over 100 Monte Carlo replications: at Δ = 0.2 the stable, "
    "near-critical and unstable links are attracted to, stay away from, and move away from "
    "v* (a); the link with μ2 = 1.244122, unstable at Δ = 0.2, recovers increasingly "
    "strongly toward v* as Δ grows (b)."
)

TT_LINKS = {k: PAPER_LINKS[k].params["mu2"] for k in TWO_TRANSITION_KEYS}
PANEL_B_LINK = "tt-unstable"
PANEL_B_DELTAS = ("0.2", "1.0", "1.8")
PANEL_A_DELTA = "0.2"
N, REPS, INIT_ANGLE, GAMMA, T0, SEED = 10_000, 100, 10.0, 10.0, 500.0, 0
RECORD_POINTS = 200
DELTA_STYLES = {"0.2": "tt-unstable", "1.0": "we-0", "1.8": "tt-stable"}


def _linear_prediction(
    kappa: float, rounds: np.ndarray, alpha0: float, gamma: float, t0: float
) -> tuple[np.ndarray, np.ndarray]:
    """α_0 Π_{s≤t}(1 − η_s κ) and α_0 ((t0+1)/(t+t0))^{γκ} at ``rounds`` (t = 0 gives α_0)."""
    t_max = int(rounds.max())
    s = np.arange(1, t_max + 1, dtype=float)
    log_factor = np.log1p(-gamma / (s + t0) * kappa)
    cum = np.concatenate([[0.0], np.cumsum(log_factor)])
    product = alpha0 * np.exp(cum[rounds])
    power = alpha0 * ((t0 + 1.0) / (np.maximum(rounds, 1) + t0)) ** (gamma * kappa)
    power = np.where(rounds == 0, alpha0, power)
    return product, power


def _run(mu2: str, delta: str, reps: int, n: int, seed: int) -> dict:
    link = make_family("two-transition", mu2=mu2)
    env = Environment.build(link, delta)
    rec = np.unique(np.rint(np.linspace(0, n, RECORD_POINTS + 1)).astype(np.int64))
    res = simulate(
        env, n=n, reps=reps, init_angle=INIT_ANGLE, gamma=GAMMA, t0=T0, seed=seed, record_rounds=rec
    )
    band = res.band("nbl", "angle_deg")
    st = stability(link, delta)
    kappa = float(st.jacobian_rates["theta"])
    prod, power = _linear_prediction(kappa, res.record_rounds, INIT_ANGLE, GAMMA, T0)
    table = {
        "round": res.record_rounds.astype(float),
        "angle_mean_deg": band["mean"],
        "angle_se_deg": band["se"],
        "angle_lo_deg": band["lo"],
        "angle_hi_deg": band["hi"],
        "linear_product_deg": prod,
        "linear_power_deg": power,
    }
    meta = {
        "kappa_theta": kappa,
        "lambda_star": float(st.values["lambda_star"]),
        "seconds": round(res.seconds, 3),
    }
    return {"table": table, "meta": meta}


def compute(quick: bool) -> FigureData:
    # One run of 100 replications × 10,000 rounds takes ~0.5 s, so quick mode keeps the paper's
    # full setting (only the figure cache differs).
    reps, n = REPS, N
    tables, meta = {}, {}
    for key, mu2 in TT_LINKS.items():
        out = _run(mu2, PANEL_A_DELTA, reps, n, SEED)
        tables[f"a_{key}"] = out["table"]
        meta[f"a_{key}"] = {"mu2": mu2, "delta": PANEL_A_DELTA, **out["meta"]}
    for delta in PANEL_B_DELTAS:
        out = _run(TT_LINKS[PANEL_B_LINK], delta, reps, n, SEED)
        tables[f"b_delta_{delta}"] = out["table"]
        meta[f"b_delta_{delta}"] = {"mu2": TT_LINKS[PANEL_B_LINK], "delta": delta, **out["meta"]}
    settings = {
        "d": 2,
        "n": n,
        "reps": reps,
        "init_angle_deg": INIT_ANGLE,
        "gamma": GAMMA,
        "t0": T0,
        "seed": SEED,
        "reward": "bernoulli",
        "record_points": RECORD_POINTS,
        "band": "pointwise mean ± 1.96 SE over replications",
        "panel_a": {"delta": PANEL_A_DELTA, "links_mu2": TT_LINKS},
        "panel_b": {
            "mu2": TT_LINKS[PANEL_B_LINK],
            "deltas": list(PANEL_B_DELTAS),
            "note": "the paper does not list panel (b)'s separations; these are those of "
            "fig:tanh-changing-separation",
        },
        "linear_prediction": "dashed = α_0 Π_{s≤t}(1 − η_s κ), κ = jacobian_rates['theta'] "
        "(exact d = 2 contraction rate, float64); table also has the "
        "power-law form α_0((t0+1)/(t+t0))^{γκ}",
        "quick": bool(quick),
        "quick_note": "quick mode uses the full setting (a run costs ~0.5 s)",
        "runs": meta,
    }
    finals = []
    for name in [f"a_{k}" for k in TT_LINKS] + [f"b_delta_{d}" for d in PANEL_B_DELTAS]:
        tb = tables[name]
        finals.append(
            f"{name}: {tb['angle_mean_deg'][-1]:.1f}±{tb['angle_se_deg'][-1]:.1f}° "
            f"(linear {tb['linear_product_deg'][-1]:.1f}°)"
        )
    summary = f"final mean signed angle ± SE at n = {n} from +10°: " + "; ".join(finals)
    return FigureData(tables=tables, settings=settings, summary=summary)


def _curve(ax, tb: dict, color: str, label: str) -> None:
    t = tb["round"]
    ax.plot(t, tb["angle_mean_deg"], color=color, lw=1.6, label=label)
    ax.fill_between(t, tb["angle_lo_deg"], tb["angle_hi_deg"], color=color, alpha=0.2, lw=0)
    ax.plot(t, tb["linear_product_deg"], color=color, lw=1.2, ls="--")


def draw(data: FigureData):
    fig, axes = new_figure(1, 2, width=11.0, height=4.2)
    ax_a, ax_b = axes[0]
    runs = data.settings["runs"]
    for key in TT_LINKS:
        kappa = runs[f"a_{key}"]["kappa_theta"]
        _curve(
            ax_a,
            data.table(f"a_{key}"),
            link_color(key),
            f"{LINK_NAMES[key]}, $\\kappa$={kappa:+.3f}",
        )
    for delta in PANEL_B_DELTAS:
        kappa = runs[f"b_delta_{delta}"]["kappa_theta"]
        _curve(
            ax_b,
            data.table(f"b_delta_{delta}"),
            link_color(DELTA_STYLES[delta]),
            f"$\\Delta_\\beta$ = {delta}, $\\kappa$={kappa:+.3f}",
        )
    ax_a.set_title(r"(a) varying link, $\Delta_\beta = 0.2$", fontsize=10)
    ax_b.set_title(r"(b) link $\mu_2 = 1.244122$, varying $\Delta_\beta$", fontsize=10)
    for ax in (ax_a, ax_b):
        ax.axhline(0.0, color="0.3", lw=0.8)
        ax.set_xlabel("round $t$")
        ax.set_ylabel(r"signed angle $\alpha_t$ (degrees)")
        ax.plot(
            [],
            [],
            color="0.3",
            ls="--",
            lw=1.2,
            label=r"linearized: $\alpha_0\prod_{s\leq t}(1-\eta_s\kappa)$",
        )
        ax.legend(loc="best", fontsize=7.5)
    s = data.settings
    fig.suptitle(
        f"NBL signed angular error: means and pointwise 95% bands over {s['reps']} "
        f"replications ($\\gamma$={s['gamma']:g}, $t_0$={s['t0']:g}, start "
        f"{s['init_angle_deg']:g}°)",
        fontsize=10,
    )
    return fig
