"""Bernoulli rewards decided without evaluating g where a certified table settles them, and the
regret from g only where an action was not optimal (issue 16: the environment's g was ~11 of
~58 ms of ``simulate()`` in d = 8). The realization stays the definition's, bit for bit.

Why it is exact
---------------
A Bernoulli reward is Y = 1{U < m} with m = clip(g(z), 0, 1) (:mod:`nbl_sim.environment`). Let
[L_i, H_i] enclose the true g over cell i of a grid of width h = 1/128 on [−8, 8], each cell
widened by h/64 on both sides (so a z that rounds into a neighbouring cell index is still
enclosed): **Arb ball arithmetic** on the ball of the widened cell
(:func:`nbl_theory.arb_eval.compile_acb`), a proof over the whole cell whatever the link does
inside it. With ``EPS`` = 2⁻⁴² for the float64
evaluation, the table keeps lo_i ≤ L_i − EPS and hi_i ≥ H_i + EPS (outward rounded), and a cell is
*usable* when lo_i ≥ −r and hi_i ≤ 1 + r, r = 1e-12 the rounding the draw's range check allows.
There, if the link's float64 value g̃(z) is within EPS of g(z), g̃(z) passes the check, and
with m = clip(g̃(z), 0, 1) and U ∈ [0, 1):

* U < lo_i ⟹ U < m: Y = 1;  U ≥ hi_i ⟹ U ≥ m: Y = 0.

Anything else — U inside [lo_i, hi_i) (0.1–0.3% of the points for the paper's links), z outside
[−8, 8] or NaN, a cell that is not usable (not bounded, or bounded only beyond the rounding) — is
*ambiguous*: its uniform is kept as −U (the sign bit marks it, −0.0 for U = 0) and the link's own
evaluation decides it afterwards, with the checks of the ordinary draw. So every reward is the
definition's.

The one assumption — the float64 g̃ is within EPS = 2⁻⁴² ≈ 2.3e-13 of the true g on the usable
cells (a few thousand units in the last place of 0.5; sound evaluations err by a few) — is
checked when the table is built, at both edges and the midpoint of every fourth usable cell
(~1,500 points): g̃ there must lie within EPS/2 of the Arb ball of g at that exact point; a link
that fails it gets no table and is drawn the ordinary way. The float64 value at a point must
also not depend on which other points it is evaluated with (numpy's vectorized loops are
elementwise): checked at build on slices of several lengths and offsets. Potential links
(g = (φ')⁻¹ by bisection) and links with a function Arb balls do not evaluate get no table.

The regret needs the means m_{a*} − m_{A_t} only at rounds where the action was not optimal (the
gap is m − m = +0.0 elsewhere): :func:`lazy_recorded_regret` evaluates g at those points only
and adds the gaps in :func:`nbl_sim.metrics.recorded_regret`'s order, with its +0.0 at the other
rounds, so the sums are the same bits.

Where a float64 evaluation overflows (NaN or inf), :meth:`~nbl_theory.links.Link.g_numpy`
re-evaluates the point in Arb — up to a number of points per call — and a Bernoulli draw refuses
what is still not finite. A link whose float64 g overflows anywhere in [−8, 8] gets no table
(the overflow starts at the ends, which the build samples). The lazy passes evaluate with
:meth:`~nbl_theory.links.Link.g_numpy_raw` (the same values where finite) and fall back to the
ordinary per-replication evaluation whenever a value is not finite (off the grid), so the
overflow patch and the errors are those of the ordinary draw.
"""

from __future__ import annotations

import math
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass

import numba
import numpy as np
import sympy as sp
from flint import acb, arb
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from nbl_theory.arb_eval import arb_precision, compile_acb
from nbl_theory.errors import NBLInputError
from nbl_theory.links import Link, Z

from . import jit_cache  # noqa: F401  (before the first cached kernel)
from .environment_lanes import open_stream_loop, pcg64_step
from .llvm_ops import (
    F64,
    I64,
    LANES,
    VF,
    VI,
    exact_double,
    i64,
    lane,
    small_fptosi,
    splat,
    splat_i64,
    store_lanes,
)
from .metrics import instantaneous_regret_into, recorded_regret
from .pcg64 import as_double, next_word

