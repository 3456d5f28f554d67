"""How fast could the N(0, I) contexts be drawn? Gaussian samplers against today's, in one
process, and what each would make of ``simulate()`` at d = 8 (issue 16's "within 2× of the
kernel with recording").

``simulate()`` at d = 8 draws 8 normals per replication-step; today they are numpy's
``Generator(PCG64).standard_normal`` bits (the ziggurat), eight replications' streams drawn as
vector lanes (:func:`nbl_sim.engine.environment_lanes.normal_lanes`). Timed here, per normal:

* **today** — numpy's PCG64 + numpy's ziggurat, eight replications as lanes;
* **numpy SFC64** — the same lanes and ziggurat over numpy's SFC64 bit generator (additions,
  shifts and a rotation per word; no 128-bit multiply). Checked here to give
  ``Generator(SFC64(seed)).standard_normal`` bit for bit, so a change to it would be a new
  stream that plain numpy still reproduces;
* **one word per normal, fast path only**, lanes across replications — a ziggurat that takes
  exactly one word per normal and leaves the ~1.5% of candidates failing the fast test to a
  second pass (a different algorithm from numpy's, so a custom stream): only the fast path,
  i.e. a *lower bound* for any exact ziggurat in today's layout;
* the same with **eight interleaved substreams of one replication** as the lanes (one vector
  store per eight normals, instead of eight scalar stores): the lower bound for a new layout;
* **the second pass**: the failed candidates finished (wedge test or tail, numpy's formulas)
  from a second stream — with it the last two rows are a complete, exact sampler (its
  moments, tail frequencies and a Kolmogorov–Smirnov test are printed as a sanity check).

Then ``simulate()`` (d = 8, 100 replications × 10⁴ rounds, the setting of bench_simulate.py)
and the NBL kernel recording every round are timed in the same process, and each sampler's
implied ``simulate()`` = measured ``simulate()`` − today's normals + the sampler's normals is
given as a multiple of the kernel with recording. CPU time, minimum over ``--rounds``
interleaved rounds.

Usage::

    python benchmarks/bench_normal_samplers.py [--rounds 9]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nbl_sim.engine.environment import Environment  # noqa: E402
from nbl_sim.engine.environment_lanes import (  # noqa: E402
    normal_lanes,
    write_back_states,
    ziggurat_candidates,
    ziggurat_lanes,
)
from nbl_sim.engine.llvm_ops import I64, LANES, VI, i64, splat_i64, store_lanes  # noqa: E402
from nbl_sim.engine.nbl_kernel import nbl_run  # noqa: E402
from nbl_sim.engine.pcg64 import (  # noqa: E402
    as_double,
    fi_double,
    ki_double,
    state_of,
    wi_double,
    ziggurat_candidate,
    ziggurat_nor_inv_r,
    ziggurat_nor_r,
)
from nbl_sim.runs.execution import SerialExecutor  # noqa: E402
from nbl_sim.studies.experiment import simulate  # noqa: E402
from nbl_theory.families import make_family  # noqa: E402

U64 = np.uint64


# ---------------------------------------------------------------------- numpy's SFC64, scalar
@numba.njit(inline="always")
def sfc_next(a, b, c, w):
    """numpy's sfc64_next: (word, new a, b, c, counter)."""
    tmp = a + b + w
    return (
        tmp,
        b ^ (b >> U64(11)),
        c + (c << U64(3)),
        ((c << U64(24)) | (c >> U64(40))) + tmp,
        w + U64(1),
    )


