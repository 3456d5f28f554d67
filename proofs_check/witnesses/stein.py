"""The Gaussian Stein identities of sec:stein and app:gaussian_stein, evaluated directly.

* :func:`first_order_errors`, :func:`two_arm_errors`: the d-dimensional left sides
  E[g(βᵀX)X] by tensor Gauss–Hermite in the original coordinates (:mod:`.gaussian`; a generic,
  non-axis β, so no 1-D reduction is used) at two node counts, against the right side with a
  given μ_g (the library's, passed in: the library side of the comparison).
* :func:`scalar_identity`: E[Z g(Z)] and E[g'(Z)] by mpmath quad on the link's chart, against a
  given μ_g.
* :func:`gaussian_stein_lemma`: lem:gaussian_stein for the smooth test functions
  :data:`TEST_FUNCTIONS`, left sides by tensor Gauss–Hermite, right sides by composite
  Gauss–Legendre in 1-D (:func:`.gaussian.gauss_mean`).
"""

from __future__ import annotations

import mpmath
import numpy as np

from .gaussian import gauss_mean, gh_tensor, ridge_first_moment
from .geometry import unit_vectors

__all__ = [
    "first_order_errors",
    "scalar_identity",
    "two_arm_errors",
    "TEST_FUNCTIONS",
    "gaussian_stein_lemma",
]


def first_order_errors(
    links: dict, mus: dict, nodes: dict, scale: float = 1.0, seed: int = 515
) -> tuple[float, float, list]:
    """prop:first-order-stein, E[g(βᵀX)X] = μ_g β, for each link of ``links`` (key → link) at
    a random unit β (one generator seeded with ``seed``) in d = 2, 3 (d = 2 only for a link
    given by a potential: its g inverts φ' and is slow), by :func:`.gaussian.ridge_first_moment`
    with the two node counts ``nodes[d]``; the right side is ``scale`` · ``mus[key]`` · β.

    Returns
    -------
    worst : float
        max |E g(βᵀX)X (finer rule) − scale μ_g β|.
    est : float
        max |finer − coarser| (the coarser rule's error estimate).
    rows : list of tuple
        (key, d, error) per case.
    """
    rng = np.random.default_rng(seed)
    worst, est, rows = 0.0, 0.0, []
    for key, link in links.items():
        mu = mus[key]
        dims = (2,) if link.kind == "potential" else (2, 3)  # potentials invert phi' (slow)
        for d in dims:
            beta = unit_vectors(rng, d)[0]
            lo, hi = (ridge_first_moment(link.g_numpy, beta, n) for n in nodes[d])
            err = float(np.abs(hi - scale * mu * beta).max())
            est = max(est, float(np.abs(hi - lo).max()))
            worst = max(worst, err)
            rows.append((key, d, err))
    return worst, est, rows


def scalar_identity(link, mu, shift: str = "0", dps: int = 35) -> tuple:
    """E[Z g(Z)] = E[g'(Z)] (the scalar identity behind prop:first-order-stein) by mpmath quad
    at ``dps`` digits on the link's chart over |z| ≤ 14 (8 panels; the Gaussian tail beyond is
    < 1e-42), and E[Z g(Z)] against ``mu`` (the library's μ_g). ``shift`` is added to E[g'(Z)]
    (for mutants).

    Returns
    -------
    tuple of mpf
        (E[Z g(Z)], max(|E Zg(Z) − E g'(Z)|, |E Zg(Z) − mu|)).
    """
    lo, hi = link.t_range(-14, 14)
    with mpmath.workdps(dps):
        pts = mpmath.linspace(mpmath.mpf(lo), mpmath.mpf(hi), 9)

        def zg(t):
            z, w0, _, _ = link.chart_mpmath(t)
            return z * w0 * mpmath.npdf(z)

        def g1(t):
            z, _, w1, _ = link.chart_mpmath(t)
            return w1 * mpmath.npdf(z)

        a, b = mpmath.quad(zg, pts), mpmath.quad(g1, pts) + mpmath.mpf(shift)
        return a, max(abs(a - b), abs(a - mu))


def two_arm_errors(
    g, beta_minus, beta_plus, delta: float, v_star, mu: float, nodes, coef: float = 1.0
) -> tuple[float, float]:
    """eq:Stein_for_vstar, E[m_+(X)X − m_−(X)X] = μ_g(β_+ − β_−) = Δμ_g v*, by the tensor rule
    :func:`.gaussian.gh_tensor` at the two node counts ``nodes``; ``coef`` multiplies the right
    sides (for mutants), ``mu`` is the library's μ_g.

    Returns
    -------
    tuple of float
        (max |left − coef μ_g(β_+ − β_−)| and |left − coef Δ μ_g v*| with the finer rule,
        max |finer − coarser|).
    """
    bm, bp = beta_minus, beta_plus
    vals = []
    for n in nodes:
        X, W = gh_tensor(n, bm.size)
        diff = g(X @ bp) - g(X @ bm)
        vals.append((W * diff) @ X)
    est = float(np.abs(vals[1] - vals[0]).max())
    worst = max(
        float(np.abs(vals[1] - coef * mu * (bp - bm)).max()),
        float(np.abs(vals[1] - coef * delta * mu * v_star).max()),
    )
    return worst, est


