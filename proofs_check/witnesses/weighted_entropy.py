"""The weighted binary negative entropy of app:elicitation-geometry computed in sympy from the
paper's definition, without the library's elicitation module.

φ_ρ(m) = (1+ρ) m log m + (1−ρ)(1−m) log(1−m) − κ_ρ m, κ_ρ = 2ρ(1 − log 2), for symbolic ρ; m is a
positive symbol and every fact that needs m < 1 (or |ρ| < 1) is checked after a substitution that
makes the constraint structural: m = u/(1 + u) with u > 0 sweeps (0, 1), ρ = c(s − 1)/(s + 1) with
s > 0 sweeps (−c, c). The link g_ρ = (φ_ρ')^{-1} near 0 is obtained by inverting the Taylor series
of φ_ρ' at 1/2 (no formula for g' or g'' is used), and the ρ = 0 link by solving φ_0'(m) = z.
Printed formulas arrive as strings in sympy syntax (``rho``, ``m``, ``z``) and are parsed here.
"""

from __future__ import annotations

import functools

import sympy as sp

__all__ = [
    "RHO",
    "M",
    "Z",
    "G",
    "potential",
    "parse",
    "same",
    "derivative",
    "at_half",
    "link_taylor",
    "implicit_equation_gap",
    "implicit_equation_z",
    "strictly_convex",
    "dual_limits",
    "logistic_case",
    "values_at",
    "bregman_loss",
    "affine_invariance_gap",
]

RHO = sp.Symbol("rho", real=True)
M = sp.Symbol("m", positive=True)
Z = sp.Symbol("z", real=True)
G = sp.Symbol("g", positive=True)
_U = sp.Symbol("u", positive=True)
_S = sp.Symbol("s", positive=True)
_HALF = sp.Rational(1, 2)


def potential(rho=RHO, m=M, extra=0):
    """φ_ρ(m) as printed in app:elicitation-geometry (+ ``extra``, for mutants)."""
    kappa = 2 * rho * (1 - sp.log(2))
    return (1 + rho) * m * sp.log(m) + (1 - rho) * (1 - m) * sp.log(1 - m) - kappa * m + extra


def parse(text: str):
    """A printed formula in sympy syntax with the symbols ρ (``rho``), m, z, g."""
    return sp.sympify(text, locals={"rho": RHO, "m": M, "z": Z, "g": G, "e": sp.E})


def same(a, b) -> bool:
    """a = b as functions of m ∈ (0, 1) and real ρ: simplify(a − b) == 0 after m = u/(1 + u)."""
    diff = sp.simplify(sp.expand_log(sp.sympify(a) - sp.sympify(b), force=True))
    if diff == 0:
        return True
    return sp.simplify(diff.subs(M, _U / (1 + _U))) == 0


@functools.cache
def derivative(k: int):
    """φ_ρ^{(k)}(m), simplified."""
    return sp.simplify(sp.diff(potential(), M, k))


def at_half(k: int):
    """φ_ρ^{(k)}(1/2)."""
    return sp.simplify(derivative(k).subs(M, _HALF))


@functools.cache
def link_taylor() -> tuple:
    """(g(0), g'(0), g''(0)) of g_ρ = (φ_ρ')^{-1}: g(0) = 1/2 because φ_ρ'(1/2) = 0 and φ_ρ' is
    increasing; then g(z) = 1/2 + a z + b z² + O(z³) with φ_ρ'(1/2 + a z + b z²) = z + O(z³)
    solved order by order."""
    if sp.simplify(at_half(1)) != 0:
        return (sp.nan, sp.nan, sp.nan)
    e, a, b = sp.symbols("e a b")
    ser = sp.series(derivative(1).subs(M, _HALF + e), e, 0, 3).removeO()
    comp = sp.expand(ser.subs(e, a * Z + b * Z**2))
    sol = sp.solve([comp.coeff(Z, 1) - 1, comp.coeff(Z, 2)], [a, b], dict=True)
    if len(sol) != 1:
        return (_HALF, sp.nan, sp.nan)
    return (_HALF, sp.simplify(sol[0][a]), sp.simplify(2 * sol[0][b]))


