"""fig:numerical-summary — the paper's eight-panel summary (sec:numerics), as one 2 × 4 figure.

Top row (decision stability and stochastic behavior), two-transition links eq:link_tanh with
μ2 ∈ {−1.074037, 2.144072, 1.244122} (stable / near-critical / unstable at Δ = 0.2):
(a) g; (b) g'' with the density of U ~ N(0, 1 − Δ²/4) at Δ = 0.2 shaded (rescaled for display);
(c) λ* against Δ ∈ (0, 2) (float64 :func:`nbl_theory.stability.stability`, Δ = 0.02, 0.04, …,
1.98); (d) R_t/t of stochastic NBL at Δ = 0.2 in the 10°-start setting of app:stochastic-nbl
(γ = 10, t0 = 500, n = 10,000, 100 replications).

Bottom row (link misspecification and parametric comparison), weighted-entropy links g_ρ,
ρ ∈ {0, 0.2, 0.4, 0.6, 0.8} (ρ = 0 logistic): (e) g_ρ; (f) λ* against Δ ∈ (0, 0.6);
(g) final regret R_n of NBL and Greedy Logistic at Δ = 1, n = 2,000, n0 = 200 (common random
numbers and common randomized initialization, app:logistic-comparison), means with 95% CIs and
the paired difference NBL − Greedy Logistic; (h) the same for the three two-transition links.
"""

from __future__ import annotations

import numpy as np

from nbl_sim.engine.environment import Environment
from nbl_sim.engine.metrics import Z95, mc_summary
from nbl_sim.studies.experiment import simulate
from nbl_theory.families import make_family
from nbl_theory.links import Link
from nbl_theory.paper import PAPER_LINKS, RHO_SWEEP, TWO_TRANSITION_KEYS
from nbl_theory.stability import stability

from ..style import LINK_NAMES, link_color, new_figure, policy_color
from .base import FigureData

ID = "numerical-summary"
LABEL = "fig:numerical-summary"
TITLE = "Decision stability, stochastic behavior, link misspecification and Greedy Logistic"
CAPTION = (
    "Two-transition links yield stable, near-critical and unstable dynamics at Δ = 0.2 "
    "through their curvature and λ* (instability confined to weak separation), with "
    "stochastic NBL regret following suit; the elicitation-induced links alter stability "
    "under weak separation, and Greedy Logistic wins near the logistic link while NBL wins "
    "under larger misspecification."
)

TT_LINKS = {k: PAPER_LINKS[k].params["mu2"] for k in TWO_TRANSITION_KEYS}
RHOS = RHO_SWEEP
DELTA_WEAK = "0.2"
DELTA_COMPARE = "1"
Z_GRID = np.linspace(-4.0, 4.0, 401)
Z_GRID_WE = np.linspace(-6.0, 6.0, 401)
DELTAS_C = tuple(f"{x:.2f}" for x in np.arange(1, 100) * 0.02)  # 0.02 … 1.98
DELTAS_F = tuple(f"{x:.3f}" for x in np.arange(1, 100) * 0.006)  # 0.006 … 0.594
STOCH = {"n": 10_000, "reps": 100, "init_angle": 10.0, "gamma": 10.0, "t0": 500.0, "seed": 0}
COMPARE = {"n": 2_000, "n0": 200, "gamma": 10.0, "t0": 500.0, "seed": 0}
REPS_FULL, REPS_QUICK = 100, 30


def _tt(mu2: str) -> Link:
    return make_family("two-transition", mu2=mu2)


def _we(rho: str) -> Link:
    return make_family("weighted-entropy", rho=rho)


def _lambda_curve(link: Link, deltas) -> np.ndarray:
    return np.array(
        [float(stability(link, d, auto_raise=False).values["lambda_star"]) for d in deltas]
    )


def _zero_crossings(x: np.ndarray, y: np.ndarray) -> list:
    """Linearly interpolated sign changes of y(x)."""
    out = []
    for i in np.flatnonzero(np.sign(y[:-1]) * np.sign(y[1:]) < 0):
        out.append(float(x[i] - y[i] * (x[i + 1] - x[i]) / (y[i + 1] - y[i])))
    return out


def _compare(link: Link, reps: int) -> dict:
    env = Environment.build(link, DELTA_COMPARE)
    res = simulate(
        env,
        n=COMPARE["n"],
        reps=reps,
        n0=COMPARE["n0"],
        gamma=COMPARE["gamma"],
        t0=COMPARE["t0"],
        policies=("nbl", "greedy-logistic"),
        seed=COMPARE["seed"],
        record_rounds=[COMPARE["n"]],
    )
    nbl = res.policies["nbl"].regret[:, -1]
    gl = res.policies["greedy-logistic"].regret[:, -1]
    out = {}
    for name, vals in (("nbl", nbl), ("greedy_logistic", gl), ("diff", nbl - gl)):
        s = mc_summary(vals)
        out[f"{name}_mean"] = float(s["mean"])
        out[f"{name}_se"] = float(s["se"])
    out["seconds"] = res.seconds
    return out


