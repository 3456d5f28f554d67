"""A corpus of valid and invalid links.

Valid links (standard GLM links, their scaled and shifted versions up to ×100, asymmetric links,
mixtures, potential-defined links) must be accepted, and λ* of the float64 tier
(``stability(link, delta)``) must agree with an independent computation written here: scipy
quadrature of the *definition* eq:mu_star_m2_def,

    μ* = E[g'(U + ΔZ/2) 1{Z > 0}],   m2 = E g''(U),   U ~ N(0, 1 − Δ²/4), Z ~ N(0, 1) indep.,
    λ* = Δμ* − 2φ0(0)(m2)₊(1 − Δ²/4)                                  (eq:decision_stability)

as a 2-D integral (nested quad, see :func:`reference_lambda_star`), with g' and g'' written by hand below
(not from the library's sympy derivatives; potential links invert φ' here with brentq or in
closed form). The tolerance is the sum of the two stated errors (the result's own
``errors["lambda_star"]`` and the reference's propagated QUADPACK error estimates) times a
safety factor of 4: neither estimate is a rigorous bound (the float64 tier's is the difference
of its last two trapezoid sums plus a rounding allowance; QUADPACK's is a Gauss–Kronrod
heuristic), and the factor keeps the test from failing on an estimate that is honest but not
conservative, while still failing for any error that is orders of magnitude beyond what was
stated. The worst observed ratio |computed − reference| / (stated errors) is far below 1
(the report of the change records it).

Invalid inputs must be refused with a one-line NBLInputError whose reason is asserted. Every
input, valid or not, is decided within 2 s of CPU time (the pathological inputs of issue 13 run
in a memory-limited worker process: ``test_input_bounds.py``).
"""

import math

import numpy as np
import pytest
from scipy import integrate, optimize, special

from nbl_theory import Link, NBLInputError
from nbl_theory.errors import DivergentIntegralError
from nbl_theory.numeric import PHI0
from nbl_theory.stability import stability
from nbl_theory.work import count_calls, counting

SAFETY = 4.0
DELTAS = ("0.5", "1.5")
#: Every link is accepted or refused within a bounded amount of work, counted in Python function
#: calls (nbl_theory.work.counting), not seconds: the same on any machine under any load. 4x the
#: most the corpus needs (1.02e6, pot-atanh; measured 2026-11-28, sympy 1.14, in corpus order).
BUILD_CALLS = 4_000_000
_SQRT2PI = math.sqrt(2 * math.pi)


def _npdf(x):
    return np.exp(-0.5 * x * x) / _SQRT2PI


def _sech2(x):
    with np.errstate(over="ignore"):
        return 1.0 / np.cosh(x) ** 2


# ----------------------------------------------------------------------------- hand derivatives
def sig(a, b=0.0):
    """sigmoid(a z + b): g' = a s(1−s), g'' = a² s(1−s)(1−2s)."""

    def g1(z):
        s = special.expit(a * z + b)
        return a * s * (1 - s)

    def g2(z):
        s = special.expit(a * z + b)
        return a * a * s * (1 - s) * (1 - 2 * s)

    return g1, g2, [-b / a]


def probit(a, b=0.0):
    """Φ(a z + b): g' = a φ(x), g'' = −a² x φ(x)."""
    return (
        lambda z: a * _npdf(a * z + b),
        lambda z: -a * a * (a * z + b) * _npdf(a * z + b),
        [-b / a],
    )


def cauchit(a, b=0.0):
    """1/2 + atan(a z + b)/π: g' = a/(π(1+x²)), g'' = −2a²x/(π(1+x²)²)."""
    return (
        lambda z: a / (math.pi * (1 + (a * z + b) ** 2)),
        lambda z: -2 * a * a * (a * z + b) / (math.pi * (1 + (a * z + b) ** 2) ** 2),
        [-b / a],
    )


