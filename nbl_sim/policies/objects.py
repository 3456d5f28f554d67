"""NBL and Greedy Logistic as policy objects: run them on your own context and reward stream.

::

    from nbl_sim.policies import NBL, GreedyLogistic

    policy = NBL(d=2, n0=200, seed=0)          # or GreedyLogistic(d=2, n0=200, seed=0)
    for x, rewards in my_stream:                # x: (d,) context; rewards: what the arms pay
        a = policy.choose(x)                    # -1 or +1
        policy.update(x, a, rewards[a])         # the reward of the arm played
    state = policy.state()                      # plain data (JSON-able), never a pickle
    again = NBL.from_state(state)               # continues exactly where it stopped

Each object is one replication of :func:`nbl_sim.studies.experiment.simulate`'s policy, written as
the same scalar arithmetic in the same order, so on the same stream (contexts, rewards and the
randomized-initialization coins) its actions and iterates are **bit for bit** those of the
compiled kernels (:func:`nbl_sim.engine.nbl_kernel.nbl_run`, :func:`nbl_sim.engine.greedy_kernel.
greedy_logistic_actions`; tests/sim/test_policy_objects.py):

* rounds t < n0 (Stage I of alg:nbl, shared by both): the action is the t-th coin — ``coins``
  if given (e.g. a realization's ``coins[r]``, to replay a simulation), otherwise ±1 drawn
  from ``numpy.random.default_rng(seed)``, one ``integers(0, 2)`` per round;
* NBL, t ≥ n0: A_t = sgn(v_{t−1}ᵀx_t) (sgn(0) = +1), v_t = (v_{t−1} + η_t G_t)/‖·‖ with
  G_t = A_t Y_t (x_t − (v_{t−1}ᵀx_t) v_{t−1}) and η_t = γ/(t + t0), t 1-based
  (eq:tangent_update, eq:nbl_update); v_{n0} = ΣW_t/‖ΣW_t‖ after Stage I (e1 if ΣW_t = 0);
* Greedy Logistic, t ≥ n0: play the arm with the larger fitted score, ties to +1; the played
  arm is refit after each observation, warm-started (app:logistic-comparison; its cost grows
  as n² over a horizon n, as in ``simulate``).

Rewards are the reward of the arm played (Bernoulli 0/1, or any value in [0, 1] for Greedy
Logistic). The state (:meth:`state`) is a dict of numbers and lists — ``json.dumps`` writes it
and ``from_state`` restores it exactly (floats survive JSON's shortest repr).
"""

from __future__ import annotations

import math

import numpy as np

from nbl_theory.errors import NBLInputError
from nbl_theory.validation import positive_int

from ..engine import jit_cache
from ..engine.contract import GAMMA, MAX_ITER, RIDGE, T0, TOL, validate_step
from ..engine.greedy_kernel import newton_refit

__all__ = ["NBL", "GreedyLogistic"]


def _context(x, d: int) -> list:
    arr = np.asarray(x, dtype=np.float64)
    if arr.shape != (d,) or not np.all(np.isfinite(arr)):
        raise NBLInputError(f"a context must be a finite vector of shape ({d},), got {np.shape(x)}")
    return arr.tolist()


def _action(a) -> int:
    if a not in (1, -1) or isinstance(a, bool):
        raise NBLInputError(f"an action is +1 or -1, got {a!r}")
    return int(a)


def _reward(y) -> float:
    y = float(y)
    if not math.isfinite(y):
        raise NBLInputError(f"a reward must be finite, got {y!r}")
    return y


class _Policy:
    """What both policies share: dimension, the randomized initialization and the round count."""

    kind = ""

    def __init__(self, d: int, n0: int, coins, seed):
        self.d = positive_int(d, "d")
        if isinstance(n0, bool) or not isinstance(n0, (int, np.integer)) or n0 < 0:
            raise NBLInputError(f"n0 must be a whole number >= 0, got {n0!r}")
        self.n0 = int(n0)
        self.t = 0  # rounds played so far (0-based next round)
        self.coins = None if coins is None else [int(c) for c in np.asarray(coins).ravel()]
        if self.coins is not None:
            if len(self.coins) < self.n0 or any(c not in (1, -1) for c in self.coins):
                raise NBLInputError(f"coins must hold n0 = {self.n0} entries of +1 or -1")
            self.coins = self.coins[: self.n0]
        self.seed = seed
        self._rng = None if coins is not None else np.random.default_rng(seed)
        self._coin = None  # the coin of round t, once drawn

    def _stage_one_coin(self) -> int:
        if self._coin is None:
            self._coin = (
                self.coins[self.t]
                if self.coins is not None
                else 2 * int(self._rng.integers(0, 2)) - 1
            )
        return self._coin

    def _base_state(self) -> dict:
        rng = None if self._rng is None else self._rng.bit_generator.state
        return {
            "kind": self.kind,
            "d": self.d,
            "n0": self.n0,
            "t": self.t,
            "coins": self.coins,
            "seed": self.seed,
            "rng": rng,
            "coin": self._coin,
        }

    def _restore_base(self, state: dict) -> None:
        self.t = int(state["t"])
        self._coin = state["coin"]
        if state["rng"] is not None:
            self._rng.bit_generator.state = state["rng"]

    @classmethod
    def from_state(cls, state: dict):
        """The policy :meth:`state` described, continuing exactly where it stopped.

        Parameters
        ----------
        state : dict
            What :meth:`state` returned (or its JSON round trip), for this class's ``kind``.

        Returns
        -------
        NBL or GreedyLogistic
            A new policy of this class whose next actions and updates are those the saved one
            would have made.

        Raises
        ------
        NBLInputError
            If ``state`` is not a dict of this class's ``kind``, or its options are invalid.
        """
        if not isinstance(state, dict) or state.get("kind") != cls.kind:
            raise NBLInputError(f"not a {cls.__name__} state (kind {cls.kind!r})")
        obj = cls._from_options(state)
        obj._restore_base(state)
        obj._restore(state)
        return obj


