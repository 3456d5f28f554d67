"""The paper's claims, one module (or subpackage) per section of the paper together with the
appendices that prove it; importing this package registers them in
:data:`proofs_check.registry.REGISTRY` (modules in alphabetical order; the report sorts the
claims by paper section).

=========================  ==============================================================
module                     sections
=========================  ==============================================================
:mod:`.setup`              sec:setup
:mod:`.stein`              sec:stein, app:gaussian_stein, app:initialization
:mod:`.nbl`                sec:nbl, app:conditional_population_field,
                           app:local_stability_in_2D, app:local_jacobian, app:local_stability
:mod:`.elicitation`        sec:elicitation_geometry, app:elicitation, app:bregman_mean,
                           app:primal_dual, app:link_to_potential
:mod:`.decision_stability` sec:decision_stability_geometry, app:elicitation_stability,
                           app:self_concordance
:mod:`.regret`             sec:regret, app:stochastic_analysis, app:localization,
                           app:stopped-stochastic-control, app:localized-estimation,
                           app:error-to-regret, the regret-rate study
:mod:`.numerics`           sec:numerics, app:numerics, app:simulation-setup, app:link-geometry,
                           app:elicitation-geometry, app:tanh-geometry, app:stochastic-nbl,
                           app:logistic-comparison
:mod:`.beyond`             beyond:contexts — nbl's own statements past assum:gaussian_context
                           (other context laws, arms and links; not the paper's claims)
:mod:`.repairs`            beyond:repairs — nbl's own statements: which repairs of NBL (whitened
                           contexts, centred rewards) fix which departures
:mod:`.ledger`             every proof, step by step (proofs_check.ledger): one claim per
                           proof with transcribed steps
:mod:`.assumptions`        the paper audit: hypotheses used vs stated (every result), alg:nbl
                           as printed and what it leaves undefined, notation
=========================  ==============================================================

Claim modules hold registrations and the comparisons; the independent re-computations they
compare with live in :mod:`proofs_check.witnesses`.
"""

from . import (  # noqa: F401  (registers on import)
    assumptions,
    beyond,
    decision_stability,
    elicitation,
    ledger,
    nbl,
    numerics,
    regret,
    repairs,
    setup,
    stein,
)

__all__ = [
    "setup",
    "stein",
    "nbl",
    "elicitation",
    "decision_stability",
    "regret",
    "numerics",
    "assumptions",
    "beyond",
    "repairs",
    "ledger",
]
