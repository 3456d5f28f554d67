"""Claims of the conversion from boundary error to regret and the regret rate (sec:regret,
app:error-to-regret, thm:regret-rate).

E[r | v(α)] in d = 2 is a polar Gauss–Legendre quadrature on the two disagreement wedges
(:mod:`proofs_check.witnesses.disagreement`, written from the proof of
lem:gaussian-polynomial-disagreement), cross-checked by Monte Carlo and by refinement; for v tilted
out of the (v*, θ) plane the same polar rule integrates the gap first averaged over θᵀX
(:func:`~proofs_check.witnesses.disagreement.regret_out_of_plane`). The library's own values
(:mod:`nbl_sim.studies.regret_geometry`: the α → 0 constants, E[r | v], the ratios and the log-log
slope the regret-rate figure prints) are compared with these witnesses before the paper is
judged. Where the paper's proof pins a constant down (C_gap = φ0(0) sup|g'| for bounded g', the
C_q of lem:gaussian-polynomial-disagreement before it is "absorbed") the explicit value is checked.
thm:regret-rate is checked partially: one test link (the steep logistic g = 1/(1 + e^{−4z}), not
the paper's), d = 2, three horizons: the growth in log n (with an equivalence margin against
n^0.1) and the appendix's explicit bound with the paper's constants; and that bound is evaluated
at the paper's own comparison settings. Expensive intermediate results are cached per process,
so the registered mutants re-run only the comparisons.
"""

from __future__ import annotations

import functools

from nbl_sim.population import fields as pop
from nbl_theory.links import Link
from nbl_theory.numeric import PHI0
from nbl_theory.paper import COMPARISON_SETTING, paper_link

from ...judgement import agree_abs, agree_max_rel, agree_rel, agreement, gate, gate_noting
from ...registry import CAVEAT, DISCREPANCY, FAIL, PASS, Mutant, Outcome, register
from ...witnesses.disagreement import (
    ALPHA_GRID,
    cq_bound,
    disagreement_identities,
    disagreement_lhs,
    disagreement_monte_carlo,
    error_to_regret_limit,
    error_to_regret_limit_perp,
    identity_values,
    in_plane_ratios,
    ratio_scaling,
    refinement_change,
    regret_in_plane,
    regret_monte_carlo_z,
    regret_out_of_plane,
    tilted_ratios,
    weighted_ratios,
)
from ...witnesses.lambda0 import lambda0_2d
from ...witnesses.links import gap_constant
from ...witnesses.paths import (
    WITNESS_PATHS,
    agree_on_paths,
    environment,
    reference_errors,
    regret_by_horizon,
    reward_bound,
)
from ...witnesses.polar_field import own_mu_g
from ...witnesses.regret_bound import (
    BoundConstants,
    explicit_bound,
    paper_bound,
    paper_constants,
    per_log_n,
)
from ...witnesses.stats import mean_se, paired_ratio, z_score
from ...witnesses.toolkit_values import float_values, kappa_theta, regret_geometry_values

__all__: list[str] = []

_K_SE = 5.0  # one-sided Monte Carlo tolerance (false alarm ~2.9e-7)
_LOGISTIC4 = Link.from_expression("1/(1 + exp(-4*z))", name="logistic4", bounded_derivatives=True)
# in and out of the (v*, theta) plane (nbl_sim.studies.rate_theory)
_PLANE_LINKS = (("logistic", "logistic"), ("tt-stable", "tt-stable"))
_DELTAS = ("0.2", "1", "1.8")
_PSIS = ("0", "pi/2")
_SLOPE_TOL = 1e-3  # log-log slope over α ∈ [1e-4, 1e-2] against 2


@functools.cache
def _in_plane(name: str, dtxt: str) -> tuple:
    """Ratios E[r | v(alpha)]/((Delta/2)||v - v*||^2) in d = 2 on the alpha grid (both signs), by
    the polar quadrature witness (cached: the mutants re-use them)."""
    link = _LOGISTIC4 if name == "logistic4" else paper_link(name)
    return in_plane_ratios(link, float(dtxt), ALPHA_GRID)


@functools.cache
def _tilted(key: str, dtxt: str, ptxt: str) -> dict:
    """Ratio, sup ratio and log-log slope for v tilted in (psi = 0) or out of (psi = pi/2) the
    (v*, theta) plane, by the quadrature witnesses (cached)."""
    return tilted_ratios(paper_link(key), float(dtxt), out_of_plane=ptxt != "0")


