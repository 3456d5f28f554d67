"""The index and optimal-action pass of :mod:`nbl_sim.environment_passes` on eight rows at a
time, written as LLVM IR: rows t, …, t + 7 of one replication's contexts are the lanes of
8-wide vectors, so each of the pass's multiplies and adds is one vector instruction for all
eight rows.

:func:`index_rows` ``(X, beta, v_star, z, optimal)`` does, for every row t < n − n mod 8 of the
(n, d) contexts X, exactly the operations of :func:`nbl_sim.environment_passes._index_row`:

* z[t, a] = β_aᵀX_t summed over k = 0, …, d − 1 in that order from 0.0;
* v*ᵀX_t in numpy's pairwise order for d ≤ 128: below 8 terms one by one from −0.0; from 8 on,
  eight partial sums r_i (r_i = X_{t,i} v*_i, then r_{k mod 8} += X_{t,k} v*_k for
  8 ≤ k < m = d − d mod 8), combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then
  the rest one by one;
* optimal[t] = +1 if 0.0 + v*ᵀX_t ≥ 0 else −1.

It returns the number of rows done (the caller does the last n mod 8 with the scalar row).
The arrays must have unit-stride rows: X[t, k + 1] next to X[t, k], z C-contiguous (n, 2) and
``optimal`` contiguous int8 (the caller checks; nothing is checked here).
IEEE additions and multiplications are correctly rounded lane by lane, so every row gets the
scalar code's bits (tested). Columns k < d − d mod 8 are read eight at a time as 8×8 blocks
(eight row loads, transposed in registers); the rest with one load per row.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .llvm_ops import LANES, lane_mask, transpose8

__all__ = ["index_rows"]

_I64, _I32, _I8, _F64 = ir.IntType(64), ir.IntType(32), ir.IntType(8), ir.DoubleType()
_VF = ir.VectorType(_F64, LANES)


def _int(v: int) -> ir.Constant:
    return ir.Constant(_I64, v)


def _lane(b: int) -> ir.Constant:
    return ir.Constant(_I32, b)


@intrinsic
def index_rows(typingctx, X, beta, v_star, z, optimal):
    """Rows 0 … n − n mod 8 − 1 of the index pass (module docstring); returns their number."""
    sig = types.intp(X, beta, v_star, z, optimal)

    def codegen(context, builder, signature, args):
        arrays = [context.make_array(ty)(context, builder, a)
                  for ty, a in zip(signature.args, args)]
        base = [builder.ptrtoint(a.data, _I64) for a in arrays]
        xs, bs, vs, zs, os_ = ([builder.extract_value(a.strides, i) for i in range(ty.ndim)]
                               for a, ty in zip(arrays, signature.args))
        n = builder.extract_value(arrays[0].shape, 0)
        d = builder.extract_value(arrays[0].shape, 1)
        rows = builder.sub(n, builder.srem(n, _int(LANES)))
        m = builder.sub(d, builder.srem(d, _int(8)))  # the pairwise block (0 when d < 8)
        pair = builder.icmp_signed(">=", d, _int(8))
        partial = cgutils.alloca_once(builder, _VF, size=8)  # r_0 … r_7
        zero = ir.Constant(_VF, [ir.Constant(_F64, 0.0)] * LANES)
        neg_zero = ir.Constant(_VF, [ir.Constant(_F64, -0.0)] * LANES)

        def ptr(addr, ty):
            return builder.inttoptr(addr, ty.as_pointer())

        def at(b, strides, *idx):
            addr = b
            for i, s in zip(idx, strides):
                addr = builder.add(addr, builder.mul(i, s))
            return addr

        def splat(x):
            v = builder.insert_element(ir.Constant(_VF, ir.Undefined), x, _lane(0))
            return builder.shuffle_vector(v, ir.Constant(_VF, ir.Undefined), lane_mask([0] * LANES))

        def scalar(b, strides, *idx):
            return builder.load(ptr(at(b, strides, *idx), _F64), align=8)

        def column(t, k):  # (X[t + b, k])_b, one load per row
            col = ir.Constant(_VF, ir.Undefined)
            for b in range(LANES):
                x = scalar(base[0], xs, builder.add(t, _int(b)), k)
                col = builder.insert_element(col, x, _lane(b))
            return col

        def accumulate(k, x, z0, z1):
            z0 = builder.fadd(z0, builder.fmul(x, splat(scalar(base[1], bs, _int(0), k))))
            z1 = builder.fadd(z1, builder.fmul(x, splat(scalar(base[1], bs, _int(1), k))))
            return z0, z1, builder.fmul(x, splat(scalar(base[2], vs, k)))

        fn = builder.function
        entry = builder.block
        names = ("group", "block", "tree", "tail", "tailbody", "store", "done")
        blk = {name: fn.append_basic_block(f"index_rows.{name}") for name in names}
        builder.cbranch(builder.icmp_signed("<", _int(0), rows), blk["group"], blk["done"])

        # ---- rows t … t + 7
        builder.position_at_end(blk["group"])
        t = builder.phi(_I64)
        t.add_incoming(_int(0), entry)
        builder.cbranch(pair, blk["block"], blk["tail"])

        # ---- columns k0 … k0 + 7 of the pairwise block (d ≥ 8): one 8×8 block
        builder.position_at_end(blk["block"])
        k0 = builder.phi(_I64)
        z0 = builder.phi(_VF)
        z1 = builder.phi(_VF)
        k0.add_incoming(_int(0), blk["group"])
        z0.add_incoming(zero, blk["group"])
        z1.add_incoming(zero, blk["group"])
        row_vecs = [builder.load(ptr(at(base[0], xs, builder.add(t, _int(b)), k0), _VF), align=8)
                    for b in range(LANES)]
        cols = transpose8(builder, row_vecs)
        first = builder.icmp_signed("==", k0, _int(0))
        a0, a1 = z0, z1
        for i in range(8):
            a0, a1, p = accumulate(builder.add(k0, _int(i)), cols[i], a0, a1)
            slot = builder.gep(partial, [_int(i)])
            r = builder.select(first, neg_zero, builder.load(slot, align=8))
            builder.store(builder.fadd(r, p), slot, align=8)  # −0.0 + p = p: r_i = X v*_i
        k0_next = builder.add(k0, _int(8))
        k0.add_incoming(k0_next, blk["block"])
        z0.add_incoming(a0, blk["block"])
        z1.add_incoming(a1, blk["block"])
        builder.cbranch(builder.icmp_signed("<", k0_next, m), blk["block"], blk["tree"])

        builder.position_at_end(blk["tree"])
        r = [builder.load(builder.gep(partial, [_int(i)]), align=8) for i in range(8)]
        tree = builder.fadd(builder.fadd(builder.fadd(r[0], r[1]), builder.fadd(r[2], r[3])),
                            builder.fadd(builder.fadd(r[4], r[5]), builder.fadd(r[6], r[7])))
        builder.branch(blk["tail"])

        # ---- the remaining columns m … d − 1 one by one (all of them when d < 8)
        builder.position_at_end(blk["tail"])
        z0_t = builder.phi(_VF)
        z1_t = builder.phi(_VF)
        s_t = builder.phi(_VF)
        for src, (u0, u1, u2) in ((blk["group"], (zero, zero, neg_zero)),
                                  (blk["tree"], (a0, a1, tree))):
            z0_t.add_incoming(u0, src)
            z1_t.add_incoming(u1, src)
            s_t.add_incoming(u2, src)
        k_first = builder.select(pair, m, _int(0))
        builder.cbranch(builder.icmp_signed("<", k_first, d), blk["tailbody"], blk["store"])

        builder.position_at_end(blk["tailbody"])
        k = builder.phi(_I64)
        z0 = builder.phi(_VF)
        z1 = builder.phi(_VF)
        s = builder.phi(_VF)
        k.add_incoming(k_first, blk["tail"])
        z0.add_incoming(z0_t, blk["tail"])
        z1.add_incoming(z1_t, blk["tail"])
        s.add_incoming(s_t, blk["tail"])
        b0, b1, p = accumulate(k, column(t, k), z0, z1)
        b2 = builder.fadd(s, p)
        k_next = builder.add(k, _int(1))
        k.add_incoming(k_next, blk["tailbody"])
        z0.add_incoming(b0, blk["tailbody"])
        z1.add_incoming(b1, blk["tailbody"])
        s.add_incoming(b2, blk["tailbody"])
        builder.cbranch(builder.icmp_signed("<", k_next, d), blk["tailbody"], blk["store"])

        # ---- z[t + b, ·] and optimal[t + b]
        builder.position_at_end(blk["store"])
        fz0, fz1, fs = (builder.phi(_VF) for _ in range(3))
        for src, (u0, u1, u2) in ((blk["tail"], (z0_t, z1_t, s_t)),
                                  (blk["tailbody"], (b0, b1, b2))):
            fz0.add_incoming(u0, src)
            fz1.add_incoming(u1, src)
            fs.add_incoming(u2, src)
        plus = builder.fcmp_ordered(">=", builder.fadd(zero, fs), zero)
        pairs = builder.shuffle_vector(fz0, fz1, lane_mask([0, 8, 1, 9, 2, 10, 3, 11]))
        pairs_hi = builder.shuffle_vector(fz0, fz1, lane_mask([4, 12, 5, 13, 6, 14, 7, 15]))
        z_t = at(base[3], zs[:1], t)
        builder.store(pairs, ptr(z_t, _VF), align=8)
        builder.store(pairs_hi, ptr(builder.add(z_t, _int(8 * LANES)), _VF), align=8)
        v8 = ir.VectorType(_I8, LANES)
        signs = builder.select(plus, ir.Constant(v8, [ir.Constant(_I8, 1)] * LANES),
                               ir.Constant(v8, [ir.Constant(_I8, -1)] * LANES))
        builder.store(signs, ptr(builder.add(base[4], t), v8), align=1)
        t_next = builder.add(t, _int(LANES))
        t.add_incoming(t_next, blk["store"])
        builder.cbranch(builder.icmp_signed("<", t_next, rows), blk["group"], blk["done"])

        builder.position_at_end(blk["done"])
        return rows

    return sig, codegen
