"""nbl_sim: numpy/scipy simulation of NBL, Greedy Logistic and the population fields.

May import :mod:`nbl_theory`; never imports :mod:`proofs_check` (docs/architecture.md).
"""

__all__: list[str] = []
