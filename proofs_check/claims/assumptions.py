"""Claims about the paper's hypotheses, its algorithm and its notation (issue 15, item 4):

* ``assumption-*`` — one per ``assum:*`` label: what it assumes, which results state it and
  which use it (DISCREPANCY only for a dead assumption: stated by no result or used by no proof);
* ``hypotheses-*`` — one per result that states or uses a hypothesis: its stated hypotheses vs
  the hypotheses its proof uses, transitively through the results it cites. A result whose proof
  uses a hypothesis its statement does not state is a CAVEAT (the statement needs a condition
  the paper does not state; nothing shows it false); a restatement whose hypotheses differ from
  the original is a DISCREPANCY (the paper states the result twice, differently);
* ``alg-nbl-*`` — alg:nbl's steps against eq:tangent_update / eq:nbl_update, and one claim per
  thing it leaves undefined, with the toolkit's (probed) choice: a CAVEAT of consequence
  ``presentation`` (an undefined step; no result depends on it), a DISCREPANCY if a result did;
* ``notation-audit`` — symbols with two meanings and constants renamed mid-proof.

The checks live in :mod:`proofs_check.audit.checks` and read the packaged paper index, so they
run without the LaTeX source; ``tests/proofs_check/test_audit*.py`` re-parse the paper. Every
claim registers mutants built from the same packaged data (a spurious use, the missing
hypotheses stated, an assumption deleted from every statement or from every proof, an algorithm
line changed, a toolkit probe that answers otherwise, a gap that changes a result, the
confusable notation entries calmed): each must flip the verdict.
"""

from __future__ import annotations

from dataclasses import replace

from ..audit import algorithm as alg
from ..audit import checks, extracted
from ..audit import hypotheses_data as hd
from ..audit import mutants as mut
from ..audit.graph import audit_result, default_data, in_force, restatement_mismatches
from ..audit.notation import ENTRIES
from ..registry import CAVEAT, DISCREPANCY, PASS, Mutant, Outcome, register

__all__ = ["ASSUMPTIONS", "HYPOTHESIS_RESULTS"]

_DATA = default_data()
_STRUCT = (
    "exact (structural)",
    "a comparison of the paper's LaTeX (packaged index and quoted "
    "lines); no numerics, so no tolerance",
)

#: the paper's assumption labels
ASSUMPTIONS = (
    "assum:gaussian_context",
    "assum:polygrowth_g",
    "assum:sequential_rewards",
    "assum:bounded_rewards",
    "assum:positive-stability",
)

#: results that state or use at least one hypothesis (the others are self-contained lemmas;
#: tests/proofs_check/test_audit_graph.py checks this list against the graph)
HYPOTHESIS_RESULTS = (
    "prop:first-order-stein",
    "prop:population_equilibrium",
    "prop:local_jacobian",
    "cor:local_stability",
    "prop:self-concordance-stability",
    "lem:local_one_step",
    "lem:finite-horizon-localization",
    "prop:localized-estimation",
    "thm:regret-rate",
    "prop:randomized_initialization",
    "lem:conditional_population_field",
    "lem:stopped-stochastic-control",
    "lem:sa-recursion",
)

#: gaps of alg:nbl that the audit lists but that are not gaps (the paper settles them)
_NOT_A_GAP = {"retraction-norm": "||v + eta G||^2 = 1 + eta^2 ||G||^2 >= 1 (lines 4095-4101)"}

#: steps alg:nbl leaves implicit but the paper states elsewhere (each gap's resolution lines in
#: the algorithm audit's data): no choice is left open, so no CAVEAT - only v_{n0} on
#: sum W_t = 0 is defined nowhere
_SETTLED = frozenset({"sgn-zero", "step-sizes", "horizon", "given-start"})


def _id(label: str) -> str:
    return label.replace(":", "-").replace("_", "-").lower()


def _section(label: str) -> str:
    return _DATA.index.statements[label].section


def _presentation(out: Outcome) -> Outcome:
    """A DISCREPANCY of the paper's presentation (no result depends on it)."""
    if out.status == DISCREPANCY:
        out.consequence = "presentation"
    return out


