"""Claims of the Stein identification (sec:stein) and the Gaussian Stein identities
(app:gaussian_stein).

The Stein identities are d-dimensional integrals checked by tensor Gauss–Hermite quadrature in
the original coordinates (a generic, non-axis β, so no 1-D reduction is used on the left side);
the error estimate is the difference between two node counts. The right sides use the theory
core's μ_g (float64; at 30 digits for the 1-D identity E[Zg(Z)] = E[g'(Z)], checked with mpmath
quad) or composite Gauss–Legendre in 1-D (the lemma's test functions); the second-order identity
along θ on the paper's links is checked from the 2-D definitions
(:mod:`proofs_check.witnesses.direct_definitions`).
"""

from __future__ import annotations

from nbl_sim.engine.environment import Environment
from nbl_theory.paper import PAPER_LINKS, paper_link
from nbl_theory.stability import stability

from ...registry import FAIL, PASS, Mutant, Outcome, register
from ...witnesses import stein as ws
from ...witnesses.direct_definitions import DIRECT_CASES, direct_moments, m2_stein_form
from ...witnesses.printed import link_label, mp_nstr
from ...witnesses.toolkit_values import mp_at, mu_g

__all__: list[str] = []

#: The six named links of the paper, then logistic and probit.
_STEIN_KEYS = (*PAPER_LINKS, "logistic", "probit")


# ====================================================================== sec:stein
_STEIN_TOL = 1e-10
_STEIN_WHY = (
    "tensor Gauss-Hermite in the original coordinates (a ridge function g(b^T x) "
    "misaligned with the grid converges more slowly than in 1-D: ~1e-12 at 100-120 "
    "nodes per axis for the steepest link, two-transition b1 = 2); the difference "
    "between the two node counts, an estimate of the coarser rule's error, must also "
    "be below the tolerance; the theory core's float64 mu_g is accurate to ~1e-14"
)
_NODES = {2: (160, 200), 3: (100, 120)}


@register(
    "stein-first-order-prop",
    "prop:first-order-stein",
    "sec:stein",
    "E{g(beta^T X) X} = beta E{g'(beta^T X)} = mu_g beta for beta in S^{d-1}, X ~ N(0, I_d) "
    "(the paper's six links, logistic, probit; generic beta in d = 2, 3)",
    "high-precision",
    f"absolute {_STEIN_TOL:g}",
    _STEIN_WHY,
    printed="mu_g beta",
    mutants=(
        Mutant.printed("right side mu_g beta (1 + 1e-6)", scale=1 + 1e-6, keys=("logistic",)),
    ),
)
def _first_order_prop(scale=1.0, keys=_STEIN_KEYS):
    links = {key: paper_link(key) for key in keys}
    mus = {key: mu_g(link) for key, link in links.items()}
    worst, est, cases = ws.first_order_errors(links, mus, _NODES, scale, seed=515)
    rows = [f"{link_label(key)} d={d}: {err:.1e}" for key, d, err in cases]
    ok = worst <= _STEIN_TOL and est <= _STEIN_TOL
    return Outcome(
        PASS if ok else FAIL,
        f"max |E g(b^T X) X - mu_g b| = {worst:.1e} (quadrature error estimate {est:.1e})",
        "mu_g from the theory core (stability(...).values['mu_g']); nodes per axis "
        f"{_NODES}; " + "; ".join(rows),
    )


@register(
    "stein-first-order-1d-30digits",
    "prop:first-order-stein",
    "sec:stein",
    "The scalar identity behind the proposition, E[Z g(Z)] = E[g'(Z)] (= mu_g of the "
    "theory core), at 30 digits for the six paper links, logistic and probit",
    "high-precision",
    "absolute 1e-25",
    "mpmath quad at 35 digits on the link's chart over |z| <= 14 (Gaussian tail beyond: "
    "< 1e-42); the theory core's mpmath tier at 30 digits",
    quick=False,
    mutants=(
        Mutant.formula(
            "E[g'(Z)] shifted by 1e-20 (logistic only: seconds)", shift="1e-20", keys=("logistic",)
        ),
    ),
)
def _first_order_1d(shift="0", keys=_STEIN_KEYS):
    errs, rows = [], []
    for key in keys:
        link = paper_link(key)
        mu = stability(link, "1", dps=30, auto_raise=False).values["mu_g"]
        a, err = ws.scalar_identity(link, mu, shift, dps=35)
        errs.append(err)
        rows.append(f"{link_label(key)}: E Zg(Z) = {mp_nstr(a, 20)}, |diff| {mp_nstr(err, 2)}")
    worst = max(errs)
    ok = worst <= 1e-25
    return Outcome(PASS if ok else FAIL, f"max diff {mp_nstr(worst, 3)}", "; ".join(rows))


