"""The compiled engine pinned to the reference engine, bit for bit (nbl_sim.engine).

The reference backend (nbl_sim/engine/reference.py, plain numpy) is the definition of the
numbers of record; the compiled backend (numba/LLVM kernels) must give the same bits for every
piece of the seam: the draw (contexts, means, rewards, coins, optimal actions; one by one and
in lanes of eight), NBL (actions, records, final directions, counts), Greedy
Logistic (actions, fits, counts), the oracle and the recorded regret. Any change to the float
operations or their order on either side fails here (shown by planting one: see the report of
the change that added this module).

Also checked against numpy itself: the ziggurat tables the compiled stream copies
(nbl_sim/engine/ziggurat.py) give numpy's own standard normals, the layers, slow paths and tail
included.
"""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nbl_sim import engine
from nbl_sim.engine import greedy_kernel, reference, ziggurat
from nbl_sim.engine.environment import Environment
from nbl_sim.engine.environment_passes import PAIRWISE_MAX, index_pass
from nbl_sim.engine.pcg64 import fill_normals, state_of
from nbl_sim.engine.realization import Realization
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.links import Link

TT = make_family("two-transition", mu2="1.244122")  # the unstable two-transition link
LOGISTIC = make_family("logistic")
POTENTIAL = Link.from_potential("m**2/2 + 0.7*log(cosh(m))", domain=("-inf", "inf"))


def _same(a, b) -> bool:
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


def _realizations(env, seed, reps, n, n0):
    got = engine.draw(env, seed, reps, n, n0)
    ref = engine.draw(env, seed, reps, n, n0, backend="reference")
    return got, ref


def _assert_draws_pinned(env, got, ref):
    for name in ("X", "means", "Y", "coins", "optimal"):
        assert _same(getattr(got, name), getattr(ref, name)), name


def _assert_nbl_pinned(got, ref):
    for name in ("actions", "record_rounds", "sq_error", "angle", "v_final"):
        assert _same(getattr(got, name), getattr(ref, name)), name
    assert got.info == ref.info


# one environment per case: link, Δ, d, reward, and the beyond-the-paper laws
ENVS = {
    "tt-d2": lambda: Environment.build(TT, "0.5", 2),
    "tt-d8": lambda: Environment.build(TT, "0.5", 8),
    "logistic-d3-random": lambda: Environment.build(
        LOGISTIC, "1", 3, v_star="random", theta_dir="random", geometry_seed=4
    ),
    "logistic-d9": lambda: Environment.build(LOGISTIC, "0.3", 9),
    "potential-bounded-d2": lambda: Environment.build(
        POTENTIAL, "0.8", 2, reward="bounded", noise=0.5
    ),
    "tt-d2-arms": lambda: Environment.build(TT, "0.5", 2, arms="intercept=0.3"),
    "logistic-d8-arms-bounded": lambda: Environment.build(
        LOGISTIC, "0.7", 8, arms="shift=0.1", reward="bounded", noise=0.25
    ),
    "tt-d2-arms-contexts": lambda: Environment.build(
        TT, "0.5", 2, arms="intercept=0.3", contexts="student-t:nu=5"
    ),
    "logistic-d2-sigma": lambda: Environment.build(
        LOGISTIC, "0.5", 2, contexts="gaussian:cond=10,angle=90"
    ),
}


