"""Claims of the stochastic analysis and the regret bound (sec:regret, app:stochastic_analysis,
app:localization, app:stopped-stochastic-control, app:localized-estimation,
app:error-to-regret).

How the statements are checked
------------------------------
* Pathwise statements (eq:pathwise-error-recursion, eq:stopped_one_step_inequality,
  eq:stopped-error-bound, eq:Us-pointwise-bound, eq:QT-gaussian-bound) are checked at *every*
  step of simulated NBL paths. The paths are re-run here in numpy (:func:`_run_paths`) from the
  same realization that ``nbl_sim.policies.nbl.nbl_run`` uses, and the re-run is confirmed to
  reproduce ``nbl_run``'s ‖v_t − v*‖² at every round before anything else is checked.
* The population tangent field h(v) is the quadrature field of :mod:`nbl_sim.population`
  (accurate to ~1e-15). In d = 2 with the paper's rotation (v* = e1, θ ∝ e2),
  h(v(α)) = H(α) v_⊥(α); along long paths H is evaluated through a periodic cubic spline on
  4096 quadrature nodes (its interpolation error, measured against direct quadrature at random
  angles in every check that uses it, is ~1e-13).
* The local stability constants of cor:local_stability are computed, not assumed: for a
  radius r0, λ0(r0) = min over ‖v − v*‖ ≤ r0 of −⟨v − v*, h(v)⟩/‖v − v*‖². In d = 2,
  ⟨v − v*, h(v)⟩ = H(α) sin α and ‖v − v*‖² = 2(1 − cos α), so the ratio is −H(α)cot(α/2)/2
  (→ −H'(0) as α → 0); its minimum is found on a grid and refined (:func:`_lambda0_2d`).
* Monte Carlo checks are seeded and state their standard errors; an inequality of the paper is
  confirmed when the estimate is below the bound within 5 SE (one-sided false alarm ~3e-7).
* Unspecified constants (C_loc, C_sg, C_init, C_e's C'_init, C_gap, C_q, "≲") cannot be
  checked; where the paper's proof pins a constant down (C_Q = 12, C = max{(n0+t0)a_{n0},
  b/(α−1)} of lem:sa-recursion, C_gap for a bounded g') the explicit value is checked, and
  otherwise the scaling and the exact intermediate identities are checked and the detail says
  which constant was *measured* (e.g. the implied C_init).

Rewards are Bernoulli (|Y| ≤ B_Y = 1) unless stated; "bounded" rewards Y = g + U(−b, b) have
B_Y = sup|g| + b.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy.interpolate import CubicSpline
from scipy.optimize import minimize_scalar

from nbl_sim import population as pop
from nbl_sim.environment import Environment
from nbl_sim.policies.nbl import nbl_run
from nbl_theory.families import make_family
from nbl_theory.links import Link
from nbl_theory.paper import PAPER_MU2
from nbl_theory.stability import stability

from ..registry import DISCREPANCY, FAIL, PASS, Outcome, register

__all__: list[str] = []

_K_SE = 5.0                      # one-sided Monte Carlo tolerance (false alarm ~2.9e-7)
_PHI0 = 1.0 / math.sqrt(2.0 * math.pi)
_ROUND = 1e-12                   # absolute rounding allowance of pathwise float64 inequalities


# ============================================================================ shared helpers
@functools.cache
def _link(name: str) -> Link:
    """A link by short name: 'logistic', 'logistic4' (g = 1/(1 + e^{-4z}), a steep logistic
    whose larger mu_g makes the randomized initialization accurate with small n0),
    'tt-stable', 'tt-unstable', 'we-0.6'."""
    if name == "logistic":
        return make_family("logistic")
    if name == "logistic4":
        return Link.from_expression("1/(1 + exp(-4*z))", name="logistic4",
                                    bounded_derivatives=True)
    if name == "tt-stable":
        return make_family("two-transition", mu2=PAPER_MU2["stable"])
    if name == "tt-unstable":
        return make_family("two-transition", mu2=PAPER_MU2["unstable"])
    if name == "we-0.6":
        return make_family("weighted-entropy", rho="0.60")
    raise KeyError(name)


@functools.cache
def _env(name: str, delta: str, d: int = 2, reward: str = "bernoulli",
         geometry_seed: int | None = None) -> Environment:
    """The paper's rotation (v* = e1, θ ∝ e2) when ``geometry_seed`` is None, else random."""
    if geometry_seed is None:
        return Environment.build(_link(name), delta, d, reward=reward)
    return Environment.build(_link(name), delta, d, v_star="random", theta_dir="random",
                             geometry_seed=geometry_seed, reward=reward)


def _b_y(env: Environment) -> float:
    """The reward bound B_Y of assum:bounded_rewards (all links used here map into [0, 1])."""
    return 1.0 if env.reward == "bernoulli" else 1.0 + env.noise


@functools.cache
def _h_spline(name: str, delta: str) -> CubicSpline:
    """Periodic cubic spline of H(α) on 4096 equally spaced angles of [−π, π]."""
    a = np.linspace(-math.pi, math.pi, 4097)
    y = pop.H_alpha(_link(name), delta, a)
    y[-1] = y[0]
    return CubicSpline(a, y, bc_type="periodic")


def _spline_error(name: str, delta: str, seed: int = 0) -> float:
    """max |spline − direct quadrature| of H at 200 random angles."""
    a = np.random.default_rng(seed).uniform(-math.pi, math.pi, 200)
    return float(np.abs(_h_spline(name, delta)(a) - pop.H_alpha(_link(name), delta, a)).max())


def _h_along(env: Environment, name: str, delta: str, V: np.ndarray) -> np.ndarray:
    """h(v) for an array of unit vectors V (..., d): spline of H in the paper's d = 2 rotation,
    direct quadrature otherwise."""
    if env.d == 2 and np.array_equal(env.v_star, np.array([1.0, 0.0])):
        al = np.arctan2(V[..., 1], V[..., 0])
        Hv = _h_spline(name, delta)(al)
        return np.stack([-np.sin(al) * Hv, np.cos(al) * Hv], axis=-1)
    flat = V.reshape(-1, env.d)
    return pop.tangent_field(env.link, env.beta, flat).reshape(V.shape)


def _ratio_2d(name: str, delta: str, alpha):
    """−⟨v − v*, h(v)⟩/‖v − v*‖² at v = v(α) in d = 2: −H(α) cot(α/2)/2."""
    alpha = np.asarray(alpha, dtype=float)
    return -pop.H_alpha(_link(name), delta, alpha) / np.tan(alpha / 2) / 2


