"""The certified reward table (nbl_sim.reward_table): a lazy draw is the ordinary draw bit for
bit, simulate() gives the same numbers with and without it, the table encloses the link's float64
values, and the mutants the tests must catch (a shifted table, a sloppy link evaluation, an
evaluation that depends on its neighbours) are caught."""

import dataclasses
from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nbl_sim import environment, experiment, reward_table
from nbl_sim.environment import Environment
from nbl_sim.execution import SerialExecutor
from nbl_sim.experiment import simulate
from nbl_sim.metrics import recorded_regret
from nbl_sim.reward_table import EPS, lazy_recorded_regret
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.links import Link
from tests.sim.strategies import bernoulli_links, deltas

TT = make_family("two-transition", mu2="1.244122")
NAMED = {
    "two-transition": TT,
    "logistic": make_family("logistic"),
    "probit-steep": Link.from_expression("Phi(5*z)"),
    "cloglog": Link.from_expression("1 - exp(-exp(z))"),
    "sigmoid-50": Link.from_expression("sigmoid(50*z)"),
}


def _ordinary(monkeypatch):
    """Draws and simulations without any table (the ordinary path)."""
    monkeypatch.setattr(environment, "reward_table", lambda *a: None)


def _assert_same_draw(env, seed, reps, n, n0):
    lazy = env.draw(seed, reps, n, n0, lazy=True)
    plain = env.draw(seed, reps, n, n0)
    assert not plain.lazy
    for k in ("X", "Y", "coins", "optimal"):
        assert np.array_equal(getattr(lazy, k), getattr(plain, k)), k  # bit for bit
    assert np.array_equal(env.realized_means(lazy), plain.means)
    assert not np.any(np.signbit(lazy.Y))  # every open reward settled
    return lazy


@pytest.mark.parametrize("name", sorted(NAMED))
@pytest.mark.parametrize("d", [2, 3, 9])
def test_lazy_draw_is_the_ordinary_draw(name, d):
    """Eleven replications (a lane group of eight, then three one by one), with coins: the
    same contexts, rewards, coins, optimal actions and means — and the table is used."""
    env = Environment.build(NAMED[name], "0.3", d)
    assert _assert_same_draw(env, 5, range(11), 1500, 9).lazy


@settings(max_examples=15, deadline=None)
@given(bernoulli_links(), deltas, st.integers(0, 2**31), st.sampled_from([2, 4]))
def test_lazy_draw_is_the_ordinary_draw_for_random_links(link, delta, seed, d):
    """Two-transition links and g_ρ (a potential: no table, the ordinary draw) at any Δ."""
    env = Environment.build(link, delta, d)
    real = _assert_same_draw(env, seed, [4, 0, 9, 1, 2, 3, 5, 6, 7], 400, 3)
    assert real.lazy == (link.kind == "expression")


@pytest.mark.parametrize("d, policies", [(2, ("nbl", "oracle")), (8, ("nbl", "oracle")),
                                         (2, ("greedy-logistic",))])
def test_simulate_is_the_same_with_and_without_the_table(monkeypatch, d, policies):
    """Regret, ‖v_t − v*‖² and angles of every replication at every recorded round."""
    env = Environment.build(TT, "0.2", d)
    kw = dict(n=2000, reps=10, seed=7, policies=policies, executor=SerialExecutor())
    if "greedy-logistic" in policies:
        kw.update(n=600, reps=3, n0=40)
    monkeypatch.setattr(experiment, "_LAZY_STEPS", 0)  # every chunk draws lazily
    drawn = []
    draw = Environment.draw
    monkeypatch.setattr(Environment, "draw",
                        lambda *a, **k: drawn.append(draw(*a, **k)) or drawn[-1])
    lazy = simulate(env, **kw)
    assert drawn and all(real.lazy for real in drawn)
    _ordinary(monkeypatch)
    plain = simulate(env, **kw)
    for p in policies:
        for f in ("regret", "sq_error", "angle"):
            assert np.array_equal(getattr(lazy.policies[p], f), getattr(plain.policies[p], f),
                                  equal_nan=True), (p, f)
    assert np.all(lazy.policies[policies[0]].regret[:, -1] != 0)  # the regret was not empty