# ------------------------------------------------------------------ assumption-*
def _assumption(assumption: str, data=_DATA) -> Outcome:
    return _presentation(checks.assumption_outcome(assumption, data))


for _a in ASSUMPTIONS:
    register(
        f"assumption-{_id(_a.split(':')[1])}",
        _a,
        _section(_a),
        f"{_a} assumes {hd.HYPOTHESES[_a].text}; every result that states it, and every "
        "result whose proof uses it (directly or through the results it cites), listed "
        "with line numbers; an assumption no proof uses or no result states is a finding",
        "audit",
        *_STRUCT,
        printed=hd.HYPOTHESES[_a].text,
        mutants=(
            Mutant.data("stated by no result", data=mut.unstated_everywhere(_DATA, _a)),
            Mutant.data("used by no proof", data=mut.unused_everywhere(_DATA, _a)),
        ),
    )(lambda data=_DATA, a=_a: _assumption(a, data))


# ------------------------------------------------------------------ hypotheses-*
def _hypotheses(label: str, data=_DATA) -> Outcome:
    out = checks.hypotheses_outcome(label, data)
    if out.status == DISCREPANCY and not restatement_mismatches(data, label):
        return replace(
            out,
            status=CAVEAT,
            consequence="statement",
            detail="the proof uses a hypothesis the statement does not state "
            "(nothing shows the statement false without it)\n" + out.detail,
        )
    if out.status == DISCREPANCY:
        out.consequence = "statement"
    return out


def _hypotheses_mutants(label):
    a = audit_result(_DATA, label)
    if a.unstated:  # state what is missing: the finding must disappear
        return (
            Mutant.data(
                "the missing hypotheses stated",
                data=mut.hypotheses_stated(_DATA, label, a.unstated),
            ),
        )
    spurious, data = mut.spurious_use(_DATA, label)
    out = [Mutant(f"the proof also uses {spurious}", "data", kwargs={"data": data})]
    refs = _DATA.index.statements[label].refs
    # an assumption the statement states, that nothing standing implies, and that the proof
    # certainly uses: deleting it from the statement must make a finding
    own = [
        r
        for r in refs
        if r[0].startswith("assum:")
        and not in_force(_DATA, r[0], ())
        and any(e.certain for e in a.used.get(r[0], ()))
    ]
    if own:
        out.append(
            Mutant(
                f"{own[0][0]} deleted from the statement",
                "data",
                kwargs={
                    "data": mut.with_statement_refs(
                        _DATA, label, [r for r in refs if r[0] != own[0][0]]
                    )
                },
            )
        )
    return tuple(out)


for _r in HYPOTHESIS_RESULTS:
    register(
        f"hypotheses-{_id(_r)}",
        _r,
        _section(_r),
        f"{_r} states the hypotheses its proof uses: the proof's \\ref{{assum:...}}, the "
        "curated direct uses and, transitively, the hypotheses of every result it cites "
        "are all stated (or standing assumptions of sec:setup)",
        "audit",
        *_STRUCT,
        printed=checks.printed_hypotheses(_r, _DATA),
        mutants=_hypotheses_mutants(_r),
    )(lambda data=_DATA, r=_r: _hypotheses(r, data))


# ------------------------------------------------------------------ alg:nbl
#: mutant name -> (line, old, new): an edit of alg:nbl that the steps check must catch
_ALGORITHM_EDITS = {
    "update sign flipped (line 498)": (498, r"v_{t-1}+\eta_tG_t", r"v_{t-1}-\eta_tG_t"),
    "no tangent projection (line 495)": (495, r"(I_d-v_{t-1}v_{t-1}^\top)W_t", r"W_t"),
}


