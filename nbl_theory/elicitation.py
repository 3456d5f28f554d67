"""Exact (sympy) layer for the elicitation geometry of the shared link.

Implements Section ``sec:elicitation`` and Appendices ``app:elicitation`` and
``app:elicitation-geometry`` of the paper: Bregman losses and their consistency for the mean,
the primal--dual map ``g = (phi')^{-1}``, convex conjugates, the table
``tab:app_bregman_examples``, the potential induced by a link, the weighted-entropy family,
self-concordance in potential coordinates, and ``mu*``, ``m2``, ``lambda*`` written as 1-D
integrals in the primal coordinate ``m``.

A potential is a sympy expression in the symbol ``m`` (default :data:`M`); a link is an
expression in ``z`` (default :data:`Z`). Everything here is exact; numerical evaluation of the
returned :class:`sympy.Integral` objects belongs to the numeric tiers.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from .errors import NBLInputError
from .expressions import exact_number

__all__ = [
    "Z",
    "M",
    "R_",
    "Y_",
    "MU",
    "THETA",
    "RHO",
    "DELTA",
    "bregman_loss",
    "bregman_derivative",
    "bregman_derivative_matches_weight",
    "bregman_consistency_gap",
    "link_derivatives_from_potential",
    "check_link_derivatives_implicit",
    "convex_conjugate",
    "conjugate_derivative_is_inverse_gradient",
    "BregmanRow",
    "BREGMAN_TABLE",
    "check_bregman_row",
    "dual_domain",
    "covers_real_line",
    "InducedPotential",
    "link_induced_potential",
    "weighted_entropy_potential",
    "weighted_entropy_facts",
    "self_concordance_ratio_from_potential",
    "check_self_concordance_equivalence",
    "self_concordance_constant_closed_form",
    "mustar_integral",
    "m2_integral",
    "lambda_star_expression",
    "closed_form_stability",
]

Z = sp.Symbol("z", real=True)  #: dual coordinate / index value
M = sp.Symbol("m", real=True)  #: primal (mean) coordinate
R_ = sp.Symbol("r", real=True)  #: point prediction
Y_ = sp.Symbol("y", real=True)  #: outcome
MU = sp.Symbol("mu", real=True)  #: mean of F, mu_F
THETA = sp.Symbol("vartheta", real=True)  #: dual coordinate of the conjugate
RHO = sp.Symbol("rho", real=True)  #: weighted-entropy parameter, |rho| < 1
DELTA = sp.Symbol("Delta", positive=True)  #: arm separation Delta_beta in (0, 2)

_S = sp.Symbol("s", real=True)  # integration / range variable
_EPHI = sp.Symbol("E_F[phi(Y)]", real=True)  # opaque expectation of phi(Y)
_PHI_Y = sp.Symbol("phi(y)", real=True)  # placeholder for phi(y) inside the loss
_HALF = sp.Rational(1, 2)


def _is_zero(expr) -> bool:
    """Exact zero test: simplify, then simplify after rewriting hyperbolic/trig via exp."""
    expr = sp.simplify(expr)
    return expr == 0 or sp.simplify(expr.rewrite(sp.exp)) == 0


def _as_sympy(v):
    """A programmatic value as a sympy number without sympify on text: sympy objects pass,
    ints and floats become exact rationals, strings are decimal numbers or ±inf/oo."""
    if isinstance(v, sp.Basic):
        return v
    if isinstance(v, str) and v.strip().lower().lstrip("+") in {"inf", "oo", "infinity"}:
        return sp.oo
    if isinstance(v, str) and v.strip().lower() in {"-inf", "-oo", "-infinity"}:
        return -sp.oo
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return sp.oo if v > 0 else -sp.oo
    return exact_number(v)


def _equal_on(a, b, m, domain) -> bool:
    """a == b for all m in the open interval ``domain``.

    m is replaced by a parametrisation of the interval by a positive symbol, so that sympy may
    use the signs of m and of the distances to the endpoints (e.g. log(m/(1-m)) on (0, 1)).
    """
    lo, hi = (_as_sympy(v) for v in domain)
    u = sp.Symbol("u", positive=True)
    if lo.is_finite and hi.is_finite:
        param = lo + (hi - lo) * u / (1 + u)
    elif lo.is_finite:
        param = lo + u
    elif hi.is_finite:
        param = hi - u
    else:
        param = m
    return _is_zero(sp.expand_log((a - b).subs(m, param)))


def _phi0(x):
    """Standard normal density."""
    return sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi)


def _Phi(x):
    """Standard normal distribution function."""
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def _s_of(delta):
    """s = sqrt(1 - Delta^2/4), the standard deviation of U = theta^T X."""
    return sp.sqrt(1 - delta**2 / 4)


# --------------------------------------------------------------------------- Bregman losses
def bregman_loss(phi, r=R_, y=Y_, m=M):
    r"""Bregman loss of the potential ``phi`` (eq:Bregman_loss, eq:app_bregman_loss).

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    r : sympy.Symbol, default ``R_``
        The prediction r.
    y : sympy.Symbol, default ``Y_``
        The outcome y.
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).

    Returns
    -------
    sympy.Expr
        ℓ_φ(r, y).

    Notes
    -----
    .. math:: \ell_\varphi(r,y)=\varphi(y)-\varphi(r)-\varphi'(r)(y-r).
    """
    dphi = sp.diff(phi, m)
    return phi.subs(m, y) - phi.subs(m, r) - dphi.subs(m, r) * (y - r)  # eq:app_bregman_loss


def bregman_derivative(phi, r=R_, y=Y_, m=M):
    r"""The derivative :math:`\partial_r\ell_\varphi(r,y)`, computed by sympy.

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    r : sympy.Symbol, default ``R_``
        The prediction r.
    y : sympy.Symbol, default ``Y_``
        The outcome y.
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).

    Returns
    -------
    sympy.Expr
        ∂ℓ_φ(r, y)/∂r.
    """
    return sp.diff(bregman_loss(phi, r, y, m), r)


def bregman_derivative_matches_weight(phi, r=R_, y=Y_, m=M) -> bool:
    r"""Check eq:app_bregman_derivative: :math:`\partial_r\ell_\varphi(r,y)=w(r)(r-y)`, w=phi''.

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    r : sympy.Symbol, default ``R_``
        The prediction r.
    y : sympy.Symbol, default ``Y_``
        The outcome y.
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).

    Returns
    -------
    bool
        True when sympy proves ∂ℓ_φ/∂r − φ''(r)(r − y) = 0.
    """
    w = sp.diff(phi, m, 2).subs(m, r)
    return _is_zero(bregman_derivative(phi, r, y, m) - w * (r - y))  # eq:app_bregman_derivative


def bregman_consistency_gap(phi, r=R_, mu=MU, m=M):
    r"""E_F[l(r,Y)] - E_F[l(mu_F,Y)] - l(r, mu_F) for a generic distribution F (lem:bregman_mean).

    The loss is affine in (phi(Y), Y) for a fixed prediction, so its expectation is obtained by
    replacing phi(Y) with the opaque symbol ``E_F[phi(Y)]`` and Y with ``mu``; no property of F
    other than its mean is used. The lemma says the returned expression simplifies to 0.

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    r : sympy.Symbol, default ``R_``
        The prediction r.
    mu : sympy.Symbol, default MU
        The mean μ_F of the outcome's distribution.
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).

    Returns
    -------
    sympy.Expr
        The simplified gap; lem:bregman_mean says it is 0.
    """
    dphi = sp.diff(phi, m)

    def expected_loss(pred):
        loss = _PHI_Y - phi.subs(m, pred) - dphi.subs(m, pred) * (Y_ - pred)
        if sp.Poly(sp.expand(loss), _PHI_Y, Y_).total_degree() > 1:  # pragma: no cover
            raise NBLInputError("Bregman loss is not affine in (phi(Y), Y)")
        return loss.subs({_PHI_Y: _EPHI, Y_: mu})  # linearity of E_F

    gap = expected_loss(r) - expected_loss(mu) - bregman_loss(phi, r, mu, m)  # lem:bregman_mean
    return sp.simplify(gap)


# ------------------------------------------------------------------- link from a potential
def link_derivatives_from_potential(phi, m=M):
    r"""(g', g'') as functions of m = g(z) (sec:decision_stability_geometry).

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).

    Returns
    -------
    tuple of sympy.Expr
        ``(g', g'')`` in m.

    Notes
    -----
    .. math:: g'=1/\varphi''(m),\qquad g''=-\varphi'''(m)/\varphi''(m)^3.
    """
    d2, d3 = sp.diff(phi, m, 2), sp.diff(phi, m, 3)
    return 1 / d2, -d3 / d2**3


def check_link_derivatives_implicit(phi, m=M) -> bool:
    """Differentiate phi'(g(z)) = z with an undefined ``g`` and compare with the m-formulas.

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).

    Returns
    -------
    bool
        True when the implicit derivatives equal :func:`link_derivatives_from_potential`.
    """
    g = sp.Function("g")(Z)
    d1, d2 = sp.symbols("d1 d2")
    identity = sp.diff(phi, m).subs(m, g) - Z  # phi'{g(z)} = z

    def plug(expr):
        return expr.subs(sp.Derivative(g, (Z, 2)), d2).subs(sp.Derivative(g, Z), d1)

    (g1,) = sp.solve(plug(sp.diff(identity, Z)), d1)
    (g2,) = sp.solve(plug(sp.diff(identity, Z, 2)).subs(d1, g1), d2)
    ref1, ref2 = link_derivatives_from_potential(phi, m)
    return _is_zero(g1.subs(g, m) - ref1) and _is_zero(g2.subs(g, m) - ref2)


def _solve_inverse(expr, var, target, sample_var):
    """The solution var = h(target) of expr(var) = target that is real and correct at a sample.

    ``sample_var`` is a point in the domain of ``expr``; the branch kept must map
    expr(sample_var) back to sample_var.
    """
    sample_target = expr.subs(var, sample_var)
    for sol in sp.solve(sp.Eq(expr, target), var):
        val = sp.N(sol.subs(target, sample_target), 30)
        if val.is_real and abs(val - sample_var) < sp.Float("1e-25"):
            return sol
    raise NotImplementedError(f"sympy could not invert {expr} = {target} for {var}")


def _interior_point(lo, hi):
    lo, hi = _as_sympy(lo), _as_sympy(hi)
    if lo.is_finite and hi.is_finite:
        return (lo + hi) / 2
    if lo.is_finite:
        return lo + 1
    if hi.is_finite:
        return hi - 1
    return sp.Rational(1, 3)


# ------------------------------------------------------------------------- convex conjugate
def convex_conjugate(phi, m=M, domain=(-sp.oo, sp.oo), theta=THETA):
    r"""phi*(theta) = sup_r {r theta - phi(r)} at the interior maximiser (eq:app_convex_conjugate).

    The maximiser solves theta = phi'(r); the branch inside ``domain`` is kept.

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).
    domain : tuple, default (-oo, oo)
        The open interval on which φ is defined (selects the branch of the maximiser).
    theta : sympy.Symbol, default THETA
        The conjugate's variable ϑ.

    Returns
    -------
    sympy.Expr
        φ*(ϑ), simplified.
    """
    r_star = _solve_inverse(sp.diff(phi, m), m, theta, _interior_point(*domain))
    return sp.simplify(r_star * theta - phi.subs(m, r_star))  # eq:app_convex_conjugate


def conjugate_derivative_is_inverse_gradient(phi, m=M, domain=(-sp.oo, sp.oo), theta=THETA):
    """Check (phi*)' = (phi')^{-1}: phi'((phi*)'(theta)) = theta (app:primal_dual).

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).
    domain : tuple, default (-oo, oo)
        The open interval on which φ is defined (selects the branch of the inverse).
    theta : sympy.Symbol, default THETA
        The conjugate's variable ϑ.

    Returns
    -------
    bool
        True when sympy proves φ'((φ*)'(ϑ)) − ϑ = 0.
    """
    dconj = sp.diff(convex_conjugate(phi, m, domain, theta), theta)
    return _is_zero(sp.diff(phi, m).subs(m, dconj) - theta)


# -------------------------------------------------------------------- tab:app_bregman_examples
@dataclass(frozen=True)
class BregmanRow:
    """One printed row of tab:app_bregman_examples (all entries as printed in the paper).

    Parameters
    ----------
    name : str
        The row's potential, e.g. ``"negative entropy"``.
    phi : sympy.Expr
        The potential φ in :data:`M`.
    domain : tuple
        Its open interval I.
    w : sympy.Expr
        The printed φ'' in :data:`M`.
    theta : sympy.Expr
        The printed φ' in :data:`M`.
    g : sympy.Expr
        The printed link g_φ in :data:`THETA`.
    """

    name: str
    phi: sp.Expr  # in M
    domain: tuple  # open interval I
    w: sp.Expr  # printed phi'' in M
    theta: sp.Expr  # printed phi' in M
    g: sp.Expr  # printed g_phi in THETA


#: The rows of tab:app_bregman_examples as printed (potential, domain, weight, dual map, link).
BREGMAN_TABLE = (
    BregmanRow("quadratic", M**2 / 2, (-sp.oo, sp.oo), sp.Integer(1), M, THETA),
    BregmanRow("negative-entropy", M * sp.log(M) - M, (0, sp.oo), 1 / M, sp.log(M), sp.exp(THETA)),
    BregmanRow("burg", -sp.log(M), (0, sp.oo), 1 / M**2, -1 / M, -1 / THETA),
    BregmanRow(
        "binary-negative-entropy",
        M * sp.log(M) + (1 - M) * sp.log(1 - M),
        (0, 1),
        1 / (M * (1 - M)),
        sp.log(M / (1 - M)),
        sp.exp(THETA) / (1 + sp.exp(THETA)),
    ),
)


def check_bregman_row(row: BregmanRow) -> dict:
    """Recompute w, theta (derivatives) and g (sympy.solve of phi'(r) = theta); name -> equal.

    Parameters
    ----------
    row : BregmanRow
        A printed row (e.g. of :data:`BREGMAN_TABLE`).

    Returns
    -------
    dict of str to bool
        ``{"w": ..., "theta": ..., "g": ...}``: whether the recomputed entry equals the printed one.
    """
    theta = sp.diff(row.phi, M)
    g = _solve_inverse(theta, M, THETA, _interior_point(*row.domain))
    return {
        "w": _equal_on(sp.diff(row.phi, M, 2), row.w, M, row.domain),
        "theta": _equal_on(theta, row.theta, M, row.domain),
        "g": _is_zero(g - row.g),
    }


def dual_domain(phi, m=M, lo=-sp.oo, hi=sp.oo):
    """(lim_{m->lo+} phi'(m), lim_{m->hi-} phi'(m)), the dual domain J = phi'(I).

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).
    lo, hi : sympy numbers, default -oo and oo
        The ends of the interval I.

    Returns
    -------
    tuple of sympy.Expr
        The ends of J = φ'(I) (sympy limits).
    """
    dphi = sp.diff(phi, m)
    return sp.limit(dphi, m, lo, "+"), sp.limit(dphi, m, hi, "-")


def covers_real_line(phi, m=M, lo=-sp.oo, hi=sp.oo) -> bool:
    """eq:app_full_dual_domain: phi'(I) = R, required by the Gaussian index.

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).
    lo, hi : sympy numbers, default -oo and oo
        The ends of the interval I.

    Returns
    -------
    bool
        True when the one-sided limits of φ' at ``lo`` and ``hi`` are −∞ and +∞.
    """
    a, b = dual_domain(phi, m, lo, hi)
    return a == -sp.oo and b == sp.oo  # eq:app_full_dual_domain


# ---------------------------------------------------------------- prop:link_induced_potential
@dataclass(frozen=True)
class InducedPotential:
    """Result of :func:`link_induced_potential`.

    Parameters
    ----------
    inverse : sympy.Expr
        g⁻¹(m).
    potential : sympy.Expr
        φ_g(m) = ∫_{m0}^m g⁻¹(s) ds, possibly an unevaluated ``Integral``.
    m0 : sympy.Expr
        The lower limit of the integral.
    range : tuple
        The range M = g(ℝ) of the link, as (lim at −∞, lim at +∞).
    derivative_is_inverse : bool
        Whether φ_g' = g⁻¹ was proved (sympy simplifies the difference to 0).
    recovers_link : bool
        Whether g(φ_g'(m)) = m was proved, i.e. g = (φ_g')⁻¹.
    """

    inverse: sp.Expr  # g^{-1}(m)
    potential: sp.Expr  # phi_g(m), possibly an unevaluated Integral
    m0: sp.Expr
    range: tuple  # M = g(R)
    derivative_is_inverse: bool  # phi_g' = g^{-1}
    recovers_link: bool  # g(phi_g'(m)) = m, i.e. g = (phi_g')^{-1}


def _real_branch(expr, m, sample):
    """Rewrite log(a) as log(-a) + i*pi where a < 0 on the range, so imaginary parts cancel."""
    reps = {}
    for lg in expr.atoms(sp.log):
        if sp.N(lg.args[0].subs(m, sample)) < 0:
            reps[lg] = sp.log(sp.expand(-lg.args[0])) + sp.I * sp.pi
    return sp.simplify(expr.xreplace(reps)) if reps else expr


def link_induced_potential(g_expr, z=Z, m0=None, m=M) -> InducedPotential:
    r"""Potential phi_g(m) = int_{m0}^m g^{-1}(s) ds of a strictly increasing link.

    prop:link_induced_potential, eq:app_potential_from_link. ``m0`` defaults to g(0). If sympy
    cannot integrate g^{-1} the potential stays an unevaluated Integral (the checks then rest
    on the fundamental theorem of calculus, exactly as in the paper's proof).

    Parameters
    ----------
    g_expr : sympy.Expr
        The link g, strictly increasing in ``z``.
    z : sympy.Symbol, default Z
        The link's variable.
    m0 : sympy number, optional
        The integral's lower limit (default g(0)).
    m : sympy.Symbol, default M
        The potential's variable.

    Returns
    -------
    InducedPotential
        g⁻¹, φ_g, m0, the range of g and the two identity checks.

    Raises
    ------
    NBLInputError
        sympy proves g' ≤ 0 somewhere (the link is not strictly increasing).
    """
    if sp.simplify(sp.diff(g_expr, z)).is_positive is False:
        raise NBLInputError("the link is not strictly increasing")
    inverse = _solve_inverse(g_expr, z, _S, sp.Rational(1, 3)).subs(_S, m)
    m0 = g_expr.subs(z, 0) if m0 is None else _as_sympy(m0)
    rng = (sp.limit(g_expr, z, -sp.oo), sp.limit(g_expr, z, sp.oo))
    potential = sp.integrate(inverse.subs(m, _S), (_S, m0, m))  # eq:app_potential_from_link
    if potential.has(sp.I):
        potential = _real_branch(potential, m, g_expr.subs(z, sp.Rational(1, 3)))
    dpot = sp.diff(potential, m)
    return InducedPotential(
        inverse=inverse,
        potential=potential,
        m0=m0,
        range=rng,
        derivative_is_inverse=_is_zero(dpot - inverse),
        recovers_link=_is_zero(g_expr.subs(z, dpot) - m),
    )


# ------------------------------------------------------------- app:elicitation-geometry
def weighted_entropy_potential(rho=RHO, m=M):
    r"""Weighted binary negative entropy of app:elicitation-geometry, |rho| < 1.

    Parameters
    ----------
    rho : sympy expression, default RHO
        The weighting ρ, −1 < ρ < 1 (a symbol or a number).
    m : sympy.Symbol, default M
        The potential's variable, on (0, 1).

    Returns
    -------
    sympy.Expr
        φ_ρ(m).

    Raises
    ------
    NBLInputError
        A numeric ρ outside (−1, 1).

    Notes
    -----
    .. math:: \varphi_\rho(m)=(1+\rho)m\log m+(1-\rho)(1-m)\log(1-m)-\kappa_\rho m,
              \qquad \kappa_\rho=2\rho(1-\log 2).
    """
    rho = _as_sympy(rho)
    if rho.is_number and not (-1 < rho < 1):
        raise NBLInputError(f"weighted entropy needs -1 < rho < 1, got rho = {rho}")
    kappa = 2 * rho * (1 - sp.log(2))
    return (1 + rho) * m * sp.log(m) + (1 - rho) * (1 - m) * sp.log(1 - m) - kappa * m


def _rho_cases(rho):
    """Substitutions covering rho: itself if numeric, else rho in (0,1), rho in (-1,0), 0."""
    if not isinstance(rho, sp.Symbol):
        return [_as_sympy(rho)]
    p = sp.Symbol("p", positive=True)
    return [p / (1 + p), -p / (1 + p), sp.Integer(0)]


def weighted_entropy_facts(rho=RHO) -> dict:
    """Every printed claim of app:elicitation-geometry: name -> (computed, printed, equal).

    Parameters
    ----------
    rho : sympy expression, default RHO
        The weighted-entropy parameter, |ρ| < 1.

    Returns
    -------
    dict of str to tuple
        Fact name (e.g. ``"g'(0)"``) to ``(computed, printed, equal)``.
    """
    phi = weighted_entropy_potential(rho)
    d1, d2, d3 = (sp.diff(phi, M, k) for k in (1, 2, 3))
    half = {k: sp.simplify(d.subs(M, _HALF)) for k, d in (("d1", d1), ("d2", d2), ("d3", d3))}
    g1, g2 = (sp.simplify(e.subs(M, _HALF)) for e in link_derivatives_from_potential(phi))
    mp = sp.Symbol("m", positive=True)  # log identities need m, 1-m > 0, true on (0, 1)
    implicit = sp.expand_log(
        sp.log(mp ** (1 + rho) / (1 - mp) ** (1 - rho) * 2 ** (2 * rho)), force=True
    )  # log of the paper's e^{phi'(m)}
    facts = {
        "phi_prime": (d1, (1 + rho) * sp.log(M) - (1 - rho) * sp.log(1 - M) + 2 * rho * sp.log(2)),
        "phi_second": (d2, (1 + rho) / M + (1 - rho) / (1 - M)),
        "phi_prime(1/2)": (half["d1"], sp.Integer(0)),
        "phi_second(1/2)": (half["d2"], sp.Integer(4)),
        "phi_third(1/2)": (half["d3"], -8 * rho),
        # phi' strictly increasing and phi'(1/2) = 0, so g(0) is the root m = 1/2
        "g(0)": (_HALF if _is_zero(half["d1"]) else sp.nan, _HALF),
        "g'(0)": (g1, sp.Rational(1, 4)),
        "g''(0)": (g2, rho / 8),
        "log_implicit_equation": (d1.subs(M, mp), implicit),
    }
    facts = {k: (c, p, _is_zero(c - p)) for k, (c, p) in facts.items()}
    ok_convex, ok_dual = True, True
    for r in _rho_cases(rho):
        u = sp.Symbol("u", positive=True)  # m = u/(1+u) sweeps (0, 1)
        w = sp.simplify(d2.subs(rho, r).subs(M, u / (1 + u)))
        ok_convex &= bool(w.is_positive)
        ok_dual &= covers_real_line(phi.subs(rho, r), M, 0, 1)
    facts["strictly_convex"] = (ok_convex, True, ok_convex)
    facts["dual_domain_is_R"] = (ok_dual, True, ok_dual)
    logistic = _solve_inverse(sp.diff(weighted_entropy_potential(0), M), M, Z, _HALF)
    printed = sp.exp(Z) / (1 + sp.exp(Z))
    facts["rho=0_is_logistic"] = (logistic, printed, _is_zero(logistic - printed))
    return facts


# ----------------------------------------------------------------------- self-concordance
def self_concordance_ratio_from_potential(phi, m=M):
    r"""(phi'''/phi''^2, d/dm (1/phi'')) (eq:self-concordance-link, app:self_concordance).

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).

    Returns
    -------
    tuple of sympy.Expr
        ``(φ'''/φ''², d/dm (1/φ''))``.
    """
    d2, d3 = sp.diff(phi, m, 2), sp.diff(phi, m, 3)
    return d3 / d2**2, sp.diff(1 / d2, m)


def check_self_concordance_equivalence(phi, m=M) -> bool:
    r"""g''/g' (in m) = -phi'''/phi''^2 = d/dm(1/phi''); the absolute values then agree.

    The signed identities checked here are stronger than the equalities of absolute values
    used for eq:self-concordance-link.

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).

    Returns
    -------
    bool
        True when both signed identities are proved.
    """
    g1, g2 = link_derivatives_from_potential(phi, m)
    ratio, dinv = self_concordance_ratio_from_potential(phi, m)
    return _is_zero(g2 / g1 + ratio) and _is_zero(g2 / g1 - dinv)


def _sup_abs(f, x, lo, hi):
    """(sup |f| on (lo, hi), attained?) from interior critical points and one-sided limits."""
    num = sp.fraction(sp.factor(sp.together(sp.diff(f, x))))[0]
    if sp.simplify(num) == 0:
        return sp.Abs(sp.simplify(f)), True
    crit = [] if not num.has(x) else sp.solve(num, x)  # critical points of f
    crit = [c for c in crit if c.is_real and bool(sp.Gt(c, lo)) and bool(sp.Lt(c, hi))]
    interior = [sp.Abs(sp.simplify(f.subs(x, c))) for c in crit]
    boundary = [sp.Abs(sp.limit(f, x, lo, "+")), sp.Abs(sp.limit(f, x, hi, "-"))]
    best = boundary[0]
    for v in boundary[1:] + interior:
        if sp.simplify(v - best).is_positive:
            best = v
    attained = any(_is_zero(v - best) for v in interior)
    if best.has(sp.oo, sp.zoo):
        best, attained = sp.oo, False
    return best, attained


def self_concordance_constant_closed_form(kind: str, rho=RHO) -> dict:
    r"""R = sup |g''|/g' for a named link, computed (never hard-coded) by sympy.

    ``kind`` in {"logistic", "exp", "identity", "probit", "weighted-entropy"}. Returns a dict
    with ``R``, ``attained`` and ``ratio`` (the signed g''/g', in z or in m).

    Parameters
    ----------
    kind : {"logistic", "exp", "identity", "probit", "weighted-entropy"}
        The named link.
    rho : sympy expression, default RHO
        The weighted-entropy parameter, |ρ| < 1 (a symbol gives R as a Piecewise in ρ); used for
        ``"weighted-entropy"`` only.

    Returns
    -------
    dict
        ``R`` (sympy), ``attained`` (bool: the supremum is a maximum), ``ratio`` (the signed
        g''/g') and, for ``"logistic"``, ``limits`` (the ratio's limits at z → ∓∞).

    Raises
    ------
    NBLInputError
        An unknown ``kind``.
    """
    if kind == "probit":
        g = _Phi(Z)
        ratio = sp.simplify(sp.diff(g, Z, 2) / sp.diff(g, Z))  # = -z
        R, attained = _sup_abs(ratio, Z, -sp.oo, sp.oo)
        return {"R": R, "attained": attained, "ratio": ratio}
    rows = {"identity": BREGMAN_TABLE[0], "exp": BREGMAN_TABLE[1], "logistic": BREGMAN_TABLE[3]}
    if kind in rows:
        row = rows[kind]
        ratio = sp.simplify(self_concordance_ratio_from_potential(row.phi)[1])
        R, attained = _sup_abs(ratio, M, *row.domain)
        out = {"R": R, "attained": attained, "ratio": ratio}
        if kind == "logistic":  # the supremum is approached as z -> +-infinity
            gz = row.g.subs(THETA, Z)
            rz = sp.simplify(sp.diff(gz, Z, 2) / sp.diff(gz, Z))
            out["limits"] = (sp.limit(rz, Z, -sp.oo), sp.limit(rz, Z, sp.oo))
        return out
    if kind != "weighted-entropy":
        raise NBLInputError(f"unknown link kind {kind!r}")
    ratio = sp.simplify(self_concordance_ratio_from_potential(weighted_entropy_potential(rho))[1])
    results = [_sup_abs(ratio.subs(rho, r), M, 0, 1) for r in _rho_cases(rho)]
    if not isinstance(rho, sp.Symbol):
        ((R, attained),) = results
        return {"R": sp.simplify(R), "attained": attained, "ratio": ratio}
    p = sp.Symbol("p", positive=True)  # undo rho = p/(1+p) and rho = -p/(1+p)
    r_pos = sp.simplify(results[0][0].subs(p, rho / (1 - rho)))
    r_neg = sp.simplify(results[1][0].subs(p, -rho / (1 + rho)))
    R = sp.Piecewise((r_pos, rho > 0), (r_neg, rho < 0), (results[2][0], True))
    return {"R": R, "attained": any(a for _, a in results), "ratio": ratio}


# ------------------------------------------------------------- app:elicitation_stability
def mustar_integral(phi, domain, delta=DELTA, m=M):
    r"""mu* as a 1-D integral in m (eq:app_mustar_elicitation).

    W = U + (Delta/2)Z ~ N(0,1) and P(Z>0 | W=w) = Phi(Delta w/(2s)), s^2 = 1 - Delta^2/4, so
    mu* = E[g'(W) Phi(Delta W/(2s))]; with z = phi'(m), dz = phi''(m) dm and g' = 1/phi''(m):

    .. math:: \mu^\star=\int_{\mathcal I}\phi_0(\varphi'(m))\,
              \Phi\!\left(\tfrac{\Delta\varphi'(m)}{2s}\right)dm.

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    domain : tuple of sympy numbers
        The open interval I = (lo, hi) on which φ is defined (``-oo``/``oo`` allowed).
    delta : sympy expression, default DELTA
        The arm separation Δ ∈ (0, 2) (a symbol, or a number).
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).

    Returns
    -------
    sympy.Integral
        μ* as an unevaluated integral over I.
    """
    dphi = sp.diff(phi, m)
    integrand = _phi0(dphi) * _Phi(delta * dphi / (2 * _s_of(delta)))
    return sp.Integral(integrand, (m, *domain))  # eq:app_mustar_elicitation


def m2_integral(phi, domain, delta=DELTA, m=M):
    r"""m2 = -E[phi'''/phi''^3 (g(U))] as a 1-D integral in m (eq:app_m2_elicitation).

    .. math:: m_2=-\int_{\mathcal I}\frac{\varphi'''(m)}{\varphi''(m)^2}\,
              \phi_s(\varphi'(m))\,dm,\qquad \phi_s(x)=\phi_0(x/s)/s.

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    domain : tuple of sympy numbers
        The open interval I = (lo, hi) on which φ is defined (``-oo``/``oo`` allowed).
    delta : sympy expression, default DELTA
        The arm separation Δ ∈ (0, 2) (a symbol, or a number).
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).

    Returns
    -------
    sympy.Integral
        m2 as an unevaluated integral over I.
    """
    s = _s_of(delta)
    d1, d2, d3 = (sp.diff(phi, m, k) for k in (1, 2, 3))
    return sp.Integral(-d3 / d2**2 * _phi0(d1 / s) / s, (m, *domain))  # eq:app_m2_elicitation


def lambda_star_expression(phi, domain, delta=DELTA, m=M):
    r"""lambda* in terms of phi, eq:elicitation-stability-coefficient.

    Parameters
    ----------
    phi : sympy.Expr
        The potential φ(m), strictly convex in ``m``.
    domain : tuple of sympy numbers
        The open interval I = (lo, hi) on which φ is defined (``-oo``/``oo`` allowed).
    delta : sympy expression, default DELTA
        The arm separation Δ ∈ (0, 2) (a symbol, or a number).
    m : sympy.Symbol, default M
        The potential's variable (the primal coordinate).

    Returns
    -------
    sympy.Expr
        λ* with μ* and m2 as unevaluated integrals in m.

    Notes
    -----
    .. math:: \lambda_\star=\Delta\mu^\star-2\phi_0(0)(1-\Delta^2/4)(m_2)_+,
              with :func:`mustar_integral` and :func:`m2_integral`.
    """
    mu = mustar_integral(phi, domain, delta, m)
    m2 = m2_integral(phi, domain, delta, m)
    return delta * mu - 2 * _phi0(0) * (1 - delta**2 / 4) * sp.Max(m2, 0)  # eq:decision_stability


def _separable_expectation(integrand, u, z, s):
    """E over U ~ N(0, s^2) on R and Z ~ N(0,1) on (0, inf) of a product f(u) h(z)."""
    joint = sp.expand(integrand * _phi0(u / s) / s * _phi0(z))
    parts = sp.separatevars(joint, symbols=[u, z], dict=True)
    if parts is None:
        raise NotImplementedError("g'(u + Delta z/2) does not factor; no closed form here")
    return (
        parts["coeff"]
        * sp.integrate(parts[u], (u, -sp.oo, sp.oo))
        * sp.integrate(parts[z], (z, 0, sp.oo))
    )


def closed_form_stability(potential_name: str) -> dict:
    """Closed-form mu*, m2, lambda* (in :data:`DELTA`) for "quadratic" or "negative-entropy".

    Derived by sympy from the 2-D definitions eq:mu_star_m2_def, using the independence of U and
    Z (the integrand g'(u + Delta z/2) factorises for the identity and exponential links).

    Parameters
    ----------
    potential_name : {"quadratic", "identity", "negative-entropy", "exp"}
        The potential (the first two name the identity link, the last two the exponential link).

    Returns
    -------
    dict of str to sympy.Expr
        ``link`` (g in z), ``mu_star``, ``m2`` and ``lambda_star`` as expressions in :data:`DELTA`.

    Raises
    ------
    NBLInputError
        Another name.
    """
    names = {"quadratic": 0, "identity": 0, "negative-entropy": 1, "exp": 1}
    if potential_name not in names:
        raise NBLInputError(f"no closed form for {potential_name!r}")
    row = BREGMAN_TABLE[names[potential_name]]
    g = row.g.subs(THETA, Z)
    u, zz = sp.Symbol("u", real=True), sp.Symbol("zeta", real=True)
    s = sp.Symbol("s", positive=True)
    gp = sp.diff(g, Z)
    mu = _separable_expectation(gp.subs(Z, u + DELTA * zz / 2), u, zz, s)  # eq:mu_star_m2_def
    m2 = sp.integrate(sp.diff(g, Z, 2).subs(Z, u) * _phi0(u / s) / s, (u, -sp.oo, sp.oo))
    sub = {s: _s_of(DELTA)}
    mu = sp.simplify(sp.simplify(mu.rewrite(sp.erf)).subs(sub))
    m2 = sp.simplify(sp.simplify(m2.rewrite(sp.erf)).subs(sub))
    lam = DELTA * mu - 2 * _phi0(0) * (1 - DELTA**2 / 4) * sp.Max(m2, 0)  # eq:decision_stability
    return {"link": g, "mu_star": mu, "m2": m2, "lambda_star": sp.simplify(lam)}