def test_a_small_chunk_draws_lazily_when_its_process_holds_the_table(monkeypatch):
    """A chunk below _LAZY_STEPS draws lazily only if the table is already built in this
    process (the last, smaller chunk of a simulate whose first chunk built it) — and never
    builds one itself; the numbers are those of the ordinary draw."""
    env = Environment.build(make_family("two-transition", mu2="1.1"), "0.2", 8)
    monkeypatch.setattr(reward_table, "_TABLES", OrderedDict())  # nothing held yet
    monkeypatch.setattr(experiment, "_LAZY_STEPS", 16 * 600)  # a chunk of 16 reps × 600 rounds
    drawn = []
    draw = Environment.draw
    monkeypatch.setattr(Environment, "draw",
                        lambda *a, **k: drawn.append(draw(*a, **k)) or drawn[-1])
    kw = dict(n=600, seed=3, policies=("nbl",), executor=SerialExecutor())
    simulate(env, reps=8, **kw)  # one chunk of 8 reps: too small, no table held
    assert [real.lazy for real in drawn] == [False] and not reward_table.table_held(env.link)
    drawn.clear()
    both = simulate(env, reps=24, chunk_size=16, **kw)  # 16 (builds the table), then 8
    assert [real.lazy for real in drawn] == [True, True]
    assert reward_table.table_held(env.link)
    _ordinary(monkeypatch)
    plain = simulate(env, reps=24, chunk_size=16, **kw)
    for f in ("regret", "sq_error", "angle"):
        assert np.array_equal(getattr(both.policies["nbl"], f), getattr(plain.policies["nbl"], f),
                              equal_nan=True), f


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(NAMED)),
       st.lists(st.floats(-8.5, 8.5, allow_nan=False), min_size=1, max_size=50))
def test_the_table_encloses_the_links_float_values(name, zs):
    """At random points, and at the cell edges next to them, a usable cell's [lo, hi] holds the
    float64 g with the margin EPS/2 to spare."""
    link = NAMED[name]
    table = reward_table.reward_table(link)
    z = np.array(zs)
    z = np.concatenate([z, np.floor(z * 128) / 128, np.ceil(z * 128) / 128])
    cell = table.cell(z)
    usable = table.lo[cell] > -1
    g = link.g_numpy(z)
    assert np.all(g[usable] >= table.lo[cell][usable] + EPS / 2)
    assert np.all(g[usable] <= table.hi[cell][usable] - EPS / 2)


def test_a_shifted_table_is_caught(monkeypatch):
    """Mutant: the table one cell off. The lazy draw then differs from the ordinary one (the
    comparison above can fail)."""
    good = reward_table.reward_table(TT)
    bad = dataclasses.replace(good, lo=np.roll(good.lo, 1), hi=np.roll(good.hi, 1))
    monkeypatch.setattr(environment, "reward_table", lambda *a: bad)
    env = Environment.build(TT, "0.3", 2)
    lazy = env.draw(1, range(8), 3000, 0, lazy=True)
    assert not np.array_equal(lazy.Y, env.draw(1, range(8), 3000, 0).Y)


def test_a_sloppy_float_link_gets_no_table(monkeypatch):
    """Mutant: a float64 g off by 1e-12 (more than EPS/2) at every point: the build's samples
    see it and the link is drawn the ordinary way."""
    link = Link.from_expression("sigmoid(2*z)")
    monkeypatch.setattr(reward_table, "_TABLES", OrderedDict())  # built afresh
    assert reward_table.reward_table(link) is not None
    monkeypatch.setattr(reward_table, "_TABLES", OrderedDict())
    raw = Link.g_numpy_raw
    monkeypatch.setattr(Link, "g_numpy_raw", lambda self, z: raw(self, z) + 1e-12)
    assert reward_table.reward_table(link) is None


def test_an_evaluation_that_depends_on_its_neighbours_gets_no_table(monkeypatch):
    """Mutant: values that change with the length of the array evaluated (not elementwise)."""
    link = Link.from_expression("sigmoid(3*z)")
    monkeypatch.setattr(reward_table, "_TABLES", OrderedDict())
    raw = Link.g_numpy_raw
    monkeypatch.setattr(Link, "g_numpy_raw",
                        lambda self, z: raw(self, z) * (1.0 if np.size(z) % 2 else 1 - 2**-52))
    assert reward_table.reward_table(link) is None


