"""The toolkit's own values that the claims compare witnesses with, cached once per process.

These are *not* witnesses: they call the library under test (``nbl_theory.stability`` at its
three precision tiers, ``nbl_sim.population.fields``'s quadrature scale, the regret-rate study).
They live here so that the claims of several sections share one evaluation (a certified λ* takes
about half a second, the regret-rate study minutes) and so that a claims module never defines
machinery of its own.
"""

from __future__ import annotations

import functools

import numpy as np

from nbl_sim.population import fields as pop
from nbl_sim.studies import rate_theory as rt
from nbl_theory import NBLInputError
from nbl_theory import elicitation as el
from nbl_theory.families import make_family
from nbl_theory.paper import PAPER_LINKS, paper_link
from nbl_theory.self_concordance import self_concordance_constant
from nbl_theory.stability import stability
from nbl_theory.threshold import find_thresholds

__all__ = [
    "certified_at",
    "mp_at",
    "float_at",
    "float_values",
    "restoring",
    "near_critical_ratio",
    "mu_g",
    "field_scale",
    "delta_roots",
    "weighted_entropy_facts",
    "bregman_affine_gap",
    "bregman_row_check",
    "bregman_table_row",
    "family_response",
    "bregman_mean_gap",
    "update_steps",
    "link_derivatives_of",
    "self_concordance_forms_of",
    "bregman_derivative_holds",
    "dual_domain_of",
    "convex_conjugate_of",
    "induced_potential_of",
    "stage_one_library",
    "study_plan",
    "study_cells",
    "study_from_cells",
    "parameter_roots",
    "instability_limit",
    "repair_analysis",
    "repaired_prediction",
    "isotropic_spectrum",
    "covariance_equilibrium",
    "circle_equilibria_deg",
    "beyond_specs",
    "beyond_analysis",
    "kappa_theta",
    "library_tangent_rates",
    "reference_regret",
    "kappa_of",
    "regret_geometry_values",
    "study_rerun_values",
    "far_hemisphere_paths",
    "self_concordance_R",
    "population_drift",
    "two_gamma_kappa",
    "study_constants",
    "elicitation_integrals",
    "phase_boundary",
    "rho0_links_at",
    "float_family_g",
    "mc_band",
]


@functools.cache
def certified_at(key: str, delta: str):
    """Certified :class:`~nbl_theory.results.StabilityResult` of the paper link ``key``."""
    return stability(paper_link(key), delta, certify=True)


@functools.cache
def mp_at(key: str, delta: str, dps: int):
    """mpmath-tier result of the paper link ``key`` at ``dps`` digits (no automatic precision
    raise)."""
    return stability(paper_link(key), delta, dps=dps, auto_raise=False)


@functools.cache
def float_at(key: str, delta: str):
    """float64-tier :class:`~nbl_theory.results.StabilityResult` of the paper link ``key`` (no
    automatic precision raise: the float64 tier's own values and error estimates)."""
    return stability(paper_link(key), delta, auto_raise=False)


@functools.cache
def float_values(link, delta: str) -> dict:
    """The float64 tier's values (μ_g, μ*, m0, m2, κ*, λ*, ...) as floats."""
    return {k: float(v) for k, v in stability(link, delta).values.items()}


def near_critical_ratio(key: str, companions, delta: str) -> float:
    """|λ*(key)| / min |λ*(companion)| from the certified tier (the library's side of
    :func:`proofs_check.witnesses.lambda_star.near_critical_ratio`)."""
    lam = abs(float(certified_at(key, delta).values["lambda_star"]))
    return lam / min(abs(float(certified_at(k, delta).values["lambda_star"])) for k in companions)


@functools.cache
def restoring(key: str, delta: str) -> float:
    """The library's restoring contribution Δμ* of the paper link ``key`` (the float64 tier's
    rate on θ^⊥, prop:local_jacobian, which is Δμ*)."""
    return float(stability(paper_link(key), delta).jacobian_rates["orthogonal"])


@functools.cache
def mu_g(link) -> float:
    """μ_g = E g'(Z) from the float64 tier (μ_g does not depend on Δ; evaluated at Δ = 1)."""
    return float(stability(link, "1").values["mu_g"])


@functools.cache
def field_scale(link) -> float:
    """max(1, S), S = E|g(s)|(1 + |s|) (:func:`nbl_sim.population.fields.quadrature_scale`): the
    scale the population-field tolerances are relative to."""
    return max(1.0, pop.quadrature_scale(link))