#: Smooth test functions of lem:gaussian_stein: name → (f, f', f''), each called as
#: ``fn(z, m)`` with ``m`` the numpy or mpmath module.
TEST_FUNCTIONS = {
    "z^3 - 2z^2 + 0.5": (
        lambda z, m: z**3 - 2 * z**2 + 0.5,
        lambda z, m: 3 * z**2 - 4 * z,
        lambda z, m: 6 * z - 4,
    ),
    "sin(2z + 0.3)": (
        lambda z, m: m.sin(2 * z + 0.3),
        lambda z, m: 2 * m.cos(2 * z + 0.3),
        lambda z, m: -4 * m.sin(2 * z + 0.3),
    ),
    "exp(0.4z)": (
        lambda z, m: m.exp(0.4 * z),
        lambda z, m: 0.4 * m.exp(0.4 * z),
        lambda z, m: 0.16 * m.exp(0.4 * z),
    ),
    "tanh(1.5z - 0.2)": (
        lambda z, m: m.tanh(1.5 * z - 0.2),
        lambda z, m: 1.5 * (1 - m.tanh(1.5 * z - 0.2) ** 2),
        lambda z, m: -4.5 * m.tanh(1.5 * z - 0.2) * (1 - m.tanh(1.5 * z - 0.2) ** 2),
    ),
    "1/(1 + e^-z)": (
        lambda z, m: 1 / (1 + m.exp(-z)),
        lambda z, m: m.exp(-z) / (1 + m.exp(-z)) ** 2,
        lambda z, m: m.exp(-z) * (m.exp(-z) - 1) / (1 + m.exp(-z)) ** 3,
    ),
}


def gaussian_stein_lemma(
    cases, nodes: dict, second: float = 1.0, first: int = 1, seed: int = 99
) -> dict:
    """lem:gaussian_stein: E[X f(bᵀX)] = E[f'(bᵀX)] b and E[XXᵀ f(bᵀX)] = E[f(bᵀX)] I +
    E[f''(bᵀX)] bbᵀ (and the "equivalently" form E[(XXᵀ − I) f] = E f'' bbᵀ) for every
    :data:`TEST_FUNCTIONS` entry and every (d, ‖b‖) of ``cases`` (b of a random direction, one
    generator seeded with ``seed``); left sides by :func:`.gaussian.gh_tensor` at the two node
    counts ``nodes[d]``, right sides by :func:`.gaussian.gauss_mean`. ``second`` multiplies the
    f'' term and ``first=0`` puts E f for E f' (for mutants). Errors relative to
    max(1, |entry|).

    Returns
    -------
    dict
        ``first``, ``second``: the largest relative errors of the two identities (finer rule);
        ``est``: the largest relative difference of the two rules; ``n``: the cases.
    """
    rng = np.random.default_rng(seed)
    worst1 = worst2 = est = 0.0
    n = 0
    for d, norm in cases:
        beta = unit_vectors(rng, d)[0] * norm
        for f, f1, f2 in TEST_FUNCTIONS.values():
            Ef, Ef1, Ef2 = (gauss_mean(fn, norm) for fn in (f, f1, f2))
            rhs1 = (Ef1 if first else Ef) * beta
            rhs2 = Ef * np.eye(d) + second * Ef2 * np.outer(beta, beta)
            got = []
            for k in nodes[d]:
                X, W = gh_tensor(k, d)
                fv = W * f(X @ beta, np)
                got.append((fv @ X, (X * fv[:, None]).T @ X))
            (a1, a2), (b1, b2) = got
            scale1, scale2 = np.maximum(1, np.abs(rhs1)), np.maximum(1, np.abs(rhs2))
            est = max(
                est,
                float(np.max(np.abs(a1 - b1) / scale1)),
                float(np.max(np.abs(a2 - b2) / scale2)),
            )
            worst1 = max(worst1, float(np.max(np.abs(b1 - rhs1) / scale1)))
            # the "equivalently" form: E[(XX^T - I) f] = E f'' b b^T
            eq = b2 - Ef * np.eye(d)
            worst2 = max(
                worst2,
                float(np.max(np.abs(b2 - rhs2) / scale2)),
                float(np.max(np.abs(eq - second * Ef2 * np.outer(beta, beta)) / scale2)),
            )
            n += 1
    return dict(first=worst1, second=worst2, est=est, n=n)
