"""The steps of the proof of prop:local_jacobian (app:local_jacobian) and the rates of
eq:decision_stability, each compared with the formula the paper writes for it.

Every function takes the finite-difference quantities of :mod:`.local_expansions` (the own
field F_± and h = P⊥(F_+ − F_−), Richardson differences along the paper's paths), the boundary
matrix of :mod:`.fields` and the witness's μ*, κ*, m0, m2 from their 2-D definitions
(:mod:`.direct_definitions`), evaluates the paper's right-hand side with the coefficient or sign
it is given (so that a wrong coefficient can be shown to be noticed), and returns the error in
units of the field scale S. No library field or stability value enters a returned error except
where a function says it is the library side of a comparison (:func:`boundary_f_errors`).
"""

from __future__ import annotations

import numpy as np

from nbl_theory.numeric import PHI0

from .direct_definitions import direct_moments
from .fields import boundary_matrix, own_tangent_field
from .geometry import normalized_path, tangent_directions
from .local_expansions import jacobian_steps, paper_cases, tangent_spectrum

__all__ = [
    "paper_tangent_rates",
    "lambda_star_of",
    "spectrum_error",
    "decision_stability_cases",
    "linearization_growth",
    "product_rule_errors",
    "projection_derivative_errors",
    "boundary_derivative_errors",
    "boundary_f_errors",
    "stein_matrix_errors",
    "pre_kappa_errors",
    "relative_difference",
    "jacobian_errors",
]


def relative_difference(a, b) -> float:
    """|a − b| / max(|b|, 1e-300) in float64 (``b`` the reference)."""
    return abs(float(a) - float(b)) / max(abs(float(b)), 1e-300)


def paper_tangent_rates(
    delta: float, mu: float, m2: float, phi0: float = PHI0, theta_norm2: float | None = None
) -> tuple[float, float]:
    """The tangent rates prop:local_jacobian states for Dh(v*) (eq:Jacobian): Δμ* for u ⊥ θ and
    Δμ* − 2φ0(0) m2 ‖θ‖² along θ, ‖θ‖² = 1 − Δ²/4 (``theta_norm2`` replaces it, ``phi0`` the
    coefficient φ0(0), both for mutants).

    Returns
    -------
    tuple of float
        (orthogonal rate, θ-rate).
    """
    s2 = 1 - delta**2 / 4 if theta_norm2 is None else theta_norm2
    return delta * mu, delta * mu - 2 * phi0 * m2 * s2


def lambda_star_of(
    delta: float,
    mu: float,
    m2: float,
    positive_part: bool = True,
    quarter: float = 4.0,
    phi0: float = PHI0,
) -> float:
    """λ* = Δμ* − 2φ0(0)(m2)_+(1 − Δ²/4) of eq:decision_stability from given μ*, m2
    (``positive_part=False`` drops the positive part, ``quarter`` replaces the 4, for mutants)."""
    return delta * mu - 2 * phi0 * (max(m2, 0.0) if positive_part else m2) * (
        1 - delta**2 / quarter
    )


def spectrum_error(sp: dict, orth: float, theta: float, d: int) -> float:
    """The largest difference, in units of S, between the finite-difference tangent rates
    ``sp`` (:func:`.local_expansions.tangent_spectrum`) and the rates ``orth`` (multiplicity
    d − 2) and ``theta`` (once), including the θ-rate read along θ̂."""
    want = np.sort([orth] * (d - 2) + [theta])
    err = float(np.abs(sp["rates"] - want).max()) / sp["S"]
    return max(err, abs(sp["theta_rate"] - theta) / sp["S"])


def decision_stability_cases(
    keys, deltas, positive_part: bool = True, quarter: float = 4.0, project: bool = True
) -> list:
    """Per (paper link, Δ): λ* (:func:`lambda_star_of` with μ*, m2 from their 2-D definitions)
    against the finite-difference tangent rates of the own field in d = 2 and d = 3.

    Returns
    -------
    list of dict
        ``key, delta, m2, lam`` (λ*), ``rate2`` (the d = 2 rate), ``gap`` = (rate2 − λ*)/S in
        d = 2, ``ratio`` = rate2/λ*, ``d3_error`` = |slowest d = 3 rate − λ*|/S, ``spectra``:
        the d = 2 and d = 3 :func:`.local_expansions.tangent_spectrum` results.
    """
    out = []
    for key in keys:
        for delta in deltas:
            mom = direct_moments(key, float(delta))
            dl, m2 = float(delta), mom["m2"]
            lam = lambda_star_of(dl, mom["mu_star"], m2, positive_part, quarter)
            d2 = tangent_spectrum(key, delta, 2, project)
            d3 = tangent_spectrum(key, delta, 3, project)
            rate2 = float(d2["rates"][0])
            out.append(
                dict(
                    key=key,
                    delta=delta,
                    m2=m2,
                    lam=lam,
                    rate2=rate2,
                    gap=(rate2 - lam) / d2["S"],
                    ratio=rate2 / lam,
                    d3_error=abs(d3["rates"][0] - lam) / d3["S"],
                    spectra={2: d2, 3: d3},
                )
            )
    return out


