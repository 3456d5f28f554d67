"""Transcriptions of the proof of lem:local_one_step (app:stochastic_analysis).

Vectors are written in coordinates in d = 2 (the algebra does not depend on d): w = v_{t-1} -
v*, the conditional law of G_t given H_{t-1} a generic two-point law (g1 with mass p, g2 with
1 - p), so h(v_{t-1}) = E[G_t | H_{t-1}] = p g1 + (1 - p) g2 (lem:conditional_population_field);
a bound the step uses enters through a nonnegative slack."""

_POS = "positive"
_NN = "nonnegative"
_R = "real"
_VEC = {"w1": _R, "w2": _R, "a1": _R, "a2": _R, "c1": _R, "c2": _R}

STEPS = {
    "lem:local_one_step/b01/s01": dict(
        hash="a7e7e654fd30",
        method="cited",
        via="symbolic",
        cite="eq:pathwise-error-recursion",
        symbols={**_VEC, "eta": _POS, "q": _NN, "e0": _NN, "s1": _NN, "s2": _NN},
        defs={
            "p": "1/(1 + q)",
            "w": "Matrix([w1, w2])",
            "g1": "Matrix([a1, a2])",
            "g2": "Matrix([c1, c2])",
            "h": "p*g1 + (1 - p)*g2",
            "b1": "e0 + 2*eta*w.dot(g1) + eta**2*g1.dot(g1)",
            "b2": "e0 + 2*eta*w.dot(g2) + eta**2*g2.dot(g2)",
        },
        lhs="p*(b1 - s1) + (1 - p)*(b2 - s2)",
        rhs="e0 + 2*eta*w.dot(h) + eta**2*(p*g1.dot(g1) + (1 - p)*g2.dot(g2))",
        hypotheses="e_t = (pathwise bound at G_t) - s, s >= 0 on each outcome "
        "(eq:pathwise-error-recursion); v_{t-1}, eta_t, e_{t-1} H_{t-1}-measurable; "
        "E[G_t | H_{t-1}] = h(v_{t-1}) (lem:conditional_population_field)",
        note="the conditional expectation of the pathwise bound, on a two-point conditional "
        "law of G_t in d = 2",
    ),
    "lem:local_one_step/b02/s01": dict(
        hash="70b480678c2a",
        method="symbolic",
        symbols={"tau": _R, "Y": _R, "x1": _R, "x2": _R, "A": _R},
        defs={
            "v": "Matrix([(1 - tau**2)/(1 + tau**2), 2*tau/(1 + tau**2)])",
            "X": "Matrix([x1, x2])",
            "W": "Y*X",
            "G": "(eye(2) - v*v.T)*W",
        },
        lhs="G.dot(G)",
        rhs="Y**2*X.dot(X)",
        hypotheses="G_t = P^perp_{v} W_t with v a unit vector (rational parametrization of "
        "the circle, every unit vector but -e1), W_t = A_t Y_t X_t with A_t^2 = 1",
        note="d = 2; ||P^perp W||^2 = ||W||^2 - (v^T W)^2 in any d",
    ),
    "lem:local_one_step/b02/s02": dict(
        hash="bea50185218a",
        method="symbolic",
        symbols={"Y": _R, "k": _NN, "N": _NN},
        defs={"B": "sqrt(Y**2 + k)"},
        lhs="Y**2*N",
        rhs="B**2*N",
        hypotheses="|Y_t| <= B_Y (assum:bounded_rewards: B_Y^2 = Y^2 + k, k >= 0); "
        "N = ||X_t||^2 >= 0",
    ),
    "lem:local_one_step/b03/s01": dict(
        hash="d3babe42bab2",
        method="symbolic",
        symbols={"B": _POS, "N": _NN, "s": _NN},
        lhs="B**2*N - s",
        rhs="B**2*N",
        hypotheses="b02 pointwise (||G||^2 = B_Y^2 ||X||^2 - s'), conditional expectation "
        "monotone: E[||G||^2 | H] = B_Y^2 E[||X||^2 | H] - s, s >= 0; X_t "
        "independent of H_{t-1}, so E[||X_t||^2 | H_{t-1}] = E||X_t||^2 =: N",
    ),
    "lem:local_one_step/b03/s02": dict(
        hash="63ee335456fd",
        method="symbolic",
        symbols={"B": _POS, "d": "positive_integer", "x": _R},
        lhs="B**2*d*Integral(x**2*exp(-x**2/2)/sqrt(2*pi), (x, -oo, oo))",
        rhs="B**2*d",
        hypotheses="X_t ~ N(0, I_d): E||X||^2 = sum_i E X_i^2 = d E X_1^2",
        note="E X_1^2 = 1 integrated symbolically",
    ),
    "lem:local_one_step/b04/s01": dict(
        hash="6d30617ba924",
        method="cited",
        via="symbolic",
        cite="cor:local_stability",
        symbols={"lam": _POS, "w1": _R, "w2": _R, "s": _NN},
        defs={"n2": "w1**2 + w2**2"},
        lhs="-lam*n2 - s",
        rhs="-lam*n2",
        hypotheses="||v_{t-1} - v*|| <= r_0: <v - v*, h(v)> = -lambda_0 ||v - v*||^2 - s, "
        "s >= 0 (cor:local_stability); w = v_{t-1} - v* in d = 2",
    ),
    "lem:local_one_step/b04/s02": dict(
        hash="f6f00c748451",
        method="symbolic",
        symbols={"lam": _POS, "w1": _R, "w2": _R},
        defs={"e": "Matrix([w1, w2]).dot(Matrix([w1, w2]))"},
        lhs="-lam*(w1**2 + w2**2)",
        rhs="-lam*e",
        hypotheses="e_{t-1} = ||v_{t-1} - v*||^2 (its definition), d = 2",
    ),
    "lem:local_one_step/b05/s01": dict(
        hash="12883cb66e3d",
        method="symbolic",
        symbols={
            "e0": _NN,
            "eta": _POS,
            "lam": _POS,
            "B": _POS,
            "d": _POS,
            "s1": _NN,
            "s2": _NN,
            "s3": _NN,
        },
        lhs="e0 + 2*eta*(-lam*e0 - s1) + eta**2*(B**2*d - s2) - s3",
        rhs="(1 - 2*lam*eta)*e0 + B**2*d*eta**2",
        hypotheses="eq:app-conditional-error-before-bounds (slack s3) with b04 "
        "(<v - v*, h> = -lambda_0 e_{t-1} - s1) and b03 (E[||G||^2 | H] = B_Y^2 d - "
        "s2); eta_t > 0",
        note="substituting the bounds: each enters with a nonnegative coefficient (2 eta_t, "
        "eta_t^2)",
    ),
}
