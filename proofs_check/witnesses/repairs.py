"""Repaired NBL: the population field of a repaired update from its definition, by the direct
2-D quadrature of :mod:`.beyond` in the *original* coordinates — not the library's construction
of a whitened law, transformed arms or offset links (:mod:`nbl_sim.beyond.repairs`).

A repair runs alg:nbl on X̃ = WX (W = Σ^{-1/2}, or W = I) with rewards Y − b. Its iterate ṽ
lives in the whitened coordinates and plays A = sgn(ṽᵀWX) = sgn(vᵀX) with v ∝ Wṽ. So its
population field is, straight from the update's expectation,

    F̃(ṽ) = E[(m_A(X) − b) A WX] = W (F(v) − b E[sgn(vᵀX) X]),

F the field of eq:Fdef in the original coordinates (:func:`.beyond.field`) and E[sgn(vᵀX)X]
the same half-plane quadrature with m ≡ 1. b is the population Stage I mean reward
½(E m_+ + E m_−), two full-law quadratures. In d = 2, H̃(α) = ṽ_⊥ᵀF̃(ṽ(α)) with ṽ(α) the
optimal whitened normal ṽ* ∝ W^{-1}v* rotated by α; the repaired local rate is −H̃'(0) (the
one-sided fourth-order differences of :func:`.beyond.rate`), and the learned boundary is the
first zero of H̃ in the direction of H̃(0), mapped back to v ∝ Wṽ.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq

from . import beyond as wb

__all__ = [
    "whitening",
    "offset",
    "repaired_H",
    "repaired_rate",
    "repaired_learned_angle",
    "centring_change",
]


def whitening(case: wb.Case, repair: str) -> np.ndarray:
    """W: Σ^{-1/2} of the case's covariance for a whitening repair (identity-covariance laws:
    I), else I. Σ^{-1/2} by the 2 × 2 closed form (√Σ = (Σ + √det I)/√(tr + 2√det))."""
    if not repair.startswith("whitened") or case.law != "gaussian":
        return np.eye(2)
    s = wb.covariance(case)
    det = float(np.linalg.det(s))
    root = (s + math.sqrt(det) * np.eye(2)) / math.sqrt(np.trace(s) + 2 * math.sqrt(det))
    return np.linalg.inv(root)


def offset(case: wb.Case, repair: str) -> float:
    """b = ½(E m_+(X) + E m_−(X)) for a centring repair, else 0."""
    if not repair.endswith("centred"):
        return 0.0
    beta, vs, gm, gp = wb.arms(case)
    n = np.array([math.cos(0.3217), math.sin(0.3217)])
    total = 0.0
    for upper in (True, False):
        x, w = wb.half_plane_rule(case, n, 0.0, upper)
        total += w @ gp(x @ beta[1]) + w @ gm(x @ beta[0])
    return 0.5 * float(total)


def _sign_moment(case: wb.Case, v: np.ndarray) -> np.ndarray:
    xp, wp = wb.half_plane_rule(case, v, 0.0, True)
    xm, wm = wb.half_plane_rule(case, v, 0.0, False)
    return wp @ xp - wm @ xm


def _frame(case: wb.Case, w: np.ndarray) -> float:
    _, vs, _, _ = wb.arms(case)
    t = np.linalg.solve(w, vs)
    return math.atan2(t[1], t[0])


def repaired_H(case: wb.Case, repair: str, alpha: float, w=None, b=None) -> float:
    """H̃(α) of the repaired update (module docstring), α in radians from ṽ*."""
    w = whitening(case, repair) if w is None else w
    b = offset(case, repair) if b is None else b
    a = _frame(case, w) + alpha
    vt, vtp = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    v = w @ vt
    v /= np.linalg.norm(v)
    rel = math.atan2(v[1], v[0]) - math.radians(case.rotate_deg)
    f = wb.field(case, rel)
    if b:
        f = f - b * _sign_moment(case, v)
    return float(vtp @ (w @ f))


def repaired_rate(case: wb.Case, repair: str, h: float = 1e-3, b_scale: float = 1.0) -> float:
    """−H̃'(0): the mean of the two one-sided fourth-order differences (as :func:`.beyond.rate`).

    ``b_scale`` multiplies the reward offset b (1: the repair's own; a witness mutant breaks it).
    """
    w, b = whitening(case, repair), offset(case, repair) * b_scale
    hk = [repaired_H(case, repair, k * h, w, b) for k in range(5)]
    hm = [repaired_H(case, repair, -k * h, w, b) for k in range(5)]
    c = (-25, 48, -36, 16, -3)
    right = sum(ci * v for ci, v in zip(c, hk)) / (12 * h)
    left = -sum(ci * v for ci, v in zip(c, hm)) / (12 * h)
    return -0.5 * (right + left)


def repaired_learned_angle(case: wb.Case, repair: str, xtol: float = 1e-12) -> float:
    """The boundary the repaired flow reaches from ṽ* (first zero of H̃ in the direction of
    H̃(0), 1° scan, brentq), as the signed angle of v ∝ Wṽ from v* in degrees; 0 when
    H̃(0) = 0 to 1e-13 (v* is an equilibrium)."""
    w, b = whitening(case, repair), offset(case, repair)

    def hf(x):
        return repaired_H(case, repair, x, w, b)

    h0 = hf(0.0)
    if abs(h0) <= 1e-13:
        return 0.0
    sgn = 1.0 if h0 > 0 else -1.0
    a, fa = 0.0, h0
    step = math.radians(1.0)
    fb, b_ = fa, a
    for _ in range(360):
        b_ = a + sgn * step
        fb = hf(b_)
        if fa * fb <= 0:
            break
        a, fa = b_, fb
    z = b_ if fb == 0 else brentq(hf, min(a, b_), max(a, b_), xtol=xtol)
    t = _frame(case, w) + z
    v = w @ np.array([math.cos(t), math.sin(t)])
    _, vs, _, _ = wb.arms(case)
    return math.degrees(math.atan2(vs[0] * v[1] - vs[1] * v[0], vs @ v))


def centring_change(case: wb.Case, angles=(0.0, 0.3, -1.1, 2.0)) -> float:
    """max over ``angles`` (radians from ṽ*) of |H̃_centred(α) − H̃_plain(α)|: what centring the
    rewards changes in the tangent field (0 up to rounding when E[sgn(vᵀX) X] is radial)."""
    return max(abs(repaired_H(case, "centred", a) - repaired_H(case, "plain", a)) for a in angles)
