"""Claims checked by the empirical regret-rate study (sec:regret; :mod:`nbl_sim.studies.rate_study`,
split into the study's cells: :func:`proofs_check.witnesses.toolkit_values.study_plan`).

All five read the full study (``nbl study``: 2 stable links at Δ = 1, d ∈ {2, 4, 8, 16},
n ∈ [10³, 10⁵], 500 replications; the step-size sweep, localization against n0 and the unstable
contrast). Each is a split check (:func:`proofs_check.runner_tasks.split_check`) over the
study's cells: ``nbl check`` runs the cells as tasks of the claim runner, once for all five, and
each claim reassembles the study from them with ``run_study`` itself; called directly (the serial
registry, mutants) the cells are computed once per process through the sweep runner. Either way
the cells are cached in the ``study`` namespace under the sweep's keys, shared with ``nbl study``
(so ``nbl check`` after ``nbl study`` reads them in seconds). They are
slow claims (``quick=False``). The study's quick configuration (d ∈ {2, 4}, n ≤ 3000, 40
replications) cannot establish any of their verdicts (the d/t regime, the b ~ d^q exponent and
the exponent sweep need the full horizons), so ``nbl check --quick`` reports them SKIPPED — after
running their gates on it (:func:`_reduced`): the witness's re-runs of its first replications
and its own statistics from the raw replications against the library's, so that a library bug
in the study's cells or analysis is a FAIL of a quick run too.

Every verdict reads the library's statistics of the study (:mod:`nbl_sim.studies.rate_analysis`)
only after :mod:`proofs_check.witnesses.study_analysis` has recomputed them from the raw
replications and agreed (:func:`_statistics`).

Decision rules never get easier to pass as the noise grows: a growth model must be preferred
*and* its alternative rejected by a χ² margin; an exponent or slope is confirmed when its 95%
interval lies inside the stated margin, contradicted when it lies outside, and otherwise
unresolved (FAIL: the study is too small to decide), never a PASS. The mutants change only the
comparison side (a claimed exponent, a swapped link), so they reuse the cached study.

Statuses: a property the paper states (O(d log n), the explicit bound C_e d/(t + t0), falling
exit probability, the need for λ* > 0) that the study contradicts beyond its stated tolerance is a
DISCREPANCY; an observation that confirms the paper's bound but not its wording on the tested
horizons is a CAVEAT; our linearized prediction disagreeing with our simulation is a FAIL.
"""

from __future__ import annotations

from nbl_sim.studies.rate_study import (
    R0_FRAC,
    ContrastCell,
    GammaCell,
    LocCell,
    RegretCell,
    plan,
)
from nbl_theory.paper import paper_link
from nbl_theory.stability import stability

from ...judgement import agree_abs, agree_max_abs, agree_rel, agreement, gate, tree_agreement
from ...registry import DISCREPANCY, FAIL, PASS, SKIPPED, Mutant, Outcome, register
from ...runner_tasks import split_check
from ...witnesses.concentration import implied_c_loc
from ...witnesses.lambda0 import RADIUS_STEP, radius_facts
from ...witnesses.polar_field import own_mu_g
from ...witnesses.regret_bound import c_e_unit, estimation_bound
from ...witnesses.stats import bound_verdict, decay_models, interval_verdict, power_law_fit
from ...witnesses.study_analysis import FLOOR_RULE, study_comparison
from ...witnesses.study_constants import (
    direction_rates,
    slowest_rate,
    stage_one_design,
    tangent_noise,
)
from ...witnesses.study_reruns import (
    LOC_REPS,
    STUDY_REPS,
    contrast_reference,
    gamma_reference,
    loc_reference,
    mean_text,
    regret_reference,
)
from ...witnesses.toolkit_values import (
    far_hemisphere_paths,
    quick_study,
    study_cells,
    study_constants,
    study_from_cells,
    study_plan,
    study_radii,
    study_rerun_values,
)

__all__: list[str] = []

_CHI2_MARGIN = 4.0  # a model is preferred / rejected by Δχ² >= 4 (≈ 2 SE on one parameter)
_Q_MARGIN = 0.1  # b ~ d^q: q <= 1 + 0.1 (b ∝ d^1.2 is rejected when SE(q) <= 0.028)
_SLOPE_MARGIN = 0.1  # a decay must be at least t^-0.9 to count as the 1/t rate
_C_INIT = 16.0  # C'_init of eq:Ce-explicit (eq:initialization-mse)
_Z95 = 1.959963984540054
_P_LINEAR = 0.05  # C (d - c) is rejected when its chi2 upper-tail probability is below


def _study_claim(combine):
    """The check of a study claim: ``combine(results, **mutant kwargs)`` over the study's cells
    (:func:`~proofs_check.runner_tasks.split_check`; called directly, the cells come from the
    study cache through :func:`~proofs_check.witnesses.toolkit_values.study_cells`)."""
    return split_check(study_plan, combine, run=study_cells)


