"""The LLVM-IR operations of nbl_sim.llvm_ops against Python integers and numpy's scalar
operations, bit for bit (special values included)."""

import numba
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nbl_sim.llvm_ops import LANES, div_rows, muladd128, sqrt_row

U128 = st.integers(0, 2**128 - 1)
M64 = (1 << 64) - 1


@numba.njit
def _muladd(a_hi, a_lo, b_hi, b_lo, c_hi, c_lo):
    return muladd128(a_hi, a_lo, b_hi, b_lo, c_hi, c_lo)


@numba.njit
def _div_then_sqrt(A, B):
    for i in range(A.shape[0]):
        div_rows(A, i, B, i)
    for i in range(B.shape[0]):
        sqrt_row(B, i)


def _words(x):
    return np.uint64(x >> 64), np.uint64(x & M64)


@given(U128, U128, U128)
@settings(max_examples=300, deadline=None)
def test_muladd128_is_arithmetic_mod_2_128(a, b, c):
    hi, lo = _muladd(*_words(a), *_words(b), *_words(c))
    assert (int(hi) << 64) | int(lo) == (a * b + c) % 2**128


def test_lane_division_and_square_root_are_numpys_lane_by_lane():
    """Random magnitudes over the whole exponent range plus 0, −0, ±inf, NaN, subnormals: the
    vector instructions give numpy's scalar quotients and roots exactly (a wider array's columns
    beyond the first LANES are untouched)."""
    rng = np.random.default_rng(0)
    k = 4000
    A = rng.standard_normal((k, LANES + 1)) * np.exp2(rng.integers(-1070, 1020, (k, LANES + 1)))
    B = np.abs(rng.standard_normal((k, LANES + 1))) * np.exp2(rng.integers(-1070, 1020,
                                                                            (k, LANES + 1)))
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 1.0, 2.0**-1074 * 3]
    A[:len(special), :len(special)] = special
    B[:len(special), 1:1 + len(special)] = np.abs(special)
    want_q, want_r = A.copy(), B.copy()
    with np.errstate(all="ignore"):
        want_q[:, :LANES] = A[:, :LANES] / B[:, :LANES]
        want_r[:, :LANES] = np.sqrt(B[:, :LANES])
        _div_then_sqrt(A, B)
    assert np.array_equal(A, want_q, equal_nan=True)
    assert np.array_equal(B, want_r, equal_nan=True)
    assert np.array_equal(np.signbit(A), np.signbit(want_q))
