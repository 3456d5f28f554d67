"""Operations numba does not emit by itself, written as LLVM IR (``numba.extending.intrinsic``).

* :func:`muladd128` — (a·b + c) mod 2¹²⁸ on 128-bit integers held as (hi, lo) uint64 words:
  one LLVM ``i128`` multiply-add, the step of numpy's PCG64 (:mod:`nbl_sim.pcg64`).
* :func:`div_rows` and :func:`sqrt_row` — 8-lane vector division and square root
  (``fdiv <8 x double>``, ``llvm.sqrt.v8f64``) on rows of 8 float64, for the NBL kernel, whose
  eight lockstep replications are the lanes (:mod:`nbl_sim.policies.nbl`). numba's loops leave
  these scalar (it cannot prove that the rows do not overlap), and the scalar divider is then
  the kernel's bottleneck. IEEE division and square root are correctly rounded lane by lane, so
  the results are those of the scalar operations, bit for bit.

Rows are rows of C-contiguous 2-D float64 arrays with at least :data:`LANES` columns (the
callers' own scratch arrays); nothing is checked at run time.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

__all__ = ["LANES", "muladd128", "div_rows", "sqrt_row"]

#: the width of :func:`div_rows` and :func:`sqrt_row`
LANES = 8
_VEC = ir.VectorType(ir.DoubleType(), LANES)


@intrinsic
def muladd128(typingctx, a_hi, a_lo, b_hi, b_lo, c_hi, c_lo):
    """(a·b + c) mod 2¹²⁸ of 128-bit numbers given as (hi, lo) uint64 words: (hi, lo)."""
    u64 = types.uint64
    sig = types.UniTuple(u64, 2)(u64, u64, u64, u64, u64, u64)

    def codegen(context, builder, signature, args):
        i128 = ir.IntType(128)
        shift = ir.Constant(i128, 64)

        def join(hi, lo):
            return builder.or_(builder.shl(builder.zext(hi, i128), shift),
                               builder.zext(lo, i128))

        a, b, c = join(*args[0:2]), join(*args[2:4]), join(*args[4:6])
        r = builder.add(builder.mul(a, b), c)
        hi = builder.trunc(builder.lshr(r, shift), ir.IntType(64))
        lo = builder.trunc(r, ir.IntType(64))
        return context.make_tuple(builder, signature.return_type, [hi, lo])

    return sig, codegen


def _row(context, builder, arrty, arr, row):
    """Pointer to the first LANES elements of row ``row`` of a 2-D array, as <8 x double>*."""
    a = context.make_array(arrty)(context, builder, arr)
    stride = builder.extract_value(a.strides, 0)
    base = builder.ptrtoint(a.data, ir.IntType(64))
    return builder.inttoptr(builder.add(base, builder.mul(row, stride)), _VEC.as_pointer())


@intrinsic
def div_rows(typingctx, A, i, B, k):
    """A[i, :8] /= B[k, :8], one 8-lane vector division."""
    sig = types.void(A, types.intp, B, types.intp)

    def codegen(context, builder, signature, args):
        pa = _row(context, builder, signature.args[0], args[0], args[1])
        pb = _row(context, builder, signature.args[2], args[2], args[3])
        quotient = builder.fdiv(builder.load(pa, align=8), builder.load(pb, align=8))
        builder.store(quotient, pa, align=8)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def sqrt_row(typingctx, A, i):
    """A[i, :8] = √A[i, :8], one 8-lane vector square root."""
    sig = types.void(A, types.intp)

    def codegen(context, builder, signature, args):
        pa = _row(context, builder, signature.args[0], args[0], args[1])
        fn = builder.module.globals.get("llvm.sqrt.v8f64")
        if fn is None:
            fn = ir.Function(builder.module, ir.FunctionType(_VEC, [_VEC]),
                             name="llvm.sqrt.v8f64")
        builder.store(builder.call(fn, [builder.load(pa, align=8)]), pa, align=8)
        return context.get_dummy_value()

    return sig, codegen