@functools.cache
def weighted_entropy_facts() -> dict:
    """{fact: (computed, printed, equal)} of the weighted binary negative entropy φ_ρ for symbolic
    ρ (:func:`nbl_theory.elicitation.weighted_entropy_facts`; cases ρ > 0, < 0, = 0)."""
    return el.weighted_entropy_facts(el.RHO)


def bregman_affine_gap(extra=0):
    """ℓ_{φ_ρ + a m + b + extra} − ℓ_{φ_ρ} with the library's Bregman loss
    (:func:`nbl_theory.elicitation.bregman_loss`) and φ_ρ
    (:func:`nbl_theory.elicitation.weighted_entropy_potential`), for symbolic a, b, ρ and
    r, y > 0, simplified (0 when affine terms leave the loss unchanged); ``extra`` is an
    expression in :data:`nbl_theory.elicitation.M`."""
    import sympy as sp

    a, b = sp.symbols("a b", real=True)
    r, y = sp.symbols("r y", positive=True)
    phi = el.weighted_entropy_potential()
    loss = el.bregman_loss(phi + a * el.M + b + extra, r, y) - el.bregman_loss(phi, r, y)
    return sp.simplify(loss)


def update_steps(cases) -> tuple:
    """The library's P_v^⊥W and NBL step (v + ηG)/‖v + ηG‖
    (:func:`nbl_sim.engine.geometry.tangent_projection`, :func:`~nbl_sim.engine.geometry.\
nbl_update`) on the float cases [(v, W, η), ...], each concatenated in case order."""
    import numpy as np

    from nbl_sim.engine import geometry

    return (
        np.concatenate([geometry.tangent_projection(v, w) for v, w, _ in cases]),
        np.concatenate([geometry.nbl_update(v, w, eta) for v, w, eta in cases]),
    )


def bregman_mean_gap(phi):
    """The library's E_F[ℓ(r, Y)] − E_F[ℓ(μ_F, Y)] − ℓ(r, μ_F) for φ (in
    :data:`nbl_theory.elicitation.M`), simplified (:func:`nbl_theory.elicitation.\
bregman_consistency_gap`; lem:bregman_mean says 0)."""
    return el.bregman_consistency_gap(phi)


def link_derivatives_of(phi) -> tuple:
    """The library's (g', g'') of the link of φ, in m = g(z) (φ in
    :data:`nbl_theory.elicitation.M`;
    :func:`nbl_theory.elicitation.link_derivatives_from_potential`) and whether the library
    proves them by implicit differentiation
    (:func:`nbl_theory.elicitation.check_link_derivatives_implicit`)."""
    return (*el.link_derivatives_from_potential(phi), el.check_link_derivatives_implicit(phi))


def self_concordance_forms_of(phi) -> tuple:
    """The library's (φ'''/φ''², d/dm (1/φ'')) of φ (in :data:`nbl_theory.elicitation.M`;
    :func:`nbl_theory.elicitation.self_concordance_ratio_from_potential`) and whether it proves
    g''/g' = −φ'''/φ''² = d/dm (1/φ'') (:func:`nbl_theory.elicitation.\
check_self_concordance_equivalence`)."""
    return (
        *el.self_concordance_ratio_from_potential(phi),
        el.check_self_concordance_equivalence(phi),
    )


def bregman_derivative_holds(phi) -> bool:
    """Whether the library proves ∂ℓ_φ/∂r = φ''(r)(r − y) for φ (in
    :data:`nbl_theory.elicitation.M`) (:func:`nbl_theory.elicitation.\
bregman_derivative_matches_weight`, eq:app_bregman_derivative)."""
    return el.bregman_derivative_matches_weight(phi)


def bregman_row_check(phi, domain, w, theta, g) -> dict:
    """The library's recomputation of one row of tab:app_bregman_examples
    (:func:`nbl_theory.elicitation.check_bregman_row`): {"w", "theta", "g"} → whether the
    recomputed φ'', φ' and (φ')⁻¹ equal the given entries (φ, w, θ in
    :data:`nbl_theory.elicitation.M`, g in :data:`nbl_theory.elicitation.THETA`)."""
    return el.check_bregman_row(el.BregmanRow("claim", phi, tuple(domain), w, theta, g))


