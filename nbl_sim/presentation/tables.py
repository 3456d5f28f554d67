"""The text the ``nbl`` command prints: its tables (rich) and the lines around them.

Every ``*_report`` function takes computed results and returns a *report*: a list of blocks, each
a line of text or a :class:`rich.table.Table`; :func:`render` turns a report into plain text (no
colors, no markup), as wide as the widest table unless a width is given (then rich wraps cells).
Full digits are in the commands' ``--json`` output; tables shorten long decimals.
"""

from __future__ import annotations

import io
import math

from rich import box
from rich.console import Console
from rich.table import Table

__all__ = [
    "make_table",
    "render",
    "short_decimal",
    "clip",
    "stability_report",
    "threshold_report",
    "concordance_report",
    "simulation_report",
    "figure_list_report",
    "reproduce_report",
    "phase_report",
    "study_report",
    "claims_report",
    "exact_threshold_text",
]

#: rich's SIMPLE_HEAD in ASCII: a dashed line under the header, no other rules
_BOX = box.Box("    \n    \n -- \n    \n    \n    \n    \n    \n", ascii=True)
_UNBOUNDED = 10_000


def make_table(headers, rows) -> Table:
    """A table with a header line and one line per row (cells shown with ``str``)."""
    t = Table(box=_BOX, show_edge=False, pad_edge=False, header_style=None, highlight=False)
    for h in headers:
        t.add_column(str(h), overflow="fold")
    for r in rows:
        t.add_row(*(str(c) for c in r))
    return t


def render(report, width: int | None = None) -> str:
    """Plain text of ``report`` (a list of str / Table blocks, or one block)."""
    blocks = report if isinstance(report, list) else [report]
    out = []
    for b in blocks:
        if isinstance(b, str):
            out.append(b)
            continue
        buf = io.StringIO()
        Console(
            file=buf,
            width=width or _UNBOUNDED,
            color_system=None,
            force_terminal=False,
            markup=False,
            highlight=False,
            emoji=False,
        ).print(b)
        out.append("\n".join(line.rstrip() for line in buf.getvalue().rstrip("\n").split("\n")))
    return "\n".join(out)


def short_decimal(x: str, n: int = 14) -> str:
    """A decimal string shortened to about ``n`` characters (full digits are in the JSON)."""
    import mpmath  # here: the tables of nbl simulate do not import it (16 ms)

    with mpmath.workdps(max(n + 5, 30)):
        return mpmath.nstr(mpmath.mpf(x), n - 4 if n > 8 else n, min_fixed=-4, max_fixed=6)


def clip(x, n: int = 48) -> str:
    """``x`` on one line, cut to ``n`` characters (``-`` for None)."""
    s = " ".join(str(x).split()) if x is not None else "-"
    return s if len(s) <= n else s[: n - 1] + "~"


def _band(mean: float, se: float | None, fmt: str) -> str:
    """``mean +- 1.96 se``; ``mean +- n/a`` where the SE is undefined (one replication)."""
    if se is None or not math.isfinite(se):
        return f"{mean:{fmt}} +- n/a"
    return f"{mean:{fmt}} +- {1.96 * se:{fmt}}"


# ---------------------------------------------------------------------- theory
_STABILITY_LINES = (
    ("mu_g", "mu_g = E g'(Z)"),
    ("mu_star", "mu*  (eq:mu_star_m2_def)"),
    ("m0", "m0 = E g(U)"),
    ("m2", "m2 = E g''(U)"),
    ("kappa_star", "kappa* (eq:app-kappa-identity)"),
    ("lambda_star", "lambda* (eq:decision_stability)"),
)


def _lambda_digits(r) -> int:
    """The significant digits of λ* its error supports: the certified ball's digits, else
    ⌊log10(|λ*|/error)⌋ capped at the tier's working digits (an undecided λ* has none, though
    mpmath carried 120 digits)."""
    if r.certified:
        return r.digits
    lam, err = abs(float(r.lambda_star)), abs(float(r.errors["lambda_star"]))
    if lam == 0 or not math.isfinite(lam) or not math.isfinite(err):
        return 0
    if err == 0:
        return r.digits
    return max(0, min(r.digits, math.floor(math.log10(lam / err))))


