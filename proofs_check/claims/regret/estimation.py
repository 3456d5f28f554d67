"""Claims of the localized estimation rate (sec:regret, app:localized-estimation): the
stochastic-approximation recursion, the d/t rate of the localized error with the proof's explicit
constants, and the step-size condition 2γλ0 > 1 at the paper's γ = 10.

The localized error a_t = E[e_t 1{τ > t}] is simulated with the compiled kernel
(:func:`proofs_check.witnesses.paths.localized_error_run`) and compared with the paper's own
constant: C_e of eq:Ce-explicit with C'_init = 16, the constant of eq:initialization-mse that the
proof invokes (never a constant made from the measurement itself); λ0(r0) is computed
(:mod:`proofs_check.witnesses.lambda0`).
The step-size report uses the Jacobian rates of :mod:`nbl_sim.studies.rate_theory`: λ0(r0) of
cor:local_stability is at most the rate κ at v*, so 2γλ0 > 1 needs γ > γ_c = 1/(2κ). The steep
logistic g = 1/(1 + e^{−4z}) is a test link, not the paper's.
"""

from __future__ import annotations

from nbl_sim.population import fields as pop
from nbl_sim.studies import rate_theory as rt
from nbl_sim.studies import regret_geometry as rg
from nbl_theory.links import Link
from nbl_theory.paper import PAPER_LINKS, PAPER_MU2, STOCHASTIC_SETTING, paper_link
from nbl_theory.stability import stability

from ...judgement import agree_abs, agreement, gate
from ...registry import CAVEAT, DISCREPANCY, FAIL, PASS, Mutant, Outcome, register
from ...witnesses.lambda0 import lambda0_2d, lambda0_cap
from ...witnesses.paths import (
    WITNESS_PATHS,
    distance_at_angle,
    environment,
    localized_error_run,
    reference_errors,
    reward_bound,
)
from ...witnesses.polar_field import own_mu_g, own_two_gamma_kappa
from ...witnesses.sa_recursion import sa_recursion_ratios
from ...witnesses.stats import (
    bound_verdict,
    bound_verdicts,
    loglog_slope_batches,
    max_abs_difference,
    max_over_min,
    smallest_ratio,
)
from ...witnesses.step_sizes import threshold_row_errors
from ...witnesses.toolkit_values import two_gamma_kappa

__all__: list[str] = []

_K_SE = 5.0  # one-sided Monte Carlo tolerance (false alarm ~2.9e-7)
_R0 = 0.5  # the stability radius r0 used throughout (λ0(r0) computed for it)
_LOGISTIC4 = Link.from_expression("1/(1 + exp(-4*z))", name="logistic4", bounded_derivatives=True)
#: C'_init of the proof of prop:localized-estimation: the expectation bound of
#: prop:randomized_initialization, eq:initialization-mse, E e_{n0} <= 16 B^2 d/(Delta^2 mu_g^2 n0)
_C_INIT = 16.0
_Z95 = 1.6448536269514722  # one-sided 95%: a rate is confirmed at this confidence
_SLOPE_MARGIN = 0.1  # a decay t^-0.9 (slope -1 + 0.1) must be told from t^-1