def bregman_table_row(name: str) -> dict:
    """The library's transcription of the row ``name`` of tab:app_bregman_examples
    (:data:`nbl_theory.elicitation.BREGMAN_TABLE`): {"phi", "domain", "w", "theta", "g"} (φ, w,
    θ in :data:`nbl_theory.elicitation.M`, g in :data:`nbl_theory.elicitation.THETA`)."""
    (row,) = (r for r in el.BREGMAN_TABLE if r.name == name)
    return {k: getattr(row, k) for k in ("phi", "domain", "w", "theta", "g")}


def family_response(family: str, points) -> tuple | str:
    """The library's family Link ``family`` (:func:`nbl_theory.families.make_family`, built from
    its potential by ``Link.from_potential``) as a user gets it: g(ϑ) at ``points`` in float64,
    or ``"refused: <reason>"`` when the library will not build it."""
    try:
        link = make_family(family)
    except NBLInputError as e:
        return f"refused: {e}"
    return tuple(float(v) for v in link.g_numpy(np.asarray(points, dtype=float)))


def dual_domain_of(phi, domain) -> tuple:
    """The library's dual domain φ'(I) of φ (in :data:`nbl_theory.elicitation.M`) on the open
    interval ``domain`` (:func:`nbl_theory.elicitation.dual_domain`)."""
    return tuple(el.dual_domain(phi, el.M, *domain))


def convex_conjugate_of(phi, domain):
    """The library's convex conjugate φ*(ϑ) of φ (in :data:`nbl_theory.elicitation.M`) on the
    open interval ``domain`` (:func:`nbl_theory.elicitation.convex_conjugate`, in
    :data:`nbl_theory.elicitation.THETA`)."""
    return el.convex_conjugate(phi, el.M, tuple(domain), el.THETA)


def induced_potential_of(g):
    """The library's potential induced by the link ``g`` (in :data:`nbl_theory.elicitation.Z`):
    :func:`nbl_theory.elicitation.link_induced_potential` (g⁻¹, φ_g, the range of g and its two
    identity checks)."""
    return el.link_induced_potential(g, el.Z)


def stage_one_library(env, seed: int, reps: int, n0: int):
    """The library's e_{n0} = ‖v_{n0} − v*‖² after Stage I of alg:nbl
    (:func:`nbl_sim.engine.nbl_kernel.nbl_run` recording round n0) on replications
    0..reps−1 of ``env.draw(seed, ..., n0, n0)``."""
    from nbl_sim.engine.nbl_kernel import nbl_run

    real = env.draw(seed, range(reps), n0, n0)
    return nbl_run(real.X, real.Y, real.coins, env.v_star, record_rounds=[n0]).sq_error[:, 0]


@functools.cache
def study_plan():
    """The cells of the full regret-rate study (``nbl study``; :mod:`nbl_sim.studies.rate_study`)
    as a :class:`~proofs_check.runner_tasks.CellPlan`:
    :func:`nbl_sim.studies.rate_study.study_cell` over the cells of ``plan(FULL)``, in the
    ``"study"`` namespace, so that the claim runner caches them
    under the sweep's own keys, shared with ``nbl study`` (and the other way round)."""
    from nbl_sim.studies.rate_study import FULL, plan, study_cell

    from ..runner_tasks import CellPlan

    return CellPlan(study_cell, tuple(plan(FULL)[0]), namespace="study")


@functools.lru_cache(maxsize=1)
def study_cells(cell_plan) -> tuple:
    """The results of ``cell_plan``'s cells (:func:`study_plan`), in cell order, computed once
    per process as ``nbl study`` computes them: :func:`nbl_sim.runs.sweep.run_sweep` with the study
    cache (``ChunkCache(DEFAULT_CACHE_DIR, "study")``) and the executor ``run_study`` would pick
    (a process pool when there are several cores and some cell is not cached). This is how a
    study claim called directly (a serial run, the mutants) gets its cells; the parallel
    runner runs them as tasks instead.

    Raises
    ------
    nbl_sim.runs.sweep.SweepError
        Some study cells failed (after every other cell was computed and cached).
    """
    from nbl_sim.runs.execution import executor_for
    from nbl_sim.runs.sweep import DEFAULT_CACHE_DIR, ChunkCache, run_sweep

    cache = ChunkCache(DEFAULT_CACHE_DIR, cell_plan.namespace)
    with executor_for(None) as ex:  # the pool starts only if some cell must run
        sw = run_sweep(cell_plan.fn, cell_plan.cells, executor=ex, cache=cache, on_error="raise")
    return tuple(sw.results)