@numba.njit(inline="always")
def _slow(idx, rabs, x, a, b, c, w):
    """numpy's rest of a draw whose candidate failed the fast test, on SFC64 words:
    (accepted, x, new a, b, c, w)."""
    if idx == 0:
        while True:
            u, a, b, c, w = sfc_next(a, b, c, w)
            xx = -ziggurat_nor_inv_r * np.log1p(-as_double(u))
            u, a, b, c, w = sfc_next(a, b, c, w)
            yy = -np.log1p(-as_double(u))
            if yy + yy > xx * xx:
                t = ziggurat_nor_r + xx
                return True, (-t if (rabs >> U64(8)) & U64(1) else t), a, b, c, w
    u, a, b, c, w = sfc_next(a, b, c, w)
    f = (fi_double[idx - 1] - fi_double[idx]) * as_double(u) + fi_double[idx]
    return f < np.exp(-0.5 * x * x), x, a, b, c, w


@numba.njit(inline="always")
def _normal(a, b, c, w):
    while True:
        r, a, b, c, w = sfc_next(a, b, c, w)
        idx, rabs, x = ziggurat_candidate(r)
        if rabs < ki_double[idx]:
            return x, a, b, c, w
        ok, x, a, b, c, w = _slow(idx, rabs, x, a, b, c, w)
        if ok:
            return x, a, b, c, w


@numba.njit
def sfc_after(r, a, b, c, w):
    """The rest of a draw whose first word r (already taken) failed the fast test."""
    idx, rabs, x = ziggurat_candidate(r)
    ok, x, a, b, c, w = _slow(idx, rabs, x, a, b, c, w)
    if ok:
        return x, a, b, c, w
    return _normal(a, b, c, w)


def _sfc_words(builder, carried, consts):
    """One SFC64 step of eight streams (<8 x i64> a, b, c, counter)."""
    a, b, c, w = carried
    tmp = builder.add(builder.add(a, b), w)
    rot = builder.or_(builder.shl(c, splat_i64(24)), builder.lshr(c, splat_i64(40)))
    return tmp, [
        builder.xor(b, builder.lshr(b, splat_i64(11))),
        builder.add(c, builder.shl(c, splat_i64(3))),
        builder.add(rot, tmp),
        builder.add(w, splat_i64(1)),
    ]


_sfc_lanes = ziggurat_lanes(_sfc_words, sfc_after, carried=4)


@numba.njit
def sfc_lanes(states, X, r0):
    _sfc_lanes(states, X, r0, ki_double, wi_double)


def sfc_state(seed) -> np.ndarray:
    return np.array(np.random.SFC64(seed).state["state"]["state"], dtype=np.uint64)


# ---------------------------------------------------------------------- one word per normal
def _one_word(contiguous: bool):
    """Branchless fast path: the candidate stored, M = layer + 1 where it failed (else 0)."""

    @intrinsic
    def kernel(typingctx, states, X, M, r, ki, wi):
        return types.void(states, X, M, types.intp, ki, wi), codegen

    def codegen(context, builder, signature, args):
        sa, xa, ma, ka, wa = (
            context.make_array(signature.args[k])(context, builder, args[k])
            for k in (0, 1, 2, 4, 5)
        )

        def base(arr, b):
            start, stride = builder.ptrtoint(arr.data, I64), builder.extract_value(arr.strides, 0)
            return builder.add(start, builder.mul(builder.add(args[3], i64(b)), stride))

        s0, s1 = builder.ptrtoint(sa.data, I64), builder.extract_value(sa.strides, 0)
        rows = [
            builder.inttoptr(builder.add(s0, builder.mul(i64(k), s1)), VI.as_pointer())
            for k in range(4)
        ]
        start = [builder.load(p, align=8) for p in rows]
        count = builder.mul(builder.extract_value(xa.shape, 1), builder.extract_value(xa.shape, 2))
        if contiguous:  # eight substreams of replication r: lane b is element 8 i + b
            count = builder.lshr(count, i64(3))
        xs, ms = [base(xa, b) for b in range(LANES)], [base(ma, b) for b in range(LANES)]
        entry, fn = builder.block, builder.function
        loop, done = fn.append_basic_block("loop"), fn.append_basic_block("done")
        builder.cbranch(builder.icmp_signed("<", i64(0), count), loop, done)
        builder.position_at_end(loop)
        i = builder.phi(I64)
        state = [builder.phi(VI) for _ in range(4)]
        i.add_incoming(i64(0), entry)
        for p, v in zip(state, start):
            p.add_incoming(v, entry)
        word, new = _sfc_words(builder, state, [])
        idx, _, x, fast = ziggurat_candidates(builder, word, ka.data, wa.data)
        v16 = ir.VectorType(ir.IntType(16), LANES)
        mark = builder.select(
            fast, ir.Constant(v16, None), builder.trunc(builder.add(idx, splat_i64(1)), v16)
        )
        if contiguous:
            for vec, at, size in ((x, xs[0], 64), (mark, ms[0], 16)):
                builder.store(
                    vec,
                    builder.inttoptr(
                        builder.add(at, builder.mul(i, i64(size))), vec.type.as_pointer()
                    ),
                    align=2,
                )
        else:
            store_lanes(builder, x, xs, builder.mul(i, i64(8)))
            store_lanes(builder, mark, ms, builder.mul(i, i64(2)))
        i_next = builder.add(i, i64(1))
        i.add_incoming(i_next, loop)
        for p, v in zip(state, new):
            p.add_incoming(v, loop)
        builder.cbranch(builder.icmp_signed("<", i_next, count), loop, done)
        builder.position_at_end(done)
        write_back_states(builder, rows, start, entry, loop, new)
        return context.get_dummy_value()

    return kernel


