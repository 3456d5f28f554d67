"""One case — (context law, arms) — analysed exactly and compared with the Gaussian theory.

:func:`analyze` returns an :class:`Analysis`: whether v* is still an equilibrium (condition (C)
of :mod:`nbl_sim.beyond.equilibrium`, measured against the model's error), the local Jacobian
spectrum of h at v* and at every equilibrium, the *learned* boundary — the attracting
equilibrium the population flow reaches from v* (from just beside v* when v* repels) — its
signed angle to v* (the bias) and its regret per round E[m_{a*(X)}(X) − m_{sgn(v̄ᵀX)}(X)], the
best linear boundary and its regret (d = 2), and the Gaussian prediction for the nominal
(link, Δ): λ* (eq:decision_stability) and the exact isotropic rate in dimension d
(prop:local_jacobian: Δμ* − 2φ₀(0)m₂‖θ‖² in d = 2, λ* in d ≥ 3).

Sign comparison: the Gaussian theory predicts "v* attracting" iff λ* > 0. Under the actual law
the exact statement is: v* is an equilibrium and all tangent eigenvalues of Dh(v*) are < 0.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field

import numpy as np
from scipy.optimize import minimize_scalar

from nbl_theory.errors import NBLInputError
from nbl_theory.stability import stability

from .analysis import (
    Equilibrium,
    circle_equilibria,
    circle_H,
    classify,
    equilibrium_at,
    field_model,
    flow_to_equilibrium,
    jacobian_spectrum,
)
from .arms import ArmModel
from .contexts import ContextLaw
from .equilibrium import SAFETY, equilibrium_defect, symmetry_predicts
from .field import FieldModel

__all__ = ["Analysis", "analyze", "gaussian_prediction"]


@dataclass
class Analysis:
    """Result of :func:`analyze` (``to_dict`` gives plain JSON-able data).

    Parameters
    ----------
    law : dict
        The context law's description.
    arms : dict
        The arms' description.
    model : dict
        The field model's description (method, errors).
    v_star : list of float
        The direction v* examined.
    symmetry_predicts : bool or None
        Whether the reflection argument guarantees h(v*) = 0 (None: no statement).
    defect : float
        ‖h(v*)‖.
    defect_error : float
        The norm of its error.
    vstar_equilibrium : bool
        Whether v* is an equilibrium (condition (C)).
    vstar_eigenvalues : list of float
        The tangent eigenvalues of Dh(v*) (meaningful at an equilibrium).
    vstar_eigenvalue_error : float
        Their error.
    vstar_stability : str
        ``"not-an-equilibrium"`` or the sign label of the spectrum.
    vstar_decided : bool
        Whether the equilibrium test and every eigenvalue sign are beyond the error.
    equilibria : list of Equilibrium
        d = 2: every zero of H; d ≥ 3: the learned one.
    learned : Equilibrium or None
        The learned boundary (the attracting equilibrium the flow reaches from v*).
    learned_other_side : Equilibrium or None
        d = 2, v* repelling: the nearest attracting equilibrium on the other side.
    best_linear_angle_deg : float or None
        d = 2: the signed angle of the best linear boundary from v*.
    best_linear_regret : float or None
        d = 2: its regret per round.
    gaussian : dict or None
        The Gaussian prediction for the nominal (link, Δ) (None without one).
    seconds : float, default 0.0
        The wall time.
    notes : list of str, default []
        What the estimates rest on, in words.
    """

    law: dict
    arms: dict
    model: dict
    v_star: list
    symmetry_predicts: bool | None
    defect: float  # ‖h(v*)‖
    defect_error: float
    vstar_equilibrium: bool
    vstar_eigenvalues: list  # of Dh(v*) on the tangent space (meaningful at equilibria)
    vstar_eigenvalue_error: float
    vstar_stability: str  # "not-an-equilibrium" or the sign label of the spectrum
    vstar_decided: bool  # equilibrium test and every eigenvalue sign beyond error
    equilibria: list  # [Equilibrium] (d = 2: all zeros of H; d ≥ 3: learned)
    learned: Equilibrium | None
    learned_other_side: Equilibrium | None
    best_linear_angle_deg: float | None
    best_linear_regret: float | None
    gaussian: dict | None
    seconds: float = 0.0
    notes: list = field(default_factory=list)

    @property
    def vstar_rate(self) -> float:
        """−(largest tangent eigenvalue of Dh(v*)): the exact local rate (> 0 attracting)."""
        return -max(self.vstar_eigenvalues)

    @property
    def bias_deg(self) -> float | None:
        """Signed angle from v* to the learned boundary."""
        return None if self.learned is None else self.learned.angle_deg

    def to_dict(self) -> dict:
        """The analysis as plain data, with ``vstar_rate`` and ``bias_deg`` added.

        Returns
        -------
        dict
            Every field (equilibria as dicts) and the two derived values.
        """
        d = asdict(self)
        d["vstar_rate"] = self.vstar_rate
        d["bias_deg"] = self.bias_deg
        return d


def gaussian_prediction(arms: ArmModel, d: int) -> dict | None:
    """λ*, μ*, m₂ and the exact isotropic rate in dimension d for the nominal (link, Δ)."""
    if arms.nominal is None:
        return None
    link, delta = arms.nominal
    res = stability(link, delta, auto_raise=False)
    rates = res.jacobian_rates
    lam = float(res.values["lambda_star"])
    return {
        "link": link.name,
        "delta": str(delta),
        "lambda_star": lam,
        "sign": res.sign,
        "mu_star": float(res.values["mu_star"]),
        "m2": float(res.values["m2"]),
        "rate_d": float(
            rates["contraction_rate_d2"] if d == 2 else rates["contraction_rate_d3plus"]
        ),
    }


def _reference(arms: ArmModel) -> np.ndarray:
    diff = arms.beta[1] - arms.beta[0]
    return diff / np.linalg.norm(diff)


def _first_in_direction(eqs, sign):
    best, key = None, math.inf
    for e in eqs:
        k = (sign * e.angle_deg) % 360.0
        if 1e-9 < k < key:
            best, key = e, k
    return best


def _learned_2d(model: FieldModel, vs, holds, eqs):
    """Exact models: v* when it is an attracting equilibrium, else the nearest attracting
    equilibrium on each side (v* repels) or the first zero in the direction of the flow at v*.
    Monte Carlo models: always the flow of the *estimated* field from v*."""
    at_vs = [e for e in eqs if abs(e.angle_deg) < 1e-6]
    if holds and model.error_kind != "standard-error":
        e0 = at_vs[0] if at_vs else equilibrium_at(model, vs, vs)
        if e0.stability in ("attracting", "jump-attracting"):
            return e0, None
        cands = [e for e in eqs if e.stability in ("attracting", "jump-attracting")]
        plus = _first_in_direction(cands, 1.0)
        minus = _first_in_direction(cands, -1.0)
        pair = sorted(
            [e for e in (plus, minus) if e is not None],
            key=lambda e: (abs(e.angle_deg), -e.angle_deg),
        )
        return (pair[0], pair[1] if len(pair) > 1 else None) if pair else (None, None)
    h0 = circle_H(model, math.atan2(vs[1], vs[0])).value[0]
    return _first_in_direction(eqs, 1.0 if h0 > 0 else -1.0), None


def _best_linear(model: FieldModel, vs) -> tuple[float, float]:
    grid = np.linspace(-math.pi, math.pi, 721)[:-1]
    a0 = math.atan2(vs[1], vs[0])
    v = np.stack([np.cos(a0 + grid), np.sin(a0 + grid)], axis=1)
    est = model.regret(v)
    reg = est.value
    # a flat minimum (discrete laws: every boundary in v*'s cell has the same regret) is
    # reported at the minimizer nearest to v*, without refinement
    near = np.flatnonzero(reg <= reg.min() + 10 * np.max(est.error) + 1e-15)
    j = int(near[np.argmin(np.abs(grid[near]))])
    if near.size >= 5:
        return math.degrees(grid[j]), float(reg[j])
    step = grid[1] - grid[0]

    def f(x):
        return float(model.regret(np.array([[math.cos(a0 + x), math.sin(a0 + x)]])).value[0])

    res = minimize_scalar(
        f, bounds=(grid[j] - step, grid[j] + step), method="bounded", options={"xatol": 1e-10}
    )
    x, r = (res.x, res.fun) if res.fun <= reg[j] else (grid[j], reg[j])
    return math.degrees(x), float(r)


def analyze(
    law: ContextLaw,
    arms: ArmModel,
    *,
    n_grid: int = 720,
    model: FieldModel | None = None,
    **model_options,
) -> Analysis:
    """The exact population analysis of one case (module docstring). ``model_options`` go to
    :func:`nbl_sim.beyond.analysis.field_model` (method, mc_samples, seed, bandwidth,
    empirical, n_panels); ``model`` replaces that model by a given one of the same law and arms
    (e.g. the field of a repaired update, :mod:`nbl_sim.beyond.repairs`).

    Floating-point overflow, invalid operations and division by zero are errors here
    (``np.errstate``), and the field, spectrum and regrets must come out finite: a case whose
    arithmetic leaves float64 ends as an :class:`~nbl_theory.errors.NBLInputError` naming the
    context law and the arms, never as a verdict computed from NaN or inf.

    Parameters
    ----------
    law : ContextLaw
        The context law.
    arms : ArmModel
        The arms.
    n_grid : int, default 720
        Grid points of the circle scan for equilibria (d = 2).
    model : FieldModel, optional
        A field model of the same law and arms to use instead of building one.
    **model_options
        Options of :func:`nbl_sim.beyond.analysis.field_model`.

    Returns
    -------
    Analysis
        The case analysed.

    Raises
    ------
    NBLInputError
        Arithmetic that leaves float64, naming the law and the arms.
    """
    try:
        with np.errstate(over="raise", invalid="raise", divide="raise"):
            out = _analyze(law, arms, n_grid, model_options, model)
    except (FloatingPointError, OverflowError, ZeroDivisionError) as exc:
        raise _non_finite(law, arms, str(exc)) from None
    values = [out.defect, out.defect_error, out.vstar_eigenvalue_error, *out.vstar_eigenvalues]
    if not np.all(np.isfinite(values)):
        raise _non_finite(law, arms, "a non-finite field or spectrum")
    return out


def _non_finite(law: ContextLaw, arms: ArmModel, what: str) -> NBLInputError:
    return NBLInputError(
        f"the analysis of contexts {law.spec!r} with arms {arms.info.get('arms', '?')!r} left "
        f"float64 ({what}): the input is out of the range this analysis can compute "
        "(rescale or standardize the contexts, or choose a link that stays finite there)"
    )


def _analyze(
    law: ContextLaw, arms: ArmModel, n_grid: int, model_options: dict, model: FieldModel | None
) -> Analysis:
    t0 = time.perf_counter()
    if model is None:
        model = field_model(law, arms, **model_options)
    vs = _reference(arms)
    notes = []
    if not arms.shared:
        notes.append(
            "arms have different links: the optimal boundary is not a hyperplane "
            "through 0; angles are measured from (β_+ − β_−)/‖β_+ − β_−‖"
        )
    sym = (
        symmetry_predicts(law, vs)
        if arms.info.get("arms") in ("symmetric", "shifted")
        and arms.info.get("shift", 0.0) == 0.0
        and arms.shared
        else None
    )
    defect, holds = equilibrium_defect(model, vs)
    eig, eerr = jacobian_spectrum(model, vs)
    label, decided = classify(eig, eerr, model.error_kind)
    if not holds:
        label = "not-an-equilibrium"
        decided = bool(
            np.linalg.norm(defect.value) > SAFETY[model.error_kind] * np.linalg.norm(defect.error)
        )
    if model.d == 2:
        eqs = circle_equilibria(model, vs, n_grid)
        learned, other = _learned_2d(model, vs, holds, eqs)
        best_a, best_r = _best_linear(model, vs)
    else:
        start = vs
        if holds and not np.all(eig < 0):
            q, _ = np.linalg.qr(np.column_stack([vs, np.eye(model.d)]))
            start = vs + 1e-3 * q[:, 1:][:, int(np.argmax(eig))]
        vbar = flow_to_equilibrium(model, start)
        learned = equilibrium_at(model, vbar, vs)
        eqs, other, best_a, best_r = [learned], None, None, None
    if model.error_kind == "standard-error":
        notes.append(
            "Monte Carlo: errors are one standard error; B (and the decision) are "
            f"smoothed with bandwidth {getattr(model, 'bandwidth', 0):.4g}"
        )
    return Analysis(
        law=law.describe(),
        arms=arms.describe(),
        model=model.describe(),
        v_star=vs.tolist(),
        symmetry_predicts=sym,
        defect=float(np.linalg.norm(defect.value)),
        defect_error=float(np.linalg.norm(defect.error)),
        vstar_equilibrium=holds,
        vstar_eigenvalues=eig.tolist(),
        vstar_eigenvalue_error=eerr,
        vstar_stability=label,
        vstar_decided=decided,
        equilibria=eqs,
        learned=learned,
        learned_other_side=other,
        best_linear_angle_deg=best_a,
        best_linear_regret=best_r,
        gaussian=gaussian_prediction(arms, model.d),
        seconds=time.perf_counter() - t0,
        notes=notes,
    )