@pytest.mark.parametrize("case", sorted(ENVS))
@pytest.mark.parametrize("n0", [0, 23])
def test_fixed_cases_pinned(case, n0):
    """Draw (11 replications: one lane group of eight and three alone),
    NBL (randomized start, or v0 at 10° when n0 = 0), oracle and regret: the same bits."""
    env = ENVS[case]()
    rec = (
        np.array([0, 1, 2, 22, 23, 24, 100, 257])
        if n0 == 0
        else np.array([1, 22, 23, 24, 100, 257])
    )
    got, ref = _realizations(env, 7, range(2, 13), 257, n0)
    _assert_draws_pinned(env, got, ref)
    kw = {"v0": env.initial_direction(10.0)} if n0 == 0 else {}
    tr_got = engine.nbl(got.X, got.Y, got.coins, env.v_star, t0=30.0, record_rounds=rec, **kw)
    tr_ref = engine.nbl(
        ref.X, ref.Y, ref.coins, env.v_star, t0=30.0, record_rounds=rec, backend="reference", **kw
    )
    _assert_nbl_pinned(tr_got, tr_ref)
    for actions in (tr_got.actions, engine.oracle(got.X, env.v_star)):
        assert _same(
            engine.regret(env, got, actions, rec),
            engine.regret(env, ref, actions, rec, backend="reference"),
        )
    assert _same(
        engine.oracle(got.X, env.v_star), engine.oracle(ref.X, env.v_star, backend="reference")
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**63),
    first=st.integers(0, 10**6),
    R=st.integers(1, 19),
    n=st.integers(1, 120),
    d=st.sampled_from([2, 3, 4, 7, 8, 9, 16]),
    n0=st.integers(0, 40),
    gamma=st.sampled_from([0.5, 10.0, 300.0]),
    t0=st.sampled_from([0.0, 5.0, 500.0]),
    every=st.integers(1, 7),
)
def test_random_sizes_and_seeds_pinned(seed, first, R, n, d, n0, gamma, t0, every):
    """Any seed, replication range, horizon, dimension, n0 and step: the draw and NBL (with
    records and angles) are the same bits in both backends."""
    n0 = min(n0, n)
    env = Environment.build(TT, "0.5", d)
    got, ref = _realizations(env, seed, range(first, first + R), n, n0)
    _assert_draws_pinned(env, got, ref)
    rec = np.arange(0, n + 1, every)
    kw = {"v0": env.initial_direction(25.0)} if n0 == 0 else {}
    _assert_nbl_pinned(
        engine.nbl(
            got.X, got.Y, got.coins, env.v_star, gamma=gamma, t0=t0, record_rounds=rec, **kw
        ),
        engine.nbl(
            ref.X,
            ref.Y,
            ref.coins,
            env.v_star,
            gamma=gamma,
            t0=t0,
            record_rounds=rec,
            backend="reference",
            **kw,
        ),
    )


@pytest.mark.parametrize("d", [2, 3, 7, 8, 9, 16, 21, 128, 130, 300])
def test_index_sums_pinned(d):
    """The indices and the optimal actions on contexts built to cancel: v*ᵀx is within a few
    units in the last place of 0, so its sign depends on the order of every addition (a sum in
    another order — a fold — flips 5–26% of them, d = 8 … 300). The compiled index pass (d ≤ 128) and numpy's
    ``(X * v*).sum(-1)`` (what the draw uses beyond) against the reference's pairwise sum."""
    rng = np.random.default_rng(d)
    n = 4000
    v_star = rng.standard_normal(d)
    v_star /= np.linalg.norm(v_star)
    X = rng.standard_normal((n, d)) * 10.0 ** rng.integers(-3, 4, (n, d))
    rest = (X[:, 1:] * v_star[1:]).sum(axis=1)
    X[:, 0] = -rest / v_star[0] * (1 + rng.integers(-4, 5, n) * 2.0**-52)
    beta = rng.standard_normal((2, d))
    z_ref, opt_ref = reference.indices(X, beta, v_star)
    if d <= PAIRWISE_MAX:
        z, opt = np.empty((n, 2)), np.empty(n, dtype=np.int8)
        index_pass(X, beta, v_star, z, opt)
        assert _same(z, z_ref)
        assert _same(opt, opt_ref)
        # column-major contexts take the scalar rows for every row (the lanes need unit-stride
        # rows, and n = 4000 leaves no remainder row for the scalar path otherwise)
        z, opt = np.empty((n, 2)), np.empty(n, dtype=np.int8)
        index_pass(np.asfortranarray(X), beta, v_star, z, opt)
        assert _same(z, z_ref)
        assert _same(opt, opt_ref)  # the scalar rows' own pairwise sum (_optimal_action)
    else:
        opt = Environment.build(LOGISTIC, "0.5", d, v_star=v_star).optimal_actions(X)
    assert _same(opt, opt_ref)
    if d >= 8:  # the test can tell a fold from the pairwise sum
        fold = np.zeros(n)
        for k in range(d):
            fold += X[:, k] * v_star[k]
        assert np.mean(np.where(fold >= 0, 1, -1) != opt_ref) > 0.02


@pytest.mark.parametrize("d", [2, 3, 8, 16])
@pytest.mark.parametrize("order", ["C", "F"])
def test_a_context_on_the_boundary_plays_plus_one(d, order):
    """sgn(0) = +1 (eq:model's a*(x) = sgn(v*ᵀx)): contexts with v*ᵀx exactly 0 — rows of
    zeros, and rows orthogonal to v* — have optimal action +1 in both backends, in the lane
    rows (C order) and the scalar rows (Fortran order), below and from eight coordinates."""
    rng = np.random.default_rng(d)
    v_star = np.eye(d)[0]
    X = rng.standard_normal((64, d))
    X[:, 0] = 0.0  # v*ᵀx = 0 exactly
    X[::2] = 0.0  # and whole rows of zeros
    beta = rng.standard_normal((2, d))
    _, opt_ref = reference.indices(X, beta, v_star)
    z, opt = np.empty((64, 2)), np.empty(64, dtype=np.int8)
    index_pass(np.asarray(X, order=order), beta, v_star, z, opt)
    assert (opt_ref == 1).all() and (opt == 1).all()


