"""What a user would write instead of ``nbl simulate``: NBL (alg:nbl) on the paper's bandit
(app:simulation-setup) as one plain numpy script, vectorized over replications with a loop over
rounds — the baseline of issue 37's target "the whole ``nbl simulate`` command (wall, default
sizes) faster than that loop as a script" (``bench_startup.py``, row ``numpy-script``).

The same work as ``nbl simulate --family logistic --delta 1`` at its defaults: d = 2 (``--d``:
any d ≥ 2, the paper's geometry in the first two coordinates), v* = e1,
θ = s(Δ) e2 with s(Δ) = √(1 − Δ²/4), arms β_± = θ ± (Δ/2) v*, contexts N(0, I), Bernoulli(g)
rewards with the logistic g, 100 replications × 10⁴ rounds, Stage I of n0 = 200 fair coins,
then A_t = sgn(vᵀx) (sgn 0 = +1), W = A Y_A x, G = W − (vᵀW) v, v ← (v + ηG)/‖v + ηG‖ with
η_t = γ/(t + t0), γ = 10, t0 = 500; the regret R_t of eq:regret, ‖v_t − v*‖² and the signed
angle recorded every 20 rounds (~500 points, as ``simulate`` keeps; for d > 2 the angle
between v and v*); the final regret printed as mean ± 1.96 SE. :func:`run` is the simulation
itself, for a benchmark that times it in its own process (``bench_simulate_loop.py``). Its
random numbers are not the toolkit's streams (the numbers differ from ``nbl simulate``'s in the
Monte Carlo error only).

Usage::

    python benchmarks/numpy_loop_script.py [--reps R] [--n N] [--delta D] [--d D] [--seed S]
"""

import argparse

import numpy as np


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=100)
    p.add_argument("--n", type=int, default=10_000)
    p.add_argument("--delta", type=float, default=1.0)
    p.add_argument("--d", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    # one line and nothing else for sizes the script cannot run (R·n·d normals held at once)
    if not (
        a.reps >= 2 and a.n >= 4 and 0 < a.delta < 2 and a.d >= 2 and a.reps * a.n * a.d <= 10**8
    ):
        p.error("need reps >= 2, n >= 4, 0 < delta < 2, d >= 2 and reps * n * d <= 1e8")
    m, se, records = run(a.reps, a.n, a.delta, a.d, a.seed)
    print(f"R_n = {m:.2f} +- {1.96 * se:.2f} (n = {a.n}, {a.reps} replications, {records} records)")


def run(R: int, n: int, delta: float, d: int = 2, seed: int = 0) -> tuple:
    """The simulation: (mean final regret, its standard error, number of records)."""
    n0, gamma, t0, every = min(200, n // 2), 10.0, 500.0, 20
    rng = np.random.default_rng(seed)
    v_star = np.zeros(d)
    v_star[0] = 1.0
    theta = np.zeros(d)
    theta[1] = np.sqrt(1 - delta**2 / 4)
    beta = np.stack([theta - delta / 2 * v_star, theta + delta / 2 * v_star])  # arm -1, +1

    def g(z):
        return 1.0 / (1.0 + np.exp(-z))

    X = rng.standard_normal((R, n, d))
    means = g(X @ beta.T)  # (R, n, 2): column 0 = arm -1
    Y = (rng.random((R, n, 2)) < means).astype(float)
    coins = np.where(rng.random((R, n0)) < 0.5, -1, 1)
    best = np.where(X @ v_star >= 0, 1, -1)
    gap = np.abs(means[..., 1] - means[..., 0])

    # Stage I: fair coins, v_{n0} = sum W / ||sum W||
    y0 = np.where(coins > 0, Y[:, :n0, 1], Y[:, :n0, 0])
    S = ((coins * y0)[..., None] * X[:, :n0]).sum(axis=1)
    V = S / np.linalg.norm(S, axis=1, keepdims=True)
    regret = np.where(coins != best[:, :n0], gap[:, :n0], 0.0).sum(axis=1)
    rec_sq, rec_angle = [], []
    for t in range(n0, n):
        x = X[:, t]
        act = np.where((V * x).sum(axis=1) >= 0, 1, -1)
        y = np.where(act > 0, Y[:, t, 1], Y[:, t, 0])
        W = (act * y)[:, None] * x
        G = W - (V * W).sum(axis=1)[:, None] * V
        V = V + gamma / (t + 1 + t0) * G
        V /= np.linalg.norm(V, axis=1, keepdims=True)
        regret += np.where(act != best[:, t], gap[:, t], 0.0)
        if (t + 1) % every == 0:
            rec_sq.append(((V - v_star) ** 2).sum(axis=1))
            side = V[:, 1] if d == 2 else np.linalg.norm(V[:, 1:], axis=1)
            rec_angle.append(np.arctan2(side, V[:, 0]))
    return regret.mean(), regret.std(ddof=1) / np.sqrt(R), len(rec_sq)


if __name__ == "__main__":
    main()