@register(
    "sa-recursion",
    "lem:sa-recursion",
    "app:localized-estimation",
    "If a_t <= (1 - alpha/(t+t0)) a_{t-1} + b/(t+t0)^2 (t > n0), alpha > 1, b > 0, "
    "n0 + 1 + t0 >= alpha, then a_t <= C/(t+t0) with C = max{(n0+t0) a_{n0}, "
    "b/(alpha-1)}",
    "property-based",
    "exact rationals (Fraction) for 300 short sequences; float64 with relative 1e-12 for "
    "400 sequences of 3000 steps; the induction step identity symbolically",
    "the lemma is deterministic: exact arithmetic leaves no tolerance; the float64 runs "
    "only accumulate rounding of ~1e-13 relative",
    mutants=(Mutant.formula("C = max{(n0+t0) a_n0, b/alpha} (alpha - 1 -> alpha)", alpha_shift=1),),
)
def _sa_recursion(alpha_shift: int = 0):
    import sympy as sp

    C, al, T = sp.symbols("C alpha T", positive=True)
    step_ok = (
        sp.simplify(C / T - (1 - al / T) * C / (T - 1) - C * (al - 1 + alpha_shift) / (T * (T - 1)))
        == 0
    )
    sa = sa_recursion_ratios(77, alpha_shift)
    worst_exact, worst_float, near_one = sa["exact"], sa["float"], sa["near_one"]
    ok = step_ok and worst_exact <= 1 and worst_float <= 1 + 1e-12
    return Outcome(
        PASS if ok else FAIL,
        f"max a_t (t+t0)/C: exact {float(worst_exact):.6f}, float {worst_float:.9f} (<= 1 claimed)",
        f"induction-step identity C/T - (1 - alpha/T) C/(T-1) = C(alpha-1)/(T(T-1)) "
        f"{'confirmed' if step_ok else 'NOT confirmed'} by sympy; 300 exact "
        f"sequences (alpha in [1.1, 5.9], b in [0.1, 9.9], a third with equality) and "
        f"400 float sequences of 3000 steps (alpha in [1.01, 8], b in [1e-3, 1e2], "
        f"t0 up to 1000, half with equality: their max ratio {near_one:.6f} shows "
        f"the bound is approached)",
    )


#: library vs witness: lambda0 to 1e-9 (fields agree to ~4e-16; the 2-D minimisation's
#: refinement stops at 1e-12), mu_g to 1e-12 (both ~1e-16)
_LAM0_AGREE = agree_abs(1e-9)
_MU_AGREE = agree_abs(1e-12)


def _paths_agree(a, b) -> bool:
    """max |library - witness| over the first paths' e_t <= 1e-9"""
    return a.shape == b.shape and max_abs_difference(a, b) <= 1e-9


def _rate_run(d: int, R: int, n: int, n0: int, gamma: float, seed: int, wgamma: float = 1.0):
    """The simulation of prop:localized-estimation / eq:Ce-explicit (t0 = n0, C_off = 1,
    logistic4 at Delta = 1.5) with the constants the checks compare it with: λ0(r0) and μ_g
    from the witness (:mod:`proofs_check.witnesses.polar_field`), and ``agree``: the
    library-versus-witness comparisons that gate the verdict (λ0 from the library's field, the
    library's μ_g, and the kernel's e_t on the first :data:`WITNESS_PATHS` paths against the
    witness's own re-run of them; ``wgamma`` multiplies the witness's step, a witness mutant)."""
    env = environment(_LOGISTIC4, "1.5", d, "bernoulli", None if d == 2 else 100 + d)
    run = dict(localized_error_run(env, R, n, n0, gamma, seed, _R0))
    if d == 2:
        lam0 = lambda0_2d(_LOGISTIC4, "1.5", _R0)
        lam0_lib = lambda0_2d(_LOGISTIC4, "1.5", _R0, (pop.H_alpha, pop.H_alpha_derivative))
    else:
        lam0 = lambda0_cap(env, _R0)
        lam0_lib = lambda0_cap(env, _R0, tangent=pop.tangent_field)
    mu_g = own_mu_g(env.link)
    ref, _ = reference_errors(env, seed, WITNESS_PATHS, n, n0, wgamma * gamma, float(n0))
    agree = [
        agreement(
            f"lambda0({_R0:g}) in d = {d}", library=lam0_lib, witness=lam0, agree=_LAM0_AGREE
        ),
        agreement(
            "mu_g",
            library=float(stability(env.link, "1.5").values["mu_g"]),
            witness=mu_g,
            agree=_MU_AGREE,
        ),
        agreement(
            f"e_t, t = n0..n, of the first {WITNESS_PATHS} paths (d = {d})",
            library=run["sq_head"],
            witness=ref,
            agree=_paths_agree,
            fmt=lambda v: f"mean e_n {v[:, -1].mean():.6g}",
        ),
    ]
    run.update(env=env, lam0=lam0, mu_g=mu_g, B=reward_bound(env), agree=agree)
    return run


