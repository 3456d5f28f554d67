"""Transcriptions of the paper's proof steps, one data module per proof (or appendix section);
the format is in :mod:`proofs_check.ledger`. A new module is added to :data:`MODULES` (static
imports, so the claim runner's cache keys follow every transcription)."""

from . import (
    cor_local_stability,
    lem_bregman_mean,
    lem_conditional_population_field,
    lem_finite_horizon_localization,
    lem_gaussian_polynomial_disagreement,
    lem_gaussian_stein,
    lem_local_one_step,
    lem_maximal_subgaussian_martingale,
    lem_normalization,
    lem_sa_recursion,
    lem_stopped_stochastic_control,
    lem_tail_to_mgf,
    lem_weighted_chisquare,
    prop_link_induced_potential,
    prop_local_jacobian,
    prop_localized_estimation,
    prop_population_equilibrium,
    prop_randomized_initialization,
    prop_self_concordance_stability,
    text_app_bregman_mean,
    text_app_elicitation_geometry,
    text_app_elicitation_stability,
    text_app_error_to_regret,
    text_app_local_stability_in_2D,
    text_app_localization,
    text_app_localized_estimation,
    text_app_primal_dual,
    text_app_self_concordance,
    text_app_simulation_setup,
    text_app_stochastic_analysis,
    text_app_stochastic_nbl,
    text_app_tanh_geometry,
    thm_regret_rate,
)

__all__ = ["MODULES"]

#: every transcription module, in paper order
MODULES = (lem_gaussian_stein, prop_randomized_initialization, lem_conditional_population_field,
           prop_population_equilibrium, text_app_local_stability_in_2D, prop_local_jacobian,
           cor_local_stability, text_app_bregman_mean, lem_bregman_mean, text_app_primal_dual,
           prop_link_induced_potential, text_app_elicitation_stability,
           text_app_self_concordance, prop_self_concordance_stability,
           text_app_stochastic_analysis, lem_normalization, text_app_localization,
           lem_local_one_step, lem_tail_to_mgf, lem_maximal_subgaussian_martingale,
           lem_weighted_chisquare, lem_stopped_stochastic_control,
           lem_finite_horizon_localization, lem_sa_recursion, text_app_localized_estimation,
           prop_localized_estimation, lem_gaussian_polynomial_disagreement,
           text_app_error_to_regret, thm_regret_rate, text_app_simulation_setup,
           text_app_elicitation_geometry, text_app_tanh_geometry, text_app_stochastic_nbl)