def test_degenerate_initialization_pinned():
    """Zero rewards in Stage I (ΣW = 0): both backends fall back to e1 and count it."""
    X = np.random.default_rng(3).standard_normal((9, 40, 3))
    Y = np.zeros((9, 40, 2))
    Y[4:] = np.random.default_rng(4).random((5, 40, 2)) < 0.5
    coins = np.where(np.random.default_rng(5).random((9, 6)) < 0.5, -1, 1).astype(np.int8)
    v_star = np.array([1.0, 0.0, 0.0])
    got = engine.nbl(X, Y, coins, v_star)
    ref = engine.nbl(X, Y, coins, v_star, backend="reference")
    _assert_nbl_pinned(got, ref)
    assert got.info["degenerate_init"] == 4


@pytest.mark.parametrize(
    "d,intercept,n0", [(2, True, 20), (2, False, 0), (8, True, 15), (3, True, 90)]
)
def test_greedy_logistic_pinned(d, intercept, n0):
    """Greedy Logistic: actions, final fits and every count (Newton iterations, line-search
    halvings and objective evaluations included) are the same in both backends."""
    env = Environment.build(TT, "0.5", d)
    real = env.draw(11, range(4), 90, n0)
    got_a, got = engine.greedy_logistic(real.X, real.Y, real.coins, intercept=intercept)
    ref_a, ref = engine.greedy_logistic(
        real.X, real.Y, real.coins, intercept=intercept, backend="reference"
    )
    assert _same(got_a, ref_a)
    assert got.keys() == ref.keys()
    for key in got:
        assert _same(got[key], ref[key]), key
    if d == 8:  # the line search ran (the path with log1p) and is pinned too
        assert got["objective_evaluations"] > 0 and got["line_search_halvings"] > 0


@pytest.mark.parametrize("ridge", [1e-300, 1e-12])
def test_greedy_logistic_pinned_where_every_counter_moves(ridge):
    """The default tier's cheap member of test_greedy_logistic_pinned (its larger cases run
    with ``-m slow``), on a run small enough for the reference's Python loop (2 × 40 rounds, d =
    2) that still reaches every counter: no initialization and no intercept, so the first fits
    see no data and tie; collinear contexts (x_1 = x_0), so the Hessian is singular up to the
    ridge — at 1e-300 the Cholesky step fails, at 1e-12 a fit hits max_iter — and line searches
    in both. Actions, fits and every count the same in both backends."""
    env = Environment.build(TT, "0.5", 2)
    real = env.draw(11, range(2), 40, 0)
    X = real.X.copy()
    X[..., 1] = X[..., 0]
    opts = {"intercept": False, "ridge": ridge}
    got_a, got = engine.greedy_logistic(X, real.Y, real.coins, **opts)
    ref_a, ref = engine.greedy_logistic(X, real.Y, real.coins, backend="reference", **opts)
    assert _same(got_a, ref_a) and got.keys() == ref.keys()
    for key in got:
        assert _same(got[key], ref[key]), key
    # the run reaches what it is here for (else the pin would hold vacuously)
    assert got["ties"] > 0 and got["line_search_halvings"] > 0
    assert got["failures" if ridge == 1e-300 else "max_iter_hits"] > 0


def test_greedy_logistic_pinned_with_a_heavy_ridge():
    """A ridge λ = 3 weighs in the penalized objective the line search compares (the penalty
    term ½λ‖θ‖² is then far from negligible): actions, fits and counts the same in both
    backends on 2 × 60 rounds in d = 3, with line searches."""
    env = Environment.build(TT, "0.5", 3)
    real = env.draw(5, range(2), 60, 10)
    opts = {"intercept": True, "ridge": 3.0}
    got_a, got = engine.greedy_logistic(real.X, real.Y, real.coins, **opts)
    ref_a, ref = engine.greedy_logistic(real.X, real.Y, real.coins, backend="reference", **opts)
    assert _same(got_a, ref_a) and got.keys() == ref.keys()
    for key in got:
        assert _same(got[key], ref[key]), key
    assert got["objective_evaluations"] > 0