@functools.cache
def _monte_carlo_z() -> tuple:
    """Monte Carlo (1e6 contexts) against the in-plane quadrature (logistic4, Delta = 1.5) and
    the refinement 48 -> 96 angular nodes (cached)."""
    return (
        regret_monte_carlo_z(_LOGISTIC4, 1.5, (0.3, -1.0), 1_000_000, 31),
        refinement_change(paper_link("tt-stable"), 1.0, 0.7),
    )


#: the angles at which the library's E[r | v(alpha)] is compared with the witness's
_GATE_ALPHAS = {False: (1e-3, 0.3, -1.0, 2.5), True: (1e-3, 0.3, 1.5)}
#: in the plane both are the same polar rule (measured: equal bits; constants 6e-16); out of
#: it the library smooths g over theta^T X through a spline of the gap profile (measured
#: <= 8.9e-10 relative, at alpha = 1e-3, Delta = 1.8); each tolerance leaves a margin >= 10
_GATE_TOL = {False: 1e-12, True: 1e-8}


def _library_gate(links, plane_keys) -> list:
    """The library's error-to-regret geometry against the witness's: the alpha -> 0 constant and
    E[r | v(alpha)] in the plane for ``links`` and out of it for the paper links
    ``plane_keys``, at every Delta of the claim."""
    cases = [
        *((name, link, False) for name, link in links),
        *((key, paper_link(key), True) for key in plane_keys),
    ]
    out = []
    for name, link, perp in cases:
        where = "out of" if perp else "in"
        limit = error_to_regret_limit_perp if perp else error_to_regret_limit
        regret = regret_out_of_plane if perp else regret_in_plane
        for dtxt in _DELTAS:
            lib = regret_geometry_values(link, dtxt, perp, _GATE_ALPHAS[perp])
            wit_regret = [regret(link, float(dtxt), a) for a in _GATE_ALPHAS[perp]]
            out.append(
                agreement(
                    f"alpha -> 0 ratio constant ({name}, Delta = {dtxt}, {where} the plane)",
                    library=lib["constant"],
                    witness=limit(link, float(dtxt)),
                    agree=agree_rel(1e-12),
                )
            )
            out.append(
                agreement(
                    f"E[r | v(alpha)] ({name}, Delta = {dtxt}, {where} the plane, alpha in "
                    f"{_GATE_ALPHAS[perp]})",
                    library=lib["regret"],
                    witness=wit_regret,
                    agree=agree_max_rel(_GATE_TOL[perp], "the angles"),
                    fmt=lambda v: ", ".join(f"{x:.12g}" for x in v),
                )
            )
            # the ratio and the log-log slope the regret-rate figure prints, from the
            # witness's own regrets at the same angles (the slope moves by at most ~0.3x the
            # regrets' relative error over these angles); measured: equal ratios in the plane
            # and <= 8.9e-10 out of it, slopes within 1.3e-10
            own = ratio_scaling(wit_regret, float(dtxt), _GATE_ALPHAS[perp])
            out.append(
                agreement(
                    f"E[r | v]/((Delta/2)||v - v*||^2) ({name}, Delta = {dtxt}, {where} the plane)",
                    library=lib["ratio"],
                    witness=own["ratio"],
                    agree=agree_max_rel(_GATE_TOL[perp], "the angles"),
                    fmt=lambda v: ", ".join(f"{x:.12g}" for x in v),
                )
            )
            out.append(
                agreement(
                    f"log-log slope of E[r | v] over the angles ({name}, Delta = {dtxt}, "
                    f"{where} the plane)",
                    library=lib["slope"],
                    witness=own["slope"],
                    agree=agree_abs(_GATE_TOL[perp]),
                )
            )
    return out


