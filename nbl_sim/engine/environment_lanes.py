"""Three passes of the environment written as LLVM IR on 8-wide vectors, so each multiply,
add, comparison or integer step is one instruction for eight values.

Index pass — :func:`index_rows` ``(X, beta, v_star, z, optimal)``: rows t, …, t + 7 of one
replication's contexts are the lanes. For every row t < n − n mod 8 of the (n, d) contexts X it
does exactly the operations of :func:`nbl_sim.engine.environment_passes._index_row`:

* z[t, a] = β_aᵀX_t summed over k = 0, …, d − 1 in that order from 0.0;
* v*ᵀX_t in numpy's pairwise order for d ≤ 128: below 8 terms one by one from −0.0; from 8 on,
  eight partial sums r_i (r_i = X_{t,i} v*_i, then r_{k mod 8} += X_{t,k} v*_k for
  8 ≤ k < m = d − d mod 8), combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)), then
  the rest one by one;
* optimal[t] = +1 if 0.0 + v*ᵀX_t ≥ 0 else −1.

It returns the number of rows done (the caller does the last n mod 8 with the scalar row).
The arrays must have unit-stride rows: X[t, k + 1] next to X[t, k], z C-contiguous (n, 2) and
``optimal`` contiguous int8 (the caller checks; nothing is checked here). Columns
k < d − d mod 8 are read eight at a time as 8×8 blocks (eight row loads, transposed in
registers); the rest with one load per row.

Context pass — :func:`normal_lanes`: the eight context streams of replications r0, …, r0 + 7
are the lanes. Each lane draws numpy's ``standard_normal`` values of its stream into its
replication's (n, d) contexts in memory order (:mod:`nbl_sim.engine.pcg64`): a PCG64 step (below),
the ziggurat layer, the candidate and numpy's fast test for all eight at once; a lane whose
candidate fails it (~1.5% of the draws) finishes its draw with the scalar code
(:func:`nbl_sim.engine.pcg64.normal_after`: the wedge test or the tail), then the eight go on.

Reward pass — :func:`reward_lanes`: eight replications r0, …, r0 + 7 are the lanes, and so are
their eight reward streams. Per value, in each replication's memory order, exactly
:func:`nbl_sim.engine.environment_passes.uniform_reward_pass`: one PCG64 step of the stream (the
128-bit multiply from 32-bit halves, which vectorizes; numpy's XSL-RR output), the double
(word >> 11)·2⁻⁵³, the check of the mean (Bernoulli: in [−rounding, 1 + rounding]; bounded:
finite), the mean clipped as ``np.clip`` and the reward 1{u < m} or ((u·2 − 1)·b) + m. The
streams are advanced only if every mean passed. The link values g of replication r0 + b are read
from the C-contiguous (n, 2) float64 array at address ``g_addresses[b]`` (the caller keeps
those arrays alive); means and Y are C-contiguous (R, n, 2).

IEEE additions, multiplications, comparisons and integer operations are exact or correctly
rounded lane by lane, so every row and replication gets the scalar code's bits (tested; the
stream lanes are also checked against numpy once per process, :func:`lanes_agree`).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from . import jit_cache  # the cached kernels are defined with jit_cache.njit
from .llvm_ops import (
    F64,
    I8,
    I64,
    LANES,
    VF,
    VI,
    exact_double,
    i64,
    lane,
    lane_mask,
    splat,
    splat_i64,
    store_lanes,
    transpose8,
)
from .pcg64 import MULT_HI, MULT_LO, ki_double, normal_after, state_of, wi_double

__all__ = [
    "index_rows",
    "normal_lanes",
    "pcg64_step",
    "open_stream_loop",
    "ziggurat_lanes",
    "ziggurat_candidates",
    "write_back_states",
    "reward_lanes",
    "lanes_agree",
]


@intrinsic
def index_rows(typingctx, X, beta, v_star, z, optimal):
    """Rows 0 … n − n mod 8 − 1 of the index pass (module docstring); returns their number."""
    sig = types.intp(X, beta, v_star, z, optimal)

    def codegen(context, builder, signature, args):
        arrays = [
            context.make_array(ty)(context, builder, a) for ty, a in zip(signature.args, args)
        ]
        base = [builder.ptrtoint(a.data, I64) for a in arrays]
        xs, bs, vs, zs, os_ = (
            [builder.extract_value(a.strides, i) for i in range(ty.ndim)]
            for a, ty in zip(arrays, signature.args)
        )
        n = builder.extract_value(arrays[0].shape, 0)
        d = builder.extract_value(arrays[0].shape, 1)
        rows = builder.sub(n, builder.srem(n, i64(LANES)))
        m = builder.sub(d, builder.srem(d, i64(8)))  # the pairwise block (0 when d < 8)
        pair = builder.icmp_signed(">=", d, i64(8))
        with builder.goto_entry_block():  # stack slots r_0 … r_7, allocated once per call
            partial = builder.alloca(VF, size=i64(8))
            builder.store(ir.Constant(VF, None), partial)
        zero = ir.Constant(VF, [ir.Constant(F64, 0.0)] * LANES)
        neg_zero = ir.Constant(VF, [ir.Constant(F64, -0.0)] * LANES)

        def ptr(addr, ty):
            return builder.inttoptr(addr, ty.as_pointer())

        def at(b, strides, *idx):
            addr = b
            for i, s in zip(idx, strides):
                addr = builder.add(addr, builder.mul(i, s))
            return addr

        def scalar(b, strides, *idx):
            return builder.load(ptr(at(b, strides, *idx), F64), align=8)

        def column(t, k):  # (X[t + b, k])_b, one load per row
            col = ir.Constant(VF, ir.Undefined)
            for b in range(LANES):
                x = scalar(base[0], xs, builder.add(t, i64(b)), k)
                col = builder.insert_element(col, x, lane(b))
            return col

        def accumulate(k, x, z0, z1):
            z0 = builder.fadd(z0, builder.fmul(x, splat(builder, scalar(base[1], bs, i64(0), k))))
            z1 = builder.fadd(z1, builder.fmul(x, splat(builder, scalar(base[1], bs, i64(1), k))))
            return z0, z1, builder.fmul(x, splat(builder, scalar(base[2], vs, k)))

        fn = builder.function
        entry = builder.block
        names = ("group", "block", "tree", "tail", "tailbody", "store", "done")
        blk = {name: fn.append_basic_block(f"index_rows.{name}") for name in names}
        builder.cbranch(builder.icmp_signed("<", i64(0), rows), blk["group"], blk["done"])

        # ---- rows t … t + 7
        builder.position_at_end(blk["group"])
        t = builder.phi(I64)
        t.add_incoming(i64(0), entry)
        builder.cbranch(pair, blk["block"], blk["tail"])

        # ---- columns k0 … k0 + 7 of the pairwise block (d ≥ 8): one 8×8 block
        builder.position_at_end(blk["block"])
        k0 = builder.phi(I64)
        z0 = builder.phi(VF)
        z1 = builder.phi(VF)
        k0.add_incoming(i64(0), blk["group"])
        z0.add_incoming(zero, blk["group"])
        z1.add_incoming(zero, blk["group"])
        row_vecs = [
            builder.load(ptr(at(base[0], xs, builder.add(t, i64(b)), k0), VF), align=8)
            for b in range(LANES)
        ]
        cols = transpose8(builder, row_vecs)
        first = builder.icmp_signed("==", k0, i64(0))
        a0, a1 = z0, z1
        for i in range(8):
            a0, a1, p = accumulate(builder.add(k0, i64(i)), cols[i], a0, a1)
            slot = builder.gep(partial, [i64(i)])
            r = builder.select(first, neg_zero, builder.load(slot, align=8))
            builder.store(builder.fadd(r, p), slot, align=8)  # −0.0 + p = p: r_i = X v*_i
        k0_next = builder.add(k0, i64(8))
        k0.add_incoming(k0_next, blk["block"])
        z0.add_incoming(a0, blk["block"])
        z1.add_incoming(a1, blk["block"])
        builder.cbranch(builder.icmp_signed("<", k0_next, m), blk["block"], blk["tree"])

        builder.position_at_end(blk["tree"])
        r = [builder.load(builder.gep(partial, [i64(i)]), align=8) for i in range(8)]
        tree = builder.fadd(
            builder.fadd(builder.fadd(r[0], r[1]), builder.fadd(r[2], r[3])),
            builder.fadd(builder.fadd(r[4], r[5]), builder.fadd(r[6], r[7])),
        )
        builder.branch(blk["tail"])

        # ---- the remaining columns m … d − 1 one by one (all of them when d < 8)
        builder.position_at_end(blk["tail"])
        z0_t = builder.phi(VF)
        z1_t = builder.phi(VF)
        s_t = builder.phi(VF)
        for src, (u0, u1, u2) in (
            (blk["group"], (zero, zero, neg_zero)),
            (blk["tree"], (a0, a1, tree)),
        ):
            z0_t.add_incoming(u0, src)
            z1_t.add_incoming(u1, src)
            s_t.add_incoming(u2, src)
        k_first = builder.select(pair, m, i64(0))
        builder.cbranch(builder.icmp_signed("<", k_first, d), blk["tailbody"], blk["store"])

        builder.position_at_end(blk["tailbody"])
        k = builder.phi(I64)
        z0 = builder.phi(VF)
        z1 = builder.phi(VF)
        s = builder.phi(VF)
        k.add_incoming(k_first, blk["tail"])
        z0.add_incoming(z0_t, blk["tail"])
        z1.add_incoming(z1_t, blk["tail"])
        s.add_incoming(s_t, blk["tail"])
        b0, b1, p = accumulate(k, column(t, k), z0, z1)
        b2 = builder.fadd(s, p)
        k_next = builder.add(k, i64(1))
        k.add_incoming(k_next, blk["tailbody"])
        z0.add_incoming(b0, blk["tailbody"])
        z1.add_incoming(b1, blk["tailbody"])
        s.add_incoming(b2, blk["tailbody"])
        builder.cbranch(builder.icmp_signed("<", k_next, d), blk["tailbody"], blk["store"])

        # ---- z[t + b, ·] and optimal[t + b]
        builder.position_at_end(blk["store"])
        fz0, fz1, fs = (builder.phi(VF) for _ in range(3))
        for src, (u0, u1, u2) in (
            (blk["tail"], (z0_t, z1_t, s_t)),
            (blk["tailbody"], (b0, b1, b2)),
        ):
            fz0.add_incoming(u0, src)
            fz1.add_incoming(u1, src)
            fs.add_incoming(u2, src)
        plus = builder.fcmp_ordered(">=", builder.fadd(zero, fs), zero)
        pairs = builder.shuffle_vector(fz0, fz1, lane_mask([0, 8, 1, 9, 2, 10, 3, 11]))
        pairs_hi = builder.shuffle_vector(fz0, fz1, lane_mask([4, 12, 5, 13, 6, 14, 7, 15]))
        z_t = at(base[3], zs[:1], t)
        builder.store(pairs, ptr(z_t, VF), align=8)
        builder.store(pairs_hi, ptr(builder.add(z_t, i64(8 * LANES)), VF), align=8)
        v8 = ir.VectorType(I8, LANES)
        signs = builder.select(
            plus,
            ir.Constant(v8, [ir.Constant(I8, 1)] * LANES),
            ir.Constant(v8, [ir.Constant(I8, -1)] * LANES),
        )
        builder.store(signs, ptr(builder.add(base[4], t), v8), align=1)
        t_next = builder.add(t, i64(LANES))
        t.add_incoming(t_next, blk["store"])
        builder.cbranch(builder.icmp_signed("<", t_next, rows), blk["group"], blk["done"])

        builder.position_at_end(blk["done"])
        return rows

    return sig, codegen


# ---------------------------------------------------------------------- the reward lanes
def pcg64_step(builder, s_hi, s_lo, c_hi, c_lo):
    """One PCG64 step of eight streams: s ← s·M + c mod 2¹²⁸ (the 64×64 → 128-bit product of
    the low words from 32-bit halves, which vectorizes) and the XSL-RR output of the new state:
    (word, new s_hi, new s_lo), all <8 x i64>."""
    mh, ml = int(MULT_HI), int(MULT_LO)
    low32 = splat_i64(0xFFFFFFFF)
    a0, a1 = builder.and_(s_lo, low32), builder.lshr(s_lo, splat_i64(32))
    b0, b1 = splat_i64(ml & 0xFFFFFFFF), splat_i64(ml >> 32)
    p00, p01 = builder.mul(a0, b0), builder.mul(a0, b1)
    p10, p11 = builder.mul(a1, b0), builder.mul(a1, b1)
    mid = builder.add(
        builder.add(builder.lshr(p00, splat_i64(32)), builder.and_(p01, low32)),
        builder.and_(p10, low32),
    )
    hi = builder.add(
        builder.add(p11, builder.lshr(p01, splat_i64(32))),
        builder.add(builder.lshr(p10, splat_i64(32)), builder.lshr(mid, splat_i64(32))),
    )
    lo = builder.or_(builder.shl(mid, splat_i64(32)), builder.and_(p00, low32))
    new_lo = builder.add(lo, c_lo)
    carry = builder.zext(builder.icmp_unsigned("<", new_lo, lo), VI)
    new_hi = builder.add(
        builder.add(hi, builder.mul(s_lo, splat_i64(mh))),
        builder.add(builder.mul(s_hi, splat_i64(ml)), builder.add(c_hi, carry)),
    )
    x = builder.xor(new_hi, new_lo)
    name = f"llvm.fshr.v{LANES}i64"
    fshr = builder.module.globals.get(name) or ir.Function(
        builder.module, ir.FunctionType(VI, [VI, VI, VI]), name=name
    )
    return builder.call(fshr, [x, x, builder.lshr(new_hi, splat_i64(58))]), new_hi, new_lo


def open_stream_loop(builder, name: str, count, s_hi0, s_lo0) -> tuple:
    """Branch into a loop of ``count`` steps (skipped if count ≤ 0) carrying eight PCG64
    streams' states: (entry block, loop block, done block, i, s_hi, s_lo) — the phis with their
    entry values (0, s_hi0, s_lo0), the builder at the start of the loop body."""
    entry = builder.block
    loop, done = (builder.function.append_basic_block(f"{name}.{p}") for p in ("loop", "done"))
    builder.cbranch(builder.icmp_signed("<", i64(0), count), loop, done)
    builder.position_at_end(loop)
    i = builder.phi(I64)
    s_hi, s_lo = builder.phi(VI), builder.phi(VI)
    i.add_incoming(i64(0), entry)
    s_hi.add_incoming(s_hi0, entry)
    s_lo.add_incoming(s_lo0, entry)
    return entry, loop, done, i, s_hi, s_lo


def _reward_lanes(bernoulli: bool):
    @intrinsic
    def reward_lanes(typingctx, states, g_addr, means, Y, r0, noise, lo, hi):
        sig = types.int64(
            states, g_addr, means, Y, types.intp, types.float64, types.float64, types.float64
        )

        def codegen(context, builder, signature, args):
            arrays = [
                context.make_array(ty)(context, builder, a)
                for ty, a in zip(signature.args[:4], args[:4])
            ]
            base = [builder.ptrtoint(a.data, I64) for a in arrays]
            r0, noise, lo, hi = args[4:8]
            stride = builder.extract_value(arrays[0].strides, 0)

            def ptr(addr, ty):
                return builder.inttoptr(addr, ty.as_pointer())

            rows = [ptr(builder.add(base[0], builder.mul(i64(k), stride)), VI) for k in range(4)]
            s_hi0, s_lo0, c_hi, c_lo = (builder.load(p, align=8) for p in rows)
            g_rep = [builder.load(ptr(builder.add(base[1], i64(8 * b)), I64)) for b in range(LANES)]
            m_strides = [builder.extract_value(arrays[2].strides, 0)]
            y_strides = [builder.extract_value(arrays[3].strides, 0)]
            m_rep = [
                builder.add(base[2], builder.mul(builder.add(r0, i64(b)), m_strides[0]))
                for b in range(LANES)
            ]
            y_rep = [
                builder.add(base[3], builder.mul(builder.add(r0, i64(b)), y_strides[0]))
                for b in range(LANES)
            ]
            count = builder.mul(builder.extract_value(arrays[2].shape, 1), i64(2))  # 2n values
            zero, one = (ir.Constant(VF, [ir.Constant(F64, v)] * LANES) for v in (0.0, 1.0))
            two_m53 = ir.Constant(VF, [ir.Constant(F64, 2.0**-53)] * LANES)
            lo_v, hi_v, noise_v = (splat(builder, v) for v in (lo, hi, noise))
            true8 = ir.Constant(ir.VectorType(ir.IntType(1), LANES), [1] * LANES)
            entry, loop, done, i, s_hi, s_lo = open_stream_loop(
                builder, "reward_lanes", count, s_hi0, s_lo0
            )
            ok = builder.phi(true8.type)
            ok.add_incoming(true8, entry)
            word, new_hi, new_lo = pcg64_step(builder, s_hi, s_lo, c_hi, c_lo)
            u = builder.fmul(exact_double(builder, builder.lshr(word, splat_i64(11)), 53), two_m53)
            off = builder.mul(i, i64(8))
            m = ir.Constant(VF, ir.Undefined)
            for b in range(LANES):
                g = builder.load(ptr(builder.add(g_rep[b], off), F64), align=8)
                m = builder.insert_element(m, g, lane(b))
            if bernoulli:  # in [lo, hi] (NaN and ±inf fail), clipped as np.clip, 1{u < m}
                good = builder.and_(
                    builder.fcmp_ordered(">=", m, lo_v), builder.fcmp_ordered("<=", m, hi_v)
                )
                m = builder.select(
                    builder.fcmp_ordered("<", m, zero),
                    zero,
                    builder.select(builder.fcmp_ordered(">", m, one), one, m),
                )
                y = builder.select(builder.fcmp_ordered("<", u, m), one, zero)
            else:  # finite; ((u·2 − 1)·b) + m
                good = builder.fcmp_ordered("==", builder.fsub(m, m), zero)
                y = builder.fadd(
                    builder.fmul(
                        builder.fsub(builder.fmul(u, splat(builder, ir.Constant(F64, 2.0))), one),
                        noise_v,
                    ),
                    m,
                )
            ok_next = builder.and_(ok, good)
            store_lanes(builder, m, m_rep, off)
            store_lanes(builder, y, y_rep, off)
            i_next = builder.add(i, i64(1))
            i.add_incoming(i_next, loop)
            s_hi.add_incoming(new_hi, loop)
            s_lo.add_incoming(new_lo, loop)
            ok.add_incoming(ok_next, loop)
            builder.cbranch(builder.icmp_signed("<", i_next, count), loop, done)
            builder.position_at_end(done)
            f_hi, f_lo, f_ok = builder.phi(VI), builder.phi(VI), builder.phi(true8.type)
            for src, vals in ((entry, (s_hi0, s_lo0, true8)), (loop, (new_hi, new_lo, ok_next))):
                for p, v in zip((f_hi, f_lo, f_ok), vals):
                    p.add_incoming(v, src)
            all_ok = builder.icmp_unsigned(
                "==",
                builder.bitcast(f_ok, ir.IntType(LANES)),
                ir.Constant(ir.IntType(LANES), (1 << LANES) - 1),
            )
            with builder.if_then(all_ok):  # a failed check leaves the streams as they were
                builder.store(f_hi, rows[0], align=8)
                builder.store(f_lo, rows[1], align=8)
            return builder.zext(all_ok, I64)

        return sig, codegen

    return reward_lanes


_bernoulli_lanes = _reward_lanes(True)
_bounded_lanes = _reward_lanes(False)


@jit_cache.njit(nogil=True)
def reward_lanes(states, g_addresses, means, Y, r0, bernoulli, noise, rounding):
    """The rewards of replications r0, …, r0 + 7 (module docstring); True if every mean
    passed the check (the streams are then advanced), else False (streams untouched)."""
    lo, hi = -rounding, 1.0 + rounding
    if bernoulli:
        return _bernoulli_lanes(states, g_addresses, means, Y, r0, noise, lo, hi) == 1
    return _bounded_lanes(states, g_addresses, means, Y, r0, noise, lo, hi) == 1


# ---------------------------------------------------------------------- the context lanes
def ziggurat_candidates(builder, word, ki_data, wi_data):
    """numpy's ziggurat fast path on eight 64-bit words at once: (layer idx, |x| bits rabs,
    signed candidate x, fast) as <8 x …> vectors, ``fast`` true where rabs < ki[idx] (the
    candidate is the draw). ``ki_data``/``wi_data`` point at numpy's tables."""
    idx = builder.and_(word, splat_i64(0xFF))
    r = builder.lshr(word, splat_i64(8))
    rabs = builder.and_(builder.lshr(r, splat_i64(1)), splat_i64(0x000FFFFFFFFFFFFF))
    negative = builder.icmp_unsigned("!=", builder.and_(r, splat_i64(1)), splat_i64(0))
    k_i, w_i = ir.Constant(VI, ir.Undefined), ir.Constant(VF, ir.Undefined)
    for b in range(LANES):
        layer = builder.extract_element(idx, lane(b))
        k_i = builder.insert_element(k_i, builder.load(builder.gep(ki_data, [layer])), lane(b))
        w_i = builder.insert_element(w_i, builder.load(builder.gep(wi_data, [layer])), lane(b))
    x = builder.fmul(exact_double(builder, rabs, 52), w_i)
    x = builder.select(negative, builder.fneg(x), x)
    return idx, rabs, x, builder.icmp_unsigned("<", rabs, k_i)


