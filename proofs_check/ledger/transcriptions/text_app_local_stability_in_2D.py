"""Transcriptions of the derivations of app:local_stability_in_2D outside proofs (d = 2,
v* = e1, v(alpha) = (cos alpha, sin alpha); F(v) = (f1, f2) any vector)."""

_R = "real"
_GEOM = {
    "v": "Matrix([cos(al), sin(al)])",
    "vp": "Matrix([-sin(al), cos(al)])",
    "F": "Matrix([f1, f2])",
    "h": "(eye(2) - v*v.T)*F",
}
_SYM = {"al": _R, "f1": _R, "f2": _R, "H": _R}

STEPS = {
    "text:app:local_stability_in_2D/b01/s01": dict(
        hash="26f63ed54dc9", method="prose", note="a definition: the unit tangent v_perp(alpha)"
    ),
    "text:app:local_stability_in_2D/b01/s02": dict(
        hash="6414b6d701a5",
        method="symbolic",
        symbols=_SYM,
        defs=_GEOM,
        lhs="vp",
        rhs="diff(v, al)",
    ),
    "text:app:local_stability_in_2D/b02/s01": dict(
        hash="e87d4683f33a",
        method="symbolic",
        symbols=_SYM,
        defs=_GEOM,
        lhs="h",
        rhs="vp.dot(F)*vp",
        hypotheses="h(v) = P_v^perp F(v); H(alpha) = v_perp^T F (b03), so the step is that "
        "h lies on the tangent line: P_v^perp F = (v_perp^T F) v_perp in d = 2",
    ),
    "text:app:local_stability_in_2D/b03/s01": dict(
        hash="a96cf40191ed",
        method="symbolic",
        symbols=_SYM,
        defs=_GEOM,
        lhs="H",
        rhs="vp.dot(H*vp)",
        hypotheses="h(v(alpha)) = H(alpha) v_perp(alpha) (eq:H-alpha); ||v_perp|| = 1",
    ),
    "text:app:local_stability_in_2D/b03/s02": dict(
        hash="6c09ebf6b650",
        method="symbolic",
        symbols=_SYM,
        defs=_GEOM,
        lhs="vp.dot(h)",
        rhs="vp.dot(F)",
        hypotheses="h(v) = P_v^perp F(v); v_perp orthogonal to v",
    ),
    "text:app:local_stability_in_2D/b04/s01": dict(
        hash="8db1922b8d97",
        method="prose",
        note="the restoring condition eq:2d-restoring-condition: a characterization (a "
        "definition of local attraction), not a derived relation; it is checked for the "
        "paper's links by cor:local_stability",
    ),
    "text:app:local_stability_in_2D/b04/s02": dict(
        hash="f561e9550cde",
        method="prose",
        note="the quantifier 'for all sufficiently small alpha != 0' (text the parser split "
        "at '\\neq')",
    ),
}
