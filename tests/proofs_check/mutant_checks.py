"""Shared helpers of the per-module mutant tests (test_claims_nbl.py, test_claims_numerics.py)."""

from __future__ import annotations

from proofs_check.registry import CAVEAT, DISCREPANCY, PASS, REGISTRY, all_claims

__all__ = ["module_claims", "assert_mutants_killed"]


def module_claims(package: str) -> list:
    """The registered claims whose check function lives in ``package``."""
    return [c for c in all_claims() if c.check.__module__.startswith(package)]


def assert_mutants_killed(claim) -> None:
    """The claim gives a verdict (PASS, CAVEAT or DISCREPANCY), has at least one mutant, every
    mutant changes the verdict, and every covered label has an evidence line."""
    base = REGISTRY.run_one(claim)
    assert base.status in (PASS, CAVEAT, DISCREPANCY), f"{base.status}: {base.detail}"
    assert claim.mutants, f"{claim.id} has no mutant"
    survivors = [(m.mutant, m.status) for m in REGISTRY.run_mutants(claim, base) if not m.killed]
    assert not survivors, f"{claim.id} (baseline {base.status}): surviving mutants {survivors}"
    missing = [lab for lab in claim.covers if not base.evidence.get(lab)]
    assert not missing, f"{claim.id}: no evidence line for covered labels {missing}"
