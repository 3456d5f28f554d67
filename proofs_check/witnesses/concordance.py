"""Self-concordance and the elicitation form of λ*, recomputed from the paper's definitions
(app:elicitation_stability, app:self_concordance).

* :func:`ratio_sup_on_chart` — max |g''(z)|/g'(z) on a dense grid of the link's chart (float64
  chart derivatives, no library sup): a lower bound of the self-concordance constant R that
  comes within ~1e-8 of R on the paper's links, so it both tests the hypothesis
  |g''| ≤ R g' with the toolkit's R and shows R is not inflated;
* :func:`elicitation_moments` — μ* and m₂ of eq:app_mustar_elicitation and
  eq:app_m2_elicitation for a potential φ on (0, 1), as 1-D integrals in the primal variable m.
  With W = U + (Δ/2)Z ~ N(0, 1) and Z | W ~ N(aW, s²) (a = Δ/2, s² = 1 − a²),
  P(Z > 0 | W) = Φ(aW/s); substituting w = φ'(m), dw = φ''(m) dm,

  μ* = E[1{Z>0}/φ''{g(W)}] = ∫ φ₀(φ'(m)) Φ(aφ'(m)/s) dm,
  m₂ = −E[φ'''{g(U)}/φ''{g(U)}³] = −∫ φ'''(m)/φ''(m)² p_U(φ'(m)) dm,  p_U the N(0, s²) density,

  evaluated by mpmath tanh-sinh quadrature (the integrands decay like e^{−log²} at the ends);
* :func:`sufficient_margin` — margin(Δ) = Δ/2 − φ0(0)(1 − Δ²/4)R/κ(RΔ/2) of
  prop:self-concordance-stability with κ integrated from its definition
  (:func:`.gaussian.kappa_by_definition`, not the closed form the library evaluates), and
  :func:`margin_root`, its root in Δ by brentq;
* :func:`elicitation_lambda_star` — λ* of eq:elicitation-stability-coefficient assembled from
  those μ*, m₂ (and :func:`relative_differences` to another computation's values);
* :func:`proof_steps` — the inequalities of the proof of prop:self-concordance-stability, step
  by step, from chart moments, μ*, m₂ and κ by its definition;
* :func:`hand_derived_R` — R of the reference links as derived by hand (exact);
* :func:`hand_derived_sup_at` — where that sup is reached (attained, or a limit at which ends).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp
from scipy.optimize import brentq

from nbl_theory.elicitation import M

from .gaussian import kappa_by_definition

__all__ = [
    "ratio_sup_on_chart",
    "elicitation_moments",
    "sufficient_margin",
    "margin_root",
    "elicitation_lambda_star",
    "relative_differences",
    "proof_steps",
    "hand_derived_R",
    "hand_derived_sup_at",
]


def ratio_sup_on_chart(link, zmax: float = 40.0, n: int = 40001) -> tuple[float, float]:
    """(max |g''/g'|, the z where it is largest) over ``n`` equally spaced chart nodes covering
    |z| ≤ ``zmax`` (float64; nodes where the chart is not finite are skipped)."""
    lo, hi = link.t_range(-zmax, zmax)
    t = np.linspace(lo, hi, n)
    with np.errstate(all="ignore"):
        z, _, w1, w2 = link.chart_numpy(t)
        r = np.abs(np.asarray(w2) / np.asarray(w1))
    ok = np.isfinite(r)
    i = int(np.argmax(np.where(ok, r, -np.inf)))
    return float(r[i]), float(np.asarray(z)[i])


def elicitation_moments(phi, delta, dps: int = 40, m2_power: int = 3) -> dict:
    """μ* and m₂ of the potential ``phi`` (a sympy expression in ``M`` on (0, 1)) at separation
    ``delta`` from eq:app_mustar_elicitation and eq:app_m2_elicitation (module docstring),
    at ``dps`` working digits; ``m2_power`` is the power of φ'' in eq:app_m2_elicitation (3 as
    printed; another value is a mutant). Returns mpf values {"mu_star", "m2"}."""
    d1, d2, d3 = (sp.lambdify(M, sp.diff(phi, M, k), modules="mpmath") for k in (1, 2, 3))
    with mpmath.workdps(dps):
        a = mpmath.mpf(delta) / 2
        s = mpmath.sqrt(1 - a * a)
        c = 1 / mpmath.sqrt(2 * mpmath.pi)
        pts = [0, mpmath.mpf(1) / 4, mpmath.mpf(1) / 2, mpmath.mpf(3) / 4, 1]

        def mu_integrand(m):
            w = d1(m)
            return c * mpmath.exp(-w * w / 2) * mpmath.ncdf(a * w / s)

        def m2_integrand(m):
            u = d1(m)
            p_u = c / s * mpmath.exp(-((u / s) ** 2) / 2)
            return -d3(m) / d2(m) ** m2_power * d2(m) * p_u  # du = phi'' dm

        return {"mu_star": mpmath.quad(mu_integrand, pts), "m2": mpmath.quad(m2_integrand, pts)}


def kappa_at_margin(R: float, delta, dps: int = 30) -> float:
    """κ(RΔ/2), the κ of the margin of prop:self-concordance-stability, by quadrature of its
    definition at ``dps`` digits (:func:`~proofs_check.witnesses.gaussian.kappa_by_definition`),
    returned as a float; ``delta`` a float or a decimal string."""
    return float(kappa_by_definition(R * float(delta) / 2, dps=dps))


def sufficient_margin(R: float, delta: float, kappa_scale: float = 1.0) -> float:
    """margin(Δ) = Δ/2 − φ0(0)(1 − Δ²/4) R/κ(RΔ/2) as printed in
    prop:self-concordance-stability, κ by quadrature of its definition at 20 digits, returned
    as a float (~1e-16 relative); ``kappa_scale`` multiplies κ (another value is a broken
    witness, for the claims' mutants)."""
    kap = kappa_at_margin(R, delta, dps=20) * kappa_scale
    return delta / 2 - (1 - delta * delta / 4) * R / (math.sqrt(2 * math.pi) * kap)


def margin_root(R: float, kappa_scale: float = 1.0) -> float:
    """The Δ ∈ (0, 2) where margin(Δ) changes sign from − to + (brentq on
    :func:`sufficient_margin`, xtol 1e-12), NaN when margin does not change sign on
    [1e-9, 2 − 1e-12]."""
    lo, hi = 1e-9, 2 - 1e-12
    if not sufficient_margin(R, hi, kappa_scale) > 0 > sufficient_margin(R, lo, kappa_scale):
        return float("nan")
    return brentq(lambda d: sufficient_margin(R, d, kappa_scale), lo, hi, xtol=1e-12)


def elicitation_lambda_star(phi, delta, dps: int = 40, m2_power: int = 3) -> dict:
    """μ*, m₂ (:func:`elicitation_moments`) and λ* = Δμ* − 2φ0(0)(1 − Δ²/4)(m₂)₊ assembled from
    them as in eq:elicitation-stability-coefficient, at ``dps`` working digits; ``delta`` is an
    exact rational (anything :class:`sympy.Rational` takes). Returns mpf values
    {"mu_star", "m2", "lambda_star"}."""
    q = sp.Rational(delta)
    w = elicitation_moments(phi, q, dps=dps, m2_power=m2_power)
    with mpmath.workdps(dps):
        d = mpmath.mpf(q.p) / q.q
        lam = d * w["mu_star"] - 2 / mpmath.sqrt(2 * mpmath.pi) * (1 - d * d / 4) * max(w["m2"], 0)
    return {**w, "lambda_star": lam}


def relative_differences(values: dict, reference: dict, dps: int = 40) -> dict:
    """{k: |values[k] − reference[k]|/|reference[k]|} for every key of ``values``, evaluated at
    ``dps`` working digits (mpf)."""
    with mpmath.workdps(dps):
        return {k: abs(v - reference[k]) / abs(reference[k]) for k, v in values.items()}


def proof_steps(
    R: float, delta: float, moments: dict, margin: float, lam_lo: float, tol: float
) -> tuple[dict, dict, float]:
    """The steps of the proof of prop:self-concordance-stability at separation ``delta``, each
    with relative slack ``tol``, from ``moments`` {"e1": E g'(U), "e2abs": E|g''(U)| (the chart
    moments), "m2": m₂, "mu": μ*}, the margin and the lower end ``lam_lo`` of λ*'s enclosure,
    with κ = κ(RΔ/2) integrated from its definition (:func:`.gaussian.kappa_by_definition`).

    Returns
    -------
    steps : dict
        {step: holds}: (m₂)₊ ≤ |m₂| ≤ E|g''(U)| ≤ R E g'(U) (eq:self-concordance-m2-bound; the
        first inequality is immediate), μ* ≥ κ E g'(U) (eq:self-concordance-mu-bound),
        (m₂)₊ ≤ Rμ*/κ (eq:self-concordance-curvature-control) and λ* ≥ 2μ*·margin.
    ratios : dict
        {"m2": E|g''(U)|/(R E g'(U)), "mu": κ E g'(U)/μ*, "curv": (m₂)₊ κ/(Rμ*)}: each ≤ 1 when
        its step holds.
    bound : float
        2μ*·margin, the lower bound of λ* the proposition proves.
    """
    e1, e2abs, m2, mu = (moments[k] for k in ("e1", "e2abs", "m2", "mu"))
    k = float(kappa_by_definition(R * delta / 2, dps=20))
    steps = {
        "(m2)+ <= |m2| <= E|g''(U)| <= R E g'(U)": abs(m2) <= e2abs * (1 + tol)
        and e2abs <= R * e1 * (1 + tol),
        "mu* >= kappa E g'(U)": mu >= k * e1 * (1 - tol),
        "(m2)+ <= R mu*/kappa": max(m2, 0.0) <= R / k * mu * (1 + tol),
        "lambda* >= 2 mu* margin": 2 * mu * margin <= lam_lo + tol * abs(lam_lo),
    }
    ratios = {"m2": e2abs / (R * e1), "mu": k * e1 / mu, "curv": max(m2, 0.0) * k / (R * mu)}
    return steps, ratios, 2 * mu * margin


def hand_derived_R(kind: str, rho=None, scale=1):
    """The self-concordance constant R = sup |g''|/g' of a reference link, derived by hand
    (exact sympy; times ``scale``, a mutant's factor): logistic g''/g' = 1 − 2g ∈ (−1, 1), so
    R = 1 (a limit); exponential g''/g' = 1, R = 1 (attained); weighted entropy φ_ρ:
    |d/dm (1/φ_ρ'')| is largest at an end of (0, 1), R = 1/(1 − |ρ|) (a limit)."""
    if kind == "weighted-entropy":
        return 1 / (1 - abs(sp.Rational(rho))) * scale
    if kind in ("logistic", "exp"):
        return sp.Integer(1) * scale
    raise ValueError(f"no hand-derived R for {kind!r}")


def hand_derived_tail_limits(kind: str) -> tuple | None:
    """The limits of g''/g' at z → −∞ and z → +∞ of a reference link whose sup is approached
    only there, derived by hand (exact sympy): logistic g''/g' = 1 − 2g, with g → 0 and 1, so
    (1, −1); None for a link without such limits here (the library gives them only for the
    logistic, :func:`nbl_theory.elicitation.self_concordance_constant_closed_form`)."""
    return (sp.Integer(1), sp.Integer(-1)) if kind == "logistic" else None


def hand_derived_sup_at(kind: str, rho=None) -> tuple[bool, str]:
    """Where the sup R = sup |g''|/g' of a reference link is reached, derived by hand, as
    :class:`nbl_theory.self_concordance.SCConstant` states it: ``(attained, where)``.

    * logistic: |g''|/g' = |1 − 2g| < 1 at every finite z and → 1 at both ends: a limit, at
      ``"-inf,+inf"``;
    * exponential: g''/g' ≡ 1: attained ``"everywhere"``;
    * weighted entropy φ_ρ (φ'' = (1+ρ)/m + (1−ρ)/(1−m), |g''|/g' = |φ'''|/φ''²): the limits
      are 1/(1+ρ) as m → 0 (z → −∞) and 1/(1−ρ) as m → 1 (z → +∞), and the ratio stays below
      the larger inside (0, 1): a limit, at ``"+inf"`` for ρ > 0, ``"-inf"`` for ρ < 0 and both
      ends for ρ = 0.

    Parameters
    ----------
    kind : {"logistic", "exp", "weighted-entropy"}
        The reference link.
    rho : str or number, optional
        ρ of the weighted entropy.

    Returns
    -------
    attained : bool
        Whether the sup is attained at a finite z.
    where : str
        ``"everywhere"``, or the end(s) whose limit is the sup.

    Raises
    ------
    ValueError
        For a link with no hand derivation here.
    """
    if kind == "weighted-entropy":
        r = sp.Rational(rho)
        return False, "+inf" if r > 0 else "-inf" if r < 0 else "-inf,+inf"
    if kind == "logistic":
        return False, "-inf,+inf"
    if kind == "exp":
        return True, "everywhere"
    raise ValueError(f"no hand-derived sup for {kind!r}")
