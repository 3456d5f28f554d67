"""numpy's PCG64 stream, compiled inline: the 128-bit LCG step, the 64-bit output, doubles and
standard normals, as numba functions that keep the generator's state in registers.

numpy's ``Generator(PCG64(...))`` draws each 64-bit word through a function pointer
(``bitgen_t.next_uint64``), which numba's ``Generator`` support calls as well: an indirect call
per word that the compiler cannot inline. Here the same generator is written out:

* state s (128 bits) and increment c (odd, 128 bits) held as four uint64 words
  ``(s_hi, s_lo, c_hi, c_lo)``; a step is s ← s·M + c mod 2¹²⁸ with numpy's
  ``PCG_DEFAULT_MULTIPLIER_128`` M (one LLVM i128 multiply-add,
  :func:`nbl_sim.engine.llvm_ops.muladd128`);
* the output of the *new* state is XSL-RR: ``rotr64(s_hi ^ s_lo, s_hi >> 58)``
  (``pcg_setseq_128_xsl_rr_64_random_r`` of numpy's ``pcg64.h``);
* a double is ``(word >> 11) · 2⁻⁵³`` (numpy's ``next_double``);
* a stream's start is numpy's ``PCG64(SeedSequence(seed, spawn_key=(r, k)))``: the
  SeedSequence hash of the entropy and spawn key into a pool of four 32-bit words, the eight
  words of ``generate_state(4, uint64)`` and PCG64's ``srandom`` (:func:`seeded_state`), so a
  compiled draw builds no numpy object per replication;
* a standard normal is numpy's ``random_standard_normal`` ziggurat (256 layers, the same tables
  — numpy's ``ziggurat_constants.h`` as data in :mod:`nbl_sim.engine.ziggurat` — the same slow path
  and tail, ``log1p`` and ``exp`` from the C math library as numpy calls them).

So the words, doubles and normals are numpy's bit for bit, and so is the final state: checked
once per process against numpy (:func:`compiled_pcg_agrees`, 100,000 normals — ~1,500 slow
paths, ~25 tails — and 20,000 doubles from each of two seeds); callers fall back to numpy's
own fills if it ever fails. ~2.4 ns per normal against ~3.3 ns for numba's
``Generator.standard_normal`` loop and ~9 ns for numpy's fill (whose ±sign branch mispredicts)
on the machine of benchmarks/.

A stream is passed around as a (4,) uint64 array ``state`` = (s_hi, s_lo, c_hi, c_lo), advanced
in place by the compiled fills.
"""

from __future__ import annotations

import numpy as np

from . import jit_cache  # the cached kernels are defined with jit_cache.njit
from .llvm_ops import muladd128
from .ziggurat import (  # numpy's tables, as data (checked against numpy's draws)
    fi_double,
    ki_double,
    wi_double,
    ziggurat_nor_inv_r,
    ziggurat_nor_r,
)

__all__ = [
    "MULTIPLIER",
    "MULT_HI",
    "MULT_LO",
    "next_word",
    "as_double",
    "ziggurat_candidate",
    "state_words",
    "state_ints",
    "state_of",
    "set_state",
    "fill_doubles",
    "fill_normals",
    "seed_words",
    "seeded_state",
    "compiled_pcg_agrees",
]

#: PCG_DEFAULT_MULTIPLIER_128 of numpy's pcg64.h
MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645
_M64 = (1 << 64) - 1
MULT_HI, MULT_LO = np.uint64(MULTIPLIER >> 64), np.uint64(MULTIPLIER & _M64)
_TWO_M53 = 1.0 / 9007199254740992.0


@jit_cache.njit(nogil=True, inline="always")
def next_word(s_hi, s_lo, c_hi, c_lo):
    """One PCG64 step: (64-bit output, new s_hi, new s_lo)."""
    s_hi, s_lo = muladd128(s_hi, s_lo, MULT_HI, MULT_LO, c_hi, c_lo)
    x = s_hi ^ s_lo
    rot = s_hi >> np.uint64(58)
    return (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63))), s_hi, s_lo


