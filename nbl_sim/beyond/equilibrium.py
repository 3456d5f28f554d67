"""When does v* stay an equilibrium of greedy NBL? The exact condition, beyond Gaussian contexts.

prop:population_equilibrium says F(v*) = κ*v*, so h(v*) = 0, under assum:gaussian_context
(X ~ N(0, I_d)) with the paper's arms β_± = θ ± (Δ/2)v* and one link g. Here is what survives
for an arbitrary context law (E[|X| |g(β_aᵀX)|] < ∞).

Derivation
----------
Write Z = v*ᵀX, X_⊥ = (I − v*v*ᵀ)X and U = θᵀX = θᵀX_⊥. On {Z ≥ 0},
m_+(X) = g(U + (Δ/2)Z) = g(U + (Δ/2)|Z|); on {Z < 0}, m_−(X) = g(U − (Δ/2)Z) =
g(U + (Δ/2)|Z|). So the two greedy terms of eq:Fdef combine into one integrand,

.. math::

    F(v^*) = E[X\\, g(U + \\tfrac{Δ}{2}|Z|)\\, s(Z)],\\qquad s(z) = +1\\ (z ≥ 0),\\ −1\\ (z < 0),

and h(v*) = (I − v*v*ᵀ)F(v*) = E[X_⊥ g(θᵀX_⊥ + (Δ/2)|Z|) s(Z)]. Therefore, exactly,

.. math::

    h(v^*) = 0 \\iff
    E[X_⊥ g(θ^TX_⊥ + \\tfrac{Δ}{2}|Z|);\\, Z > 0] + E[X_⊥ g(θ^TX_⊥);\\, Z = 0]
    = E[X_⊥ g(θ^TX_⊥ + \\tfrac{Δ}{2}|Z|);\\, Z < 0].                         \\tag{C}

(C) is necessary and sufficient; it is h(v*) = 0 written out. The Z = 0 term is the tie rule
of eq:Fdef (ties go to arm +1) and matters only for laws with mass on the boundary.

*Sufficient (reflection):* if the law of X is invariant under the reflection
(Z, X_⊥) ↦ (−Z, X_⊥), i.e. X ↦ (I − 2v*v*ᵀ)X, and E[X_⊥ g(θᵀX_⊥); Z = 0] = 0 (e.g.
P(Z = 0) = 0), the two sides of (C) are equal, because the integrand depends on Z only
through |Z|. Examples: any spherical law (ball); N(0, Σ) and elliptical t laws when v* is an
eigenvector of Σ; the cube when v* is a coordinate axis or a diagonal (e_i ± e_j)/√2 of a
coordinate plane; Rademacher when v* is a coordinate axis. Rademacher with
v* = (e₁ + e₂)/√2 is reflection invariant but *fails* (C) in d = 2: Z = 0 has probability 1/2
and the tie term is (1/4)(−1, 1)(g(√2‖θ‖) − g(−√2‖θ‖)) ≠ 0 (in the frame where θ ∝ (−1, 1)).

*Not necessary in general:* (C) is one vector identity; a law without the symmetry can satisfy
it by cancellation. For asymmetric arms (β_+ = θ + a_+v*, β_− = θ − a_−v*, a_+ ≠ a_−) the two
sides of (C) carry a_+ and a_− respectively and differ even for N(0, I_d):
h(v*) = ½ E[X_⊥(g(U + a_+|Z|) − g(U + a_−|Z|))] ≠ 0 for θ ≠ 0.

Gaussian contexts N(0, Σ): the exact condition
-----------------------------------------------
With X ~ N(0, Σ), Stein's identity E[X f(X)] = Σ E[∇f(X)] applied to
f(x) = g(θᵀx + (Δ/2)|v*ᵀx|) s(v*ᵀx) (its distributional gradient has the jump term
2δ(Z)g(U)v*) gives

.. math::

    F(v^*) = Σ(c_1 θ + c_2 v^*),\\quad c_1 = E[g'(U + \\tfrac{Δ}{2}|Z|)\\, s(Z)],\\quad
    c_2 = \\tfrac{Δ}{2}E[g'(U + \\tfrac{Δ}{2}|Z|)] + 2p_Z(0)E[g(U)\\mid Z = 0],

so v* is an equilibrium ⟺ Σ(c₁θ + c₂v*) ∥ v*. (For Σ = I: c₁ = 0 and c₂ = κ*, the
eq:app-kappa-identity.)

* If Σv* = λv*, then Cov(U, Z) = θᵀΣv* = 0, so U and Z are independent, Z is symmetric,
  c₁ = 0 and F(v*) = λc₂v*: **v* is an equilibrium whenever it is an eigenvector of Σ.**
* Conversely, in the orthonormal frame (v*, θ̂) of d = 2 the condition reads
  σ_uz c₂ + σ_uu c₁‖θ‖ = 0 (σ_uz = θ̂ᵀΣv*, σ_uu = θ̂ᵀΣθ̂). With σ_uz ≠ 0, U and Z are
  correlated and c₁ ≠ 0 in general, so "equilibrium ⟺ eigenvector" is *not* an identity: a
  non-eigenvector Σ keeps v* exactly when c₁‖θ‖σ_uu = −c₂σ_uz, i.e. when the correlation term
  c₁ cancels the tilt of Σv*. Nothing in the model rules this out (c₁ is an average of g' and
  changes with the link and Σ), so the converse is a property to check link by link. In
  d ≥ 3 one needs in addition Σ⁻¹v* ∈ span(v*, θ). Checked numerically (tests,
  ``tests/sim/beyond/test_equilibrium.py``; the scan of the issue-18 report, angles 1°…89° in
  1° steps, cond 1.5, 10, 1000, Δ = 0.2 and 1, the six paper links, logistic and probit): the
  θ̂-component of h(v*) never vanishes off the eigenvector directions, so on those links
  "v* is an equilibrium ⟺ v* is an eigenvector of Σ" holds.

:func:`equilibrium_defect` measures h(v*) with the model's error; :func:`symmetry_predicts`
says whether the reflection argument applies to a law.
"""

