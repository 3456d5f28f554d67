"""Operations numba does not emit by itself, written as LLVM IR (``numba.extending.intrinsic``).

* :func:`muladd128` — (a·b + c) mod 2¹²⁸ on 128-bit integers held as (hi, lo) uint64 words:
  one LLVM ``i128`` multiply-add, the step of numpy's PCG64 (:mod:`nbl_sim.engine.pcg64`).
* :func:`transpose8` — the columns of an 8×8 float64 matrix held as eight row vectors (24
  shuffles), to read eight rows' coordinates as lane vectors.
* :data:`LANES` — the vector width of the IR loops elsewhere: the NBL kernel's eight lockstep
  replications are the lanes of ``<8 x double>`` vectors (:mod:`nbl_sim.engine.nbl_lanes`),
  and so are the environment's rows and streams (:mod:`nbl_sim.engine.environment_lanes`).
* The small vocabulary those loops share: the IR types (``I64``, ``F64``, ``VF``, ``VI``, …),
  constants (:func:`i64`, :func:`lane`, :func:`splat_i64`, :func:`lane_mask`), :func:`splat`
  and :func:`store_lanes`.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .contract import LOCKSTEP

__all__ = [
    "LANES",
    "muladd128",
    "lane_mask",
    "transpose8",
    "I64",
    "I32",
    "I8",
    "F64",
    "VF",
    "VI",
    "i64",
    "lane",
    "splat_i64",
    "splat",
    "store_lanes",
    "exact_double",
    "small_fptosi",
]

#: the vector width (float64 lanes) of the IR loops: the kernels' lockstep group
LANES = LOCKSTEP

# the vocabulary of the IR loops (nbl_sim.engine.environment_lanes, nbl_sim.engine.nbl_lanes)
I64, I32, I8, F64 = ir.IntType(64), ir.IntType(32), ir.IntType(8), ir.DoubleType()
VF, VI = ir.VectorType(F64, LANES), ir.VectorType(I64, LANES)


def i64(v: int) -> ir.Constant:
    """An i64 constant."""
    return ir.Constant(I64, v)


def lane(b: int) -> ir.Constant:
    """The index of lane b (for extract/insert_element)."""
    return ir.Constant(I32, b)


def splat_i64(v: int) -> ir.Constant:
    """The <LANES x i64> constant with every lane v."""
    return ir.Constant(VI, [i64(v)] * LANES)


def splat(builder, x) -> ir.Value:
    """The <LANES x double> with every lane the double x."""
    v = builder.insert_element(ir.Constant(VF, ir.Undefined), x, lane(0))
    return builder.shuffle_vector(v, ir.Constant(VF, ir.Undefined), lane_mask([0] * LANES))


def _below_2_52(builder, v) -> ir.Value:
    """bitcast(v | bits of 2⁵²) − 2⁵²: the double 2⁵² + v minus 2⁵², both steps exact."""
    two52 = ir.Constant(VF, [ir.Constant(F64, 2.0**52)] * LANES)
    return builder.fsub(builder.bitcast(builder.or_(v, splat_i64(0x4330000000000000)), VF), two52)


def exact_double(builder, v, bits: int) -> ir.Value:
    """The <LANES x double> of a <LANES x i64> v whose lanes are integers in [0, 2**bits),
    bits ≤ 53 — exactly, so the value ``sitofp`` gives, but in vector instructions on any x86
    (AVX2 has no 64-bit integer → double conversion, and LLVM then converts lane by lane
    through the scalar unit). Below 2⁵² the double 2⁵² + v is v's bits under 2⁵²'s exponent;
    below 2⁵³ v = h·2³² + l with h, l < 2³² each converted so, and h·2³² + l is exact (an integer
    below 2⁵³). Zero gives +0.0, as sitofp."""
    if bits <= 52:
        return _below_2_52(builder, v)
    if bits > 53:
        raise ValueError("exact_double: at most 53 bits")
    two32 = ir.Constant(VF, [ir.Constant(F64, 2.0**32)] * LANES)
    high = _below_2_52(builder, builder.lshr(v, splat_i64(32)))
    low = _below_2_52(builder, builder.and_(v, splat_i64(0xFFFFFFFF)))
    return builder.fadd(builder.fmul(high, two32), low)


def small_fptosi(builder, x) -> ir.Value:
    """``fptosi`` of a <LANES x double> whose lanes lie in (−2³¹, 2³¹), as <LANES x i64>: through
    i32 (one vector instruction on AVX2, which has no double → 64-bit conversion); the same
    truncated values there."""
    return builder.sext(builder.fptosi(x, ir.VectorType(I32, LANES)), VI)


def store_lanes(builder, vector, addresses, offset) -> None:
    """Store lane b of ``vector`` at the integer address ``addresses[b] + offset``."""
    ty = vector.type.element
    for b, address in enumerate(addresses):
        builder.store(
            builder.extract_element(vector, lane(b)),
            builder.inttoptr(builder.add(address, offset), ty.as_pointer()),
            align=8,
        )


@intrinsic
def muladd128(typingctx, a_hi, a_lo, b_hi, b_lo, c_hi, c_lo):
    """(a·b + c) mod 2¹²⁸ of 128-bit numbers given as (hi, lo) uint64 words: (hi, lo)."""
    u64 = types.uint64
    sig = types.UniTuple(u64, 2)(u64, u64, u64, u64, u64, u64)

    def codegen(context, builder, signature, args):
        i128 = ir.IntType(128)
        shift = ir.Constant(i128, 64)

        def join(hi, lo):
            return builder.or_(builder.shl(builder.zext(hi, i128), shift), builder.zext(lo, i128))

        a, b, c = join(*args[0:2]), join(*args[2:4]), join(*args[4:6])
        r = builder.add(builder.mul(a, b), c)
        hi = builder.trunc(builder.lshr(r, shift), ir.IntType(64))
        lo = builder.trunc(r, ir.IntType(64))
        return context.make_tuple(builder, signature.return_type, [hi, lo])

    return sig, codegen


def lane_mask(idx) -> ir.Constant:
    """A shufflevector mask: the lane numbers ``idx`` (of two concatenated vectors)."""
    i32 = ir.IntType(32)
    return ir.Constant(ir.VectorType(i32, len(idx)), [ir.Constant(i32, i) for i in idx])


def transpose8(builder, rows: list) -> list:
    """The columns of the 8×8 matrix whose rows are the eight <8 x double> ``rows``."""

    def stage(vs, lo, hi, pairs):
        out = [None] * 8
        for a, b in pairs:
            out[a], out[b] = (
                builder.shuffle_vector(vs[a], vs[b], lane_mask(lo)),
                builder.shuffle_vector(vs[a], vs[b], lane_mask(hi)),
            )
        return out

    # element (i, j) moves by three interleaves: of single doubles, of pairs, of quadruples
    s1 = stage(
        rows,
        [0, 8, 2, 10, 4, 12, 6, 14],
        [1, 9, 3, 11, 5, 13, 7, 15],
        [(0, 1), (2, 3), (4, 5), (6, 7)],
    )
    s2 = stage(
        s1,
        [0, 1, 8, 9, 4, 5, 12, 13],
        [2, 3, 10, 11, 6, 7, 14, 15],
        [(0, 2), (1, 3), (4, 6), (5, 7)],
    )
    s3 = stage(
        s2,
        [0, 1, 2, 3, 8, 9, 10, 11],
        [4, 5, 6, 7, 12, 13, 14, 15],
        [(0, 4), (1, 5), (2, 6), (3, 7)],
    )
    return s3
