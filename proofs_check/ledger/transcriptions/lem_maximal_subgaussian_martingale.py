"""Transcriptions of the proof of lem:maximal-subgaussian-martingale
(app:stopped-stochastic-control).

A conditional expectation given H_{t-1} is written on a generic two-point conditional law of
D_t (mass p at D = a, 1 - p at D = c; L_{t-1} and sigma_t are H_{t-1}-measurable, so they are
constants there); a bound the step uses enters through a nonnegative slack."""

_POS = "positive"
_NN = "nonnegative"
_R = "real"

STEPS = {
    "lem:maximal-subgaussian-martingale/b01/s01": dict(
        hash="b1e74b14150c", method="prose", note="defines S_t"
    ),
    "lem:maximal-subgaussian-martingale/b01/s02": dict(
        hash="eb823b34b8fb", method="prose", note="defines V_t"
    ),
    "lem:maximal-subgaussian-martingale/b02/s01": dict(
        hash="f8140de27ba8", method="prose", note="defines L_t(lambda)"
    ),
    "lem:maximal-subgaussian-martingale/b03/s01": dict(
        hash="a10f2fd96b83",
        method="symbolic",
        symbols={"lam": _POS, "S1": _R, "V1": _NN, "D": _R, "sig": _NN},
        defs={"L1": "exp(lam*S1 - lam**2/2*V1)", "S": "S1 + D", "V": "V1 + sig**2"},
        lhs="exp(lam*S - lam**2/2*V)",
        rhs="L1*exp(lam*D - lam**2/2*sig**2)",
        hypotheses="S_t = S_{t-1} + D_t, V_t = V_{t-1} + sigma_t^2",
    ),
    "lem:maximal-subgaussian-martingale/b04/s01": dict(
        hash="0b2d2903b1c5",
        method="symbolic",
        symbols={"lam": _POS, "L1": _NN, "sig": _NN, "a": _R, "c": _R, "q": _NN},
        defs={"p": "1/(1 + q)", "f": "Lambda(x, L1*exp(lam*x - lam**2/2*sig**2))"},
        lhs="p*f(a) + (1 - p)*f(c)",
        rhs="L1*exp(-lam**2*sig**2/2)*(p*exp(lam*a) + (1 - p)*exp(lam*c))",
        hypotheses="L_{t-1}, sigma_t H_{t-1}-measurable; the conditional law of D_t a "
        "two-point law (p at a, 1 - p at c)",
        note="taking out what is known: an instance of E[g Y | H] = g E[Y | H] for H-measurable g",
    ),
    "lem:maximal-subgaussian-martingale/b04/s02": dict(
        hash="51f00e37272b",
        method="cited",
        via="symbolic",
        cite="the lemma's conditional MGF assumption E[exp(lambda D_s) | H_{s-1}] <= "
        "exp(lambda^2 sigma_s^2/2)",
        symbols={"lam": _POS, "L1": _NN, "sig": _NN, "s": _NN},
        lhs="L1*exp(-lam**2*sig**2/2)*(exp(lam**2*sig**2/2) - s)",
        rhs="L1",
        hypotheses="E[e^{lambda D_t} | H_{t-1}] = exp(lambda^2 sigma_t^2/2) - s, s >= 0; "
        "L_{t-1} >= 0",
    ),
    "lem:maximal-subgaussian-martingale/b05/s01": dict(
        hash="38c9abf5339c",
        method="cited",
        via="symbolic",
        cite="Ville's inequality P(max_t L_t >= u) <= E[L_0]/u for a nonnegative supermartingale",
        symbols={"lam": _POS, "u": _POS, "s": _NN},
        defs={"L0": "exp(lam*0 - lam**2/2*0)"},
        lhs="L0/u - s",
        rhs="1/u",
        hypotheses="L_0(lambda) = exp(lambda S_0 - lambda^2 V_0/2) with S_0 = V_0 = 0 (empty "
        "sums); u > 0",
        note="the instance checks L_0 = 1 from the definition",
    ),
    "lem:maximal-subgaussian-martingale/b05/s02": dict(
        hash="279229f95a4d", method="prose", note="the range u > 0 of b05/s01"
    ),
    "lem:maximal-subgaussian-martingale/b06/s01": dict(
        hash="7c31d84c614c",
        method="symbolic",
        symbols={"lam": _POS, "S": _R, "V": _NN},
        defs={"L": "Lambda((s_, v_), exp(lam*s_ - lam**2/2*v_))"},
        lhs="L(S, V)",
        rhs="exp(lam*S - lam**2/2*V)",
        note="the definition of L at t*",
    ),
    "lem:maximal-subgaussian-martingale/b06/s02": dict(
        hash="af49ee9fe2fe",
        method="symbolic",
        symbols={"lam": _POS, "x": _POS, "a": _NN, "V": _NN, "b": _NN},
        defs={"S": "x + a", "V_T": "V + b"},
        lhs="exp(lam*S - lam**2/2*V)",
        rhs="exp(lam*x - lam**2/2*V_T)",
        hypotheses="S_{t*} >= x (S = x + a), V_{t*} <= V_T (V_T = V + b, sigma^2 >= 0), lambda > 0",
    ),
    "lem:maximal-subgaussian-martingale/b08/s01": dict(
        hash="1954b5bf49d0",
        method="cited",
        via="symbolic",
        cite="Ville's inequality (b05) at u = exp(lambda x - lambda^2 V_T/2)",
        symbols={"lam": _POS, "x": _POS, "V": _NN, "s1": _NN, "s2": _NN},
        defs={"u": "exp(lam*x - lam**2/2*V)"},
        lhs="(1/u - s1) - s2",
        rhs="exp(-lam*x + lam**2/2*V)",
        hypotheses="the inclusion b07: P(max S >= x) = P(max L >= u) - s2; b05: "
        "P(max L >= u) = 1/u - s1",
    ),
    "lem:maximal-subgaussian-martingale/b09/s01": dict(
        hash="cc6414285a80",
        method="symbolic",
        symbols={"x": _POS, "V": _POS, "s": _NN},
        defs={"lam": "x/V"},
        lhs="exp(-lam*x + lam**2/2*V) - s",
        rhs="exp(-x**2/(2*V))",
        hypotheses="V_T > 0; b08 at lambda = x/V_T (slack s >= 0)",
        note="the case V_T = 0 is argued in prose (D_s = 0 a.s.)",
    ),
}
