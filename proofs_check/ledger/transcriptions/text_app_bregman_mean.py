"""Transcriptions of the derivations of app:bregman_mean outside proofs. The potential is a
generic smooth function ``vp = Function('vp')`` (phi in the paper; ``phi`` is the normal
density in the ledger's namespace)."""

_R = "real"

STEPS = {
    "text:app:bregman_mean/b01/s01": dict(
        hash="0f07f0fa9401", method="prose", note="a definition: strict consistency of a loss for T"
    ),
    "text:app:bregman_mean/b02/s01": dict(
        hash="339cbc293a28",
        method="cited",
        via="symbolic",
        cite="eq:Bregman_loss",
        symbols={"r": _R, "y": _R},
        defs={"vp": "Function('vp')"},
        lhs="vp(y) - vp(r) - diff(vp(r), r)*(y - r)",
        rhs="vp(y) - vp(r) - diff(vp(r), r)*(y - r)",
        hypotheses="the main text's Bregman loss eq:Bregman_loss (lhs) against the one printed "
        "here, eq:app_bregman_loss (rhs); any differentiable phi",
        note="a restatement of the main text's definition, checked against it",
    ),
    "text:app:bregman_mean/b03/s01": dict(
        hash="b6375fe4170e",
        method="symbolic",
        symbols={"r": _R, "y": _R},
        defs={"vp": "Function('vp')", "ell": "vp(y) - vp(r) - diff(vp(r), r)*(y - r)"},
        lhs="diff(ell, r)",
        rhs="diff(vp(r), r, 2)*(r - y)",
        hypotheses="phi twice continuously differentiable, w(r) = phi''(r)",
    ),
    "text:app:bregman_mean/b04/s01": dict(
        hash="2e714c05866c",
        method="cited",
        via="symbolic",
        cite="Taylor's theorem (second order)",
        symbols={"r": _R, "eps": _R},
        defs={
            "vp": "Lambda(Symbol('x'), exp(Symbol('x')) + Symbol('x')**4)",
            "vp1": "Lambda(Symbol('x'), exp(Symbol('x')) + 4*Symbol('x')**3)",
            "w": "Lambda(Symbol('x'), exp(Symbol('x')) + 12*Symbol('x')**2)",
            "y": "r + eps",
        },
        lhs="vp(y) - vp(r) - vp1(r)*(y - r)",
        rhs="Rational(1, 2)*w(r)*(y - r)**2",
        modulo=["eps", 2],
        hypotheses="an instance: the strictly convex potential phi(x) = e^x + x^4 (w = "
        "phi'' = e^x + 12 x^2 > 0); y = r + eps, eps -> 0",
        note="equality up to o(eps^2)",
    ),
}
