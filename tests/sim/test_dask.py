"""The Dask executor on a local cluster of two single-threaded worker processes (started once for
the module, ~2 s): results equal the in-process ones bit for bit, a worker killed mid-sweep costs
no cell, failed cells are reported, an interrupted sweep resumes from the cache, and the
NBL_DASK_SCHEDULER variable reaches a running scheduler.

Workers import only the installed package: the cells are ``nbl_sim.studies.phase.phase_cell`` and
``nbl_sim.studies.experiment._run_chunk`` (a "poisoned" cell is a phase cell with value "nan")."""

import contextlib
import operator
import os
import signal
import socket
import time
from functools import partial

import numpy as np
import pytest

from nbl_theory.families import make_family

pytest.importorskip("distributed")

from nbl_sim.engine.environment import Environment  # noqa: E402
from nbl_sim.runs.execution import (  # noqa: E402
    SCHEDULER_ENV,
    DaskExecutor,
    SerialExecutor,
    make_executor,
)
from nbl_sim.runs.sweep import ChunkCache, run_sweep  # noqa: E402
from nbl_sim.studies.experiment import simulate  # noqa: E402
from nbl_sim.studies.phase import PhaseCell, grid_values, phase_cell, phase_diagram  # noqa: E402

FAMILY, PARAM = "two-transition", "mu2"
VALUES = grid_values(-1.5, 2.5, 12)
DELTAS = grid_values(0.1, 1.5, 8)


@pytest.fixture(autouse=True)
def _user_cache_home(tmp_path, monkeypatch):
    """A private user cache directory (where the cache's HMAC key lives) per test."""
    monkeypatch.setenv("NBL_CACHE_DIR", str(tmp_path / "nbl-home"))


@pytest.fixture(scope="module")
def cluster():
    """The module's cluster. ``distributed.deploy.lost-worker-timeout`` (15 s by default) is raised
    for its lifetime: 15 s after a worker leaves, a LocalCluster closes that worker's nanny for
    good if no worker of the same name is registered at that instant. A worker that crashes four
    times in a row (test_task_that_always_kills_its_worker...) is between death and re-registration
    much of the time, and on a loaded 2-core machine a restart takes seconds, so the check often
    landed in such a gap: the cluster kept one worker and the next tests waited 240 s for the second
    (seen in CI, distributed 2026.8.0, deploy/spec.py ``SpecCluster._update_worker_status``).

    The cluster starts while port 8787 of the loopback interface is taken, as by another
    ``nbl`` run or a notebook's cluster: the scheduler's HTTP server must not try it (distributed
    warns, and warnings are errors here; seen in CI when another cluster was up)."""
    import dask

    with (
        dask.config.set({"distributed.deploy.lost-worker-timeout": "1h"}),
        socket.socket() as taken,
    ):
        with contextlib.suppress(OSError):  # already taken by someone else: the same test
            taken.bind(("127.0.0.1", 8787))
            taken.listen()
        ex = DaskExecutor("local:2")
        taken.close()
        try:
            yield ex
        finally:
            ex.close()


@pytest.fixture(scope="module")
def serial_float():
    return phase_diagram(FAMILY, PARAM, VALUES, DELTAS, executor=SerialExecutor())


def _healthy(ex, n=2):
    """Wait until the cluster has ``n`` workers again (the nanny restarts a killed one). A
    restart imports numpy/scipy/numba afresh: seconds when idle, over a minute on a loaded
    2-core machine, hence the generous bound (a wait, not a tolerance)."""
    ex.client.wait_for_workers(n, timeout=240)
    return ex.client.run(os.getpid)


def test_phase_diagram_on_dask_equals_serial(cluster, serial_float):
    got = phase_diagram(FAMILY, PARAM, VALUES, DELTAS, executor=cluster)
    assert got.executor.startswith("local Dask cluster local:2 (2 workers)")
    assert not got.failures and got.lambda_star.shape == (8, 12)
    assert np.array_equal(got.lambda_star, serial_float.lambda_star)
    assert np.array_equal(got.sign, serial_float.sign)
    assert 0 < got.unstable_fraction() < 1  # the grid crosses the threshold


def _distributed_log_level():
    import logging

    return logging.getLogger("distributed").getEffectiveLevel()


def test_the_local_clusters_workers_log_only_critical_records(cluster):
    """A worker whose scheduler has gone (the command interrupted and exiting) logs its failed
    heartbeat with a traceback at ERROR (distributed's ``Worker.heartbeat``) on the terminal it
    shares with the command; seen once under load after two Ctrl-C. The local cluster's
    workers log at CRITICAL only (distributed's default for them is WARNING)."""
    import logging

    levels = cluster.client.run(_distributed_log_level)
    assert len(levels) == 2 and set(levels.values()) == {logging.CRITICAL}, levels