#: the same float64 arithmetic in another order (rounding ~1e-14 for 10^5 rounds); exit times
#: and exit flags exactly
_VALUES = agree_max_abs(1e-9, "the first replications' values")
_EXACT = agree_max_abs(0.0, "the first replications' exit times / flags")
_STATISTICS = "proofs_check.witnesses.study_analysis:study_comparison"
_CONSTANTS = (
    "proofs_check.witnesses.study_constants:slowest_rate, "
    "proofs_check.witnesses.study_constants:tangent_noise"
)
_WITNESS = {
    part: f"proofs_check.witnesses.study_reruns:{rerun}_reference, {_STATISTICS}, {_CONSTANTS}"
    for part, rerun in (
        ("regret", "regret"),
        ("gamma", "gamma"),
        ("localization", "loc"),
        ("contrast", "contrast"),
    )
}
#: the study's statistics, library (nbl_sim.studies.rate_analysis) against witness
#: (witnesses.study_analysis): the same data through other float64 algorithms (GLS by
#: Cholesky whitening and QR against inverses; closed-form slopes against polyfit); measured
#: up to 2e-13 relative on the quick study and 1.6e-11 on the full one (the contrast's GLS
#: intercepts, a cancellation), 2026-11-29. Values a cancellation brings near zero (a fit's
#: coefficient, a slope) also get the witness's first-order rounding floor
#: (witnesses.study_analysis.FLOOR_RULE): with horizons 2·10⁴ and 21,544 (a setting) the
#: contrast's log-model b ≈ −3.93e-4 differed by 5.5e-9 relative, 2.2e-12 absolute, with
#: neither side wrong (2026-11-30)
_ANALYSIS_TOL = 1e-9
_WITNESS_MUTANT = Mutant.witness("the witness's re-run with step gamma x 1.1", wgamma=1.1)
_SHARES = (
    "the study's design read from nbl_sim.studies.rate_study.plan (link keys, horizons, "
    "C0, gamma, "
    "t0, start angle, r0, time grids, seeds), the realization drawn by "
    "nbl_sim.engine.environment (common random numbers) and the link's g (nbl_theory.Link); "
    "the cells of all replications are the library's, gated by the witness's "
    f"re-run (own NBL, regret and exit times) of replications 0..{STUDY_REPS - 1} of "
    f"every setting of the part used (0..{LOC_REPS - 1} for the localization part, whose "
    "cells keep only exit flags); the statistics the verdict reads (growth fits, slopes and "
    "their bootstrap, C (d - c), exit frequencies, the linearized exponent) are the "
    "library's (nbl_sim.studies.rate_analysis), gated by the witness's own from the raw "
    "replications (witnesses.study_analysis), which shares the study's seeds, windows, the "
    "fit's relative ridge and the step-size part's kappa and sigma^2; those constants and each "
    "link's kappa (gamma = 1/kappa) are the library's (nbl_sim.studies.rate_theory), gated by "
    "the witness's own (witnesses.study_constants: -H'(0) and the cap's ratio of its own "
    "field, sigma_theta^2 by a tensor Gauss-Legendre rule)"
)


def _first_cells(cfg) -> dict:
    """{part: [(key, first cell)]}: the cell holding replication 0 of every setting of the
    study ``cfg``, keyed as :func:`nbl_sim.studies.rate_study.run_study` keys its results."""
    cells, _ = plan(cfg)
    out: dict = {"regret": [], "gamma": [], "localization": [], "contrast": []}
    gammas = [c for c in cells if isinstance(c, GammaCell) and c.reps[0] == 0]
    out["gamma"] = list(zip(cfg.gamma_multiples, gammas))
    for c in cells:
        if c.reps[0] != 0:
            continue
        if isinstance(c, RegretCell) and c.ns == tuple(cfg.ns):
            out["regret"].append(((c.link, c.d), c))
        elif isinstance(c, LocCell):
            out["localization"].append(((c.d, c.n0), c))
        elif isinstance(c, ContrastCell):
            out["contrast"].append((c.link, c))
    return out


def _reruns(res, part: str, wgamma: float = 1.0) -> list:
    """Library versus witness on replications 0..STUDY_REPS − 1 of every setting of ``part`` of
    the study ``res`` (:mod:`proofs_check.witnesses.study_reruns`; ``wgamma`` multiplies the
    witness's step, a witness mutant)."""
    k, out = STUDY_REPS, []
    first = _first_cells(res.config)[part]
    if part == "gamma":
        refs = gamma_reference(tuple(c for _, c in first), gamma_factor=wgamma)
        for (mult, _c), ref in zip(first, refs):
            lib = res.gamma[mult]
            out += [
                agreement(
                    f"e_t on the grid, 2 gamma kappa = {mult:g}",
                    library=lib["e_grid"][:k],
                    witness=ref["e_grid"],
                    agree=_VALUES,
                    fmt=mean_text,
                ),
                agreement(
                    f"exit times, 2 gamma kappa = {mult:g}",
                    library=lib["tau"][:k],
                    witness=ref["tau"],
                    agree=_EXACT,
                    fmt=mean_text,
                ),
            ]
        return out
    fn = {
        "regret": regret_reference,
        "localization": loc_reference,
        "contrast": contrast_reference,
    }[part]
    for key, cell in first:
        ref = fn(cell, gamma_factor=wgamma)
        k = len(next(iter(ref.values())))
        lib = study_rerun_values(getattr(res, part)[key], part, tuple(ref), k)
        for name, val in ref.items():
            out.append(
                agreement(
                    f"{name} of replications 0..{k - 1} ({part} {key})",
                    library=lib[name],
                    witness=val,
                    agree=_EXACT if name in ("tau", "exit") else _VALUES,
                    fmt=mean_text,
                )
            )
    return out


def _statistics(res, an, parts) -> list:
    """Library versus witness on the statistics of ``parts`` of the study ``res`` (its
    analysis ``an``; :func:`~proofs_check.witnesses.study_analysis.study_comparison`)."""
    out = []
    for part in parts:
        stats, floors = study_comparison(res, part)
        out.append(
            tree_agreement(
                f"the study's {part} statistics",
                library=an[part],
                witness=stats,
                tol=_ANALYSIS_TOL,
                floors=floors,
                floor_rule=FLOOR_RULE,
            )
        )
    return out


#: λ0(r0) and the level R0_FRAC κ, relative. d = 2: both from the 1-D ratio with a bounded
#: refinement (xatol 1e-12) and κ_θ = −H'(0) of the 2-D quadrature (measured ≤ 5e-13).
#: d ≥ 3: the witness's κ is the cap's ratio at a chord of 1e-4, O(chord²) from its limit
#: (measured 2.5e-9 for the logistic link), and its λ0(r0) a minimum over a 60 × 24 grid of the
#: cap, an upper bound of the minimum accurate to the grid (measured ≤ 4.5e-15 here, where the
#: minimum sits on a grid tilt)
_RADIUS_TOL = {2: 1e-9, 3: 1e-6}