@register(
    "error-to-regret",
    "eq:error-to-regret",
    "sec:regret",
    "E[r_t | H_{t-1}] <= C_gap (Delta/2) ||v_{t-1} - v*||^2 with C_gap depending only on "
    "the growth constants of g' (not on Delta, d, t): in d = 2, E[r | v(alpha)] by "
    "quadrature for 4 links and Delta in {0.2, 1, 1.8}; the explicit constant of the proof "
    "for bounded g' is C_gap = phi0(0) sup|g'|, and the ratio tends to "
    "phi0(0) E[W^2 g'(||theta|| W)] as alpha -> 0 (the quadratic scaling). Also for v "
    "tilted in (psi = 0) and out of (psi = pi/2, d >= 3) the (v*, theta) plane (logistic "
    "and two-transition mu2 = -1.074037, Delta in {0.2, 1, 1.8}): sup of the ratio over "
    "(0, pi] <= C_gap, the log-log slope of E[r | v] against ||v - v*|| (= 2) and the "
    "ratio's alpha -> 0 limit",
    "high-precision",
    "ratio <= phi0(0) sup|g'| (1 + 1e-9) for every link, Delta, alpha, psi; |ratio(1e-4)/"
    f"limit - 1| <= 1e-3; quadrature vs Monte Carlo within 5 SE; |slope - 2| <= "
    f"{_SLOPE_TOL:g} over alpha in [1e-4, 1e-2]",
    "polar Gauss-Legendre (48 angular nodes per wedge, 384 radial) of a smooth integrand "
    "(the sign of m_+ - m_- is sgn(v*^T X), fixed on each wedge): ~1e-12 relative, "
    "confirmed by refining; out of the plane the gap is first averaged over theta^T X "
    "(a spline of a Gauss-Legendre average, ~1e-12). The ratio's next term is O(alpha), so "
    "1e-3 at alpha = 1e-4 is generous; the Monte Carlo check guards the quadrature "
    "itself; the slope over [1e-4, 1e-2] deviates from 2 by O(1e-4). A slope other than "
    "2 is a DISCREPANCY (the scaling the paper states); any other failure is a FAIL. "
    "The library's nbl_sim.studies.regret_geometry (alpha -> 0 constants and E[r | v] at "
    "test angles) must agree with the witness, relative 1e-12 in the plane (the same polar "
    "rule: measured equal bits) and 1e-8 out of it (a spline of the gap profile: measured "
    "<= 8.9e-10), or the claim is a FAIL (a toolkit defect)",
    printed="E[r_t | H_{t-1}] <= C_gap (Delta/2) ||v_{t-1} - v*||^2 (quadratic)",
    witness="proofs_check.witnesses.disagreement:in_plane_ratios, "
    "proofs_check.witnesses.disagreement:tilted_ratios",
    shares="the link object (nbl_theory.Link), phi0(0) and Gauss-Legendre node arithmetic "
    "(nbl_theory.numeric); the library's constants and E[r | v] "
    "(nbl_sim.studies.regret_geometry) are compared with the witness's, never used",
    mutants=(
        Mutant.formula("C_gap = 0.85 phi0(0) sup|g'|", cgap_scale=0.85),
        Mutant.returning(
            "library E[r | v] and its alpha -> 0 constant x (1 + 1e-6)",
            "formula",
            "proofs_check.claims.regret.error_to_regret:regret_geometry_values",
            lambda v: {
                "constant": v["constant"] * (1 + 1e-6),
                "regret": [x * (1 + 1e-6) for x in v["regret"]],
            },
        ),
        Mutant.printed("scaling ||v - v*||^2 -> ||v - v*||^1.9", exponent=1.9),
        Mutant(
            "phi0 -> 1.1 phi0 in the witness's alpha -> 0 limits",
            "witness",
            patches=(("proofs_check.witnesses.disagreement:PHI0", 1.1 * PHI0),),
        ),
    ),
)
def _error_to_regret(cgap_scale: float = 1.0, exponent: float = 2.0):
    links = (
        ("logistic", paper_link("logistic")),
        ("logistic4", _LOGISTIC4),
        ("tt-stable", paper_link("tt-stable")),
        ("tt-unstable", paper_link("tt-unstable")),
    )
    return gate_noting(
        _e2r_verdict(links, cgap_scale, exponent),
        _library_gate(links, tuple(k for k, _ in _PLANE_LINKS)),
        "The library (nbl_sim.studies.regret_geometry) computed the same alpha -> 0 constants "
        "and E[r | v] at test angles, in and out of the plane, within the stated tolerances",
    )


