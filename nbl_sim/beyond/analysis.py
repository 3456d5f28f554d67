"""The exact population analysis of greedy NBL for one (context law, arms) case.

:func:`field_model` picks the method for a law (all return the same
:class:`~nbl_sim.beyond.field.FieldModel` interface):

=====================================  ===================================================
N(0, Σ), d = 2; Student-t, ball, cube  polar quadrature (:mod:`~nbl_sim.beyond.polar`),
in d = 2                               error from two resolutions
N(0, Σ), d ≥ 3                         1-D reductions (:mod:`~nbl_sim.beyond.gaussian_field`)
Rademacher                             exact sums over the 2^d atoms
empirical / dataset                    the rows as a Monte Carlo sample of their population:
                                       means ± one standard error, boundary smoothed with a
                                       Gaussian kernel of Silverman bandwidth (or, with
                                       ``empirical="population"``, exact sums, no smoothing)
other laws in d ≥ 3                    Monte Carlo with ``mc_samples`` draws (seeded)
=====================================  ===================================================

:func:`nbl_sim.beyond.case.analyze` then finds the equilibria (d = 2: every zero of
H(α) = v_⊥ᵀF(v(α)) on the circle, as nbl_sim.population.circle.circle_equilibria does for the
Gaussian; d ≥ 3: the equilibrium the population flow reaches from v*), the Jacobian spectrum
of h on the tangent space at each (Dh = P B P − κP, nbl_sim.beyond.field), the learned
boundary (the attracting equilibrium the flow reaches from v*, or from just beside v* when v*
repels), its angle to v* and its regret per round, and the Gaussian theory's prediction (λ* of
eq:decision_stability and the exact isotropic rates of prop:local_jacobian) for the nominal
link and Δ.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from nbl_sim.population.circle import circle_zeros
from nbl_theory.errors import NBLInputError
from nbl_theory.validation import positive_int, unit_vector

from .arms import ArmModel
from .contexts import ContextLaw
from .equilibrium import SAFETY
from .field import Estimate, FieldModel, SampleField, TransformedField, silverman_bandwidth
from .gaussian_field import GaussianField
from .linkeval import growth_exponent
from .polar import PolarField

__all__ = [
    "field_model",
    "circle_H",
    "circle_dH",
    "circle_equilibria",
    "jacobian_spectrum",
    "flow_to_equilibrium",
    "equilibrium_at",
    "Equilibrium",
    "signed_angle_deg",
    "METHODS",
    "classify",
]

METHODS = ("auto", "polar", "gaussian-1d", "monte-carlo")
#: a zero of H whose one-sided values differ by more than this × max|H| is a jump
_JUMP_RTOL = 1e-6


def field_model(
    law: ContextLaw,
    arms: ArmModel,
    *,
    method: str = "auto",
    mc_samples: int = 200_000,
    seed: int = 0,
    bandwidth: float | None = None,
    empirical: str = "sample",
    n_panels: int = 16,
) -> FieldModel:
    """The field model of ``law`` with ``arms`` (module docstring)."""
    if not isinstance(law, ContextLaw):
        raise NBLInputError(f"law must be a ContextLaw, got {type(law).__name__}")
    if not isinstance(arms, ArmModel):
        raise NBLInputError(f"arms must be an ArmModel, got {type(arms).__name__}")
    if law.d != arms.d:
        raise NBLInputError(f"the context law has d = {law.d} but the arms have d = {arms.d}")
    if method not in METHODS:
        raise NBLInputError(f"method must be one of {METHODS}, got {method!r}")
    if empirical not in ("sample", "population"):
        raise NBLInputError(f"empirical must be 'sample' or 'population', got {empirical!r}")
    mc_samples = positive_int(mc_samples, "mc_samples", 100)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise NBLInputError(f"seed must be a non-negative integer, got {seed!r}")
    fam = law.family
    if fam == "student-t":
        k = max(growth_exponent(g) for g in arms.links)
        if not law.nu > k + 1:
            raise NBLInputError(
                f"student-t: a link grows like |z|^{k:.3g}; the field needs "
                f"nu > {k + 1:.3g}, got nu = {law.nu:g}"
            )

    def mc(points, weights):
        b = silverman_bandwidth(points.shape[0]) if bandwidth is None else bandwidth
        return SampleField(points, weights, arms, b, "monte-carlo")

    if fam == "rademacher" and method in ("auto",):
        pts, w = law.atoms()
        return SampleField(pts, w, arms, 0.0, "exact")
    if fam == "empirical" and method in ("auto", "monte-carlo"):
        pts, w = law.atoms()
        if empirical == "population":
            return SampleField(pts, w, arms, 0.0 if bandwidth is None else bandwidth, "exact")
        return mc(pts, w)
    if method == "monte-carlo" or (method == "auto" and law.d > 2 and fam != "gaussian"):
        pts = law.sample(np.random.default_rng(seed), mc_samples)
        return mc(pts, np.full(mc_samples, 1.0 / mc_samples))
    inner = arms.transformed(law.transform)
    if method == "gaussian-1d" or (method == "auto" and fam == "gaussian" and law.d > 2):
        if fam != "gaussian":
            raise NBLInputError("method 'gaussian-1d' needs a Gaussian context law")
        base = GaussianField(inner)
    else:
        if law.d != 2 or fam not in ("gaussian", "student-t", "ball", "cube"):
            raise NBLInputError(
                f"polar quadrature needs d = 2 and a law with a density, got {fam} in d = {law.d}"
            )
        base = PolarField(fam, inner, getattr(law, "nu", None), n_panels)
    return base if law.transform is None else TransformedField(base, law.transform)


# ---------------------------------------------------------------------------- d = 2 circle
def _unit_rows(alpha):
    a = np.atleast_1d(np.asarray(alpha, dtype=float))
    return np.stack([np.cos(a), np.sin(a)], axis=1), np.stack([-np.sin(a), np.cos(a)], axis=1)


def circle_H(model: FieldModel, alpha) -> Estimate:
    """H(α) = v_⊥(α)ᵀF(v(α)) (eq:H-alpha) for d = 2, α in radians (any shape → flat)."""
    v, vp = _unit_rows(alpha)
    f = model.field(v)
    return Estimate(np.sum(vp * f.value, axis=1), np.sum(np.abs(vp) * f.error, axis=1))


def circle_dH(model: FieldModel, alpha) -> Estimate:
    """H'(α) = v_⊥ᵀB v_⊥ − vᵀF (nbl_sim.beyond.field)."""
    v, vp = _unit_rows(alpha)
    f, b = model.field(v), model.boundary(v)
    val = np.einsum("ki,kij,kj->k", vp, b.value, vp) - np.sum(v * f.value, axis=1)
    err = np.einsum("ki,kij,kj->k", np.abs(vp), b.error, np.abs(vp)) + np.sum(
        np.abs(v) * f.error, axis=1
    )
    return Estimate(val, err)


