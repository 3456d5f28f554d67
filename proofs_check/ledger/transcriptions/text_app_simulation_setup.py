"""The derivations of app:simulation-setup outside proofs: every step is a definition of the
simulation design (parameters, the coefficients and the algorithm as simulated)."""

_D = "a definition of the simulation design: "

STEPS = {
    "text:app:simulation-setup/b01/s01": dict(
        hash="09a69a936d23", method="prose", note=_D + "the index directions beta_a"),
    "text:app:simulation-setup/b02/s01": dict(
        hash="002c0913dd80", method="prose", note=_D + "mu* (as eq:mu_star_m2_def)"),
    "text:app:simulation-setup/b02/s02": dict(
        hash="9940ea61295f", method="prose", note=_D + "m_2 (as eq:mu_star_m2_def)"),
    "text:app:simulation-setup/b03/s01": dict(
        hash="81b1307f3e91", method="prose", note=_D + "lambda* (as eq:decision_stability)"),
    "text:app:simulation-setup/b04/s01": dict(
        hash="c699caecaf27", method="prose", note=_D + "the greedy action A_t"),
    "text:app:simulation-setup/b04/s02": dict(
        hash="0d3cecf45f6e", method="prose", note=_D + "the tangent update G_t"),
    "text:app:simulation-setup/b04/s03": dict(
        hash="7520b2c5187d", method="prose", note=_D + "the normalized update v_t (eq:nbl_update)"),
    "text:app:simulation-setup/b05/s01": dict(
        hash="17ab8ef80122", method="prose", note=_D + "the cumulative regret R_t"),
}
