"""Tests of proofs_check.witnesses.sa_recursion (lem:sa-recursion iterated directly)."""

from fractions import Fraction

from proofs_check.witnesses import sa_recursion


def test_the_lemma_bound_holds_and_is_approached():
    # lem:sa-recursion: a_t (t + t0)/C <= 1; the equality sequences approach it
    r = sa_recursion.sa_recursion_ratios(77)
    assert isinstance(r["exact"], Fraction) and r["exact"] <= 1
    assert r["float"] <= 1 + 1e-12 and 0.9 < r["near_one"] <= r["float"]
    assert sa_recursion.sa_recursion_ratios(77) == r  # seeded


def test_a_constant_too_small_is_seen():
    # C with b/alpha in place of b/(alpha - 1) (the claim's mutant) is exceeded
    r = sa_recursion.sa_recursion_ratios(77, alpha_shift=1)
    assert r["exact"] > 1 or r["float"] > 1 + 1e-12
