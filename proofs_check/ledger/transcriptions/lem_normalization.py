"""Transcriptions of the proof of lem:normalization (app:stochastic_analysis): d = 3, x = r a
with a and u generic unit vectors (inverse stereographic coordinates), r = ||x|| >= 1."""

_R = "real"
_DEFS = {
    "a": "Matrix([2*a1, 2*a2, 1 - a1**2 - a2**2])/(1 + a1**2 + a2**2)",
    "u": "Matrix([2*c1, 2*c2, 1 - c1**2 - c2**2])/(1 + c1**2 + c2**2)",
    "x": "r*a",
    "d": "x/r - u",
    "e": "x - u",
}
_SYM = {"a1": _R, "a2": _R, "c1": _R, "c2": _R, "r": "positive"}

STEPS = {
    "lem:normalization/b01/s01": dict(
        hash="3600bb74c193",
        method="symbolic",
        symbols=_SYM,
        defs=_DEFS,
        lhs="d.dot(d)",
        rhs="2 - 2*x.dot(u)/r",
        hypotheses="||u|| = 1, r = ||x||",
    ),
    "lem:normalization/b01/s02": dict(
        hash="cd9c90c01871",
        method="symbolic",
        symbols=_SYM,
        defs=_DEFS,
        lhs="e.dot(e)",
        rhs="r**2 + 1 - 2*x.dot(u)",
    ),
    "lem:normalization/b02/s01": dict(
        hash="c1f2ae6bb727",
        method="symbolic",
        symbols=_SYM,
        defs=_DEFS,
        lhs="e.dot(e) - d.dot(d)",
        rhs="r**2 - 1 - 2*x.dot(u)*(1 - 1/r)",
    ),
    "lem:normalization/b02/s02": dict(
        hash="095dfeb2702c",
        method="symbolic",
        symbols=_SYM,
        defs=_DEFS,
        lhs="r**2 - 1 - 2*x.dot(u)*(1 - 1/r)",
        rhs="(r - 1)*(r + 1 - 2*x.dot(u)/r)",
    ),
}
