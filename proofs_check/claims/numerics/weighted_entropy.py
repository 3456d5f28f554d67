"""Claims of the weighted binary negative entropy φ_ρ (app:elicitation-geometry, the numerical
section's elicitation example): its derivatives, normalisation and values at 1/2 and 0, the
implicit equation of g_ρ, strict convexity, the dual domain, the logistic case ρ = 0 and the
invariance of the Bregman loss under affine terms.

Every statement is checked exactly with sympy for symbolic ρ (cases ρ ∈ (0, 1), (−1, 0) and
ρ = 0 where the sign of ρ matters, :func:`nbl_theory.elicitation.weighted_entropy_facts`). A
printed formula that sympy recomputes to something else is a ``DISCREPANCY``.
"""

from __future__ import annotations

import sympy as sp

from nbl_theory import elicitation as el

from ...registry import DISCREPANCY, FAIL, PASS, Outcome, register
from ...witnesses.toolkit_values import weighted_entropy_facts

__all__: list[str] = []

M = el.M
_EXACT = ("exact", "sympy simplify(difference) == 0: an identity either holds or it does not")


def _s(expr) -> str:
    return sp.sstr(expr)


def _fact_check(key):
    def check():
        computed, printed, equal = weighted_entropy_facts()[key]
        status = PASS if equal else DISCREPANCY
        shown = _s(sp.collect(sp.expand(computed), [sp.log(M), sp.log(1 - M)])) \
            if isinstance(computed, sp.Expr) and computed.has(sp.log) else _s(computed)
        if key == "log_implicit_equation":
            diff = sp.simplify(computed - printed)
            shown = (f"phi_rho'(m) - log(m^(1+rho) (1-m)^(rho-1) 2^(2 rho)) = {_s(diff)} "
                     "(m in (0,1))")
        return Outcome(status, shown,
                       "" if equal else f"sympy gives {_s(computed)}, the paper prints "
                       f"{_s(printed)}")
    return check


_WE_FACTS = [
    ("we-phi-prime", "phi_prime", "phi_rho'(m) = (1+rho) log m - (1-rho) log(1-m) + 2 rho log 2",
     "(1+rho) log m - (1-rho) log(1-m) + 2 rho log 2"),
    ("we-phi-second", "phi_second", "phi_rho''(m) = (1+rho)/m + (1-rho)/(1-m)",
     "(1+rho)/m + (1-rho)/(1-m)"),
    ("we-normalisation", "phi_prime(1/2)",
     "kappa_rho = 2 rho (1 - log 2) is chosen so that phi_rho'(1/2) = 0", "0"),
    ("we-phi-second-half", "phi_second(1/2)", "phi_rho''(1/2) = 4", "4"),
    ("we-phi-third-half", "phi_third(1/2)", "phi_rho'''(1/2) = -8 rho", "-8 rho"),
    ("we-g-at-0", "g(0)", "g_rho(0) = 1/2", "1/2"),
    ("we-g1-at-0", "g'(0)", "g_rho'(0) = 1/4", "1/4"),
    ("we-g2-at-0", "g''(0)", "g_rho''(0) = rho/8", "rho/8"),
    ("we-implicit-equation", "log_implicit_equation",
     "g_rho(z)^{1+rho}/{1-g_rho(z)}^{1-rho} = e^z/2^{2 rho} (the log of both sides is the "
     "printed equation z = (1+rho) log g - (1-rho) log(1-g) + 2 rho log 2)",
     "g^{1+rho}/(1-g)^{1-rho} = e^z/2^{2rho}"),
    ("we-strictly-convex", "strictly_convex",
     "|rho| < 1 implies phi_rho'' > 0 on (0, 1): phi_rho is strictly convex", "True"),
    ("we-dual-domain", "dual_domain_is_R",
     "phi_rho' -> -oo as m -> 0+ and -> +oo as m -> 1-: g_rho maps R onto (0, 1)", "True"),
    ("we-rho0-logistic", "rho=0_is_logistic",
     "When rho = 0 the construction reduces exactly to the logistic link", "e^z/(1+e^z)"),
]

for _id, _key, _stmt, _printed in _WE_FACTS:
    register(_id, "app:elicitation-geometry", "app:elicitation-geometry", _stmt, "symbolic",
             "exact", "sympy, symbolic rho (cases rho in (0,1), (-1,0) and rho = 0 where the "
             "sign of rho matters)", printed=_printed)(_fact_check(_key))


@register("we-affine-invariance", "app:elicitation-geometry", "app:elicitation-geometry",
          "The linear term -kappa_rho m does not change the Bregman loss (affine terms do not "
          "affect the Bregman divergence)", "symbolic", *_EXACT)
def _we_affine():
    phi = el.weighted_entropy_potential()
    a, b = sp.symbols("a b", real=True)
    diff = sp.simplify(el.bregman_loss(phi) - el.bregman_loss(phi + a * M + b))
    return Outcome(PASS if diff == 0 else FAIL, f"l[phi + a m + b] - l[phi] = {_s(diff)}",
                   "symbolic rho and arbitrary affine term a m + b")
