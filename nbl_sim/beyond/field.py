"""The population field of greedy NBL under any context law and any two arms.

For a unit v (sec:nbl, eq:Fdef, with per-arm means m_a(x) = g_a(β_aᵀx)):

.. math::

    F(v) &= E[m_+(X) X 1\\{v^TX ≥ 0\\} − m_−(X) X 1\\{v^TX < 0\\}],\\quad h(v) = (I − vv^T)F(v),\\\\
    B(v) &= E[(m_+ + m_−)(X)\\, X X^T δ(v^TX)],\\qquad R(v) = E[m_{\\mathrm{sgn}(v^TX)}(X)].

B is the derivative of F along the sphere: d/dε F(v + εu)|₀ = B(v)u for u ⊥ v (the moving
half-space contributes X(uᵀX)δ(vᵀX) with weight m_+ for the arm gained and m_− for the arm
lost). So the Jacobian of h on T_v S^{d−1} at an equilibrium (F(v) = κv) is

.. math:: Dh(v)[u] = P_v B(v) u − κ u, \\qquad κ = v^TF(v),

a *symmetric* operator (h is the Riemannian gradient of J): its spectrum is real. For
N(0, I_d) and the paper's arms, B(v*) = 2φ₀(0)(m₀P + m₂θθᵀ) and κ = κ* = 2φ₀(0)m₀ + Δμ*,
which is eq:Jacobian. R(v) is the expected reward of the boundary v (regret = E max_a m_a − R).

A :class:`FieldModel` evaluates F, B, R for batches of unit rows V (k, d) and returns
:class:`Estimate` pairs (value, error). What the error means is the model's ``error_kind``:

* ``"quadrature"`` — |fine − coarse| of two resolutions (plus the link table's error);
* ``"rounding"`` — exact finite sums (discrete laws), error a rounding bound;
* ``"standard-error"`` — Monte Carlo (i.i.d. samples or the rows of a dataset): one standard
  error of the sample mean (CLT); B (and, with a bandwidth, F and R) are kernel-smoothed.

Laws X = A Y (nbl_sim.beyond.contexts) reduce to their base law Y with the arms β̃_a = Aᵀβ_a:
vᵀX = (Aᵀv)ᵀY, so with ṽ = Aᵀv/‖Aᵀv‖,
F_X(v) = A F_Y(ṽ), B_X(v) = A B_Y(ṽ) Aᵀ/‖Aᵀv‖, R_X(v) = R_Y(ṽ) (:class:`TransformedField`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr

from nbl_theory.errors import NBLInputError
from nbl_theory.numeric import PHI0

from .arms import ArmModel
from .linkeval import fast_g

__all__ = [
    "Estimate",
    "FieldModel",
    "QuadratureField",
    "TransformedField",
    "SampleField",
    "silverman_bandwidth",
]

_CHUNK = 4_000_000  # max (directions × points) entries per block
_EPS = np.finfo(float).eps


@dataclass(frozen=True)
class Estimate:
    """A computed value and its absolute error (meaning: the model's ``error_kind``)."""

    value: np.ndarray
    error: np.ndarray


class FieldModel:
    """Interface: ``d``, ``method``, ``error_kind``, ``field``, ``boundary``, ``reward``,
    ``optimal_reward``, ``regret``; every method takes unit rows V of shape (k, d)."""

    d: int
    method = "?"
    error_kind = "?"
    arms: ArmModel

    def field(self, V) -> Estimate:  # pragma: no cover - interface
        raise NotImplementedError

    def boundary(self, V) -> Estimate:  # pragma: no cover - interface
        raise NotImplementedError

    def reward(self, V) -> Estimate:  # pragma: no cover - interface
        raise NotImplementedError

    def optimal_reward(self) -> Estimate:  # pragma: no cover - interface
        raise NotImplementedError

    def regret(self, V) -> Estimate:
        """E[max_a m_a(X)] − R(v) (module docstring of nbl_sim.beyond.arms)."""
        r, o = self.reward(V), self.optimal_reward()
        return Estimate(o.value - r.value, o.error + r.error)

    def describe(self) -> dict:
        return {"method": self.method, "error_kind": self.error_kind}


class QuadratureField(FieldModel):
    """The part the quadrature models share: arm links evaluated through :func:`fast_g`
    tables (``table_error`` their worst error) and E[max_a m_a(X)] computed once — from the
    reward at v* for one shared link, else by the model's :meth:`_distinct_optimal`."""

    error_kind = "quadrature"

    def _set_arms(self, arms: ArmModel) -> tuple:
        """Store ``arms`` (and d); the fast evaluators of the two arm links."""
        self.arms, self.d = arms, arms.d
        self._optimal = None
        funcs = tuple(fast_g(g) for g in arms.links)
        self.table_error = max(f.table_error for f in funcs)
        return funcs

    def _distinct_optimal(self) -> Estimate:  # pragma: no cover - interface
        raise NotImplementedError

    def optimal_reward(self):
        """E max_a m_a(X) (computed once)."""
        if self._optimal is None:
            if self.arms.shared:
                r = self.reward(self.arms.v_star[None, :])
                self._optimal = Estimate(r.value[0], r.error[0])
            else:
                self._optimal = self._distinct_optimal()
        return self._optimal


class TransformedField(FieldModel):
    """The field of X = A Y from the field of Y (module docstring)."""

    def __init__(self, base: FieldModel, a: np.ndarray):
        self.base, self.a = base, np.asarray(a, dtype=float)
        self.d = base.d
        self.method, self.error_kind = base.method, base.error_kind
        self.arms = base.arms

    def _tilde(self, V):
        w = V @ self.a  # rows (Aᵀv)ᵀ
        n = np.linalg.norm(w, axis=1)
        return w / n[:, None], n

    def field(self, V):
        vt, _ = self._tilde(V)
        e = self.base.field(vt)
        return Estimate(e.value @ self.a.T, e.error @ np.abs(self.a).T)

    def boundary(self, V):
        vt, n = self._tilde(V)
        e = self.base.boundary(vt)
        aa = np.abs(self.a)
        val = np.einsum("ij,kjl,ml->kim", self.a, e.value, self.a) / n[:, None, None]
        err = np.einsum("ij,kjl,ml->kim", aa, e.error, aa) / n[:, None, None]
        return Estimate(val, err)

    def reward(self, V):
        vt, _ = self._tilde(V)
        return self.base.reward(vt)

    def optimal_reward(self):
        return self.base.optimal_reward()

    def regret(self, V):
        vt, _ = self._tilde(V)
        return self.base.regret(vt)

    def describe(self):
        return {**self.base.describe(), "transform": self.a.tolist()}


def silverman_bandwidth(n: int, scale: float = 1.0) -> float:
    """1.06 · scale · n^{−1/5}: Silverman's rule for a Gaussian kernel on vᵀX."""
    return 1.06 * scale * n**-0.2


class SampleField(FieldModel):
    """Finite sums over points x_i with weights w_i.

    ``kind="exact"``: the points *are* the law (Rademacher atoms, a dataset taken as the
    population); errors are rounding bounds. ``kind="monte-carlo"``: the points are an i.i.d.
    sample (or a dataset taken as a sample of its population); errors are one standard error.

    ``bandwidth`` b ≥ 0 smooths the decision in the field: 1{vᵀx ≥ 0} → Φ(vᵀx/b),
    δ(vᵀx) → φ(vᵀx/b)/b, so F and B are those of a smoothed law and B is exactly the derivative
    of F (bias O(b²); with b = 0, B = 0 — a law with no mass on the boundary moves no decision
    when the boundary moves, and F is piecewise constant in v). Rewards and regrets are always
    those of the hard boundary sgn(vᵀx), the policy that is played.
    """

    def __init__(
        self, points, weights, arms: ArmModel, bandwidth: float = 0.0, kind: str = "exact"
    ):
        if kind not in ("exact", "monte-carlo"):
            raise NBLInputError(f"kind must be 'exact' or 'monte-carlo', got {kind!r}")
        x = np.asarray(points, dtype=float)
        if x.ndim != 2 or x.shape[1] != arms.d:
            raise NBLInputError(f"points must have shape (n, {arms.d}), got {x.shape}")
        w = np.asarray(weights, dtype=float)
        if w.shape != (x.shape[0],) or np.any(w < 0) or not np.isclose(w.sum(), 1.0):
            raise NBLInputError("weights must be non-negative, one per point, summing to 1")
        if not (np.isfinite(bandwidth) and bandwidth >= 0):
            raise NBLInputError(f"bandwidth must be >= 0, got {bandwidth}")
        self.x, self.w, self.arms, self.d = x, w, arms, arms.d
        self.bandwidth = float(bandwidth)
        self.kind = kind
        self.n = x.shape[0]
        self.m = arms.means(x)  # (n, 2)
        self.method = "exact-sum" if kind == "exact" else "monte-carlo"
        self.error_kind = "rounding" if kind == "exact" else "standard-error"

    # weighted mean and its error of per-point terms t (k, n) times features (n, p)
    def _mean(self, t: np.ndarray, feats: np.ndarray | None):
        w = self.w
        if feats is None:
            val = t @ w
            sq = (t * t) @ w
            absval = np.abs(t) @ w
        else:
            val = (t * w) @ feats
            sq = (t * t * w) @ (feats * feats)
            absval = (np.abs(t) * w) @ np.abs(feats)
        if self.kind == "monte-carlo":
            err = np.sqrt(np.maximum(sq - val * val, 0.0) / self.n)
        else:
            err = 8 * _EPS * np.sqrt(self.n) * absval + 1e-300
        return val, err

    def _blocks(self, V):
        step = max(1, _CHUNK // max(1, self.n))
        for i in range(0, V.shape[0], step):
            yield slice(i, i + step), V[i : i + step] @ self.x.T

    def _side(self, u):
        if self.bandwidth == 0:
            return (u >= 0).astype(float)
        return ndtr(u / self.bandwidth)

    def field(self, V):
        val = np.empty((V.shape[0], self.d))
        err = np.empty_like(val)
        mm, mp = self.m[:, 0], self.m[:, 1]
        for sl, u in self._blocks(V):
            s = self._side(u)
            t = mp * s - mm * (1 - s)
            val[sl], err[sl] = self._mean(t, self.x)
        return Estimate(val, err)

    def boundary(self, V):
        k, d = V.shape[0], self.d
        if self.bandwidth == 0:
            z = np.zeros((k, d, d))
            return Estimate(z, z.copy())
        outer = (self.x[:, :, None] * self.x[:, None, :]).reshape(self.n, d * d)
        val = np.empty((k, d * d))
        err = np.empty_like(val)
        msum = self.m.sum(axis=1)
        b = self.bandwidth
        for sl, u in self._blocks(V):
            t = msum * (PHI0 / b) * np.exp(-0.5 * (u / b) ** 2)
            val[sl], err[sl] = self._mean(t, outer)
        return Estimate(val.reshape(k, d, d), err.reshape(k, d, d))

    def reward(self, V):
        """R(v) of the *hard* boundary (ties to arm +1), whatever the bandwidth: the reward of
        the policy sgn(vᵀx) that is actually played."""
        val = np.empty(V.shape[0])
        err = np.empty_like(val)
        mm, mp = self.m[:, 0], self.m[:, 1]
        for sl, u in self._blocks(V):
            s = u >= 0
            val[sl], err[sl] = self._mean(np.where(s, mp, mm), None)
        return Estimate(val, err)

    def optimal_reward(self):
        v, e = self._mean(np.max(self.m, axis=1)[None, :], None)
        return Estimate(v[0], e[0])

    def regret(self, V):
        """Paired: the per-point regret max_a m_a − m_{sgn(vᵀx)} of the hard boundary is
        averaged (smaller error than the difference of two means)."""
        val = np.empty(V.shape[0])
        err = np.empty_like(val)
        mm, mp = self.m[:, 0], self.m[:, 1]
        best = np.max(self.m, axis=1)
        for sl, u in self._blocks(V):
            val[sl], err[sl] = self._mean(best - np.where(u >= 0, mp, mm), None)
        return Estimate(val, err)

    def describe(self):
        return {**super().describe(), "points": self.n, "bandwidth": self.bandwidth}
