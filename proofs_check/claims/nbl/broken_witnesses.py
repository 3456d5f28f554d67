"""Broken witnesses for the NBL claims' mutants of kind ``witness``: the witness's values are
corrupted through a patch of the name the claim (or the witness module) looks up, so that the
claim must turn FAIL (library and witness disagree) or DISCREPANCY (a witness-only verdict)."""

from __future__ import annotations

from ...registry import Mutant

__all__ = ["scaled_moments_mutant", "own_field_mutant"]


def _scaled_moments(factor: float):
    def wrap(old):
        def broken(key, delta, *args, **kwargs):
            m = old(key, delta, *args, **kwargs)
            return {**m, **{k: factor * m[k] for k in ("mu_star", "m0", "m2")}}

        return broken

    return wrap


def scaled_moments_mutant(module: str, factor: float = 1.001) -> Mutant:
    """``direct_moments`` as seen from ``module`` with μ*, m0, m2 multiplied by ``factor``."""
    return Mutant(
        f"witness mu*, m0, m2 x {factor:g}",
        "witness",
        call=True,
        patches=((f"{module}:direct_moments", _scaled_moments(factor)),),
    )


def own_field_mutant(module: str, factor: float = 1.001) -> Mutant:
    """``own_field`` as seen from ``module`` with F_+, F_- multiplied by ``factor``."""

    def wrap(old):
        def broken(*args, **kwargs):
            fp, fm = old(*args, **kwargs)
            return factor * fp, factor * fm

        return broken

    return Mutant(
        f"witness F_+, F_- x {factor:g}",
        "witness",
        call=True,
        patches=((f"{module}:own_field", wrap),),
    )