def linearization_growth(deltas, dims, eps, phi0: float = PHI0) -> dict:
    """The remainder of h(v_u(ε)) = ε Dh(v*)[u] + o(ε) (eq:app-h-linearization) along
    v_u(ε) = (v* + εu)/‖v* + εu‖ at the steps ``eps`` (decreasing), for every paper case and
    tangent direction; Dh(v*) is eq:Jacobian with μ*, m2 from their 2-D definitions and the
    coefficient ``phi0``.

    Returns
    -------
    dict
        ``growth``: the largest ratio(eps[-1]) / (1.5 max ratio(larger eps) + 1e-8), ratio =
        ‖remainder‖/(S ε²) (≤ 1 when the remainder is O(ε²)); ``cmax``: the largest ratio;
        ``lin_max``: the largest ‖remainder‖/(S ε) at the smallest ε; ``n``: the cases.
    """
    eps = np.asarray(eps, dtype=float)
    worst_growth, cmax, lin_max, n = 0.0, 0.0, 0.0, 0
    for c in paper_cases(deltas, dims):
        J = c.jacobian(phi0)
        for _name, u in tangent_directions(c.vs, c.theta, c.d):
            h = own_tangent_field(c.link, c.beta, normalized_path(c.vs, u, eps))
            rem = np.linalg.norm(h - eps[:, None] * (J @ u)[None, :], axis=1) / c.S
            ratio = rem / eps**2
            growth = ratio[-1] / (1.5 * ratio[:-1].max() + 1e-8)
            worst_growth = max(worst_growth, growth)
            cmax = max(cmax, float(ratio.max()))
            lin_max = max(lin_max, float(rem[-1] / eps[-1]))
            n += 1
    return dict(growth=worst_growth, cmax=cmax, lin_max=lin_max, n=n)


def product_rule_errors(deltas, dims, with_dp_term: bool = True) -> list:
    """eq:app-Dh-product, Dh(v*)[u] = DP(v*)[u] F(v*) + P⊥ DF(v*)[u], per row of
    :func:`.local_expansions.jacobian_steps` (``with_dp_term=False`` drops the first term).

    Returns
    -------
    list of tuple
        (row, max|Dh − right side|/S).
    """
    errs = []
    for r in jacobian_steps(deltas, dims):
        rhs = (r["DP"] @ r["own_F_star"] if with_dp_term else 0.0) + r["proj"] @ r["DF_norm"]
        errs.append((r, float(np.abs(r["Dh"] - rhs).max()) / r["S"]))
    return errs


def projection_derivative_errors(deltas, dims, sign: float = -1.0) -> tuple[list, float]:
    """eq:app-projection-derivative: DP(v*)[u] = sign·(u v*ᵀ + v* uᵀ) (the paper: sign −1)
    against the finite difference of P_v^⊥, and DP(v*)[u] F(v*) = −κ* u with the own F(v*) and
    κ* from its 2-D definition.

    Returns
    -------
    errs : list of tuple
        (row, max(|DP F* + κ* u|/S, the running max of |DP − formula|)) per row.
    worst_dp : float
        max |FD of P − formula| over all rows.
    """
    errs, worst_dp = [], 0.0
    for r in jacobian_steps(deltas, dims):
        u, vs = r["u"], r["vs"]
        dp_formula = sign * (np.outer(u, vs) + np.outer(vs, u))
        worst_dp = max(worst_dp, float(np.abs(r["DP"] - dp_formula).max()))
        err = np.abs(dp_formula @ r["own_F_star"] + r["wit"]["kappa_star"] * u).max()
        errs.append((r, max(float(err) / r["S"], worst_dp)))
    return errs, worst_dp


def boundary_derivative_errors(deltas, dims, arm: str, coef: float) -> list:
    """The finite-difference derivative ``arm`` (``"DFp"`` or ``"DFm"``: the own F_± along the
    spherical path) against ``coef`` M u, M the boundary matrix (eq:app-boundary-Fplus/-Fminus:
    coef = ±φ0(0)).

    Returns
    -------
    list of tuple
        (row, max|D F_± − coef M u|/S).
    """
    return [
        (r, float(np.abs(r[arm] - coef * r["M"] @ r["u"]).max()) / r["S"])
        for r in jacobian_steps(deltas, dims)
    ]