def _compare_table(keys, links, reps) -> tuple[dict, float]:
    rows = [_compare(link, reps) for link in links]
    table = {"index": np.arange(len(keys), dtype=float)}
    for col in rows[0]:
        if col != "seconds":
            table[col] = np.array([r[col] for r in rows])
    return table, sum(r["seconds"] for r in rows)


def compute(quick: bool) -> FigureData:
    reps_cmp = REPS_QUICK if quick else REPS_FULL
    tt = {k: _tt(mu2) for k, mu2 in TT_LINKS.items()}
    we = {f"we-{r}": _we(r) for r in RHOS}
    tables: dict = {}

    # (a), (b): links, curvature, density of U at Δ = 0.2
    s2 = 1.0 - float(DELTA_WEAK) ** 2 / 4.0
    a = {"z": Z_GRID}
    b = {"z": Z_GRID}
    for k, link in tt.items():
        a[k] = link.g_numpy(Z_GRID)
        b[k] = link.derivative_numpy(Z_GRID, 2)
    b["density_U"] = np.exp(-(Z_GRID**2) / (2 * s2)) / np.sqrt(2 * np.pi * s2)
    tables["a_links"], tables["b_curvature"] = a, b

    # (c): λ* against Δ
    xc = np.array([float(d) for d in DELTAS_C])
    c = {"delta": xc}
    crossings_c = {}
    for k, link in tt.items():
        c[k] = _lambda_curve(link, DELTAS_C)
        crossings_c[k] = _zero_crossings(xc, c[k])
    tables["c_lambda_star"] = c

    # (d): R_t/t of stochastic NBL at Δ = 0.2, 10° start
    d_tab = {}
    finals_d = {}
    stoch_seconds = 0.0
    for k, link in tt.items():
        env = Environment.build(link, DELTA_WEAK)
        rec = np.unique(np.rint(np.linspace(0, STOCH["n"], 201)).astype(np.int64))[1:]
        res = simulate(
            env,
            n=STOCH["n"],
            reps=STOCH["reps"],
            init_angle=STOCH["init_angle"],
            gamma=STOCH["gamma"],
            t0=STOCH["t0"],
            seed=STOCH["seed"],
            record_rounds=rec,
        )
        stoch_seconds += res.seconds
        band = res.band("nbl", "avg_regret")
        d_tab.setdefault("round", res.record_rounds.astype(float))
        d_tab[f"{k}_mean"], d_tab[f"{k}_se"] = band["mean"], band["se"]
        d_tab[f"{k}_lo"], d_tab[f"{k}_hi"] = band["lo"], band["hi"]
        finals_d[k] = (float(band["mean"][-1]), float(band["se"][-1]))
    tables["d_avg_regret"] = d_tab

    # (e), (f): weighted-entropy links and λ* under weak separation
    e = {"z": Z_GRID_WE}
    xf = np.array([float(d) for d in DELTAS_F])
    f = {"delta": xf}
    crossings_f = {}
    for k, link in we.items():
        e[k] = link.g_numpy(Z_GRID_WE)
        f[k] = _lambda_curve(link, DELTAS_F)
        crossings_f[k] = _zero_crossings(xf, f[k])
    tables["e_we_links"], tables["f_we_lambda_star"] = e, f

    # (g), (h): NBL vs Greedy Logistic at Δ = 1
    g_tab, g_sec = _compare_table(list(we), list(we.values()), reps_cmp)
    g_tab["rho"] = np.array([float(r) for r in RHOS])
    h_tab, h_sec = _compare_table(list(tt), list(tt.values()), reps_cmp)
    h_tab["mu2"] = np.array([float(m) for m in TT_LINKS.values()])
    tables["g_compare_we"], tables["h_compare_tt"] = g_tab, h_tab

    lam_02 = {k: float(stability(link, DELTA_WEAK).values["lambda_star"]) for k, link in tt.items()}
    lam_1 = {
        k: float(stability(link, DELTA_COMPARE).values["lambda_star"])
        for k, link in {**tt, **we}.items()
    }
    settings = {
        "d": 2,
        "links_two_transition_mu2": TT_LINKS,
        "rhos": list(RHOS),
        "panel_b_density": f"U ~ N(0, 1 - Δ²/4) at Δ = {DELTA_WEAK}, drawn rescaled so that its "
        "peak matches the largest |g''| (display only; the table is the "
        "unscaled density)",
        "panel_c_deltas": "0.02, 0.04, ..., 1.98 (99 values, decimal strings, float64 tier, "
        "auto_raise=False)",
        "panel_c_zero_crossings": crossings_c,
        "panel_f_deltas": "0.006, 0.012, ..., 0.594 (99 values, float64 tier)",
        "panel_f_zero_crossings": crossings_f,
        "lambda_star_at_delta_0.2": lam_02,
        "lambda_star_at_delta_1": lam_1,
        "panel_d": {
            **STOCH,
            "delta": DELTA_WEAK,
            "reward": "bernoulli",
            "band": "pointwise mean ± 1.96 SE",
            "seconds": round(stoch_seconds, 2),
        },
        "panels_g_h": {
            **COMPARE,
            "delta": DELTA_COMPARE,
            "reps": reps_cmp,
            "reward": "bernoulli",
            "policies": ["nbl", "greedy-logistic"],
            "greedy_logistic": "intercept=True, ridge=1e-6 (simulate defaults)",
            "ci": "mean ± 1.96 SE; diff = paired per-replication R_n(NBL) - "
            "R_n(Greedy Logistic) on common random numbers",
            "seconds": round(g_sec + h_sec, 2),
        },
        "quick": bool(quick),
        "quick_note": (
            f"quick mode: panels (g), (h) use {REPS_QUICK} replications instead of "
            f"{REPS_FULL}; everything else is the full setting"
        )
        if quick
        else "",
    }
    summary = _summary(lam_02, crossings_c, finals_d, g_tab, h_tab)
    return FigureData(tables=tables, settings=settings, summary=summary)


