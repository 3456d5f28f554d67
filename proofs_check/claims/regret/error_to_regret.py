"""Claims of the conversion from boundary error to regret and the regret rate (sec:regret,
app:error-to-regret, thm:regret-rate).

E[r | v(α)] in d = 2 is a polar Gauss–Legendre quadrature on the two disagreement wedges
(:mod:`proofs_check.witnesses.disagreement`, written from the proof of
lem:gaussian-polynomial-disagreement), cross-checked by Monte Carlo and by refinement; in and
out of the (v*, θ) plane the library's :mod:`nbl_sim.rate_theory` gives the exact α → 0
constant. Where the paper's proof pins a constant down (C_gap = φ0(0) sup|g'| for bounded g',
the C_q of lem:gaussian-polynomial-disagreement before it is "absorbed") the explicit value is
checked. thm:regret-rate is checked partially: one test link (the steep logistic
g = 1/(1 + e^{−4z}), not the paper's), d = 2, three horizons, with the appendix's explicit bound
evaluated with measured constants.
"""

from __future__ import annotations

import math

import numpy as np

from nbl_sim import regret_geometry as rg
from nbl_theory.links import Link
from nbl_theory.numeric import PHI0
from nbl_theory.paper import paper_link
from nbl_theory.stability import stability

from ...registry import DISCREPANCY, FAIL, PASS, Outcome, register
from ...witnesses.disagreement import (
    disagreement_bound_constant,
    disagreement_lhs,
    disagreement_limit,
    error_to_regret_limit,
    polar_expect,
    regret_in_plane,
    wedges,
)
from ...witnesses.lambda0 import lambda0_2d
from ...witnesses.links import sup_gprime
from ...witnesses.paths import environment, regret_by_horizon, reward_bound
from ...witnesses.stats import mean_se, paired_ratio

__all__: list[str] = []

_K_SE = 5.0                      # one-sided Monte Carlo tolerance (false alarm ~2.9e-7)
_LOGISTIC4 = Link.from_expression("1/(1 + exp(-4*z))", name="logistic4", bounded_derivatives=True)
_ALPHAS = (1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0, 1.5, 2.0, 2.5, 3.0, math.pi)
# in and out of the (v*, theta) plane (nbl_sim.rate_theory)
_PLANE_LINKS = (("logistic", "logistic"), ("tt-stable", "tt-stable"))
_DELTAS = ("0.2", "1", "1.8")
_PSIS = ((0.0, "0"), (math.pi / 2, "pi/2"))
_RATIO_TOL = 1e-2        # ratio at α = 1e-3 against the α → 0 limit
_SLOPE_TOL = 1e-3        # log-log slope over α ∈ [1e-4, 1e-2] against 2
_SLOPE_ALPHAS = np.geomspace(1e-4, 1e-2, 9)
_SUP_ALPHAS = np.concatenate([np.geomspace(1e-4, 0.1, 8), np.linspace(0.15, math.pi, 30)])


@register("error-to-regret", "eq:error-to-regret", "sec:regret",
          "E[r_t | H_{t-1}] <= C_gap (Delta/2) ||v_{t-1} - v*||^2 with C_gap depending only on "
          "the growth constants of g' (not on Delta, d, t): in d = 2, E[r | v(alpha)] by "
          "quadrature for 4 links and Delta in {0.2, 1, 1.8}; the explicit constant of the proof "
          "for bounded g' is C_gap = phi0(0) sup|g'|, and the ratio tends to "
          "phi0(0) E[W^2 g'(||theta|| W)] as alpha -> 0 (the quadratic scaling). Also in and out "
          "of the (v*, theta) plane (nbl_sim.rate_theory; logistic and two-transition "
          "mu2 = -1.074037, Delta in {0.2, 1, 1.8}, psi = 0 (d = 2) and psi = pi/2 (d >= 3)): the "
          "exact alpha -> 0 constant phi0(0)(cos^2 psi E[g'(sZ)Z^2] + sin^2 psi E[g'(sZ)]), the "
          "ratio at alpha = 1e-3, the log-log slope of E[r | v] against ||v - v*|| and the sup "
          "of the ratio over (0, pi]",
          "high-precision",
          "ratio <= phi0(0) sup|g'| (1 + 1e-9); |ratio(1e-4)/limit - 1| <= 1e-3; quadrature vs "
          "Monte Carlo within 5 SE; in/out of plane: "
          f"|ratio(1e-3)/limit - 1| <= {_RATIO_TOL:g}; |slope - 2| <= {_SLOPE_TOL:g} over "
          "alpha in [1e-4, 1e-2]; sup ratio finite",
          "polar Gauss-Legendre (48 angular nodes per wedge, 384 radial) of a smooth integrand "
          "(the sign of m_+ - m_- is sgn(v*^T X), fixed on each wedge): ~1e-12 relative, "
          "confirmed by refining; the ratio's next term is O(alpha), so 1e-3 at alpha = 1e-4 is "
          "generous; the Monte Carlo check guards the quadrature itself. In/out of plane: the "
          "ratio's next term is O(alpha^2) (the gap is odd in z1 and the disagreement strip "
          "has width tan(alpha)|y|), so at alpha = 1e-3 it is ~1e-6 off the limit: 1e-2 leaves a "
          "margin of 1e4 and only fails if the limit formula or the quadrature (~1e-12) is "
          "wrong; the slope over [1e-4, 1e-2] deviates from 2 by O(1e-4) for the same reason. "
          "A slope other than 2 is a DISCREPANCY (the scaling the paper states); any other "
          "failure is a FAIL",
          printed="E[r_t | H_{t-1}] <= C_gap (Delta/2) ||v_{t-1} - v*||^2 (quadratic)")
