"""Library mutation: one-line bugs planted in nbl_theory and nbl_sim, judged by the claims.

See :mod:`proofs_check.libmutation.run` (the run, its classification and report),
:mod:`~proofs_check.libmutation.operators` (the mutants),
:mod:`~proofs_check.libmutation.coverage_map` (which claims and tests execute a line) and
:mod:`~proofs_check.libmutation.worker` (one mutant in a fresh process).
"""