def _paper_ce(run: dict, c_init: float = _C_INIT) -> tuple:
    """C_e of eq:Ce-explicit for a run (t0 = C_off n0, C'_init = ``c_init``): (C_e, first term,
    second term)."""
    dl2mu2 = run["env"].delta ** 2 * run["mu_g"] ** 2
    c_off = run["t0"] / run["n0"]
    first = c_init * (1 + c_off) * run["B"] ** 2 / dl2mu2
    second = run["B"] ** 2 * run["gamma"] ** 2 / (2 * run["gamma"] * run["lam0"] - 1)
    return max(first, second), first, second


def _rate_verdicts(run: dict, rate: float = 1.0, scale: float = 1.0) -> dict:
    """The two parts of prop:localized-estimation on one run: the bound a_t <= C_e d/(t+t0)^rate
    with the paper's C_e at every t (``bound_verdict``, resolution 10% of the bound), and the
    log-log slope of a_t over t >= 1000 against -rate (confirmed when slope + 1.645 SE <= -rate
    + 0.1; contradicted when slope - 5 SE > -rate + 0.1). ``scale`` multiplies the measured a_t
    (a data mutant)."""
    d, t0 = run["env"].d, run["t0"]
    alpha = 2 * run["gamma"] * run["lam0"]
    cond = alpha > 1 and run["n0"] + 1 + t0 >= alpha
    Ce, first, second = _paper_ce(run)
    a, se = scale * run["a"], scale * run["se"]
    bound = Ce * d / (run["t"] + t0) ** rate
    verdicts = bound_verdicts(a, se, bound, 0.1, _K_SE)
    slope, sse = loglog_slope_batches(run["t"], t0, a, scale * run["batches"], 1000)
    target = -rate + _SLOPE_MARGIN
    sv = (
        "below"
        if slope + _Z95 * sse <= target
        else "above"
        if slope - _K_SE * sse > target
        else "unresolved"
    )
    # the bound is trivially true while it exceeds r0^2 >= e_t 1{tau > t}
    trivial_until = Ce * d / _R0**2 - t0
    return dict(
        cond=cond,
        alpha=alpha,
        Ce=Ce,
        first=first,
        second=second,
        verdicts=verdicts,
        slope=slope,
        sse=sse,
        slope_verdict=sv,
        factor=smallest_ratio(bound, a),
        trivial_until=trivial_until,
    )


def _rate_status(parts) -> str:
    vs = [v for p in parts for v in p["verdicts"]] + [p["slope_verdict"] for p in parts]
    if not all(p["cond"] for p in parts) or "unresolved" in vs:
        return FAIL
    return DISCREPANCY if "above" in vs else PASS


#: what the witnesses of the localized-estimation claims share with the library
_SHARES = (
    "the realization (contexts, rewards, coins) drawn by nbl_sim.engine.environment and the "
    "link's g (nbl_theory.Link); the minimisation of lambda0 (run on the library's field "
    "for the comparison); the a_t statistics over all paths are the kernel's, gated by "
    f"the witness's re-run of the first {WITNESS_PATHS} paths"
)
_WITNESS_STEP = Mutant.witness(
    "the witness's re-run of the paths with step gamma x 1.1", wgamma=1.1
)
_RATE_MUTANTS = (
    Mutant.printed("rate d/(t+t0) -> d/(t+t0)^1.2", rate=1.2),
    Mutant.data("localized errors x 30 (a simulation 30 times too large)", scale=30.0),
    _WITNESS_STEP,
)


_AT = (1000, 4000, 8000)  # the rounds at which (t + t0) a_t/d is reported


