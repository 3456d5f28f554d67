"""Transcriptions of the proof of prop:localized-estimation (app:localized-estimation).
T = t + t_0, alpha = 2 gamma lambda_0; cited bounds enter through nonnegative slacks and
indicators through their values in [0, 1] (see thm_regret_rate)."""

_P = "positive"
_NN = "nonnegative"

STEPS = {
    "prop:localized-estimation/b01/s01": dict(
        hash="ba27004f15e9", method="cited", via="symbolic",
        cite="{tau > t} inside {tau >= t}, and the tower property",
        symbols={"e": _NN, "I2": _NN, "y": _NN},
        lhs="e*I2/(1 + y)", rhs="e*I2",
        hypotheses="1{tau > t} = 1{tau >= t}/(1 + y) <= 1{tau >= t}; e = e_t >= 0",
        note="pointwise, then E; E[e_t 1{tau >= t}] = E[1{tau >= t} E[e_t | H_{t-1}]] as "
             "{tau >= t} is H_{t-1}-measurable (the tower property, checked in "
             "thm:regret-rate/b03/s01)"),
    "prop:localized-estimation/b01/s02": dict(
        hash="eb3b8362946a", method="cited", via="symbolic",
        cite="eq:local-recursion-regret (lem:local_one_step with eta_t = gamma/(t + t_0))",
        symbols={"I": _NN, "e": _NN, "g": _P, "l0": _P, "T": _P, "B": _P, "d": _P, "s": _NN},
        lhs="I*((1 - 2*g*l0/T)*e + B**2*g**2*d/T**2 - s)",
        rhs="(1 - 2*g*l0/T)*e*I + B**2*g**2*d/T**2*I",
        hypotheses="on {tau >= t} (I = 1, else 0): E[e_t | H] = (1 - 2 lambda_0 eta) e_{t-1} "
                   "+ B_Y^2 d eta^2 - s, eta = gamma/T",
        note="pointwise in the indicator, then E"),
    "prop:localized-estimation/b02/s01": dict(
        hash="ccd6e00f0104", method="symbolic",
        symbols={"al": _P, "w": _NN, "a": _NN, "K": _NN, "y": _NN},
        defs={"T": "al + w"},
        lhs="(1 - al/T)*a + K/T**2/(1 + y)", rhs="(1 - al/T)*a + K/T**2",
        hypotheses="E[e_{t-1} 1{tau >= t}] = a_{t-1} ({tau >= t} = {tau > t - 1}); "
                   "P(tau >= t) = 1/(1 + y) <= 1; alpha = 2 gamma lambda_0 <= T (T = alpha + w); "
                   "K = B_Y^2 gamma^2 d"),
    "prop:localized-estimation/b03/s01": dict(
        hash="2991954c5d7e", method="prose", note="defines C (lem:sa-recursion's constant)"),
    "prop:localized-estimation/b04/s01": dict(
        hash="a269dba476bd", method="cited", via="symbolic", cite="prop:randomized_initialization",
        symbols={"X": _NN, "s": _NN}, lhs="X - s", rhs="X",
        hypotheses="a_{n_0} <= E[e_{n_0}] = X - s with X = C'_init B_Y^2 d/(D^2 mu_g^2 n_0) "
                   "(the proposition's expectation bound)"),
    "prop:localized-estimation/b05/s01": dict(
        hash="dd6a08a510c4", method="symbolic",
        symbols={"Ci": _P, "B": _P, "d": _P, "D": _P, "mug": _P, "n0": _P, "t0": _NN,
                 "s": _NN},
        lhs="(n0 + t0)*(Ci*B**2*d/(D**2*mug**2*n0) - s)",
        rhs="Ci*B**2*d/(D**2*mug**2)*(n0 + t0)/n0", hypotheses="b04 times n_0 + t_0 > 0"),
    "prop:localized-estimation/b05/s02": dict(
        hash="a277f0cf4ef3", method="symbolic",
        symbols={"Ci": _P, "B": _P, "d": _P, "D": _P, "mug": _P, "n0": _P, "Coff": _NN,
                 "w": _NN},
        defs={"t0": "Coff*n0/(1 + w)"},
        lhs="Ci*B**2*d/(D**2*mug**2)*(n0 + t0)/n0",
        rhs="Ci*(1 + Coff)*B**2/(D**2*mug**2)*d",
        hypotheses="0 <= t_0 <= C_off n_0 (t_0 = C_off n_0/(1 + w))"),
    "prop:localized-estimation/b06/s01": dict(
        hash="2ddcbb55a256", method="prose", note="defines C_e (eq:Ce-explicit)"),
    "prop:localized-estimation/b07/s02": dict(
        hash="79c68b34e0ee", method="prose", note="the condition t >= n_0"),
    "prop:localized-estimation/b08/s01": dict(
        hash="cec67a1dbefc", method="cited", via="symbolic", cite="b07 at time t - 1 ({tau >= t} = "
        "{tau > t - 1})",
        symbols={"Ce": _P, "d": _P, "t": _P, "t0": _NN, "s": _NN},
        lhs="Ce*d/(t - 1 + t0) - s", rhs="Ce*d/(t - 1 + t0)",
        hypotheses="t > n_0 >= 1"),
}