def _e2r_verdict(links, cgap_scale: float, exponent: float) -> Outcome:
    """The verdict of error-to-regret from the witness's values."""
    rows, ok, worst = [], True, 0.0
    cgaps = {}
    for name, link in links:
        cgap = gap_constant(link, cgap_scale)
        cgaps[name] = cgap
        for dtxt in _DELTAS:
            limit = error_to_regret_limit(link, float(dtxt))
            ratios = _in_plane(name, dtxt)
            rmax = max(r for _, r in ratios)
            worst = max(worst, rmax / cgap)
            dev = max(abs(r / limit - 1) for a, r in ratios if abs(a) == 1e-4)
            ok &= dev <= 1e-3
            # E[r | v] is even in alpha (x -> -Rx, R the reflection fixing v*, keeps the law
            # of x, swaps the arms' means and maps v to Rv), so the max sits at +-alpha and
            # which sign is larger is rounding: print |alpha|
            at = abs(max(ratios, key=lambda t: t[1])[0])
            rows.append(
                f"{name} Delta={dtxt}: max ratio {rmax:.5f} (at alpha = +-{at:.3g}) "
                f"vs C_gap = {cgap:.5f}; "
                f"alpha -> 0 limit {limit:.6f} (ratio at 1e-4 off by {dev:.1e})"
            )
    zs, refine = _monte_carlo_z()
    ok &= max(abs(z) for z in zs) <= _K_SE and refine < 1e-10
    plane_ok, worst_slope, worst_tilt, prow = True, 0.0, 0.0, []
    for key, _ in _PLANE_LINKS:
        cgap = gap_constant(paper_link(key), cgap_scale)
        for dtxt in _DELTAS:
            dl = float(dtxt)
            for ptxt in _PSIS:
                t = _tilted(key, dtxt, ptxt)
                lim = (error_to_regret_limit if ptxt == "0" else error_to_regret_limit_perp)(
                    paper_link(key), dl
                )
                dev = abs(t["small"] / lim - 1)
                plane_ok &= dev <= 1e-3
                worst_tilt = max(worst_tilt, t["sup"] / cgap)
                worst_slope = max(worst_slope, abs(t["slope"] - exponent))
                prow.append(
                    f"{key} Delta={dtxt} psi={ptxt}: limit {lim:.6f} (ratio at 1e-4 "
                    f"off by {dev:.1e}), slope {t['slope']:.6f}, sup ratio {t['sup']:.5f}"
                    f" at alpha = {t['at']:.3g}, ratio(pi) = {t['pi']:.5f}"
                )
    bound_ok = worst <= 1 + 1e-9 and worst_tilt <= 1 + 1e-9
    scaling_ok = worst_slope <= _SLOPE_TOL
    if not (ok and plane_ok):
        status = FAIL
    elif not (bound_ok and scaling_ok):
        status = DISCREPANCY
    else:
        status = PASS
    return Outcome(
        status,
        f"max ratio/C_gap = {worst:.4f} in d = 2 (4 links), {worst_tilt:.4f} tilted "
        f"in/out of the (v*, theta) plane "
        f"({'<= 1' if max(worst, worst_tilt) <= 1 else 'NOT <= 1'}); max |slope - "
        f"{exponent:g}| = "
        f"{worst_slope:.1e}",
        "; ".join(rows)
        + "; Monte Carlo (1e6 contexts) vs quadrature: z = "
        + ", ".join(f"{z:.2f}" for z in zs)
        + f"; refinement 48 -> 96 angular nodes: relative change {refine:.1e}"
        + ". The paper's C_gap is not numeric; the checked constant is the one its "
        "proof yields for bounded g' (|m_+ - m_-| <= Delta |v*^T X| sup|g'| and "
        "E[|v*^T X| 1{disagree}] = phi0(0) ||v - v*||^2/2, in any plane through v*). "
        "Tilted in/out of the (v*, theta) plane (the out-of-plane limit is "
        "phi0(0) E[g'(sZ)] instead of phi0(0) E[g'(sZ) Z^2]): " + "; ".join(prow),
    )


