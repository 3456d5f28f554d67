"""Finite-difference fields along the paper's paths (app:local_jacobian, app:local_stability):
every quantity the proofs of prop:local_jacobian and cor:local_stability manipulate, evaluated
for the six named links of the paper at fixed random orientations.

* :func:`jacobian_steps`: Richardson central differences (h = 1e-3, 5e-4; truncation ~1e-12,
  rounding/quadrature noise ~1e-16/h ~ 1e-13) of F_+, F_− and h = P_v^⊥(F_+ − F_−) (own
  one-arm integrals, :mod:`.fields`), of the library's F (for the library comparison) and of
  the projection P_v^⊥ along the spherical path v_ε and the normalized path v_u(ε), next to the
  boundary matrix and the toolkit's stability values.
* :func:`tangent_spectrum`: the matrix of Dh(v*) on an orthonormal tangent basis from the own
  field (:func:`.fields.tangent_jacobian`) and its eigenvalues — no formula of the paper used.
* :func:`local_expansions`: the remainders of h(v) = Dh(v*)[u] + r(v) at 8 scales
  ‖u‖ = 1e-1..3e-4 along ± each tangent direction, divided by the power the proof predicts; h is
  the own field and Dh(v*) the matrix of eq:Jacobian, −Δμ*P + 2φ0 m2 θθᵀ, with μ*, m2 from
  their 2-D definitions (``phi0`` replaces φ0(0) to show that the check notices a wrong
  coefficient).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from nbl_sim.population import fields as pop
from nbl_theory.numeric import PHI0
from nbl_theory.paper import PAPER_LINKS

from .direct_definitions import direct_moments
from .fields import boundary_matrix, own_field, own_tangent_field, richardson, tangent_jacobian
from .geometry import (
    case_geometry,
    normalized_path,
    sphere_path,
    tangent_basis,
    tangent_directions,
)
from .toolkit_values import field_scale, float_values

__all__ = [
    "PaperCase",
    "paper_cases",
    "jacobian_steps",
    "tangent_spectrum",
    "local_expansions",
    "jacobian_matrix",
    "EXPANSION_SCALES",
    "remainder_growth",
    "expansion_summary",
]

#: The scales ‖u‖ of :func:`local_expansions`.
EXPANSION_SCALES = np.geomspace(1e-1, 3e-4, 8)


def jacobian_matrix(
    delta: float, mu_star: float, m2: float, v_star, theta, phi0: float = PHI0
) -> np.ndarray:
    """eq:Jacobian as a (d, d) matrix, −Δμ* P + 2φ0 m2 θθᵀ with P = I − v*v*ᵀ (maps the
    tangent space at v* to itself and kills v*)."""
    d = v_star.size
    return -delta * mu_star * (np.eye(d) - np.outer(v_star, v_star)) + 2 * phi0 * m2 * np.outer(
        theta, theta
    )


@dataclass(frozen=True)
class PaperCase:
    """One (paper link, Δ, d) case at the link's fixed random orientation
    (:func:`.geometry.case_geometry` of its index ``i``): the link, its field scale ``S``, the
    toolkit's float64 stability values ``st`` (the library side, for comparison), the
    witness's μ*, κ*, m0, m2 from their 2-D definitions ``wit``
    (:func:`.direct_definitions.direct_moments`) and the geometry ``beta, vs, theta``."""

    i: int
    key: str
    link: object
    S: float
    st: dict
    delta: str
    d: int
    beta: np.ndarray
    vs: np.ndarray
    theta: np.ndarray
    wit: dict

    def jacobian(self, phi0: float = PHI0) -> np.ndarray:
        """eq:Jacobian at this case (:func:`jacobian_matrix` with the witness's μ*, m2)."""
        return jacobian_matrix(
            float(self.delta), self.wit["mu_star"], self.wit["m2"], self.vs, self.theta, phi0
        )


def paper_cases(deltas, dims):
    """Yield a :class:`PaperCase` for each paper link (in :data:`PAPER_LINKS` order), Δ in
    ``deltas`` and d in ``dims``."""
    for i, key in enumerate(PAPER_LINKS):
        link = PAPER_LINKS[key].link()
        S = field_scale(link)
        for delta in deltas:
            st = float_values(link, delta)
            wit = direct_moments(key, float(delta))
            for d in dims:
                yield PaperCase(i, key, link, S, st, delta, d, *case_geometry(i, delta, d), wit)


@functools.cache
def jacobian_steps(deltas: tuple, dims: tuple) -> list:
    """Every quantity of the proof of prop:local_jacobian, per (link, Δ, d, u).

    Returns
    -------
    list of dict
        One row per case with keys ``key, delta, d, dir, u, vs, theta, beta, proj`` (the case),
        ``st`` (the toolkit's float64 stability values), ``wit`` (the witness's 2-D moments,
        :class:`PaperCase`), ``S`` (the field scale), ``M, c0, c2``
        (:func:`.fields.boundary_matrix`), ``F_star`` (library F(v*)), ``own_F_star`` (own
        F(v*)), and the Richardson derivatives ``DFp``, ``DFm`` (own F_± along v_ε), ``DF``
        (library F along v_ε), ``DF_norm``, ``Dh`` (own F and h along v_u(ε)) and ``DP``
        (P_v^⊥ along v_u(ε)).
    """
    rows = []
    for c in paper_cases(deltas, dims):
        key, link, st, delta, d = c.key, c.link, c.st, c.delta, c.d
        beta, vs, theta = c.beta, c.vs, c.theta
        proj = np.eye(d) - np.outer(vs, vs)
        M, c0, c2 = boundary_matrix(link, theta, vs)
        f_star = pop.population_field(link, beta, vs)
        fp0, fm0 = own_field(link, beta, vs)
        for name, u in tangent_directions(vs, theta, d):

            def fplus(e, link=link, u=u, beta=beta, vs=vs):
                return own_field(link, beta, sphere_path(vs, u, e))[0]

            def fminus(e, link=link, u=u, beta=beta, vs=vs):
                return own_field(link, beta, sphere_path(vs, u, e))[1]

            def lib_field(e, link=link, u=u, beta=beta, vs=vs):
                return pop.population_field(link, beta, sphere_path(vs, u, e))

            def own(e, project, link=link, u=u, beta=beta, vs=vs):
                return own_tangent_field(link, beta, normalized_path(vs, u, e), project=project)

            def proj_path(e, u=u, vs=vs, d=d):
                return np.array([np.eye(d) - np.outer(p, p) for p in normalized_path(vs, u, e)])

            rows.append(
                dict(
                    i=c.i,
                    key=key,
                    delta=delta,
                    d=d,
                    dir=name,
                    u=u,
                    vs=vs,
                    theta=theta,
                    beta=beta,
                    proj=proj,
                    st=st,
                    wit=c.wit,
                    S=c.S,
                    M=M,
                    c0=c0,
                    c2=c2,
                    F_star=f_star,
                    own_F_star=(fp0 - fm0)[0],
                    DFp=richardson(fplus),
                    DFm=richardson(fminus),
                    DF=richardson(lib_field),
                    DF_norm=richardson(functools.partial(own, project=False)),
                    Dh=richardson(functools.partial(own, project=True)),
                    DP=richardson(proj_path),
                )
            )
    return rows


@functools.cache
def tangent_spectrum(key: str, delta: str, d: int, project: bool = True) -> dict:
    """The tangent Jacobian of the own field h at v* for the paper link ``key`` (case geometry
    :func:`.geometry.case_geometry` of the link's index), from finite differences only.

    Returns
    -------
    dict
        ``rates``: −eigenvalues of the symmetric part of the (d − 1) × (d − 1) matrix, ascending;
        ``theta_rate``: −θ̂ᵀDh(v*)[θ̂]; ``theta_alignment``: |θ̂ᵀe| for the eigenvector e of the
        eigenvalue nearest −``theta_rate``; ``asymmetry``: max |T − Tᵀ| (all / S where
        relevant: ``S`` is returned); ``matrix``: Dh(v*) as a (d, d) matrix A Bᵀ (B the tangent
        basis). ``project=False`` differentiates F instead of h.
    """
    index = list(PAPER_LINKS).index(key)
    link = PAPER_LINKS[key].link()
    beta, vs, theta = case_geometry(index, delta, d)
    basis = tangent_basis(vs)
    cols = tangent_jacobian(link, beta, vs, basis, project=project)
    t = basis.T @ cols
    sym = 0.5 * (t + t.T)
    ev, vec = np.linalg.eigh(sym)
    th = theta / np.linalg.norm(theta)
    th_b = basis.T @ th
    theta_rate = -float(th_b @ sym @ th_b)
    j = int(np.argmin(np.abs(-ev - theta_rate)))
    return dict(
        key=key,
        delta=delta,
        d=d,
        S=field_scale(link),
        vs=vs,
        theta=theta,
        rates=np.sort(-ev),
        theta_rate=theta_rate,
        theta_alignment=abs(float(vec[:, j] @ th_b)),
        asymmetry=float(np.abs(t - t.T).max()),
        matrix=cols @ basis.T,
    )


@functools.cache
def local_expansions(deltas: tuple, dims: tuple, phi0: float = PHI0) -> list:
    """For each (link, Δ, d, direction û): v = q(tû) = √(1 − t²) v* + tû at t in
    :data:`EXPANSION_SCALES`, the own field h(v) against Dh(v*)[u] of eq:Jacobian
    (:func:`jacobian_matrix` with the witness's μ*, m2 and the coefficient ``phi0``).

    Returns
    -------
    list of dict
        Per case: ``ratio_u`` = ‖r‖/‖u‖²/S, ``ratio_D`` = ‖r‖/‖Δ‖²/S and ``ratio_in`` =
        |⟨Δ, h⟩ − ⟨u, Dh u⟩|/‖Δ‖³/S per scale (r = h − Dh u, Δ = v − v*); ``four`` = the
        residual of the proof's four-term expansion of ⟨Δ, h⟩ and ``tangent_Dh`` = max
        |⟨v*, Dh u⟩| (both / S, exact algebra up to rounding).
    """
    rows = []
    for c in paper_cases(deltas, dims):
        key, link, S, delta, d = c.key, c.link, c.S, c.delta, c.d
        beta, vs, theta, J = c.beta, c.vs, c.theta, c.jacobian(phi0)
        dirs = [(n, u / np.linalg.norm(u)) for n, u in tangent_directions(vs, theta, d)]
        dirs += [("-" + n, -u) for n, u in dirs]
        for name, uh in dirs:
            u = EXPANSION_SCALES[:, None] * uh[None, :]
            nu2 = (u * u).sum(1)
            v = np.sqrt(1 - nu2)[:, None] * vs + u
            h = own_tangent_field(link, beta, v)
            Dhu = u @ J.T
            r = h - Dhu
            D = v - vs
            nD2 = (D * D).sum(1)
            inner = (D * h).sum(1)
            lin = (u * Dhu).sum(1)
            # the proof's four-term expansion (exact algebra given the Delta decomposition)
            four = lin + (u * r).sum(1) - 0.5 * nD2 * (Dhu @ vs) - 0.5 * nD2 * (r @ vs)
            rows.append(
                dict(
                    key=key,
                    delta=delta,
                    d=d,
                    dir=name,
                    S=S,
                    ratio_u=np.linalg.norm(r, axis=1) / nu2 / S,
                    ratio_D=np.linalg.norm(r, axis=1) / nD2 / S,
                    ratio_in=np.abs(inner - lin) / nD2**1.5 / S,
                    four=float(np.abs(inner - four).max()) / S,
                    tangent_Dh=float(np.abs(Dhu @ vs).max()) / S,
                )
            )
    return rows


def remainder_growth(ratio: np.ndarray, floor: float) -> float:
    """Growth of a remainder ratio at the two smallest scales against its earlier maximum,
    max(ratio[-2:]) / (1.5 max(ratio[:-2]) + ``floor``) (≤ 1 when the ratio stays bounded;
    ``floor`` absorbs quadrature noise at the smallest scales)."""
    return float(ratio[-2:].max() / (1.5 * ratio[:-2].max() + floor))


def expansion_summary(rows: list, field: str, floor: float) -> dict:
    """For the rows of :func:`local_expansions` and one of their ratios ``field``
    (``ratio_u``, ``ratio_D`` or ``ratio_in``): the worst :func:`remainder_growth` and its row,
    the largest ratio at any scale and at the smallest scale.

    Returns
    -------
    dict
        ``growth``, ``worst`` (the row), ``max``, ``at_smallest``.
    """
    growth = [(remainder_growth(r[field], floor), r) for r in rows]
    g, worst = max(growth, key=lambda t: t[0])
    return dict(
        growth=g,
        worst=worst,
        max=max(float(r[field].max()) for r in rows),
        at_smallest=max(float(r[field][-1]) for r in rows),
    )
