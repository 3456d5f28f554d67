"""The oracle policy a*(x) = sgn(v*ᵀx) (eq:model), sgn(0) = +1: zero regret by definition
(eq:regret); the reference against which the other policies' regret is measured."""

from __future__ import annotations

import numpy as np

from nbl_theory.errors import NBLInputError

__all__ = ["oracle_actions"]


def oracle_actions(X: np.ndarray, v_star: np.ndarray) -> np.ndarray:
    """(R, n) int8 actions sgn(v*ᵀX_t) for contexts X of shape (R, n, d).

    Parameters
    ----------
    X : array_like, shape (R, n, d)
        Contexts (converted to float64).
    v_star : array_like, shape (d,)
        The true direction v*.

    Returns
    -------
    (R, n) int8 ndarray
        sgn(v*ᵀX_t) in {−1, +1}, sgn(0) = +1; the sum over coordinates in index order.

    Raises
    ------
    NBLInputError
        If ``X`` is not three-dimensional or ``v_star`` not of shape (d,).
    """
    X = np.asarray(X, dtype=np.float64)
    v_star = np.asarray(v_star, dtype=np.float64)
    if X.ndim != 3 or v_star.shape != (X.shape[2],):
        raise NBLInputError(f"X must be (R, n, d) and v_star (d,); got {X.shape}, {v_star.shape}")
    s = np.zeros(X.shape[:2])
    for k in range(X.shape[2]):  # fixed summation order (same rounding whatever the batch)
        s += X[..., k] * v_star[k]
    return np.where(s >= 0, 1, -1).astype(np.int8)
