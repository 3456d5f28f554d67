"""The realization of a simulation drawn from its definition, without the library's draw.

Every simulation claim runs on a realization (contexts, mean rewards, potential rewards,
initialization coins, optimal actions) drawn by ``nbl_sim.engine``; the claims' witnesses re-run
the policies on it, so a bug in the draw would move the library and the witnesses alike, and
the report would judge the paper by it (a planted bug that swaps the two arms' rewards turned
four simulation claims DISCREPANCY). :func:`witness_realization` draws the same replications
from the model of eq:model and app:simulation-setup and numpy's documented Generator API alone:

* replication r, sub-stream k ∈ {0 contexts, 1 rewards, 2 coins} is
  ``Generator(PCG64(SeedSequence(seed, spawn_key=(r, k))))`` — the streams the toolkit documents
  as its common random numbers;
* contexts X_t ~ N(0, I_d): ``standard_normal((n, d))`` of stream 0;
* mean rewards m_a(X_t) = g(β_aᵀX_t) for the arms a = −1 (column 0), +1 (column 1), g the
  witness's own written-out link (:func:`~.links.paper_link_parts`), arms written out
  (:func:`~.geometry.paper_arms`: v* = e1, θ ∝ e2, or given directions);
* Bernoulli rewards Y_{t,a} = 1{U_{t,a} < m_a}, U = ``random((n, 2))`` of stream 1 (means clipped
  to [0, 1]); bounded rewards Y = (2U − 1)b + m;
* coins ``random(n0) < 0.5`` → −1, else +1, of stream 2; a*(x) = sgn(v*ᵀx), sgn 0 = +1.

:func:`realization_difference` compares a realization with it. Contexts and coins are the same
numbers by contract (exact); means within :data:`MEAN_TOL` (two float64 evaluations of g, the
indices summed in different orders); a Bernoulli reward may differ only where U is within
MEAN_TOL of its mean, an optimal action only where |v*ᵀx| is within the rounding bound of a
d-term dot product.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .geometry import paper_arms
from .links import paper_link_parts

__all__ = ["Bandit", "witness_realization", "realization_difference", "MEAN_TOL"]

#: |library mean − witness mean| ≤ MEAN_TOL: g at indices that differ by a few ulps (a dot
#: product summed in another order) and g's two float64 evaluations (measured 5.6e-16 at most
#: over the preflight's realizations, both backends); the planted bugs move means by ≥ 1e-9
MEAN_TOL = 1e-12


def _stream(seed: int, r: int, k: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(r, k))))


@dataclass(frozen=True)
class Bandit:
    """The bandit a realization is drawn from: the paper link ``key`` (a key of
    :data:`nbl_theory.paper.PAPER_LINKS`), arm separation ``delta``, dimension ``d``, the
    reward law (``"bernoulli"`` or ``"bounded"`` with half-width ``noise``) and the
    directions of v* and θ (default e1, e2, the paper's rotation; the arms are built from them
    as app:simulation-setup writes them, :func:`~.geometry.paper_arms`)."""

    key: str
    delta: str
    d: int
    reward: str = "bernoulli"
    noise: float = 0.5
    v_dir: object = None
    theta_dir: object = None


def witness_realization(bandit: Bandit, seed: int, reps, n: int, n0: int) -> dict:
    """Replications ``reps`` of ``bandit`` (module docstring).

    Parameters
    ----------
    bandit : Bandit
        The link, Δ, d, reward law and directions.
    seed : int
        The run's seed.
    reps : iterable of int
        Replication indices.
    n, n0 : int
        Rounds and initialization coins.

    Returns
    -------
    dict
        ``X`` (R, n, d), ``means`` (R, n, 2), ``U`` (R, n, 2) the reward uniforms, ``Y``
        (R, n, 2), ``coins`` (R, n0) int8, ``optimal`` (R, n) int8, ``vx`` (R, n) = v*ᵀX_t
        and ``vx_bound`` (R, n) its rounding bound d·eps·Σ|x_k v*_k| (an optimal action is
        compared only where |v*ᵀX_t| exceeds it).
    """
    key, delta, d, reward, noise = bandit.key, bandit.delta, bandit.d, bandit.reward, bandit.noise
    reps = [int(r) for r in reps]
    v_dir = np.eye(d)[0] if bandit.v_dir is None else bandit.v_dir
    theta_dir = np.eye(d)[1] if bandit.theta_dir is None else bandit.theta_dir
    beta, vs, _ = paper_arms(delta, v_dir, theta_dir)
    g = paper_link_parts(key)
    X = np.stack([_stream(seed, r, 0).standard_normal((n, d)) for r in reps])
    U = np.stack([_stream(seed, r, 1).random((n, 2)) for r in reps])
    z = np.einsum("rtd,ad->rta", X, beta)
    means = np.asarray(g(z.ravel())[0], dtype=float).reshape(z.shape)
    if reward == "bernoulli":
        means = np.clip(means, 0.0, 1.0)
        Y = (U < means).astype(float)
    else:
        Y = (2.0 * U - 1.0) * float(noise) + means
    coins = np.stack(
        [np.where(_stream(seed, r, 2).random(n0) < 0.5, -1, 1).astype(np.int8) for r in reps]
    ).reshape(len(reps), n0)
    vx = X @ vs
    optimal = np.where(vx >= 0, 1, -1).astype(np.int8)
    # the rounding bound of a d-term dot product summed in any order: d·eps·Σ|x_k v*_k|
    # (measured: the library's sums differ from these by 0.13 of it at most)
    vx_bound = d * np.finfo(float).eps * np.abs(X * vs).sum(axis=-1)
    return {
        "X": X,
        "means": means,
        "U": U,
        "Y": Y,
        "coins": coins,
        "optimal": optimal,
        "vx": vx,
        "vx_bound": vx_bound,
    }


def realization_difference(real, own: dict, *, reward: str = "bernoulli") -> str | None:
    """None when the realization ``real`` (``X``, ``means``, ``Y``, ``coins``, ``optimal``
    arrays) is the witness's ``own`` (:func:`witness_realization`); otherwise what differs,
    in a sentence.

    Parameters
    ----------
    real : object with array attributes X, means, Y, coins, optimal
        The library's realization.
    own : dict
        The witness's.
    reward : {"bernoulli", "bounded"}
        The reward law both were drawn with.

    Returns
    -------
    str or None
        The first difference, or None.
    """
    X, means, Y = (np.asarray(a, dtype=float) for a in (real.X, real.means, real.Y))
    if X.shape != own["X"].shape or not np.array_equal(X, own["X"]):
        return "its contexts are not the N(0, I) draws of the documented context streams"
    if not np.array_equal(np.asarray(real.coins), own["coins"]):
        return "its initialization coins are not the documented coin streams' draws"
    err = float(np.max(np.abs(means - own["means"])))
    if not err <= MEAN_TOL:
        return f"its mean rewards differ from g(beta_a^T x) by up to {err:.3g} (> {MEAN_TOL:g})"
    if reward == "bernoulli":
        moved = (Y != own["Y"]) & (np.abs(own["U"] - own["means"]) > MEAN_TOL)
    else:
        moved = ~(np.abs(Y - own["Y"]) <= MEAN_TOL * np.maximum(1.0, np.abs(own["Y"])))
    if moved.any():
        r, t, a = (int(i[0]) for i in np.nonzero(moved))
        return (
            f"its rewards are not drawn from its means (replication {r}, round {t}, arm "
            f"{2 * a - 1:+d}: {Y[r, t, a]!r}, the definition gives {own['Y'][r, t, a]!r})"
        )
    opt = np.asarray(real.optimal)
    wrong = (opt != own["optimal"]) & (np.abs(own["vx"]) > own["vx_bound"])
    if wrong.any():
        return f"its optimal actions differ from sgn(v*^T x) in {int(wrong.sum())} rounds"
    return None