#: the study's constants, relative: σ²_θ by two quadratures of the same 2-D integral (the
#: library's 1-D skew-normal reduction, the witness's tensor rule; both ~1e-14, measured
#: ≤ 5e-16); κ_θ (d = 2) against −H'(0) by Richardson differences (O(h⁴) + rounding/h ≈ 1e-12,
#: measured ≤ 1.1e-12); κ in d ≥ 3 against the cap's ratio at a chord of 1e-4 (O(chord²),
#: measured ≤ 2.5e-9)
_CONSTANT_TOL = {("kappa", 2): 1e-9, ("kappa", 3): 1e-6, ("sigma2_theta", 2): 1e-12}


def _constant_checks(res) -> list:
    """Library versus witness on the study's constants (:mod:`~proofs_check.witnesses.
    study_constants`): the slowest tangent rate kappa of each link (it sets gamma = 1/kappa,
    hence every 2 gamma kappa of the study) and kappa_theta, sigma_theta^2 of the step-size
    part (its gammas and the linearized exponent it is judged against)."""
    out = []
    for name, link, d, value in study_constants(res):
        lk = paper_link(link)
        wit = (
            slowest_rate(lk, res.config.delta, d)
            if name == "kappa"
            else tangent_noise(lk, res.config.delta)[name]
        )
        out.append(
            agreement(
                f"the study's {name} ({link}, d = {d})",
                library=value,
                witness=wit,
                agree=agree_rel(_CONSTANT_TOL[(name, min(d, 3))]),
            )
        )
    # the regret parts' design: Stage I's length and the horizon each time grid runs to
    for (grid, link, d), ends in stage_one_design(res.config).items():
        t = res.constants[grid][(link, d)]
        out.append(
            agreement(
                f"the study's first and last recorded round ({grid}, {link}, d = {d}): n0 = "
                "ceil(C0 (d + log n_max)) and n_max (thm:regret-rate)",
                library=(t[0], t[-1]),
                witness=ends,
                agree=_equal,
                fmt=lambda v: f"{v[0]}, {v[1]}",
            )
        )
    return out


def _equal(library, witness) -> bool:
    """equal integers"""
    return library == witness


#: the rates each tangent direction contracts at, library (nbl_sim.studies.rate_theory: the
#: stability tier's exact Jacobian rates) against witness (study_constants.direction_rates:
#: -H'(0) by Richardson differences, Delta mu* by parts): measured <= 5e-13 relative at the
#: study's Delta = 1 and 4.4e-12 at 0.2 (kappa_theta, the differences) and 1e-14 (kappa_perp),
#: 2026-11-30
_RATES_TOL = 1e-9


def _rate_checks(res, an, parts) -> list:
    """Library versus witness on each link's tangent rates and the 2 gamma kappa they give at
    the study's gamma (what the localized-estimation claim prints next to its fit over d;
    :func:`~proofs_check.witnesses.study_constants.direction_rates`)."""
    return [
        tree_agreement(
            f"the tangent rates of {link} ({part})",
            library=a["rates"],
            witness=direction_rates(
                paper_link(link), res.config.delta, res.constants["gamma"][link]
            ),
            tol=_RATES_TOL,
        )
        for part in parts
        for link, a in an[part].items()
    ]


def _beyond_is_lower(library, witness) -> bool:
    return witness < library


_beyond_is_lower.__doc__ = (
    f"witness lambda0(r0 (1 + {RADIUS_STEP:g})) < library lambda0(r0) (r0 is the largest radius)"
)


def _radius_checks(res) -> list:
    """Library versus witness on the study's radii r0 (cor:local_stability: the largest r0
    with lambda0(r0) >= R0_FRAC kappa, per link and d; they set the exit times and the
    localization part, and 2 gamma lambda0 enters C_e): lambda0(r0) and the level
    R0_FRAC kappa from the witness's own field (:func:`~proofs_check.witnesses.lambda0.
    radius_facts`), and lambda0 just past r0 below the library's."""
    out = []
    for link, d, r0, lam in study_radii(res):
        w = radius_facts(paper_link(link), res.config.delta, d, r0, R0_FRAC)
        rel = agree_rel(_RADIUS_TOL[min(d, 3)])
        where = f"({link}, d = {d}, r0 = {r0:.6f})"
        out += [
            agreement(f"lambda0(r0) {where}", library=lam, witness=w["lambda0"], agree=rel),
            agreement(f"R0_FRAC kappa {where}", library=lam, witness=w["level"], agree=rel),
            agreement(
                f"lambda0 past r0 {where}", library=lam, witness=w["beyond"], agree=_beyond_is_lower
            ),
        ]
    return out


def _reduced(rerun: str, parts, radius: bool = False, rates: bool = False):
    """A study claim's quick-run check (:attr:`proofs_check.registry.Claim.reduced`): the
    re-runs of ``rerun`` and the statistics of ``parts`` (with ``rates``, also their tangent
    rates) gated on the reduced study (``nbl study --quick``), which cannot decide the paper's
    statement: ``SKIPPED`` when library and witness agree, the toolkit-defect ``FAIL`` when
    not."""

    def check(wgamma: float = 1.0) -> Outcome:
        res, an = quick_study()
        reruns = _reruns(res, rerun, wgamma)
        stats = [*_statistics(res, an, parts), *(_rate_checks(res, an, parts) if rates else ())]
        radii = _radius_checks(res) if radius else []
        consts = _constant_checks(res)
        cfg = res.config
        text = (
            f"its gates ran on the reduced study (nbl study --quick: d in {list(cfg.dims)}, "
            f"n <= {max(cfg.ns)}, {cfg.reps} replications), too small to decide the paper's "
            f"statement: {len(reruns)} re-run comparisons of its first replications agree; "
            + "; ".join(j.detail for j in stats)
            + (f"; {len(radii)} checks of its radii r0 agree" if radii else "")
            + f"; its {len(consts)} constants (each link's kappa, the step-size part's "
            "kappa_theta and sigma_theta^2, each regret grid's n0 and n_max) agree with the "
            "witness's"
        )
        return gate(Outcome(SKIPPED, None, text), [*reruns, *stats, *radii, *consts])

    return check


