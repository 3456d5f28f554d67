"""Transcriptions of the proof of lem:sa-recursion (app:localized-estimation). T = t + t_0 with
t > n_0; the lemma's alpha > 1 (alpha = 1 + al) and b >= 0; C = max{(n_0 + t_0) a_{n_0},
b/(alpha - 1)} enters as its lower bounds with nonnegative slacks."""

_P = "positive"
_NN = "nonnegative"

STEPS = {
    "lem:sa-recursion/b01/s01": dict(
        hash="f5590b5a8ae5", method="symbolic", symbols={"N": _P, "a": _NN, "s": _NN},
        lhs="a", rhs="(N*a + s)/N",
        hypotheses="N = n_0 + t_0 > 0; C = N a_{n_0} + s, s >= 0 (C is the max)"),
    "lem:sa-recursion/b02/s01": dict(
        hash="3e97afc2860f", method="prose", note="the induction hypothesis"),
    "lem:sa-recursion/b03/s01": dict(
        hash="31c661dcd449", method="symbolic",
        symbols={"al": _P, "w": _NN, "C": _NN, "b": _NN, "s": _NN, "s2": _NN, "tau": _P},
        defs={"alpha": "1 + al", "T": "alpha + w"},
        lhs="(1 - alpha/T)*(C/(T - 1) - s) + b/T**2 - s2",
        rhs="(1 - alpha/T)*C/(T - 1) + b/T**2",
        hypotheses="the recursion (slack s2 >= 0) and the induction hypothesis a_{t-1} = "
                   "C/(T - 1) - s; T = t + t_0 >= n_0 + 1 + t_0 >= alpha (T = alpha + w), so "
                   "1 - alpha/T >= 0"),
    "lem:sa-recursion/b04/s01": dict(
        hash="a20a97c3fda9", method="symbolic", symbols={"al": _P, "tau": _P, "b": _NN, "s": _NN},
        defs={"alpha": "1 + al", "T": "1 + tau", "C": "b/(alpha - 1) + s"},
        lhs="b/T", rhs="C*(1 - (T - alpha)/(T - 1))",
        hypotheses="C >= b/(alpha - 1) (C = b/(alpha - 1) + s), alpha > 1, T > 1"),
    "lem:sa-recursion/b04/s02": dict(
        hash="1d52af61a03e", method="symbolic", symbols={"C": "real", "alpha": "real", "T": "real"},
        lhs="C*(1 - (T - alpha)/(T - 1))", rhs="C*(alpha - 1)/(T - 1)"),
    "lem:sa-recursion/b05/s01": dict(
        hash="e8e98b754f6a", method="symbolic", symbols={"al": _P, "tau": _P, "b": _NN, "s": _NN},
        defs={"alpha": "1 + al", "T": "1 + tau", "C": "(b + s)/(alpha - 1)"},
        lhs="C*(alpha - 1)/(T - 1)", rhs="b/(T - 1)",
        hypotheses="C (alpha - 1) = b + s >= b, T > 1"),
    "lem:sa-recursion/b05/s02": dict(
        hash="4fe16969b949", method="symbolic",
        symbols={"tau": _P, "b": _NN}, defs={"T": "1 + tau"},
        lhs="b/(T - 1)", rhs="b/T", hypotheses="b >= 0, T > 1"),
}
