"""Claims about the constants of the regret rate (sec:regret): the exact error-to-regret
constant of eq:error-to-regret, in and out of the (v*, θ) plane, and the step-size threshold
γ_c = 1/(2κ) behind prop:localized-estimation's condition 2γλ0 > 1.

How the statements are checked
------------------------------
* E[r | v] for v = cos α v* + sin α (cos ψ θ̂ + sin ψ ω) is computed by
  :func:`nbl_sim.rate_theory.regret_given_angle` (polar Gauss–Legendre on the disagreement
  wedges; for ψ ≠ 0 with the link smoothed over the direction ω, ~1e-12 relative, checked in
  tests/sim/test_rate_theory.py against Monte Carlo and an independent conditional-CDF rule).
  The α → 0 limit of E[r | v]/((Δ/2)‖v − v*‖²) is the closed form
  φ0(0)(cos²ψ E[g'(sZ)Z²] + sin²ψ E[g'(sZ)]), s = √(1 − Δ²/4)
  (:func:`nbl_sim.rate_theory.error_to_regret_constant`).
* The contraction rates are the Jacobian eigenvalues of prop:local_jacobian from
  ``nbl_theory.stability`` (κ_θ in d = 2; min(κ_θ, κ_⊥) = λ* in d ≥ 3). The paper's λ0(r0)
  of cor:local_stability is at most the rate at v*, so 2γλ0 > 1 needs γ > γ_c = 1/(2κ); the
  largest r0 with 2γλ0(r0) ≥ 1 is :func:`nbl_sim.rate_theory.stability_radius` with
  frac = 1/(2γκ_θ).
"""

from __future__ import annotations

import math

import numpy as np

from nbl_sim import rate_theory as rt
from nbl_theory.families import make_family
from nbl_theory.paper import PAPER_MU2

from ..registry import DISCREPANCY, FAIL, PASS, Outcome, register

__all__: list[str] = []

_LINKS = (("logistic", "logistic", {}),
          ("tt-stable", "two-transition", {"mu2": PAPER_MU2["stable"]}))
_DELTAS = ("0.2", "1", "1.8")
_PSIS = ((0.0, "0"), (math.pi / 2, "pi/2"))
_RATIO_TOL = 1e-2        # ratio at α = 1e-3 against the α → 0 limit
_SLOPE_TOL = 1e-3        # log-log slope over α ∈ [1e-4, 1e-2] against 2
_SLOPE_ALPHAS = np.geomspace(1e-4, 1e-2, 9)
_SUP_ALPHAS = np.concatenate([np.geomspace(1e-4, 0.1, 8), np.linspace(0.15, math.pi, 30)])


@register("error-to-regret-constant", "eq:error-to-regret", "sec:regret",
          "E[r_t | H_{t-1}] <= C_gap (Delta/2) ||v_{t-1} - v*||^2, i.e. the instantaneous regret "
          "scales quadratically in the boundary error: for logistic and two-transition "
          "mu2 = -1.074037 at Delta in {0.2, 1, 1.8}, in-plane (psi = 0, d = 2) and out-of-plane "
          "(psi = pi/2, d >= 3) tilts, the exact alpha -> 0 constant "
          "phi0(0)(cos^2 psi E[g'(sZ)Z^2] + sin^2 psi E[g'(sZ)]), the ratio at alpha = 1e-3, the "
          "log-log slope of E[r | v] against ||v - v*|| and the sup of the ratio over (0, pi]",
          "high-precision",
          f"|ratio(1e-3)/limit - 1| <= {_RATIO_TOL:g}; |slope - 2| <= {_SLOPE_TOL:g} over "
          "alpha in [1e-4, 1e-2]; sup ratio finite",
          "the ratio's next term is O(alpha^2) (the gap is odd in z1 and the disagreement strip "
          "has width tan(alpha)|y|), so at alpha = 1e-3 it is ~1e-6 off the limit: 1e-2 leaves a "
          "margin of 1e4 and only fails if the limit formula or the quadrature (~1e-12) is "
          "wrong; the slope over [1e-4, 1e-2] deviates from 2 by O(1e-4) for the same reason",
          printed="E[r_t | H_{t-1}] <= C_gap (Delta/2) ||v_{t-1} - v*||^2 (quadratic)")