@jit_cache.njit(nogil=True, inline="always")
def as_double(word):
    """numpy's next_double from a 64-bit word: (word >> 11)·2⁻⁵³."""
    return np.float64(word >> np.uint64(11)) * _TWO_M53


@jit_cache.njit(nogil=True, inline="always")
def ziggurat_candidate(r):
    """A ziggurat draw's layer, |x| bits and signed candidate x from its 64-bit word r."""
    idx = r & np.uint64(0xFF)
    r >>= np.uint64(8)
    rabs = (r >> np.uint64(1)) & np.uint64(0x000FFFFFFFFFFFFF)
    x = np.float64(rabs) * wi_double[idx]
    if r & np.uint64(1):
        x = -x
    return idx, rabs, x


@jit_cache.njit(nogil=True, inline="always")
def _beyond_the_box(idx, rabs, x, s_hi, s_lo, c_hi, c_lo):
    """The rest of a draw whose candidate failed the fast test (rabs ≥ ki[idx]): the tail
    |x| > r by Marsaglia's method on 1 − U (always accepts), or the wedge test. (accepted,
    x, new s_hi, new s_lo)."""
    if idx == 0:
        while True:
            u, s_hi, s_lo = next_word(s_hi, s_lo, c_hi, c_lo)
            xx = -ziggurat_nor_inv_r * np.log1p(-as_double(u))
            u, s_hi, s_lo = next_word(s_hi, s_lo, c_hi, c_lo)
            yy = -np.log1p(-as_double(u))
            if yy + yy > xx * xx:
                if (rabs >> np.uint64(8)) & np.uint64(1):
                    return True, -(ziggurat_nor_r + xx), s_hi, s_lo
                return True, ziggurat_nor_r + xx, s_hi, s_lo
    u, s_hi, s_lo = next_word(s_hi, s_lo, c_hi, c_lo)
    if (fi_double[idx - 1] - fi_double[idx]) * as_double(u) + fi_double[idx] < np.exp(-0.5 * x * x):
        return True, x, s_hi, s_lo
    return False, x, s_hi, s_lo


@jit_cache.njit(nogil=True, inline="always")
def _normal(s_hi, s_lo, c_hi, c_lo):
    """numpy's ``random_standard_normal``: (x, new s_hi, new s_lo)."""
    while True:
        r, s_hi, s_lo = next_word(s_hi, s_lo, c_hi, c_lo)
        idx, rabs, x = ziggurat_candidate(r)
        if rabs < ki_double[idx]:
            return x, s_hi, s_lo  # ~98.5% of the draws
        ok, x, s_hi, s_lo = _beyond_the_box(idx, rabs, x, s_hi, s_lo, c_hi, c_lo)
        if ok:
            return x, s_hi, s_lo


@jit_cache.njit(nogil=True)
def fill_normals(state, X):
    """``standard_normal(out=X)`` of the PCG64 stream ``state`` for a C-contiguous 2-D ``X``
    (memory order); ``state`` is advanced in place."""
    s_hi, s_lo, c_hi, c_lo = state[0], state[1], state[2], state[3]
    n, d = X.shape
    for t in range(n):
        for k in range(d):
            X[t, k], s_hi, s_lo = _normal(s_hi, s_lo, c_hi, c_lo)
    state[0], state[1] = s_hi, s_lo


@jit_cache.njit(nogil=True)
def fill_doubles(state, U):
    """``random(out=U)`` of the PCG64 stream ``state`` for a C-contiguous 2-D ``U``; ``state``
    is advanced in place."""
    s_hi, s_lo, c_hi, c_lo = state[0], state[1], state[2], state[3]
    n, d = U.shape
    for t in range(n):
        for k in range(d):
            w, s_hi, s_lo = next_word(s_hi, s_lo, c_hi, c_lo)
            U[t, k] = as_double(w)
    state[0], state[1] = s_hi, s_lo