@functools.lru_cache(maxsize=1)
def study_from_cells(results):
    """The full regret-rate study reassembled from its cells' ``results`` (a
    :class:`~proofs_check.runner_tasks.CellResults` of :func:`study_plan`) by ``run_study``
    itself (:class:`~proofs_check.runner_tasks.ReplayExecutor`), and its analysis:
    ``(StudyResult, dict)``, once for every claim that shares the cells (memoized on the
    results, which hash by their cells' keys)."""
    from nbl_sim.studies.rate_study import FULL, run_study

    from ..runner_tasks import ReplayExecutor

    res = run_study(FULL, executor=ReplayExecutor(study_plan().cells, results))
    if res.failures:  # a bug: the replay has a result for every cell
        raise RuntimeError(
            f"{len(res.failures)} study cells failed: "
            + "; ".join(f.error for f in res.failures[:3])
        )
    return res, res.analysis()


@functools.cache
def delta_roots(key: str):
    """Every certified sign change of λ*(Δ) of the paper link ``key`` on a 160-point grid of
    (0, 2) (:func:`nbl_theory.threshold.find_thresholds`)."""
    return find_thresholds(paper_link(key), "delta", grid=160, certify=True, label=key)


@functools.cache
def parameter_roots(
    family: str,
    parameter: str,
    delta: str,
    certify: bool = True,
    bracket: tuple | None = None,
    grid: int = 160,
):
    """Every sign change of λ* over a family parameter at fixed Δ
    (:func:`nbl_theory.threshold.find_thresholds` with ``grid`` scan points; certified brackets
    when ``certify``), cached so that a claim's mutants reuse it."""
    return find_thresholds(
        lambda v: make_family(family, **{parameter: v}),
        parameter,
        delta=delta,
        bracket=bracket,
        grid=grid,
        certify=certify,
        label=family,
    )


@functools.cache
def instability_limit(
    family: str, parameter: str, delta: str, *, grid: int = 40, top: str = "1.5"
) -> dict | None:
    """The largest separation Δ at which some member of ``family`` is unstable: the top of the
    unstable region in the (``parameter``, Δ) plane, computed with the library's threshold
    machinery (:func:`nbl_theory.threshold.find_thresholds`).

    The members unstable at ``delta`` lie between the certified sign changes of
    :func:`parameter_roots` there; for a member p the critical separation Δ_c(p) is its largest
    unstable->stable root of λ*(Δ) in (0.01, ``top``) (a ``grid``-point scan, Brent); Δ_c is
    maximized over p by bounded Brent (scipy ``minimize_scalar``, float64), and at the
    maximizer p* the root is bracketed again with Arb (certified when the enclosures at the
    bracket's ends have opposite signs: the region provably reaches the bracket's lower end; the
    maximization over p itself is float64, not certified).

    Returns None when ``delta`` has no unstable interval, else a dict: ``parameter`` (p*),
    ``delta`` (Δ_c(p*), decimal string), ``bracket``, ``certified``, ``band`` (the unstable
    interval at ``delta``) and ``evaluations`` (of Δ_c).
    """
    from scipy.optimize import minimize_scalar

    roots = parameter_roots(family, parameter, delta).roots
    if len(roots) < 2:
        return None
    lo, hi = float(roots[0].value), float(roots[-1].value)
    count = [0]

    def members(p: float, certify: bool):
        count[0] += certify is False
        res = find_thresholds(
            make_family(family, **{parameter: repr(float(p))}),
            "delta",
            bracket=("0.01", top),
            grid=grid,
            certify=certify,
        )
        ups = [r for r in res.roots if r.crossing == "unstable->stable"]
        return ups[-1] if ups else None

    def minus_crit(p: float) -> float:
        r = members(p, False)
        return -float(r.value) if r is not None else 0.0

    opt = minimize_scalar(minus_crit, bounds=(lo, hi), method="bounded", options={"xatol": 1e-7})
    best = members(opt.x, True)
    if best is None:
        return None
    return {
        "parameter": float(opt.x),
        "delta": best.value,
        "bracket": tuple(best.bracket),
        "certified": bool(best.certified),
        "band": (roots[0].value, roots[-1].value),
        "evaluations": count[0],
    }


