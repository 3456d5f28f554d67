"""The proof-step ledger in the registry: one claim per proof (and per appendix section) with
transcribed steps, ``ledger-OWNER``; its verdict is the worst of its steps' (see
:mod:`proofs_check.ledger.runner`), its ``computed`` the counts by method and status as JSON,
and it has one mutant per checked step (that step's relation perturbed:
:func:`proofs_check.ledger.runner.mutant_of`), so ``nbl check --mutate`` counts them.

The claims are registered for the pinned paper text shipped with the package; ``nbl proof
--paper PATH`` checks another version and lists the stale steps.
"""

from __future__ import annotations

from proofs_check.audit.extracted import INDEX
from proofs_check.ledger.report import (
    claim_id,
    claim_status,
    counts_json,
    owner_label,
    summary_detail,
)
from proofs_check.ledger.runner import run_ledger
from proofs_check.ledger.store import load_transcriptions
from proofs_check.paper_source import shipped_text
from proofs_check.registry import Mutant, Outcome, register

_TOL = "per step"
_WHY = (
    "each step's method states its own: exact (symbolic), an Arb enclosure (certified), "
    "100x the quadrature error estimate (expectation), |lhs - rhs| <= 1e-40 at 50 digits "
    "(sampled, evidence only), a bounded ratio along a sequence (asymptotic)"
)
#: owners whose steps are too slow for ``nbl check --quick`` (seconds measured in the full run)
SLOW_OWNERS: frozenset = frozenset({"prop:local_jacobian", "prop:population_equilibrium"})


def _section(owner: str) -> str:
    if owner.startswith("text:"):
        return owner_label(owner)
    for p in INDEX["proofs"]:
        if p["result"] == owner:
            return p["section"]
    return "appendix"


def _owners() -> dict:
    out: dict = {}
    for sid, t in load_transcriptions().items():
        owner = sid.rsplit("/", 2)[0]
        out.setdefault(owner, []).append(t)
    return out


def _make(owner: str, trans: list):
    def check(mutate: str | None = None) -> Outcome:
        run = run_ledger(shipped_text(), True, owners={owner}, mutate=mutate)
        res = run.of(owner)
        return Outcome(claim_status(res), counts_json(res), summary_detail(res))

    check.__name__ = f"check_{claim_id(owner).replace('-', '_')}"
    mutants = tuple(
        Mutant.formula(f"{t.id}: relation perturbed", mutate=t.id)
        for t in trans
        if t.method != "prose"
    )
    checked = sum(t.method not in ("prose", "sampled") for t in trans)
    register(
        claim_id(owner),
        owner_label(owner),
        _section(owner),
        f"every checked step ({checked} of the {len(trans)} transcribed; the others are "
        "prose or sampled evidence) of the "
        + (
            f"proof of {owner}"
            if not owner.startswith("text:")
            else f"derivations in {owner_label(owner)} outside proofs"
        )
        + " holds (proof-step ledger)",
        "audit",
        _TOL,
        _WHY,
        quick=owner not in SLOW_OWNERS,
        mutants=mutants,
    )(check)


for _owner, _trans in _owners().items():
    # a section whose displays are all definitions (prose) has nothing to check: a claim
    # of it could not fail and would have no mutant; its entries are in ``nbl proof``
    if any(t.method != "prose" for t in _trans):
        _make(_owner, _trans)
