"""The ledger's parser: steps, stable ids, hashes (proofs_check.ledger.parse)."""

from __future__ import annotations

import pytest

from proofs_check.ledger.parse import parse_ledger, step_hash
from proofs_check.paper_source import shipped_text


@pytest.fixture(scope="module")
def ledger():
    return parse_ledger(shipped_text())


def test_every_proof_has_an_owner_and_steps(ledger):
    # the paper's 20 proof environments, each matched to the result it proves
    assert len(ledger.proofs) == 20
    assert not [p for p in ledger.proofs if p.startswith("proof@")]
    for owner in ledger.proofs:
        assert ledger.relation_steps(owner), owner


def test_known_steps(ledger):
    steps = ledger.by_id()
    s = steps["thm:regret-rate/b04/s02"]  # 2B_Y P(tau <= n) <= 2B_Y n^{-4}
    assert (s.rel, s.lhs, s.rhs) == ("<=", "2B_Y\\Prob(\\tau\\leq n)", "2B_Yn^{-4}")
    assert s.line == 5852
    # an align continuation row ("&= ...") continues the chain of the row above
    s = steps["prop:local_jacobian/b02/s03"]
    assert s.lhs.startswith("\\|v^\\star\\|_2^2") and s.rhs.startswith("1+2\\epsilon")
    # relations inside brackets are not steps: {u in R^d : v^T u = 0} is one right side
    s = steps["prop:local_jacobian/b03/s01"]
    assert "(v^\\star)^\\top u=0" in s.rhs


def test_ids_stable_under_edits_elsewhere(ledger):
    text = shipped_text()
    i = text.index("\\appendix")  # insert text before the appendix
    edited = parse_ledger(text[:i] + "Some new sentence.\n\n" + text[i:])
    before = {s.id: s.hash for s in ledger.steps}
    after = {s.id: s.hash for s in edited.steps}
    assert before == after
    moved = [s for s in edited.steps if s.line != ledger.by_id()[s.id].line]
    assert moved  # the lines moved, the ids did not


def test_hash_sees_coefficient_sign_and_direction():
    base = step_hash("2B_Y\\Prob(\\tau\\leq n)", "\\leq", "2B_Yn^{-4}")
    assert base == step_hash("2B_Y \\Prob(\\tau\\leq n)", "\\leq", " 2B_Y n^{-4}")  # spaces
    assert base != step_hash("2B_Y\\Prob(\\tau\\leq n)", "\\leq", "3B_Yn^{-4}")
    assert base != step_hash("2B_Y\\Prob(\\tau\\leq n)", "\\geq", "2B_Yn^{-4}")
    assert base != step_hash("2B_Y\\Prob(\\tau\\leq n)", "\\leq", "-2B_Yn^{-4}")


def test_appendix_text_outside_proofs(ledger):
    assert ledger.sections and all(o.startswith("text:app") for o in ledger.sections)
    # statements (lemmas, propositions) are not derivations: their displays are not steps
    assert not [
        s
        for s in ledger.steps
        if s.owner == "text:app:local_jacobian" and s.line in range(2080, 2150)
    ]
