"""The Stage II rounds of eight lockstep NBL replications, written as LLVM IR: the replications
are the lanes of 8-wide vectors, so every add, multiply, square root and division of a round is
one vector instruction for all eight (numba leaves such loops scalar: it cannot prove that the
rows of the state do not overlap the contexts).

:func:`lane_rounds` ``(X, Y, actions, V, eta, r0, t_begin, t_end)`` runs rounds
t = t_begin, …, t_end − 1 (0-based) of replications r0, …, r0 + 7, whose directions are the
columns of V (d, 8) (C-contiguous, read and written in place). Per lane it does exactly the
scalar kernel's operations (:func:`nbl_sim.engine.nbl_kernel._replication_round`), in the same
order:

* s = Σ_j v_j x_j, summed from 0.0 in coordinate order;
* A = sgn(s) with sgn(0) = +1 (NaN gives −1, as ``s >= 0.0``), ``actions[r, t] = A``,
  c = η_t · (A · Y[r, t, A > 0]) (A converted to float64 first);
* v_j ← v_j + c (x_j − s v_j), and ‖v‖² = Σ_j v_j², summed from 0.0 in coordinate order;
* v_j ← v_j / √‖v‖².

IEEE addition, multiplication, division and square root are correctly rounded lane by lane, so
every replication gets the scalar code's bits (tested: the lockstep tests of tests/sim). The
contexts and rewards of the eight replications are read with scalar loads (their rows are far
apart); the state stays in V, so a caller can record it between calls.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from .llvm_ops import F64, I8, I64, LANES, VF, VI, i64, lane, splat

__all__ = ["lane_rounds"]


@intrinsic
def lane_rounds(typingctx, X, Y, actions, V, eta, r0, t_begin, t_end):
    """Stage II rounds t_begin … t_end − 1 of replications r0 … r0 + 7 (module docstring)."""
    sig = types.void(X, Y, actions, V, eta, types.intp, types.intp, types.intp)

    def codegen(context, builder, signature, args):
        arrays = [
            context.make_array(ty)(context, builder, a)
            for ty, a in zip(signature.args[:5], args[:5])
        ]
        xa, ya, aa, va, ea = arrays
        r0, t_begin, t_end = args[5:8]
        base = [builder.ptrtoint(a.data, I64) for a in arrays]
        xs, ys, acts, vs, es = (
            [builder.extract_value(a.strides, i) for i in range(ty.ndim)]
            for a, ty in zip(arrays, signature.args[:5])
        )
        d = builder.extract_value(va.shape, 0)

        def lanes(b0, stride):  # address of row r0 + b of an array, b = 0 … 7
            return [
                builder.add(b0, builder.mul(builder.add(r0, i64(b)), stride)) for b in range(LANES)
            ]

        x_rep, y_rep, a_rep = lanes(base[0], xs[0]), lanes(base[1], ys[0]), lanes(base[2], acts[0])
        zero = ir.Constant(VF, [ir.Constant(F64, 0.0)] * LANES)

        def ptr(addr, ty):
            return builder.inttoptr(addr, ty.as_pointer())

        def v_row(j):  # V[j, :8] as one vector
            return ptr(builder.add(base[3], builder.mul(j, vs[0])), VF)

        def x_col(t_off, j):  # (X[r0 + b, t, j])_b
            off = builder.add(t_off, builder.mul(j, xs[2]))
            col = ir.Constant(VF, ir.Undefined)
            for b in range(LANES):
                col = builder.insert_element(
                    col, builder.load(ptr(builder.add(x_rep[b], off), F64), align=8), lane(b)
                )
            return col

        fn = builder.function
        entry = builder.block
        blocks = {
            name: fn.append_basic_block(f"nbl_lanes.{name}")
            for name in ("round", "dot", "act", "step", "norm", "div", "next", "done")
        }
        builder.cbranch(builder.icmp_signed("<", t_begin, t_end), blocks["round"], blocks["done"])

        builder.position_at_end(blocks["round"])  # ---- round t
        t = builder.phi(I64)
        t.add_incoming(t_begin, entry)
        x_t = builder.mul(t, xs[1])
        builder.branch(blocks["dot"])

        builder.position_at_end(blocks["dot"])  # ---- s = Σ_j v_j x_j from 0.0
        j = builder.phi(I64)
        s = builder.phi(VF)
        j.add_incoming(i64(0), blocks["round"])
        s.add_incoming(zero, blocks["round"])
        s_next = builder.fadd(s, builder.fmul(builder.load(v_row(j), align=8), x_col(x_t, j)))
        j_next = builder.add(j, i64(1))
        j.add_incoming(j_next, blocks["dot"])
        s.add_incoming(s_next, blocks["dot"])
        builder.cbranch(builder.icmp_signed("<", j_next, d), blocks["dot"], blocks["act"])

        builder.position_at_end(blocks["act"])  # ---- A = sgn(s), c = η_t (A · Y[r, t, A > 0])
        ahead = builder.fcmp_ordered(">=", s_next, zero)
        pos = builder.zext(ahead, VI)
        action = builder.sub(builder.add(pos, pos), ir.Constant(VI, [i64(1)] * LANES))
        y_t, a_t = builder.mul(t, ys[1]), builder.mul(t, acts[1])
        reward = ir.Constant(VF, ir.Undefined)
        for b in range(LANES):
            col = builder.mul(builder.extract_element(pos, lane(b)), ys[2])
            y = builder.load(ptr(builder.add(builder.add(y_rep[b], y_t), col), F64), align=8)
            reward = builder.insert_element(reward, y, lane(b))
            builder.store(
                builder.trunc(builder.extract_element(action, lane(b)), I8),
                ptr(builder.add(a_rep[b], a_t), I8),
            )
        eta_t = builder.load(ptr(builder.add(base[4], builder.mul(t, es[0])), F64), align=8)
        sign = builder.select(
            ahead,
            ir.Constant(VF, [ir.Constant(F64, 1.0)] * LANES),
            ir.Constant(VF, [ir.Constant(F64, -1.0)] * LANES),
        )  # = double(A)
        c = builder.fmul(splat(builder, eta_t), builder.fmul(sign, reward))
        builder.branch(blocks["step"])

        builder.position_at_end(blocks["step"])  # ---- v_j += c (x_j − s v_j); ‖v‖² from 0.0
        j = builder.phi(I64)
        sq = builder.phi(VF)
        j.add_incoming(i64(0), blocks["act"])
        sq.add_incoming(zero, blocks["act"])
        row = v_row(j)
        v = builder.load(row, align=8)
        v = builder.fadd(v, builder.fmul(c, builder.fsub(x_col(x_t, j), builder.fmul(s_next, v))))
        builder.store(v, row, align=8)
        sq_next = builder.fadd(sq, builder.fmul(v, v))
        j_next = builder.add(j, i64(1))
        j.add_incoming(j_next, blocks["step"])
        sq.add_incoming(sq_next, blocks["step"])
        builder.cbranch(builder.icmp_signed("<", j_next, d), blocks["step"], blocks["norm"])

        builder.position_at_end(blocks["norm"])  # ---- ‖v‖
        name = f"llvm.sqrt.v{LANES}f64"
        sqrt = builder.module.globals.get(name) or ir.Function(
            builder.module, ir.FunctionType(VF, [VF]), name=name
        )
        norm = builder.call(sqrt, [sq_next])
        builder.branch(blocks["div"])

        builder.position_at_end(blocks["div"])  # ---- v_j ← v_j / ‖v‖
        j = builder.phi(I64)
        j.add_incoming(i64(0), blocks["norm"])
        row = v_row(j)
        builder.store(builder.fdiv(builder.load(row, align=8), norm), row, align=8)
        j_next = builder.add(j, i64(1))
        j.add_incoming(j_next, blocks["div"])
        builder.cbranch(builder.icmp_signed("<", j_next, d), blocks["div"], blocks["next"])

        builder.position_at_end(blocks["next"])
        t_next = builder.add(t, i64(1))
        t.add_incoming(t_next, blocks["next"])
        builder.cbranch(builder.icmp_signed("<", t_next, t_end), blocks["round"], blocks["done"])

        builder.position_at_end(blocks["done"])
        return context.get_dummy_value()

    return sig, codegen
