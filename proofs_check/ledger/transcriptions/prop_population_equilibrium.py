"""Transcriptions of the proof of prop:population_equilibrium (app:conditional_population_field).

Symbolic steps are in d = 2 with the generic unit vector v* = (1 - k^2, 2k)/(1 + k^2), its
orthogonal unit vector e = (-2k, 1 - k^2)/(1 + k^2), theta = t e (theta^T v* = 0, the only
choice in d = 2), a context X = (x1, x2), Z = v*^T X, P = P_{v*}^perp = I - v* v*^T and the
reflection X~ = P X - Z v*; the algebra does not depend on d. A generic link is
``g = Function('g')``. The Gaussian steps fix v* = (3/5, 4/5), e = (-4/5, 3/5) and write
X = W e + Z v* with W, Z independent N(0, 1) (X ~ N(0, I_2) by rotation invariance), with the
logistic link (the probit link where a closed form is compared) at a few (t, Delta_beta).
"""

_R = "real"
_P = "positive"
_SYM = {"k": _R, "t": _R, "D": _P, "x1": _R, "x2": _R, "w": _R, "z": _R}
_GEOM = {
    "vs": "Matrix([1 - k**2, 2*k])/(1 + k**2)",
    "e": "Matrix([-2*k, 1 - k**2])/(1 + k**2)",
    "P": "eye(2) - vs*vs.T",
    "X": "Matrix([x1, x2])",
    "Z": "vs.dot(X)",
    "Xt": "P*X - Z*vs",
    "th": "t*e",
    "bp": "th + D/2*vs",
    "bm": "th - D/2*vs",
}
#: X written by its decomposition X = w e + z v* (w, z free)
_GEOM_WZ = {**_GEOM, "X": "w*e + z*vs", "Z": "z", "Xt": "w*e - z*vs"}
_NUM = {
    "vs": "Matrix([Rational(3, 5), Rational(4, 5)])",
    "e": "Matrix([Rational(-4, 5), Rational(3, 5)])",
    "P": "eye(2) - vs*vs.T",
    "X": "W*e + Z*vs",
    "Xt": "W*e - Z*vs",
    "th": "t*e",
    "bp": "th + D/2*vs",
    "bm": "th - D/2*vs",
    "g": "Lambda(Symbol('y'), 1/(1 + exp(-Symbol('y'))))",
    "Ip": "Piecewise((1, Z >= 0), (0, True))",
    "Ig": "Piecewise((1, Z > 0), (0, True))",
    "Im": "Piecewise((1, Z < 0), (0, True))",
}
_NSYM = {"W": _R, "Z": _R, "t": _R, "D": _P}
_AT = [{"t": "1/2", "D": "1"}, {"t": "-3/2", "D": "5/2"}]
#: one point for the 2-D vector quadratures (about 9 s per expectation)
_AT1 = [{"t": "-3/2", "D": "5/2"}]
_HYP = (
    "assum:gaussian_context (X ~ N(0, I_d)); beta_a = theta + a (Delta_beta/2) v*, "
    "theta^T v* = 0; logistic link (assum:polygrowth_g holds for it)"
)


