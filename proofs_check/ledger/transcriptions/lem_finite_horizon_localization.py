"""Transcriptions of the proof of lem:finite-horizon-localization (app:localization).

Probabilities and bounds the step uses enter through nonnegative slacks (``P = X - s``,
``s >= 0``); the union bound is checked on the seven atoms of three events (nonnegative
masses), and the failure probabilities are summed as the proof sums them. delta in (0, 1) is
written delta = exp(-u), u > 0, so log(3/delta) = log 3 + u."""

_POS = "positive"
_NN = "nonnegative"

STEPS = {
    "lem:finite-horizon-localization/b01/s01": dict(
        hash="5ad9f603bd80", method="prose", note="defines the event E_init"
    ),
    "lem:finite-horizon-localization/b01/s02": dict(
        hash="ac47ab39f596", method="prose", note="defines the event E_M"
    ),
    "lem:finite-horizon-localization/b01/s03": dict(
        hash="b1a08d005d3e", method="prose", note="defines the event E_Q"
    ),
    "lem:finite-horizon-localization/b02/s01": dict(
        hash="2e32d2d14937",
        method="cited",
        via="certified",
        cite="prop:randomized_initialization",
        symbols={"k": _NN, "d": _POS, "u": _POS},
        defs={"delta": "exp(-u)"},
        lhs="(8 + k)*(d + log(3/delta))",
        rhs="(d + log(2/(delta/3)))/(Rational(1, 2))**2",
        domain={"k": [0, "10"], "d": [1, "100"], "u": [0, "100"]},
        hypotheses="the proposition's requirement at r = r_0/2, delta_0 = delta/3 is "
        "C B^2 (d + log(2/delta_0))/(Delta^2 mu^2 r^2); the common factor "
        "C B_Y^2/(Delta^2 mu_g^2 r_0^2) > 0 (C the proposition's C_init) is divided "
        "out; the proof's C_init ('absorbs the numerical constants') is "
        "(8 + k) C, k >= 0; d >= 1",
        note="the displayed condition implies the proposition's: 8C (d + log(3/delta)) >= "
        "4C (d + log(6/delta)) since 2 log 3 > log 6. The gap is increasing in d and u "
        "(coefficient 4 + k > 0) and in k, so the box's cut at d, u, k <= 100, 10 loses "
        "nothing",
    ),
    "lem:finite-horizon-localization/b03/s01": dict(
        hash="dff17e45d5d7",
        method="cited",
        via="symbolic",
        cite="prop:randomized_initialization",
        symbols={"delta": _POS, "s": _NN},
        lhs="1 - delta/3 + s",
        rhs="1 - delta/3",
        hypotheses="the proposition with r = r_0/2, delta_0 = delta/3 under b02's condition: "
        "P(||v_{n_0} - v*|| <= r_0/2) = 1 - delta_0 + s, s >= 0",
    ),
    "lem:finite-horizon-localization/b04/s01": dict(
        hash="194242c32f52",
        method="symbolic",
        symbols={"delta": _POS, "s": _NN},
        lhs="1 - (1 - delta/3 + s)",
        rhs="delta/3",
        hypotheses="E_init = {e_{n_0} <= r_0^2/4} = {||v_{n_0} - v*|| <= r_0/2} (e = squared "
        "norm); P(E^c) = 1 - P(E); b03",
    ),
    "lem:finite-horizon-localization/b05/s01": dict(
        hash="812c9dbbcf85",
        method="cited",
        via="symbolic",
        cite="lem:stopped-stochastic-control",
        symbols={"Cq": _POS, "p": _NN, "K": _POS, "d": _POS, "L": _POS, "e": _NN, "t_0": _NN},
        defs={"C_Q": "Cq - p", "n_0": "Cq*K*(d + L) + e"},
        lhs="n_0 + t_0",
        rhs="C_Q*K*(d + L)",
        hypotheses="K = B_Y^2 gamma^2 r_0^{-2}, L = log(3/delta) > 0; the displayed condition "
        "n_0 = C_quad K (d + L) + e, e >= 0; C_quad = max{C_M, C_Q} >= C_Q "
        "(C_Q = C_quad - p); t_0 >= 0",
        note="checked: the condition implies the lemma's Q-condition n_0 + t_0 >= C_Q K (d + "
        "L). The M-condition n_0 + t_0 >= C_M K L follows the same way (C_M <= C_quad, "
        "d >= 0) and is not a separate check",
    ),
    "lem:finite-horizon-localization/b06/s01": dict(
        hash="aae986bcdd88",
        method="cited",
        via="symbolic",
        cite="lem:stopped-stochastic-control",
        symbols={"delta": _POS, "s": _NN},
        lhs="delta/3 - s",
        rhs="delta/3",
        hypotheses="E_M^c = {max_{n_0<=t<=n} M_t > r_0^2/4}, the lemma's first event; its "
        "condition holds by b05: P = delta/3 - s, s >= 0",
        note="the event matches the lemma's statement verbatim",
    ),
    "lem:finite-horizon-localization/b06/s02": dict(
        hash="c4971c3c95ab",
        method="cited",
        via="symbolic",
        cite="lem:stopped-stochastic-control",
        symbols={"delta": _POS, "s": _NN},
        lhs="delta/3 - s",
        rhs="delta/3",
        hypotheses="E_Q^c = {Q_n > r_0^2/4}, the lemma's second event; its condition holds by "
        "b05: P = delta/3 - s, s >= 0",
    ),
    "lem:finite-horizon-localization/b08/s01": dict(
        hash="d4689cb2fb87",
        method="cited",
        via="symbolic",
        cite="eq:stopped-error-bound",
        symbols={"e0": _NN, "lam": _POS, "S": _NN, "M": "real", "Q": _NN},
        lhs="e0 - 2*lam*S + M + Q",
        rhs="e0 + M + Q",
        hypotheses="S = sum_s eta_s e_{s-1} 1{s <= tau} >= 0 (eta > 0, e >= 0), lambda_0 > 0; "
        "e_{t^tau} <= e_{n_0} - 2 lambda_0 S + M_t + Q_t (eq:stopped-error-bound)",
        note="the last inequality of eq:stopped-error-bound",
    ),
    "lem:finite-horizon-localization/b08/s02": dict(
        hash="db40e8ae366d", method="prose", note="the range n_0 <= t of b08/s01"
    ),
    "lem:finite-horizon-localization/b08/s03": dict(
        hash="14f9db1c563c", method="prose", note="the range t <= n of b08/s01"
    ),
    "lem:finite-horizon-localization/b09/s01": dict(
        hash="3c8cd873dbaa",
        method="symbolic",
        symbols={"r": _POS, "s0": _NN, "s1": _NN, "s2": _NN, "s3": _NN, "s4": _NN, "s5": _NN},
        defs={
            "e0": "r**2/4 - s0",
            "Mmax": "r**2/4 - s1",
            "M": "Mmax - s2",
            "Qn": "r**2/4 - s3",
            "Q": "Qn - s4",
        },
        lhs="e0 + M + Q - s5",
        rhs="r**2/4 + r**2/4 + r**2/4",
        hypotheses="on E_init, E_M, E_Q: e_{n_0} <= r_0^2/4, M_t <= max M <= r_0^2/4, Q_t <= "
        "Q_n <= r_0^2/4 (Q is a sum of nonnegative terms); e_{t^tau} <= e_{n_0} + "
        "M_t + Q_t (b08, slack s5)",
    ),
    "lem:finite-horizon-localization/b09/s02": dict(
        hash="204a1ba6cd40",
        method="symbolic",
        symbols={"r": _POS},
        lhs="r**2/4 + r**2/4 + r**2/4",
        rhs="3*r**2/4",
    ),
    "lem:finite-horizon-localization/b09/s03": dict(
        hash="db40e8ae366d", method="prose", note="the range n_0 <= t of b09"
    ),
    "lem:finite-horizon-localization/b09/s04": dict(
        hash="14f9db1c563c", method="prose", note="the range t <= n of b09"
    ),
    "lem:finite-horizon-localization/b10/s01": dict(
        hash="2383fe30afbb",
        method="symbolic",
        symbols={
            "pI": _NN,
            "pM": _NN,
            "pQ": _NN,
            "pIM": _NN,
            "pIQ": _NN,
            "pMQ": _NN,
            "pIMQ": _NN,
            "s": _NN,
        },
        defs={
            "PI": "pI + pIM + pIQ + pIMQ",
            "PM": "pM + pIM + pMQ + pIMQ",
            "PQ": "pQ + pIQ + pMQ + pIMQ",
            "Punion": "pI + pM + pQ + pIM + pIQ + pMQ + pIMQ",
        },
        lhs="Punion - s",
        rhs="PI + PM + PQ",
        hypotheses="{tau <= n} is inside E_init^c u E_M^c u E_Q^c (the proof's inclusion "
        "E_init n E_M n E_Q inside {tau > n}): P(tau <= n) = P(union) - s; the "
        "union's mass on the seven atoms of the three complements",
        note="the union bound on a generic probability space of three events",
    ),
    "lem:finite-horizon-localization/b10/s02": dict(
        hash="93fd3831c5b8",
        method="symbolic",
        symbols={"delta": _POS, "s1": _NN, "s2": _NN, "s3": _NN},
        lhs="(delta/3 - s1) + (delta/3 - s2) + (delta/3 - s3)",
        rhs="delta",
        hypotheses="eq:init-bound-localization and eq:stochastic-good-events: each failure "
        "probability is delta/3 - s_i, s_i >= 0",
        note="the three failure probabilities summed",
    ),
}
