"""Geometry for the checks: exactly rational unit vectors and rotations, random directions and
pairs on the sphere, the paper's paths on the sphere, and the fixed random orientations of the
population claims.

The rational constructions make identities of the paper hold *exactly* (Fraction arithmetic), so
a property-based check can demand equality instead of a rounding tolerance.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np

from nbl_sim.population import fields as pop

__all__ = [
    "tangent_projection",
    "unit_vectors",
    "direction_gap",
    "stereographic_unit",
    "rational_cases",
    "rational_sphere_pairs",
    "float_pairs",
    "angle_distance",
    "cayley_rotation",
    "case_geometry",
    "paper_arms",
    "arms_error",
    "tangent_basis",
    "tangent_directions",
    "sphere_path",
    "normalized_path",
    "moving_halfspace",
    "separation_error",
    "oracle_check",
    "rational_tangent_update",
    "reflection_identities",
    "rational_deltas",
    "delta_decomposition",
    "tangent_delta_relation",
    "perturbation_pairs",
    "direction_gap_violations",
    "direction_gap_mp",
    "normalization_residuals",
    "normalization_counterexample",
]


def tangent_projection(v, w):
    """P_v^⊥ w = w − (vᵀw) v for unit v (eq:tangent_update), row by row; written here, not the
    library's ``nbl_sim.engine.geometry.tangent_projection``."""
    v = np.asarray(v, dtype=float)
    w = np.asarray(w, dtype=float)
    return w - np.einsum("...i,...i->...", v, w)[..., None] * v


def unit_vectors(rng, d: int, k: int = 1) -> np.ndarray:
    """``k`` independent uniform unit vectors in R^d (normalized Gaussians), shape (k, d)."""
    v = rng.standard_normal((k, d))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def direction_gap(x, y) -> tuple:
    """Both sides of ‖x/‖x‖ − y/‖y‖‖ ≤ 2‖x − y‖/‖y‖ for the rows of ``x`` and ``y``.

    Returns
    -------
    lhs, rhs : ndarray
        Float64 norms (a few ulps).
    """
    x, y = np.atleast_2d(x), np.atleast_2d(y)
    nx = np.linalg.norm(x, axis=1, keepdims=True)
    ny = np.linalg.norm(y, axis=1, keepdims=True)
    lhs = np.linalg.norm(x / nx - y / ny, axis=1)
    rhs = 2 * np.linalg.norm(x - y, axis=1) / ny[:, 0]
    return lhs, rhs


def stereographic_unit(p) -> list:
    """An exactly rational unit vector in Q^{len(p)+1} from a rational point p (inverse
    stereographic projection): (2p, ‖p‖² − 1)/(‖p‖² + 1), in :class:`fractions.Fraction`."""
    p = [Fraction(x) for x in p]
    n2 = sum(x * x for x in p)
    return [2 * x / (n2 + 1) for x in p] + [(n2 - 1) / (n2 + 1)]


def rational_cases(rng, k, dims=(2, 3, 5)):
    """``k`` pairs (v, w): v an exactly rational unit vector, w a rational vector, with the
    dimension cycling through ``dims`` (numerators and denominators drawn from ``rng``)."""
    for j in range(k):
        d = dims[j % len(dims)]
        v = stereographic_unit(
            [Fraction(int(rng.integers(-20, 21)), int(rng.integers(1, 9))) for _ in range(d - 1)]
        )
        w = [Fraction(int(rng.integers(-50, 51)), int(rng.integers(1, 12))) for _ in range(d)]
        yield v, w


def rational_sphere_pairs(rng, k):
    """``k`` pairs (v*, v) of exactly rational unit vectors in d = 2, 3, 4 (cycling)."""
    for j in range(k):
        d = (2, 3, 4)[j % 3]
        vs = stereographic_unit(
            [Fraction(int(rng.integers(-9, 10)), int(rng.integers(1, 6))) for _ in range(d - 1)]
        )
        v = stereographic_unit(
            [Fraction(int(rng.integers(-30, 31)), int(rng.integers(1, 40))) for _ in range(d - 1)]
        )
        yield vs, v