@register(
    "alg-nbl-steps",
    "alg:nbl",
    "sec:nbl",
    "alg:nbl as printed (lines 478-502) performs the steps of the text: Unif{-1,+1} actions "
    "and W_t = A_t Y_t X_t for t <= n0, v_n0 = sum W_t/||sum W_t||, A_t = sgn(v_{t-1}^T "
    "X_t), G_t of eq:tangent_update and v_t of eq:nbl_update for t > n0",
    "audit",
    *_STRUCT,
    printed="alg:nbl, lines 482-499",
    mutants=tuple(
        Mutant(name, "data", kwargs={"algorithm": mut.edit_algorithm(extracted.ALGORITHM, *edit)})
        for name, edit in _ALGORITHM_EDITS.items()
    ),
)
def _steps(algorithm=extracted.ALGORITHM):
    return _presentation(checks.steps_outcome(algorithm))


_GAP_CLAIMS = {
    "sgn-zero": ("audit", *_STRUCT),
    "degenerate-init": ("audit", *_STRUCT),
    "step-sizes": ("audit", *_STRUCT),
    "retraction-norm": (
        "property-based",
        f"relative {checks.RETRACTION_RTOL:g}",
        "float64 rounding of ||v + eta P_v w||^2 on 6000 random inputs is "
        "~1e-14 relative; 1e-12 leaves a factor 50",
    ),
    "horizon": ("audit", *_STRUCT),
    "given-start": ("audit", *_STRUCT),
}


def _gap(gap_id: str, probe=None, gaps=alg.GAPS) -> Outcome:
    out = checks.gap_outcome(gap_id, probe=probe, gaps=gaps)
    if out.status == PASS and gap_id in _SETTLED:
        lines = ", ".join(
            str(ln) for ln, _q, _w in next(g for g in gaps if g.id == gap_id).resolution
        )
        return replace(
            out,
            detail="alg:nbl as printed leaves this step implicit; the paper says more "
            f"elsewhere (lines {lines}, quoted below), and the statement above says what "
            "stays open\n" + out.detail,
        )
    if out.status == PASS and gap_id not in _NOT_A_GAP:
        return replace(
            out,
            status=CAVEAT,
            consequence="presentation",
            detail="alg:nbl as printed leaves this step undefined and the paper "
            "states no choice for it anywhere; no result depends on it\n" + out.detail,
        )
    if out.status == PASS:
        return replace(out, detail=f"not a gap: {_NOT_A_GAP[gap_id]}\n" + out.detail)
    return _presentation(out)


for _g in alg.GAPS:
    _method, _tol, _why = _GAP_CLAIMS[_g.id]
    register(
        f"alg-nbl-{_g.id}",
        "alg:nbl",
        "sec:nbl",
        f"alg:nbl leaves undefined: {_g.undefined}. Whether that changes a result, and "
        "what the toolkit chooses (probed by running it)",
        _method,
        _tol,
        _why,
        printed=f"line {_g.line}: {_g.quote}",
        mutants=(
            Mutant.witness("the toolkit chooses otherwise", probe=mut.BAD_PROBES[_g.id]),
            Mutant.data("the gap changes a result", gaps=mut.gap_changes_result(alg.GAPS, _g.id)),
        ),
    )(lambda probe=None, gaps=alg.GAPS, g=_g.id: _gap(g, probe, gaps))


# ------------------------------------------------------------------ notation
#: mutant name -> how the notation entries are changed
_NOTATION_EDITS = {
    "no entry confusable": mut.calm_entries,
    "a meaning moved off its line": mut.meaning_moved,
}


@register(
    "notation-audit",
    "sec:setup",
    "sec:setup",
    "every symbol keeps one meaning inside a proof: symbols used with two meanings, "
    "constants renamed mid-proof and symbols used without definition, with line numbers; "
    "a DISCREPANCY when two meanings a reader could confuse share one proof",
    "audit",
    *_STRUCT,
    printed="one meaning per symbol within a proof",
    covers=tuple(dict.fromkeys(e.same_proof for e in ENTRIES if e.confusable and e.same_proof)),
    mutants=tuple(
        Mutant(name, "data", kwargs={"entries": edit(ENTRIES)})
        for name, edit in _NOTATION_EDITS.items()
    ),
)
def _notation(entries=ENTRIES):
    return _presentation(checks.notation_outcome(entries))