def boundary_f_errors(deltas, dims, phi0: float = PHI0) -> tuple[list, float, float]:
    """eq:app-DF: D(F_+ − F_−)(v*)[u] of the own field against 2φ0(0) M u, and the library's
    field (``DF``, ``F_star`` of :func:`.local_expansions.jacobian_steps`: the library side of
    the comparison) against the own one.

    Returns
    -------
    errs : list of tuple
        (row, max|own DF − 2 phi0 M u|/S).
    lib_err : float
        max |library DF − own DF|/S.
    own_vs_lib : float
        max |own F(v*) − library F(v*)|.
    """
    errs, lib_err, own_vs_lib = [], 0.0, 0.0
    for r in jacobian_steps(deltas, dims):
        rhs = 2 * phi0 * r["M"] @ r["u"]
        own = r["DFp"] - r["DFm"]
        own_vs_lib = max(own_vs_lib, float(np.abs(r["own_F_star"] - r["F_star"]).max()))
        lib_err = max(lib_err, float(np.abs(r["DF"] - own).max()) / r["S"])
        errs.append((r, float(np.abs(own - rhs).max()) / r["S"]))
    return errs, lib_err, own_vs_lib


def stein_matrix_errors(deltas, dims, unit_theta: bool = False) -> dict:
    """eq:app-m0 and the second-order Stein step: the boundary matrix M = E[g(θᵀP⊥X) P⊥X
    (P⊥X)ᵀ] against m0 P⊥ + m2 θθᵀ (m0, m2 from their 2-D definitions; ``unit_theta`` uses θ̂
    for θ, a mutant), and its c0 = E[g(θᵀX)] against the toolkit's m0 (the library side).

    Returns
    -------
    dict
        ``m0``: max |c0 − toolkit m0|/S; ``matrix``: max |M − (m0 P⊥ + m2 θθᵀ)|/S; ``n``: cases.
    """
    worst_m0, worst_mat, n = 0.0, 0.0, 0
    for c in paper_cases(deltas, dims):
        M, c0, _c2 = boundary_matrix(c.link, c.theta, c.vs)
        proj = np.eye(c.d) - np.outer(c.vs, c.vs)
        worst_m0 = max(worst_m0, abs(c0 - c.st["m0"]) / c.S)
        th = c.theta / np.linalg.norm(c.theta) if unit_theta else c.theta
        stein = c.wit["m0"] * proj + c.wit["m2"] * np.outer(th, th)
        worst_mat = max(worst_mat, float(np.abs(M - stein).max()) / c.S)
        n += 1
    return dict(m0=worst_m0, matrix=worst_mat, n=n)


def pre_kappa_errors(deltas, dims, phi0: float = PHI0) -> list:
    """eq:app-Dh-pre-kappa: Dh(v*)[u] = (−κ* + 2φ0(0) m0) u + 2φ0(0) m2 θ(θᵀu) with κ*, m0, m2
    from their 2-D definitions (``phi0`` the coefficient, for mutants).

    Returns
    -------
    list of tuple
        (row, max|Dh − formula|/S).
    """
    errs = []
    for r in jacobian_steps(deltas, dims):
        w, u, th = r["wit"], r["u"], r["theta"]
        rhs = (-w["kappa_star"] + 2 * phi0 * w["m0"]) * u + 2 * phi0 * w["m2"] * th * float(th @ u)
        errs.append((r, float(np.abs(r["Dh"] - rhs).max()) / r["S"]))
    return errs


def jacobian_errors(deltas, dims, phi0: float = PHI0) -> dict:
    """eq:Jacobian at every paper case: the finite-difference Jacobian of the own field h at v*
    (:func:`.local_expansions.tangent_spectrum`) against −Δμ*P + 2φ0(0) m2 θθᵀ with μ*, m2 from
    their 2-D definitions (``phi0`` the coefficient, for mutants).

    Returns
    -------
    dict
        ``error``: max |FD − eq:Jacobian|/S; ``n``: the cases; ``theta_rates``: (key, Δ,
        finite-difference θ-rate) of the d = 2 cases.
    """
    worst, n, rates = 0.0, 0, []
    for c in paper_cases(deltas, dims):
        sp = tangent_spectrum(c.key, c.delta, c.d)
        worst = max(worst, float(np.abs(sp["matrix"] - c.jacobian(phi0)).max()) / sp["S"])
        n += 1
        if c.d == 2:
            rates.append((c.key, c.delta, sp["theta_rate"]))
    return dict(error=worst, n=n, theta_rates=rates)
