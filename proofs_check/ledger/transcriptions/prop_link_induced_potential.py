"""Transcriptions of the proof of prop:link_induced_potential (app:link_to_potential), on the
logistic instance: g(t) = 1/(1 + e^-t), g^-1(m) = log(m/(1 - m)), and phi_g(m) = m log m +
(1 - m) log(1 - m), whose derivative is g^-1 (the potential the proposition induces)."""

_R = "real"
_DEFS = {
    "gl": "Lambda(Symbol('y'), 1/(1 + exp(-Symbol('y'))))",
    "ginv": "Lambda(Symbol('m'), log(Symbol('m')/(1 - Symbol('m'))))",
    "phig": "Symbol('m')*log(Symbol('m')) + (1 - Symbol('m'))*log(1 - Symbol('m'))",
}

STEPS = {
    "prop:link_induced_potential/b01/s01": dict(
        hash="be95e394d77e",
        method="symbolic",
        symbols={"t": _R},
        defs=_DEFS,
        lhs="diff(phig, Symbol('m')).subs(Symbol('m'), gl(t))",
        rhs="ginv(gl(t))",
        hypotheses="phi_g' = g^-1 (the construction), logistic instance",
    ),
    "prop:link_induced_potential/b01/s02": dict(
        hash="05af2dc61459",
        method="symbolic",
        symbols={"t": _R},
        defs=_DEFS,
        lhs="ginv(gl(t))",
        rhs="t",
        hypotheses="logistic instance",
    ),
}
