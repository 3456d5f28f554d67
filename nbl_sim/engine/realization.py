"""The realization of a batch of replications (:class:`Realization`: everything random, drawn up
front by :meth:`nbl_sim.engine.environment.Environment.draw`) and the per-replication random streams
it is drawn from (the "Common random numbers" section of :mod:`nbl_sim.engine.environment`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nbl_theory.errors import NBLInputError

__all__ = [
    "Realization",
    "replication_seeds",
    "replication_streams",
    "streams_of",
    "check_seed",
    "substream",
]


def replication_seeds(seed: int, reps: int) -> list[np.random.SeedSequence]:
    """Independent per-replication seed sequences: ``SeedSequence(seed).spawn(reps)``.

    Parameters
    ----------
    seed : int
        The run's seed, a non-negative integer (not a bool).
    reps : int
        How many replications (converted by ``int``).

    Returns
    -------
    list of numpy.random.SeedSequence
        ``reps`` children of ``SeedSequence(seed)``, spawn keys (0,), …, (reps − 1,).

    Raises
    ------
    NBLInputError
        If ``seed`` is not a non-negative integer.
    """
    return np.random.SeedSequence(check_seed(seed)).spawn(int(reps))


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise NBLInputError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def substream(ss: np.random.SeedSequence, k: int) -> np.random.Generator:
    """Deterministic k-th sub-stream of a replication (no mutation of ``ss``)."""
    child = np.random.SeedSequence(entropy=ss.entropy, spawn_key=tuple(ss.spawn_key) + (k,))
    return np.random.Generator(np.random.PCG64(child))


def replication_streams(ss: np.random.SeedSequence, coins: bool = True) -> tuple:
    """The (contexts, rewards, coins) sub-streams of one replication: numpy Generators built
    from ``ss`` (:func:`substream` k = 0, 1, 2); the coin stream is None when ``coins`` is
    False (no randomized initialization)."""
    return tuple(substream(ss, k) if k < 2 or coins else None for k in range(3))


def streams_of(seed: int, r: int, coins: bool = True) -> tuple:
    """:func:`replication_streams` of replication ``r`` of a run seeded ``seed``: the
    sub-streams ``Generator(PCG64(SeedSequence(seed, spawn_key=(r, k))))`` — child r of
    ``SeedSequence(seed)``, without spawning r + 1 children."""
    return replication_streams(np.random.SeedSequence(seed, spawn_key=(r,)), coins)


@dataclass
class Realization:
    """Everything random in a batch of replications, drawn up front.

    Parameters
    ----------
    X : (R, n, d) float64 ndarray
        The contexts X_t of every replication and round.
    means : (R, n, 2) float64 ndarray
        m_a(X_t) = g(β_aᵀX_t) (column 0 arm −1, column 1 arm +1).
    Y : (R, n, 2) float64 ndarray
        The potential rewards of both arms.
    coins : (R, n0) int8 ndarray
        The randomized-initialization actions in {−1, +1}.
    reps : tuple of int
        The replication indices (into ``SeedSequence(seed).spawn``).
    optimal : (R, n) int8 ndarray or None, default None
        The optimal actions a*(X_t) = argmax_a m_a(X_t) — sgn(v*ᵀX_t) (sgn 0 = +1) for a
        shared link — equal to :meth:`~nbl_sim.engine.environment.Environment.optimal_actions`
        ``(X)``; None when not computed.
    """

    X: np.ndarray
    means: np.ndarray
    Y: np.ndarray
    coins: np.ndarray
    reps: tuple
    optimal: np.ndarray | None = None

    @classmethod
    def empty(cls, R: int, n: int, n0: int, d: int) -> Realization:
        """Uninitialized arrays for R replications (buffers for
        :meth:`~nbl_sim.engine.environment.Environment.draw`).

        Parameters
        ----------
        R : int
            Replications (the first axis of every array).
        n : int
            Rounds.
        n0 : int
            Initialization coins per replication.
        d : int
            Context dimension.

        Returns
        -------
        Realization
            ``X`` (R, n, d), ``means`` and ``Y`` (R, n, 2) float64, ``coins`` (R, n0) int8 and
            ``optimal`` (R, n) int8, all uninitialized; ``reps`` empty.
        """
        return cls(
            np.empty((R, n, d)),
            np.empty((R, n, 2)),
            np.empty((R, n, 2)),
            np.empty((R, n0), dtype=np.int8),
            (),
            np.empty((R, n), dtype=np.int8),
        )

    @staticmethod
    def bytes_per_replication(n: int, n0: int, d: int) -> float:
        """Bytes of one replication's arrays in :meth:`empty` (X, means, Y, optimal, coins).

        Parameters
        ----------
        n : int
            Rounds.
        n0 : int
            Initialization coins.
        d : int
            Context dimension.

        Returns
        -------
        float
            n·(8·(d + 4) + 1) + n0: 8 bytes for each of the d + 2 + 2 floats of a round, one
            for its optimal action, one for each coin.
        """
        return n * (8.0 * (d + 4) + 1) + n0

    @property
    def shape(self) -> tuple:
        """The shape (R, n, d) of the contexts ``X``."""
        return self.X.shape
