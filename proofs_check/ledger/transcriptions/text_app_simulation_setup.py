"""Transcriptions of app:simulation-setup (outside proofs). The section restates, for the
experiments, definitions made in the main text: each such step is checked *cited* against the
cited statement as the paper prints it there (the cited formula is ``lhs``, this section's
formula ``rhs``), so a restatement that drifts from its definition (a coefficient, a sign, a
factor) fails. Vectors are written in d = 2 (the experiments' dimension) in coordinates:
v* = (1 - k^2, 2k)/(1 + k^2) a generic unit vector, theta = t e orthogonal to it, the current
direction v = (1 - m^2, 2m)/(1 + m^2) another unit vector, and a context X = (x1, x2).
The link g and its derivatives are undefined functions; E(.) is an unevaluated expectation,
so the restatements are compared as written, not evaluated (a refutation's second method,
*sampled*, cannot evaluate an undefined function: such a refutation stays FAIL, undecided)."""

_R = "real"
_P = "positive"
_GEOM = {
    "vs": "Matrix([1 - k**2, 2*k])/(1 + k**2)",
    "e": "Matrix([-2*k, 1 - k**2])/(1 + k**2)",
    "th": "t*e",
    "v": "Matrix([1 - m**2, 2*m])/(1 + m**2)",
    "X": "Matrix([x1, x2])",
    "Pv": "eye(2) - v*v.T",
}
_GS = {"k": _R, "t": _R, "m": _R, "x1": _R, "x2": _R, "D": _P, "a": _R}
_LINK = {"g1": "Function('g1')", "g2": "Function('g2')"}
_CITE = "a restatement of {}: the formula printed there (lhs) against the one printed here"

STEPS = {
    "text:app:simulation-setup/b01/s01": dict(
        hash="09a69a936d23",
        method="cited",
        via="symbolic",
        cite="the local analysis's parameterization beta_a = theta + a(Delta_beta/2) v* "
        "(main text, before eq:mu_star_m2_def)",
        symbols=_GS,
        defs=_GEOM,
        lhs="th + a*(D/2)*vs",
        rhs="th + a*D/2*vs",
        hypotheses="a in {-1, +1}, theta^T v* = 0, ||v*|| = 1",
        note=_CITE.format("the main text's beta_a"),
    ),
    "text:app:simulation-setup/b02/s01": dict(
        hash="002c0913dd80",
        method="cited",
        via="symbolic",
        cite="eq:mu_star_m2_def",
        symbols={"U": _R, "Z": _R, "D": _P},
        defs=_LINK,
        lhs="E(g1(U + D/2*Z)*Heaviside(Z))",
        rhs="E(g1(U + D/2*Z)*Heaviside(Z))",
        hypotheses="U ~ N(0, 1 - Delta^2/4), Z ~ N(0, 1) independent; g1 = g'",
        note=_CITE.format("eq:mu_star_m2_def (mu*)") + "; 1{Z > 0} is Heaviside(Z) (the "
        "value at Z = 0 is a null event)",
    ),
    "text:app:simulation-setup/b02/s02": dict(
        hash="9940ea61295f",
        method="cited",
        via="symbolic",
        cite="eq:mu_star_m2_def",
        symbols={"U": _R},
        defs=_LINK,
        lhs="E(g2(U))",
        rhs="E(g2(U))",
        hypotheses="g2 = g''",
        note=_CITE.format("eq:mu_star_m2_def (m_2)"),
    ),
    "text:app:simulation-setup/b03/s01": dict(
        hash="81b1307f3e91",
        method="cited",
        via="symbolic",
        cite="eq:decision_stability",
        symbols={"D": _P, "mu": _R, "m2": _R},
        lhs="D*mu - 2*phi(0)*Max(m2, 0)*(1 - D**2/4)",
        rhs="D*mu - 2*phi(0)*Max(m2, 0)*(1 - D**2/4)",
        hypotheses="(m_2)_+ = max{m_2, 0}",
        note=_CITE.format("eq:decision_stability"),
    ),
    "text:app:simulation-setup/b04/s01": dict(
        hash="c699caecaf27",
        method="cited",
        via="symbolic",
        cite="alg:nbl",
        symbols=_GS,
        defs={**_GEOM, "sgn": "Function('sgn')"},
        lhs="sgn(v.dot(X))",
        rhs="sgn(v.dot(X))",
        hypotheses="v = v_{t-1}, X = X_t; the greedy step of Algorithm alg:nbl",
        note=_CITE.format("alg:nbl's greedy action A_t <- sgn(v_{t-1}^T X_t)"),
    ),
    "text:app:simulation-setup/b04/s02": dict(
        hash="0d3cecf45f6e",
        method="cited",
        via="symbolic",
        cite="eq:tangent_update with W_t = A_t Y_t X_t (alg:nbl)",
        symbols={**_GS, "A": _R, "Y": _R},
        defs={**_GEOM, "W": "A*Y*X"},
        lhs="Pv*W",
        rhs="Pv*(A*Y*X)",
        hypotheses="P_v^perp = I - v v^T with v = v_{t-1} a unit vector",
        note=_CITE.format("eq:tangent_update (G_t = P^perp W_t)"),
    ),
    "text:app:simulation-setup/b04/s03": dict(
        hash="7520b2c5187d",
        method="cited",
        via="symbolic",
        cite="eq:nbl_update",
        symbols={**_GS, "eta": _P, "G1": _R, "G2": _R},
        defs={**_GEOM, "G": "Matrix([G1, G2])", "x": "v + eta*G"},
        lhs="x/sqrt(x.dot(x))",
        rhs="(v + eta*G)/sqrt((v + eta*G).dot(v + eta*G))",
        hypotheses="v = v_{t-1}, G = G_t any vector, eta = eta_t > 0",
        note=_CITE.format("eq:nbl_update"),
    ),
    "text:app:simulation-setup/b05/s01": dict(
        hash="17ab8ef80122",
        method="cited",
        via="symbolic",
        cite="eq:regret",
        symbols={"s": "positive_integer", "n": "positive_integer"},
        defs={"mstar": "Function('mstar')", "mA": "Function('mA')"},
        lhs="Sum(mstar(s) - mA(s), (s, 1, n))",
        rhs="Sum(mstar(s) - mA(s), (s, 1, n))",
        hypotheses="mstar(s) = m_{a*(X_s)}(X_s), mA(s) = m_{A_s}(X_s); R_t is eq:regret's "
        "R_n(pi) at n = t with its summation index renamed",
        note=_CITE.format("eq:regret"),
    ),
}