__all__ = ["EPS", "RewardTable", "reward_table", "table_held", "table_rewards",
           "table_reward_lanes", "settle", "settle_block", "ordinary_means",
           "lazy_recorded_regret", "lazy_instantaneous_regret_into"]

#: the float64 evaluation of g is assumed (and checked at the cell samples) to be this close
#: to the true g on the usable cells
EPS = 2.0 ** -42
_CELLS_PER_UNIT = 128   # h = 1/128
_Z_MAX = 8              # the table covers [−8, 8]: |z| > 8 has probability 1.2e-15 for N(0, 1)
_CELLS = 2 * _Z_MAX * _CELLS_PER_UNIT
_NOT_USABLE = (-1.0, 2.0)  # u < −1 and u ≥ 2 never hold: every point of the cell is ambiguous
_SLICES = (1, 2, 3, 5, 7, 8, 9, 13, 16, 17, 31, 64, 100)


@dataclass(frozen=True, eq=False)
class RewardTable:
    """lo, hi: float64 (cells + 1,) — the last entry is the cell of every z off the grid;
    z0 = −8 and inv_h = 128 (z lies in cell ⌊(z − z0)·inv_h⌋)."""

    lo: np.ndarray
    hi: np.ndarray
    z0: float
    inv_h: float
    usable: int  # usable cells

    def cell(self, z: np.ndarray) -> np.ndarray:
        """The cell index of every z (the passes' own rule)."""
        c = (np.asarray(z, dtype=float) - self.z0) * self.inv_h
        ok = (c >= 0) & (c < _CELLS)
        return np.where(ok, np.where(ok, c, 0).astype(np.int64), _CELLS)


_TABLES: OrderedDict = OrderedDict()  # (link's expression, rounding) -> table or None
_KEPT = 32
_LOCK = threading.Lock()  # (threads of one process may draw at once)
#: each Link object's expression key (``sp.srepr`` costs ~0.5 ms: once per object, not per draw)
_KEYS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def reward_table(link: Link, rounding: float = 1e-12) -> RewardTable | None:
    """The certified table of ``link`` for a draw whose range check allows ``rounding``, or None
    when the link gets none (module docstring). Built once per process for each expression
    (~0.03–0.06 s; the last 32 kept), whichever Link object carries it."""
    if link.kind != "expression":
        return None
    with _LOCK:
        if link not in _KEYS:
            _KEYS[link] = sp.srepr(link.expr)
        key = (_KEYS[link], float(rounding))
        if key not in _TABLES:
            _TABLES[key] = _build(link, rounding)
            while len(_TABLES) > _KEPT:
                _TABLES.popitem(last=False)
        _TABLES.move_to_end(key)
        return _TABLES[key]


def table_held(link: Link, rounding: float = 1e-12) -> bool:
    """Whether this process already holds a usable table of ``link`` for ``rounding`` (built by
    an earlier :func:`reward_table` call and still kept) — using it then costs nothing. Never
    builds one."""
    if link.kind != "expression":
        return False
    with _LOCK:
        key = _KEYS.get(link)
        return key is not None and _TABLES.get((key, float(rounding))) is not None


def _build(link: Link, rounding: float) -> RewardTable | None:
    """Each cell's enclosure is the real part of the Arb ball value of g on the ball of the
    widened cell (a rigorous enclosure of g on it; a ball that is not finite leaves the cell
    open); then the float64 check of the module docstring."""
    h = 1.0 / _CELLS_PER_UNIT
    lo = np.full(_CELLS + 1, _NOT_USABLE[0])
    hi = np.full(_CELLS + 1, _NOT_USABLE[1])
    with arb_precision(64):
        try:
            f = compile_acb([link.expr], Z)
        except NBLInputError:
            return None
        radius = h / 2 + h / 64  # the cell and h/64 on each side, exactly
        for i in range(_CELLS):
            v = _real(f, arb(-_Z_MAX + (i + 0.5) * h, radius))
            if v is None:
                continue
            lo_i, hi_i = _down(float(v.lower()) - EPS), _up(float(v.upper()) + EPS)
            if lo_i >= -rounding and hi_i <= 1.0 + rounding:
                lo[i], hi[i] = lo_i, hi_i
        usable = lo[:_CELLS] > _NOT_USABLE[0]
        if not usable.any() or not _samples_agree(link, f, usable):
            return None
    return RewardTable(lo, hi, float(-_Z_MAX), float(_CELLS_PER_UNIT), int(usable.sum()))