def _summary(lam_02, crossings_c, finals_d, g_tab, h_tab) -> str:
    lam = ", ".join(f"{k[3:]} {v:+.3e}" for k, v in lam_02.items())
    cross = ", ".join(
        f"{k[3:]} {', '.join(f'{x:.3f}' for x in v) or 'none'}" for k, v in crossings_c.items()
    )
    dd = ", ".join(f"{k[3:]} {m:.2e}±{s:.1e}" for k, (m, s) in finals_d.items())

    def wins(tab, names):
        out = []
        for i, nm in enumerate(names):
            m, s = tab["diff_mean"][i], tab["diff_se"][i]
            verdict = (
                "NBL lower"
                if m + Z95 * s < 0
                else "GL lower"
                if m - Z95 * s > 0
                else "no sig. difference"
            )
            out.append(f"{nm}: {m:+.1f}±{Z95 * s:.1f} ({verdict})")
        return "; ".join(out)

    return (
        f"λ* at Δ=0.2: {lam}; λ* zero crossings in Δ: {cross}; R_n/n at n=10,000 (d): {dd}; "
        f"paired R_n(NBL)−R_n(GL) ±95% at Δ=1 — (g) "
        f"{wins(g_tab, [f'ρ={r}' for r in RHOS])}; (h) "
        f"{wins(h_tab, [k[3:] for k in TT_LINKS])}"
    )


# ---------------------------------------------------------------------- drawing
def _compare_panel(ax, tab: dict, labels: list, xlabel: str, title: str) -> None:
    x = tab["index"]
    w = 0.22
    for off, col, key, lab in (
        (-w, "nbl", "nbl", "NBL"),
        (0.0, "greedy_logistic", "greedy-logistic", "Greedy Logistic"),
    ):
        ax.errorbar(
            x + off,
            tab[f"{col}_mean"],
            yerr=Z95 * tab[f"{col}_se"],
            fmt="o",
            color=policy_color(key),
            capsize=3,
            ms=5,
            label=lab,
        )
    ax.errorbar(
        x + w,
        tab["diff_mean"],
        yerr=Z95 * tab["diff_se"],
        fmt="D",
        color="k",
        capsize=3,
        ms=4,
        label="NBL − GL (paired)",
    )
    ax.axhline(0.0, color="0.5", lw=0.8)
    ax.set_xticks(x)
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(r"final regret $R_n$ (mean, 95% CI)")
    ax.set_title(title, fontsize=9)
    top = max(
        float(np.max(tab[f"{c}_mean"] + Z95 * tab[f"{c}_se"]))
        for c in ("nbl", "greedy_logistic", "diff")
    )
    bottom = min(0.0, float(np.min(tab["diff_mean"] - Z95 * tab["diff_se"])))
    ax.set_ylim(bottom - 0.05 * (top - bottom), top + 0.3 * (top - bottom))
    ax.legend(fontsize=7, loc="upper center", ncol=3, columnspacing=0.8, handletextpad=0.3)