def implicit_equation_gap(printed_lhs, printed_rhs):
    """The printed equation lhs(g) = rhs(z) (g, z the symbols ``g`` and ``z``) is the implicit
    equation of g_ρ when lhs(m) = rhs(φ_ρ'(m)) for every m ∈ (0, 1): returns
    log lhs(m) − log rhs(φ_ρ'(m)), logs expanded, simplified (0 when it holds)."""
    lhs = sp.expand_log(sp.log(printed_lhs.subs(G, M)), force=True)
    rhs = sp.expand_log(sp.log(printed_rhs), force=True).subs(Z, derivative(1))
    gap = sp.simplify(sp.expand_log(lhs - rhs, force=True))
    return gap if gap == 0 else sp.simplify(gap.subs(M, _U / (1 + _U)))


def implicit_equation_z(printed_lhs, printed_rhs):
    """The printed equation lhs(g) = rhs(z) solved for z at g = m: the z with
    log rhs(z) = log lhs(m), logs expanded (what the equation says φ_ρ'(m) is); None when sympy
    finds no single solution."""
    lhs = sp.expand_log(sp.log(printed_lhs.subs(G, M)), force=True)
    sol = sp.solve(sp.expand_log(sp.log(printed_rhs), force=True) - lhs, Z)
    return sp.expand_log(sol[0], force=True) if len(sol) == 1 else None


def strictly_convex(bound=1) -> bool:
    """φ_ρ'' > 0 on (0, 1) for every |ρ| < ``bound`` (sympy proves positivity after the
    substitutions of the module docstring)."""
    r = bound * (_S - 1) / (_S + 1)
    expr = sp.simplify(derivative(2).subs(RHO, r).subs(M, _U / (1 + _U)))
    return bool(expr.is_positive)


def dual_limits(bound=1) -> tuple:
    """(lim_{m→0+} φ_ρ'(m), lim_{m→1−} φ_ρ'(m)) for |ρ| < ``bound`` (ρ = bound (s−1)/(s+1))."""
    r = bound * (_S - 1) / (_S + 1)
    d1 = derivative(1).subs(RHO, r)
    return sp.limit(d1, M, 0, "+"), sp.limit(d1, M, 1, "-")


def logistic_case():
    """The solution m of φ_0'(m) = z (ρ = 0), or None if sympy finds no unique one."""
    sol = sp.solve(sp.Eq(derivative(1).subs(RHO, 0), Z), M)
    return sp.simplify(sol[0]) if len(sol) == 1 else None


def bregman_loss(phi, r, y):
    """ℓ_φ(r, y) = φ(y) − φ(r) − φ'(r)(y − r) (eq:Bregman_loss) for φ an expression in m."""
    return phi.subs(M, y) - phi.subs(M, r) - sp.diff(phi, M).subs(M, r) * (y - r)


def affine_invariance_gap(extra=0):
    """ℓ_{φ + a m + b + extra} − ℓ_φ, simplified (0 when affine terms do not change the loss)."""
    a, b = sp.symbols("a b", real=True)
    r, y = sp.symbols("r y", positive=True)
    phi = potential()
    return sp.simplify(bregman_loss(phi + a * M + b + extra, r, y) - bregman_loss(phi, r, y))


def values_at(expr, zs) -> list:
    """``expr`` (a function of :data:`Z`) at the points ``zs``, by mpmath at 30 digits (the
    working precision restored after), as floats."""
    import mpmath

    f = sp.lambdify(Z, expr, modules="mpmath")
    with mpmath.workdps(30):
        return [float(f(mpmath.mpf(float(z)))) for z in zs]
