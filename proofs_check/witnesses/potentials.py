"""The elicitation geometry from the paper's definitions, in sympy, without the library's
implementations (:mod:`nbl_theory.elicitation` is used only for the potentials themselves).

* the potentials on which identities are checked: a *generic* potential — an undefined sympy
  function φ(m), so an identity sympy confirms holds for every smooth φ — the rows of
  tab:app_bregman_examples and the weighted binary negative entropy φ_ρ with symbolic ρ;
* :data:`PRINTED_TABLE` — tab:app_bregman_examples as the paper prints it (typed from the LaTeX);
* :func:`bregman_loss` — eq:app_bregman_loss written out; :func:`implicit_link_derivatives` —
  g', g'' by differentiating φ'{g(z)} = z with an undefined g, and the residuals of the printed
  identities built on them (:func:`link_derivative_residual`, :func:`log_derivative_residual`,
  :func:`self_concordance_forms_residual`); :func:`inverse` — the branch of
  a sympy ``solve`` that maps a sample back; :func:`conjugate` — φ* at the interior maximiser;
  :func:`dual_domain` — one-sided limits of φ' at the ends of the domain;
  :func:`induced_potential` — eq:app_potential_from_link by sympy ``integrate``;
* the Bregman-loss identities of app:bregman_mean as residuals (:func:`bregman_mean_residual`,
  :func:`bregman_derivative_residual`, :func:`bregman_second_order_residual`), the loss against
  its Taylor remainder by quadrature (:func:`taylor_remainder_error`) and the random cases of
  the minimiser check (:func:`bregman_minimiser_cases`); :func:`superpolynomial_growth`,
  :func:`conjugate_gradient` and :func:`induced_potential_facts` for app:primal_dual and
  app:link_to_potential;
* :func:`zero_on` — an exact zero test of an expression on an open interval (the variable
  replaced by a parametrisation by a positive symbol, so sympy may use the signs of m and of the
  distances to the ends), and :func:`positive_on`.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from nbl_theory import elicitation as el

__all__ = [
    "GENERIC_POTENTIAL",
    "BREGMAN_ROWS",
    "PRINTED_TABLE",
    "R",
    "Y",
    "THETA",
    "elicitation_potentials",
    "bregman_loss",
    "implicit_link_derivatives",
    "self_concordance_forms",
    "inverse",
    "conjugate",
    "dual_domain",
    "induced_potential",
    "zero_on",
    "positive_on",
    "interval_parametrisation",
    "sample_in",
    "real_form",
    "link_derivative_residual",
    "log_derivative_residual",
    "self_concordance_forms_residual",
    "affine_expected_loss",
    "bregman_mean_residual",
    "bregman_minimiser_cases",
    "bregman_derivative_residual",
    "bregman_second_order_residual",
    "taylor_remainder_error",
    "superpolynomial_growth",
    "conjugate_gradient",
    "INDUCED_LINKS",
    "induced_potential_facts",
    "reference_point_change",
]

M = el.M
#: the table's primal variable r, an outcome y and the dual coordinate ϑ
R, Y, THETA = sp.Symbol("r", real=True), sp.Symbol("y", real=True), sp.Symbol("vartheta", real=True)
_U = sp.Symbol("u", positive=True)
_HALF = sp.Rational(1, 2)

#: A generic smooth potential φ(m) (an undefined sympy function of ``nbl_theory.elicitation.M``).
GENERIC_POTENTIAL = sp.Function("varphi")(M)
#: The rows of tab:app_bregman_examples by name (the library's table, for the potentials φ).
BREGMAN_ROWS = {row.name: row for row in el.BREGMAN_TABLE}

#: tab:app_bregman_examples as printed (φ(r), its domain, w(r) = φ''(r), ϑ = φ'(r), g_φ(ϑ)).
PRINTED_TABLE = {
    "quadratic": dict(phi=R**2 / 2, domain=(-sp.oo, sp.oo), w=sp.Integer(1), theta=R, g=THETA),
    "negative-entropy": dict(
        phi=R * sp.log(R) - R, domain=(0, sp.oo), w=1 / R, theta=sp.log(R), g=sp.exp(THETA)
    ),
    "burg": dict(phi=-sp.log(R), domain=(0, sp.oo), w=1 / R**2, theta=-1 / R, g=-1 / THETA),
    "binary-negative-entropy": dict(
        phi=R * sp.log(R) + (1 - R) * sp.log(1 - R),
        domain=(0, 1),
        w=1 / (R * (1 - R)),
        theta=sp.log(R / (1 - R)),
        g=sp.exp(THETA) / (1 + sp.exp(THETA)),
    ),
}


def elicitation_potentials(generic: bool = True, weighted: bool = True) -> dict:
    """Potentials on which identities are checked, by name: the generic φ, the table rows and
    φ_ρ with symbolic ρ (all in the variable ``nbl_theory.elicitation.M``)."""
    out = {"generic phi": GENERIC_POTENTIAL} if generic else {}
    out.update({name: row.phi for name, row in BREGMAN_ROWS.items()})
    if weighted:
        out["weighted entropy (symbolic rho)"] = el.weighted_entropy_potential()
    return out


def bregman_loss(phi, r, y, m=M, c=1):
    """eq:app_bregman_loss: ℓ_φ(r, y) = φ(y) − φ(r) − c φ'(r)(y − r) (the paper's loss has
    c = 1; ``c`` lets a mutant change the coefficient)."""
    return phi.subs(m, y) - phi.subs(m, r) - c * sp.diff(phi, m).subs(m, r) * (y - r)


def implicit_link_derivatives(phi, m=M):
    """(g', g'') as expressions in m = g(z), from differentiating φ'{g(z)} = z once and twice
    with an undefined function g and solving the linear equations for g' and g''."""
    z = sp.Symbol("z", real=True)
    g = sp.Function("g")(z)
    d1, d2 = sp.symbols("d1 d2")
    ident = sp.diff(phi, m).subs(m, g) - z

    def plug(expr):
        return expr.subs(sp.Derivative(g, (z, 2)), d2).subs(sp.Derivative(g, z), d1)

    (g1,) = sp.solve(plug(sp.diff(ident, z)), d1)
    (g2,) = sp.solve(plug(sp.diff(ident, z, 2)).subs(d1, g1), d2)
    return g1.subs(g, m), g2.subs(g, m)


def interval_parametrisation(domain):
    """m(u), u > 0, onto the open interval ``domain`` (lo + u, hi − u, lo + (hi − lo)u/(1 + u),
    or u − 1/u for the real line)."""
    lo, hi = (sp.sympify(v) for v in domain)
    if lo.is_finite and hi.is_finite:
        return lo + (hi - lo) * _U / (1 + _U)
    if lo.is_finite:
        return lo + _U
    if hi.is_finite:
        return hi - _U
    return _U - 1 / _U


def _simplified(expr):
    out = sp.simplify(sp.expand_log(sp.simplify(expr), force=False))
    if out != 0:
        out = sp.simplify(out.rewrite(sp.exp))
    return out


def zero_on(expr, var, domain) -> tuple[bool, object]:
    """(expr == 0 on the open interval ``domain``, the simplified residual) — exact."""
    res = (
        _simplified(expr.subs(var, interval_parametrisation(domain)))
        if expr.has(var)
        else _simplified(expr)
    )
    return res == 0, res


def positive_on(expr, var, domain) -> bool:
    """sympy proves expr > 0 on the open interval ``domain`` (False if it cannot)."""
    e = sp.simplify(expr.subs(var, interval_parametrisation(domain)))
    return bool(e.is_positive) or bool(sp.factor(e).is_positive)


def inverse(expr, var, target, sample):
    """The solution var = h(target) of expr(var) = target that is real and maps the value at
    ``sample`` back to ``sample`` (30 digits)."""
    at = expr.subs(var, sample)
    for sol in sp.solve(sp.Eq(expr, target), var):
        val = sp.N(sol.subs(target, at), 30)
        if val.is_real and abs(val - sample) < sp.Float("1e-25"):
            return sol
    raise NotImplementedError(f"no branch of {var} = ({expr})^-1 maps back at {sample}")


def sample_in(domain):
    """A rational point inside the open interval ``domain``."""
    lo, hi = (sp.sympify(v) for v in domain)
    if lo.is_finite and hi.is_finite:
        return lo + (hi - lo) / 3
    return lo + 1 if lo.is_finite else hi - 1 if hi.is_finite else sp.Rational(1, 3)


def conjugate(phi, var, domain, theta=THETA):
    """eq:app_convex_conjugate at the interior maximiser: φ*(ϑ) = r*ϑ − φ(r*), r* solving
    ϑ = φ'(r) on the branch inside ``domain``."""
    r_star = inverse(sp.diff(phi, var), var, theta, sample_in(domain))
    return sp.simplify(r_star * theta - phi.subs(var, r_star))


def dual_domain(phi, var, domain):
    """(lim φ' at the left end from the right, lim φ' at the right end from the left)."""
    lo, hi = (sp.sympify(v) for v in domain)
    d = sp.diff(phi, var)
    return sp.limit(d, var, lo, "+"), sp.limit(d, var, hi, "-")


def real_form(expr, var, domain):
    """``expr`` with every log(a) whose argument is negative on ``domain`` rewritten as
    log(−a) + iπ (sympy's principal branch), simplified — the real form of a potential that
    ``integrate`` returned with complex logarithms."""
    at = sample_in(domain)
    reps = {
        lg: sp.log(sp.expand(-lg.args[0])) + sp.I * sp.pi
        for lg in expr.atoms(sp.log)
        if sp.N(lg.args[0].subs(var, at)) < 0
    }
    return sp.simplify(expr.xreplace(reps)) if reps else expr


def induced_potential(g_expr, z, m0=None, integrand: str = "inverse"):
    """eq:app_potential_from_link: (g^{-1}(m), φ_g(m) = ∫_{m0}^m g^{-1}(s) ds, m0, (inf g,
    sup g)); ``m0`` defaults to g(0). ``integrand="link"`` integrates g instead (a mutant)."""
    s = sp.Symbol("s", real=True)
    inv = inverse(g_expr, z, s, sp.Rational(1, 3))
    m0 = g_expr.subs(z, 0) if m0 is None else sp.sympify(m0)
    f = inv if integrand == "inverse" else g_expr.subs(z, s)
    pot = sp.integrate(f, (s, m0, M))
    rng = (sp.limit(g_expr, z, -sp.oo), sp.limit(g_expr, z, sp.oo))
    return inv.subs(s, M), pot, m0, rng


def link_derivative_residual(phi, sign: int = -1, power: int = 3, m=M):
    """|g' − 1/φ''| + |g'' − sign·φ'''/φ''^power|, simplified, with g' and g'' from
    :func:`implicit_link_derivatives` (differentiating φ'{g(z)} = z,
    sec:decision_stability_geometry): 0 for the printed formulas g' = 1/φ''(g),
    g'' = −φ'''(g)/φ''(g)³ (``sign`` = −1, ``power`` = 3; other values are the claims'
    mutants)."""
    g1, g2 = implicit_link_derivatives(phi, m)
    d2, d3 = sp.diff(phi, m, 2), sp.diff(phi, m, 3)
    return sp.simplify(abs(sp.simplify(g1 - 1 / d2)) + abs(sp.simplify(g2 - sign * d3 / d2**power)))


def log_derivative_residual():
    """(log g')' − g''/g' for an undefined function g(z), simplified (0: the first equivalent
    form of eq:self-concordance-link, |g''| ≤ R g' ⇔ |(log g')'| ≤ R, for every link)."""
    z = sp.Symbol("z", real=True)
    g = sp.Function("g")(z)
    return sp.simplify(sp.diff(sp.log(sp.diff(g, z)), z) - sp.diff(g, z, 2) / sp.diff(g, z))


def self_concordance_forms(phi, m=M) -> tuple:
    """(-g''/g', g''/g') in m from :func:`implicit_link_derivatives`: what phi'''/phi''^2 and
    d/dm (1/phi'') must equal (app:self_concordance)."""
    g1, g2 = implicit_link_derivatives(phi, m)
    w = sp.simplify(g2 / g1)
    return -w, w


def self_concordance_forms_residual(phi, power: int = 2, m=M):
    """|g''/g' + φ'''/φ''^power| + |g''/g' − d/dm (1/φ'')|, simplified, with g''/g' written in m
    through :func:`implicit_link_derivatives` (app:self_concordance): 0 when the signed
    equalities g''/g' = −φ'''/φ''² = d/dm (1/φ'') hold (``power`` = 2 as printed; another
    value is a mutant), so that with φ'' > 0 the three bounds on |·| of
    eq:self-concordance-link coincide."""
    ratio = self_concordance_forms(phi, m)[1]  # g''/g' in m
    d2, d3 = sp.diff(phi, m, 2), sp.diff(phi, m, 3)
    return sp.simplify(
        abs(sp.simplify(ratio + d3 / d2**power)) + abs(sp.simplify(ratio - sp.diff(1 / d2, m)))
    )


# ------------------------------------------------------------ Bregman losses (app:bregman_mean)
def affine_expected_loss(phi, pred, mean, c=1):
    """E_F[ℓ_φ(pred, Y)] from the loss written out (:func:`bregman_loss`): the loss is affine in
    (φ(Y), Y) (checked; ``ValueError`` otherwise), so E_F replaces φ(Y) by an opaque symbol
    E_F[φ(Y)] and Y by the symbol ``mean`` (μ_F)."""
    y, p_sym, e_sym = sp.Symbol("y_"), sp.Symbol("phi_y"), sp.Symbol("E_F[phi(Y)]")
    loss = bregman_loss(phi, pred, y, M, c) - phi.subs(M, y) + p_sym
    if sp.simplify(sp.diff(loss, y, 2)) != 0 or sp.diff(loss, p_sym, 2) != 0:
        raise ValueError("the loss is not affine in (phi(Y), Y)")
    return loss.subs({p_sym: e_sym, y: mean})


def bregman_mean_residual(phi, mean, swap: bool = False):
    """E_F[ℓ(r, Y)] − E_F[ℓ(μ_F, Y)] − ℓ(r, μ_F), simplified (lem:bregman_mean: 0), with r the
    table variable :data:`R` and μ_F the symbol ``mean``; ``swap`` subtracts ℓ(μ_F, r) instead
    (a mutant)."""
    rhs = bregman_loss(phi, mean, R) if swap else bregman_loss(phi, R, mean)
    return sp.simplify(
        affine_expected_loss(phi, R, mean) - affine_expected_loss(phi, mean, mean) - rhs
    )


def bregman_minimiser_cases(seed: int, names) -> list:
    """The random cases (kind, ρ, r, μ) of the check that ℓ(r, μ) > 0 = ℓ(μ, μ): 24 weighted
    entropies with ρ ∈ {−0.95, …, 0.95} (step 1/100) and distinct r, μ ∈ {1/1000, …, 999/1000},
    then four pairs of distinct points of {1/100, …, 99/100} for each potential of ``names``
    (in that order, from ``numpy.random.default_rng(seed)``); ρ, r, μ as
    :class:`fractions.Fraction` (ρ None for a table potential)."""
    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(24):
        rho = Fraction(int(rng.integers(-95, 96)), 100)
        r, mu = (Fraction(int(k), 1000) for k in rng.choice(np.arange(1, 1000), 2, replace=False))
        cases.append(("weighted", rho, r, mu))
    for name in names:
        for _ in range(4):
            a, b = (Fraction(int(k), 100) for k in rng.choice(np.arange(1, 100), 2, replace=False))
            cases.append((name, None, a, b))
    return cases


def bregman_derivative_residual(phi, sign: int = 1):
    """d/dr ℓ_φ(r, y) − sign·φ''(r)(r − y), simplified (eq:app_bregman_derivative: 0 with
    ``sign`` = 1 as printed)."""
    return sp.simplify(
        sp.diff(bregman_loss(phi, R, Y), R) - sign * sp.diff(phi, M, 2).subs(M, R) * (R - Y)
    )


def bregman_second_order_residual(phi, coef=_HALF):
    """|ℓ| + |∂ℓ/∂y| + |∂²ℓ/∂y² − 2·coef·w(r)| at y = r, simplified: 0 exactly when
    ℓ_φ(r, y) = coef·w(r)(y − r)² + o((y − r)²) (eq:app_bregman_derivative: coef = 1/2), since
    ℓ = ℓ_y = 0 and ℓ_yy = 2·coef·w at y = r."""
    loss = bregman_loss(phi, R, Y)
    w = sp.diff(phi, M, 2).subs(M, R)
    taylor = [sp.simplify(sp.diff(loss, Y, j).subs(Y, R)) for j in range(3)]
    return sp.simplify(abs(taylor[0]) + abs(taylor[1]) + abs(taylor[2] - 2 * coef * w))


def taylor_remainder_error(phi, points, c=1, kernel: str = "y-s", dps: int = 40):
    """max over the (r, y) ``points`` (pairs of exact rational strings) of
    |ℓ_φ(r, y) − ∫_r^y φ''(s)(y − s) ds| / |∫…|: the loss of eq:Bregman_loss (coefficient ``c``
    of φ'(r)(y − r)) against its first-order Taylor remainder by mpmath quad, at ``dps``
    working digits; ``phi`` is in the variable :data:`R`. ``kernel="s-r"`` integrates
    φ''(s)(s − r) instead (a broken witness, for the claim's mutants). Returns an mpf."""
    with mpmath.workdps(dps):
        loss = sp.lambdify((R, Y), bregman_loss(phi, R, Y, R, c), modules="mpmath")
        f2 = sp.lambdify(R, sp.diff(phi, R, 2), modules="mpmath")
        err = mpmath.mpf(0)
        for rs, ys in points:
            rr, yy = (mpmath.mpf(sp.Rational(v).p) / sp.Rational(v).q for v in (rs, ys))
            k = (lambda s_, yy=yy: yy - s_) if kernel == "y-s" else (lambda s_, rr=rr: s_ - rr)
            taylor = mpmath.quad(lambda s_, f2=f2, k=k: f2(s_) * k(s_), [rr, yy])
            err = max(err, abs(loss(rr, yy) - taylor) / abs(taylor))
        return err


# ------------------------------------------------------------------ primal-dual (app:primal_dual)
def superpolynomial_growth(g, lo, hi, var=THETA) -> str | None:
    """The first of g, g', g'' that grows faster than every power of ``var`` at an infinite end
    of (lo, hi) — log(1 + |g^(j)|)/log|var| → ∞, which no bound C_g(1 + |var|^q) of
    assum:polygrowth_g allows — as ``"g^(j) at ±oo"`` (primes), else None."""
    for j in range(3):
        dj = sp.diff(g, var, j)
        for end, sign in ((hi, 1), (lo, -1)):
            if end not in (sp.oo, -sp.oo):
                continue
            lim = sp.limit(sp.log(1 + sp.Abs(dj)) / sp.log(sign * var), var, end)
            if lim in (sp.oo, -sp.oo):
                return f"g{chr(39) * j} at {'+' if sign > 0 else '-'}oo"
    return None


def conjugate_gradient(phi, var, domain, g, sign: int = 1, theta=THETA) -> dict:
    """eq:app_convex_conjugate: φ* (:func:`conjugate`, times ``sign``: −1 is a mutant), its
    derivative (φ*)', and on the dual domain the residuals φ'((φ*)'(ϑ)) − ϑ (is (φ*)' the
    inverse of φ'?) and (φ*)' − ``g`` (is it the given response map?).

    Returns
    -------
    dict
        {"conj", "dconj", "dual", "inv_ok", "inv_res", "g_ok", "g_res"} (``*_ok``: the
        residual is exactly 0, :func:`zero_on`).
    """
    conj = sign * conjugate(phi, var, domain, theta)
    dconj = sp.simplify(sp.diff(conj, theta))
    dual = dual_domain(phi, var, domain)
    inv_ok, inv_res = zero_on(sp.diff(phi, var).subs(var, dconj) - theta, theta, dual)
    g_ok, g_res = zero_on(dconj - g, theta, dual)
    return {
        "conj": conj,
        "dconj": dconj,
        "dual": dual,
        "inv_ok": inv_ok,
        "inv_res": inv_res,
        "g_ok": g_ok,
        "g_res": g_res,
    }


# ------------------------------------------------------------------ app:link_to_potential
#: The links whose induced potentials prop:link_induced_potential is checked on (in :data:`R`).
INDUCED_LINKS = {
    "identity": R,
    "exp": sp.exp(R),
    "logistic": sp.exp(R) / (1 + sp.exp(R)),
    "probit": (1 + sp.erf(R / sp.sqrt(2))) / 2,
}


def induced_potential_facts(g, z, integrand: str = "inverse") -> dict:
    """The facts of prop:link_induced_potential for the link ``g`` (in ``z``), exact:
    φ_g = ∫_{g(0)}^m g⁻¹ (:func:`induced_potential`; ``integrand="link"`` is a mutant) on
    M = (inf g, sup g), φ_g' − g⁻¹ = 0, g(φ_g'(m)) − m = 0, g' > 0 on ℝ and
    (g⁻¹)' − 1/g'(g⁻¹(m)) = 0 (so φ_g'' > 0 on M, by the inverse function theorem).

    Returns
    -------
    dict
        {"inv", "pot", "range", "ftc_ok", "ftc", "rec_ok", "rec", "increasing", "ift_ok"}.
    """
    inv, pot, _, rng = induced_potential(g, z, integrand=integrand)
    dpot = sp.diff(pot, M)
    ftc_ok, ftc = zero_on(dpot - inv, M, rng)  # phi_g' = g^-1
    rec_ok, rec = zero_on(g.subs(z, dpot) - M, M, rng)  # g(phi_g'(m)) = m
    g1 = sp.diff(g, z)
    inc = positive_on(g1, z, (-sp.oo, sp.oo))  # g' > 0 on R
    ift_ok, _ = zero_on(sp.diff(inv, M) - 1 / g1.subs(z, inv), M, rng)
    return {
        "inv": inv,
        "pot": pot,
        "range": rng,
        "ftc_ok": ftc_ok,
        "ftc": ftc,
        "rec_ok": rec_ok,
        "rec": rec,
        "increasing": inc,
        "ift_ok": ift_ok,
    }


def reference_point_change(g, z, pot, rng):
    """d/dm of φ_g[m0 = g(0)] − φ_g[m0'] with m0' = sup M/3 (2 when M is unbounded above),
    simplified: 0, since the reference point changes φ_g by a constant."""
    other = induced_potential(g, z, m0=rng[1] / 3 if rng[1].is_finite else 2)[1]
    return sp.simplify(sp.diff(pot - other, M))
