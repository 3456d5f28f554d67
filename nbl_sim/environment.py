"""The two-armed single-index bandit environment (eq:model, app:simulation-setup).

Contexts X_t ~ N(0, I_d) (assum:gaussian_context); arms β_a = θ + a(Δ/2)v* with θ ⊥ v* and
‖θ‖² = 1 − Δ²/4, so ‖β_a‖ = 1 and ‖β_+ − β_−‖ = Δ; mean rewards m_a(x) = g(β_aᵀx).

Rewards (assum:sequential_rewards, assum:bounded_rewards):

* ``"bernoulli"`` — Y_{t,a} ~ Bernoulli(g(β_aᵀX_t)) (app:logistic-comparison). Needs 0 ≤ g ≤ 1:
  checked when the environment is built (g at z = ±50 — g is increasing, so this bounds g on every
  context with ‖x‖ < 50) and again on every realized mean (a mean outside [0, 1] by more than
  1e-12, i.e. beyond rounding, raises; rounding excursions are clipped).
* ``"bounded"`` — Y_{t,a} = g(β_aᵀX_t) + ξ_{t,a}, ξ ~ Uniform[−b, b] independent, symmetric and
  bounded (any link).

Common random numbers
---------------------
Replication r draws everything up front from its own stream ``SeedSequence(seed).spawn`` child r:
the contexts, *both* arms' potential rewards, and the n0 randomized-initialization actions. Every
policy run on that replication faces the same realization (app:logistic-comparison), and
replication r's numbers do not depend on which other replications run with it (chunking, process
count). Inside a replication, contexts, rewards and initialization coins come from three
separate sub-streams, so the first n rounds are the same whatever the horizon.

Array convention (all of nbl_sim): arm axis index 0 = arm −1, index 1 = arm +1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import mpmath
import numpy as np

from nbl_theory.errors import NBLInputError
from nbl_theory.links import Link
from nbl_theory.validation import unit_vector, validate_delta

__all__ = ["Environment", "Realization", "replication_seeds"]

REWARDS = ("bernoulli", "bounded")
_ROUNDING = 1e-12  # realized Bernoulli means may leave [0, 1] by this much (float rounding)
_RANGE_PROBE = 50  # |z| at which the Bernoulli range is checked up front


def replication_seeds(seed: int, reps: int) -> list[np.random.SeedSequence]:
    """Independent per-replication seed sequences: ``SeedSequence(seed).spawn(reps)``."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise NBLInputError(f"seed must be a non-negative integer, got {seed!r}")
    return np.random.SeedSequence(int(seed)).spawn(int(reps))


def _substream(ss: np.random.SeedSequence, k: int) -> np.random.Generator:
    """Deterministic k-th sub-stream of a replication (no mutation of ``ss``)."""
    child = np.random.SeedSequence(entropy=ss.entropy, spawn_key=tuple(ss.spawn_key) + (k,))
    return np.random.Generator(np.random.PCG64(child))


@dataclass
class Realization:
    """Everything random in a batch of replications, drawn up front.

    Attributes
    ----------
    X : (R, n, d) float64 contexts.
    means : (R, n, 2) float64, m_a(X_t) = g(β_aᵀX_t) (column 0 arm −1, column 1 arm +1).
    Y : (R, n, 2) float64 potential rewards of both arms.
    coins : (R, n0) int8, randomized-initialization actions in {−1, +1}.
    reps : the replication indices (into ``SeedSequence(seed).spawn``).
    """

    X: np.ndarray
    means: np.ndarray
    Y: np.ndarray
    coins: np.ndarray
    reps: tuple

    @property
    def shape(self) -> tuple:
        return self.X.shape