@register(
    "stein-vstar-identity",
    "eq:Stein_for_vstar",
    "sec:stein",
    "E{m_+(X)X - m_-(X)X} = mu_g (beta_+ - beta_-) = Delta mu_g v*, with mu_g > 0 "
    "(toolkit environments: random v*, theta; Delta in {0.2, 1, 1.8} in d = 2, {0.2, 1.8} "
    "in d = 3)",
    "high-precision",
    f"absolute {_STEIN_TOL:g}",
    _STEIN_WHY,
    printed="Delta mu_g v*",
    mutants=(Mutant.printed("right side (Delta/2) mu_g v*", coef=0.5, keys=("logistic",)),),
)
def _stein_vstar(coef=1.0, keys=_STEIN_KEYS):
    worst, est, mus, n = 0.0, 0.0, [], 0
    for key in keys:
        link = paper_link(key)
        mu = mu_g(link)
        mus.append(mu)
        dims = (2,) if link.kind == "potential" else (2, 3)
        for delta in ("0.2", "1", "1.8"):
            for d in dims:
                if d == 3 and delta == "1" or link.kind == "potential" and delta == "1":
                    continue
                env = Environment.build(
                    link, delta, d, v_star="random", theta_dir="random", geometry_seed=77 + d
                )
                bm, bp = env.beta
                err, e = ws.two_arm_errors(
                    link.g_numpy, bm, bp, env.delta, env.v_star, mu, _NODES[d], coef
                )
                est = max(est, e)
                worst = max(worst, err)
                n += 1
    ok = worst <= _STEIN_TOL and est <= _STEIN_TOL and min(mus) > 0
    return Outcome(
        PASS if ok else FAIL,
        f"max |E(m_+ - m_-)(X)X - Delta mu_g v*| = {worst:.1e} over {n} cases; "
        f"min mu_g = {min(mus):.6f} > 0",
        f"quadrature error estimate {est:.1e}; links: the six paper links (weighted-"
        "entropy, whose g inverts phi' by bisection: d = 2, Delta in {0.2, 1.8}), "
        "logistic, probit; mu_g from the theory core",
    )


# ====================================================================== app:gaussian_stein
_LEMMA_NODES = {1: (150, 200), 2: (200, 240), 3: (80, 100)}


@register(
    "gaussian-stein-lemma",
    "lem:gaussian_stein",
    "app:gaussian_stein",
    "For X ~ N(0, I_d), any beta in R^d (not only unit) and smooth f: E[X f(b^T X)] = "
    "E[f'(b^T X)] b and E[X X^T f(b^T X)] = E[f(b^T X)] I + E[f''(b^T X)] b b^T "
    "(equivalently E[(XX^T - I) f] = E f'' b b^T); five test functions, d in {1, 2, 3}",
    "high-precision",
    "absolute 1e-10 x max(1, |entry|)",
    "left sides by tensor Gauss-Hermite in d dimensions (the steep tanh(1.5z - 0.2) along "
    "a misaligned b with |b| = 1.3 converges slowest: ~1e-12 at 240 nodes per axis; the "
    "difference of two node counts must also be below the tolerance), right sides by "
    "composite Gauss-Legendre in 1-D (error < 1e-15)",
    covers=("eq:stein_first", "eq:stein_second"),
    mutants=(
        Mutant.formula("second order: E f'' b b^T / 2", second=0.5, cases=((2, 1.3),)),
        Mutant.formula(
            "first order: E[f(b^T X)] b in place of E[f'(b^T X)] b", first=0, cases=((2, 1.3),)
        ),
    ),
)
def _lemma(second=1.0, first=1, cases=((1, 0.7), (2, 1.3), (3, 0.6), (3, 1.1))):
    lem = ws.gaussian_stein_lemma(cases, _LEMMA_NODES, second, first, seed=99)
    worst1, worst2, est, n = lem["first"], lem["second"], lem["est"], lem["n"]
    ok = max(worst1, worst2, est) <= 1e-10
    return Outcome(
        PASS if ok else FAIL,
        f"first order: max rel. err {worst1:.1e}; second order: {worst2:.1e} ({n} cases)",
        evidence={
            "eq:stein_first": f"E[X f(b^T X)] = E[f'(b^T X)] b: max rel. err "
            f"{worst1:.1e} over {n} cases",
            "eq:stein_second": f"E[X X^T f(b^T X)] = E f I + E f'' b b^T: max "
            f"rel. err {worst2:.1e} over {n} cases",
        },
        detail=f"quadrature error estimate {est:.1e}; test functions "
        f"{', '.join(ws.TEST_FUNCTIONS)}; |beta| in {{0.7, 1.3, 0.6, 1.1}} for d = 1, "
        "2, 3, 3 (random direction); complements m2-stein-identity (the 1-D "
        "second-order form on the paper's links)",
    )


@register(
    "m2-stein-identity",
    "eq:stein_second",
    "app:gaussian_stein",
    "m2 = E[g''(U)] equals E[g(U)(U^2 - s^2)]/s^4 (second-order Stein identity along "
    "theta), and the toolkit's m2",
    "high-precision",
    "absolute 1e-12",
    "m2 can vanish (logistic-like links), so the error is measured absolutely; float64 "
    "Gauss-Legendre errors are < 1e-14 on these O(0.1) integrands",
    printed="E[g(U)(U^2 - s^2)]/s^4",
    mutants=(Mutant.formula("Stein form divided by s^2 in place of s^4", power=2),),
)
def _m2_stein(power=4):
    rows, worst = [], 0.0
    for key, d in DIRECT_CASES:
        direct = direct_moments(key, float(d))
        stein = m2_stein_form(direct, float(d), power)  # E[g(U)(U^2 - s^2)]/s^power
        lib = float(mp_at(key, d, 30).values["m2"])
        err = max(abs(stein - direct["m2"]), abs(direct["m2"] - lib))
        worst = max(worst, err)
        rows.append(
            f"{key} at Delta={d}: E g''(U) {direct['m2']:.15g}, Stein "
            f"{stein:.15g}, library {lib:.15g}"
        )
    return Outcome(PASS if worst <= 1e-12 else FAIL, f"max abs. diff {worst:.2e}", "; ".join(rows))
