"""The randomized initialization of alg:nbl simulated directly (app:initialization), its exact
second moments from the Stein identities, and the constants implied by the simulation.

W_t = A_t Y_t X_t with the coins A_t and potential rewards Y[..., (A_t + 1)//2] of
``Environment.draw``; v_{n0} = W̄/‖W̄‖. One draw of n = max(n0) rounds serves every n0 (the
prefix of a replication is exactly what a draw with the smaller n0 gives), so the rows of one
setting are correlated across n0.

In the Gaussian (n0 → ∞) limit √n0(W̄ − y) → N(0, Σ), y = (Δμ_g/2)v*, and Σ is known exactly
from eq:stein_second (E[Y²|X, A=a] = f(β_aᵀX), f = g for Bernoulli rewards, g² + b²/3 for
bounded ones): Σ = E f(Z) I + ½E f''(Z)(β₊β₊ᵀ + β₋β₋ᵀ) − y yᵀ.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from nbl_sim.engine.environment import Environment
from nbl_theory.paper import paper_link

from .gaussian import gaussian_chart_moments, gh_rule_1d
from .geometry import unit_vectors
from .reruns import realization_means_error
from .stats import clopper_pearson_upper, gaussian_limit_quantile, mean_se, quantile_ci

__all__ = [
    "NOISE",
    "InitGrid",
    "InitCell",
    "f_moments",
    "init_setting",
    "init_settings",
    "init_errors",
    "init_cell",
    "grid_cells",
    "load_init_cells",
    "implied_constants",
    "group_rows",
    "shallow_ratio",
    "fitted_exponents",
    "stein_contrast",
    "mse_statistics",
    "tail_directions",
    "fixed_direction_tails",
    "chain_violations",
]

#: Half-width b of the uniform noise of the bounded-reward settings.
NOISE = 0.5


@dataclass(frozen=True)
class InitGrid:
    """A grid of initialization settings.

    ``links`` and ``bounded`` hold (name, link) and (name, link, Δ) triples; the name is the
    label the results carry and the link a :class:`~nbl_theory.links.Link` or a key of
    :func:`nbl_theory.paper.paper_link` (needed to split the grid into cells:
    :func:`grid_cells`). Bernoulli settings use ``seed``, bounded ones ``seed + 1``.
    """

    links: tuple
    deltas: tuple
    dims: tuple
    n0s: tuple
    reps: int
    seed: int
    bounded: tuple = ()


def f_moments(link, reward: str, noise: float) -> tuple:
    """E f(Z), E f''(Z) for f(z) = E[Y² | index z] (Bernoulli: g; bounded: g² + b²/3), by
    240-node Gauss–Hermite (:func:`.gaussian.gh_rule_1d`; ~1e-15 for the paper's links)."""
    z, w = gh_rule_1d()
    g, g1, g2 = (link.derivative_numpy(z, k) for k in (0, 1, 2))
    if reward == "bernoulli":
        return float(w @ g), float(w @ g2)
    return float(w @ (g * g + noise**2 / 3)), float(w @ (2 * (g1 * g1 + g * g2)))


@dataclass(frozen=True)
class InitCell:
    """One setting of an :class:`InitGrid` as plain parameters (a sweep cell: the runner runs
    and caches it as a task, :func:`init_cell`); ``link`` is a key of
    :func:`nbl_theory.paper.paper_link`."""

    link: str
    name: str
    delta: str
    d: int
    n0s: tuple
    reps: int
    seed: int
    reward: str = "bernoulli"


def _link(link):
    return paper_link(link) if isinstance(link, str) else link


def _environment(link, delta: str, d: int, reward: str) -> Environment:
    return Environment.build(
        link,
        delta,
        d,
        v_star="random",
        theta_dir="random",
        geometry_seed=600 + d,
        reward=reward,
        noise=NOISE,
    )


def _draw_wbar(env: Environment, n0s: tuple, reps: int, seed: int) -> dict:
    """({n0: W̄_{n0} (reps, d)}, means error) from one draw of max(n0s) rounds per replication.
    The means error is :func:`~.reruns.realization_means_error` of the draws: the realization is
    common to library and witness, so a bug in drawing it would move both alike; this is its
    check (rounding only, ~1e-16, when drawn right)."""
    n, d = max(n0s), env.d
    wbar = {n0: np.empty((reps, d)) for n0 in n0s}
    err = 0.0
    chunk = max(1, int(4e6 // (n * d)))
    for a in range(0, reps, chunk):
        idx = range(a, min(reps, a + chunk))
        real = env.draw(seed, idx, n, n)
        A = real.coins.astype(np.int64)
        y_obs = np.take_along_axis(real.Y, ((A + 1) // 2)[..., None], axis=2)[..., 0]
        W = (A * y_obs)[..., None] * real.X  # W_t = A_t Y_t X_t
        cs = np.cumsum(W, axis=1)
        for n0 in n0s:
            wbar[n0][a : a + len(idx)] = cs[:, n0 - 1] / n0
        err = max(err, realization_means_error(env.link, env.beta, real.X, real.means))
    return wbar, err


def init_cell(c: InitCell) -> dict:
    """The Monte Carlo part of :func:`init_setting` for one cell: ``{"wbar": {n0: (reps, d)},
    "means_error": float}`` (plain data; top-level, so any executor runs it)."""
    env = _environment(paper_link(c.link), c.delta, c.d, c.reward)
    wbar, err = _draw_wbar(env, tuple(c.n0s), c.reps, c.seed)
    return {"wbar": wbar, "means_error": err}


def _settings_args(grid: InitGrid):
    """The arguments of :func:`init_setting` of every setting of ``grid``, Bernoulli first."""
    for name, link in grid.links:
        for delta in grid.deltas:
            for d in grid.dims:
                yield (link, name, delta, d, grid.n0s, grid.reps, grid.seed, "bernoulli")
    for name, link, delta in grid.bounded:
        for d in grid.dims:
            yield (link, name, delta, d, grid.n0s, grid.reps, grid.seed + 1, "bounded")


def grid_cells(grid: InitGrid) -> tuple:
    """The settings of ``grid`` as :class:`InitCell` s (its links must be paper-link keys)."""
    cells = []
    for args in _settings_args(grid):
        if not isinstance(args[0], str):
            raise TypeError("grid_cells needs the grid's links as paper_link keys")
        cells.append(InitCell(*args))
    return tuple(cells)


#: init_setting's results in this process: computed, or loaded from cells (load_init_cells)
_SETTINGS: dict = {}


def load_init_cells(cells, results) -> None:
    """Make :func:`init_setting` return the settings of ``cells`` from their :func:`init_cell`
    ``results`` (computed elsewhere, e.g. by the claim runner's workers) instead of drawing
    them again; a setting already present is kept (the draws are the same)."""
    for c, res in zip(cells, results):
        key = (_link(c.link), c.name, c.delta, c.d, tuple(c.n0s), c.reps, c.seed, c.reward)
        if key not in _SETTINGS:
            _SETTINGS[key] = _assemble(
                *key,
                wbar={int(k): v for k, v in res["wbar"].items()},
                means_error=res["means_error"],
            )


def init_setting(
    link, name: str, delta: str, d: int, n0s: tuple, reps: int, seed: int, reward: str = "bernoulli"
) -> dict:
    """Randomized-initialization draws W̄_{n0} for every n0 (rows = replications) in the
    environment of ``link`` at Δ with random v*, θ (geometry seed 600 + d).

    Returns
    -------
    dict
        ``env``, ``mu`` (μ_g of the float64 tier), ``B`` (B_Y), ``y`` = (Δμ_g/2)v*, ``wbar``
        {n0: (reps, d)}, ``sigma`` (Σ above), ``ew2_exact`` = n0 E‖W̄ − y‖² = d E f + E f''
        − ‖y‖², ``label``, ``means_error`` (the draws' check, :func:`_draw_wbar`), ``seed``.
    """
    key = (_link(link), name, delta, d, tuple(n0s), reps, seed, reward)
    if key not in _SETTINGS:
        env = _environment(key[0], delta, d, reward)
        wbar, err = _draw_wbar(env, key[4], reps, seed)
        _SETTINGS[key] = _assemble(*key, wbar=wbar, means_error=err, env=env)
    return _SETTINGS[key]


def _assemble(
    link,
    name,
    delta,
    d,
    n0s,
    reps,
    seed,
    reward,
    *,
    wbar: dict,
    means_error: float,
    env: Environment | None = None,
) -> dict:
    """:func:`init_setting`'s result from the draws ``wbar`` (the cheap exact quantities are
    recomputed here)."""
    env = env if env is not None else _environment(link, delta, d, reward)
    mu = gaussian_chart_moments(link, 0.0)[0]  # μ_g = E g'(Z): the own chart quadrature
    if reward == "bernoulli":
        B = 1.0
    else:
        ends = link.g_numpy(np.array([-60.0, 60.0]))
        B = float(np.max(np.abs(ends))) + NOISE
    y = env.delta * mu / 2 * env.v_star
    Ef, Ef2 = f_moments(link, reward, NOISE)
    bm, bp = env.beta
    sigma = Ef * np.eye(d) + 0.5 * Ef2 * (np.outer(bp, bp) + np.outer(bm, bm)) - np.outer(y, y)
    return {
        "env": env,
        "mu": mu,
        "B": B,
        "y": y,
        "wbar": wbar,
        "sigma": sigma,
        "ew2_exact": (d * Ef + Ef2 - y @ y),
        "label": f"{name} {reward} Delta={delta} d={d}",
        "means_error": means_error,
        "seed": seed,
    }


def init_settings(grid: InitGrid):
    """Every setting of ``grid`` (:func:`init_setting`), Bernoulli ones first."""
    for args in _settings_args(grid):
        yield init_setting(*args)


def init_errors(s: dict, n0: int):
    """(v_{n0}, ‖v_{n0} − v*‖, ‖W̄_{n0} − y‖) per replication of the setting ``s``."""
    w = s["wbar"][n0]
    v = w / np.linalg.norm(w, axis=1, keepdims=True)
    return v, np.linalg.norm(v - s["env"].v_star, axis=1), np.linalg.norm(w - s["y"], axis=1)


def stage_one_sq_errors(s: dict, n0: int, k: int) -> np.ndarray:
    """‖v_{n0} − v*‖² of replications 0..k−1 of the setting ``s`` (:func:`init_errors`): what
    the library's Stage I must reproduce on the same draws."""
    return init_errors(s, n0)[1][:k] ** 2


@functools.cache
def implied_constants(grid: InitGrid, deltas: tuple) -> list:
    """The constants of eq:initialization-high-probability and eq:init-vector-concentration-proof
    implied by the simulation, and their Gaussian-limit values, per (setting, δ, n0).

    C = q_{1−δ}(‖v − v*‖) Δμ_g √n0/(B_Y √(d + log(2/δ))) and C_4 = q_{1−δ}(‖W̄ − y‖) √n0/(B_Y
    √(d + log(2/δ))), with the upper ends of 3-SD order-statistic intervals (``C_hi``,
    ``C4_hi``); the limits use :func:`.stats.gaussian_limit_quantile` of Σ (projected on the
    tangent space for C, times 2 since ‖v − v*‖ ≈ 2‖P⊥(W̄ − y)‖/(Δμ_g)).
    """
    out = []
    for s in init_settings(grid):
        env, mu, B, d = s["env"], s["mu"], s["B"], s["env"].d
        P = np.eye(d) - np.outer(env.v_star, env.v_star)
        n0s = sorted(s["wbar"])
        for dl in deltas:
            rate = math.sqrt(d + math.log(2 / dl))
            c_inf = 2 * gaussian_limit_quantile(s["sigma"], 1 - dl, P) / (B * rate)
            c4_inf = gaussian_limit_quantile(s["sigma"], 1 - dl) / (B * rate)
            for n0 in n0s:
                _, e, ew = init_errors(s, n0)
                q, _, qhi = quantile_ci(e, 1 - dl)
                qw, _, qwhi = quantile_ci(ew, 1 - dl)
                scale = math.sqrt(n0) / (B * rate)
                out.append(
                    dict(
                        label=s["label"],
                        n0=n0,
                        delta=dl,
                        C=q * env.delta * mu * scale,
                        C_hi=qhi * env.delta * mu * scale,
                        C_inf=c_inf,
                        C4=qw * scale,
                        C4_hi=qwhi * scale,
                        C4_inf=c4_inf,
                        q=q,
                        qw=qw,
                    )
                )
    return out


def group_rows(rows) -> dict:
    """Rows of :func:`implied_constants` grouped by (setting label, δ), n0 ascending."""
    groups = {}
    for r in rows:
        groups.setdefault((r["label"], r["delta"]), []).append(r)
    return groups


def shallow_ratio(rows) -> float:
    """Largest C(n0_max)/C_inf among the (setting, δ) groups whose fitted exponent of the
    quantile in n0 (log-log least squares) is shallower than −0.45 (0 when there is none)."""
    out = 0.0
    for grp in group_rows(rows).values():
        b = np.polyfit(np.log([r["n0"] for r in grp]), np.log([r["q"] for r in grp]), 1)[0]
        if b > -0.45:
            last = max(grp, key=lambda r: r["n0"])
            out = max(out, last["C"] / last["C_inf"])
    return out


def fitted_exponents(rows, key: str) -> str:
    """Range of the fitted exponents of the quantile ``key`` ('q' or 'qw') in n0 (log-log least
    squares) over the (setting, δ) groups, as '[min, max]'."""
    b = [
        float(np.polyfit(np.log([r["n0"] for r in grp]), np.log([r[key] for r in grp]), 1)[0])
        for grp in group_rows(rows).values()
    ]
    return f"[{min(b):.2f}, {max(b):.2f}]"


def stein_contrast(env: Environment, real, mu_g: float, coef: float = 0.5) -> tuple:
    """The Stein contrast W_t = A_t Y_t X_t over the rounds of the first replication of the draw
    ``real`` (coins A_t, the pulled arm's potential reward) against the target
    coef·Δμ_g v* of eq:Wt-conditional-mean-proof (coef = 1/2 as printed).

    Returns
    -------
    z_max : float
        max over coordinates of |mean(W) − target|/SE.
    se_max : float
        the largest standard error of a coordinate's mean (:func:`.stats.mean_se`).
    """
    c = real.coins[0]
    y = np.where(c > 0, real.Y[0, :, 1], real.Y[0, :, 0])
    W = (c * y)[:, None] * real.X[0]
    target = env.delta * mu_g * coef * env.v_star
    mean, se = mean_se(W, axis=0)
    z = np.abs(mean - target) / se
    return float(z.max()), float(se.max())


def mse_statistics(s: dict, n0: int) -> dict:
    """Monte Carlo of the setting ``s`` at ``n0``: the mean ``m`` and standard error ``se`` of
    ‖v_{n0} − v*‖², and of ‖W̄_{n0} − y‖² its standard error ``se_w``, its exact value
    ``exact`` = (d E f + E f'' − ‖y‖²)/n0 (eq:stein_second) and ``z`` = |mean − exact|/se_w."""
    _, e, ew = init_errors(s, n0)
    m, se = mean_se(e**2)
    mw, se_w = mean_se(ew**2)
    exact = s["ew2_exact"] / n0
    return {"m": m, "se": se, "exact": exact, "se_w": se_w, "z": abs(mw - exact) / se_w}


def tail_directions(env: Environment) -> dict:
    """The fixed directions u of eq:init-fixed-direction-proof's check: v*, θ/‖θ‖ and a uniform
    unit vector drawn with seed 5 + d."""
    rng = np.random.default_rng(5 + env.d)
    th = env.theta / np.linalg.norm(env.theta)
    return {"v*": env.v_star, "theta": th, "random": unit_vectors(rng, env.d)[0]}


def fixed_direction_tails(s: dict, n0: int, directions: dict, ts, c0: float) -> dict:
    """The tails P(|uᵀ(W̄ − y)| > t B_Y/√n0) of the setting ``s`` at ``n0``, per direction u
    and t, against the sub-Gaussian bound 2 exp(−c0 t²) of eq:init-fixed-direction-proof.

    Returns
    -------
    dict
        ``cases``: [(P_upper, bound, log(2/P_upper)/t² or None when P_upper = 1)] per (u, t),
        P_upper a one-sided 99.9% Clopper–Pearson bound (:func:`.stats.clopper_pearson_upper`);
        ``sd``: √n0 sd(uᵀ(W̄ − y))/B_Y per u; ``exact``: √(uᵀΣu)/B_Y per u.
    """
    B = s["B"]
    dev = s["wbar"][n0] - s["y"]
    R = dev.shape[0]
    cases = []
    for u in directions.values():
        proj = np.abs(dev @ u) * math.sqrt(n0) / B
        for t in ts:
            k = int(np.sum(proj > t))
            pu = clopper_pearson_upper(k, R)
            cases.append(
                (pu, 2 * math.exp(-c0 * t * t), math.log(2 / pu) / (t * t) if pu < 1 else None)
            )
    return {
        "cases": cases,
        "sd": [float(np.std(dev @ u)) * math.sqrt(n0) / B for u in directions.values()],
        "exact": [math.sqrt(u @ s["sigma"] @ u) / B for u in directions.values()],
    }


def chain_violations(s: dict, n0: int, factor: float = 2.0, slack: float = 1e-12) -> tuple:
    """(the replications of the setting ``s`` at ``n0`` where ‖v_{n0} − v*‖ > 2·factor·‖W̄ − y‖
    /(Δμ_g) · (1 + ``slack``), the number of replications): the proof's consequence of the
    perturbation inequality (factor 2 as printed)."""
    _, e, ew = init_errors(s, n0)
    bound = 2 * factor * ew / (s["env"].delta * s["mu"])
    return int(np.sum(e > bound * (1 + slack))), e.size
