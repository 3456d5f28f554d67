"""Transcriptions of the derivations of app:localization outside proofs. Cited bounds enter
through nonnegative slack symbols; the stopping indicators are 0 or 1 (instances fix tau)."""

_R = "real"
_P = "positive"
_NN = "nonnegative"

STEPS = {
    "text:app:localization/b01/s01": dict(
        hash="d5b688b21cfd",
        method="cited",
        via="symbolic",
        cite="eq:stochastic-error-decomposition with G_t = h(v_{t-1}) + xi_t and "
        "cor:local_stability (<v - v*, h(v)> <= -lambda_0 ||v - v*||^2 near v*)",
        symbols={"I": _NN, "e": _NN, "l0": _P, "eta": _P, "X": _R, "Q": _NN, "s1": _NN, "s2": _NN},
        defs={"et": "e + 2*eta*((-l0*e - s2) + X) + eta**2*Q - s1"},
        lhs="(et - e)*I",
        rhs="-2*l0*eta*e*I + 2*eta*X*I + eta**2*Q*I",
        hypotheses="I = 1{t <= tau} in {0, 1}; e = e_{t-1}; X = <v_{t-1} - v*, xi_t>; Q = "
        "||G_t||^2; e_t = e + 2 eta <v - v*, G> + eta^2 Q - s1 (the decomposition, "
        "slack s1), <v - v*, h(v)> = -lambda_0 e - s2 (the corollary, slack s2, on "
        "{t <= tau} where ||v_{t-1} - v*|| <= r_0)",
    ),
    "text:app:localization/b02/s01": dict(
        hash="d2776d3d2631", method="prose", note="a definition: M_t (eq:localization-martingale)"
    ),
    "text:app:localization/b02/s02": dict(
        hash="29b82895740c", method="prose", note="a definition: Q_t (eq:localization-quadratic)"
    ),
    "text:app:localization/b03/s01": dict(
        hash="28adf5af2df6",
        method="cited",
        via="symbolic",
        cite="eq:stopped_one_step_inequality summed over s = n_0 + 1, ..., t (telescoping)",
        symbols={
            "e0": _NN,
            "l0": _P,
            "n1": _P,
            "n2": _P,
            "n3": _P,
            "X1": _R,
            "X2": _R,
            "X3": _R,
            "Q1": _NN,
            "Q2": _NN,
            "Q3": _NN,
            "s1": _NN,
            "s2": _NN,
        },
        defs={
            "e1": "e0 - 2*l0*n1*e0 + 2*n1*X1 + n1**2*Q1 - s1",
            "e2": "e1 - 2*l0*n2*e1 + 2*n2*X2 + n2**2*Q2 - s2",
            "M": "2*(n1*X1 + n2*X2)",
            "Qs": "n1**2*Q1 + n2**2*Q2",
        },
        lhs="e2",
        rhs="e0 - 2*l0*(n1*e0 + n2*e1) + M + Qs",
        hypotheses="an instance t = n_0 + 3, tau = n_0 + 2: e_{t ^ tau} = e_{n_0+2}; the "
        "terms s = n_0 + 1, n_0 + 2 have indicator 1 (b01 with slacks s1, s2), the "
        "term s = n_0 + 3 has indicator 0 (both sides 0); step sizes n1, n2, n3",
        note="e1, e2 are the errors after one and two steps, each from the one-step bound",
    ),
    "text:app:localization/b03/s02": dict(
        hash="907703b82457",
        method="symbolic",
        symbols={"e0": _NN, "l0": _P, "S": _NN, "M": _R, "Q": _NN},
        lhs="e0 - 2*l0*S + M + Q",
        rhs="e0 + M + Q",
        hypotheses="S = sum_s eta_s e_{s-1} 1{s <= tau} >= 0 (eta_s > 0, e_s >= 0)",
        note="the nonpositive drift term dropped",
    ),
    "text:app:localization/b04/s01": dict(
        hash="249039ba0c7c",
        method="cited",
        via="symbolic",
        cite="the main text's step size eta_t = gamma/(t + t_0) (before "
        "lem:finite-horizon-localization; prop:localized-estimation)",
        symbols={"gam": _P, "t": _P, "t0": _NN},
        lhs="gam/(t + t0)",
        rhs="gam/(t + t0)",
        hypotheses="the main text's harmonic step size (lhs) against the one printed here, "
        "eq:step_size (rhs)",
        note="a restatement of the main text's step size, checked against it",
    ),
}
