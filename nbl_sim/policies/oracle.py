"""The oracle policy a*(x) = sgn(v*ᵀx) (eq:model), sgn(0) = +1: zero regret by definition
(eq:regret); the reference against which the other policies' regret is measured."""

from __future__ import annotations

import numpy as np

from nbl_theory.errors import NBLInputError

__all__ = ["oracle_actions"]


def oracle_actions(X: np.ndarray, v_star: np.ndarray) -> np.ndarray:
    """(R, n) int8 actions sgn(v*ᵀX_t) for contexts X of shape (R, n, d)."""
    X = np.asarray(X, dtype=np.float64)
    v_star = np.asarray(v_star, dtype=np.float64)
    if X.ndim != 3 or v_star.shape != (X.shape[2],):
        raise NBLInputError(f"X must be (R, n, d) and v_star (d,); got {X.shape}, {v_star.shape}")
    s = np.zeros(X.shape[:2])
    for k in range(X.shape[2]):  # fixed summation order (same rounding whatever the batch)
        s += X[..., k] * v_star[k]
    return np.where(s >= 0, 1, -1).astype(np.int8)