def _real(f, x: arb):
    """The real part of f on the real ball x, or None if it is not a finite real enclosure."""
    try:
        v = f(acb(x), False)[0]
    except (NBLInputError, ValueError, ZeroDivisionError):
        return None
    if not (v.real.is_finite() and v.imag.contains(0)):
        return None
    return v.real


def _down(x: float) -> float:
    return float(np.nextafter(np.nextafter(x, -np.inf), -np.inf))


def _up(x: float) -> float:
    return float(np.nextafter(np.nextafter(x, np.inf), np.inf))


def _samples_agree(link: Link, f, usable) -> bool:
    """At both edges and the midpoint of every fourth usable cell, and of the first and the
    last, the float64 g is finite and within EPS/2 of the Arb ball of g at that exact point;
    and evaluating slices of those points on their own gives the same bits as the whole
    array. (A link whose float64 g overflows inside [−8, 8] — the ends are sampled — gets no
    table: there the ordinary evaluation patches points, up to a limit per call.)"""
    h = 1.0 / _CELLS_PER_UNIT
    cells = np.flatnonzero(usable)
    cells = np.unique(np.concatenate([cells[::4], cells[-1:]]))
    z = np.unique(np.concatenate([-_Z_MAX + cells * h, -_Z_MAX + (cells + 0.5) * h,
                                  -_Z_MAX + (cells + 1) * h]))
    g = link.g_numpy_raw(z)
    for zi, gi in zip(z.tolist(), g.tolist()):
        v = _real(f, arb(zi))
        if (v is None or not math.isfinite(gi)
                or not float(v.lower()) - EPS / 2 <= gi <= float(v.upper()) + EPS / 2):
            return False
    for k, size in enumerate(_SLICES):
        start = (37 * k) % max(1, z.size - size)
        part = np.array(z[start:start + size])
        if not np.array_equal(link.g_numpy_raw(part), g[start:start + size]):
            return False
    return True


# ---------------------------------------------------------------------- the compiled passes
@numba.njit(cache=True, nogil=True, inline="always")
def _decide(u, zv, lo, hi, z0, inv_h):
    """1.0, 0.0, or −u (ambiguous) for the uniform u at index z."""
    c = (zv - z0) * inv_h
    i = int(c) if (c >= 0.0) and (c < _CELLS) else _CELLS
    if u < lo[i]:
        return 1.0
    if u >= hi[i]:
        return 0.0
    return -u


@numba.njit(cache=True, nogil=True)
def table_rewards(state, z, lo, hi, z0, inv_h, Y):
    """One replication: the uniforms of its reward stream ``state`` (numpy's ``random(out=Y)``
    values, as :func:`nbl_sim.environment_passes.uniform_reward_pass` draws them) turned into
    rewards where the table decides them, −U where not; ``z`` (n, 2) its indices."""
    s_hi, s_lo, c_hi, c_lo = state[0], state[1], state[2], state[3]
    for t in range(z.shape[0]):
        for a in range(2):
            w, s_hi, s_lo = next_word(s_hi, s_lo, c_hi, c_lo)
            Y[t, a] = _decide(as_double(w), z[t, a], lo, hi, z0, inv_h)
    state[0], state[1] = s_hi, s_lo