def _error_to_regret():
    rows, ok, worst = [], True, 0.0
    links = (("logistic", paper_link("logistic")), ("logistic4", _LOGISTIC4),
             ("tt-stable", paper_link("tt-stable")), ("tt-unstable", paper_link("tt-unstable")))
    for name, link in links:
        sgp = sup_gprime(link)
        cgap = PHI0 * sgp
        for dtxt in ("0.2", "1", "1.8"):
            dl = float(dtxt)
            limit = error_to_regret_limit(link, dl)
            ratios = []
            for a in _ALPHAS:
                for s in (1, -1):
                    e = 2 * (1 - math.cos(a))
                    ratios.append((s * a, regret_in_plane(link, dl, s * a) / (dl / 2 * e)))
            rmax = max(r for _, r in ratios)
            worst = max(worst, rmax / cgap)
            small = [r for a, r in ratios if abs(a) == 1e-4]
            dev = max(abs(r / limit - 1) for r in small)
            ok &= rmax <= cgap * (1 + 1e-9) and dev <= 1e-3
            rows.append(f"{name} Delta={dtxt}: max ratio {rmax:.5f} (at alpha = "
                        f"{max(ratios, key=lambda t: t[1])[0]:.3g}) <= C_gap = {cgap:.5f}; "
                        f"alpha -> 0 limit {limit:.6f} (ratio at 1e-4 off by {dev:.1e})")
    # Monte Carlo cross-check of the quadrature (logistic4, Delta = 1.5)
    link, dl = _LOGISTIC4, 1.5
    rng = np.random.default_rng(31)
    X = rng.standard_normal((1_000_000, 2))
    tau = math.sqrt(1 - dl * dl / 4)
    gap = np.abs(link.g_numpy(tau * X[:, 1] + dl / 2 * X[:, 0])
                 - link.g_numpy(tau * X[:, 1] - dl / 2 * X[:, 0]))
    zs = []
    for a in (0.3, -1.0):
        v = np.array([math.cos(a), math.sin(a)])
        r = np.where(np.sign(X @ v) != np.sign(X[:, 0]), gap, 0.0)
        m, se = mean_se(r)
        zs.append((m - regret_in_plane(link, dl, a)) / se)
    ok &= max(abs(z) for z in zs) <= _K_SE
    # quadrature refinement (twice the angular nodes)
    q1 = regret_in_plane(paper_link("tt-stable"), 1.0, 0.7)
    q2 = regret_in_plane(paper_link("tt-stable"), 1.0, 0.7, n_ang=96)
    ok &= abs(q1 / q2 - 1) < 1e-10
    internal_ok, scaling_ok, plane = _plane_constants()
    status = FAIL if not (ok and internal_ok) else (DISCREPANCY if not scaling_ok else PASS)
    return Outcome(status,
                   f"max over links, Delta, alpha of ratio/C_gap = {worst:.4f} (<= 1)",
                   "; ".join(rows) + "; Monte Carlo (1e6 contexts) vs quadrature: z = "
                   + ", ".join(f"{z:.2f}" for z in zs)
                   + f"; refinement 48 -> 96 angular nodes: relative change {abs(q1 / q2 - 1):.1e}"
                   + ". The paper's C_gap is not numeric; the checked constant is the one its "
                   "proof yields for bounded g' (|m_+ - m_-| <= Delta |v*^T X| sup|g'| and "
                   "E[|v*^T X| 1{disagree}] = phi0(0) ||v - v*||^2/2). In and out of the "
                   "(v*, theta) plane (nbl_sim.rate_theory): " + plane)