# ---------------------------------------------------------------- SeedSequence seeding
# numpy's SeedSequence (O'Neill's seed_seq hash, pool of four 32-bit words) and PCG64's seeding
# from it, so that a stream Generator(PCG64(SeedSequence(seed, spawn_key=(r, k)))) starts from
# the same state without building the numpy objects: their construction holds the GIL, and in
# a threaded run it was the largest part of the time the GIL was held. 32-bit arithmetic is
# done in uint64 and masked (numba widens uint32 products).
_M32 = np.uint64(0xFFFFFFFF)
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_MULT_L = np.uint64(0xCA01F9DD)
_MIX_MULT_R = np.uint64(0x4973F715)
_XSHIFT = np.uint64(16)
_POOL = 4


@jit_cache.njit(nogil=True, inline="always")
def _hashmix(value, hash_const):
    """seed_seq's hashmix of a 32-bit word: (mixed word, next hash constant)."""
    value = (value ^ hash_const) & _M32
    hash_const = (hash_const * _MULT_A) & _M32
    value = (value * hash_const) & _M32
    return value ^ (value >> _XSHIFT), hash_const


@jit_cache.njit(nogil=True, inline="always")
def _mix(x, y):
    """seed_seq's mix of two 32-bit words."""
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _M32
    return result ^ (result >> _XSHIFT)


@jit_cache.njit(nogil=True, inline="always")
def _append_int(entropy, i, v):
    """numpy's 32-bit words of a non-negative integer v (least significant first; 0 is [0])
    written from entropy[i]; returns the next free index."""
    entropy[i] = v & _M32
    i += 1
    v >>= np.uint64(32)
    while v > np.uint64(0):
        entropy[i] = v & _M32
        i += 1
        v >>= np.uint64(32)
    return i


@jit_cache.njit(nogil=True)
def seeded_state(seed, r, k, out):
    """The state of ``PCG64(SeedSequence(entropy, spawn_key=(r, k)))`` as a stream array
    (s_hi, s_lo, c_hi, c_lo), written into ``out`` (4,) uint64; ``seed`` holds the 32-bit
    words of the entropy (:func:`seed_words`), ``r`` and ``k`` are non-negative."""
    run = max(seed.shape[0], _POOL)  # a spawned sequence pads its entropy to the pool size
    entropy = np.zeros(run + 4, dtype=np.uint64)
    entropy[: seed.shape[0]] = seed
    size = _append_int(entropy, run, np.uint64(r))
    size = _append_int(entropy, size, np.uint64(k))
    # mix_entropy: the pool
    pool = np.empty(_POOL, dtype=np.uint64)
    hc = _INIT_A
    for i in range(_POOL):
        pool[i], hc = _hashmix(entropy[i] if i < size else np.uint64(0), hc)
    for i_src in range(_POOL):
        for i_dst in range(_POOL):
            if i_src != i_dst:
                h, hc = _hashmix(pool[i_src], hc)
                pool[i_dst] = _mix(pool[i_dst], h)
    for i_src in range(_POOL, size):
        for i_dst in range(_POOL):
            h, hc = _hashmix(entropy[i_src], hc)
            pool[i_dst] = _mix(pool[i_dst], h)
    # generate_state(4, uint64): eight 32-bit words, paired little-endian
    hb = _INIT_B
    val = np.empty(4, dtype=np.uint64)
    for j in range(4):
        lo = (pool[(2 * j) % _POOL] ^ hb) & _M32
        hb = (hb * _MULT_B) & _M32
        lo = (lo * hb) & _M32
        lo ^= lo >> _XSHIFT
        hi = (pool[(2 * j + 1) % _POOL] ^ hb) & _M32
        hb = (hb * _MULT_B) & _M32
        hi = (hi * hb) & _M32
        hi ^= hi >> _XSHIFT
        val[j] = lo | (hi << np.uint64(32))
    # pcg64_set_seed(state = (val0, val1), inc = (val2, val3)): pcg_setseq_128_srandom_r
    c_hi = (val[2] << np.uint64(1)) | (val[3] >> np.uint64(63))
    c_lo = (val[3] << np.uint64(1)) | np.uint64(1)
    zero, one = np.uint64(0), np.uint64(1)
    s_hi, s_lo = muladd128(zero, zero, MULT_HI, MULT_LO, c_hi, c_lo)  # step from state 0
    s_hi, s_lo = muladd128(s_hi, s_lo, zero, one, val[0], val[1])  # state += initstate
    s_hi, s_lo = muladd128(s_hi, s_lo, MULT_HI, MULT_LO, c_hi, c_lo)  # step
    out[0], out[1], out[2], out[3] = s_hi, s_lo, c_hi, c_lo