def _growth(fit: dict) -> str:
    """'log' when a + b log n is within Δχ² = 4 of the best model and a + b sqrt(n) is worse
    than it by at least 4 (power against the alternative); 'not log' when log n is worse than
    the best model by more than 4; otherwise 'unresolved'."""
    best = min(fit[m]["chi2"] for m in ("log", "sqrt", "linear"))
    if fit["log"]["chi2"] > best + _CHI2_MARGIN:
        return "not log"
    return "log" if fit["sqrt"]["chi2"] - fit["log"]["chi2"] >= _CHI2_MARGIN else "unresolved"


@register(
    "regret-rate-d-log-n",
    "thm:regret-rate",
    "sec:regret",
    "E[R_n] = O(d log n) with n0 = ceil(C0 (d + log n)), eta_t = gamma/(t + t0), "
    "2 gamma lambda0 > 1, t0 <= C_off n0: for logistic and two-transition mu2 = -1.074037 "
    "at Delta = 1, d in {2, 4, 8, 16}, n from 1e3 to 1e5 (7 horizons), C0 = 20, t0 = n0, "
    "gamma = 1/kappa (2 gamma kappa = 2), 500 replications, plus n in [1e4, 1e6] for "
    "two-transition d in {8, 16} (100 replications): on the longest horizons a + b log n "
    "fits E[R_n] at least as well as a + b sqrt(n) and a + b n while sqrt(n) is rejected, "
    "and the log-n coefficient b grows at most linearly in d",
    "monte-carlo",
    f"per (link, d) on the longest horizons: chi2(log) <= min chi2 + {_CHI2_MARGIN:g} and "
    f"chi2(sqrt) >= chi2(log) + {_CHI2_MARGIN:g} (GLS); b ~ d^q with the 95% interval of q "
    f"below 1 + {_Q_MARGIN:g}",
    "equal parameter counts, so chi2 ranks the models as AIC does; a margin of 4 is a 2 SE "
    "difference for one parameter, and requiring sqrt(n) to be rejected keeps noisy cells "
    "from passing. O(d log n) bounds the growth, so q < 1 is consistent (the d-free "
    "Stage-I cost C0 log n dilutes b at small d). A cell in which some paths end in the "
    "far hemisphere (e_n > 2) shows that C0 = 20 is not the theorem's 'sufficiently "
    "large' C0 there (localization failed on those paths); it is reported and not "
    "counted, whether its fit is log or not. chi2/dof is reported: the models rank the "
    "growth, they are not claimed to fit within the noise",
    printed="E[R_n] = O(d log n) (thm:regret-rate)",
    quick=False,
    mutants=(
        Mutant.printed("E[R_n] = O(d^0.5 log n) claimed", q_claim=0.5),
        Mutant.formula("growth models compared on sqrt(n) instead of log n", model="sqrt"),
        _WITNESS_MUTANT,
        Mutant.returning(
            "the witness's Stage I length n0 + 1",
            "witness",
            "proofs_check.claims.regret.study:stage_one_design",
            lambda ends: {k: (n0 + 1, n) for k, (n0, n) in ends.items()},
        ),
    ),
    witness=_WITNESS["regret"],
    shares=_SHARES,
    reduced=_reduced("regret", ("regret", "regret_long")),
)
@_study_claim
def _regret_rate_d_log_n(results, q_claim: float = 1.0, model: str = "log", wgamma: float = 1.0):
    res, an = study_from_cells(results)
    rows, verdicts, excluded, qs = [], [], [], {}
    for link, a in an["regret"].items():
        longs = an["regret_long"].get(link, {"by_d": {}})["by_d"]
        ds, bs, bse = [], [], []
        for d, r in a["by_d"].items():
            arms = [("n <= 1e5", r, res.regret[(link, d)])]
            if d in longs:
                arms.append(("n in [1e4, 1e6]", longs[d], res.regret_long[(link, d)]))
            for name, rr, raw in arms:
                f = dict(rr["fit"])
                if model != "log":  # the mutant: the roles of log n and sqrt n swapped
                    f["log"], f["sqrt"] = f["sqrt"], f["log"]
                g, far = _growth(f), far_hemisphere_paths(raw)
                c2 = "/".join(f"{rr['fit'][k]['chi2']:.1f}" for k in ("log", "sqrt", "linear"))
                rows.append(
                    f"{link} d={d} ({name}): chi2 log/sqrt/lin = {c2} "
                    f"(dof {len(rr['mean']) - 2}) "
                    f"[{g}], b = {rr['fit']['log']['b']:.2f} +- "
                    f"{rr['fit']['log']['b_se']:.2f}; E[R_n] {rr['mean'][0]:.1f} -> "
                    f"{rr['mean'][-1]:.1f}; far-hemisphere paths {far}"
                )
            # the asymptotic statement is judged on the longest horizons available; a cell whose
            # paths show the premise failing is set aside whatever its fit says (a rule that
            # only set aside failing cells could pass a wrong theorem)
            if far:
                excluded.append(
                    f"{link} d={d} ({far} of {len(raw['tau'])} paths end with "
                    f"e_n > 2; its fit: {g})"
                )
                continue
            verdicts.append(g)
            ds.append(d)  # b from the common horizons n <= 1e5
            bs.append(r["fit"]["log"]["b"])
            bse.append(r["fit"]["log"]["b_se"])
        q = power_law_fit(ds, bs, bse) if len(ds) >= 2 else None
        qs[link] = q
        if q is None:
            verdicts.append("unresolved")
            rows.append(f"{link}: b not positive in every counted d, no exponent")
            continue
        lo, hi = q["q"] - _Z95 * q["q_se"], q["q"] + _Z95 * q["q_se"]
        top = q_claim + _Q_MARGIN
        verdicts.append("log" if hi <= top else "not log" if lo > top else "unresolved")
        rows.append(
            f"{link}: b ~ d^{q['q']:.3f} [{lo:.3f}, {hi:.3f}] (95%, n <= 1e5, d in "
            f"{ds}) vs q <= {top:g}"
        )
    if "not log" in verdicts:
        status = DISCREPANCY
    elif "unresolved" in verdicts:
        status = FAIL
    else:
        status = PASS
    computed = "; ".join(
        f"{link}: per d "
        + ", ".join(
            f"{d}:{_growth(r['fit'])}"
            + (
                f"->{_growth(an['regret_long'][link]['by_d'][d]['fit'])} (to 1e6)"
                if d in an["regret_long"].get(link, {"by_d": {}})["by_d"]
                else ""
            )
            for d, r in a["by_d"].items()
        )
        + (f", q = {qs[link]['q']:.2f} +- {_Z95 * qs[link]['q_se']:.2f}" if qs.get(link) else "")
        for link, a in an["regret"].items()
    )
    if excluded:
        computed += "; not counted: " + "; ".join(excluded)
    return gate(
        Outcome(
            status,
            computed,
            (
                "Not counted (premise of thm:regret-rate not met at C0 = 20): "
                + "; ".join(excluded)
                + ". "
                if excluded
                else ""
            )
            + "; ".join(rows)
            + f". gamma = {res.constants['gamma']} (the study's "
            "cells and seed: nbl study --json)",
        ),
        [
            *_reruns(res, "regret", wgamma),
            *_statistics(res, an, ("regret", "regret_long")),
            *_constant_checks(res),
        ],
    )