def _stability_breakdown(r) -> list[str]:
    j = r.to_json()
    lines = [
        f"\n{r.link} at delta = {r.delta}   [{r.description}]",
        f"  tier {r.tier}, {_lambda_digits(r)} digits of lambda*"
        + (" (certified Arb enclosure)" if r.certified else " (error estimates, not proofs)"),
    ]
    lines += [f"  {label:<34} {j[k]}   (+/- {j['errors'][k]})" for k, label in _STABILITY_LINES]
    lo, hi = j["lambda_star_enclosure"]
    jr = j["jacobian_rates"]
    lines += [
        f"  lambda* enclosure                  [{lo}, {hi}]",
        f"  sign                               {r.sign}",
        "  local Jacobian Dh(v*) (prop:local_jacobian): eigenvalues are minus these rates",
        f"    along theta (multiplicity 1)     {jr['theta']}",
        f"    orthogonal to theta (mult. d-2)  {jr['orthogonal']}",
        f"    exact contraction rate, d = 2    {jr['contraction_rate_d2']}",
        f"    exact contraction rate, d >= 3   {jr['contraction_rate_d3plus']}  (= lambda*)",
    ]
    return lines + [f"  note: {note}" for note in r.notes]


def stability_report(results, verbose: bool = False) -> list:
    """One row per :class:`~nbl_theory.results.StabilityResult`, then the full breakdown of
    each (only when there is one result, or ``verbose``)."""
    rows = []
    for r in results:
        j = r.to_json()
        rows.append(
            [
                r.link,
                r.delta,
                short_decimal(j["mu_star"]),
                short_decimal(j["m2"]),
                short_decimal(j["lambda_star"], 16),
                r.sign,
                r.tier + ("" if r.tier == "float64" else f"/{_lambda_digits(r)}d"),
            ]
        )
    from .conclusions import stability_conclusion

    out: list = [
        make_table(["link", "delta", "mu_star", "m2", "lambda_star", "sign", "tier"], rows)
    ]
    out += [f"conclusion ({r.link}) {stability_conclusion(r)}" for r in results]
    if len(results) == 1 or verbose:
        for r in results:
            out += _stability_breakdown(r)
    if len(results) > 1 and not verbose:
        out.append("\n(use --verbose for the full breakdown of every row, --json for all digits)")
    return out


def threshold_report(res) -> list:
    """The sign changes of λ* found by :func:`nbl_theory.threshold.find_thresholds`."""
    fixed_txt = ", ".join(f"{k}={v}" for k, v in res.fixed.items())
    out: list = [
        f"roots of lambda* in {res.solve_for} on [{res.search_range[0]}, "
        f"{res.search_range[1]}]   link {res.link}"
        f"{'  ' + fixed_txt if fixed_txt else ''}"
    ]
    if res.roots:
        rows = [
            [
                i + 1,
                r.value,
                f"[{r.bracket[0]}, {r.bracket[1]}]",
                "yes" if r.certified else "no",
                r.crossing,
            ]
            for i, r in enumerate(res.roots)
        ]
        out.append(
            make_table(
                ["#", res.solve_for, "bracket", "certified", f"as {res.solve_for} grows"], rows
            )
        )
    return out + [f"note: {note}" for note in res.notes]


_MARGIN = "margin(Delta) = Delta/2 - phi0(0) (1 - Delta^2/4) R / kappa(R Delta/2)"


