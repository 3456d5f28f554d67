"""Transcriptions of the derivations of app:self_concordance outside proofs. The instance is
the binary entropy phi(r) = r log r + (1 - r) log(1 - r) on (0, 1), whose dual link is the
logistic g(z) = 1/(1 + e^-z): phi''(m) = 1/(m(1 - m)), phi'''(m) = -(1 - 2m)/(m(1 - m))^2
(written out by hand; the checks are the identities at this instance)."""

_R = "real"
_DEF = {
    "g": "Lambda(Symbol('y'), 1/(1 + exp(-Symbol('y'))))",
    "vpp": "Lambda(Symbol('y'), 1/(Symbol('y')*(1 - Symbol('y'))))",
    "vppp": "Lambda(Symbol('y'), -(1 - 2*Symbol('y'))/(Symbol('y')*(1 - Symbol('y')))**2)",
}

STEPS = {
    "text:app:self_concordance/b01/s01": dict(
        hash="497067f51f3f",
        method="cited",
        via="symbolic",
        cite="the derivative of phi'{g(z)} = z (inverse function)",
        symbols={"z": _R},
        defs=_DEF,
        lhs="diff(g(z), z)",
        rhs="1/vpp(g(z))",
        hypotheses="an instance: phi the binary entropy, g = (phi')^{-1} the logistic link",
    ),
    "text:app:self_concordance/b02/s01": dict(
        hash="10425b73e6f0",
        method="cited",
        via="symbolic",
        cite="b01 differentiated once more",
        symbols={"z": _R},
        defs=_DEF,
        lhs="diff(g(z), z, 2)",
        rhs="-vppp(g(z))/vpp(g(z))**3",
        hypotheses="an instance: phi the binary entropy, g the logistic link",
    ),
    "text:app:self_concordance/b03/s01": dict(
        hash="ff5108961b4e",
        method="symbolic",
        symbols={"q": "positive", "mm": _R},
        defs={"R": "1", "inv": "mm*(1 - mm)", "m": "1/(1 + q)"},
        lhs="diff(inv, mm).subs(mm, m)**2",
        rhs="R**2",
        hypotheses="an instance: phi the binary entropy (1/phi''(m) = m(1 - m)) on I = (0, 1), "
        "m = 1/(1 + q) with q > 0 covering I; R = 1, the self-concordance constant "
        "of the logistic link (|g''| <= g')",
        note="the squares of the two sides (both nonnegative); Arb cannot certify |1 - 2m| <= 1 "
        "on [0, 1] itself (equality at the ends)",
    ),
}
