"""Transcriptions of the derivations of app:localized-estimation outside proofs."""

_P = "positive"
_NN = "nonnegative"

STEPS = {
    "text:app:localized-estimation/b01/s01": dict(
        hash="12883cb66e3d",
        method="cited",
        via="symbolic",
        cite="lem:local_one_step",
        symbols={"l0": _P, "eta": _P, "e": _NN, "B": _P, "d": _P, "s": _NN},
        lhs="(1 - 2*l0*eta)*e + B**2*d*eta**2 - s",
        rhs="(1 - 2*l0*eta)*e + B**2*d*eta**2",
        hypotheses="||v_{t-1} - v*|| <= r_0 (the lemma's condition); its bound with slack s >= 0",
    ),
    "text:app:localized-estimation/b02/s01": dict(
        hash="ca9f6f924889",
        method="symbolic",
        symbols={"l0": _P, "g": _P, "t": _P, "t0": _NN, "e": _NN, "B": _P, "d": _P},
        defs={"eta": "g/(t + t0)"},
        lhs="(1 - 2*l0*eta)*e + B**2*d*eta**2",
        rhs="(1 - 2*g*l0/(t + t0))*e + B**2*g**2*d/(t + t0)**2",
        hypotheses="eta_t = gamma/(t + t_0) substituted into b01 (whose left side is the same "
        "E[e_t | H_{t-1}])",
        note="the two right sides are equal, so the bound carries over",
    ),
}
