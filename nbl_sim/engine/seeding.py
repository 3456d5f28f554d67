"""Per-replication random streams, seeded fast and exactly as numpy seeds them.

Replication r of a simulation seeded with ``seed`` draws its contexts, rewards and coins from
the sub-streams ``Generator(PCG64(SeedSequence(entropy=seed, spawn_key=(r, k))))``, k = 0, 1, 2
(:mod:`nbl_sim.engine.environment`). Building those three objects costs ~33 µs per replication —
more than drawing a short replication. :class:`StreamSet` computes instead the state that
``PCG64(SeedSequence(...))`` starts in (numpy's SeedSequence hash — ``mix_entropy`` and
``generate_state`` of ``numpy/random/bit_generator.pyx`` — compiled, then PCG64's ``srandom``:
two steps of the 128-bit LCG) as stream arrays that the compiled fills of
:mod:`nbl_sim.engine.pcg64` draw from directly; where a numpy generator is needed (the coins, a
context-law hook), one of three kept generators is re-seeded to that state. The draws are the
same bits (tested against numpy for many entropies and spawn keys); a numpy whose seeding
differed would fail :func:`seeding_agrees`, checked once per process, and the slow exact path
is used instead.
"""

from __future__ import annotations

import numpy as np

from nbl_theory.errors import NBLInputError

from . import jit_cache  # the cached kernels are defined with jit_cache.njit
from .llvm_ops import muladd128
from .pcg64 import MULT_HI, MULT_LO, set_state, state_ints, state_of

__all__ = ["pcg64_state", "StreamSet", "ReplicationStreams", "seeding_agrees", "numpy_streams"]

_M32 = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_MULT_L, _MIX_MULT_R = 0xCA01F9DD, 0x4973F715
_XSHIFT = 16
_POOL = 4


@jit_cache.njit(nogil=True, inline="always")
def _hashmix(value, h, mult):
    """numpy's ``hashmix`` (uint32 arithmetic in uint64, masked): the mixed value and the
    advanced hash constant."""
    M = np.uint64(_M32)
    value = (value ^ h) & M
    h = (h * mult) & M
    value = (value * h) & M
    return value ^ (value >> np.uint64(_XSHIFT)), h


@jit_cache.njit(nogil=True, inline="always")
def _mix(x, y):
    """numpy's ``mix`` of two uint32 words."""
    res = (np.uint64(_MIX_MULT_L) * x - np.uint64(_MIX_MULT_R) * y) & np.uint64(_M32)
    return res ^ (res >> np.uint64(_XSHIFT))


@jit_cache.njit(nogil=True)
def _pool_state(entropy):
    """SeedSequence's mixed pool of 4 uint32 words for the assembled entropy words
    (``mix_entropy``), then ``generate_state(4, uint64)``: 4 uint64 words."""
    mult_a = np.uint64(_MULT_A)
    h = np.uint64(_INIT_A)
    mixer = np.empty(_POOL, dtype=np.uint64)
    for i in range(_POOL):
        mixer[i], h = _hashmix(entropy[i] if i < entropy.shape[0] else np.uint64(0), h, mult_a)
    for i_src in range(_POOL):
        for i_dst in range(_POOL):
            if i_src != i_dst:
                v, h = _hashmix(mixer[i_src], h, mult_a)
                mixer[i_dst] = _mix(mixer[i_dst], v)
    for i_src in range(_POOL, entropy.shape[0]):
        for i_dst in range(_POOL):
            v, h = _hashmix(entropy[i_src], h, mult_a)
            mixer[i_dst] = _mix(mixer[i_dst], v)
    out = np.zeros(4, dtype=np.uint64)
    hb = np.uint64(_INIT_B)
    for i in range(8):  # 8 uint32 words, read little-endian as 4 uint64
        v, hb = _hashmix(mixer[i % _POOL], hb, np.uint64(_MULT_B))
        out[i // 2] |= v << np.uint64(32 * (i % 2))
    return out


@jit_cache.njit(nogil=True)
def _stream_words(prefix, n_streams):
    """The 4 seeding words of ``SeedSequence(entropy, spawn_key=(r, k))`` for k < n_streams,
    ``prefix`` = the assembled entropy words of (entropy, r) (k adds one word: k < 2^32)."""
    m = prefix.shape[0]
    ent = np.empty(m + 1, dtype=np.uint64)
    for i in range(m):  # element by element: a slice assignment compiles numba's shape-error
        ent[i] = prefix[i]  # message formatting (~2 s on a cold cache)
    out = np.empty((n_streams, 4), dtype=np.uint64)
    for k in range(n_streams):
        ent[m] = k
        state = _pool_state(ent)
        for j in range(4):
            out[k, j] = state[j]
    return out


@jit_cache.njit(nogil=True)
def _pcg64_states(words):
    """PCG64's ``srandom`` from each row of (k, 4) seeding words — inc = (initseq << 1) | 1,
    then two steps of the 128-bit LCG from 0 with initstate added after the first — as the
    (k, 4) stream arrays (state hi, lo, inc hi, lo) of :mod:`nbl_sim.engine.pcg64`."""
    out = np.empty_like(words)
    one, zero = np.uint64(1), np.uint64(0)
    for k in range(words.shape[0]):
        inc_hi = (words[k, 2] << one) | (words[k, 3] >> np.uint64(63))
        inc_lo = (words[k, 3] << one) | one
        s_hi, s_lo = muladd128(words[k, 0], words[k, 1], zero, one, inc_hi, inc_lo)
        s_hi, s_lo = muladd128(s_hi, s_lo, MULT_HI, MULT_LO, inc_hi, inc_lo)
        out[k, 0], out[k, 1], out[k, 2], out[k, 3] = s_hi, s_lo, inc_hi, inc_lo
    return out


def _words(x: int) -> list:
    """numpy's ``_int_to_uint32_array``: little-endian 32-bit words, [0] for 0."""
    if x == 0:
        return [0]
    out = []
    while x > 0:
        out.append(x & _M32)
        x >>= 32
    return out


def pcg64_state(entropy: int, spawn_key: tuple = ()) -> tuple[int, int]:
    """(state, inc) of ``PCG64(SeedSequence(entropy=entropy, spawn_key=spawn_key))``.

    ``entropy`` and the spawn key are non-negative integers (otherwise
    :class:`~nbl_theory.errors.NBLInputError`, as numpy's SeedSequence refuses them)."""
    if int(entropy) < 0 or any(int(k) < 0 for k in spawn_key):
        raise NBLInputError(f"seed words must be non-negative, got {entropy!r}, {spawn_key!r}")
    words = _pool_state(_assembled(entropy, spawn_key))
    return state_ints(_pcg64_states(words.reshape(1, 4))[0])


def _assembled(entropy: int, spawn_key: tuple) -> np.ndarray:
    """SeedSequence's assembled entropy: the entropy's words, padded with zeros to the pool
    size when there is a spawn key, then the spawn key's words."""
    run = _words(int(entropy))
    spawn = [w for k in spawn_key for w in _words(int(k))]
    if spawn and len(run) < _POOL:
        run = run + [0] * (_POOL - len(run))
    return np.array(run + spawn, dtype=np.uint64)


def numpy_streams(seed: int, r: int, coins: bool = True) -> tuple:
    """The three sub-streams of replication ``r`` built by numpy itself (the reference)."""
    return tuple(
        np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy=seed, spawn_key=(r, k))))
        if k < 2 or coins
        else None
        for k in range(3)
    )


