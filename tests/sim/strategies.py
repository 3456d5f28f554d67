"""hypothesis strategies shared by the simulation tests: links, separations, dimensions.

Links come from three sources, so property tests run over link *geometry*, not a few hand-picked
cases:

* two-transition links (eq:link_tanh) with a1, a2, b1, b2 > 0, p0 chosen so g stays in [0, 1]
  (Bernoulli rewards are possible);
* the weighted-entropy family g_ρ (app:elicitation-geometry), ρ ∈ (−0.95, 0.95);
* potentials from a small grammar of strictly convex terms whose dual domain is all of ℝ
  (eq:app_full_dual_domain): a barrier term fixes the domain, optional quadratic / log-cosh terms
  keep φ'' > 0.

Numbers are drawn on a decimal grid and passed as strings, so links are exact sympy objects.
"""

from __future__ import annotations

from hypothesis import strategies as st

from nbl_theory.families import make_family
from nbl_theory.links import Link


def _dec(lo: int, hi: int, scale: int = 100):
    """Decimal strings k/scale for k in [lo, hi]."""
    return st.integers(lo, hi).map(lambda k: repr(k / scale))


@st.composite
def two_transition_links(draw) -> Link:
    a1 = draw(st.integers(2, 25))  # hundredths
    a2 = draw(st.integers(2, 25))
    p0 = draw(st.integers(0, 100 - 2 * (a1 + a2)))
    params = {
        "p0": repr(p0 / 100),
        "a1": repr(a1 / 100),
        "a2": repr(a2 / 100),
        "b1": draw(_dec(3, 30, 10)),
        "b2": draw(_dec(3, 30, 10)),
        "mu1": draw(_dec(-20, 20, 10)),
        "mu2": draw(_dec(-20, 20, 10)),
    }
    return make_family("two-transition", **params)


def weighted_entropy_links():
    return _dec(-95, 95).map(lambda r: make_family("weighted-entropy", rho=r))


@st.composite
def potential_links(draw) -> Link:
    """φ = barrier + optional convex extras, with φ'(domain) = ℝ."""
    barrier = draw(st.sampled_from(["unit", "half-line", "line"]))
    c = draw(_dec(1, 20, 10))
    q = draw(st.sampled_from(["0", "0.5", "1", "2"]))
    if barrier == "unit":  # binary entropy (+ quadratic): dual domain ℝ from the log barriers
        w = draw(_dec(-8, 8, 10))  # asymmetric weights as in φ_ρ
        expr = f"{c}*((1+{w})*m*log(m) + (1-{w})*(1-m)*log(1-m)) + {q}*m**2"
        domain = (0, 1)
    elif barrier == "half-line":  # negative entropy (+ quadratic): φ' = c log m + 2qm
        # with q = 0, g = e^{z/c}; c ≥ 0.5 keeps the growth within what the toolkit integrates
        # (e^{10z} is refused at construction, see Link validation)
        c = draw(_dec(5, 20, 10))
        expr = f"{c}*(m*log(m) - m) + {q}*m**2"
        domain = (0, "inf")
    else:  # quadratic + log-cosh on ℝ: φ' = m + c tanh(m), φ'' = 1 + c sech² > 0
        expr = f"m**2/2 + {c}*log(cosh(m))"
        domain = ("-inf", "inf")
    return Link.from_potential(expr, domain=domain)


def any_links():
    return st.one_of(two_transition_links(), weighted_entropy_links(), potential_links())


def bernoulli_links():
    """Links with values in [0, 1]: two-transition (p0 chosen accordingly) and g_ρ."""
    return st.one_of(two_transition_links(), weighted_entropy_links())


deltas = _dec(5, 195)  # Δ ∈ (0.05, 1.95) as decimal strings
dims = st.sampled_from([2, 3, 5])
