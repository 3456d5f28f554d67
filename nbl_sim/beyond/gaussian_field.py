"""Exact population field for Gaussian contexts N(0, Σ) in any dimension, by 1-D reductions.

With X = Σ^{1/2}Y (:class:`nbl_sim.beyond.field.TransformedField`) it suffices to treat
Y ~ N(0, I_d) with arms β̃_a of any norm n_a = ‖β̃_a‖ and any arm links g_a. For a unit ṽ and
one arm write b = β̃_a/n_a, ρ = bᵀṽ, σ = (1 − ρ²)^{1/2}, w = (ṽ − ρb)/σ, s = bᵀY and
t = wᵀY (independent N(0, 1); the rest of Y is independent of both and centred). Then
(as in nbl_sim.population.fields, now with G(s) = g_a(n_a s))

.. math::

    E[g_a(β̃_a^TY)\\,Y\\,1\\{ṽ^TY ≥ 0\\}] = b\\,E[sG(s)Φ(ρs/σ)] + w\\,E[G(s)φ(ρs/σ)],\\qquad
    E[g_a(β̃_a^TY)1\\{ṽ^TY ≥ 0\\}] = E[G(s)Φ(ρs/σ)],

and the {ṽᵀY < 0} parts are the full expectations (b E[sG], E[G]) minus these. On the
hyperplane ṽᵀY = 0 the law is φ(0)·N(0, P), P = I − ṽṽᵀ; with γ = Pβ̃_a, c = ‖γ‖, γ̂ = γ/c,

.. math:: E[g_a(γ^TY) YY^T] = E[g_a(cs)](P − γ̂γ̂^T) + E[s^2 g_a(cs)]\\,γ̂γ̂^T,

so B(ṽ) = φ(0) Σ_a of that. Every expectation is one Gauss–Legendre sum over s (panels graded
geometrically toward s = 0 where Φ(ρs/σ) is steep as σ → 0, as in nbl_sim.population.fields). Error
estimate: two rules (panel widths 1/4 and 1/8, grading from 1e-12 and 1e-13), |fine − coarse|
plus the link table's error; the fine values are returned.

E max_a m_a with different links is a 2-D Gaussian integral over span(β̃_−, β̃_+), done by
:class:`nbl_sim.beyond.polar.PolarField`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtr

from nbl_theory.errors import NBLInputError
from nbl_theory.numeric import PHI0, gauss_legendre_panels, gauss_legendre_uniform

from .arms import ArmModel
from .field import Estimate, QuadratureField
from .polar import PolarField

__all__ = ["GaussianField"]

_NEGLIGIBLE = math.log(1e-20)
_CHUNK = 2_000_000


def _window(arms: ArmModel, funcs) -> float:
    s = np.arange(0.0, 40.25, 0.25)
    best = None
    for a in (0, 1):
        n = float(np.linalg.norm(arms.beta[a]))
        with np.errstate(all="ignore"):
            g = np.maximum(np.abs(funcs[a](n * s)), np.abs(funcs[a](-n * s)))
            lg = np.log(g) + 2 * np.log1p(s) - 0.5 * s * s
        best = lg if best is None else np.maximum(best, lg)
    keep = np.flatnonzero(best > np.max(best[np.isfinite(best)]) + _NEGLIGIBLE)
    top = float(s[keep[-1]]) + 1.0 if keep.size else 10.0
    if top > 38:
        raise NBLInputError("a link grows too fast: its Gaussian mass is not inside |s| <= 38")
    return math.ceil(max(10.0, top))


def _graded(top: float, width: float, eps: float) -> np.ndarray:
    geo = eps * 2.0 ** np.arange(0, 64)
    geo = geo[geo < 0.25]
    pos = np.concatenate([[0.0], geo, np.arange(0.25, top + 0.5 * width, width)])
    return np.concatenate([-pos[::-1], pos[1:]])


class _Rule:
    def __init__(self, arms: ArmModel, funcs, top: float, width: float, eps: float):
        self.s, w = gauss_legendre_panels(_graded(top, width, eps))
        phi = PHI0 * np.exp(-0.5 * self.s**2)
        self.t, wt = gauss_legendre_uniform(-top, top, width)
        self.wt = wt * PHI0 * np.exp(-0.5 * self.t**2)
        self.norms = np.linalg.norm(arms.beta, axis=1)
        self.dirs = []
        self.wg, self.wsg, self.mean_g, self.mean_sg = [], [], [], []
        for a in (0, 1):
            n = self.norms[a]
            b = arms.beta[a] / n if n > 0 else np.eye(arms.d)[0]
            self.dirs.append(b)
            g = funcs[a](n * self.s)
            self.wg.append(w * phi * g)
            self.wsg.append(w * phi * g * self.s)
            self.mean_g.append(float(np.sum(w * phi * g)))
            self.mean_sg.append(float(np.sum(w * phi * g * self.s)))
        self.funcs = funcs

    def parts(self, a: int, V: np.ndarray):
        """ρ-kernel sums for arm a: (a1, b2, rew) each (k,), and w (k, d)."""
        b = self.dirs[a]
        rho = np.clip(V @ b, -1.0, 1.0)
        r = V - rho[:, None] * b[None, :]
        sig = np.linalg.norm(r, axis=1)
        wdir = np.where(sig[:, None] > 0, r / np.where(sig > 0, sig, 1.0)[:, None], 0.0)
        c = np.clip(rho / np.maximum(sig, 1e-280), -1e250, 1e250)
        k = V.shape[0]
        a1, b2, rew = np.empty(k), np.empty(k), np.empty(k)
        step = max(1, _CHUNK // self.s.size)
        for i in range(0, k, step):
            x = np.clip(c[i : i + step, None] * self.s[None, :], -60.0, 60.0)
            cdf = ndtr(x)
            a1[i : i + step] = cdf @ self.wsg[a]
            rew[i : i + step] = cdf @ self.wg[a]
            b2[i : i + step] = (PHI0 * np.exp(-0.5 * x * x)) @ self.wg[a]
        return a1, b2, rew, wdir

    def field(self, V):
        f = np.zeros_like(V)
        for a in (1, 0):
            a1, b2, _, wdir = self.parts(a, V)
            b = self.dirs[a]
            if a == 1:
                f += a1[:, None] * b + b2[:, None] * wdir
            else:  # − E[g_−(β̃_−ᵀY) Y 1{ṽᵀY < 0}]
                f -= (self.mean_sg[0] - a1)[:, None] * b - b2[:, None] * wdir
        return f

    def reward(self, V):
        _, _, rp, _ = self.parts(1, V)
        _, _, rm, _ = self.parts(0, V)
        return rp + (self.mean_g[0] - rm)

    def boundary(self, V, beta):
        k, d = V.shape
        out = np.zeros((k, d, d))
        eye = np.eye(d)
        for a in (0, 1):
            proj = eye[None] - V[:, :, None] * V[:, None, :]
            gam = np.einsum("kij,j->ki", proj, beta[a])
            c = np.linalg.norm(gam, axis=1)
            gh = np.where(c[:, None] > 0, gam / np.where(c > 0, c, 1.0)[:, None], 0.0)
            gz = self.funcs[a](c[:, None] * self.t[None, :])
            q0 = gz @ self.wt
            q2 = gz @ (self.wt * self.t**2)
            gg = gh[:, :, None] * gh[:, None, :]
            out += q0[:, None, None] * (proj - gg) + q2[:, None, None] * gg
        return PHI0 * out


class GaussianField(QuadratureField):
    """F, B, R for Y ~ N(0, I_d), any d ≥ 2, any arms and arm links (module docstring)."""

    method = "gaussian-1d-reduction"

    def __init__(self, arms: ArmModel):
        funcs = self._set_arms(arms)
        top = _window(arms, funcs)
        self.rules = [_Rule(arms, funcs, top, 0.25, 1e-12), _Rule(arms, funcs, top, 0.125, 1e-13)]

    def _pair(self, fn):
        coarse, fine = fn(self.rules[0]), fn(self.rules[1])
        rounding = 16 * np.finfo(float).eps * (1 + np.abs(fine))
        return Estimate(fine, np.abs(fine - coarse) + 3 * self.table_error + rounding)

    def field(self, V):
        return self._pair(lambda r: r.field(V))

    def boundary(self, V):
        return self._pair(lambda r: r.boundary(V, self.arms.beta))

    def reward(self, V):
        return self._pair(lambda r: r.reward(V))

    def _distinct_optimal(self):
        """E max_a m_a(X) depends on X only through its projection on the arms' plane: the
        2-D Gaussian polar quadrature there."""
        q, _ = np.linalg.qr(self.arms.beta.T)  # (d, 2) orthonormal, ⊇ {β̃_−, β̃_+}
        plane = ArmModel(self.arms.beta @ q, self.arms.links, self.arms.nominal)
        return PolarField("gaussian", plane).optimal_reward()