@dataclass(frozen=True, eq=False)
class Environment:
    """A fixed bandit instance; build with :meth:`build`."""

    link: Link
    delta: float
    delta_text: str
    d: int
    v_star: np.ndarray
    theta: np.ndarray
    beta: np.ndarray  # (2, d): row 0 = β_−, row 1 = β_+
    reward: str = "bernoulli"
    noise: float = 0.5
    notes: list = field(default_factory=list)

    @classmethod
    def build(
        cls,
        link: Link,
        delta,
        d: int = 2,
        *,
        v_star=None,
        theta_dir=None,
        geometry_seed: int | None = None,
        reward: str = "bernoulli",
        noise: float = 0.5,
    ) -> Environment:
        """Validate the inputs and fix the arm geometry.

        Parameters
        ----------
        link : Link
        delta : str or float
            Arm separation Δ ∈ (0, 2).
        d : int
            Context dimension, d ≥ 2.
        v_star, theta_dir : array-like, "random" or None
            The boundary direction and the direction of θ. ``None`` gives the paper's rotation
            v* = e1, θ ∝ e2; ``"random"`` draws them (uniform on the sphere, θ orthogonalized)
            from ``geometry_seed``. A given ``theta_dir`` is orthogonalized against v*.
        reward : {"bernoulli", "bounded"}
        noise : float
            Half-width b of the uniform noise for ``reward="bounded"``.
        """
        if not isinstance(link, Link):
            raise NBLInputError(f"link must be an nbl_theory Link, got {type(link).__name__}")
        q = validate_delta(delta)
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 2:
            raise NBLInputError(f"dimension d must be an integer >= 2, got {d!r}")
        d = int(d)
        if reward not in REWARDS:
            raise NBLInputError(f"reward must be one of {REWARDS}, got {reward!r}")
        if not (isinstance(noise, (int, float)) and math.isfinite(noise) and noise >= 0):
            raise NBLInputError(f"noise half-width must be a finite number >= 0, got {noise!r}")
        rng = np.random.default_rng(geometry_seed)
        if isinstance(v_star, str) and v_star == "random":
            v = rng.standard_normal(d)
            v /= np.linalg.norm(v)
        elif v_star is None:
            v = np.eye(d)[0]
        else:
            v = unit_vector(v_star, "v_star", d)
        if isinstance(theta_dir, str) and theta_dir == "random":
            u = rng.standard_normal(d)
        elif theta_dir is None:
            u = np.eye(d)[1] if v_star is None else _orth_default(v)
        else:
            u = unit_vector(theta_dir, "theta_dir", d)
        u = u - (u @ v) * v
        nu = float(np.linalg.norm(u))
        if nu < 1e-8:
            raise NBLInputError("theta_dir must not be parallel to v_star")
        u /= nu
        dl = float(q)
        theta = math.sqrt(1 - dl * dl / 4) * u
        beta = np.stack([theta - dl / 2 * v, theta + dl / 2 * v])
        env = cls(link, dl, str(delta), d, v, theta, beta, reward, float(noise))
        if reward == "bernoulli":
            env._check_bernoulli_range()
        return env

    # ------------------------------------------------------------------ checks
    def _check_bernoulli_range(self) -> None:
        if self.link.kind == "potential":  # g maps ℝ onto the domain of φ
            lo, hi = (float(x) if x.is_infinite else float(mpmath.mpf(str(x)))
                      for x in self.link.domain)
        else:
            lo, hi = (float(v) for v in self.link.g_numpy(np.array([-_RANGE_PROBE, _RANGE_PROBE])))
        if not (lo >= -_ROUNDING and hi <= 1 + _ROUNDING):
            raise NBLInputError(
                f"Bernoulli rewards need 0 <= g <= 1, but link {self.link.name!r} takes values "
                f"in about [{lo:.6g}, {hi:.6g}]; use reward='bounded' (--reward bounded) for "
                "links outside [0, 1]"
            )

    def _means(self, X: np.ndarray) -> np.ndarray:
        z = np.zeros(X.shape[:-1] + (2,))
        for k in range(self.d):  # fixed summation order: the same rounding whatever the batch
            z += X[..., k, None] * self.beta[:, k]
        m = self.link.g_numpy(z)
        if not np.all(np.isfinite(m)):
            raise NBLInputError(f"link {self.link.name!r} gave a non-finite mean reward")
        if self.reward == "bernoulli":
            bad = (m < -_ROUNDING) | (m > 1 + _ROUNDING)
            if np.any(bad):
                i = np.flatnonzero(bad.ravel())[0]
                raise NBLInputError(
                    f"a Bernoulli mean left [0, 1]: g({z.ravel()[i]:.6g}) = {m.ravel()[i]:.17g}; "
                    "use reward='bounded'"
                )
            np.clip(m, 0.0, 1.0, out=m)
        return m

    # ------------------------------------------------------------------ draws
    def draw_one(self, ss: np.random.SeedSequence, n: int, n0: int, out=None) -> tuple:
        """Draw (X, means, Y, coins) of one replication from its seed sequence.

        ``out`` — optional preallocated (X, means, Y, coins) arrays of the right shapes, filled
        in place (the draws are the same either way)."""
        if out is None:
            out = (np.empty((n, self.d)), np.empty((n, 2)), np.empty((n, 2)),
                   np.empty(n0, dtype=np.int8))
        X, means, Y, coins = out
        _substream(ss, 0).standard_normal(out=X)
        means[...] = self._means(X)
        u = _substream(ss, 1).random(out=Y)  # uniforms, then turned into rewards in place
        if self.reward == "bernoulli":
            np.less(u, means, out=Y)
        else:
            Y *= 2.0
            Y -= 1.0
            Y *= self.noise
            Y += means
        coins[...] = np.where(_substream(ss, 2).random(n0) < 0.5, -1, 1)
        return X, means, Y, coins

    def draw(self, seed: int, reps, n: int, n0: int) -> Realization:
        """Draw the replications ``reps`` (indices into ``SeedSequence(seed).spawn``).

        Replication r's arrays are identical whichever batch it is drawn in.
        """
        reps = tuple(int(r) for r in reps)
        if not reps:
            raise NBLInputError("no replications requested")
        seqs = replication_seeds(seed, max(reps) + 1)
        R = len(reps)
        X = np.empty((R, n, self.d))
        means = np.empty((R, n, 2))
        Y = np.empty((R, n, 2))
        coins = np.empty((R, n0), dtype=np.int8)
        for i, r in enumerate(reps):
            self.draw_one(seqs[r], n, n0, out=(X[i], means[i], Y[i], coins[i]))
        return Realization(X, means, Y, coins, reps)

    # ------------------------------------------------------------------ geometry helpers
    def initial_direction(self, angle_deg: float) -> np.ndarray:
        """v0 at signed angle ``angle_deg`` from v*, rotating toward θ (app:stochastic-nbl).

        In d = 2 with the default geometry this is (cos α, sin α); in d > 2 the rotation is in
        the plane spanned by v* and θ.
        """
        if not math.isfinite(angle_deg):
            raise NBLInputError(f"initial angle must be finite, got {angle_deg!r}")
        a = math.radians(angle_deg)
        u = self.theta / np.linalg.norm(self.theta)
        if self.d == 2:  # signed angle convention of app:stochastic-nbl: counterclockwise
            v1, v2 = self.v_star
            u = np.array([-v2, v1])
        return math.cos(a) * self.v_star + math.sin(a) * u

    def optimal_actions(self, X: np.ndarray) -> np.ndarray:
        """a*(x) = sgn(v*ᵀx), with sgn(0) = +1 (the convention of alg:nbl)."""
        s = (X * self.v_star).sum(axis=-1)
        return np.where(s >= 0, 1, -1).astype(np.int8)

    def describe(self) -> dict:
        return {
            "link": self.link.name,
            "delta": self.delta_text,
            "d": self.d,
            "v_star": self.v_star.tolist(),
            "theta": self.theta.tolist(),
            "reward": self.reward,
            "noise": self.noise if self.reward == "bounded" else None,
        }


def _orth_default(v: np.ndarray) -> np.ndarray:
    """A deterministic direction not parallel to v (the coordinate axis least aligned with v)."""
    return np.eye(v.size)[int(np.argmin(np.abs(v)))]
