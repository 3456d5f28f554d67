"""The compiled operations of the draw against their definitions: the LLVM-IR 128-bit
multiply-add of nbl_sim.engine.llvm_ops against Python integers, and the index pass of
nbl_sim.engine.environment_passes against the reference backend's (special values included)."""

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nbl_sim.engine import reference
from nbl_sim.engine.environment_passes import index_pass
from nbl_sim.engine.llvm_ops import muladd128

U128 = st.integers(0, 2**128 - 1)
M64 = (1 << 64) - 1


@numba.njit
def _muladd(a_hi, a_lo, b_hi, b_lo, c_hi, c_lo):
    return muladd128(a_hi, a_lo, b_hi, b_lo, c_hi, c_lo)


def _words(x):
    return np.uint64(x >> 64), np.uint64(x & M64)


@given(U128, U128, U128)
@settings(max_examples=300, deadline=None)
def test_muladd128_is_arithmetic_mod_2_128(a, b, c):
    hi, lo = _muladd(*_words(a), *_words(b), *_words(c))
    assert (int(hi) << 64) | int(lo) == (a * b + c) % 2**128


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 128), st.integers(1, 40), st.integers(0, 2**32 - 1), st.booleans())
def test_index_pass_is_the_reference_definition(d, n, seed, strided):
    """The compiled index pass gives the reference definition's z (a fold over coordinates)
    and optimal actions (numpy's pairwise order) bit for bit — signed zeros included — for
    every d up to numpy's pairwise block of 128 (past it the environment lets numpy sum), any
    number of rows and strided contexts, with sums that cancel to zero in numpy's order."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2 * d if strided else d)) * np.exp2(rng.integers(-300, 300))
    X = X[:, ::2] if strided else X
    X[rng.integers(n)] = 0.0
    X[rng.integers(n), rng.integers(d)] = -0.0
    beta, v = rng.standard_normal((2, d)), rng.standard_normal(d)
    v[rng.integers(d)] = -0.0
    if d >= 4 and n >= 2:  # v*ᵀx = 0 in numpy's order, < 0 in others (sign from rounding)
        i = rng.integers(d - 3)
        v[i : i + 4] = 1.0
        X[rng.integers(n), :] = 0.0
        X[-1, :] = 0.0
        X[-1, i : i + 4] = (
            (1.0, 1.2e-16, -1.0, -1.5e-16) if d >= 8 else (1.0, -1.0, 1.2e-16, -1.5e-16)
        )
    z1, o1 = np.full((n, 2), np.nan), np.zeros(n, dtype=np.int8)
    index_pass(X, beta, v, z1, o1)
    z2, o2 = reference.indices(X, beta, v)
    assert np.array_equal(z1, z2) and np.array_equal(np.signbit(z1), np.signbit(z2))
    assert np.array_equal(o1, o2)