def repair_analysis(law: str, arms: str, repair: str, delta: str = "1") -> dict:
    """The library's exact analysis of repaired NBL (:func:`nbl_sim.beyond.repairs.analyze_repair`)
    for tt-stable with context spec ``law`` and arms spec ``arms``."""
    from nbl_sim.beyond.arms import parse_arms_spec
    from nbl_sim.beyond.contexts import parse_context_spec
    from nbl_sim.beyond.repairs import analyze_repair

    return analyze_repair(
        parse_context_spec(law),
        parse_arms_spec(arms, paper_link("tt-stable"), delta),
        repair,
        best_linear=(0.0, 0.0),
    )


def repaired_prediction(law: str, arms: str, policy: str, offset_deg: float = 0.0) -> float:
    """Where the library's analysis says a simulated policy ends: |learned angle| in degrees
    (0 when the repair makes v* attracting), plus ``offset_deg`` (a data mutant moves it)."""
    rep = {"nbl": "plain", "whitened-running": "whitened"}.get(policy, policy)
    row = repair_analysis(law, arms, rep)
    return (0.0 if row["verdict"] == "repaired" else abs(row["learned_angle_deg"])) + offset_deg


def isotropic_spectrum(key: str, delta: str) -> tuple[float, float, float]:
    """The library's exact analysis (:mod:`nbl_sim.beyond`) of the paper link ``key`` under
    N(0, I) with symmetric arms: the d = 2 local rate −max eig J(v*), the d = 3 λ* (same) and
    ‖h(v*)‖ (d = 2)."""
    import numpy as np

    from nbl_sim.beyond.analysis import field_model, jacobian_spectrum
    from nbl_sim.beyond.arms import symmetric_arms
    from nbl_sim.beyond.contexts import GaussianLaw
    from nbl_sim.beyond.equilibrium import equilibrium_defect

    link = paper_link(key)
    model2 = field_model(GaussianLaw(2), symmetric_arms(link, delta))
    eig2, _ = jacobian_spectrum(model2, np.array([1.0, 0.0]))
    defect, _ = equilibrium_defect(model2, np.array([1.0, 0.0]))
    model3 = field_model(GaussianLaw(3), symmetric_arms(link, delta, 3))
    eig3, _ = jacobian_spectrum(model3, np.array([1.0, 0.0, 0.0]))
    return -eig2.max(), -eig3.max(), float(np.linalg.norm(defect.value))


def covariance_equilibrium(key: str, delta: str, angle_deg: float) -> bool:
    """The library's decision whether v* is an equilibrium under N(0, Σ), cond Σ = 3 with its
    major axis ``angle_deg`` from v*, symmetric arms (d = 2)."""
    import numpy as np

    from nbl_sim.beyond.analysis import field_model
    from nbl_sim.beyond.arms import symmetric_arms
    from nbl_sim.beyond.contexts import parse_context_spec
    from nbl_sim.beyond.equilibrium import equilibrium_defect

    law = parse_context_spec(f"gaussian:cond=3,angle={angle_deg:g}")
    _, holds = equilibrium_defect(
        field_model(law, symmetric_arms(paper_link(key), delta)), np.array([1.0, 0.0])
    )
    return holds


def circle_equilibria_deg(key: str, delta: str, n_grid: int = 720) -> list:
    """The library's equilibria on the circle (d = 2, N(0, I), symmetric arms): (angle in
    degrees, stability) pairs."""
    from nbl_sim.beyond.analysis import circle_equilibria, field_model
    from nbl_sim.beyond.arms import symmetric_arms
    from nbl_sim.beyond.contexts import GaussianLaw

    model = field_model(GaussianLaw(2), symmetric_arms(paper_link(key), delta))
    return [(e.angle_deg, e.stability) for e in circle_equilibria(model, n_grid=n_grid)]


def beyond_specs(case) -> tuple[str, str]:
    """The library's (context spec, arms spec) of a :class:`proofs_check.witnesses.beyond.Case`."""
    law = {
        "gaussian": (
            f"gaussian:cond={case.cond:g},angle={case.axis_deg:g}" if case.cond != 1 else "gaussian"
        ),
        "student-t": f"student-t:nu={case.nu:g}",
        "cube": "cube",
        "rademacher": "rademacher",
    }[case.law]
    parts = [f"shift={case.shift:g}"] if case.shift else []
    parts += [f"intercept={case.intercept:g}"] if case.intercept else []
    parts += [f"rotate={case.rotate_deg:g}"] if case.rotate_deg else []
    return law, ",".join(parts) or "symmetric"


