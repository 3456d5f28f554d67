"""The population field's identities of sec:nbl and app:local_stability_in_2D on the own field
(one-arm integrals, :mod:`.fields`): the equilibrium F(v*) = κ* v* (prop:population_equilibrium),
∇J = F (eq:Fdef), the restoring condition of eq:2d-restoring-condition through H(α) and the
decomposition h = H v⊥ (eq:H-alpha); and the Monte Carlo mean of the NBL update under greedy
allocation (lem:conditional_population_field).

Each function returns the errors of the paper's statement on the own field, in units of the
field scale S, next to the difference of the library's field (:mod:`nbl_sim.population.fields`)
from the own one — the library side of the comparison, never an input of the own value. The
Monte Carlo means are compared with the library's F and h (the target of the lemma's
statement): the realization is drawn by ``nbl_sim.engine.environment`` (common random
numbers), the update is written out here.
"""

from __future__ import annotations

import math

import numpy as np

from nbl_sim.engine.environment import Environment
from nbl_sim.population import fields as pop
from nbl_theory.paper import PAPER_LINKS

from .direct_definitions import kappa_identity_rhs
from .fields import own_field, own_potential, own_tangent_field, richardson
from .geometry import angle_distance, tangent_projection
from .local_expansions import paper_cases
from .toolkit_values import field_scale

__all__ = [
    "equilibrium_errors",
    "gradient_of_j",
    "conditional_field_z",
    "restoring_case",
    "h_alpha_case",
    "scaled_resolution",
    "H_ALPHA_GRID",
]

#: The angles α of :func:`h_alpha_case` (720 on the circle, shifted off the axes; every 6th
#: one at least 8 degrees from ±β_a is used).
H_ALPHA_GRID = np.linspace(-np.pi, np.pi, 720, endpoint=False) + 0.0017


def equilibrium_errors(deltas, dims, mu_factor: float = 1.0) -> dict:
    """prop:population_equilibrium on the own field at every paper case
    (:func:`.local_expansions.paper_cases`): F(v*) = κ* v* with κ* = 2φ0(0) m0 + Δμ*
    (eq:app-kappa-identity, m0, μ* from their 2-D definitions; ``mu_factor`` multiplies Δμ*,
    for mutants), hence h(v*) = 0.

    Returns
    -------
    dict
        ``h``: max |h(v*)|/S; ``f``: max |F(v*) − κ* v*|/S; ``library``: max |library F(v*) −
        own F(v*)|/S; ``n``: the cases.
    """
    worst_h = worst_f = worst_lib = 0.0
    n = 0
    for c in paper_cases(deltas, dims):
        link, delta, beta, vs = c.link, c.delta, c.beta, c.vs
        S = field_scale(link)
        kappa = kappa_identity_rhs(c.wit, float(delta), mu_factor)
        fp, fm = own_field(link, beta, vs)
        F = (fp - fm)[0]
        h = F - float(F @ vs) * vs
        worst_h = max(worst_h, float(np.abs(h).max()) / S)
        worst_f = max(worst_f, float(np.abs(F - kappa * vs).max()) / S)
        worst_lib = max(
            worst_lib, float(np.abs(pop.population_field(link, beta, vs) - F).max()) / S
        )
        n += 1
    return dict(h=worst_h, f=worst_f, library=worst_lib, n=n)


def gradient_of_j(
    deltas, dims, linear_term: bool = True, seed: int = 7, step: float = 1e-4
) -> dict:
    """eq:Fdef: ∇J(v) = F(v) for J(v) = E[(m_+ + m_−)(X)(vᵀX)_+] − vᵀE[m_−(X)X], at a random
    unit v per paper case (drawn again while |β_aᵀv| > 0.99: the one-arm panels need v off
    ±β_a): central differences of the own J (step ``step``) against the own F
    (``linear_term=False`` drops the last term of J, for mutants).

    Returns
    -------
    dict
        ``error``: max |∇J − F|/S; ``library``: max |library F − own F|/S; ``n``: the cases.
    """
    worst, worst_lib, n = 0.0, 0.0, 0
    rng = np.random.default_rng(seed)
    for c in paper_cases(deltas, dims):
        link, d, beta = c.link, c.d, c.beta
        S = field_scale(link)
        v = rng.standard_normal(d)
        v /= np.linalg.norm(v)
        while np.max(np.abs(beta @ v)) > 0.99:
            v = rng.standard_normal(d)
            v /= np.linalg.norm(v)
        e = step
        pts = np.concatenate([v + e * np.eye(d), v - e * np.eye(d)])
        J = own_potential(link, beta, pts, linear_term=linear_term)
        grad = (J[:d] - J[d:]) / (2 * e)
        fp, fm = own_field(link, beta, v)
        F = (fp - fm)[0]
        worst = max(worst, float(np.abs(grad - F).max()) / S)
        worst_lib = max(worst_lib, float(np.abs(pop.population_field(link, beta, v) - F).max()) / S)
        n += 1
    return dict(error=worst, library=worst_lib, n=n)


