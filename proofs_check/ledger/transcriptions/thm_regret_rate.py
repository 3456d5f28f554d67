"""Transcriptions of the proof of thm:regret-rate (app:error-to-regret).

Cited bounds enter through nonnegative slack symbols: a step that uses ``A <= X`` (cited) is
transcribed with ``A = X - s``, ``s >= 0``, so the check is that the step follows from the
cited bound by the operations the proof performs (products with nonnegative factors, sums,
expectations taken pointwise)."""

_POS = "positive"
_NN = "nonnegative"

STEPS = {
    "thm:regret-rate/b01/s01": dict(
        hash="21168db8c6e8",
        method="cited",
        via="symbolic",
        cite="lem:finite-horizon-localization",
        symbols={"C_loc": _POS, "c": _NN, "d": _POS, "p": _NN, "e": _NN},
        defs={"n": "2 + p", "C0": "4*C_loc + c", "n_0": "C0*(d + log(n)) + e"},
        lhs="n_0",
        rhs="C_loc*(d + log(1/n**(-4)))",
        hypotheses="delta = n^-4, n >= 2, d >= 1 (d > 0 suffices), C_0 >= 4 C_loc; "
        "n_0 = ceil(C_0(d + log n)) >= C_0(d + log n) (slack e >= 0)",
        note="the requirement of lem:finite-horizon-localization, met by the proof's choice "
        "C_0 >= 4 C_loc (c = C_0 - 4 C_loc >= 0)",
    ),
    "thm:regret-rate/b02/s01": dict(
        hash="1a9c265fe6b9",
        method="symbolic",
        symbols={"r": "real", "I": "real"},
        lhs="r",
        rhs="r*I + r*(1 - I)",
        hypotheses="I = 1{tau >= t}, so 1{tau < t} = 1 - I",
        note="pointwise; linearity of the expectation",
    ),
    "thm:regret-rate/b03/s01": dict(
        hash="7ca21c0d4a72",
        method="cited",
        via="symbolic",
        cite="tower property (1{tau >= t} is H_{t-1}-measurable)",
        symbols={"r1": "real", "r2": "real", "r3": "real", "r4": "real"},
        defs={"Er_H12": "(r1 + r2)/2"},
        lhs="(r1 + r2)/4",
        rhs="Rational(1, 2)*Er_H12",
        hypotheses="an instance on a finite space: four equally likely outcomes, H generated "
        "by the partition {1, 2}, {3, 4}, the event A = {1, 2} in H, any rewards "
        "r1..r4: E[r 1_A] = (r1 + r2)/4 and E[1_A E[r | H]] = P(A) (r1 + r2)/2",
        note="the instance of E[r 1_A] = E[1_A E[r | H]] for A in H",
    ),
    "thm:regret-rate/b03/s02": dict(
        hash="a71d0f383ea8",
        method="cited",
        via="symbolic",
        cite="the preceding bound E[r_t | H_{t-1}] <= C_gap (Delta_beta/2) ||v_{t-1} - v*||^2 "
        "on {tau >= t} (lem:gaussian-polynomial-disagreement)",
        symbols={"I": _NN, "C_gap": _POS, "D": _POS, "V": _NN, "s": _NN},
        lhs="I*(C_gap*D/2*V - s)",
        rhs="C_gap*D/2*V*I",
        hypotheses="I = 1{tau >= t} in {0, 1}; E[r_t | H] = C_gap (D/2) V - s, s >= 0",
        note="pointwise in the indicator, then E is monotone",
    ),
    "thm:regret-rate/b03/s03": dict(
        hash="997bd3caca05",
        method="cited",
        via="symbolic",
        cite="prop:localized-estimation",
        symbols={"C_gap": _POS, "D": _POS, "C_e": _POS, "d": _POS, "u": _NN, "t_0": _NN, "s": _NN},
        defs={"t": "2 + u"},
        lhs="C_gap*D/2*(C_e*d/(t - 1 + t_0) - s)",
        rhs="C_gap*D/2*C_e*d/(t - 1 + t_0)",
        hypotheses="E[||v_{t-1} - v*||^2 1{tau >= t}] = C_e d/(t - 1 + t_0) - s, s >= 0 "
        "(prop:localized-estimation); t > n_0 >= 1",
    ),
    "thm:regret-rate/b04/s01": dict(
        hash="6cdcb3b62e55",
        method="symbolic",
        symbols={"B": _POS, "x": _NN, "y": _NN, "I2": _NN},
        lhs="2*B/(1 + x)*I2/(1 + y)",
        rhs="2*B*I2",
        hypotheses="0 < r_t = 2B_Y/(1 + x) <= 2B_Y (bounded rewards); 1{tau < t} = "
        "1{tau <= n}/(1 + y) <= 1{tau <= n} ({tau < t} is inside {tau <= n}, t <= n)",
        note="pointwise, then E; where r_t = 0 or 1{tau < t} = 0 the left side is 0",
    ),
    "thm:regret-rate/b04/s02": dict(
        hash="26585421f88c",
        method="cited",
        via="symbolic",
        cite="lem:finite-horizon-localization",
        symbols={"B": _POS, "n": _POS, "s": _NN},
        lhs="2*B*(n**(-4) - s)",
        rhs="2*B*n**(-4)",
        hypotheses="P(tau <= n) <= delta = n^-4 (the lemma with delta = n^-4)",
    ),
    "thm:regret-rate/b05/s01": dict(
        hash="2bb7fccedb2f",
        method="symbolic",
        symbols={
            "K": _POS,
            "d": _POS,
            "u": _NN,
            "t_0": _NN,
            "B": _POS,
            "n": _POS,
            "s1": _NN,
            "s2": _NN,
        },
        defs={"t": "2 + u"},
        lhs="(K*d/(t - 1 + t_0) - s1) + (2*B*n**(-4) - s2)",
        rhs="K*d/(t - 1 + t_0) + 2*B*n**(-4)",
        hypotheses="K = C_gap Delta_beta C_e/2; the two preceding bounds with slacks s1, s2",
        note="the decomposition b02 with the bounds b03 and b04",
    ),
    "thm:regret-rate/b06/s01": dict(
        hash="901b4c3a295a",
        method="symbolic",
        symbols={
            "K": _POS,
            "d": _POS,
            "t_0": _NN,
            "B": _POS,
            "n": "positive_integer",
            "n_0": "positive_integer",
            "t": "positive_integer",
            "s": _NN,
        },
        lhs="Sum(K*d/(t - 1 + t_0) + 2*B*n**(-4), (t, n_0 + 1, n)).doit() - s",
        rhs="K*d*Sum(1/(t - 1 + t_0), (t, n_0 + 1, n)).doit() + 2*B*(n - n_0)*n**(-4)",
        hypotheses="the bound b05 for every t in (n_0, n], summed (slack s >= 0)",
    ),
    "thm:regret-rate/b06/s02": dict(
        hash="17bbe6dfba38",
        method="cited",
        via="symbolic",
        cite="digamma bounds log(x) - 1/x <= psi(x) <= log(x), x > 0 (sum_{k<m} 1/(a+k) = "
        "psi(a+m) - psi(a))",
        symbols={
            "K": _POS,
            "d": _POS,
            "p": _NN,
            "m": _POS,
            "n_0": _POS,
            "B": _POS,
            "s1": _NN,
            "s2": _NN,
        },
        defs={"a": "1 + p", "n": "n_0 + m"},
        lhs="K*d*((log(a + m) - s1) - (log(a) - 1/a + s2)) + 2*B*(n - n_0)*n**(-4)",
        rhs="K*d*(1 + log((n - n_0 + a)/a)) + 2*B*n**(-3)",
        hypotheses="a = n_0 + t_0 >= 1 (n_0 >= 1, t_0 >= 0), m = n - n_0 > 0: the sum over "
        "t in (n_0, n] of 1/(t - 1 + t_0) is psi(a + m) - psi(a) <= "
        "log(a + m) - (log(a) - 1/a) (cited bounds, slacks s1, s2 >= 0)",
        note="the gap is K d (1 - 1/a + s1 + s2) + 2 B_Y n_0 n^-4 >= 0: it needs a = n_0 + "
        "t_0 >= 1, which n_0 >= 1 gives",
    ),
    "thm:regret-rate/b07/s01": dict(
        hash="070dde4f7251",
        method="symbolic",
        symbols={"B": _POS, "n_0": _POS, "X": _NN, "s1": _NN, "s2": _NN},
        lhs="(2*B*n_0 - s1) + (X - s2)",
        rhs="2*B*n_0 + X",
        hypotheses="sum_{t <= n_0} E[r_t] <= 2 B_Y n_0 (r_t <= 2 B_Y); the sum over t > n_0 "
        "is at most X, the right side of b06",
        note="R_n = sum of the two stages",
    ),
    "thm:regret-rate/b08/s01": dict(
        hash="945fd5b6de01",
        method="symbolic",
        symbols={"p": _NN, "C": _NN, "w": _NN, "q": _NN},
        defs={"n": "2 + p", "n_0": "1 + q", "t_0": "C*n*w"},
        lhs="(n + t_0)/(n_0 + t_0)",
        rhs="(1 + C)*n",
        hypotheses="t_0 = w C_off n with 0 <= w <= 1 (t_0 <= C_off n), n_0 >= 1, n >= 2",
        note="both sides are 1 + log(.), and log is increasing: the step is the relation of "
        "the arguments, (n + t_0)/(n_0 + t_0) <= (1 + C_off) n = exp(log(1 + C_off) + "
        "log n); it holds for every w >= 0",
    ),
    "thm:regret-rate/b08/s02": dict(
        hash="611d15c59cf8",
        method="asymptotic",
        symbols={"n": _POS},
        defs={"C": "3"},
        sequence={"n": [10, 100, 10**3, 10**4, 10**6, 10**8, 10**10, 10**12]},
        lhs="1 + log(1 + C) + log(n)",
        rhs="log(n)",
        rel="lesssim",
        hypotheses="C_off fixed (3 here)",
    ),
    "thm:regret-rate/b09/s01": dict(
        hash="9cfaa3820182",
        method="asymptotic",
        symbols={"n": _POS},
        defs={
            "d": "floor(sqrt(n))",
            "C0": "8",
            "n_0": "ceiling(C0*(d + log(n)))",
            "t_0": "2*n_0",
            "K": "1",
            "B": "1",
        },
        sequence={"n": [10**2, 10**3, 10**4, 10**5, 10**6, 10**8, 10**10, 10**12]},
        lhs="2*B*n_0 + K*d*(1 + log((n + t_0)/(n_0 + t_0))) + 2*B*n**(-3)",
        rhs="d*log(n)",
        rel="lesssim",
        hypotheses="the bound b07 with n_0 = ceil(C_0(d + log n)), t_0 = C_off n_0 "
        "(C_0 = 8, C_off = 2, K = C_gap Delta_beta C_e/2 = 1, B_Y = 1)",
        note="along the path d = floor(sqrt n): d and n grow together; one path, not the "
        "uniform statement",
    ),
}