def seed_words(seed: int) -> np.ndarray:
    """numpy's 32-bit words of a non-negative integer entropy (least significant first; 0 is
    one word 0), as the uint64 array :func:`seeded_state` takes."""
    seed = int(seed)
    words = [seed & 0xFFFFFFFF]
    seed >>= 32
    while seed:
        words.append(seed & 0xFFFFFFFF)
        seed >>= 32
    return np.array(words, dtype=np.uint64)


def state_words(state: int, inc: int) -> np.ndarray:
    """The (4,) uint64 stream array of a PCG64 (state, inc) pair of Python integers."""
    return np.array([state >> 64, state & _M64, inc >> 64, inc & _M64], dtype=np.uint64)


def state_of(bit_generator: np.random.PCG64) -> np.ndarray:
    """The stream array of a numpy PCG64 (which must not hold a buffered 32-bit half-word)."""
    st = bit_generator.state
    if st["has_uint32"]:
        raise ValueError("a PCG64 holding a buffered 32-bit word cannot be drawn compiled")
    return state_words(st["state"]["state"], st["state"]["inc"])


def state_ints(words: np.ndarray) -> tuple[int, int]:
    """The (state, inc) Python integers of a stream array (the inverse of :func:`state_words`)."""
    w = [int(v) for v in words]
    return (w[0] << 64) | w[1], (w[2] << 64) | w[3]


def set_state(bit_generator: np.random.PCG64, words: np.ndarray) -> None:
    """Put a numpy PCG64 in the state of a stream array."""
    state, inc = state_ints(words)
    bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": state, "inc": inc},
        "has_uint32": 0,
        "uinteger": 0,
    }


_AGREES: list = []  # [bool] once checked in this process


def compiled_pcg_agrees() -> bool:
    """Once per process: 100,000 normals and 20,000 doubles from the compiled stream, and its
    final state, must equal numpy's ``Generator(PCG64)`` fills from the same seed, and the
    compiled seeding numpy's ``PCG64(SeedSequence(seed, spawn_key=(r, k)))``; otherwise
    (a numba or numpy whose ziggurat or PCG64 differ) callers use numpy's own fills."""
    if not _AGREES:
        ok = True
        for seed in (20261126, 7):
            ref = np.random.Generator(np.random.PCG64(seed))
            mine = state_of(ref.bit_generator)
            x, y = np.empty((50_000, 2)), np.empty((50_000, 2))
            u, v = np.empty((10_000, 2)), np.empty((10_000, 2))
            if ok:
                fill_normals(mine, x)
                fill_doubles(mine, u)
            ref.standard_normal(out=y)
            ref.random(out=v)
            ok = ok and bool(
                np.array_equal(x, y)
                and np.array_equal(u, v)
                and np.array_equal(mine, state_of(ref.bit_generator))
            )
            # the seeding: entropy of 1 and 3 words, spawn keys of 1–2 words
            for e, r, k in ((seed, 0, 0), (seed, 1, 2), (seed, 2**32 + 5, 1), (2**70 + seed, 3, 0)):
                seeded = np.empty(4, dtype=np.uint64)
                seeded_state(seed_words(e), r, k, seeded)
                numpy_seeded = np.random.PCG64(np.random.SeedSequence(e, spawn_key=(r, k)))
                ok = ok and bool(np.array_equal(seeded, state_of(numpy_seeded)))
        _AGREES.append(ok)
    return _AGREES[0]
