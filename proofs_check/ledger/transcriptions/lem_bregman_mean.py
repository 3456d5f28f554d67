"""Transcriptions of the proof of lem:bregman_mean (app:bregman_mean): the law F is a
three-point instance (values y1, y2, y3 with probabilities q1, q2, 1 - q1 - q2) and phi a
generic differentiable function (its derivative phi' is written as a second generic function
dphi_: the identities use phi' only through its values);
ell_phi(r, y) = phi(y) - phi(r) - phi'(r)(y - r) (eq:app_bregman_loss)."""

_R = "real"
_DEFS = {
    "ph": "Function('phi_')",
    "dph": "Function('dphi_')",
    "ell": "Lambda((Symbol('a'), Symbol('b')), ph(Symbol('b')) - ph(Symbol('a')) - "
    "dph(Symbol('a'))*(Symbol('b') - Symbol('a')))",
    "q3": "1 - q1 - q2",
    "muF": "q1*y1 + q2*y2 + q3*y3",
}
_SYM = {"r": _R, "y1": _R, "y2": _R, "y3": _R, "q1": _R, "q2": _R}

STEPS = {
    "lem:bregman_mean/b01/s01": dict(
        hash="6f34a02c8f60",
        method="symbolic",
        symbols=_SYM,
        defs=_DEFS,
        lhs="q1*ell(r, y1) + q2*ell(r, y2) + q3*ell(r, y3)",
        rhs="(q1*ph(y1) + q2*ph(y2) + q3*ph(y3)) - ph(r) - dph(r)*(muF - r)",
        hypotheses="E_F over a three-point law (linearity of E)",
    ),
    "lem:bregman_mean/b02/s01": dict(
        hash="de6d2a11dc4e",
        method="symbolic",
        symbols=_SYM,
        defs=_DEFS,
        lhs="(q1*ell(r, y1) + q2*ell(r, y2) + q3*ell(r, y3)) - "
        "(q1*ell(muF, y1) + q2*ell(muF, y2) + q3*ell(muF, y3))",
        rhs="ph(muF) - ph(r) - dph(r)*(muF - r)",
    ),
    "lem:bregman_mean/b02/s02": dict(
        hash="ab322bd8a335",
        method="symbolic",
        symbols=_SYM,
        defs=_DEFS,
        lhs="ph(muF) - ph(r) - dph(r)*(muF - r)",
        rhs="ell(r, muF)",
        note="eq:app_bregman_loss at y = mu_F",
    ),
}