from __future__ import annotations

import numpy as np

from nbl_theory.validation import unit_vector

from .contexts import ContextLaw
from .field import Estimate, FieldModel

__all__ = ["equilibrium_defect", "symmetry_predicts", "SAFETY"]

#: How many error units a quantity must exceed to count as nonzero: 10 for quadrature error
#: estimates and rounding bounds (an estimate of an error, so a safety factor), 5 for Monte
#: Carlo standard errors (two-sided normal tail 6e-7: safe over a grid of thousands of tests).
SAFETY = {"quadrature": 10.0, "rounding": 10.0, "standard-error": 5.0}
_EIG_TOL = 1e-12


def equilibrium_defect(model: FieldModel, v_star) -> tuple[Estimate, bool]:
    """h(v*) = (I − v*v*ᵀ)F(v*) with its error, and whether v* is an equilibrium, i.e.
    ‖h(v*)‖ ≤ SAFETY · ‖error‖ (module docstring, condition (C)).

    Parameters
    ----------
    model : FieldModel
        The field of the case.
    v_star : array_like, shape (d,)
        The direction examined (normalized).

    Returns
    -------
    defect : Estimate
        h(v*) and its error, arrays (d,).
    holds : bool
        Whether v* is an equilibrium.
    """
    vs = unit_vector(v_star, "v_star", model.d)
    f = model.field(vs[None, :])
    p = np.eye(model.d) - np.outer(vs, vs)
    h = p @ f.value[0]
    err = np.abs(p) @ f.error[0]
    holds = bool(np.linalg.norm(h) <= SAFETY[model.error_kind] * np.linalg.norm(err))
    return Estimate(h, err), holds


def symmetry_predicts(law: ContextLaw, v_star, theta=None) -> bool | None:
    """Whether the reflection argument (module docstring) guarantees h(v*) = 0 for the
    paper's symmetric shared arms: True / False (the symmetry fails — (C) may still hold by
    cancellation, see the module docstring) / None (no statement: empirical laws).

    Parameters
    ----------
    law : ContextLaw
        The context law.
    v_star : array_like, shape (d,)
        The direction examined.
    theta : array_like, shape (d,), optional
        Not used: the reflection argument depends on the law and v* alone.

    Returns
    -------
    bool or None
        The prediction.
    """
    vs = unit_vector(v_star, "v_star", law.d)
    if law.family == "empirical":
        return None
    if law.family in ("gaussian", "student-t", "ball"):
        if law.cov is None:
            return True
        sv = law.cov @ vs
        return bool(np.linalg.norm(sv - (sv @ vs) * vs) <= _EIG_TOL * np.linalg.norm(sv))
    if law.transform is not None:  # pragma: no cover - cube/rademacher have no covariance
        return False
    a = np.sort(np.abs(vs))[::-1]
    axis = abs(a[0] - 1) < _EIG_TOL
    diagonal = law.d >= 2 and abs(a[0] - a[1]) < _EIG_TOL and abs(a[0] - 2**-0.5) < 1e-12
    if law.family == "cube":
        return bool(axis or diagonal)
    if law.family == "rademacher":
        return bool(axis)
    return None  # pragma: no cover