_across, _interleaved = _one_word(False), _one_word(True)


@numba.njit
def one_word_across(states, X, M):
    _across(states, X, M, 0, ki_double, wi_double)


@numba.njit
def one_word_interleaved(states, X, M):
    for r in range(X.shape[0]):  # (the same eight substreams for every replication: timing)
        _interleaved(states, X, M, r, ki_double, wi_double)


@numba.njit
def second_pass(states, X, M):
    """Finish the marked candidates from a second SFC64 stream per replication: numpy's wedge
    test or tail for the candidate's layer (the tail's sign is the candidate's); a rejected
    wedge draws a whole new normal. Returns the number finished."""
    done = 0
    for b in range(X.shape[0]):
        a, bb, c, w = states[0, b], states[1, b], states[2, b], states[3, b]
        xf, mf = X[b].reshape(-1), M[b].reshape(-1)
        for i in range(mf.size):
            if mf[i]:
                done += 1
                idx, x = U64(mf[i] - 1), xf[i]
                ok, y, a, bb, c, w = _slow(idx, U64(0), x, a, bb, c, w)
                if not ok:
                    y, a, bb, c, w = _normal(a, bb, c, w)
                xf[i] = -y if idx == 0 and x < 0 else y
        states[0, b], states[1, b], states[2, b], states[3, b] = a, bb, c, w
    return done


