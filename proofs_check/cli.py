"""The ``nbl`` command (contract in DESIGN.md).

::

    nbl stability        LINK --delta D [--dps N] [--certify] [--json]
    nbl threshold        LINK --solve-for delta|PARAM [--delta D] [--bracket LO HI] [--json]
    nbl self-concordance LINK [--delta D] [--json]
    nbl simulate         LINK --delta D [--d 2] [--n N] [--reps R] [--n0 N0 | --init-angle DEG]
                         [--gamma G] [--t0 T0] [--policy nbl|greedy-logistic|oracle|both|all]
                         [--seed S] [--out DIR] [--json]
    nbl reproduce        [FIGURE ...] [--quick] [--out DIR] [--no-cache] [--list]
    nbl check            [--quick] [--out DIR]
    LINK := --link EXPR_IN_z | --potential EXPR_IN_m [--domain LO,HI]
          | --family NAME [--param k=v ...]

Bad input prints one line ``nbl: error: ...`` on stderr and exits with status 2; nothing else
happens. Comma-separated values in ``--param k=v1,v2`` and ``--delta D1,D2`` give one row per
combination.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys

from nbl_theory.errors import NBLInputError
from nbl_theory.families import FAMILIES, make_family
from nbl_theory.links import Link

__all__ = ["main", "build_parser"]


# ---------------------------------------------------------------------- link arguments
def _add_link_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("link (exactly one of --link, --potential, --family)")
    g.add_argument("--link", metavar="EXPR", help="link g as an expression in z, e.g. 'tanh(z)'")
    g.add_argument(
        "--potential",
        metavar="EXPR",
        help="strictly convex potential phi as an expression in m; g = (phi')^-1",
    )
    g.add_argument(
        "--domain",
        metavar="LO,HI",
        default=None,
        help="domain of the potential (default 0,1); use inf/-inf for unbounded ends",
    )
    g.add_argument("--family", metavar="NAME", help="named family: " + ", ".join(sorted(FAMILIES)))
    g.add_argument(
        "--param",
        metavar="k=v",
        action="append",
        default=[],
        help="family parameter (repeatable; v1,v2,... gives one row per value)",
    )


def _parse_params(items) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for item in items:
        if "=" not in item:
            raise NBLInputError(f"--param expects k=v, got {item!r}")
        k, v = item.split("=", 1)
        k = k.strip()
        if not k.isidentifier():
            raise NBLInputError(f"--param name {k!r} is not a valid parameter name")
        vals = [x.strip() for x in v.split(",") if x.strip()]
        if not vals:
            raise NBLInputError(f"--param {k} has no value")
        out.setdefault(k, []).extend(vals)
    return out


def _links_from_args(args) -> list[Link]:
    chosen = [x for x in (args.link, args.potential, args.family) if x is not None]
    if len(chosen) != 1:
        raise NBLInputError("give exactly one of --link EXPR, --potential EXPR, --family NAME")
    if args.domain is not None and args.potential is None:
        raise NBLInputError("--domain only applies to --potential")
    if args.param and args.family is None:
        raise NBLInputError("--param only applies to --family")
    if args.link is not None:
        return [Link.from_expression(args.link)]
    if args.potential is not None:
        return [Link.from_potential(args.potential, domain=args.domain or "0,1")]
    params = _parse_params(args.param)
    keys = list(params)
    return [
        make_family(args.family, **dict(zip(keys, combo)))
        for combo in itertools.product(*(params[k] for k in keys))
    ]


def _deltas(text: str | None) -> list[str]:
    if text is None:
        raise NBLInputError("--delta is required")
    vals = [x.strip() for x in str(text).split(",") if x.strip()]
    if not vals:
        raise NBLInputError("--delta has no value")
    return vals


# ---------------------------------------------------------------------- output helpers
def _progress(label: str):
    if not sys.stderr.isatty():
        return None

    def show(i, n):
        width = 30
        done = int(width * i / n)
        sys.stderr.write(f"\r{label} [{'#' * done}{'.' * (width - done)}] {i}/{n}")
        if i == n:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def _table(headers, rows) -> str:
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    line = "  ".join(str(h).ljust(w) for h, w in zip(headers, widths))
    sep = "  ".join("-" * w for w in widths)
    body = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join([line, sep, *body])


def _short(x: str, n: int = 14) -> str:
    """Shorten a decimal string for the summary table (full digits are in the detail/JSON)."""
    import mpmath

    with mpmath.workdps(max(n + 5, 30)):
        return mpmath.nstr(mpmath.mpf(x), n - 4 if n > 8 else n, min_fixed=-4, max_fixed=6)


# ---------------------------------------------------------------------- subcommands
def cmd_stability(args) -> int:
    from nbl_theory.stability import stability

    links = _links_from_args(args)
    deltas = _deltas(args.delta)
    results = [
        stability(link, d, dps=args.dps, certify=args.certify) for link in links for d in deltas
    ]
    if args.json:
        payload = [r.to_json() for r in results]
        print(json.dumps(payload[0] if len(payload) == 1 else payload, indent=2))
        return 0
    rows = []
    for r in results:
        j = r.to_json()
        rows.append(
            [
                r.link,
                r.delta,
                _short(j["mu_star"]),
                _short(j["m2"]),
                _short(j["lambda_star"], 16),
                r.sign,
                r.tier + ("" if r.tier == "float64" else f"/{r.digits}d"),
            ]
        )
    print(_table(["link", "delta", "mu_star", "m2", "lambda_star", "sign", "tier"], rows))
    for r in results if (len(results) == 1 or args.verbose) else []:
        j = r.to_json()
        print(f"\n{r.link} at delta = {r.delta}   [{r.description}]")
        print(
            f"  tier {r.tier}, {r.digits} digits"
            + (" (certified Arb enclosure)" if r.certified else " (error estimates, not proofs)")
        )
        for k, label in (
            ("mu_g", "mu_g = E g'(Z)"),
            ("mu_star", "mu*  (eq:mu_star_m2_def)"),
            ("m0", "m0 = E g(U)"),
            ("m2", "m2 = E g''(U)"),
            ("kappa_star", "kappa* (eq:app-kappa-identity)"),
            ("lambda_star", "lambda* (eq:decision_stability)"),
        ):
            print(f"  {label:<34} {j[k]}   (+/- {j['errors'][k]})")
        lo, hi = j["lambda_star_enclosure"]
        print(f"  lambda* enclosure                  [{lo}, {hi}]")
        print(f"  sign                               {r.sign}")
        jr = j["jacobian_rates"]
        print("  local Jacobian Dh(v*) (prop:local_jacobian): eigenvalues are minus these rates")
        print(f"    along theta (multiplicity 1)     {jr['theta']}")
        print(f"    orthogonal to theta (mult. d-2)  {jr['orthogonal']}")
        print(f"    exact contraction rate, d = 2    {jr['contraction_rate_d2']}")
        print(f"    exact contraction rate, d >= 3   {jr['contraction_rate_d3plus']}  (= lambda*)")
        for note in r.notes:
            print(f"  note: {note}")
    if len(results) > 1 and not args.verbose:
        print("\n(use --verbose for the full breakdown of every row, --json for all digits)")
    return 0


def cmd_threshold(args) -> int:
    from nbl_theory.threshold import find_thresholds

    solve_for = args.solve_for
    if solve_for == "delta":
        links = _links_from_args(args)
        if len(links) != 1:
            raise NBLInputError("threshold takes a single link (no comma lists in --param)")
        link = links[0]
        res = find_thresholds(
            link,
            "delta",
            bracket=args.bracket,
            grid=args.grid,
            dps=args.dps,
            certify=not args.no_certify,
            label=link.name,
            progress=_progress("scanning delta"),
        )
    else:
        if args.family is None:
            raise NBLInputError(
                f"--solve-for {solve_for} needs --family (parameters belong to families)"
            )
        fixed = _parse_params(args.param)
        if solve_for in fixed:
            raise NBLInputError(f"do not fix --param {solve_for}: it is the unknown")
        if any(len(v) != 1 for v in fixed.values()):
            raise NBLInputError("threshold takes a single value per fixed --param")
        fixed1 = {k: v[0] for k, v in fixed.items()}
        # validate the family and parameter name once, with a clear message
        probe = make_family(args.family, **fixed1)
        if solve_for not in probe.params:
            raise NBLInputError(
                f"family {args.family!r} has no parameter {solve_for!r}; "
                f"parameters are {sorted(probe.params)}"
            )

        def build(value: str) -> Link:
            return make_family(args.family, **fixed1, **{solve_for: value})

        res = find_thresholds(
            build,
            solve_for,
            delta=args.delta,
            bracket=args.bracket,
            grid=args.grid,
            dps=args.dps,
            certify=not args.no_certify,
            label=probe.name.split("(")[0],
            progress=_progress(f"scanning {solve_for}"),
        )
    if args.plot:
        from nbl_theory.plots import plot_threshold_scan

        written = plot_threshold_scan(res, args.plot)
        res.notes.append(f"plot written to {written}")
    if args.json:
        print(json.dumps(res.to_json(), indent=2))
        return 0
    fixed_txt = ", ".join(f"{k}={v}" for k, v in res.fixed.items())
    print(
        f"lambda* = 0 for {res.solve_for} in [{res.search_range[0]}, {res.search_range[1]}]"
        f"   link {res.link}{'  ' + fixed_txt if fixed_txt else ''}"
    )
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
        print(
            _table(["#", res.solve_for, "bracket", "certified", f"as {res.solve_for} grows"], rows)
        )
    for note in res.notes:
        print(f"note: {note}")
    return 0


def cmd_self_concordance(args) -> int:
    from nbl_theory.self_concordance import self_concordance_report

    links = _links_from_args(args)
    deltas = _deltas(args.delta) if args.delta is not None else [None]
    reports = [self_concordance_report(link, d) for link in links for d in deltas]
    if args.json:
        payload = [r.to_json() for r in reports]
        print(json.dumps(payload[0] if len(payload) == 1 else payload, indent=2))
        return 0
    print("\n\n".join(r.format_table() for r in reports))
    return 0


_POLICY_CHOICES = {
    "nbl": ("nbl",),
    "greedy-logistic": ("greedy-logistic",),
    "oracle": ("oracle",),
    "both": ("nbl", "greedy-logistic"),
    "all": ("nbl", "greedy-logistic", "oracle"),
}


def cmd_simulate(args) -> int:
    from nbl_sim.environment import Environment
    from nbl_sim.experiment import simulate

    links = _links_from_args(args)
    deltas = _deltas(args.delta)
    if len(links) != 1 or len(deltas) != 1:
        raise NBLInputError("nbl simulate takes a single link and a single --delta")
    geometry = "random" if args.random_geometry else None
    env = Environment.build(links[0], deltas[0], args.d, v_star=geometry, theta_dir=geometry,
                            geometry_seed=args.seed, reward=args.reward, noise=args.noise)
    policies = _POLICY_CHOICES[args.policy]
    record = None
    if args.record_every is not None:
        if args.record_every < 1:
            raise NBLInputError("--record-every must be >= 1")
        import numpy as np

        start = 0 if args.init_angle is not None else 1
        record = np.unique(np.concatenate([np.arange(start, args.n + 1, args.record_every),
                                           [args.n]]))
    bar = _progress(f"simulating {args.reps} replications")
    res = simulate(env, n=args.n, reps=args.reps, n0=args.n0, init_angle=args.init_angle,
                   gamma=args.gamma, t0=args.t0, policies=policies, seed=args.seed,
                   intercept=not args.no_intercept, record_rounds=record,
                   workers=args.workers, scheduler=args.scheduler, cache=_cache(args, "simulate"),
                   progress=bar)
    files = []
    if args.out:
        from nbl_sim.plots import plot_simulation

        files = res.write(args.out)
        files.append(plot_simulation(res, f"{args.out}/simulation.png"))
    if args.json:
        payload = res.to_json()
        if files:
            payload["files"] = [str(f) for f in files]
        print(json.dumps(payload, indent=2))
        return 0
    p = res.params
    start = (f"init angle {p['init_angle']} deg" if p["init_angle"] is not None
             else f"n0 = {p['n0']} randomized rounds")
    print(f"{env.link.name}, delta = {env.delta_text}, d = {env.d}, {env.reward} rewards; "
          f"n = {p['n']}, {p['reps']} replications, seed {p['seed']}; {start}; "
          f"gamma = {p['gamma']:g}, t0 = {p['t0']:g}")
    rows = []
    for name, s in res.summary().items():
        ang = ("-" if s["final_angle_deg_mean"] is None
               else f"{s['final_angle_deg_mean']:.3f} +- {1.96 * s['final_angle_deg_se']:.3f}")
        sq = ("-" if s["final_sq_error_mean"] is None
              else f"{s['final_sq_error_mean']:.3e}")
        rows.append([name, f"{s['final_regret_mean']:.3f} +- {1.96 * s['final_regret_se']:.3f}",
                     f"{s['final_avg_regret_mean']:.3e}", ang, sq, f"{s['seconds']:.3f}"])
    print(_table(["policy", "R_n (95% band)", "R_n/n", "angle_n deg (95% band)",
                  "|v_n - v*|^2", "policy s"], rows))
    print(f"{res.seconds:.2f} s on {res.executor}")
    for f in files:
        print(f"wrote {f}")
    return 0


def cmd_reproduce(args) -> int:
    from nbl_sim.figures import load_figures
    from nbl_sim.reproduce import reproduce

    if args.list:
        reg = load_figures()
        rows = [[fid, mod.LABEL if isinstance(mod.LABEL, str) else mod.LABEL[fid],
                 mod.TITLE if isinstance(mod.TITLE, str) else mod.TITLE[fid]]
                for fid, mod in reg.items()]
        print(_table(["figure", "paper label", "title"], rows))
        return 0
    bar = _progress("reproducing figures")
    records = reproduce(args.figures, quick=args.quick, out_dir=args.out,
                        cache_dir=None if args.no_cache else args.cache_dir, progress=bar,
                        workers=args.workers, scheduler=args.scheduler)
    rows = [[r["id"], r["label"], f"{r['seconds']:.1f}", "yes" if r["cached"] else "no",
             _clip(r["summary"], 70)] for r in records]
    print(_table(["figure", "paper label", "s", "cached", "reproduction shows"], rows))
    print(f"gallery: {args.out}/index.md")
    return 0


def _cache(args, namespace: str):
    from nbl_sim.sweep import ChunkCache

    return None if args.no_cache else ChunkCache(args.cache_dir, namespace)


def _grid_arg(text: str, name: str) -> tuple[float, float, int]:
    parts = str(text).split(":")
    try:
        lo, hi, n = float(parts[0]), float(parts[1]), int(parts[2])
    except (IndexError, ValueError):
        raise NBLInputError(f"{name} must be LO:HI:N, e.g. -2.5:3.5:40; got {text!r}") from None
    if len(parts) != 3 or n < 1 or n > 100_000:
        raise NBLInputError(f"{name} must be LO:HI:N with 1 <= N <= 100000; got {text!r}")
    return lo, hi, n


def cmd_phase(args) -> int:
    import numpy as np

    from nbl_sim.phase import grid_values, phase_diagram

    fixed = {}
    for item in args.fixed or []:
        if "=" not in item:
            raise NBLInputError(f"--fixed takes NAME=VALUE, got {item!r}")
        k, v = item.split("=", 1)
        fixed[k.strip()] = v.strip()
    values = grid_values(*_grid_arg(args.range, "--range"))
    deltas = grid_values(*_grid_arg(args.delta_range, "--delta-range"))
    for d in deltas:
        if not 0 < float(d) < 2:
            raise NBLInputError(f"--delta-range must lie in (0, 2); got {d}")
    bar = _progress(f"phase diagram ({len(values)} x {len(deltas)}, {args.tier})")
    pd = phase_diagram(args.family, args.param, values, deltas, fixed=fixed, tier=args.tier,
                       workers=args.workers, scheduler=args.scheduler,
                       cache=_cache(args, "phase"), progress=bar)
    files = []
    if args.out:
        from pathlib import Path

        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        csv_path = out / "phase.csv"
        with csv_path.open("w") as fh:
            fh.write(f"delta,{args.param},lambda_star,sign\n")
            for i, d in enumerate(pd.deltas):
                for j, v in enumerate(pd.values):
                    lam = pd.lambda_star[i, j]
                    fh.write(f"{d},{v},{'' if np.isnan(lam) else repr(float(lam))},"
                             f"{pd.sign[i, j]}\n")
        files.append(csv_path)
        files.append(_plot_phase(pd, out / "phase.png"))
        (out / "phase.json").write_text(json.dumps(pd.to_json(), indent=2) + "\n")
        files.append(out / "phase.json")
    if args.json:
        payload = pd.to_json()
        payload["files"] = [str(f) for f in files]
        print(json.dumps(payload, indent=2))
    else:
        counts = {k: int((pd.sign == k).sum()) for k in ("stable", "unstable", "undecided",
                                                         "failed")}
        print(f"{args.family} ({args.param} x delta), {len(values)} x {len(deltas)} grid, "
              f"tier {args.tier}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        rows = [[f"{float(d):.6g}", f"{lo:.6g}", f"{hi:.6g}"]
                for d, lo, hi in pd.unstable_intervals()]
        if rows:
            print(_table(["delta", f"unstable {args.param} from", "to (grid)"], rows))
        else:
            print("no grid point with lambda* < 0")
        print(f"{pd.seconds:.2f} s on {pd.executor}"
              + (f" ({pd.cached} columns from the cache)" if pd.cached else ""))
        for f in files:
            print(f"wrote {f}")
    for f in pd.failures:
        print(f"nbl: failed cell {args.param} = {f.params.value}: {f.error}", file=sys.stderr)
    return 3 if pd.failures else 0


def _plot_phase(pd, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    x = np.array([float(v) for v in pd.values])
    y = np.array([float(d) for d in pd.deltas])
    fig, ax = plt.subplots(figsize=(6.4, 4.4), constrained_layout=True)
    lam = np.ma.masked_invalid(pd.lambda_star)
    lim = float(np.nanmax(np.abs(pd.lambda_star))) if np.isfinite(pd.lambda_star).any() else 1.0
    if x.size > 1 and y.size > 1:
        m = ax.pcolormesh(x, y, lam, cmap="RdBu", vmin=-lim, vmax=lim, shading="nearest")
        fig.colorbar(m, ax=ax, label="lambda*")
        if (pd.sign == "unstable").any() and (pd.sign == "stable").any():
            ax.contour(x, y, np.nan_to_num(pd.lambda_star, nan=lim), levels=[0.0], colors="k",
                       linewidths=1.2)
    else:
        ax.scatter(np.repeat(x[None, :], y.size, 0), np.repeat(y[:, None], x.size, 1),
                   c=np.nan_to_num(pd.lambda_star), cmap="RdBu", vmin=-lim, vmax=lim)
    und = pd.sign == "undecided"
    if und.any():
        ii, jj = np.nonzero(und)
        ax.plot(x[jj], y[ii], "kx", ms=4, label="sign undecided")
        ax.legend(loc="upper right")
    ax.set_xlabel(pd.param)
    ax.set_ylabel("Delta")
    ax.set_title(f"{pd.family}: lambda* ({pd.tier}); black line lambda* = 0")
    fig.savefig(path, dpi=150)
    plt.close(fig)
    return path


def cmd_study(args) -> int:
    from nbl_sim.figures.regret_rate import draw, figure_data
    from nbl_sim.rate_study import FULL, QUICK, run_study

    cfg = QUICK if args.quick else FULL
    bar = _progress(f"regret-rate study ({cfg.name})")
    res = run_study(cfg, workers=args.workers, scheduler=args.scheduler,
                    cache=_cache(args, "study"), progress=bar)
    data = figure_data(res)
    an = data.extra["analysis"]
    files = []
    if args.out:
        from pathlib import Path

        from nbl_sim.reproduce import _json, _write_tables

        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "study.json").write_text(json.dumps(an, indent=1, default=_json) + "\n")
        files.append(out / "study.json")
        files += _write_tables(out, "study", data)
        fig = draw(data)
        fig.savefig(out / "study.png", dpi=130)
        files.append(out / "study.png")
    if args.json:
        from nbl_sim.reproduce import _json

        print(json.dumps(an, indent=1, default=_json))
        return 3 if res.failures else 0
    print(f"regret-rate study ({cfg.name}): {res.seconds:.1f} s on {res.executor}; "
          f"{res.cached} cells from the cache, {res.computed} computed")
    for link, a in an["regret"].items():
        print(f"\n{link}, Delta = {cfg.delta}, gamma = {a['gamma']} (2 gamma kappa = 2), "
              f"C0 = {a['C0']:g}, {cfg.reps} replications:")
        rows = []
        for d, r in a["by_d"].items():
            f = r["fit"]
            rows.append([d, f"{r['mean'][0]:.2f} +- {1.96 * r['se'][0]:.2f}",
                         f"{r['mean'][-1]:.2f} +- {1.96 * r['se'][-1]:.2f}",
                         " / ".join(f"{f[m]['chi2']:.1f}" for m in ("log", "sqrt", "linear")),
                         f["best"], f"{r['b_over_d']:.3f} +- {1.96 * r['b_over_d_se']:.3f}"])
        print(_table(["d", f"R_n at n={cfg.ns[0]}", f"R_n at n={cfg.ns[-1]}",
                      "chi2 log/sqrt/lin", "best", "b/d (95%)"], rows))
        if a["b_exponent"]:
            q = a["b_exponent"]
            print(f"b ~ d^q: q = {q['q']:.3f} +- {1.96 * q['q_se']:.3f} (95%)")
    for link, a in an["regret_long"].items():
        print(f"\n{link}, long horizons n = {a['ns'][0]} .. {a['ns'][-1]}, "
              f"{cfg.long_reps} replications:")
        rows = []
        for d, r in a["by_d"].items():
            f = r["fit"]
            e = an["estimation_long"][link]["by_d"][d]["slope"]
            rows.append([d, f"{r['mean'][0]:.2f} +- {1.96 * r['se'][0]:.2f}",
                         f"{r['mean'][-1]:.2f} +- {1.96 * r['se'][-1]:.2f}",
                         " / ".join(f"{f[m]['chi2']:.1f}" for m in ("log", "sqrt", "linear")),
                         f["best"], f"{e['slope']:.3f} [{e['lo']:.3f}, {e['hi']:.3f}]"])
        print(_table(["d", f"R_n at n={a['ns'][0]}", f"R_n at n={a['ns'][-1]}",
                      "chi2 log/sqrt/lin", "best", "error slope (95%)"], rows))
    print("\nlocalized error E[|v_t - v*|^2 1{tau > t}]: log-log slope vs t + t0 (95% bootstrap)")
    rows = []
    for link, a in an["estimation"].items():
        for d, r in a["by_d"].items():
            s_ = r["slope"]
            rows.append([link, d, f"{s_['slope']:.3f} [{s_['lo']:.3f}, {s_['hi']:.3f}]",
                         f"{r['scaled_end']:.3f}", f"{r['exited']}/{r['reps']}"])
        if a["d_exponent"]:
            q = a["d_exponent"]
            rows.append([link, "all", f"error at n ~ (d-1)^{q['q']:.2f} +- {1.96 * q['q_se']:.2f}",
                         "", ""])
    print(_table(["link", "d", "slope", "(t+t0) a_t/d at n", "exited r0"], rows))
    g = an["gamma"]
    print(f"\nstep size ({cfg.gamma_link}, d = 2, kappa = {g['kappa']:.5f}, gamma_c = "
          f"{g['gamma_c']:.3f}): decay exponent of the localized error")
    rows = [[f"{r['two_gamma_kappa']:g}", f"{r['gamma']:.3f}", f"{r['predicted_exponent']:.3f}",
             f"{r['window_prediction']:.3f}",
             f"{r['measured']:.3f} [{r['measured_lo']:.3f}, {r['measured_hi']:.3f}]"]
            for r in g["rows"]]
    print(_table(["2 gamma kappa", "gamma", "min(1, 2gk)", "linearized, same window",
                  "measured (95%)"], rows))
    loc = an["localization"]
    r0s = ", ".join(f"d = {d}: {r:.4f}" for d, r in loc["r0"].items())
    print(f"\nlocalization ({loc['link']}, r0 {r0s}, n = {cfg.loc_n}): P(tau <= n)")
    rows = [[d, r["n0"], f"{r['p_exit']:.4f} +- {1.96 * r['se']:.4f}",
             f"{r['start_outside']}/{r['reps']}"] for d, rs in loc["by_d"].items() for r in rs]
    print(_table(["d", "n0", "P(exit) (95%)", "v_n0 outside r0"], rows))
    print(f"\nunstable contrast (Delta = {cfg.contrast_delta}, gamma = {cfg.contrast_gamma:g}, "
          f"t0 = {cfg.contrast_t0:g}, {cfg.contrast_start_deg:g} deg start)")
    rows = [[link, f"{r['mean'][-1]:.2f} +- {1.96 * r['se'][-1]:.2f}",
             f"{r['slope']['slope']:.3f} [{r['slope']['lo']:.3f}, {r['slope']['hi']:.3f}]",
             r["fit"]["best"], f"{r['angle_deg'][-1]:.2f}"] for link, r in an["contrast"].items()]
    print(_table(["link", f"R_n at n={cfg.contrast_ns[-1]}", "R_n ~ n^p (95%)", "best model",
                  "angle at n (deg)"], rows))
    for f in res.failures:
        print(f"nbl: failed cell {f.describe_params()}: {f.error}", file=sys.stderr)
    for f in files:
        print(f"wrote {f}")
    return 3 if res.failures else 0


def cmd_check(args) -> int:
    from .registry import FAIL, run_claims
    from .report import summary_line, write_report

    show = _progress("checking claims")
    results = run_claims(quick=args.quick, progress=(lambda i, n, r: show(i, n)) if show else None)
    md, js = write_report(results, args.out)
    rows = [[r.id, r.label, r.status, _clip(r.computed), f"{r.seconds:.2f}"] for r in results]
    print(_table(["claim", "paper label", "status", "computed", "s"], rows))
    flagged = [r for r in results if r.status in ("DISCREPANCY", FAIL)]
    for r in flagged:
        print(
            f"\n{r.status}: {r.id} ({r.label})\n  paper:    {r.printed}\n  computed: {r.computed}"
            f"\n  {r.detail}"
        )
    print(f"\n{summary_line(results)}")
    print(f"report: {md}\n        {js}")
    return 1 if any(r.status == FAIL for r in results) else 0


def _clip(x, n: int = 48) -> str:
    s = " ".join(str(x).split()) if x is not None else "-"
    return s if len(s) <= n else s[: n - 1] + "~"


# ---------------------------------------------------------------------- parser
def _add_exec_args(p, cache_default: str, workers: bool = True) -> None:
    p.add_argument("--scheduler", default=None, metavar="ADDR",
                   help="run on a Dask cluster: tcp://HOST:PORT of a running scheduler, or "
                        "local:N for a local cluster of N workers (default: "
                        "$NBL_DASK_SCHEDULER, else local processes)")
    if workers:
        p.add_argument("--workers", type=int, default=None, metavar="N",
                       help="local process pool of N workers (default: all cores when the "
                            "work is large; 1 = in-process)")
    p.add_argument("--cache-dir", default=cache_default, metavar="DIR",
                   help=f"finished chunks are cached here, so an interrupted run resumes "
                        f"(default {cache_default})")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="nbl",
        description="Natural Boundary Learning toolkit: decision stability of single-index "
        "bandit links (paper: 'Elicitation and Decision Geometry in Single-Index Bandits').",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    s = sub.add_parser(
        "stability",
        help="lambda*, mu*, m2, kappa* and the local Jacobian spectrum",
        description="Decision stability coefficient lambda* (eq:decision_stability) "
        "and the exact Jacobian spectrum (prop:local_jacobian).",
    )
    _add_link_args(s)
    s.add_argument(
        "--delta", required=True, metavar="D", help="arm separation in (0, 2); D1,D2,... allowed"
    )
    s.add_argument("--dps", type=int, default=None, help="mpmath precision in decimal digits")
    s.add_argument("--certify", action="store_true", help="certified Arb enclosures (python-flint)")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.add_argument("--verbose", "-v", action="store_true", help="full breakdown for every row")
    s.set_defaults(func=cmd_stability)

    t = sub.add_parser(
        "threshold",
        help="solve lambda* = 0 for delta or a family parameter",
        description="All sign changes of lambda* in a range, refined and with certified brackets.",
    )
    _add_link_args(t)
    t.add_argument("--solve-for", required=True, metavar="delta|PARAM")
    t.add_argument(
        "--delta", default=None, metavar="D", help="fixed delta when solving for a parameter"
    )
    t.add_argument("--bracket", nargs=2, metavar=("LO", "HI"), default=None, help="search range")
    t.add_argument("--grid", type=int, default=160, help="scan points (default 160)")
    t.add_argument("--dps", type=int, default=None, help="refine roots with mpmath at N digits")
    t.add_argument("--no-certify", action="store_true", help="skip the Arb bracket certification")
    t.add_argument("--plot", metavar="FILE", default=None,
                   help="also save a plot of lambda* over the scan (PNG/PDF/SVG by extension)")
    t.add_argument("--json", action="store_true")
    t.set_defaults(func=cmd_threshold)

    c = sub.add_parser(
        "self-concordance",
        help="R = sup|g''|/g' and the sufficient condition",
        description="Self-concordance constant and prop:self-concordance-stability.",
    )
    _add_link_args(c)
    c.add_argument("--delta", default=None, metavar="D", help="arm separation in (0, 2)")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_self_concordance)
    m = sub.add_parser(
        "simulate",
        help="Monte Carlo of NBL / Greedy Logistic / oracle with 95% bands",
        description="Run the policies on common random numbers (app:simulation-setup, "
        "app:logistic-comparison) and report regret R_n (eq:regret), the signed angle (d = 2) "
        "and |v_n - v*|^2 with mean +- 1.96 SE over replications.",
    )
    _add_link_args(m)
    m.add_argument("--delta", required=True, metavar="D", help="arm separation in (0, 2)")
    m.add_argument("--d", type=int, default=2, help="context dimension (default 2)")
    m.add_argument("--n", type=int, default=10_000, help="horizon (default 10000)")
    m.add_argument("--reps", type=int, default=100, help="replications (default 100)")
    start = m.add_mutually_exclusive_group()
    start.add_argument("--n0", type=int, default=None,
                       help="randomized-initialization rounds (default 200)")
    start.add_argument("--init-angle", type=float, default=None, metavar="DEG",
                       help="start NBL at this signed angle from v* instead (no Stage I)")
    m.add_argument("--gamma", type=float, default=10.0, help="step gamma (default 10)")
    m.add_argument("--t0", type=float, default=500.0, help="step offset t0 (default 500)")
    m.add_argument("--policy", choices=sorted(_POLICY_CHOICES), default="nbl",
                   help="both = nbl + greedy-logistic; all adds the oracle (default nbl)")
    m.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    m.add_argument("--reward", choices=["bernoulli", "bounded"], default="bernoulli",
                   help="Bernoulli(g) rewards, or g + Uniform[-b, b] noise (default bernoulli)")
    m.add_argument("--noise", type=float, default=0.5, help="b for --reward bounded (0.5)")
    m.add_argument("--random-geometry", action="store_true",
                   help="draw v* and theta at random from the seed (default v* = e1, theta ~ e2)")
    m.add_argument("--no-intercept", action="store_true",
                   help="Greedy Logistic without intercept (default: with)")
    m.add_argument("--record-every", type=int, default=None, metavar="K",
                   help="keep trajectories every K rounds (default: ~500 points)")
    _add_exec_args(m, ".nbl_cache/sweeps", workers=False)
    m.add_argument("--workers", type=int, default=None,
                   help="processes (default: a local pool for large runs, else in-process)")
    m.add_argument("--out", default=None, metavar="DIR",
                   help="write trajectories (CSV), bands (CSV), manifest.json, simulation.png")
    m.add_argument("--json", action="store_true")
    m.set_defaults(func=cmd_simulate)

    f = sub.add_parser(
        "reproduce",
        help="regenerate the paper's figures (PNG, PDF, CSV data, manifest, gallery)",
        description="Compute and draw the paper's figures and the pictures beyond it; writes "
        "FIGURE.png/.pdf, the plotted data as CSV, a JSON manifest per figure and index.md. "
        "Figure data are cached (resume after an interruption).",
    )
    f.add_argument("figures", nargs="*", metavar="FIGURE", help="figure ids (default: all)")
    f.add_argument("--quick", action="store_true", help="fewer replications, coarser grids")
    f.add_argument("--out", default="figures", metavar="DIR", help="output directory (figures)")
    f.add_argument("--cache-dir", default=".nbl_cache/figures", metavar="DIR",
                   help="data cache (default .nbl_cache/figures)")
    f.add_argument("--no-cache", action="store_true", help="recompute everything, cache nothing")
    f.add_argument("--workers", type=int, default=None, metavar="N",
                   help="compute the figures on a local pool of N processes (default: here)")
    f.add_argument("--scheduler", default=None, metavar="ADDR",
                   help="compute the figures on a Dask cluster: tcp://HOST:PORT or local:N "
                        "(default: $NBL_DASK_SCHEDULER)")
    f.add_argument("--list", action="store_true", help="list the figures and exit")
    f.set_defaults(func=cmd_reproduce)

    ph = sub.add_parser(
        "phase",
        help="phase diagram: lambda* of a link family on a (parameter, Delta) grid",
        description="Sweep lambda* (eq:decision_stability) of a named family over a grid of "
        "one parameter and Delta, in float64, mpmath (30 digits) or certified (Arb) precision, "
        "locally or on a Dask cluster; finished columns are cached, so an interrupted sweep "
        "resumes.",
    )
    ph.add_argument("--family", required=True, metavar="NAME", help="named link family")
    ph.add_argument("--param", required=True, metavar="NAME", help="the family parameter to sweep")
    ph.add_argument("--range", required=True, metavar="LO:HI:N", help="parameter grid")
    ph.add_argument("--delta-range", required=True, metavar="LO:HI:N", help="Delta grid in (0, 2)")
    ph.add_argument("--fixed", nargs="*", metavar="NAME=VALUE",
                    help="other family parameters (default: the family's defaults)")
    ph.add_argument("--tier", choices=["float", "mpmath", "certified"], default="float",
                    help="precision tier (default float)")
    _add_exec_args(ph, ".nbl_cache/sweeps")
    ph.add_argument("--out", default=None, metavar="DIR", help="write phase.csv/.png/.json here")
    ph.add_argument("--json", action="store_true")
    ph.set_defaults(func=cmd_phase)

    st = sub.add_parser(
        "study",
        help="the empirical regret-rate study (thm:regret-rate, prop:localized-estimation)",
        description="Run the regret-rate study of nbl_sim.rate_study: regret growth over n and "
        "d with model selection, the localized estimation rate, the step-size threshold, "
        "localization against n0 and an unstable contrast. Cells are cached, so an interrupted "
        "study resumes; --scheduler runs it on a Dask cluster.",
    )
    st.add_argument("--quick", action="store_true",
                    help="small n, d in {2, 4}, few replications (~1 min)")
    _add_exec_args(st, ".nbl_cache/sweeps")
    st.add_argument("--out", default=None, metavar="DIR",
                    help="write study.json, CSV tables and study.png here")
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=cmd_study)

    k = sub.add_parser(
        "check",
        help="run every registered claim and write the verification report",
        description="Check the paper's claims (proofs_check registry) and write "
        "reports/verification.md and .json. Exit status 1 if any FAIL.",
    )
    k.add_argument("--quick", action="store_true", help="skip the slow claims (reported SKIPPED)")
    k.add_argument(
        "--out", default="reports", metavar="DIR", help="report directory (default reports)"
    )
    k.set_defaults(func=cmd_check)
    return p


_VALUE_OPTIONS = {"--link", "--potential", "--domain", "--delta", "--param", "--solve-for",
                  "--init-angle"}


def _glue_values(argv: list[str]) -> list[str]:
    """Let values starting with '-' (``--potential -log(m)``, ``--domain -1,1``) through."""
    out, i = [], 0
    while i < len(argv):
        tok = argv[i]
        if (
            tok in _VALUE_OPTIONS
            and i + 1 < len(argv)
            and argv[i + 1].startswith("-")
            and not argv[i + 1].startswith("--")
        ):
            out.append(f"{tok}={argv[i + 1]}")
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


def main(argv=None) -> int:
    from nbl_sim.sweep import SweepError

    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(_glue_values(argv))
    try:
        return args.func(args)
    except NBLInputError as exc:
        print(f"nbl: error: {exc}", file=sys.stderr)
        return 2
    except SweepError as exc:
        print(f"nbl: {exc}", file=sys.stderr)
        return 3
    except BrokenPipeError:  # pragma: no cover - e.g. `nbl ... | head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:  # pragma: no cover - interactive
        print("nbl: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
