"""Hypotheses stated vs used (proofs_check.audit.graph) and the claims built on it: the findings
on the packaged data, and for every claim a mutant that flips it. No paper needed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from proofs_check.audit import checks
from proofs_check.audit import hypotheses_data as hd
from proofs_check.audit import mutants as mut
from proofs_check.audit.graph import (
    AuditError,
    audit_all,
    audit_result,
    default_data,
    restatement_mismatches,
    stated,
    used,
)
from proofs_check.audit.latex import Proof, Restatement
from proofs_check.claims.assumptions import ASSUMPTIONS, HYPOTHESIS_RESULTS
from proofs_check.paper_source import shipped_text
from proofs_check.registry import CAVEAT, DISCREPANCY, PASS, REGISTRY

DATA = default_data()

#: the findings on the packaged data (reviewed by hand, see the report of issue 15 item 4)
EXPECTED_UNSTATED = {
    "cor:local_stability": {"assum:polygrowth_g"},
    "lem:local_one_step": {"assum:polygrowth_g"},
    "lem:finite-horizon-localization": {"assum:polygrowth_g", "cond:t0-nonneg", "cond:n0-t0-ge-1"},
    "prop:localized-estimation": {"assum:polygrowth_g"},
    "thm:regret-rate": {"cond:t0-nonneg", "cond:n0-t0-ge-1"},
    "lem:conditional_population_field": {"assum:sequential_rewards"},
    "lem:stopped-stochastic-control": {
        "assum:sequential_rewards",
        "assum:bounded_rewards",
        "cond:n0-t0-ge-1",
    },
}

#: the Gaussian uses the standing specialization covers ("For the theoretical development in
#: this paper, we specialize to Gaussian contexts", line 222): findings without it
GAUSSIAN_ONLY_BY_STANDING = {
    "cor:local_stability",
    "prop:self-concordance-stability",
    "lem:conditional_population_field",
    "lem:stopped-stochastic-control",
}


def _claim_ids(prefix):
    return [c.id for c in REGISTRY.all_claims() if c.id.startswith(prefix)]


# ------------------------------------------------------------------ the findings
def test_findings_on_the_packaged_data():
    audits = audit_all(DATA)
    got = {r: set(a.unstated) for r, a in audits.items() if a.unstated}
    assert got == EXPECTED_UNSTATED


def test_hypothesis_claims_cover_every_result_with_hypotheses():
    audits = audit_all(DATA)
    with_hyps = [r for r, a in audits.items() if a.stated or a.used]
    assert sorted(with_hyps) == sorted(HYPOTHESIS_RESULTS)
    self_contained = set(audits) - set(with_hyps)
    assert self_contained == {
        "lem:gaussian_stein",
        "lem:bregman_mean",
        "prop:link_induced_potential",
        "lem:normalization",
        "lem:tail_to_mgf",
        "lem:maximal-subgaussian-martingale",
        "lem:weighted_chisquare",
        "lem:gaussian-polynomial-disagreement",
    }


def test_registered_claims_and_their_statuses():
    ids = _claim_ids("hypotheses-") + _claim_ids("assumption-")
    results = {r.id: r.status for r in REGISTRY.run_claims(ids=ids)}
    # registered, an unstated hypothesis is a CAVEAT (the statement needs a condition it does
    # not state; proofs_check.claims.assumptions), the raw check says DISCREPANCY
    expected = {
        f"hypotheses-{r.replace(':', '-').replace('_', '-').lower()}": (
            CAVEAT if r in EXPECTED_UNSTATED else PASS
        )
        for r in HYPOTHESIS_RESULTS
    }
    expected |= {f"assumption-{a.split(':')[1].replace('_', '-')}": PASS for a in ASSUMPTIONS}
    assert results == expected


def test_transitive_use_carries_every_line():
    """lem:local_one_step -> cor:local_stability (4181) -> \\ref{assum:polygrowth_g} (3182)."""
    ev = audit_result(DATA, "lem:local_one_step").unstated["assum:polygrowth_g"]
    chains = [[(s, t, line) for s, t, line, _q in e.chain] for e in ev]
    assert [
        ("lem:local_one_step", "cor:local_stability", 4181),
        ("cor:local_stability", "assum:polygrowth_g", 3182),
    ] in chains
    assert all(isinstance(line, int) and line > 0 for e in ev for _, _, line, _ in e.chain)


def test_conditions_as_in_lemma_are_taken_over():
    st = stated(DATA, "lem:finite-horizon-localization")
    assert {
        "assum:gaussian_context",
        "assum:sequential_rewards",
        "assum:bounded_rewards",
        "assum:positive-stability",
    } <= set(st)
    assert st["assum:gaussian_context"][0] == 908
    mutant = replace(DATA, stated_by_reference=())
    unstated = set(audit_result(mutant, "lem:finite-horizon-localization").unstated)
    assert {"assum:sequential_rewards", "assum:bounded_rewards"} <= unstated
    assert "assum:gaussian_context" not in unstated  # standing (line 222)


def _without_gaussian_standing(data):
    hyps = dict(data.hypotheses)
    hyps["assum:gaussian_context"] = replace(hyps["assum:gaussian_context"], implied_by=())
    return replace(data, hypotheses=hyps)


def test_gaussian_contexts_are_standing():
    """A line of the setup specializes the whole theory to Gaussian contexts, like "Throughout,
    g is strictly increasing": a proof's Gaussian use is then no finding, and the report says
    the hypothesis holds as standing. Without that specialization the findings come back."""
    std = DATA.hypotheses["std:gaussian-contexts"]
    line = shipped_text().split("\n")[std.line - 1]
    assert std.quote in line and "we specialize to" in line
    out = checks.hypotheses_outcome("prop:self-concordance-stability", DATA)
    assert out.status == PASS and "assum:gaussian_context (standing)" in out.computed
    plain = _without_gaussian_standing(DATA)
    for result in GAUSSIAN_ONLY_BY_STANDING:
        assert "assum:gaussian_context" in audit_result(plain, result).unstated, result


def test_plausible_uses_are_not_findings():
    a = audit_result(DATA, "prop:population_equilibrium")
    assert a.ok and "assum:polygrowth_g" in a.used
    weak = replace(
        DATA,
        direct_uses=tuple(
            u
            for u in DATA.direct_uses
            if u.result != "prop:population_equilibrium" or u.hyp != "assum:gaussian_context"
        )
        + (hd.Use("prop:population_equilibrium", "assum:bounded_rewards", 1992, "x", "y", False),),
    )
    a = audit_result(weak, "prop:population_equilibrium")
    assert a.ok and set(a.plausible) == {"assum:bounded_rewards"}


# ------------------------------------------------------------------ mutants: hypotheses-*
@pytest.mark.parametrize("result", [r for r in HYPOTHESIS_RESULTS if r not in EXPECTED_UNSTATED])
def test_spurious_use_flips_a_passing_result(result):
    assert checks.hypotheses_outcome(result, DATA).status == PASS
    spurious, mutant = mut.spurious_use(DATA, result)
    assert spurious not in stated(DATA, result) and not spurious.startswith("std:")
    out = checks.hypotheses_outcome(result, mutant)
    assert out.status == DISCREPANCY and spurious in out.computed


@pytest.mark.parametrize("result", sorted(EXPECTED_UNSTATED))
def test_stating_the_missing_hypotheses_flips_a_finding(result):
    assert checks.hypotheses_outcome(result, DATA).status == DISCREPANCY
    mutant = mut.hypotheses_stated(DATA, result, EXPECTED_UNSTATED[result])
    assert checks.hypotheses_outcome(result, mutant).status == PASS


@pytest.mark.parametrize(
    "result, assumption",
    [
        ("prop:local_jacobian", "assum:polygrowth_g"),  # its proof cites it at 2582
        ("prop:randomized_initialization", "assum:bounded_rewards"),  # ref at 1396
        ("prop:first-order-stein", "assum:polygrowth_g"),  # curated use at 241
    ],
)
def test_deleting_a_stated_assumption_flips_it(result, assumption):
    refs = [r for r in DATA.index.statements[result].refs if r[0] != assumption]
    out = checks.hypotheses_outcome(result, mut.with_statement_refs(DATA, result, refs))
    assert out.status == DISCREPANCY and assumption in out.computed


def test_stating_t0_nonneg_also_covers_what_it_implies():
    mutant = replace(
        DATA,
        stated_conditions=DATA.stated_conditions
        + (hd.Cite("thm:regret-rate", "cond:t0-nonneg", 981, "mutant"),),
    )
    assert checks.hypotheses_outcome("thm:regret-rate", mutant).status == PASS


def test_a_discharged_condition_is_not_passed_on():
    assert "cond:sa-start" not in audit_result(DATA, "thm:regret-rate").unstated
    mutant = replace(DATA, discharges=())
    assert "cond:sa-start" in audit_result(mutant, "thm:regret-rate").unstated


def test_restatement_with_other_assumptions_is_a_discrepancy():
    assert restatement_mismatches(DATA) == []
    r = DATA.index.restatements[0]
    cut = Restatement(
        r.of,
        r.kind,
        r.title,
        r.start,
        r.end,
        tuple(x for x in r.refs if x[0] != "assum:bounded_rewards"),
    )
    mutant = replace(
        DATA,
        index=replace(DATA.index, restatements=(cut,)),
        stated_conditions=DATA.stated_conditions
        + (hd.Cite("thm:regret-rate", "cond:t0-nonneg", 981, "m"),),
    )
    out = checks.hypotheses_outcome("thm:regret-rate", mutant)
    assert out.status == DISCREPANCY and "restate" in out.computed


# ------------------------------------------------------------------ mutants: assumption-*
@pytest.mark.parametrize("assumption", ASSUMPTIONS)
def test_an_assumption_no_result_states_is_a_finding(assumption):
    assert checks.assumption_outcome(assumption, DATA).status == PASS
    data = mut.unstated_everywhere(DATA, assumption)
    assert not any(lab == assumption for st in data.index.statements.values() for lab, _ in st.refs)
    out = checks.assumption_outcome(assumption, data)
    assert out.status == DISCREPANCY and "no result states it" in out.computed


@pytest.mark.parametrize("assumption", ASSUMPTIONS)
def test_an_assumption_no_proof_uses_is_a_finding(assumption):
    """Keep it stated only by thm:regret-rate (cited by no proof), drop every use."""
    data = mut.unused_everywhere(DATA, assumption)
    assert [
        st.label
        for st in data.index.statements.values()
        if any(lab == assumption for lab, _ in st.refs)
    ] == ["thm:regret-rate"]
    assert not any(lab == assumption for p in data.index.proofs for lab, _ in p.refs)
    out = checks.assumption_outcome(assumption, data)
    assert out.status == DISCREPANCY and "no proof uses it" in out.computed


# ------------------------------------------------------------------ incomplete data
def test_an_undescribed_text_equation_is_an_error():
    text_derivations = dict(DATA.text_derivations)
    del text_derivations["eq:stopped-error-bound"]
    with pytest.raises(AuditError, match="eq:stopped-error-bound"):
        used(replace(DATA, text_derivations=text_derivations), "lem:finite-horizon-localization")


def test_a_citation_cycle_is_an_error():
    p = DATA.index.proof_of("cor:local_stability")
    loop = Proof(
        p.start, p.end, p.result, p.rule, p.section, p.refs + (("lem:local_one_step", p.start),)
    )
    proofs = tuple(loop if q is p else q for q in DATA.index.proofs)
    with pytest.raises(AuditError, match="cycle"):
        used(replace(DATA, index=replace(DATA.index, proofs=proofs)), "lem:local_one_step")


def test_an_unknown_label_is_an_error():
    p = DATA.index.proof_of("lem:local_one_step")
    bad = Proof(p.start, p.end, p.result, p.rule, p.section, p.refs + (("lem:nowhere", 1),))
    proofs = tuple(bad if q is p else q for q in DATA.index.proofs)
    with pytest.raises(AuditError, match="lem:nowhere"):
        used(replace(DATA, index=replace(DATA.index, proofs=proofs)), "lem:local_one_step")
