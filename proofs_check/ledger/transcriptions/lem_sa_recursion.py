"""Transcriptions of the proof of lem:sa-recursion (app:localized-estimation).

Notation: T = t + t_0 for the induction step t > n_0, so T >= n_0 + 1 + t_0 >= alpha
(the lemma's condition) and T = alpha + w with w >= 0; alpha = 1 + q > 1, b > 0. A bound the
step uses enters through a nonnegative slack (``A = X - s``, ``s >= 0``). C is the lemma's
max{(n_0 + t_0) a_{n_0}, b/(alpha - 1)}: C = (n_0 + t_0) a_{n_0} + c_1 = b/(alpha - 1) + c_2
with c_1, c_2 >= 0 (C is at least each entry)."""

_POS = "positive"
_NN = "nonnegative"
_T = {"alpha": "1 + q", "T": "alpha + w"}
_TS = {"q": _POS, "w": _NN}

STEPS = {
    "lem:sa-recursion/b01/s01": dict(
        hash="f5590b5a8ae5",
        method="symbolic",
        symbols={"a": _NN, "m": _POS, "c1": _NN},
        defs={"C": "m*a + c1"},
        lhs="a",
        rhs="C/m",
        hypotheses="m = n_0 + t_0 > 0 (n_0 + 1 + t_0 >= alpha > 1); C >= (n_0 + t_0) a_{n_0} "
        "(C = m a_{n_0} + c1, c1 >= 0, the definition of C as a max)",
    ),
    "lem:sa-recursion/b02/s01": dict(
        hash="3e97afc2860f",
        method="cited",
        via="symbolic",
        cite="lem:sa-recursion (its claim a_t <= C/(t + t_0), at time t - 1)",
        symbols={"C": _NN, "t": _POS, "t0": _NN},
        defs={"bound": "Lambda(Symbol('s'), C/(Symbol('s') + t0))"},
        lhs="bound(t - 1)",
        rhs="C/(t - 1 + t0)",
        hypotheses="the induction hypothesis: the lemma's bound C/(s + t_0) at s = t - 1 >= n_0",
        note="the hypothesis is assumed, not derived; what is checked is that it is the "
        "lemma's claim instantiated at t - 1 (lhs) as printed (rhs)",
    ),
    "lem:sa-recursion/b03/s01": dict(
        hash="31c661dcd449",
        method="symbolic",
        symbols={**_TS, "C": _NN, "b": _POS, "s": _NN, "s2": _NN},
        defs=_T,
        lhs="(1 - alpha/T)*(C/(T - 1) - s) + b/T**2 - s2",
        rhs="(1 - alpha/T)*C/(T - 1) + b/T**2",
        hypotheses="the recursion a_t = (1 - alpha/T) a_{t-1} + b/T^2 - s2; the induction "
        "hypothesis a_{t-1} = C/(T - 1) - s; T = t + t_0 >= n_0 + 1 + t_0 >= alpha "
        "(T = alpha + w), so 1 - alpha/T >= 0",
        note="the step uses the coefficient's sign, which the condition n_0 + 1 + t_0 >= alpha "
        "gives; with w < 0 the gap (1 - alpha/T) s would be negative",
    ),
    "lem:sa-recursion/b04/s01": dict(
        hash="a20a97c3fda9",
        method="symbolic",
        symbols={**_TS, "b": _POS, "c2": _NN},
        defs={**_T, "C": "b/(alpha - 1) + c2"},
        lhs="b/T",
        rhs="C*(1 - (T - alpha)/(T - 1))",
        hypotheses="C >= b/(alpha - 1) (C = b/(alpha - 1) + c2); T = alpha + w > 1",
        note="the inequality the induction needs; it holds by b05 (the proof's 'it remains to "
        "show')",
    ),
    "lem:sa-recursion/b04/s02": dict(
        hash="1d52af61a03e",
        method="symbolic",
        symbols={**_TS, "C": _NN},
        defs=_T,
        lhs="C*(1 - (T - alpha)/(T - 1))",
        rhs="C*(alpha - 1)/(T - 1)",
    ),
    "lem:sa-recursion/b05/s01": dict(
        hash="e8e98b754f6a",
        method="symbolic",
        symbols={**_TS, "b": _POS, "c2": _NN},
        defs={**_T, "C": "b/(alpha - 1) + c2"},
        lhs="C*(alpha - 1)/(T - 1)",
        rhs="b/(T - 1)",
        hypotheses="C (alpha - 1) >= b (C >= b/(alpha - 1), alpha > 1); T - 1 > 0",
    ),
    "lem:sa-recursion/b05/s02": dict(
        hash="4fe16969b949",
        method="symbolic",
        symbols={**_TS, "b": _POS},
        defs=_T,
        lhs="b/(T - 1)",
        rhs="b/T",
        hypotheses="b > 0, T = t + t_0 >= alpha > 1",
    ),
}
