"""Independent reference computations straight from the paper's definitions.

Library code never imports this module. It evaluates the *2-D* definitions of
eq:mu_star_m2_def and of κ* (proof of prop:population_equilibrium)

    μ* = E[g'(U + ΔZ/2) 1{Z>0}],     κ* = 2 E[Z g(U + ΔZ/2) 1{Z>0}],

with U ~ N(0, s²), Z ~ N(0, 1) independent, by a tensor Gauss–Legendre rule on
[−10s, 10s] × [0, 10] (panels of 16 nodes), and m2 through the second-order Stein identity
(lem:gaussian_stein) m2 = E[g(U)(U² − s²)]/s⁴, which uses g itself rather than g''. g is
evaluated through ``Link.derivative_numpy`` (potential links invert φ' by bisection here: this
is a test oracle, not the library's quadrature).
"""

from __future__ import annotations

import math

import numpy as np

_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(16)


def _panels(lo, hi, n_panels):
    edges = np.linspace(lo, hi, n_panels + 1)
    a, b = edges[:-1, None], edges[1:, None]
    x = (0.5 * (b - a) * _NODES + 0.5 * (a + b)).ravel()
    w = (0.5 * (b - a) * _WEIGHTS).ravel()
    return x, w


def direct_moments(link, delta: float, n_panels: int = 24) -> dict:
    """μ*, κ*, m0, m2, μ_g from the definitions (2-D for μ* and κ*)."""
    s = math.sqrt(1 - delta**2 / 4)
    u, wu = _panels(-10 * s, 10 * s, n_panels)
    zz, wz = _panels(0.0, 10.0, n_panels)
    dens_u = np.exp(-0.5 * (u / s) ** 2) / (s * math.sqrt(2 * math.pi))
    dens_z = np.exp(-0.5 * zz**2) / math.sqrt(2 * math.pi)
    arg = u[:, None] + 0.5 * delta * zz[None, :]
    g1 = link.derivative_numpy(arg, 1)
    g0 = link.derivative_numpy(arg, 0)
    weight = (wu * dens_u)[:, None] * (wz * dens_z)[None, :]
    mu_star = float(np.sum(weight * g1))
    kappa_star = float(2 * np.sum(weight * zz[None, :] * g0))
    gu = link.derivative_numpy(u, 0)
    m0 = float(np.sum(wu * dens_u * gu))
    m2 = float(np.sum(wu * dens_u * gu * (u**2 - s**2)) / s**4)
    zfull, wfull = _panels(-10.0, 10.0, 2 * n_panels)
    mu_g = float(
        np.sum(
            wfull
            * np.exp(-0.5 * zfull**2)
            / math.sqrt(2 * math.pi)
            * link.derivative_numpy(zfull, 1)
        )
    )
    return {"mu_star": mu_star, "kappa_star": kappa_star, "m0": m0, "m2": m2, "mu_g": mu_g}