def _d_model_text(link: str, m: dict, n: float) -> str:
    """The fit (t + t0) a_t = C (d - c) over d >= 3 (:func:`nbl_sim.studies.rate_analysis.
    dimension_model`) in words, every number from ``m``; d = 2 apart."""
    r = m["rates"] or {}
    p = "" if m["chi2_p"] is None else f", p = {m['chi2_p']:.2g}"
    text = (
        f"{link}: at n = {n:g}, (t + t0) a_t over d in {m['dims']} = C (d - c) with C = "
        f"{m['C']:.1f} [{m['C_ci'][0]:.1f}, {m['C_ci'][1]:.1f}], c = {m['c']:.2f} "
        f"[{m['c_ci'][0]:.2f}, {m['c_ci'][1]:.2f}] (95%), chi2 = {m['chi2']:.2f} on "
        f"{m['dof']} dof{p}"
    )
    if r:
        text += (
            f"; at gamma = {r['gamma']:g} the d - 2 directions orthogonal to theta "
            f"contract with 2 gamma kappa_perp = {r['two_gamma_kappa_perp']:.2f} and theta "
            f"with 2 gamma kappa_theta = {r['two_gamma_kappa_theta']:.2f}"
        )
    if m["d2"]:
        e = m["d2"]
        text += (
            f"; d = 2 apart (theta alone): (t + t0) a_t = {e['S']:.1f} +- {e['se']:.1f}, "
            f"the d >= 3 fit's C (2 - c) = {e['extrapolated']:.1f} +- "
            f"{e['extrapolated_se']:.1f}"
        )
    return text


def _mu_g_checks(links) -> list:
    """Library versus witness on mu_g of the study's links (to 1e-12; both ~1e-16)."""
    return [
        agreement(
            f"mu_g({link})",
            agree=agree_abs(1e-12),
            library=float(stability(paper_link(link), "1").values["mu_g"]),
            witness=own_mu_g(paper_link(link)),
        )
        for link in links
    ]


