"""Polar quadrature on the disagreement wedges (app:error-to-regret).

With v* = e1 and v = v(α) = (cos α, sin α) in d = 2, write X = R(cos Φ, sin Φ): the signs of
v*ᵀX and vᵀX differ exactly on two wedges of Φ of length |α|. :func:`polar_expect` integrates
a function of (X1, X2) over those wedges with Gauss–Legendre in the angle and composite
Gauss–Legendre in the radius — written here from the proof of
lem:gaussian-polynomial-disagreement, independently of :mod:`nbl_sim.studies.rate_theory`.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy.interpolate import CubicSpline

from nbl_theory.numeric import PHI0, gauss_legendre_panels, gauss_legendre_uniform

from .gaussian import abs_moment
from .stats import mean_se

__all__ = [
    "RADIAL_NODES",
    "wedges",
    "polar_expect",
    "regret_in_plane",
    "error_to_regret_limit",
    "disagreement_lhs",
    "disagreement_limit",
    "disagreement_bound_constant",
    "gap_profile",
    "regret_out_of_plane",
    "error_to_regret_limit_perp",
    "mean_gap",
    "ALPHA_GRID",
    "sq_distance",
    "ratio_scaling",
    "in_plane_ratios",
    "tilted_ratios",
    "regret_monte_carlo_z",
    "refinement_change",
    "disagreement_identities",
    "identity_values",
    "disagreement_monte_carlo",
    "weighted_ratios",
    "cq_bound",
]

#: The angles α ∈ (0, π] of the error-to-regret checks (both signs are used where the check
#: says so): dense near 0 for the α → 0 limits, up to the antipode π.
ALPHA_GRID = (1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0, 1.5, 2.0, 2.5, 3.0, math.pi)
#: α grids of :func:`tilted_ratios`: the sup of the ratio over (0, π], and the log-log slope over
#: [1e-4, 1e-2] (where the ratio's next term, O(α), is below 1e-2)
SUP_ALPHAS = np.concatenate([np.geomspace(1e-4, 0.1, 8), np.linspace(0.15, math.pi, 30)])
SLOPE_ALPHAS = np.geomspace(1e-4, 1e-2, 9)

#: Radial nodes and weights of the polar rule: 16-node Gauss–Legendre on panels of width 0.5
#: on [0, 12] (the χ_2 mass beyond 12 is e^{-72}).
RADIAL_NODES = gauss_legendre_uniform(0.0, 12.0, 0.5)
_LINE = gauss_legendre_uniform(-12.0, 12.0, 0.25)  # 1-D rule for the α → 0 limits


def wedges(alpha: float):
    """The two arcs of φ where sgn(cos φ) ≠ sgn(cos(φ − α)) (v* = e1, v = v(α)), as (lo, hi)
    pairs: (π/2, π/2 + α) and (3π/2, 3π/2 + α) for α ≥ 0, mirrored for α < 0."""
    if alpha >= 0:
        return [(math.pi / 2, math.pi / 2 + alpha), (1.5 * math.pi, 1.5 * math.pi + alpha)]
    return [(math.pi / 2 + alpha, math.pi / 2), (1.5 * math.pi + alpha, 1.5 * math.pi)]


def polar_expect(f, alpha: float, n_ang: int = 48, split=()):
    """E[f(X1, X2) 1{sgn(vᵀX) ≠ sgn(v*ᵀX)}] for X ~ N(0, I_2), v = v(α).

    Gauss–Legendre with ``n_ang`` nodes in the angle on each wedge (split at the angles
    ``split``, e.g. the kinks of |θᵀX|^q) and :data:`RADIAL_NODES` in the radius. Accuracy
    ~1e-12 relative for integrands smooth on each piece (refinement 48 → 96 angular nodes
    changes the regret integral by ~1e-16).
    """
    rho, wr = RADIAL_NODES
    total = 0.0
    for lo, hi in wedges(alpha):
        cuts = [lo] + [s for s in split if lo < s < hi] + [hi]
        for a, b in zip(cuts[:-1], cuts[1:]):
            phi, w = gauss_legendre_panels([a, b], n_ang)
            X1 = rho[:, None] * np.cos(phi)[None, :]
            X2 = rho[:, None] * np.sin(phi)[None, :]
            dens = (wr * rho * np.exp(-rho * rho / 2))[:, None] * w[None, :] / (2 * math.pi)
            total += float((f(X1, X2) * dens).sum())
    return total


def regret_in_plane(link, delta: float, alpha: float, n_ang: int = 48) -> float:
    """E[r_t | v_{t−1} = v(α)] = E[|m_+(X) − m_−(X)| 1{sgn(vᵀX) ≠ sgn(v*ᵀX)}] in d = 2.

    m_±(X) = g(τX2 ± (Δ/2)X1), τ = √(1 − Δ²/4) (v* = e1, θ = τ e2); the gap's sign is fixed
    on each wedge, so the integrand is smooth there (:func:`polar_expect`, ~1e-12 relative).
    """
    tau = math.sqrt(1 - delta * delta / 4)

    def f(x1, x2):
        return np.abs(
            link.g_numpy(tau * x2 + delta / 2 * x1) - link.g_numpy(tau * x2 - delta / 2 * x1)
        )

    return polar_expect(f, alpha, n_ang=n_ang)


def error_to_regret_limit(link, delta: float) -> float:
    """lim_{α→0} E[r | v(α)]/((Δ/2)‖v − v*‖²) = φ0(0) E[W² g'(τW)], W ~ N(0, 1),
    τ = √(1 − Δ²/4), by composite Gauss–Legendre on [−12, 12] (panels 0.25; ~1e-15)."""
    xg, wg = _LINE
    phi = np.exp(-xg * xg / 2) / math.sqrt(2 * math.pi)
    tau = math.sqrt(1 - delta * delta / 4)
    return PHI0 * float((wg * phi * xg * xg * link.derivative_numpy(tau * xg, 1)).sum())


def disagreement_lhs(theta2: float, theta3: float, q: int, alpha: float) -> float:
    """E[|v*ᵀX|{1 + |θᵀX|^q + |v*ᵀX|^q} 1{disagree}] with v* = e1, v = v(α) in span(e1, e2),
    θ = (0, θ2, θ3): the X3 integral in closed form (:func:`.gaussian.abs_moment`, integer q),
    the rest by :func:`polar_expect` split at the kinks φ = π, 2π."""

    def f(x1, x2):
        return np.abs(x1) * (1 + abs_moment(theta2 * x2, abs(theta3), q) + np.abs(x1) ** q)

    return polar_expect(f, alpha, split=(math.pi, 2 * math.pi))


def disagreement_limit(theta2: float, theta3: float, q: int) -> float:
    """lim_{α→0} :func:`disagreement_lhs`/‖v − v*‖² = (φ0(0)/2) E[W²{1 + E|θ2 W + θ3 U|^q
    + 1{q = 0}}], W, U ~ N(0, 1) independent (the |v*ᵀX|^q term vanishes on the boundary
    except for q = 0)."""
    xg, wg = _LINE
    phi = np.exp(-xg * xg / 2) / math.sqrt(2 * math.pi)
    return (
        PHI0
        / 2
        * float(
            (
                wg
                * phi
                * xg
                * xg
                * (1 + abs_moment(theta2 * xg, theta3, q) + (1.0 if q == 0 else 0.0))
            ).sum()
        )
    )


def disagreement_bound_constant(q: float, theta_perp: float) -> float:
    """The explicit constant of the proof of lem:gaussian-polynomial-disagreement: LHS ≤
    (1 + c_q) E[R(1 + R^q + |U|^q)] ‖v − v*‖²/(2π), c_q = max(1, 2^{q−1}), R ~ χ_2,
    U ~ N(0, ‖θ⊥‖²) independent of R (moments in closed form)."""
    cq = max(1.0, 2.0 ** (q - 1))
    ER = math.sqrt(math.pi / 2)
    ERq1 = 2 ** ((1 + q) / 2) * math.gamma((3 + q) / 2)
    EUq = (
        1.0
        if q == 0
        else theta_perp**q * 2 ** (q / 2) * math.gamma((q + 1) / 2) / math.sqrt(math.pi)
    )
    return (1 + cq) * (ER + ERq1 + ER * EUq) / (2 * math.pi)


def _gap_nodes(delta: float):
    """Gauss–Legendre nodes/weights of the N(0, 1) expectation over z2 on [−12, 12]."""
    xg, wg = _LINE
    return xg, wg * np.exp(-xg * xg / 2) / math.sqrt(2 * math.pi)


@functools.lru_cache(maxsize=64)
def gap_profile(link, delta: float) -> CubicSpline:
    """F(x) = E_Z |g(sZ + (Δ/2)x) − g(sZ − (Δ/2)x)|, Z ~ N(0, 1), s = √(1 − Δ²/4), for
    x ∈ [0, 12], as a cubic spline on 2401 points (F is smooth on [0, 12]: for increasing g the
    difference has the sign of x). F(|z1|) is the reward gap averaged over the θ-coordinate: the
    regret integrand when v tilts out of the (v*, θ) plane. Interpolation error ~1e-12 (measured
    in the unit tests against direct quadrature)."""
    s = math.sqrt(1 - delta * delta / 4)
    z, w = _gap_nodes(delta)
    x = np.linspace(0.0, 12.0, 2401)
    up = link.g_numpy(s * z[None, :] + delta / 2 * x[:, None])
    dn = link.g_numpy(s * z[None, :] - delta / 2 * x[:, None])
    return CubicSpline(x, np.abs(up - dn) @ w)


def regret_out_of_plane(link, delta: float, alpha: float, n_ang: int = 48) -> float:
    """E[r_t | v_{t−1} = v] for v = cos α v* + sin α ω, ω ⊥ v*, θ (the tilt ψ = π/2 of d ≥ 3).

    The disagreement depends on (v*ᵀX, ωᵀX) only and the gap on (v*ᵀX, θ̂ᵀX), which are
    independent of ωᵀX, so E[r | v] = E[F(|X1|) 1{sgn(vᵀX) ≠ sgn(v*ᵀX)}] with (X1, X2) the
    coordinates along (v*, ω) and F = :func:`gap_profile`: the polar rule of
    :func:`polar_expect` on the wedges (written here from the proof of
    lem:gaussian-polynomial-disagreement, independently of :mod:`nbl_sim.studies.regret_geometry`).
    """
    F = gap_profile(link, float(delta))
    return polar_expect(lambda x1, x2: F(np.minimum(np.abs(x1), 12.0)), alpha, n_ang=n_ang)


def error_to_regret_limit_perp(link, delta: float) -> float:
    """lim_{α→0} :func:`regret_out_of_plane`/((Δ/2)‖v − v*‖²) = φ0(0) E[g'(sZ)], Z ~ N(0, 1),
    s = √(1 − Δ²/4) (F(x) ≈ Δ x E g'(sZ) near the boundary), by composite Gauss–Legendre on
    [−12, 12] (~1e-15)."""
    z, w = _gap_nodes(delta)
    s = math.sqrt(1 - delta * delta / 4)
    return PHI0 * float((w * link.derivative_numpy(s * z, 1)).sum())


def mean_gap(link, delta: float) -> float:
    """E|m_+(X) − m_−(X)| = 2 E[(g(sX2 + (Δ/2)X1) − g(sX2 − (Δ/2)X1)) 1{X1 > 0}] for an
    increasing g (the difference has the sign of X1), s = √(1 − Δ²/4): the per-round regret of
    always choosing the wrong arm, by a product Gauss–Legendre rule (16 nodes on panels of width
    1, X1 ∈ [0, 10], X2 ∈ [−10, 10]; the Gaussian mass beyond 10 is ~1e-23) — a smooth
    integrand, ~1e-13 relative."""
    s = math.sqrt(1 - delta * delta / 4)
    x1, w1 = gauss_legendre_uniform(0.0, 10.0, 1.0)
    x2, w2 = gauss_legendre_uniform(-10.0, 10.0, 1.0)
    w1 = w1 * np.exp(-x1 * x1 / 2) / math.sqrt(2 * math.pi)
    w2 = w2 * np.exp(-x2 * x2 / 2) / math.sqrt(2 * math.pi)
    up = link.g_numpy(s * x2[None, :] + delta / 2 * x1[:, None])
    dn = link.g_numpy(s * x2[None, :] - delta / 2 * x1[:, None])
    return 2 * float(w1 @ (up - dn) @ w2)


def sq_distance(alpha: float) -> float:
    """‖v(α) − v*‖² = 2(1 − cos α) for unit vectors at angle α."""
    return 2 * (1 - math.cos(alpha))


def ratio_scaling(regrets, delta: float, alphas) -> dict:
    """The ratios E[r | v(α)]/((Δ/2)‖v − v*‖²) and the least-squares slope of log E[r | v]
    against log ‖v − v*‖ from the regrets ``regrets`` at the angles ``alphas``; ‖v − v*‖² is
    written 4 sin²(α/2) here (equal to :func:`sq_distance`, without its cancellation at small α,
    ~1e-10 relative at α = 1e-3)."""
    sq = np.array([4 * math.sin(a / 2) ** 2 for a in alphas])
    r = np.asarray(regrets, dtype=float)
    x, y = 0.5 * np.log(sq), np.log(r)
    xc = x - x.mean()
    return {
        "ratio": list(r / (delta / 2 * sq)),
        "slope": float((xc * (y - y.mean())).sum() / (xc * xc).sum()),
    }


def in_plane_ratios(link, delta: float, alphas=ALPHA_GRID) -> tuple:
    """(±α, E[r | v(±α)]/((Δ/2)‖v − v*‖²)) for every α of ``alphas`` and both signs, in d = 2
    (:func:`regret_in_plane`): the ratio bounded by C_gap in eq:error-to-regret."""
    out = []
    for a in alphas:
        for s in (1, -1):
            e = 2 * (1 - math.cos(a))
            out.append((s * a, regret_in_plane(link, delta, s * a) / (delta / 2 * e)))
    return tuple(out)


def tilted_ratios(link, delta: float, out_of_plane: bool) -> dict:
    """The ratio E[r | v]/((Δ/2)‖v − v*‖²) for v tilted in (:func:`regret_in_plane`) or out of
    (:func:`regret_out_of_plane`) the (v*, θ) plane.

    Returns
    -------
    dict
        ``sup`` and its argument ``at`` over :data:`SUP_ALPHAS`, the ratio at the antipode
        (``pi``) and at α = 1e-4 (``small``), and ``slope``: the least-squares slope of
        log E[r | v] against log ‖v − v*‖ over :data:`SLOPE_ALPHAS` (2 for the quadratic scaling).
    """
    regret = regret_out_of_plane if out_of_plane else regret_in_plane

    def ratio(a):
        return regret(link, delta, a) / (delta / 2 * 2 * (1 - math.cos(a)))

    sup_r = [ratio(a) for a in SUP_ALPHAS]
    rs = np.array([regret(link, delta, a) for a in SLOPE_ALPHAS])
    dist = 2 * np.abs(np.sin(SLOPE_ALPHAS / 2))
    i = int(np.argmax(sup_r))
    return dict(
        sup=float(max(sup_r)),
        at=float(SUP_ALPHAS[i]),
        small=ratio(1e-4),
        slope=float(np.polyfit(np.log(dist), np.log(rs), 1)[0]),
        pi=sup_r[-1],
    )


def regret_monte_carlo_z(link, delta: float, alphas, n: int, seed: int) -> tuple:
    """z-scores (Monte Carlo − quadrature)/SE of E[r | v(α)] in d = 2 for each α of ``alphas``,
    from ``n`` standard normal contexts drawn with ``seed`` (the same contexts for every α): a
    check of :func:`regret_in_plane` itself."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2))
    tau = math.sqrt(1 - delta * delta / 4)
    gap = np.abs(
        link.g_numpy(tau * X[:, 1] + delta / 2 * X[:, 0])
        - link.g_numpy(tau * X[:, 1] - delta / 2 * X[:, 0])
    )
    zs = []
    for a in alphas:
        v = np.array([math.cos(a), math.sin(a)])
        r = np.where(np.sign(X @ v) != np.sign(X[:, 0]), gap, 0.0)
        m, se = mean_se(r)
        zs.append(float((m - regret_in_plane(link, delta, a)) / se))
    return tuple(zs)


def refinement_change(link, delta: float, alpha: float, n_ang: int = 48) -> float:
    """|q(n_ang)/q(2 n_ang) − 1|, q(k) = E[r | v(α)] by :func:`regret_in_plane` with k angular
    nodes per wedge: the polar rule's refinement change (its error estimate)."""
    q1 = regret_in_plane(link, delta, alpha, n_ang=n_ang)
    q2 = regret_in_plane(link, delta, alpha, n_ang=2 * n_ang)
    return abs(q1 / q2 - 1)


def disagreement_identities(alpha: float) -> tuple:
    """The exact angular identities of the proof of lem:gaussian-polynomial-disagreement at
    angle α: (P(disagree) = |α|/π, E[|cos Φ| 1_D] = (1 − cos α)/π, E[|v*ᵀX| 1_D] =
    φ0(0)(1 − cos α) = φ0(0)‖v − v*‖²/2)."""
    return abs(alpha) / math.pi, (1 - math.cos(alpha)) / math.pi, PHI0 * (1 - math.cos(alpha))


def identity_values(alphas) -> tuple:
    """(α, P(disagree) by the polar rule, E|cos Φ| 1_D by adaptive quadrature (scipy quad,
    epsabs 1e-14, on the wedges), E|v*ᵀX| 1_D by the polar rule) for every α of ``alphas``: the
    numerical side of :func:`disagreement_identities`."""
    from scipy import integrate

    out = []
    for a in alphas:
        p = polar_expect(lambda x1, x2: np.ones_like(x1), a)
        ang = sum(
            integrate.quad(lambda f: abs(math.cos(f)), lo, hi, epsabs=1e-14)[0]
            for lo, hi in wedges(a)
        ) / (2 * math.pi)
        out.append((a, p, ang, polar_expect(lambda x1, x2: np.abs(x1), a)))
    return tuple(out)


def disagreement_monte_carlo(n: int, seed: int) -> dict:
    """Monte Carlo means and SEs (``n`` contexts, ``seed``) of the disagreement identities in
    d = 5 (random v*, v at α ∈ {0.2, 1.3, 2.8}) and of the weighted disagreement of
    lem:gaussian-polynomial-disagreement in d = 3 with θ = (0, 0.6, 0.8), v* = e1, v = v(α):
    q = 3 at α = 1 and q = 1/2 at α ∈ {0.1, 1}.

    Returns
    -------
    dict
        ``d5``: (α, mean, SE of 1_D, mean, SE of |v*ᵀX| 1_D) per α; ``q3``: (mean, SE);
        ``q05``: (α, mean, SE) per α.
    """
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 5))
    d5 = []
    for a in (0.2, 1.3, 2.8):
        u = rng.standard_normal(5)
        u /= np.linalg.norm(u)
        w = rng.standard_normal(5)
        w -= (w @ u) * u
        w /= np.linalg.norm(w)
        v = math.cos(a) * u + math.sin(a) * w
        dis = np.sign(X @ u) != np.sign(X @ v)
        mp, sp = mean_se(dis.astype(float))
        ma, sa = mean_se(np.abs(X @ u) * dis)
        d5.append((a, float(mp), float(sp), float(ma), float(sa)))
    X = rng.standard_normal((400_000, 3))
    v = np.array([math.cos(1.0), math.sin(1.0), 0.0])
    dis = np.sign(X @ v) != np.sign(X[:, 0])
    q3 = mean_se(
        np.abs(X[:, 0])
        * (1 + np.abs(0.6 * X[:, 1] + 0.8 * X[:, 2]) ** 3 + np.abs(X[:, 0]) ** 3)
        * dis
    )
    q05 = []
    for a in (0.1, 1.0):
        v = np.array([math.cos(a), math.sin(a), 0.0])
        dis = np.sign(X @ v) != np.sign(X[:, 0])
        m, se = mean_se(
            np.abs(X[:, 0])
            * (1 + np.abs(0.6 * X[:, 1] + 0.8 * X[:, 2]) ** 0.5 + np.abs(X[:, 0]) ** 0.5)
            * dis
        )
        q05.append((a, float(m), float(se)))
    return {"d5": tuple(d5), "q3": (float(q3[0]), float(q3[1])), "q05": tuple(q05)}


def weighted_ratios(alphas=ALPHA_GRID) -> dict:
    """{(θ2, θ3, q): (sup, dev, limit)} for θ ∈ {(1, 0), (0, 1), (0.6, 0.8), (0.3, 0.2)} and
    q ∈ {0, 1, 2, 3}: the sup over ±``alphas`` of :func:`disagreement_lhs`/‖v − v*‖², its
    relative deviation from :func:`disagreement_limit` at α = ±1e-4, and the limit."""
    out = {}
    for th2, th3 in ((1.0, 0.0), (0.0, 1.0), (0.6, 0.8), (0.3, 0.2)):
        for q in (0, 1, 2, 3):
            limit = disagreement_limit(th2, th3, q)
            rmax, dev = 0.0, 0.0
            for a in alphas:
                for s in (1, -1):
                    r = disagreement_lhs(th2, th3, q, s * a) / (2 * (1 - math.cos(a)))
                    rmax = max(rmax, r)
                    if a == 1e-4:
                        dev = max(dev, abs(r / limit - 1))
            out[(th2, th3, q)] = (rmax, dev, limit)
    return out


def cq_bound(
    q: float, theta_perp: float, alpha: float | None = None, drop_one: bool = False
) -> float:
    """The proof's bound of lem:gaussian-polynomial-disagreement: C_q per unit ‖v − v*‖²
    (:func:`disagreement_bound_constant`), times ‖v − v*‖² = 2(1 − cos α) when ``alpha`` is given.
    ``drop_one`` writes c_q for (1 + c_q), c_q = max(1, 2^{q−1}) (a claim's formula
    mutant)."""
    cq = max(1.0, 2.0 ** (q - 1))
    c = disagreement_bound_constant(q, theta_perp) * (cq / (1 + cq) if drop_one else 1.0)
    return c if alpha is None else c * 2 * (1 - math.cos(alpha))
