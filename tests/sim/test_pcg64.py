"""numpy's PCG64 stream compiled inline (nbl_sim.engine.pcg64) against numpy's own Generator: words,
doubles, standard normals (fast path, wedge slow path, tail) and the final state, bit for bit."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nbl_sim.engine import pcg64
from nbl_sim.engine.environment_passes import reward_pass


def _pair(seed):
    ref = np.random.Generator(np.random.PCG64(seed))
    return ref, pcg64.state_of(ref.bit_generator)


def test_self_check_passes_here():
    assert pcg64.compiled_pcg_agrees()


@given(st.integers(0, 2**128 - 1), st.integers(1, 3000), st.integers(1, 9))
@settings(max_examples=60, deadline=None)
def test_normals_and_doubles_are_numpys(seed, n, d):
    """Any seed (the whole 128-bit range of SeedSequence entropy), any shape: numpy's values in
    memory order and numpy's final state, for normals then doubles from one stream."""
    ref, words = _pair(seed)
    X, U = np.empty((n, d)), np.empty((n, 2))
    pcg64.fill_normals(words, X)
    pcg64.fill_doubles(words, U)
    assert np.array_equal(X, ref.standard_normal((n, d)))
    assert np.array_equal(U, ref.random((n, 2)))
    assert np.array_equal(words, pcg64.state_of(ref.bit_generator))


def test_slow_paths_and_tail_are_exercised():
    """2e6 normals: the wedge rejections (idx ≠ 0, ~1.5%) and the tail (|x| > 3.654, idx = 0)
    occur thousands and hundreds of times, and the values are still numpy's."""
    ref, words = _pair(2026)
    X = np.empty((1_000_000, 2))
    pcg64.fill_normals(words, X)
    assert np.array_equal(X, ref.standard_normal((1_000_000, 2)))
    assert (np.abs(X) > pcg64.ziggurat_nor_r).sum() > 300


def test_state_round_trip_and_buffered_word_refused():
    g = np.random.Generator(np.random.PCG64(3))
    words = pcg64.state_of(g.bit_generator)
    h = np.random.Generator(np.random.PCG64(0))
    pcg64.set_state(h.bit_generator, words)
    assert h.bit_generator.state == g.bit_generator.state
    g.integers(0, 10, dtype=np.uint32)  # leaves half a 64-bit word buffered
    with pytest.raises(ValueError, match="buffered"):
        pcg64.state_of(g.bit_generator)


@pytest.mark.parametrize("bernoulli", [True, False])
def test_reward_pass_on_numpys_uniforms_is_the_definition(bernoulli):
    """reward_pass on ``random(out=Y)`` uniforms: means clipped as ``np.clip`` (a −0.0 kept) and
    rewards 1{U < m} or ((U·2 − 1)·b) + m, for means inside, at and just outside [0, 1]."""
    rng = np.random.default_rng(1)
    g = rng.uniform(-1e-13, 1 + 1e-13, (5000, 2))
    g[:4, 0] = (-0.0, 0.0, 1.0, 0.5)
    U = np.random.default_rng(11).random((5000, 2))
    m, Y = np.empty((5000, 2)), U.copy()
    assert reward_pass(g, m, Y, bernoulli, 0.5, 1e-12) == (0, -1)
    want_m = np.clip(g, 0.0, 1.0) if bernoulli else g
    want_Y = (U < want_m).astype(float) if bernoulli else ((U * 2.0) - 1.0) * 0.5 + want_m
    assert np.array_equal(m.view(np.int64), want_m.view(np.int64))  # signed zeros included
    assert np.array_equal(Y, want_Y)
    if bernoulli:
        assert np.signbit(m[0, 0]) and m.min() >= 0 and m.max() <= 1