def exact_threshold_text(rep) -> tuple[str, str]:
    """(value, meaning) of the exact threshold of a
    :class:`~nbl_theory.self_concordance.SCReport`, in words when there is none."""
    from nbl_theory.self_concordance import EXACT_SCAN

    lo, hi, n = EXACT_SCAN
    x = rep.exact_threshold_delta
    if x is None:
        return "-", "not computed"
    if x <= lo:
        return "none", (
            f"never unstable on the scan: lambda* > 0 at all {n} scanned Deltas of [{lo}, {hi}]"
        )
    if x >= hi:
        return "none", f"unstable at the end of the scanned range: lambda* <= 0 at Delta = {hi}"
    # brentq to xtol = 1e-10 on float64 lambda*: 9 significant digits are sound
    return f"{x:.9g}", "lambda* > 0 at every scanned Delta above it"


def concordance_report(reports) -> list:
    """The sufficient stability condition of prop:self-concordance-stability, one block per
    :class:`~nbl_theory.self_concordance.SCReport`: R, κ, μ*, λ*, the margin (defined under
    the block), the lower bound, Δ_SC, the exact threshold and how conservative Δ_SC is."""
    out: list = []

    def num(x):
        return "-" if x is None else f"{x:.15g}"

    for rep in reports:
        c = rep.constant
        where = c.where if isinstance(c.where, str) else f"z = {c.where:.10g}"
        how = (
            ("attained everywhere" if where == "everywhere" else f"attained at {where}")
            if c.attained
            else f"a limit, approached at {where}"
        )
        at = "" if rep.delta is None else f" at Delta = {rep.delta!r}"
        value, meaning = exact_threshold_text(rep)
        exact = value not in ("none", "-")
        rows = [
            ("R = sup |g''|/g'", f"{c.R:.15g}  ({how})"),
            ("R closed form", "-" if c.closed_form is None else str(c.closed_form)),
        ]
        if rep.delta is not None:
            holds = (
                "holds (margin > 0)" if rep.sufficient_condition_holds else "fails (margin <= 0)"
            )
            rows += [
                ("kappa(R Delta/2)", num(rep.kappa)),
                ("mu*", num(rep.mu_star)),
                ("lambda* (float64)", num(rep.lambda_star)),
                ("margin(Delta)", num(rep.margin)),
                ("lower bound 2 mu* margin", num(rep.lower_bound)),
                ("sufficient condition", holds),
                ("lower bound <= lambda*", "yes" if rep.bound_consistent else "NO (FAIL)"),
            ]
        rows += [
            (
                "Delta_SC",
                (
                    "none (R = inf: the condition never holds)"
                    if math.isinf(c.R)
                    else "none (margin < 0 at every scanned Delta: the condition never holds)"
                )
                if rep.delta_sc is None
                else f"{rep.delta_sc:.12g}  (the condition holds for every Delta above it)",
            ),
            ("exact threshold", f"{value}  ({meaning})"),
            (
                "Delta_SC - exact threshold",
                f"{rep.conservativeness:.6g}  (how conservative the sufficient condition is)"
                if exact and rep.conservativeness is not None
                else "-  (no exact threshold on the scanned range)"
                if not exact
                else "-  (no Delta_SC)",
            ),
        ]
        if out:
            out.append("")
        out.append(f"self-concordance: {rep.link}{at}")
        out.append(make_table(["quantity", "value"], rows))
        out.append(f"  {_MARGIN} (prop:self-concordance-stability); lambda* >= 2 mu* margin")
        out += [f"  note: {n}" for n in list(c.notes) + list(rep.notes)]
    return out


