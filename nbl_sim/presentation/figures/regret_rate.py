"""Beyond the paper: the empirical regret-rate study (thm:regret-rate, prop:localized-estimation,
lem:finite-horizon-localization, eq:error-to-regret) — see :mod:`nbl_sim.studies.rate_study`.

Eight panels: E[R_n] against log n per d for the two stable links (with the fitted a + b log n),
b/d against d, the localized error E[‖v_t − v*‖² 1{τ > t}] on log-log axes with its fitted slope,
the decay exponent against 2γκ next to min(1, 2γκ) and the exact linearized recursion, the exit
frequency against n0, the unstable contrast, and the exact error-to-regret ratio against the angle.
"""

from __future__ import annotations

import math

import numpy as np

from ..style import link_color, new_figure
from .base import FigureData

ID = "regret-rate"
LABEL = "thm:regret-rate"
TITLE = "Empirical regret rate, estimation rate, step-size threshold and localization"
CAPTION = (
    "E[R_n] = O(d log n) for stable links with n0 = ceil(C0 (d + log n)) and "
    "2 gamma lambda0 > 1; the localized error decays like d/t; below the step-size "
    "threshold the rate degrades."
)

_D_COLORS = ("#4c72b0", "#55a868", "#c44e52", "#8172b2", "#ccb974")


def study_cache():
    from nbl_sim.runs.sweep import DEFAULT_CACHE_DIR, ChunkCache

    return ChunkCache(DEFAULT_CACHE_DIR, "study")


def _regret_rows(a: dict) -> dict:
    rows = {
        "d": [],
        "n": [],
        "n0": [],
        "regret_mean": [],
        "regret_se": [],
        "stage2_mean": [],
        "stage2_se": [],
        "fit_log": [],
    }
    for d, r in a["by_d"].items():
        f = r["fit"]["log"]
        for k, n in enumerate(a["ns"]):
            rows["d"].append(d)
            rows["n"].append(n)
            rows["n0"].append(r["n0"][k])
            rows["regret_mean"].append(r["mean"][k])
            rows["regret_se"].append(r["se"][k])
            rows["stage2_mean"].append(r["stage2_mean"][k])
            rows["stage2_se"].append(r["stage2_se"][k])
            rows["fit_log"].append(f["a"] + f["b"] * math.log(n))
    return rows