def _plane_constants():
    """The exact error-to-regret constants in and out of the (v*, θ) plane from
    nbl_sim.rate_theory: (internal_ok, scaling_ok, report)."""
    consts, rows, internal_ok, scaling_ok = [], [], True, True
    worst_ratio, worst_slope = 0.0, 0.0
    for name, key in _PLANE_LINKS:
        link = paper_link(key)
        for dtxt in _DELTAS:
            for psi, ptxt in _PSIS:
                lim = rg.error_to_regret_constant(link, dtxt, psi)
                small = rg.regret_scaling(link, dtxt, psi, [1e-3, 2e-3])
                dev = float(small["ratio"][0] / lim - 1)
                sc = rg.regret_scaling(link, dtxt, psi, _SLOPE_ALPHAS)
                sup = rg.regret_scaling(link, dtxt, psi, _SUP_ALPHAS)
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
    report = ("quadratic scaling " + ("confirmed" if scaling_ok else "NOT confirmed")
              + f" (max |slope - 2| = {worst_slope:.1e}, max |ratio(1e-3)/limit - 1| = "
              f"{worst_ratio:.1e}); constants phi0(0)(cos^2 psi E[g'(sZ)Z^2] + sin^2 psi "
              "E[g'(sZ)]): " + "; ".join(consts) + ". " + "; ".join(rows)
              + ". alpha -> -alpha gives the same value (the gap is even in z1), so alpha > 0 "
              "covers both signs. The out-of-plane constant (psi = pi/2) uses E[g'(sZ)] instead "
              "of E[g'(sZ)Z^2]; C_gap of the paper is not numeric, the sup ratio is the smallest "
              "constant that works at this Delta and psi")
    return internal_ok, scaling_ok, report


@register("gaussian-disagreement", "lem:gaussian-polynomial-disagreement", "app:error-to-regret",
          "E[|v*^T X|{1 + |theta^T X|^q + |v*^T X|^q} 1{sgn(v^T X) != sgn(v*^T X)}] <= C_q "
          "||v - v*||^2, via the exact angular identities P(disagree) = alpha/pi and "
          "E[|cos Phi| 1_D] = (1 - cos alpha)/pi (so E[|v*^T X| 1_D] = phi0(0) ||v-v*||^2/2)",
          "high-precision",
          "identities: quadrature to 1e-12, Monte Carlo (d = 5) to 5 SE; bound: LHS <= the "
          "proof's explicit C_q e; alpha -> 0 limit to 1e-3 at alpha = 1e-4",
          "polar Gauss-Legendre with the wedge split at the kinks of |theta^T X|^q, X3 "
          "integrated in closed form (q integer); the identities are exact, so only quadrature "
          "and Monte Carlo error remain")