@intrinsic
def _table_lanes(typingctx, states, z, lo, hi, Y, r0, z0, inv_h):
    """:func:`table_rewards` of replications r0, …, r0 + 7 with their eight reward streams as
    the lanes of vectors (one PCG64 step for the eight, :func:`nbl_sim.environment_lanes.
    pcg64_step`); z and Y C-contiguous (R, n, 2), ``states`` (4, 8) advanced in place."""
    sig = types.void(states, z, lo, hi, Y, types.intp, types.float64, types.float64)

    def codegen(context, builder, signature, args):
        arrays = [context.make_array(ty)(context, builder, a)
                  for ty, a in zip(signature.args[:5], args[:5])]
        base = [builder.ptrtoint(a.data, I64) for a in arrays]
        r0, z0, inv_h = args[5:8]
        stride = builder.extract_value(arrays[0].strides, 0)

        def ptr(addr, ty):
            return builder.inttoptr(addr, ty.as_pointer())

        rows = [ptr(builder.add(base[0], builder.mul(i64(k), stride)), VI) for k in range(4)]
        s_hi0, s_lo0, c_hi, c_lo = (builder.load(p, align=8) for p in rows)
        rep_stride = builder.extract_value(arrays[1].strides, 0)  # z and Y have the same shape
        z_rep, y_rep = ([builder.add(base[j], builder.mul(builder.add(r0, i64(b)), rep_stride))
                         for b in range(LANES)] for j in (1, 4))
        count = builder.mul(builder.extract_value(arrays[1].shape, 1), i64(2))  # 2n values
        zero, one = (ir.Constant(VF, [ir.Constant(F64, v)] * LANES) for v in (0.0, 1.0))
        neg_zero = ir.Constant(VF, [ir.Constant(F64, -0.0)] * LANES)
        cells = ir.Constant(VF, [ir.Constant(F64, float(_CELLS))] * LANES)
        two_m53 = ir.Constant(VF, [ir.Constant(F64, 2.0 ** -53)] * LANES)
        z0_v, inv_v = splat(builder, z0), splat(builder, inv_h)
        entry, loop, done, i, s_hi, s_lo = open_stream_loop(builder, "table_lanes", count,
                                                            s_hi0, s_lo0)
        word, new_hi, new_lo = pcg64_step(builder, s_hi, s_lo, c_hi, c_lo)
        u = builder.fmul(exact_double(builder, builder.lshr(word, splat_i64(11)), 53), two_m53)
        off = builder.mul(i, i64(8))
        zv = ir.Constant(VF, ir.Undefined)
        for b in range(LANES):
            zv = builder.insert_element(zv, builder.load(ptr(builder.add(z_rep[b], off), F64),
                                                         align=8), lane(b))
        c = builder.fmul(builder.fsub(zv, z0_v), inv_v)
        inside = builder.and_(builder.fcmp_ordered(">=", c, zero),
                              builder.fcmp_ordered("<", c, cells))
        cell = builder.select(inside, small_fptosi(builder, builder.select(inside, c, zero)),
                              splat_i64(_CELLS))
        lo_v, hi_v = ir.Constant(VF, ir.Undefined), ir.Constant(VF, ir.Undefined)
        for b in range(LANES):
            at = builder.mul(builder.extract_element(cell, lane(b)), i64(8))
            lo_v = builder.insert_element(lo_v, builder.load(ptr(builder.add(base[2], at), F64),
                                                             align=8), lane(b))
            hi_v = builder.insert_element(hi_v, builder.load(ptr(builder.add(base[3], at), F64),
                                                             align=8), lane(b))
        y = builder.select(builder.fcmp_ordered("<", u, lo_v), one,
                           builder.select(builder.fcmp_ordered(">=", u, hi_v), zero,
                                          builder.fsub(neg_zero, u)))
        store_lanes(builder, y, y_rep, off)
        i_next = builder.add(i, i64(1))
        i.add_incoming(i_next, loop)
        s_hi.add_incoming(new_hi, loop)
        s_lo.add_incoming(new_lo, loop)
        builder.cbranch(builder.icmp_signed("<", i_next, count), loop, done)
        builder.position_at_end(done)
        f_hi, f_lo = builder.phi(VI), builder.phi(VI)
        for src, vals in ((entry, (s_hi0, s_lo0)), (loop, (new_hi, new_lo))):
            for p, v in zip((f_hi, f_lo), vals):
                p.add_incoming(v, src)
        builder.store(f_hi, rows[0], align=8)
        builder.store(f_lo, rows[1], align=8)
        return context.get_dummy_value()

    return sig, codegen


@numba.njit(cache=True, nogil=True)
def table_reward_lanes(states, z, lo, hi, Y, r0, z0, inv_h):
    """:func:`table_rewards` of the eight replications r0, …, r0 + 7 of z and Y (C-contiguous
    (R, n, 2), R ≥ r0 + 8), their reward streams the columns of ``states`` (4, 8)."""
    _table_lanes(states, z, lo, hi, Y, r0, z0, inv_h)


