"""Transcriptions of the proof of lem:stopped-stochastic-control
(app:stopped-stochastic-control).

Conventions: vectors in coordinates in d = 2 (the algebra does not depend on d); a conditional
law given H_{s-1} is a generic two-point law (mass p, 1 - p); the indicator 1{s <= tau} is
written (1 + (-1)^j)/2 for an integer j (0 or 1, so that I^2 = I) where its values matter and
as a number in (0, 1] elsewhere; a bound the step uses enters through a nonnegative slack;
m = n_0 + t_0 > 0; delta = 3 exp(-L), L = log(3/delta) > 0. A chain ``P <= A <= B`` is
checked link by link: a link ``A <= B`` is transcribed as A and B (the probability on the
left of the display is the previous link's)."""

_POS = "positive"
_NN = "nonnegative"
_R = "real"
_IND = "(1 + (-1)**j)/2"
_UNIT = "Matrix([(1 - tau**2)/(1 + tau**2), 2*tau/(1 + tau**2)])"
_P = "eye(2) - v*v.T"

STEPS = {
    # ---- control of M_t
    "lem:stopped-stochastic-control/b01/s01": dict(
        hash="4c2f773574f8", method="prose", note="defines Delta M_s"
    ),
    "lem:stopped-stochastic-control/b01/s02": dict(
        hash="774c333e47d5",
        method="symbolic",
        symbols={"f1": _R, "f2": _R, "f3": _R},
        lhs="2*(f1 + f2 + f3) - 2*(f1 + f2)",
        rhs="2*f3",
        hypotheses="M_t = 2 sum_{s=n_0+1}^t f_s, f_s = eta_s <v_{s-1} - v*, xi_s> 1{s <= tau} "
        "(eq:localization-martingale)",
        note="an instance at s = n_0 + 3: M_s - M_{s-1} is the last term",
    ),
    "lem:stopped-stochastic-control/b02/s01": dict(
        hash="e153ed6fee3d",
        method="symbolic",
        symbols={
            "eta": _POS,
            "j": "integer",
            "q": _NN,
            "w1": _R,
            "w2": _R,
            "a1": _R,
            "a2": _R,
            "c1": _R,
            "c2": _R,
        },
        defs={
            "I": _IND,
            "p": "1/(1 + q)",
            "w": "Matrix([w1, w2])",
            "x1": "Matrix([a1, a2])",
            "x2": "Matrix([c1, c2])",
        },
        lhs="p*2*eta*w.dot(x1)*I + (1 - p)*2*eta*w.dot(x2)*I",
        rhs="2*eta*I*(p*w.dot(x1) + (1 - p)*w.dot(x2))",
        hypotheses="eta_s, 1{s <= tau}, v_{s-1} H_{s-1}-measurable; xi_s two-point given H_{s-1}",
        note="taking out what is known",
    ),
    "lem:stopped-stochastic-control/b02/s02": dict(
        hash="07235e000027",
        method="symbolic",
        symbols={
            "eta": _POS,
            "j": "integer",
            "q": _NN,
            "w1": _R,
            "w2": _R,
            "a1": _R,
            "a2": _R,
            "c1": _R,
            "c2": _R,
        },
        defs={
            "I": _IND,
            "p": "1/(1 + q)",
            "w": "Matrix([w1, w2])",
            "x1": "Matrix([a1, a2])",
            "x2": "Matrix([c1, c2])",
        },
        lhs="2*eta*I*(p*w.dot(x1) + (1 - p)*w.dot(x2))",
        rhs="2*eta*I*w.dot(p*x1 + (1 - p)*x2)",
        note="linearity of the conditional expectation",
    ),
    "lem:stopped-stochastic-control/b02/s03": dict(
        hash="5644444fc3af",
        method="cited",
        via="symbolic",
        cite="lem:conditional_population_field (E[xi_s | H_{s-1}] = 0)",
        symbols={"eta": _POS, "j": "integer", "q": _POS, "w1": _R, "w2": _R, "a1": _R, "a2": _R},
        defs={
            "I": _IND,
            "p": "1/(1 + q)",
            "w": "Matrix([w1, w2])",
            "x1": "Matrix([a1, a2])",
            "x2": "-p*x1/(1 - p)",
        },
        lhs="2*eta*I*w.dot(p*x1 + (1 - p)*x2)",
        rhs="0",
        hypotheses="xi_s centred given H_{s-1}: its second value is -p x1/(1 - p)",
    ),
    "lem:stopped-stochastic-control/b03/s01": dict(
        hash="9e90894b2244",
        method="symbolic",
        symbols={"w1": _R, "w2": _R, "g1": _R, "g2": _R, "h1": _R, "h2": _R},
        defs={"w": "Matrix([w1, w2])", "G": "Matrix([g1, g2])", "h": "Matrix([h1, h2])"},
        lhs="w.dot(G) - w.dot(h)",
        rhs="w.dot(G - h)",
        hypotheses="U_s = <w, G_s>, E[U_s | H_{s-1}] = <w, h(v_{s-1})> (w measurable, "
        "E[G_s | H_{s-1}] = h), xi_s = G_s - h(v_{s-1})",
    ),
    "lem:stopped-stochastic-control/b04/s01": dict(
        hash="fc42f62c613d",
        method="symbolic",
        symbols={
            "eta": _POS,
            "j": "integer",
            "w1": _R,
            "w2": _R,
            "g1": _R,
            "g2": _R,
            "h1": _R,
            "h2": _R,
        },
        defs={"I": _IND, "w": "Matrix([w1, w2])", "G": "Matrix([g1, g2])", "h": "Matrix([h1, h2])"},
        lhs="2*eta*w.dot(G - h)*I",
        rhs="2*eta*(w.dot(G) - w.dot(h))*I",
        hypotheses="b01 (Delta M_s = 2 eta_s <w, xi_s> 1{s <= tau}) and b03",
    ),
    "lem:stopped-stochastic-control/b05/s01": dict(
        hash="6d37704c1d55",
        method="symbolic",
        symbols={"tau": _R, "w1": _R, "w2": _R, "y1": _R, "y2": _R},
        defs={"v": _UNIT, "P": _P, "w": "Matrix([w1, w2])", "W": "Matrix([y1, y2])", "G": "P*W"},
        lhs="w.dot(G)",
        rhs="w.dot(P*W)",
        hypotheses="G_s = P^perp_{v_{s-1}} W_s (eq:tangent_update)",
        note="the definition of G_s",
    ),
    "lem:stopped-stochastic-control/b05/s02": dict(
        hash="7f436e2f71f3",
        method="symbolic",
        symbols={"tau": _R, "w1": _R, "w2": _R, "y1": _R, "y2": _R},
        defs={"v": _UNIT, "P": _P, "w": "Matrix([w1, w2])", "W": "Matrix([y1, y2])"},
        lhs="w.dot(P*W)",
        rhs="(P*w).dot(W)",
        hypotheses="v a unit vector (rational parametrization of the circle), P = I - v v^T "
        "symmetric",
    ),
    "lem:stopped-stochastic-control/b06/s01": dict(
        hash="3b4d5460671c",
        method="symbolic",
        symbols={"i": "integer", "Y": _R, "k": _NN, "z": _R},
        defs={"A": "(-1)**i", "B": "Abs(Y) + k"},
        lhs="Abs(A*Y*z)",
        rhs="B*Abs(z)",
        hypotheses="U_s = <P w, A_s Y_s X_s> = A_s Y_s z with z = <P w, X_s>; A_s = +-1; "
        "|Y_s| <= B_Y (B_Y = |Y| + k)",
    ),
    "lem:stopped-stochastic-control/b08/s01": dict(
        hash="a08cef41dd38",
        method="certified",
        symbols={"y": _NN},
        lhs="2*(1 - Phi(y))",
        rhs="2*exp(-y**2/2)",
        domain={"y": [0, "1"]},
        hypotheses="y = x/(B_Y rho), rho = ||P^perp (v_{s-1} - v*)|| > 0: by b06 and b07, "
        "P(|U_s| >= x | H) <= P(B_Y |Z| >= x) = 2(1 - Phi(y)) with Z ~ N(0, rho^2)",
        note="the Gaussian tail bound 1 - Phi(y) <= exp(-y^2/2); for y > 1, 1 - Phi(y) <= "
        "phi(y)/y <= exp(-y^2/2)/sqrt(2 pi) (Mills ratio); rho = 0 makes U_s = 0 and "
        "the bound trivial",
    ),
    "lem:stopped-stochastic-control/b09/s01": dict(
        hash="ed2e3d8cf89b",
        method="cited",
        via="symbolic",
        cite="lem:tail_to_mgf",
        symbols={"C": _POS, "lam": _R, "B": _POS, "rho": _NN, "s": _NN},
        defs={"sig": "B*rho"},
        lhs="exp(C*lam**2*sig**2) - s",
        rhs="exp(C*lam**2*(B*rho)**2)",
        hypotheses="b08 is the lemma's tail hypothesis 2 exp(-x^2/(2 sigma^2)) with sigma = "
        "B_Y rho, H_{s-1}-measurable; the lemma's bound with slack s >= 0",
    ),
    "lem:stopped-stochastic-control/b10/s01": dict(
        hash="4c1b0db2b266",
        method="symbolic",
        symbols={
            "C": _POS,
            "lam": _R,
            "B": _POS,
            "rho": _NN,
            "eta": _POS,
            "j": "integer",
            "s": _NN,
        },
        defs={"I": _IND, "sig": "B*rho", "l2": "2*lam*eta*I"},
        lhs="exp(C*l2**2*sig**2) - s",
        rhs="exp(4*C*lam**2*B**2*eta**2*rho**2*I)",
        hypotheses="b09 at lambda -> 2 lambda eta_s 1{s <= tau} (H_{s-1}-measurable), slack s; "
        "Delta M_s = 2 eta_s (U_s - E[U_s | H]) 1{s <= tau} (b04); I^2 = I",
    ),
    "lem:stopped-stochastic-control/b10/s02": dict(
        hash="31c7a4448230",
        method="symbolic",
        symbols={"C": _POS, "lam": _R, "B": _POS, "r": _POS, "eta": _POS, "k": _NN, "i": _NN},
        defs={"rho": "r/sqrt(1 + k)", "I": "1/(1 + i)"},
        lhs="exp(4*C*lam**2*B**2*eta**2*rho**2*I)",
        rhs="exp(4*C*lam**2*B**2*r**2*eta**2)",
        hypotheses="on {s <= tau}: rho = ||P^perp w|| <= ||w|| <= r_0 (rho = r_0/sqrt(1 + k)); "
        "I in (0, 1] (I = 0 gives exp(0) = 1 <= the right side)",
    ),
    "lem:stopped-stochastic-control/b11/s01": dict(
        hash="dcb22060b892",
        method="cited",
        via="symbolic",
        cite="lem:maximal-subgaussian-martingale",
        symbols={"C": _POS, "B": _POS, "r": _POS, "x": _POS, "S2": _POS, "s": _NN},
        defs={"sig2sum": "8*C*B**2*r**2*S2"},
        lhs="exp(-x**2/(2*sig2sum)) - s",
        rhs="exp(-x**2/(16*C*B**2*r**2*S2))",
        hypotheses="b10 is the lemma's hypothesis exp(lambda^2 sigma_s^2/2) with sigma_s^2 = "
        "8 C_sg B_Y^2 r_0^2 eta_s^2 (deterministic), every lambda; S2 = sum eta_s^2 "
        "over n_0 < s <= n; M_{n_0} = 0",
    ),
    "lem:stopped-stochastic-control/b12/s01": dict(
        hash="aafb0c214adf",
        method="symbolic",
        symbols={"g": _POS, "S": _POS, "R": _NN},
        lhs="g**2*S",
        rhs="g**2*(S + R)",
        hypotheses="sum_{n_0 < s <= n} 1/(s + t_0)^2 = S; the tail sum over s > n is R >= 0",
        note="a partial sum of nonnegative terms is at most the full series",
    ),
    "lem:stopped-stochastic-control/b12/s02": dict(
        hash="0358eca7a75d",
        method="cited",
        via="symbolic",
        cite="sum-integral comparison for the decreasing 1/u^2: 1/(s + t_0)^2 <= "
        "int_{s-1+t_0}^{s+t_0} du/u^2, summed over s > n_0",
        symbols={"a": _POS, "u": _POS},
        lhs="1/(a + 1)**2",
        rhs="Integral(1/u**2, (u, a, a + 1)).doit()",
        hypotheses="a = s - 1 + t_0 >= n_0 + t_0 > 0",
        note="the termwise instance; the intervals [s - 1 + t_0, s + t_0] tile [n_0 + t_0, oo)",
    ),
    "lem:stopped-stochastic-control/b12/s03": dict(
        hash="d1e2acd7a75c",
        method="symbolic",
        symbols={"g": _POS, "m": _POS, "u": _POS},
        lhs="g**2*Integral(1/u**2, (u, m, oo))",
        rhs="g**2/m",
    ),
    "lem:stopped-stochastic-control/b13/s01": dict(
        hash="16f3c5ac0e05",
        method="symbolic",
        symbols={"C": _POS, "B": _POS, "r": _POS, "x": _POS, "g": _POS, "m": _POS, "k": _NN},
        defs={"S2": "g**2/(m*(1 + k))"},
        lhs="exp(-x**2/(16*C*B**2*r**2*S2))",
        rhs="exp(-m*x**2/(16*C*B**2*r**2*g**2))",
        hypotheses="b11's bound with S2 = sum eta_s^2 <= gamma^2/m (b12; S2 = gamma^2/(m (1 + k)))",
        note="the link b11-bound <= b13-bound; exp(-c/S2) is increasing in S2",
    ),
    "lem:stopped-stochastic-control/b14/s01": dict(
        hash="7bf3275e92fd",
        method="symbolic",
        symbols={"C": _POS, "B": _POS, "r": _POS, "g": _POS, "m": _POS},
        defs={"x": "r**2/4"},
        lhs="exp(-m*x**2/(16*C*B**2*r**2*g**2))",
        rhs="exp(-m*r**2/(256*C*B**2*g**2))",
        hypotheses="b13 at x = r_0^2/4",
    ),
    "lem:stopped-stochastic-control/b15/s01": dict(
        hash="74c7d7a0041a",
        method="symbolic",
        symbols={"C": _POS, "B": _POS, "r": _POS, "g": _POS, "L": _POS, "e": _NN},
        defs={"delta": "3*exp(-L)", "m": "256*C*B**2*g**2*r**(-2)*(L + e)"},
        lhs="exp(-m*r**2/(256*C*B**2*g**2))",
        rhs="delta/3",
        hypotheses="n_0 + t_0 = 256 C_sg B_Y^2 gamma^2 r_0^-2 (log(3/delta) + e), e >= 0 (the "
        "stated sufficient condition); P(max M > r_0^2/4) <= P(max M >= r_0^2/4) <= "
        "b14's bound",
        note="C_M = 256 C_sg",
    ),
    # ---- control of Q_t
    "lem:stopped-stochastic-control/b16/s01": dict(
        hash="5198c40a9965",
        method="symbolic",
        symbols={"tau": _R, "y1": _R, "y2": _R},
        defs={"v": _UNIT, "P": _P, "W": "Matrix([y1, y2])", "G": "P*W"},
        lhs="sqrt(G.dot(G))",
        rhs="sqrt((P*W).dot(P*W))",
        note="the definition G_s = P^perp W_s",
    ),
    "lem:stopped-stochastic-control/b16/s02": dict(
        hash="45c4f9c08c29",
        method="symbolic",
        symbols={"tau": _R, "y1": _R, "y2": _R},
        defs={"v": _UNIT, "P": _P, "W": "Matrix([y1, y2])"},
        lhs="(P*W).dot(P*W)",
        rhs="W.dot(W)",
        hypotheses="P = I - v v^T, v a unit vector (d = 2)",
        note="both sides are norms (nonnegative) and sqrt is increasing: the step is the "
        "relation of the squares",
    ),
    "lem:stopped-stochastic-control/b16/s03": dict(
        hash="05eeeb289b2c",
        method="symbolic",
        symbols={"i": "integer", "Y": _R, "x1": _R, "x2": _R},
        defs={"X": "Matrix([x1, x2])", "W": "(-1)**i*Y*X"},
        lhs="sqrt(W.dot(W))",
        rhs="Abs(Y)*sqrt(X.dot(X))",
        hypotheses="W_s = A_s Y_s X_s, A_s = +-1",
    ),
    "lem:stopped-stochastic-control/b16/s04": dict(
        hash="b02ac2fd2f86",
        method="symbolic",
        symbols={"Y": _R, "k": _NN, "N": _NN},
        defs={"B": "Abs(Y) + k"},
        lhs="Abs(Y)*N",
        rhs="B*N",
        hypotheses="|Y_s| <= B_Y (B_Y = |Y| + k); N = ||X_s|| >= 0",
    ),
    "lem:stopped-stochastic-control/b17/s01": dict(
        hash="d6ee304a8021",
        method="symbolic",
        symbols={
            "B": _POS,
            "e1": _POS,
            "e2": _POS,
            "N1": _NN,
            "N2": _NN,
            "k1": _NN,
            "k2": _NN,
            "i1": _NN,
            "i2": _NN,
        },
        defs={
            "G1": "B**2*N1/(1 + k1)",
            "G2": "B**2*N2/(1 + k2)",
            "I1": "1/(1 + i1)",
            "I2": "1/(1 + i2)",
        },
        lhs="e1**2*G1*I1 + e2**2*G2*I2",
        rhs="B**2*(e1**2*N1 + e2**2*N2)",
        hypotheses="Q_n = sum eta_s^2 ||G_s||^2 1{s <= tau} (eq:localization-quadratic); "
        "||G_s||^2 <= B_Y^2 ||X_s||^2 (b16; ||G||^2 = B^2 N/(1 + k)); indicators in "
        "(0, 1] (a zero indicator only lowers the left side)",
        note="a two-term instance of the sum",
    ),
    "lem:stopped-stochastic-control/b18/s01": dict(
        hash="89096ee1520c",
        method="cited",
        via="symbolic",
        cite="lem:weighted_chisquare",
        symbols={"d": _POS, "x": _POS, "Sa": _POS, "Sa2": _POS, "ma": _POS, "s": _NN},
        lhs="d*Sa + (2*sqrt(d*x*Sa2) + 2*x*ma - s)",
        rhs="d*Sa + 2*sqrt(x*d*Sa2) + 2*x*ma",
        hypotheses="a_s = eta_s^2 >= 0 deterministic, Z_s = X_s independent N(0, I_d); on the "
        "complement of the lemma's event (probability >= 1 - e^-x): sum a_s "
        "(||X_s||^2 - d) = 2 sqrt(d x sum a_s^2) + 2 x max a_s - s, s >= 0; "
        "sum a_s ||X_s||^2 = d sum a_s + sum a_s (||X_s||^2 - d)",
        note="Sa = sum eta^2, Sa2 = sum eta^4, ma = max eta^2",
    ),
    "lem:stopped-stochastic-control/b19/s01": dict(
        hash="127e0a9f4b61",
        method="symbolic",
        symbols={"g": _POS, "m": _POS, "S": _POS, "R": _NN, "k": _NN},
        defs={"series": "1/(m*(1 + k))"},
        lhs="g**2*(series - R)",
        rhs="g**2/m",
        hypotheses="the chain b12: sum_{n_0<s<=n} eta_s^2 = gamma^2 (series - R), R >= 0 the "
        "tail; the series <= 1/m (the sum-integral comparison, series = 1/(m(1 + k)))",
        note="repeats the bound of b12",
    ),
    "lem:stopped-stochastic-control/b20/s01": dict(
        hash="6b180afc6320",
        method="symbolic",
        symbols={"g": _POS, "S": _POS, "R": _NN},
        lhs="g**4*S",
        rhs="g**4*(S + R)",
        hypotheses="sum_{n_0 < s <= n} 1/(s + t_0)^4 = S; the tail over s > n is R >= 0",
    ),
    "lem:stopped-stochastic-control/b20/s02": dict(
        hash="2d1022bf0bba",
        method="cited",
        via="symbolic",
        cite="sum-integral comparison for the decreasing 1/u^4: 1/(s + t_0)^4 <= "
        "int_{s-1+t_0}^{s+t_0} du/u^4, summed over s > n_0",
        symbols={"a": _POS, "u": _POS},
        lhs="1/(a + 1)**4",
        rhs="Integral(1/u**4, (u, a, a + 1)).doit()",
        hypotheses="a = s - 1 + t_0 >= n_0 + t_0 > 0",
        note="the termwise instance",
    ),
    "lem:stopped-stochastic-control/b20/s03": dict(
        hash="136fda82a9c9",
        method="symbolic",
        symbols={"g": _POS, "m": _POS, "u": _POS},
        lhs="g**4*Integral(1/u**4, (u, m, oo))",
        rhs="g**4/(3*m**3)",
    ),
    "lem:stopped-stochastic-control/b20/s04": dict(
        hash="9fd68e9cb43a",
        method="symbolic",
        symbols={"g": _POS, "m": _POS},
        lhs="g**4/(3*m**3)",
        rhs="g**4/m**3",
    ),
    "lem:stopped-stochastic-control/b21/s01": dict(
        hash="9a28dd0a9ae9",
        method="symbolic",
        symbols={"g": _POS, "m": _POS, "k": _NN},
        lhs="(g/(m + 1 + k))**2",
        rhs="g**2/m**2",
        hypotheses="eta_s = gamma/(s + t_0) with s = n_0 + 1 + k, k >= 0 (the max is at "
        "s = n_0 + 1); m = n_0 + t_0 > 0",
    ),
    "lem:stopped-stochastic-control/b22/s01": dict(
        hash="433bdd081d4c",
        method="symbolic",
        symbols={
            "B": _POS,
            "g": _POS,
            "m": _POS,
            "d": _POS,
            "x": _POS,
            "k1": _NN,
            "k2": _NN,
            "k3": _NN,
            "s0": _NN,
        },
        defs={
            "Sa": "g**2/(m*(1 + k1))",
            "Sa2": "g**4/(m**3*(1 + k2)**2)",
            "ma": "g**2/(m**2*(1 + k3))",
        },
        lhs="B**2*(d*Sa + 2*sqrt(x*d*Sa2) + 2*x*ma) - s0",
        rhs="B**2*g**2*(d/m + 2*sqrt(x*d)/m**Rational(3, 2) + 2*x/m**2)",
        hypotheses="b17 and b18 (Q_n <= B_Y^2 (the right side of b18), slack s0); b19, b20, "
        "b21: Sa <= gamma^2/m, Sa2 <= gamma^4/m^3, ma <= gamma^2/m^2 (written with "
        "k1, k2, k3 >= 0)",
        note="every bound enters with a nonnegative coefficient (sqrt increasing)",
    ),
    "lem:stopped-stochastic-control/b23/s01": dict(
        hash="0d5cbc7c2e2d",
        method="symbolic",
        symbols={"x": _POS, "d": _POS, "k": _NN},
        defs={"m": "(1 + k)**2"},
        lhs="2*sqrt(x*d)/m**Rational(3, 2)",
        rhs="2*sqrt(x*d)/m",
        hypotheses="n_0 + t_0 >= 1 (m = (1 + k)^2)",
    ),
    "lem:stopped-stochastic-control/b23/s02": dict(
        hash="37616c729795",
        method="symbolic",
        symbols={"X": _POS, "D": _POS, "m": _POS},
        defs={"x": "X**2", "d": "D**2"},
        lhs="2*sqrt(x*d)/m",
        rhs="(d + x)/m",
        hypotheses="x, d > 0 (x = X^2, d = D^2)",
        note="2 sqrt(xd) <= d + x (AM-GM)",
    ),
    "lem:stopped-stochastic-control/b24/s01": dict(
        hash="63e4a74d19f4",
        method="symbolic",
        symbols={"x": _POS, "k": _NN},
        defs={"m": "1 + k"},
        lhs="2*x/m**2",
        rhs="2*x/m",
        hypotheses="n_0 + t_0 >= 1",
    ),
    "lem:stopped-stochastic-control/b25/s01": dict(
        hash="c6ba7ed1c184",
        method="symbolic",
        symbols={
            "B": _POS,
            "g": _POS,
            "m": _POS,
            "d": _POS,
            "x": _POS,
            "s0": _NN,
            "s1": _NN,
            "s2": _NN,
        },
        lhs="B**2*g**2*(d/m + ((d + x)/m - s1) + (2*x/m - s2)) - s0",
        rhs="B**2*g**2/m*(2*d + 3*x)",
        hypotheses="b22 (slack s0) with b23 and b24 (slacks s1, s2)",
    ),
    "lem:stopped-stochastic-control/b25/s02": dict(
        hash="1291432d3ba4",
        method="symbolic",
        symbols={"B": _POS, "g": _POS, "m": _POS, "d": _NN, "x": _POS},
        lhs="B**2*g**2/m*(2*d + 3*x)",
        rhs="3*B**2*g**2/m*(d + x)",
        hypotheses="d >= 0",
    ),
    "lem:stopped-stochastic-control/b26/s01": dict(
        hash="aaef705bf5f5",
        method="symbolic",
        symbols={"B": _POS, "g": _POS, "m": _POS, "d": _POS, "L": _POS, "s": _NN},
        defs={"delta": "3*exp(-L)", "x": "L"},
        lhs="3*B**2*g**2/m*(d + x) - s",
        rhs="3*B**2*g**2/m*(d + log(3/delta))",
        hypotheses="b25 at x = log(3/delta) (slack s), on an event of probability >= 1 - "
        "e^-x = 1 - delta/3",
    ),
    "lem:stopped-stochastic-control/b27/s01": dict(
        hash="2b2fb2e802fe",
        method="symbolic",
        symbols={"B": _POS, "g": _POS, "r": _POS, "d": _POS, "L": _POS, "e": _NN},
        defs={"delta": "3*exp(-L)", "m": "12*B**2*g**2*r**(-2)*(d + L) + e"},
        lhs="3*B**2*g**2/m*(d + log(3/delta))",
        rhs="r**2/4",
        hypotheses="n_0 + t_0 = 12 B_Y^2 gamma^2 r_0^-2 (d + log(3/delta)) + e, e >= 0 (the "
        "stated condition)",
        note="checked: on b26's event Q_n <= r_0^2/4, so {Q_n > r_0^2/4} lies in the "
        "complement, of probability <= e^-x = delta/3 (x = log(3/delta)); C_Q = 12",
    ),
}