def _error_to_regret_constant():
    consts, rows, internal_ok, scaling_ok = [], [], True, True
    worst_ratio, worst_slope = 0.0, 0.0
    for name, fam, params in _LINKS:
        link = make_family(fam, **params)
        for dtxt in _DELTAS:
            for psi, ptxt in _PSIS:
                lim = rt.error_to_regret_constant(link, dtxt, psi)
                small = rt.regret_scaling(link, dtxt, psi, [1e-3, 2e-3])
                dev = float(small["ratio"][0] / lim - 1)
                sc = rt.regret_scaling(link, dtxt, psi, _SLOPE_ALPHAS)
                sup = rt.regret_scaling(link, dtxt, psi, _SUP_ALPHAS)
                i = int(np.argmax(sup["ratio"]))
                worst_ratio = max(worst_ratio, abs(dev))
                worst_slope = max(worst_slope, abs(sc["slope"] - 2))
                internal_ok &= abs(dev) <= _RATIO_TOL and math.isfinite(sup["sup_ratio"])
                scaling_ok &= abs(sc["slope"] - 2) <= _SLOPE_TOL
                consts.append(f"{name} D={dtxt} psi={ptxt}: {lim:.6f}")
                rows.append(f"{name} Delta={dtxt} psi={ptxt}: limit {lim:.8f}, ratio(1e-3)/limit "
                            f"- 1 = {dev:.1e}, slope {sc['slope']:.6f}, sup ratio "
                            f"{sup['sup_ratio']:.5f} at alpha = {sup['alphas'][i]:.3g}, "
                            f"ratio(pi) = {sup['ratio'][-1]:.5f}")
    status = PASS if internal_ok and scaling_ok else (FAIL if not internal_ok else DISCREPANCY)
    computed = ("quadratic scaling " + ("confirmed" if scaling_ok else "NOT confirmed")
                + f" (max |slope - 2| = {worst_slope:.1e}, max |ratio(1e-3)/limit - 1| = "
                f"{worst_ratio:.1e}); constants phi0(0)(cos^2 psi E[g'(sZ)Z^2] + sin^2 psi "
                "E[g'(sZ)]): " + "; ".join(consts))
    detail = ("; ".join(rows) + ". alpha -> -alpha gives the same value (the gap is even in z1), "
              "so alpha > 0 covers both signs. The out-of-plane constant (psi = pi/2) uses "
              "E[g'(sZ)] instead of E[g'(sZ)Z^2]; C_gap of the paper is not numeric, the sup "
              "ratio is the smallest constant that works at this Delta and psi")
    return Outcome(status, computed, detail)


_GAMMA = 10.0
_T0 = 500.0
_START_DEG = 10.0          # app:simulation-setup: initial displacement of 10 degrees


@register("step-size-threshold", "prop:localized-estimation", "sec:regret",
          "prop:localized-estimation needs eta_t = gamma/(t + t0) with 2 gamma lambda0 > 1; since "
          "lambda0 <= kappa (the slowest linear rate at v*: kappa_theta in d = 2, "
          "min(kappa_theta, Delta mu*) = lambda* in d >= 3), this needs gamma > gamma_c = "
          "1/(2 kappa). Report: gamma_c and 2 gamma kappa at the paper's gamma = 10 for its "
          "example links at Delta in {0.2, 1, 1.8}, and whether the paper's own experiments "
          "(app:simulation-setup, app:stochastic-nbl, app:logistic-comparison; d = 2, gamma = 10, "
          "t0 = 500) meet the condition",
          "high-precision",
          "a report (PASS when it computes); kappa from the float64 stability tier (~1e-15)",
          "the verdicts compare 2 gamma kappa with 1; the closest case (tt-stable at Delta = 1, "
          "d >= 3: 0.951) is 5e-2 from 1, far above the ~1e-14 error of kappa",
          printed="gamma = 10, t0 = 500 (app:simulation-setup)")