@numba.njit(cache=True, nogil=True)
def ambiguous(Y):
    """Flat indices of the values of ``Y`` (1-D) the table left open (sign bit set)."""
    out = np.empty(Y.size, dtype=np.int64)
    k = 0
    for j in range(Y.size):
        if math.copysign(1.0, Y[j]) < 0.0:
            out[k] = j
            k += 1
    return out[:k]


@numba.njit(cache=True, nogil=True)
def settle(Y, where, g, rounding):
    """Y[where[j]] = 1{U < clip(g[j])} with U = −Y[where[j]], after checking every g[j] as the
    ordinary draw does (finite and in [−rounding, 1 + rounding]); False, nothing written, if
    one fails."""
    for j in range(where.size):
        if not (g[j] >= -rounding and g[j] <= 1.0 + rounding):
            return False
    for j in range(where.size):
        m = g[j]
        if m < 0.0:
            m = 0.0
        elif m > 1.0:
            m = 1.0
        Y[where[j]] = np.float64(-Y[where[j]] < m)
    return True


def settle_block(link: Link, z: np.ndarray, Y: np.ndarray, ordinary, rounding: float) -> None:
    """The rewards the table left open in Y (C-contiguous (B, n, 2); z the indices, same shape)
    by the link's own float64 g at those points only; where a value is not finite (an
    overflow) or fails the check, by ``ordinary(z[b])`` — replication b's ordinary checked
    means, which raise its error — one replication after the other, as an ordinary draw."""
    flat = Y.reshape(-1)
    where = ambiguous(flat)
    g = link.g_numpy_raw(z.reshape(-1)[where])
    if np.all(np.isfinite(g)) and settle(flat, where, g, rounding):
        return
    for b in range(Y.shape[0]):
        means = ordinary(z[b])
        row = Y[b].reshape(-1)
        where = ambiguous(row)
        settle(row, where, means.reshape(-1)[where], rounding)


# ---------------------------------------------------------------------- the regret
@numba.njit(cache=True, nogil=True)
def _mismatches(actions, optimal, z):
    """Rows (R + 1,) offsets, the (k, 2) indices and the rounds (k,) of the rounds where
    A_t ≠ a*(X_t), in replication then round order."""
    R, n = actions.shape
    starts = np.zeros(R + 1, dtype=np.int64)
    for r in range(R):
        c = 0
        for t in range(n):
            c += actions[r, t] != optimal[r, t]
        starts[r + 1] = starts[r] + c
    zz = np.empty((starts[R], 2))
    rounds = np.empty(starts[R], dtype=np.int64)
    k = 0
    for r in range(R):
        for t in range(n):
            if actions[r, t] != optimal[r, t]:
                zz[k, 0], zz[k, 1] = z[r, t, 0], z[r, t, 1]
                rounds[k] = t
                k += 1
    return starts, zz, rounds


@numba.njit(cache=True, nogil=True, inline="always")
def _gap_at(actions, optimal, m, r, t, j):
    """(m_{a*} − m_{A_t}, j + 1) at a mismatched round, m[j] its two means; (+0.0, j) at any
    other round — the m − m of the definition there."""
    if actions[r, t] == optimal[r, t]:
        return 0.0, j
    best = m[j, 1] if optimal[r, t] > 0 else m[j, 0]
    got = m[j, 1] if actions[r, t] > 0 else m[j, 0]
    return best - got, j + 1


