"""Studies: what the toolkit computes from runs of the bandit model and from its population
theory.

What it holds
-------------
* :mod:`.experiment` — :func:`~nbl_sim.studies.experiment.simulate`, the Monte Carlo
  experiment behind ``nbl simulate`` (policies on common random numbers, regret, ‖v_t − v*‖²,
  angles, Monte Carlo bands);
* :mod:`.rate_theory` — the exact local rates of the linearized NBL recursion;
* :mod:`.rate_analysis` — the statistics of the regret-rate study (growth fits, bootstrap);
* :mod:`.rate_study` — the regret-rate study (cells of simulated regret, the fitted rates);
* :mod:`.regret_geometry` — the regret geometry of the error-to-regret results;
* :mod:`.phase` — phase diagrams and threshold scans;
* :mod:`.repair_study` — repaired NBL against Greedy Logistic in simulation (paired regret,
  regret growth; the repairs' exact analysis is :mod:`nbl_sim.beyond.repairs`).

What it may import
------------------
numpy, scipy, :mod:`nbl_theory`. Within nbl_sim it may import: :mod:`nbl_sim.engine`,
:mod:`nbl_sim.policies`, :mod:`nbl_sim.population.fields`, :mod:`nbl_sim.runs` and
:mod:`nbl_sim.beyond` (the repair study's context laws) (tests/test_import_rule.py checks this
paragraph).
"""

__all__: list[str] = []