def signed_angle_deg(v_from, v_to) -> float:
    """Signed angle (degrees) from v_from to v_to in the (e₁, e₂) plane, via atan2."""
    a, b = np.asarray(v_from, float), np.asarray(v_to, float)
    return math.degrees(math.atan2(a[0] * b[1] - a[1] * b[0], a[0] * b[0] + a[1] * b[1]))


@dataclass
class Equilibrium:
    """One equilibrium direction with its local dynamics and cost."""

    direction: list
    angle_deg: float  # from v_ref: signed (atan2) in d = 2, unsigned in d ≥ 3
    residual: float  # ‖h(v)‖
    residual_error: float
    eigenvalues: list  # Jacobian of h on T_v S^{d−1}
    eigenvalue_error: float
    stability: str  # attracting / repelling / saddle (signs of the eigenvalues)
    decided: bool  # every eigenvalue is nonzero beyond SAFETY × its error
    regret: float
    regret_error: float

    @property
    def rate(self) -> float:
        """Local contraction rate −max eigenvalue (> 0: attracting)."""
        return -max(self.eigenvalues) if self.eigenvalues else math.nan


def jacobian_spectrum(model: FieldModel, v) -> tuple[np.ndarray, float]:
    """Eigenvalues of Dh(v) = P B(v) P − κP on T_v S^{d−1} (ascending) and an error bound
    (Weyl: ‖ΔM‖_F from the errors of B and κ)."""
    vs = unit_vector(v, "v", model.d)
    q, _ = np.linalg.qr(np.column_stack([vs, np.eye(model.d)]))
    q = q[:, 1 : model.d]
    f, b = model.field(vs[None, :]), model.boundary(vs[None, :])
    kappa = float(vs @ f.value[0])
    m = q.T @ b.value[0] @ q - kappa * np.eye(model.d - 1)
    eig = np.linalg.eigvalsh(0.5 * (m + m.T))
    err = float(np.linalg.norm(np.abs(q).T @ b.error[0] @ np.abs(q)) + np.abs(vs) @ f.error[0])
    return eig, err


def classify(eig, err, kind: str) -> tuple[str, bool]:
    """Label from the signs of the tangent eigenvalues (attracting: all < 0; repelling: all
    > 0; saddle: mixed; degenerate: a zero) and whether every sign is decided, i.e.
    |eigenvalue| > SAFETY[kind] · error."""
    eig = np.asarray(eig, dtype=float)
    decided = bool(np.all(np.abs(eig) > SAFETY[kind] * err))
    if np.all(eig < 0):
        return "attracting", decided
    if np.all(eig > 0):
        return "repelling", decided
    if np.any(eig < 0) and np.any(eig > 0):
        return "saddle", decided
    return "degenerate", decided