# ---------------------------------------------------------------------- simulation
def simulation_report(res, env) -> list:
    """Heading, one row per policy (final regret, R_n/n, angle, squared error with 95% bands)
    and the run time of a :class:`~nbl_sim.studies.experiment.SimulationResult`."""
    p = res.params
    start = (
        f"init angle {p['init_angle']} deg"
        if p["init_angle"] is not None
        else f"n0 = {p['n0']} randomized rounds"
    )
    import numpy as np  # the simulation has imported it

    e1 = np.eye(env.d)[0]
    where = (
        ""
        if np.array_equal(env.v_star, e1)
        else ("; v* = (" + ", ".join(f"{x:.4g}" for x in env.v_star) + ")")
    )
    head = (
        f"{env.link.name}, delta = {env.delta_text}, d = {env.d}, {env.reward} rewards; "
        f"n = {p['n']}, {p['reps']} replications, seed {p['seed']}; {start}; "
        f"gamma = {p['gamma']:g}, t0 = {p['t0']:g}{where}"
    )
    rows = []
    for name, s in res.summary().items():
        ang = (
            "-"
            if s["final_angle_deg_mean"] is None
            else _band(s["final_angle_deg_mean"], s["final_angle_deg_se"], ".3f")
        )
        sq = "-" if s["final_sq_error_mean"] is None else f"{s['final_sq_error_mean']:.3e}"
        rows.append(
            [
                name,
                _band(s["final_regret_mean"], s["final_regret_se"], ".3f"),
                f"{s['final_avg_regret_mean']:.3e}",
                ang,
                sq,
                f"{s['seconds']:.3f}",
            ]
        )
    table = make_table(
        ["policy", "R_n (95% band)", "R_n/n", "angle_n deg (95% band)", "|v_n - v*|^2", "policy s"],
        rows,
    )
    when = f"{res.seconds:.2f} s on {res.executor}" + (
        " (policy s: the seconds of the run that filled the cache)"
        if res.executor == "cache"
        else ""
    )
    return [head, table, *_angle_wrap_notes(res), when]


def _angle_wrap_notes(res) -> list[str]:
    """A note per policy with replications ending more than 90° from v* (d = 2): their signed
    angles sit near ±180°, where the arithmetic mean of the column averages +179° and −179°
    to about 0 and means nothing; ‖v_n − v*‖² does not wrap."""
    import numpy as np  # the simulation has imported it

    if res.params["d"] != 2:
        return []
    out = []
    for name, p in res.policies.items():
        final = np.degrees(np.asarray(p.angle)[:, -1])
        far = int(np.sum(np.abs(final[np.isfinite(final)]) > 90.0))
        if far:
            out.append(
                f"note: {name}: {far} of {final.size} replications end more than 90 deg from "
                "v* (toward -v*); the mean angle averages across +-180 deg there and is not "
                "a location: read |v_n - v*|^2"
            )
    return out


def phase_report(pd) -> list:
    """Sign counts, the unstable intervals per Δ and the run time of a
    :class:`~nbl_sim.studies.phase.PhaseDiagram`."""
    counts = {k: int((pd.sign == k).sum()) for k in ("stable", "unstable", "undecided", "failed")}
    out: list = [
        f"{pd.family} ({pd.param} x delta), {len(pd.values)} x {len(pd.deltas)} grid, "
        f"tier {pd.tier}: " + ", ".join(f"{k} {v}" for k, v in counts.items())
    ]
    rows = [[f"{float(d):.6g}", f"{lo:.6g}", f"{hi:.6g}"] for d, lo, hi in pd.unstable_intervals()]
    out.append(
        make_table(["delta", f"unstable {pd.param} from", "to (grid)"], rows)
        if rows
        else "no grid point with lambda* < 0"
    )
    out.append(
        f"{pd.seconds:.2f} s on {pd.executor}"
        + (f" ({pd.cached} columns from the cache)" if pd.cached else "")
    )
    return out


# ---------------------------------------------------------------------- figures
def _attr(module, name: str, fig_id: str) -> str:
    val = getattr(module, name)
    return val if isinstance(val, str) else val[fig_id]


def figure_list_report(registry: dict) -> list:
    """The figures of :func:`nbl_sim.presentation.figures.load_figures`."""
    rows = [
        [fid, _attr(mod, "LABEL", fid), _attr(mod, "TITLE", fid)] for fid, mod in registry.items()
    ]
    return [make_table(["figure", "paper label", "title"], rows)]


