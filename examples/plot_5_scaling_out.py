"""
Scaling out
===========

Every sweep of nbl — ``simulate``, ``phase_diagram``, ``threshold_scan``, the regret-rate
study, the figures — goes through one runner (:func:`nbl_sim.runs.sweep.run_sweep`) and one executor
interface (:mod:`nbl_sim.runs.execution`): in-process, a local process pool, or a Dask cluster.
Cells carry their own seeds and are reassembled in cell order, so the result does not depend
on where or in how many pieces it ran. This example runs the same phase diagram and the same
simulation on

* :class:`~nbl_sim.runs.execution.SerialExecutor` — in this process,
* :class:`~nbl_sim.runs.execution.ProcessExecutor` — a local pool of 2 ``spawn`` workers,
* :class:`~nbl_sim.runs.execution.DaskExecutor` — a ``dask.distributed`` LocalCluster of 2 workers
  (``local:2``; on a real cluster pass ``tcp://HOST:8786``), when dask is installed,

and checks that the results are identical, to the last bit. The command-line equivalent::

    nbl phase --family two-transition --param mu2=-1:3:21 --delta 0.1:1:10 \\
        --scheduler local:2 --no-cache
"""

import importlib.util
import os
import sys
import time

import matplotlib.pyplot as plt
import numpy as np

from nbl_sim.engine.environment import Environment
from nbl_sim.runs.execution import DaskExecutor, ProcessExecutor, SerialExecutor
from nbl_sim.studies.experiment import simulate
from nbl_sim.studies.phase import grid_values, phase_diagram
from nbl_theory import paper_link

QUICK = bool(os.environ.get("NBL_EXAMPLES_QUICK"))  # the tests' quick form: a smaller grid

# %%
# The executors
# -------------
# Starting workers costs a second or two, which is why the library runs small work
# in-process by default.
executors = {"serial": SerialExecutor, "process pool (2)": lambda: ProcessExecutor(workers=2)}
if importlib.util.find_spec("distributed") is not None:
    executors["dask local:2"] = lambda: DaskExecutor("local:2")
else:
    print("dask.distributed is not installed: pip install 'nbl[distributed]'")

# %%
# Running anything on several processes
# --------------------------------------
# Worker processes are started with ``spawn``: each one imports the main script again. So a
# script that starts workers runs them under ``if __name__ == "__main__":`` (what
# :mod:`multiprocessing` requires); the functions it sends are library functions. Each
# executor is created once here and used for both sweeps: a Dask LocalCluster starts its
# workers when it is created and keeps them; the process pool starts fresh workers for every
# sweep (so their start-up is part of each of its times).


def timed(fn, *args):
    t = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t


if __name__ == "__main__":
    running, started = {}, {}
    for name, make in executors.items():
        running[name], started[name] = timed(make)
        print(f"{name:18s} created in {started[name]:.2f} s")

# %%
# The same phase diagram everywhere
# ---------------------------------
# No cache here (``cache=None``), so every executor really computes every cell: one cell per
# parameter value, a column of Δ values.
values = grid_values(-1, 3, 6 if QUICK else 21)
deltas = grid_values(0.1, 1, 4 if QUICK else 10)


def phase_job(ex):
    return phase_diagram("two-transition", "mu2", values, deltas, tier="float", executor=ex)


if __name__ == "__main__":
    diagrams = {name: timed(phase_job, ex) for name, ex in running.items()}
    reference = diagrams["serial"][0].lambda_star
    for name, (pd, sec) in diagrams.items():
        same = np.array_equal(pd.lambda_star, reference, equal_nan=True)
        print(f"{name:18s} {sec:6.2f} s on {pd.executor}; lambda* identical to serial: {same}")

# %%
# The same simulation everywhere
# ------------------------------
# 40 replications cut into chunks of 10: each replication draws from its own
# ``SeedSequence(0).spawn(40)[r]`` stream, whichever worker runs its chunk.
env = Environment.build(paper_link("tt-unstable"), "0.2")


def simulation_job(ex):
    return simulate(
        env, n=500 if QUICK else 2000, reps=40, init_angle=10, seed=0, chunk_size=10, executor=ex
    )


if __name__ == "__main__":
    runs = {name: timed(simulation_job, ex) for name, ex in running.items()}
    for ex in running.values():
        ex.close()  # stops the pool's and the cluster's workers
    ref = runs["serial"][0].policies["nbl"]
    for name, (res, sec) in runs.items():
        p = res.policies["nbl"]
        same = np.array_equal(p.regret, ref.regret) and np.array_equal(
            p.angle, ref.angle, equal_nan=True
        )
        print(f"{name:18s} {sec:6.2f} s; regret and angle paths identical to serial: {same}")

# %%
# Wall time per executor for the phase diagram (the pool's includes starting its workers). A
# float64 cell takes milliseconds, so here starting the workers dominates and the in-process
# run is fastest — which is why the library
# runs small work in-process by default. Parallelism pays once a cell takes well over 0.1 s
# (mpmath or certified tiers, simulation chunks): ``benchmarks/bench_scaling.py`` measures
# close to N× on N cores for an mpmath phase diagram.
if __name__ == "__main__":
    fig, ax = plt.subplots(figsize=(5.6, 2.4))
    ax.barh(
        list(diagrams),
        [sec for _, sec in diagrams.values()],
        color=["C0", "C1", "C2"][: len(diagrams)],
    )
    ax.invert_yaxis()
    ax.set_xlabel("seconds (phase diagram, float64 tier)")
    fig.tight_layout()

# %%
# Run on its own (``python examples/plot_5_scaling_out.py``), the script writes its
# figures to files.
if "sphinx_gallery" not in sys.modules:
    for num in plt.get_fignums():
        plt.figure(num).savefig(f"plot_5_scaling_out_{num}.png", dpi=110)
        print(f"figure written to plot_5_scaling_out_{num}.png")