_AGREES: list = []


def seeding_agrees() -> bool:
    """Once per process: :func:`pcg64_state` equals numpy's seeding on a few entropies (small,
    64-bit, > 2^64) and spawn keys (small, > 2^32), the compiled stream arrays equal it, and
    re-seeded generators draw numpy's values."""
    if not _AGREES:
        ok = True
        for seed in (0, 1, 20261126, 2**63 + 12345, 2**70 + 3):
            for key in ((0, 0), (7, 2), (2**33 + 5, 1)):
                ref = np.random.PCG64(np.random.SeedSequence(entropy=seed, spawn_key=key))
                st = ref.state["state"]
                ok &= (st["state"], st["inc"]) == pcg64_state(seed, key)
            words = _stream_words(_assembled(seed, (7,)), 3)
            ref_streams = numpy_streams(seed, 7)
            for row, gen in zip(_pcg64_states(words), ref_streams):
                ok &= bool(np.array_equal(row, state_of(gen.bit_generator)))
        mine = StreamSet(fast=True).streams(5, 3)
        ok &= all(
            mine.generator(k).random() == b.random() for k, b in enumerate(numpy_streams(5, 3))
        )
        _AGREES.append(bool(ok))
    return _AGREES[0]


class ReplicationStreams:
    """The sub-streams of one replication — k = 0 contexts, 1 rewards, 2 coins.

    ``states`` — (k, 4) uint64 PCG64 stream arrays for the compiled fills of
    :mod:`nbl_sim.engine.pcg64` (advanced in place by them), or None on the exact numpy path;
    ``generator(k)`` — a numpy Generator in stream k's state (None for an absent stream). Each
    stream is drawn either compiled or through its generator, not both."""

    __slots__ = ("states", "_gens", "_kept")

    def __init__(self, states=None, generators=None, kept=None):
        self.states = states
        self._gens = list(generators) if generators is not None else [None, None, None]
        self._kept = kept

    def generator(self, k: int) -> np.random.Generator | None:
        if self._gens[k] is None and self.states is not None and k < self.states.shape[0]:
            gen = self._kept[k] if self._kept else np.random.Generator(np.random.PCG64(0))
            set_state(gen.bit_generator, self.states[k])
            self._gens[k] = gen
        return self._gens[k]


class StreamSet:
    """Per-replication streams without building numpy objects per replication.

    ``streams(seed, r, coins)`` — the :class:`ReplicationStreams` of replication ``r``: the
    same draws as :func:`numpy_streams` (``coins`` False: no third stream), with the stream
    arrays computed compiled; ``reseed(seed, r, coins)`` — its three generators. Three
    generators are kept and re-seeded on demand, so the streams of an earlier call are
    invalidated by the next one."""

    def __init__(self, fast: bool | None = None):
        self.fast = seeding_agrees() if fast is None else fast
        self._kept = tuple(np.random.Generator(np.random.PCG64(0)) for _ in range(3))

    def streams(self, seed: int, r: int, coins: bool = True) -> ReplicationStreams:
        if not self.fast:
            return ReplicationStreams(generators=numpy_streams(seed, r, coins))
        words = _stream_words(_assembled(seed, (r,)), 3 if coins else 2)
        return ReplicationStreams(_pcg64_states(words), kept=self._kept)

    def reseed(self, seed: int, r: int, coins: bool = True) -> tuple:
        s = self.streams(seed, r, coins)
        return tuple(s.generator(k) for k in range(3))
