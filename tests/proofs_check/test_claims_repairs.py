"""The claims of beyond:repairs (proofs_check.claims.repairs): every mutant of every claim is
killed (about 1 min of CPU with their mutants on an idle machine, so marked ``slow``; the
claims themselves run unmutated in test_claims.py)."""

from __future__ import annotations

import pytest

from .mutant_checks import assert_mutants_killed, module_claims

CLAIMS = module_claims("proofs_check.claims.repairs")


def test_the_module_registers_its_claims():
    assert {c.id for c in CLAIMS} == {
        "repairs-exact-analysis-agrees",
        "repairs-what-repairs-what",
        "repairs-simulation-confirms",
    }
    assert all(c.mutants for c in CLAIMS)
    assert {c.section for c in CLAIMS} == {"beyond:repairs"}


@pytest.mark.slow
@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_every_mutant_is_killed(claim):
    assert_mutants_killed(claim)
