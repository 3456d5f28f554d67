"""The toolkit's own values that the claims compare witnesses with, cached once per process.

These are *not* witnesses: they call the library under test (``nbl_theory.stability`` at its
three precision tiers, ``nbl_sim.population``'s quadrature scale, the regret-rate study). They
live here so that the claims of several sections share one evaluation (a certified λ* takes
about half a second, the regret-rate study minutes) and so that a claims module never defines
machinery of its own.
"""

from __future__ import annotations

import functools

from nbl_sim import population as pop
from nbl_theory import elicitation as el
from nbl_theory.families import make_family
from nbl_theory.paper import paper_link
from nbl_theory.stability import stability
from nbl_theory.threshold import find_thresholds

__all__ = ["certified_at", "mp_at", "float_values", "mu_g", "field_scale", "delta_roots",
           "weighted_entropy_facts", "regret_rate_study", "parameter_roots"]


@functools.cache
def certified_at(key: str, delta: str):
    """Certified :class:`~nbl_theory.results.StabilityResult` of the paper link ``key``."""
    return stability(paper_link(key), delta, certify=True)


@functools.cache
def mp_at(key: str, delta: str, dps: int):
    """mpmath-tier result of the paper link ``key`` at ``dps`` digits (no automatic precision
    raise)."""
    return stability(paper_link(key), delta, dps=dps, auto_raise=False)


@functools.cache
def float_values(link, delta: str) -> dict:
    """The float64 tier's values (μ_g, μ*, m0, m2, κ*, λ*, ...) as floats."""
    return {k: float(v) for k, v in stability(link, delta).values.items()}


@functools.cache
def mu_g(link) -> float:
    """μ_g = E g'(Z) from the float64 tier (μ_g does not depend on Δ; evaluated at Δ = 1)."""
    return float(stability(link, "1").values["mu_g"])


@functools.cache
def field_scale(link) -> float:
    """max(1, S), S = E|g(s)|(1 + |s|) (:func:`nbl_sim.population.quadrature_scale`): the scale
    the population-field tolerances are relative to."""
    return max(1.0, pop.quadrature_scale(link))


@functools.cache
def weighted_entropy_facts() -> dict:
    """{fact: (computed, printed, equal)} of the weighted binary negative entropy φ_ρ for symbolic
    ρ (:func:`nbl_theory.elicitation.weighted_entropy_facts`; cases ρ > 0, < 0, = 0)."""
    return el.weighted_entropy_facts(el.RHO)


@functools.cache
def regret_rate_study():
    """The full regret-rate study (``nbl study``; :mod:`nbl_sim.rate_study`), computed once per
    process through the sweep runner's cache (``.nbl_cache/sweeps/study``, the cache ``nbl
    study`` writes), and its analysis.

    Raises
    ------
    RuntimeError
        Some study cells failed (their errors are quoted).
    """
    from nbl_sim.rate_study import FULL, run_study
    from nbl_sim.sweep import DEFAULT_CACHE_DIR, ChunkCache

    res = run_study(FULL, cache=ChunkCache(DEFAULT_CACHE_DIR, "study"))
    if res.failures:
        raise RuntimeError(f"{len(res.failures)} study cells failed: "
                           + "; ".join(f.error for f in res.failures[:3]))
    return res, res.analysis()


@functools.cache
def delta_roots(key: str):
    """Every certified sign change of λ*(Δ) of the paper link ``key`` on a 160-point grid of
    (0, 2) (:func:`nbl_theory.threshold.find_thresholds`)."""
    return find_thresholds(paper_link(key), "delta", grid=160, certify=True, label=key)


@functools.cache
def parameter_roots(family: str, parameter: str, delta: str, certify: bool = True,
                    bracket: tuple | None = None, grid: int = 160):
    """Every sign change of λ* over a family parameter at fixed Δ
    (:func:`nbl_theory.threshold.find_thresholds` with ``grid`` scan points; certified brackets
    when ``certify``), cached so that a claim's mutants reuse it."""
    return find_thresholds(lambda v: make_family(family, **{parameter: v}), parameter,
                           delta=delta, bracket=bracket, grid=grid, certify=certify,
                           label=family)
