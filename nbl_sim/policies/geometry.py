"""Sphere geometry of the NBL update (eq:tangent_update, eq:nbl_update, lem:normalization).

Plain numpy, vectorized over leading axes (the last axis is the coordinate). The compiled NBL
kernel (:mod:`nbl_sim.policies.nbl`) inlines the same arithmetic; these functions are the
readable definitions it is tested against.
"""

from __future__ import annotations

import numpy as np

__all__ = ["tangent_projection", "retract", "nbl_update", "signed_angle"]


def _dot(a, b):
    return (np.asarray(a) * np.asarray(b)).sum(axis=-1)


def tangent_projection(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """P_v^⊥ w = (I − vvᵀ) w for unit v (eq:tangent_update)."""
    v = np.asarray(v, dtype=float)
    w = np.asarray(w, dtype=float)
    return w - _dot(v, w)[..., None] * v


def retract(x: np.ndarray) -> np.ndarray:
    """The normalization retraction x ↦ x/‖x‖ onto the sphere."""
    x = np.asarray(x, dtype=float)
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def nbl_update(v: np.ndarray, w: np.ndarray, eta) -> np.ndarray:
    """One NBL step (eq:nbl_update): v ↦ (v + η P_v^⊥ w)/‖v + η P_v^⊥ w‖."""
    v = np.asarray(v, dtype=float)
    eta = np.asarray(eta, dtype=float)
    step = eta[..., None] if eta.ndim else eta  # one step size per row, or a common one
    return retract(v + step * tangent_projection(v, w))


def signed_angle(v_star: np.ndarray, v: np.ndarray) -> np.ndarray:
    """α = atan2(v*_1 v_2 − v*_2 v_1, v*ᵀv) in radians, d = 2 (app:stochastic-nbl)."""
    v_star = np.asarray(v_star, dtype=float)
    v = np.asarray(v, dtype=float)
    return np.arctan2(v_star[..., 0] * v[..., 1] - v_star[..., 1] * v[..., 0], _dot(v_star, v))