def draw(data: FigureData):
    fig, axes = new_figure(2, 4, width=17.0, height=8.0)
    (ax_a, ax_b, ax_c, ax_d), (ax_e, ax_f, ax_g, ax_h) = axes
    short = {
        "tt-stable": r"$\mu_2=-1.074$ (stable)",
        "tt-near-critical": r"$\mu_2=2.144$ (near-crit.)",
        "tt-unstable": r"$\mu_2=1.244$ (unstable)",
    }

    a, b, c, d = (
        data.table(n) for n in ("a_links", "b_curvature", "c_lambda_star", "d_avg_regret")
    )
    for k in TT_LINKS:
        col = link_color(k)
        ax_a.plot(a["z"], a[k], color=col, lw=1.5, label=LINK_NAMES[k])
        ax_b.plot(b["z"], b[k], color=col, lw=1.5, label=short[k])
        ax_c.plot(c["delta"], c[k], color=col, lw=1.5, label=short[k])
        ax_d.plot(d["round"], d[f"{k}_mean"], color=col, lw=1.5, label=short[k])
        ax_d.fill_between(d["round"], d[f"{k}_lo"], d[f"{k}_hi"], color=col, alpha=0.2, lw=0)
    peak = max(float(np.max(np.abs(b[k]))) for k in TT_LINKS)
    dens = b["density_U"] / float(np.max(b["density_U"])) * peak
    ax_b.fill_between(
        b["z"],
        0.0,
        dens,
        color="0.6",
        alpha=0.3,
        lw=0,
        label=r"density of $U$, $\Delta_\beta=0.2$ (rescaled)",
    )
    ax_b.axhline(0.0, color="0.3", lw=0.8)
    ax_c.axhline(0.0, color="0.3", lw=0.8)
    ax_c.axvline(float(DELTA_WEAK), color="0.6", lw=0.8, ls=":")
    ax_a.set(xlabel="$z$", ylabel="$g(z)$")
    ax_a.set_title("(a) two-transition links $g$", fontsize=9)
    ax_b.set(xlabel="$z$", ylabel="$g''(z)$")
    ax_b.set_title("(b) curvature $g''$ and Gaussian weight", fontsize=9)
    ax_c.set(xlabel=r"arm separation $\Delta_\beta$", ylabel=r"$\lambda_\star$")
    ax_c.set_title(r"(c) decision stability $\lambda_\star(\Delta_\beta)$", fontsize=9)
    ax_d.set(xlabel="round $t$", ylabel="$R_t/t$")
    ax_d.set_title(r"(d) NBL average regret, $\Delta_\beta=0.2$, 10° start", fontsize=9)

    e, f = data.table("e_we_links"), data.table("f_we_lambda_star")
    for r in RHOS:
        k = f"we-{r}"
        lab = rf"$\rho={r}$" + (" (logistic)" if r == "0" else "")
        ax_e.plot(e["z"], e[k], color=link_color(k), lw=1.5, label=lab)
        ax_f.plot(f["delta"], f[k], color=link_color(k), lw=1.5, label=lab)
    ax_f.axhline(0.0, color="0.3", lw=0.8)
    ax_e.set(xlabel="$z$", ylabel=r"$g_\rho(z)$")
    ax_e.set_title(r"(e) elicitation-induced links $g_\rho=(\varphi_\rho')^{-1}$", fontsize=9)
    ax_f.set(xlabel=r"arm separation $\Delta_\beta$", ylabel=r"$\lambda_\star$")
    ax_f.set_title(r"(f) $\lambda_\star$ under weak separation", fontsize=9)

    reps = data.settings["panels_g_h"]["reps"]
    _compare_panel(
        ax_g,
        data.table("g_compare_we"),
        [rf"$\rho={r}$" for r in RHOS],
        r"weighted-entropy link $g_\rho$",
        rf"(g) NBL vs Greedy Logistic, $\Delta_\beta=1$, $n=2000$ ({reps} reps)",
    )
    _compare_panel(
        ax_h,
        data.table("h_compare_tt"),
        [rf"$\mu_2={m}$" for m in ("-1.074", "2.144", "1.244")],
        "two-transition link",
        rf"(h) NBL vs Greedy Logistic, $\Delta_\beta=1$ ({reps} reps)",
    )
    for ax in (ax_a, ax_c, ax_d, ax_e, ax_f):
        ax.legend(fontsize=7, loc="best")
    ax_b.legend(fontsize=7, loc="upper right")
    fig.suptitle(
        "Top: decision stability and stochastic behavior.  "
        "Bottom: link misspecification and parametric comparison.",
        fontsize=11,
    )
    return fig