def cloglog(a, b=0.0):
    """1 − exp(−e^x), x = a z + b: g' = a e^{x − e^x}, g'' = a²(e^{x − e^x} − e^{2x − e^x})."""

    def g1(z):
        x = a * z + b
        with np.errstate(over="ignore"):
            return a * np.exp(x - np.exp(x))

    def g2(z):
        x = a * z + b
        with np.errstate(over="ignore"):
            ex = np.exp(x)
            return a * a * (np.exp(x - ex) - np.exp(2 * x - ex))

    return g1, g2, [-b / a]


def loglog(a, b=0.0):
    """exp(−e^{−x}), x = a z + b: g' = a e^{−x − e^{−x}}, g'' = a²(e^{−2x−e^{−x}} − e^{−x−e^{−x}})."""

    def g1(z):
        x = a * z + b
        with np.errstate(over="ignore"):
            return a * np.exp(-x - np.exp(-x))

    def g2(z):
        x = a * z + b
        with np.errstate(over="ignore"):
            ex = np.exp(-x)
            return a * a * (np.exp(-2 * x - ex) - np.exp(-x - ex))

    return g1, g2, [-b / a]


def mix(w, first, second):
    """w·first + (1 − w)·second."""
    return (
        lambda z: w * first[0](z) + (1 - w) * second[0](z),
        lambda z: w * first[1](z) + (1 - w) * second[1](z),
        first[2] + second[2],
    )


def tanh_power(k):
    """tanh(z)^k: g' = k t^{k−1} sech², g'' = k((k−1) t^{k−2} sech⁴ − 2 t^k sech²)."""

    def g1(z):
        return k * np.tanh(z) ** (k - 1) * _sech2(z)

    def g2(z):
        t, s2 = np.tanh(z), _sech2(z)
        return k * ((k - 1) * t ** (k - 2) * s2 * s2 - 2 * t**k * s2)

    return g1, g2, [0.0]


def tanh_product(n):
    """Π_{k=1..n} (3 + tanh(z/k)): g' = g Σ a_k, g'' = g((Σ a_k)² + Σ a_k'), a_k = (log f_k)'."""

    def parts(z):
        g, a, da = 1.0, 0.0, 0.0
        for k in range(1, n + 1):
            t, s2 = np.tanh(z / k), _sech2(z / k)
            f = 3 + t
            g *= f
            a += s2 / (k * f)
            da += (-2 * s2 * t * f - s2 * s2) / (k * k * f * f)
        return g, a, da

    def g1(z):
        g, a, _ = parts(z)
        return g * a

    def g2(z):
        g, a, da = parts(z)
        return g * (a * a + da)

    return g1, g2, [0.0]


def lambert():
    """g = W(e^z) (φ = m log m − m + m²/2 on (0, ∞)): g' = W/(1+W), g'' = W/(1+W)³."""

    def w(z):
        return special.lambertw(math.exp(z)).real

    return (lambda z: w(z) / (1 + w(z)), lambda z: w(z) / (1 + w(z)) ** 3, [])


def weighted_entropy(rho):
    """φ_ρ(m) = (1+ρ) m log m + (1−ρ)(1−m) log(1−m) − κ m, κ = 2ρ(1 − log 2)
    (app:elicitation-geometry): g(z) solves φ'(m) = z (brentq in x = logit m),
    g' = 1/φ''(m), g'' = −φ'''(m)/φ''(m)³."""
    a, b, kappa = 1 + rho, 1 - rho, 2 * rho * (1 - math.log(2))

    def m_of(z):
        def f(x):  # φ'(expit x) − z, with log m = −log1p(e^{−x}), log(1 − m) = −log1p(e^x)
            return a * (1 - np.logaddexp(0, -x)) - b * (1 - np.logaddexp(0, x)) - kappa - z

        x = optimize.brentq(f, -200, 200, xtol=1e-15)
        return special.expit(x), special.expit(-x)

    def g1(z):
        m, q = m_of(z)
        return 1 / (a / m + b / q)

    def g2(z):
        m, q = m_of(z)
        p2, p3 = a / m + b / q, -a / m**2 + b / q**2
        return -p3 / p2**3

    return g1, g2, []


def const(c1, c2=0.0):
    return (lambda z: c1 + 0 * z, lambda z: c2 + 0 * z, [])