def reproduce_report(records: list[dict], out_dir) -> list:
    """One row per figure record of :func:`nbl_sim.presentation.reproduce.reproduce`."""
    rows = [
        [
            r["id"],
            r["label"],
            f"{r['seconds']:.1f}",
            "yes" if r["cached"] else "no",
            clip(r["summary"], 70),
        ]
        for r in records
    ]
    return [
        make_table(["figure", "paper label", "s", "cached", "reproduction shows"], rows),
        f"gallery: {out_dir}/index.md",
    ]


# ---------------------------------------------------------------------- the regret-rate study
def _chi2(fit: dict) -> str:
    return " / ".join(f"{fit[m]['chi2']:.1f}" for m in ("log", "sqrt", "linear"))


def _study_regret(an: dict, cfg) -> list:
    out: list = []
    for link, a in an["regret"].items():
        out.append(
            f"\n{link}, Delta = {cfg.delta}, gamma = {a['gamma']} (2 gamma kappa = 2), "
            f"C0 = {a['C0']:g}, {cfg.reps} replications:"
        )
        rows = [
            [
                d,
                _band(r["mean"][0], r["se"][0], ".2f"),
                _band(r["mean"][-1], r["se"][-1], ".2f"),
                _chi2(r["fit"]),
                r["fit"]["best"],
                _band(r["b_over_d"], r["b_over_d_se"], ".3f"),
            ]
            for d, r in a["by_d"].items()
        ]
        out.append(
            make_table(
                [
                    "d",
                    f"R_n at n={cfg.ns[0]}",
                    f"R_n at n={cfg.ns[-1]}",
                    "chi2 log/sqrt/lin",
                    "best",
                    "b/d (95%)",
                ],
                rows,
            )
        )
        if a["b_exponent"]:
            q = a["b_exponent"]
            out.append(f"b ~ d^q: q = {q['q']:.3f} +- {1.96 * q['q_se']:.3f} (95%)")
    for link, a in an["regret_long"].items():
        out.append(
            f"\n{link}, long horizons n = {a['ns'][0]} .. {a['ns'][-1]}, "
            f"{cfg.long_reps} replications:"
        )
        rows = []
        for d, r in a["by_d"].items():
            e = an["estimation_long"][link]["by_d"][d]["slope"]
            rows.append(
                [
                    d,
                    _band(r["mean"][0], r["se"][0], ".2f"),
                    _band(r["mean"][-1], r["se"][-1], ".2f"),
                    _chi2(r["fit"]),
                    r["fit"]["best"],
                    f"{e['slope']:.3f} [{e['lo']:.3f}, {e['hi']:.3f}]",
                ]
            )
        out.append(
            make_table(
                [
                    "d",
                    f"R_n at n={a['ns'][0]}",
                    f"R_n at n={a['ns'][-1]}",
                    "chi2 log/sqrt/lin",
                    "best",
                    "error slope (95%)",
                ],
                rows,
            )
        )
    return out


def _study_rates(an: dict, cfg) -> list:
    out: list = [
        "\nlocalized error E[|v_t - v*|^2 1{tau > t}]: log-log slope vs t + t0 (95% bootstrap)"
    ]
    rows, models = [], []
    for link, a in an["estimation"].items():
        for d, r in a["by_d"].items():
            s = r["slope"]
            rows.append(
                [
                    link,
                    d,
                    f"{s['slope']:.3f} [{s['lo']:.3f}, {s['hi']:.3f}]",
                    f"{r['scaled_end']:.3f}",
                    f"{r['exited']}/{r['reps']}",
                ]
            )
        m = a["d_model"]
        if m:
            models.append(
                f"{link}: over d >= 3, (t+t0) a_t at n = C (d - c) with C = "
                f"{m['C']:.1f} [{m['C_ci'][0]:.1f}, {m['C_ci'][1]:.1f}], c = "
                f"{m['c']:.2f} [{m['c_ci'][0]:.2f}, {m['c_ci'][1]:.2f}] (95%), chi2 "
                f"{m['chi2']:.1f} on {m['dof']} dof (d = 2 apart)"
            )
    out.append(make_table(["link", "d", "slope", "(t+t0) a_t/d at n", "exited r0"], rows))
    out += models
    g = an["gamma"]
    out.append(
        f"\nstep size ({cfg.gamma_link}, d = 2, kappa = {g['kappa']:.5f}, gamma_c = "
        f"{g['gamma_c']:.3f}): decay exponent of the localized error"
    )
    rows = [
        [
            f"{r['two_gamma_kappa']:g}",
            f"{r['gamma']:.3f}",
            f"{r['predicted_exponent']:.3f}",
            f"{r['window_prediction']:.3f}",
            f"{r['measured']:.3f} [{r['measured_lo']:.3f}, {r['measured_hi']:.3f}]",
        ]
        for r in g["rows"]
    ]
    out.append(
        make_table(
            ["2 gamma kappa", "gamma", "min(1, 2gk)", "linearized, same window", "measured (95%)"],
            rows,
        )
    )
    return out