def _check(n: int, d: int) -> None:
    """The SFC64 lanes give numpy's SFC64 normals; the one-word sampler looks normal."""
    from scipy import stats

    refs = [np.random.Generator(np.random.SFC64(b)) for b in range(LANES)]
    states = np.ascontiguousarray(np.stack([sfc_state(b) for b in range(LANES)]).T)
    X = np.empty((LANES, n, d))
    sfc_lanes(states, X, 0)
    same = all(np.array_equal(X[b], refs[b].standard_normal((n, d))) for b in range(LANES))
    print(
        f"# SFC64 lanes = numpy Generator(SFC64(b)).standard_normal, b = 0..7: "
        f"{'yes' if same else 'NO'}"
    )
    if not same:
        raise SystemExit(1)
    M = np.empty(X.shape, np.uint16)
    one_word_across(states, X, M)
    fails = second_pass(
        np.ascontiguousarray(np.stack([sfc_state(100 + b) for b in range(LANES)]).T), X, M
    )
    x = X.ravel()
    print(
        f"# one-word sampler, {x.size:,} draws: second pass {fails / x.size:.2%}, mean "
        f"{x.mean():+.4f}, variance {x.var():.4f}, P(|x| > 3) {np.mean(np.abs(x) > 3):.5f} "
        f"(N(0,1): {2 * stats.norm.sf(3):.5f}), KS p = {stats.kstest(x, 'norm').pvalue:.2f}"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=9)
    a = ap.parse_args(argv)
    R, n, d = 100, 10_000, 8
    _check(12_500, d)
    env = Environment.build(make_family("two-transition", mu2="1.244122"), "0.2", d)
    real = env.draw(0, range(R), n, 0)
    v0 = env.initial_direction(10.0)
    X = np.empty((LANES, n, d))
    M = np.empty(X.shape, np.uint16)
    pcg = np.ascontiguousarray(np.stack([state_of(np.random.PCG64(s)) for s in range(LANES)]).T)
    sfc = np.ascontiguousarray(np.stack([sfc_state(s) for s in range(LANES)]).T)
    sfc2 = sfc + U64(1)
    per = R / LANES  # calls per 100 replications
    normals = {
        "today: numpy PCG64 ziggurat, 8 replications as lanes": lambda: normal_lanes(pcg, X, 0),
        "numpy SFC64 ziggurat, same lanes (numpy-exact)": lambda: sfc_lanes(sfc, X, 0),
        "one word per normal, fast path only, lanes across replications": lambda: one_word_across(
            sfc, X, M
        ),
        "one word per normal, fast path only, 8 interleaved substreams": lambda: (
            one_word_interleaved(sfc, X, M)
        ),
        "  its second pass (the ~1.5% failed candidates)": lambda: second_pass(sfc2, X, M),
    }
    whole = {
        "simulate()": lambda: simulate(
            env, n=n, reps=R, seed=0, policies=("nbl",), init_angle=10.0, executor=SerialExecutor()
        ),
        "kernel+rec": lambda: nbl_run(real.X, real.Y, real.coins, env.v_star, v0=v0),
    }
    times = {k: [] for k in (*normals, *whole)}
    for rnd in range(a.rounds + 1):  # round 0 is a warm-up
        for label, fn in (*normals.items(), *whole.items()):
            if label.startswith("  its second pass"):
                one_word_across(sfc, X, M)  # fresh marks
            t = time.process_time()
            fn()
            if rnd:
                times[label].append(time.process_time() - t)
    best = {k: min(v) for k, v in times.items()}
    for k in normals:
        best[k] *= per
    sim, rec = best["simulate()"], best["kernel+rec"]
    today = best[next(iter(normals))]
    count = R * n * d
    print(
        f"# d = {d}, {R} replications x {n} rounds ({count:,} normals); CPU min of "
        f"{a.rounds} interleaved rounds"
    )
    print(
        f"# simulate() {sim * 1e3:.1f} ms = {sim / rec:.2f}x kernel+rec ({rec * 1e3:.1f} ms); "
        f"within 2x needs the normals in <= {(2 * rec - sim + today) * 1e3:.1f} ms = "
        f"{(2 * rec - sim + today) / count * 1e9:.2f} ns each"
    )
    print(f"{'normals':66s} {'ns/normal':>9s} {'x today':>8s} {'simulate/kernel+rec':>20s}")
    complete = best[list(normals)[3]] + best[list(normals)[4]]
    rows = list(normals.items()) + [("one word, interleaved, with its second pass", None)]
    for label, _ in rows:
        sec = complete if _ is None else best[label]
        bound = ">= " if "fast path only" in label else ""  # no slow path: a lower bound
        implied = "" if label.startswith("  ") else f"{bound}{(sim - today + sec) / rec:.2f}x"
        print(f"{label:66s} {sec / count * 1e9:9.3f} {today / sec:7.2f}x {implied:>20s}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