@pytest.mark.parametrize("scale", [1.0, 6.0])
def test_the_standalone_fit_is_the_references_newton(scale):
    """``fit_penalized_logistic`` (its own kernel, with its own bound zmax = max_i ‖z_i‖ that
    decides when a full Newton step needs no line search) gives the bits of the reference's
    Newton from θ = 0 with zmax computed in plain Python: θ and all five counters. Large
    contexts (scale 6) make the full step unsafe, so the line search runs (checked below: else
    a wrong zmax could pass unseen)."""
    rng = np.random.default_rng(12)
    X = rng.standard_normal((70, 3)) * scale
    y = (rng.random(70) < 1 / (1 + np.exp(-(X @ [1.0, -0.5, 0.25]) - 0.3))).astype(float)
    Z = np.hstack([X, np.ones((70, 1))])
    theta, stats = greedy_kernel._fit_kernel(np.ascontiguousarray(Z), y, 1e-6, 1e-10, 50)
    zmax = max(math.sqrt(sum(float(v) * float(v) for v in row)) for row in Z)
    ref_theta, ref_stats = np.zeros(4), np.zeros(5, dtype=np.int64)
    reference._newton(Z, y, zmax, ref_theta, 1e-6, 1e-10, 50, ref_stats)
    assert _same(theta, ref_theta) and _same(stats, ref_stats), (stats, ref_stats)
    if scale > 1:
        assert ref_stats[4] > 0  # the line search ran


def test_row_norm_is_the_rows_euclidean_norm():
    """The kernels' ``zmax`` is the largest ‖z_i‖₂ of an arm's rows (it decides when Newton's
    full step needs no line search): each row's norm, summed in the row's order, on rows longer
    than they are many and whose entries all differ, so that a column or another row read in
    place of the row's own entries changes the value."""
    Z = np.ascontiguousarray(np.arange(1.0, 21.0).reshape(4, 5) * [1, -1, 1, -1, 1] / 7)
    for i, row in enumerate(Z):
        s = 0.0
        for v in row:
            s += float(v) * float(v)
        assert greedy_kernel._row_norm(Z, i) == math.sqrt(s)
        assert greedy_kernel._row_norm(Z, i) == pytest.approx(np.linalg.norm(row), rel=4e-16)


@pytest.mark.parametrize("d", [2, 3])
def test_nbl_without_angle_records_pinned(d):
    """record_angle=False: no angle column in either backend (shape (R, 0)), the rest pinned."""
    env = Environment.build(LOGISTIC, "1", d)
    real = env.draw(2, range(3), 120, 10)
    opts = {"record_rounds": np.arange(0, 121, 10), "record_angle": False}
    got = engine.nbl(real.X, real.Y, real.coins, env.v_star, **opts)
    ref = engine.nbl(real.X, real.Y, real.coins, env.v_star, backend="reference", **opts)
    _assert_nbl_pinned(got, ref)
    assert got.angle.shape == ref.angle.shape == (3, 0)


def test_ziggurat_tables_give_numpys_normals():
    """The copied tables draw numpy's own standard normals: 2·10⁶ of them, which visit every
    one of the 256 layers' slow paths and the tail beyond r (counted), bit for bit, and the
    same final state."""
    rng = np.random.Generator(np.random.PCG64(20261128))
    words = state_of(rng.bit_generator)
    got = np.empty((1_000_000, 2))
    fill_normals(words, got)
    want = rng.standard_normal((1_000_000, 2))
    assert _same(got, want) and _same(words, state_of(rng.bit_generator))
    tail = np.abs(want) > ziggurat.ziggurat_nor_r
    assert tail.sum() > 100  # the tail path ran
    edges = ziggurat.wi_double * 2.0**52  # layer i holds |x| < x_i = wi[i]·2⁵²
    layers = np.searchsorted(np.sort(edges[1:]), np.abs(want[~tail]))
    assert np.unique(layers).size >= 250  # (almost) every layer drew


def test_backend_name_checked():
    with pytest.raises(NBLInputError, match="backend must be one of"):
        engine.oracle(np.zeros((1, 2, 2)), np.array([1.0, 0.0]), backend="numpy")


def test_reference_draw_into_buffers():
    """The reference draws into given buffers (as simulate streams blocks) the same arrays."""
    env = Environment.build(TT, "0.5", 3)
    buf = Realization.empty(6, 50, 4, 3)
    into = engine.draw(env, 9, [3, 1, 4], 50, 4, out=buf, backend="reference")
    fresh = engine.draw(env, 9, [3, 1, 4], 50, 4, backend="reference")
    assert np.shares_memory(into.X, buf.X)
    for name in ("X", "means", "Y", "coins", "optimal"):
        assert _same(getattr(into, name), getattr(fresh, name)), name
    with pytest.raises(NBLInputError, match="buffers do not fit"):
        engine.draw(env, 9, range(7), 50, 4, out=buf, backend="reference")
