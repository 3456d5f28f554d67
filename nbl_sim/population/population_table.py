"""The population field F and the tangent field h of :mod:`nbl_sim.population.fields` at many
directions at once, from a table of the 1-D reduction's two integrals in one angle.

F(v) = Σ_a (β_a a_1(c_a) + w_a b_2(c_a)) − μ_g β_−, c_a = ρ_a/σ_a (eq:Fdef through the exact
1-D reduction of :mod:`nbl_sim.population.fields`): the direction enters only through ρ_a, σ_a, w_a,
and the link only through the two functions a_1(c) = E[s g(s) Φ(cs)], b_2(c) = E[g(s) φ(cs)] of
one variable. In the angle θ = atan2(ρ, σ) ∈ [−π/2, π/2] (c = tan θ) both are smooth on the
closed interval: at ±π/2 (v → ±β_a) a_1 − a_1(±∞) and b_2 are power series in cot θ (the
kernel Φ(s/τ) − 1{s > 0}, τ = cot θ, is odd, so only even powers of τ remain in a_1).
:class:`FieldTable` evaluates them by the module's quadrature once per link at the Chebyshev
points of ``panels`` equal panels of θ (``order`` points each) and interpolates (barycentric
formula): the field at k directions then costs O(k · order) instead of O(k · 2,500 nodes).

Accuracy: the table differs from :func:`nbl_sim.population.fields.population_field` by the
interpolation error only, and that is at the level of the quadrature's own rounding: measured
≤ 6e-16 · max(1, S) on the six paper links (20,000 random directions each;
``benchmarks/bench_field_table.py``: ≤ 5.7e-16 at 10,000), and required ≤ 2e-15 · max(1, S) by
tests/sim/test_population_table.py (the paper links at 3,000 random directions, hypothesis links
of the test strategies at 300, and ±β_a exactly and within 1e-9) — far inside the field's
documented 1e-10 · max(1, S). Callers that use it in a claim check it against the quadrature on
a sample of their own directions (:meth:`FieldTable.deviation`). The field itself is
:func:`nbl_sim.population.fields.reduction_field` with these integrals (the same geometry, checks
and shapes as ``population_field``).
"""

from __future__ import annotations

import math

import numpy as np

from nbl_theory.errors import NBLInputError
from nbl_theory.links import Link

from .fields import (
    population_field,
    quadrature_scale,
    reduction_field,
    reduction_integrals,
)

__all__ = ["FieldTable"]


class FieldTable:
    """a_1, b_2 of ``link`` tabulated in θ (module docstring); :meth:`field` and
    :meth:`tangent` take the arguments of :func:`~nbl_sim.population.fields.population_field`.

    Parameters
    ----------
    link : Link
        The shared link g.
    panels : int, default 256
        Panels of the table in θ ∈ [−π/2, π/2] (1 to 4096).
    order : int, default 16
        Chebyshev points per panel (2 to 64).
    """

    def __init__(self, link: Link, panels: int = 256, order: int = 16):
        if not (
            isinstance(panels, int)
            and isinstance(order, int)
            and 1 <= panels <= 4096
            and 2 <= order <= 64
        ):
            raise NBLInputError(
                f"FieldTable needs 1 <= panels <= 4096 and 2 <= order <= 64, got "
                f"{panels!r}, {order!r}"
            )
        self.link, self.panels, self.order = link, panels, order
        k = np.arange(order)
        self._x = np.cos(math.pi * (2 * k + 1) / (2 * order))  # Chebyshev points
        self._lam = (-1.0) ** k * np.sin(math.pi * (2 * k + 1) / (2 * order))
        self._half = math.pi / (2 * panels)
        self._mid = -math.pi / 2 + self._half * (2 * np.arange(panels) + 1)
        theta = self._mid[:, None] + self._half * self._x[None, :]
        a1, b2, self.mu_g = reduction_integrals(link, np.tan(theta))
        self._a1, self._b2 = a1, b2  # (panels, order)

    def integrals(self, rho: np.ndarray, sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """a_1 and b_2 at c = ρ/σ (σ ≥ 0), interpolated in θ = atan2(ρ, σ).

        Parameters
        ----------
        rho : numpy.ndarray
            The numerators ρ.
        sigma : numpy.ndarray
            The denominators σ ≥ 0, of the shape of ``rho``.

        Returns
        -------
        a1 : numpy.ndarray
            a_1(ρ/σ), of the shape of ``rho``.
        b2 : numpy.ndarray
            b_2(ρ/σ), of the shape of ``rho``.
        """
        theta = np.arctan2(rho, sigma).ravel()
        p = np.clip(np.floor((theta + math.pi / 2) / (2 * self._half)), 0, self.panels - 1)
        p = p.astype(np.intp)
        u = (theta - self._mid[p]) / self._half
        diff = u[:, None] - self._x[None, :]
        hit = diff == 0.0
        with np.errstate(divide="ignore", invalid="ignore"):
            q = self._lam / diff
        on = hit.any(1)
        q[on] = hit[on]  # on a Chebyshev point: that point's value
        q /= q.sum(1, keepdims=True)
        a1 = np.einsum("ij,ij->i", q, self._a1[p]).reshape(np.shape(rho))
        b2 = np.einsum("ij,ij->i", q, self._b2[p]).reshape(np.shape(rho))
        return a1, b2

    def field(self, beta, v) -> np.ndarray:
        """F(v) (same shapes as :func:`~nbl_sim.population.fields.population_field`).

        Parameters
        ----------
        beta : array_like (2, d)
            Unit index vectors, row 0 = arm −1, row 1 = arm +1.
        v : array_like (d,) or (k, d)
            Direction(s); normalized.

        Returns
        -------
        numpy.ndarray (d,) or (k, d)
            F(v) from the table.
        """
        return reduction_field(self.integrals, self.mu_g, beta, v)

    def tangent(self, beta, v) -> np.ndarray:
        """h(v) = (I − v̂v̂ᵀ) F(v).

        Parameters
        ----------
        beta : array_like (2, d)
            Unit index vectors, row 0 = arm −1, row 1 = arm +1.
        v : array_like (d,) or (k, d)
            Direction(s); normalized.

        Returns
        -------
        numpy.ndarray (d,) or (k, d)
            h(v) from the table.
        """
        return reduction_field(self.integrals, self.mu_g, beta, v, tangent=True)

    def deviation(self, beta, v) -> float:
        """max |F_table − F_quadrature| / max(1, S) over the directions ``v``.

        Parameters
        ----------
        beta : array_like (2, d)
            Unit index vectors, row 0 = arm −1, row 1 = arm +1.
        v : array_like (d,) or (k, d)
            Direction(s); normalized.

        Returns
        -------
        float
            The largest deviation, in units of max(1, S).
        """
        diff = self.field(beta, v) - population_field(self.link, beta, v)
        return float(np.max(np.abs(diff))) / max(1.0, quadrature_scale(self.link))
