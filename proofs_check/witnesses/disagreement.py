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

__all__ = ["RADIAL_NODES", "wedges", "polar_expect", "regret_in_plane", "error_to_regret_limit",
           "disagreement_lhs", "disagreement_limit", "disagreement_bound_constant",
           "gap_profile", "regret_out_of_plane", "error_to_regret_limit_perp", "mean_gap"]

#: Radial nodes and weights of the polar rule: 16-node Gauss–Legendre on panels of width 0.5
#: on [0, 12] (the χ_2 mass beyond 12 is e^{-72}).
RADIAL_NODES = gauss_legendre_uniform(0.0, 12.0, 0.5)
_LINE = gauss_legendre_uniform(-12.0, 12.0, 0.25)      # 1-D rule for the α → 0 limits


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
        return np.abs(link.g_numpy(tau * x2 + delta / 2 * x1)
                      - link.g_numpy(tau * x2 - delta / 2 * x1))
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
    return PHI0 / 2 * float((wg * phi * xg * xg * (
        1 + abs_moment(theta2 * xg, theta3, q) + (1.0 if q == 0 else 0.0))).sum())


def disagreement_bound_constant(q: float, theta_perp: float) -> float:
    """The explicit constant of the proof of lem:gaussian-polynomial-disagreement: LHS ≤
    (1 + c_q) E[R(1 + R^q + |U|^q)] ‖v − v*‖²/(2π), c_q = max(1, 2^{q−1}), R ~ χ_2,
    U ~ N(0, ‖θ⊥‖²) independent of R (moments in closed form)."""
    cq = max(1.0, 2.0 ** (q - 1))
    ER = math.sqrt(math.pi / 2)
    ERq1 = 2 ** ((1 + q) / 2) * math.gamma((3 + q) / 2)
    EUq = 1.0 if q == 0 else theta_perp ** q * 2 ** (q / 2) * math.gamma((q + 1) / 2) / math.sqrt(
        math.pi)
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
