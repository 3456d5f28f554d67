"""Claims of the population dynamics (sec:nbl, app:conditional_population_field,
app:local_stability_in_2D): the tangent update, the population equilibrium and the Jacobian, the
conditional mean of the update (at a fixed v and along NBL trajectories), the reflection
identities of the equilibrium proof and the 2-D picture H(α).

Fields F, h, H come from :mod:`nbl_sim.population` (exact 1-D reduction, graded Gauss–Legendre,
~1e-15 accurate) and, independently, from the one-arm integrals of
:mod:`proofs_check.witnesses.fields`; the conditional-mean statements are checked by Monte
Carlo. Cases: the six named links of the paper (nbl_theory.paper.PAPER_LINKS) at Δ ∈ {0.2, 1} in
d ∈ {2, 3} with v*, θ in a fixed random orientation
(:func:`proofs_check.witnesses.geometry.case_geometry`).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from nbl_sim import population as pop
from nbl_sim.environment import Environment
from nbl_sim.geometry import tangent_projection
from nbl_theory.paper import PAPER_LINKS
from nbl_theory.stability import stability

from ...registry import DISCREPANCY, FAIL, PASS, Outcome, register
from ...witnesses.fields import own_field
from ...witnesses.geometry import angle_distance, case_geometry, rational_cases
from ...witnesses.paths import martingale_z_scores
from ...witnesses.toolkit_values import field_scale

__all__: list[str] = []

_DELTAS = ("0.2", "1")
_DIMS = (2, 3)


def _cases():
    for i, row in enumerate(PAPER_LINKS.values()):
        link = row.link()
        for delta in _DELTAS:
            for d in _DIMS:
                beta, vs, theta = case_geometry(i, delta, d)
                yield row, link, delta, d, beta, vs, theta


@register("tangent-update-projection", "eq:tangent_update", "sec:nbl",
          "G_t = P_v^perp W_t with P_v^perp = I - v v^T is tangent at v (v^T G = 0), P is "
          "idempotent and W = (v^T W) v + G (fig:tangent-update); nbl_sim.geometry."
          "tangent_projection equals the literal matrix formula", "property-based",
          "exact (== 0) in rational arithmetic; float: |v^T G|, |G - (I - vv^T)W| <= 1e-14 ||W||",
          "rational unit vectors (inverse stereographic projection) make the identities exact; "
          "in float64 each entry is a short dot product (a few ulps of ||W||)")
def _tangent_update():
    rng = np.random.default_rng(2024)
    n_exact = 0
    for v, w in rational_cases(rng, 300):
        assert sum(x * x for x in v) == 1
        vw = sum(a * b for a, b in zip(v, w))
        G = [wi - vw * vi for wi, vi in zip(w, v)]           # (I - vv^T) W, entrywise
        vg = sum(a * b for a, b in zip(v, G))
        PG = [gi - vg * vi for gi, vi in zip(G, v)]
        recon = [vw * vi + gi for vi, gi in zip(v, G)]
        if vg != 0 or PG != G or recon != w:
            return Outcome(FAIL, f"rational case {n_exact} fails", f"v={v}, W={w}")
        n_exact += 1
    worst_tan = worst_lit = worst_rec = 0.0
    n_float = 0
    for d in (2, 3, 5, 10):
        k = 500
        v = rng.standard_normal((k, d))
        v /= np.linalg.norm(v, axis=1)[:, None]
        W = rng.standard_normal((k, d)) * 10.0 ** rng.uniform(-3, 3, (k, 1))
        G = tangent_projection(v, W)
        lit = np.einsum("kij,kj->ki", np.eye(d)[None] - v[:, :, None] * v[:, None, :], W)
        nW = np.linalg.norm(W, axis=1)
        worst_tan = max(worst_tan, float(np.max(np.abs((v * G).sum(1)) / nW)))
        worst_lit = max(worst_lit, float(np.max(np.abs(G - lit).max(1) / nW)))
        rec = (v * W).sum(1)[:, None] * v + G
        worst_rec = max(worst_rec, float(np.max(np.abs(rec - W).max(1) / nW)))
        n_float += k
    ok = max(worst_tan, worst_lit, worst_rec) <= 1e-14
    return Outcome(PASS if ok else FAIL,
                   f"exact in {n_exact} rational cases; float max |v^T G|/||W|| = "
                   f"{worst_tan:.1e}, |G - literal|/||W|| = {worst_lit:.1e}",
                   f"{n_float} float cases d in {{2, 3, 5, 10}}, ||W|| from 1e-3 to 1e3; "
                   f"|(v^T W) v + G - W|/||W|| = {worst_rec:.1e}")


@register("population-equilibrium", "prop:population_equilibrium", "sec:nbl",
          "F(v*) = kappa* v* with kappa* = 2 phi0(0) m0 + Delta mu* (eq:app-kappa-identity), "
          "hence h(v*) = 0, for the six named links, Delta in {0.2, 1}, d in {2, 3}",
          "high-precision", "absolute 1e-12 x max(1, S), S = E|g(s)|(1 + |s|)",
          "the quadrature field is accurate to ~1e-15 x S (checked against adaptive polar quad "
          "in tests/sim/test_population.py); 1e-12 leaves room for kappa*'s float64 error")
def _equilibrium():
    worst_h, worst_f, n = 0.0, 0.0, 0
    for _row, link, delta, _d, beta, vs, _th in _cases():
        S = field_scale(link)
        F = pop.population_field(link, beta, vs)
        h = pop.tangent_field(link, beta, vs)
        kappa = float(stability(link, delta).values["kappa_star"])
        worst_h = max(worst_h, float(np.abs(h).max()) / S)
        worst_f = max(worst_f, float(np.abs(F - kappa * vs).max()) / S)
        n += 1
    ok = max(worst_h, worst_f) <= 1e-12
    return Outcome(PASS if ok else FAIL,
                   f"max |h(v*)|/S = {worst_h:.1e}, max |F(v*) - kappa* v*|/S = {worst_f:.1e}",
                   f"{n} cases")


@register("jacobian-finite-difference", "eq:Jacobian", "sec:nbl",
          "Dh(v*)[u] = -Delta mu* u + 2 phi0(0) m2 theta (theta^T u): the finite-difference "
          "Jacobian of the quadrature field h at v* equals the formula (six links, Delta in "
          "{0.2, 1}, d in {2, 3})", "high-precision", "absolute 1e-9 x max(1, S)",
          "central differences with Richardson extrapolation (eps = 1e-3, 5e-4): truncation "
          "~1e-12, quadrature noise / eps ~1e-13; measured ~1e-13")
def _jacobian():
    worst, n, rows = 0.0, 0, []
    for _row, link, delta, d, beta, vs, _th in _cases():
        S = field_scale(link)
        fd = pop.jacobian_fd(link, beta, vs)
        formula = pop.jacobian_formula(link, delta, beta=beta)
        err = float(np.abs(fd - formula).max()) / S
        worst = max(worst, err)
        n += 1
        if d == 2:
            rows.append(f"{link.name} Delta={delta}: theta-rate {-np.trace(formula):.6g}")
    return Outcome(PASS if worst <= 1e-9 else FAIL, f"max |FD - eq:Jacobian|/S = {worst:.1e}",
                   f"{n} cases; " + "; ".join(rows))


@register("gradient-of-j", "eq:Fdef", "sec:nbl",
          "grad J(v) = F(v) for J(v) = E[(m+ + m-)(X)(v^T X)_+] - v^T E[m-(X) X] (sec:nbl), at "
          "random v off v*, by central differences of the quadrature J", "high-precision",
          "absolute 1e-8 x max(1, S)",
          "central differences with step 1e-4 on a smooth (C^2 away from v = 0) J: truncation "
          "~1e-9, quadrature noise / step ~1e-12")
def _grad_j():
    worst, n = 0.0, 0
    rng = np.random.default_rng(7)
    for _row, link, _delta, d, beta, _vs, _th in _cases():
        S = field_scale(link)
        v = rng.standard_normal(d)
        v /= np.linalg.norm(v)
        e = 1e-4
        grad = np.array([(pop.potential_J(link, beta, v + e * u)
                          - pop.potential_J(link, beta, v - e * u)) / (2 * e)
                         for u in np.eye(d)])
        worst = max(worst, float(np.abs(grad - pop.population_field(link, beta, v)).max()) / S)
        n += 1
    return Outcome(PASS if worst <= 1e-8 else FAIL, f"max |grad J - F|/S = {worst:.1e}",
                   f"{n} cases")


_N_MC = 100_000


@register("conditional-population-field", "lem:conditional_population_field",
          "app:conditional_population_field",
          "Under greedy allocation A_t = sgn(v^T X_t), E[G_t | H] = h(v) (and E[W_t | H] = "
          "F(v)): Monte Carlo over the six links at Delta = 0.2, d = 3, random v",
          "monte-carlo", f"|mean - h(v)| <= 5 SE per coordinate, {_N_MC} rounds per case",
          "an identity: a 5-SE miss (probability ~6e-7 per coordinate) means a bug (FAIL)")
def _conditional():
    worst, rows = 0.0, []
    for i, row in enumerate(PAPER_LINKS.values()):
        link = row.link()
        env = Environment.build(link, "0.2", 3, v_star="random", theta_dir="random",
                                geometry_seed=i)
        v = np.random.default_rng(50 + i).standard_normal(3)
        v /= np.linalg.norm(v)
        real = env.draw(200 + i, [0], _N_MC, 0)
        X = real.X[0]
        a = np.where((X * v).sum(1) >= 0, 1.0, -1.0)
        y = np.where(a > 0, real.Y[0, :, 1], real.Y[0, :, 0])
        W = (a * y)[:, None] * X
        G = tangent_projection(v, W)
        zs = []
        for sample, target in ((W, pop.population_field(link, env.beta, v)),
                               (G, pop.tangent_field(link, env.beta, v))):
            se = sample.std(0, ddof=1) / math.sqrt(_N_MC)
            zs.append(float((np.abs(sample.mean(0) - target) / se).max()))
        worst = max(worst, *zs)
        rows.append(f"{link.name}: z(W) = {zs[0]:.2f}, z(G) = {zs[1]:.2f}")
    return Outcome(PASS if worst <= 5 else FAIL, f"max |z| = {worst:.2f}", "; ".join(rows))


@register("restoring-condition-2d", "eq:2d-restoring-condition", "app:local_stability_in_2D",
          "In d = 2, alpha H(alpha) < 0 for small alpha != 0 exactly when the theta-direction "
          "rate Delta mu* - 2 phi0(0) m2 (1 - Delta^2/4) is positive; for the six links at "
          "Delta = 0.2 this reproduces the printed regimes", "high-precision",
          "sign of alpha H(alpha) at alpha = +-1e-3 (|H| >> quadrature error 1e-15)",
          "H(alpha) ~ H'(0) alpha with |H'(0)| >= 2.9e-5, so |H(+-1e-3)| >= 2.9e-8")
def _restoring():
    rows, bad = [], []
    for row in PAPER_LINKS.values():
        link = row.link()
        res = stability(link, "0.2")
        rate = float(res.jacobian_rates["theta"])  # prop:local_jacobian, u ∥ θ
        a = 1e-3
        restoring = bool(a * pop.H_alpha(link, "0.2", a) < 0
                         and -a * pop.H_alpha(link, "0.2", -a) < 0)
        regime_stable = row.regime != "unstable"
        consistent = restoring == (rate > 0) == regime_stable
        rows.append(f"{link.name}: theta-rate {rate:.4g}, restoring {restoring}, "
                    f"printed {row.regime}")
        if not consistent:
            bad.append(link.name)
    return Outcome(DISCREPANCY if bad else PASS,
                   "restoring exactly for the stable and near-critical links" if not bad
                   else f"inconsistent: {bad}", "; ".join(rows))


_TRAJ_R, _TRAJ_N = 96, 64
_TRAJ_SLOW_R, _TRAJ_SLOW_N = 640, 160
_TRAJ_WHY = ("per-replication sums of martingale differences are independent across replications "
             "and centred under the lemma; z = mean/SE, 5 SE over 144 statistics has false-alarm "
             "probability ~1e-4 (an identity: a miss is a bug)")


def _trajectory_z(R: int, n: int, seed: int) -> Outcome:
    """z-scores of Σ_t D_t and Σ_t D_t v_{t−1,k} (D = W − F(v_{t−1}), G − h(v_{t−1})) over R
    NBL trajectories of n Stage-II rounds, per paper link (Δ = 0.2, d = 3)."""
    zmax, rows, nstat = 0.0, [], 0
    for i, key in enumerate(PAPER_LINKS):
        env = Environment.build(PAPER_LINKS[key].link(), "0.2", 3, v_star="random",
                                theta_dir="random", geometry_seed=300 + i)
        zs, moved = martingale_z_scores(env, R, n, seed + i, seed + 100 + i, gamma=10.0, t0=20.0)
        nstat += len(zs)
        zmax = max(zmax, max(zs))
        rows.append(f"{key}: max|z| = {max(zs):.2f} (v moved {moved:.0f} deg on average)")
    return Outcome(PASS if zmax <= 5 else FAIL, f"max |z| = {zmax:.2f} over {nstat} statistics",
                   f"{R} replications x {n} rounds per link; start angles uniform in [-60, 60] "
                   "deg, eta_t = 10/(t + 20), Bernoulli rewards; statistics: sum_t D_t and "
                   "sum_t D_t v_{t-1,k} for D = W - F(v), G - h(v). " + "; ".join(rows))


@register("conditional-field-trajectories", "eq:app-conditional-F",
          "app:conditional_population_field",
          "Along NBL trajectories (Stage II, history-dependent v_{t-1}), W_t - F(v_{t-1}) and "
          "G_t - h(v_{t-1}) are martingale differences: their sums, and their sums weighted by "
          "the H_{t-1}-measurable v_{t-1}, have mean zero (six links, Delta = 0.2, d = 3)",
          "monte-carlo",
          f"|z| <= 5 for every statistic, {_TRAJ_R} replications x {_TRAJ_N} rounds per link",
          _TRAJ_WHY + "; detects gross errors only (e.g. F 20% off); the slow claim "
          "conditional-field-trajectories-large has ~17x the samples",
          covers=("eq:app-conditional-h",))
def _conditional_traj():
    return _trajectory_z(_TRAJ_R, _TRAJ_N, 400)


@register("conditional-field-trajectories-large", "eq:app-conditional-h",
          "app:conditional_population_field",
          "As conditional-field-trajectories with 640 replications x 160 rounds per link "
          "(E[G_t | H_{t-1}] = h(v_{t-1}) and E[W_t | H_{t-1}] = F(v_{t-1}) along NBL "
          "trajectories)", "monte-carlo",
          f"|z| <= 5 for every statistic, {_TRAJ_SLOW_R} replications x {_TRAJ_SLOW_N} rounds "
          "per link", _TRAJ_WHY, quick=False, covers=("eq:app-conditional-F",))
def _conditional_traj_large():
    return _trajectory_z(_TRAJ_SLOW_R, _TRAJ_SLOW_N, 4000)


@register("z-reflection-identities", "eq:Z-def", "app:conditional_population_field",
          "With Z = v*^T X: X = P^perp X + Z v*, Cov(P^perp X, Z) = P^perp v* = 0 (so Z ~ "
          "N(0, 1) is independent of P^perp X), and the reflection X~ = P^perp X - Z v* "
          "satisfies v*^T X~ = -Z, ||X~|| = ||X||, beta_+^T X = beta_-^T X~ and X - X~ = 2 Z v* "
          "(proof of prop:population_equilibrium)", "property-based",
          "exact in rational arithmetic; float 1e-14 x (1 + ||X||)",
          "rational unit v* and rational theta perpendicular to v* make every identity exact; "
          "in float64 they hold to a few ulps")
def _z_identities():
    rng = np.random.default_rng(5)
    n_exact = 0
    for vs, x in rational_cases(rng, 200, dims=(2, 3, 6)):
        d = len(vs)
        raw = [Fraction(int(rng.integers(-9, 10)), int(rng.integers(1, 5))) for _ in range(d)]
        c = sum(a * b for a, b in zip(raw, vs))
        theta = [a - c * b for a, b in zip(raw, vs)]       # theta perpendicular to v*
        half = Fraction(1, 5)                             # Delta/2 (the identities need no norm)
        bp = [t + half * s for t, s in zip(theta, vs)]
        bm = [t - half * s for t, s in zip(theta, vs)]
        Z = sum(a * b for a, b in zip(vs, x))
        px = [a - Z * b for a, b in zip(x, vs)]
        xt = [a - Z * b for a, b in zip(px, vs)]
        pv = [a - sum(p * q for p, q in zip(vs, vs)) * a for a in vs]   # P^perp v*
        checks = (
            all(a + Z * b == xx for a, b, xx in zip(px, vs, x)),
            all(p == 0 for p in pv),
            sum(a * b for a, b in zip(vs, xt)) == -Z,
            sum(a * a for a in xt) == sum(a * a for a in x),
            sum(a * b for a, b in zip(bp, x)) == sum(a * b for a, b in zip(bm, xt)),
            all(a - b == 2 * Z * s for a, b, s in zip(x, xt, vs)),
        )
        if not all(checks):
            return Outcome(FAIL, f"rational case {n_exact}: {checks}", f"v*={vs}, X={x}")
        n_exact += 1
    worst, n = 0.0, 0
    for i in range(len(PAPER_LINKS)):
        for d in (2, 3):
            beta, vs, _ = case_geometry(i, "0.2", d)
            X = rng.standard_normal((400, d))
            Z = X @ vs
            px = tangent_projection(vs, X)
            xt = px - Z[:, None] * vs
            sc = 1 + np.linalg.norm(X, axis=1)
            errs = [np.abs(xt @ vs + Z) / sc,
                    np.abs(np.linalg.norm(xt, axis=1) - np.linalg.norm(X, axis=1)) / sc,
                    np.abs(X @ beta[1] - xt @ beta[0]) / sc,
                    np.abs(X - xt - 2 * Z[:, None] * vs).max(1) / sc]
            worst = max(worst, max(float(e.max()) for e in errs))
            n += 400
    return Outcome(PASS if worst <= 1e-14 else FAIL,
                   f"exact in {n_exact} rational cases; float max error {worst:.1e}",
                   f"{n} float samples (the six links' geometries at Delta = 0.2, d in {{2, 3}})")


@register("h-alpha-identity", "eq:H-alpha", "app:local_stability_in_2D",
          "In d = 2, h(v(alpha)) = H(alpha) v_perp(alpha) with H(alpha) = v_perp^T h = "
          "v_perp^T F(v(alpha)), and h is tangent (v^T h = 0), at 720 alpha around the circle; "
          "H from nbl_sim.population.H_alpha, h from tangent_field, and H recomputed from the "
          "module's own one-arm integrals (six links, Delta in {0.2, 1})", "high-precision",
          "absolute 1e-13 x max(1, S) for the identities; 1e-12 x max(1, S) against the own "
          "quadrature (alpha at least 8 deg from +-beta_a)",
          "the identities compare the same quadrature field (rounding only); the own rule "
          "(uniform panels 1/16, 16 nodes) is ~1e-15 accurate where the kernels are smooth")
def _h_alpha():
    alpha = np.linspace(-np.pi, np.pi, 720, endpoint=False) + 0.0017
    va = np.stack([np.cos(alpha), np.sin(alpha)], axis=1)
    vp = np.stack([-np.sin(alpha), np.cos(alpha)], axis=1)
    worst_id = worst_tan = worst_own = 0.0
    n_own = 0
    for key in PAPER_LINKS:
        link = PAPER_LINKS[key].link()
        S = field_scale(link)
        for delta in _DELTAS:
            beta, _, _ = pop.arm_vectors(delta, 2)
            H = pop.H_alpha(link, delta, alpha)
            h = pop.tangent_field(link, beta, va)
            F = pop.population_field(link, beta, va)
            worst_id = max(worst_id, float(np.abs(h - H[:, None] * vp).max()) / S,
                           float(np.abs(H - (vp * F).sum(1)).max()) / S,
                           float(np.abs(H - (vp * h).sum(1)).max()) / S)
            worst_tan = max(worst_tan, float(np.abs((va * h).sum(1)).max()) / S)
            dirs = np.concatenate([np.arctan2(beta[:, 1], beta[:, 0]),
                                   np.arctan2(-beta[:, 1], -beta[:, 0])])
            far = np.min(angle_distance(alpha[:, None], dirs[None, :]), axis=1) > np.radians(8)
            far &= np.arange(alpha.size) % 6 == 0      # every 6th alpha (cost)
            fp, fm = own_field(link, beta, va[far])
            own_H = (vp[far] * (fp - fm)).sum(1)
            worst_own = max(worst_own, float(np.abs(own_H - H[far]).max()) / S)
            n_own += int(far.sum())
    ok = worst_id <= 1e-13 and worst_tan <= 1e-13 and worst_own <= 1e-12
    return Outcome(PASS if ok else FAIL,
                   f"max |h - H v_perp|, |H - v_perp^T F| = {worst_id:.1e}; |v^T h| = "
                   f"{worst_tan:.1e}; |H - H(own quadrature)| = {worst_own:.1e} (all / S)",
                   f"12 (link, Delta) cases x 720 alpha; own-quadrature comparison at every 6th "
                   f"alpha at least 8 deg from +-beta_a: {n_own} (alpha, case) points")
