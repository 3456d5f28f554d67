"""Repaired NBL: alg:nbl on transformed contexts or rewards, through the same compiled kernel.

Each repair is a transformation of the realization arrays followed by
:func:`nbl_sim.engine.nbl_kernel.nbl_run` (no second kernel); the exact population analysis of
each is
:mod:`nbl_sim.beyond.repairs` (derivations there and in docs/repairs.md).

``whitened``
    X_t → Σ^{-1/2}X_t with the context covariance Σ known.
``whitened-running``
    X_t → Σ̂_t^{-1/2}X_t with Σ̂_t = (I + Σ_{s ≤ t} X_sX_sᵀ)/(t + 1), the running second moment
    of the contexts seen up to and including round t (the context is observed before the action,
    whatever the action: the estimate costs no exploration; the I is a prior of one round, so
    Σ̂_t is invertible from the start). Effect on the step-size schedule: NBL runs in the
    coordinates of the *current* estimate, so its step η_t = γ/(t + t0) acts on the whitened
    direction; the local rate that enters the regret-rate condition γ·rate > 1/2 is the
    *whitened* rate (``repaired_rate`` of :func:`nbl_sim.beyond.repairs.analyze_repair`), and
    the estimation error Σ̂_t − Σ = O_p(t^{-1/2}) moves the field's zero by O_p(t^{-1/2}), the
    order of the recursion's own noise, so the O(1/t) mean-square error (and log n regret) of an
    attracting equilibrium is kept, with a larger constant.
``centred``
    Y → Y − b̂ with b̂ the mean of the n0 Stage I rewards of the replication (observed before
    Stage II; population value ½(E m_+ + E m_−)).
``whitened-centred``
    both.

Boundaries are returned in the original coordinates (v = Wṽ/‖Wṽ‖ for a whitening W); the
actions are the repaired NBL's, so regrets are measured exactly as for NBL.
"""

from __future__ import annotations

import math

import numpy as np

from nbl_theory.errors import NBLInputError

from ..engine.contract import GAMMA, T0
from ..engine.nbl_kernel import nbl_run

__all__ = [
    "REPAIRED_POLICIES",
    "RepairTrace",
    "repaired_nbl_run",
    "whiten_known",
    "whiten_running",
    "centre_rewards",
]

#: the repairs :func:`repaired_nbl_run` accepts (module docstring)
REPAIRED_POLICIES = ("whitened", "whitened-running", "centred", "whitened-centred")


class RepairTrace:
    """Output of :func:`repaired_nbl_run`: ``actions`` (R, n) int8, ``v_final`` (R, d) in the
    original coordinates, ``angle_final`` (R,) signed angle (radians, d = 2) from v* and
    ``info`` (degenerate initializations, the reward offsets used).

    Parameters
    ----------
    actions : (R, n) int8 ndarray
        The repaired NBL's actions, in {−1, +1}.
    v_final : (R, d) float64 ndarray
        The final boundaries v_n, unit vectors in the original coordinates.
    angle_final : (R,) float64 ndarray
        The signed angle (radians) from v* to ``v_final`` in d = 2; NaN for d ≠ 2.
    info : dict
        ``degenerate_init`` (from :func:`nbl_sim.engine.nbl_kernel.nbl_run`) and, for a centred
        repair, ``reward_offset_mean`` (the mean over replications of b̂).
    """

    def __init__(self, actions, v_final, angle_final, info):
        self.actions, self.v_final, self.angle_final, self.info = (
            actions,
            v_final,
            angle_final,
            info,
        )


def _inv_sqrt(cov: np.ndarray) -> np.ndarray:
    ev, q = np.linalg.eigh(cov)
    if np.any(ev <= 0) or not np.all(np.isfinite(ev)):
        raise NBLInputError("whitening needs a positive definite covariance")
    return (q / np.sqrt(ev)[..., None, :]) @ np.swapaxes(q, -1, -2)


def whiten_known(X: np.ndarray, cov) -> tuple[np.ndarray, np.ndarray]:
    """(X Σ^{-1/2}, Σ^{-1/2}) for contexts X (R, n, d) and a known covariance Σ (d, d).

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts (converted to float64).
    cov : array_like, shape (d, d)
        The context covariance Σ, symmetric positive definite.

    Returns
    -------
    Xw : (R, n, d) float64 ndarray
        The whitened contexts Σ^{-1/2}X_t.
    w : (d, d) float64 ndarray
        Σ^{-1/2} (symmetric, from the eigendecomposition of Σ).

    Raises
    ------
    NBLInputError
        If ``cov`` is not a symmetric (d, d) matrix, or not positive definite.
    """
    X = np.asarray(X, dtype=np.float64)
    s = np.asarray(cov, dtype=np.float64)
    if s.shape != (X.shape[-1],) * 2 or not np.allclose(s, s.T):
        raise NBLInputError(f"cov must be a symmetric ({X.shape[-1]}, {X.shape[-1]}) matrix")
    w = _inv_sqrt(s)
    return X @ w.T, w


