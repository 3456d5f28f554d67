"""Where the Gaussian stability theory mispredicts: grids of departures on the paper's links.

Every result of the paper assumes X ~ N(0, I_d), arms β_a = θ + a(Δ/2)v* and one shared
link. Each :class:`RobustnessCell` departs from that in one way, with a strength:

==============  ============================================================================
``covariance``  N(0, Σ), Σ of condition number ``cond`` with its major axis at ``angle``
                degrees from v* (trace Σ = 2)
``student-t``   multivariate t, identity covariance, ν degrees of freedom
``shift``       asymmetric arms a_± = Δ/2 ± c along v* (nbl_sim.beyond.arms.shifted_arms)
``intercept``   arm +1 with an intercept: m_+(x) = g(β_+ᵀx + c) (different links per arm)
``shape``       uniform ball, uniform cube, Rademacher (identity covariance), with v* along
                an axis, a diagonal (45°) or in between (22.5°)
``dataset``     the first two principal components of a scikit-learn dataset (whitened), v*
                at 0°, 45°, 90° from PC1 — Monte Carlo over the rows, so errors are standard
                errors and small datasets leave signs undecided
==============  ============================================================================

:func:`run_cell` is a top-level function of one frozen cell, so a grid runs on any executor
(``nbl_sim.runs.sweep.run_sweep(run_cell, default_grid())``); it returns plain JSON-able data.
:func:`mispredictions` lists the cells where the Gaussian prediction is wrong:

* ``sign-flip`` — v* is still an equilibrium but the sign of its exact local rate (decided
  beyond error) differs from the sign of λ* (eq:decision_stability);
* ``biased-equilibrium`` — v* is not an equilibrium (decided) and the learned boundary is more
  than ``bias_threshold_deg`` (default 1°) from v*, so NBL converges to a biased boundary with
  positive regret per round where the theory promises v*.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from nbl_theory.errors import NBLInputError
from nbl_theory.paper import PAPER_LINKS, paper_link

from .arms import parse_arms_spec
from .case import analyze, gaussian_prediction
from .contexts import parse_context_spec

__all__ = [
    "RobustnessCell",
    "run_cell",
    "default_grid",
    "departure_grid",
    "mispredictions",
    "classify_row",
    "VERDICTS",
    "DEPARTURES",
    "DELTAS",
]

DELTAS = ("0.2", "1")
DEPARTURES = ("covariance", "student-t", "shift", "intercept", "shape", "dataset")
_CONDS = ("1.5", "3", "10", "100")
_ANGLES = ("0", "15", "30", "45", "60", "90")
_NUS = ("2.5", "3", "5", "10", "30", "100")
_SHIFTS = ("0.01", "0.05", "0.1", "0.2", "0.4")
_INTERCEPTS = ("0.05", "0.1", "0.25", "0.5")
_SHAPES = (
    ("ball", "0"),
    ("cube", "0"),
    ("cube", "22.5"),
    ("cube", "45"),
    ("rademacher", "0"),
    ("rademacher", "22.5"),
    ("rademacher", "45"),
)
_DATASETS = ("breast-cancer", "wine")


@dataclass(frozen=True)
class RobustnessCell:
    """One (paper link, Δ, context law, arms) case; all fields are strings or ints.

    Parameters
    ----------
    link : str
        The paper link key (:func:`nbl_theory.paper.paper_link`).
    delta : str
        The separation Δ.
    law : str, default "gaussian"
        The context spec (:func:`~nbl_sim.beyond.contexts.parse_context_spec`).
    arms : str, default "symmetric"
        The arms spec (:func:`~nbl_sim.beyond.arms.parse_arms_spec`).
    departure : str, default "none"
        Which departure from the paper's model the cell belongs to (one of ``DEPARTURES``).
    strength : str, default ""
        The departure's strength as written (e.g. a condition number or ν).
    d : int, default 2
        The dimension.
    n_grid : int, default 720
        Grid points of the circle scan (d = 2).
    mc_samples : int, default 200000
        Monte Carlo samples for laws without an exact field.
    seed : int, default 0
        The seed of those samples.
    """

    link: str
    delta: str
    law: str = "gaussian"
    arms: str = "symmetric"
    departure: str = "none"
    strength: str = ""
    d: int = 2
    n_grid: int = 720
    mc_samples: int = 200_000
    seed: int = 0


@functools.lru_cache(maxsize=64)
def _gaussian(link_key: str, delta: str, d: int) -> dict:
    link = paper_link(link_key)
    return gaussian_prediction(parse_arms_spec("symmetric", link, delta, d), d)


def run_cell(cell: RobustnessCell) -> dict:
    """Analyse one cell (nbl_sim.beyond.case.analyze) and summarize it (module docstring).

    Parameters
    ----------
    cell : RobustnessCell
        The case.

    Returns
    -------
    dict
        The cell's fields, the Gaussian λ* and rate, the exact equilibrium test, rate and
        verdict, the learned boundary and its regret.

    Raises
    ------
    NBLInputError
        ``cell`` is not a RobustnessCell, or a spec it holds is refused.
    """
    if not isinstance(cell, RobustnessCell):
        raise NBLInputError(f"cell must be a RobustnessCell, got {type(cell).__name__}")
    link = paper_link(cell.link)
    law = parse_context_spec(cell.law, cell.d)
    arms = parse_arms_spec(cell.arms, link, cell.delta, cell.d)
    a = analyze(law, arms, n_grid=cell.n_grid, mc_samples=cell.mc_samples, seed=cell.seed)
    g = _gaussian(cell.link, cell.delta, cell.d)
    lam = g["lambda_star"]
    learned = a.learned
    exact_rate = (
        a.vstar_rate if a.vstar_equilibrium else (learned.rate if learned is not None else None)
    )
    sign_flip = bool(
        a.vstar_equilibrium and a.vstar_decided and (lam > 0) != (a.vstar_stability == "attracting")
    )
    return {
        "link": cell.link,
        "delta": cell.delta,
        "law": cell.law,
        "arms": cell.arms,
        "departure": cell.departure,
        "strength": cell.strength,
        "d": cell.d,
        "method": a.model["method"],
        "error_kind": a.model["error_kind"],
        "lambda_star": lam,
        "gaussian_rate_d": g["rate_d"],
        "gaussian_predicts": "attracting" if lam > 0 else "repelling",
        "symmetry_predicts": a.symmetry_predicts,
        "vstar_equilibrium": a.vstar_equilibrium,
        "defect": a.defect,
        "defect_error": a.defect_error,
        "vstar_stability": a.vstar_stability,
        "vstar_decided": a.vstar_decided,
        "vstar_rate": a.vstar_rate,
        "vstar_rate_error": a.vstar_eigenvalue_error,
        "exact_rate": exact_rate,
        "sign_flip": sign_flip,
        "learned_angle_deg": None if learned is None else learned.angle_deg,
        "learned_stability": None if learned is None else learned.stability,
        "learned_decided": None if learned is None else learned.decided,
        "learned_rate": None if learned is None else learned.rate,
        "learned_regret": None if learned is None else learned.regret,
        "learned_regret_error": None if learned is None else learned.regret_error,
        "other_side_angle_deg": (
            None if a.learned_other_side is None else a.learned_other_side.angle_deg
        ),
        "best_linear_angle_deg": a.best_linear_angle_deg,
        "best_linear_regret": a.best_linear_regret,
        "n_equilibria": len(a.equilibria),
        "seconds": a.seconds,
    }


def departure_grid(departure: str, link: str, delta: str, d: int = 2) -> list:
    """The cells of one departure for one (paper link, Δ) (module docstring)."""
    if departure not in DEPARTURES:
        raise NBLInputError(f"departure must be one of {DEPARTURES}, got {departure!r}")
    if link not in PAPER_LINKS:
        raise NBLInputError(f"link must be a paper key ({', '.join(PAPER_LINKS)}), got {link!r}")

    def cell(law, arms="symmetric", strength=""):
        return RobustnessCell(link, delta, law, arms, departure, strength, d)

    if departure == "covariance":
        if d != 2:
            raise NBLInputError("the covariance grid (cond, angle) is 2-D")
        return [cell("gaussian", strength="cond=1")] + [
            cell(f"gaussian:cond={c},angle={a}", strength=f"cond={c},angle={a}")
            for c in _CONDS
            for a in _ANGLES
        ]
    if departure == "student-t":
        return [cell(f"student-t:nu={nu}", strength=f"nu={nu}") for nu in _NUS]
    if departure == "shift":
        return [cell("gaussian", f"shift={c}", f"shift={c}") for c in _SHIFTS]
    if departure == "intercept":
        return [cell("gaussian", f"intercept={c}", f"intercept={c}") for c in _INTERCEPTS]
    if departure == "shape":
        return [
            cell(law, f"rotate={r}" if r != "0" else "symmetric", f"{law},rotate={r}")
            for law, r in _SHAPES
        ]
    return [
        cell(f"dataset:{name}", f"rotate={r}" if r != "0" else "symmetric", f"{name},rotate={r}")
        for name in _DATASETS
        for r in ("0", "45", "90")
    ]


def default_grid(links=tuple(PAPER_LINKS), deltas=DELTAS, departures=DEPARTURES) -> list:
    """Every departure grid for every paper link and Δ ∈ {0.2, 1}.

    Parameters
    ----------
    links : tuple of str, default every paper link
        The paper link keys.
    deltas : tuple of str, default ("0.2", "1")
        The separations Δ.
    departures : tuple of str, default DEPARTURES
        The departures.

    Returns
    -------
    list of RobustnessCell
        The cells of every departure grid (:func:`departure_grid`).
    """
    return [
        c for k in links for dl in deltas for dep in departures for c in departure_grid(dep, k, dl)
    ]


#: the classes of :func:`classify_row`
VERDICTS = ("agrees", "sign-flip", "biased", "small-bias", "undecided")


def classify_row(row: dict, bias_threshold_deg: float = 1.0) -> str:
    """One :data:`VERDICTS` class for a ``run_cell`` row (or any dict with the keys
    ``vstar_equilibrium``, ``vstar_decided``, ``vstar_stability``, ``lambda_star``,
    ``learned_angle_deg``): ``agrees`` — v* is an equilibrium and the sign of its exact rate
    is λ*'s; ``sign-flip`` — the other sign, decided; ``biased`` — v* is not an equilibrium
    (decided) and the learned boundary is more than ``bias_threshold_deg`` away;
    ``small-bias`` — not an equilibrium, bias within the threshold or undecided;
    ``undecided`` — the rate's sign is within the model's error."""
    if not row["vstar_equilibrium"]:
        ang = row["learned_angle_deg"]
        if row["vstar_decided"] and ang is not None and abs(ang) > bias_threshold_deg:
            return "biased"
        return "small-bias"
    if not row["vstar_decided"]:
        return "undecided"
    return (
        "agrees"
        if (row["lambda_star"] > 0) == (row["vstar_stability"] == "attracting")
        else "sign-flip"
    )


def mispredictions(rows, bias_threshold_deg: float = 1.0) -> list:
    """The rows (``run_cell`` outputs) where the Gaussian prediction is wrong (module
    docstring), each with a ``reason``.

    Parameters
    ----------
    rows : iterable of dict or None
        Outputs of :func:`run_cell` (None for a failed cell, skipped).
    bias_threshold_deg : float, default 1.0
        How far (degrees) the learned boundary must lie from v* to count as biased.

    Returns
    -------
    list of dict
        The mispredicted rows, each with ``reason`` ``"sign-flip"`` or ``"biased-equilibrium"``.
    """
    out = []
    for r in rows:
        if r is None:
            continue
        if r["sign_flip"]:
            out.append({**r, "reason": "sign-flip"})
        elif (
            not r["vstar_equilibrium"]
            and r["vstar_stability"] == "not-an-equilibrium"
            and r["vstar_decided"]
            and r["learned_angle_deg"] is not None
            and abs(r["learned_angle_deg"]) > bias_threshold_deg
        ):
            out.append({**r, "reason": "biased-equilibrium"})
    return out
