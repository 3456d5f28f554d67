"""Transcriptions of the proof of prop:local_jacobian (app:local_jacobian).

Vectors are written in d = 3 in coordinates: v* = (2k, 1 - k^2, 0)/(1 + k^2) is a generic unit
vector of a plane (k real), e1 = (1 - k^2, -2k, 0)/(1 + k^2) and e2 = (0, 0, 1) complete an
orthonormal basis, so the tangent space at v* is spanned by e1, e2. The tangent direction is
u = nu (cw e1 + sw e2) with ||u|| = nu > 0 (cw, sw a rational point of the circle, parameter m),
theta = s1 e1 + s2 e2 is orthogonal to v*, and a context is X = (x1, x2, x3) (or its tangent part
P = p1 e1 + p2 e2 plus Z v*). The algebra of these steps does not depend on d: d = 3 is the
smallest dimension with a two-dimensional tangent space, where theta and u need not be
parallel. A generic link is ``g = Function('g')``; the Gaussian steps use the logistic link.
"""

_R = "real"
_P = "positive"

_GEOM = {
    "vs": "Matrix([2*k, 1 - k**2, 0])/(1 + k**2)",
    "e1": "Matrix([1 - k**2, -2*k, 0])/(1 + k**2)",
    "e2": "Matrix([0, 0, 1])",
    "cw": "(1 - m**2)/(1 + m**2)",
    "sw": "2*m/(1 + m**2)",
    "u": "nu*(cw*e1 + sw*e2)",
    "th": "s1*e1 + s2*e2",
    "Pp": "eye(3) - vs*vs.T",
    "X": "Matrix([x1, x2, x3])",
    "PX": "p1*e1 + p2*e2",
}
_GSYM = {
    "k": _R,
    "m": _R,
    "nu": _P,
    "s1": _R,
    "s2": _R,
    "x1": _R,
    "x2": _R,
    "x3": _R,
    "p1": _R,
    "p2": _R,
    "eps": _R,
    "kap": _R,
    "D": _P,
    "m0": _R,
    "m2": _R,
    "mu": _R,
    "Z": _R,
    "z": _R,
}


def _g(**defs):
    return {**_GEOM, **defs}


#: v* = e3 and u in the e1-e2 plane: enough for the steps that instantiate a generic smooth
#: field (Taylor, product rule), and much faster for sympy than the generic plane
_SIMPLE = {"vs": "Matrix([0, 0, 1])", "u": "nu*Matrix([cw, sw, 0])"}
_PATH = {"vu": "(vs + eps*u)/sqrt((vs + eps*u).dot(vs + eps*u))"}
_GEO = {"veps": "cos(eps*nu)*vs + sin(eps*nu)*u/nu"}
_LOGIT = {
    "gl": "Lambda(Symbol('y'), 1/(1 + exp(-Symbol('y'))))",
    "gl1": "Lambda(Symbol('y'), exp(-Symbol('y'))/(1 + exp(-Symbol('y')))**2)",
    "gl2": "Lambda(Symbol('y'), diff(exp(-Symbol('y'))/(1 + exp(-Symbol('y')))**2, Symbol('y')))",
}
#: the line v* + eps u: its derivative at 0 is the ambient directional derivative along u
_LINE = {"ln": "vs + eps*u"}
_DIRDER = (
    "the main text's D[u] (before prop:local_jacobian: 'Dh(v*)[u] denote the "
    "directional derivative of h at v* along u')"
)
_DIRDER_NOTE = (
    "the proof defines the derivative along the normalized path v_u (rhs); the main "
    "text calls it the directional derivative along u, the derivative along the "
    "line v* + eps u (lhs) for the function's formula extended off the sphere: they "
    "agree because v_u'(0) = u for a tangent u (b05), which is what is checked; for "
    "a u with (v*)^T u != 0 they differ"
)
#: eq:Fdef's integrand with m_a(x) = g(beta_a^T x) (eq:model), written with s = v^T X
_HALF = {
    "gf": "Function('g')",
    "bp": "th + D/2*vs",
    "bm": "th - D/2*vs",
    "Ip": "Piecewise((1, sv >= 0), (0, True))",
    "Im": "Piecewise((1, sv < 0), (0, True))",
    "Wd": "gf(bp.dot(X))*X*Ip - gf(bm.dot(X))*X*Im",
}
_HALF_HYP = (
    "m_a(x) = g(beta_a^T x) (eq:model), beta_+- = theta +- (D/2) v*, any link g; "
    "s = v^T X any real (the indicators 1{s >= 0}, 1{s < 0})"
)
_SPTS = [{"s": "-1", "c": "1/4"}, {"s": "3/10", "c": "3/5"}, {"s": "2", "c": "9/10"}]
_DEF = "a definition (the name on the left is introduced here)"
#: parameter points of the conditional-expectation steps b24, b31 (P^perp X = p1 e1 + p2 e2
#: fixed) and the lower limits L = -(u^T P^perp X/||u||) tan(eps ||u||) there (40 digits, from
#: mpmath at 45: the integrands jump at Z = L, so the quadrature splits there)
_CPTS = [
    dict(k="1/3", m="1/2", nu="1", s1="1/2", s2="-1/3", p1="7/10", p2="-1", eps="3/10", D="6/5"),
    dict(k="-2", m="-1/3", nu="3/2", s1="-4/5", s2="1/4", p1="-6/5", p2="2/5", eps="1/5", D="1/2"),
]
_CBREAKS = [
    "0.117547774851656828553415398285351973558",
    "0.3712034995315478796423644156379536007094",
]
_COND = (
    "X = P^perp X + Z v* with Z = (v*)^T X ~ N(0, 1) independent of P^perp X (Gaussian "
    "design, b21): given P^perp X = p1 e1 + p2 e2 the conditional expectation is the "
    "expectation over Z; 0 <= eps ||u|| < pi/2; the logistic link"
)