def test_potential_links_get_no_table():
    assert reward_table.reward_table(make_family("weighted-entropy", rho="0.72")) is None


def _all_open(monkeypatch, link):
    """A table whose every cell is open: every reward is settled by the link's evaluation."""
    table = reward_table.reward_table(link)
    every = dataclasses.replace(table, lo=np.full_like(table.lo, -1.0),
                                hi=np.full_like(table.hi, 2.0))
    monkeypatch.setattr(environment, "reward_table", lambda *a: every)


def test_overflowed_values_fall_back_to_the_ordinary_evaluation(monkeypatch):
    """Where the raw float64 g is not finite (an overflow the link patches in Arb), the lazy
    draw and its regret use the ordinary evaluation: the same bits."""
    _all_open(monkeypatch, TT)
    raw = Link.g_numpy_raw
    monkeypatch.setattr(Link, "g_numpy_raw",
                        lambda self, z: np.where(np.abs(z) > 1.5, np.nan, raw(self, z)))
    env = Environment.build(TT, "0.3", 3)
    real = _assert_same_draw(env, 2, range(9), 800, 0)
    actions = -real.optimal  # every round mismatched: the regret needs every mean
    rec = np.array([0, 1, 400, 800])
    want = recorded_regret(env.realized_means(real), actions, real.optimal, rec)
    got = lazy_recorded_regret(TT, real.means, actions, real.optimal, rec, np.empty((9, 4)))
    assert np.array_equal(got, want)


def test_a_bad_mean_raises_the_ordinary_error(monkeypatch):
    """A realized mean outside [0, 1] at a point the table leaves open: the same error as the
    ordinary draw, from the first failing replication."""
    raw, ordinary = Link.g_numpy_raw, Link.g_numpy

    def bump(f):
        return lambda self, z: np.where((z > 0.5) & (z < 0.52), 1.5, f(self, z))

    monkeypatch.setattr(Link, "g_numpy", bump(ordinary))
    env = Environment.build(TT, "0.3", 2)
    with pytest.raises(NBLInputError, match=r"Bernoulli mean left \[0, 1\]") as plain:
        env.draw(0, range(9), 500, 0)
    monkeypatch.setattr(Link, "g_numpy_raw", bump(raw))
    _all_open(monkeypatch, TT)
    with pytest.raises(NBLInputError) as lazy:
        env.draw(0, range(9), 500, 0, lazy=True)
    assert str(lazy.value) == str(plain.value)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from(["optimal", "opposite", "random"]),
       st.lists(st.integers(0, 300), max_size=6))
def test_lazy_regret_is_the_recorded_regret(seed, kind, extra):
    """Any actions (all optimal, all mismatched, random) and record rounds (0 and n included):
    the sums at the mismatched rounds only equal the sums of every gap, bit for bit."""
    env = Environment.build(TT, "0.4", 2)
    real = env.draw(seed, range(5), 300, 0, lazy=True)
    rng = np.random.default_rng(seed)
    actions = {"optimal": real.optimal, "opposite": -real.optimal,
               "random": np.where(rng.random(real.optimal.shape) < 0.3, -1, 1) * real.optimal
               }[kind].astype(np.int8)
    rec = np.unique(np.array([0, 300] + extra))
    want = recorded_regret(env.realized_means(real), actions, real.optimal, rec)
    assert np.array_equal(env.recorded_regret(real, actions, rec), want)


_MEANS = (st.sampled_from([-0.0, 0.0, 1.0]),  # often a gap of −0.0 − 0.0 = −0.0
          st.sampled_from([0.0, -0.0, 1.0, 0.5, 0.25, 1e-300, 5e-324, 0.1, 0.7,
                           0.3000000000000001]))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 9), st.integers(1, 30), st.floats(0.0, 1.0), st.data())