@register(
    "localized-estimation-rate-study",
    "prop:localized-estimation",
    "sec:regret",
    "E[||v_t - v*||^2 1{tau > t}] <= C_e d/(t + t0): in the regret-rate study's longest "
    "runs (n = 1e5, 500 replications per link and d in {2, 4, 8, 16}; n = 1e6 for "
    "two-transition d in {8, 16}; r0 from cor:local_stability with lambda0(r0) >= "
    "0.75 kappa in dimension d) the localized error stays below the paper's explicit "
    "bound (C_e of eq:Ce-explicit, C'_init = 16, C_off = 1) at every recorded t - the "
    "text's 'Thus ... the squared directional error is of order d/t' paraphrases this "
    "bound. Reported with it, not part of the verdict: the log-log slope over the last "
    "decade of the longest run and how the error at n grows with d, fitted over d >= 3 "
    "as C (d - c)/(t + t0) (the d - 2 directions orthogonal to theta share one rate; "
    "d = 2, theta alone, reported apart)",
    "monte-carlo",
    "bound: mean + 5 SE <= C_e d/(t + t0) at every grid t (or within 5 SE with 5 SE <= "
    "10% of the bound; a mean within 5 SE of the bound with a larger SE is unresolved: "
    f"FAIL). Reported: 95% bootstrap intervals of the slope (against -1 + "
    f"{_SLOPE_MARGIN:g}); C and c of (t + t0) a_t = C (d - c) over d >= 3 with 95% "
    f"intervals and the fit's chi2 (rejected when p < {_P_LINEAR:g})",
    "the bootstrap resamples replications (400 samples, seeded). prop:localized-"
    "estimation is a bound at every t >= n0 with an explicit constant, so only a "
    "violation of C_e d/(t + t0) contradicts it (DISCREPANCY), and a violation at a "
    "finite t is not a pre-asymptotic effect. A decay shallower than 1/t or an error "
    "growing faster than d at the tested horizons does not contradict an upper bound "
    "that still holds, and the sentence 'of order d/t' follows the bound with 'Thus': "
    "it is read as the bound (an O), so the slopes and exponents are information",
    printed="E[||v_t - v*||^2 1{tau > t}] <= C_e d/(t + t0); 'the squared directional "
    "error is of order d/t'",
    quick=False,
    mutants=(
        Mutant.printed("rate d/(t+t0) -> d/(t+t0)^1.2", rate=1.2),
        Mutant.formula(
            "C_e d -> C_e (the factor d dropped) with C'_init = 1", d_factor=False, c_init=1.0
        ),
        _WITNESS_MUTANT,
    ),
    witness=_WITNESS["regret"]
    + ", proofs_check.witnesses.polar_field:own_mu_g"
    + ", proofs_check.witnesses.study_constants:direction_rates",
    shares=_SHARES + "; 2 gamma lambda0 of C_e is the study's (nbl_sim.studies.rate_study)",
    reduced=_reduced("regret", ("estimation", "estimation_long"), radius=True, rates=True),
)
@_study_claim
def _estimation_rate_study(
    results, rate: float = 1.0, d_factor: bool = True, c_init: float = _C_INIT, wgamma: float = 1.0
):
    res, an = study_from_cells(results)
    rows, bound_bad, unresolved, worst, slow = [], [], [], 0.0, []
    info_unresolved, not_linear, linear = [], [], []
    for part in ("estimation", "estimation_long"):
        for link, a in an[part].items():
            gamma = res.constants["gamma"][link]
            for d, r in a["by_d"].items():
                ce = c_e_unit(link, gamma, res.constants["two_gamma_lambda0"][(link, d)], c_init)
                bound, ratio = estimation_bound(
                    ce, d if d_factor else 1, r["t"], r["t0"], rate, r["mean"]
                )
                vs = [
                    bound_verdict(a_, e_, b_, 0.1 * b_)
                    for a_, e_, b_ in zip(r["mean"], r["se"], bound)
                ]
                worst = max(worst, ratio)
                if "above" in vs:
                    bound_bad.append(
                        f"{link} d={d} ({part}): a_t > C_e d/(t+t0) at "
                        f"{vs.count('above')} of {len(bound)} grid t"
                    )
                if "unresolved" in vs:
                    unresolved.append(f"{link} d={d} ({part})")
                s = r["slope"]
                rows.append(
                    f"{link} d={d} ({'n = 1e6' if part.endswith('long') else 'n = 1e5'})"
                    f": max a_t/bound = {ratio:.3f} (C_e = {ce:.0f}); last decade slope "
                    f"{s['slope']:.3f} [{s['lo']:.3f}, {s['hi']:.3f}] (t+t0 in "
                    f"[{s['window'][0]:.0f}, {s['window'][1]:.0f}]); (t+t0) a_t/d at n = "
                    f"{r['scaled_end']:.1f}, exits {r['exited']}/{r['reps']}"
                )
    nmax = max(res.config.ns)
    for link, a in an["estimation"].items():
        longs = an["estimation_long"].get(link, {"by_d": {}})["by_d"]
        for d, r in a["by_d"].items():
            s = (longs.get(d) or r)["slope"]
            top = -rate + _SLOPE_MARGIN
            where = (
                f"{link} d={d}: slope {s['slope']:.3f} [{s['lo']:.3f}, {s['hi']:.3f}] on "
                f"t + t0 in [{s['window'][0]:.0f}, {s['window'][1]:.0f}]"
            )
            if s["lo"] > top:
                slow.append(where)  # established: slower than t^-(rate - 0.1)
            elif s["hi"] > top:
                info_unresolved.append(where + " (slope)")
        m = a["d_model"]
        if m is not None:
            where = _d_model_text(link, m, nmax)
            rows.append(where)
            if m["chi2_p"] is None:
                pass  # two dimensions d >= 3: a line through two points tests nothing
            elif m["chi2_p"] < _P_LINEAR:
                not_linear.append(where)  # C (d - c) rejected by its chi2
            else:
                linear.append(link)
    # Only the bound decides (see the claim's why); the slopes and the d-exponent are reported.
    status = DISCREPANCY if bound_bad else FAIL if unresolved else PASS
    computed = (
        f"max a_t/(C_e d/(t+t0)) = {worst:.3f} over every link, d and recorded t"
        + ("; unresolved: " + "; ".join(unresolved) if unresolved else "")
        + (
            "; on the tested horizons the error itself decays more slowly than d/t "
            "(the bound still holds): " + "; ".join(slow)
            if slow
            else "; every last-decade slope as steep as t^-1 within its 95% interval"
            if not info_unresolved
            else ""
        )
        + ("; slope not resolved: " + "; ".join(info_unresolved) if info_unresolved else "")
        + (
            "; the error at n is linear in d over d >= 3, C (d - c)/(t + t0), for "
            + ", ".join(linear)
            + f" (chi2 p >= {_P_LINEAR:g})"
            if linear
            else ""
        )
        + (
            "; the error at n is not C (d - c)/(t + t0) over d >= 3 (chi2 p < "
            f"{_P_LINEAR:g}): " + "; ".join(not_linear)
            if not_linear
            else ""
        )
    )
    trend, steeper = [], []
    for link, a in an["estimation_long"].items():
        for d, r in a["by_d"].items():
            s0, s1 = an["estimation"][link]["by_d"][d]["slope"], r["slope"]
            steeper.append(s1["slope"] < s0["slope"])
            trend.append(
                f"{link} d = {d}: slope {s0['slope']:.3f} on t + t0 in "
                f"[{s0['window'][0]:.0f}, {s0['window'][1]:.0f}], {s1['slope']:.3f} on "
                f"[{s1['window'][0]:.0f}, {s1['window'][1]:.0f}]"
            )
    how = (
        "the slopes steepen with the horizon"
        if steeper and all(steeper)
        else "the slopes on the longer horizons, not all steeper"
    )
    detail = (
        ("DISCREPANCY: " + "; ".join(bound_bad) + ". ")
        if bound_bad
        else (
            f"The paper's bound C_e d/(t + t0) holds "
            f"{'wherever resolved' if unresolved else 'everywhere'} (largest ratio "
            f"{worst:.2f}). The error itself is not yet d/t on the tested horizons for the "
            f"settings listed ({how}"
            + (": " + "; ".join(trend) if trend else "")
            + "). 'Of order d/t' follows the bound with 'Thus' and is read as the bound, so "
            "this is information, not a finding. "
            if slow
            else ""
        )
    )
    return gate(
        Outcome(status, computed, detail + "; ".join(rows)),
        [
            *_reruns(res, "regret", wgamma),
            *_mu_g_checks(an["estimation"]),
            *_statistics(res, an, ("estimation", "estimation_long")),
            *_rate_checks(res, an, ("estimation", "estimation_long")),
            *_radius_checks(res),
            *_constant_checks(res),
        ],
    )