@functools.cache
def _lambda0_2d(name: str, delta: str, r0: float) -> float:
    """λ0(r0) = min_{0 < ‖v − v*‖ ≤ r0} −⟨v − v*, h(v)⟩/‖v − v*‖² in d = 2 (cor:local_stability).

    Grid of 801 angles on each side of 0 (both signs of α), the limit −H'(0) at α = 0, then a
    bounded scalar refinement around the smallest grid value; the result is the smallest value
    seen (so it can only err low by the refinement tolerance, ~1e-12 in the ratio)."""
    a0 = 2 * math.asin(r0 / 2)
    grid = np.concatenate([-np.linspace(a0, 1e-4, 801), np.linspace(1e-4, a0, 801)])
    vals = _ratio_2d(name, delta, grid)
    best = min(float(vals.min()), -pop.H_alpha_derivative(_link(name), delta, 0.0))
    i = int(np.argmin(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    if lo < 0 < hi:
        return best
    res = minimize_scalar(lambda x: float(_ratio_2d(name, delta, x)), bounds=(lo, hi),
                          method="bounded", options={"xatol": 1e-12})
    return min(best, float(res.fun))


def _lambda0_cap(env: Environment, r0: float, n_alpha: int = 60, n_psi: int = 24) -> float:
    """λ0(r0) for d ≥ 3 on a grid of the cap ‖v − v*‖ ≤ r0 in the 3-space span(v*, θ, ω)
    (ω a fixed unit vector ⊥ v*, θ; the field is equivariant under rotations fixing v* and θ,
    so one ω covers every direction of the cap up to that symmetry)."""
    vs, th = env.v_star, env.theta / np.linalg.norm(env.theta)
    w = np.random.default_rng(0).standard_normal(env.d)
    w -= (w @ vs) * vs + (w @ th) * th
    w /= np.linalg.norm(w)
    a0 = 2 * math.asin(r0 / 2)
    al = np.linspace(a0 / n_alpha, a0, n_alpha)
    ps = np.linspace(0, 2 * math.pi, n_psi, endpoint=False)
    A, P = np.meshgrid(al, ps, indexing="ij")
    u = np.cos(P)[..., None] * th + np.sin(P)[..., None] * w
    V = (np.cos(A)[..., None] * vs + np.sin(A)[..., None] * u).reshape(-1, env.d)
    h = pop.tangent_field(env.link, env.beta, V)
    D = V - vs
    return float((-(D * h).sum(1) / (D * D).sum(1)).min())


@dataclass
class _Paths:
    """Per-step quantities of NBL paths; index k ↔ round t = n0 + 1 + k (Stage II)."""

    n0: int
    e0: np.ndarray          # (R,) e_{n0}
    e_prev: np.ndarray      # (R, m) e_{t−1}
    e: np.ndarray           # (R, m) e_t
    eta: np.ndarray         # (m,) η_t
    inner: np.ndarray       # (R, m) ⟨v_{t−1} − v*, G_t⟩
    gsq: np.ndarray         # (R, m) ‖G_t‖²
    xsq: np.ndarray         # (R, m) ‖X_t‖²
    ubound: np.ndarray      # (R, m) |⟨P⊥_{v_{t−1}}(v_{t−1} − v*), X_t⟩|
    slack_formula: np.ndarray  # (R, m) (r − 1)(r + 1 − 2xᵀv*/r), r = ‖v_{t−1} + η_t G_t‖
    v_prev: np.ndarray | None  # (R, m, d) v_{t−1} (if kept)
    regret: np.ndarray      # (R, n) instantaneous regret r_t, all rounds
    match_nbl_run: float    # max |e_t(re-run) − e_t(nbl_run)| over all rounds ≥ n0


def _run_paths(env: Environment, seed: int, R: int, n: int, *, n0: int = 0,
               v0=None, gamma: float = 10.0, t0: float = 500.0, keep_v: bool = False,
               rep0: int = 0) -> _Paths:
    """Re-run alg:nbl in numpy (all replications at once) on ``env.draw(seed, ...)`` and record
    every per-step quantity the stochastic analysis uses; the run is compared with
    ``nbl_run`` on the same realization (all rounds recorded)."""
    real = env.draw(seed, range(rep0, rep0 + R), n, n0)
    X, Y = real.X, real.Y
    vs = env.v_star
    d = env.d
    if v0 is None:
        c = real.coins.astype(float)
        y0 = np.where(real.coins > 0, Y[:, :n0, 1], Y[:, :n0, 0])
        S = ((c * y0)[..., None] * X[:, :n0]).sum(axis=1)
        nrm = np.linalg.norm(S, axis=1)
        V = np.where(nrm[:, None] > 0, S / np.where(nrm > 0, nrm, 1.0)[:, None], np.eye(d)[0])
        actions = np.empty((R, n), dtype=np.int8)
        actions[:, :n0] = real.coins
    else:
        V = np.tile(np.asarray(v0, float) / np.linalg.norm(v0), (R, 1))
        actions = np.empty((R, n), dtype=np.int8)
        n0 = 0
    m = n - n0
    eta = gamma / (np.arange(n0 + 1, n + 1, dtype=float) + t0)
    out = {k: np.empty((R, m)) for k in ("e_prev", "e", "inner", "gsq", "xsq", "ubound",
                                         "slack")}
    vkeep = np.empty((R, m, d)) if keep_v else None
    e0 = ((V - vs) ** 2).sum(1)
    for k in range(m):
        t = n0 + k
        x = X[:, t]
        s = (V * x).sum(1)
        a = np.where(s >= 0, 1, -1)
        y = np.where(a > 0, Y[:, t, 1], Y[:, t, 0])
        W = (a * y)[:, None] * x
        G = W - (V * W).sum(1)[:, None] * V
        D = V - vs
        out["e_prev"][:, k] = (D * D).sum(1)
        out["inner"][:, k] = (D * G).sum(1)
        out["gsq"][:, k] = (G * G).sum(1)
        out["xsq"][:, k] = (x * x).sum(1)
        PD = D - (V * D).sum(1)[:, None] * V
        out["ubound"][:, k] = np.abs((PD * x).sum(1))
        if keep_v:
            vkeep[:, k] = V
        xt = V + eta[k] * G
        r = np.linalg.norm(xt, axis=1)
        out["slack"][:, k] = (r - 1) * (r + 1 - 2 * (xt @ vs) / r)
        V = xt / r[:, None]
        out["e"][:, k] = ((V - vs) ** 2).sum(1)
        actions[:, t] = a
    opt = env.optimal_actions(X)
    gap = np.abs(real.means[..., 1] - real.means[..., 0])
    regret = np.where(actions != opt, gap, 0.0)
    # the same realization through the compiled kernel
    tr = nbl_run(X, Y, real.coins if v0 is None else np.zeros((R, 0), np.int8), vs,
                 v0=None if v0 is None else np.asarray(v0, float), gamma=gamma, t0=t0,
                 record_rounds=np.arange(max(n0, 1) if v0 is None else 0, n + 1))
    mine = np.concatenate([e0[:, None], out["e"]], axis=1)
    match = float(np.nanmax(np.abs(tr.sq_error - mine)))
    if not np.array_equal(tr.actions, actions):
        match = math.inf
    return _Paths(n0, e0, out["e_prev"], out["e"], eta, out["inner"], out["gsq"], out["xsq"],
                  out["ubound"], out["slack"], vkeep, regret, match)


def _mean_se(x, axis=0):
    x = np.asarray(x, dtype=float)
    n = x.shape[axis]
    return x.mean(axis), x.std(axis, ddof=1) / math.sqrt(n)


# ============================================================================ sec:regret
# Path settings: (link, Δ, d, reward, geometry seed, n0 or start angle, γ, t0, R, n, seed)
_PATH_CASES = (
    ("logistic", "1", 2, "bernoulli", None, 30, None, 10.0, 30.0, 200, 3000, 11),
    ("tt-unstable", "0.2", 2, "bernoulli", None, None, 10.0, 10.0, 500.0, 100, 3000, 12),
    ("we-0.6", "1", 5, "bounded", 5, 50, None, 10.0, 0.0, 100, 2000, 13),
    ("logistic", "1", 3, "bernoulli", 3, 20, None, 10.0, 20.0, 20, 300, 14),
)


def _case_paths(case, keep_v=False):
    name, delta, d, reward, gseed, n0, angle, gamma, t0, R, n, seed = case
    env = _env(name, delta, d, reward, gseed)
    v0 = None if angle is None else env.initial_direction(angle)
    p = _run_paths(env, seed, R, n, n0=n0 or 0, v0=v0, gamma=gamma, t0=t0, keep_v=keep_v)
    return env, p


def _case_label(case) -> str:
    name, delta, d, reward, _g, n0, angle, gamma, t0, R, n, _s = case
    start = f"n0={n0}" if angle is None else f"start {angle:g} deg"
    return (f"{name} Delta={delta} d={d} {reward} {start} gamma={gamma:g} t0={t0:g} "
            f"R={R} n={n}")


@register("pathwise-error-recursion", "eq:pathwise-error-recursion", "sec:regret",
          "Along every NBL path, at every step: e_t <= e_{t-1} + 2 eta_t <v_{t-1} - v*, G_t> + "
          "eta_t^2 ||G_t||^2; substituting G_t = h(v_{t-1}) + xi_t gives "
          "eq:stochastic-error-decomposition with E[xi_t | H_{t-1}] = 0",
          "monte-carlo",
          "pathwise: slack >= -1e-12 at every step and slack = (r-1)(r+1-2x^T v*/r) to 1e-12; "
          "E[xi] = 0: |z| <= 5 for the per-path sums",
          "the inequality is deterministic (float64 rounding ~1e-15 on O(1) quantities); the "
          "per-path sums sum_t <v_{t-1} - v*, xi_t> are i.i.d. across replications with mean 0 "
          "under the claim, so 5 SE is a ~6e-7 false alarm",
          covers=("eq:stochastic-error-decomposition",))
def _pathwise():
    rows, worst, worst_formula, worst_z, worst_match, steps = [], math.inf, 0.0, 0.0, 0.0, 0
    spline_err = 0.0
    for case in _PATH_CASES:
        env, p = _case_paths(case, keep_v=True)
        rhs = p.e_prev + 2 * p.eta * p.inner + p.eta ** 2 * p.gsq
        slack = rhs - p.e
        worst = min(worst, float(slack.min()))
        worst_formula = max(worst_formula, float(np.abs(slack - p.slack_formula).max()))
        worst_match = max(worst_match, p.match_nbl_run)
        steps += slack.size
        # decomposition: xi_t = G_t - h(v_{t-1}); RHS rewritten; per-path martingale sums
        name, delta = case[0], case[1]
        if env.d > 3:   # direct quadrature of h at ~2e5 points would take ~15 s: skipped
            rows.append(f"[{_case_label(case)}] min slack {slack.min():.2e}, max slack "
                        f"{slack.max():.3g} (decomposition not evaluated)")
            continue
        h = _h_along(env, name, delta, p.v_prev)
        if env.d == 2:
            spline_err = max(spline_err, _spline_error(name, delta))
        D = p.v_prev - env.v_star
        dh = (D * h).sum(-1)
        dxi = p.inner - dh
        rhs2 = p.e_prev + 2 * p.eta * dh + 2 * p.eta * dxi + p.eta ** 2 * p.gsq
        worst_formula = max(worst_formula, float(np.abs(rhs2 - rhs).max()))
        m, se = _mean_se(dxi.sum(1))
        z = m / se
        worst_z = max(worst_z, abs(z))
        rows.append(f"[{_case_label(case)}] min slack {slack.min():.2e}, max slack "
                    f"{slack.max():.3g}, median slack {np.median(slack):.2e}; "
                    f"sum_t <v-v*, xi_t>: mean {m:.3g} +- {se:.2g} (z = {z:.2f})")
    ok = (worst >= -_ROUND and worst_formula <= _ROUND and worst_z <= _K_SE
          and worst_match <= 1e-12)
    computed = (f"min slack {worst:.2e} over {steps} steps; |slack - lem:normalization "
                f"formula| <= {worst_formula:.1e}; max |z| (E xi = 0) = {worst_z:.2f}")
    detail = (f"paths re-run in numpy from the nbl_run realization (max |e_t - nbl_run e_t| = "
              f"{worst_match:.1e} at every round, identical actions); h by quadrature "
              f"(d = 2: spline, interpolation error <= {spline_err:.1e}; d = 3: direct). "
              + "; ".join(rows))
    return Outcome(PASS if ok else FAIL, computed, detail)


# ---------------------------------------------------------------- lem:normalization
@register("normalization-lemma", "lem:normalization", "app:stochastic_analysis",
          "||x/||x|| - u|| <= ||x - u|| for ||x|| >= 1, ||u|| = 1, with the exact difference "
          "||x-u||^2 - ||x/r-u||^2 = (r-1)(r+1-2x^T u/r) >= (r-1)^2",
          "property-based",
          "sympy: identity exact; float64: inequality and identity to 1e-14 x (1 + r^2), "
          "second factor >= r - 1 to 1e-14 x (1 + r)",
          "the identity is polynomial in (r, x^T u) and is proved symbolically; the random "
          "cases only see float64 rounding of O(1 + r^2) quantities")
def _normalization():
    import sympy as sp
    r, p = sp.symbols("r p", positive=True)
    lhs = (r ** 2 + 1 - 2 * p) - (2 - 2 * p / r)
    sym_ok = sp.simplify(lhs - (r - 1) * (r + 1 - 2 * p / r)) == 0
    rng = np.random.default_rng(2024)
    worst_ineq, worst_id, worst_factor, n_cases = math.inf, 0.0, math.inf, 0
    for d in (1, 2, 3, 6):
        N = 50_000
        u = rng.standard_normal((N, d))
        u /= np.linalg.norm(u, axis=1)[:, None]
        w = rng.standard_normal((N, d))
        # a third of the directions hug u (near equality), a third are opposite-ish
        w[: N // 3] = u[: N // 3] + 10.0 ** rng.uniform(-8, 0, N // 3)[:, None] * w[: N // 3]
        w[N // 3: 2 * N // 3] = -u[N // 3: 2 * N // 3] + 0.1 * w[N // 3: 2 * N // 3]
        w /= np.linalg.norm(w, axis=1)[:, None]
        rr = 1 + np.concatenate([np.zeros(100), 10.0 ** rng.uniform(-12, 3, N - 100)])
        x = rr[:, None] * w
        rn = np.linalg.norm(x, axis=1)
        a = ((x / rn[:, None] - u) ** 2).sum(1)
        b = ((x - u) ** 2).sum(1)
        scale = 1 + rn ** 2
        xu = (x * u).sum(1)
        formula = (rn - 1) * (rn + 1 - 2 * xu / rn)
        worst_ineq = min(worst_ineq, float(((b - a) / scale).min()))
        worst_id = max(worst_id, float((np.abs(b - a - formula) / scale).max()))
        worst_factor = min(worst_factor,
                           float((((rn + 1 - 2 * xu / rn) - (rn - 1)) / (1 + rn)).min()))
        n_cases += N
    # the hypothesis ||x|| >= 1 is needed: x = (1/2, 1/2), u = e1
    x, u = np.array([0.5, 0.5]), np.array([1.0, 0.0])
    counter = float(np.sum((x / np.linalg.norm(x) - u) ** 2) - np.sum((x - u) ** 2))
    ok = sym_ok and worst_ineq >= -1e-14 and worst_id <= 1e-14 and worst_factor >= -1e-14
    return Outcome(PASS if ok else FAIL,
                   f"symbolic identity {'confirmed' if sym_ok else 'NOT confirmed'}; min "
                   f"(||x-u||^2 - ||x/r-u||^2)/(1+r^2) = {worst_ineq:.1e} over {n_cases} cases",
                   f"d in {{1,2,3,6}}, r - 1 in {{0}} U [1e-12, 1e3] log-uniform, directions "
                   f"near u, near -u and uniform; max identity residual {worst_id:.1e} "
                   f"(relative to 1 + r^2); min (second factor - (r - 1))/(1 + r) = "
                   f"{worst_factor:.1e}. "
                   f"The hypothesis ||x|| >= 1 matters: x = (1/2, 1/2), u = e1 gives "
                   f"||x/r-u||^2 - ||x-u||^2 = {counter:.4f} > 0.")


# ---------------------------------------------------------------- lem:local_one_step
_R0 = 0.5          # the stability radius r0 used throughout (λ0(r0) computed for it)


def _one_step_sample(env: Environment, v: np.ndarray, eta: float, N: int, seed: int):
    """N independent next steps from the fixed direction v: (e_t samples, ‖G‖² samples)."""
    real = env.draw(seed, [0], N, 0)
    X, Y = real.X[0], real.Y[0]
    s = X @ v
    a = np.where(s >= 0, 1, -1)
    y = np.where(a > 0, Y[:, 1], Y[:, 0])
    W = (a * y)[:, None] * X
    G = W - (W @ v)[:, None] * v
    xt = v + eta * G
    vn = xt / np.linalg.norm(xt, axis=1)[:, None]
    return ((vn - env.v_star) ** 2).sum(1), (G * G).sum(1)


def _cap_point(env: Environment, r: float, seed: int) -> np.ndarray:
    """A unit v with ‖v − v*‖ = r in a random tangent direction at v*."""
    u = np.random.default_rng(seed).standard_normal(env.d)
    u -= (u @ env.v_star) * env.v_star
    u /= np.linalg.norm(u)
    a = 2 * math.asin(r / 2)
    return math.cos(a) * env.v_star + math.sin(a) * u


@register("local-one-step", "lem:local_one_step", "sec:regret",
          "If ||v_{t-1} - v*|| <= r0: E[e_t | H_{t-1}] <= e_{t-1} + 2 eta_t <v_{t-1} - v*, "
          "h(v_{t-1})> + eta_t^2 E[||G_t||^2 | H_{t-1}] (eq:app-conditional-error-before-"
          "bounds) <= (1 - 2 lambda0 eta_t) e_{t-1} + B_Y^2 d eta_t^2 "
          "(eq:local-conditional-error-recursion); Monte Carlo over the next step from fixed v "
          "at ||v - v*|| up to r0 = 0.5, with lambda0(r0) computed by quadrature",
          "monte-carlo", f"each bound >= the Monte Carlo E[e_t | v] - {_K_SE:g} SE",
          "conditional means over 60,000-100,000 independent next steps; the first bound is "
          "nearly tight for small eta (its gap is E[normalization slack] = O(eta^2 e)), so "
          "only a one-sided 5-SE allowance is used",
          covers=("eq:local-conditional-error-recursion",
                  "eq:app-conditional-error-before-bounds"))
def _local_one_step():
    rows, worst_z1, worst_z2, bad = [], -math.inf, -math.inf, []
    cases = []
    env2 = _env("logistic", "1")
    lam2 = _lambda0_2d("logistic", "1", _R0)
    a0 = 2 * math.asin(_R0 / 2)
    for alpha in (0.05, 0.25, a0, -a0):
        cases.append((env2, "logistic Delta=1 d=2", lam2,
                      env2.initial_direction(math.degrees(alpha)), 100_000))
    env3 = _env("we-0.6", "1", 3, "bounded", 7)
    lam3 = _lambda0_cap(env3, _R0)
    for k, r in enumerate((0.1, _R0)):
        cases.append((env3, "we-0.6 Delta=1 d=3 bounded(b=0.5)", lam3,
                      _cap_point(env3, r, 40 + k), 60_000))
    seed = 300
    for env, label, lam0, v, N in cases:
        D = v - env.v_star
        e = float(D @ D)
        h = pop.tangent_field(env.link, env.beta, v)
        drift = float(D @ h)
        if drift > -lam0 * e + 1e-12:       # cor:local_stability at this v
            bad.append(f"{label}: <v-v*,h> = {drift:.3g} > -lambda0 e = {-lam0 * e:.3g}")
        B, d = _b_y(env), env.d
        for gamma, tt in ((10.0, 500.0), (10.0, 50.0)):
            eta = gamma / tt             # eta_t = gamma/(t + t0) with t + t0 = tt
            seed += 1
            et, gsq = _one_step_sample(env, v, eta, N, seed)
            m, se = _mean_se(et)
            diff = e + 2 * eta * drift + eta ** 2 * gsq - et     # RHS1 - e_t, paired
            dm, dse = _mean_se(diff)
            rhs2 = (1 - 2 * lam0 * eta) * e + B ** 2 * d * eta ** 2
            z1, z2 = -dm / dse, (m - rhs2) / se
            worst_z1, worst_z2 = max(worst_z1, z1), max(worst_z2, z2)
            gm = float(gsq.mean())
            if gm > B ** 2 * d:
                bad.append(f"{label}: E||G||^2 = {gm:.4g} > B^2 d")
            rows.append(f"{label}, |v-v*| = {math.sqrt(e):.3g}, eta = {eta:g}: E e_t = {m:.5g} "
                        f"+- {se:.1g}; RHS1 - E e_t = {dm:.2g} +- {dse:.1g}; RHS2 = {rhs2:.5g} "
                        f"(E||G||^2 = {gm:.3f} vs B^2 d = {B ** 2 * d:g})")
        rows.append(f"{label}: lambda0(r0) = {lam0:.5f}, -<v-v*,h>/e = {-drift / e:.5f}")
    ok = worst_z1 <= _K_SE and worst_z2 <= _K_SE and not bad
    return Outcome(PASS if ok else FAIL,
                   f"max z (E e_t above RHS1) = {worst_z1:.2f}, max z (above RHS2) = "
                   f"{worst_z2:.1f} (negative = below the bound)",
                   ("; ".join(bad) + "; " if bad else "") + "; ".join(rows))


@register("local-recursion-harmonic", "eq:local-recursion-regret", "app:localized-estimation",
          "With eta_t = gamma/(t + t0), (1 - 2 lambda0 eta_t) e + B_Y^2 d eta_t^2 = "
          "(1 - 2 gamma lambda0/(t + t0)) e + B_Y^2 gamma^2 d/(t + t0)^2, i.e. the recursion of "
          "lem:sa-recursion with alpha = 2 gamma lambda0, b = B_Y^2 gamma^2 d",
          "symbolic", "exact", "sympy simplify(difference) == 0 for symbolic parameters; the "
          "inequality itself is the Monte Carlo check local-one-step (run with eta_t = "
          "gamma/(t + t0), gamma = 10, t + t0 in {50, 500})")
def _local_recursion():
    import sympy as sp
    g, lam, t, t0, e, B, d = sp.symbols("gamma lambda0 t t0 e B d", positive=True)
    eta = g / (t + t0)
    lhs = (1 - 2 * lam * eta) * e + B ** 2 * d * eta ** 2
    rhs = (1 - 2 * g * lam / (t + t0)) * e + B ** 2 * g ** 2 * d / (t + t0) ** 2
    al, b = 2 * g * lam, B ** 2 * g ** 2 * d
    sa = (1 - al / (t + t0)) * e + b / (t + t0) ** 2
    ok1 = sp.simplify(lhs - rhs) == 0
    ok2 = sp.simplify(rhs - sa) == 0
    return Outcome(PASS if ok1 and ok2 else FAIL,
                   f"substitution {'exact' if ok1 else 'NOT exact'}; matches lem:sa-recursion "
                   f"form: {ok2}", "symbolic gamma, lambda0, t, t0, e, B_Y, d")


# ---------------------------------------------------------------- app:localization
@register("step-size-sums", "eq:step_size", "app:localization",
          "For eta_t = gamma/(t + t0): sum_t eta_t = infinity, sum_t eta_t^2 < infinity, and the "
          "bounds used in the proofs: sum_{s>n0} eta_s^2 <= gamma^2/(n0+t0), sum_{s>n0} eta_s^4 "
          "<= gamma^4/(3 (n0+t0)^3) <= gamma^4/(n0+t0)^3, max_{s>n0} eta_s^2 <= "
          "gamma^2/(n0+t0)^2", "high-precision",
          "exact tails via polygamma at 30 digits; finite sums in exact rationals",
          "tails: sum_{s>n0} (s+t0)^-k = psi^(k-1)(n0+1+t0)/(k-1)!, evaluated at 30 digits "
          "(the smallest margin found is ~5e-7 relative, far above 1e-25); finite partial sums "
          "are exact fractions")
def _step_sums():
    from fractions import Fraction

    import mpmath
    worst2, worst4, worstmax, rows = -math.inf, -math.inf, -math.inf, []
    with mpmath.workdps(30):
        for n0 in (0, 1, 10, 100, 10_000):
            for t0 in (0, mpmath.mpf("0.5"), 10, 500, 10 ** 6):
                c = n0 + t0
                if c < 1:
                    continue        # the proofs use n0 + t0 >= 1
                x = n0 + 1 + t0
                tail2 = mpmath.psi(1, x)
                tail4 = mpmath.psi(3, x) / 6
                r2 = tail2 * c                      # <= 1 claimed
                r4 = tail4 * 3 * c ** 3             # <= 1 claimed
                rmax = c ** 2 / x ** 2              # <= 1 claimed
                worst2, worst4 = max(worst2, float(r2)), max(worst4, float(r4))
                worstmax = max(worstmax, float(rmax))
        full2 = [float(mpmath.psi(1, 1 + t0)) for t0 in (0, 10, 500)]   # sum_{t>=1}, finite
        harm = [float(mpmath.psi(0, N + 1 + 500) - mpmath.psi(0, 1 + 500))
                for N in (10 ** 3, 10 ** 6, 10 ** 12)]                  # grows like log N
    # exact rational partial sums for a small case (n0 = 1, t0 = 0, n = 300; n0 = 5, t0 = 3)
    exact_ok = True
    for n0, t0, n in ((1, 0, 300), (5, 3, 300)):
        s2 = sum(Fraction(1, (s + t0) ** 2) for s in range(n0 + 1, n + 1))
        s4 = sum(Fraction(1, (s + t0) ** 4) for s in range(n0 + 1, n + 1))
        exact_ok &= s2 <= Fraction(1, n0 + t0) and s4 <= Fraction(1, 3 * (n0 + t0) ** 3)
        rows.append(f"n0={n0}, t0={t0}, n={n}: sum eta^2/gamma^2 = {float(s2):.6f} <= "
                    f"{1 / (n0 + t0):.6f}, sum eta^4/gamma^4 = {float(s4):.3e} <= "
                    f"{1 / (3 * (n0 + t0) ** 3):.3e}")
    ok = (worst2 <= 1 and worst4 <= 1 and worstmax <= 1 and exact_ok
          and harm[2] > harm[1] > harm[0])
    return Outcome(PASS if ok else FAIL,
                   f"1 - max(tail/bound): eta^2 {1 - worst2:.2e}, eta^4 {1 - worst4:.2e}, "
                   f"max eta^2 {1 - worstmax:.2e} (all >= 0; -> 0 as n0 + t0 -> infinity)",
                   f"grid n0 in {{0,1,10,100,1e4}}, t0 in {{0,0.5,10,500,1e6}} with n0+t0 >= 1; "
                   f"sum_{{t>=1}} eta_t^2/gamma^2 = psi'(1+t0) = "
                   f"{', '.join(f'{v:.4g}' for v in full2)} (t0 = 0, 10, 500) < infinity; "
                   f"sum_{{t<=N}} eta_t/gamma (t0 = 500) = "
                   f"{', '.join(f'{v:.4g}' for v in harm)} for N = 1e3, 1e6, 1e12 (divergent, "
                   f"~log N); " + "; ".join(rows))


@register("sa-recursion", "lem:sa-recursion", "app:localized-estimation",
          "If a_t <= (1 - alpha/(t+t0)) a_{t-1} + b/(t+t0)^2 (t > n0), alpha > 1, b > 0, "
          "n0 + 1 + t0 >= alpha, then a_t <= C/(t+t0) with C = max{(n0+t0) a_{n0}, "
          "b/(alpha-1)}", "property-based",
          "exact rationals (Fraction) for 300 short sequences; float64 with relative 1e-12 for "
          "400 sequences of 3000 steps; the induction step identity symbolically",
          "the lemma is deterministic: exact arithmetic leaves no tolerance; the float64 runs "
          "only accumulate rounding of ~1e-13 relative")
def _sa_recursion():
    from fractions import Fraction

    import sympy as sp
    C, al, T = sp.symbols("C alpha T", positive=True)
    step_ok = sp.simplify(C / T - (1 - al / T) * C / (T - 1) - C * (al - 1) / (T * (T - 1))) == 0
    rng = np.random.default_rng(77)
    worst_exact, worst_float, near_one = Fraction(0), 0.0, 0.0
    for i in range(300):
        alpha = Fraction(int(rng.integers(11, 60)), 10)
        b = Fraction(int(rng.integers(1, 100)), 10)
        t0 = int(rng.integers(0, 20))
        n0 = max(int(rng.integers(0, 20)), int(math.ceil(alpha)) - 1 - t0, 0)
        a = Fraction(int(rng.integers(0, 100)), int(rng.integers(1, 50)))
        Cc = max((n0 + t0) * a, b / (alpha - 1))
        for t in range(n0 + 1, n0 + 40):
            slack = Fraction(0) if i % 3 == 0 else Fraction(int(rng.integers(0, 5)), 1000) * a
            a = max(Fraction(0), (1 - alpha / (t + t0)) * a + b / (t + t0) ** 2 - slack)
            worst_exact = max(worst_exact, a * (t + t0) / Cc)
    K = 400                           # float sequences, advanced together (vectorized)
    alpha = rng.uniform(1.01, 8, K)
    b = 10 ** rng.uniform(-3, 2, K)
    t0 = np.where(np.arange(K) % 2 == 1, rng.uniform(0, 1000, K), rng.integers(0, 5, K))
    n0 = np.maximum(rng.integers(0, 200, K), np.maximum(np.ceil(alpha - 1 - t0), 0))
    n0 = np.where(n0 + t0 <= 0, 1, n0)
    a = 10 ** rng.uniform(-4, 1, K)
    Cc = np.maximum((n0 + t0) * a, b / (alpha - 1))
    eq = np.arange(K) % 2 == 0       # equality case: the recursion exactly
    ratio = np.zeros(K)
    for k in range(1, 3001):
        tt = n0 + k + t0
        nxt = (1 - alpha / tt) * a + b / tt ** 2 * np.where(eq, 1.0, rng.uniform(size=K))
        a = np.where(eq, nxt, np.maximum(nxt, 0.0))
        ratio = np.maximum(ratio, a * tt / Cc)
    worst_float = float(ratio.max())
    near_one = float(ratio[eq].max())
    ok = step_ok and worst_exact <= 1 and worst_float <= 1 + 1e-12
    return Outcome(PASS if ok else FAIL,
                   f"max a_t (t+t0)/C: exact {float(worst_exact):.6f}, float {worst_float:.9f} "
                   f"(<= 1 claimed)",
                   f"induction-step identity C/T - (1 - alpha/T) C/(T-1) = C(alpha-1)/(T(T-1)) "
                   f"{'confirmed' if step_ok else 'NOT confirmed'} by sympy; 300 exact "
                   f"sequences (alpha in [1.1, 5.9], b in [0.1, 9.9], a third with equality) and "
                   f"400 float sequences of 3000 steps (alpha in [1.01, 8], b in [1e-3, 1e2], "
                   f"t0 up to 1000, half with equality: their max ratio {near_one:.6f} shows "
                   f"the bound is approached)")


def _exit_index(e0: np.ndarray, e: np.ndarray, r0: float) -> np.ndarray:
    """τ − n0 per path (τ = inf{t >= n0: ‖v_t − v*‖ > r0}); a large sentinel if no exit."""
    E = np.concatenate([e0[:, None], e], axis=1)
    ex = E > r0 * r0
    return np.where(ex.any(1), ex.argmax(1), np.iinfo(np.int64).max // 2)


_STOP_CASES = (   # (link, Δ, n0, start angle, γ, t0, R, n, seed)
    ("logistic4", "1.5", 50, None, 5.0, 50.0, 300, 1500, 31),
    ("tt-stable", "1", 0, 13.0, 5.0, 300.0, 300, 1500, 32),
)


@register("stopped-recursion-pathwise", "eq:stopped_one_step_inequality", "app:localization",
          "Along every NBL path and step (d = 2, r0 = 0.5, lambda0 = lambda0(r0) by quadrature): "
          "(e_t - e_{t-1}) 1{t<=tau} <= [-2 lambda0 eta_t e_{t-1} + 2 eta_t <v_{t-1}-v*, xi_t> "
          "+ eta_t^2 ||G_t||^2] 1{t<=tau}; summed: e_{t^tau} <= e_{n0} - 2 lambda0 sum eta_s "
          "e_{s-1} 1{s<=tau} + M_t + Q_t <= e_{n0} + M_t + Q_t (eq:stopped-error-bound) with M_t "
          "(eq:localization-martingale) a mean-zero martingale and Q_t "
          "(eq:localization-quadratic) nondecreasing; |U_s| <= B_Y |<P(v_{s-1}-v*), X_s>| "
          "(eq:Us-pointwise-bound) and Q_n <= B_Y^2 sum eta_s^2 ||X_s||^2 (eq:QT-gaussian-bound); "
          "no path with e_{n0}, max M_t, Q_n all <= r0^2/4 exits (the inclusion in the proof "
          "of lem:finite-horizon-localization)",
          "monte-carlo",
          "pathwise: every slack >= -1e-11; E[M_n] = 0 within 5 SE",
          "the inequalities are deterministic given the path (sums of <= 1500 O(1) float64 "
          "terms: rounding << 1e-11; h from the spline of the quadrature H, error ~1e-14); "
          "M_n is i.i.d. across paths with mean 0 under the claim",
          covers=("eq:localization-martingale", "eq:localization-quadratic",
                  "eq:stopped-error-bound", "eq:Us-pointwise-bound", "eq:QT-gaussian-bound"))
def _stopped_pathwise():
    rows, worst = [], {"one-step": math.inf, "cor": math.inf, "sum": math.inf,
                       "drop-drift": math.inf, "U": math.inf, "Q": math.inf, "Qmono": math.inf}
    worst_z, inclusion_bad = 0.0, 0
    for name, delta, n0, angle, gamma, t0, R, n, seed in _STOP_CASES:
        env = _env(name, delta)
        lam0 = _lambda0_2d(name, delta, _R0)
        v0 = None if angle is None else env.initial_direction(angle)
        p = _run_paths(env, seed, R, n, n0=n0, v0=v0, gamma=gamma, t0=t0, keep_v=True)
        n0 = p.n0
        tau = _exit_index(p.e0, p.e, _R0)                     # τ − n0
        k = np.arange(1, p.e.shape[1] + 1)                     # t − n0 of step k
        ind = (k[None, :] <= tau[:, None]).astype(float)       # 1{t <= τ}
        h = _h_along(env, name, delta, p.v_prev)
        D = p.v_prev - env.v_star
        dh = (D * h).sum(-1)
        dxi = p.inner - dh
        eta = p.eta[None, :]
        drift = -2 * lam0 * eta * p.e_prev * ind
        dM = 2 * eta * dxi * ind
        dQ = eta ** 2 * p.gsq * ind
        on = ind > 0                 # active steps (elsewhere both sides are 0)
        worst["one-step"] = min(worst["one-step"], float(
            np.where(on, drift + dM + dQ - (p.e - p.e_prev) * ind, np.inf).min()))
        worst["cor"] = min(worst["cor"], float(np.where(on, -lam0 * p.e_prev - dh, np.inf).min()))
        M, Q, Dr = np.cumsum(dM, 1), np.cumsum(dQ, 1), np.cumsum(drift, 1)
        E = np.concatenate([p.e0[:, None], p.e], axis=1)
        stopped = E[np.arange(R)[:, None], np.minimum(k[None, :], tau[:, None])]   # e_{t∧τ}
        worst["sum"] = min(worst["sum"], float((p.e0[:, None] + Dr + M + Q - stopped).min()))
        worst["drop-drift"] = min(worst["drop-drift"], float((-Dr).min()))
        worst["Qmono"] = min(worst["Qmono"], float(np.diff(Q, axis=1).min()))
        B = _b_y(env)
        worst["U"] = min(worst["U"], float((B * p.ubound - np.abs(p.inner)).min()))
        worst["Q"] = min(worst["Q"], float((B ** 2 * (eta * eta * p.xsq).sum(1) - Q[:, -1]).min()))
        m, se = _mean_se(M[:, -1])
        worst_z = max(worst_z, abs(m / se))
        exits = int((tau < 10 ** 9).sum())
        # the inclusion E_init ∩ E_M ∩ E_Q ⊆ {τ > n} of lem:finite-horizon-localization's proof
        good = ((p.e0 <= _R0 ** 2 / 4) & (np.maximum(M.max(1), 0) <= _R0 ** 2 / 4)
                & (Q[:, -1] <= _R0 ** 2 / 4))
        n_good, n_bad = int(good.sum()), int((good & (tau < 10 ** 9)).sum())
        inclusion_bad += n_bad
        start = "random init" if angle is None else f"{angle:g} deg"
        rows.append(f"[{name} Delta={delta} n0={n0} start={start} "
                    f"gamma={gamma:g} t0={t0:g} R={R} n={n}] lambda0(0.5) = {lam0:.4f}; "
                    f"{exits}/{R} paths exit (tau = n0 for {int((tau == 0).sum())}); "
                    f"M_n mean {m:.3g} +- {se:.2g}; max Q_n {Q[:, -1].max():.3g}; "
                    f"E_init & E_M & E_Q on {n_good} paths, of which {n_bad} exit")
    ok = min(worst.values()) >= -1e-11 and worst_z <= _K_SE and inclusion_bad == 0
    computed = ("min slacks: " + ", ".join(f"{k} {v:.1e}" for k, v in worst.items())
                + f"; |z(E M_n = 0)| = {worst_z:.2f}; good-event paths that exit: "
                f"{inclusion_bad}")
    return Outcome(PASS if ok else FAIL, computed,
                   "one-step = eq:stopped_one_step_inequality at every active step (t <= tau; "
                   "for t > tau both sides are 0); cor = "
                   "-lambda0 e_{t-1} - <v_{t-1}-v*, h(v_{t-1})> on {t<=tau} (cor:local_stability "
                   "at the path points); sum = first inequality of eq:stopped-error-bound at "
                   "every t; drop-drift = the dropped drift term (>= 0); Qmono = increments of "
                   "Q_t; U = B_Y|<P(v-v*),X>| - |U_s| at every step; Q = B_Y^2 sum eta^2 "
                   "||X||^2 - Q_n. " + "; ".join(rows))


# ================================================================ app:stopped-stochastic-control
def _tail_rows(freq: float, bound: float, N: int) -> float:
    """z of a tail frequency above its bound (binomial SE under the bound)."""
    se = math.sqrt(max(bound * (1 - bound), 1e-300) / N)
    return (freq - bound) / se


@register("weighted-chisquare", "lem:weighted_chisquare", "app:stopped-stochastic-control",
          "P(sum_s a_s (||Z_s||^2 - d) >= 2 sqrt(d x sum a_s^2) + 2 x max a_s) <= e^{-x}; applied "
          "with a_s = eta_s^2 (eq:weighted-chi-Q) and simplified to sum eta_s^2 ||X_s||^2 <= "
          "3 gamma^2 (d + x)/(n0 + t0) with probability >= 1 - e^{-x}",
          "monte-carlo", f"frequency <= e^(-x) + {_K_SE:g} SE (binomial SE at the bound)",
          "independent Gaussian samples; Laurent-Massart is not tight (frequency/bound <= ~0.3 "
          "in every setting tried, largest for many equal weights), so a one-sided 5-SE "
          "allowance decides",
          covers=("eq:weighted-chi-Q",))
def _weighted_chisq():
    rng = np.random.default_rng(4242)
    xs = (0.25, 0.5, 1.0, 2.0, 4.0, 6.0)
    rows, worst_z, best_ratio = [], -math.inf, 0.0
    eta2 = 1.0 / (10.0 + np.arange(1, 301)) ** 2          # a_s = eta_s^2, gamma = 1, n0+t0 = 10
    cases = [("m=1 d=1", np.array([1.0]), 1, 400_000),
             ("m=1 d=4", np.array([1.0]), 4, 400_000),
             ("m=200 d=1 equal", np.full(200, 1.0), 1, 400_000),
             ("m=20 d=3 random", rng.uniform(0, 1, 20), 3, 200_000),
             ("eta_s^2, gamma=1, n0+t0=10, m=300, d=2", eta2, 2, 40_000)]
    for label, a, d, N in cases:
        if np.all(a == a[0]):
            S = a[0] * (rng.chisquare(d * a.size, N) - d * a.size)
        else:
            S = np.zeros(N)
            for s in range(a.size):
                S += a[s] * (rng.chisquare(d, N) - d)
        parts = []
        for x in xs:
            thr = 2 * math.sqrt(d * x * float((a * a).sum())) + 2 * x * float(a.max())
            f, b = float((S >= thr).mean()), math.exp(-x)
            worst_z = max(worst_z, _tail_rows(f, b, N))
            best_ratio = max(best_ratio, f / b)
            parts.append(f"x={x:g}: {f:.4f} vs {b:.4f}")
        rows.append(f"{label} (N={N}): " + ", ".join(parts))
    # eq:weighted-chi-Q and its simplification, with the harmonic weights (gamma = 1)
    n0t0, d = 10.0, 2
    Sx = np.zeros(40_000)
    for s in range(eta2.size):
        Sx += eta2[s] * rng.chisquare(d, Sx.size)
    simp_ok, parts = True, []
    for x in (0.5, 1.0, 2.0, 4.0):
        full = (d * eta2.sum() + 2 * math.sqrt(x * d * float((eta2 ** 2).sum()))
                + 2 * x * float(eta2.max()))
        mid = d / n0t0 + 2 * math.sqrt(x * d) / n0t0 ** 1.5 + 2 * x / n0t0 ** 2
        final = 3 * (d + x) / n0t0
        simp_ok &= full <= mid <= (2 * d + 3 * x) / n0t0 <= final
        f = float((Sx > final).mean())
        worst_z = max(worst_z, _tail_rows(f, math.exp(-x), Sx.size))
        parts.append(f"x={x:g}: weighted-chi-Q threshold {full:.4f} <= step bound {mid:.4f} <= "
                     f"3(d+x)/(n0+t0) = {final:.3f}; P(sum > final) = {f:.4f} vs "
                     f"{math.exp(-x):.3f}")
    ok = worst_z <= _K_SE and simp_ok
    return Outcome(PASS if ok else FAIL,
                   f"max z above e^(-x) = {worst_z:.1f}; max frequency/bound = {best_ratio:.3f}",
                   "; ".join(rows) + "; " + "; ".join(parts)
                   + ("" if simp_ok else "; the simplification chain FAILED"))


@register("maximal-subgaussian-martingale", "lem:maximal-subgaussian-martingale",
          "app:stopped-stochastic-control",
          "For a martingale-difference sequence with E[e^{lambda D_s} | H_{s-1}] <= "
          "e^{lambda^2 sigma_s^2/2} (deterministic sigma_s): P(max_{t<=T} S_t >= x) <= "
          "exp(-x^2/(2 sum sigma_s^2)); Monte Carlo with Gaussian increments (equality in the "
          "MGF condition) and Rademacher increments with a history-dependent scale",
          "monte-carlo", f"frequency <= bound + {_K_SE:g} SE",
          "independent paths; Gaussian increments meet the MGF condition with equality, the "
          "closest setting to tightness (frequency/bound up to ~0.65)")
def _maximal():
    rng = np.random.default_rng(99)
    T, N = 100, 100_000
    sig = 1.0 / (np.arange(1, T + 1) + 5.0)                 # harmonic, like eta_s
    rows, worst_z, best = [], -math.inf, 0.0
    for label in ("gaussian", "rademacher-predictable-scale", "gaussian-constant"):
        s = np.full(T, sig.mean()) if label == "gaussian-constant" else sig
        VT = float((s ** 2).sum())
        S = np.zeros(N)
        mx = np.full(N, -np.inf)
        for k in range(T):
            if label.startswith("gaussian"):
                D = s[k] * rng.standard_normal(N)
            else:   # a scale chosen from the past, c in {1/2, 1}: cosh(l s c) <= e^{l^2 s^2/2}
                D = s[k] * rng.choice([-1.0, 1.0], N) * np.where(S > 0, 0.5, 1.0)
            S += D
            np.maximum(mx, S, out=mx)
        parts = []
        for c in (0.5, 1.0, 2.0, 3.0):
            x = c * math.sqrt(VT)
            f, b = float((mx >= x).mean()), math.exp(-x * x / (2 * VT))
            worst_z = max(worst_z, _tail_rows(f, b, N))
            best = max(best, f / b)
            parts.append(f"x/sqrt(V)={c:g}: {f:.4f} vs {b:.4f}")
        rows.append(f"{label} (T={T}, N={N}): " + ", ".join(parts))
    return Outcome(PASS if worst_z <= _K_SE else FAIL,
                   f"max z above bound = {worst_z:.1f}; max frequency/bound = {best:.3f}",
                   "; ".join(rows))


def _gl_grid(lo: float, hi: float, width: float = 0.25, nodes: int = 16):
    """Composite Gauss-Legendre nodes and weights on [lo, hi]."""
    x, w = np.polynomial.legendre.leggauss(nodes)
    edges = np.linspace(lo, hi, max(1, int(math.ceil((hi - lo) / width))) + 1)
    a, b = edges[:-1, None], edges[1:, None]
    return ((a + b) / 2 + (b - a) / 2 * x).ravel(), ((b - a) / 2 * w).ravel()


def _test_law(law: str, p: float = 0.5):
    """A σ = 1 law satisfying P(|U| >= x) <= 2 e^{-x²/2}, as (atoms, log-weights): a fine
    quadrature of its density, or its atoms."""
    x0 = math.sqrt(2 * math.log(2))
    if law == "gaussian":
        x, w = _gl_grid(-60, 60)
        lw = np.log(w) - x * x / 2 - 0.5 * math.log(2 * math.pi)
    elif law == "half-normal":
        x, w = _gl_grid(0, 60)
        lw = np.log(w) - x * x / 2 + math.log(2 / math.sqrt(2 * math.pi))
    elif law == "extremal":               # P(U >= x) = min(1, 2e^{-x²/2}), U >= 0
        x, w = _gl_grid(x0, 60)
        lw = np.log(w) + np.log(2 * x) - x * x / 2
    elif law == "extremal-symmetric":     # ±(the extremal law), mean 0
        x, w = _gl_grid(x0, 60)
        x, w = np.concatenate([-x[::-1], x]), np.concatenate([w[::-1], w])
        lw = np.log(w) + np.log(np.abs(x)) - x * x / 2
    elif law == "two-point":              # U = c w.p. p, else 0; c = sqrt(2 log(2/p))
        x = np.array([0.0, math.sqrt(2 * math.log(2 / p))])
        lw = np.log(np.array([1 - p, p]))
    else:
        raise KeyError(law)
    return x, lw


def _law_tail(law: str, p: float, y: np.ndarray) -> np.ndarray:
    """P(|U| >= y) of the continuous test law (closed forms)."""
    from scipy.special import ndtr
    if law in ("gaussian", "half-normal"):
        return 2 * ndtr(-y)
    if law in ("extremal", "extremal-symmetric"):
        return np.minimum(1.0, 2 * np.exp(-y * y / 2))
    c = math.sqrt(2 * math.log(2 / p))
    return np.where(y <= c, p, 0.0)


def _logmgf_ratio(x, lw, lam: float) -> float:
    """log E exp{λ(U − EU)}/λ² for the law (x, lw) (log-sum-exp, float64)."""
    from scipy.special import logsumexp
    mean = float(np.exp(lw) @ x)
    return float(logsumexp(lam * (x - mean) + lw)) / lam ** 2


@register("tail-to-mgf", "lem:tail_to_mgf", "app:stopped-stochastic-control",
          "P(|U| >= x | G) <= 2 exp(-x^2/(2 sigma^2)) implies E[e^{lambda(U - E[U|G])} | G] <= "
          "exp(C_sg lambda^2 sigma^2) for a universal C_sg; checked: the moment step "
          "p int x^{p-1} 2e^{-x^2/2sigma^2} dx = p (2 sigma^2)^{p/2} Gamma(p/2), Gamma(p/2)^{1/p} "
          "<= C sqrt(p), and the implied C_sg on extremal laws and on NBL's U_s",
          "high-precision",
          "quadrature at 30 digits: identities to 1e-20; NBL U_s by Monte Carlo (5 SE)",
          "C_sg is not specified by the paper, so no value of it can be confirmed: what is "
          "checked is the exact moment identity, that every test law satisfies the hypothesis, "
          "and that log-MGF/(lambda sigma)^2 stays bounded over |lambda sigma| in [1e-2, 30] "
          "(the implied C_sg is reported)")
def _tail_to_mgf():
    import mpmath
    from scipy.special import gammaln
    rows, ok = [], True
    with mpmath.workdps(30):
        worst_id = mpmath.mpf(0)
        for p in (1, 1.5, 2, 3, 5, 10):
            for s in (mpmath.mpf("0.5"), mpmath.mpf(2)):
                q = mpmath.quad(lambda x, p=p, s=s: p * x ** (p - 1) * 2
                                * mpmath.exp(-x * x / (2 * s * s)), [0, s, mpmath.inf])
                f = p * (2 * s * s) ** (mpmath.mpf(p) / 2) * mpmath.gamma(mpmath.mpf(p) / 2)
                worst_id = max(worst_id, abs(q / f - 1))
    ok &= worst_id < 1e-20
    ps = np.linspace(1, 1000, 39961)
    gam = np.exp(gammaln(ps / 2) / ps) / np.sqrt(ps)
    rows.append(f"moment identity max rel. error {float(worst_id):.1e}; sup_p "
                f"Gamma(p/2)^(1/p)/sqrt(p) over p in [1, 1000] = {gam.max():.4f} (at p = "
                f"{ps[gam.argmax()]:g}; -> 1/sqrt(2e) = {1 / math.sqrt(2 * math.e):.4f})")
    lams = [sg * 10 ** (k / 4) for sg in (-1, 1) for k in range(-8, 7)]
    csg = {}
    for law, p in (("gaussian", 0.5), ("half-normal", 0.5), ("extremal", 0.5),
                   ("extremal-symmetric", 0.5), ("two-point", 0.5), ("two-point", 1e-2),
                   ("two-point", 1e-6)):
        key = law if law != "two-point" else f"two-point p={p:g}"
        x, lw = _test_law(law, p)
        wts = np.exp(lw)
        ok &= abs(wts.sum() - 1) < 1e-12
        ratios = [_logmgf_ratio(x, lw, lam) for lam in lams]
        csg[key] = max(ratios)
        ok &= all(math.isfinite(r) for r in ratios)
        # the hypothesis P(|U| >= y) <= 2e^{-y²/2} (closed-form tails, grid of y)
        yv = np.linspace(0.01, 10, 1000)
        ok &= bool(np.all(_law_tail(law, p, yv) <= 2 * np.exp(-yv * yv / 2) * (1 + 1e-14)))
        # and its moment consequence E|U|^k <= k 2^{k/2} Gamma(k/2)
        for k in (1, 2, 4, 6):
            ok &= float(wts @ np.abs(x) ** k) <= k * 2 ** (k / 2) * math.gamma(k / 2) * (1 + 1e-12)
    ok &= abs(csg["gaussian"] - 0.5) < 1e-9
    rows.append("sup over |lambda sigma| in [1e-2, 31.6] of log-MGF/(lambda sigma)^2: "
                + ", ".join(f"{k} {v:.4f}" for k, v in csg.items())
                + " (Gaussian: exactly 1/2, a check of the quadrature; the symmetric extremal "
                "law needs C_sg >= Var/2 = 1 + log 2 = 1.6931 as lambda -> 0)")
    # NBL's U_s = <v - v*, G_s> at a fixed v on the r0 sphere (logistic4, Delta = 1.5, d = 2)
    env = _env("logistic4", "1.5")
    v = env.initial_direction(math.degrees(2 * math.asin(_R0 / 2)))
    real = env.draw(515, [0], 200_000, 0)
    X, Y = real.X[0], real.Y[0]
    a = np.where(X @ v >= 0, 1, -1)
    y = np.where(a > 0, Y[:, 1], Y[:, 0])
    D = v - env.v_star
    PD = D - (v @ D) * v
    U = a * y * (X @ PD)
    sigma = _b_y(env) * float(np.linalg.norm(PD))
    tail_z, parts = -math.inf, []
    for c in (0.5, 1.0, 2.0, 3.0):
        f, b = float((np.abs(U) >= c * sigma).mean()), 2 * math.exp(-c * c / 2)
        if b < 1:
            tail_z = max(tail_z, _tail_rows(f, b, U.size))
        parts.append(f"P(|U|>={c:g} sigma) = {f:.4f} vs {min(b, 1):.4f}")
    Uc = U - U.mean()
    mg = [math.log(np.mean(np.exp(lt * Uc / sigma))) / lt ** 2 for lt in (-2, -1, -0.5, 0.5, 1, 2)]
    ok &= tail_z <= _K_SE
    rows.append("NBL U_s at |v - v*| = r0 = 0.5 (200,000 draws): " + ", ".join(parts)
                + f"; log-MGF/(lambda sigma)^2 at lambda sigma in +-{{0.5,1,2}}: max "
                f"{max(mg):.4f}")
    return Outcome(PASS if ok else FAIL,
                   f"implied C_sg over the test laws = {max(csg.values()):.4f} (finite; the "
                   f"Gaussian needs 1/2); NBL U_s: {max(mg):.4f}", "; ".join(rows))


def _stopped_terms(env: Environment, name: str, delta: str, p: _Paths, r0: float):
    """τ − n0, 1{t <= τ}, ⟨v_{t−1} − v*, h(v_{t−1})⟩ and the running M_t, Q_t of
    eq:localization-martingale / eq:localization-quadratic along the paths ``p``."""
    tau = _exit_index(p.e0, p.e, r0)
    k = np.arange(1, p.e.shape[1] + 1)
    ind = (k[None, :] <= tau[:, None]).astype(float)
    h = _h_along(env, name, delta, p.v_prev)
    dh = ((p.v_prev - env.v_star) * h).sum(-1)
    eta = p.eta[None, :]
    M = np.cumsum(2 * eta * (p.inner - dh) * ind, axis=1)
    Q = np.cumsum(eta ** 2 * p.gsq * ind, axis=1)
    return tau, ind, dh, M, Q


@register("stopped-stochastic-control", "lem:stopped-stochastic-control",
          "app:stopped-stochastic-control",
          "If n0 + t0 >= C_Q B^2 gamma^2 r0^-2 (d + log(3/delta)) (C_Q = 12) then P(Q_n > r0^2/4) "
          "<= delta/3; if n0 + t0 >= C_M B^2 gamma^2 r0^-2 log(3/delta) (C_M = 256 C_sg) then "
          "P(max M_t > r0^2/4) <= delta/3; and (eq:stochastic-good-events) n0 >= C_quad B^2 "
          "gamma^2 r0^-2 (d + log(3/delta)) gives both. NBL paths at exactly these thresholds "
          "(logistic4, Delta = 1.5, d = 2, gamma = 1, r0 = 0.5, delta = 0.3, Bernoulli)",
          "monte-carlo", f"frequency <= bound + {_K_SE:g} SE; constant algebra exact (sympy)",
          "independent paths; C_sg is unspecified, so the M-thresholds use C_sg = 1/2, the "
          "smallest value Gaussian increments allow (the most demanding choice: the paper's "
          "C_M can only be larger)",
          covers=("eq:stochastic-good-events",))
def _stopped_control():
    import sympy as sp
    n0t0, r0s, Csg, B, g, d, L = sp.symbols("N r0 C_sg B gamma d L", positive=True)
    x = r0s ** 2 / 4
    expo = n0t0 * x ** 2 / (16 * Csg * B ** 2 * r0s ** 2 * g ** 2)
    alg1 = sp.simplify(expo - n0t0 * r0s ** 2 / (256 * Csg * B ** 2 * g ** 2)) == 0
    thr_q = sp.solve(sp.Eq(3 * B ** 2 * g ** 2 * (d + L) / n0t0, r0s ** 2 / 4), n0t0)
    alg2 = (len(thr_q) == 1
            and sp.simplify(thr_q[0] - 12 * B ** 2 * g ** 2 * (d + L) / r0s ** 2) == 0)
    name, delta, gamma, r0, dlt = "logistic4", "1.5", 1.0, _R0, 0.3
    env = _env(name, delta)
    Bv, dv, L3 = _b_y(env), env.d, math.log(3 / dlt)
    thrQ = math.ceil(12 * Bv ** 2 * gamma ** 2 / r0 ** 2 * (dv + L3))
    thrM = math.ceil(128 * Bv ** 2 * gamma ** 2 / r0 ** 2 * L3)
    thrG = math.ceil(128 * Bv ** 2 * gamma ** 2 / r0 ** 2 * (dv + L3))
    R, steps = 300, 2000
    rows, worst_z, ok = [], -math.inf, alg1 and alg2
    for label, n0, t0, seed in (("Q threshold", 100, thrQ - 100, 61),
                                ("M threshold", 100, thrM - 100, 62),
                                ("good events (t0 = 0)", thrG, 0, 63)):
        p = _run_paths(env, seed, R, n0 + steps, n0=n0, gamma=gamma, t0=float(t0), keep_v=True)
        _tau, _ind, _dh, M, Q = _stopped_terms(env, name, delta, p, r0)
        Mmax = np.maximum(M.max(1), 0.0)               # max over n0 <= t <= n (M_{n0} = 0)
        fQ, fM = float((Q[:, -1] > r0 ** 2 / 4).mean()), float((Mmax > r0 ** 2 / 4).mean())
        for f in ((fQ,) if label.startswith("Q") else (fM,) if label.startswith("M")
                  else (fQ, fM)):
            worst_z = max(worst_z, _tail_rows(f, dlt / 3, R))
        # near-tight intermediate bounds of the proof on the same paths
        c = n0 + t0
        parts = []
        for b in (0.9, 0.5, 0.1):
            xm = math.sqrt(8 * Bv ** 2 * r0 ** 2 * gamma ** 2 * math.log(1 / b) / c)
            fm = float((Mmax >= xm).mean())
            worst_z = max(worst_z, _tail_rows(fm, b, R))
            parts.append(f"P(max M >= {xm:.3g}) = {fm:.3f} vs {b}")
        for xq in (0.5, 2.0):
            thr = 3 * Bv ** 2 * gamma ** 2 * (dv + xq) / c
            fq = float((Q[:, -1] > thr).mean())
            worst_z = max(worst_z, _tail_rows(fq, math.exp(-xq), R))
            parts.append(f"P(Q_n > {thr:.3g}) = {fq:.3f} vs e^-{xq:g}")
        rows.append(f"[{label}: n0 = {n0}, t0 = {t0}, n0 + t0 = {c}, n = n0 + {steps}, R = {R}] "
                    f"P(Q_n > r0^2/4) = {fQ:.3f}, P(max M_t > r0^2/4) = {fM:.3f} (delta/3 = "
                    f"{dlt / 3:.3f}); max Q_n = {Q[:, -1].max():.3g}, max_t M_t up to "
                    f"{Mmax.max():.3g}; " + ", ".join(parts))
    ok &= worst_z <= _K_SE
    return Outcome(PASS if ok else FAIL,
                   f"all frequencies below their bounds (max z = {worst_z:.1f}); thresholds "
                   f"n0 + t0 = {thrQ} (Q, C_Q = 12), {thrM} (M, C_sg = 1/2), n0 = {thrG} "
                   f"(good events, C_quad = 128)",
                   f"sympy: x = r0^2/4 gives exponent (n0+t0) r0^2/(256 C_sg B^2 gamma^2): {alg1}; "
                   f"3 B^2 gamma^2 (d + L)/(n0+t0) <= r0^2/4 iff n0+t0 >= 12 B^2 gamma^2 (d + L)/"
                   f"r0^2 (C_Q = 12): {alg2}. " + "; ".join(rows)
                   + ". The thresholds are conservative: the observed M and Q stay far below "
                   "r0^2/4, so these tails are not near tight")


# ---------------------------------------------------------------- eq:init-bound-localization
def _init_exceed(env: Environment, grid: np.ndarray, R: int, r: float, seed: int,
                 chunk: int = 500) -> np.ndarray:
    """P(‖v_{n0} − v*‖ > r) of the randomized initialization for every n0 in ``grid`` (all n0
    from one prefix-sharing realization per replication)."""
    n = int(grid[-1])
    count = np.zeros(grid.size)
    for r0 in range(0, R, chunk):
        real = env.draw(seed, range(r0, min(R, r0 + chunk)), n, n)
        c = real.coins.astype(float)
        y = np.where(real.coins > 0, real.Y[..., 1], real.Y[..., 0])
        S = np.cumsum((c * y)[..., None] * real.X, axis=1)[:, grid - 1]
        nrm = np.linalg.norm(S, axis=2)
        v = S / np.where(nrm > 0, nrm, 1.0)[..., None]
        e = ((v - env.v_star) ** 2).sum(2)
        count += ((e > r * r) | (nrm == 0)).sum(0)
    return count / R


def _init_bound(cases, R: int, nmax: int = 2600):
    from scipy.stats import chi2
    grid = np.unique(np.round(np.geomspace(10, nmax, 60)).astype(int))
    rows, implied, predicted = [], [], []
    for name, delta, d in cases:
        env = _env(name, delta, d, "bernoulli", 100 + d)
        mu_g = float(stability(env.link, delta).values["mu_g"])
        B = _b_y(env)
        P = _init_exceed(env, grid, R, _R0 / 2, 700 + d)
        parts = []
        for p in (0.1, 0.03, 0.01):
            ok_idx = np.flatnonzero(P <= p)
            if ok_idx.size == 0:
                parts.append(f"p={p}: n0 > {grid[-1]}")
                continue
            n0 = int(grid[ok_idx[0]])
            L = math.log(1 / p)                         # log(3/delta) with delta/3 = p
            c = n0 * env.delta ** 2 * mu_g ** 2 * _R0 ** 2 / (B ** 2 * (d + L))
            implied.append(c)
            predicted.append(chi2.ppf(1 - p, d - 1) / (d + L))
            parts.append(f"P <= {p}: n0* = {n0}, implied C_init = {c:.2f}")
        rows.append(f"{name} Delta={delta} d={d} (mu_g = {mu_g:.4f}): " + ", ".join(parts))
    spread = max(implied) / min(implied)
    pspread = max(predicted) / min(predicted)
    return spread, pspread, rows


_INIT_WHY = ("C_init is not specified: what can be checked is the scaling n0 ~ (d + log(3/delta))"
             " B^2/(Delta^2 mu_g^2 r0^2). n0*(d, p) is the smallest n0 on a geometric grid (60 "
             "points, 10..2600; 10..6000 in the full version) with P(e_{n0} > r0^2/4) <= p; "
             "the implied constant n0* Delta^2 mu_g^2 r0^2/(B^2 (d + log(1/p))) must stay "
             "bounded. The tangential noise of W-bar is ~chi^2_{d-1}, whose (1-p)-quantile "
             "divided by (d + log(1/p)) lies in [0.6, 2] for "
             "d >= 2, p <= 0.1, so a spread above 5 would contradict the scaling")


@register("init-bound-localization", "eq:init-bound-localization", "app:stopped-stochastic-control",
          "P(e_{n0} > r0^2/4) <= delta/3 once n0 >= C_init B^2/(Delta^2 mu_g^2 r0^2) (d + "
          "log(3/delta)) with a universal C_init (r0 = 0.5, logistic4 Delta = 1.5, d in {2, 4})",
          "monte-carlo", "spread of the implied C_init over (d, delta) <= 5",
          _INIT_WHY, printed="n0 >= C_init B^2/(Delta^2 mu_g^2 r0^2) (d + log(3/delta))")
def _init_quick():
    spread, pspread, rows = _init_bound([("logistic4", "1.5", 2), ("logistic4", "1.5", 4)], 1200)
    return Outcome(PASS if spread <= 5 else DISCREPANCY,
                   f"implied C_init spread (max/min) = {spread:.2f} (chi^2_(d-1) prediction "
                   f"{pspread:.2f})", "; ".join(rows) + " (1,200 replications)")


@register("init-bound-localization-full", "eq:init-bound-localization",
          "app:stopped-stochastic-control",
          "As init-bound-localization over d in {2, 4, 8} and two links (logistic4 Delta = 1.5, "
          "logistic Delta = 1): the implied universal C_init stays bounded",
          "monte-carlo", "spread of the implied C_init over (link, d, delta) <= 5", _INIT_WHY,
          printed="n0 >= C_init B^2/(Delta^2 mu_g^2 r0^2) (d + log(3/delta))", quick=False)
def _init_full():
    spread, pspread, rows = _init_bound([("logistic4", "1.5", 2), ("logistic4", "1.5", 4),
                                         ("logistic4", "1.5", 8), ("logistic", "1", 2),
                                         ("logistic", "1", 4)], 3000, 6000)
    return Outcome(PASS if spread <= 5 else DISCREPANCY,
                   f"implied C_init spread (max/min) = {spread:.2f} (chi^2_(d-1) prediction "
                   f"{pspread:.2f})", "; ".join(rows) + " (3,000 replications)")


# ---------------------------------------------------------------- kernel-based path statistics
def _kernel_errors(env: Environment, seed: int, R: int, n: int, n0: int, gamma: float,
                   t0: float, chunk: int = 250, coins_n0: int | None = None):
    """e_t for t = n0..n (R, n − n0 + 1) and the cumulative regret R_n (R,), from
    ``nbl_run`` (compiled kernel) on ``env.draw(seed, ...)``, in chunks of replications.
    ``coins_n0`` draws that many coins (>= n0) so runs with different n0 share realizations."""
    cn = max(n0, coins_n0 or n0)
    sq = np.empty((R, n - n0 + 1))
    reg = np.empty(R)
    for c0 in range(0, R, chunk):
        idx = range(c0, min(R, c0 + chunk))
        real = env.draw(seed, idx, n, cn)
        tr = nbl_run(real.X, real.Y, real.coins[:, :n0], env.v_star, gamma=gamma, t0=t0,
                     record_rounds=np.arange(n0, n + 1))
        sq[c0:c0 + len(idx)] = tr.sq_error
        opt = env.optimal_actions(real.X)
        gap = np.abs(real.means[..., 1] - real.means[..., 0])
        reg[c0:c0 + len(idx)] = np.where(tr.actions != opt, gap, 0.0).sum(1)
    return sq, reg


def _tau_from_sq(sq: np.ndarray, r0: float) -> np.ndarray:
    """τ − n0 from e_t, t = n0..n (sentinel if no exit)."""
    ex = sq > r0 * r0
    return np.where(ex.any(1), ex.argmax(1), np.iinfo(np.int64).max // 2)


def _localization_run(d: int, n0s, R: int, n: int, seed: int, long_n: int, long_R: int):
    """P(τ <= n) for the n0 grid, a weighted fit of log P on n0 (with a quadratic term to
    detect sub-exponential decay), and the n-uniformity check at n0 = n0s[1]."""
    env = _env("logistic4", "1.5", d, "bernoulli", None if d == 2 else 100 + d)
    rows, P, ok = [], [], True
    for n0 in n0s:
        sq, _ = _kernel_errors(env, seed, R, n, n0, 5.0, float(n0), coins_n0=max(n0s))
        tau = _tau_from_sq(sq, _R0)
        P.append(float((tau <= n - n0).mean()))
        rows.append(f"n0 = {n0}: P(tau <= {n}) = {P[-1]:.4f} (tau = n0: "
                    f"{float((tau == 0).mean()):.4f})")
    P = np.array(P)
    x = np.array(n0s, dtype=float)
    use = P * R >= 5                                   # points with >= 5 exits
    lp = np.log(P[use])
    w = 1 / ((1 - P[use]) / (R * P[use]))              # 1/Var(log P-hat) (delta method)
    A = np.stack([np.ones(use.sum()), x[use], (x[use] - x[use].mean()) ** 2], axis=1)
    cov = np.linalg.inv(A.T @ (A * w[:, None]))
    coef = cov @ (A.T @ (w * lp))
    slope_z = coef[1] / math.sqrt(cov[1, 1])
    curv_z = coef[2] / math.sqrt(cov[2, 2])
    ok &= slope_z < -_K_SE and curv_z <= _K_SE
    c_loc = float(max(n / (d - math.log(p)) for n, p in zip(x, P) if p > 0))
    n0 = n0s[1]
    sq, _ = _kernel_errors(env, seed + 1, long_R, long_n, n0, 5.0, float(n0))
    tau = _tau_from_sq(sq, _R0)
    p_short, p_long = float((tau <= n - n0).mean()), float((tau <= long_n - n0).mean())
    se = math.sqrt(max(p_long * (1 - p_long), 1 / long_R) / long_R)
    ok &= p_long - p_short <= 0.01 + _K_SE * se
    rows.append(f"n-uniformity at n0 = {n0} ({long_R} paths): P(tau <= {n}) = {p_short:.4f}, "
                f"P(tau <= {long_n}) = {p_long:.4f}")
    fit = (f"d = {d}: log P = {coef[0]:.2f} + ({coef[1]:.4f} +- {math.sqrt(cov[1, 1]):.4f}) n0 "
           f"+ ({coef[2]:.2e} +- {math.sqrt(cov[2, 2]):.1e}) (n0 - mean)^2 (slope z = "
           f"{slope_z:.1f}, curvature z = {curv_z:.1f}); exponential rate 1/{-1 / coef[1]:.1f}; "
           f"smallest C_loc with P <= exp(d - n0/C_loc) on the grid: {c_loc:.1f}")
    return ok, fit, rows


_LOC_TOL = ("log P(tau <= n) on n0: slope < 0 at > 5 SE and no significant (> 5 SE) convexity; "
            "P(tau <= long n) - P(tau <= n) <= 0.01 + 5 SE")
_LOC_WHY = ("C_loc is unspecified: 'P <= delta once n0 >= C_loc(d + log 1/delta)' is equivalent "
            "to P(tau <= n) <= exp(d - n0/C_loc), i.e. log P decaying at least linearly in n0 "
            "(sub-exponential, e.g. polynomial, decay is convex in n0 and would be caught by "
            "the quadratic term) uniformly in n. Weights: delta-method variances of log P-hat. "
            "The event inclusion E_init, E_M, E_Q => tau > n is checked pathwise in "
            "stopped-recursion-pathwise")


@register("finite-horizon-localization", "lem:finite-horizon-localization", "sec:regret",
          "P(tau <= n) <= delta once n0 >= C_loc (d + log(1/delta)), C_loc independent of d, n, "
          "delta: P(tau <= n) decays exponentially in n0 and does not grow with the horizon n "
          "(logistic4 Delta = 1.5, d = 2, r0 = 0.5, gamma = 5, t0 = n0, Bernoulli)",
          "monte-carlo", _LOC_TOL, _LOC_WHY)
def _localization():
    ok, fit, rows = _localization_run(2, (50, 100, 150, 200), 1500, 600, 81, 3000, 500)
    return Outcome(PASS if ok else FAIL, fit, "; ".join(rows) + " (1500 replications)")


@register("finite-horizon-localization-d", "lem:finite-horizon-localization", "sec:regret",
          "As finite-horizon-localization with 4000 replications in d = 2 and d = 4 (random "
          "geometry): exponential decay in n0 in both, with the implied C_loc reported per d",
          "monte-carlo", _LOC_TOL, _LOC_WHY, quick=False)
def _localization_d():
    out, fits = True, []
    allrows = []
    for d, n0s in ((2, (50, 100, 150, 200, 250, 300)), (4, (100, 150, 200, 300, 400, 500))):
        ok, fit, rows = _localization_run(d, n0s, 4000, 1000, 90 + d, 4000, 1000)
        out &= ok
        fits.append(fit)
        allrows += rows
    return Outcome(PASS if out else FAIL, "; ".join(fits), "; ".join(allrows))


# ---------------------------------------------------------------- prop:localized-estimation
@functools.cache
def _rate_run(d: int, R: int, n: int, n0: int, gamma: float, seed: int):
    """Shared simulation of prop:localized-estimation / eq:Ce-explicit (t0 = n0, C_off = 1):
    a_t = E[e_t 1{τ > t}] with batch SEs, E[e_{n0}], and the constants."""
    env = _env("logistic4", "1.5", d, "bernoulli", None if d == 2 else 100 + d)
    t0 = float(n0)
    sq, _ = _kernel_errors(env, seed, R, n, n0, gamma, t0)
    tau = _tau_from_sq(sq, _R0)
    k = np.arange(sq.shape[1])
    y = sq * (k[None, :] < tau[:, None])                # e_t 1{τ > t}, t = n0 + k
    a, se = _mean_se(y)
    batch_means = np.stack([b.mean(0) for b in np.array_split(y, 10)])   # for the slope's SE
    if d == 2:
        lam0 = _lambda0_2d("logistic4", "1.5", _R0)
    else:
        lam0 = _lambda0_cap(env, _R0)
    mu_g = float(stability(env.link, "1.5").values["mu_g"])
    return dict(env=env, t=n0 + k, t0=t0, n0=n0, gamma=gamma, a=a, se=se, batches=batch_means,
                e_n0=float(sq[:, 0].mean()), lam0=lam0, mu_g=mu_g, B=_b_y(env), R=R)


def _loglog_slope(run, t_lo: int):
    """Slope of log a_t on log(t + t0) over t >= t_lo, with an SE from 10 batches of paths."""
    sel = run["t"] >= t_lo
    X = np.log(run["t"][sel] + run["t0"])

    def slope(a):
        return float(np.polyfit(X, np.log(a[sel]), 1)[0])

    full = slope(run["a"])
    bs = [slope(b) for b in run["batches"]]
    return full, float(np.std(bs, ddof=1) / math.sqrt(len(bs)))


@register("localized-estimation-rate", "prop:localized-estimation", "sec:regret",
          "E[||v_t - v*||^2 1{tau > t}] <= C_e d/(t + t0) for t >= n0 (eta_t = gamma/(t + t0), "
          "2 gamma lambda0 > 1, n0 + 1 + t0 >= 2 gamma lambda0, t0 <= C_off n0): checked with "
          "the explicit C = max{(n0+t0) a_{n0}, B^2 gamma^2 d/(2 gamma lambda0 - 1)} of the proof "
          "at every t, and the 1/t rate by the log-log slope (logistic4, Delta = 1.5, d = 2, "
          "r0 = 0.5, gamma = 5, n0 = t0 = 100, n = 8000, 1000 paths)",
          "monte-carlo",
          f"a_t <= C/(t + t0) + {_K_SE:g} SE at every t; log-log slope over t in [1000, 8000] "
          f"<= -1 + {_K_SE:g} SE",
          "a_t is a mean over 1000 independent paths (SE from their spread); the slope's SE is "
          "from 10 batches of 100 paths. The proposition's C_e is not fully explicit (C'_init); "
          "the bound checked is the lemma's C with the measured a_{n0}, the quantity the proof "
          "bounds")
def _estimation_rate():
    run = _rate_run(2, 1000, 8000, 100, 5.0, 91)
    alpha = 2 * run["gamma"] * run["lam0"]
    n0, t0, B, d = run["n0"], run["t0"], run["B"], run["env"].d
    cond = alpha > 1 and n0 + 1 + t0 >= alpha
    b = B ** 2 * run["gamma"] ** 2 * d
    C = max((n0 + t0) * run["a"][0], b / (alpha - 1))
    z = (run["a"] - C / (run["t"] + t0)) / np.maximum(run["se"], 1e-300)
    zmax = float(z[run["se"] > 0].max())
    slope, sse = _loglog_slope(run, 1000)
    scaled = (run["t"] + t0) * run["a"] / d
    ok = cond and zmax <= _K_SE and slope <= -1 + _K_SE * sse
    return Outcome(PASS if ok else FAIL,
                   f"max_t z(a_t - C/(t+t0)) = {zmax:.1f}; slope = {slope:.3f} +- {sse:.3f}; "
                   f"(t+t0) a_t/d at t = 1000, 4000, 8000: "
                   + ", ".join(f"{scaled[run['t'] == tt][0]:.3f}" for tt in (1000, 4000, 8000)),
                   f"lambda0(0.5) = {run['lam0']:.4f}, 2 gamma lambda0 = {alpha:.3f} > 1, "
                   f"n0 + 1 + t0 = {n0 + 1 + t0:g} >= 2 gamma lambda0; a_n0 = {run['a'][0]:.4f}, "
                   f"C = max({(n0 + t0) * run['a'][0]:.3f}, {b / (alpha - 1):.3f}) = {C:.3f}; "
                   f"C/(t+t0) exceeds a_t by a factor "
                   f"{float((C / (run['t'] + t0) / run['a']).min()):.2f} at least. The "
                   f"d-dependence (C_e d) is checked in localized-estimation-rate-d "
                   f"(slow); the full rate study belongs to the rate experiments")


@register("localized-estimation-rate-d", "prop:localized-estimation", "sec:regret",
          "As localized-estimation-rate in d = 2, 4, 8 (random geometry, 600 paths, n = 8000): "
          "the bound with the explicit C holds, the slope is <= -1, and (t + t0) a_t/d stays "
          "of the same order across d", "monte-carlo",
          "per d as in localized-estimation-rate; (t+t0) a_t/d at t = 8000 within a factor 3 "
          "across d", "lambda0(r0) for d > 2 from a grid of the cap (lambda0 of "
          "cor:local_stability); a factor 3 allows for the d-dependence of E||G||^2 ~ (d - 1) "
          "E[Y^2] relative to the bound's B^2 d", quick=False)
def _estimation_rate_d():
    out, parts, ends = True, [], []
    for d in (2, 4, 8):
        run = _rate_run(d, 600, 8000, 100 * (d // 2 + 1), 5.0, 95 + d)
        alpha = 2 * run["gamma"] * run["lam0"]
        n0, t0, B = run["n0"], run["t0"], run["B"]
        b = B ** 2 * run["gamma"] ** 2 * d
        C = max((n0 + t0) * run["a"][0], b / (alpha - 1))
        z = (run["a"] - C / (run["t"] + t0)) / np.maximum(run["se"], 1e-300)
        zmax = float(z[run["se"] > 0].max())
        slope, sse = _loglog_slope(run, 1000)
        end = float((run["t"][-1] + t0) * run["a"][-1] / d)
        ends.append(end)
        out &= alpha > 1 and n0 + 1 + t0 >= alpha and zmax <= _K_SE and slope <= -1 + _K_SE * sse
        parts.append(f"d = {d} (n0 = t0 = {n0}, lambda0 = {run['lam0']:.4f}): max z = "
                     f"{zmax:.1f}, slope = {slope:.3f} +- {sse:.3f}, (t+t0) a_t/d at 8000 = "
                     f"{end:.3f}")
    out &= max(ends) / min(ends) <= 3
    return Outcome(PASS if out else FAIL, "; ".join(parts), "600 paths per d")


@register("ce-explicit", "eq:Ce-explicit", "app:localized-estimation",
          "C_e = max{C'_init (1 + C_off) B^2/(Delta^2 mu_g^2), B^2 gamma^2/(2 gamma lambda0 - 1)} "
          "gives C <= C_e d and E[e_t 1{tau > t}] <= C_e d/(t + t0); evaluated with the "
          "measured C'_init = E[e_{n0}] Delta^2 mu_g^2 n0/(B^2 d) (the smallest value consistent "
          "with prop:randomized_initialization's expectation bound at this n0)",
          "monte-carlo", f"a_t <= C_e d/(t + t0) + {_K_SE:g} SE at every t; (n0+t0) a_n0 <= "
          "C'_init (1 + C_off) B^2 d/(Delta^2 mu_g^2) exactly",
          "same paths as localized-estimation-rate; C'_init is a universal constant the paper "
          "does not give, so its smallest admissible value at this n0 is measured")
def _ce_explicit():
    run = _rate_run(2, 1000, 8000, 100, 5.0, 91)
    env, n0, t0, B, d = run["env"], run["n0"], run["t0"], run["B"], run["env"].d
    dl2mu2 = env.delta ** 2 * run["mu_g"] ** 2
    c_init = run["e_n0"] * dl2mu2 * n0 / (B ** 2 * d)
    c_off = t0 / n0
    alpha = 2 * run["gamma"] * run["lam0"]
    first = c_init * (1 + c_off) * B ** 2 / dl2mu2
    second = B ** 2 * run["gamma"] ** 2 / (alpha - 1)
    Ce = max(first, second)
    C = max((n0 + t0) * run["a"][0], B ** 2 * run["gamma"] ** 2 * d / (alpha - 1))
    step = (n0 + t0) * run["a"][0] <= c_init * (1 + c_off) * B ** 2 * d / dl2mu2 * (1 + 1e-12)
    z = (run["a"] - Ce * d / (run["t"] + t0)) / np.maximum(run["se"], 1e-300)
    zmax = float(z[run["se"] > 0].max())
    ok = step and C <= Ce * d * (1 + 1e-12) and zmax <= _K_SE
    return Outcome(PASS if ok else FAIL,
                   f"C_e = max({first:.3f}, {second:.3f}) = {Ce:.3f}; C = {C:.3f} <= C_e d = "
                   f"{Ce * d:.3f}; max_t z(a_t - C_e d/(t+t0)) = {zmax:.1f}",
                   f"measured E[e_n0] = {run['e_n0']:.4f} at n0 = {n0}, so C'_init = "
                   f"{c_init:.3f}; C_off = t0/n0 = {c_off:g}; Delta^2 mu_g^2 = {dl2mu2:.4f}; "
                   f"lambda0 = {run['lam0']:.4f}; (n0+t0) a_n0 = {(n0 + t0) * run['a'][0]:.3f}")


# ================================================================ app:error-to-regret
_RAD = _gl_grid(0.0, 12.0, 0.5, 16)          # radial nodes for polar quadrature


def _wedges(alpha: float):
    """The two arcs of φ where sgn(cos φ) ≠ sgn(cos(φ − α)) (v* = e1, v = v(α))."""
    if alpha >= 0:
        return [(math.pi / 2, math.pi / 2 + alpha), (1.5 * math.pi, 1.5 * math.pi + alpha)]
    return [(math.pi / 2 + alpha, math.pi / 2), (1.5 * math.pi + alpha, 1.5 * math.pi)]


def _polar_expect(f, alpha: float, n_ang: int = 48, split=()):
    """E[f(X1, X2) 1{disagree}] for X ~ N(0, I_2) by Gauss-Legendre in the angle (each wedge,
    split at the angles ``split``) and composite Gauss-Legendre in the radius."""
    xa, wa = np.polynomial.legendre.leggauss(n_ang)
    rho, wr = _RAD
    total = 0.0
    for lo, hi in _wedges(alpha):
        cuts = [lo] + [s for s in split if lo < s < hi] + [hi]
        for a, b in zip(cuts[:-1], cuts[1:]):
            phi = (a + b) / 2 + (b - a) / 2 * xa
            w = (b - a) / 2 * wa
            X1 = rho[:, None] * np.cos(phi)[None, :]
            X2 = rho[:, None] * np.sin(phi)[None, :]
            dens = (wr * rho * np.exp(-rho * rho / 2))[:, None] * w[None, :] / (2 * math.pi)
            total += float((f(X1, X2) * dens).sum())
    return total


def _regret_given_v(link: Link, delta: float, alpha: float) -> float:
    """E[r_t | v_{t−1} = v(α)] = E[|m_+(X) − m_−(X)| 1{sgn(vᵀX) ≠ sgn(v*ᵀX)}] in d = 2."""
    tau = math.sqrt(1 - delta * delta / 4)

    def f(x1, x2):
        return np.abs(link.g_numpy(tau * x2 + delta / 2 * x1)
                      - link.g_numpy(tau * x2 - delta / 2 * x1))
    return _polar_expect(f, alpha)


def _sup_gprime(link: Link) -> float:
    z = np.linspace(-30, 30, 60001)
    gp = link.derivative_numpy(z, 1)
    i = int(np.argmax(np.abs(gp)))
    res = minimize_scalar(lambda s: -abs(float(link.derivative_numpy(np.array([s]), 1)[0])),
                          bounds=(z[max(i - 1, 0)], z[min(i + 1, z.size - 1)]), method="bounded",
                          options={"xatol": 1e-12})
    return max(float(np.abs(gp).max()), -float(res.fun))


_ALPHAS = (1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.2, 0.4, 0.7, 1.0, 1.5, 2.0, 2.5, 3.0, math.pi)


@register("error-to-regret", "eq:error-to-regret", "sec:regret",
          "E[r_t | H_{t-1}] <= C_gap (Delta/2) ||v_{t-1} - v*||^2 with C_gap depending only on "
          "the growth constants of g' (not on Delta, d, t): in d = 2, E[r | v(alpha)] by "
          "quadrature for 4 links and Delta in {0.2, 1, 1.8}; the explicit constant of the proof "
          "for bounded g' is C_gap = phi0(0) sup|g'|, and the ratio tends to "
          "phi0(0) E[W^2 g'(||theta|| W)] as alpha -> 0 (the quadratic scaling)",
          "high-precision",
          "ratio <= phi0(0) sup|g'| (1 + 1e-9); |ratio(1e-4)/limit - 1| <= 1e-3; quadrature vs "
          "Monte Carlo within 5 SE",
          "polar Gauss-Legendre (48 angular nodes per wedge, 384 radial) of a smooth integrand "
          "(the sign of m_+ - m_- is sgn(v*^T X), fixed on each wedge): ~1e-12 relative, "
          "confirmed by refining; the ratio's next term is O(alpha), so 1e-3 at alpha = 1e-4 is "
          "generous; the Monte Carlo check guards the quadrature itself")
def _error_to_regret():
    rows, ok, worst = [], True, 0.0
    xg, wg = _gl_grid(-12.0, 12.0, 0.25, 16)
    phi = np.exp(-xg * xg / 2) / math.sqrt(2 * math.pi)
    for name in ("logistic", "logistic4", "tt-stable", "tt-unstable"):
        link = _link(name)
        sgp = _sup_gprime(link)
        cgap = _PHI0 * sgp
        for dtxt in ("0.2", "1", "1.8"):
            dl = float(dtxt)
            tau = math.sqrt(1 - dl * dl / 4)
            limit = _PHI0 * float((wg * phi * xg * xg * link.derivative_numpy(tau * xg, 1)).sum())
            ratios = []
            for a in _ALPHAS:
                for s in (1, -1):
                    e = 2 * (1 - math.cos(a))
                    ratios.append((s * a, _regret_given_v(link, dl, s * a) / (dl / 2 * e)))
            rmax = max(r for _, r in ratios)
            worst = max(worst, rmax / cgap)
            small = [r for a, r in ratios if abs(a) == 1e-4]
            dev = max(abs(r / limit - 1) for r in small)
            ok &= rmax <= cgap * (1 + 1e-9) and dev <= 1e-3
            rows.append(f"{name} Delta={dtxt}: max ratio {rmax:.5f} (at alpha = "
                        f"{max(ratios, key=lambda t: t[1])[0]:.3g}) <= C_gap = {cgap:.5f}; "
                        f"alpha -> 0 limit {limit:.6f} (ratio at 1e-4 off by {dev:.1e})")
    # Monte Carlo cross-check of the quadrature (logistic4, Delta = 1.5)
    link, dl = _link("logistic4"), 1.5
    rng = np.random.default_rng(31)
    X = rng.standard_normal((1_000_000, 2))
    tau = math.sqrt(1 - dl * dl / 4)
    gap = np.abs(link.g_numpy(tau * X[:, 1] + dl / 2 * X[:, 0])
                 - link.g_numpy(tau * X[:, 1] - dl / 2 * X[:, 0]))
    zs = []
    for a in (0.3, -1.0):
        v = np.array([math.cos(a), math.sin(a)])
        r = np.where(np.sign(X @ v) != np.sign(X[:, 0]), gap, 0.0)
        m, se = _mean_se(r)
        zs.append((m - _regret_given_v(link, dl, a)) / se)
    ok &= max(abs(z) for z in zs) <= _K_SE
    # quadrature refinement (twice the angular nodes)
    tau1 = math.sqrt(1 - 0.25)
    q1 = _regret_given_v(_link("tt-stable"), 1.0, 0.7)
    q2 = _polar_expect(lambda x1, x2: np.abs(_link("tt-stable").g_numpy(tau1 * x2 + x1 / 2)
                                             - _link("tt-stable").g_numpy(tau1 * x2 - x1 / 2)),
                       0.7, n_ang=96)
    ok &= abs(q1 / q2 - 1) < 1e-10
    return Outcome(PASS if ok else FAIL,
                   f"max over links, Delta, alpha of ratio/C_gap = {worst:.4f} (<= 1)",
                   "; ".join(rows) + "; Monte Carlo (1e6 contexts) vs quadrature: z = "
                   + ", ".join(f"{z:.2f}" for z in zs)
                   + f"; refinement 48 -> 96 angular nodes: relative change {abs(q1 / q2 - 1):.1e}"
                   + ". The paper's C_gap is not numeric; the checked constant is the one its "
                   "proof yields for bounded g' (|m_+ - m_-| <= Delta |v*^T X| sup|g'| and "
                   "E[|v*^T X| 1{disagree}] = phi0(0) ||v - v*||^2/2)")


def _abs_moment(mu: np.ndarray, s: float, q: int) -> np.ndarray:
    """E|μ + sZ|^q, Z ~ N(0, 1), for q in {0, 1, 2, 3} (closed forms; |·|^0 = 1)."""
    from scipy.special import ndtr
    mu = np.asarray(mu, dtype=float)
    if q == 0:
        return np.ones_like(mu)
    if s == 0:
        return np.abs(mu) ** q
    r = mu / s
    ph = np.exp(-r * r / 2) * math.sqrt(2 / math.pi)
    sgn = 2 * ndtr(r) - 1
    if q == 1:
        return s * ph + mu * sgn
    if q == 2:
        return mu * mu + s * s
    if q == 3:
        return (mu ** 3 + 3 * mu * s * s) * sgn + s * (mu * mu + 2 * s * s) * ph
    raise ValueError(q)


def _disagreement_lhs(theta2: float, theta3: float, q: int, alpha: float) -> float:
    """E[|v*ᵀX|{1 + |θᵀX|^q + |v*ᵀX|^q} 1{disagree}] with v* = e1, v = v(α) in span(e1, e2),
    θ = (0, θ2, θ3) (the X3 integral in closed form)."""
    def f(x1, x2):
        return np.abs(x1) * (1 + _abs_moment(theta2 * x2, abs(theta3), q) + np.abs(x1) ** q)
    return _polar_expect(f, alpha, split=(math.pi, 2 * math.pi))


def _disagreement_bound_const(q: int, theta_perp: float) -> float:
    """The proof's explicit constant: LHS <= (1 + c_q) E[R(1 + R^q + |U|^q)] e/(2π),
    c_q = max(1, 2^{q−1}), R ~ χ_2, U ~ N(0, ‖θ⊥‖²) independent of R."""
    cq = max(1.0, 2.0 ** (q - 1))
    ER = math.sqrt(math.pi / 2)
    ERq1 = 2 ** ((1 + q) / 2) * math.gamma((3 + q) / 2)
    EUq = 1.0 if q == 0 else theta_perp ** q * 2 ** (q / 2) * math.gamma((q + 1) / 2) / math.sqrt(
        math.pi)
    return (1 + cq) * (ER + ERq1 + ER * EUq) / (2 * math.pi)


@register("gaussian-disagreement", "lem:gaussian-polynomial-disagreement", "app:error-to-regret",
          "E[|v*^T X|{1 + |theta^T X|^q + |v*^T X|^q} 1{sgn(v^T X) != sgn(v*^T X)}] <= C_q "
          "||v - v*||^2, via the exact angular identities P(disagree) = alpha/pi and "
          "E[|cos Phi| 1_D] = (1 - cos alpha)/pi (so E[|v*^T X| 1_D] = phi0(0) ||v-v*||^2/2)",
          "high-precision",
          "identities: quadrature to 1e-12, Monte Carlo (d = 5) to 5 SE; bound: LHS <= the "
          "proof's explicit C_q e; alpha -> 0 limit to 1e-3 at alpha = 1e-4",
          "polar Gauss-Legendre with the wedge split at the kinks of |theta^T X|^q, X3 "
          "integrated in closed form (q integer); the identities are exact, so only quadrature "
          "and Monte Carlo error remain")
def _disagreement():
    from scipy import integrate
    ok, rows = True, []
    worst_p, worst_c = 0.0, 0.0
    for a in _ALPHAS + (-0.3, -2.0):
        p = _polar_expect(lambda x1, x2: np.ones_like(x1), a)
        worst_p = max(worst_p, abs(p - abs(a) / math.pi))
        ang = sum(integrate.quad(lambda f: abs(math.cos(f)), lo, hi, epsabs=1e-14)[0]
                  for lo, hi in _wedges(a)) / (2 * math.pi)
        worst_c = max(worst_c, abs(ang - (1 - math.cos(a)) / math.pi))
        e = 2 * (1 - math.cos(a))
        worst_c = max(worst_c, abs(_polar_expect(lambda x1, x2: np.abs(x1), a) - _PHI0 * e / 2))
    ok &= worst_p < 1e-12 and worst_c < 1e-12
    rows.append(f"P(disagree) - alpha/pi: max {worst_p:.1e}; E|cos Phi| 1_D - (1-cos a)/pi and "
                f"E|v*^T X| 1_D - phi0(0) e/2: max {worst_c:.1e} (quadrature)")
    # Monte Carlo in d = 5 with random u, v
    rng = np.random.default_rng(5)
    X = rng.standard_normal((400_000, 5))
    zs = []
    for a in (0.2, 1.3, 2.8):
        u = rng.standard_normal(5)
        u /= np.linalg.norm(u)
        w = rng.standard_normal(5)
        w -= (w @ u) * u
        w /= np.linalg.norm(w)
        v = math.cos(a) * u + math.sin(a) * w
        dis = np.sign(X @ u) != np.sign(X @ v)
        m, se = _mean_se(dis.astype(float))
        zs.append((m - a / math.pi) / se)
        m, se = _mean_se(np.abs(X @ u) * dis)
        zs.append((m - _PHI0 * (1 - math.cos(a))) / se)
    ok &= max(abs(z) for z in zs) <= _K_SE
    rows.append("Monte Carlo d = 5 (400,000): z = " + ", ".join(f"{z:.2f}" for z in zs))
    # the weighted bound with the proof's constant, and the quadratic scaling
    xg, wg = _gl_grid(-12.0, 12.0, 0.25, 16)
    phi = np.exp(-xg * xg / 2) / math.sqrt(2 * math.pi)
    worst_ratio = 0.0
    for th2, th3 in ((1.0, 0.0), (0.0, 1.0), (0.6, 0.8), (0.3, 0.2)):
        for q in (0, 1, 2, 3):
            bound = _disagreement_bound_const(q, abs(th3))
            limit = _PHI0 / 2 * float((wg * phi * xg * xg * (
                1 + _abs_moment(th2 * xg, th3, q) + (1.0 if q == 0 else 0.0))).sum())
            rmax, dev = 0.0, 0.0
            for a in _ALPHAS:
                for s in (1, -1):
                    r = _disagreement_lhs(th2, th3, q, s * a) / (2 * (1 - math.cos(a)))
                    rmax = max(rmax, r)
                    if a == 1e-4:
                        dev = max(dev, abs(r / limit - 1))
            worst_ratio = max(worst_ratio, rmax / bound)
            ok &= rmax <= bound and dev <= 1e-3
            rows.append(f"theta=(0,{th2:g},{th3:g}) q={q}: sup_alpha LHS/e = {rmax:.4f} <= "
                        f"{bound:.4f}; limit {limit:.4f} (off by {dev:.0e} at 1e-4)")
    # q = 1/2 (non-integer) by Monte Carlo against the same explicit bound; q = 3 cross-check
    X = rng.standard_normal((400_000, 3))
    v = np.array([math.cos(1.0), math.sin(1.0), 0.0])
    dis = np.sign(X @ v) != np.sign(X[:, 0])
    m, se = _mean_se(np.abs(X[:, 0]) * (1 + np.abs(0.6 * X[:, 1] + 0.8 * X[:, 2]) ** 3
                                        + np.abs(X[:, 0]) ** 3) * dis)
    zq = (m - _disagreement_lhs(0.6, 0.8, 3, 1.0)) / se
    ok &= abs(zq) <= _K_SE
    rows.append(f"q=3 theta=(0,.6,.8) alpha=1: Monte Carlo vs quadrature z = {zq:.2f}")
    for a in (0.1, 1.0):
        v = np.array([math.cos(a), math.sin(a), 0.0])
        dis = np.sign(X @ v) != np.sign(X[:, 0])
        val = np.abs(X[:, 0]) * (1 + np.abs(0.6 * X[:, 1] + 0.8 * X[:, 2]) ** 0.5
                                 + np.abs(X[:, 0]) ** 0.5) * dis
        m, se = _mean_se(val)
        e = 2 * (1 - math.cos(a))
        b = _disagreement_bound_const(0.5, 0.8) * e
        ok &= m <= b + _K_SE * se
        rows.append(f"q=1/2 theta=(0,.6,.8) alpha={a}: MC {m:.5f} +- {se:.1g} <= {b:.5f}")
    return Outcome(PASS if ok else FAIL,
                   f"identities to {max(worst_p, worst_c):.0e}; max LHS/(C_q e) = "
                   f"{worst_ratio:.3f} (<= 1) with the proof's explicit C_q",
                   "; ".join(rows) + ". C_q = (1 + max(1, 2^(q-1))) E[R(1 + R^q + |U|^q)]/(2 pi), "
                   "the constant the proof's steps give before 'absorbing' (R ~ chi_2, U ~ "
                   "N(0, ||theta_perp||^2))")


# ================================================================ thm:regret-rate
_REGRET_NS = (1000, 4000, 16000)


@functools.cache
def _regret_runs(C0: float, R: int, seed: int, gamma: float = 5.0):
    """R_n for n in _REGRET_NS with n0 = ceil(C0 (d + log n)), t0 = n0, on one realization
    (common random numbers: the runs for smaller n use its prefix), plus e_{n0} and τ(r0 = 1)."""
    env = _env("logistic4", "1.5")
    d = env.d
    n0s = {n: math.ceil(C0 * (d + math.log(n))) for n in _REGRET_NS}
    nmax, cmax = max(_REGRET_NS), max(n0s.values())
    regret = {n: np.empty(R) for n in _REGRET_NS}
    e_n0 = {n: np.empty(R) for n in _REGRET_NS}
    exits = {n: np.empty(R, dtype=bool) for n in _REGRET_NS}
    chunk = 100
    for c0 in range(0, R, chunk):
        idx = range(c0, min(R, c0 + chunk))
        real = env.draw(seed, idx, nmax, cmax)
        opt = env.optimal_actions(real.X)
        gap = np.abs(real.means[..., 1] - real.means[..., 0])
        for n in _REGRET_NS:
            n0 = n0s[n]
            tr = nbl_run(real.X[:, :n], real.Y[:, :n], real.coins[:, :n0], env.v_star,
                         gamma=gamma, t0=float(n0), record_rounds=np.arange(n0, n + 1))
            sl = slice(c0, c0 + len(idx))
            regret[n][sl] = np.where(tr.actions != opt[:, :n], gap[:, :n], 0.0).sum(1)
            e_n0[n][sl] = tr.sq_error[:, 0]
            exits[n][sl] = (tr.sq_error > 1.0).any(1)
    return env, n0s, regret, e_n0, exits


@register("regret-rate", "thm:regret-rate", "sec:regret",
          "E[R_n] = O(d log n) with n0 = ceil(C0 (d + log n)), eta_t = gamma/(t + t0), "
          "2 gamma lambda0 > 1, t0 <= C_off n0; partial check in d = 2 (logistic4, Delta = 1.5, "
          "gamma = 5, t0 = n0, C0 = 15, 400 paths, n in {1e3, 4e3, 1.6e4}): the appendix's "
          "explicit bound 2 B n0 + C_gap (Delta/2) C_e d {1 + log((n+t0)/(n0+t0))} + 2 B n^-3 "
          "with measured constants, and R_n growing like log n",
          "monte-carlo",
          f"E[R_n] <= bound + {_K_SE:g} SE; increment ratio (R_16000 - R_4000)/(R_4000 - R_1000) "
          f"< 2 by 5 SE (sqrt(n) growth would give 2)",
          "regret means over 400 independent paths (common random numbers across n, SE of "
          "differences from paired paths). Not checked here: the d-dependence of the constant "
          "(O(d log n)) and large n - the empirical regret-rate study is a separate issue; the "
          "localization probability n^-4 assumed by the bound is far below Monte Carlo "
          "resolution (reported as the observed exit count)")
def _regret_rate():
    env, n0s, regret, e_n0, exits = _regret_runs(15.0, 400, 123)
    d, B, dl = env.d, _b_y(env), env.delta
    r0 = 1.0
    lam0 = _lambda0_2d("logistic4", "1.5", r0)
    gamma = 5.0
    alpha = 2 * gamma * lam0
    mu_g = float(stability(env.link, "1.5").values["mu_g"])
    cgap = _PHI0 * _sup_gprime(env.link)
    rows, ok, zmax = [], alpha > 1, -math.inf
    means = {}
    for n in _REGRET_NS:
        n0 = n0s[n]
        t0 = float(n0)
        c_init = float(e_n0[n].mean()) * dl ** 2 * mu_g ** 2 * n0 / (B ** 2 * d)
        Ce = max(c_init * 2 * B ** 2 / (dl ** 2 * mu_g ** 2), B ** 2 * gamma ** 2 / (alpha - 1))
        bound = (2 * B * n0 + cgap * dl / 2 * Ce * d * (1 + math.log((n + t0) / (n0 + t0)))
                 + 2 * B * n ** -3.0)
        m, se = _mean_se(regret[n])
        means[n] = m
        zmax = max(zmax, (m - bound) / se)
        # the proof's sum: sum_{t=n0+1}^n 1/(t-1+t0) <= 1 + log((n+t0)/(n0+t0))
        hsum = float((1.0 / (np.arange(n0 + 1, n + 1) - 1 + t0)).sum())
        ok &= hsum <= 1 + math.log((n + t0) / (n0 + t0))
        rows.append(f"n = {n}: n0 = {n0}, E[R_n] = {m:.2f} +- {se:.2f}, R_n/log n = "
                    f"{m / math.log(n):.3f}, bound {bound:.1f} (C_e = {Ce:.2f}; sum 1/(t-1+t0) "
                    f"= {hsum:.3f} <= {1 + math.log((n + t0) / (n0 + t0)):.3f}), exits beyond "
                    f"r0 = 1: {int(exits[n].sum())}/{exits[n].size}")
    d1 = regret[4000] - regret[1000]
    d2 = regret[16000] - regret[4000]
    ratio = float(d2.mean() / d1.mean())
    # SE of the ratio by the delta method on paired differences
    m1, m2 = float(d1.mean()), float(d2.mean())
    cov = np.cov(np.stack([d1, d2])) / d1.size
    g = np.array([-m2 / m1 ** 2, 1 / m1])
    rse = float(math.sqrt(g @ cov @ g))
    ok &= zmax <= _K_SE and ratio + _K_SE * rse < 2
    return Outcome(PASS if ok else FAIL,
                   "E[R_n]/log n = " + ", ".join(f"{means[n] / math.log(n):.3f}"
                                                 for n in _REGRET_NS)
                   + f" for n = {_REGRET_NS}; increment ratio {ratio:.3f} +- {rse:.3f} (log n: "
                   f"~1 plus the n0 growth; sqrt n: 2); max z(E R_n - bound) = {zmax:.1f}",
                   "; ".join(rows) + f". Constants: lambda0(r0 = 1) = {lam0:.4f} (2 gamma "
                   f"lambda0 = {alpha:.3f}), C_gap = phi0(0) sup g' = {cgap:.4f} "
                   f"(error-to-regret), "
                   f"C_e from eq:Ce-explicit with the measured C'_init and C_off = 1, B_Y = 1. "
                   f"Partial check: one link, d = 2, three horizons; the O(d log n) study over "
                   f"d and n is a separate issue")