VALID = [
    # (id, constructor arguments, hand derivatives)
    ("logit", "sigmoid(z)", sig(1)),
    ("probit", "Phi(z)", probit(1)),
    ("cauchit", "0.5+atan(z)/pi", cauchit(1)),
    ("cloglog", "1-exp(-exp(z))", cloglog(1)),
    ("cloglog-expm1", "-expm1(-exp(z))", cloglog(1)),
    ("loglog", "exp(-exp(-z))", loglog(1)),
    ("logit-x4", "sigmoid(4*z)", sig(4)),
    ("logit-x50", "sigmoid(50*z)", sig(50)),
    ("logit-x80", "sigmoid(80*z)", sig(80)),
    ("logit-x100", "sigmoid(100*z)", sig(100)),
    ("logit-x100-shift", "sigmoid(100*z - 7.77)", sig(100, -7.77)),
    ("logit-x1/3-shift", "sigmoid(z/3 + 1)", sig(1 / 3, 1.0)),
    ("probit-x5", "Phi(5*z)", probit(5)),
    ("probit-x10", "Phi(10*z)", probit(10)),
    ("probit-x20", "Phi(20*z)", probit(20)),
    ("probit-x100", "Phi(100*z)", probit(100)),
    ("probit-shift", "Phi(2*z - 3)", probit(2, -3.0)),
    ("cauchit-x10", "0.5+atan(10*z)/pi", cauchit(10)),
    ("cauchit-x100", "0.5+atan(100*z)/pi", cauchit(100)),
    ("cauchit-shift", "0.5+atan(3*z+2)/pi", cauchit(3, 2.0)),
    ("cloglog-x10", "1-exp(-exp(10*z))", cloglog(10)),
    ("cloglog-x20", "1-exp(-exp(20*z))", cloglog(20)),
    ("cloglog-shift", "1-exp(-exp(z-1))", cloglog(1, -1.0)),
    ("loglog-x10", "exp(-exp(-10*z))", loglog(10)),
    ("loglog-shift", "exp(-exp(-2*z+1))", loglog(2, -1.0)),
    (
        "logit-squared",
        "sigmoid(z)**2",
        (
            lambda z: 2 * special.expit(z) ** 2 * (1 - special.expit(z)),
            lambda z: (
                2 * special.expit(z) ** 2 * (1 - special.expit(z)) * (2 - 3 * special.expit(z))
            ),
            [],
        ),
    ),
    (
        "probit-product",
        "Phi(z)*Phi(2*z)",
        (
            lambda z: _npdf(z) * special.ndtr(2 * z) + 2 * special.ndtr(z) * _npdf(2 * z),
            lambda z: (
                -z * _npdf(z) * special.ndtr(2 * z)
                + 4 * _npdf(z) * _npdf(2 * z)
                - 8 * z * special.ndtr(z) * _npdf(2 * z)
            ),
            [],
        ),
    ),
    ("mix-logit-probit", "0.3*sigmoid(z)+0.7*Phi(3*z-1)", mix(0.3, sig(1), probit(3, -1.0))),
    (
        "mix-two-logits",
        "0.5*sigmoid(4*z+2)+0.5*sigmoid(z/2-1)",
        mix(0.5, sig(4, 2.0), sig(0.5, -1.0)),
    ),
    ("mix-cloglog-logit", "0.2*(1-exp(-exp(z)))+0.8*sigmoid(2*z)", mix(0.2, cloglog(1), sig(2))),
    (
        "logit-x3-cubed",
        "sigmoid(3*z)**3",
        (
            lambda z: 9 * special.expit(3 * z) ** 3 * (1 - special.expit(3 * z)),
            lambda z: (
                27
                * special.expit(3 * z) ** 3
                * (1 - special.expit(3 * z))
                * (3 - 4 * special.expit(3 * z))
            ),
            [],
        ),
    ),
    ("tanh", "tanh(z)", tanh_power(1)),
    ("tanh-cubed", "tanh(z)**3", tanh_power(3)),
    ("tanh-21", "tanh(z)**21", tanh_power(21)),
    ("tanh-product-10", "*".join(f"(3+tanh(z/{k}))" for k in range(1, 11)), tanh_product(10)),
    (
        "2z+tanh",
        "2*z+tanh(z)",
        (lambda z: 2 + _sech2(z), lambda z: -2 * _sech2(z) * np.tanh(z), []),
    ),
    ("z+sin/2", "z + sin(z)/2", (lambda z: 1 + np.cos(z) / 2, lambda z: -np.sin(z) / 2, [])),
    (
        "asinh",
        "asinh(z)",
        (lambda z: 1 / np.sqrt(1 + z * z), lambda z: -z / (1 + z * z) ** 1.5, []),
    ),
    (
        "algebraic-sigmoid",
        "z/sqrt(1+z**2)",
        (lambda z: (1 + z * z) ** -1.5, lambda z: -3 * z * (1 + z * z) ** -2.5, []),
    ),
    (
        "erf",
        "erf(z)",
        (
            lambda z: 2 / math.sqrt(math.pi) * np.exp(-z * z),
            lambda z: -4 * z / math.sqrt(math.pi) * np.exp(-z * z),
            [],
        ),
    ),
    ("atan", "atan(z)", (lambda z: 1 / (1 + z * z), lambda z: -2 * z / (1 + z * z) ** 2, [])),
    ("exp", "exp(z)", (np.exp, np.exp, [])),
    ("cubic", "z**3+z", (lambda z: 3 * z * z + 1, lambda z: 6 * z, [])),
    (
        "softplus",
        "log1p(exp(z))",
        (special.expit, lambda z: special.expit(z) * special.expit(-z), []),
    ),
    ("identity", "z", const(1.0)),
    # potential-defined links (Link.from_potential with a domain)
    ("pot-binary-entropy", ("m*log(m)+(1-m)*log(1-m)", "0,1"), sig(1)),
    (
        "pot-entropy-on-(0,2)",
        ("m*log(m)+(2-m)*log(2-m)", "0,2"),
        (lambda z: 2 * sig(1)[0](z), lambda z: 2 * sig(1)[1](z), []),
    ),
    ("pot-entropy/4", ("(m*log(m)+(1-m)*log(1-m))/4", "0,1"), sig(4)),
    (
        "pot-circle",
        ("-sqrt(1-m**2)", "-1,1"),
        (lambda z: (1 + z * z) ** -1.5, lambda z: -3 * z * (1 + z * z) ** -2.5, []),
    ),
    ("pot-asinh", ("m*asinh(m)-sqrt(1+m**2)", "-inf,inf"), (np.cosh, np.sinh, [])),
    (
        "pot-atanh",
        ("((1+m)*log(1+m)+(1-m)*log(1-m))/2", "-1,1"),
        (lambda z: _sech2(z), lambda z: -2 * _sech2(z) * np.tanh(z), []),
    ),
    ("pot-quadratic", ("m**2/2", "-inf,inf"), const(1.0)),
    ("pot-negative-entropy", ("m*log(m)-m", "0,inf"), (np.exp, np.exp, [])),
    ("pot-lambert", ("m*log(m)-m+m**2/2", "0,inf"), lambert()),
    (
        "pot-weighted-entropy-0.6",
        ("1.6*m*log(m)+0.4*(1-m)*log(1-m)-1.2*(1-log(2))*m", "0,1"),
        weighted_entropy(0.6),
    ),
]

