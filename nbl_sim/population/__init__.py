"""Population numerics: the population fields of NBL by quadrature, without simulation.

What it holds
-------------
* :mod:`.fields` — the population field F, h, H(α) and the Jacobians (eq:Fdef,
  prop:population_equilibrium, prop:local_jacobian) by quadrature;
* :mod:`.population_table` — tables of those fields on grids;
* :mod:`.circle` — the field on the circle in d = 2: its zeros and equilibria.

What it may import
------------------
numpy, scipy, :mod:`nbl_theory`. Within nbl_sim it may import: nothing
(tests/test_import_rule.py checks this paragraph).
"""

__all__: list[str] = []
