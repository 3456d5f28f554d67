"""The potentials on which the elicitation identities are checked symbolically.

A *generic* potential — an undefined sympy function φ(m) — makes an identity that sympy
confirms hold for every smooth φ; the rows of tab:app_bregman_examples and the weighted binary
negative entropy φ_ρ with symbolic ρ (app:elicitation-geometry) add the paper's examples.
"""

from __future__ import annotations

import sympy as sp

from nbl_theory import elicitation as el

__all__ = ["GENERIC_POTENTIAL", "BREGMAN_ROWS", "elicitation_potentials"]

#: A generic smooth potential φ(m) (an undefined sympy function of ``nbl_theory.elicitation.M``).
GENERIC_POTENTIAL = sp.Function("varphi")(el.M)
#: The rows of tab:app_bregman_examples by name.
BREGMAN_ROWS = {row.name: row for row in el.BREGMAN_TABLE}


def elicitation_potentials(generic: bool = True, weighted: bool = True) -> dict:
    """Potentials on which identities are checked, by name: the generic φ, the table rows and
    φ_ρ with symbolic ρ."""
    out = {"generic phi": GENERIC_POTENTIAL} if generic else {}
    out.update({name: row.phi for name, row in BREGMAN_ROWS.items()})
    if weighted:
        out["weighted entropy (symbolic rho)"] = el.weighted_entropy_potential()
    return out
