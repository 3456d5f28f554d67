"""Transcriptions of the proof of lem:tail_to_mgf (app:stopped-stochastic-control). Given G the
conditional law is fixed, so the instances are unconditional: U ~ N(m, 1) (Z = U - m, a centred
sub-Gaussian variable) and p = 3 where the step is for one p."""

_R = "real"
_P = "positive"
_NN = "nonnegative"
_MS = [{"m": "0"}, {"m": "1/2"}, {"m": "-2"}, {"m": "5"}]

STEPS = {
    "lem:tail_to_mgf/b01/s01": dict(
        hash="fe36aa6c5c08",
        method="cited",
        via="symbolic",
        cite="the layer-cake formula",
        symbols={"z": _R, "x": _NN},
        lhs="Integral(2*z**3*exp(-z**2/2)/sqrt(2*pi), (z, 0, oo)).doit()",
        rhs="Integral(3*x**2*erfc(x/sqrt(2)), (x, 0, oo)).doit()",
        hypotheses="an instance: U ~ N(0, 1), p = 3; P(|U| >= x) = erfc(x/sqrt 2)",
    ),
    "lem:tail_to_mgf/b01/s02": dict(
        hash="71e392d525f0",
        method="symbolic",
        symbols={"q": _NN, "x": _P, "sig": _P, "s": _NN},
        defs={"p": "1 + q"},
        lhs="p*x**(p - 1)*(2*exp(-x**2/(2*sig**2)) - s)",
        rhs="2*p*x**(p - 1)*exp(-x**2/(2*sig**2))",
        hypotheses="P(|U| >= x | G) = 2 exp(-x^2/(2 sigma^2)) - s(x), s >= 0 (the tail bound)",
        note="the integrands, pointwise in x >= 0; the integral is monotone",
    ),
    "lem:tail_to_mgf/b02/s01": dict(
        hash="4ef9d8d4f96b",
        method="cited",
        via="expectation",
        cite="Minkowski's inequality",
        symbols={"Z": _R, "m": _R},
        gaussian=["Z"],
        at=_MS,
        lhs="E(Abs(Z)**3)**Rational(1, 3)",
        rhs="E(Abs(m + Z)**3)**Rational(1, 3) + Abs(m)",
        hypotheses="an instance: U = m + Z, Z ~ N(0, 1), E[U | G] = m, p = 3",
    ),
    "lem:tail_to_mgf/b02/s02": dict(
        hash="eed550fe9fa6",
        method="expectation",
        symbols={"Z": _R, "m": _R, "A": _R},
        gaussian=["Z"],
        at=_MS,
        lhs="A + Abs(E(m + Z))",
        rhs="A + E(Abs(m + Z))",
        hypotheses="U = m + Z, Z ~ N(0, 1); A = (E|U|^p)^(1/p) is common to both sides",
        note="|E U| <= E|U|; A is given the value 0 (it cancels)",
    ),
    "lem:tail_to_mgf/b03/s01": dict(
        hash="3241c6277518",
        method="asymptotic",
        symbols={"p": _P},
        rel="lesssim",
        sequence={"p": [1, 2, 4, 10, 30, 100, 300, 1000]},
        lhs="exp((p/2*log(2) + loggamma((p + 1)/2) - log(pi)/2)/p)",
        rhs="sqrt(p)",
        hypotheses="an instance: Z ~ N(0, 1) (sigma = 1), E|Z|^p = 2^(p/2) Gamma((p+1)/2)/sqrt(pi)",
        note="the implied constant C_2 along p",
    ),
    "lem:tail_to_mgf/b03/s02": dict(
        hash="d083100bf737", method="prose", note="the condition p >= 1"
    ),
    "lem:tail_to_mgf/b04/s01": dict(
        hash="c58e862c0403",
        method="expectation",
        symbols={"Z": _R, "l": _R, "sig": _P},
        gaussian=["Z"],
        at=[{"l": "1/2", "sig": "1"}, {"l": "-2", "sig": "1/2"}, {"l": "3", "sig": "3/2"}],
        lhs="E(exp(l*sig*Z))",
        rhs="exp(Rational(1, 2)*l**2*sig**2)",
        hypotheses="an instance: Z ~ N(0, sigma^2) with C_sg = 1/2 (the Gaussian case, where "
        "the bound is attained)",
    ),
}