def figure_data(res) -> FigureData:
    """Tables, settings and a summary line from a
    :class:`~nbl_sim.studies.rate_study.StudyResult`."""
    from nbl_sim.studies.regret_geometry import regret_scaling
    from nbl_theory.paper import paper_link

    an = res.analysis()
    cfg = res.config
    tables: dict = {}
    for prefix, part in (("regret", "regret"), ("regret_long", "regret_long")):
        for link, a in an[part].items():
            tables[f"{prefix}_{link}"] = _regret_rows(a)
    for link, a in an["regret"].items():
        fits = {"d": [], "model": [], "a": [], "b": [], "b_se": [], "chi2": [], "dof": []}
        for d, r in a["by_d"].items():
            for model in ("log", "sqrt", "linear"):
                f = r["fit"][model]
                for k, v in (
                    ("d", d),
                    ("model", model),
                    ("a", f["a"]),
                    ("b", f["b"]),
                    ("b_se", f["b_se"]),
                    ("chi2", f["chi2"]),
                    ("dof", f["dof"]),
                ):
                    fits[k].append(v)
        tables[f"fits_{link}"] = fits
    for link, a in an["estimation"].items():
        rows = {"d": [], "t": [], "t_plus_t0": [], "mean": [], "se": []}
        for d, r in a["by_d"].items():
            for t, m, s in zip(r["t"], r["mean"], r["se"]):
                rows["d"].append(d)
                rows["t"].append(t)
                rows["t_plus_t0"].append(t + r["t0"])
                rows["mean"].append(m)
                rows["se"].append(s)
        tables[f"error_{link}"] = rows
    g = an["gamma"]
    tables["gamma_exponent"] = {
        k: [row[src] for row in g["rows"]]
        for k, src in (
            ("two_gamma_kappa", "two_gamma_kappa"),
            ("gamma", "gamma"),
            ("predicted", "predicted_exponent"),
            ("window_prediction", "window_prediction"),
            ("measured", "measured"),
            ("measured_lo", "measured_lo"),
            ("measured_hi", "measured_hi"),
        )
    }
    loc = {"d": [], "n0": [], "p_exit": [], "se": [], "reps": []}
    for d, rows in an["localization"]["by_d"].items():
        for row in rows:
            for k in ("n0", "p_exit", "se", "reps"):
                loc[k].append(row[k])
            loc["d"].append(d)
    tables["localization"] = loc
    con = {"link": [], "n": [], "regret_mean": [], "regret_se": [], "angle_deg": []}
    for link, r in an["contrast"].items():
        for n, m, s, a in zip(r["ns"], r["mean"], r["se"], r["angle_deg"]):
            con["link"].append(link)
            con["n"].append(n)
            con["regret_mean"].append(m)
            con["regret_se"].append(s)
            con["angle_deg"].append(a)
    tables["contrast"] = con
    alphas = np.geomspace(1e-3, math.pi, 40)
    e2r = {"link": [], "psi": [], "alpha": [], "ratio": [], "limit": []}
    for link in cfg.links:
        for psi in (0.0, math.pi / 2):
            sc = regret_scaling(paper_link(link), cfg.delta, psi, alphas)
            for al, ra in zip(sc["alphas"], sc["ratio"]):
                e2r["link"].append(link)
                e2r["psi"].append(psi)
                e2r["alpha"].append(float(al))
                e2r["ratio"].append(float(ra))
                e2r["limit"].append(float(sc["limit"]))
    tables["error_to_regret"] = e2r

    parts = []
    for link, a in an["regret"].items():
        best = {d: r["fit"]["best"] for d, r in a["by_d"].items()}
        q = a["b_exponent"]
        parts.append(
            f"{link}: best growth model per d {best}"
            + (f", b ~ d^{q['q']:.2f}+-{q['q_se']:.2f}" if q else "")
        )
    for link, a in an["regret_long"].items():
        parts.append(
            f"{link} long arm (n to {a['ns'][-1]}): best model per d "
            + str({d: r["fit"]["best"] for d, r in a["by_d"].items()})
        )
    for link, a in an["estimation"].items():
        parts.append(
            f"{link} error slopes "
            + ", ".join(f"d={d}: {r['slope']['slope']:.2f}" for d, r in a["by_d"].items())
        )
    parts.append(
        "exponent vs 2 gamma kappa: "
        + ", ".join(
            f"{r['two_gamma_kappa']:g}: {r['measured']:.2f} (pred {r['window_prediction']:.2f})"
            for r in g["rows"]
        )
    )
    for link, r in an["contrast"].items():
        parts.append(f"{link} R_n ~ n^{r['slope']['slope']:.2f}")
    settings = {
        "config": cfg.name,
        "C0": cfg.C0,
        "delta": cfg.delta,
        "dims": list(cfg.dims),
        "ns": list(cfg.ns),
        "reps": cfg.reps,
        "seed": cfg.seed,
        "gamma": res.constants["gamma"],
        "r0": {f"{k[0]}, d={k[1]}": v for k, v in res.constants["r0"].items()},
        "two_gamma_lambda0": {
            f"{k[0]}, d={k[1]}": v for k, v in res.constants["two_gamma_lambda0"].items()
        },
        "gamma_link": cfg.gamma_link,
        "gamma_t0": cfg.gamma_t0,
        "gamma_start_deg": cfg.gamma_start_deg,
        "loc_n": cfg.loc_n,
        "loc_reps": cfg.loc_reps,
        "contrast_delta": cfg.contrast_delta,
        "contrast_gamma": cfg.contrast_gamma,
        "contrast_t0": cfg.contrast_t0,
        "seconds": res.seconds,
        "executor": res.executor,
    }
    return FigureData(tables, settings, "; ".join(parts), extra={"analysis": an})