def beyond_analysis(case):
    """The library's exact analysis (:func:`nbl_sim.beyond.analyze`) of a witness case."""
    from nbl_sim.beyond import analyze
    from nbl_sim.beyond.arms import parse_arms_spec
    from nbl_sim.beyond.contexts import parse_context_spec

    law, arms = beyond_specs(case)
    return analyze(
        parse_context_spec(law), parse_arms_spec(arms, paper_link(case.key), f"{case.delta:g}")
    )


def kappa_theta(link, delta: str, d: int) -> float:
    """κ_θ = −H'(0), the contraction rate along θ at v* (prop:local_jacobian), from
    :func:`nbl_sim.studies.rate_theory.local_rates` (the library's side of the comparison)."""
    from nbl_sim.studies.rate_theory import local_rates

    return local_rates(link, delta, d)["kappa_theta"]


@functools.cache
def library_tangent_rates(key: str, delta: str, d: int) -> dict:
    """The library's two computations of the tangent rates of Dh(v*) for the paper link
    ``key`` (the library side of the spectrum claims), each an ascending array of the d − 1
    tangent rates: ``formula`` — κ_⊥ = Δμ* (d − 2 times) and κ_θ from
    :func:`nbl_sim.studies.rate_theory.local_rates` (the float64 tier of
    ``nbl_theory.stability``) —, ``fd`` — the −eigenvalues of the symmetric part of
    :func:`nbl_sim.population.fields.jacobian_fd` (the library field differentiated at v*) on
    the tangent space, at the witness's own case geometry (the arms are an input here) — and
    ``matrix`` — the same of the library's eq:Jacobian matrix
    (:func:`nbl_sim.population.fields.jacobian_formula`) —; and the library's ``lambda_star``."""
    import numpy as np

    from nbl_sim.studies.rate_theory import local_rates

    from .geometry import case_geometry, tangent_basis

    link = paper_link(key)
    index = list(PAPER_LINKS).index(key)
    beta, vs, _ = case_geometry(index, delta, d)
    basis = tangent_basis(vs)
    t = basis.T @ pop.jacobian_fd(link, beta, vs) @ basis
    rates = np.sort(-np.linalg.eigvalsh(0.5 * (t + t.T)))
    jac = basis.T @ pop.jacobian_formula(link, delta, beta=beta) @ basis
    matrix = np.sort(-np.linalg.eigvalsh(0.5 * (jac + jac.T)))
    lr = local_rates(link, delta, d)
    formula = np.sort([lr["kappa_perp"]] * (d - 2) + [lr["kappa_theta"]])
    return {"formula": formula, "fd": rates, "matrix": matrix, "lambda_star": lr["lambda_star"]}


def reference_regret(env, seed: int, reps, n: int, n0: int, record_rounds) -> dict:
    """The regret R_t at ``record_rounds`` of NBL, Greedy Logistic (intercept, the simulator's
    defaults) and the oracle on replications ``reps`` of ``seed``, through the library's
    *reference* backend (``nbl_sim.engine``'s plain-numpy definition of the numbers of record:
    the draw, the policies and the regret), which ``simulate`` runs only for small NBL-only
    chunks: the library side that the regret claim compares with the witness beside
    ``simulate``'s compiled run."""
    from nbl_sim import engine

    ref = {"backend": "reference"}
    real = engine.draw(env, seed, reps, n, n0, **ref)
    actions = {
        "nbl": engine.nbl(real.X, real.Y, real.coins, env.v_star, **ref).actions,
        "greedy-logistic": engine.greedy_logistic(real.X, real.Y, real.coins, **ref)[0],
        "oracle": engine.oracle(real.X, env.v_star, **ref),
    }
    return {k: engine.regret(env, real, a, record_rounds, **ref) for k, a in actions.items()}


def regret_geometry_values(link, delta: str, out_of_plane: bool, alphas) -> dict:
    """The library's error-to-regret geometry (:mod:`nbl_sim.studies.regret_geometry`) for v
    tilted in (ψ = 0) or out of (ψ = π/2) the (v*, θ) plane, as the regret-rate figure computes
    it (``regret_scaling``): ``constant`` — the α → 0 limit of E[r | v]/((Δ/2)‖v − v*‖²)
    (``error_to_regret_constant``) —, ``regret`` — E[r | v(α)] at ``alphas``
    (``regret_given_angle``) —, ``ratio`` — E[r | v(α)]/((Δ/2)‖v − v*‖²) there — and ``slope``
    — the least-squares slope of log E[r | v] against log ‖v − v*‖ over ``alphas``."""
    import math

    from nbl_sim.studies.regret_geometry import regret_scaling

    psi = math.pi / 2 if out_of_plane else 0.0
    sc = regret_scaling(link, delta, psi, alphas)
    return {
        "constant": sc["limit"],
        "regret": [float(x) for x in sc["regret"]],
        "ratio": [float(x) for x in sc["ratio"]],
        "slope": sc["slope"],
    }


