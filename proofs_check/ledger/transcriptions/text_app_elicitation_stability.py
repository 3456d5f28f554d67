"""Transcriptions of the derivations of app:elicitation_stability outside proofs. mu* and m_2
are defined in eq:mu_star_m2_def as E[g'(U + Delta Z/2) 1{Z > 0}] and E[g''(U)]; the steps
rewrite the integrands through g' = 1/phi''(g), g'' = -phi'''(g)/phi''(g)^3. The integrands are
compared pointwise (equal integrands have equal expectations) at the instance phi = binary
entropy, g = logistic: phi''(m) = 1/(m(1 - m)), phi'''(m) = -(1 - 2m)/(m(1 - m))^2."""

_R = "real"
_P = "positive"
_DEF = {
    "g": "Lambda(Symbol('y'), 1/(1 + exp(-Symbol('y'))))",
    "vpp": "Lambda(Symbol('y'), 1/(Symbol('y')*(1 - Symbol('y'))))",
    "vppp": "Lambda(Symbol('y'), -(1 - 2*Symbol('y'))/(Symbol('y')*(1 - Symbol('y')))**2)",
}

STEPS = {
    "text:app:elicitation_stability/b01/s01": dict(
        hash="8494c6c3fea2",
        method="cited",
        via="symbolic",
        cite="eq:mu_star_m2_def",
        symbols={"u": _R, "z": _R, "D": _P, "I": _R},
        defs=_DEF,
        lhs="diff(g(Symbol('w')), Symbol('w')).subs(Symbol('w'), u + D/2*z)*I",
        rhs="I/vpp(g(u + D/2*z))",
        hypotheses="mu* = E[g'(U + Delta Z/2) 1{Z > 0}] (eq:mu_star_m2_def); I = 1{Z > 0}; "
        "the instance phi = binary entropy, g = (phi')^{-1} logistic",
        note="the integrands of the definition (left) and of the printed form (right)",
    ),
    "text:app:elicitation_stability/b02/s01": dict(
        hash="611aee38104e",
        method="cited",
        via="symbolic",
        cite="eq:mu_star_m2_def",
        symbols={"u": _R},
        defs=_DEF,
        lhs="diff(g(u), u, 2)",
        rhs="-vppp(g(u))/vpp(g(u))**3",
        hypotheses="m_2 = E[g''(U)] (eq:mu_star_m2_def); the instance phi = binary entropy",
        note="the integrands of the definition and of the printed form",
    ),
    "text:app:elicitation_stability/b03/s01": dict(
        hash="4894e4add90d",
        method="cited",
        via="symbolic",
        cite="eq:decision_stability",
        symbols={"D": _P, "A": _P, "B": _R},
        defs={"mu": "A", "m2": "-B"},
        lhs="D*mu - 2*phi(0)*Max(m2, 0)*(1 - D**2/4)",
        rhs="D*A - 2*phi(0)*(1 - D**2/4)*Max(-B, 0)",
        hypotheses="lambda* = Delta mu* - 2 phi_0(0) (m_2)_+ (1 - Delta^2/4) "
        "(eq:decision_stability) with mu* = A (b01) and m_2 = -B (b02), A, B the "
        "two printed expectations",
        note="the substitution",
    ),
}
