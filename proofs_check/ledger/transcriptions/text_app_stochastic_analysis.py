"""Transcriptions of the derivations of app:stochastic_analysis outside proofs (d = 2 in
coordinates; the algebra does not depend on d)."""

_R = "real"
_NN = "nonnegative"

STEPS = {
    "text:app:stochastic_analysis/b01/s01": dict(
        hash="f62904800e35",
        method="cited",
        via="symbolic",
        cite="eq:nbl_update substituted into e_t = ||v_t - v*||^2 (the main text's e_t)",
        symbols={"a1": _R, "a2": _R, "b1": _R, "b2": _R, "g1": _R, "g2": _R, "eta": _R},
        defs={
            "v": "Matrix([a1, a2])",
            "vs": "Matrix([b1, b2])",
            "G": "Matrix([g1, g2])",
            "vt": "(v + eta*G)/sqrt((v + eta*G).dot(v + eta*G))",
        },
        lhs="(vt - vs).dot(vt - vs)",
        rhs="((v + eta*G)/sqrt((v + eta*G).dot(v + eta*G)) - vs).dot("
        "(v + eta*G)/sqrt((v + eta*G).dot(v + eta*G)) - vs)",
        hypotheses="v = v_{t-1}, G = G_t, v* any vectors (v_{t-1} + eta_t G_t != 0)",
        note="e_t = ||v_t - v*||^2 with v_t from eq:nbl_update: the substitution is what is "
        "checked (the two printed forms, written as printed)",
    ),
    "text:app:stochastic_analysis/b01/s02": dict(
        hash="8f6b83d57137",
        method="cited",
        via="symbolic",
        cite="lem:normalization",
        symbols={"r": _NN, "m": _R},
        defs={
            "c": "(1 - m**2)/(1 + m**2)",
            "s": "2*m/(1 + m**2)",
            "x": "(1 + r)*Matrix([c, s])",
            "u": "Matrix([1, 0])",
        },
        lhs="(x/sqrt(x.dot(x)) - u).dot(x/sqrt(x.dot(x)) - u)",
        rhs="(x - u).dot(x - u)",
        hypotheses="||x|| >= 1 (x = v_{t-1} + eta_t G_t, ||x||^2 = 1 + eta^2||G||^2), "
        "||u|| = 1 (u = v*); by rotation u = e1 and x = (1 + r)(c, s), r >= 0, "
        "(c, s) a rational point of the circle; x and u span a plane, so d = 2 "
        "covers every d",
    ),
    "text:app:stochastic_analysis/b01/s03": dict(
        hash="177cec8b07e7",
        method="symbolic",
        symbols={"a1": _R, "a2": _R, "b1": _R, "b2": _R, "g1": _R, "g2": _R, "eta": _R},
        defs={
            "v": "Matrix([a1, a2])",
            "vs": "Matrix([b1, b2])",
            "G": "Matrix([g1, g2])",
            "e": "(v - vs).dot(v - vs)",
        },
        lhs="(v + eta*G - vs).dot(v + eta*G - vs)",
        rhs="e + 2*eta*(v - vs).dot(G) + eta**2*G.dot(G)",
        hypotheses="e_{t-1} = ||v_{t-1} - v*||^2; any vectors",
    ),
}