@register(
    "step-size-exponent",
    "prop:localized-estimation",
    "sec:regret",
    "The step-size condition 2 gamma lambda0 > 1 bites: with eta_t = gamma/(t + t0) the "
    "localized error decays like t^-min(1, 2 gamma kappa) (kappa the exact local rate): "
    "logistic, Delta = 1, d = 2, 20 deg start, t0 = 100, n = 1e5, 400 replications, "
    "2 gamma kappa in {0.25, ..., 3}: above the threshold (2 gamma kappa >= 1.5) the "
    "exponent is 1, below it (2 gamma kappa <= 0.75) it is clearly below 1",
    "monte-carlo",
    f"above: 95% bootstrap interval of the exponent inside 1 +- {_SLOPE_MARGIN:g}; below: "
    f"95% interval below 1 - {_SLOPE_MARGIN:g}",
    "bootstrap over replications (seeded); an interval that straddles a margin is "
    "unresolved (FAIL), so wider intervals can never help a verdict. The exact "
    "linearized recursion's exponent on the same window is reported next to the "
    "measurement; their agreement is a toolkit self-check (tests/sim/"
    "test_rate_linearized.py), not a statement of the paper",
    printed="2 gamma lambda0 > 1 (prop:localized-estimation) gives the d/t rate",
    quick=False,
    mutants=(
        Mutant.formula("exponent min(1, 2 gamma kappa) -> min(0.8, 2 gamma kappa)", cap=0.8),
        _WITNESS_MUTANT,
    ),
    witness=_WITNESS["gamma"],
    shares=_SHARES,
    reduced=_reduced("gamma", ("gamma",)),
)
@_study_claim
def _step_size_exponent(results, cap: float = 1.0, wgamma: float = 1.0):
    res, an = study_from_cells(results)
    g = an["gamma"]
    rows, parts = [], []
    for r in g["rows"]:
        m, lo, hi = r["measured"], r["measured_lo"], r["measured_hi"]
        x = r["two_gamma_kappa"]
        if x >= 1.5:
            part = (
                "1/t"
                if cap - _SLOPE_MARGIN < lo and hi < cap + _SLOPE_MARGIN
                else "not 1/t"
                if hi < cap - _SLOPE_MARGIN or lo > cap + _SLOPE_MARGIN
                else "unresolved"
            )
        elif x <= 0.75:
            part = interval_verdict(lo, hi, cap - _SLOPE_MARGIN, "slower", "not slower")
        else:
            part = "at the threshold (not judged)"
        parts.append(part)
        rows.append(
            f"2gk = {x:g} (gamma = {r['gamma']:.3f}): measured {m:.3f} [{lo:.3f}, "
            f"{hi:.3f}] [{part}], linearized {r['window_prediction']:.3f}, asymptotic "
            f"{r['predicted_exponent']:.3f}; exits {r['exited']}/{r['reps']}"
        )
    if "unresolved" in parts:
        status = FAIL
    elif "not 1/t" in parts or "not slower" in parts:
        status = DISCREPANCY
    else:
        status = PASS
    computed = "2 gamma kappa: measured exponent [95%] " + ", ".join(
        f"{r['two_gamma_kappa']:g}: {r['measured']:.2f} [{r['measured_lo']:.2f}, "
        f"{r['measured_hi']:.2f}]"
        for r in g["rows"]
    )
    return gate(
        Outcome(
            status,
            computed,
            f"kappa = {g['kappa']:.6f}, sigma_theta^2 = {g['sigma2']:.6f}, gamma_c = "
            f"{g['gamma_c']:.4f}; " + "; ".join(rows),
        ),
        [*_reruns(res, "gamma", wgamma), *_statistics(res, an, ("gamma",)), *_constant_checks(res)],
    )


