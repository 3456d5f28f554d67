"""Repairs of NBL where the paper's assumptions fail: their exact population analysis.

Every repair here is NBL (alg:nbl, the same compiled kernel, :mod:`nbl_sim.policies.repairs`)
run on *transformed* contexts or rewards, so its population field is the field of
:mod:`nbl_sim.beyond.field` for a transformed (context law, arms) problem, and the whole exact
machinery (equilibria on the circle, tangent Jacobian spectra, learned boundary, regret) applies
unchanged (:func:`repair_model`, :func:`analyze_repair`).

==========================  ==================================================================
``plain``                   NBL as printed (the reference)
``whitened``                contexts X → Σ^{-1/2}X with Σ = Cov X known
``whitened-running``        contexts X_t → Σ̂_t^{-1/2}X_t, Σ̂_t the running second moment of the
                            contexts seen so far (observed whatever the action, so it costs no
                            exploration). Σ̂_t → Σ almost surely, so its population field *is*
                            the field of ``whitened``; the simulation measures the difference
``centred``                 rewards Y → Y − b with b the Stage I mean reward, whose population
                            value is b = ½(E m_+(X) + E m_−(X)) (fair coins)
``whitened-centred``        both
==========================  ==================================================================

Whitening. With W = Σ^{-1/2} and X̃ = WX, β_aᵀX = (Σ^{1/2}β_a)ᵀX̃: the whitened problem has the
arms β̃_a = Σ^{1/2}β_a, and a whitened boundary ṽ is the boundary v = Wṽ/‖Wṽ‖ in the original
coordinates (the same decisions, so the same regret). Its optimal normal is
ṽ* ∝ Σ^{1/2}v*. For N(0, Σ) (and elliptical t) X̃ has the isotropic base law, but the arms'
centre Σ^{1/2}θ has the component θᵀΣv*/‖Σ^{1/2}v*‖ along ṽ*: the whitened problem is the
paper's model with **shifted arms** (a_± = Δ̃/2 ± c, :func:`nbl_sim.beyond.arms.shifted_arms`)
unless v* is an eigenvector of Σ. By Stein's identity for the isotropic law (derivation in the
docs, repairs.md) the tangent field at ṽ* is then

.. math:: h(ṽ^*) = θ̃_⊥\\,(p_+ − p_−),\\qquad p_± = E[g'(β̃_±^TX̃);\\ ±ṽ^{*T}X̃ ≥ 0],

which is nonzero for a shift c ≠ 0: whitening repairs an *aligned* covariance (v* an
eigenvector: the paper's model with rescaled arms) and leaves a *tilted* one biased.

Centring. The field is linear in the mean rewards, so centring by b subtracts
b·E[sgn(vᵀX)X] from F and b·2E[XXᵀδ(vᵀX)] from B. For a law that is spherical after the
transform (isotropic Gaussian, t, ball) E[sgn(vᵀX)X] ∥ v: the baseline's field is radial, h is
unchanged *identically* and so are the equilibria and their rates — centring cannot repair a
departure of the arms (shift, intercept) under such a law. For other laws it changes the tangent
derivative at an equilibrium by −b(2E[(v_⊥ᵀX)²δ(vᵀX)] − E|vᵀX|) (d = 2), which is positive
repair for the cube along a diagonal and for N(0, Σ) with its major axis along θ.

The analysis of one (repair, law, arms) case is :func:`analyze_repair`; a grid cell of
:mod:`nbl_sim.beyond.robustness` with a repair is :class:`RepairCell` / :func:`run_repair_cell`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from nbl_theory.errors import NBLInputError
from nbl_theory.paper import paper_link

from .analysis import field_model
from .arms import ArmModel, parse_arms_spec
from .case import analyze
from .contexts import ContextLaw, EmpiricalLaw, GaussianLaw, StudentTLaw, parse_context_spec
from .field import Estimate, FieldModel
from .linkeval import OffsetLink
from .robustness import RobustnessCell, classify_row, departure_grid

__all__ = [
    "REPAIRS",
    "RepairedProblem",
    "repaired_problem",
    "repair_model",
    "analyze_repair",
    "RepairCell",
    "run_repair_cell",
    "repair_grid",
    "whitening_matrix",
    "baseline",
    "REPAIR_VERDICTS",
    "OPTIMUM_TOL_DEG",
]

REPAIRS = ("plain", "whitened", "whitened-running", "centred", "whitened-centred")
#: the learned boundary counts as the optimal linear boundary within this angle (degrees): the
#: equilibria are located to ~1e-11 rad and the best linear boundary to ~1e-8 rad
OPTIMUM_TOL_DEG = 1e-3
_GENERIC = 0.3217  # radians: a direction off every atom direction, for E m_+ + E m_−


def whitening_matrix(law: ContextLaw) -> np.ndarray:
    """W = Σ^{-1/2} (symmetric) for Σ = ``law.covariance``."""
    ev, q = np.linalg.eigh(law.covariance)
    return (q / np.sqrt(ev)) @ q.T


def _whitened_law(law: ContextLaw, w: np.ndarray) -> ContextLaw:
    """The law of WX (module docstring)."""
    if law.family == "empirical":
        out = EmpiricalLaw(law.data @ w.T, name=f"{getattr(law, 'name', 'data')} whitened")
        return out
    if law.cov is None:
        return law  # identity covariance: W = I
    if law.family == "gaussian":
        return GaussianLaw(law.d)
    if law.family == "student-t":
        return StudentTLaw(law.nu, law.d)
    raise NBLInputError(f"whitening: no whitened form of a {law.family} law with a covariance")


@dataclass(frozen=True)
class RepairedProblem:
    """The (law, arms) the repaired NBL sees, ``back`` mapping its boundaries to the original
    coordinates (v = back ṽ / ‖back ṽ‖) and the reward ``offset`` b it subtracts."""

    repair: str
    law: ContextLaw
    arms: ArmModel
    back: np.ndarray
    offset: float
    offset_error: float


class _RepairedField(FieldModel):
    """Field and boundary of the repaired update (``dynamics``), rewards and regrets of the
    boundaries it plays (``payoff``: the uncentred model in the same coordinates)."""

    def __init__(self, dynamics: FieldModel, payoff: FieldModel, offset: float):
        self.dynamics, self.payoff, self.offset = dynamics, payoff, offset
        self.d, self.arms = payoff.d, payoff.arms
        self.method, self.error_kind = dynamics.method, dynamics.error_kind

    def field(self, V):
        return self.dynamics.field(V)

    def boundary(self, V):
        return self.dynamics.boundary(V)

    def reward(self, V):
        return self.payoff.reward(V)

    def optimal_reward(self):
        return self.payoff.optimal_reward()

    def regret(self, V):
        return self.payoff.regret(V)

    def describe(self):
        return {**self.payoff.describe(), "reward_offset": self.offset}


def baseline(model: FieldModel, v_ref) -> Estimate:
    """b = ½(E m_+(X) + E m_−(X)) = ½(R(u) + R(−u)) for a direction u with no mass on its
    boundary (the population value of the Stage I mean reward with fair coins)."""
    v = np.asarray(v_ref, dtype=float)
    a = math.atan2(v[1], v[0]) + _GENERIC if model.d == 2 else None
    if a is not None:
        u = np.array([math.cos(a), math.sin(a)])
    else:
        u = v + _GENERIC * np.roll(v, 1)
        u = u / np.linalg.norm(u)
    r = model.reward(np.stack([u, -u]))
    return Estimate(0.5 * float(r.value.sum()), 0.5 * float(r.error.sum()))


def repaired_problem(
    law: ContextLaw, arms: ArmModel, repair: str, **model_options
) -> tuple[RepairedProblem, FieldModel]:
    """The repaired problem (:class:`RepairedProblem`) and its uncentred field model."""
    if repair not in REPAIRS:
        raise NBLInputError(f"repair must be one of {REPAIRS}, got {repair!r}")
    if repair.startswith("whitened"):
        w = whitening_matrix(law)
        wl = _whitened_law(law, w)
        sq = np.linalg.inv(w)  # Σ^{1/2}
        wa = ArmModel(arms.beta @ sq.T, arms.links, arms.nominal, {**arms.info, "whitened": True})
        back = w
    else:
        wl, wa, back = law, arms, np.eye(law.d)
    payoff = field_model(wl, wa, **model_options)
    b, berr = 0.0, 0.0
    if repair.endswith("centred"):
        diff = wa.beta[1] - wa.beta[0]
        est = baseline(payoff, diff / np.linalg.norm(diff))
        b, berr = float(est.value), float(est.error)
        wa = ArmModel(
            wa.beta,
            tuple(OffsetLink(g, b) for g in wa.links),
            wa.nominal,
            {**wa.info, "reward_offset": b},
        )
    return RepairedProblem(repair, wl, wa, back, b, berr), payoff


def repair_model(problem: RepairedProblem, payoff: FieldModel, **model_options) -> FieldModel:
    """The field model of the repaired update (the payoff model itself when nothing is
    subtracted from the rewards)."""
    if problem.offset == 0.0 and problem.repair in ("plain", "whitened", "whitened-running"):
        return payoff
    dyn = field_model(problem.law, problem.arms, **model_options)
    return _RepairedField(dyn, payoff, problem.offset)


def _original_angle(back: np.ndarray, direction, v_ref: np.ndarray) -> float:
    v = back @ np.asarray(direction, dtype=float)
    v = v / np.linalg.norm(v)
    if v.size == 2:
        return math.degrees(math.atan2(v_ref[0] * v[1] - v_ref[1] * v[0], v_ref @ v))
    return math.degrees(math.acos(max(-1.0, min(1.0, float(v @ v_ref)))))


def analyze_repair(
    law: ContextLaw,
    arms: ArmModel,
    repair: str,
    *,
    n_grid: int = 720,
    best_linear: tuple | None = None,
    **model_options,
) -> dict:
    """The exact population analysis of NBL with ``repair`` on one (law, arms) case.

    Returns plain data: the repaired field's defect at the optimal normal (in the repaired
    coordinates), whether the optimal normal is an equilibrium and its tangent spectrum (the
    *repaired rate* −max eigenvalue: > 0 attracting, the λ* of the repaired dynamics — with
    the step η_t = γ/(t + t0) of alg:nbl the regret-rate condition is γ·rate > 1/2), the
    learned boundary (angle from v* in the **original** coordinates, its regret per round), the
    best linear boundary (angle, regret; ``best_linear`` = (angle_deg, regret) skips its
    search) and the verdict of :data:`REPAIR_VERDICTS`.
    """
    t0 = time.perf_counter()
    prob, payoff = repaired_problem(law, arms, repair, **model_options)
    model = repair_model(prob, payoff, **model_options)
    a = analyze(prob.law, prob.arms, n_grid=n_grid, model=model)
    diff = arms.beta[1] - arms.beta[0]
    v_ref = diff / np.linalg.norm(diff)
    learned = a.learned
    ang = None if learned is None else _original_angle(prob.back, learned.direction, v_ref)
    other = (
        None
        if a.learned_other_side is None
        else _original_angle(prob.back, a.learned_other_side.direction, v_ref)
    )
    if best_linear is None:
        if prob.repair == "plain" or np.allclose(prob.back, np.eye(law.d)):
            best_a, best_r = a.best_linear_angle_deg, a.best_linear_regret
        else:
            plain = analyze(law, arms, n_grid=n_grid, **model_options)
            best_a, best_r = plain.best_linear_angle_deg, plain.best_linear_regret
    else:
        best_a, best_r = best_linear
    row = {
        "repair": repair,
        "reward_offset": prob.offset,
        "reward_offset_error": prob.offset_error,
        "method": a.model["method"],
        "error_kind": a.model["error_kind"],
        "vstar_equilibrium": a.vstar_equilibrium,
        "defect": a.defect,
        "defect_error": a.defect_error,
        "vstar_stability": a.vstar_stability,
        "vstar_decided": a.vstar_decided,
        "repaired_rate": a.vstar_rate,
        "repaired_rate_error": a.vstar_eigenvalue_error,
        "learned_angle_deg": ang,
        "other_side_angle_deg": other,
        "learned_stability": None if learned is None else learned.stability,
        "learned_decided": None if learned is None else learned.decided,
        "learned_rate": None if learned is None else learned.rate,
        "learned_regret": None if learned is None else learned.regret,
        "learned_regret_error": None if learned is None else learned.regret_error,
        "best_linear_angle_deg": best_a,
        "best_linear_regret": best_r,
        "n_equilibria": len(a.equilibria),
    }
    row["verdict"] = repair_verdict(row, arms.shared)
    row["seconds"] = time.perf_counter() - t0
    return row


#: what a repair does to a case: the optimal linear boundary is an attracting equilibrium of
#: the repaired flow (``repaired``), it is an equilibrium but repels or is a saddle
#: (``repelling``), the flow settles elsewhere (``biased``) or the signs are within error
#: (``undecided``)
REPAIR_VERDICTS = ("repaired", "repelling", "biased", "undecided")


def repair_verdict(row: dict, shared: bool) -> str:
    """One of :data:`REPAIR_VERDICTS` for an :func:`analyze_repair` row. With a shared link
    the optimal linear boundary is v*: decided by the equilibrium test and the spectrum at v*.
    With per-arm links (an intercept) it is the best linear boundary: repaired iff the learned
    equilibrium is attracting and within :data:`OPTIMUM_TOL_DEG` of it."""
    if shared:
        if row["vstar_equilibrium"]:
            if not row["vstar_decided"]:
                return "undecided"
            return "repaired" if row["vstar_stability"] == "attracting" else "repelling"
        return "biased" if row["vstar_decided"] else "undecided"
    ang, best = row["learned_angle_deg"], row["best_linear_angle_deg"]
    if ang is None or best is None:
        return "undecided"
    if abs(ang - best) <= OPTIMUM_TOL_DEG and row["learned_stability"] == "attracting":
        return "repaired" if row["learned_decided"] else "undecided"
    return "biased"


@dataclass(frozen=True)
class RepairCell:
    """A :class:`~nbl_sim.beyond.robustness.RobustnessCell` analysed with every repair of
    ``repairs`` (strings only, so a grid runs on any executor)."""

    cell: RobustnessCell
    repairs: tuple = REPAIRS


def run_repair_cell(rc: RepairCell) -> dict:
    """The plain row of the cell (the robustness grid's verdict) and one row per repair."""
    if not isinstance(rc, RepairCell):
        raise NBLInputError(f"cell must be a RepairCell, got {type(rc).__name__}")
    c = rc.cell
    link = paper_link(c.link)
    law = parse_context_spec(c.law, c.d)
    arms = parse_arms_spec(c.arms, link, c.delta, c.d)
    opts = {"mc_samples": c.mc_samples, "seed": c.seed}
    plain = analyze(law, arms, n_grid=c.n_grid, **opts)
    best = (plain.best_linear_angle_deg, plain.best_linear_regret)
    rows = {}
    for rep in rc.repairs:
        rows[rep] = analyze_repair(law, arms, rep, n_grid=c.n_grid, best_linear=best, **opts)
    lam = plain.gaussian["lambda_star"] if plain.gaussian else None
    base = {
        "vstar_equilibrium": plain.vstar_equilibrium,
        "vstar_decided": plain.vstar_decided,
        "vstar_stability": plain.vstar_stability,
        "lambda_star": lam,
        "learned_angle_deg": plain.bias_deg,
    }
    return {
        "link": c.link,
        "delta": c.delta,
        "law": c.law,
        "arms": c.arms,
        "departure": c.departure,
        "strength": c.strength,
        "d": c.d,
        "lambda_star": lam,
        "plain_class": classify_row(base) if lam is not None else None,
        "best_linear_angle_deg": best[0],
        "best_linear_regret": best[1],
        "repairs": rows,
    }


def repair_grid(
    links=None,
    deltas=("0.2", "1"),
    departures=("covariance", "student-t", "shift", "intercept", "shape", "dataset"),
    repairs=REPAIRS,
) -> list:
    """:class:`RepairCell` s of every departure of the robustness grid (d = 2): the exact
    ones and the datasets, whose field is a Monte Carlo average over the rows (its verdicts
    carry standard errors, so many are ``undecided``)."""
    from nbl_theory.paper import PAPER_LINKS

    links = tuple(PAPER_LINKS) if links is None else tuple(links)
    return [
        RepairCell(c, tuple(repairs))
        for k in links
        for dl in deltas
        for dep in departures
        for c in departure_grid(dep, k, dl)
    ]