def _study_localization(an: dict, cfg) -> list:
    loc = an["localization"]
    r0s = ", ".join(f"d = {d}: {r:.4f}" for d, r in loc["r0"].items())
    out: list = [f"\nlocalization ({loc['link']}, r0 {r0s}, n = {cfg.loc_n}): P(tau <= n)"]
    rows = [
        [d, r["n0"], _band(r["p_exit"], r["se"], ".4f"), f"{r['start_outside']}/{r['reps']}"]
        for d, rs in loc["by_d"].items()
        for r in rs
    ]
    out.append(make_table(["d", "n0", "P(exit) (95%)", "v_n0 outside r0"], rows))
    out.append(
        f"\nunstable contrast (Delta = {cfg.contrast_delta}, gamma = "
        f"{cfg.contrast_gamma:g}, t0 = {cfg.contrast_t0:g}, "
        f"{cfg.contrast_start_deg:g} deg start)"
    )
    rows = [
        [
            link,
            _band(r["mean"][-1], r["se"][-1], ".2f"),
            f"{r['slope']['slope']:.3f} [{r['slope']['lo']:.3f}, {r['slope']['hi']:.3f}]",
            r["fit"]["best"],
            f"{r['angle_deg'][-1]:.2f}",
        ]
        for link, r in an["contrast"].items()
    ]
    out.append(
        make_table(
            [
                "link",
                f"R_n at n={cfg.contrast_ns[-1]}",
                "R_n ~ n^p (95%)",
                "best model",
                "angle at n (deg)",
            ],
            rows,
        )
    )
    return out


def study_report(res, an: dict) -> list:
    """The regret-rate study (:class:`~nbl_sim.studies.rate_study.StudyResult` ``res`` and its
    analysis ``an``): regret growth per link and d, the long arm, the localized error rates,
    the step-size threshold, localization against n0 and the unstable contrast."""
    cfg = res.config
    head = (
        f"regret-rate study ({cfg.name}): {res.seconds:.1f} s on {res.executor}; "
        f"{res.cached} cells from the cache, {res.computed} computed"
    )
    return [head, *_study_regret(an, cfg), *_study_rates(an, cfg), *_study_localization(an, cfg)]


# ---------------------------------------------------------------------- claims
def claims_report(results, flagged_statuses=("DISCREPANCY", "FAIL")) -> list:
    """One row per claim result (id, label, status, computed, seconds), then the details of
    every result whose status is in ``flagged_statuses``."""
    rows = [[r.id, r.label, r.status, clip(r.computed), f"{r.seconds:.2f}"] for r in results]
    out: list = [make_table(["claim", "paper label", "status", "computed", "s"], rows)]
    for r in results:
        if r.status in flagged_statuses:
            out.append(
                f"\n{r.status}: {r.id} ({r.label})\n  paper:    {r.printed}\n"
                f"  computed: {r.computed}\n  {r.detail}"
            )
    return out