def kappa_of(a: str, dps: int):
    """The library's κ(a) = E[e^{−aZ} 1{Z > 0}] (:func:`nbl_theory.self_concordance.kappa`) at
    ``dps`` digits, for the decimal string ``a``."""
    import mpmath

    from nbl_theory.self_concordance import kappa

    with mpmath.workdps(dps):
        return kappa(mpmath.mpf(a), dps=dps)


def study_rerun_values(lib: dict, part: str, names, k: int) -> dict:
    """The library's values of the study's ``part`` that a witness re-run reproduces: the first
    ``k`` replications of each of ``names`` (for "regret", R_n = Stage I + Stage II regret at the
    last horizon, beside e_grid, tau and e_n0)."""
    import numpy as np

    if part == "regret":
        lib = {
            "regret": lib["stage1"][:, -1] + lib["stage2"][:, -1],
            "e_grid": lib["e_grid"],
            "tau": lib["tau"],
            "e_n0": lib["e_n0"],
        }
    return {name: np.asarray(lib[name])[:k] for name in names}


def far_hemisphere_paths(data: dict) -> int:
    """The number of the library's study paths whose direction ends in the far hemisphere
    (e_n = ‖v_n − v*‖² > 2, the last column of ``data["e_grid"]``)."""
    import numpy as np

    return int((np.asarray(data["e_grid"])[:, -1] > 2).sum())


@functools.cache
def _self_concordance_R(key: str) -> float:
    return self_concordance_constant(paper_link(key)).R


def self_concordance_R(key: str, scale: float = 1.0) -> float:
    """The library's self-concordance constant R of the paper link ``key``
    (:func:`nbl_theory.self_concordance.self_concordance_constant`), times ``scale`` (a
    mutant's factor; 1 is the library's value)."""
    return _self_concordance_R(key) * scale


def population_drift(env, v) -> float:
    """⟨v − v*, h(v)⟩ with the library's population tangent field h
    (:func:`nbl_sim.population.fields.tangent_field`) for one unit v of ``env``."""
    return float((v - env.v_star) @ pop.tangent_field(env.link, env.beta, v))


def two_gamma_kappa(key: str, delta: str, gamma: float) -> float:
    """2γκ_θ in d = 2 for the paper link ``key`` at Δ, κ_θ the library's Jacobian rate
    (:func:`nbl_sim.studies.rate_theory.local_rates`): the step-size condition 2γλ0 > 1 of
    prop:localized-estimation needs it above 1."""
    return 2 * gamma * rt.local_rates(paper_link(key), delta, 2)["kappa_theta"]


@functools.cache
def quick_study():
    """The reduced regret-rate study (``nbl study --quick``: :data:`nbl_sim.studies.rate_study.
    QUICK`) run serially in this process, and its analysis: ``(StudyResult, dict)``, once per
    process (the quick-run gates of the five study claims share it)."""
    from nbl_sim.studies.rate_study import QUICK, run_study

    res = run_study(QUICK, workers=1)
    return res, res.analysis()


def study_radii(res) -> list:
    """The library's radii of the regret-rate study ``res``: ``(link, d, r0, lambda0)`` per
    (link, d), λ0(r0) as the study recorded it (2γλ0 divided by its 2γ)."""
    const = res.constants
    return [
        (link, d, r0, const["two_gamma_lambda0"][(link, d)] / (2 * const["gamma"][link]))
        for (link, d), r0 in const["r0"].items()
    ]


def study_constants(res) -> list:
    """The library's constants of the regret-rate study ``res`` (:mod:`nbl_sim.studies.
    rate_theory` through ``run_study``): ``(name, link, d, value)`` for the slowest tangent rate
    κ of each link (d = 3; it sets γ = 1/κ), and κ_θ and σ²_θ of the step-size part's link
    (d = 2)."""
    const, cfg = res.constants, res.config
    rows = [("kappa", link, 3, float(k)) for link, k in const["kappa"].items()]
    if "gamma_kappa" in const:
        rows += [
            ("kappa", cfg.gamma_link, 2, float(const["gamma_kappa"])),
            ("sigma2_theta", cfg.gamma_link, 2, float(const["gamma_sigma2"])),
        ]
    return rows


