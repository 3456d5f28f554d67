"""Exact 2-D population analysis for a context law with a density, by polar quadrature.

In d = 2 write Y = r e_φ, e_φ = (cos φ, sin φ). For the base laws of
:mod:`nbl_sim.beyond.contexts` (isotropic: Gaussian, Student-t, ball; and the cube) every
quantity of :mod:`nbl_sim.beyond.field` is an *angular* integral of four ray functions

.. math::

    ψ_a(φ) = \\int_0^{r_{\\max}(φ)} g_a(r\\,β_a^Te_φ)\\, p(r e_φ)\\, r^2\\,dr,\\qquad
    ω_a(φ) = \\int_0^{r_{\\max}(φ)} g_a(r\\,β_a^Te_φ)\\, p(r e_φ)\\, r\\,dr,

because the half-plane {vᵀY ≥ 0}, v = e_α, is the arc φ ∈ [α − π/2, α + π/2]:

.. math::

    F(e_α) = \\int_{α−π/2}^{α+π/2} e_φ ψ_+\\,dφ − \\int_{α+π/2}^{α+3π/2} e_φ ψ_−\\,dφ,\\qquad
    R(e_α) = \\int_{α−π/2}^{α+π/2} ω_+\\,dφ + \\int_{α+π/2}^{α+3π/2} ω_−\\,dφ,

and the boundary line {vᵀY = 0} is the two rays α ± π/2, so B(e_α) = b(α) v_⊥v_⊥ᵀ with
b(α) = Σ_± (ψ_+ + ψ_−)(α ± π/2). Hence H(α) = v_⊥ᵀF and H'(α) = b(α) − vᵀF
(app:local_stability_in_2D) for every α from one table.

Rule. The radial integrals are composite Gauss–Legendre (16 nodes a panel) in a variable t:
Gaussian r = t ∈ [0, S] (S where |g|r²φ is below 1e-20 of its peak, ≥ 12); ball r = t ∈
[0, 2]; cube r = t·r_max(φ), t ∈ [0, 1]; Student-t r = (ν − 2)^{1/2} tan t, t ∈ [0, π/2), which
turns the density into cos^{ν+2}t (the weight becomes sin^k t cos^{ν−k} t), with panels graded
geometrically toward π/2. The angular functions e_φψ_a, ω_a, ψ_a are sampled at 16
Gauss–Legendre nodes on each of ``n_panels`` equal arcs (edges at multiples of 2π/n_panels,
which contain the cube's corner directions ±π/4, ±3π/4 where ψ has kinks; for the Student-t
law also the directions β_aᵀe_φ = 0, where ψ_a is not smooth, with arcs graded geometrically
toward them) and replaced by their Legendre interpolants, integrated exactly: arcs with
arbitrary ends cost one antiderivative evaluation. Error estimate: the same rule at two
resolutions — every arc halved and every radial panel halved — |fine − coarse|, plus the link
table's measured error; the fine values are returned.

E max_a m_a (the optimal reward) with different links: on every ray the radial panels are split
where m_+ − m_− changes sign (located by bisection) so the kink of the max is a panel edge.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.polynomial import legendre as leg

from nbl_theory.errors import NBLInputError
from nbl_theory.numeric import gauss_legendre_panels

from .arms import ArmModel
from .field import Estimate, QuadratureField
from .linkeval import growth_exponent

__all__ = ["PolarField", "POLAR_BASES"]

POLAR_BASES = ("gaussian", "student-t", "ball", "cube")
_ORDER = 16
_XG, _WG = leg.leggauss(_ORDER)
# Legendre coefficients from values at the nodes: c_n = (2n+1)/2 Σ_j w_j f(x_j) P_n(x_j)
_PN = leg.legvander(_XG, _ORDER - 1)  # (node, n)
_TO_COEF = (_PN * _WG[:, None]).T * ((2 * np.arange(_ORDER) + 1) / 2)[:, None]  # (n, node)
_NEGLIGIBLE = math.log(1e-20)


def _legendre_values(x: np.ndarray, n: int) -> np.ndarray:
    """P_0..P_{n−1} at x: (len(x), n)."""
    out = np.empty((x.size, n))
    out[:, 0] = 1.0
    if n > 1:
        out[:, 1] = x
    for k in range(2, n):
        out[:, k] = ((2 * k - 1) * x * out[:, k - 1] - (k - 1) * out[:, k - 2]) / k
    return out


class _Radial:
    """Radial rule in t for one base law: nodes/weights, r(t, φ) and W_k(t, φ) = w p r^k dr/dt."""

    def __init__(self, base: str, level: int, nu: float | None, s_max: float):
        self.base = base
        if base == "gaussian":
            edges = np.arange(0.0, s_max + 1e-9, 1.0 / level)
        elif base == "ball":
            edges = np.linspace(0.0, 2.0, 4 * level + 1)
        elif base == "cube":
            edges = np.linspace(0.0, 1.0, 4 * level + 1)
        else:  # student-t, u ∈ [0, π/2)
            top = math.pi / 2 - math.pi / 16
            uni = np.linspace(0.0, top, 7 * level + 1)
            geo = math.pi / 2 - (math.pi / 16) * 2.0 ** -np.arange(1, 31)
            edges = np.concatenate([uni, geo])
        self.edges = edges
        self.t, self.w = gauss_legendre_panels(edges)
        self.nu = nu

    def r_scale(self, phi: np.ndarray) -> np.ndarray:
        if self.base == "cube":
            return math.sqrt(3.0) / np.maximum(np.abs(np.cos(phi)), np.abs(np.sin(phi)))
        return np.ones_like(phi)

    def r_of(self, t: np.ndarray, scale: np.ndarray) -> np.ndarray:
        """r at nodes t (…, n_t) on rays with r_scale ``scale`` (…, 1)."""
        if self.base == "student-t":
            return math.sqrt(self.nu - 2) * np.tan(t) * scale
        return t * scale

    def weights(self, t: np.ndarray, w: np.ndarray, scale: np.ndarray, k: int) -> np.ndarray:
        """W_k = w p(r) r^k dr/dt."""
        if self.base == "gaussian":
            return w * np.exp(-0.5 * t * t) / (2 * math.pi) * t**k
        if self.base == "ball":
            return w / (4 * math.pi) * t**k
        if self.base == "cube":
            r = t * scale
            return w / 12.0 * r**k * scale
        nu = self.nu
        a = math.sqrt(nu - 2)
        s2 = (nu - 2) / nu
        return w * a ** (k + 1) / (2 * math.pi * s2) * np.sin(t) ** k * np.cos(t) ** (nu - k)


class _Level:
    """One resolution: ray functions on the angular nodes and their Legendre antiderivatives."""

    def __init__(self, radial: _Radial, betas: np.ndarray, funcs, edges: np.ndarray):
        self.radial, self.betas, self.funcs = radial, betas, funcs
        self.edges = edges
        self.n = self.edges.size - 1
        self.hw = 0.5 * np.diff(self.edges)  # (P,)
        self.centers = 0.5 * (self.edges[:-1] + self.edges[1:])
        self.phi = (self.centers[:, None] + self.hw[:, None] * _XG[None, :]).ravel()
        self.wphi = (self.hw[:, None] * _WG[None, :]).ravel()
        scale = radial.r_scale(self.phi)[:, None]
        self.scale = scale
        r = radial.r_of(radial.t[None, :], scale)
        w2 = radial.weights(radial.t[None, :], radial.w[None, :], scale, 2)
        w1 = radial.weights(radial.t[None, :], radial.w[None, :], scale, 1)
        e = np.stack([np.cos(self.phi), np.sin(self.phi)], axis=1)
        psi, omega, self.G = [], [], []
        for a in (0, 1):
            c = e @ betas[a]
            gz = funcs[a](r * c[:, None])
            self.G.append(gz)
            psi.append(np.sum(gz * w2, axis=1))
            omega.append(np.sum(gz * w1, axis=1))
        self.w1 = w1
        vals = np.stack(
            [
                psi[0] * e[:, 0],
                psi[0] * e[:, 1],
                psi[1] * e[:, 0],
                psi[1] * e[:, 1],
                omega[0],
                omega[1],
                psi[0] + psi[1],
            ]
        )  # (7, n_ang)
        v = vals.reshape(7, self.n, _ORDER)
        self.coef = np.einsum("nj,fpj->fpn", _TO_COEF, v)  # (7, P, ORDER)
        self.icoef = leg.legint(self.coef, lbnd=-1, axis=-1)  # in x; times hw for φ
        full = self.hw[None, :] * 2 * self.coef[..., 0]  # panel integrals
        self.cum = np.concatenate([np.zeros((7, 1)), np.cumsum(full, axis=1)], axis=1)
        self.total = self.cum[:, -1]

    def _locate(self, phi: np.ndarray):
        k = np.floor((phi + math.pi) / (2 * math.pi))
        p0 = phi - 2 * math.pi * k
        idx = np.clip(np.searchsorted(self.edges, p0, side="right") - 1, 0, self.n - 1)
        x = (p0 - self.centers[idx]) / self.hw[idx]
        return k, idx, x

    def antider(self, fs, phi: np.ndarray) -> np.ndarray:
        """∫_{−π}^{φ} f (periodic extension) for the functions ``fs``: (len(fs), k)."""
        k, idx, x = self._locate(phi)
        pv = _legendre_values(x, _ORDER + 1)
        part = np.einsum("kn,fkn->fk", pv, self.icoef[fs][:, idx, :]) * self.hw[idx]
        return k[None, :] * self.total[fs, None] + self.cum[fs][:, idx] + part

    def value(self, f: int, phi: np.ndarray) -> np.ndarray:
        _, idx, x = self._locate(phi)
        pv = _legendre_values(x, _ORDER)
        return np.einsum("kn,kn->k", pv, self.coef[f][idx])

    def arcs(self, alpha: np.ndarray):
        lo, mid, hi = alpha - math.pi / 2, alpha + math.pi / 2, alpha + 1.5 * math.pi
        a = self.antider([0, 1, 2, 3, 4, 5], np.concatenate([lo, mid, hi]))
        k = alpha.size
        plus = a[:, k : 2 * k] - a[:, :k]  # over [α − π/2, α + π/2]
        minus = a[:, 2 * k :] - a[:, k : 2 * k]  # over [α + π/2, α + 3π/2]
        return plus, minus

    def field(self, alpha):
        plus, minus = self.arcs(alpha)
        return np.stack([plus[2] - minus[0], plus[3] - minus[1]], axis=1)

    def reward(self, alpha):
        plus, minus = self.arcs(alpha)
        return plus[5] + minus[4]

    def bline(self, alpha):
        return self.value(6, alpha + math.pi / 2) + self.value(6, alpha - math.pi / 2)

    def expected_max(self) -> float:
        """E max(m_−, m_+) with the radial panels split where m_+ − m_− changes sign."""
        rad, betas, funcs = self.radial, self.betas, self.funcs
        diff = self.G[1] - self.G[0]
        best = np.sum(np.maximum(self.G[0], self.G[1]) * self.w1, axis=1)
        e = np.stack([np.cos(self.phi), np.sin(self.phi)], axis=1)
        c = e @ betas.T  # (n_ang, 2)
        d0 = funcs[1](np.zeros(1))[0] - funcs[0](np.zeros(1))[0]
        lead = np.concatenate([np.full((diff.shape[0], 1), d0), diff], axis=1)
        tt = np.concatenate([[rad.edges[0]], rad.t])
        ray, j = np.nonzero(np.sign(lead[:, :-1]) * np.sign(lead[:, 1:]) < 0)
        if ray.size:
            lo, hi = tt[j].copy(), tt[j + 1].copy()
            sgn_lo = np.sign(lead[ray, j])
            sc = self.scale[ray]
            for _ in range(60):
                mid = 0.5 * (lo + hi)
                r = rad.r_of(mid[:, None], sc)[:, 0]
                dm = funcs[1](r * c[ray, 1]) - funcs[0](r * c[ray, 0])
                left = np.sign(dm) == sgn_lo
                lo = np.where(left, mid, lo)
                hi = np.where(left, hi, mid)
            roots = 0.5 * (lo + hi)
            for q in np.unique(ray):
                edges = np.union1d(rad.edges, roots[ray == q])
                t, w = gauss_legendre_panels(edges)
                s = self.scale[q : q + 1]
                r = rad.r_of(t[None, :], s)[0]
                gm = funcs[0](r * c[q, 0])
                gp = funcs[1](r * c[q, 1])
                best[q] = np.sum(np.maximum(gm, gp) * rad.weights(t, w, s[0], 1))
        return float(best @ self.wphi)


def _angular_edges(n_panels: int, betas) -> np.ndarray:
    """Coarse angular panel edges: n_panels equal arcs from −π (they contain ±π/4, ±3π/4, the
    cube's corner directions), plus, for each β in ``betas``, the two directions with
    βᵀe_φ = 0 and edges graded geometrically toward them (w·2^{−j}, j = 1…8, w = one arc).
    For a heavy-tailed law ψ_a is not smooth there (the far tail of the ray sees g(±∞), so
    ψ_a − ψ_a(φ₀) ∝ |βᵀe_φ|^{ν−1}, up to a log), and the grading restores full accuracy."""
    edges = [np.linspace(-math.pi, math.pi, n_panels + 1)]
    w = 2 * math.pi / n_panels
    grade = w * 2.0 ** -np.arange(1, 9)
    for b in betas:
        if np.linalg.norm(b) == 0:
            continue
        for sgn in (-1, 1):
            c = math.remainder(math.atan2(b[1], b[0]) + sgn * math.pi / 2, 2 * math.pi)
            pts = np.concatenate([[c], c - grade, c + grade])
            edges.append(np.mod(pts + math.pi, 2 * math.pi) - math.pi)
    out = np.unique(np.concatenate(edges))
    out = out[(out > -math.pi) & (out < math.pi)]
    out = np.concatenate([[-math.pi], out, [math.pi]])
    keep = np.concatenate([[True], np.diff(out) > 1e-14])  # drop near-duplicates
    out = out[keep]
    out[-1] = math.pi
    return out


def _gaussian_window(arms: ArmModel, funcs) -> float:
    """S ≥ 12 beyond which |g_a(±‖β_a‖r)| r² φ(r) < 1e-20 of its peak; refuse beyond 38."""
    r = np.arange(0.0, 40.25, 0.25)
    logs = []
    for a in (0, 1):
        nrm = float(np.linalg.norm(arms.beta[a]))
        with np.errstate(all="ignore"):
            g = np.maximum(np.abs(funcs[a](nrm * r)), np.abs(funcs[a](-nrm * r)))
            logs.append(np.log(g) + 2 * np.log1p(r) - 0.5 * r * r)
    lg = np.maximum(*logs)
    keep = np.flatnonzero(lg > np.max(lg[np.isfinite(lg)]) + _NEGLIGIBLE)
    top = float(r[keep[-1]]) + 1.0 if keep.size else 12.0
    if top > 38:
        raise NBLInputError(
            "a link grows too fast: its Gaussian mass is not inside r <= 38, "
            "beyond the float64 polar quadrature"
        )
    return math.ceil(max(12.0, top))


class PolarField(QuadratureField):
    """F, B, R of a 2-D base law (``"gaussian"``, ``"student-t"`` with ``nu``, ``"ball"``,
    ``"cube"``, all of identity covariance) by polar quadrature (module docstring).

    ``arms`` are the arms *as seen by the base law* (use :class:`TransformedField` for
    X = A Y). ``n_panels`` (multiple of 8, ≥ 8) is the coarse angular resolution.
    """

    method = "polar-quadrature"

    def __init__(self, base: str, arms: ArmModel, nu: float | None = None, n_panels: int = 16):
        if base not in POLAR_BASES:
            raise NBLInputError(f"polar quadrature base must be one of {POLAR_BASES}, got {base!r}")
        if arms.d != 2:
            raise NBLInputError(f"polar quadrature is for d = 2, got d = {arms.d}")
        if (
            isinstance(n_panels, bool)
            or not isinstance(n_panels, int)
            or n_panels < 8
            or n_panels % 8
        ):
            raise NBLInputError(f"n_panels must be a positive multiple of 8, got {n_panels!r}")
        self.base = base
        funcs = self._set_arms(arms)
        s_max = 12.0
        if base == "gaussian":
            s_max = _gaussian_window(arms, funcs)
        if base == "student-t":
            k = max(growth_exponent(g) for g in arms.links)
            if not nu > k + 1:
                raise NBLInputError(
                    f"student-t: a link grows like |z|^{k:.3g}; the field "
                    f"needs nu > {k + 1:.3g}, got nu = {nu}"
                )
        coarse = _angular_edges(n_panels, arms.beta if base == "student-t" else ())
        fine = np.sort(np.concatenate([coarse, 0.5 * (coarse[:-1] + coarse[1:])]))
        self.levels = [
            _Level(_Radial(base, lvl, nu, s_max), arms.beta, funcs, edges)
            for lvl, edges in ((1, coarse), (2, fine))
        ]

    @staticmethod
    def _alpha(V):
        return np.arctan2(V[:, 1], V[:, 0])

    def _pair(self, fn):
        coarse, fine = fn(self.levels[0]), fn(self.levels[1])
        rounding = 16 * np.finfo(float).eps * (1 + np.abs(fine))
        return fine, np.abs(fine - coarse) + 3 * self.table_error + rounding

    def field(self, V):
        al = self._alpha(V)
        return Estimate(*self._pair(lambda lv: lv.field(al)))

    def boundary(self, V):
        al = self._alpha(V)
        b, e = self._pair(lambda lv: lv.bline(al))
        vp = np.stack([-np.sin(al), np.cos(al)], axis=1)
        outer = vp[:, :, None] * vp[:, None, :]
        return Estimate(b[:, None, None] * outer, e[:, None, None] * np.abs(outer))

    def reward(self, V):
        al = self._alpha(V)
        return Estimate(*self._pair(lambda lv: lv.reward(al)))

    def _distinct_optimal(self):
        """E max_a m_a(X) by splitting every ray where the arms cross (the costly part, done
        once by :meth:`optimal_reward`)."""
        return Estimate(*self._pair(lambda lv: lv.expected_max()))

    def regret(self, V):
        """E max − R(v) with errors of the two terms added (shared link: R(v*) − R(v), both
        from the same antiderivative tables)."""
        return super().regret(V)

    def describe(self):
        return {
            **super().describe(),
            "base": self.base,
            "angular_nodes": [lv.phi.size for lv in self.levels],
            "radial_nodes": [lv.radial.t.size for lv in self.levels],
            "link_table_error": self.table_error,
        }
