"""numpy's PCG64 stream compiled inline (nbl_sim.engine.pcg64) against numpy's own Generator: words,
doubles, standard normals (fast path, wedge slow path, tail) and the final state, bit for bit."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nbl_sim.engine import pcg64
from nbl_sim.engine.environment_lanes import normal_lanes
from nbl_sim.engine.environment_passes import reward_pass, uniform_reward_pass


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
def test_fused_reward_pass_equals_fill_then_pass(bernoulli):
    """uniform_reward_pass = fill_doubles then reward_pass, including the state it leaves, for
    means inside, at and just outside [0, 1] (clipped, a −0.0 kept)."""
    rng = np.random.default_rng(1)
    g = rng.uniform(-1e-13, 1 + 1e-13, (5000, 2))
    g[:4, 0] = (-0.0, 0.0, 1.0, 0.5)
    _, w1 = _pair(11)
    _, w2 = _pair(11)
    m1, m2, Y1, Y2 = (np.empty((5000, 2)) for _ in range(4))
    assert uniform_reward_pass(w1, g, m1, Y1, bernoulli, 0.5, 1e-12) == (0, -1)
    pcg64.fill_doubles(w2, Y2)
    assert reward_pass(g, m2, Y2, bernoulli, 0.5, 1e-12) == (0, -1)
    assert np.array_equal(Y1, Y2) and np.array_equal(w1, w2)
    assert np.array_equal(m1.view(np.int64), m2.view(np.int64))  # signed zeros included
    if bernoulli:
        assert np.signbit(m1[0, 0]) and m1.min() >= 0 and m1.max() <= 1


def test_reward_pass_refusal_leaves_the_stream_untouched():
    _, w = _pair(5)
    before = w.copy()
    g = np.full((10, 2), 0.5)
    g[3, 1] = np.nan
    out = np.empty((10, 2))
    assert uniform_reward_pass(w, g, out, out.copy(), True, 0.5, 1e-12) == (1, 7)
    g[3, 1] = 1.5
    assert uniform_reward_pass(w, g, out, out.copy(), True, 0.5, 1e-12) == (2, 7)
    g[8, 0] = -np.inf  # a non-finite value is reported first, wherever it is
    assert uniform_reward_pass(w, g, out, out.copy(), True, 0.5, 1e-12) == (1, 16)
    assert uniform_reward_pass(w, g, out, out.copy(), False, 0.5, 1e-12) == (1, 16)
    g[8, 0] = 0.5  # bounded rewards take any finite mean
    assert uniform_reward_pass(w, g, out, out.copy(), False, 0.5, 1e-12) == (0, -1)
    assert not np.array_equal(w, before)
    w[:] = before
    g[3, 1] = 1.0 + 1e-12  # within rounding: accepted (and clipped)
    assert uniform_reward_pass(w, g, out, out.copy(), True, 0.5, 1e-12) == (0, -1)
    assert out[3, 1] == 1.0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(1, 3000), st.integers(1, 9), st.integers(0, 3))
def test_normal_lanes_are_eight_fills(seed, n, d, r0):
    """Eight context streams drawn as vector lanes into rows r0, …, r0 + 7 of an (R, n, d)
    array: each row is ``fill_normals`` of its stream (numpy's normals, slow paths and tails
    included), the final states too, and the other rows are untouched."""
    seq = np.random.SeedSequence(seed).spawn(8)
    words = np.stack([pcg64.state_of(np.random.PCG64(s)) for s in seq])
    X = np.full((r0 + 9, n, d), 7.0)
    states = np.ascontiguousarray(words.T)
    normal_lanes(states, X, r0)
    for b in range(8):
        w = words[b].copy()
        want = np.empty((n, d))
        pcg64.fill_normals(w, want)
        assert np.array_equal(X[r0 + b], want) and np.array_equal(states[:, b], w)
    assert np.all(X[:r0] == 7.0) and np.all(X[r0 + 8 :] == 7.0)
