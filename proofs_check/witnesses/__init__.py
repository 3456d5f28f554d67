"""Witnesses: the deliberately independent re-computations the claims compare the paper and the
library with (docs/architecture.md, "Statuses and the two computations").

A witness computes a quantity of the paper from its definition by a route the library does not
take — a direct 2-D quadrature where the library reduces to 1-D, an own one-arm integral where
the library uses graded panels, a numpy re-run of alg:nbl next to the compiled kernel, a polar
quadrature on the disagreement wedges, exact rational geometry — and says how accurate it is.
The claims in :mod:`proofs_check.claims` only register statements and compare.

Modules (by concept)
--------------------
:mod:`.stats`
    Monte Carlo statistics: means and SEs, binomial z, quantile intervals, Clopper–Pearson,
    Gaussian-limit quantiles, least-squares rate fits.
:mod:`.gaussian`
    Gaussian expectation rules (tensor Gauss–Hermite, Gauss–Legendre means, Gauss–Legendre on
    a link's chart split at the kinks of |g''|, κ(a) from its definition, absolute moments in
    closed form).
:mod:`.stein`
    The Gaussian Stein identities (sec:stein, lem:gaussian_stein) by tensor Gauss–Hermite in
    the original coordinates and mpmath quad, against a given μ_g.
:mod:`.potentials`
    The elicitation geometry in sympy from the definitions: the Bregman loss, the table as
    printed, implicit link derivatives, inverses, conjugates, dual domains, induced potentials.
:mod:`.concordance`
    Self-concordance on a chart grid; μ* and m2 from the φ-formulas of app:elicitation_stability.
:mod:`.geometry`
    Exactly rational unit vectors and rotations, random pairs on the sphere, the paper's paths.
:mod:`.links`
    Links written from the paper's formulas, increasing test links, sup |g'|.
:mod:`.direct_definitions`
    μ*, κ*, m0, m2 from their 2-D definitions; the tangent spectrum of eq:Jacobian.
:mod:`.fields`
    The population field, tangent field and potential J from own one-arm integrals; the
    boundary matrix; the tangent Jacobian by Richardson differences.
:mod:`.local_expansions`
    Finite-difference fields along the paths of app:local_jacobian and app:local_stability;
    the finite-difference tangent spectrum of Dh(v*).
:mod:`.local_jacobian`
    The steps of the proof of prop:local_jacobian and the rates of eq:decision_stability,
    each against the paper's formula (errors in units of the field scale).
:mod:`.population`
    The population field's identities (equilibrium, ∇J = F, H(α), the 2-D restoring
    condition) on the own field, and the Monte Carlo mean of the update under greedy allocation.
:mod:`.martingale`
    The martingale statistics of lem:conditional_population_field along NBL trajectories,
    with the bias each run resolves.
:mod:`.weighted_entropy`
    The weighted binary negative entropy of app:elicitation-geometry in sympy from the
    paper's definition; printed formulas parsed.
:mod:`.lambda0`
    λ0(r0) minimisers and the local stability radius (cor:local_stability).
:mod:`.paths`
    NBL paths re-run in numpy, stopped quantities, kernel runs for long horizons.
:mod:`.disagreement`
    Polar quadrature on the disagreement wedges (app:error-to-regret).
:mod:`.subgaussian`
    Laws at the edge of the tail hypothesis of lem:tail_to_mgf.
:mod:`.initialization`
    The randomized initialization simulated directly, with its exact Stein moments.
:mod:`.experiments`
    The paper's experiments re-run with the toolkit's simulator, with the printed settings.
:mod:`.printed`
    Numbers rounded as the paper prints them.
:mod:`.toolkit_values`
    Not witnesses: the toolkit's values the claims compare with, cached once per process.

The library (``nbl_theory``, ``nbl_sim``) never imports this package.
"""

__all__: list[str] = []
