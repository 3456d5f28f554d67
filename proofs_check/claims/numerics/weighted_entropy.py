"""Claims of the weighted binary negative entropy φ_ρ (app:elicitation-geometry, the numerical
section's elicitation example): its derivatives, normalisation and values at 1/2 and 0, the
implicit equation of g_ρ, strict convexity, the dual domain, the logistic case ρ = 0 and the
invariance of the Bregman loss under affine terms.

The paper's printed formulas are the claims' ``printed`` values, in sympy syntax (``rho``, ``m``,
``z``, ``g``); each is parsed and compared with what sympy derives from the paper's definition
of φ_ρ for symbolic ρ (:mod:`proofs_check.witnesses.weighted_entropy`, which does not use the
library's elicitation module). A printed formula that sympy recomputes to something else is a
``DISCREPANCY``; the library's φ_ρ (:func:`nbl_theory.elicitation.weighted_entropy_potential`)
is compared with the definition once (a difference is a ``FAIL``). Every check takes its printed
value as a keyword argument; the mutants perturb it.
"""

from __future__ import annotations

import sympy as sp

from nbl_theory import elicitation as el

from ...registry import DISCREPANCY, FAIL, PASS, Mutant, Outcome, register
from ...witnesses import weighted_entropy as we

__all__: list[str] = []

_SECTION = "app:elicitation-geometry"
_WHY = (
    "sympy simplification of the difference to 0 after substitutions that make m in (0, 1) "
    "and |rho| < 1 structural: an identity either holds or it does not"
)


def _register(id, statement, printed, mutated, kind="printed", why=_WHY):
    return register(
        id,
        _SECTION,
        _SECTION,
        statement,
        "symbolic",
        "exact",
        why,
        printed=printed,
        mutants=(Mutant(f"printed {printed!r} -> {mutated!r}", kind, kwargs={"printed": mutated}),),
    )


def _show(expr) -> str:
    """A readable form: logs collected, rational functions of m split into partial fractions."""
    expr = sp.sympify(expr)
    if expr.has(sp.log):
        expr = sp.collect(sp.expand(expr), [sp.log(we.M), sp.log(1 - we.M)])
    elif expr.has(we.M):
        expr = sp.apart(expr, we.M)
    return sp.sstr(expr)


def _compare(computed, printed: str, note: str = "") -> Outcome:
    ok = we.same(computed, we.parse(printed))
    return Outcome(
        PASS if ok else DISCREPANCY,
        _show(computed),
        note + ("" if ok else f"sympy gives {sp.sstr(computed)}, the paper prints {printed}"),
    )


_PHI1 = "(1+rho)*log(m) - (1-rho)*log(1-m) + 2*rho*log(2)"


@register(
    "we-phi-prime",
    _SECTION,
    _SECTION,
    "phi_rho'(m) = (1+rho) log m - (1-rho) log(1-m) + 2 rho log 2, for phi_rho(m) = "
    "(1+rho) m log m + (1-rho)(1-m) log(1-m) - kappa_rho m, kappa_rho = 2 rho (1 - log 2); "
    "the library's phi_rho is this definition",
    "symbolic",
    "exact",
    _WHY,
    printed=_PHI1,
    witness="proofs_check.witnesses.weighted_entropy:potential, "
    "proofs_check.witnesses.weighted_entropy:derivative",
    shares="nothing (phi_rho written out from the paper in the witness)",
    mutants=(
        Mutant.printed(
            "printed 2 rho log 2 -> rho log 2",
            printed="(1+rho)*log(m) - (1-rho)*log(1-m) + rho*log(2)",
        ),
        Mutant.witness("witness phi_rho with an extra m^2 term", extra=we.M**2),
    ),
)
def _we_phi_prime(printed: str = _PHI1, extra=0):
    lib = el.weighted_entropy_potential(el.RHO, el.M).subs({el.RHO: we.RHO, el.M: we.M})
    if not we.same(lib, we.potential(extra=extra)):  # the library transcribes the definition
        return Outcome(
            FAIL,
            _show(we.derivative(1)),
            "toolkit defect: the library's phi_rho "
            "(nbl_theory.elicitation) is not the paper's definition written out in "
            "the witness; the paper is not judged",
        )
    out = _compare(we.derivative(1), printed)
    out.detail += " The library's phi_rho equals the paper's definition (sympy)."
    return out


_PHI2 = "(1+rho)/m + (1-rho)/(1-m)"


@_register(
    "we-phi-second", "phi_rho''(m) = (1+rho)/m + (1-rho)/(1-m)", _PHI2, "(1+rho)/m + (1+rho)/(1-m)"
)
def _we_phi_second(printed: str = _PHI2):
    return _compare(we.derivative(2), printed)


@_register(
    "we-normalisation",
    "kappa_rho = 2 rho (1 - log 2) is chosen so that phi_rho'(1/2) = 0",
    "0",
    "rho",
)
def _we_norm(printed: str = "0"):
    return _compare(we.at_half(1), printed, "phi_rho'(1/2) with kappa_rho = 2 rho (1 - log 2). ")


@_register("we-phi-second-half", "phi_rho''(1/2) = 4", "4", "2")
def _we_second_half(printed: str = "4"):
    return _compare(we.at_half(2), printed)