@register(
    "gaussian-disagreement",
    "lem:gaussian-polynomial-disagreement",
    "app:error-to-regret",
    "E[|v*^T X|{1 + |theta^T X|^q + |v*^T X|^q} 1{sgn(v^T X) != sgn(v*^T X)}] <= C_q "
    "||v - v*||^2, via the exact angular identities P(disagree) = alpha/pi and "
    "E[|cos Phi| 1_D] = (1 - cos alpha)/pi (so E[|v*^T X| 1_D] = phi0(0) ||v-v*||^2/2)",
    "high-precision",
    "identities: quadrature to 1e-12, Monte Carlo (d = 5) to 5 SE; bound: LHS <= the "
    "proof's explicit C_q e (quadrature), Monte Carlo estimate + 5 SE <= C_q e (q = 1/2); "
    "alpha -> 0 limit to 1e-3 at alpha = 1e-4",
    "polar Gauss-Legendre with the wedge split at the kinks of |theta^T X|^q, X3 "
    "integrated in closed form (q integer); the identities are exact, so only quadrature "
    "and Monte Carlo error remain",
    mutants=(
        Mutant.formula("P(disagree) = alpha/(2 pi)", p_factor=0.5),
        Mutant.formula("C_q with (1 + c_q) -> c_q", drop_one=True),
    ),
)
def _disagreement(p_factor: float = 1.0, drop_one: bool = False):
    ok, rows = True, []
    worst_p, worst_c = 0.0, 0.0
    for a, p, ang, cp in _identity_values():
        p_exact, ang_exact, cp_exact = disagreement_identities(a)
        worst_p = max(worst_p, abs(p - p_factor * p_exact))
        worst_c = max(worst_c, abs(ang - ang_exact), abs(cp - cp_exact))
    ok &= worst_p < 1e-12 and worst_c < 1e-12
    rows.append(
        f"P(disagree) - alpha/pi: max {worst_p:.1e}; E|cos Phi| 1_D - (1-cos a)/pi and "
        f"E|v*^T X| 1_D - phi0(0) e/2: max {worst_c:.1e} (quadrature)"
    )
    mc = _disagreement_mc()
    zs = []
    for a, mp, sp, ma, sa in mc["d5"]:
        p_exact, _, cp_exact = disagreement_identities(a)
        zs += [z_score(mp, sp, p_factor * p_exact), z_score(ma, sa, cp_exact)]
    ok &= max(abs(z) for z in zs) <= _K_SE
    rows.append(f"Monte Carlo d = 5 ({_MC_N:,}): z = " + ", ".join(f"{z:.2f}" for z in zs))
    # the weighted bound with the proof's constant, and the quadratic scaling
    worst_ratio = 0.0
    for (th2, th3, q), (rmax, dev, limit) in _weighted_ratios().items():
        bound = cq_bound(q, abs(th3), drop_one=drop_one)
        worst_ratio = max(worst_ratio, rmax / bound)
        ok &= rmax <= bound and dev <= 1e-3
        rows.append(
            f"theta=(0,{th2:g},{th3:g}) q={q}: sup_alpha LHS/e = {rmax:.4f} <= "
            f"{bound:.4f}; limit {limit:.4f} (off by {dev:.0e} at 1e-4)"
        )
    # q = 3 cross-check of the quadrature; q = 1/2 (non-integer) by Monte Carlo against the
    # same explicit bound, confirmed 5 SE below it
    zq = z_score(*mc["q3"], disagreement_lhs(0.6, 0.8, 3, 1.0))
    ok &= abs(zq) <= _K_SE
    rows.append(f"q=3 theta=(0,.6,.8) alpha=1: Monte Carlo vs quadrature z = {zq:.2f}")
    for a, m, se in mc["q05"]:
        b = cq_bound(0.5, 0.8, a, drop_one=drop_one)
        worst_ratio = max(worst_ratio, m / b)
        ok &= m + _K_SE * se <= b
        rows.append(
            f"q=1/2 theta=(0,.6,.8) alpha={a}: MC {m:.5f} +- {se:.1g}, 5 SE below "
            f"{b:.5f}: {m + _K_SE * se <= b}"
        )
    return Outcome(
        PASS if ok else FAIL,
        f"identities to {max(worst_p, worst_c):.0e}; max LHS/(C_q e) = "
        f"{worst_ratio:.3f} ({'<= 1' if worst_ratio <= 1 else 'NOT <= 1'}) with the "
        "proof's explicit C_q",
        "; ".join(rows) + ". C_q = (1 + max(1, 2^(q-1))) E[R(1 + R^q + |U|^q)]/(2 pi), "
        "the constant the proof's steps give before 'absorbing' (R ~ chi_2, U ~ "
        "N(0, ||theta_perp||^2))",
    )