def _disagreement():
    from scipy import integrate
    ok, rows = True, []
    worst_p, worst_c = 0.0, 0.0
    for a in _ALPHAS + (-0.3, -2.0):
        p = polar_expect(lambda x1, x2: np.ones_like(x1), a)
        worst_p = max(worst_p, abs(p - abs(a) / math.pi))
        ang = sum(integrate.quad(lambda f: abs(math.cos(f)), lo, hi, epsabs=1e-14)[0]
                  for lo, hi in wedges(a)) / (2 * math.pi)
        worst_c = max(worst_c, abs(ang - (1 - math.cos(a)) / math.pi))
        e = 2 * (1 - math.cos(a))
        worst_c = max(worst_c, abs(polar_expect(lambda x1, x2: np.abs(x1), a) - PHI0 * e / 2))
    ok &= worst_p < 1e-12 and worst_c < 1e-12
    rows.append(f"P(disagree) - alpha/pi: max {worst_p:.1e}; E|cos Phi| 1_D - (1-cos a)/pi and "
                f"E|v*^T X| 1_D - phi0(0) e/2: max {worst_c:.1e} (quadrature)")
    # Monte Carlo in d = 5 with random u, v
    rng = np.random.default_rng(5)
    X = rng.standard_normal((400_000, 5))
    zs = []
    for a in (0.2, 1.3, 2.8):
        u = rng.standard_normal(5)
        u /= np.linalg.norm(u)
        w = rng.standard_normal(5)
        w -= (w @ u) * u
        w /= np.linalg.norm(w)
        v = math.cos(a) * u + math.sin(a) * w
        dis = np.sign(X @ u) != np.sign(X @ v)
        m, se = mean_se(dis.astype(float))
        zs.append((m - a / math.pi) / se)
        m, se = mean_se(np.abs(X @ u) * dis)
        zs.append((m - PHI0 * (1 - math.cos(a))) / se)
    ok &= max(abs(z) for z in zs) <= _K_SE
    rows.append("Monte Carlo d = 5 (400,000): z = " + ", ".join(f"{z:.2f}" for z in zs))
    # the weighted bound with the proof's constant, and the quadratic scaling
    worst_ratio = 0.0
    for th2, th3 in ((1.0, 0.0), (0.0, 1.0), (0.6, 0.8), (0.3, 0.2)):
        for q in (0, 1, 2, 3):
            bound = disagreement_bound_constant(q, abs(th3))
            limit = disagreement_limit(th2, th3, q)
            rmax, dev = 0.0, 0.0
            for a in _ALPHAS:
                for s in (1, -1):
                    r = disagreement_lhs(th2, th3, q, s * a) / (2 * (1 - math.cos(a)))
                    rmax = max(rmax, r)
                    if a == 1e-4:
                        dev = max(dev, abs(r / limit - 1))
            worst_ratio = max(worst_ratio, rmax / bound)
            ok &= rmax <= bound and dev <= 1e-3
            rows.append(f"theta=(0,{th2:g},{th3:g}) q={q}: sup_alpha LHS/e = {rmax:.4f} <= "
                        f"{bound:.4f}; limit {limit:.4f} (off by {dev:.0e} at 1e-4)")
    # q = 1/2 (non-integer) by Monte Carlo against the same explicit bound; q = 3 cross-check
    X = rng.standard_normal((400_000, 3))
    v = np.array([math.cos(1.0), math.sin(1.0), 0.0])
    dis = np.sign(X @ v) != np.sign(X[:, 0])
    m, se = mean_se(np.abs(X[:, 0]) * (1 + np.abs(0.6 * X[:, 1] + 0.8 * X[:, 2]) ** 3
                                        + np.abs(X[:, 0]) ** 3) * dis)
    zq = (m - disagreement_lhs(0.6, 0.8, 3, 1.0)) / se
    ok &= abs(zq) <= _K_SE
    rows.append(f"q=3 theta=(0,.6,.8) alpha=1: Monte Carlo vs quadrature z = {zq:.2f}")
    for a in (0.1, 1.0):
        v = np.array([math.cos(a), math.sin(a), 0.0])
        dis = np.sign(X @ v) != np.sign(X[:, 0])
        val = np.abs(X[:, 0]) * (1 + np.abs(0.6 * X[:, 1] + 0.8 * X[:, 2]) ** 0.5
                                 + np.abs(X[:, 0]) ** 0.5) * dis
        m, se = mean_se(val)
        e = 2 * (1 - math.cos(a))
        b = disagreement_bound_constant(0.5, 0.8) * e
        ok &= m <= b + _K_SE * se
        rows.append(f"q=1/2 theta=(0,.6,.8) alpha={a}: MC {m:.5f} +- {se:.1g} <= {b:.5f}")
    return Outcome(PASS if ok else FAIL,
                   f"identities to {max(worst_p, worst_c):.0e}; max LHS/(C_q e) = "
                   f"{worst_ratio:.3f} (<= 1) with the proof's explicit C_q",
                   "; ".join(rows) + ". C_q = (1 + max(1, 2^(q-1))) E[R(1 + R^q + |U|^q)]/(2 pi), "
                   "the constant the proof's steps give before 'absorbing' (R ~ chi_2, U ~ "
                   "N(0, ||theta_perp||^2))")


_REGRET_NS = (1000, 4000, 16000)