@register(
    "localization-vs-n0",
    "lem:finite-horizon-localization",
    "sec:regret",
    "P(tau <= n) <= delta once n0 >= C_loc (d + log(1/delta)): in the regret-rate study "
    "(logistic, Delta = 1, gamma = 9.68, t0 = n0, r0 from cor:local_stability "
    "with lambda0(r0) >= 0.75 kappa (2 gamma lambda0 = 1.5), "
    "n = 1e4, 2000 replications, d in {2, 8}) the frequency of leaving the r0-neighbourhood "
    "decays exponentially in n0",
    "monte-carlo",
    "per d: log P(exit) on n0 (points with >= 5 exits and >= 5 stays) with slope < 0 at "
    "> 5 SE and the exponential model preferred to a power law by chi2 >= 4",
    "binomial delta-method weights from 2000 independent replications (common random "
    "numbers across n0); a decay that cannot be told from a power law (the alternative "
    "the lemma excludes) is unresolved, never a PASS",
    printed="P(tau <= n) <= delta once n0 >= C_loc (d + log(1/delta))",
    quick=False,
    mutants=(Mutant.data("exit frequencies in reverse n0 order", reverse=True), _WITNESS_MUTANT),
    witness=_WITNESS["localization"],
    shares=_SHARES,
    reduced=_reduced("localization", ("localization",), radius=True),
)
@_study_claim
def _localization_vs_n0(results, reverse: bool = False, wgamma: float = 1.0):
    res, an = study_from_cells(results)
    loc = an["localization"]
    rows, verdicts = [], []
    for d, rs in loc["by_d"].items():
        x = [float(r["n0"]) for r in rs]
        P = [r["p_exit"] for r in rs][:: -1 if reverse else 1]
        R = rs[0]["reps"]
        fit = decay_models(x, P, R)
        if fit["exp"] is None:
            verdicts.append("unresolved")
            rows.append(f"d = {d}: fewer than 3 usable points")
            continue
        e, pw = fit["exp"], fit["pow"]
        z, dchi = e["b"] / e["b_se"], pw["chi2"] - e["chi2"]
        v = (
            "exponential"
            if z < -5 and dchi >= _CHI2_MARGIN
            else "not exponential"
            if z > 5 or dchi <= -_CHI2_MARGIN
            else "unresolved"
        )
        verdicts.append(v)
        c_loc = implied_c_loc(x, P, d)
        rows.append(
            f"d = {d}: "
            + ", ".join(f"n0 = {int(a)}: {p:.4f}" for a, p in zip(x, P))
            + f"; log P slope {e['b']:.4f} +- {e['b_se']:.4f} (z = {z:.1f}), power law "
            f"worse by chi2 {dchi:.1f} [{v}] ({fit['used']} points); smallest C_loc "
            f"with P <= exp(d - n0/C_loc) on the grid {c_loc:.1f}"
        )
    status = (
        FAIL if "unresolved" in verdicts else DISCREPANCY if "not exponential" in verdicts else PASS
    )
    return gate(
        Outcome(
            status,
            "; ".join(
                f"d={d}: {rs[0]['p_exit']:.3f} -> {rs[-1]['p_exit']:.4f}"
                for d, rs in loc["by_d"].items()
            )
            + f" [{', '.join(verdicts)}]",
            "r0 "
            + ", ".join(f"d = {d}: {r:.4f}" for d, r in loc["r0"].items())
            + "; "
            + "; ".join(rows),
        ),
        [
            *_reruns(res, "localization", wgamma),
            *_statistics(res, an, ("localization",)),
            *_radius_checks(res),
            *_constant_checks(res),
        ],
    )


@register(
    "regret-rate-unstable-contrast",
    "thm:regret-rate",
    "sec:regret",
    "The O(log n) regret needs lambda* > 0 (assum:positive-stability): the unstable "
    "two-transition link mu2 = 1.244122 at Delta = 0.2 (10 deg start, gamma = 10, "
    "t0 = 500, d = 2, 400 replications, n to 1e5) has regret growing like a power of n "
    "clearly above the stable mu2 = -1.074037 in the same setting",
    "monte-carlo",
    "log-log slope of E[R_n] over the upper half of the horizons: the unstable link's 95% "
    "interval lies above the stable link's; for the unstable link log n is rejected "
    f"against the best growth model by chi2 >= {_CHI2_MARGIN:g}",
    "bootstrap over replications (seeded); common random numbers across the two links; "
    "wider intervals or flatter chi2 can only make the contrast harder to establish",
    printed="O(d log n) under assum:positive-stability (lambda* > 0)",
    quick=False,
    mutants=(
        Mutant.link("the unstable link replaced by the stable one", unstable="tt-stable"),
        _WITNESS_MUTANT,
    ),
    witness=_WITNESS["contrast"],
    shares=_SHARES,
    reduced=_reduced("contrast", ("contrast",)),
)
@_study_claim
def _unstable_contrast(results, unstable: str = "tt-unstable", wgamma: float = 1.0):
    res, an = study_from_cells(results)
    c = an["contrast"]
    u, s = c[unstable], c["tt-stable"]
    best = min(u["fit"][m]["chi2"] for m in ("log", "sqrt", "linear"))
    log_rejected = u["fit"]["log"]["chi2"] >= best + _CHI2_MARGIN
    ok = u["slope"]["lo"] > s["slope"]["hi"] and log_rejected
    rows = [
        f"{k}: R_n ~ n^{r['slope']['slope']:.3f} [{r['slope']['lo']:.3f}, "
        f"{r['slope']['hi']:.3f}], chi2 log/sqrt/lin = {r['fit']['log']['chi2']:.1f}/"
        f"{r['fit']['sqrt']['chi2']:.1f}/{r['fit']['linear']['chi2']:.1f}, E[R_n] at n = "
        f"{r['ns'][-1]:.0f}: {r['mean'][-1]:.2f} +- {r['se'][-1]:.2f}, R_n/n = "
        f"{r['per_round_end']:.2e}, angle {r['angle_deg'][-1]:.2f} deg"
        for k, r in c.items()
    ]
    return gate(
        Outcome(
            PASS if ok else DISCREPANCY,
            f"{unstable} n^{u['slope']['slope']:.2f} vs stable "
            f"n^{s['slope']['slope']:.2f}; log n rejected for {unstable}: "
            f"{log_rejected}",
            "; ".join(rows),
        ),
        [
            *_reruns(res, "contrast", wgamma),
            *_statistics(res, an, ("contrast",)),
            *_constant_checks(res),
        ],
    )
