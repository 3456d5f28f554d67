"""Simulations of NBL confirm the exact population analysis beyond the paper (issue 18, item 2).

For one case per departure kind the exact analysis (nbl_sim.beyond.analyze) predicts where
greedy NBL goes; NBL is then simulated (nbl_sim.studies.experiment.simulate on
Environment.build(..., contexts=, arms=)) and its final angle compared with the prediction.

How the comparison is made (and why it is a fair confidence interval)
---------------------------------------------------------------------
* NBL starts from the paper's randomized initialization (n0 = 200 rounds, Stage I) or from a
  given angle. A randomized start can land in the basin of *another* attracting equilibrium
  (the start is far from v* when Δ is small), which gives the final angles a heavy tail. So
  the mean over replications is not the statistic: each replication's start α_{n0} is mapped
  to the attracting equilibrium its population flow reaches (the first zero of H in the
  direction of H(α_{n0})), and we require that ≥ 90% of replications end within 5 predicted
  standard deviations (below) of *their* attractor — an escape across a basin boundary needs
  large early noise near a repelling zero; the 10% margin is stated, not derived.
* Among the replications that end in the basin of the predicted (learned) equilibrium α*, the
  *median* final angle must be within 4 standard errors of α* + b: SE = 1.2533 · sd/√k (the
  median of k normal values), with sd the predicted standard deviation of α_n, plus the
  transient e^{−rτ}·(largest start offset) left by the finite horizon (τ = Σ η_t) and half the
  second-order bias b = H''(α*)·sd²/(2r) (the recursion with drift H'δ + ½H''δ² keeps its
  mean at b where H'·b + ½H''·sd² = 0; b is a leading-order term, hence the slack). Here
  |b| ≤ 0.34° (Student-t) and ≤ 0.06° otherwise. The finite horizon leaves a further small
  offset of the median that b does not explain — for the cube −0.35° ± 0.08° at n = 5·10⁴
  starting *at* α* (400 replications), −0.07° ± 0.04° at n = 2·10⁵, reproduced by the bare
  angle recursion with the cube's real noise (so a property of the stochastic recursion, not
  of the analysis, whose H at α* a 4·10⁶-sample Monte Carlo confirms to 3·10⁻⁴); it stays
  inside the 4-SE band (2.4 SE for the cube, the largest).
* The predicted sd comes from the linearized recursion of the angle,
  α_{t+1} − α* = (1 − η_t r)(α_t − α*) + η_t ξ_t, with r the exact local rate at α* (−H'(α*))
  and Var ξ = s² = E[m_{A}(X)(v_⊥ᵀX)²] − H(α*)² (Bernoulli rewards, A = sgn(vᵀX), v at α*),
  s² by Monte Carlo over 400,000 contexts of the law: V_n = Σ_t η_t² s² Π_{u>t}(1 − η_u r)².
  The sample sd of the basin's final angles must be within [0.6, 1.6] × the predicted sd
  (the sample sd of k ≥ 50 normal values is within ±4·(2k)^{-1/2} ≈ ±0.4 of the truth, and
  the linearization adds a little).

A "control" run of the same link under the paper's N(0, I₂) (or the paper's arms) shows the
Gaussian theory's prediction on the same seeds, so the departure is what moves NBL.

Settings: d = 2, Bernoulli rewards, γ = 10, t0 = 500 (the paper's step), n = 50,000 rounds,
R = 100 replications, seed 11 (each case ~1–2 s). The Student-t case is marked slow (~10 s on
one free core, ~30 s on a loaded 2-core machine): its exact rates are ~0.01 (heavy tails only
flip the sign near the stability boundary), so it needs γ = 100 and n = 300,000 to reach the
equilibrium (rτ ≈ 9 at the attractor).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from nbl_sim.beyond import analyze
from nbl_sim.beyond.analysis import circle_H, field_model
from nbl_sim.beyond.arms import parse_arms_spec
from nbl_sim.beyond.contexts import parse_context_spec
from nbl_sim.engine.environment import Environment
from nbl_sim.studies.experiment import simulate
from nbl_theory.families import make_family
from nbl_theory.paper import paper_link

N, REPS, GAMMA, T0, SEED = 50_000, 100, 10.0, 500.0, 11


def _setup(link, delta, contexts="gaussian", arms="symmetric"):
    env = Environment.build(link, delta, 2, contexts=contexts, arms=arms)
    law = parse_context_spec(contexts)
    model_arms = parse_arms_spec(arms, link, delta)
    return env, law, model_arms, analyze(law, model_arms)


def _predicted_sd(env, alpha_abs, rate, gamma, t0, n, n_start):
    """sd of α_n from the linearized recursion (module docstring), radians."""
    rng = np.random.default_rng(99)
    X = np.empty((400_000, 2))
    if env.contexts is None:
        rng.standard_normal(out=X)
    else:
        env.contexts.fill(rng, X)
    v = np.array([math.cos(alpha_abs), math.sin(alpha_abs)])
    vp = np.array([-v[1], v[0]])
    m = env.mean_rewards(X)
    side = (X @ v >= 0).astype(int)
    ma = m[np.arange(X.shape[0]), side]
    H = np.mean(np.where(side == 1, 1.0, -1.0) * ma * (X @ vp))
    s2 = np.mean(ma * (X @ vp) ** 2) - H * H
    t = np.arange(n_start + 1, n + 1, dtype=float)
    eta = gamma / (t + t0)
    log_keep = 2 * np.log1p(-eta * rate)
    after = np.concatenate([np.cumsum(log_keep[::-1])[::-1][1:], [0.0]])
    return math.sqrt(np.sum(eta**2 * s2 * np.exp(after)))


def _attractor(model, eqs, a0, alpha_rel):
    """The attracting equilibrium (signed angle from v*, degrees) the population flow reaches
    from ``alpha_rel`` degrees: the first zero of H in the direction of H(α)."""
    h = float(circle_H(model, a0 + math.radians(alpha_rel)).value[0])
    sgn = 1.0 if h > 0 else -1.0
    best, key = None, math.inf
    for e in eqs:
        k = (sgn * (e.angle_deg - alpha_rel)) % 360.0
        if 0 < k < key:
            best, key = e, k
    return best


def _wrap(deg):
    return (np.asarray(deg) + 180.0) % 360.0 - 180.0


def _confirm(env, law, arms, a, *, start, gamma=GAMMA, t0=T0, n=N, reps=REPS, pair=False):
    """Simulate and compare with the analysis (module docstring); returns the statistics.

    ``pair=True``: the law and arms are symmetric under the reflection across v*, so H is
    odd and the attractors come as ±α*; v* repels, and early noise decides the side (the
    start's basin does not predict it), so |α_n| is compared with |α*|."""
    res = simulate(env, n=n, reps=reps, gamma=gamma, t0=t0, seed=SEED, workers=1, **start)
    nbl = res.policies["nbl"]
    final = np.degrees(nbl.angle[:, -1])
    n0 = start.get("n0", 0)
    k0 = int(np.searchsorted(res.record_rounds, n0))
    begin = np.degrees(nbl.angle[:, k0]) if n0 else np.full(reps, start["init_angle"])
    model = field_model(law, arms)
    a0 = math.atan2(env.v_star[1], env.v_star[0])
    eqs = a.equilibria
    target = a.learned
    sd = math.degrees(
        _predicted_sd(env, a0 + math.radians(target.angle_deg), target.rate, gamma, t0, n, n0)
    )
    if pair:
        final, begin = np.abs(final), np.abs(begin)
        target = (
            a.learned
            if a.learned.angle_deg > 0
            else a.learned_other_side
            or next(e for e in eqs if abs(e.angle_deg + a.learned.angle_deg) < 1e-6)
        )
        dest = np.full(reps, target.angle_deg)
    else:
        dest = np.array([_attractor(model, eqs, a0, b).angle_deg for b in begin])
    tau = sum(gamma / (t + t0) for t in range(n0 + 1, n + 1))
    # second-order bias of the recursion: E[α_n] − α* ≈ H''(α*) V_n / (2r) (module docstring)
    at, h = a0 + math.radians(target.angle_deg), 1e-3
    hh = circle_H(model, np.array([at - h, at, at + h])).value
    bias = math.degrees(
        (hh[0] - 2 * hh[1] + hh[2]) / h**2 * math.radians(sd) ** 2 / (2 * target.rate)
    )
    near_dest = np.abs(_wrap(final - dest)) <= 5 * sd + 1e-9
    mine = np.abs(_wrap(final - target.angle_deg)) <= 5 * sd
    k = int(mine.sum())
    transient = math.exp(-target.rate * tau) * float(
        np.max(np.abs(_wrap(begin[mine] - target.angle_deg)))
    )
    med = float(np.median(final[mine]))
    se = 1.2533 * sd / math.sqrt(max(k, 1))
    stats = {
        "median": med,
        "target": target.angle_deg,
        "bias": bias,
        "se_median": se,
        "sd_pred": sd,
        "sd_sample": float(np.std(final[mine], ddof=1)),
        "k": k,
        "fraction_to_their_attractor": float(near_dest.mean()),
        "transient": transient,
        "final": final,
        "begin": begin,
        "dest": dest,
    }
    assert stats["fraction_to_their_attractor"] >= 0.9, stats
    assert k >= 50, f"only {k} replications in the predicted basin: {stats}"
    assert abs(med - (target.angle_deg + bias)) <= 4 * se + transient + 0.5 * abs(bias), stats
    assert 0.6 <= stats["sd_sample"] / sd <= 1.6, stats
    return stats


# ------------------------------------------------------------------ covariance: a sign flip
def test_anisotropic_covariance_along_theta_makes_a_stable_link_repel():
    """tt-stable at Δ = 1 (λ* = +0.0475, the d = 2 Gaussian rate +0.140: v* attracting) under
    N(0, Σ), cond Σ = 3, major axis along θ (90° from v*): the exact local rate at v* is
    −0.515 and the attracting equilibria are ±83.91°. NBL started 10° from v* goes to ±83.91°
    (median |α_n| within its CI; the side is decided by early noise); under N(0, I₂) on the
    same seeds it stays at v*."""
    link = paper_link("tt-stable")
    env, law, arms, a = _setup(link, "1", "gaussian:cond=3,angle=90")
    assert a.vstar_stability == "repelling" and a.vstar_decided and a.gaussian["lambda_star"] > 0
    assert a.learned.angle_deg == pytest.approx(83.912, abs=1e-3)  # grid value, printed above
    s = _confirm(env, law, arms, a, start={"init_angle": 10.0}, pair=True)
    assert s["median"] > 80
    genv, glaw, garms, ga = _setup(link, "1")
    assert ga.vstar_stability == "attracting"
    g = _confirm(genv, glaw, garms, ga, start={"init_angle": 10.0})
    assert abs(g["median"]) <= 4 * g["se_median"] + g["transient"]


def test_anisotropic_covariance_along_vstar_makes_an_unstable_link_attract():
    """The reverse: tt-unstable at Δ = 0.2 (λ* = −0.0237 = the d = 2 Gaussian rate: v*
    repelling, attractors ±73.21°) under N(0, Σ), cond 3, major axis along v*: exact rate
    +0.225 at v*. From the randomized start, replications in v*'s basin end at v*; under
    N(0, I₂) on the same seeds NBL drifts away from v* (median |α_n| > 45°: the Gaussian
    attractors ±73.2° have rate 0.04 only, so at γ = 10 they are not yet reached)."""
    link = paper_link("tt-unstable")
    env, law, arms, a = _setup(link, "0.2", "gaussian:cond=3,angle=0")
    assert a.vstar_stability == "attracting" and a.gaussian["lambda_star"] < 0
    s = _confirm(env, law, arms, a, start={"n0": 200})
    assert s["target"] == 0.0
    res = simulate(Environment.build(link, "0.2"), n=N, reps=REPS, n0=200, seed=SEED, workers=1)
    assert np.median(np.abs(np.degrees(res.policies["nbl"].angle[:, -1]))) > 45


# ------------------------------------------------------------------ biased equilibria
@pytest.mark.parametrize(
    "contexts, arms, target",
    [
        ("gaussian:cond=3,angle=30", "symmetric", 26.526),  # tilted Σ
        ("gaussian", "shift=0.4", -11.872),  # asymmetric arms
        ("gaussian", "intercept=0.5", -10.653),  # per-arm links (intercept)
    ],
)
def test_biased_equilibrium_is_where_nbl_goes(contexts, arms, target):
    """tt-stable at Δ = 1: v* is no longer an equilibrium; NBL from the randomized start ends
    at the exact analysis' learned boundary (targets: the analysis at n_grid = 720, to 1e-3°)."""
    env, law, model_arms, a = _setup(paper_link("tt-stable"), "1", contexts, arms)
    assert not a.vstar_equilibrium and a.learned.stability == "attracting"
    assert a.learned.angle_deg == pytest.approx(target, abs=1e-3)
    _confirm(env, law, model_arms, a, start={"n0": 200})


def test_regret_per_round_at_the_biased_boundary():
    """Intercept arms (tt-stable, Δ = 1, c = 0.5): started at the learned boundary, NBL's regret
    per round over the last quarter equals E[reg(α)] over α ~ N(α*, sd²) (the exact regret
    function of the field model, Gauss–Hermite with 20 nodes, sd from the linearized
    recursion at 7n/8), within 5 sample standard errors."""
    link = paper_link("tt-stable")
    env, law, arms, a = _setup(link, "1", "gaussian", "intercept=0.5")
    alpha = a.learned.angle_deg
    res = simulate(env, n=N, reps=REPS, init_angle=alpha, seed=SEED, workers=1)
    rr = res.record_rounds
    q = int(np.searchsorted(rr, 3 * N // 4))
    per_round = (res.policies["nbl"].regret[:, -1] - res.policies["nbl"].regret[:, q]) / (
        rr[-1] - rr[q]
    )
    a0 = math.atan2(env.v_star[1], env.v_star[0])
    sd = _predicted_sd(env, a0 + math.radians(alpha), a.learned.rate, GAMMA, T0, 7 * N // 8, 0)
    z, w = np.polynomial.hermite_e.hermegauss(20)
    ang = a0 + math.radians(alpha) + sd * z
    reg = field_model(law, arms).regret(np.stack([np.cos(ang), np.sin(ang)], axis=1)).value
    expected = float(w @ reg / w.sum())
    se = per_round.std(ddof=1) / math.sqrt(REPS)
    assert abs(per_round.mean() - expected) <= 5 * se, (per_round.mean(), expected, se)
    assert expected > a.best_linear_regret  # the learned boundary is not the best linear one


# ------------------------------------------------------------------ bounded and discrete laws
def test_cube_diagonal_repels_a_stable_link():
    """Uniform cube [−√3, √3]², tt-stable, Δ = 1, v* along the diagonal (rotate = 45°): λ* > 0
    but the exact rate at v* is −0.247 (v* repels) and NBL started 10° from v* goes to the
    attracting pair ±19.84° (the side is decided by early noise)."""
    env, law, arms, a = _setup(paper_link("tt-stable"), "1", "cube", "rotate=45")
    assert a.vstar_stability == "repelling" and a.gaussian["lambda_star"] > 0
    s = _confirm(env, law, arms, a, start={"init_angle": 10.0}, pair=True)
    assert s["target"] == pytest.approx(19.838, abs=1e-3)


def test_rademacher_biased_equilibrium():
    """Rademacher contexts (four atoms), tt-stable, Δ = 1, v* at 22.5° from e₁: F is constant
    on each cell between atom directions, v* is not an equilibrium (it sits on a jump of H) and
    NBL ends at the smooth zero −18.71° from v*, the direction of F in v*'s cell."""
    env, law, arms, a = _setup(paper_link("tt-stable"), "1", "rademacher", "rotate=22.5")
    assert not a.vstar_equilibrium
    assert any(e.stability.startswith("jump") for e in a.equilibria)
    s = _confirm(env, law, arms, a, start={"n0": 200})
    assert s["target"] == pytest.approx(-18.710, abs=1e-3)


# ------------------------------------------------------------------ Student-t: a sign flip
# a two-transition link with its upper transition at z = 3 (b2 = 6): Gaussian contexts rarely
# reach it, Student-t contexts do (found by a scan of the family; rates are small because
# heavy tails only flip the sign near the stability boundary)
_T_LINK = dict(p0="0.1", a1="0.1", b1="2", mu1="0", a2="0.35", b2="6", mu2="3")


@pytest.mark.slow
def test_student_t_flips_a_stable_link():
    """Slow (~10 s on one free core). Two-transition link (p0 0.1, a1 0.1, b1 2, μ1 0, a2 0.35, b2 6,
    μ2 3), Δ = 0.3: λ* = +0.0044 (= the d = 2 Gaussian rate: v* attracting, the only
    attractor); under Student-t contexts with ν = 3 (identity covariance) the exact rate at v*
    is −0.0087 and the attractors are ±56.24°. γ = 100, t0 = 500, n = 300,000, R = 100 from
    the randomized start: NBL ends at ±56.24°; under N(0, I₂) on the same seeds it ends near
    v* (median |α_n| < 20°; the Gaussian rate 0.0044 is too small to finish the approach)."""
    link = make_family("two-transition", **_T_LINK)
    env, law, arms, a = _setup(link, "0.3", "student-t:nu=3")
    assert a.vstar_stability == "repelling" and a.gaussian["lambda_star"] > 0
    assert abs(a.learned.angle_deg) == pytest.approx(56.237, abs=1e-3)
    _confirm(env, law, arms, a, start={"n0": 200}, gamma=100.0, n=300_000, pair=True)
    gres = simulate(
        Environment.build(link, "0.3"),
        n=300_000,
        reps=REPS,
        n0=200,
        gamma=100.0,
        seed=SEED,
        workers=1,
    )
    assert np.median(np.abs(np.degrees(gres.policies["nbl"].angle[:, -1]))) < 20
