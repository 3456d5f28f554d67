"""The bandit environment: geometry of app:simulation-setup, common random numbers, reward
models and their errors."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nbl_sim.engine.environment import Environment, Realization, replication_seeds
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.links import Link
from tests.sim.strategies import any_links, bernoulli_links, deltas, dims

TT = make_family("two-transition", mu2="1.244122")


def _reference_draw(env, seed, reps, n, n0):
    """The realization written plainly in numpy (the definition the compiled passes reproduce):
    replication r draws from sub-streams k = 0, 1, 2 of ``SeedSequence(seed).spawn(R)[r]``
    — contexts by ``standard_normal(out=X)``, z = Σ_k X[..., k] β_{a,k} in coordinate order,
    means g(z) (clipped to [0, 1] for Bernoulli), uniforms by ``random(out=Y)`` turned into
    1{U < m} or m + b(2U − 1), coins 1{U ≥ 1/2} − 1{U < 1/2}."""
    seqs = replication_seeds(seed, max(reps) + 1)
    out = {k: [] for k in ("X", "means", "Y", "coins")}
    for r in reps:
        sub = [
            np.random.Generator(
                np.random.PCG64(
                    np.random.SeedSequence(
                        entropy=seqs[r].entropy, spawn_key=tuple(seqs[r].spawn_key) + (k,)
                    )
                )
            )
            for k in range(3)
        ]
        X = np.empty((n, env.d))
        sub[0].standard_normal(out=X)
        z = np.zeros((n, 2))
        for k in range(env.d):
            z += X[:, k, None] * env.beta[:, k]
        m = env.link.g_numpy(z)
        Y = np.empty((n, 2))
        sub[1].random(out=Y)
        if env.reward == "bernoulli":
            np.clip(m, 0.0, 1.0, out=m)
            np.less(Y, m, out=Y)
        else:
            Y *= 2.0
            Y -= 1.0
            Y *= env.noise
            Y += m
        coins = np.where(sub[2].random(n0) < 0.5, -1, 1).astype(np.int8)
        for k, v in zip(out, (X, m, Y, coins)):
            out[k].append(v)
    return {k: np.stack(v) for k, v in out.items()}


def _assert_same_as_reference(env, seed, reps, n, n0):
    real = env.draw(seed, reps, n, n0)
    ref = _reference_draw(env, seed, reps, n, n0)
    for k in ("X", "means", "Y", "coins"):
        assert np.array_equal(getattr(real, k), ref[k]), k  # bit for bit
    assert np.array_equal(real.optimal, env.optimal_actions(real.X))
    return real


@given(any_links(), deltas, dims, st.integers(0, 2**31), st.booleans())
def test_draw_is_the_numpy_definition_bit_for_bit(link, delta, d, seed, random_geometry):
    """Contexts, means, rewards, coins and optimal actions of the compiled passes equal the plain
    numpy definition exactly, for expression and potential links (g by bisection), both reward
    models and any geometry."""
    geo = dict(v_star="random", theta_dir="random", geometry_seed=seed) if random_geometry else {}
    env = Environment.build(link, delta, d, reward="bounded", noise=0.5, **geo)
    _assert_same_as_reference(env, seed, [3, 0], 700, 25)


@pytest.mark.parametrize("d", [2, 8, 9, 17])
def test_draw_is_the_numpy_definition_in_the_papers_settings(d):
    """Bernoulli rewards (the paper's), default and random geometry, d up to 17 (the optimal
    action's v*ᵀx is summed in numpy's pairwise order: sequential below 8 terms, 8 partial sums
    from 8 on, so d = 8, 9, 17 exercise both)."""
    for geo in ({}, dict(v_star="random", theta_dir="random", geometry_seed=d)):
        _assert_same_as_reference(Environment.build(TT, "0.3", d, **geo), 5, [0, 4, 1], 2000, 40)
    we = make_family("weighted-entropy", rho="0.72")
    _assert_same_as_reference(Environment.build(we, "0.2", d), 1, [2], 1500, 10)


class _HeavyTailedContexts(Environment):
    """A context law other than N(0, I): through the documented hook only."""

    def _draw_contexts(self, rng, X):
        X[...] = rng.standard_t(3.0, size=X.shape)


def test_context_law_hook():
    """Overriding ``_draw_contexts`` changes the contexts and nothing else: means are g(βᵀx) of
    those contexts, and the reward and coin streams are untouched."""
    base = Environment.build(TT, "0.5", 3)
    env = _HeavyTailedContexts.build(TT, "0.5", 3)
    real, ref = env.draw(2, [0, 1], 500, 20), base.draw(2, [0, 1], 500, 20)
    assert not np.array_equal(real.X, ref.X)
    assert np.abs(real.X).max() > 8  # t(3) tails, essentially impossible for N(0, 1) here
    z = np.zeros(real.X.shape[:2] + (2,))
    for k in range(3):
        z += real.X[..., k, None] * env.beta[:, k]
    assert np.array_equal(real.means, np.clip(TT.g_numpy(z), 0, 1))
    assert np.array_equal(real.coins, ref.coins)
    for i, r in enumerate((0, 1)):  # rewards: 1{U < m} with the reward stream's own uniforms
        u = np.random.Generator(np.random.PCG64(np.random.SeedSequence(2, spawn_key=(r, 1))))
        assert np.array_equal(real.Y[i], (u.random((500, 2)) < real.means[i]).astype(float))
    assert np.array_equal(real.optimal, env.optimal_actions(real.X))


def test_default_context_hook_is_numpys_standard_normal():
    """The compiled default fill gives numpy's normals and leaves the generator in numpy's state
    (1.6e6 normals: ~1.5% take the ziggurat's slow path, 426 lie in its tail |x| > 3.654)."""
    env = Environment.build(TT, "0.5", 8)
    for seed in range(2):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        X, ref = np.empty((100_000, 8)), np.empty((100_000, 8))
        env._draw_contexts(a, X)
        b.standard_normal(out=ref)
        assert np.array_equal(X, ref)
        assert a.bit_generator.state == b.bit_generator.state
        assert a.random() == b.random()


@pytest.mark.parametrize("n", [1, 100, 511, 512, 513, 5000])
def test_context_fill_is_numpys_on_both_sides_of_the_compiled_threshold(n):
    """Small fills use numpy's own loop (cheaper than passing the generator to numba), large
    ones the compiled loop; the draws and the generator state are numpy's either way."""
    env = Environment.build(TT, "0.5", 2)
    a, b = np.random.default_rng(n), np.random.default_rng(n)
    X, ref = np.empty((n, 2)), np.empty((n, 2))
    env._draw_contexts(a, X)
    b.standard_normal(out=ref)
    assert np.array_equal(X, ref) and a.bit_generator.state == b.bit_generator.state


@pytest.mark.parametrize("d", [2, 5])
def test_numpy_fill_fallback_gives_the_same_draws(monkeypatch, d):
    """If the once-per-process check of the compiled PCG64 stream ever failed, contexts come
    from numpy's own fills: the realization is the same."""
    import nbl_sim.engine.pcg64 as pcg64

    env = Environment.build(TT, "0.5", d)
    reps = [0, 2, 3, 4, 5, 6, 7, 8, 9]
    first = env.draw(4, reps, 3000, 10)
    monkeypatch.setattr(pcg64, "_AGREES", [False])
    other = env.draw(4, reps, 3000, 10)
    for k in ("X", "means", "Y", "coins", "optimal"):
        assert np.array_equal(getattr(first, k), getattr(other, k))


def test_optimal_action_uses_numpys_summation_order():
    """Contexts built so that summing v*ᵀx sequentially and in numpy's pairwise order give
    different signs: the realization's a*(x) follows numpy (``optimal_actions``)."""

    class Adversarial(Environment):
        def _draw_contexts(self, rng, X):  # ±M ~ 1e17 cancel; rounding decides the sign
            n, d = X.shape
            rng.standard_normal(out=X)
            rows, i = np.arange(n), rng.integers(0, d, n)
            M = 1e17 * np.exp(rng.uniform(0, 3, n))
            X[rows, i] = M
            X[rows, (i + rng.integers(1, d, n)) % d] = -M

    for d in (3, 8, 9, 12, 20, 130):  # 130: past the compiled pairwise sum (numpy sums)
        env = Adversarial.build(TT, "0.5", d, v_star=np.ones(d), reward="bounded")
        real = env.draw(0, [0], 20_000, 0)
        P = real.X[0] * env.v_star
        seq = np.zeros(P.shape[0])
        for k in range(d):
            seq += P[:, k]
        differ = (seq >= 0) != (P.sum(axis=1) >= 0)
        assert d < 8 or differ.sum() > 1000  # the orders differ from 8 terms on: detectable
        assert np.array_equal(real.optimal, env.optimal_actions(real.X))


def test_draw_into_buffers():
    """``out=`` buffers: the returned arrays are views of their first rows, equal to a fresh
    draw; buffers that do not fit are refused."""
    env = Environment.build(TT, "0.5", 3)
    buf = Realization.empty(5, 300, 20, 3)
    real = env.draw(7, [4, 1], 300, 20, out=buf)
    assert real.X.base is buf.X and real.X.shape == (2, 300, 3)
    fresh = env.draw(7, [4, 1], 300, 20)
    for k in ("X", "means", "Y", "coins", "optimal"):
        assert np.array_equal(getattr(real, k), getattr(fresh, k))
    with pytest.raises(NBLInputError, match="do not fit"):
        env.draw(7, range(6), 300, 20, out=buf)
    with pytest.raises(NBLInputError, match="do not fit"):
        env.draw(7, [0], 301, 20, out=buf)


@given(deltas, dims)
def test_arm_geometry(delta, d):
    """β_a = θ + a(Δ/2)v*, θ ⊥ v*, ‖θ‖² = 1 − Δ²/4: ‖β_a‖ = 1, β_+ − β_− = Δ v*."""
    env = Environment.build(TT, delta, d, v_star="random", theta_dir="random", geometry_seed=3)
    D = float(delta)
    assert abs(env.theta @ env.v_star) < 1e-15
    assert env.theta @ env.theta == pytest.approx(1 - D * D / 4, rel=1e-14)
    assert np.linalg.norm(env.beta, axis=1) == pytest.approx([1, 1], rel=1e-14)
    assert env.beta[1] - env.beta[0] == pytest.approx(D * env.v_star, abs=1e-15)


def test_default_geometry_is_the_papers_rotation():
    env = Environment.build(TT, "0.2")
    assert env.v_star.tolist() == [1.0, 0.0]
    assert env.theta[0] == 0.0 and env.theta[1] == pytest.approx(np.sqrt(0.99), rel=1e-15)
    v0 = env.initial_direction(10.0)
    assert v0 == pytest.approx([np.cos(np.radians(10)), np.sin(np.radians(10))], abs=1e-16)


@pytest.mark.parametrize("theta_sign", [1.0, -1.0])
def test_the_initial_direction_in_d2_is_at_the_signed_angle_the_runs_record(theta_sign):
    """In d = 2 the start v0 at angle alpha is v* turned counterclockwise by alpha — the sign
    convention of the recorded angles (geometry.signed_angle, app:stochastic-nbl) — whichever
    side of v* theta lies on (with theta clockwise of v*, "toward theta" would be the other
    way)."""
    from nbl_sim.engine.geometry import signed_angle

    rng = np.random.default_rng(3)
    for _ in range(5):
        v = rng.standard_normal(2)
        v /= np.linalg.norm(v)
        ccw = np.array([-v[1], v[0]])
        env = Environment.build(TT, "0.5", 2, v_star=v, theta_dir=theta_sign * ccw)
        for alpha in (-120.0, -10.0, 25.0, 170.0):
            got = float(signed_angle(env.v_star, env.initial_direction(alpha)))
            assert got == pytest.approx(np.radians(alpha), abs=1e-12)


def test_replication_streams_do_not_depend_on_batch():
    env = Environment.build(TT, "0.5", 3)
    whole = env.draw(7, range(6), 300, 20)
    for reps in ([4], [5, 1], [2, 3, 0]):
        part = env.draw(7, reps, 300, 20)
        for j, r in enumerate(reps):
            for k in ("X", "means", "Y", "coins"):
                assert np.array_equal(getattr(part, k)[j], getattr(whole, k)[r])


@pytest.mark.parametrize(
    "kw",
    [
        dict(),
        dict(reward="bounded", noise=0.3),
        dict(d=9),
        dict(arms="intercept=0.3"),
        dict(contexts="student-t:nu=5"),
    ],
)
def test_a_batch_draws_what_each_replication_draws_alone(kw):
    """Every array of a batch of 19 equals that replication drawn alone — Bernoulli and bounded
    rewards, d = 9, per-arm links (optimal actions from the means), another context law."""
    env = Environment.build(TT, "0.5", kw.pop("d", 3), **kw)
    whole = env.draw(11, range(19), 250, 7)
    for r in (0, 7, 8, 15, 16, 18):
        one = env.draw(11, [r], 250, 7)
        for k in ("X", "means", "Y", "coins", "optimal"):
            assert np.array_equal(getattr(one, k)[0], getattr(whole, k)[r])


def test_a_failed_check_raises_the_first_failing_replications_error():
    """A realized mean outside [0, 1] in replications 3 and 5 of 9 (the means of the others
    fine): the error of replication 3, as when it is drawn without 5."""
    env = Environment.build(TT, "0.5", 3)
    calls = []

    def means(z):
        g = Environment._means(env, z)
        calls.append(1)
        if len(calls) in (4, 6):  # replications 3 and 5 of a batch (or 3 drawn alone)
            g[5, 1] = 1.5 + len(calls)
        return g

    object.__setattr__(env, "_means", means)
    with pytest.raises(NBLInputError, match=r"Bernoulli mean left \[0, 1\]: .* = 5.5;") as batch:
        env.draw(0, range(9), 100, 0)
    calls.clear()
    with pytest.raises(NBLInputError, match="= 5.5;") as alone:
        env.draw(0, [0, 1, 2, 3], 100, 0)
    assert str(batch.value) == str(alone.value)


def test_horizon_prefix_is_stable():
    """The first n rounds are the same whatever the horizon (separate sub-streams)."""
    env = Environment.build(TT, "0.5")
    short, long = env.draw(1, [0, 1], 100, 10), env.draw(1, [0, 1], 250, 10)
    assert np.array_equal(short.X, long.X[:, :100]) and np.array_equal(short.Y, long.Y[:, :100])


@given(bernoulli_links(), deltas)
def test_bernoulli_rewards_have_the_link_as_mean(link, delta):
    """Y ∈ {0, 1}, means = g(β_aᵀx); the sample mean of Y − m is within 5 SE of 0."""
    env = Environment.build(link, delta, 2)
    real = env.draw(11, [0], 20_000, 0)
    z = real.X[0] @ env.beta.T
    assert np.allclose(real.means[0], link.g_numpy(z), rtol=0, atol=1e-15)
    assert set(np.unique(real.Y)) <= {0.0, 1.0}
    resid = (real.Y - real.means)[0].ravel()
    assert abs(resid.mean()) <= 5 * resid.std() / np.sqrt(resid.size)


def test_bounded_noise_rewards():
    env = Environment.build(make_family("identity"), "1", 2, reward="bounded", noise=0.3)
    real = env.draw(0, [0, 1], 5000, 0)
    noise = real.Y - real.means
    assert np.all(np.abs(noise) <= 0.3) and abs(noise.mean()) < 5 * 0.3 / np.sqrt(3 * noise.size)


def test_coins_are_fair_signs():
    c = Environment.build(TT, "1").draw(0, [0], 10, 40_000).coins
    assert set(np.unique(c)) == {-1, 1} and abs(c.mean()) < 5 / np.sqrt(c.size)


@pytest.mark.parametrize(
    "link, fragment",
    [
        (make_family("identity"), "Bernoulli rewards need 0 <= g <= 1"),
        (make_family("negative-entropy"), "Bernoulli rewards need 0 <= g <= 1"),
        (Link.from_expression("1.2/(1+exp(-z))"), "Bernoulli rewards need 0 <= g <= 1"),
    ],
)
def test_bernoulli_needs_a_probability_link(link, fragment):
    with pytest.raises(NBLInputError, match=fragment):
        Environment.build(link, "1")


def test_realized_mean_outside_unit_interval_is_caught():
    """Even if the up-front range probe passed, a realized mean outside [0, 1] raises."""
    env = Environment.build(Link.from_expression("1.2/(1+exp(-z))"), "1", reward="bounded")
    object.__setattr__(env, "reward", "bernoulli")
    with pytest.raises(NBLInputError, match="Bernoulli mean left"):
        env.draw(0, [0], 1000, 0)


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"delta": "2"}, "open interval"),
        ({"delta": float("nan")}, "finite"),
        ({"delta": "0.5", "d": 1}, "d must be an integer >= 2"),
        ({"delta": "0.5", "reward": "gauss"}, "reward must be one of"),
        ({"delta": "0.5", "v_star": [1, 0, 0]}, r"shape \(2,\)"),
        ({"delta": "0.5", "v_star": [0, 0]}, "non-zero"),
        ({"delta": "0.5", "v_star": [1, 0], "theta_dir": [2, 0]}, "parallel"),
        ({"delta": "0.5", "noise": float("inf"), "reward": "bounded"}, "noise"),
    ],
)
def test_bad_input(kwargs, fragment):
    with pytest.raises(NBLInputError, match=fragment):
        Environment.build(TT, **kwargs)


