"""Transcriptions of the proof of lem:gaussian-polynomial-disagreement (app:error-to-regret).

In the plane of v and v*, at angle alpha in [0, pi/2] apart, the disagreement set of the
polar angle phi of X is D_alpha = (pi/2, pi/2 + alpha) u (3pi/2, 3pi/2 + alpha), where
|cos phi| is -cos phi and cos phi respectively."""

_NN = "nonnegative"

STEPS = {
    "lem:gaussian-polynomial-disagreement/b01/s01": dict(
        hash="0523c003b427", method="prose", note="defines the disagreement event D_v"),
    "lem:gaussian-polynomial-disagreement/b01/s02": dict(
        hash="49ecf032ad17", method="prose",
        note="the event in polar coordinates (a set equality)"),
    "lem:gaussian-polynomial-disagreement/b04/s01": dict(
        hash="3ca81b437f20", method="symbolic", symbols={"f": "real", "al": _NN},
        lhs="Integral(-cos(f), (f, pi/2, pi/2 + al)) + "
            "Integral(cos(f), (f, 3*pi/2, 3*pi/2 + al))",
        rhs="2*Integral(-cos(f), (f, pi/2, pi/2 + al))",
        hypotheses="0 <= alpha <= pi/2; D_alpha as in the module docstring"),
    "lem:gaussian-polynomial-disagreement/b04/s02": dict(
        hash="2925c4b7a963", method="symbolic", symbols={"f": "real", "al": _NN},
        lhs="2*Integral(-cos(f), (f, pi/2, pi/2 + al)).doit()", rhs="2*(1 - cos(al))",
        hypotheses="|cos phi| = -cos phi on (pi/2, pi/2 + alpha), alpha <= pi/2"),
    "lem:gaussian-polynomial-disagreement/b06/s01": dict(
        hash="724af4f2f753", method="symbolic", symbols={"Cq": _NN, "al": "real", "s": _NN},
        lhs="Cq*(1 - cos(al)) - s", rhs="Cq*(2 - 2*cos(al))",
        hypotheses="b05 (slack s >= 0) and ||v - v*||^2 = 2 - 2 cos alpha for unit vectors"),
}
