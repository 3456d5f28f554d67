"""Transcriptions of the proof of lem:weighted_chisquare (app:stopped-stochastic-control)."""

_R = "real"

STEPS = {
    "lem:weighted_chisquare/b01/s01": dict(
        hash="0a3ad0cf5a91",
        method="symbolic",
        symbols={"a1": _R, "a2": _R, "z11": _R, "z12": _R, "z21": _R, "z22": _R},
        lhs="a1*((z11**2 + z12**2) - 2) + a2*((z21**2 + z22**2) - 2)",
        rhs="a1*(z11**2 - 1) + a1*(z12**2 - 1) + a2*(z21**2 - 1) + a2*(z22**2 - 1)",
        hypotheses="an instance m = 2, d = 2",
    ),
    "lem:weighted_chisquare/b02/s01": dict(
        hash="011676605cfa",
        method="cited",
        via="certified",
        cite="the Laurent-Massart bound for weighted chi-square sums",
        symbols={"y": _R},
        domain={"y": ["0", "8"]},
        lhs="2*Phi(-sqrt(1 + 2*y + 2*y**2))",
        rhs="exp(-y**2)",
        hypotheses="an instance: m = d = 1, a_1 = 1: P(Z^2 - 1 >= 2 sqrt(x) + 2x) = "
        "2 Phi(-sqrt(1 + 2 sqrt(x) + 2x)) <= e^-x, x = y^2 in [0, 64]",
        note="beyond x = 64 both sides are below 1e-27 and the Gaussian tail "
        "2 Phi(-t) <= exp(-t^2/2) with t^2/2 = 1/2 + y + y^2 > y^2 keeps the order",
    ),
    "lem:weighted_chisquare/b03/s01": dict(
        hash="2fab099849ca",
        method="symbolic",
        symbols={
            "s": "positive_integer",
            "j": "positive_integer",
            "m": "positive_integer",
            "d": "positive_integer",
        },
        defs={"a": "Function('a')"},
        lhs="Sum(Sum(a(s)**2, (j, 1, d)), (s, 1, m)).doit()",
        rhs="d*Sum(a(s)**2, (s, 1, m))",
    ),
}
