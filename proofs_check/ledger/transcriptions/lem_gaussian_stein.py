"""Transcriptions of the proof of lem:gaussian_stein (app:gaussian_stein).

Gaussian identities are checked by 1-D quadrature on instances: coordinates with beta = b e_1
(rotation invariance of N(0, I)), where the entries off the beta direction factor by the
independence of X's coordinates (written so); f is the logistic link, h a smooth function of
polynomial growth."""

_R = "real"
_P = "positive"
_LOGIT = {
    "gl": "Lambda(Symbol('y'), 1/(1 + exp(-Symbol('y'))))",
    "gl1": "Lambda(Symbol('y'), exp(-Symbol('y'))/(1 + exp(-Symbol('y')))**2)",
    "gl2": "Lambda(Symbol('y'), diff(exp(-Symbol('y'))/(1 + exp(-Symbol('y')))**2, Symbol('y')))",
}
_BS = [{"b": "1/2"}, {"b": "1"}, {"b": "5/2"}]

STEPS = {
    "lem:gaussian_stein/b01/s01": dict(
        hash="4b879061486e",
        method="expectation",
        symbols={"X1": _R},
        gaussian=["X1"],
        lhs="E(X1*(sin(X1) + X1**3))",
        rhs="E(cos(X1) + 3*X1**2)",
        hypotheses="an instance: h(X) = sin(X_j) + X_j^3 (depends on X_j only; the "
        "multivariate formula reduces to it coordinatewise by Fubini)",
    ),
    "lem:gaussian_stein/b02/s01": dict(
        hash="7a44b3d0ad39",
        method="symbolic",
        symbols={"x1": _R, "x2": _R, "x3": _R, "b1": _R, "b2": _R, "b3": _R, "y": _R},
        defs={"f": "Function('f')", "B": "b1*x1 + b2*x2 + b3*x3"},
        lhs="diff(f(B), x1)",
        rhs="b1*diff(f(y), y).subs(y, B)",
        hypotheses="h(X) = f(beta^T X), j = 1, d = 3, f differentiable",
    ),
    "lem:gaussian_stein/b03/s01": dict(
        hash="5e41a19c13a3",
        method="expectation",
        symbols={"X1": _R, "X2": _R, "b": _P},
        gaussian=["X1", "X2"],
        at=_BS,
        defs=_LOGIT,
        lhs="Matrix([E(X1*gl(b*X1)), E(X2)*E(gl(b*X1))])",
        rhs="Matrix([b*E(gl1(b*X1)), 0*E(gl1(b*X1))])",
        hypotheses="beta = b e_1; j = 1 (along beta) and j = 2 (orthogonal: beta_2 = 0); "
        "f logistic",
    ),
    "lem:gaussian_stein/b04/s01": dict(
        hash="83df2fda2dd2",
        method="expectation",
        symbols={"X1": _R, "X2": _R},
        gaussian=["X1", "X2"],
        lhs="Matrix([E((X1**2 - 1)*(sin(X1) + X1**3)), E(X1*cos(X1))*E(X2*exp(X2/3))])",
        rhs="Matrix([E(-sin(X1) + 6*X1), E(-sin(X1))*E(exp(X2/3)/3)])",
        hypotheses="instances: j = k = 1 with h = sin(X1) + X1^3; j = 1, k = 2 with "
        "h = cos(X1) exp(X2/3) (the expectation factors by independence)",
    ),
    "lem:gaussian_stein/b05/s01": dict(
        hash="9cb32a62f2ce",
        method="symbolic",
        symbols={"x1": _R, "x2": _R, "x3": _R, "b1": _R, "b2": _R, "b3": _R, "y": _R},
        defs={"f": "Function('f')", "B": "b1*x1 + b2*x2 + b3*x3"},
        lhs="diff(f(B), x1, x2)",
        rhs="b1*b2*diff(f(y), y, 2).subs(y, B)",
        hypotheses="j = 1, k = 2, d = 3, f twice differentiable",
    ),
    "lem:gaussian_stein/b06/s01": dict(
        hash="6cf09c00fcc1",
        method="expectation",
        symbols={"X1": _R, "X2": _R, "b": _P},
        gaussian=["X1", "X2"],
        at=_BS,
        defs=_LOGIT,
        lhs="Matrix([E((X1**2 - 1)*gl(b*X1)), E(X1*gl(b*X1))*E(X2), E(gl(b*X1))*E(X2**2 - 1)])",
        rhs="Matrix([b**2*E(gl2(b*X1)), 0*E(gl2(b*X1)), 0*E(gl2(b*X1))])",
        hypotheses="beta = b e_1: entries (1,1), (1,2), (2,2); f logistic",
    ),
}