def write_back_states(builder, rows_at, start, entry, last, final) -> None:
    """In the loop's exit block: store each stream row as it left the loop (``final``, from
    block ``last``) or as loaded (``start``, from ``entry``, when the loop never ran)."""
    ends = [builder.phi(VI) for _ in start]
    for end, u, v in zip(ends, start, final):
        end.add_incoming(u, entry)
        end.add_incoming(v, last)
    for end, row in zip(ends, rows_at):
        builder.store(end, row, align=8)


def ziggurat_lanes(step, after, carried: int):
    """The context pass over a stream kind: an intrinsic ``(states, X, r0, ki, wi)`` drawing
    ``standard_normal(out=X[r0 + b])`` of eight streams as lanes, by numpy's ziggurat (module
    docstring).

    ``states`` is (4, 8) uint64 (numpy's PCG64 and SFC64 both keep four words a stream); its
    first ``carried`` rows change as the streams advance (and
    are written back), the rest are constants. ``step(builder, carried, constants)`` emits one
    step of the eight streams: (the <8 x i64> words, the new carried rows). ``after`` is the
    numba function ``(r, *carried, *constants) -> (x, *new carried)`` finishing, for one
    stream, a draw whose first word r failed the fast test. (Built for numpy's PCG64 here, and
    for other bit generators by benchmarks/bench_normal_samplers.py.)"""
    ret = types.Tuple((types.float64,) + (types.uint64,) * carried)
    after_sig = ret(*(types.uint64,) * 5)

    def finish(r, w0, w1, w2, w3):  # (compile_internal takes no *args)
        return after(r, w0, w1, w2, w3)

    @intrinsic
    def lanes(typingctx, states, X, r0, ki, wi):
        return types.void(states, X, types.intp, ki, wi), codegen

    def codegen(context, builder, signature, args):
        sa, xa, ka, wa = (
            context.make_array(signature.args[k])(context, builder, args[k]) for k in (0, 1, 3, 4)
        )
        r0 = args[2]

        def ptr(addr, ty):
            return builder.inttoptr(addr, ty.as_pointer())

        s_base, s_stride = builder.ptrtoint(sa.data, I64), builder.extract_value(sa.strides, 0)
        rows_at = [ptr(builder.add(s_base, builder.mul(i64(k), s_stride)), VI) for k in range(4)]
        loaded = [builder.load(p, align=8) for p in rows_at]
        start, consts = loaded[:carried], loaded[carried:]
        x_base, x_stride = builder.ptrtoint(xa.data, I64), builder.extract_value(xa.strides, 0)
        count = builder.mul(builder.extract_value(xa.shape, 1), builder.extract_value(xa.shape, 2))
        x_rep = [
            builder.add(x_base, builder.mul(builder.add(r0, i64(b)), x_stride))
            for b in range(LANES)
        ]
        fn = builder.function
        entry = builder.block
        loop, fix, store, done = (
            fn.append_basic_block(f"normal_lanes.{p}") for p in ("loop", "fix", "store", "done")
        )
        builder.cbranch(builder.icmp_signed("<", i64(0), count), loop, done)

        builder.position_at_end(loop)  # ---- one word per stream, numpy's fast test
        i = builder.phi(I64)
        state = [builder.phi(VI) for _ in range(carried)]
        i.add_incoming(i64(0), entry)
        for p, v in zip(state, start):
            p.add_incoming(v, entry)
        word, new = step(builder, state, consts)
        _, _, x, fast = ziggurat_candidates(builder, word, ka.data, wa.data)
        every = builder.icmp_unsigned(
            "==",
            builder.bitcast(fast, ir.IntType(LANES)),
            ir.Constant(ir.IntType(LANES), (1 << LANES) - 1),
        )
        loop_end = builder.block
        builder.cbranch(every, store, fix)

        builder.position_at_end(fix)  # ---- a lane that failed it: numpy's rest of the draw
        cur = (x, *new)
        for b in range(LANES):
            at_b = lane(b)
            slow, nxt = (fn.append_basic_block(f"normal_lanes.{p}{b}") for p in ("slow", "next"))
            here = builder.block
            builder.cbranch(builder.extract_element(fast, at_b), nxt, slow)
            builder.position_at_end(slow)
            res = context.compile_internal(
                builder,
                finish,
                after_sig,
                [builder.extract_element(v, at_b) for v in (word, *new, *consts)],
            )
            redone = tuple(
                builder.insert_element(v, builder.extract_value(res, k), at_b)
                for k, v in enumerate(cur)
            )
            slow_end = builder.block
            builder.branch(nxt)
            builder.position_at_end(nxt)
            merged = tuple(builder.phi(v.type) for v in cur)
            for p, u, v in zip(merged, cur, redone):
                p.add_incoming(u, here)
                p.add_incoming(v, slow_end)
            cur = merged
        fix_end = builder.block
        builder.branch(store)

        builder.position_at_end(store)  # ---- X[r0 + b].flat[i] = x_b
        fin = tuple(builder.phi(v.type) for v in cur)
        for p, u, v in zip(fin, (x, *new), cur):
            p.add_incoming(u, loop_end)
            p.add_incoming(v, fix_end)
        store_lanes(builder, fin[0], x_rep, builder.mul(i, i64(8)))
        i_next = builder.add(i, i64(1))
        i.add_incoming(i_next, store)
        for p, v in zip(state, fin[1:]):
            p.add_incoming(v, store)
        builder.cbranch(builder.icmp_signed("<", i_next, count), loop, done)

        builder.position_at_end(done)
        write_back_states(builder, rows_at, start, entry, store, fin[1:])
        return context.get_dummy_value()

    return lanes


