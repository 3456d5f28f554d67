"""The compiled kernels index inside their arrays.

numba does not check bounds: an index one past an array's end reads or writes memory that is
not the array's, which is undefined behaviour and may leave every result the same (a library
mutant that shrank Greedy Logistic's per-arm counter array to one entry survived every claim
and test). Here each kernel module's jitted functions are compiled again with
``boundscheck=True``, calling each other's checked copies, and run on small pinned cases: an
out-of-bounds index raises IndexError, and the results must be the unchecked kernels' bit for
bit. In process, so the mutation harness's mutants (applied by an import hook) are what is
compiled.
"""

from __future__ import annotations

import types
from types import SimpleNamespace

import numba
import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

from nbl_sim.engine import environment, environment_passes, greedy_kernel, nbl_kernel
from nbl_sim.engine.environment import Environment
from nbl_theory.families import make_family

#: njit options not passed on to the checked copy (decided here, or numba's own defaults)
_DROPPED = ("cache", "boundscheck", "nopython")


def checked_copy(module) -> dict:
    """Every jitted function defined in ``module`` compiled again with bounds checking, each
    calling the others' checked copies (those it imports stay as they are): {name:
    dispatcher}."""
    jitted = {
        k: v
        for k, v in vars(module).items()
        if isinstance(v, CPUDispatcher) and v.py_func.__module__ == module.__name__
    }
    namespace = dict(vars(module))
    out = {}
    for name, d in jitted.items():
        f = d.py_func
        g = types.FunctionType(f.__code__, namespace, f.__name__, f.__defaults__, f.__closure__)
        options = {k: v for k, v in d.targetoptions.items() if k not in _DROPPED}
        out[name] = numba.njit(boundscheck=True, **options)(g)
    namespace.update(out)
    return out


@pytest.fixture(scope="module")
def realization():
    env = Environment.build(make_family("logistic"), "1", 2)
    return env, env.draw(0, range(4), 300, 30)


@pytest.mark.parametrize("intercept", [True, False])
def test_greedy_logistic_kernel_in_bounds(realization, intercept):
    _, real = realization
    inp = greedy_kernel.greedy_inputs(real.X, real.Y, real.coins, intercept=intercept)
    want = greedy_kernel._greedy_kernel(*inp)
    got = checked_copy(greedy_kernel)["_greedy_kernel"](*inp)
    assert all(np.array_equal(a, b) for a, b in zip(want, got))


def test_nbl_kernel_in_bounds(realization, monkeypatch):
    env, real = realization
    want = nbl_kernel.nbl_run(real.X, real.Y, real.coins, env.v_star, record_rounds=[0, 30, 300])
    monkeypatch.setattr(nbl_kernel, "_nbl_kernel", checked_copy(nbl_kernel)["_nbl_kernel"])
    got = nbl_kernel.nbl_run(real.X, real.Y, real.coins, env.v_star, record_rounds=[0, 30, 300])
    assert np.array_equal(want.actions, got.actions) and np.array_equal(want.v_final, got.v_final)
    assert np.array_equal(want.sq_error, got.sq_error, equal_nan=True)


def test_the_block_draw_in_bounds(monkeypatch):
    env = Environment.build(make_family("logistic"), "1", 3)
    want = env.draw(5, range(3), 200, 20)
    checked = checked_copy(environment_passes)
    original = environment._compiled()
    passes = ("index_pass", "reward_pass", "block_contexts_pass", "block_rewards_pass")
    patched = SimpleNamespace(**{**vars(original), **{p: checked[p] for p in passes}})
    monkeypatch.setattr(environment, "_compiled", lambda: patched)
    got = env.draw(5, range(3), 200, 20)
    for name in ("X", "Y", "coins", "means"):
        assert np.array_equal(getattr(want, name), getattr(got, name)), name
