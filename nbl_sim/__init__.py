"""nbl_sim: numpy/scipy simulation of NBL, Greedy Logistic and the population fields.

May import :mod:`nbl_theory`; never imports :mod:`proofs_check` (docs/architecture.md).

Laid out by concept, one folder each (nothing else at this root); each folder's ``__init__``
says what it holds and which other folders it may import (tests/test_import_rule.py checks it):

* :mod:`nbl_sim.engine` — the bandit model and everything random behind one seam (the draw of a
  realization, the policy runs, the regret), with a plain-numpy reference backend;
* :mod:`nbl_sim.policies` — NBL, Greedy Logistic, the oracle, repaired NBL, policy objects;
* :mod:`nbl_sim.population` — the population fields by quadrature;
* :mod:`nbl_sim.studies` — ``simulate``, the regret-rate study, rates, phase diagrams;
* :mod:`nbl_sim.runs` — sweeps, executors, the cache and output files;
* :mod:`nbl_sim.beyond` — other context laws, arms and links;
* :mod:`nbl_sim.presentation` — every figure, plot and text table.
"""

__all__: list[str] = []
