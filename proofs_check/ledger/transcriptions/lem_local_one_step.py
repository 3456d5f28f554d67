"""Transcriptions of the proof of lem:local_one_step (app:stochastic_analysis). Vectors in d = 3:
v = v_{t-1} a generic unit vector (inverse stereographic coordinates), v* another, the update
G = G_t, X = X_t generic; e = ||v - v*||^2. Cited bounds enter through nonnegative slacks."""

_R = "real"
_P = "positive"
_NN = "nonnegative"
_V = {"v": "Matrix([2*a1, 2*a2, 1 - a1**2 - a2**2])/(1 + a1**2 + a2**2)",
      "vs": "Matrix([2*c1, 2*c2, 1 - c1**2 - c2**2])/(1 + c1**2 + c2**2)",
      "G": "Matrix([g1, g2, g3])", "X": "Matrix([x1, x2, x3])"}
_VS = {"a1": _R, "a2": _R, "c1": _R, "c2": _R, "g1": _R, "g2": _R, "g3": _R, "x1": _R,
       "x2": _R, "x3": _R}

STEPS = {
    "lem:local_one_step/b01/s01": dict(
        hash="a7e7e654fd30", method="cited", via="symbolic", cite="lem:normalization",
        symbols={**_VS, "eta": _NN, "s": _NN}, defs=_V,
        lhs="(v + eta*G - vs).dot(v + eta*G - vs) - s",
        rhs="(v - vs).dot(v - vs) + 2*eta*(v - vs).dot(G) + eta**2*G.dot(G)",
        hypotheses="e_t = ||v_t - v*||^2 <= ||v_{t-1} + eta G_t - v*||^2 (lem:normalization, "
                   "slack s >= 0); E[G_t | H_{t-1}] = h(v_{t-1})",
        note="pointwise in G_t; E[. | H_{t-1}] is linear, so G_t becomes h(v_{t-1}) in the "
             "middle term and ||G_t||^2 its conditional mean"),
    "lem:local_one_step/b02/s01": dict(
        hash="70b480678c2a", method="symbolic", symbols={**_VS, "Y": _R}, defs=_V,
        lhs="((eye(3) - v*v.T)*Y*X).dot((eye(3) - v*v.T)*Y*X)", rhs="Y**2*X.dot(X)",
        hypotheses="G_t = (I - v v^T) A_t Y_t X_t with A_t = +-1, ||v|| = 1"),
    "lem:local_one_step/b02/s02": dict(
        hash="bea50185218a", method="symbolic", symbols={"B": _P, "q": _R, "n2": _NN},
        defs={"Y": "B*2*q/(1 + q**2)"},
        lhs="Y**2*n2", rhs="B**2*n2",
        hypotheses="|Y_t| <= B_Y (Y = B_Y y, y = 2q/(1 + q^2) covers [-1, 1]); n2 = ||X||^2"),
    "lem:local_one_step/b03/s01": dict(
        hash="d3babe42bab2", method="symbolic", symbols={"B": _P, "n2": _NN, "s": _NN},
        lhs="B**2*n2 - s", rhs="B**2*n2",
        hypotheses="b02 pointwise (slack s >= 0); X_t independent of H_{t-1}, n2 = E||X_t||^2"),
    "lem:local_one_step/b03/s02": dict(
        hash="63ee335456fd", method="expectation", symbols={"X1": _R, "X2": _R, "X3": _R, "B": _P},
        gaussian=["X1", "X2", "X3"], at=[{"B": "1"}, {"B": "7/3"}],
        lhs="B**2*(E(X1**2) + E(X2**2) + E(X3**2))", rhs="B**2*3",
        hypotheses="an instance d = 3, X ~ N(0, I_3)"),
    "lem:local_one_step/b04/s01": dict(
        hash="6d30617ba924", method="cited", via="symbolic", cite="cor:local_stability",
        symbols={"l0": _P, "e": _NN, "s": _NN},
        lhs="-l0*e - s", rhs="-l0*e",
        hypotheses="in the neighbourhood ||v_{t-1} - v*|| <= r_0: <v - v*, h(v)> = "
                   "-lambda_0 e - s, s >= 0 (the corollary with lambda_0 = lambda*/2)"),
    "lem:local_one_step/b04/s02": dict(
        hash="f6f00c748451", method="symbolic", symbols={**_VS, "l0": _P}, defs=_V,
        lhs="-l0*(v - vs).dot(v - vs)", rhs="-l0*(v - vs).dot(v - vs)",
        note="e_{t-1} = ||v_{t-1} - v*||^2 by definition"),
    "lem:local_one_step/b05/s01": dict(
        hash="12883cb66e3d", method="symbolic",
        symbols={"e": _NN, "eta": _NN, "l0": _P, "B": _P, "d": _P, "s1": _NN, "s2": _NN},
        lhs="e + 2*eta*(-l0*e - s1) + eta**2*(B**2*d - s2)",
        rhs="(1 - 2*l0*eta)*e + B**2*d*eta**2",
        hypotheses="b01 with b03 (slack s2) and b04 (slack s1), eta >= 0"),
}
