"""nbl_sim.engine.seeding: re-seeded generators draw exactly what numpy's own
``Generator(PCG64(SeedSequence(entropy, spawn_key)))`` draws (the reference is numpy itself)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nbl_sim.engine.environment import Environment
from nbl_sim.engine.seeding import StreamSet, numpy_streams, pcg64_state, seeding_agrees
from nbl_theory.families import make_family

_ENTROPY = st.one_of(st.integers(0, 2**32 - 1), st.integers(0, 2**64 - 1), st.integers(0, 2**200))
_KEY = st.lists(st.one_of(st.integers(0, 2**16), st.integers(0, 2**40)), max_size=5)


@settings(max_examples=300, deadline=None)
@given(_ENTROPY, _KEY)
def test_pcg64_state_is_numpys_seeding(entropy, key):
    ref = np.random.PCG64(np.random.SeedSequence(entropy=entropy, spawn_key=tuple(key)))
    st_ = ref.state["state"]
    assert pcg64_state(entropy, tuple(key)) == (st_["state"], st_["inc"])


@settings(max_examples=60, deadline=None)
@given(_ENTROPY, st.integers(0, 2**40), st.booleans())
def test_reseeded_streams_draw_numpys_values(seed, r, coins):
    mine = StreamSet(fast=True).reseed(seed, r, coins)
    ref = numpy_streams(seed, r, coins)
    assert (mine[2] is None) == (ref[2] is None) == (not coins)
    for a, b in zip(mine, ref):
        if a is not None:
            assert np.array_equal(a.standard_normal(40), b.standard_normal(40))
            assert np.array_equal(a.random(7), b.random(7))


def test_negative_seed_words_are_refused_like_numpy_refuses_them():
    from nbl_theory.errors import NBLInputError

    for entropy, key in ((-1, ()), (3, (2, -1))):
        with pytest.raises(ValueError):
            np.random.SeedSequence(entropy=entropy, spawn_key=key).generate_state(1)
        with pytest.raises(NBLInputError, match="non-negative"):
            pcg64_state(entropy, key)


def test_a_stream_set_is_reusable_and_its_slow_path_is_numpy():
    fast, slow = StreamSet(fast=True), StreamSet(fast=False)
    assert seeding_agrees()
    for r in (3, 0, 3, 2**35):
        for a, b in zip(fast.reseed(11, r), slow.reseed(11, r)):
            assert a.bit_generator.state == b.bit_generator.state


@pytest.mark.parametrize("n0", [0, 25])
def test_draw_uses_the_same_streams_as_draw_one(n0):
    """Environment.draw (re-seeded streams) = draw_one on SeedSequence(seed).spawn children
    (numpy's own generators), replication by replication."""
    env = Environment.build(make_family("logistic"), "0.5", 3)
    real = env.draw(9, range(4), 60, n0)
    children = np.random.SeedSequence(9).spawn(4)
    for i, ss in enumerate(children):
        X, means, Y, coins = env.draw_one(ss, 60, n0)
        assert np.array_equal(real.X[i], X) and np.array_equal(real.Y[i], Y)
        assert np.array_equal(real.means[i], means) and np.array_equal(real.coins[i], coins)
