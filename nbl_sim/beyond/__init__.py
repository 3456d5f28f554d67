"""Beyond the paper's model: other context laws, asymmetric arms, per-arm links.

Every result of the paper assumes isotropic Gaussian contexts X ~ N(0, I_d), two arms placed
symmetrically about θ (β_a = θ + a(Δ/2)v*) and one link shared by both arms. This package asks
whether decision stability survives the contexts and arms users actually have, with the same
population analysis (eq:Fdef, prop:population_equilibrium, prop:local_jacobian) done exactly
for each case, with a stated error.

Modules
-------
contexts      context laws (Gaussian N(0, Σ), Student-t, ball, cube, Rademacher, empirical) and
              their spec strings
datasets      scikit-learn bundled datasets as 2-D empirical laws (optional dependency)
arms          arm geometries (asymmetric offsets, intercepts) and per-arm links
linkeval      per-arm link wrappers and the fast checked float64 link evaluator
field         the field F, its boundary derivative B, rewards; exact sums and Monte Carlo
polar         d = 2 polar quadrature for laws with a density
gaussian_field  N(0, Σ) in any d by 1-D reductions
equilibrium   the exact condition for v* to stay an equilibrium (derivation in the docstring)
analysis      method choice, equilibria on the circle, Jacobian spectra, the population flow
case          one case analysed and compared with the Gaussian theory
robustness    grids of departures on the paper's links and the list of mispredictions
sweeps        one case or a (parameter, Δ) grid for any link (what the CLI's --contexts/--arms
              run)
repairs       NBL on whitened contexts / centred rewards: the exact analysis of each repair
              and the departures x repairs grid (docs/repairs.md); their simulation against
              Greedy Logistic is a study (nbl_sim.studies.repair_study)

What it may import
------------------
numpy, scipy, nbl_theory (scikit-learn, optionally, for datasets). Within nbl_sim it may import:
:mod:`nbl_sim.population` (arm vectors, the circle's root scan) and :mod:`nbl_sim.runs` (sweeps,
their grids) — tests/test_import_rule.py checks this paragraph.

The engine imports this package's context laws and arm models (nbl_sim.engine.environment).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - for type checkers, readers and the static import walk
    # (nbl_sim.runs.sweep.imported_modules: cache keys cover the modules the names come from)
    from .arms import (
        ArmModel,
        asymmetric_arms,
        intercept_arms,
        parse_arms_spec,
        shifted_arms,
        symmetric_arms,
    )
    from .case import Analysis, analyze
    from .contexts import ContextLaw, parse_context_spec
    from .equilibrium import equilibrium_defect, symmetry_predicts
    from .robustness import RobustnessCell, default_grid, mispredictions, run_cell
    from .sweeps import ExactPhase, exact_phase, exact_stability

__all__ = [
    "ArmModel",
    "asymmetric_arms",
    "intercept_arms",
    "parse_arms_spec",
    "shifted_arms",
    "symmetric_arms",
    "Analysis",
    "analyze",
    "ContextLaw",
    "parse_context_spec",
    "equilibrium_defect",
    "symmetry_predicts",
    "RobustnessCell",
    "default_grid",
    "mispredictions",
    "run_cell",
    "ExactPhase",
    "exact_phase",
    "exact_stability",
]

#: public name -> the module of this package that defines it. The names are resolved on first
#: use (PEP 562 ``__getattr__``), so ``nbl_sim.engine.environment``, which needs only the context
# laws
#: and arms, does not import the exact analysis and scipy.optimize with it.
_HOME = {
    "ArmModel": "arms",
    "asymmetric_arms": "arms",
    "intercept_arms": "arms",
    "parse_arms_spec": "arms",
    "shifted_arms": "arms",
    "symmetric_arms": "arms",
    "Analysis": "case",
    "analyze": "case",
    "ContextLaw": "contexts",
    "parse_context_spec": "contexts",
    "equilibrium_defect": "equilibrium",
    "symmetry_predicts": "equilibrium",
    "RobustnessCell": "robustness",
    "default_grid": "robustness",
    "mispredictions": "robustness",
    "run_cell": "robustness",
    "ExactPhase": "sweeps",
    "exact_phase": "sweeps",
    "exact_stability": "sweeps",
}


def __getattr__(name: str):
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value  # resolved once; later look-ups are plain attributes
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