_LIMIT = 12.0  # |z| <= 12 sigma: the Gaussian weight beyond is below 1e-31


def _quad(f, lo, hi, points):
    pts = [p for p in points if lo < p < hi]
    val, err = integrate.quad(f, lo, hi, points=pts or None, limit=400, epsabs=1e-15, epsrel=1e-13)
    return val, err


def reference_lambda_star(g1, g2, points, delta):
    """λ* from eq:mu_star_m2_def by scipy quadrature; returns (value, error estimate).

    μ* = E[g'(U + ΔZ/2) 1{Z>0}] is the 2-D integral ∫∫_{z>0} g'(u + Δz/2) φ_s(u) φ(z) du dz;
    in the variables (w, z) = (u + Δz/2, z) (Fubini) it is ∫ g'(w) K(w) dw with
    K(w) = ∫_0^∞ φ(z) φ_s(w − Δz/2) dz, so g' is evaluated once per outer node and K(w) by its
    own quad (no closed form is used). m2 = ∫ g''(u) φ_s(u) du.
    """
    s = math.sqrt(1 - delta * delta / 4)
    k_err = [0.0]

    c = 1 / (2 * math.pi * s)

    def kernel(w):
        val, err = integrate.quad(
            lambda z: c * math.exp(-0.5 * z * z - 0.5 * ((w - delta * z / 2) / s) ** 2),
            0,
            _LIMIT,
            epsabs=1e-16,
            epsrel=1e-14,
            limit=200,
        )
        k_err[0] = max(k_err[0], err)
        return val

    mu, mu_err = _quad(lambda w: g1(w) * kernel(w), -_LIMIT, _LIMIT, points)
    l1, _ = _quad(lambda w: abs(g1(w)), -_LIMIT, _LIMIT, points)
    mu_err += k_err[0] * l1  # |∫ g' (K − K_computed)| ≤ max|K error| ∫|g'|
    m2, m2_err = _quad(lambda u: g2(u) * _npdf(u / s) / s, -_LIMIT * s, _LIMIT * s, points)
    lam = delta * mu - 2 * PHI0 * max(m2, 0.0) * s * s  # eq:decision_stability
    return lam, delta * mu_err + 2 * PHI0 * s * s * m2_err