def _pcg64_words(builder, carried, consts):
    word, new_hi, new_lo = pcg64_step(builder, *carried, *consts)
    return word, [new_hi, new_lo]


_normal_lanes = ziggurat_lanes(_pcg64_words, normal_after, carried=2)


@jit_cache.njit(nogil=True)
def normal_lanes(states, X, r0):
    """``standard_normal(out=X[r0 + b])`` of the eight context streams of replications r0, …,
    r0 + 7 (module docstring); ``states`` (4, 8) advanced in place. X must be a C-contiguous
    (R, n, d) float64 array with R ≥ r0 + 8 (the caller checks; nothing is checked here)."""
    _normal_lanes(states, X, r0, ki_double, wi_double)


_AGREES: list = []


def lanes_agree() -> bool:
    """Once per process: the lanes on eight numpy PCG64 streams give numpy's draws —
    :func:`normal_lanes` ``standard_normal`` (25,000 per stream: ~3,000 slow paths and ~50
    tails in all), :func:`reward_lanes` the Bernoulli rewards ``random(out=U) < g`` and the
    bounded ones ((U·2 − 1)·b) + g for 2,000 rounds — and leave numpy's final states;
    otherwise callers draw replication by replication (the vector code then never runs)."""
    if not _AGREES:
        n = 2000
        rng = np.random.default_rng(20261126)
        gs = [rng.random((n, 2)) for _ in range(LANES)]
        addresses = np.array([g.ctypes.data for g in gs], dtype=np.uint64)
        ok = True
        for kind in ("normal", "bernoulli", "bounded"):
            refs = [np.random.Generator(np.random.PCG64(b)) for b in range(LANES)]
            states = np.ascontiguousarray(np.stack([state_of(r.bit_generator) for r in refs]).T)
            if kind == "normal":
                X = np.empty((LANES, 12_500, 2))
                normal_lanes(states, X, 0)
                want = [r.standard_normal((12_500, 2)) for r in refs]
                got = list(X)
            else:
                means, Y = np.empty((LANES, n, 2)), np.empty((LANES, n, 2))
                ok &= bool(
                    reward_lanes(states, addresses, means, Y, 0, kind == "bernoulli", 0.5, 1e-12)
                ) and bool(np.array_equal(means, gs))
                us = [r.random((n, 2)) for r in refs]
                want = [
                    (u < g).astype(float) if kind == "bernoulli" else ((u * 2.0) - 1.0) * 0.5 + g
                    for u, g in zip(us, gs)
                ]
                got = list(Y)
            for b, r in enumerate(refs):
                ok &= bool(
                    np.array_equal(got[b], want[b])
                    and np.array_equal(states[:, b], state_of(r.bit_generator))
                )
        _AGREES.append(ok)
    return _AGREES[0]