@register(
    "localized-estimation-rate",
    "prop:localized-estimation",
    "sec:regret",
    "E[||v_t - v*||^2 1{tau > t}] <= C_e d/(t + t0) for t >= n0 (eta_t = gamma/(t + t0), "
    "2 gamma lambda0 > 1, n0 + 1 + t0 >= 2 gamma lambda0, t0 <= C_off n0): checked with "
    "the paper's C_e (eq:Ce-explicit with C'_init = 16 from eq:initialization-mse, "
    "lambda0(r0) computed, C_off = t0/n0) at every t, and the 1/t rate by the log-log "
    "slope (logistic4, Delta = 1.5, d = 2, r0 = 0.5, gamma = 5, n0 = t0 = 100, n = 8000, "
    "1000 paths)",
    "monte-carlo",
    f"a_t + {_K_SE:g} SE <= C_e d/(t + t0) at every t (or within {_K_SE:g} SE with "
    f"{_K_SE:g} SE <= 10% of the bound); log-log slope over t in [1000, 8000]: slope + "
    f"1.645 SE <= -1 + {_SLOPE_MARGIN:g}",
    "a_t is a mean over 1000 independent paths (SE from their spread); the slope's SE is "
    "from 10 batches of 100 paths. C_e is the paper's formula (no measured constant), so "
    "the bound can fail; the slope must be confirmed at 95% to within 0.1 of -1 (a decay "
    "like t^-0.9 would be rejected), so more noise cannot help the check pass",
    mutants=_RATE_MUTANTS,
    witness="proofs_check.witnesses.lambda0:lambda0_2d, "
    "proofs_check.witnesses.lambda0:lambda0_cap, "
    "proofs_check.witnesses.polar_field:own_mu_g, "
    "proofs_check.witnesses.paths:reference_errors",
    shares=_SHARES,
)
def _estimation_rate(rate: float = 1.0, scale: float = 1.0, wgamma: float = 1.0):
    run = _rate_run(2, 1000, 8000, 100, 5.0, 91, wgamma)
    v = _rate_verdicts(run, rate, scale)
    d, t0 = run["env"].d, run["t0"]
    scaled = (run["t"] + t0) * run["a"] / d
    tally = {w: v["verdicts"].count(w) for w in ("below", "at", "above", "unresolved")}
    return gate(
        Outcome(
            _rate_status([v]),
            f"a_t vs C_e d/(t+t0) (C_e = {v['Ce']:.1f}): {tally['below']} below, "
            f"{tally['at']} at, {tally['above']} above, {tally['unresolved']} unresolved "
            f"of {len(v['verdicts'])} rounds (bound/a_t >= {v['factor']:.1f}); slope = "
            f"{v['slope']:.3f} +- {v['sse']:.3f} [{v['slope_verdict']}]; (t+t0) a_t/d "
            f"at t = {', '.join(str(tt) for tt in _AT)}: "
            + ", ".join(f"{scaled[run['t'] == tt][0]:.3f}" for tt in _AT),
            f"lambda0({_R0:g}) = {run['lam0']:.4f}, 2 gamma lambda0 = {v['alpha']:.3f} "
            f"{'>' if v['alpha'] > 1 else '<='} 1, "
            f"n0 + 1 + t0 = {run['n0'] + 1 + t0:g} "
            f"{'>=' if run['n0'] + 1 + t0 >= v['alpha'] else '<'} 2 gamma lambda0; "
            f"C_e = max("
            f"16 (1 + C_off) B^2/(Delta^2 mu_g^2) = {v['first']:.2f}, B^2 gamma^2/(2 gamma "
            f"lambda0 - 1) = {v['second']:.2f}) with mu_g = {run['mu_g']:.4f}, C_off = 1; "
            f"the bound exceeds r0^2 = {_R0**2:g} (so holds trivially) for t + t0 <= "
            f"{v['trivial_until'] + t0:.0f}. The d-dependence (C_e d) is checked in "
            f"localized-estimation-rate-d (slow) and on the regret-rate study's horizons "
            f"in localized-estimation-rate-study",
        ),
        run["agree"],
    )


