"""Sphere geometry of the NBL update (eq:tangent_update, eq:nbl_update, lem:normalization).

Plain numpy, vectorized over leading axes (the last axis is the coordinate). The compiled NBL
kernel (:mod:`nbl_sim.engine.nbl_kernel`) inlines the same arithmetic; these functions are the
readable definitions it is tested against.
"""

from __future__ import annotations

import numpy as np

__all__ = ["tangent_projection", "retract", "nbl_update", "signed_angle"]


def _dot(a, b):
    return (np.asarray(a) * np.asarray(b)).sum(axis=-1)


def tangent_projection(v: np.ndarray, w: np.ndarray) -> np.ndarray:
    """P_v^⊥ w = (I − vvᵀ) w for unit v (eq:tangent_update).

    Parameters
    ----------
    v : array_like, shape (..., d)
        Unit vectors (the current directions), one per leading index.
    w : array_like, shape (..., d)
        The vectors to project onto the tangent space of the sphere at ``v``.

    Returns
    -------
    numpy.ndarray, shape (..., d)
        ``w − (vᵀw) v``: the component of ``w`` orthogonal to ``v``.
    """
    v = np.asarray(v, dtype=float)
    w = np.asarray(w, dtype=float)
    return w - _dot(v, w)[..., None] * v


def retract(x: np.ndarray) -> np.ndarray:
    """The normalization retraction x ↦ x/‖x‖ onto the sphere.

    Parameters
    ----------
    x : array_like, shape (..., d)
        Nonzero vectors; the Euclidean norm is taken over the last axis.

    Returns
    -------
    numpy.ndarray, shape (..., d)
        ``x`` divided by its norm (unit vectors).
    """
    x = np.asarray(x, dtype=float)
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def nbl_update(v: np.ndarray, w: np.ndarray, eta) -> np.ndarray:
    """One NBL step (eq:nbl_update): v ↦ (v + η P_v^⊥ w)/‖v + η P_v^⊥ w‖.

    Parameters
    ----------
    v : array_like, shape (..., d)
        The current unit directions.
    w : array_like, shape (..., d)
        The update vectors (e.g. ``(y − ĝ) X`` of one round); only their tangent part at ``v``
        moves ``v``.
    eta : float or array_like, shape (...)
        The step size η: one common value, or one per leading index (row).

    Returns
    -------
    numpy.ndarray, shape (..., d)
        The updated unit directions.
    """
    v = np.asarray(v, dtype=float)
    eta = np.asarray(eta, dtype=float)
    step = eta[..., None] if eta.ndim else eta  # one step size per row, or a common one
    return retract(v + step * tangent_projection(v, w))


def signed_angle(v_star: np.ndarray, v: np.ndarray) -> np.ndarray:
    """α = atan2(v*_1 v_2 − v*_2 v_1, v*ᵀv) in radians, d = 2 (app:stochastic-nbl).

    Parameters
    ----------
    v_star : array_like, shape (..., 2)
        The reference direction v* (the true index direction).
    v : array_like, shape (..., 2)
        The directions whose angle from ``v_star`` is measured.

    Returns
    -------
    numpy.ndarray, shape (...)
        The signed angle from ``v_star`` to ``v`` in radians, in (−π, π]; positive when ``v``
        is counter-clockwise of ``v_star``.
    """
    v_star = np.asarray(v_star, dtype=float)
    v = np.asarray(v, dtype=float)
    return np.arctan2(v_star[..., 0] * v[..., 1] - v_star[..., 1] * v[..., 0], _dot(v_star, v))
