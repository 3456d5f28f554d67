"""Statistical checks of the simulated process against the theory core (seeded; bounds are
5 standard errors computed from the sample variance, per coordinate)."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from nbl_sim.engine.environment import Environment
from nbl_theory.stability import stability
from tests.sim.strategies import any_links, deltas, dims

N = 60_000  # rounds per check; SE ~ 0.5/sqrt(N) ≈ 2e-3 per coordinate


def _within(samples, target, k=5.0):
    mean = samples.mean(axis=0)
    se = samples.std(axis=0, ddof=1) / np.sqrt(samples.shape[0])
    return np.all(np.abs(mean - target) <= k * se), mean, se


@given(any_links(), deltas, dims, st.integers(0, 10_000))
def test_randomized_stein_contrast_mean(link, delta, d, seed):
    """eq:Wt-conditional-mean-proof: during randomization E[W_t | H] = (Δ μ_g / 2) v*, with μ_g
    from the theory core (float64 tier, error ≤ 1e-12 — negligible against the 5-SE bound)."""
    env = Environment.build(
        link,
        delta,
        d,
        v_star="random",
        theta_dir="random",
        geometry_seed=seed,
        reward="bounded",
        noise=0.5,
    )
    real = env.draw(seed, [0], N, N)
    a = real.coins[0].astype(float)
    y = np.where(real.coins[0] > 0, real.Y[0, :, 1], real.Y[0, :, 0])
    W = (a * y)[:, None] * real.X[0]
    mu_g = float(stability(link, delta).values["mu_g"])
    ok, mean, se = _within(W, env.delta * mu_g / 2 * env.v_star)
    assert ok, (mean, env.delta * mu_g / 2 * env.v_star, se)


@given(any_links(), deltas, dims, st.integers(0, 10_000))
def test_greedy_tangent_increment_mean_is_the_population_field(link, delta, d, seed):
    """lem:conditional_population_field: with A_t = sgn(vᵀX_t) for a fixed v,
    E[G_t | H] = h(v) = (I − vvᵀ)F(v), F from the quadrature of nbl_sim.population.fields (error
    ~1e-10, negligible against the 5-SE bound)."""
    from nbl_sim.engine.geometry import tangent_projection
    from nbl_sim.population.fields import tangent_field

    env = Environment.build(
        link,
        delta,
        d,
        v_star="random",
        theta_dir="random",
        geometry_seed=seed,
        reward="bounded",
        noise=0.5,
    )
    v = np.random.default_rng(seed).standard_normal(d)
    v /= np.linalg.norm(v)
    real = env.draw(seed, [0], N, 0)
    X = real.X[0]
    a = np.where(X @ v >= 0, 1.0, -1.0)
    y = np.where(a > 0, real.Y[0, :, 1], real.Y[0, :, 0])
    G = tangent_projection(v, (a * y)[:, None] * X)
    target = tangent_field(link, env.beta, v)
    ok, mean, se = _within(G, target)
    assert ok, (mean, target, se)