def test_a_uniform_equal_to_its_mean_draws_no_reward():
    """Y = 1{U < m} with a strict inequality (numpy's definition ``(U < m)``): a uniform equal
    to its mean — 0 = 0, 0.5 = 0.5 and the largest double below 1 — is a reward of 0, in
    reward_pass and in the block pass alike."""
    from nbl_sim.engine.environment_passes import block_rewards_pass

    g = np.array([[0.0, 0.5], [1.0 - 2.0**-53, 0.25]])
    U = np.array([[0.0, 0.5], [1.0 - 2.0**-53, 0.25 - 2.0**-55]])
    m, Y = np.empty((2, 2)), U.copy()
    assert reward_pass(g, m, Y, True, 0.5, 1e-12) == (0, -1)
    assert np.array_equal(Y, (U < g).astype(float)) and Y.tolist() == [[0, 0], [0, 1]]
    state = np.empty((1, 3, 4), dtype=np.uint64)
    pcg64.seeded_state(pcg64.seed_words(0), 0, 0, state[0, 1])
    means, Yb = g[None].copy(), np.empty((1, 2, 2))
    assert block_rewards_pass(state, means, Yb, np.empty((1, 0), np.int8), True, 0.5, 1e-12) == (
        0,
        -1,
        -1,
    )
    pcg64.seeded_state(pcg64.seed_words(0), 0, 0, state[0, 1])
    U2 = np.empty((2, 2))
    pcg64.fill_doubles(state[0, 1], U2)
    assert np.array_equal(Yb[0], (U2 < g).astype(float))


def test_reward_pass_refusal_names_the_first_bad_mean():
    g = np.full((10, 2), 0.5)
    g[3, 1] = np.nan
    out = np.empty((10, 2))
    assert reward_pass(g, out, out.copy(), True, 0.5, 1e-12) == (1, 7)
    g[3, 1] = 1.5
    assert reward_pass(g, out, out.copy(), True, 0.5, 1e-12) == (2, 7)
    g[8, 0] = -np.inf  # a non-finite value is reported first, wherever it is
    assert reward_pass(g, out, out.copy(), True, 0.5, 1e-12) == (1, 16)
    assert reward_pass(g, out, out.copy(), False, 0.5, 1e-12) == (1, 16)
    g[8, 0] = 0.5  # bounded rewards take any finite mean
    assert reward_pass(g, out, out.copy(), False, 0.5, 1e-12) == (0, -1)
    g[3, 1] = 1.0 + 1e-12  # within rounding: accepted (and clipped)
    assert reward_pass(g, out, out.copy(), True, 0.5, 1e-12) == (0, -1)
    assert out[3, 1] == 1.0


@given(
    st.one_of(st.integers(0, 2**32), st.integers(0, 2**200)),
    st.one_of(st.integers(0, 2**32 + 1), st.integers(0, 2**64 - 1)),
    st.integers(0, 2),
)
@settings(max_examples=200, deadline=None)
def test_seeding_is_numpys_seed_sequence_and_pcg64(seed, r, k):
    """The compiled seeding of sub-stream k of replication r equals numpy's
    ``PCG64(SeedSequence(seed, spawn_key=(r, k)))``: entropy of one to seven 32-bit words
    (shorter than the pool is padded, longer is mixed in after it), spawn keys of one or two
    words, and 0 (one word 0)."""
    out = np.empty(4, dtype=np.uint64)
    pcg64.seeded_state(pcg64.seed_words(seed), r, k, out)
    want = pcg64.state_of(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(r, k))))
    assert np.array_equal(out, want)


@pytest.mark.parametrize("seed", [0, 2**32 - 1, 2**32, 2**128 + 3])
def test_seed_words_are_numpys(seed):
    """The entropy words of ``seed`` are those numpy's SeedSequence mixes: a stream seeded from
    them draws numpy's doubles."""
    words = pcg64.seed_words(seed)
    assert words.dtype == np.uint64 and words[0] == seed % 2**32
    assert len(words) == max(1, -(-seed.bit_length() // 32))
    out = np.empty(4, dtype=np.uint64)
    pcg64.seeded_state(words, 5, 1, out)
    U = np.empty((100, 2))
    pcg64.fill_doubles(out, U)
    ref = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(5, 1))))
    assert np.array_equal(U, ref.random((100, 2)))
