"""Transcriptions of the proof of cor:local_stability (app:local_stability).

Geometry as in prop_local_jacobian (d = 3, v* a generic unit vector of a plane, e1, e2 the
tangent basis). A unit vector v with (v*)^T v > 0 (the neighbourhood of v* the proof works in)
is v = (v* + w)/sqrt(1 + |w|^2) with w = w1 e1 + w2 e2 tangent: every such v is of this form.
Order terms o(.) are instantiated with explicit powers (``dd`` = ||Delta||^2), and cited bounds
enter through nonnegative slacks (see thm_regret_rate).
"""

_R = "real"
_P = "positive"
_NN = "nonnegative"
_GEOM = {
    "vs": "Matrix([2*k, 1 - k**2, 0])/(1 + k**2)",
    "e1": "Matrix([1 - k**2, -2*k, 0])/(1 + k**2)",
    "e2": "Matrix([0, 0, 1])",
    "Pp": "eye(3) - vs*vs.T",
    "w": "w1*e1 + w2*e2",
    "v": "(vs + w)/sqrt(1 + w1**2 + w2**2)",
    "Dl": "v - vs",
    "u": "Pp*Dl",
    "X": "Matrix([x1, x2, x3])",
}
_GS = {"k": _R, "w1": _R, "w2": _R, "x1": _R, "x2": _R, "x3": _R}
_DD = {"dd": _P}
_SEQ = {"dd": ["1/100", "1/10000", "1/1000000", "1/100000000", "1/10000000000",
               "1/1000000000000"]}