class NBL(_Policy):
    """Natural Boundary Learning (alg:nbl) for one stream of contexts in R^d.

    Parameters
    ----------
    d : int
        Context dimension.
    n0 : int
        Randomized-initialization rounds (Stage I); 0 with ``v0``.
    gamma, t0 : float
        Step η_t = γ/(t + t0) (the paper's γ = 10, t0 = 500).
    v0 : array of shape (d,), optional
        Start from this direction instead of Stage I (n0 must be 0).
    coins : array of n0 entries ±1, optional
        Stage I's actions (default: drawn from ``seed``).
    seed : int or None
        Seed of the Stage I coins when ``coins`` is not given.
    """

    kind = "nbl"

    def __init__(
        self,
        d: int,
        n0: int = 200,
        *,
        gamma: float = GAMMA,
        t0: float = T0,
        v0=None,
        coins=None,
        seed=None,
    ):
        if v0 is not None and n0 != 0:
            raise NBLInputError("give v0 with n0 = 0 (v0 replaces Stage I)")
        if v0 is None and n0 == 0:
            raise NBLInputError("n0 must be >= 1 for the randomized initialization (or give v0)")
        super().__init__(d, n0, coins, seed)
        validate_step(gamma, t0)
        self.gamma, self.t0 = float(gamma), float(t0)
        self.w = [0.0] * self.d  # Stage I's sum of W_t
        self.degenerate = False
        if v0 is None:
            self.v = None
        else:
            v = np.asarray(v0, dtype=np.float64)
            if v.shape != (self.d,) or not np.all(np.isfinite(v)) or not np.any(v):
                raise NBLInputError(f"v0 must be a finite non-zero vector of shape ({self.d},)")
            self.v = (v / np.linalg.norm(v)).tolist()

    @property
    def direction(self):
        """The current boundary normal v_t (None during Stage I)."""
        return None if self.v is None else np.array(self.v)

    def choose(self, x) -> int:
        """The action for context ``x``: the round's coin in Stage I, else sgn(vᵀx).

        Choosing does not advance the round: the same coin is returned until :meth:`update`.

        Parameters
        ----------
        x : array_like, shape (d,)
            The context, finite.

        Returns
        -------
        int
            −1 or +1 (sgn(0) = +1).

        Raises
        ------
        NBLInputError
            If ``x`` is not a finite vector of shape (d,).
        """
        xs = _context(x, self.d)
        if self.t < self.n0:
            return self._stage_one_coin()
        s = 0.0
        for j in range(self.d):
            s += self.v[j] * xs[j]
        return 1 if s >= 0.0 else -1

    def update(self, x, a, y) -> None:
        """Learn from round t: context ``x``, action ``a`` played, reward ``y`` observed.

        Stage I adds A_tY_tx_t to ΣW_t (and sets v_{n0} after round n0); afterwards one step of
        eq:nbl_update.

        Parameters
        ----------
        x : array_like, shape (d,)
            The round's context, finite.
        a : int
            The action played, +1 or −1 (not a bool).
        y : float
            The reward observed for arm ``a``, finite.

        Raises
        ------
        NBLInputError
            If ``x``, ``a`` or ``y`` is invalid.
        """
        xs, a, y = _context(x, self.d), _action(a), _reward(y)
        if self.t < self.n0:
            ay = a * y
            for j in range(self.d):
                self.w[j] += ay * xs[j]
            self.t += 1
            self._coin = None
            if self.t == self.n0:
                self._start()
            return
        v = self.v
        s = 0.0
        for j in range(self.d):
            s += v[j] * xs[j]
        c = (self.gamma / (float(self.t + 1) + self.t0)) * (a * y)  # η_t A_t Y_t
        nrm = 0.0
        for j in range(self.d):
            v[j] = v[j] + c * (xs[j] - s * v[j])  # eq:nbl_update
            nrm += v[j] * v[j]
        nrm = math.sqrt(nrm)
        for j in range(self.d):
            v[j] /= nrm
        self.t += 1

    def _start(self) -> None:
        nrm = 0.0
        for j in range(self.d):
            nrm += self.w[j] * self.w[j]
        nrm = math.sqrt(nrm)
        if nrm > 0.0:
            self.v = [w / nrm for w in self.w]
        else:  # ΣW_t = 0: the kernel's fallback e1
            self.degenerate = True
            self.v = [1.0] + [0.0] * (self.d - 1)

    def state(self) -> dict:
        """Plain data: everything :meth:`from_state` needs (JSON-able).

        Returns
        -------
        dict
            ``kind`` ("nbl"), ``d``, ``n0``, ``t`` (rounds played), ``coins``, ``seed``, the
            coin generator's ``rng`` state and the drawn ``coin`` of the current round,
            ``gamma``, ``t0_step``, ``w`` (Stage I's ΣW_t), ``v`` (v_t, None during Stage I)
            and ``degenerate``.
        """
        return {
            **self._base_state(),
            "gamma": self.gamma,
            "t0_step": self.t0,
            "w": list(self.w),
            "v": None if self.v is None else list(self.v),
            "degenerate": self.degenerate,
        }

    @classmethod
    def _from_options(cls, state):
        n0 = int(state["n0"])
        v0 = state["v"] if n0 == 0 else None
        return cls(
            int(state["d"]),
            n0,
            gamma=state["gamma"],
            t0=state["t0_step"],
            v0=v0,
            coins=state["coins"],
            seed=state["seed"],
        )

    def _restore(self, state) -> None:
        self.w = [float(w) for w in state["w"]]
        self.v = None if state["v"] is None else [float(v) for v in state["v"]]
        self.degenerate = bool(state["degenerate"])