@register(
    "localized-estimation-rate-d",
    "prop:localized-estimation",
    "sec:regret",
    "As localized-estimation-rate in d = 2, 4, 8 (random geometry, 600 paths, n = 8000): "
    "the bound with the paper's C_e holds, the slope is <= -1, and (t + t0) a_t/d stays "
    "of the same order across d",
    "monte-carlo",
    "per d as in localized-estimation-rate; (t+t0) a_t/d at t = 8000 within a factor 3 across d",
    "lambda0(r0) for d > 2 from a grid of the cap (lambda0 of "
    "cor:local_stability); a factor 3 allows for the d-dependence of E||G||^2 ~ (d - 1) "
    "E[Y^2] relative to the bound's B^2 d",
    quick=False,
    mutants=_RATE_MUTANTS,
    witness="proofs_check.witnesses.lambda0:lambda0_2d, "
    "proofs_check.witnesses.lambda0:lambda0_cap, "
    "proofs_check.witnesses.polar_field:own_mu_g, "
    "proofs_check.witnesses.paths:reference_errors",
    shares=_SHARES,
)
def _estimation_rate_d(rate: float = 1.0, scale: float = 1.0, wgamma: float = 1.0):
    parts, rows, ends, agree = [], [], [], []
    paths = 600
    for d in (2, 4, 8):
        run = _rate_run(d, paths, 8000, 100 * (d // 2 + 1), 5.0, 95 + d, wgamma)
        v = _rate_verdicts(run, rate, scale)
        parts.append(v)
        agree += run["agree"]
        end = float((run["t"][-1] + run["t0"]) * run["a"][-1] / d)
        ends.append(end)
        rows.append(
            f"d = {d} (n0 = t0 = {run['n0']}, lambda0 = {run['lam0']:.4f}, C_e = "
            f"{v['Ce']:.1f}): bound {'holds' if 'above' not in v['verdicts'] else 'FAILS'}"
            f" (bound/a_t >= {v['factor']:.1f}), slope = {v['slope']:.3f} +- "
            f"{v['sse']:.3f} [{v['slope_verdict']}], (t+t0) a_t/d at 8000 = {end:.3f}"
        )
    status = _rate_status(parts)
    if status == PASS and max_over_min(ends) > 3:
        status = DISCREPANCY
    return gate(
        Outcome(
            status,
            "; ".join(rows),
            f"{paths} paths per d; C_e from "
            "eq:Ce-explicit with C'_init = 16 (eq:initialization-mse)",
        ),
        agree,
    )


@register(
    "ce-explicit",
    "eq:Ce-explicit",
    "app:localized-estimation",
    "C_e = max{C'_init (1 + C_off) B^2/(Delta^2 mu_g^2), B^2 gamma^2/(2 gamma lambda0 - 1)} "
    "gives C <= C_e d for the lemma's C = max{(n0+t0) a_{n0}, B^2 gamma^2 d/(2 gamma "
    "lambda0 - 1)}, with C'_init = 16 (eq:initialization-mse) and C_off = t0/n0: the "
    "measured (n0 + t0) a_{n0} against C'_init (1 + C_off) B^2 d/(Delta^2 mu_g^2)",
    "monte-carlo",
    f"(n0+t0)(a_n0 + {_K_SE:g} SE) <= C'_init (1 + C_off) B^2 d/(Delta^2 mu_g^2)",
    "same paths as localized-estimation-rate (1000 paths, n0 = t0 = 100); a_n0 = E[e_n0 "
    "1{tau > n0}] is a Monte Carlo mean with its SE; the second terms of C and C_e d are "
    "equal by construction, so the comparison that can fail is the first; the smallest "
    "C'_init the measurement allows is reported",
    mutants=(Mutant.printed("C'_init = 16 -> 0.5", c_init=0.5), _WITNESS_STEP),
    witness="proofs_check.witnesses.lambda0:lambda0_2d, "
    "proofs_check.witnesses.lambda0:lambda0_cap, "
    "proofs_check.witnesses.polar_field:own_mu_g, "
    "proofs_check.witnesses.paths:reference_errors",
    shares=_SHARES,
)
def _ce_explicit(c_init: float = _C_INIT, wgamma: float = 1.0):
    run = _rate_run(2, 1000, 8000, 100, 5.0, 91, wgamma)
    env, n0, t0, B, d = run["env"], run["n0"], run["t0"], run["B"], run["env"].d
    Ce, first, second = _paper_ce(run, c_init)
    dl2mu2 = env.delta**2 * run["mu_g"] ** 2
    lhs, lse = (n0 + t0) * run["a"][0], (n0 + t0) * run["se"][0]
    rhs = first * d
    verdict = bound_verdict(lhs, lse, rhs, 0.1 * rhs, _K_SE)
    C = max(lhs, B**2 * run["gamma"] ** 2 * d / (2 * run["gamma"] * run["lam0"] - 1))
    needed = lhs * dl2mu2 / ((1 + t0 / n0) * B**2 * d)
    status = DISCREPANCY if verdict == "above" else FAIL if verdict == "unresolved" else PASS
    return gate(
        Outcome(
            status,
            f"(n0+t0) a_n0 = {lhs:.3f} +- {lse:.2g} vs C'_init (1+C_off) B^2 d/(Delta^2 "
            f"mu_g^2) = {rhs:.3f} [{verdict}]; C = {C:.3f} <= C_e d = {Ce * d:.3f}; "
            f"smallest C'_init allowed by the measurement {needed:.3f} (the paper's 16 is "
            f"{c_init / needed:.1f} times larger)",
            f"C_e = max({first:.3f}, {second:.3f}) = {Ce:.3f} with C'_init = {c_init:g}, "
            f"C_off = t0/n0 = {t0 / n0:g}, Delta^2 mu_g^2 = {dl2mu2:.4f}, lambda0 = "
            f"{run['lam0']:.4f}; measured E[e_n0] = {run['e_n0']:.4f} at n0 = {n0} "
            f"(eq:initialization-mse bound 16 B^2 d/(Delta^2 mu_g^2 n0) = "
            f"{16 * B**2 * d / (dl2mu2 * n0):.4f})",
        ),
        run["agree"],
    )


_GAMMA = STOCHASTIC_SETTING["gamma"]  # app:simulation-setup: gamma = 10
_START_DEG = STOCHASTIC_SETTING["init_angle"]  # initial displacement of 10 degrees


#: fig:numerical-summary (g) and (h): the links NBL runs against Greedy Logistic at Delta = 1
_PANEL_G = ("we-0", "we-0.2", "we-0.4", "we-0.6", "we-0.8")
_PANEL_H = ("tt-stable", "tt-near-critical", "tt-unstable")


def _named(key: str) -> str:
    """A paper key with its two-transition parameter (e.g. tt-unstable (mu2 = 1.244122))."""
    params = getattr(PAPER_LINKS.get(key), "params", None) or {}
    return f"{key} (mu2 = {params['mu2']})" if "mu2" in params else key


#: library against witness on 2 gamma kappa_theta: kappa to 1e-10 (the witness's Richardson
#: difference of H is good to ~1e-12; measured differences <= 7e-14) times 2 gamma = 20
_TGK_AGREE = agree_abs(2e-9)


@register(
    "step-size-threshold",
    "prop:localized-estimation",
    "sec:regret",
    "prop:localized-estimation needs eta_t = gamma/(t + t0) with 2 gamma lambda0 > 1; since "
    "lambda0 <= kappa (the slowest linear rate at v*: kappa_theta in d = 2, "
    "min(kappa_theta, Delta mu*) = lambda* in d >= 3), this needs gamma > gamma_c = "
    "1/(2 kappa). Do the paper's own d = 2 experiments at gamma = 10 (app:simulation-setup, "
    "app:stochastic-nbl: Delta = 0.2, t0 = 500; app:logistic-comparison: Delta = 1, panels "
    "(g) and (h)) meet it? (with gamma_c for every example link at Delta in {0.2, 1, 1.8} "
    "and d = 2, d >= 3)",
    "high-precision",
    "2 gamma kappa compared with 1 for each link the paper runs NBL on (float64 stability "
    "tier, ~1e-15); the stable Delta = 0.2 run also needs 2 gamma lambda0(r0) >= 1 on a "
    "radius containing its 10-deg start",
    "the closest case to 1 among the runs (two-transition mu2 = 1.244122 at Delta = 1, "
    "0.871) is 0.13 from 1, far above the ~1e-14 error of kappa. A run outside the "
    "condition is a CAVEAT (the paper's experiment illustrates its rate result outside "
    "that result's condition), not a DISCREPANCY: the proposition itself states the "
    "condition",
    printed="gamma = 10, t0 = 500 (app:simulation-setup)",
    witness="proofs_check.witnesses.polar_field:own_two_gamma_kappa, "
    "proofs_check.witnesses.step_sizes:threshold_row_errors",
    shares="the link's g (nbl_theory.Link), which the witness's polar field integrates; the "
    "table's kappa values (the witness checks the entries derived from them)",
    mutants=(
        Mutant.printed("the paper's gamma = 10 -> 20", gamma=20.0),
        Mutant.witness("the witness's 2 gamma kappa at gamma x 1.01", wgamma=1.01),
        Mutant.link("panel (h) links replaced by the logistic link", panel_h=("logistic",)),
    ),
)
def _step_size_threshold(gamma: float = _GAMMA, panel_h: tuple = _PANEL_H, wgamma: float = 1.0):
    rows = rt.step_size_table(gamma)
    below3 = [
        f"{r['link']} Delta={r['delta']:g} ({r['two_gamma_kappa_d3']:.3g}, gamma_c = "
        f"{r['gamma_c_d3']:.3g})"
        for r in rows
        if r["verdict_d3"].startswith("below")
    ]
    # the paper's stable Delta = 0.2 experiment: largest r0 with 2 gamma lambda0(r0) >= 1, d = 2
    stable = paper_link("tt-stable")
    k_stable = rt.local_rates(stable, "0.2", 2)["kappa_theta"]
    r_start = distance_at_angle(_START_DEG)
    stable_ok = 2 * gamma * k_stable > 1
    rad = None
    if stable_ok:
        rad = rg.stability_radius(stable, "0.2", frac=1 / (2 * gamma * k_stable))
        stable_ok = rad["r0"] > r_start
    by = {(r["link"], r["delta"]): r for r in rows}
    lam_stable = by[(f"two-transition mu2={PAPER_MU2['stable']}", 0.2)]["lambda_star"]
    near = by[(f"two-transition mu2={PAPER_MU2['near-critical']}", 0.2)]["two_gamma_kappa_d2"]
    # the Greedy Logistic comparison (app:logistic-comparison, d = 2, Delta = 1)
    cmp = {_named(key): two_gamma_kappa(key, "1", gamma) for key in (*_PANEL_G, *panel_h)}
    # library against witness on every 2 gamma kappa the verdict reads, and the table's derived
    # entries (gamma_c, exponents, verdict words) against the rule applied to its kappa
    bad_rows = threshold_row_errors(rows, gamma)
    checks = [
        *(
            agreement(
                f"2 gamma kappa_theta({_named(key)}, Delta = {d}, d = 2)",
                library=lib,
                witness=own_two_gamma_kappa(paper_link(key), d, gamma * wgamma),
                agree=_TGK_AGREE,
            )
            for key, d, lib in (
                *((key, "1", cmp[_named(key)]) for key in (*_PANEL_G, *panel_h)),
                ("tt-stable", "0.2", 2 * gamma * k_stable),
            )
        ),
        agreement(
            "rows of the step-size table whose gamma_c, 2 gamma kappa, exponent or verdict "
            "do not follow from their kappa"
            + (f" ({'; '.join(bad_rows[:3])})" if bad_rows else ""),
            library=len(bad_rows),
            witness=0,
            tol=0,
        ),
    ]
    outside = {k: x for k, x in cmp.items() if x <= 1}
    findings = []
    if not stable_ok:
        findings.append(
            "the stable Delta = 0.2 run (fig:app-stochastic-angle(a), d = 2) does "
            "not meet 2 gamma lambda0 > 1 around its 10-deg start"
        )
    if outside:
        findings.append(
            "in the Delta = 1 comparison with Greedy Logistic (app:logistic-comparison, "
            "fig:numerical-summary(g, h), d = 2, gamma = 10) NBL runs below the step-size "
            "threshold for "
            + ", ".join(f"{k} (2 gamma kappa = {x:.3f})" for k, x in outside.items())
            + " — with 2 gamma kappa < 1 the linearized recursion's own asymptotics give a "
            "localized error of order t^-(2 gamma kappa) and regret of order "
            "n^(1 - 2 gamma kappa) instead of log n; these orders are that theory's, not a "
            "measurement of these n = 2000 runs, whose horizon is too short to show an "
            "exponent" + "; lambda* > 0 for these links at Delta = 1, as the paper says (lines "
            "6454-6458: the comparison 'isolates link misspecification without placing NBL in "
            "the unstable regime'), but the conditions of the rate results "
            "(prop:localized-estimation, thm:regret-rate) are not met in these runs, so the "
            "comparison is between Greedy Logistic and an NBL whose step size is below the "
            "threshold of its own rate result (see also regret-rate and "
            "stopped-stochastic-control: the paper's experiments against those results' "
            "conditions)"
        )
    status = CAVEAT if findings else PASS
    computed = (
        "2 gamma kappa at gamma = "
        + f"{gamma:g}, d = 2, Delta = 1: "
        + ", ".join(f"{k} {x:.3f}" for k, x in cmp.items())
        + f"; stable Delta = 0.2 run: 2 gamma kappa_theta = {2 * gamma * k_stable:.3f}"
        + (
            f", 2 gamma lambda0(r0) >= 1 for r0 <= {rad['r0']:.4f} vs start {r_start:.4f}"
            if rad
            else ""
        )
        + (
            "; below the threshold: " + ", ".join(outside)
            if outside
            else "; every run meets the condition"
        )
    )
    table = "; ".join(
        f"{r['link']} Delta={r['delta']:g}: lambda*={r['lambda_star']:.6g}, kappa(d=2)="
        f"{r['kappa_d2']:.6g} [{r['verdict_d2']}], kappa(d>=3)={r['kappa_d3']:.6g} "
        f"[{r['verdict_d3']}], gamma_c = {r['gamma_c_d2']:.4g} / {r['gamma_c_d3']:.4g}"
        for r in rows
    )
    detail = (
        ("CAVEAT: " + "; ".join(findings) + ". " if findings else "")
        + f"The stable Delta = 0.2 run meets the condition in d = 2 (kappa_theta = "
        f"{k_stable:.4f}; lambda* = {lam_stable:.4f} is the d >= 3 rate, m2 < 0). The "
        f"near-critical and unstable Delta = 0.2 runs are outside the proposition by "
        f"design (near-critical: 2 gamma kappa = {near:.2g}, so its linearized error "
        f"decays like t^-{near:.2g}, i.e. not at all on n = 10,000). Not a finding about "
        f"the paper's d = 2 experiments, but gamma = 10 is below gamma_c in d >= 3 for: "
        + ", ".join(below3)
        + ". Full table (gamma_c for d = 2 / d >= 3): "
        + table
    )
    return gate(
        Outcome(
            status,
            computed,
            detail,
            consequence="experiment" if findings else None,
            figure="numerical-summary" if outside else None,
        ),
        checks,
    )
