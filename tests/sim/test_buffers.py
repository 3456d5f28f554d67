"""Scratch buffers kept for the next call (:mod:`nbl_sim.engine.buffers`): a kept buffer is only ever
lent to one user at a time, the pool stays within its bound, and a simulation whose kept buffers
hold garbage from before gives the same numbers."""

from __future__ import annotations

import threading

import numpy as np

from nbl_sim.engine import buffers
from nbl_sim.engine.buffers import KEEP_BYTES, reused
from nbl_sim.engine.environment import Environment
from nbl_sim.runs.execution import SerialExecutor
from nbl_sim.studies.experiment import simulate
from nbl_theory.families import make_family


def _fresh_pool(monkeypatch):
    monkeypatch.setattr(buffers, "_LOCAL", threading.local())


def test_a_kept_buffer_is_lent_to_one_user_at_a_time(monkeypatch):
    _fresh_pool(monkeypatch)
    with reused(("a",), lambda: np.zeros(4), 32) as first:
        with reused(("a",), lambda: np.zeros(4), 32) as nested:
            assert nested is not first  # in use: the nested user gets its own
    with reused(("a",), lambda: np.zeros(4), 32) as again:
        assert again is first or again is nested  # one of them was kept
    seen = []
    thread = threading.Thread(
        target=lambda: seen.append(reused(("a",), lambda: np.zeros(4), 32).__enter__())
    )
    thread.start()
    thread.join()
    assert seen[0] is not first and seen[0] is not nested  # another thread: its own pool


def test_the_pool_keeps_at_most_its_bound(monkeypatch):
    _fresh_pool(monkeypatch)
    big = KEEP_BYTES // 2 + 1
    made = []

    def make():
        made.append(object())
        return made[-1]

    for key in ("x", "y", "x"):
        with reused((key,), make, big):
            pass
    assert len(made) == 3  # y pushed the first x out (two would exceed the bound)
    with reused(("x",), make, big):
        pass
    assert len(made) == 3  # the last returned, x, was kept (and had pushed y out)
    with reused(("y",), make, big):
        pass
    assert len(made) == 4
    with reused(("huge",), make, KEEP_BYTES + 1):
        pass
    with reused(("huge",), make, KEEP_BYTES + 1):
        pass
    assert len(made) == 6  # never kept


def test_garbage_left_in_kept_buffers_does_not_reach_the_results(monkeypatch):
    """Run, poison every kept buffer (NaN contexts and means, wrong rewards and actions), run
    again: the same numbers (every array the simulation reads is written first)."""
    _fresh_pool(monkeypatch)
    env = Environment.build(make_family("two-transition", mu2="1.244122"), "0.5", 3)
    kw = dict(n=400, reps=11, seed=3, policies=("nbl", "oracle"), n0=20, executor=SerialExecutor())
    first = simulate(env, **kw)
    pool = buffers._pool()
    assert pool, "the simulation kept no buffer"
    for buf, _ in pool.values():
        for arr in (
            (buf,)
            if isinstance(buf, np.ndarray)
            else (buf.X, buf.means, buf.Y, buf.coins, buf.optimal)
        ):
            arr[...] = np.nan if arr.dtype.kind == "f" else 7
    second = simulate(env, **kw)
    for name in ("nbl", "oracle"):
        a, b = first.policies[name], second.policies[name]
        for k in ("regret", "sq_error", "angle"):
            assert np.array_equal(getattr(a, k), getattr(b, k), equal_nan=True), (name, k)