def float_pairs(rng, d, k):
    """A unit v* and ``k`` unit v at distances ‖v − v*‖ from ~1e-6 to 2 (half at angles
    10^U(−6, 0), half uniform in (0, π), so both signs of v*ᵀv occur), float64."""
    vs = rng.standard_normal(d)
    vs /= np.linalg.norm(vs)
    u = tangent_projection(vs, rng.standard_normal((k, d)))
    u = tangent_projection(vs, u / np.linalg.norm(u, axis=1)[:, None])  # re-orthogonalize
    u /= np.linalg.norm(u, axis=1)[:, None]
    ang = np.concatenate([10.0 ** rng.uniform(-6, 0, k // 2), rng.uniform(0, np.pi, k - k // 2)])
    v = np.cos(ang)[:, None] * vs + np.sin(ang)[:, None] * u
    return vs, v / np.linalg.norm(v, axis=1)[:, None]


def angle_distance(a, b):
    """|a − b| reduced to [0, π] (distance of two angles on the circle)."""
    return np.abs((a - b + np.pi) % (2 * np.pi) - np.pi)


def cayley_rotation(d: int):
    """An orthogonal d × d matrix Q = (I − A)(I + A)^{-1}, A skew with rational entries
    A_ij = (i + 2j + 1)/7 (i < j), as an mpmath matrix at the working precision."""
    a = mpmath.matrix(d, d)
    for i in range(d):
        for j in range(i + 1, d):
            a[i, j] = mpmath.mpf(i + 2 * j + 1) / 7
            a[j, i] = -a[i, j]
    eye = mpmath.eye(d)
    return (eye - a) * mpmath.inverse(eye + a)


def case_geometry(index: int, delta: str, d: int, library: bool = False):
    """(β, v*, θ) of the population claims' case ``index`` (the position of the link in
    :data:`nbl_theory.paper.PAPER_LINKS`): v*, θ along the first two columns of the Q factor of
    a Gaussian matrix seeded with 10·index + d (a fixed random orientation).

    The arms are the witness's own (:func:`paper_arms`), so a bug in the library's
    ``arm_vectors`` cannot move a witness's field (it had turned nine field claims DISCREPANCY
    in the library-mutation run); ``library=True`` returns the library's arms for the same
    orientation, for the claim that judges them."""
    q, _ = np.linalg.qr(np.random.default_rng(10 * index + d).standard_normal((d, d)))
    if library:
        return pop.arm_vectors(delta, d, v_star=q[:, 0], theta_dir=q[:, 1])
    return paper_arms(delta, q[:, 0], q[:, 1])


def paper_arms(delta, v_dir, theta_dir):
    """(β, v*, θ) of app:simulation-setup written out: v* = v_dir/‖v_dir‖, θ = √(1 − Δ²/4)·u
    with u the unit part of ``theta_dir`` orthogonal to v* (two Gram–Schmidt passes), and
    β_∓ = θ ∓ (Δ/2)v*, each row divided by its norm (1 up to rounding). The same float
    operations as the library's ``arm_vectors``, so the same bits when it is right."""
    vs = np.asarray(v_dir, dtype=float)
    vs = vs / float(np.linalg.norm(vs))
    u = np.asarray(theta_dir, dtype=float)
    u = u - (u @ vs) * vs
    u = u / np.linalg.norm(u)
    u = u - (u @ vs) * vs
    u /= np.linalg.norm(u)
    dl = float(delta)
    theta = math.sqrt(1.0 - dl * dl / 4.0) * u
    beta = np.stack([theta - 0.5 * dl * vs, theta + 0.5 * dl * vs])
    beta /= np.linalg.norm(beta, axis=1)[:, None]
    return beta, vs, theta


def tangent_basis(vs) -> np.ndarray:
    """An orthonormal basis of the tangent space v*^⊥ as the columns of a d × (d − 1) matrix
    (Householder QR of [v*, I]; float64, a few ulps)."""
    vs = np.asarray(vs, dtype=float)
    q, _ = np.linalg.qr(np.column_stack([vs, np.eye(vs.size)]))
    return q[:, 1 : vs.size]


def tangent_directions(vs, theta, d):
    """Tangent directions u at v* (named): θ̂ and −0.6θ̂ in d = 2; θ̂, v* × θ̂ and a seeded
    random tangent vector of length 0.7 in d = 3 (not all unit on purpose: the formulas checked
    are linear in u)."""
    th = theta / np.linalg.norm(theta)
    if d == 2:
        return [("theta", th), ("-0.6theta", -0.6 * th)]
    e = np.cross(vs, th)
    rnd = np.random.default_rng(77).standard_normal(3)
    rnd -= (rnd @ vs) * vs
    return [("theta", th), ("orth", e), ("random", 0.7 * rnd / np.linalg.norm(rnd))]


def sphere_path(vs, u, eps):
    """v_ε = cos(ε‖u‖)v* + sin(ε‖u‖)u/‖u‖ for an array of ε (the path of app:local_jacobian,
    Step 2), shape (len(eps), d)."""
    nu = float(np.linalg.norm(u))
    e = np.asarray(eps, dtype=float)[:, None]
    return np.cos(e * nu) * vs + np.sin(e * nu) * (u / nu)


def normalized_path(vs, u, eps):
    """v_u(ε) = (v* + εu)/‖v* + εu‖ for an array of ε (app:local_jacobian, Step 1)."""
    x = vs[None, :] + np.asarray(eps, dtype=float)[:, None] * u[None, :]
    return x / np.linalg.norm(x, axis=1)[:, None]


def separation_error(beta_minus, beta_plus, v_star, delta: float) -> float:
    """The largest error of the identities of eq:separation_direction for unit arms: ‖β_±‖ = 1,
    ‖β_+ − β_-‖ = Δ, (β_+ − β_-)/‖β_+ − β_-‖ = v*, ‖v*‖ = 1 (float64 rounding only)."""
    bm, bp, vs = (np.asarray(a, dtype=float) for a in (beta_minus, beta_plus, v_star))
    dv = bp - bm
    return float(
        max(
            abs(np.linalg.norm(bp) - 1),
            abs(np.linalg.norm(bm) - 1),
            abs(np.linalg.norm(dv) - delta),
            np.abs(dv / np.linalg.norm(dv) - vs).max(),
            abs(np.linalg.norm(vs) - 1),
        )
    )


def arms_error(beta, v_star, theta, delta: float) -> float:
    """The largest error of the paper's arm geometry (app:simulation-setup) in ``beta`` (rows
    β_−, β_+), ``v_star`` and ``theta``: :func:`separation_error`, θ ⟂ v*, ‖θ‖² = 1 − Δ²/4 and
    β_∓ = θ ∓ (Δ/2)v* (float64 rounding only when the arms were built right). The claims that
    take the arms from the library judge them by this before using them."""
    bm, bp = (np.asarray(b, dtype=float) for b in beta)
    vs, th = np.asarray(v_star, dtype=float), np.asarray(theta, dtype=float)
    if th.shape != vs.shape:
        return math.inf
    dl = float(delta)
    return float(
        max(
            separation_error(bm, bp, vs, dl),
            abs(th @ vs),
            abs(th @ th - (1.0 - dl * dl / 4.0)),
            np.abs(bm - (th - dl / 2 * vs)).max(),
            np.abs(bp - (th + dl / 2 * vs)).max(),
        )
    )


def oracle_check(X, means, v_star, sign: int = 1) -> tuple[int, np.ndarray]:
    """On contexts ``X`` (n, d) with mean rewards ``means`` (n, 2; columns arm −1, arm +1):
    the actions a*(x) = sgn(sign · v*ᵀx) (+1 on the boundary) and the number of contexts where
    a* is the worse arm by more than 1e-15 (the float64 rounding of m_a when v*ᵀx ~ 1e-16)."""
    s = sign * (np.asarray(X) @ np.asarray(v_star))
    astar = np.where(s >= 0, 1, -1)
    m_best = np.where(astar > 0, means[:, 1], means[:, 0])
    m_other = np.where(astar > 0, means[:, 0], means[:, 1])
    return int(np.sum(m_best < m_other - 1e-15)), astar


def moving_halfspace(max_angle: float = 0.49, seed: int = 11, far=(0.51, 0.99)) -> dict:
    """The moving half-space of app:local_jacobian (eq:app-moving-halfspace) on random draws.

    For v_ε = cos(ε‖u‖) v* + sin(ε‖u‖) u/‖u‖ and Z = v*ᵀX, the paper states
    vᵀ_ε X ≥ 0 ⇔ Z ≥ −(uᵀP⊥X/‖u‖) tan(ε‖u‖) when cos(ε‖u‖) > 0; it rests on the algebraic
    identity vᵀ_ε X = cos(ε‖u‖)[Z + tan(ε‖u‖) uᵀX/‖u‖]. For d in (2, 3, 7), 40 draws each of a
    unit v*, a tangent u (length in [0.1, 3]), an angle ε‖u‖ uniform in (0, ``max_angle`` π)
    and 500 Gaussian X (generator seeded with ``seed``): the indicator mismatches away from
    rounding (|vᵀ_ε X| > 1e-12‖X‖), the identity's error / (1 + ‖X‖), and, at a second angle in
    (``far[0]`` π, ``far[1]`` π) where cos < 0, whether the equivalence reverses for every X.

    Returns
    -------
    dict
        ``mismatches``, ``identity_error``, ``samples`` (the X away from rounding), ``draws``,
        ``flipped`` (draws where the equivalence reverses beyond π/2).
    """
    rng = np.random.default_rng(seed)
    mism, worst, n, flipped, draws = 0, 0.0, 0, 0, 0
    for d in (2, 3, 7):
        for _ in range(40):
            draws += 1
            vs = rng.standard_normal(d)
            vs /= np.linalg.norm(vs)
            u = tangent_projection(vs, rng.standard_normal(d)) * rng.uniform(0.1, 3.0)
            nu = float(np.linalg.norm(u))
            ang = rng.uniform(0.0, max_angle * np.pi)  # eps ||u|| (cos > 0 for < pi/2)
            eps = ang / nu
            v_eps = math.cos(eps * nu) * vs + math.sin(eps * nu) * u / nu
            X = rng.standard_normal((500, d))
            Z = X @ vs
            bound = -(tangent_projection(vs, X) @ u / nu) * math.tan(eps * nu)
            s = X @ v_eps
            nx = np.linalg.norm(X, axis=1)
            clear = np.abs(s) > 1e-12 * nx
            mism += int(np.sum(((s >= 0) != (Z >= bound)) & clear))
            ident = math.cos(eps * nu) * (Z + math.tan(eps * nu) * (X @ u) / nu)
            worst = max(worst, float(np.max(np.abs(s - ident) / (1 + nx))))
            n += int(clear.sum())
            # beyond pi/2 the cosine is negative and the equivalence reverses
            ang2 = rng.uniform(far[0] * np.pi, far[1] * np.pi)
            v2 = math.cos(ang2) * vs + math.sin(ang2) * u / nu
            b2 = -(tangent_projection(vs, X) @ u / nu) * math.tan(ang2)
            flipped += int(np.all((X @ v2 >= 0) != (Z >= b2)))
    return dict(mismatches=mism, identity_error=worst, samples=n, draws=draws, flipped=flipped)


def rational_tangent_update(coef=1, seed: int = 2024, k: int = 300) -> dict:
    """eq:tangent_update in exact rational arithmetic: for ``k`` pairs (v, W) of
    :func:`rational_cases` (generator seeded with ``seed``), G = (I − coef·vvᵀ)W (the paper:
    coef = 1) must satisfy vᵀG = 0, (I − coef·vvᵀ)G = G and (vᵀW)v + G = W exactly.

    Returns
    -------
    dict
        ``n_exact``: the cases that hold before the first failure; ``failure``: None, or
        (vᵀG, v, W) of the first case that fails.
    """
    rng = np.random.default_rng(seed)
    n_exact = 0
    for v, w in rational_cases(rng, k):
        assert sum(x * x for x in v) == 1
        vw = sum(a * b for a, b in zip(v, w))
        G = [wi - coef * vw * vi for wi, vi in zip(w, v)]  # (I - coef vv^T) W, entrywise
        vg = sum(a * b for a, b in zip(v, G))
        PG = [gi - coef * vg * vi for gi, vi in zip(G, v)]
        recon = [vw * vi + gi for vi, gi in zip(v, G)]
        if vg != 0 or PG != G or recon != w:
            return dict(n_exact=n_exact, failure=(vg, v, w))
        n_exact += 1
    return dict(n_exact=n_exact, failure=None)


def float_update_cases(seed: int = 2025, k: int = 60, eta: float = 0.37):
    """Float64 cases of eq:tangent_update and eq:nbl_update with their exact values: ``k``
    triples (v, W, η) — v a float unit vector, W Gaussian, d cycling through 2, 3, 5, 8 — and,
    from the floats' exact binary values, G = W − (vᵀW)v in rational arithmetic and
    v' = (v + ηG)/‖v + ηG‖ at 50 digits (mpmath, precision restored), rounded to float64.

    Returns
    -------
    tuple
        (cases, G, v'): the inputs [(v, W, η), ...], and every case's exact G and v' rounded
        once to float64, concatenated in case order.
    """
    import mpmath

    rng = np.random.default_rng(seed)
    out = []
    for i in range(k):
        d = (2, 3, 5, 8)[i % 4]
        v = rng.standard_normal(d)
        v = v / np.sqrt(np.sum(v * v))
        w = rng.standard_normal(d) * 3.0
        fv, fw = [Fraction(float(x)) for x in v], [Fraction(float(x)) for x in w]
        vw = sum(a * b for a, b in zip(fv, fw))
        G = [wi - vw * vi for wi, vi in zip(fw, fv)]
        with mpmath.workdps(50):
            x = [
                mpmath.mpf(vi.numerator) / vi.denominator
                + mpmath.mpf(eta) * mpmath.mpf(gi.numerator) / gi.denominator
                for vi, gi in zip(fv, G)
            ]
            norm = mpmath.sqrt(mpmath.fsum(t * t for t in x))
            vn = [float(t / norm) for t in x]
        out.append(((v, w, eta), [float(g) for g in G], vn))
    return (
        [c for c, _, _ in out],
        np.concatenate([g for _, g, _ in out]),
        np.concatenate([x for _, _, x in out]),
    )


def reflection_identities(sign: int = -1, seed: int = 5, n_links: int = 6) -> dict:
    """The reflection identities of the proof of prop:population_equilibrium (eq:Z-def): with
    Z = v*ᵀX, X = P⊥X + Zv*, P⊥v* = 0, and X~ = P⊥X + sign·Zv* (the paper: sign = −1) has
    v*ᵀX~ = −Z, ‖X~‖ = ‖X‖, β_+ᵀX = β_−ᵀX~ and X − X~ = 2Zv*.

    First exactly, on 200 rational cases (:func:`rational_cases`, d in (2, 3, 6); a rational θ
    ⊥ v* and Δ/2 = 1/5: the identities need no norm); then in float64 on 400 Gaussian X at each
    of the ``n_links`` case geometries :func:`case_geometry` (i, Δ = 0.2, d in (2, 3)), errors
    / (1 + ‖X‖). One generator seeded with ``seed`` draws both.

    Returns
    -------
    dict
        ``n_exact`` (rational cases before the first failure), ``failure`` (None, or the tuple
        of the six checks, v*, X of the first failing case; then no float part is run),
        ``worst`` (the largest float error), ``n`` (float samples).
    """
    rng = np.random.default_rng(seed)
    n_exact = 0
    for vs, x in rational_cases(rng, 200, dims=(2, 3, 6)):
        d = len(vs)
        raw = [Fraction(int(rng.integers(-9, 10)), int(rng.integers(1, 5))) for _ in range(d)]
        c = sum(a * b for a, b in zip(raw, vs))
        theta = [a - c * b for a, b in zip(raw, vs)]  # theta perpendicular to v*
        half = Fraction(1, 5)  # Delta/2 (the identities need no norm)
        bp = [t + half * s for t, s in zip(theta, vs)]
        bm = [t - half * s for t, s in zip(theta, vs)]
        Z = sum(a * b for a, b in zip(vs, x))
        px = [a - Z * b for a, b in zip(x, vs)]
        xt = [a + sign * Z * b for a, b in zip(px, vs)]
        pv = [a - sum(p * q for p, q in zip(vs, vs)) * a for a in vs]  # P^perp v*
        checks = (
            all(a + Z * b == xx for a, b, xx in zip(px, vs, x)),
            all(p == 0 for p in pv),
            sum(a * b for a, b in zip(vs, xt)) == -Z,
            sum(a * a for a in xt) == sum(a * a for a in x),
            sum(a * b for a, b in zip(bp, x)) == sum(a * b for a, b in zip(bm, xt)),
            all(a - b == 2 * Z * s for a, b, s in zip(x, xt, vs)),
        )
        if not all(checks):
            return dict(n_exact=n_exact, failure=(checks, vs, x), worst=None, n=0)
        n_exact += 1
    worst, n = 0.0, 0
    for i in range(n_links):
        for d in (2, 3):
            beta, vs, _theta = case_geometry(i, "0.2", d)
            X = rng.standard_normal((400, d))
            Z = X @ vs
            px = tangent_projection(vs, X)
            xt = px + sign * Z[:, None] * vs
            sc = 1 + np.linalg.norm(X, axis=1)
            errs = [
                np.abs(xt @ vs + Z) / sc,
                np.abs(np.linalg.norm(xt, axis=1) - np.linalg.norm(X, axis=1)) / sc,
                np.abs(X @ beta[1] - xt @ beta[0]) / sc,
                np.abs(X - xt - 2 * Z[:, None] * vs).max(1) / sc,
            ]
            worst = max(worst, max(float(e.max()) for e in errs))
            n += 400
    return dict(n_exact=n_exact, failure=None, worst=worst, n=n)


def rational_deltas(rng, n: int):
    """Yield (v*, v, Δ = v − v*, ‖Δ‖², v*ᵀΔ) in exact rational arithmetic for ``n`` rational
    unit pairs (:func:`rational_sphere_pairs`)."""
    for vs, v in rational_sphere_pairs(rng, n):
        D = [a - b for a, b in zip(v, vs)]
        yield vs, v, D, sum(x * x for x in D), sum(a * b for a, b in zip(vs, D))


def delta_decomposition(half=Fraction(1, 2), seed: int = 17) -> dict:
    """eq:app-delta-decomposition: for unit v, v*, Δ = v − v* = u − ``half``·‖Δ‖² v* with
    u = P⊥Δ (the paper: half = 1/2), u = P⊥v and v*ᵀΔ = −half·‖Δ‖²; exactly on 300 rational
    pairs (:func:`rational_deltas`), then in float64 on 400 pairs of :func:`float_pairs` in each
    d in (2, 3, 7), with q(u) = √(1 − ‖u‖²) v* + u = v where vᵀv* > 0.1 (one generator seeded
    with ``seed``).

    Returns
    -------
    dict
        ``n_exact``; ``failure`` (None, or (v*, v) of the first rational case that fails; then
        no float part is run); ``worst`` (float error of the decomposition), ``worst_q``
        (|q(u) − v|), ``n`` (float pairs).
    """
    rng = np.random.default_rng(seed)
    n_exact = 0
    for vs, v, D, nD2, c in rational_deltas(rng, 300):
        u = [a - c * b for a, b in zip(D, vs)]
        cv = sum(a * b for a, b in zip(vs, v))
        uv = [a - cv * b for a, b in zip(v, vs)]
        if not (
            all(a == b - half * nD2 * s for a, b, s in zip(D, u, vs))
            and u == uv
            and c == -half * nD2
        ):
            return dict(n_exact=n_exact, failure=(vs, v), worst=None, worst_q=None, n=0)
        n_exact += 1
    worst, worst_q, n = 0.0, 0.0, 0
    for d in (2, 3, 7):
        vs, v = float_pairs(rng, d, 400)
        D = v - vs
        u = tangent_projection(vs, D)
        nD2 = (D * D).sum(1)
        worst = max(worst, float(np.abs(D - (u - float(half) * nD2[:, None] * vs)).max()))
        pos = v @ vs > 0.1  # sqrt(1 - ||u||^2) is ill-conditioned as v^T v* -> 0
        q = np.sqrt(1 - (u * u).sum(1))[:, None] * vs + u
        worst_q = max(worst_q, float(np.abs(q[pos] - v[pos]).max()))
        n += len(v)
    return dict(n_exact=n_exact, failure=None, worst=worst, worst_q=worst_q, n=n)


def tangent_delta_relation(quarter=Fraction(1, 4), seed: int = 19) -> dict:
    """eq:app-tangent-delta-relation: ‖Δ‖² = ‖u‖² + ``quarter``·‖Δ‖⁴ (the paper: 1/4) for
    unit v, v* and u = P⊥Δ; exactly on 300 rational pairs, then in float64 on 400 pairs in each
    d in (2, 3, 7) (one generator seeded with ``seed``).

    Returns
    -------
    dict
        ``n_exact``; ``failure`` (None, or (v*, v) of the first rational case that fails);
        ``worst`` (float error), ``n`` (float pairs).
    """
    rng = np.random.default_rng(seed)
    n_exact = 0
    for vs, v, D, nD2, c in rational_deltas(rng, 300):
        nu2 = sum((a - c * b) ** 2 for a, b in zip(D, vs))
        if not (nD2 == nu2 + quarter * nD2 * nD2 and nu2 == nD2 - quarter * nD2 * nD2):
            return dict(n_exact=n_exact, failure=(vs, v), worst=None, n=0)
        n_exact += 1
    worst, n = 0.0, 0
    for d in (2, 3, 7):
        vs, v = float_pairs(rng, d, 400)
        D = v - vs
        u = tangent_projection(vs, D)
        nD2 = (D * D).sum(1)
        worst = max(worst, float(np.abs(nD2 - (u * u).sum(1) - float(quarter) * nD2 * nD2).max()))
        n += len(v)
    return dict(n_exact=n_exact, failure=None, worst=worst, n=n)


def perturbation_pairs(seed: int, dims, N: int):
    """For each d of ``dims`` in turn, ``N`` random pairs (x, y) in R^d (arrays (N, d)) for the
    inequality ‖x/‖x‖ − y/‖y‖‖ ≤ 2‖x − y‖/‖y‖, all from one ``numpy.random.default_rng(seed)``
    (a generator of (d, x, y)): y Gaussian at scales e^−5..e^5, and x, by a uniform kind per
    pair, unrelated (Gaussian), near y (y + noise·‖y‖), x = −εy with ε in e^−12..e (the tight
    case) or x = cy + noise with c in e^−3..e^3 (noise Gaussian at scales e^−8..e^2)."""
    rng = np.random.default_rng(seed)
    for d in dims:
        x, y = _perturbation_pair(rng, d, N)
        yield d, x, y


def _perturbation_pair(rng, d: int, N: int) -> tuple:
    y = rng.standard_normal((N, d)) * np.exp(rng.uniform(-5, 5, (N, 1)))
    kind = rng.integers(0, 4, N)
    noise = rng.standard_normal((N, d)) * np.exp(rng.uniform(-8, 2, (N, 1)))
    x = np.where(
        (kind == 0)[:, None],
        rng.standard_normal((N, d)),  # unrelated
        np.where(
            (kind == 1)[:, None],
            y + noise * np.linalg.norm(y, axis=1, keepdims=True),
            np.where(
                (kind == 2)[:, None],  # x = -eps y
                -np.exp(rng.uniform(-12, 1, (N, 1))) * y,
                np.exp(rng.uniform(-3, 3, (N, 1))) * y + noise,
            ),
        ),
    )
    return x, y


def direction_gap_violations(x, y, factor: float = 2.0, slack: float = 1e-12) -> tuple:
    """(the number of rows where ‖x/‖x‖ − y/‖y‖‖ > factor‖x − y‖/‖y‖ · (1 + ``slack``), the
    largest ratio lhs/rhs) by :func:`direction_gap` (``factor`` = 2 as printed)."""
    lhs, rhs = direction_gap(x, y)
    rhs = rhs * factor / 2
    return int(np.sum(lhs > rhs * (1 + slack))), float(np.max(lhs / rhs))


def direction_gap_mp(eps: str, factor=2.0, dps: int = 50) -> tuple:
    """Both sides of ‖x/‖x‖ − y/‖y‖‖ ≤ factor‖x − y‖/‖y‖ at ``dps`` digits for the near-tight
    case x = −εy, y = (3, −4, 12) (lhs = 2, rhs = 2(1 + ε) when ``factor`` = 2), as mpf."""
    with mpmath.workdps(dps):
        yv = mpmath.matrix([mpmath.mpf(3), mpmath.mpf(-4), mpmath.mpf(12)])
        xv = -mpmath.mpf(eps) * yv
        lhs = mpmath.norm(xv / mpmath.norm(xv) - yv / mpmath.norm(yv))
        rhs = factor * mpmath.norm(xv - yv) / mpmath.norm(yv)
    return lhs, rhs


def normalization_residuals(
    seed: int, dims, N: int, divide_by_r: bool = True, r_min: float = 1.0
) -> dict:
    """lem:normalization on random cases: for each d of ``dims``, ``N`` unit u and x = r w
    (a third of the directions w near u, a third near −u, a third uniform; r − 1 = 0 for 100
    cases, else log-uniform in [1e-12, 1e3]; ``r_min`` < 1 puts half the radii in [r_min, 1),
    a mutant), all from ``numpy.random.default_rng(seed)``.

    Returns
    -------
    dict
        ``ineq``: min (‖x − u‖² − ‖x/r − u‖²)/(1 + r²); ``identity``: max |‖x − u‖² −
        ‖x/r − u‖² − (r − 1)(r + 1 − 2xᵀu/r)|/(1 + r²) (without the last /r when
        ``divide_by_r`` is False, a mutant); ``factor``: min (second factor − (r − 1))/(1 + r);
        ``cases``: the number of cases.
    """
    rng = np.random.default_rng(seed)
    worst_ineq, worst_id, worst_factor, n_cases = math.inf, 0.0, math.inf, 0
    for d in dims:
        u = rng.standard_normal((N, d))
        u /= np.linalg.norm(u, axis=1)[:, None]
        w = rng.standard_normal((N, d))
        # a third of the directions hug u (near equality), a third are opposite-ish
        w[: N // 3] = u[: N // 3] + 10.0 ** rng.uniform(-8, 0, N // 3)[:, None] * w[: N // 3]
        w[N // 3 : 2 * N // 3] = -u[N // 3 : 2 * N // 3] + 0.1 * w[N // 3 : 2 * N // 3]
        w /= np.linalg.norm(w, axis=1)[:, None]
        rr = 1 + np.concatenate([np.zeros(100), 10.0 ** rng.uniform(-12, 3, N - 100)])
        if r_min < 1:  # the mutant: radii below 1 as well
            rr[: N // 2] = rng.uniform(r_min, 1.0, N // 2)
        x = rr[:, None] * w
        rn = np.linalg.norm(x, axis=1)
        a = ((x / rn[:, None] - u) ** 2).sum(1)
        b = ((x - u) ** 2).sum(1)
        scale = 1 + rn**2
        xu = (x * u).sum(1)
        second = rn + 1 - 2 * xu / rn if divide_by_r else rn + 1 - 2 * xu
        formula = (rn - 1) * second
        worst_ineq = min(worst_ineq, float(((b - a) / scale).min()))
        worst_id = max(worst_id, float((np.abs(b - a - formula) / scale).max()))
        worst_factor = min(worst_factor, float(((second - (rn - 1)) / (1 + rn)).min()))
        n_cases += N
    return {"ineq": worst_ineq, "identity": worst_id, "factor": worst_factor, "cases": n_cases}


def normalization_counterexample() -> float:
    """‖x/‖x‖ − u‖² − ‖x − u‖² at x = (1/2, 1/2), u = e₁ (> 0: lem:normalization needs
    ‖x‖ ≥ 1)."""
    x, u = np.array([0.5, 0.5]), np.array([1.0, 0.0])
    return float(np.sum((x / np.linalg.norm(x) - u) ** 2) - np.sum((x - u) ** 2))
