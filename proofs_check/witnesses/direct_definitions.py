"""The paper's stability quantities from their *definitions*, without the library's 1-D
reductions: μ*, κ*, m0, m2 as 2-D Gaussian integrals (eq:mu_star_m2_def, the κ* of
app:local_jacobian) over the written-out links of :mod:`.links`, and the tangent spectrum of the
Jacobian matrix of eq:Jacobian in high precision.
"""

from __future__ import annotations

import functools
import math

import mpmath
import numpy as np

from nbl_theory.numeric import gauss_legendre_panels

from .geometry import cayley_rotation
from .links import paper_link_parts

__all__ = [
    "DIRECT_CASES",
    "direct_moments",
    "identity_rhs",
    "kappa_identity_rhs",
    "theta_rate",
    "jacobian_tangent_rates",
    "m2_stein_form",
]

#: (paper link, Δ) pairs at which the claims evaluate the direct definitions (both regimes of
#: both families, Δ from 0.2 to 1.8).
DIRECT_CASES = (("tt-unstable", "0.2"), ("tt-stable", "1"), ("we-0.72", "0.2"), ("we-0.60", "1.8"))


@functools.cache
def direct_moments(key: str, delta: float, panels: int = 24, shift: float = 0.5) -> dict:
    """μ*, κ*, m0, m2 (and m2 by the Stein identity) of the paper link ``key`` from the 2-D
    definitions, float64.

    U ~ N(0, s²), s² = 1 − Δ²/4, on [−10s, 10s] and Z ~ N(0, 1) on [0, 10] (truncation
    < 1e−22), tensor Gauss–Legendre with ``panels`` panels of 16 nodes per axis, g from
    :func:`.links.paper_link_parts`. ``shift`` is the coefficient of ΔZ in the argument
    U + ``shift``·ΔZ (the definition has 1/2; another value shows that a check notices a wrong
    definition). Accuracy: quadrature < 1e-18, rounding of the ~1.5e5 terms
    < 1e-14 (the claims allow 1e-12).

    Returns
    -------
    dict
        ``mu_star`` = E[g'(U + ΔZ/2)1{Z>0}], ``kappa_star`` = 2E[Z g(U + ΔZ/2)1{Z>0}],
        ``m0`` = E g(U), ``m2`` = E g''(U), ``m2_stein`` = E[g(U)(U² − s²)]/s⁴.
    """
    parts = paper_link_parts(key)
    s = math.sqrt(1 - delta**2 / 4)
    u, wu = gauss_legendre_panels(np.linspace(-10 * s, 10 * s, panels + 1))
    z, wz = gauss_legendre_panels(np.linspace(0.0, 10.0, panels + 1))
    pu = wu * np.exp(-0.5 * (u / s) ** 2) / (s * math.sqrt(2 * math.pi))
    pz = wz * np.exp(-0.5 * z**2) / math.sqrt(2 * math.pi)
    g, g1, _ = parts(u[:, None] + shift * delta * z[None, :])
    w = pu[:, None] * pz[None, :]
    gu, _, g2u = parts(u)
    return {
        "mu_star": float(np.sum(w * g1)),  # eq:mu_star_m2_def
        "kappa_star": float(2 * np.sum(w * z[None, :] * g)),  # κ* = 2E[Z g(U+ΔZ/2)1{Z>0}]
        "m0": float(np.sum(pu * gu)),
        "m2": float(np.sum(pu * g2u)),  # E g''(U)
        "m2_stein": float(np.sum(pu * gu * (u**2 - s**2)) / s**4),  # eq:stein_second
    }


def identity_rhs(moments: dict, delta: float, phi0: float, mu_factor: float = 1.0) -> float:
    """2φ0(0)m0 + Δμ*, the right side of eq:app-kappa-identity, from :func:`direct_moments`'s
    values (``phi0`` the coefficient φ0(0) as the paper writes it; ``mu_factor`` multiplies the
    Δμ* term, for mutants)."""
    return 2 * phi0 * moments["m0"] + mu_factor * delta * moments["mu_star"]


def kappa_identity_rhs(moments: dict, delta: float, mu_factor: float = 1.0) -> float:
    """:func:`identity_rhs` with φ0(0) = 1/√(2π)."""
    return identity_rhs(moments, delta, 1 / math.sqrt(2 * math.pi), mu_factor)


def theta_rate(moments: dict, delta: float, phi0: float) -> float:
    """Δμ* − 2φ0(0) m2 (1 − Δ²/4), the rate of prop:local_jacobian along θ, from
    :func:`direct_moments`'s values (``phi0`` as the paper writes it)."""
    return delta * moments["mu_star"] - 2 * phi0 * moments["m2"] * (1 - delta * delta / 4)


def m2_stein_form(moments: dict, delta: float, power: int = 4) -> float:
    """E[g(U)(U² − s²)]/s^``power``, s² = 1 − Δ²/4, from :func:`direct_moments`'s ``m2_stein``
    (the second-order Stein form of m2, eq:stein_second, has power 4; another power is a
    mutant)."""
    s2 = 1 - delta**2 / 4
    return moments["m2_stein"] * s2 ** ((4 - power) / 2)  # E[g(U)(U^2 - s^2)]/s^power


def jacobian_tangent_rates(delta, mu, m2, d: int, rotate: bool):
    """−eigenvalues of Dh(v*) = −Δμ* I + 2φ0(0) m2 θθᵀ (eq:Jacobian) restricted to the tangent
    space at v*, ascending, at the current mpmath precision.

    The matrix is assembled in the frame given by the columns of Q (v* first, then a tangent
    basis; Q = I or the exact rational rotation :func:`.geometry.cayley_rotation` when
    ``rotate``), with θ = s Q[:, 1], s = √(1 − Δ²/4), and diagonalised by mpmath's symmetric
    eigensolver — no closed form of the rates is used.
    """
    q = cayley_rotation(d) if rotate else mpmath.eye(d)  # columns: v*, then a tangent basis
    s = mpmath.sqrt(1 - delta**2 / 4)
    theta = s * q[:, 1]  # θ ⊥ v*, ‖θ‖² = 1 − Δ²/4
    phi0 = 1 / mpmath.sqrt(2 * mpmath.pi)
    jac = -delta * mu * mpmath.eye(d) + 2 * phi0 * m2 * theta * theta.T  # eq:Jacobian
    basis = q[:, 1:]  # orthonormal basis of T_{v*} S^{d-1}
    eig = mpmath.eigsy(basis.T * jac * basis, eigvals_only=True)
    return sorted(-e for e in eig)
