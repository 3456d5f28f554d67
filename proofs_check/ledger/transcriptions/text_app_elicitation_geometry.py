"""Transcriptions of the derivations of app:elicitation-geometry outside proofs: the weighted
binary-entropy potential phi_rho, kappa_rho = 2 rho (1 - log 2), m in (0, 1) written 1/(1 + q)
with q > 0, rho real (the paper's rho in (-1, 1))."""

_R = "real"
_P = "positive"
_DEF = {
    "k": "2*rho*(1 - log(2))",
    "vphi": "Lambda(Symbol('x'), (1 + rho)*Symbol('x')*log(Symbol('x')) + (1 - rho)*"
    "(1 - Symbol('x'))*log(1 - Symbol('x')) - k*Symbol('x'))",
    "d1": "Lambda(Symbol('x'), diff(vphi(Symbol('x')), Symbol('x')))",
    "d2": "Lambda(Symbol('x'), diff(vphi(Symbol('x')), Symbol('x'), 2))",
    "d3": "Lambda(Symbol('x'), diff(vphi(Symbol('x')), Symbol('x'), 3))",
}

STEPS = {
    "text:app:elicitation-geometry/b01/s01": dict(
        hash="902d27218bb9", method="prose", note="a definition: the potential phi_rho"
    ),
    "text:app:elicitation-geometry/b02/s01": dict(
        hash="0659234659a1",
        method="symbolic",
        symbols={"q": _P, "rho": _R},
        defs={**_DEF, "m": "1/(1 + q)"},
        lhs="d1(m)",
        rhs="(1 + rho)*log(m) - (1 - rho)*log(1 - m) + 2*rho*log(2)",
        hypotheses="m = g_rho(z) in (0, 1), so z = phi_rho'(m) (g_rho = (phi_rho')^{-1})",
        note="the left side is z = phi_rho'(g_rho(z)) computed from the definition",
    ),
    "text:app:elicitation-geometry/b03/s01": dict(
        hash="e41d6df342bf",
        method="symbolic",
        symbols={"rho": _R},
        defs=_DEF,
        lhs="d1(Rational(1, 2))",
        rhs="0",
        hypotheses="phi_rho' strictly increasing (|rho| < 1), so g_rho(0) = 1/2 iff "
        "phi_rho'(1/2) = 0",
        note="checked as phi_rho'(1/2) = 0, the equivalent form",
    ),
    "text:app:elicitation-geometry/b03/s02": dict(
        hash="343c9cce4e81",
        method="symbolic",
        symbols={"rho": _R},
        defs=_DEF,
        lhs="1/d2(Rational(1, 2))",
        rhs="Rational(1, 4)",
        hypotheses="g_rho' = 1/phi_rho''(g_rho) and g_rho(0) = 1/2 (b03/s01)",
    ),
    "text:app:elicitation-geometry/b03/s03": dict(
        hash="0154c13864dc",
        method="symbolic",
        symbols={"rho": _R},
        defs=_DEF,
        lhs="-d3(Rational(1, 2))/d2(Rational(1, 2))**3",
        rhs="rho/8",
        hypotheses="g_rho'' = -phi_rho'''(g_rho)/phi_rho''(g_rho)^3 and g_rho(0) = 1/2",
    ),
}