def conditional_field_z(
    target_scale: float = 1.0, rounds: int = 100_000, detect_z: float = 5.0, power_z: float = 1.2816
) -> list:
    """lem:conditional_population_field by Monte Carlo: for each paper link (Δ = 0.2, d = 3,
    random v* and θ of geometry seed i, a random unit v of seed 50 + i), ``rounds`` rounds of
    the realization seeded 200 + i under greedy allocation A = sgn(vᵀX); W = A Y_A X and
    G = P_v^⊥ W. The z-score of each coordinate's mean against ``target_scale`` times the
    library's F(v) (for W) and h(v) (for G), and the resolution (detect_z + power_z) SE / S (the
    smallest bias detected with probability 0.9).

    Returns
    -------
    list of dict
        Per link: ``name``, ``z`` = (max z of W, max z of G), ``resolution`` (the larger of the
        two).
    """
    out = []
    for i, row in enumerate(PAPER_LINKS.values()):
        link = row.link()
        env = Environment.build(
            link, "0.2", 3, v_star="random", theta_dir="random", geometry_seed=i
        )
        v = np.random.default_rng(50 + i).standard_normal(3)
        v /= np.linalg.norm(v)
        real = env.draw(200 + i, [0], rounds, 0)
        X = real.X[0]
        a = np.where((X * v).sum(1) >= 0, 1.0, -1.0)
        y = np.where(a > 0, real.Y[0, :, 1], real.Y[0, :, 0])
        W = (a * y)[:, None] * X
        G = tangent_projection(v, W)
        zs, res = [], 0.0
        for sample, target in (
            (W, pop.population_field(link, env.beta, v)),
            (G, pop.tangent_field(link, env.beta, v)),
        ):
            se = sample.std(0, ddof=1) / math.sqrt(rounds)
            zs.append(float((np.abs(sample.mean(0) - target_scale * target) / se).max()))
            res = max(res, (detect_z + power_z) * float(se.max()) / field_scale(link))
        out.append(dict(name=link.name, z=tuple(zs), resolution=res))
    return out


def _h_of_alpha(link, beta, a) -> np.ndarray:
    """H(α) = v⊥(α)ᵀ F(v(α)) of the own field in d = 2, v(α) = (cos α, sin α)."""
    va = np.stack([np.cos(a), np.sin(a)], axis=1)
    vp = np.stack([-np.sin(a), np.cos(a)], axis=1)
    fp, fm = own_field(link, beta, va)
    return ((fp - fm) * vp).sum(1)


def restoring_case(link, beta, rate: float, alpha: float = 1e-3) -> dict:
    """eq:2d-restoring-condition in d = 2 on the own field: H'(0) by Richardson differences
    against −``rate`` (the θ-direction rate), and α H(α) at α = ±``alpha``.

    Returns
    -------
    dict
        ``dH0`` = H'(0); ``error`` = |H'(0) + rate|/S; ``plus``, ``minus`` = α H(α) at +alpha
        and at −alpha (both negative when the field is restoring).
    """
    dH0 = float(richardson(lambda e: _h_of_alpha(link, beta, e)))
    hp, hm = _h_of_alpha(link, beta, np.array([alpha, -alpha]))
    return dict(
        dH0=dH0, error=abs(dH0 + rate) / field_scale(link), plus=alpha * hp, minus=-alpha * hm
    )


def h_alpha_case(link, delta: str, beta, orientation: float = 1.0) -> dict:
    """eq:H-alpha in d = 2 on the own field at the angles of :data:`H_ALPHA_GRID` (every 6th,
    at least 8 degrees from ±β_a): h(v(α)) = H(α) v⊥(α) and H = v⊥ᵀh with v⊥ =
    ``orientation`` (−sin α, cos α), v⊥ = dv/dα (complex step), vᵀh = 0; and the library's
    H (:func:`nbl_sim.population.fields.H_alpha`) against v⊥ᵀF of the own field.

    Returns
    -------
    dict
        ``identity``: the largest error of the three identities (/S for the field ones);
        ``tangent``: max |vᵀh|/S; ``library``: max |library H − own v⊥ᵀF|/S; ``points``.
    """
    alpha = H_ALPHA_GRID
    S = field_scale(link)
    dirs = np.concatenate(
        [np.arctan2(beta[:, 1], beta[:, 0]), np.arctan2(-beta[:, 1], -beta[:, 0])]
    )
    far = np.min(angle_distance(alpha[:, None], dirs[None, :]), axis=1) > np.radians(8)
    far &= np.arange(alpha.size) % 6 == 0  # every 6th alpha (cost)
    a = alpha[far]
    va = np.stack([np.cos(a), np.sin(a)], axis=1)
    vp = orientation * np.stack([-np.sin(a), np.cos(a)], axis=1)
    fp, fm = own_field(link, beta, va)
    F = fp - fm
    h = own_tangent_field(link, beta, va)
    H = (vp * F).sum(1)
    dv = np.stack([np.cos(a + 1e-20j), np.sin(a + 1e-20j)], axis=1).imag / 1e-20
    identity = max(
        float(np.abs(h - H[:, None] * vp).max()) / S,
        float(np.abs(H - (vp * h).sum(1)).max()) / S,
        float(np.abs(vp - dv).max()),
    )  # v_perp = dv/dalpha (complex step)
    tangent = float(np.abs((va * h).sum(1)).max()) / S
    H0 = (np.stack([-np.sin(a), np.cos(a)], axis=1) * F).sum(1)  # v_perp^T F
    library = float(np.abs(pop.H_alpha(link, delta, a) - H0).max()) / S
    return dict(identity=identity, tangent=tangent, library=library, points=int(far.sum()))


def scaled_resolution(key: str, resolution: float) -> float:
    """A Monte Carlo resolution of the paper link ``key`` in units of its field scale S."""
    return resolution / field_scale(PAPER_LINKS[key].link())
