"""The LLVM-IR operations of nbl_sim.engine.llvm_ops against Python integers, and the NBL kernel's
IR lane rounds (nbl_sim.engine.nbl_lanes) and the environment's IR index pass
(nbl_sim.engine.environment_lanes) against their scalar forms, bit for bit (special values included)."""

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import types
from numba.extending import intrinsic

from nbl_sim.engine.environment_passes import _index_row, index_pass
from nbl_sim.engine.llvm_ops import LANES, VF, VI, exact_double, muladd128, small_fptosi
from nbl_sim.engine.nbl_kernel import _replication_round
from nbl_sim.engine.nbl_lanes import lane_rounds

U128 = st.integers(0, 2**128 - 1)
M64 = (1 << 64) - 1


@numba.njit
def _muladd(a_hi, a_lo, b_hi, b_lo, c_hi, c_lo):
    return muladd128(a_hi, a_lo, b_hi, b_lo, c_hi, c_lo)


@numba.njit
def _rounds(X, Y, actions, V, eta, t_begin, t_end, lanes):
    for r0 in range(0, X.shape[0], LANES):
        W = np.ascontiguousarray(V[:, r0 : r0 + LANES])
        if lanes:
            lane_rounds(X, Y, actions, W, eta, r0, t_begin, t_end)
        else:
            for t in range(t_begin, t_end):
                for b in range(LANES):
                    _replication_round(X, Y, r0 + b, t, eta[t], W, b, actions)
        V[:, r0 : r0 + LANES] = W


def _vector_op(kind, bits=53):
    """A compiled f(src, dst) applying one vector conversion of llvm_ops to 8 values."""
    src_vec, dst_vec = (VI, VF) if kind == "double" else (VF, VI)

    @intrinsic
    def op(typingctx, src, dst):
        def codegen(context, builder, signature, args):
            a, b = (
                context.make_array(t)(context, builder, v) for t, v in zip(signature.args, args)
            )
            v = builder.load(builder.bitcast(a.data, src_vec.as_pointer()), align=8)
            out = exact_double(builder, v, bits) if kind == "double" else small_fptosi(builder, v)
            builder.store(out, builder.bitcast(b.data, dst_vec.as_pointer()), align=8)
            return context.get_dummy_value()

        return types.void(src, dst), codegen

    @numba.njit
    def f(src, dst):
        op(src, dst)

    return f


_TO_DOUBLE = {bits: _vector_op("double", bits) for bits in (52, 53)}
_TO_INT = _vector_op("int")


@pytest.mark.parametrize("bits", [52, 53])
@given(data=st.data())
@settings(max_examples=150, deadline=None)
def test_exact_double_is_the_integers_value(bits, data):
    """Every integer in [0, 2**bits) converts to its own double (as sitofp does); the edges
    0, 1, 2³² ± 1 and 2**bits − 1 are drawn often."""
    edges = st.sampled_from([0, 1, 2**32 - 1, 2**32, 2**32 + 1, 2**bits - 1, 2**bits - 2])
    vs = data.draw(
        st.lists(st.one_of(edges, st.integers(0, 2**bits - 1)), min_size=LANES, max_size=LANES)
    )
    out = np.empty(LANES)
    _TO_DOUBLE[bits](np.array(vs, dtype=np.uint64), out)
    assert [float(v) for v in vs] == out.tolist()
    assert not np.any(np.signbit(out))  # zero is +0.0


@given(
    st.lists(
        st.one_of(
            st.floats(-(2.0**31) + 1, 2.0**31 - 1, allow_nan=False),
            st.sampled_from([0.0, -0.0, 0.5, -0.5, 0.9999999999999999, 2047.5]),
        ),
        min_size=LANES,
        max_size=LANES,
    )
)
@settings(max_examples=150, deadline=None)
def test_small_fptosi_truncates_toward_zero(xs):
    out = np.empty(LANES, dtype=np.int64)
    _TO_INT(np.array(xs), out)
    assert out.tolist() == [int(x) for x in xs]


def _words(x):
    return np.uint64(x >> 64), np.uint64(x & M64)


@given(U128, U128, U128)
@settings(max_examples=300, deadline=None)
def test_muladd128_is_arithmetic_mod_2_128(a, b, c):
    hi, lo = _muladd(*_words(a), *_words(b), *_words(c))
    assert (int(hi) << 64) | int(lo) == (a * b + c) % 2**128


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 17), st.integers(0, 2**32 - 1), st.integers(0, 5), st.integers(1, 40))
def test_lane_rounds_are_the_scalar_rounds(d, seed, t_begin, rounds):
    """Two groups of eight replications, rounds t_begin … t_begin + rounds − 1, from unit
    directions: the IR lanes give the scalar rounds' actions and directions bit for bit. The
    contexts include exact ties (x = 0, so s = 0 and sgn = +1), −0.0, a NaN (it stays in its
    lane: the other replications are unaffected) and magnitudes up to 2^±300; the rewards are
    arbitrary floats; the arrays are strided views as the kernel may be given."""
    rng = np.random.default_rng(seed)
    R, n = 2 * LANES, t_begin + rounds
    X = rng.standard_normal((R, n + 1, d + 1))[:, :n, :d] * np.exp2(rng.integers(-300, 300))
    X[rng.integers(R), rng.integers(n)] = 0.0
    X[rng.integers(R), rng.integers(n), rng.integers(d)] = -0.0
    X[rng.integers(R), rng.integers(n), rng.integers(d)] = np.nan
    Y = rng.standard_normal((R, n, 2))
    eta = 10.0 / (np.arange(1, n + 1) + rng.uniform(-0.5, 50.0))
    V0 = rng.standard_normal((d, R))
    V0 /= np.sqrt((V0 * V0).sum(0))
    out = []
    for lanes in (True, False):
        V, actions = V0.copy(), np.zeros((R, n), dtype=np.int8)
        with np.errstate(all="ignore"):
            _rounds(X, Y, actions, V, eta, t_begin, n, lanes)
        out.append((V, actions))
    (v_lane, a_lane), (v_one, a_one) = out
    assert np.array_equal(a_lane, a_one)
    assert np.array_equal(v_lane, v_one, equal_nan=True)
    assert np.array_equal(np.signbit(v_lane), np.signbit(v_one))
    assert np.any(np.isfinite(v_lane))  # a NaN poisons one replication only


@numba.njit
def _scalar_index(X, beta, v_star, z, optimal):
    for t in range(X.shape[0]):
        _index_row(X, t, beta, v_star, z, optimal, X.shape[1])


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 140), st.integers(1, 40), st.integers(0, 2**32 - 1), st.booleans())
def test_index_lanes_are_the_scalar_rows(d, n, seed, strided):
    """The index pass (eight rows as vector lanes for d ≥ 3, transposed 8×8 blocks in the
    pairwise part) gives the scalar rows' z and optimal actions bit for bit — signed zeros
    included — for every d (below, at and past the pairwise block of 8 and numpy's 128), any
    number of rows (the last n mod 8 scalar) and strided contexts (all scalar)."""
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
    out = []
    for fn in (index_pass, _scalar_index):
        z, optimal = np.full((n, 2), np.nan), np.zeros(n, dtype=np.int8)
        fn(X, beta, v, z, optimal)
        out.append((z, optimal))
    (z1, o1), (z2, o2) = out
    assert np.array_equal(z1, z2) and np.array_equal(np.signbit(z1), np.signbit(z2))
    assert np.array_equal(o1, o2)