@functools.cache
def _identity_values() -> tuple:
    """(alpha, P(disagree), E|cos Phi| 1_D by adaptive quadrature, E|v*^T X| 1_D by the polar
    rule) on the alpha grid (cached)."""
    return identity_values(ALPHA_GRID + (-0.3, -2.0))


_MC_N = 400_000  # Monte Carlo contexts of the disagreement identities


@functools.cache
def _disagreement_mc() -> dict:
    """Monte Carlo means and SEs of the disagreement identities (d = 5) and of the weighted
    disagreement for q = 3 and q = 1/2 (d = 3), seeded (cached)."""
    return disagreement_monte_carlo(_MC_N, 5)


@functools.cache
def _weighted_ratios() -> dict:
    """sup over the alpha grid of LHS/||v - v*||^2 of lem:gaussian-polynomial-disagreement, its
    deviation from the alpha -> 0 limit at 1e-4, and the limit, per (theta2, theta3, q)
    (cached)."""
    return weighted_ratios(ALPHA_GRID)


_REGRET_NS = (1000, 4000, 16000)
#: the increment ratio (R_16000 - R_4000)/(R_4000 - R_1000) is 1 under a + b log n (equal log
#: steps) and 4^p under n^p growth; confirming ratio + 1.645 SE <= 1 + 0.10 rejects any n^p with
#: p >= 0.1 whatever the SE (4^0.1 = 1.149 > 1.10; the margin was 0.15, which a true n^0.1 with a
#: small enough SE would have passed)
_GROWTH_MARGIN = 0.10
_Z95 = 1.6448536269514722


def _constant_agreements(key: str) -> list:
    """Library versus witness on a paper link's (mu_g, kappa_theta) at the comparison's Delta,
    d = 2 (:func:`proofs_check.witnesses.regret_bound.paper_constants`)."""
    mu_g, kappa, _, _ = paper_constants(key)
    link, delta = paper_link(key), COMPARISON_SETTING["delta"]
    return [
        agreement(
            f"mu_g({key})", library=float_values(link, delta)["mu_g"], witness=mu_g, agree=_MU_AGREE
        ),
        agreement(
            f"kappa_theta({key}, Delta = 1, d = 2)",
            library=kappa_theta(link, delta, 2),
            witness=kappa,
            agree=_KAPPA_AGREE,
        ),
    ]


#: library vs witness: mu_g to 1e-12 (both ~1e-16), kappa_theta = -H'(0) to 1e-10 (the
#: witness's Richardson difference of H is good to ~1e-12), lambda0 to 1e-9
_MU_AGREE = agree_abs(1e-12)
_KAPPA_AGREE = agree_abs(1e-10)
_LAM0_AGREE = agree_abs(1e-9)


#: the witness's re-run of the first paths against the kernel's, value by value
_REGRET_AGREE = agree_on_paths(1e-9)