@numba.njit(cache=True, nogil=True)
def _sparse_regret(actions, optimal, m, starts, rounds, rec, out):
    """:func:`nbl_sim.metrics._recorded_regret`'s running sums R_1 = gap_1, R_t = R_{t−1} + gap_t
    with the gap m_{a*} − m_{A_t} at the mismatched rounds (``m`` their clipped means and
    ``rounds`` their t, in order) and +0.0 at every other round — visiting only those rounds
    and the recorded ones. A run of +0.0 gaps is one addition of +0.0: x + 0.0 = x for every x
    but −0.0, which it turns into +0.0, and +0.0 + 0.0 = +0.0 again; so the sums are the same
    bits as adding every +0.0 (tests/sim/test_reward_table.py, with −0.0 means)."""
    R = actions.shape[0]
    K = rec.shape[0]
    k0 = 0
    while k0 < K and rec[k0] == 0:
        k0 += 1
    for r in range(R):
        for k in range(k0):
            out[r, k] = 0.0
        j, end = starts[r], starts[r + 1]
        acc, done = 0.0, -1  # the running sum through round ``done`` (−1: none yet)
        for k in range(k0, K):
            last = rec[k] - 1  # R at record k is the sum through round rec[k] − 1
            while j < end and rounds[j] <= last:
                t = rounds[j]
                best = m[j, 1] if optimal[r, t] > 0 else m[j, 0]
                got = m[j, 1] if actions[r, t] > 0 else m[j, 0]
                gap = best - got
                if done < 0:  # rounds 0 … t − 1 matched: R_{t−1} = +0.0
                    acc = gap if t == 0 else 0.0 + gap
                else:
                    if t > done + 1:  # matched rounds between
                        acc = acc + 0.0
                    acc = acc + gap
                done = t
                j += 1
            if done < last:  # matched rounds done + 1 … last
                acc = 0.0 if done < 0 else acc + 0.0
                done = last
            out[r, k] = acc


@numba.njit(cache=True, nogil=True)
def _scatter_gaps(actions, optimal, m, out):
    """out[r, t] = m_{a*} − m_{A_t} at the mismatched rounds (``m`` in order), +0.0 elsewhere
    (the m − m of the definition)."""
    R, n = actions.shape
    j = 0
    for r in range(R):
        for t in range(n):
            out[r, t], j = _gap_at(actions, optimal, m, r, t, j)


def _mismatched_means(link: Link, z, actions, optimal):
    """(row offsets, clipped Bernoulli means (k, 2) at the mismatched rounds, those rounds), or
    None when a float64 value there overflowed (the caller then takes the ordinary means)."""
    starts, zz, rounds = _mismatches(actions, optimal, z)
    m = link.g_numpy_raw(zz)
    if not np.all(np.isfinite(m)):
        return None
    return starts, np.clip(m, 0.0, 1.0), rounds


def ordinary_means(link: Link, z) -> np.ndarray:
    """The clipped Bernoulli means g(z) of a lazy realization's indices ``z`` (R, n, 2), one
    replication at a time as the ordinary draw evaluates them."""
    return np.stack([np.clip(np.asarray(link.g_numpy(z[r]), dtype=float), 0.0, 1.0)
                     for r in range(z.shape[0])])


def lazy_instantaneous_regret_into(link: Link, z, actions, optimal, out) -> np.ndarray:
    """:func:`nbl_sim.metrics.instantaneous_regret_into` of a Bernoulli realization drawn with a
    table (``z`` (R, ≥ n, 2) its indices), g evaluated at the mismatched rounds only."""
    actions = np.ascontiguousarray(actions, dtype=np.int8)
    optimal = np.ascontiguousarray(optimal, dtype=np.int8)
    found = _mismatched_means(link, z, actions, optimal)
    if found is None:
        n = actions.shape[1]
        return instantaneous_regret_into(ordinary_means(link, z[:, :n]), actions, optimal, out)
    _scatter_gaps(actions, optimal, found[1], out)
    return out


def lazy_recorded_regret(link: Link, z, actions, optimal, record_rounds, out) -> np.ndarray:
    """:func:`nbl_sim.metrics.recorded_regret` of a Bernoulli realization drawn with a table
    (``z`` (R, n, 2) its indices in place of the means), g evaluated at the mismatched rounds
    only; the same bits."""
    actions = np.ascontiguousarray(actions, dtype=np.int8)
    optimal = np.ascontiguousarray(optimal, dtype=np.int8)
    rec = np.ascontiguousarray(record_rounds, dtype=np.int64)
    found = _mismatched_means(link, z, actions, optimal)
    if found is None:  # an overflow: the ordinary means (with their patch)
        return recorded_regret(ordinary_means(link, z), actions, optimal, rec, out=out)
    starts, m, rounds = found
    _sparse_regret(actions, optimal, m, starts, rounds, rec, out)
    return out