def _step_size_threshold():
    rows = rt.step_size_table(_GAMMA)
    below2 = [f"{r['link']} Delta={r['delta']:g} (2 gamma kappa = {r['two_gamma_kappa_d2']:.3g}, "
              f"gamma_c = {r['gamma_c_d2']:.3g})" for r in rows
              if r["verdict_d2"].startswith("below")]
    below3 = [f"{r['link']} Delta={r['delta']:g} ({r['two_gamma_kappa_d3']:.3g}, gamma_c = "
              f"{r['gamma_c_d3']:.3g})" for r in rows if r["verdict_d3"].startswith("below")]
    unstable = sorted({f"{r['link']} Delta={r['delta']:g}" for r in rows
                       if r["verdict_d2"].startswith("unstable")})
    # the paper's stable Δ = 0.2 experiment: largest r0 with 2γλ0(r0) >= 1 in d = 2
    stable = make_family("two-transition", mu2=PAPER_MU2["stable"])
    k_stable = rt.local_rates(stable, "0.2", 2)["kappa_theta"]
    rad = rt.stability_radius(stable, "0.2", frac=1 / (2 * _GAMMA * k_stable))
    r_start = 2 * math.sin(math.radians(_START_DEG) / 2)
    logistic = rt.stability_radius(make_family("logistic"), "1",
                                   frac=1 / (2 * _GAMMA * rt.local_rates(
                                       make_family("logistic"), "1", 2)["kappa_theta"]))
    stable_ok = 2 * _GAMMA * k_stable > 1 and rad["r0"] > r_start
    by = {(r["link"], r["delta"]): r for r in rows}
    lam_stable = by[(f"two-transition mu2={PAPER_MU2['stable']}", 0.2)]["lambda_star"]
    near = by[(f"two-transition mu2={PAPER_MU2['near-critical']}", 0.2)]["two_gamma_kappa_d2"]
    cmp_rows = [(mu2, by[(f"two-transition mu2={mu2}", 1.0)]["two_gamma_kappa_d2"])
                for mu2 in (PAPER_MU2["near-critical"], PAPER_MU2["unstable"])]
    cmp_below = [(mu2, x) for mu2, x in cmp_rows if x < 1]
    table = "; ".join(
        f"{r['link']} Delta={r['delta']:g}: lambda*={r['lambda_star']:.6g}, kappa(d=2)="
        f"{r['kappa_d2']:.6g} [{r['verdict_d2']}], kappa(d>=3)={r['kappa_d3']:.6g} "
        f"[{r['verdict_d3']}], gamma_c = {r['gamma_c_d2']:.4g} / {r['gamma_c_d3']:.4g}"
        for r in rows)
    computed = (f"gamma = 10 below gamma_c in d = 2 for: {', '.join(below2)}; in d >= 3 for: "
                f"{', '.join(below3)}; kappa <= 0 (no step size works): {', '.join(unstable)}. "
                f"Paper's d = 2 experiments: the stable Delta = 0.2 link has 2 gamma kappa_theta "
                f"= {2 * _GAMMA * k_stable:.3f} (kappa_theta = {k_stable:.6f}; lambda* = "
                f"{lam_stable:.6f} is the d >= 3 rate, m2 < 0) and 2 gamma lambda0(r0) >= 1 for "
                f"r0 <= {rad['r0']:.4f} ({rad['alpha_deg']:.1f} deg) vs the 10-deg start "
                f"(r = {r_start:.4f}); the near-critical and unstable Delta = 0.2 links are "
                "outside the proposition (lambda* ~ 0 / < 0) by design; in the Delta = 1 "
                "comparison (app:logistic-comparison) "
                + (", ".join(f"two-transition mu2 = {m} ({x:.3f})" for m, x in cmp_below)
                   + " run below the threshold" if cmp_below else "every link is above it"))
    if stable_ok:
        verdict = (
            "Not a DISCREPANCY: app:simulation-setup and app:stochastic-nbl present the gamma = 10 "
            "runs as illustrations of attracting / near-critical / repelling regimes, not as "
            "instances of prop:localized-estimation, and the one Delta = 0.2 run that is stable "
            "meets 2 gamma lambda0 > 1 in d = 2, on a neighbourhood containing its start (the "
            f"relevant rate is kappa_theta = {k_stable:.4f}, not lambda* = {lam_stable:.4f}).")
    else:
        verdict = (
            "DISCREPANCY: the paper's stable Delta = 0.2 experiment (d = 2, gamma = 10) does not "
            "meet 2 gamma lambda0 > 1 on a neighbourhood containing its 10-deg start, so it is "
            "run outside the condition of prop:localized-estimation.")
    detail = (
        verdict + " Caveat for readers: the near-critical Delta = 0.2 run has 2 gamma kappa = "
        f"{near:.2g}, so its linearized error decays like t^-{near:.2g}, i.e. not at all on "
        "n = 10,000; "
        + ("in the Delta = 1 Greedy-Logistic comparison (fig:numerical-summary(h)) "
           + ", ".join(f"two-transition mu2 = {m} has 2 gamma kappa = {x:.3f} < 1 (NBL error "
                       f"~ t^-{x:.2f}, not 1/t; regret ~ n^{1 - x:.2f}, not log n)"
                       for m, x in cmp_below)
           + ", although lambda* > 0 there as the paper says; " if cmp_below else "")
        + "the logistic and weighted-entropy links at Delta = 1 are above the threshold "
        f"(logistic: 2 gamma lambda0(r0) >= 1 for r0 <= {logistic['r0']:.4f}). Full table "
        "(gamma_c for d = 2 / d >= 3): " + table)
    return Outcome(PASS if stable_ok else DISCREPANCY, computed, detail)
