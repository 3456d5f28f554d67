"""Transcriptions of the proof of prop:randomized_initialization (app:randomized_initialization).

Cited bounds enter through nonnegative slack symbols (``A = X - s``, ``s >= 0``), as in
:mod:`.thm_regret_rate`; conditional expectations are instantiated on finite probability
spaces; vectors are in d = 2 with the generic unit vector v* = (1 - k^2, 2k)/(1 + k^2) and
theta = t e, e = (-2k, 1 - k^2)/(1 + k^2) (the algebra does not depend on d). Gaussian steps use
the logistic link."""

_R = "real"
_P = "positive"
_NN = "nonnegative"
_GEOM = {
    "vs": "Matrix([1 - k**2, 2*k])/(1 + k**2)",
    "e": "Matrix([-2*k, 1 - k**2])/(1 + k**2)",
    "bp": "t*e + D/2*vs",
    "bm": "t*e - D/2*vs",
}
_LOGIT = {
    "g": "Lambda(Symbol('y'), 1/(1 + exp(-Symbol('y'))))",
    "g1": "Lambda(Symbol('y'), exp(-Symbol('y'))/(1 + exp(-Symbol('y')))**2)",
}

STEPS = {
    "prop:randomized_initialization/b01/s01": dict(
        hash="e10ab35504ee",
        method="cited",
        via="symbolic",
        cite="alg:nbl (Stage I: W_t = A_t Y_t X_t)",
        symbols={"A": _R, "Y": _R, "x1": _R, "x2": _R},
        defs={"X": "Matrix([x1, x2])"},
        lhs="A*Y*X",
        rhs="A*Y*X",
        hypotheses="'Recall that during the randomized initialization stage': the algorithm's "
        "W_t (lhs) against the one printed here (rhs), d = 2",
        note="a restatement of alg:nbl's definition, checked against it",
    ),
    "prop:randomized_initialization/b01/s02": dict(
        hash="0e8bd1c6e28f", method="prose", note="the range t = 1, ..., n_0 (no relation)"
    ),
    "prop:randomized_initialization/b02/s01": dict(
        hash="30fb2a1385c8",
        method="cited",
        via="symbolic",
        cite="A_t uniform on {-1, +1}, independent of (X_t, Y_t,+-, H_{t-1})",
        symbols={"Yp": _R, "Ym": _R, "x": _R},
        lhs="Rational(1, 2)*(1*Yp*x) + Rational(1, 2)*((-1)*Ym*x)",
        rhs="Rational(1, 2)*Yp*x - Rational(1, 2)*Ym*x",
        hypotheses="given (X_t, Y_t,+, Y_t,-, H_{t-1}): W_t = A_t Y_{t,A_t} X_t averaged over "
        "A_t = +1, -1 with probability 1/2 each; one coordinate x of X_t",
        note="the average over A_t, then the outer conditional expectation (linear)",
    ),
    "prop:randomized_initialization/b03/s01": dict(
        hash="ad8e51fe2a30",
        method="cited",
        via="symbolic",
        cite="the tower property (H_{t-1} is inside sigma(X_t, H_{t-1}))",
        symbols={"x1": _R, "x2": _R, "y1": _R, "y2": _R, "y3": _R, "y4": _R, "p": _P, "q": _P},
        lhs="(x1*(p*y1 + q*y2) + x2*(p*y3 + q*y4))/(2*(p + q))",
        rhs="(x1*(p*y1 + q*y2)/(p + q) + x2*(p*y3 + q*y4)/(p + q))/2",
        hypotheses="an instance given H_{t-1}: X_t in {x1, x2} with probability 1/2 each; "
        "given X_t, Y_{t,a} takes two values with weights p, q > 0",
        note="E[Y X | H] (left) against E[X E[Y | X, H] | H] (right)",
    ),
    "prop:randomized_initialization/b03/s02": dict(
        hash="9556494b053f",
        method="cited",
        via="expectation",
        cite="eq:model",
        symbols={"Z": _R, "b": _R, "x": _R, "sig": _P},
        gaussian=["Z"],
        defs=_LOGIT,
        at=[{"b": "1", "x": "1/2", "sig": "1"}, {"b": "-3/5", "x": "2", "sig": "1/3"}],
        lhs="x*E(g(b*x) + sig*Z)",
        rhs="x*g(b*x)",
        hypotheses="an instance of the model: Y_{t,a} = g(beta_a^T X_t) + sigma Z, Z ~ N(0, 1) "
        "independent of (X_t, H_{t-1}); logistic g; b = beta_a^T x",
        note="the inner conditional expectation at a fixed context x",
    ),
    "prop:randomized_initialization/b04/s01": dict(
        hash="2f28cdcad9c5",
        method="cited",
        via="expectation",
        cite="lem:gaussian_stein",
        symbols={"Z": _R},
        gaussian=["Z"],
        defs={
            **_LOGIT,
            "bp": "Matrix([Rational(3, 5), Rational(4, 5)])",
            "bm": "Matrix([Rational(-5, 13), Rational(12, 13)])",
        },
        lhs="(E(Z*g(Z))*bp - E(Z*g(Z))*bm)/2",
        rhs="E(g1(Z))/2*(bp - bm)",
        hypotheses="X ~ N(0, I_2), ||beta_a|| = 1: E[X g(beta_a^T X)] = E[Z g(Z)] beta_a "
        "(the part of X orthogonal to beta_a is independent of beta_a^T X and "
        "centred); mu_g = E g'(Z); logistic g; beta_+ = (3/5, 4/5), "
        "beta_- = (-5/13, 12/13)",
        note="b02 with b03 and the Stein identity E[Z g(Z)] = E[g'(Z)]",
    ),
    "prop:randomized_initialization/b04/s02": dict(
        hash="f0a09f186905",
        method="symbolic",
        symbols={"k": _R, "t": _R, "D": _P, "mu": _P},
        defs=_GEOM,
        lhs="mu/2*(bp - bm)",
        rhs="D*mu/2*vs",
        hypotheses="beta_a = theta + a (Delta_beta/2) v* (the decomposition of the model)",
    ),
    "prop:randomized_initialization/b05/s01": dict(
        hash="4f51c2505ab7",
        method="cited",
        via="symbolic",
        cite="b09 (the centred sum)",
        symbols={"a1": _R, "a2": _R, "n": _P},
        defs={"S": "Matrix([a1, a2])"},
        lhs="(S/n).dot(S/n)",
        rhs="S.dot(S)/n**2",
        hypotheses="W_bar - (Delta mu/2) v* = S/n_0, S = sum_t D_t (b09), pointwise",
        note="the squared norms agree pointwise, so their expectations do",
    ),
    "prop:randomized_initialization/b05/s02": dict(
        hash="2270e69c76cf",
        method="cited",
        via="symbolic",
        cite="martingale differences: E[D_1^T D_2] = E[D_1^T E[D_2 | H_1]] = 0",
        symbols={"a1": _R, "a2": _R, "b1": _R, "b2": _R, "c1": _R, "c2": _R},
        defs={"A": "Matrix([a1, a2])", "B": "Matrix([b1, b2])", "C": "Matrix([c1, c2])", "n": "2"},
        lhs="((A + B).dot(A + B) + (A - B).dot(A - B) + (-A + C).dot(-A + C) "
        "+ (-A - C).dot(-A - C))/4/n**2",
        rhs="(A.dot(A) + (B.dot(B) + C.dot(C))/2)/n**2",
        hypotheses="an instance n_0 = 2 on a finite space: D_1 = +-A with probability 1/2; "
        "given D_1 = A, D_2 = +-B, given D_1 = -A, D_2 = +-C (each 1/2), so "
        "E[D_2 | H_1] = 0; E||D_1||^2 = ||A||^2, E||D_2||^2 = (||B||^2 + ||C||^2)/2",
    ),
    "prop:randomized_initialization/b06/s01": dict(
        hash="e0d43ce63430",
        method="cited",
        via="symbolic",
        cite="E||D_t||^2 <= E||W_t||^2 <= B_Y^2 E||X_t||^2 = B_Y^2 d",
        symbols={"n": _P, "B": _P, "d": _P, "s": _NN},
        lhs="(n*B**2*d - s)/n**2",
        rhs="B**2*d/n",
        hypotheses="b05: the sum of n_0 terms E||D_t||^2, each B_Y^2 d minus a slack "
        "(their total s >= 0)",
    ),
    "prop:randomized_initialization/b07/s01": dict(
        hash="2c1365d74940",
        method="symbolic",
        symbols={"rho": _P, "m": _R},
        defs={
            "c": "(1 - m**2)/(1 + m**2)",
            "sn": "2*m/(1 + m**2)",
            "x": "rho*Matrix([c, sn])",
            "y": "Matrix([1, 0])",
        },
        lhs="(x/sqrt(x.dot(x)) - y).dot(x/sqrt(x.dot(x)) - y)",
        rhs="4*(x - y).dot(x - y)/y.dot(y)",
        hypotheses="x, y nonzero; both sides are invariant under a rotation and a common "
        "scaling of (x, y), so y = e1 and x = rho (c, s) with (c, s) a rational point "
        "of the circle (parameter m) and rho > 0 cover every case in any d (x and y "
        "span a plane)",
        note="the squares of the two sides (both nonnegative); the gap times (1 + m^2) is "
        "4 (rho - 1)^2 + 4 rho m^2 (rho + 2) >= 0, which the symbolic method proves by "
        "grouping the powers of m (Arb could not: the gap touches 0 at x = y)",
    ),
    "prop:randomized_initialization/b08/s01": dict(
        hash="d100fc9173f8",
        method="cited",
        via="symbolic",
        cite="b07 (with x = W_bar, y = (D mu/2) v*) and b06",
        symbols={"D": _P, "mu": _P, "B": _P, "d": _P, "n": _P, "s1": _NN, "s2": _NN},
        lhs="(2/(D*mu/2))**2*(B**2*d/n - s1) - s2",
        rhs="16*B**2*d/(D**2*mu**2*n)",
        hypotheses="||v_{n0} - v*||^2 <= (2||x - y||/||y||)^2 with ||y|| = D mu/2 (b07, slack "
        "s2 after taking E), E||x - y||^2 = B^2 d/n_0 - s1 (b06)",
    ),
    "prop:randomized_initialization/b09/s01": dict(
        hash="05fa54f68468",
        method="symbolic",
        symbols={
            "c": _R,
            "k": _R,
            "w11": _R,
            "w12": _R,
            "w21": _R,
            "w22": _R,
            "w31": _R,
            "w32": _R,
        },
        defs={
            "vs": _GEOM["vs"],
            "W1": "Matrix([w11, w12])",
            "W2": "Matrix([w21, w22])",
            "W3": "Matrix([w31, w32])",
        },
        lhs="(W1 + W2 + W3)/3 - c*vs",
        rhs="((W1 - c*vs) + (W2 - c*vs) + (W3 - c*vs))/3",
        hypotheses="an instance n_0 = 3; c = Delta mu/2; D_t = W_t - c v*",
    ),
    "prop:randomized_initialization/b10/s01": dict(
        hash="81710554a001",
        method="symbolic",
        symbols={"j": "integer", "Y": _R, "ux": _R},
        lhs="Abs((-1)**j*Y*ux)",
        rhs="Abs(Y)*Abs(ux)",
        hypotheses="u^T W_t = A_t Y_t u^T X_t with A_t = (-1)^j in {-1, +1}",
    ),
    "prop:randomized_initialization/b10/s02": dict(
        hash="d42219a87a19",
        method="cited",
        via="symbolic",
        cite="assum:bounded_rewards",
        symbols={"B": _P, "s": _NN, "ux": _R},
        lhs="(B - s)*Abs(ux)",
        rhs="B*Abs(ux)",
        hypotheses="|Y_t| = B_Y - s, s >= 0 (|Y_t| <= B_Y)",
    ),
    "prop:randomized_initialization/b11/s01": dict(
        hash="d5cc405aebfa",
        method="expectation",
        symbols={"Z": _R, "B": _P, "s": _P, "w": _P},
        gaussian=["Z"],
        breaks=[-2, -1, 0, 1, 2],
        at=[{"B": "1", "s": "1", "w": "1/2"}],
        lhs="E(Piecewise((1, w*B*Abs(Z) > s), (0, True)))",
        rhs="E(Piecewise((1, B*Abs(Z) > s), (0, True)))",
        hypotheses="an instance: |Y_t| = w B_Y with w = 1/2 <= 1 (b10), u^T X_t = Z ~ N(0, 1) "
        "given H_{t-1}; the points put the jumps at |Z| = 1, 2 (the breaks)",
        note="the event {|u^T W_t| > s} is inside {B_Y |u^T X_t| > s} (b10)",
    ),
    "prop:randomized_initialization/b11/s02": dict(
        hash="5ee06c1e3b03",
        method="expectation",
        symbols={"Z": _R, "B": _P, "s": _P},
        gaussian=["Z"],
        breaks=[-1, 0, 1],
        at=[{"B": "1", "s": "1"}, {"B": "2", "s": "2"}, {"B": "1/2", "s": "1/2"}],
        lhs="E(Piecewise((1, B*Abs(Z) > s), (0, True)))",
        rhs="erfc(s/(B*sqrt(2)))",
        hypotheses="u^T X_t ~ N(0, 1) given H_{t-1} (X_t independent of it, ||u|| = 1)",
        note="both sides computed: the probability by quadrature, against the normal tail "
        "erfc(s/(B sqrt 2)); the points have s/B = 1 (the breaks)",
    ),
    "prop:randomized_initialization/b11/s03": dict(
        hash="3f3a37050d11",
        method="certified",
        symbols={"x": _NN},
        lhs="erfc(x/sqrt(2))",
        rhs="2*exp(-x**2/2)",
        domain={"x": [0, 40]},
        hypotheses="x = s/B_Y >= 0; P(B|Z| > s) = erfc(x/sqrt 2)",
        note="cut at x = 40: beyond, erfc(x/sqrt 2) <= exp(-x^2/2) (the Chernoff bound) "
        "<= 2 exp(-x^2/2)",
    ),
    "prop:randomized_initialization/b12/s01": dict(
        hash="71ef29c35ade",
        method="expectation",
        symbols={"Z": _R, "l": _R, "B": _P},
        gaussian=["Z"],
        at=[{"l": "1/2", "B": "1"}, {"l": "-2", "B": "1/2"}, {"l": "3/2", "B": "3/2"}],
        lhs="E(exp(l*B*Z))",
        rhs="exp(Rational(1, 2)*l**2*B**2)",
        hypotheses="an instance: u^T W_t = B_Y Z with Z ~ N(0, 1) given H_{t-1} (centred); "
        "C_0 = 1/2 (the Gaussian case, where the bound is attained)",
    ),
    "prop:randomized_initialization/b13/s01": dict(
        hash="86db7b03cc5d",
        method="cited",
        via="symbolic",
        cite="b12 with D_t = W_t - E[W_t | H_{t-1}]",
        symbols={"l": _R, "C0": _P, "B": _P, "s": _NN},
        lhs="exp(C0*l**2*B**2) - s",
        rhs="exp(C0*l**2*B**2)",
        hypotheses="u^T D_t = u^T W_t - E[u^T W_t | H_{t-1}]: the left side of b12 (slack s)",
    ),
    "prop:randomized_initialization/b14/s01": dict(
        hash="b1e1ff125e97",
        method="cited",
        via="symbolic",
        cite="b15 repeated (n_0 = 3 here)",
        symbols={"l": _R, "C2": _P, "B": _P, "r1": _NN, "r2": _NN, "r3": _NN},
        defs={"m": "exp(C2*l**2*B**2)"},
        lhs="m/(1 + r1)*m/(1 + r2)*m/(1 + r3)",
        rhs="exp(C2*3*l**2*B**2)",
        hypotheses="an instance n_0 = 3: each conditional MGF factor is in (0, m], m = "
        "exp(C_2 l^2 B^2), written m/(1 + r_t) with r_t >= 0 (b15 applied three "
        "times)",
    ),
    "prop:randomized_initialization/b15/s01": dict(
        hash="afbb160392d9",
        method="cited",
        via="symbolic",
        cite="the tower property (the first n_0 - 1 terms are H_{n_0-1}-measurable)",
        symbols={"a": _R, "b1": _R, "b2": _R, "c1": _R, "c2": _R, "l": _R},
        lhs="(exp(l*(a + b1)) + exp(l*(a + b2)) + exp(l*(-a + c1)) + exp(l*(-a + c2)))/4",
        rhs="(exp(l*a)*(exp(l*b1) + exp(l*b2))/2 + exp(-l*a)*(exp(l*c1) + exp(l*c2))/2)/2",
        hypotheses="an instance n_0 = 2: u^T D_1 = +-a (1/2 each); given it, u^T D_2 takes "
        "b1, b2 (after +a) or c1, c2 (after -a) with probability 1/2",
    ),
    "prop:randomized_initialization/b15/s02": dict(
        hash="3858545883c2",
        method="cited",
        via="symbolic",
        cite="b13 (with C_2 >= C_0)",
        symbols={"l": _R, "C2": _P, "B": _P, "s": _NN, "M": _P},
        lhs="M*(exp(C2*l**2*B**2) - s)",
        rhs="exp(C2*l**2*B**2)*M",
        hypotheses="M = exp(l sum_{t < n_0} u^T D_t) > 0 pointwise; the conditional MGF is "
        "exp(C_2 l^2 B^2) - s, s >= 0; then E is monotone",
    ),
    "prop:randomized_initialization/b16/s01": dict(
        hash="90c05a887ed1",
        method="cited",
        via="symbolic",
        cite="Chernoff's inequality with b14",
        symbols={"n": _P, "s": _P, "C2": _P, "B": _P},
        defs={"lam": "s/(2*C2*B**2)", "c0": "1/(4*C2)"},
        lhs="2*exp(-lam*n*s + C2*n*lam**2*B**2)",
        rhs="2*exp(-c0*n*s**2/B**2)",
        hypotheses="P(|S| > n s) <= 2 exp(-lam n s) E exp(lam S) (both tails) with b14, at "
        "the optimal lam = s/(2 C_2 B^2); c_0 = 1/(4 C_2)",
        note="the optimized Chernoff bound equals the printed one with c_0 = 1/(4 C_2)",
    ),
    "prop:randomized_initialization/b17/s01": dict(
        hash="66d04e870903",
        method="cited",
        via="symbolic",
        cite="b16 with b09",
        symbols={"c0": _P, "n": _P, "s": _P, "B": _P, "sl": _NN},
        lhs="2*exp(-c0*n*s**2/B**2) - sl",
        rhs="2*exp(-c0*n*s**2/B**2)",
        hypotheses="{|u^T (W_bar - (D mu/2) v*)| > s} = {|sum_t u^T D_t| > n_0 s} (b09: the "
        "vector is (1/n_0) sum D_t); its probability is b16's bound minus a slack",
    ),
    "prop:randomized_initialization/b18/s01": dict(
        hash="360a86cda9cc",
        method="cited",
        via="symbolic",
        cite="||z|| <= 2 max_{u in N} |u^T z| for a 1/2-net N",
        symbols={"p": _NN, "sl": _NN},
        lhs="p - sl",
        rhs="p",
        hypotheses="{||z|| > 2s} is inside {max_u |u^T z| > s}: P of the first = P of the "
        "second (p) minus the slack sl >= 0",
        note="monotonicity of P under the inclusion; the net property itself is cited",
    ),
    "prop:randomized_initialization/b18/s02": dict(
        hash="666fad2330a0",
        method="cited",
        via="symbolic",
        cite="the union bound",
        symbols={"pA": _NN, "pB": _NN, "pAB": _NN},
        lhs="pA + pB - pAB",
        rhs="pA + pB",
        hypotheses="an instance |N| = 2: P(A u B) = P(A) + P(B) - P(A n B)",
    ),
    "prop:randomized_initialization/b18/s03": dict(
        hash="80d081d253b0",
        method="cited",
        via="symbolic",
        cite="eq:init-fixed-direction-proof",
        symbols={"N": _P, "e": _P, "s": _NN},
        lhs="N*(2*e - s)",
        rhs="2*N*e",
        hypotheses="each of the |N| terms is 2 exp(-c_0 n_0 s^2/B^2) - slack; their total "
        "slack N s; e = exp(-c_0 n_0 s^2/B^2)",
    ),
    "prop:randomized_initialization/b18/s04": dict(
        hash="f6077fc433e5",
        method="symbolic",
        symbols={"d": _P, "a": _R, "s": _NN},
        lhs="2*(5**d - s)*exp(-a)",
        rhs="2*exp(d*log(5) - a)",
        hypotheses="|N| = 5^d - s <= 5^d (the 1/2-net); a = c_0 n_0 s^2/B_Y^2",
    ),
    "prop:randomized_initialization/b19/s01": dict(
        hash="4a11f76ca22d",
        method="cited",
        via="symbolic",
        cite="b18 with s = C_3 B_Y sqrt((d + log(2/delta))/n_0), C_4 = 2 C_3",
        symbols={"d": _P, "Lg": _NN, "c0": _P},
        defs={"C3sq": "(1 + log(5))/c0"},
        lhs="log(2) + d*log(5) - c0*C3sq*(d + Lg)",
        rhs="log(2) - Lg",
        hypotheses="the failure probability of b18 at the chosen s, n_0 s^2/B^2 = C_3^2 (d + "
        "log(2/delta)), against delta = 2 exp(-log(2/delta)); Lg = log(2/delta) >= 0 "
        "(delta <= 2); C_3^2 = (1 + log 5)/c_0 ('sufficiently large')",
        note="logarithms of 2 exp(d log 5 - c_0 n_0 s^2/B^2) <= delta (log is increasing); the "
        "probability bound that makes the printed inequality hold with probability "
        ">= 1 - delta (the event ||.|| <= 2s = C_4 B sqrt(.) with C_4 = 2 C_3)",
    ),
    "prop:randomized_initialization/b20/s01": dict(
        hash="2c1365d74940",
        method="symbolic",
        symbols={"rho": _P, "m": _R},
        defs={
            "c": "(1 - m**2)/(1 + m**2)",
            "sn": "2*m/(1 + m**2)",
            "x": "rho*Matrix([c, sn])",
            "y": "Matrix([1, 0])",
        },
        lhs="(x/sqrt(x.dot(x)) - y).dot(x/sqrt(x.dot(x)) - y)",
        rhs="4*(x - y).dot(x - y)/y.dot(y)",
        hypotheses="x, y nonzero; both sides are invariant under a rotation and a common "
        "scaling of (x, y), so y = e1 and x = rho (c, s) with (c, s) a rational point "
        "of the circle (parameter m) and rho > 0 cover every case in any d (x and y "
        "span a plane)",
        note="the squares of the two sides (both nonnegative); the gap times (1 + m^2) is "
        "4 (rho - 1)^2 + 4 rho m^2 (rho + 2) >= 0, which the symbolic method proves by "
        "grouping the powers of m (Arb could not: the gap touches 0 at x = y)",
    ),
    "prop:randomized_initialization/b21/s01": dict(
        hash="9b341bb2655c",
        method="cited",
        via="symbolic",
        cite="b20 with x = W_bar, y = (D mu/2) v*",
        symbols={"D": _P, "mu": _P, "z": _NN, "s": _NN},
        lhs="2*z/(D*mu/2) - s",
        rhs="4/(D*mu)*z",
        hypotheses="||y|| = (D mu/2)||v*|| = D mu/2; z = ||x - y||; v_{n0} = x/||x||, "
        "v* = y/||y||; b20 with slack s",
    ),
    "prop:randomized_initialization/b22/s01": dict(
        hash="0ba21915838e",
        method="cited",
        via="symbolic",
        cite="b21 and eq:init-vector-concentration-proof",
        symbols={"D": _P, "mu": _P, "B": _P, "L": _P, "n": _P, "C4": _P, "s": _NN, "c": _NN},
        defs={"C": "4*C4 + c"},
        lhs="4/(D*mu)*(C4*B*sqrt(L/n) - s)",
        rhs="C*B/(D*mu)*sqrt(L/n)",
        hypotheses="L = d + log(2/delta); on the event of b19 (probability >= 1 - delta); "
        "C >= 4 C_4",
    ),
    "prop:randomized_initialization/b23/s01": dict(
        hash="827a14556cdc",
        method="cited",
        via="symbolic",
        cite="prop:randomized_initialization (its condition on n_0)",
        rel="=",
        symbols={"Ci": _P, "B": _P, "d": _P, "d0": _P, "D": _P, "mu": _P, "r": _P},
        lhs="Ci*B**2*(d + log(2/d0))/(D**2*mu**2*r**2)",
        rhs="Ci*B**2*(d + log(2/d0))/(D**2*mu**2*r**2)",
        hypotheses="the statement's threshold (lhs) against the proof's (rhs)",
        note="a condition, not a derived relation: the check is that the proof assumes the "
        "statement's condition n_0 >= threshold (the thresholds compared, hence rel '='); "
        "what the condition implies is b24",
    ),
    "prop:randomized_initialization/b24/s01": dict(
        hash="844c9d618cff",
        method="cited",
        via="symbolic",
        cite="b22 with delta = delta_0 and b23",
        symbols={"C": _P, "B": _P, "D": _P, "mu": _P, "L": _P, "r": _P, "c": _NN, "e": _NN},
        defs={"Ci": "C**2 + c", "n": "Ci*B**2*L/(D**2*mu**2*r**2) + e"},
        lhs="(C*B/(D*mu))**2*L/n",
        rhs="r**2",
        rel="<=",
        hypotheses="n_0 >= C_init B^2 L/(D^2 mu^2 r^2) (b23, slack e >= 0) with C_init >= C^2 "
        "(slack c >= 0), L = d + log(2/delta_0)",
        note="the paper's relation is >= between probabilities; what carries it is the "
        "inclusion of b22's event in {||v - v*|| <= r}, i.e. (bound)^2 <= r^2 (checked "
        "here, hence rel '<='); the event {bound <= r} holds, so P(||v - v*|| <= r) >= "
        "P(b22's event) >= "
        "1 - delta_0; the check is the deterministic part: the bound of b22 is <= r",
    ),
}