def whiten_running(X: np.ndarray, block: int = 4096) -> tuple[np.ndarray, np.ndarray]:
    """Contexts whitened by the running second moment (module docstring) and the last
    whitening matrices W_n (R, d, d). Round t uses the contexts of rounds 1..t only.

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts (converted to float64).
    block : int, default 4096
        Rounds processed at a time (bounds the (R, block, d, d) temporaries; the result does
        not depend on it up to the rounding of the running sums across blocks).

    Returns
    -------
    Xw : (R, n, d) float64 ndarray
        Σ̂_t^{-1/2}X_t for every round t.
    w_last : (R, d, d) float64 ndarray
        Σ̂_n^{-1/2} of every replication (the identity when n = 0).
    """
    X = np.asarray(X, dtype=np.float64)
    R, n, d = X.shape
    out = np.empty_like(X)
    acc = np.broadcast_to(np.eye(d), (R, d, d)).copy()
    w = None
    for i in range(0, n, block):
        xb = X[:, i : i + block]
        outer = xb[..., :, None] * xb[..., None, :]  # (R, m, d, d)
        cum = acc[:, None] + np.cumsum(outer, axis=1)  # I + Σ_{s ≤ t}
        t = np.arange(i + 1, i + xb.shape[1] + 1, dtype=float)
        w = _inv_sqrt(cum / (t + 1)[None, :, None, None])
        out[:, i : i + block] = np.einsum("rtij,rtj->rti", w, xb)
        acc = cum[:, -1]
    return out, (w[:, -1] if w is not None else np.broadcast_to(np.eye(d), (R, d, d)).copy())


def centre_rewards(Y: np.ndarray, coins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Y − b̂, b̂): b̂ (R,) the mean Stage I reward of each replication (coins (R, n0)).

    Parameters
    ----------
    Y : array_like, shape (R, n, 2)
        Potential rewards (column 0 = arm −1), n >= n0.
    coins : (R, n0) int ndarray
        The Stage I actions in {−1, +1}: the observed reward of round t < n0 is that of
        ``coins[:, t]``.

    Returns
    -------
    Yc : (R, n, 2) float64 ndarray
        ``Y`` minus each replication's b̂ (both arms, every round).
    b : (R,) float64 ndarray
        b̂, the mean of the n0 observed Stage I rewards.

    Raises
    ------
    NBLInputError
        If n0 = 0 (no Stage I reward to centre by).
    """
    Y = np.asarray(Y, dtype=np.float64)
    n0 = coins.shape[1]
    if n0 == 0:
        raise NBLInputError("centred rewards need a Stage I (n0 >= 1)")
    y = np.where(coins > 0, Y[:, :n0, 1], Y[:, :n0, 0])
    b = y.mean(axis=1)
    return Y - b[:, None, None], b


def repaired_nbl_run(
    repair: str, X, Y, coins, v_star, *, cov=None, gamma: float = GAMMA, t0: float = T0
) -> RepairTrace:
    """NBL with ``repair`` (one of :data:`REPAIRED_POLICIES`) on a realization; ``cov`` is the
    known Σ of ``whitened`` / ``whitened-centred``.

    Parameters
    ----------
    repair : str
        One of :data:`REPAIRED_POLICIES` (module docstring).
    X : array_like, shape (R, n, d)
        Contexts.
    Y : array_like, shape (R, n, 2)
        Potential rewards (column 0 = arm −1).
    coins : (R, n0) int8 ndarray
        Stage I actions in {−1, +1}.
    v_star : array_like, shape (d,)
        The true direction v* (for the final angle, and the kernel's record of round n).
    cov : array_like, shape (d, d), optional
        The known context covariance Σ; required by ``whitened`` and ``whitened-centred``,
        ignored otherwise.
    gamma : float, default 10.0
        Step-size scale γ of η_t = γ/(t + t0).
    t0 : float, default 500.0
        Step-size offset t0.

    Returns
    -------
    RepairTrace
        The actions, final boundaries (original coordinates), final angles and info.

    Raises
    ------
    NBLInputError
        If ``repair`` is unknown, ``cov`` is missing for a known-covariance whitening or is not
        a symmetric positive definite (d, d) matrix, a centred repair has n0 = 0, or
        :func:`nbl_sim.engine.nbl_kernel.nbl_run` rejects its inputs.
    """
    if repair not in REPAIRED_POLICIES:
        raise NBLInputError(f"repair must be one of {REPAIRED_POLICIES}, got {repair!r}")
    X = np.asarray(X, dtype=np.float64)
    R, n, d = X.shape
    v_star = np.asarray(v_star, dtype=np.float64)
    info = {}
    if repair in ("whitened", "whitened-centred"):
        if cov is None:
            raise NBLInputError(f"{repair} needs the context covariance (cov=)")
        Xt, w = whiten_known(X, cov)
        back = np.broadcast_to(w, (R, d, d))
    elif repair == "whitened-running":
        Xt, back = whiten_running(X)
    else:
        Xt, back = X, np.broadcast_to(np.eye(d), (R, d, d))
    Yt = Y
    if repair.endswith("centred"):
        Yt, b = centre_rewards(Y, coins)
        info["reward_offset_mean"] = float(b.mean())
    # the kernel's recorded errors are those of the whitened iterate; only actions and v_n are
    # used here (v_star below only fills the kernel's record of round n)
    tr = nbl_run(Xt, Yt, coins, v_star, gamma=gamma, t0=t0, record_rounds=[n], record_angle=False)
    v = np.einsum("rij,rj->ri", back, tr.v_final)
    v /= np.linalg.norm(v, axis=1)[:, None]
    ang = (
        np.arctan2(v_star[0] * v[:, 1] - v_star[1] * v[:, 0], v @ v_star)
        if d == 2
        else np.full(R, math.nan)
    )
    info["degenerate_init"] = tr.info["degenerate_init"]
    return RepairTrace(tr.actions, v, ang, info)