STEPS = {
    "prop:local_jacobian/b01/s01": dict(
        hash="745ea3d184cf",
        method="prose",
        note="defines the perturbation v(eps); o(eps) unspecified",
    ),
    "prop:local_jacobian/b02/s01": dict(
        hash="b899ed248e4a",
        method="symbolic",
        symbols={**_GSYM, "g1": _R, "g2": _R, "g3": _R, "w1": _R, "w2": _R, "w3": _R},
        defs=_g(ug="Matrix([g1, g2, g3])", v="vs + eps*ug + eps**2*Matrix([w1, w2, w3])"),
        lhs="v.norm()**2",
        rhs="v.dot(v)",
        hypotheses="u any vector of R^3 (tangency is what this step derives)",
        note="o(eps) represented by eps^2 w, w a generic vector",
    ),
    "prop:local_jacobian/b02/s02": dict(
        hash="16ed7658b2cf",
        method="symbolic",
        symbols={**_GSYM, "g1": _R, "g2": _R, "g3": _R, "w1": _R, "w2": _R, "w3": _R},
        defs=_g(ug="Matrix([g1, g2, g3])", v="vs + eps*ug + eps**2*Matrix([w1, w2, w3])"),
        lhs="v.dot(v)",
        rhs="vs.dot(vs) + 2*eps*vs.dot(ug)",
        modulo=["eps", 1],
        hypotheses="u any vector; o(eps) represented by eps^2 w",
        note="equality up to o(eps) as eps -> 0+",
    ),
    "prop:local_jacobian/b02/s03": dict(
        hash="13ee76508186",
        method="symbolic",
        symbols={**_GSYM, "g1": _R, "g2": _R, "g3": _R},
        defs=_g(ug="Matrix([g1, g2, g3])"),
        lhs="vs.dot(vs) + 2*eps*vs.dot(ug)",
        rhs="1 + 2*eps*vs.dot(ug)",
        hypotheses="||v*|| = 1",
    ),
    "prop:local_jacobian/b03/s01": dict(
        hash="2c0c5e417359", method="prose", note=_DEF + ": the tangent space"
    ),
    "prop:local_jacobian/b04/s01": dict(
        hash="229a17dd452e", method="prose", note=_DEF + ": the path v_u(eps)"
    ),
    "prop:local_jacobian/b05/s01": dict(
        hash="23f5d9370051",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(**_PATH),
        lhs="diff(vu, eps).subs(eps, 0)",
        rhs="u",
        hypotheses="(v*)^T u = 0, ||v*|| = 1",
    ),
    "prop:local_jacobian/b06/s01": dict(
        hash="6480e30a9243",
        method="cited",
        via="symbolic",
        cite="first-order Taylor expansion",
        symbols=_GSYM,
        defs=_g(**_SIMPLE, **_PATH, hp="Matrix([vu[0]*vu[1], vu[2]**2, sin(vu[0])])"),
        lhs="hp",
        rhs="hp.subs(eps, 0) + eps*diff(hp, eps).subs(eps, 0)",
        modulo=["eps", 1],
        hypotheses="an instance: the smooth field h(v) = (v1 v2, v3^2, sin v1) along v_u",
    ),
    "prop:local_jacobian/b06/s02": dict(
        hash="1688a75f2ec9",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(
            **_SIMPLE,
            **_PATH,
            hp="Matrix([vu[0]*vu[1], vu[2]**2, sin(vu[0])])",
            hs="Matrix([vs[0]*vs[1], vs[2]**2, sin(vs[0])])",
        ),
        lhs="hp.subs(eps, 0) + eps*diff(hp, eps).subs(eps, 0)",
        rhs="hs + eps*diff(hp, eps).subs(eps, 0)",
        hypotheses="v_u(0) = v*; the instance h(v) = (v1 v2, v3^2, sin v1)",
    ),
    "prop:local_jacobian/b07/s01": dict(
        hash="db4fddc44f8f",
        method="cited",
        via="symbolic",
        cite=_DIRDER + " of h",
        symbols=_GSYM,
        defs=_g(
            **_SIMPLE,
            **_PATH,
            **_LINE,
            hl="Matrix([ln[0]*ln[1], ln[2]**2, sin(ln[0])])",
            hp="Matrix([vu[0]*vu[1], vu[2]**2, sin(vu[0])])",
        ),
        lhs="diff(hl, eps).subs(eps, 0)",
        rhs="diff(hp, eps).subs(eps, 0)",
        hypotheses="u tangent at v*; an instance: the smooth field h(v) = (v1 v2, v3^2, "
        "sin v1) (as b06)",
        note=_DIRDER_NOTE,
    ),
    "prop:local_jacobian/b08/s01": dict(
        hash="292b535759de",
        method="cited",
        via="symbolic",
        cite="first-order Taylor expansion with h(v*) = 0 (eq:app-h-linearization)",
        symbols=_GSYM,
        defs=_g(
            **_SIMPLE,
            **_PATH,
            hp="Matrix([(vu[0] - vs[0])*vu[1], (vu[2] - vs[2])*vu[2], sin(vu[0] - vs[0])])",
        ),
        lhs="hp",
        rhs="eps*diff(hp, eps).subs(eps, 0)",
        modulo=["eps", 1],
        hypotheses="an instance with h(v*) = 0: h(v) = ((v1 - v*1) v2, (v3 - v*3) v3, "
        "sin(v1 - v*1))",
    ),
    "prop:local_jacobian/b09/s01": dict(
        hash="91b1ef4b7519",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(
            **_PATH, Fp="Matrix([vu[0]**2, vu[1]*vu[2], sin(vu[0])])", hp="(eye(3) - vu*vu.T)*Fp"
        ),
        lhs="diff(hp, eps).subs(eps, 0)",
        rhs="diff((eye(3) - vu*vu.T)*Fp, eps).subs(eps, 0)",
        hypotheses="h(v) = P_v^perp F(v); an instance F(v) = (v1^2, v2 v3, sin v1)",
        note="the definition of h substituted into Dh(v*)[u]",
    ),
    "prop:local_jacobian/b10/s01": dict(
        hash="d2771d7a2c57",
        method="cited",
        via="symbolic",
        cite="the product rule",
        symbols=_GSYM,
        defs=_g(
            **_PATH,
            Fp="Matrix([vu[0]**2, vu[1]*vu[2], sin(vu[0])])",
            Fs="Matrix([vs[0]**2, vs[1]*vs[2], sin(vs[0])])",
        ),
        lhs="diff((eye(3) - vu*vu.T)*Fp, eps).subs(eps, 0)",
        rhs="diff(eye(3) - vu*vu.T, eps).subs(eps, 0)*Fs + Pp*diff(Fp, eps).subs(eps, 0)",
        hypotheses="an instance F(v) = (v1^2, v2 v3, sin v1) along v_u",
    ),
    "prop:local_jacobian/b11/s01": dict(
        hash="ade4a3ac011f",
        method="cited",
        via="symbolic",
        cite=_DIRDER + " of P_v^perp",
        symbols=_GSYM,
        defs=_g(**_PATH, **_LINE),
        lhs="diff(eye(3) - ln*ln.T, eps).subs(eps, 0)",
        rhs="diff(eye(3) - vu*vu.T, eps).subs(eps, 0)",
        hypotheses="P_v^perp = I - v v^T; u tangent at v*, ||v*|| = 1",
        note=_DIRDER_NOTE,
    ),
    "prop:local_jacobian/b12/s01": dict(
        hash="91d9eed4840c",
        method="cited",
        via="symbolic",
        cite=_DIRDER + " of F",
        symbols=_GSYM,
        defs=_g(
            **_PATH,
            **_LINE,
            Fl="Matrix([ln[0]**2, ln[1]*ln[2], sin(ln[0])])",
            Fp="Matrix([vu[0]**2, vu[1]*vu[2], sin(vu[0])])",
        ),
        lhs="diff(Fl, eps).subs(eps, 0)",
        rhs="diff(Fp, eps).subs(eps, 0)",
        hypotheses="u tangent at v*, ||v*|| = 1; an instance F(v) = (v1^2, v2 v3, sin v1) "
        "(as b09, b10)",
        note=_DIRDER_NOTE,
    ),
    "prop:local_jacobian/b13/s01": dict(
        hash="425982eb1a25",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(**_PATH),
        lhs="diff(eye(3) - vu*vu.T, eps).subs(eps, 0)",
        rhs="-(u*vs.T + vs*u.T)",
        hypotheses="P_v = I - v v^T along v_u; u tangent, ||v*|| = 1",
    ),
    "prop:local_jacobian/b14/s01": dict(
        hash="71fc91e7f1d6",
        method="cited",
        via="symbolic",
        cite="prop:population_equilibrium (F(v*) = kappa* v*)",
        symbols=_GSYM,
        defs=_g(**_PATH),
        lhs="diff(eye(3) - vu*vu.T, eps).subs(eps, 0)*(kap*vs)",
        rhs="-(u*vs.T + vs*u.T)*kap*vs",
        hypotheses="F(v*) = kappa* v*; DP from b13",
    ),
    "prop:local_jacobian/b14/s02": dict(
        hash="1dd71c6e4450",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(),
        lhs="-(u*vs.T + vs*u.T)*kap*vs",
        rhs="-kap*u",
        hypotheses="(v*)^T v* = 1, u^T v* = 0",
    ),
    "prop:local_jacobian/b15/s01": dict(
        hash="c89e6650476d",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(**_PATH),
        lhs="diff(eye(3) - vu*vu.T, eps).subs(eps, 0)*(kap*vs)",
        rhs="-kap*u",
        hypotheses="F(v*) = kappa* v* (prop:population_equilibrium), u tangent",
    ),
    "prop:local_jacobian/b16/s01": dict(
        hash="d659ccf5cab3",
        method="cited",
        via="expectation",
        cite="eq:Fdef",
        symbols={"X1": _R, "X2": _R},
        gaussian=["X1", "X2"],
        at=[{}],
        defs={
            **_LOGIT,
            "vs": "Matrix([3, 4])/5",
            "th": "Rational(3, 5)*Matrix([-4, 3])/5",
            "bp": "th + Rational(4, 5)*vs",
            "bm": "th - Rational(4, 5)*vs",
            "X": "Matrix([X1, X2])",
            "Wd": "gl(bp.dot(X))*Heaviside(X1) - gl(bm.dot(X))*Heaviside(-X1)",
            "Wp": "gl(bp.dot(X))*Heaviside(X1)",
            "Wm": "gl(bm.dot(X))*Heaviside(-X1)",
        },
        lhs="Matrix([E(Wd*X1), E(Wd*X2)])",
        rhs="Matrix([E(Wp*X1) - E(Wm*X1), E(Wp*X2) - E(Wm*X2)])",
        hypotheses="m_a(x) = g(beta_a^T x) (the model), beta_+- = theta +- (D/2) v*; an "
        "instance: d = 2, v* = (3, 4)/5, theta = (3/5)(-4, 3)/5 (||theta||^2 = 1 - "
        "D^2/4 at D = 8/5), v = e1, the logistic link",
        note="eq:Fdef with m_a = g(beta_a^T x) (lhs, one expectation) against F_+ - F_- as "
        "b17, b18 define them (rhs, two): 2-D quadrature at 10 digits, entry by entry",
    ),
    "prop:local_jacobian/b17/s01": dict(
        hash="84c4d584e581",
        method="cited",
        via="symbolic",
        cite="eq:Fdef",
        symbols={**_GSYM, "sv": _R},
        defs=_g(**_HALF),
        lhs="Wd*Ip",
        rhs="gf(bp.dot(X))*X*Ip",
        hypotheses=_HALF_HYP,
        note="'Recall from eq:Fdef that F = F_+ - F_-': F_+ is the part of eq:Fdef's "
        "integrand on {v^T X >= 0} (lhs: the integrand times that indicator), as printed "
        "(rhs); pointwise in X, then E is linear",
    ),
    "prop:local_jacobian/b18/s01": dict(
        hash="3c38b73ebd7c",
        method="cited",
        via="symbolic",
        cite="eq:Fdef",
        symbols={**_GSYM, "sv": _R},
        defs=_g(**_HALF),
        lhs="-Wd*Im",
        rhs="gf(bm.dot(X))*X*Im",
        hypotheses=_HALF_HYP,
        note="F_- is minus the part of eq:Fdef's integrand on {v^T X < 0} (lhs), as printed "
        "(rhs): with F = F_+ - F_- the sign and the strict inequality of eq:Fdef's "
        "second term are what is checked",
    ),
    "prop:local_jacobian/b19/s01": dict(
        hash="cfb171166f87", method="prose", note=_DEF + ": the great-circle path v_eps"
    ),
    "prop:local_jacobian/b19/s02": dict(
        hash="31ad2d054513", method="prose", note="a condition on eps (eps >= 0), not a step"
    ),
    "prop:local_jacobian/b20/s01": dict(
        hash="0abf991bd9d1",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(**_GEO),
        lhs="veps.subs(eps, 0)",
        rhs="vs",
    ),
    "prop:local_jacobian/b20/s02": dict(
        hash="11ad9a3f3cfd",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(**_GEO),
        lhs="diff(veps, eps).subs(eps, 0)",
        rhs="u",
        hypotheses="||u|| = nu > 0",
    ),
    "prop:local_jacobian/b21/s01": dict(
        hash="0f8625e4bb04",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(),
        lhs="X",
        rhs="Pp*X + vs.dot(X)*vs",
        hypotheses="Z = (v*)^T X, ||v*|| = 1",
    ),
    "prop:local_jacobian/b22/s01": dict(
        hash="146deec6f2d5",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(**_GEO),
        lhs="veps.dot(X)",
        rhs="(cos(eps*nu)*vs + sin(eps*nu)*u/nu).dot(X)",
        note="the definition of v_eps substituted",
    ),
    "prop:local_jacobian/b22/s02": dict(
        hash="6a85ae4f982f",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(**_GEO),
        lhs="(cos(eps*nu)*vs + sin(eps*nu)*u/nu).dot(X)",
        rhs="cos(eps*nu)*vs.dot(X) + sin(eps*nu)/nu*u.dot(Pp*X)",
        hypotheses="Z = (v*)^T X; u tangent",
    ),
    "prop:local_jacobian/b23/s01": dict(
        hash="f551731a6e05",
        method="prose",
        note="the event {v_eps^T X >= 0}; its rewriting is checked in b23/s02",
    ),
    "prop:local_jacobian/b23/s02": dict(
        hash="eac126a73c07",
        method="symbolic",
        rel="=",
        symbols=_GSYM,
        defs=_g(**_GEO),
        lhs="veps.dot(X)",
        rhs="cos(eps*nu)*(vs.dot(X) + u.dot(Pp*X)/nu*tan(eps*nu))",
        hypotheses="0 <= eps nu < pi/2, so cos(eps nu) > 0",
        note="the events {v_eps^T X >= 0} and {Z >= -(u^T P X/||u||) tan(eps||u||)} are equal "
        "because v_eps^T X = cos(eps||u||)(Z + (u^T P X/||u||) tan(eps||u||)) with a "
        "positive factor: that identity is what is checked",
    ),
    "prop:local_jacobian/b24/s01": dict(
        hash="add497526940",
        method="expectation",
        symbols=_GSYM,
        gaussian=["Z"],
        at=_CPTS,
        breaks=_CBREAKS,
        defs=_g(
            **_GEO,
            **_LOGIT,
            bp="th + D/2*vs",
            XZ="PX + Z*vs",
            lim="-u.dot(PX)/nu*tan(eps*nu)",
            Lw="gl(bp.dot(XZ))*Heaviside(veps.dot(XZ))",
            XR="PX + Z*vs",
            Rw="gl(bp.dot(PX + Z*vs))*Heaviside(Z - lim)",
        ),
        lhs="Matrix([E(Lw*XZ[0]), E(Lw*XZ[1]), E(Lw*XZ[2])])",
        rhs="Matrix([E(Rw*XR[0]), E(Rw*XR[1]), E(Rw*XR[2])])",
        hypotheses=_COND,
        note="the right side's integral int_L^oo f(z) phi_0(z) dz is E[f(Z) 1{Z >= L}] (phi_0 "
        "is Z's density); the left side keeps the event {v_eps^T X >= 0} as printed, so "
        "what is checked is the decomposition of X, the event's rewriting (b23) and the "
        "limits, vector entry by entry (d = 3) at two points",
    ),
    "prop:local_jacobian/b25/s01": dict(
        hash="aaa35a202485",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(),
        lhs="diff(-u.dot(PX)/nu*tan(eps*nu), eps).subs(eps, 0)",
        rhs="-u.dot(PX)",
    ),
    "prop:local_jacobian/b26/s01": dict(
        hash="96ef4435ffee",
        method="cited",
        via="symbolic",
        cite="the Leibniz rule (moving lower limit)",
        symbols=_GSYM,
        defs=_g(
            gf="Function('g')",
            bp="th + D/2*vs",
            lim="-u.dot(PX)/nu*tan(eps*nu)",
            Gz="gf(bp.dot(PX + z*vs))*(PX + z*vs)*phi(z)",
        ),
        lhs="Matrix([Integral(Gz[0], (z, lim, oo)), Integral(Gz[1], (z, lim, oo)), "
        "Integral(Gz[2], (z, lim, oo))]).diff(eps).subs(eps, 0)",
        rhs="phi(0)*u.dot(PX)*gf(bp.dot(PX))*PX",
        hypotheses="X = P + Z v* with Z ~ N(0, 1) independent of P = P^perp X (b24); "
        "the integrand does not depend on eps",
        note="the conditional expectation of b24 differentiated; the integral's convergence "
        "is assum:polygrowth_g",
    ),
    "prop:local_jacobian/b27/s01": dict(
        hash="7dd9acb3cf7c",
        method="cited",
        via="symbolic",
        cite="eq:app-moving-halfspace (b23): the boundary of {v_eps^T X >= 0} in Z",
        symbols=_GSYM,
        defs=_g(**_GEO, zb="-u.dot(PX)/nu*tan(eps*nu)"),
        lhs="veps.dot(PX + zb*vs)",
        rhs="0",
        hypotheses="X = P^perp X + Z v*; u, P^perp X orthogonal to v*; 0 <= eps ||u|| < pi/2",
        note="the moving boundary is the Z at which v_eps^T X = 0 (eq:app-moving-halfspace): "
        "the printed z (zb) is checked to be that root",
        mutant={"defs": _g(**_GEO, zb="u.dot(PX)/nu*tan(eps*nu)")},
    ),
    "prop:local_jacobian/b28/s01": dict(
        hash="032992e1cf0d",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(bp="th + D/2*vs"),
        lhs="bp.dot(Pp*X)",
        rhs="th.dot(Pp*X)",
        hypotheses="beta_+ = theta + (D/2) v*",
    ),
    "prop:local_jacobian/b29/s01": dict(
        hash="76becd013c3e",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(gf="Function('g')", bp="th + D/2*vs"),
        lhs="phi(0)*u.dot(PX)*gf(bp.dot(PX))*PX",
        rhs="phi(0)*gf(th.dot(PX))*u.dot(PX)*PX",
        hypotheses="b26 and b28; d/deps and E exchanged (dominated convergence under "
        "assum:polygrowth_g)",
        note="the integrands, pointwise in P = P^perp X",
    ),
    "prop:local_jacobian/b29/s02": dict(
        hash="bfc223b4cf98",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(gf="Function('g')"),
        lhs="gf(th.dot(PX))*u.dot(PX)*PX",
        rhs="gf(th.dot(PX))*(PX*PX.T)*u",
        note="pointwise; E is linear",
    ),
    "prop:local_jacobian/b30/s01": dict(
        hash="d612d719320e",
        method="prose",
        note="the event {v_eps^T X < 0}; its rewriting is checked in b30/s02",
    ),
    "prop:local_jacobian/b30/s02": dict(
        hash="67d5042da8cb",
        method="symbolic",
        rel="=",
        symbols=_GSYM,
        defs=_g(**_GEO),
        lhs="veps.dot(X)",
        rhs="cos(eps*nu)*(vs.dot(X) + u.dot(Pp*X)/nu*tan(eps*nu))",
        hypotheses="0 <= eps nu < pi/2, so cos(eps nu) > 0",
        note="as b23/s02: the identity that makes the two events equal",
    ),
    "prop:local_jacobian/b31/s01": dict(
        hash="7782b8b03415",
        method="expectation",
        symbols=_GSYM,
        gaussian=["Z"],
        at=_CPTS,
        breaks=_CBREAKS,
        defs=_g(
            **_GEO,
            **_LOGIT,
            bm="th - D/2*vs",
            XZ="PX + Z*vs",
            lim="-u.dot(PX)/nu*tan(eps*nu)",
            Lw="gl(bm.dot(XZ))*Heaviside(-veps.dot(XZ))",
            XR="PX + Z*vs",
            Rw="gl(bm.dot(PX + Z*vs))*Heaviside(lim - Z)",
        ),
        lhs="Matrix([E(Lw*XZ[0]), E(Lw*XZ[1]), E(Lw*XZ[2])])",
        rhs="Matrix([E(Rw*XR[0]), E(Rw*XR[1]), E(Rw*XR[2])])",
        hypotheses=_COND,
        note="as b24 for F_-: int_-oo^L f(z) phi_0(z) dz = E[f(Z) 1{Z < L}]; the event "
        "{v_eps^T X < 0} is 1 - Heaviside(v_eps^T X) off the null event {v_eps^T X = 0}",
    ),
    "prop:local_jacobian/b32/s01": dict(
        hash="9a92af44935f",
        method="cited",
        via="symbolic",
        cite="the Leibniz rule (moving upper limit)",
        symbols=_GSYM,
        defs=_g(
            gf="Function('g')",
            bm="th - D/2*vs",
            lim="-u.dot(PX)/nu*tan(eps*nu)",
            Gz="gf(bm.dot(PX + z*vs))*(PX + z*vs)*phi(z)",
        ),
        lhs="Matrix([Integral(Gz[0], (z, -oo, lim)), Integral(Gz[1], (z, -oo, lim)), "
        "Integral(Gz[2], (z, -oo, lim))]).diff(eps).subs(eps, 0)",
        rhs="-phi(0)*gf(th.dot(PX))*u.dot(PX)*PX",
        hypotheses="b31 (Z independent of P^perp X), beta_- = theta - (D/2) v*",
    ),
    "prop:local_jacobian/b32/s02": dict(
        hash="a22136e77f9a",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(gf="Function('g')"),
        lhs="-phi(0)*gf(th.dot(PX))*u.dot(PX)*PX",
        rhs="-phi(0)*gf(th.dot(PX))*(PX*PX.T)*u",
        note="pointwise; E is linear",
    ),
    "prop:local_jacobian/b33/s01": dict(
        hash="43665ef10b36",
        method="symbolic",
        symbols={**_GSYM, **{f"a{i}{j}": _R for i in range(3) for j in range(3)}},
        defs=_g(A="Matrix([[a00, a01, a02], [a10, a11, a12], [a20, a21, a22]])"),
        lhs="phi(0)*A*u - (-phi(0)*A*u)",
        rhs="2*phi(0)*A*u",
        hypotheses="DF = DF_+ - DF_- with b29 and b32; A = E[g(theta^T P X)(P X)(P X)^T]",
    ),
    "prop:local_jacobian/b34/s01": dict(
        hash="435c6acfa25d",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(gf="Function('g')"),
        lhs="gf(th.dot(Pp*X))*(Pp*X)*(Pp*X).T",
        rhs="Pp*(gf(th.dot(X))*X*X.T)*Pp",
        hypotheses="theta^T v* = 0, so theta^T P^perp X = theta^T X",
        note="pointwise; E is linear and P^perp is constant",
    ),
    "prop:local_jacobian/b35/s01": dict(
        hash="3b78a91f77b5",
        method="cited",
        via="expectation",
        cite="lem:gaussian_stein (second order)",
        symbols={"X1": _R, "X2": _R, "X3": _R, "r": _P},
        gaussian=["X1", "X2", "X3"],
        at=[{"r": "9/10"}, {"r": "3/5"}, {"r": "1/5"}],
        defs={**_LOGIT, "th": "Matrix([r, 0, 0])"},
        lhs="Matrix([[E(gl(r*X1)*X1**2), E(gl(r*X1)*X1)*E(X2), E(gl(r*X1)*X1)*E(X3)], "
        "[E(gl(r*X1)*X1)*E(X2), E(gl(r*X1))*E(X2**2), E(gl(r*X1))*E(X2)*E(X3)], "
        "[E(gl(r*X1)*X1)*E(X3), E(gl(r*X1))*E(X2)*E(X3), E(gl(r*X1))*E(X3**2)]])",
        rhs="E(gl(r*X1))*eye(3) + E(gl2(r*X1))*th*th.T",
        hypotheses="X ~ N(0, I_3); coordinates with theta = r e_1 (rotation invariance); "
        "the logistic link; ||theta|| = r = sqrt(1 - D^2/4) for D = 0.87, 1.6, 1.96",
        note="entries off the (1,1) one factor by independence of X's coordinates (written "
        "so in lhs); 1-D quadratures",
    ),
    "prop:local_jacobian/b36/s01": dict(hash="7f80079767f1", method="prose", note=_DEF + ": m_0"),
    "prop:local_jacobian/b37/s01": dict(
        hash="02559cb226e3",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(),
        lhs="Pp*(m0*eye(3) + m2*th*th.T)*Pp",
        rhs="m0*Pp + m2*th*th.T",
        hypotheses="b34 and b35 with m_0 = E g(theta^T X), m_2 = E g''(theta^T X); "
        "P^perp theta = theta",
    ),
    "prop:local_jacobian/b38/s01": dict(
        hash="3f3b172c6264",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(A="m0*Pp + m2*th*th.T"),
        lhs="2*phi(0)*A*u",
        rhs="2*phi(0)*(m0*Pp + m2*th*th.T)*u",
        hypotheses="b33 with b37 substituted",
    ),
    "prop:local_jacobian/b39/s01": dict(
        hash="4e2dfec2e744",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(),
        lhs="Pp*(2*phi(0)*(m0*Pp + m2*th*th.T)*u)",
        rhs="2*phi(0)*(m0*u + m2*th*th.dot(u))",
        hypotheses="u, theta tangent",
    ),
    "prop:local_jacobian/b40/s01": dict(
        hash="c40b5101693a",
        method="cited",
        via="symbolic",
        cite="eq:app-Dh-product with eq:app-projection-derivative and b39",
        symbols=_GSYM,
        defs=_g(),
        lhs="-kap*u + 2*phi(0)*(m0*u + m2*th*th.dot(u))",
        rhs="(-kap + 2*phi(0)*m0)*u + 2*phi(0)*m2*th*th.dot(u)",
    ),
    "prop:local_jacobian/b41/s01": dict(
        hash="8f86d222cac3",
        method="cited",
        via="expectation",
        cite="prop:population_equilibrium (kappa* = (v*)^T F(v*))",
        symbols={"X1": _R, "Z": _R, "r": _P, "c": _P},
        gaussian=["X1", "Z"],
        at=[{"r": "3/5", "c": "4/5"}],
        defs=_LOGIT,
        lhs="E(gl(r*X1 + c*Z)*Z*Heaviside(Z)) - E(gl(r*X1 - c*Z)*Z*Heaviside(-Z))",
        rhs="2*E(Z*gl(r*X1 + c*Z)*Heaviside(Z))",
        hypotheses="(v*)^T F(v*) = E[g(beta_+^T X) Z 1{Z >= 0}] - E[g(beta_-^T X) Z 1{Z < 0}] "
        "with theta^T X = r X1 independent of Z; c = D/2, r = sqrt(1 - c^2); "
        "the logistic link at D = 1.6",
        note="2-D quadrature at 10 digits",
    ),
    "prop:local_jacobian/b42/s01": dict(
        hash="68b7fcfd38ec",
        method="cited",
        via="symbolic",
        cite="law of iterated expectations",
        symbols={"r1": _R, "r2": _R, "r3": _R, "r4": _R},
        lhs="2*(r1 + r2 + r3 + r4)/4",
        rhs="2*(Rational(1, 2)*(r1 + r2)/2 + Rational(1, 2)*(r3 + r4)/2)",
        hypotheses="an instance on four equally likely outcomes, conditioning on the "
        "partition {1, 2}, {3, 4}",
    ),
    "prop:local_jacobian/b43/s01": dict(
        hash="c30f62534b26",
        method="expectation",
        symbols=_GSYM,
        gaussian=["Z"],
        at=_CPTS,
        defs=_g(**_LOGIT, XZ="PX + Z*vs"),
        lhs="E(Z*gl(th.dot(Pp*XZ) + D/2*Z)*Heaviside(Z))",
        rhs="E(Z*gl(th.dot(PX) + D/2*Z)*Heaviside(Z))",
        hypotheses=_COND.replace("; 0 <= eps ||u|| < pi/2", ""),
        note="the right side's int_0^oo f(z) phi_0(z) dz is E[f(Z) 1{Z > 0}]; the left side "
        "keeps theta^T P^perp X with X = P^perp X + Z v* (so P^perp X does not move with "
        "Z): checked at two points",
    ),
    "prop:local_jacobian/b44/s01": dict(
        hash="1ea04c313cdf",
        method="symbolic",
        symbols={"s": _R, "c": _P, "z": _R},
        defs={"gf": "Function('g')"},
        lhs="Integral(z*gf(s + c*z)*phi(z), (z, 0, oo))",
        rhs="-Integral(gf(s + c*z)*diff(phi(z), z), (z, 0, oo))",
        hypotheses="phi_0'(z) = -z phi_0(z); s = theta^T P^perp X fixed",
    ),
    "prop:local_jacobian/b45/s01": dict(
        hash="46891b0af54e",
        method="cited",
        via="expectation",
        cite="integration by parts",
        symbols={"s": _R, "c": _P, "Z": _R},
        gaussian=["Z"],
        at=_SPTS,
        defs=_LOGIT,
        lhs="E(Z*gl(s + c*Z)*Heaviside(Z))",
        rhs="gl(s)*phi(0) + c*E(gl1(s + c*Z)*Heaviside(Z))",
        hypotheses="-int_0^oo g(s + c z) phi_0'(z) dz = E[Z g(s + cZ) 1{Z > 0}]; the bracket "
        "[g phi_0]_0^oo = -g(s) phi_0(0) (its limit at oo is b46); the logistic link",
        note="c = D/2, s = theta^T P^perp X at three points",
    ),
    "prop:local_jacobian/b46/s01": dict(
        hash="51d4febb7610",
        method="cited",
        via="symbolic",
        cite="assum:polygrowth_g",
        symbols={"s": _R, "c": _P, "z": _R, "C": _P},
        lhs="limit(C*(1 + Abs(s + c*z))**3*exp(-z**2/2)/sqrt(2*pi), z, oo)",
        rhs="0",
        hypotheses="|g(x)| <= C (1 + |x|)^q (assum:polygrowth_g), here q = 3: the bound's "
        "limit is 0, so the limit of g(s + cz) phi_0(z) is 0",
    ),
    "prop:local_jacobian/b47/s01": dict(
        hash="1295a68eb244",
        method="expectation",
        symbols={"s": _R, "c": _P, "Z": _R},
        gaussian=["Z"],
        at=_SPTS,
        defs=_LOGIT,
        lhs="E(Z*gl(s + c*Z)*Heaviside(Z))",
        rhs="phi(0)*gl(s) + c*E(gl1(s + c*Z)*Heaviside(Z))",
        hypotheses="the logistic link; c = D/2",
    ),
    "prop:local_jacobian/b48/s01": dict(
        hash="cf475f1d24e1",
        method="symbolic",
        symbols={"M0": _R, "G1": _R, "D": _P},
        lhs="2*(phi(0)*M0 + D/2*G1)",
        rhs="2*phi(0)*M0 + D*G1",
        hypotheses="b42 with b47: E over P^perp X of phi_0(0) g(theta^T P X) is phi_0(0) m_0 "
        "(M0), of the integral is G1 = E[g'(theta^T P X + (D/2) Z) 1{Z > 0}]",
    ),
    "prop:local_jacobian/b49/s01": dict(
        hash="bfedac623dbc",
        method="cited",
        via="symbolic",
        cite="eq:mu_star_m2_def",
        symbols={"m0": _R, "mu": _R, "D": _P},
        lhs="2*phi(0)*m0 + D*mu",
        rhs="2*phi(0)*m0 + D*mu",
        hypotheses="theta^T P^perp X = theta^T X = U, so the expectation of b48 is mu* by its "
        "definition",
        note="the definition's instance is exact (U = theta^T X); the check is the substitution",
    ),
    "prop:local_jacobian/b50/s01": dict(
        hash="3d8fce305293",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(kp="2*phi(0)*m0 + D*mu"),
        lhs="(-kp + 2*phi(0)*m0)*u + 2*phi(0)*m2*th*th.dot(u)",
        rhs="(-(2*phi(0)*m0 + D*mu) + 2*phi(0)*m0)*u + 2*phi(0)*m2*th*th.dot(u)",
        hypotheses="eq:app-Dh-pre-kappa with kappa* = 2 phi_0(0) m_0 + D mu* (b49)",
    ),
    "prop:local_jacobian/b50/s02": dict(
        hash="38506b7f8fa6",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(),
        lhs="(-(2*phi(0)*m0 + D*mu) + 2*phi(0)*m0)*u + 2*phi(0)*m2*th*th.dot(u)",
        rhs="-D*mu*u + 2*phi(0)*m2*th*th.dot(u)",
    ),
    "prop:local_jacobian/b51/s01": dict(
        hash="629ad350e5d7",
        method="symbolic",
        symbols=_GSYM,
        defs=_g(),
        lhs="(-(2*phi(0)*m0 + D*mu) + 2*phi(0)*m0)*u + 2*phi(0)*m2*th*th.dot(u)",
        rhs="-D*mu*u + 2*phi(0)*m2*th*th.dot(u)",
        hypotheses="b50: Dh(v*)[u] is its left side",
        note="eq:Jacobian",
    ),
}
