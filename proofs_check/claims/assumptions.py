"""Claims about the paper's hypotheses, its algorithm and its notation (issue 15, item 4):

* ``assumption-*`` — one per ``assum:*`` label: what it assumes, which results state it and
  which use it (DISCREPANCY only for a dead assumption: stated by no result or used by no proof);
* ``hypotheses-*`` — one per result that states or uses a hypothesis: its stated hypotheses vs
  the hypotheses its proof uses, transitively through the results it cites (DISCREPANCY when it
  uses one it does not state);
* ``alg-nbl-*`` — alg:nbl's steps against eq:tangent_update / eq:nbl_update, and one claim per
  thing it leaves undefined, with the toolkit's (probed) choice;
* ``notation-audit`` — symbols with two meanings and constants renamed mid-proof.

The checks live in :mod:`proofs_check.audit.checks` and read the packaged paper index, so they
run without the LaTeX source; ``tests/proofs_check/test_audit*.py`` re-parse the paper and hold
the mutants that flip every claim.
"""

from __future__ import annotations

from ..audit import checks
from ..audit.algorithm import GAPS
from ..audit.graph import default_data
from ..audit.hypotheses_data import HYPOTHESES
from ..registry import register

__all__ = ["ASSUMPTIONS", "HYPOTHESIS_RESULTS"]

_DATA = default_data()
_STRUCT = ("exact (structural)", "a comparison of the paper's LaTeX (packaged index and quoted "
           "lines); no numerics, so no tolerance")

#: the paper's assumption labels
ASSUMPTIONS = ("assum:gaussian_context", "assum:polygrowth_g", "assum:sequential_rewards",
               "assum:bounded_rewards", "assum:positive-stability")

#: results that state or use at least one hypothesis (the others are self-contained lemmas;
#: tests/proofs_check/test_audit_graph.py checks this list against the graph)
HYPOTHESIS_RESULTS = (
    "prop:first-order-stein", "prop:population_equilibrium", "prop:local_jacobian",
    "cor:local_stability", "prop:self-concordance-stability", "lem:local_one_step",
    "lem:finite-horizon-localization", "prop:localized-estimation", "thm:regret-rate",
    "prop:randomized_initialization", "lem:conditional_population_field",
    "lem:stopped-stochastic-control", "lem:sa-recursion",
)


def _id(label: str) -> str:
    return label.replace(":", "-").replace("_", "-").lower()


def _section(label: str) -> str:
    return _DATA.index.statements[label].section


for _a in ASSUMPTIONS:
    register(f"assumption-{_id(_a.split(':')[1])}", _a, _section(_a),
             f"{_a} assumes {HYPOTHESES[_a].text}; every result that states it, and every "
             "result whose proof uses it (directly or through the results it cites), listed "
             "with line numbers; an assumption no proof uses or no result states is a finding",
             "symbolic", *_STRUCT, printed=HYPOTHESES[_a].text,
             )(lambda a=_a: checks.assumption_outcome(a, _DATA))

for _r in HYPOTHESIS_RESULTS:
    register(f"hypotheses-{_id(_r)}", _r, _section(_r),
             f"{_r} states the hypotheses its proof uses: the proof's \\ref{{assum:...}}, the "
             "curated direct uses and, transitively, the hypotheses of every result it cites "
             "are all stated (or standing assumptions of sec:setup)",
             "symbolic", *_STRUCT, printed=checks.printed_hypotheses(_r, _DATA),
             )(lambda r=_r: checks.hypotheses_outcome(r, _DATA))

register("alg-nbl-steps", "alg:nbl", "sec:nbl",
         "alg:nbl as printed (lines 478-502) performs the steps of the text: Unif{-1,+1} actions "
         "and W_t = A_t Y_t X_t for t <= n0, v_n0 = sum W_t/||sum W_t||, A_t = sgn(v_{t-1}^T "
         "X_t), G_t of eq:tangent_update and v_t of eq:nbl_update for t > n0",
         "symbolic", *_STRUCT, printed="alg:nbl, lines 482-499",
         )(lambda: checks.steps_outcome())

_GAP_CLAIMS = {
    "sgn-zero": ("symbolic", *_STRUCT),
    "degenerate-init": ("symbolic", *_STRUCT),
    "step-sizes": ("symbolic", *_STRUCT),
    "retraction-norm": ("property-based", f"relative {checks.RETRACTION_RTOL:g}",
                        "float64 rounding of ||v + eta P_v w||^2 on 6000 random inputs is "
                        "~1e-14 relative; 1e-12 leaves a factor 50"),
    "horizon": ("symbolic", *_STRUCT),
    "given-start": ("symbolic", *_STRUCT),
}
for _g in GAPS:
    _method, _tol, _why = _GAP_CLAIMS[_g.id]
    register(f"alg-nbl-{_g.id}", "alg:nbl", "sec:nbl",
             f"alg:nbl leaves undefined: {_g.undefined}. Whether that changes a result, and "
             "what the toolkit chooses (probed by running it)", _method, _tol, _why,
             printed=f"line {_g.line}: {_g.quote}")(lambda g=_g.id: checks.gap_outcome(g))

register("notation-audit", "sec:setup", "sec:setup",
         "every symbol keeps one meaning inside a proof: symbols used with two meanings, "
         "constants renamed mid-proof and symbols used without definition, with line numbers; "
         "a DISCREPANCY when two meanings a reader could confuse share one proof",
         "symbolic", *_STRUCT, printed="one meaning per symbol within a proof",
         )(lambda: checks.notation_outcome())