STEPS = {
    "cor:local_stability/b01/s01": dict(
        hash="46e80a356643", method="cited",
        via="symbolic", cite="prop:local_jacobian (eq:Jacobian)",
        symbols={"k": _R, "m": _R, "nu": _P, "s1": _R, "s2": _R, "D": _P, "mu": _R, "m2": _R},
        defs={**_GEOM, "cw": "(1 - m**2)/(1 + m**2)", "sw": "2*m/(1 + m**2)",
              "uu": "nu*(cw*e1 + sw*e2)", "th": "s1*e1 + s2*e2"},
        lhs="uu.dot(-D*mu*uu + 2*phi(0)*m2*th*th.dot(uu))",
        rhs="-D*mu*uu.dot(uu) + 2*phi(0)*m2*th.dot(uu)**2"),
    "cor:local_stability/b01/s02": dict(
        hash="7903c856fc4a", method="symbolic",
        symbols={"D": _P, "mu": _R, "m2": _R, "t": _R, "nu2": _NN},
        lhs="-D*mu*nu2 + 2*phi(0)*m2*t**2", rhs="-D*mu*nu2 + 2*phi(0)*Max(m2, 0)*t**2",
        hypotheses="t = theta^T u, nu2 = ||u||^2"),
    "cor:local_stability/b02/s01": dict(
        hash="5c80d2403498", method="symbolic",
        symbols={"k": _R, "m": _R, "nu": _P, "s1": _R, "s2": _R},
        defs={**_GEOM, "cw": "(1 - m**2)/(1 + m**2)", "sw": "2*m/(1 + m**2)",
              "uu": "nu*(cw*e1 + sw*e2)", "th": "s1*e1 + s2*e2"},
        lhs="th.dot(uu)**2", rhs="th.dot(th)*uu.dot(uu)",
        hypotheses="theta and u tangent at v* (a two-dimensional tangent space here)",
        note="Cauchy-Schwarz for tangent vectors of the d = 3 instance"),
    "cor:local_stability/b02/s02": dict(
        hash="edd86433543d", method="symbolic",
        symbols={"k": _R, "m": _R, "nu": _P, "a": _R, "y": _P},
        defs={**_GEOM, "cw": "(1 - m**2)/(1 + m**2)", "sw": "2*m/(1 + m**2)",
              "ca": "(1 - a**2)/(1 + a**2)", "sa": "2*a/(1 + a**2)", "D": "2*y/(1 + y)",
              "uu": "nu*(cw*e1 + sw*e2)", "th": "sqrt(1 - D**2/4)*(ca*e1 + sa*e2)"},
        lhs="th.dot(th)*uu.dot(uu)", rhs="(1 - D**2/4)*uu.dot(uu)",
        hypotheses="||theta||^2 = 1 - D^2/4, 0 < D < 2"),
    "cor:local_stability/b03/s01": dict(
        hash="55efc229155b", method="symbolic",
        symbols={"D": _P, "mu": _R, "m2p": _NN, "nu2": _NN, "s": _NN, "y": _P},
        defs={"Dd": "2*y/(1 + y)"},
        lhs="-Dd*mu*nu2 + 2*phi(0)*m2p*((1 - Dd**2/4)*nu2 - s)",
        rhs="-(Dd*mu - 2*phi(0)*m2p*(1 - Dd**2/4))*nu2",
        hypotheses="b01 and b02: (theta^T u)^2 = (1 - D^2/4)||u||^2 - s, s >= 0; "
                   "m2p = (m_2)_+ >= 0"),
    "cor:local_stability/b03/s02": dict(
        hash="aad5c11b56d8", method="cited", via="symbolic", cite="eq:decision_stability",
        symbols={"D": _P, "mu": _R, "m2p": _NN, "nu2": _NN},
        defs={"lam": "D*mu - 2*phi(0)*m2p*(1 - D**2/4)"},
        lhs="-(D*mu - 2*phi(0)*m2p*(1 - D**2/4))*nu2", rhs="-lam*nu2"),
    "cor:local_stability/b04/s01": dict(
        hash="fee8c81d02be", method="symbolic", symbols=_GS, defs=_GEOM,
        lhs="Dl", rhs="u + vs.dot(Dl)*vs", hypotheses="u = P^perp Delta, ||v*|| = 1"),
    "cor:local_stability/b04/s02": dict(
        hash="079f860214ee", method="symbolic", rel="=", symbols=_GS, defs=_GEOM,
        lhs="vs.dot(Pp*Dl)", rhs="0",
        hypotheses="||v*|| = 1; T_{v*} S^{d-1} = {u : (v*)^T u = 0} (prop:local_jacobian's "
                   "proof, b03)",
        note="the '=' names u (P^perp Delta, used in b04/s01); what the step asserts is "
             "u in T_{v*} S^{d-1}, i.e. (v*)^T P^perp Delta = 0: that is checked"),
    "cor:local_stability/b05/s01": dict(
        hash="01dc9a2e21ed", method="symbolic", symbols=_GS, defs=_GEOM,
        lhs="vs.dot(Dl)", rhs="vs.dot(v - vs)"),
    "cor:local_stability/b05/s02": dict(
        hash="5d5ac00882d6", method="symbolic", symbols=_GS, defs=_GEOM,
        lhs="vs.dot(v - vs)", rhs="v.dot(vs) - 1"),
    "cor:local_stability/b05/s03": dict(
        hash="0944a6fb4b2f", method="symbolic", symbols=_GS, defs=_GEOM,
        lhs="v.dot(vs) - 1", rhs="-Dl.dot(Dl)/2", hypotheses="||v|| = ||v*|| = 1"),
    "cor:local_stability/b06/s01": dict(
        hash="508aea3cafb2", method="symbolic", symbols=_GS, defs=_GEOM,
        lhs="Dl", rhs="u - Dl.dot(Dl)/2*vs"),
    "cor:local_stability/b07/s01": dict(
        hash="80e84c87323e", method="symbolic", symbols=_GS, defs=_GEOM,
        lhs="Dl.dot(Dl)", rhs="u.dot(u) + Dl.dot(Dl)**2/4"),
    "cor:local_stability/b07/s02": dict(
        hash="0d08c09d6bdf", method="symbolic", symbols=_GS, defs=_GEOM,
        lhs="u.dot(u)", rhs="Dl.dot(Dl) - Dl.dot(Dl)**2/4"),
    "cor:local_stability/b08/s01": dict(
        hash="026f0ca7cbca", method="symbolic", symbols=_DD, modulo=["dd", 1],
        lhs="dd - dd**2/4", rhs="dd",
        hypotheses="||u||^2 = ||Delta||^2 - ||Delta||^4/4 (b07), dd = ||Delta||^2 -> 0",
        note="equality up to o(dd)"),
    "cor:local_stability/b09/s01": dict(
        hash="117603d3e76b", method="prose", note="defines q(w)"),
    "cor:local_stability/b10/s01": dict(
        hash="88c7e2ffef07", method="symbolic", symbols={**_GS, "a1": _R, "a2": _R},
        defs={**_GEOM, "ww": "a1*e1 + a2*e2", "q": "sqrt(1 - a1**2 - a2**2)*vs + ww"},
        lhs="q.dot(X)", rhs="sqrt(1 - a1**2 - a2**2)*vs.dot(X) + ww.dot(Pp*X)",
        hypotheses="w tangent, ||w|| < 1, Z = (v*)^T X"),
    "cor:local_stability/b11/s01": dict(
        hash="651431206f41", method="prose",
        note="the event {q(w)^T X >= 0}; rewritten in b11/s02"),
    "cor:local_stability/b11/s02": dict(
        hash="09f3d3e27508", method="symbolic", rel="=", symbols={**_GS, "a1": _R, "a2": _R},
        defs={**_GEOM, "ww": "a1*e1 + a2*e2", "q": "sqrt(1 - a1**2 - a2**2)*vs + ww"},
        lhs="q.dot(X)",
        rhs="sqrt(1 - a1**2 - a2**2)*(vs.dot(X) + ww.dot(Pp*X)/sqrt(1 - a1**2 - a2**2))",
        hypotheses="||w|| < 1, so sqrt(1 - ||w||^2) > 0",
        note="the two events are equal because q(w)^T X is sqrt(1 - ||w||^2) > 0 times "
             "(Z + w^T P X / sqrt(1 - ||w||^2)): that identity is checked"),
    "cor:local_stability/b12/s01": dict(
        hash="31dd39988664", method="symbolic", symbols=_GS, defs=_GEOM,
        lhs="v", rhs="sqrt(1 - u.dot(u))*vs + u",
        hypotheses="||v|| = 1 and (v*)^T v > 0 (v near v*)"),
    "cor:local_stability/b12/s02": dict(
        hash="d2a4e7b34c5c", method="symbolic",
        symbols=_GS, defs={**_GEOM, "q": "sqrt(1 - u.dot(u))*vs + u"},
        lhs="sqrt(1 - u.dot(u))*vs + u", rhs="q", note="the definition of q applied to u"),
    "cor:local_stability/b13/s01": dict(
        hash="7422805d7906", method="prose", note="defines r(v)"),
    "cor:local_stability/b13/s02": dict(
        hash="6a3e882ed2d6", method="cited", via="symbolic",
        cite="prop:local_jacobian (eq:Jacobian), for the identity link g(z) = z",
        symbols={"k": _R, "w1": _R, "w2": _R, "eps": _P, "D": _P},
        defs={**_GEOM, "we": "eps*(w1*e1 + w2*e2)", "ve": "(vs + we)/sqrt(1 + we.dot(we))",
              "ue": "Pp*(ve - vs)", "mu": "Rational(1, 2)", "m2": "0",
              "h": "D/2*(vs - ve.dot(vs)*ve)",
              "Dh": "-D*mu*ue + 2*phi(0)*m2*ue"},
        lhs="h - Dh", rhs="zeros(3, 1)", modulo=["eps", 1],
        hypotheses="an instance in which h is explicit: the identity link g(z) = z (strictly "
                   "increasing, of polynomial growth), for which E[X X^T 1{v^T X >= 0}] = I/2 "
                   "(X and -X have the same law) gives F(v) = (beta_+ - beta_-)/2 = (D/2) v*, "
                   "h(v) = P_v^perp F(v); mu* = P(Z > 0) = 1/2 and m_2 = E g'' = 0, so "
                   "eq:Jacobian gives Dh(v*)[u] = -(D/2) u; v = (v* + w)/sqrt(1 + |w|^2) with "
                   "w = eps (w1 e1 + w2 e2) tangent and u = P^perp (v - v*)",
        note="r(v) = h(v) - Dh(v*)[u] (b13/s01) is o(eps) as eps -> 0+ while ||u|| = "
             "eps |w|/sqrt(1 + eps^2 |w|^2) is of order eps, so ||r(v)|| = o(||u||) on every "
             "path into v* (w1, w2 free); for a general link the step is the differentiability "
             "of h at v* that prop:local_jacobian's proof establishes"),
    "cor:local_stability/b14/s01": dict(
        hash="7422805d7906", method="cited", via="symbolic",
        cite="eq:app-h-local-expansion-u (b13: r(v) = h(v) - Dh(v*)[u])",
        symbols={"h1": _R, "h2": _R, "h3": _R, "A1": _R, "A2": _R, "A3": _R},
        defs={"hv": "Matrix([h1, h2, h3])", "Dh": "Matrix([A1, A2, A3])", "rv": "hv - Dh"},
        lhs="hv", rhs="Dh + rv",
        hypotheses="r(v) is b13's remainder (defined there by h(v) = Dh(v*)[u] + r(v)); h(v), "
                   "Dh(v*)[u] any vectors (d = 3)",
        note="the same expansion with the same r, now with ||r|| = o(||Delta||) (b14/s02): the "
             "relation holds by b13's definition of r, which is what is checked"),
    "cor:local_stability/b14/s02": dict(
        hash="927cbdeb2d9c", method="symbolic", rel="<=", symbols=_DD,
        lhs="dd - dd**2/4", rhs="dd",
        hypotheses="||u||^2 = ||Delta||^2 - ||Delta||^4/4 (b07)",
        note="o(||u||) is o(||Delta||) because ||u|| <= ||Delta||: that inequality is checked"),
    "cor:local_stability/b15/s01": dict(
        hash="f89bdaaa4e3c", method="symbolic",
        symbols={**_GS, "A1": _R, "A2": _R, "A3": _R, "r1": _R, "r2": _R, "r3": _R},
        defs={**_GEOM, "Dh": "Matrix([A1, A2, A3])", "rv": "Matrix([r1, r2, r3])"},
        lhs="Dl.dot(Dh + rv)", rhs="(u - Dl.dot(Dl)/2*vs).dot(Dh + rv)",
        hypotheses="b06 and b13 substituted (Dh(v*)[u], r(v) any vectors)"),
    "cor:local_stability/b15/s02": dict(
        hash="a8c011b4aaf5", method="symbolic",
        symbols={**_GS, "A1": _R, "A2": _R, "A3": _R, "r1": _R, "r2": _R, "r3": _R},
        defs={**_GEOM, "Dh": "Matrix([A1, A2, A3])", "rv": "Matrix([r1, r2, r3])"},
        lhs="(u - Dl.dot(Dl)/2*vs).dot(Dh + rv)",
        rhs="u.dot(Dh) + u.dot(rv) - Dl.dot(Dl)/2*vs.dot(Dh) - Dl.dot(Dl)/2*vs.dot(rv)"),
    "cor:local_stability/b16/s01": dict(
        hash="12853130c201", method="symbolic", rel="<=",
        symbols={"u1": _R, "u2": _R, "r1": _R, "r2": _R},
        lhs="(u1*r1 + u2*r2)**2", rhs="(u1**2 + u2**2)*(r1**2 + r2**2)",
        note="Cauchy-Schwarz, squared (both sides of |a| <= b are >= 0), for the components "
             "in the plane spanned by u and r(v): any two vectors lie in a plane"),
    "cor:local_stability/b16/s02": dict(
        hash="12ed422d1cae", method="asymptotic", symbols=_DD, sequence=_SEQ, rel="lesssim",
        lhs="sqrt(dd)*dd**Rational(3, 4)", rhs="dd",
        hypotheses="||u|| <= ||Delta|| = sqrt(dd); an instance ||r(v)|| = ||Delta||^(3/2) "
                   "of o(||Delta||)",
        note="the ratio to ||Delta||^2 stays bounded (it tends to 0) along dd -> 0"),
    "cor:local_stability/b17/s01": dict(
        hash="b80ca21c9f21", method="symbolic", rel="<=",
        symbols={"C": _NN, "dd": _NN, "y": _R}, defs={"x": "2*y/(1 + y**2)"},
        lhs="(dd/2*C*sqrt(dd)*x)**2", rhs="(C/2*dd**Rational(3, 2))**2",
        hypotheses="||Dh(v*)[u]|| <= C||u|| <= C||Delta||, so <v*, Dh(v*)[u]> = C sqrt(dd) x "
                   "with |x| <= 1 (x = 2y/(1 + y^2) covers [-1, 1]); dd = ||Delta||^2",
        note="squared (both sides nonnegative)"),
    "cor:local_stability/b17/s02": dict(
        hash="a3bb0d202cf1", method="asymptotic",
        symbols={**_DD, "C": _P}, sequence=_SEQ, rel="lesssim",
        defs={"C0": "3"}, lhs="C0/2*dd**Rational(3, 2)", rhs="dd",
        note="C = 3; the ratio to ||Delta||^2 tends to 0"),
    "cor:local_stability/b18/s01": dict(
        hash="be8ec0ab5b97", method="symbolic", rel="<=",
        symbols={"k": _R, "a": _R, "b": _R, "c": _R, "dd": _P},
        defs={**_GEOM, "rv": "a*vs + b*e1 + c*e2"},
        lhs="(dd/2*vs.dot(rv))**2", rhs="(dd/2)**2*rv.dot(rv)",
        note="squared (both sides nonnegative); ||v*|| = 1; r(v) written in the orthonormal "
             "basis v*, e1, e2 (every vector is)"),
    "cor:local_stability/b18/s02": dict(
        hash="9f60d7e6ccdc", method="asymptotic", symbols=_DD, sequence=_SEQ, rel="lesssim",
        lhs="dd/2*dd**Rational(3, 4)", rhs="dd",
        hypotheses="an instance ||r(v)|| = ||Delta||^(3/2) of o(||Delta||)"),
    "cor:local_stability/b19/s01": dict(
        hash="a580247b6ce9", method="symbolic",
        symbols={**_DD, "A": _R, "c1": _R, "c2": _R, "c3": _R},
        modulo=["dd", 1],
        lhs="A + c1*dd**Rational(5, 4) + c2*dd**Rational(3, 2) + c3*dd**Rational(7, 4)",
        rhs="A",
        hypotheses="b15 with the three remainders of b16-b18, instanced as c dd^(5/4), "
                   "c dd^(3/2), c dd^(7/4) (all o(dd))"),
    "cor:local_stability/b20/s01": dict(
        hash="022c72468660", method="symbolic",
        symbols={"lam": _R, "nu2": _NN, "o": _R, "s": _NN},
        lhs="(-lam*nu2 - s) + o", rhs="-lam*nu2 + o",
        hypotheses="b19 with b03: <u, Dh(v*)[u]> = -lambda* ||u||^2 - s"),
    "cor:local_stability/b20/s02": dict(
        hash="458b024dabe2", method="symbolic", symbols={**_DD, "lam": _R}, modulo=["dd", 1],
        lhs="-lam*(dd - dd**2/4)", rhs="-lam*dd", hypotheses="||u||^2 = dd - dd^2/4 (b07)"),
    "cor:local_stability/b21/s01": dict(
        hash="9985457ec863", method="cited", via="symbolic",
        cite="b20 (this proof's bound on <Delta, h(v)>) with Delta = v - v*",
        symbols={**_GS, "lam": _R, "o": _R, "s": _NN}, defs=_GEOM,
        lhs="-lam*Dl.dot(Dl) + o - s", rhs="-lam*(v - vs).dot(v - vs) + o",
        hypotheses="b20: <Delta, h(v)> = -lambda* ||Delta||^2 + o - s with a slack s >= 0 "
                   "(o the o(||Delta||^2) term); Delta = v - v*",
        note="'Equivalently': b20 rewritten with Delta = v - v*; the o(.) term is the same "
             "quantity o on both sides"),
    "cor:local_stability/b22/s01": dict(
        hash="0e1ed6daddf4", method="symbolic", symbols={"lam": _P, "p": _NN},
        defs={"dd": "(lam/2)**4/(1 + p)**4"},
        lhs="Abs(dd**Rational(5, 4))", rhs="lam/2*dd",
        hypotheses="an instance o(dd) = dd^(5/4), on the neighbourhood dd <= (lambda*/2)^4 "
                   "(dd = (lambda*/2)^4/(1 + p)^4, p >= 0)"),
    "cor:local_stability/b23/s01": dict(
        hash="29874b3c99f0", method="symbolic", symbols={"lam": _P, "dd": _NN, "p": _NN, "s": _NN},
        defs={"o": "lam/2*dd*(2/(1 + p) - 1)"},
        lhs="-lam*dd + o - s", rhs="-lam/2*dd",
        hypotheses="b21 (slack s >= 0) with |o| <= (lambda*/2) dd (b22): o = (lambda*/2) dd "
                   "(2w - 1), w = 1/(1 + p) in (0, 1]"),
}