def test_bad_seed():
    with pytest.raises(NBLInputError, match="seed"):
        replication_seeds(-1, 3)
    for bad in (-1, 1.5, True):  # the geometry seed too (it was numpy's ValueError)
        with pytest.raises(NBLInputError, match="seed"):
            Environment.build(TT, "1", 3, v_star="random", geometry_seed=bad)


# ------------------------------------------------------------------ beyond the paper (issue 18)
def _ctx_stream(seed, r):
    """The context sub-stream (k = 0) of replication r."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(r, 0))))


@pytest.mark.parametrize("d", [2, 3])
def test_paper_contexts_and_arms_given_explicitly_are_the_default_bit_for_bit(d):
    """contexts="gaussian" and arms="symmetric" (or the ArmModel of symmetric_arms) draw exactly
    the default realization: contexts, means, rewards, coins, optimal actions; the environment's
    description gains only the keys that say so."""
    from nbl_sim.beyond.arms import symmetric_arms

    base = Environment.build(TT, "0.3", d)
    ref = base.draw(3, [0, 4], 900, 30)
    for kw in (
        dict(contexts="gaussian"),
        dict(arms="symmetric"),
        dict(contexts="gaussian", arms=symmetric_arms(TT, "0.3", d)),
    ):
        env = Environment.build(TT, "0.3", d, **kw)
        real = env.draw(3, [0, 4], 900, 30)
        for k in ("X", "means", "Y", "coins", "optimal"):
            assert np.array_equal(getattr(real, k), getattr(ref, k)), (kw, k)
        assert np.array_equal(env.beta, base.beta) and np.array_equal(env.v_star, base.v_star)
    assert "contexts" not in Environment.build(TT, "0.3", d, contexts="gaussian").describe()


@pytest.mark.parametrize(
    "spec", ["student-t:nu=3", "ball", "cube", "rademacher", "gaussian:cond=10,angle=30"]
)
def test_context_law_draws_from_each_replications_context_stream(spec):
    """Contexts are the law's fill of replication r's own context stream (any batch), means are
    g(βᵀx) of them, and the reward and coin streams are those of the paper's law (common
    random numbers across laws and policies)."""
    from nbl_sim.beyond.contexts import parse_context_spec

    env = Environment.build(TT, "0.5", 2, contexts=spec)
    law = parse_context_spec(spec)
    whole = env.draw(2, range(3), 700, 20)
    part = env.draw(2, [2, 0], 700, 20)
    base = Environment.build(TT, "0.5", 2).draw(2, range(3), 700, 20)
    for j, r in enumerate(range(3)):
        assert np.array_equal(whole.X[j], law.sample(_ctx_stream(2, r), 700))
    for k in ("X", "means", "Y", "coins", "optimal"):
        assert np.array_equal(getattr(part, k)[0], getattr(whole, k)[2])
    z = np.zeros(whole.X.shape[:2] + (2,))
    for k in range(2):
        z += whole.X[..., k, None] * env.beta[:, k]
    assert np.array_equal(whole.means, np.clip(TT.g_numpy(z), 0, 1))
    assert np.array_equal(whole.coins, base.coins)
    for j, r in enumerate(range(3)):  # rewards: 1{U < m} with the reward stream's own uniforms
        u = np.random.Generator(np.random.PCG64(np.random.SeedSequence(2, spawn_key=(r, 1))))
        assert np.array_equal(whole.Y[j], (u.random((700, 2)) < whole.means[j]).astype(float))
    assert np.array_equal(whole.optimal, env.optimal_actions(whole.X))
    assert env.describe()["contexts"]["spec"] == spec


@pytest.mark.parametrize("spec", ["student-t:nu=4", "ball", "gaussian:cond=3,angle=90"])
def test_context_law_horizon_prefix_is_stable(spec):
    """The first n rounds do not depend on the horizon, also for laws that make several draws
    per call (Student-t, ball: fixed blocks of rows, nbl_sim.beyond.contexts.BLOCK_ROWS), past a
    block boundary."""
    env = Environment.build(TT, "0.5", contexts=spec)
    short, long = env.draw(1, [0], 5000, 10), env.draw(1, [0], 9000, 10)
    assert np.array_equal(short.X, long.X[:, :5000]) and np.array_equal(short.Y, long.Y[:, :5000])


def test_gaussian_covariance_transforms_the_default_normals():
    """N(0, Σ): the contexts are A = Σ^{1/2} applied row by row to the default normals, with
    each coordinate summed in the order k = 0, 1, 2 (so the rows do not depend on n)."""
    from nbl_sim.beyond.contexts import GaussianLaw

    cov = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]])
    law = GaussianLaw(3, cov)
    env = Environment.build(TT, "0.5", 3, contexts=law)
    y = Environment.build(TT, "0.5", 3).draw(8, [1], 400, 5).X[0]
    a = law.transform
    expect = np.stack(
        [(y[:, 0] * a[i, 0] + y[:, 1] * a[i, 1]) + y[:, 2] * a[i, 2] for i in range(3)], axis=1
    )
    assert np.array_equal(env.draw(8, [1], 400, 5).X[0], expect)
    # A is Σ^{1/2} (eigh-based square root: a few ulps of the largest entry, 2)
    np.testing.assert_allclose(a @ a.T, cov, rtol=0, atol=1e-14)


def test_empirical_law_resamples_rows_with_replacement(tmp_path):
    """Every context is a row of the data (resampled with replacement: some rows repeat, the
    draws cover the data), and the rows are drawn uniformly (each of 12 rows within 5 SE of its
    expected count 60000/12)."""
    from nbl_sim.beyond.contexts import EmpiricalLaw

    data = np.random.default_rng(0).standard_normal((12, 2))
    env = Environment.build(TT, "0.5", contexts=EmpiricalLaw(data, name="twelve"))
    X = env.draw(0, [0], 60_000, 10).X[0]
    idx = np.array([int(np.flatnonzero((data == x).all(axis=1))[0]) for x in X[:2000]])
    assert len(set(idx.tolist())) == 12
    counts = np.array([(X == row).all(axis=1).sum() for row in data])
    assert counts.sum() == 60_000
    p = 1 / 12
    assert np.all(np.abs(counts - 60_000 * p) <= 5 * np.sqrt(60_000 * p * (1 - p)))


@pytest.mark.parametrize("spec", ["shift=0.2", "shift=-0.1,rotate=30"])
def test_asymmetric_arms_with_a_shared_link(spec):
    """β_± = θ + (Δ/2 ± c)v*: the environment takes the arms' index vectors, v* = (β_+ −
    β_−)/‖·‖, θ ⊥ v*; with one increasing link the optimal action is sgn(v*ᵀx) = argmax_a m_a."""
    from nbl_sim.beyond.arms import parse_arms_spec

    model = parse_arms_spec(spec, TT, "0.4")
    env = Environment.build(TT, "0.4", arms=spec)
    assert np.array_equal(env.beta, model.beta)
    np.testing.assert_allclose(env.v_star, model.v_star, rtol=0, atol=1e-15)
    assert abs(env.theta @ env.v_star) <= 1e-15
    real = env.draw(6, [0, 1], 3000, 10)
    m = real.means
    strict = m[..., 1] != m[..., 0]  # ties (rounding) carry no regret either way
    assert np.array_equal(real.optimal[strict], np.where(m[..., 1] > m[..., 0], 1, -1)[strict])
    assert env.describe()["arms"]["arms"] == "shifted"


def test_per_arm_links_optimal_action_is_the_argmax_of_the_means():
    """Intercept arms (g_+(z) = g(z + c)): means are g_−(β_−ᵀx), g(β_+ᵀx + c); the optimal
    action is argmax_a m_a (not sgn(v*ᵀx): the boundary Δv*ᵀx = −c is off the origin), and
    optimal_actions agrees with the draw."""
    c = 0.25
    env = Environment.build(TT, "0.2", arms=f"intercept={c}")
    real = env.draw(3, [0, 2], 4000, 10)
    z = np.zeros(real.X.shape[:2] + (2,))
    for k in range(2):
        z += real.X[..., k, None] * env.beta[:, k]
    assert np.array_equal(real.means[..., 0], np.clip(TT.g_numpy(z[..., 0]), 0, 1))
    assert np.array_equal(real.means[..., 1], np.clip(TT.g_numpy(z[..., 1] + c), 0, 1))
    want = np.where(real.means[..., 1] >= real.means[..., 0], 1, -1)
    assert np.array_equal(real.optimal, want)
    assert np.array_equal(real.optimal, env.optimal_actions(real.X))
    lin = np.where(real.X @ env.v_star >= 0, 1, -1)
    assert np.mean(lin != real.optimal) > 0.05  # here the linear rule through 0 is often wrong
    # the optimal boundary: arm +1 wins iff Δ v*ᵀx > −c (TT strictly increasing), up to ties
    # arm +1 wins iff Δ v*ᵀx > −c (TT is strictly increasing); the product Δ·v*ᵀx rounds
    # differently from the difference of the two indices, so allow disagreement at ties only
    lin_c = 0.2 * (real.X @ env.v_star) + c > 0
    assert np.mean((real.optimal == 1) != lin_c) <= 1e-3


def test_beyond_bad_input():
    from nbl_sim.beyond.arms import arms_with_links
    from nbl_sim.beyond.contexts import BallLaw
    from nbl_sim.beyond.linkeval import MixtureLink

    with pytest.raises(NBLInputError, match="fixes the geometry"):
        Environment.build(TT, "0.5", arms="shift=0.1", v_star=[1, 0])
    with pytest.raises(NBLInputError, match="d = 3"):
        Environment.build(TT, "0.5", 2, contexts=BallLaw(3))
    with pytest.raises(NBLInputError, match="ContextLaw"):
        Environment.build(TT, "0.5", contexts=42)
    with pytest.raises(NBLInputError, match="ArmModel"):
        Environment.build(TT, "0.5", arms=42)
    with pytest.raises(NBLInputError, match="unknown context law"):
        Environment.build(TT, "0.5", contexts="laplace")
    ident = Link.from_expression("z")
    mixed = arms_with_links(np.array([[0.0, 1.0], [1.0, 0.0]]), TT, MixtureLink(TT, ident, 0.5))
    with pytest.raises(NBLInputError, match="Bernoulli rewards need"):
        Environment.build(TT, "0.5", arms=mixed)
    env = Environment.build(TT, "0.5", arms=mixed, reward="bounded")
    assert not env.shared_link and env.links[1].name.startswith("(1-0.5)")


def test_potential_link_means_drawn_as_lanes_are_those_drawn_one_by_one():
    """A potential link's means of a lane group come from one bisection per bracket
    (Link.g_numpy_rows): every array of a batch of 19 equals that replication drawn alone."""
    env = Environment.build(make_family("weighted-entropy", rho="0.72"), "0.5", 3)
    whole = env.draw(13, range(19), 160, 5)
    for r in (0, 3, 8, 15, 18):
        one = env.draw(13, [r], 160, 5)
        for k in ("X", "means", "Y", "coins", "optimal"):
            assert np.array_equal(getattr(one, k)[0], getattr(whole, k)[r])


@pytest.mark.parametrize("kw", [dict(), dict(arms="intercept=0.3", reward="bounded")])
def test_the_default_contexts_draw_a_block_without_numpys_generators(monkeypatch, kw):
    """With the default Gaussian contexts a block is drawn by the compiled passes, its streams
    seeded compiled: no numpy Generator is built (their construction holds the GIL, which the
    blocks of a threaded run share), and the arrays are those of numpy's generators (the path
    taken when the compiled stream does not agree with numpy)."""
    from nbl_sim.engine import environment, pcg64, realization

    env = Environment.build(TT, "0.5", 3, **kw)
    built = []

    def counted(seed, r, coins=True):
        built.append(r)
        return realization.streams_of(seed, r, coins)

    monkeypatch.setattr(environment, "streams_of", counted)
    got = env.draw(5, range(4, 13), 300, 20)
    assert built == []
    monkeypatch.setattr(pcg64, "_AGREES", [False])
    want = env.draw(5, range(4, 13), 300, 20)
    assert len(built) == 9  # numpy's generators, one replication at a time
    for name in ("X", "means", "Y", "coins", "optimal"):
        assert np.array_equal(getattr(got, name), getattr(want, name)), name


def test_a_replication_index_past_64_bits_is_drawn_by_numpys_generators():
    """Spawn keys of three 32-bit words are past the compiled seeding (uint64): such a block
    takes numpy's generators, and a replication's arrays do not depend on which path drew them."""
    env = Environment.build(TT, "0.5", 2)
    big = env.draw(3, [2**64 + 5, 7], 200, 10)
    small = env.draw(3, [7], 200, 10)
    for name in ("X", "means", "Y", "coins", "optimal"):
        assert np.array_equal(getattr(big, name)[1], getattr(small, name)[0]), name
    want = np.random.Generator(np.random.PCG64(np.random.SeedSequence(3, spawn_key=(2**64 + 5, 0))))
    assert np.array_equal(big.X[0], want.standard_normal((200, 2)))


def test_a_subclass_overriding_a_step_of_the_draw_is_drawn_by_its_own_methods():
    """The block passes do the contexts, indices and optimal actions in compiled code; a
    subclass that overrides one of those steps (here the optimal actions, all +1) is drawn one
    replication at a time through its own method."""

    class AlwaysPlus(Environment):
        def _indices(self, X, optimal, z):
            Environment._indices(self, X, optimal, z)
            optimal[...] = 1

    plain = Environment.build(TT, "0.5", 2)
    env = AlwaysPlus.build(TT, "0.5", 2)
    got, want = env.draw(2, range(3), 100, 5), plain.draw(2, range(3), 100, 5)
    assert np.all(got.optimal == 1) and not np.all(want.optimal == 1)
    for name in ("X", "means", "Y", "coins"):
        assert np.array_equal(getattr(got, name), getattr(want, name)), name


@pytest.mark.parametrize("excess, accepted", [("1e-13", True), ("1e-11", False)])
def test_bernoulli_links_may_pass_one_by_rounding_only(excess, accepted):
    """The Bernoulli range check allows g to leave [0, 1] by ROUNDING = 1e-12 (float rounding
    of a mean that is 1 in exact arithmetic), no more: g = (1 + 1e-13) sigmoid(z) is accepted
    and draws, g = (1 + 1e-11) sigmoid(z) is refused, naming the range."""
    from nbl_sim.engine.environment import ROUNDING

    assert ROUNDING == 1e-12
    link = Link.from_expression(f"(1 + {excess})*sigmoid(z)")
    if accepted:
        env = Environment.build(link, "1", 2)
        assert env.draw(3, range(2), 50, 4).Y.shape == (2, 50, 2)
    else:
        with pytest.raises(NBLInputError, match="Bernoulli rewards need 0 <= g <= 1"):
            Environment.build(link, "1", 2)


def test_the_bounded_noise_default_is_the_one_the_command_states():
    """One default per parameter (issue 37): ``Environment.build(..., reward="bounded")``
    without ``noise`` uses ``DEFAULT_NOISE``, and ``nbl simulate --help`` states that number
    for ``--noise`` (the command passes none when the user gives none) — a library default
    moved without its help text would mislead the reader."""
    import re

    from nbl_sim.engine.environment import DEFAULT_NOISE
    from proofs_check.cli import _subparsers, build_parser

    env = Environment.build(Link.from_expression("z"), "1", 2, reward="bounded")
    assert env.noise == DEFAULT_NOISE
    sim = _subparsers(build_parser())["simulate"]
    (noise,) = [a for a in sim._actions if "--noise" in a.option_strings]
    stated = float(re.search(r"\(default ([0-9.e+-]+)\)", noise.help).group(1))
    assert stated == env.noise