class GreedyLogistic(_Policy):
    """Greedy Logistic (app:logistic-comparison) for one stream of contexts in R^d.

    Parameters
    ----------
    d : int
        Context dimension.
    n0 : int
        Randomized-initialization rounds (at least 0; the first greedy round fits both arms).
    intercept : bool, default True
        Fit each arm with an intercept (the per-arm penalized logistic fit of
        :mod:`nbl_sim.engine.greedy_kernel`).
    ridge : float, default 1e-6
        The fit's ridge penalty, > 0.
    tol : float, default 1e-10
        The Newton stopping tolerance, > 0.
    max_iter : int, default 50
        Newton iterations per fit, >= 1.
    coins : array of n0 entries ±1, optional
        Stage I's actions (default: drawn from ``seed``), as for :class:`NBL`.
    seed : int or None
        Seed of the Stage I coins when ``coins`` is not given.
    """

    kind = "greedy-logistic"

    def __init__(
        self,
        d: int,
        n0: int = 200,
        *,
        intercept: bool = True,
        ridge: float = RIDGE,
        tol: float = TOL,
        max_iter: int = MAX_ITER,
        coins=None,
        seed=None,
    ):
        super().__init__(d, n0, coins, seed)
        self.intercept = bool(intercept)
        self.ridge, self.tol, self.max_iter = float(ridge), float(tol), int(max_iter)
        if not (self.ridge > 0 and self.tol > 0 and self.max_iter >= 1):
            raise NBLInputError("ridge and tol must be > 0 and max_iter >= 1")
        self.p = self.d + 1 if self.intercept else self.d
        self.theta = np.zeros((2, self.p))  # row 0 = arm -1, row 1 = arm +1
        self.Z = [np.empty((16, self.p)), np.empty((16, self.p))]
        self.y = [np.empty(16), np.empty(16)]
        self.count = [0, 0]
        self.zmax = [0.0, 0.0]
        self.ties = 0
        jit_cache.enable()  # the input is checked: the refit kernel's cache may be written

    def _fit(self, arm: int) -> None:
        newton_refit(
            self.Z[arm],
            self.y[arm],
            self.count[arm],
            self.zmax[arm],
            self.theta[arm],
            self.ridge,
            self.tol,
            self.max_iter,
        )

    def scores(self, x) -> tuple[float, float]:
        """(score_−(x), score_+(x)) of the current fits.

        Parameters
        ----------
        x : array_like, shape (d,)
            The context, finite.

        Returns
        -------
        minus : float
            w_−ᵀx + b_− (0.0 before the arm's first fit).
        plus : float
            w_+ᵀx + b_+.

        Raises
        ------
        NBLInputError
            If ``x`` is not a finite vector of shape (d,).
        """
        xs = _context(x, self.d)
        s = [0.0, 0.0]
        for a in (0, 1):
            for j in range(self.d):
                s[a] += self.theta[a, j] * xs[j]
            if self.intercept:
                s[a] += self.theta[a, self.d]
        return s[0], s[1]

    def choose(self, x) -> int:
        """The action for context ``x``: the round's coin in Stage I, else the arm with the
        larger fitted score (ties +1).

        The first call after Stage I fits both arms (from 0) on their Stage I data.

        Parameters
        ----------
        x : array_like, shape (d,)
            The context, finite.

        Returns
        -------
        int
            −1 or +1.

        Raises
        ------
        NBLInputError
            If ``x`` is not a finite vector of shape (d,).
        """
        _context(x, self.d)
        if self.t < self.n0:
            return self._stage_one_coin()
        if self.t == self.n0 and not self._fitted:
            for a in (0, 1):  # first fit of both arms, from 0
                self._fit(a)
            self._fitted = True
        minus, plus = self.scores(x)
        return 1 if plus >= minus else -1

    _fitted = False

    def update(self, x, a, y) -> None:
        """Learn from round t: the played arm's data grows by (x, y) and, after Stage I, that
        arm is refit (warm-started).

        Parameters
        ----------
        x : array_like, shape (d,)
            The round's context, finite.
        a : int
            The action played, +1 or −1 (not a bool).
        y : float
            The reward observed for arm ``a``, finite, in [0, 1].

        Raises
        ------
        NBLInputError
            If ``x``, ``a`` or ``y`` is invalid.
        """
        xs, a, y = _context(x, self.d), _action(a), _reward(y)
        if not 0.0 <= y <= 1.0:
            raise NBLInputError(f"Greedy Logistic needs rewards in [0, 1], got {y!r}")
        if self.t >= self.n0 and not self._fitted:
            self.choose(xs)  # the first greedy round fits both arms
        arm = 1 if a > 0 else 0
        k = self.count[arm]
        if k == self.Z[arm].shape[0]:  # grow the arm's buffer (doubling)
            self.Z[arm] = np.concatenate([self.Z[arm], np.empty_like(self.Z[arm])])
            self.y[arm] = np.concatenate([self.y[arm], np.empty_like(self.y[arm])])
        row = self.Z[arm][k]
        for j in range(self.d):
            row[j] = xs[j]
        if self.intercept:
            row[self.d] = 1.0
        self.y[arm][k] = y
        self.count[arm] = k + 1
        s2 = 0.0
        for j in range(self.p):
            s2 += row[j] * row[j]
        self.zmax[arm] = max(self.zmax[arm], math.sqrt(s2))
        if self.t >= self.n0:
            self._fit(arm)
        self.t += 1
        self._coin = None

    def state(self) -> dict:
        """Plain data: everything :meth:`from_state` needs (JSON-able).

        Returns
        -------
        dict
            ``kind`` ("greedy-logistic"), ``d``, ``n0``, ``t``, ``coins``, ``seed``, ``rng``,
            ``coin`` (as for :meth:`NBL.state`), the options, ``theta`` (2 × p fits), each
            arm's design rows ``Z`` and responses ``y``, ``zmax`` and ``fitted``.
        """
        return {
            **self._base_state(),
            "intercept": self.intercept,
            "ridge": self.ridge,
            "tol": self.tol,
            "max_iter": self.max_iter,
            "theta": self.theta.tolist(),
            "Z": [self.Z[a][: self.count[a]].tolist() for a in (0, 1)],
            "y": [self.y[a][: self.count[a]].tolist() for a in (0, 1)],
            "zmax": list(self.zmax),
            "fitted": self._fitted,
        }

    @classmethod
    def _from_options(cls, state):
        return cls(
            int(state["d"]),
            int(state["n0"]),
            intercept=state["intercept"],
            ridge=state["ridge"],
            tol=state["tol"],
            max_iter=state["max_iter"],
            coins=state["coins"],
            seed=state["seed"],
        )

    def _restore(self, state) -> None:
        self.theta = np.array(state["theta"], dtype=np.float64).reshape(2, self.p)
        for a in (0, 1):
            rows = np.array(state["Z"][a], dtype=np.float64).reshape(-1, self.p)
            self.count[a] = rows.shape[0]
            cap = max(16, rows.shape[0])
            self.Z[a] = np.empty((cap, self.p))
            self.Z[a][: rows.shape[0]] = rows
            self.y[a] = np.empty(cap)
            self.y[a][: rows.shape[0]] = np.array(state["y"][a], dtype=np.float64)
        self.zmax = [float(z) for z in state["zmax"]]
        self._fitted = bool(state["fitted"])
