"""Transcriptions of the proof of lem:gaussian-polynomial-disagreement (app:error-to-regret).

In the plane of v and v*, at angle alpha in [0, pi/2] apart, the disagreement set of the
polar angle phi of X is D_alpha = (pi/2, pi/2 + alpha) u (3pi/2, 3pi/2 + alpha), where
|cos phi| is -cos phi and cos phi respectively."""

_NN = "nonnegative"

STEPS = {
    "lem:gaussian-polynomial-disagreement/b01/s01": dict(
        hash="0523c003b427",
        method="cited",
        via="symbolic",
        cite="lem:gaussian-polynomial-disagreement (the event in its statement)",
        symbols={"y1": "nonzero", "y2": "nonzero"},
        defs={"sgn": "Lambda(Symbol('y'), Symbol('y')/Abs(Symbol('y')))"},
        lhs="(1 - sgn(y1)*sgn(y2))/2",
        rhs="(1 - sgn(y1)*sgn(y2))/2",
        hypotheses="y1 = v^T X, y2 = (v*)^T X, nonzero off a null event",
        note="'the disagreement event D_v': the indicator 1{sgn(v^T X) != sgn((v*)^T X)} of "
        "the statement (lhs) against the event printed here (rhs), read through "
        "1{s != s'} = (1 - s s')/2 (as b01/s02); a restatement, checked against it",
    ),
    "lem:gaussian-polynomial-disagreement/b01/s02": dict(
        hash="49ecf032ad17",
        method="symbolic",
        symbols={"R": "positive", "P": "real", "a": "real"},
        defs={
            "sgn": "Lambda(Symbol('y'), Symbol('y')/Abs(Symbol('y')))",
            "vs": "Matrix([1, 0])",
            "v": "Matrix([cos(a), sin(a)])",
            "X": "R*Matrix([cos(P), sin(P)])",
        },
        lhs="(1 - sgn(v.dot(X))*sgn(vs.dot(X)))/2",
        rhs="(1 - sgn(cos(P))*sgn(cos(P - a)))/2",
        hypotheses="v* = e1, v = cos(alpha) e1 + sin(alpha) e2, X_1 = R cos(Phi), X_2 = R "
        "sin(Phi) (the proof's basis), R > 0; sgn y = y/|y| off the null event "
        "{v^T X = 0} u {v*^T X = 0}",
        note="a set equality read through indicators: for nonzero signs, 1{s != s'} = "
        "(1 - s s')/2, so the two events are equal iff the two indicators are; the "
        "content checked is v*^T X = R cos(Phi), v^T X = R cos(Phi - alpha) and R > 0",
    ),
    "lem:gaussian-polynomial-disagreement/b02/s01": dict(
        hash="4dd9176edb05",
        method="cited",
        via="symbolic",
        cite="|theta^T X| <= |theta_par^T X| + |U| <= R + |U| (||theta|| <= 1) and "
        "(a + b)^q <= 2^(q-1) (a^q + b^q) (convexity, q >= 1); |v*^T X| <= R",
        symbols={"R": _NN, "c": _NN, "u": _NN, "s1": _NN, "s2": _NN},
        defs={"q": "3", "Cq": "1 + 2**(q - 1)"},
        lhs="R*c*(1 + (2**(q - 1)*(R**q + u**q) - s1) + (R**q - s2))",
        rhs="Cq*R*c*(1 + R**q + u**q)",
        hypotheses="an instance q = 3 with C_3 = 1 + 2^(q-1) = 5; |v*^T X| = R c, c = "
        "|cos Phi| <= 1; u = |U|; the cited bounds enter as |theta^T X|^q = "
        "2^(q-1)(R^q + u^q) - s1 and |v*^T X|^q = R^q - s2 with slacks s1, s2 >= 0; "
        "on D_v (both sides carry 1{D_v}; off it the step is 0 <= 0)",
    ),
    "lem:gaussian-polynomial-disagreement/b03/s01": dict(
        hash="5625b5cc2833",
        method="cited",
        via="symbolic",
        cite="b02 (pointwise), then independence of U, R and Phi (Fubini)",
        symbols={"r": _NN, "f": "real", "u": "real", "al": _NN, "C": "positive", "s": _NN},
        defs={
            "dens": "r*exp(-r**2/2)/(2*pi)*exp(-u**2/2)/sqrt(2*pi)",
            "joint": "2*Integral(Integral(Integral(C*r*(-cos(f))*(1 + r**2 + u**2)*dens, "
            "(u, -oo, oo)), (r, 0, oo)), (f, pi/2, pi/2 + al)).doit()",
            "ER": "Integral(Integral(r*(1 + r**2 + u**2)*r*exp(-r**2/2)*exp(-u**2/2)"
            "/sqrt(2*pi), (u, -oo, oo)), (r, 0, oo)).doit()",
            "EA": "2*Integral(-cos(f)/(2*pi), (f, pi/2, pi/2 + al)).doit()",
        },
        lhs="joint - s",
        rhs="C*ER*EA",
        hypotheses="an instance q = 2 with ||theta_perp|| = 1 (U ~ N(0, 1)); (R, Phi) the "
        "polar coordinates of (X1, X2): density r e^(-r^2/2)/(2 pi); D_v the two "
        "wedges of the module docstring (0 <= alpha <= pi/2); the left side is "
        "E[C R |cos Phi| (1 + R^2 + U^2) 1{D_v}] minus the slack s >= 0 of b02",
        note="the joint expectation over (R, Phi, U) against the product of the radial and "
        "angular expectations",
    ),
    "lem:gaussian-polynomial-disagreement/b04/s01": dict(
        hash="3ca81b437f20",
        method="symbolic",
        symbols={"f": "real", "al": _NN},
        lhs="Integral(-cos(f), (f, pi/2, pi/2 + al)) + Integral(cos(f), (f, 3*pi/2, 3*pi/2 + al))",
        rhs="2*Integral(-cos(f), (f, pi/2, pi/2 + al))",
        hypotheses="0 <= alpha <= pi/2; D_alpha as in the module docstring",
    ),
    "lem:gaussian-polynomial-disagreement/b04/s02": dict(
        hash="2925c4b7a963",
        method="symbolic",
        symbols={"f": "real", "al": _NN},
        lhs="2*Integral(-cos(f), (f, pi/2, pi/2 + al)).doit()",
        rhs="2*(1 - cos(al))",
        hypotheses="|cos phi| = -cos phi on (pi/2, pi/2 + alpha), alpha <= pi/2",
    ),
    "lem:gaussian-polynomial-disagreement/b06/s01": dict(
        hash="724af4f2f753",
        method="symbolic",
        symbols={"Cq": _NN, "al": "real", "s": _NN},
        lhs="Cq*(1 - cos(al)) - s",
        rhs="Cq*(2 - 2*cos(al))",
        hypotheses="b05 (slack s >= 0) and ||v - v*||^2 = 2 - 2 cos alpha for unit vectors",
    ),
    "lem:gaussian-polynomial-disagreement/b05/s01": dict(
        hash="699c3367fa8b",
        method="symbolic",
        symbols={"C": "positive", "M": "positive", "cm": _NN, "s1": _NN, "s2": _NN},
        lhs="C*(M - s1)*cm/pi - s2",
        rhs="(C*M/pi)*cm",
        hypotheses="b03 with E[R{1 + R^q + |U|^q}] = M - s1 <= M =: C_q (a finite moment) "
        "and E[|cos Phi| 1{D_v}] = (1 - cos alpha)/pi, cm = 1 - cos alpha >= 0; "
        "s2 >= 0 the slack of b03",
        note="the new C_q is C M/pi (the constant 'may change from line to line')",
    ),
}
