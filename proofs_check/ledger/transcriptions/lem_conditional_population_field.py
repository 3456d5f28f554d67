"""Transcriptions of the proof of lem:conditional_population_field
(app:conditional_population_field).

The indicator 1{v^T X >= 0} is written ``Piecewise((1, s >= 0), (0, True))`` with s = v^T X a
real symbol; conditional expectations are instantiated on a finite probability space (the
tower property, pulling out what is known) or, for the model's conditional mean, with additive
Gaussian noise Y_a = g(beta_a^T x) + sigma_a Z around the logistic link. Vectors are in d = 2
with v = ((1 - k^2), 2k)/(1 + k^2), a generic unit vector (the algebra does not depend on d).
"""

_R = "real"
_P = "positive"
_IP = "Piecewise((1, s >= 0), (0, True))"
_IM = "Piecewise((1, s < 0), (0, True))"
_LOGIT = "Lambda(Symbol('y'), 1/(1 + exp(-Symbol('y'))))"
_V = {"v": "Matrix([1 - k**2, 2*k])/(1 + k**2)", "P": "eye(2) - v*v.T"}


STEPS = {
    "lem:conditional_population_field/b01/s01": dict(
        hash="8ca06775a926",
        method="cited",
        via="symbolic",
        cite="alg:nbl (Stage II: A_t <- sgn(v_{t-1}^T X_t))",
        symbols={"y": _P},
        defs={
            "sgn": "Lambda(Symbol('x'), Symbol('x')/Abs(Symbol('x')))",
            "A": "Lambda(Symbol('x'), Piecewise((1, Symbol('x') >= 0), (-1, True)))",
        },
        lhs="Matrix([sgn(y), sgn(-y)])",
        rhs="Matrix([A(y), A(-y)])",
        hypotheses="s = v_{t-1}^T X_t != 0, both signs (s = y and s = -y, y > 0): the rules "
        "agree off the event {v_{t-1}^T X_t = 0}, "
        "which has probability 0 under assum:gaussian_context (v_{t-1} a unit "
        "vector, X_t Gaussian)",
        note="the algorithm's action sgn(s) (lhs) against the case rule printed here (rhs); at "
        "the tie s = 0 the case rule plays +1 and the paper does not say what sgn(0) is "
        "(0 by the usual convention): a null event, no expectation depends on it",
    ),
    "lem:conditional_population_field/b02/s01": dict(
        hash="00b4675ee7bd",
        method="symbolic",
        symbols={"s": _R, "x": _R, "Yp": _R, "Ym": _R},
        defs={
            "A": "Piecewise((1, s >= 0), (-1, True))",
            "Y": "Piecewise((Yp, s >= 0), (Ym, True))",
        },
        lhs="A*Y*x",
        rhs=f"Yp*x*{_IP} - Ym*x*{_IM}",
        hypotheses="W_t = A_t Y_t X_t with Y_t = Y_{t,A_t} (the observed outcome of the chosen "
        "arm) and A_t the greedy rule b01; s = v_{t-1}^T X_t",
        note="one coordinate x of X_t (the identity is coordinatewise)",
    ),
    "lem:conditional_population_field/b03/s01": dict(
        hash="0471fbc1392c",
        method="cited",
        via="symbolic",
        cite="the tower property (H_{t-1} is inside sigma(X_t, H_{t-1}))",
        symbols={"w1": _R, "w2": _R, "w3": _R, "w4": _R, "p": _P, "q": _P},
        defs={"inner_a": "(p*w1 + q*w2)/(p + q)", "inner_b": "(p*w3 + q*w4)/(p + q)"},
        lhs="(p*w1 + q*w2 + p*w3 + q*w4)/(2*(p + q))",
        rhs="(inner_a + inner_b)/2",
        hypotheses="an instance on a finite space, given H_{t-1}: X_t takes two values with "
        "probability 1/2 each, and given each, the noise takes two values with "
        "weights p, q > 0; W takes the values w1..w4",
        note="E[W | H] (left) against E[E[W | X, H] | H] (right)",
    ),
    "lem:conditional_population_field/b04/s01": dict(
        hash="7262f8a3e43e",
        method="cited",
        via="expectation",
        cite="eq:model",
        symbols={"Z": _R, "b": _R, "x": _R, "sig": _P},
        gaussian=["Z"],
        defs={"g": _LOGIT},
        at=[
            {"b": "1", "x": "1/2", "sig": "1"},
            {"b": "-3/5", "x": "2", "sig": "1/3"},
            {"b": "4/5", "x": "-7/4", "sig": "2"},
        ],
        lhs="E(g(b*x) + sig*Z)",
        rhs="g(b*x)",
        hypotheses="an instance of the model m_a(x) = g(beta_a^T x): logistic g, Y_{t,a} = "
        "g(beta_a^T X_t) + sigma Z with Z ~ N(0, 1) independent of (X_t, H_{t-1}); "
        "b = beta_a^T x at the given context",
        note="eq:model states E[Y_{t,a} | X_t]; the step conditions also on H_{t-1}, which "
        "needs the outcomes at time t to be conditionally independent of the past given "
        "X_t (the i.i.d. sampling of (X_t, Y_{t,+}, Y_{t,-}) of the setup)",
    ),
    "lem:conditional_population_field/b05/s01": dict(
        hash="230a8baa95f1",
        method="expectation",
        symbols={"Z": _R, "s": _R, "x": _R, "bp": _R, "bm": _R},
        gaussian=["Z"],
        defs={"g": _LOGIT, "Yp": "g(bp*x) + Z", "Ym": "g(bm*x) + 2*Z"},
        at=[
            {"s": "1", "x": "1/2", "bp": "1", "bm": "-1"},
            {"s": "-1/3", "x": "2", "bp": "3/5", "bm": "4/5"},
            {"s": "0", "x": "-3/2", "bp": "-2", "bm": "1/2"},
        ],
        lhs=f"E(Yp*x*{_IP} - Ym*x*{_IM})",
        rhs=f"g(bp*x)*x*{_IP} - g(bm*x)*x*{_IM}",
        hypotheses="b04 in force: Y_{t,a} = g(beta_a^T X_t) + noise of mean zero given "
        "(X_t, H_{t-1}); the context (x, s = v^T x) fixed, i.e. the inner "
        "conditional expectation, at three contexts (s >= 0 and s < 0)",
        note="the inner conditional expectation of b03 replaced by its value; the outer "
        "E[. | H_{t-1}] is the same on both sides",
    ),
    "lem:conditional_population_field/b06/s01": dict(
        hash="9f7908558cbb",
        method="cited",
        via="symbolic",
        cite="pulling out what is known (P_{v_{t-1}}^perp is H_{t-1}-measurable)",
        symbols={"k": _R, "p": _P, "a1": _R, "a2": _R, "c1": _R, "c2": _R},
        defs={**_V, "W1": "Matrix([a1, a2])", "W2": "Matrix([c1, c2])"},
        lhs="(p*P*W1 + P*W2)/(1 + p)",
        rhs="P*(p*W1 + W2)/(1 + p)",
        hypotheses="an instance given H_{t-1} (v fixed): W_t takes two vector values with "
        "weights p, 1; G_t = P_v^perp W_t",
    ),
    "lem:conditional_population_field/b06/s02": dict(
        hash="26266748b719",
        method="cited",
        via="symbolic",
        cite="eq:app-conditional-F",
        symbols={"k": _R, "f1": _R, "f2": _R},
        defs={**_V, "F": "Matrix([f1, f2])", "EW": "F"},
        lhs="P*EW",
        rhs="P*F",
        hypotheses="E[W_t | H_{t-1}] = F(v_{t-1}) (eq:app-conditional-F, just proved); "
        "F(v) = (f1, f2) any vector",
        note="the substitution of the proved identity (the check is that P acts on both sides "
        "alike)",
    ),
    "lem:conditional_population_field/b06/s03": dict(
        hash="52a2fe982dd2",
        method="symbolic",
        symbols={"k": _R, "f1": _R, "f2": _R},
        defs={**_V, "F": "Matrix([f1, f2])"},
        lhs="P*F",
        rhs="F - v.dot(F)*v",
        hypotheses="h(v) = P_v^perp F(v) (the lemma's statement), P_v^perp = I - v v^T, ||v|| = 1",
        note="h written out as F - (v^T F) v, the tangent part of F",
    ),
}