@register("regret-rate", "thm:regret-rate", "sec:regret",
          "E[R_n] = O(d log n) with n0 = ceil(C0 (d + log n)), eta_t = gamma/(t + t0), "
          "2 gamma lambda0 > 1, t0 <= C_off n0; partial check in d = 2 (logistic4, Delta = 1.5, "
          "gamma = 5, t0 = n0, C0 = 15, 400 paths, n in {1e3, 4e3, 1.6e4}): the appendix's "
          "explicit bound 2 B n0 + C_gap (Delta/2) C_e d {1 + log((n+t0)/(n0+t0))} + 2 B n^-3 "
          "with measured constants, and R_n growing like log n",
          "monte-carlo",
          f"E[R_n] <= bound + {_K_SE:g} SE; increment ratio (R_16000 - R_4000)/(R_4000 - R_1000) "
          f"< 2 by 5 SE (sqrt(n) growth would give 2)",
          "regret means over 400 independent paths (common random numbers across n, SE of "
          "differences from paired paths). Not checked here: the d-dependence of the constant "
          "(O(d log n)) and large n - the empirical regret-rate study is a separate issue; the "
          "localization probability n^-4 assumed by the bound is far below Monte Carlo "
          "resolution (reported as the observed exit count)")
def _regret_rate():
    env = environment(_LOGISTIC4, "1.5")
    n0s, regret, e_n0, exits = regret_by_horizon(env, _REGRET_NS, 15.0, 400, 123)
    d, B, dl = env.d, reward_bound(env), env.delta
    r0 = 1.0
    lam0 = lambda0_2d(_LOGISTIC4, "1.5", r0)
    gamma = 5.0
    alpha = 2 * gamma * lam0
    mu_g = float(stability(env.link, "1.5").values["mu_g"])
    cgap = PHI0 * sup_gprime(env.link)
    rows, ok, zmax = [], alpha > 1, -math.inf
    means = {}
    for n in _REGRET_NS:
        n0 = n0s[n]
        t0 = float(n0)
        c_init = float(e_n0[n].mean()) * dl ** 2 * mu_g ** 2 * n0 / (B ** 2 * d)
        Ce = max(c_init * 2 * B ** 2 / (dl ** 2 * mu_g ** 2), B ** 2 * gamma ** 2 / (alpha - 1))
        bound = (2 * B * n0 + cgap * dl / 2 * Ce * d * (1 + math.log((n + t0) / (n0 + t0)))
                 + 2 * B * n ** -3.0)
        m, se = mean_se(regret[n])
        means[n] = m
        zmax = max(zmax, (m - bound) / se)
        # the proof's sum: sum_{t=n0+1}^n 1/(t-1+t0) <= 1 + log((n+t0)/(n0+t0))
        hsum = float((1.0 / (np.arange(n0 + 1, n + 1) - 1 + t0)).sum())
        ok &= hsum <= 1 + math.log((n + t0) / (n0 + t0))
        rows.append(f"n = {n}: n0 = {n0}, E[R_n] = {m:.2f} +- {se:.2f}, R_n/log n = "
                    f"{m / math.log(n):.3f}, bound {bound:.1f} (C_e = {Ce:.2f}; sum 1/(t-1+t0) "
                    f"= {hsum:.3f} <= {1 + math.log((n + t0) / (n0 + t0)):.3f}), exits beyond "
                    f"r0 = 1: {int(exits[n].sum())}/{exits[n].size}")
    d1 = regret[4000] - regret[1000]
    d2 = regret[16000] - regret[4000]
    ratio, rse = paired_ratio(d1, d2)      # SE by the delta method on paired differences
    ok &= zmax <= _K_SE and ratio + _K_SE * rse < 2
    return Outcome(PASS if ok else FAIL,
                   "E[R_n]/log n = " + ", ".join(f"{means[n] / math.log(n):.3f}"
                                                 for n in _REGRET_NS)
                   + f" for n = {_REGRET_NS}; increment ratio {ratio:.3f} +- {rse:.3f} (log n: "
                   f"~1 plus the n0 growth; sqrt n: 2); max z(E R_n - bound) = {zmax:.1f}",
                   "; ".join(rows) + f". Constants: lambda0(r0 = 1) = {lam0:.4f} (2 gamma "
                   f"lambda0 = {alpha:.3f}), C_gap = phi0(0) sup g' = {cgap:.4f} "
                   f"(error-to-regret), "
                   f"C_e from eq:Ce-explicit with the measured C'_init and C_off = 1, B_Y = 1. "
                   f"Partial check: one link, d = 2, three horizons; the O(d log n) study over "
                   f"d and n is a separate issue")