STEPS = {
    "prop:population_equilibrium/b01/s01": dict(
        hash="e54944b19c06",
        method="cited",
        via="symbolic",
        cite="the main text's Z = (v*)^T X (sec. local stability, before eq:mu_star_m2_def)",
        symbols=_SYM,
        defs=_GEOM,
        lhs="vs.dot(X)",
        rhs="vs.dot(X)",
        hypotheses="'Let Z = (v*)^T X': the main text's definition (lhs) against the one "
        "printed here (rhs), d = 2",
        note="a restatement of the main text's Z (it is labelled eq:Z-def here), checked "
        "against it",
    ),
    "prop:population_equilibrium/b02/s01": dict(
        hash="0f8625e4bb04",
        method="symbolic",
        symbols=_SYM,
        defs=_GEOM,
        lhs="X",
        rhs="P*X + Z*vs",
        hypotheses="||v*|| = 1",
    ),
    "prop:population_equilibrium/b03/s01": dict(
        hash="66142a24a324",
        method="expectation",
        symbols=_NSYM,
        gaussian=["W", "Z"],
        defs=_NUM,
        lhs="(P*X*vs.dot(X)).applyfunc(E)",
        rhs="P*vs",
        hypotheses="X ~ N(0, I_2) (so E[P X] = 0, E Z = 0 and Cov(P X, Z) = E[P X Z])",
        note="the covariance computed by 2-D quadrature",
    ),
    "prop:population_equilibrium/b03/s02": dict(
        hash="553947ff329c",
        method="symbolic",
        symbols=_SYM,
        defs=_GEOM,
        lhs="P*vs",
        rhs="zeros(2, 1)",
        hypotheses="||v*|| = 1",
    ),
    "prop:population_equilibrium/b04/s01": dict(
        hash="8b5c1128d7dc",
        method="cited",
        via="symbolic",
        cite="eq:Fdef",
        symbols=_SYM,
        defs={**_GEOM_WZ, "g": "Function('g')", "v": "vs"},
        lhs="g(bp.dot(X))*X*Piecewise((1, v.dot(X) >= 0), (0, True)) - "
        "g(bm.dot(X))*X*Piecewise((1, v.dot(X) < 0), (0, True))",
        rhs="g(bp.dot(X))*X*Piecewise((1, z >= 0), (0, True)) - "
        "g(bm.dot(X))*X*Piecewise((1, z < 0), (0, True))",
        hypotheses="eq:Fdef at v = v* with m_a(x) = g(beta_a^T x) (eq:model), any link g; "
        "X = w e + z v* with z = Z",
        note="the integrands of eq:Fdef at v = v* and of the printed right side, pointwise in "
        "(w, z); the split into two expectations is linearity (both are integrable under "
        "assum:polygrowth_g)",
    ),
    "prop:population_equilibrium/b05/s01": dict(
        hash="c300a6014109",
        method="symbolic",
        symbols=_SYM,
        defs=_GEOM_WZ,
        lhs="vs.dot(X)",
        rhs="z",
        hypotheses="X = P X + Z v* (b02) with P X = w e; v* and e orthonormal",
    ),
    "prop:population_equilibrium/b05/s02": dict(
        hash="c329b1b777ed", method="prose", note="the condition Z > 0 (the realization considered)"
    ),
    "prop:population_equilibrium/b05/s03": dict(
        hash="8cad36c6ffb7",
        method="symbolic",
        symbols=_SYM,
        defs=_GEOM,
        lhs="vs.dot(Xt)",
        rhs="-Z",
        hypotheses="X~ = P X - Z v*, ||v*|| = 1",
    ),
    "prop:population_equilibrium/b05/s04": dict(
        hash="0ef0d1855ae1",
        method="symbolic",
        symbols={"Z": _P},
        lhs="-Z",
        rhs="0",
        hypotheses="Z > 0 (b05/s02)",
    ),
    "prop:population_equilibrium/b06/s01": dict(
        hash="0790cf5c567e",
        method="symbolic",
        symbols=_SYM,
        defs=_GEOM,
        lhs="bp.dot(X)",
        rhs="(th + D/2*vs).dot(P*X + Z*vs)",
        hypotheses="beta_+ = theta + (Delta_beta/2) v*; X = P X + Z v* (b02)",
    ),
    "prop:population_equilibrium/b06/s02": dict(
        hash="3cd18258e73e",
        method="symbolic",
        symbols=_SYM,
        defs=_GEOM,
        lhs="(th + D/2*vs).dot(P*X + Z*vs)",
        rhs="th.dot(P*X) + D/2*Z",
        hypotheses="theta^T v* = 0 (theta = t e), ||v*|| = 1",
    ),
    "prop:population_equilibrium/b07/s01": dict(
        hash="77fb8608d998",
        method="symbolic",
        symbols=_SYM,
        defs=_GEOM,
        lhs="bm.dot(Xt)",
        rhs="(th - D/2*vs).dot(P*X - Z*vs)",
        hypotheses="beta_- = theta - (Delta_beta/2) v*; X~ = P X - Z v*",
    ),
    "prop:population_equilibrium/b07/s02": dict(
        hash="ae3da5244137",
        method="symbolic",
        symbols=_SYM,
        defs=_GEOM,
        lhs="(th - D/2*vs).dot(P*X - Z*vs)",
        rhs="th.dot(P*X) + D/2*Z",
        hypotheses="theta^T v* = 0 (theta = t e), ||v*|| = 1",
    ),
    "prop:population_equilibrium/b08/s01": dict(
        hash="a5e00f56a18c",
        method="expectation",
        symbols=_NSYM,
        gaussian=["W", "Z"],
        defs=_NUM,
        at=_AT1,
        lhs="(g(bp.dot(X))*X*Ip).applyfunc(E) - (g(bm.dot(X))*X*Im).applyfunc(E)",
        rhs="((g(bp.dot(X))*X - g(bm.dot(Xt))*Xt)*Ig).applyfunc(E)",
        hypotheses=_HYP + "; X~ = P X - Z v*",
        note="F(v*) as in b04 (left) against the reflected form (right): the reflection "
        "W e + Z v* -> W e - Z v* preserves N(0, I_2)",
    ),
    "prop:population_equilibrium/b08/s02": dict(
        hash="00d7648f7878",
        method="symbolic",
        symbols={**_SYM, "I1": _R},
        defs={**_GEOM_WZ, "g": "Function('g')"},
        lhs="(g(bp.dot(X))*X - g(bm.dot(Xt))*Xt)*I1",
        rhs="g(th.dot(P*X) + D/2*z)*(X - Xt)*I1",
        hypotheses="theta^T v* = 0; any link g (the shared link); I1 = 1{Z > 0}",
        note="the integrands, pointwise in (w, z); equal integrands have equal expectations",
    ),
    "prop:population_equilibrium/b09/s01": dict(
        hash="f8ee0266e392",
        method="symbolic",
        symbols={**_SYM, "I1": _R},
        defs={**_GEOM_WZ, "g": "Function('g')"},
        lhs="g(th.dot(P*X) + D/2*z)*(X - Xt)*I1",
        rhs="2*z*g(th.dot(P*X) + D/2*z)*I1*vs",
        hypotheses="X - X~ = 2 Z v*; any link g; I1 = 1{Z > 0}",
        note="the integrands, pointwise; the constant vector v* leaves the expectation",
    ),
    "prop:population_equilibrium/b09/s02": dict(
        hash="0f45c6384f93",
        method="expectation",
        symbols=_NSYM,
        gaussian=["W", "Z"],
        defs={"b": "D/2/sqrt(1 + t**2)", "kap": "(1 + b/sqrt(1 + b**2))/sqrt(2*pi)"},
        at=_AT,
        lhs="2*E(Z*Phi(t*W + D/2*Z)*Piecewise((1, Z > 0), (0, True)))",
        rhs="kap",
        hypotheses="the probit link g = Phi (assum:polygrowth_g holds for it); theta = t e, "
        "so theta^T P X = t W",
        note="the coefficients of the common vector v*; kappa* is named by its definition "
        "(b10); the check compares the printed "
        "expectation with its closed form for the probit link, derived by hand: "
        "E_W Phi(c + t W) = Phi(c/sqrt(1 + t^2)), and 2 int_0^oo z phi(z) Phi(b z) dz = "
        "(1 + b/sqrt(1 + b^2))/sqrt(2 pi) with b = (Delta/2)/sqrt(1 + t^2)",
    ),
    "prop:population_equilibrium/b10/s01": dict(
        hash="8f86d222cac3",
        method="cited",
        via="expectation",
        cite="prop:population_equilibrium (F(v*) = kappa* v*, so kappa* = (v*)^T F(v*), "
        "||v*|| = 1) and eq:Fdef",
        symbols={"Z": _R, "w": _R, "t": _R, "D": _P},
        gaussian=["Z"],
        defs={"g": _NUM["g"], "Ip": _NUM["Ip"], "Ig": _NUM["Ig"], "Im": _NUM["Im"]},
        at=[
            {"t": "1/2", "D": "1", "w": "3/10"},
            {"t": "-3/2", "D": "5/2", "w": "-1"},
            {"t": "2", "D": "3/2", "w": "7/5"},
        ],
        lhs="E(g(t*w + D/2*Z)*Z*Ip) - E(g(t*w - D/2*Z)*Z*Im)",
        rhs="2*E(Z*g(t*w + D/2*Z)*Ig)",
        hypotheses=_HYP + "; conditionally on W = w (X = W e + Z v*, W independent of Z), "
        "so beta_+-^T X = t w +- (D/2) Z and theta^T P X = t w",
        note="the statement's kappa* is the coefficient (v*)^T F(v*); by eq:Fdef it is "
        "E[m_+(X) Z 1{Z >= 0}] - E[m_-(X) Z 1{Z < 0}] (lhs), which the display names "
        "2E[Z g(theta^T P X + (D/2) Z) 1{Z > 0}] (rhs): checked by 1-D quadrature over Z "
        "at fixed W = w (the identity holds for every w, hence for the average over W)",
    ),
    "prop:population_equilibrium/b11/s01": dict(
        hash="9372deab339c",
        method="symbolic",
        symbols={**_SYM, "f1": _R, "f2": _R},
        defs={**_GEOM, "F": "Matrix([f1, f2])"},
        lhs="F - vs.dot(F)*vs",
        rhs="P*F",
        hypotheses="h(v) = P_v^perp F(v) (the tangent part of F), ||v*|| = 1; F(v*) any vector",
        note="h(v*) written out as F - (v*^T F) v*",
    ),
    "prop:population_equilibrium/b11/s02": dict(
        hash="38d9bb5f8ab4",
        method="cited",
        via="symbolic",
        cite="b09: F(v*) = kappa* v*",
        symbols={**_SYM, "kap": _R},
        defs={**_GEOM, "F": "kap*vs"},
        lhs="P*F",
        rhs="kap*P*vs",
        hypotheses="F(v*) = kappa* v* (b09)",
    ),
    "prop:population_equilibrium/b11/s03": dict(
        hash="b999d97adcc8",
        method="symbolic",
        symbols={**_SYM, "kap": _R},
        defs=_GEOM,
        lhs="kap*P*vs",
        rhs="zeros(2, 1)",
        hypotheses="||v*|| = 1",
    ),
}