def _build(spec):
    if isinstance(spec, tuple):
        return Link.from_potential(spec[0], domain=spec[1])
    return Link.from_expression(spec)


@pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")
@pytest.mark.parametrize("key, spec, derivs", VALID, ids=[v[0] for v in VALID])
def test_valid_link_accepted_and_lambda_star_matches_definition(key, spec, derivs):
    link, calls = count_calls(lambda: _build(spec))  # accepted: no exception
    assert calls <= BUILD_CALLS, (key, calls)
    g1, g2, points = derivs
    for delta in DELTAS:
        res = stability(link, delta)
        assert res.tier == "float64", (key, res.tier, res.notes)
        ref, ref_err = reference_lambda_star(g1, g2, points, float(delta))
        stated = res.errors["lambda_star"] + ref_err
        diff = abs(res.values["lambda_star"] - ref)
        assert diff <= SAFETY * stated, (key, delta, res.values["lambda_star"], ref, diff, stated)


def test_corpus_size():
    assert len(VALID) >= 40 and len(INVALID) >= 25


# ----------------------------------------------------------------------------- invalid inputs
INVALID = [
    # (constructor arguments, exception type, regex of the reason)
    ("-z", NBLInputError, r"not strictly increasing: g'\(0\) = -1 < 0 \(certified enclosure"),
    ("-sigmoid(z)", NBLInputError, r"not strictly increasing: g'\(0\) = -0\.25 < 0"),
    ("Phi(-3*z)", NBLInputError, r"not strictly increasing: g'\(0\) = -1\.2 < 0"),
    ("exp(-z)", NBLInputError, r"not strictly increasing: g'\(-10\) = -2\.2e\+04 < 0"),
    ("sin(z)", NBLInputError, r"not strictly increasing: g'\(-3\.14\) = -1 < 0"),
    ("z**2", NBLInputError, r"not strictly increasing: g'\(-10\) = -20 < 0"),
    ("z - 2*tanh(z)", NBLInputError, r"not strictly increasing: g'\(0\) = -1 < 0"),
    (
        "z+0.01*sin(1000*z)",
        NBLInputError,
        r"not strictly increasing: g'\([-0-9.]+\) = -[0-9.]+ < 0",
    ),
    (
        "z - 1/(z-1/3)",
        NBLInputError,
        r"not strictly increasing: g\(0\.34\) = -150 < g\(0\.32\) = 75\.3 \(certified enclosures",
    ),
    (
        "(z+sqrt(z**2))/2",
        NBLInputError,
        r"not strictly increasing: g' = 0 on \(-inf, 0\) \(proven symbolically",
    ),
    (
        "z-sqrt(z**2)",
        NBLInputError,
        r"not strictly increasing: g' = 0 on \(0, inf\) \(proven symbolically",
    ),
    ("sin(z)**2+cos(z)**2", NBLInputError, r"g' = 0 identically"),
    ("3", NBLInputError, r"does not depend on z"),
    ("log(z)", NBLInputError, r"not finite/real at z = 0: g\(0\) contains log\(0\) \(exact"),
    ("sqrt(z)", NBLInputError, r"not finite/real at z = 0: g'\(0\) contains a division by zero"),
    ("sqrt(z - 1)", NBLInputError, r"not finite/real at z = 0: Im g\(0\) is in \[1, 1\]"),
    ("1/z", NBLInputError, r"not finite/real at z = 0: g\(0\) contains a division by zero"),
    (
        "sin(z)/z + z",
        NBLInputError,
        r"not finite/real at z = 0: g\(0\) contains a division by zero",
    ),
    ("z + log(-2)", NBLInputError, r"not finite/real at z = 0: Im g\(0\) is in \[3\.14, 3\.15\]"),
    (
        "z + sqrt(z**2)/2",
        NBLInputError,
        r"g'' contains a DiracDelta/Heaviside \(from \|\.\| or sign\)",
    ),
    ("z*exp(z**2)", DivergentIntegralError, r"E\|g\(Z\)\| diverges"),
    ("z + sinh(z**3)", DivergentIntegralError, r"E\|g\(Z\)\| diverges"),
    ("exp(exp(exp(z)))", DivergentIntegralError, r"E\|g\(Z\)\| diverges"),
    ("exp(10*z)", DivergentIntegralError, r"grows too fast"),
    ("exp(z**2)", NBLInputError, r"not strictly increasing"),
    (
        ("m**3", "-1,1"),
        NBLInputError,
        r"not strictly convex on \(-1, 1\): phi''\(-0\.00999967\)"
        r" = -0\.06 <= 0 \(certified enclosure",
    ),
    (("-m**2", "-inf,inf"), NBLInputError, r"not strictly convex .*phi''\(0\) = -2 <= 0"),
    (("m**4", "-inf,inf"), NBLInputError, r"phi''\(0\) = 0 <= 0 \(certified enclosure \[0, 0\]"),
    (("log(m)", "0,1"), NBLInputError, r"not strictly convex on \(0, 1\): phi''\(0\.5\) = -4"),
    (("m*log(m)", "-1,1"), NBLInputError, r"not real at m = -0\.00999967"),
    (("-log(m)", "0,inf"), NBLInputError, r"dual domain .* = \(-oo, 0\) does not cover R"),
    (("m**2/2", "0,1"), NBLInputError, r"dual domain .* = \(0, 1\) does not cover R"),
    (("m*log(m)", "0,1"), NBLInputError, r"dual domain .* = \(-oo, 1\) does not cover R"),
    ("z*9**9**9", NBLInputError, r"exponent 9\*\*9 exceeds the bound \|e\| <= 1000"),
    ("z*1e999999999", NBLInputError, r"literal 1e999999999 is outside \[1e-300, 1e300\]"),
    ("__import__('os')", NBLInputError, r"function '__import__' is not allowed"),
    ("z.real", NBLInputError, r"attribute access \(a\.b\) is not allowed"),
    ("z +", NBLInputError, r"malformed expression"),
    ("(" * 5000 + "z" + ")" * 5000, NBLInputError, r"longer than 2000 characters"),
]


@pytest.mark.parametrize("spec, exc, reason", INVALID, ids=[str(v[0])[:40] for v in INVALID])
def test_invalid_input_refused_with_reason(spec, exc, reason):
    with pytest.raises(exc, match=reason) as info, counting() as work:
        _build(spec)
    assert work.calls <= BUILD_CALLS
    assert "\n" not in str(info.value)
