"""Per-replication random streams, seeded fast and exactly as numpy seeds them.

Replication r of a simulation seeded with ``seed`` draws its contexts, rewards and coins from
the sub-streams ``Generator(PCG64(SeedSequence(entropy=seed, spawn_key=(r, k))))``, k = 0, 1, 2
(:mod:`nbl_sim.environment`). Building those three objects costs ~33 µs per replication — more
than drawing a short replication. :class:`StreamSet` keeps three generators and *re-seeds* them
for each replication: :func:`pcg64_state` computes the state that ``PCG64(SeedSequence(...))``
starts in (numpy's SeedSequence hash — ``mix_entropy`` and ``generate_state`` of
``numpy/random/bit_generator.pyx`` — compiled, then PCG64's ``srandom``: two steps of the
128-bit LCG), and the state is assigned to the kept bit generators. The draws are the same bits
(tested against numpy for many entropies and spawn keys); a numpy whose seeding differed would
fail :func:`seeding_agrees`, checked once per process, and the slow exact path is used instead.
"""

from __future__ import annotations

import numba
import numpy as np

from nbl_theory.errors import NBLInputError

__all__ = ["pcg64_state", "StreamSet", "seeding_agrees", "numpy_streams"]

_M32 = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_MULT_L, _MIX_MULT_R = 0xCA01F9DD, 0x4973F715
_XSHIFT = 16
_POOL = 4
#: PCG_DEFAULT_MULTIPLIER_128 of numpy's pcg64.h
_PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645
_M128 = (1 << 128) - 1


@numba.njit(cache=True, nogil=True, inline="always")
def _hashmix(value, h, mult):
    """numpy's ``hashmix`` (uint32 arithmetic in uint64, masked): the mixed value and the
    advanced hash constant."""
    M = np.uint64(_M32)
    value = (value ^ h) & M
    h = (h * mult) & M
    value = (value * h) & M
    return value ^ (value >> np.uint64(_XSHIFT)), h


@numba.njit(cache=True, nogil=True, inline="always")
def _mix(x, y):
    """numpy's ``mix`` of two uint32 words."""
    res = (np.uint64(_MIX_MULT_L) * x - np.uint64(_MIX_MULT_R) * y) & np.uint64(_M32)
    return res ^ (res >> np.uint64(_XSHIFT))


@numba.njit(cache=True, nogil=True)
def _pool_state(entropy):
    """SeedSequence's mixed pool of 4 uint32 words for the assembled entropy words
    (``mix_entropy``), then ``generate_state(4, uint64)``: 4 uint64 words."""
    mult_a = np.uint64(_MULT_A)
    h = np.uint64(_INIT_A)
    mixer = np.empty(_POOL, dtype=np.uint64)
    for i in range(_POOL):
        mixer[i], h = _hashmix(entropy[i] if i < entropy.shape[0] else np.uint64(0), h,
                               mult_a)
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
    for i in range(8):                 # 8 uint32 words, read little-endian as 4 uint64
        v, hb = _hashmix(mixer[i % _POOL], hb, np.uint64(_MULT_B))
        out[i // 2] |= v << np.uint64(32 * (i % 2))
    return out


@numba.njit(cache=True, nogil=True)
def _stream_words(prefix, n_streams):
    """The 4 seeding words of ``SeedSequence(entropy, spawn_key=(r, k))`` for k < n_streams,
    ``prefix`` = the assembled entropy words of (entropy, r) (k adds one word: k < 2^32)."""
    m = prefix.shape[0]
    ent = np.empty(m + 1, dtype=np.uint64)
    ent[:m] = prefix
    out = np.empty((n_streams, 4), dtype=np.uint64)
    for k in range(n_streams):
        ent[m] = k
        out[k] = _pool_state(ent)
    return out


def _pcg64_from_words(w) -> tuple[int, int]:
    """PCG64's ``srandom`` from the 4 seeding words: (state, inc) after two LCG steps."""
    initstate, initseq = (w[0] << 64) | w[1], (w[2] << 64) | w[3]
    inc = ((initseq << 1) | 1) & _M128
    state = (inc + initstate) & _M128                 # 0 * MULT + inc, + initstate
    return (state * _PCG_MULT + inc) & _M128, inc


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
    return _pcg64_from_words(_pool_state(_assembled(entropy, spawn_key)).tolist())


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
    return tuple(np.random.Generator(np.random.PCG64(
        np.random.SeedSequence(entropy=seed, spawn_key=(r, k)))) if k < 2 or coins else None
        for k in range(3))


_AGREES: list = []


def seeding_agrees() -> bool:
    """Once per process: :func:`pcg64_state` equals numpy's seeding on a few entropies (small,
    64-bit, > 2^64) and spawn keys (small, > 2^32), and re-seeded generators draw numpy's
    values."""
    if not _AGREES:
        ok = True
        for seed in (0, 1, 20261126, 2**63 + 12345, 2**70 + 3):
            for key in ((0, 0), (7, 2), (2**33 + 5, 1)):
                ref = np.random.PCG64(np.random.SeedSequence(entropy=seed, spawn_key=key))
                st = ref.state["state"]
                ok &= (st["state"], st["inc"]) == pcg64_state(seed, key)
        mine = StreamSet(fast=True)
        mine.reseed(5, 3)
        ok &= all(a.random() == b.random() for a, b in zip(mine.streams, numpy_streams(5, 3)))
        _AGREES.append(bool(ok))
    return _AGREES[0]


class StreamSet:
    """Three kept generators (contexts, rewards, coins) re-seeded per replication.

    ``reseed(seed, r, coins)`` returns the streams of replication ``r``: the same draws as
    :func:`numpy_streams` (``coins`` False: the third is None). The generators are reused, so
    streams returned by an earlier ``reseed`` are invalidated by the next one."""

    def __init__(self, fast: bool | None = None):
        self.fast = seeding_agrees() if fast is None else fast
        self.streams = tuple(np.random.Generator(np.random.PCG64(0)) for _ in range(3))

    def reseed(self, seed: int, r: int, coins: bool = True) -> tuple:
        if not self.fast:
            return numpy_streams(seed, r, coins)
        words = _stream_words(_assembled(seed, (r,)), 3 if coins else 2).tolist()
        out = [None, None, None]
        for k, w in enumerate(words):
            state, inc = _pcg64_from_words(w)
            gen = self.streams[k]
            gen.bit_generator.state = {"bit_generator": "PCG64",
                                       "state": {"state": state, "inc": inc},
                                       "has_uint32": 0, "uinteger": 0}
            out[k] = gen
        return tuple(out)
