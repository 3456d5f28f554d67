"""An operation numba does not emit by itself, written as LLVM IR
(``numba.extending.intrinsic``): :func:`muladd128` — (a·b + c) mod 2¹²⁸ on 128-bit integers held
as (hi, lo) uint64 words, one LLVM ``i128`` multiply-add, the step of numpy's PCG64
(:mod:`nbl_sim.engine.pcg64`).

(The 8-wide vector vocabulary that stood here served the environment's and NBL's vector lanes;
they earned 1.01–1.43× end to end, under issue 37's 1.5×, and were cut with it.)
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

__all__ = ["muladd128"]


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