def compute(quick: bool = False) -> FigureData:
    from nbl_sim.studies.rate_study import FULL, QUICK, run_study

    return figure_data(run_study(QUICK if quick else FULL, cache=study_cache()))


def draw(data: FigureData):
    an = data.extra["analysis"]
    fig, axes = new_figure(2, 4, width=18.0, height=8.2)
    ax = axes.ravel()
    # (a), (b) regret vs log n per d
    for i, link in enumerate(list(an["regret"])[:2]):
        t = data.table(f"regret_{link}")
        for j, d in enumerate(sorted(set(t["d"].tolist()))):
            s = t["d"] == d
            n, m, se = t["n"][s], t["regret_mean"][s], t["regret_se"][s]
            c = _D_COLORS[j % len(_D_COLORS)]
            ax[i].fill_between(n, m - 1.96 * se, m + 1.96 * se, color=c, alpha=0.2, lw=0)
            ax[i].plot(n, m, "o", color=c, ms=3.5, label=f"d = {d}")
            ax[i].plot(n, t["fit_log"][s], "-", color=c, lw=1)
        if f"regret_long_{link}" in data.tables:
            main_dims = sorted(set(t["d"].tolist()))  # the long arm keeps each d's colour
            t = data.table(f"regret_long_{link}")
            for d in sorted(set(t["d"].tolist())):
                s = t["d"] == d
                k = main_dims.index(d) if d in main_dims else len(main_dims)
                c = _D_COLORS[k % len(_D_COLORS)]
                ax[i].errorbar(
                    t["n"][s],
                    t["regret_mean"][s],
                    yerr=1.96 * t["regret_se"][s],
                    fmt="s",
                    mfc="none",
                    color=c,
                    ms=4,
                    capsize=2,
                    label=f"d = {d}, long arm",
                )
                ax[i].plot(t["n"][s], t["fit_log"][s], "--", color=c, lw=1)
        ax[i].set_xscale("log")
        ax[i].set_xlabel("n (log scale)")
        ax[i].set_ylabel("E[R_n] (95% band)")
        ax[i].set_title(f"({'ab'[i]}) {link}: regret vs log n, fit a + b log n", fontsize=9)
        ax[i].legend(fontsize=7)
    # (c) b/d vs d
    for link, a in an["regret"].items():
        ds = sorted(a["by_d"])
        bd = [a["by_d"][d]["b_over_d"] for d in ds]
        bse = [1.96 * a["by_d"][d]["b_over_d_se"] for d in ds]
        q = a["b_exponent"]
        ax[2].errorbar(
            ds,
            bd,
            yerr=bse,
            marker="o",
            color=link_color(link),
            capsize=3,
            label=f"{link}" + (f" (b ~ d^{q['q']:.2f})" if q else ""),
        )
    ax[2].set_xscale("log", base=2)
    ax[2].set_xlabel("d")
    ax[2].set_ylabel("b / d  (log-n coefficient per dimension)")
    ax[2].set_title("(c) log-n coefficient over d", fontsize=9)
    ax[2].legend(fontsize=7)
    # (d) localized error, first link
    link0 = next(iter(an["estimation"]))
    t = data.table(f"error_{link0}")
    for j, d in enumerate(sorted(set(t["d"].tolist()))):
        s = (t["d"] == d) & (t["mean"] > 0)
        c = _D_COLORS[j % len(_D_COLORS)]
        sl = an["estimation"][link0]["by_d"][d]["slope"]
        ax[3].plot(
            t["t_plus_t0"][s],
            t["mean"][s],
            "-",
            color=c,
            label=f"d = {d}: slope {sl['slope']:.2f} [{sl['lo']:.2f}, {sl['hi']:.2f}]",
        )
    xs = t["t_plus_t0"]
    if xs.size:
        ref = np.geomspace(xs.min(), xs.max(), 10)
        ax[3].plot(ref, 10 * t["mean"].max() * ref[0] / ref, "k:", lw=1, label="slope -1")
    ax[3].set_xscale("log")
    ax[3].set_yscale("log")
    ax[3].set_xlabel("t + t0")
    ax[3].set_ylabel("E[|v_t - v*|^2 1{tau > t}]")
    ax[3].set_title(f"(d) {link0}: localized estimation error", fontsize=9)
    ax[3].legend(fontsize=6)
    # (e) exponent vs 2 gamma kappa
    g = data.table("gamma_exponent")
    x = np.linspace(0, max(3.2, float(g["two_gamma_kappa"].max()) + 0.2), 200)
    ax[4].plot(x, np.minimum(1, x), "k-", lw=1, label="min(1, 2 gamma kappa)")
    ax[4].plot(
        g["two_gamma_kappa"],
        g["window_prediction"],
        "s",
        mfc="none",
        color="0.3",
        label="linearized recursion, same window",
    )
    ax[4].errorbar(
        g["two_gamma_kappa"],
        g["measured"],
        yerr=[g["measured"] - g["measured_lo"], g["measured_hi"] - g["measured"]],
        fmt="o",
        color="#c44e52",
        capsize=3,
        label="measured (95% bootstrap)",
    )
    ax[4].axvline(1.0, color="0.6", ls="--", lw=1)
    ax[4].set_xlabel("2 gamma kappa  (threshold 1)")
    ax[4].set_ylabel("decay exponent of the error")
    ax[4].set_title(f"(e) step-size threshold, kappa = {an['gamma']['kappa']:.4f}", fontsize=9)
    ax[4].legend(fontsize=7)
    # (f) localization
    lt = data.table("localization")
    for j, d in enumerate(sorted(set(lt["d"].tolist()))):
        s = lt["d"] == d
        p = np.maximum(lt["p_exit"][s], 0.5 / lt["reps"][s])
        ax[5].errorbar(
            lt["n0"][s],
            p,
            yerr=1.96 * lt["se"][s],
            marker="o",
            capsize=3,
            color=_D_COLORS[j % len(_D_COLORS)],
            label=f"d = {d}",
        )
    ax[5].set_xscale("log")
    ax[5].set_yscale("log")
    ax[5].set_xlabel("n0")
    ax[5].set_ylabel("P(tau <= n)  (0 drawn at 1/(2 reps))")
    r0s = ", ".join(f"{r:.3f}" for r in an["localization"]["r0"].values())
    ax[5].set_title(f"(f) leaving r0 (= {r0s}) vs n0", fontsize=9)
    ax[5].legend(fontsize=7)
    # (g) contrast
    ct = data.table("contrast")
    for link in dict.fromkeys(ct["link"].tolist()):
        s = ct["link"] == link
        sl = an["contrast"][link]["slope"]
        ax[6].errorbar(
            ct["n"][s],
            ct["regret_mean"][s],
            yerr=1.96 * ct["regret_se"][s],
            marker="o",
            capsize=3,
            color=link_color(link),
            label=f"{link}: R_n ~ n^{sl['slope']:.2f}",
        )
    ax[6].set_xscale("log")
    ax[6].set_yscale("log")
    ax[6].set_xlabel("n")
    ax[6].set_ylabel("E[R_n]")
    ax[6].set_title("(g) unstable contrast (Delta = 0.2, 10 deg start)", fontsize=9)
    ax[6].legend(fontsize=7)
    # (h) error-to-regret
    et = data.table("error_to_regret")
    for link in dict.fromkeys(et["link"].tolist()):
        for psi, ls in ((0.0, "-"), (math.pi / 2, "--")):
            s = (et["link"] == link) & np.isclose(et["psi"], psi)
            ax[7].plot(
                np.degrees(et["alpha"][s]),
                et["ratio"][s],
                ls,
                color=link_color(link),
                label=f"{link}, {'in-plane' if psi == 0 else 'out-of-plane'}",
            )
    ax[7].set_xscale("log")
    ax[7].set_xlabel("angle between v and v* (deg)")
    ax[7].set_ylabel("E[r | v] / ((Delta/2) |v - v*|^2)")
    ax[7].set_title("(h) error-to-regret ratio (exact quadrature)", fontsize=9)
    ax[7].legend(fontsize=6)
    return fig
