"""Transcriptions of the derivations of app:error-to-regret outside proofs (d = 2 with the
generic unit vector v* = (1 - k^2, 2k)/(1 + k^2), theta = t e orthogonal to it; the algebra
does not depend on d). Cited bounds enter through nonnegative slack symbols."""

_R = "real"
_P = "positive"
_NN = "nonnegative"
_GEOM = {
    "vs": "Matrix([1 - k**2, 2*k])/(1 + k**2)",
    "e": "Matrix([-2*k, 1 - k**2])/(1 + k**2)",
    "bp": "t*e + D/2*vs",
    "bm": "t*e - D/2*vs",
    "X": "Matrix([x1, x2])",
}

STEPS = {
    "text:app:error-to-regret/b01/s01": dict(
        hash="debe025875e6",
        method="cited",
        via="symbolic",
        cite="the mean-value theorem",
        symbols={"k": _R, "t": _R, "D": _P, "x1": _R, "x2": _R, "S": _NN, "s": _NN},
        defs=_GEOM,
        lhs="(S - s)*Abs(bp.dot(X) - bm.dot(X))",
        rhs="D*Abs(vs.dot(X))*S",
        hypotheses="m_a(X) = g(beta_a^T X); |g(b) - g(a)| = |g'(xi)| |b - a| for a xi in I_X, "
        "|g'(xi)| = S - s <= S = sup_{I_X} |g'|; beta_+- = theta +- (Delta/2) v*",
    ),
    "text:app:error-to-regret/b02/s01": dict(
        hash="12deb1e48516",
        method="cited",
        via="symbolic",
        cite="assum:polygrowth_g (|g'(u)| <= C_0 (1 + |u|^q)) and (a + b)^q <= 2^(q-1) (a^q + b^q)",
        symbols={"D": _P, "z": _NN, "a": _NN, "C0": _P, "s1": _NN, "s2": _NN},
        defs={"q": "3", "C": "2**(q - 1)*C0"},
        lhs="D*z*C0*(1 + (2**(q - 1)*(a**q + z**q) - s2) - s1)",
        rhs="C*D*z*(1 + a**q + z**q)",
        hypotheses="an instance q = 3: z = |v*^T X|, a = |theta^T X|; sup_{I_X}|g'| <= C_0 (1 "
        "+ (a + z)^q) (|u| <= a + z on I_X, Delta <= 2; slack s1), (a + z)^q = "
        "2^(q-1)(a^q + z^q) - s2; C = 2^(q-1) C_0",
    ),
    "text:app:error-to-regret/b03/s01": dict(
        hash="ee7e72a2e28f",
        method="cited",
        via="symbolic",
        cite="lem:gaussian-polynomial-disagreement",
        symbols={"C": _P, "D": _P, "Cq": _P, "V": _NN, "s": _NN, "c": _NN},
        defs={"Cgap": "2*C*Cq + c"},
        lhs="C*D*(Cq*V - s)",
        rhs="Cgap*D/2*V",
        hypotheses="r_t = |m_+(X_t) - m_-(X_t)| 1{disagreement} given H_{t-1} (v_{t-1} fixed); "
        "b02 under E, then the lemma: E[...] = C_q ||v - v*||^2 - s; V = "
        "||v_{t-1} - v*||^2; C_gap >= 2 C C_q (the factor 2 absorbed)",
    ),
}
