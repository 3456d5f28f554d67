"""The library side of the NBL claims' comparisons: the library's values at the witness's cases,
as library-versus-witness agreements (:func:`proofs_check.judgement.agreement`) that gate a
verdict computed from the witness (:func:`proofs_check.judgement.gate`). A disagreement is a
toolkit defect (FAIL), never a finding about the paper. This module only declares what is
compared; the values come from :mod:`proofs_check.witnesses.toolkit_values` (the library) and
the witness modules."""

from __future__ import annotations

from ...judgement import agree_max_abs, agreement, moment_agreements
from ...registry import Mutant
from ...witnesses.local_expansions import paper_cases
from ...witnesses.toolkit_values import library_tangent_rates

__all__ = [
    "FD_TOL",
    "LIBRARY_RATES_NOTE",
    "moment_gate",
    "rate_agreements",
    "tangent_rates_mutant",
]

#: derivative checks, x max(1, S): Richardson differences of ~1e-15 fields (measured <= 3e-13)
FD_TOL = 1e-9

LIBRARY_RATES_NOTE = (
    "The library computed the same tangent rates three times, within 1e-9 x S of the "
    "witness's: from its formula (nbl_sim.studies.rate_theory.local_rates), as the eigenvalues "
    "of its eq:Jacobian matrix (nbl_sim.population.fields.jacobian_formula) and of its own "
    "field's finite-difference Jacobian (nbl_sim.population.fields.jacobian_fd)"
)


def moment_gate(deltas, keys) -> list:
    """The library's float64 stability values ``keys`` (e.g. ``("mu_star", "m2")``) against the
    witness's 2-D moments at every paper link and Δ in ``deltas`` (absolute 1e-12: both are
    ~1e-14 accurate)."""
    return [
        j
        for c in paper_cases(deltas, (2,))
        for j in moment_agreements(c.st, c.wit, keys, f"{c.key}, Delta = {c.delta}", 1e-12)
    ]


def rate_agreements(key: str, delta: str, d: int, sp: dict) -> list:
    """The library's tangent rates of Dh(v*) — its formula, its eq:Jacobian matrix and the finite
    differences of its own field — against the witness's finite-difference rates ``sp``
    (:func:`proofs_check.witnesses.local_expansions.tangent_spectrum`), within 1e-9 x S."""
    lib = library_tangent_rates(key, delta, d)
    rule = agree_max_abs(FD_TOL * sp["S"], "the tangent rates")
    return [
        agreement(
            f"tangent rates ({key}, Delta = {delta}, d = {d}; library {how}, witness FD of "
            "its own field)",
            library=lib[part],
            witness=sp["rates"],
            agree=rule,
            fmt=lambda v: "[" + ", ".join(f"{x:.12g}" for x in v) + "]",
        )
        for part, how in (
            ("formula", "formula"),
            ("fd", "FD of its field"),
            ("matrix", "eq:Jacobian matrix"),
        )
    ]


def tangent_rates_mutant(module: str) -> Mutant:
    """The library's tangent rates (both computations) shifted by 1e-6, as ``module`` sees
    them: the claim must turn FAIL."""
    return Mutant.returning(
        "library tangent rates +1e-6",
        "formula",
        f"{module}:library_tangent_rates",
        lambda r: {**r, **{k: r[k] + 1e-6 for k in ("formula", "fd", "matrix")}},
    )