@_register("we-phi-third-half", "phi_rho'''(1/2) = -8 rho", "-8*rho", "8*rho")
def _we_third_half(printed: str = "-8*rho"):
    return _compare(we.at_half(3), printed)


_TAYLOR = (
    "g_rho = (phi_rho')^{-1} expanded at 0 by inverting the Taylor series of phi_rho' at "
    "1/2 (no formula for g' or g'' used). "
)


@_register("we-g-at-0", "g_rho(0) = 1/2", "1/2", "1/4")
def _we_g0(printed: str = "1/2"):
    return _compare(we.link_taylor()[0], printed, _TAYLOR)


@_register("we-g1-at-0", "g_rho'(0) = 1/4", "1/4", "1/2")
def _we_g1(printed: str = "1/4"):
    return _compare(we.link_taylor()[1], printed, _TAYLOR)


@_register("we-g2-at-0", "g_rho''(0) = rho/8", "rho/8", "rho/4")
def _we_g2(printed: str = "rho/8"):
    return _compare(we.link_taylor()[2], printed, _TAYLOR)


_IMPLICIT = "g**(1+rho)/(1-g)**(1-rho) = exp(z)/2**(2*rho)"


@_register(
    "we-implicit-equation",
    "g_rho(z)^{1+rho}/{1-g_rho(z)}^{1-rho} = e^z/2^{2 rho} (the "
    "log of both sides is the printed equation z = (1+rho) log g - (1-rho) log(1-g) + "
    "2 rho log 2)",
    _IMPLICIT,
    "g**(1+rho)/(1-g)**(1-rho) = exp(z)/2**rho",
)
def _we_implicit(printed: str = _IMPLICIT):
    lhs, rhs = (we.parse(t) for t in printed.split("="))
    gap = we.implicit_equation_gap(lhs, rhs)
    return Outcome(
        PASS if gap == 0 else DISCREPANCY,
        f"log lhs(m) - log rhs(phi_rho'(m)) = {sp.sstr(gap)} (m in (0, 1))",
        "the printed equation with g = m and z = phi_rho'(m) must hold for every m",
    )


@register(
    "we-strictly-convex",
    _SECTION,
    _SECTION,
    "|rho| < 1 implies phi_rho'' > 0 on (0, 1): phi_rho is strictly convex",
    "symbolic",
    "exact",
    _WHY,
    printed="|rho| < 1",
    mutants=(Mutant.printed("the range |rho| < 1 -> |rho| < 3/2", bound=sp.Rational(3, 2)),),
)
def _we_convex(bound=1):
    ok = we.strictly_convex(bound)
    return Outcome(
        PASS if ok else DISCREPANCY,
        f"phi_rho''(u/(1+u)) > 0 proved by sympy for every u > 0 and |rho| < {bound}: {ok}",
        "rho = bound (s-1)/(s+1), s > 0; m = u/(1+u), u > 0",
    )


@register(
    "we-dual-domain",
    _SECTION,
    _SECTION,
    "phi_rho' -> -oo as m -> 0+ and -> +oo as m -> 1-: g_rho maps R onto (0, 1)",
    "symbolic",
    "exact",
    _WHY,
    printed="-oo, oo",
    mutants=(Mutant.formula("the range |rho| < 1 -> |rho| < 2", bound=2),),
)
def _we_dual(bound=1, printed: str = "-oo, oo"):
    lo, hi = we.dual_limits(bound)
    want = tuple(we.parse(t) for t in printed.split(","))
    ok = (lo, hi) == want
    return Outcome(
        PASS if ok else DISCREPANCY,
        f"limits {sp.sstr(lo)}, {sp.sstr(hi)}",
        f"sympy limits of phi_rho' for every |rho| < {bound} (rho = bound (s-1)/(s+1)"
        ", s > 0); phi_rho' is increasing (we-strictly-convex) and continuous, so "
        "g_rho is onto (0, 1)",
    )


@_register(
    "we-rho0-logistic",
    "When rho = 0 the construction reduces exactly to the logistic link",
    "exp(z)/(1+exp(z))",
    "exp(z)/(1+exp(2*z))",
)
def _we_logistic(printed: str = "exp(z)/(1+exp(z))"):
    sol = we.logistic_case()
    if sol is None:
        return Outcome(FAIL, "no unique solution", "sympy could not solve phi_0'(m) = z")
    return _compare(sol, printed, "the solution m of phi_0'(m) = z. ")


@register(
    "we-affine-invariance",
    _SECTION,
    _SECTION,
    "The linear term -kappa_rho m does not change the Bregman loss (affine terms do not "
    "affect the Bregman divergence)",
    "symbolic",
    "exact",
    _WHY,
    mutants=(Mutant.formula("a quadratic term m^2 added instead of an affine one", extra=we.M**2),),
)
def _we_affine(extra=0):
    gap = we.affine_invariance_gap(extra)
    return Outcome(
        PASS if gap == 0 else DISCREPANCY,
        f"l[phi + a m + b] - l[phi] = {gap}",
        "symbolic rho and arbitrary affine term a m + b; the Bregman loss "
        "phi(y) - phi(r) - phi'(r)(y - r) written out in the witness",
    )
