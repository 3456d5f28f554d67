"""Transcriptions of app:tanh-geometry (outside proofs)."""

STEPS = {
    "text:app:tanh-geometry/b01/s01": dict(
        hash="92639992b32e",
        method="cited",
        via="symbolic",
        cite="the main text's two-transition family (sec:numerics)",
        symbols={
            "z": "real",
            "p0": "real",
            "a1": "real",
            "a2": "real",
            "b1": "real",
            "b2": "real",
            "mu1": "real",
            "mu2": "real",
        },
        lhs="p0 + a1*(1 + tanh(b1*(z - mu1))) + a2*(1 + tanh(b2*(z - mu2)))",
        rhs="p0 + a1*(1 + tanh(b1*(z - mu1))) + a2*(1 + tanh(b2*(z - mu2)))",
        hypotheses="the family of sec:numerics (lhs) against eq:link_tanh (rhs), every "
        "parameter free",
        note="a restatement of the main text's link family, checked against it (the "
        "parameter values after eq:link_tanh are text, not a relation step)",
    ),
}