def test_simulate_on_dask_equals_serial_bit_for_bit(cluster):
    env = Environment.build(make_family(FAMILY, mu2="1.244122"), "0.8", 3)
    kw = dict(
        n=400, reps=40, n0=40, chunk_size=5, seed=11, policies=("nbl", "greedy-logistic", "oracle")
    )
    here = simulate(env, executor=SerialExecutor(), **kw)
    there = simulate(env, executor=cluster, **kw)
    assert there.executor.startswith("local Dask cluster")
    for name in kw["policies"]:
        for k in ("regret", "angle", "sq_error"):
            a, b = getattr(here.policies[name], k), getattr(there.policies[name], k)
            assert a.shape == (40, here.record_rounds.size)
            assert np.array_equal(a, b, equal_nan=True), (name, k)


def test_worker_killed_mid_sweep_loses_no_cell(cluster):
    """SIGKILL one worker after the first result: its task (and any result it held) is
    recomputed elsewhere, the nanny restarts the worker, and the sweep equals the serial one."""
    pids = _healthy(cluster)
    values = grid_values(-1.0, 2.2, 8)
    cells = [PhaseCell(FAMILY, PARAM, v, (), ("0.4",), "mpmath") for v in values]  # ~0.4 s each
    killed = []

    def kill_after_first(done, total):
        if done >= 1 and not killed:
            victim = sorted(pids.values())[0]
            os.kill(victim, signal.SIGKILL)
            killed.append((victim, done, total))

    res = run_sweep(phase_cell, cells, executor=cluster, progress=kill_after_first)
    assert killed and killed[0][1] < killed[0][2]  # the kill came while cells were left
    assert res.ok and res.computed == len(cells)
    serial = run_sweep(phase_cell, cells, executor=SerialExecutor())
    assert np.array_equal(
        np.array([r["lambda_star"] for r in res.results]),
        np.array([r["lambda_star"] for r in serial.results]),
    )
    assert [r["sign"] for r in res.results] == [r["sign"] for r in serial.results]
    after = _healthy(cluster)
    assert killed[0][0] not in after.values()


def test_task_that_always_kills_its_worker_is_reported_and_the_others_complete(cluster):
    """After ``distributed.scheduler.allowed-failures`` (3) retries the task is reported as
    KilledWorker; the cells that ran beside it are not charged (contrast the process pool,
    test_sweep.py::test_cells_beside_an_always_crashing_cell_still_complete). Standard-library
    callables only: fn(task) = task()."""
    _healthy(cluster)
    tasks = [partial(os._exit, 3)] + [partial(time.sleep, 0.5)] * 4  # sleep returns None
    res = run_sweep(operator.methodcaller("__call__"), tasks, executor=cluster)
    assert [f.index for f in res.failures] == [0]
    assert res.failures[0].error.startswith("KilledWorker")
    assert res.computed == 4
    assert len(_healthy(cluster)) == 2


def test_poisoned_cell_reported_the_others_present(cluster, serial_float):
    values = list(VALUES)
    values[5] = "nan"
    got = phase_diagram(FAMILY, PARAM, values, DELTAS, executor=cluster)
    assert [(f.index, f.params.value) for f in got.failures] == [(5, "nan")]
    assert got.failures[0].error.startswith("NBLInputError")
    assert "phase_cell" in got.failures[0].traceback  # the worker's traceback travels back
    assert np.isnan(got.lambda_star[:, 5]).all() and (got.sign[:, 5] == "failed").all()
    keep = [j for j in range(len(values)) if j != 5]
    assert np.array_equal(got.lambda_star[:, keep], serial_float.lambda_star[:, keep])


def test_interrupt_and_resume_on_the_cluster(cluster, serial_float, tmp_path):
    cells = [PhaseCell(FAMILY, PARAM, v, (), tuple(DELTAS), "float") for v in VALUES]
    cache = ChunkCache(tmp_path)

    def stop_after_three(done, total):
        if done >= 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_sweep(phase_cell, cells, executor=cluster, cache=cache, progress=stop_after_three)
    assert len(cache) == 3
    res = run_sweep(phase_cell, cells, executor=cluster, cache=cache)
    assert (res.cached, res.computed) == (3, len(cells) - 3) and res.ok
    lam = np.array([r["lambda_star"] for r in res.results]).T
    assert np.array_equal(lam, serial_float.lambda_star)


def test_scheduler_environment_variable_connects_to_a_running_scheduler(
    cluster, monkeypatch, serial_float
):
    _healthy(cluster)  # a worker killed by an earlier test may still be restarting
    address = cluster.client.scheduler.address
    assert address.startswith("tcp://")
    monkeypatch.setenv(SCHEDULER_ENV, address)
    with make_executor() as ex:
        assert isinstance(ex, DaskExecutor) and ex._cluster is None
        assert ex.describe() == f"Dask cluster {address} (2 workers)"
    got = phase_diagram(FAMILY, PARAM, VALUES[:4], DELTAS)  # default executor: the variable
    assert got.executor == f"Dask cluster {address} (2 workers)"
    assert np.array_equal(got.lambda_star, serial_float.lambda_star[:, :4])
    # closing a client of a running scheduler leaves that scheduler and its workers up
    assert len(_healthy(cluster)) == 2
