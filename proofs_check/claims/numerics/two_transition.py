"""The definition of the two-transition family (eq:link_tanh, app:tanh-geometry): the library's
family is the printed formula with the printed parameters, and a_j, b_j > 0 make it strictly
increasing. The library's family is a transcription of the paper's definition, so a difference
is a toolkit defect (FAIL); only the monotonicity argument judges the paper.
"""

from __future__ import annotations

from decimal import Decimal

from nbl_theory.families import make_family
from nbl_theory.paper import PAPER_LINKS

from ...judgement import agree_max_abs, agreement, gate_noting
from ...registry import DISCREPANCY, FAIL, PASS, Mutant, Outcome, register
from ...witnesses import toolkit_values as tv
from ...witnesses.links import tanh_definition_residuals, tanh_link_g

__all__: list[str] = []

_TANH_PRINTED = {"p0": "0.10", "a1": "0.10", "a2": "0.25", "b1": "2", "b2": "1.4", "mu1": "-1.25"}
#: the member the definition is checked at: the paper's unstable link
_MU2 = PAPER_LINKS["tt-unstable"].params["mu2"]
#: where the library's float64 g (the one ``nbl simulate`` evaluates) is compared with the
#: printed formula: the near-critical member is the family's default (its own closed form),
#: the other two pass their mu2
_FLOAT_CASES = (
    ("tt-near-critical", None),
    *((k, {"mu2": PAPER_LINKS[k].params["mu2"]}) for k in ("tt-stable", "tt-unstable")),
)
_FLOAT_Z = tuple(k / 10 for k in range(-80, 81))
#: the two sides round tanh's argument differently (b2 (z - mu2) against 7/5 z - c): a few
#: ulps of g in (0.1, 0.8); measured 1.1e-16, so 1e-13 leaves a margin of 1000
_FLOAT_TOL = 1e-13


@register(
    "two-transition-definition",
    "eq:link_tanh",
    "app:tanh-geometry",
    "The two-transition family is g(z) = p0 + a1{1 + tanh[b1(z - mu1)]} + a2{1 + tanh[b2(z "
    "- mu2)]} with p0 = 0.10, a1 = 0.10, a2 = 0.25, b1 = 2, b2 = 1.4, mu1 = -1.25, and "
    "a_j, b_j > 0 make it strictly increasing",
    "symbolic",
    "exact",
    "sympy equality of rational expressions; g' > 0 from the printed form",
    printed="p0 = 0.10, a1 = 0.10, a2 = 0.25, b1 = 2, b2 = 1.4, mu1 = -1.25",
    witness="proofs_check.witnesses.links:tanh_definition_residuals, "
    "proofs_check.witnesses.links:tanh_link_g",
    shares="nothing (the printed formula is written out in the witness)",
    mutants=(
        Mutant.printed("printed a2 = 0.25 -> 0.26", params={**_TANH_PRINTED, "a2": "0.26"}),
        Mutant.witness("the witness's printed form at mu2 = 1.25", mu2="1.25"),
        Mutant.returning(
            "the library's float64 g + 1e-12",
            "formula",
            "proofs_check.witnesses.toolkit_values:float_family_g",
            lambda v: v + 1e-12,
        ),
    ),
)
def _link_tanh(params: dict | None = None, mu2: str = _MU2):
    p = params or _TANH_PRINTED
    link = make_family("two-transition", mu2=_MU2)
    diff, slope_ok = tanh_definition_residuals(p, mu2, link.expr, link.variable)
    d = {k: Decimal(v) for k, v in p.items()}
    note = (
        f"checked at mu2 = {_MU2} (the other parameters are the printed defaults); "
        f"g' = {d['a1'] * d['b1']} sech^2({d['b1']}(z - ({d['mu1']}))) + "
        f"{d['a2'] * d['b2']} sech^2({d['b2']}(z - mu2)) > 0: {slope_ok}"
    )
    if diff != 0:  # the library's family is a transcription of the paper's definition
        return Outcome(
            FAIL,
            f"library - printed = {diff}",
            "toolkit defect: the library's "
            "two-transition family is not the printed definition; the paper is not "
            "judged. " + note,
        )
    out = Outcome(PASS if slope_ok else DISCREPANCY, f"library - printed = {diff}", note)
    return gate_noting(
        out,
        [
            agreement(
                f"float64 g of {key} at z in [-8, 8] (step 0.1)",
                library=tv.float_family_g("two-transition", params, _FLOAT_Z),
                witness=tanh_link_g(float(PAPER_LINKS[key].params["mu2"]), _FLOAT_Z),
                agree=agree_max_abs(_FLOAT_TOL, "the grid"),
            )
            for key, params in _FLOAT_CASES
        ],
        "The library's float64 g of the three paper members (the closed forms `nbl simulate` "
        f"evaluates) equals the printed formula within {_FLOAT_TOL:g}.",
    )