def elicitation_integrals(rho: str, delta: str, dps: int = 40) -> dict:
    """The library's μ*, m2 and λ* of φ_ρ through its 1-D integrals in m (eq:app_mustar_elicitation,
    eq:app_m2_elicitation: :func:`nbl_theory.elicitation.mustar_integral`, ``m2_integral`` on
    (0, 1); λ* as :func:`nbl_theory.elicitation.lambda_star_expression` assembles them), each
    integral evaluated by mpmath's tanh-sinh at ``dps`` digits (the working precision restored
    after): ``{"mu_star": mpf, "m2": mpf, "lambda_star": mpf}``."""
    import mpmath
    import sympy as sp

    phi = el.weighted_entropy_potential(sp.Rational(rho))
    d = sp.Rational(delta)

    def value(integral):
        f = sp.lambdify(el.M, integral.function, modules="mpmath")
        return mpmath.quad(f, [0, mpmath.mpf(1) / 2, 1])

    with mpmath.workdps(dps):
        out = {
            "mu_star": value(el.mustar_integral(phi, (0, 1), d)),
            "m2": value(el.m2_integral(phi, (0, 1), d)),
        }
        lam = el.lambda_star_expression(phi, (0, 1), d)
        parts = sorted(lam.atoms(sp.Integral), key=sp.default_sort_key)
        names = sp.symbols(f"i0:{len(parts)}")
        assemble = sp.lambdify(names, lam.xreplace(dict(zip(parts, names))), modules="mpmath")
        out["lambda_star"] = assemble(*(value(p) for p in parts))
    return out


#: the piece of the two-transition λ* = 0 curve the claims trace: from the lower root at
#: Δ = 0.2 over the fold (Δ ≈ 0.5205) down through the upper root: its box in (mu2, Δ) and step
PHASE_BOX, PHASE_STEP = ((0.3, 2.5), (0.15, 0.6)), 0.25


@functools.cache
def phase_boundary(mu2_start: float) -> dict:
    """The library's λ* = 0 boundary of the two-transition family through (``mu2_start``,
    Δ = 0.2), traced as the tanh-phase figure traces it
    (:func:`nbl_sim.presentation.figures.tanh_phase.boundary_curve`) in :data:`PHASE_BOX` at
    :data:`PHASE_STEP`: its points (``mu2``, ``delta``), the library's λ* there and the
    largest Δ on it (``top``)."""
    from nbl_sim.presentation.figures.tanh_phase import boundary_curve

    c = boundary_curve(mu2_start, PHASE_BOX, PHASE_STEP)
    return {"mu2": c.x, "delta": c.y, "lambda_star": c.residual, "top": float(c.y.max())}


def rho0_links_at(zs) -> dict:
    """The library's numeric links of the ρ = 0 potential at the points ``zs``: the
    weighted-entropy family at ρ = 0 and the binary-negative-entropy family (the same potential
    m log m + (1 − m) log(1 − m)), g by inverting φ' (``Link.g_numpy``)."""
    import numpy as np

    z = np.asarray(zs, dtype=float)
    return {
        name: make_family(family, **params).g_numpy(z)
        for name, (family, params) in (
            ("weighted-entropy (rho = 0)", ("weighted-entropy", {"rho": "0"})),
            ("binary-negative-entropy", ("binary-negative-entropy", {})),
        )
    }


def float_family_g(family: str, params: dict | None, zs):
    """The library's float64 g of a named family as ``nbl simulate`` evaluates it: the
    :class:`~nbl_theory.float_families.FloatFamilyLink` of ``family`` (at its defaults, or with
    ``params``), its closed-form g at the points ``zs``; None when the family has none."""
    import numpy as np

    from nbl_theory.float_families import float_family_link

    link = float_family_link(family, params)
    return None if link is None else link.g_numpy(np.asarray(zs, dtype=float))


def mc_band(values) -> tuple:
    """The library's Monte Carlo summary of the replications ``values`` as the figures draw it
    (:func:`nbl_sim.engine.metrics.mc_summary`): (mean, SE, lower, upper end of the 95% band)."""
    from nbl_sim.engine.metrics import mc_summary

    s = mc_summary(values)
    return tuple(float(s[k]) for k in ("mean", "se", "lo", "hi"))
