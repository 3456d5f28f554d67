"""Runs: the machinery every sweep and simulation runs on, knowing nothing of the model.

What it holds
-------------
* :mod:`.sweep` — the one sweep runner (cells, cache, resume, failures) and
  :func:`~nbl_sim.runs.sweep.source_fingerprint`, the code a cached cell depends on;
* :mod:`.execution` — the executor interface (in-process, a local ``spawn`` pool, Dask);
* :mod:`.lifeline` — a pool worker's tie to its parent process;
* :mod:`.cache` — the signed data-only chunk cache in the user cache directory;
* :mod:`.plain_data` — the plain-data codec of cached values (never a pickle);
* :mod:`.outputs` — output sets written atomically (staging directory, run ids).

What it may import
------------------
numpy, the standard library and :mod:`nbl_theory` (errors). Within nbl_sim it may import:
nothing — the folders above it (engine, studies, beyond, presentation) import it
(tests/test_import_rule.py checks this paragraph).
"""

__all__: list[str] = []