def equilibrium_at(model: FieldModel, v, v_ref, kind: str | None = None) -> Equilibrium:
    """The :class:`Equilibrium` record of the direction ``v`` (residual ‖h(v)‖, tangent
    spectrum, stability label, regret, signed angle from ``v_ref``)."""
    f = model.field(v[None, :])
    p = np.eye(model.d) - np.outer(v, v)
    h = p @ f.value[0]
    eig, eerr = jacobian_spectrum(model, v)
    reg = model.regret(v[None, :])
    # d = 2: signed angle (atan2); d ≥ 3: the unsigned angle in [0°, 180°]
    ang = (
        signed_angle_deg(v_ref, v)
        if model.d == 2
        else math.degrees(math.acos(max(-1.0, min(1.0, float(v @ v_ref)))))
    )
    label, decided = classify(eig, eerr, model.error_kind)
    if kind is not None:
        label, decided = kind, True
    return Equilibrium(
        v.tolist(),
        ang,
        float(np.linalg.norm(h)),
        float(np.linalg.norm(np.abs(p) @ f.error[0])),
        eig.tolist(),
        eerr,
        label,
        decided,
        float(reg.value[0]),
        float(reg.error[0]),
    )


def circle_equilibria(model: FieldModel, v_ref=None, n_grid: int = 720) -> list:
    """Every zero of H on the circle (d = 2) as :class:`Equilibrium` records, from the one root
    scan :func:`nbl_sim.population.circle.circle_zeros` (grid of ``n_grid`` angles anchored on
    ``v_ref``, sign changes re-checked one angle at a time and refined with brentq). A sign change
    across a jump of H (discrete laws: the boundary crosses an atom) is reported as
    ``jump-attracting`` (H from + to −) or ``jump-repelling``; every other zero is labelled by
    the signs of its Jacobian spectrum beyond the model's error (:func:`classify`). Zeros
    closer than one grid step, or where H touches 0 without changing sign, can be missed."""
    if model.d != 2:
        raise NBLInputError("circle_equilibria needs d = 2")
    n = positive_int(n_grid, "n_grid", 16)
    ref = np.array([1.0, 0.0]) if v_ref is None else unit_vector(v_ref, "v_ref", 2)
    a0 = math.atan2(ref[1], ref[0])

    def h(alpha):
        return circle_H(model, alpha).value

    def dh(alpha):
        return circle_dH(model, alpha).value

    zeros = circle_zeros(h, dh, n, tol=0.0, xtol=1e-13, ref=a0, jump_rtol=_JUMP_RTOL)
    out = []
    for z in zeros:
        v = np.array([math.cos(z.alpha), math.sin(z.alpha)])
        out.append(equilibrium_at(model, v, ref, z.stability if z.kind == "jump" else None))
    return out


# ---------------------------------------------------------------------------- d ≥ 3 flow
def flow_to_equilibrium(model: FieldModel, v0, max_steps: int = 4000, tol: float = 1e-11):
    """Follow the population flow v ← (v + ηh(v))/‖v + ηh(v)‖ from ``v0`` (η = 1/(‖B‖ + |κ|)
    at v0), then polish with Newton steps on the tangent space while ‖h‖ decreases."""
    v = unit_vector(v0, "v0", model.d)
    f, b = model.field(v[None, :]), model.boundary(v[None, :])
    eta = 1.0 / (np.linalg.norm(b.value[0], 2) + abs(float(v @ f.value[0])) + 1e-12)
    for _ in range(max_steps):
        fv = model.field(v[None, :]).value[0]
        h = fv - (v @ fv) * v
        if np.linalg.norm(h) <= 1e-6:
            break
        v = v + eta * h
        v /= np.linalg.norm(v)
    for _ in range(8):
        fv = model.field(v[None, :]).value[0]
        h = fv - (v @ fv) * v
        if np.linalg.norm(h) <= tol:
            break
        q, _ = np.linalg.qr(np.column_stack([v, np.eye(model.d)]))
        q = q[:, 1 : model.d]
        bv = model.boundary(v[None, :]).value[0]
        m = q.T @ bv @ q - float(v @ fv) * np.eye(model.d - 1)
        try:
            step = q @ np.linalg.solve(m, -q.T @ h)
        except np.linalg.LinAlgError:
            break
        w = v + step
        w /= np.linalg.norm(w)
        fw = model.field(w[None, :]).value[0]
        if np.linalg.norm(fw - (w @ fw) * w) >= np.linalg.norm(h):
            break
        v = w
    return v