def test_sparse_sums_are_every_rounds_sums(R, n, p, data):
    """The sums visiting only the mismatched and recorded rounds are, bit for bit (signs of
    zero included), the running sums over every round of metrics._recorded_regret: means with
    ±0.0 (a first gap −0.0 − 0.0 = −0.0, which the next +0.0 gap turns into +0.0), subnormals,
    any share p of mismatched rounds, any record rounds (0 and n allowed)."""
    from nbl_sim.metrics import _recorded_regret
    from nbl_sim.reward_table import _mismatches, _sparse_regret

    values = _MEANS[data.draw(st.integers(0, 1))]
    means = np.array(data.draw(st.lists(values, min_size=R * n * 2, max_size=R * n * 2)),
                     dtype=float).reshape(R, n, 2)
    optimal = np.where(np.array(data.draw(st.lists(st.booleans(), min_size=R * n,
                                                   max_size=R * n))), 1, -1)
    flip = np.array(data.draw(st.lists(st.floats(0, 1), min_size=R * n, max_size=R * n))) < p
    optimal = optimal.reshape(R, n).astype(np.int8)
    actions = np.where(flip.reshape(R, n), -optimal, optimal).astype(np.int8)
    rec = np.array(sorted(data.draw(st.sets(st.integers(0, n), min_size=1))), dtype=np.int64)
    want, got = np.empty((R, rec.size)), np.full((R, rec.size), np.nan)
    _recorded_regret(means, actions, optimal, rec, want)
    starts, m, rounds = _mismatches(actions, optimal, means)
    _sparse_regret(actions, optimal, m, starts, rounds, rec, got)
    assert np.array_equal(want.view(np.uint64), got.view(np.uint64))


def test_sparse_sums_every_pattern_of_five_rounds():
    """Exhaustively, every sequence of five rounds each matched or mismatched with a gap of
    −0.0, +0.0 or 0.5 (4⁵ = 1,024 replications), under every set of record rounds in
    {0, …, 5}: the same bits as the sums over every round (the sign of a zero sum included)."""
    import itertools

    from nbl_sim.metrics import _recorded_regret
    from nbl_sim.reward_table import _mismatches, _sparse_regret

    # (means of arms −1, +1) with a* = +1: a matched round, then gaps −0.0, +0.0 and 0.5
    kinds = [(0.3, 0.3), (0.0, -0.0), (0.5, 0.5), (0.25, 0.75)]
    patterns = np.array(list(itertools.product(range(4), repeat=5)))
    means = np.array(kinds)[patterns]
    optimal = np.ones(patterns.shape, dtype=np.int8)
    actions = np.where(patterns > 0, -1, 1).astype(np.int8)
    starts, m, rounds = _mismatches(actions, optimal, means)
    negative_zeros = 0
    for chosen in itertools.product((False, True), repeat=6):
        rec = np.flatnonzero(chosen).astype(np.int64)
        if rec.size == 0:
            continue
        want, got = np.empty((len(patterns), rec.size)), np.full((len(patterns), rec.size), 0.5)
        _recorded_regret(means, actions, optimal, rec, want)
        _sparse_regret(actions, optimal, m, starts, rounds, rec, got)
        assert np.array_equal(want.view(np.uint64), got.view(np.uint64)), rec
        negative_zeros += np.count_nonzero(np.signbit(want) & (want == 0))
    assert negative_zeros  # −0.0 sums do occur


def test_the_rate_study_is_the_same_with_and_without_the_table(monkeypatch):
    """Every cell kind of the regret-rate study (regret with its per-round gaps, γ, the
    localization, the contrast) draws lazily: its arrays are those of the ordinary draw."""
    from nbl_sim.rate_study import run_study
    from tests.sim.test_rate_study import TINY, _arrays, _same

    drawn = []
    draw = Environment.draw
    monkeypatch.setattr(Environment, "draw",
                        lambda *a, **k: drawn.append(draw(*a, **k)) or drawn[-1])
    lazy = run_study(TINY, executor=SerialExecutor())
    assert any(real.lazy for real in drawn)  # the two-transition cells (g_ρ: a potential)
    _ordinary(monkeypatch)
    plain = run_study(TINY, executor=SerialExecutor())
    assert not lazy.failures and not plain.failures
    _same(_arrays(lazy), _arrays(plain))
