"""Arm geometries and per-arm links beyond the paper's symmetric shared model.

The paper (eq:model, sec:nbl) has β_a = θ + a(Δ/2)v*, θ ⊥ v*, ‖β_a‖ = 1 and one increasing
link g shared by both arms. An :class:`ArmModel` holds any two index vectors and any two arm
links: m_a(x) = g_a(β_aᵀx), a ∈ {−1, +1} (row/entry 0 = arm −1, 1 = arm +1).

Shared link, asymmetric arms
----------------------------
:func:`asymmetric_arms`: β_+ = θ + a_+ v*, β_− = θ − a_− v* with θ ⊥ v*, a_+ + a_− = Δ > 0.
Then β_+ − β_− = Δ v*, so with one strictly increasing g the optimal action is
sgn(g(β_+ᵀx) − g(β_−ᵀx)) = sgn(v*ᵀx): the optimal boundary is still the hyperplane with
normal v*. (The two arms cannot both keep unit norm unless a_+ = a_−: ‖β_±‖² = ‖θ‖² + a_±².
Different θ's for the two arms add nothing: β_+ − β_− is then not ∥ v*, and the optimal
normal is simply (β_+ − β_−)/‖β_+ − β_−‖ — any pair of arms with a shared link is of this
form.) :func:`shifted_arms` is the one-parameter family a_± = Δ/2 ± c around the paper's arms.

Different links per arm
-----------------------
With g_+ ≠ g_− the optimal boundary {x : g_+(β_+ᵀx) = g_−(β_−ᵀx)} is in general *not* a
hyperplane through the origin: an intercept (:func:`intercept_arms`, g_+(z) = g(z + c)) moves
it to the affine hyperplane Δv*ᵀx = −c, a mixture link bends it. NBL only represents boundaries
{vᵀx = 0}, so it pays a regret even at its best. For a linear boundary v, the regret per round
against the true optimal policy a*(x) = argmax_a m_a(x) is

.. math:: \\mathrm{reg}(v) = E[m_{a^*(X)}(X) − m_{\\mathrm{sgn}(v^TX)}(X)]
          = E[\\max(m_+, m_−)(X)] − E[m_{\\mathrm{sgn}(v^TX)}(X)],

with sgn(0) = +1 (the tie rule of eq:Fdef). ``ArmModel.v_star`` is the optimal normal when the
link is shared and None otherwise.

Spec strings (:func:`parse_arms_spec`): comma-separated ``shift=C``, ``intercept=C``,
``rotate=DEG`` (v* at DEG degrees from e₁ in the (e₁, e₂) plane, θ at DEG + 90°), or
``symmetric``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from nbl_sim.population.fields import arm_vectors
from nbl_theory.errors import NBLInputError
from nbl_theory.link_type import LinkType
from nbl_theory.numbers import number_value
from nbl_theory.validation import (
    check_link,
    dimension,
    finite_array,
    real,
    unit_vector,
    validate_delta,
)

from .linkeval import ShiftedLink, check_arm_link, fast_g

__all__ = [
    "ArmModel",
    "symmetric_arms",
    "asymmetric_arms",
    "shifted_arms",
    "intercept_arms",
    "arms_with_links",
    "parse_arms_spec",
    "arm_frame",
]


@dataclass(frozen=True, eq=False)
class ArmModel:
    """Two arms: ``beta`` (2, d) rows β_−, β_+; ``links`` (g_−, g_+).

    ``nominal`` = (Link, Δ as given) of the paper's symmetric shared model this one departs
    from (used for the Gaussian prediction λ*), or None; ``info`` a JSON-able description.

    Parameters
    ----------
    beta : numpy.ndarray, shape (2, d)
        The index vectors, rows β_−, β_+.
    links : tuple
        The arms' links (g_−, g_+) (a shared link: the same object twice).
    nominal : tuple or None, default None
        (Link, Δ as given) of the paper's symmetric shared model this one departs from.
    info : dict, default {}
        A JSON-able description of how the arms were built.
    """

    beta: np.ndarray
    links: tuple
    nominal: tuple | None = None
    info: dict = field(default_factory=dict)

    def __post_init__(self):
        b = finite_array(self.beta, "beta")
        if b.ndim != 2 or b.shape[0] != 2:
            raise NBLInputError(f"beta must have shape (2, d), got {b.shape}")
        dimension(b.shape[1])
        if np.allclose(b[0], b[1], rtol=0, atol=1e-14):
            raise NBLInputError("the two arms have the same index vector")
        if len(self.links) != 2:
            raise NBLInputError("links must be a pair (g_-, g_+)")
        for k, g in zip(("g_-", "g_+"), self.links):
            check_arm_link(g, k)
        object.__setattr__(self, "beta", b)
        object.__setattr__(self, "links", tuple(self.links))

    @property
    def d(self) -> int:
        """The dimension d (columns of ``beta``)."""
        return self.beta.shape[1]

    @property
    def shared(self) -> bool:
        """One Link for both arms (the optimal boundary is then linear through 0)."""
        return self.links[0] is self.links[1] and isinstance(self.links[0], LinkType)

    @property
    def v_star(self) -> np.ndarray | None:
        """The optimal normal (β_+ − β_−)/‖β_+ − β_−‖ for a shared link, else None."""
        if not self.shared:
            return None
        diff = self.beta[1] - self.beta[0]
        return diff / np.linalg.norm(diff)

    def means(self, x) -> np.ndarray:
        """m_a(x) for contexts x (n, d): (n, 2), column 0 = arm −1.

        Parameters
        ----------
        x : array_like, shape (n, d) or (d,)
            Contexts.

        Returns
        -------
        numpy.ndarray, shape (n, 2)
            The mean rewards of arm −1 (column 0) and arm +1 (column 1).
        """
        x = np.atleast_2d(np.asarray(x, dtype=float))
        z = x @ self.beta.T
        return np.stack([fast_g(g)(z[:, i]) for i, g in enumerate(self.links)], axis=1)

    def transformed(self, a: np.ndarray | None) -> ArmModel:
        """The arms seen by Y when X = A Y: β̃_a = Aᵀβ_a (rows β_a A).

        Parameters
        ----------
        a : numpy.ndarray, shape (d, d), or None
            The transform A of the contexts (None: the arms themselves).

        Returns
        -------
        ArmModel
            The arms with β rows β_a A, same links and description.
        """
        if a is None:
            return self
        return ArmModel(self.beta @ a, self.links, self.nominal, self.info)

    def describe(self) -> dict:
        """The arms as plain data (for reports and the cache).

        Returns
        -------
        dict
            ``info`` with ``beta``, the links' names, ``shared_link`` and ``v_star`` (None unless
            the arms share one link).
        """
        return {
            **self.info,
            "beta": self.beta.tolist(),
            "links": [getattr(g, "name", str(g)) for g in self.links],
            "shared_link": self.shared,
            "v_star": None if self.v_star is None else self.v_star.tolist(),
        }


def arm_frame(beta) -> tuple[np.ndarray, np.ndarray]:
    """The reference frame of two arms: v = (β_+ − β_−)/‖β_+ − β_−‖ (the optimal normal for a
    shared link) and θ = the part of (β_+ + β_−)/2 orthogonal to v (rows of ``beta``: β_−,
    β_+)."""
    b = np.asarray(beta, dtype=float)
    v = b[1] - b[0]
    v = v / np.linalg.norm(v)
    c = 0.5 * (b[0] + b[1])
    return v, c - (c @ v) * v


def symmetric_arms(link, delta, d: int = 2, v_star=None, theta_dir=None) -> ArmModel:
    """The paper's arms β_a = θ + a(Δ/2)v*, ‖β_a‖ = 1 (``nbl_sim.population.fields.arm_vectors``).

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        The paper's arm separation Δ ∈ (0, 2).
    d : int, default 2
        The dimension.
    v_star : array_like, shape (d,), optional
        The boundary direction (default e₁), as in :func:`~nbl_sim.population.fields.arm_vectors`.
    theta_dir : array_like, shape (d,), optional
        The direction of θ, as in :func:`~nbl_sim.population.fields.arm_vectors`.

    Returns
    -------
    ArmModel
        The paper's arms.
    """
    link = check_link(link)
    beta, vs, _ = arm_vectors(delta, d, v_star, theta_dir)
    return ArmModel(beta, (link, link), (link, delta), {"arms": "symmetric", "delta": str(delta)})


def asymmetric_arms(link, theta, a_plus, a_minus, v_star, nominal_delta=None) -> ArmModel:
    """β_+ = θ + a_+ v*, β_− = θ − a_− v* with a shared link (module docstring).

    θ is projected on v*^⊥ (its v*-part would only move a_±); a_+ + a_− must be > 0.

    Parameters
    ----------
    link : Link
        The shared link g.
    theta : array_like, shape (d,)
        The common part θ (projected on v*^⊥).
    a_plus : float
        The coefficient a_+ of v* in β_+.
    a_minus : float
        The coefficient a_− of −v* in β_− (a_+ + a_− > 0).
    v_star : array_like, shape (d,)
        The boundary direction (normalized).
    nominal_delta : float or str, optional
        Δ of the paper's model this one departs from (None: no nominal model).

    Returns
    -------
    ArmModel
        The asymmetric arms.
    """
    link = check_link(link)
    vs = unit_vector(v_star, "v_star")
    th = finite_array(theta, "theta")
    if th.shape != vs.shape:
        raise NBLInputError(f"theta must have shape {vs.shape}, got {th.shape}")
    th = th - (th @ vs) * vs
    ap, am = real(a_plus, "a_plus"), real(a_minus, "a_minus")
    if ap + am <= 0:
        raise NBLInputError(f"a_plus + a_minus must be > 0 (the separation), got {ap + am}")
    beta = np.stack([th - am * vs, th + ap * vs])
    nominal = (link, nominal_delta if nominal_delta is not None else ap + am)
    return ArmModel(
        beta,
        (link, link),
        nominal,
        {
            "arms": "asymmetric",
            "a_plus": ap,
            "a_minus": am,
            "theta_norm": float(np.linalg.norm(th)),
        },
    )


def _rotated_frame(d: int, rotate_deg: float):
    t = math.radians(rotate_deg)
    vs = np.zeros(d)
    th = np.zeros(d)
    vs[:2] = (math.cos(t), math.sin(t))
    th[:2] = (-math.sin(t), math.cos(t))
    return vs, th


def shifted_arms(link, delta, shift, d: int = 2, rotate_deg: float = 0.0) -> ArmModel:
    """a_± = Δ/2 ± shift around the paper's arms: β_± = θ + (Δ/2 ± c)v*, ‖θ‖² = 1 − Δ²/4
    (the centre (β_+ + β_−)/2 = θ + c v* leaves v*^⊥); shift = 0 is :func:`symmetric_arms`.

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        The paper's arm separation Δ ∈ (0, 2).
    shift : float
        The shift c, |c| < 1.
    d : int, default 2
        The dimension.
    rotate_deg : float, default 0.0
        The angle (degrees) by which the frame (v*, θ̂) = (e₁, e₂) is rotated in its plane.

    Returns
    -------
    ArmModel
        The shifted arms, ``nominal`` the paper's (link, Δ).
    """
    dl = float(validate_delta(delta))
    c = real(shift, "shift")
    if abs(c) >= 1:
        raise NBLInputError(f"shift must lie in (-1, 1), got {shift}")
    vs, th = _rotated_frame(dimension(d), real(rotate_deg, "rotate"))
    th = th * math.sqrt(1 - dl * dl / 4)
    arms = asymmetric_arms(link, th, dl / 2 + c, dl / 2 - c, vs, nominal_delta=delta)
    return ArmModel(
        arms.beta,
        arms.links,
        arms.nominal,
        {"arms": "shifted", "delta": str(delta), "shift": c, "rotate_deg": float(rotate_deg)},
    )


def intercept_arms(link, delta, intercept, d: int = 2, rotate_deg: float = 0.0) -> ArmModel:
    """The paper's arms with an intercept on arm +1: m_+(x) = g(β_+ᵀx + c), m_−(x) = g(β_−ᵀx).
    The optimal boundary is the affine hyperplane Δ v*ᵀx = −c (not through 0 unless c = 0).

    Parameters
    ----------
    link : Link
        The shared link g.
    delta : float, int or decimal str
        The paper's arm separation Δ ∈ (0, 2).
    intercept : float
        The intercept c added to arm +1's index.
    d : int, default 2
        The dimension.
    rotate_deg : float, default 0.0
        The angle (degrees) by which the frame (v*, θ̂) = (e₁, e₂) is rotated in its plane.

    Returns
    -------
    ArmModel
        The arms, ``nominal`` the paper's (link, Δ).
    """
    link = check_link(link)
    c = real(intercept, "intercept")
    dl = float(validate_delta(delta))
    vs, th = _rotated_frame(dimension(d), real(rotate_deg, "rotate"))
    th = th * math.sqrt(1 - dl * dl / 4)
    beta = np.stack([th - dl / 2 * vs, th + dl / 2 * vs])
    gp = link if c == 0 else ShiftedLink(link, c)
    return ArmModel(
        beta,
        (link, gp),
        (link, delta),
        {"arms": "intercept", "delta": str(delta), "intercept": c, "rotate_deg": float(rotate_deg)},
    )


def arms_with_links(beta, g_minus, g_plus, nominal=None) -> ArmModel:
    """Any two index vectors with any two arm links (module docstring)."""
    return ArmModel(np.asarray(beta, dtype=float), (g_minus, g_plus), nominal, {"arms": "general"})


def parse_arms_spec(spec: str, link, delta, d: int = 2) -> ArmModel:
    """Arms from a spec string: ``symmetric`` or comma-separated ``shift=C``,
    ``intercept=C``, ``rotate=DEG`` (shift and intercept exclude each other).

    Parameters
    ----------
    spec : str
        The arms spec.
    link : Link
        The shared link g.
    delta : float, int or decimal str
        The paper's arm separation Δ ∈ (0, 2).
    d : int, default 2
        The dimension.

    Returns
    -------
    ArmModel
        The arms the spec names.

    Raises
    ------
    NBLInputError
        An empty or malformed spec, an unknown option, or shift with intercept.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise NBLInputError("arms spec must be a non-empty string")
    opts = {}
    if spec.strip() != "symmetric":
        for part in spec.split(","):
            key, eq, val = part.strip().partition("=")
            if key not in ("shift", "intercept", "rotate") or not eq:
                raise NBLInputError(
                    f"arms spec: unknown or malformed option {part.strip()!r} "
                    "(use shift=C, intercept=C, rotate=DEG or symmetric)"
                )
            if key in opts:
                raise NBLInputError(f"arms spec: option {key!r} given twice")
            # the command line's one value grammar (decimals and fractions p/q, as --delta)
            opts[key] = real(number_value(val.strip(), f"arms spec: {key}"), key)
    if "shift" in opts and "intercept" in opts:
        raise NBLInputError("arms spec: shift and intercept cannot be combined")
    rot = opts.get("rotate", 0.0)
    if "intercept" in opts:
        return intercept_arms(link, delta, opts["intercept"], d, rot)
    return shifted_arms(link, delta, opts.get("shift", 0.0), d, rot)