@register(
    "regret-rate",
    "thm:regret-rate",
    "sec:regret",
    "E[R_n] = O(d log n) with n0 = ceil(C0 (d + log n)), eta_t = gamma/(t + t0), "
    "2 gamma lambda0 > 1, t0 <= C_off n0; partial check in d = 2 (logistic4, Delta = 1.5, "
    "gamma = 5, t0 = n0, C0 = 15, 400 paths, n in {1e3, 4e3, 1.6e4}): on these horizons "
    "the increments of R_n match log n growth (excluding n^p with p >= 0.1) and R_n stays "
    "below the appendix's explicit bound "
    "2 B n0 + C_gap (Delta/2) C_e d {1 + log((n+t0)/(n0+t0))} + 2 B n^-3; and whether "
    "that bound says anything at the paper's own settings (app:logistic-comparison)",
    "monte-carlo",
    f"increment ratio (R_16000 - R_4000)/(R_4000 - R_1000) + 1.645 SE <= 1 + "
    f"{_GROWTH_MARGIN:g} (log n: 1; n^p: 4^p, and 4^0.1 = {4**0.1:.4f} > 1 + "
    f"{_GROWTH_MARGIN:g}, so n^p with p >= 0.1 is rejected whatever the SE); E[R_n] + "
    f"{_K_SE:g} SE <= bound; paper settings: bound vs n E|m_+ - m_-| (exact arithmetic)",
    "regret means over 400 independent paths (common random numbers across n, SE of the "
    "ratio by the delta method on paired differences, ~0.02, so n^0.1 growth is rejected "
    "with power ~1); a ratio whose upper 95% bound exceeds 1.10 but whose lower 5-SE bound "
    "does not is unresolved (FAIL), never a PASS. The localization probability n^-4 "
    "assumed by the bound is far below Monte Carlo resolution (reported as the observed "
    "exit count). The d-dependence is the regret-rate study (regret-rate-d-log-n)",
    mutants=(
        Mutant.formula("E[R_n] = O(1) (bounded regret) claimed", growth_target=0.0),
        Mutant.printed("comparison horizon n = 2000 -> 200000", paper_n=200_000),
        Mutant.witness("the witness's re-run of the paths with step gamma x 1.1", wgamma=1.1),
    ),
    witness="proofs_check.witnesses.lambda0:lambda0_2d, "
    "proofs_check.witnesses.polar_field:own_mu_g, "
    "proofs_check.witnesses.polar_field:own_dH, "
    "proofs_check.witnesses.paths:reference_errors",
    shares="the realization (contexts, rewards, coins) drawn by "
    "nbl_sim.engine.environment and "
    "the link's g (nbl_theory.Link); the minimisation of lambda0 (run on the "
    "library's field for the comparison); the regret statistics over all 400 "
    "paths are the kernel's, gated by the witness's re-run (regret and e_t) of the "
    f"first {WITNESS_PATHS} paths at every n",
)
def _regret_rate(
    growth_target: float = 1.0, paper_n: int = COMPARISON_SETTING["n"], wgamma: float = 1.0
):
    env = environment(_LOGISTIC4, "1.5")
    n0s, regret, e_n0, exits, e_head = regret_by_horizon(
        env, _REGRET_NS, 15.0, 400, 123, keep_errors=True
    )
    d, B, dl = env.d, reward_bound(env), env.delta
    r0 = 1.0
    lam0 = lambda0_2d(_LOGISTIC4, "1.5", r0)
    gamma = 5.0
    alpha = 2 * gamma * lam0
    mu_g = own_mu_g(env.link)
    agree = [
        agreement(
            f"lambda0(r0 = {r0:g})",
            agree=_LAM0_AGREE,
            witness=lam0,
            library=lambda0_2d(_LOGISTIC4, "1.5", r0, (pop.H_alpha, pop.H_alpha_derivative)),
        ),
        agreement(
            "mu_g(logistic4)",
            library=float_values(env.link, "1.5")["mu_g"],
            witness=mu_g,
            agree=_MU_AGREE,
        ),
    ]
    for n in _REGRET_NS:
        sq, ref = reference_errors(
            env,
            123,
            WITNESS_PATHS,
            n,
            n0s[n],
            wgamma * gamma,
            float(n0s[n]),
            coins_n0=max(n0s.values()),
        )
        agree += [
            agreement(
                f"R_n of the first {WITNESS_PATHS} paths (n = {n})",
                library=regret[n][:WITNESS_PATHS],
                witness=ref,
                agree=_REGRET_AGREE,
                fmt=lambda v: f"mean {v.mean():.9g}",
            ),
            agreement(
                f"e_t, t = n0..n, of the first {WITNESS_PATHS} paths (n = {n})",
                library=e_head[n],
                witness=sq,
                agree=_REGRET_AGREE,
                fmt=lambda v: f"mean e_n {v[:, -1].mean():.9g}",
            ),
        ]
    cgap = gap_constant(env.link)
    rows, cond, zmax, factor = [], alpha > 1, float("-inf"), float("inf")
    means = {}
    for n in _REGRET_NS:
        n0 = n0s[n]
        eb = explicit_bound(n, n0, float(n0), BoundConstants(B, gamma, dl, d, mu_g, lam0, cgap))
        bound = eb["bound"]
        m, se = mean_se(regret[n])
        means[n] = m
        zmax = max(zmax, (m - bound) / se)
        factor = min(factor, bound / m)
        # the proof's sum: sum_{t=n0+1}^n 1/(t-1+t0) <= 1 + log((n+t0)/(n0+t0))
        cond &= eb["hsum"] <= eb["log_term"]
        rows.append(
            f"n = {n}: n0 = {n0}, E[R_n] = {m:.2f} +- {se:.2f}, R_n/log n = "
            f"{per_log_n(m, n):.3f}, bound {bound:.1f} (C_e = {eb['ce']:.2f}; sum "
            f"1/(t-1+t0) = {eb['hsum']:.3f} <= {eb['log_term']:.3f}), exits beyond "
            f"r0 = 1: {int(exits[n].sum())}/{exits[n].size}"
        )
    ratio, rse = paired_ratio(regret[4000] - regret[1000], regret[16000] - regret[4000])
    top = growth_target + _GROWTH_MARGIN
    growth = (
        "below"
        if ratio + _Z95 * rse <= top
        else "above"
        if ratio - _K_SE * rse > top
        else "unresolved"
    )
    keys = (
        "we-0",
        "we-0.2",
        "we-0.4",
        "we-0.6",
        "we-0.8",
        "tt-stable",
        "tt-near-critical",
        "tt-unstable",
    )
    paper = [paper_bound(k, paper_n) for k in keys]
    agree += [j for k in keys for j in _constant_agreements(k)]
    covered = [p for p in paper if p["applies"]]
    vacuous = [p for p in covered if p["bound"] >= p["trivial"]]
    stage1_alone = sum(p["stage1"] >= p["trivial"] for p in covered)
    if not cond or growth == "unresolved":
        status = FAIL
    elif growth == "above" or zmax > _K_SE:
        status = DISCREPANCY
    elif covered and len(vacuous) == len(covered):
        status = CAVEAT
    else:
        status = PASS
    prow = "; ".join(
        (
            f"{p['key']}: bound {p['bound']:.0f} = 2 B n0 {p['stage1']:.0f} + Stage II "
            f"{p['stage2']:.0f} (C_e = {p['ce']:.0f}, C_gap >= {p['cgap']:.4f}) vs n E|gap| = "
            f"{p['trivial']:.0f}"
        )
        if p["applies"]
        else f"{p['key']}: 2 gamma kappa = {p['two_gamma_kappa']:.3f} < 1, the theorem "
        "does not apply"
        for p in paper
    )
    computed = (
        "E[R_n]/log n = "
        + ", ".join(f"{per_log_n(means[n], n):.3f}" for n in _REGRET_NS)
        + f" for n = {_REGRET_NS}; increment ratio {ratio:.3f} +- {rse:.3f} [{growth}] "
        f"(log n: 1, n^0.1: 1.149, sqrt n: 2); bound/E[R_n] >= {factor:.1f} (max z "
        f"{zmax:.0f}); at the paper's comparison settings the bound exceeds n E|gap| "
        f"for {len(vacuous)} of the {len(covered)} links it covers"
    )
    detail = (
        (
            f"CAVEAT (vacuous for the paper's own examples): at app:logistic-comparison's "
            f"settings (d = 2, Delta = 1, n = {paper_n}, n0 = 200, t0 = 500, gamma = 10) the "
            f"explicit bound of thm:regret-rate, with its free constants at their most "
            f"favourable values (lambda0 = kappa_theta, C_gap = its alpha -> 0 lower bound) "
            f"and the paper's C'_init = 16, exceeds n E|m_+ - m_-| - the expected regret of "
            f"always choosing the wrong arm - for every link it covers, so it says nothing "
            f"about those runs (the O(d log n) rate itself is asymptotic and is not "
            f"contradicted). The Stage-I term 2 B_Y n0 (r_t <= 2 B_Y per round) is the largest "
            f"part, and alone exceeds n E|gap| for {stage1_alone} of the {len(covered)} links, "
            f"whatever C_e; the Stage-II term carries C_e, dominated by C'_init (1 + C_off)/"
            f"(Delta^2 mu_g^2). "
            if status == CAVEAT
            else ""
        )
        + "; ".join(rows)
        + f". Constants: lambda0(r0 = 1) = {lam0:.4f} (2 gamma lambda0 = "
        f"{alpha:.3f}), C_gap = phi0(0) sup g' = {cgap:.4f} (error-to-regret), C_e from "
        f"eq:Ce-explicit with C'_init = 16 and C_off = 1, B_Y = 1. Paper settings: " + prow
    )
    return gate(
        Outcome(
            status,
            computed,
            detail,
            consequence="experiment" if status == CAVEAT else None,
            figure="numerical-summary" if status == CAVEAT else None,
        ),
        agree,
    )
