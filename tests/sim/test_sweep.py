"""run_sweep / ChunkCache / canonical / executors (in-process and the local process pool):
results in cell order, cache reuse and invalidation, interrupt and resume, failed cells, lost
worker processes, and how make_executor picks an executor. The Dask executor: test_dask.py.

The cells are real phase-diagram cells (``nbl_sim.studies.phase.phase_cell``, float tier unless said
otherwise), so the functions the workers run are importable from the installed package; a
"poisoned" cell is a phase cell whose parameter value is "nan" (NBLInputError in the cell). The
tests that kill pool workers use small helpers of this module: spawned pool workers receive the
parent's ``sys.path``, so they can import it (the others use only the standard library)."""

import operator
import os
import time
from functools import partial

import numpy as np
import pytest

from nbl_sim.engine.environment import Environment
from nbl_sim.runs import execution
from nbl_sim.runs.execution import (
    SCHEDULER_ENV,
    ProcessExecutor,
    SerialExecutor,
    TaskError,
    make_executor,
)
from nbl_sim.runs.sweep import (
    CellFailure,
    ChunkCache,
    SweepError,
    canonical,
    cell_key,
    run_sweep,
)
from nbl_sim.studies.experiment import simulate
from nbl_sim.studies.phase import PhaseCell, phase_cell, phase_diagram
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family

FAMILY, PARAM = "two-transition", "mu2"
VALUES = ("-1.0", "0.0", "0.6", "1.244122", "1.8", "2.4")
DELTAS = ("0.2", "0.8")
EXECUTORS = [
    pytest.param(SerialExecutor, id="serial"),
    pytest.param(partial(ProcessExecutor, 2), id="process2"),
]


def _cells(values=VALUES, deltas=DELTAS, tier="float", fixed=()):
    return [PhaseCell(FAMILY, PARAM, v, tuple(fixed), tuple(deltas), tier) for v in values]


def _lam(results):
    """λ* of every cell stacked (NaN row where a cell failed), for exact comparison."""
    width = max(len(r["lambda_star"]) for r in results if r is not None)
    return np.array(
        [r["lambda_star"] if r is not None else np.full(width, np.nan) for r in results]
    )


def _same(a, b):
    assert np.array_equal(_lam(a), _lam(b), equal_nan=True)
    assert [None if r is None else r["sign"] for r in a] == [
        None if r is None else r["sign"] for r in b
    ]


@pytest.fixture(autouse=True)
def _user_cache_home(tmp_path, monkeypatch):
    """A private user cache directory (where the cache's HMAC key lives) per test."""
    monkeypatch.setenv("NBL_CACHE_DIR", str(tmp_path / "nbl-home"))


@pytest.fixture(scope="module")
def reference():
    """Every cell of ``_cells()`` computed directly, in order."""
    return [phase_cell(c) for c in _cells()]


class _Stop:
    """A progress callback that raises KeyboardInterrupt once ``k`` cells are done."""

    def __init__(self, k):
        self.k, self.calls = k, []

    def __call__(self, done, total):
        self.calls.append((done, total))
        if done >= self.k:
            raise KeyboardInterrupt


# ---------------------------------------------------------------------- order and chunking
@pytest.mark.parametrize("make", EXECUTORS)
def test_results_in_cell_order(make, reference):
    # cell 0 is slow (mpmath tier): in the pool the later cells usually arrive first
    cells = [_cells(VALUES[:1], DELTAS[:1], tier="mpmath")[0]] + _cells()[1:]
    arrived = []
    res = run_sweep(phase_cell, cells, executor=make(), on_result=lambda i, v: arrived.append(i))
    assert res.ok and res.computed == len(cells) and res.cached == 0
    assert sorted(arrived) == list(range(len(cells)))
    _same(res.results[1:], reference[1:])
    from nbl_theory.stability import stability

    slow = stability(make_family(FAMILY, **{PARAM: VALUES[0]}), DELTAS[0], dps=30)
    assert res.results[0]["lambda_star"].tolist() == [float(slow.values["lambda_star"])]


def test_one_cell_per_delta_equals_all_deltas_in_one_cell():
    deltas = ("0.1", "0.5", "1.2")
    whole = phase_diagram(FAMILY, PARAM, VALUES, deltas, executor=SerialExecutor())
    rows = [
        phase_diagram(FAMILY, PARAM, VALUES, [d], executor=SerialExecutor()).lambda_star
        for d in deltas
    ]
    assert np.array_equal(whole.lambda_star, np.vstack(rows))


def test_simulate_one_chunk_equals_uneven_chunks_through_the_cache(tmp_path):
    env = Environment.build(make_family(FAMILY, mu2="1.244122"), "0.8", 3)
    kw = dict(n=300, reps=13, n0=30, policies=("nbl", "oracle"), seed=5, executor=SerialExecutor())
    one = simulate(env, chunk_size=13, **kw)
    cache = ChunkCache(tmp_path)
    many = simulate(env, chunk_size=2, cache=cache, **kw)  # 7 chunks, the last of 1 rep
    assert len(cache) == 7
    again = simulate(env, chunk_size=2, cache=cache, **kw)  # every chunk from the cache
    assert len(cache) == 7
    for other in (many, again):
        for name in one.policies:
            for k in ("regret", "sq_error", "angle"):
                assert np.array_equal(
                    getattr(one.policies[name], k), getattr(other.policies[name], k), equal_nan=True
                )
    simulate(env, chunk_size=2, cache=cache, **{**kw, "seed": 6})  # new seed: 7 new chunks
    assert len(cache) == 14


# ---------------------------------------------------------------------- the cache
def test_second_run_computes_nothing_and_returns_equal_results(tmp_path, reference):
    cache = ChunkCache(tmp_path, "phase")
    first = run_sweep(phase_cell, _cells(), executor=SerialExecutor(), cache=cache)
    assert (first.computed, first.cached) == (len(VALUES), 0)
    assert len(cache) == len(VALUES)
    seen = []
    second = run_sweep(
        phase_cell,
        _cells(),
        executor=SerialExecutor(),
        cache=cache,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert (second.computed, second.cached) == (0, len(VALUES))
    assert seen == [(len(VALUES), len(VALUES))]  # cached cells count as done at once
    _same(second.results, reference)
    _same(first.results, reference)


def test_changed_parameter_changes_the_key_and_is_recomputed(tmp_path):
    cache = ChunkCache(tmp_path)
    run_sweep(phase_cell, _cells(), executor=SerialExecutor(), cache=cache)
    # the same value one ulp-ish away: a new key, recomputed, never the stale result
    values = list(VALUES)
    values[2] = "0.6000000000000001"
    res = run_sweep(phase_cell, _cells(values), executor=SerialExecutor(), cache=cache)
    assert (res.computed, res.cached) == (1, len(VALUES) - 1)
    assert np.array_equal(
        res.results[2]["lambda_star"], phase_cell(_cells(values)[2])["lambda_star"]
    )
    # every field of the cell enters the key
    base = _cells()[0]
    variants = [
        _cells(VALUES[:1], ("0.2", "0.81"))[0],
        _cells(VALUES[:1], ("0.2",))[0],
        _cells(VALUES[:1], tier="mpmath")[0],
        _cells(VALUES[:1], fixed=(("mu1", "-2"),))[0],
        PhaseCell(FAMILY, "mu1", VALUES[0], (), DELTAS, "float"),
    ]
    keys = {cell_key(phase_cell, c) for c in [base, *variants]}
    assert len(keys) == 1 + len(variants)
    # ... and so does the function; an equal cell built anew has the same key
    from nbl_sim.studies.experiment import _run_chunk

    assert cell_key(_run_chunk, base) != cell_key(phase_cell, base)
    assert cell_key(phase_cell, _cells()[0]) == cell_key(phase_cell, base)


def test_corrupt_cache_file_is_treated_as_missing(tmp_path, reference):
    cache = ChunkCache(tmp_path)
    cells = _cells()
    run_sweep(phase_cell, cells, executor=SerialExecutor(), cache=cache)
    torn = cache._path(cell_key(phase_cell, cells[1]))
    torn.write_bytes(torn.read_bytes()[:10])  # truncated entry
    cache._path(cell_key(phase_cell, cells[4])).write_bytes(b"not an entry at all")
    (torn.parent / "stray.tmp").write_bytes(b"")  # a leftover temp file is no entry
    assert len(cache) == len(cells)
    res = run_sweep(phase_cell, cells, executor=SerialExecutor(), cache=cache)
    assert (res.computed, res.cached) == (2, len(cells) - 2)
    _same(res.results, reference)
    again = run_sweep(phase_cell, cells, executor=SerialExecutor(), cache=cache)
    assert (again.computed, again.cached) == (0, len(cells))  # the torn files were rewritten
    hit, value = cache.get(cell_key(phase_cell, cells[1]))
    assert hit and np.array_equal(value["lambda_star"], reference[1]["lambda_star"])


# ---------------------------------------------------------------------- interrupt and resume
@pytest.mark.parametrize("make", EXECUTORS)
def test_interrupt_then_resume_equals_uninterrupted(make, tmp_path, reference):
    cache = ChunkCache(tmp_path)
    stop = _Stop(2)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(phase_cell, _cells(), executor=make(), cache=cache, progress=stop)
    assert stop.calls[-1] == (2, len(VALUES))
    assert len(cache) == 2  # what finished before the interrupt is saved, nothing else
    res = run_sweep(phase_cell, _cells(), executor=make(), cache=cache)
    assert (res.cached, res.computed) == (2, len(VALUES) - 2)
    _same(res.results, reference)


# ---------------------------------------------------------------------- failed cells
@pytest.mark.parametrize("make", EXECUTORS)
def test_poisoned_cell_is_reported_and_the_others_complete_and_are_cached(
    make, tmp_path, reference
):
    values = list(VALUES)
    values[3] = "nan"
    cells = _cells(values)
    cache = ChunkCache(tmp_path)
    res = run_sweep(phase_cell, cells, executor=make(), cache=cache)
    assert not res.ok
    assert [f.index for f in res.failures] == [3]
    f = res.failures[0]
    assert isinstance(f, CellFailure) and f.params == cells[3] and f.params.value == "nan"
    assert f.error.startswith("NBLInputError") and "nan" in f.error
    assert "NBLInputError" in f.traceback and "phase_cell" in f.traceback
    assert '"nan"' in f.describe_params()
    assert res.results[3] is None and res.computed == len(values) - 1
    ok = [i for i in range(len(values)) if i != 3]
    _same([res.results[i] for i in ok], [reference[i] for i in ok])
    assert len(cache) == len(values) - 1  # failures are not cached ...
    again = run_sweep(phase_cell, cells, executor=SerialExecutor(), cache=cache)
    assert (again.cached, again.computed) == (len(values) - 1, 0)  # ... so they are retried
    assert [f.index for f in again.failures] == [3]


def test_phase_diagram_marks_the_failed_column():
    pd = phase_diagram(FAMILY, PARAM, ["0.6", "nan", "1.8"], DELTAS, executor=SerialExecutor())
    assert [f.params.value for f in pd.failures] == ["nan"]
    assert np.isnan(pd.lambda_star[:, 1]).all() and (pd.sign[:, 1] == "failed").all()
    assert np.isfinite(pd.lambda_star[:, [0, 2]]).all()


def test_on_error_raise_raises_after_caching_the_rest(tmp_path, reference):
    values = ["nan", *VALUES[1:]]
    cache = ChunkCache(tmp_path)
    with pytest.raises(SweepError, match=r"1 cell\(s\) failed") as err:
        run_sweep(
            phase_cell, _cells(values), executor=SerialExecutor(), cache=cache, on_error="raise"
        )
    assert [f.index for f in err.value.failures] == [0]
    assert '"nan"' in str(err.value) and "NBLInputError" in str(err.value)
    assert len(cache) == len(VALUES) - 1
    res = run_sweep(phase_cell, _cells(VALUES), executor=SerialExecutor(), cache=cache)
    assert (res.cached, res.computed) == (len(VALUES) - 1, 1)
    _same(res.results, reference)


def test_sweep_argument_errors():
    with pytest.raises(NBLInputError, match="on_error"):
        run_sweep(phase_cell, _cells(), executor=SerialExecutor(), on_error="ignore")
    with pytest.raises(NBLInputError, match="weights"):
        run_sweep(phase_cell, _cells(), executor=SerialExecutor(), weights=[1.0])


# ---------------------------------------------------------------------- canonical parameters
def test_canonical_floats_are_exact():
    a, b = 0.1, 0.1000000000000001
    assert a != b
    assert canonical(a) != canonical(b)
    assert canonical(0.0) != canonical(-0.0)
    assert canonical(1.0) != canonical(1)
    assert cell_key(phase_cell, 1) != cell_key(phase_cell, True)  # JSON 1 vs true
    assert canonical(float("nan")) == canonical(float("nan")) != canonical(float("inf"))
    assert canonical("0.1") != canonical(0.1)
    assert cell_key(phase_cell, {"x": a}) != cell_key(phase_cell, {"x": b})
    assert cell_key(phase_cell, {"x": a, "y": 1}) == cell_key(phase_cell, {"y": 1, "x": a})


def test_canonical_numpy_float64_equals_the_python_float():
    assert canonical(np.float32(0.5)) == canonical(0.5)  # passes: the np.floating branch
    assert canonical(np.float64(0.1)) == canonical(0.1)


def test_canonical_arrays():
    x = np.array([0.1, 0.2, 0.3, 0.4])
    assert canonical(x) == canonical(x.copy())
    y = x.copy()
    y[2] = np.nextafter(y[2], 1.0)
    assert canonical(x) != canonical(y)
    assert canonical(x) != canonical(x.reshape(2, 2))
    assert canonical(x) != canonical(x.astype(np.float32))
    assert canonical(x) != canonical(x.tolist())
    assert canonical(np.arange(3)) != canonical(np.arange(3.0))


def test_canonical_links():
    import json

    from nbl_theory.stability import stability

    a = make_family(FAMILY, mu2="1.244122")
    b = make_family(FAMILY, mu2="1.244122")
    c = make_family(FAMILY, mu2="1.244123")
    json.dumps(canonical(a))  # JSON-able
    assert canonical(a) == canonical(b) != canonical(c)
    assert canonical(make_family("logistic")) != canonical(a)
    stability(a, "0.2")  # compiled caches built on a do not enter its description
    assert canonical(a) == canonical(b)
    env = Environment.build(a, "0.8", 3)
    assert canonical(env) == canonical(Environment.build(b, "0.8", 3))
    assert canonical(env) != canonical(Environment.build(a, "0.8", 2))
    with pytest.raises(NBLInputError, match="cannot describe"):
        canonical(object())


# ---------------------------------------------------------------------- lost pool workers
CALL = operator.methodcaller("__call__")  # fn(task) = task(): runs a functools.partial


def _die_once(marker):
    """Kill this worker process the first time (``marker`` does not exist yet); then 42."""
    if not os.path.exists(marker):
        with open(marker, "w"):
            pass
        os._exit(3)
    return 42


def test_worker_killed_once_is_retried(tmp_path):
    tasks = [partial(_die_once, str(tmp_path / "marker")), partial(abs, -7), partial(abs, -8)]
    out = dict(ProcessExecutor(2, retries=2).run(CALL, tasks))
    assert out == {0: 42, 1: 7, 2: 8}
    assert (tmp_path / "marker").exists()


def test_task_that_always_kills_its_worker_is_reported_worker_lost():
    res = run_sweep(CALL, [partial(os._exit, 3)], executor=ProcessExecutor(1, retries=1))
    assert res.results == [None]
    assert [f.index for f in res.failures] == [0]
    assert res.failures[0].error.startswith("WorkerLost") and "2 times" in res.failures[0].error


def test_cells_beside_an_always_crashing_cell_still_complete():
    tasks = [partial(os._exit, 3)] + [partial(time.sleep, 1.5)] * 2
    out = dict(ProcessExecutor(2, retries=1).run(CALL, tasks))
    assert isinstance(out[0], TaskError) and out[0].type == "WorkerLost"
    assert out[1] is None and out[2] is None


def test_a_lazy_task_iterator_is_pulled_as_workers_free_up(tmp_path):
    """A generator of tasks is pulled a window at a time (2 per worker), so the caller's
    generator can work between tasks; every task's result comes back under its position."""
    pulled = []

    def tasks():
        for k in range(9):
            pulled.append(k)
            yield partial(abs, -k)

    out, seen_when = {}, []
    for i, res in ProcessExecutor(2).run(CALL, tasks()):
        seen_when.append(len(pulled))
        out[i] = res
    assert out == {k: k for k in range(9)}
    assert seen_when[0] <= 5  # 4 submitted, at most one more pulled per finished task


def test_a_lazy_iterator_survives_a_dying_worker(tmp_path):
    """A worker killed while tasks are still to be pulled: the pulled and the unpulled tasks
    all finish (the rest run in the isolation pool), the crash retried."""

    def tasks():
        yield partial(_die_once, str(tmp_path / "marker"))
        for k in range(1, 7):
            yield partial(abs, -k)

    out = dict(ProcessExecutor(2, retries=2).run(CALL, tasks()))
    assert out == {0: 42, **{k: k for k in range(1, 7)}}


# ---------------------------------------------------------------------- make_executor
def test_make_executor_without_a_scheduler(monkeypatch):
    monkeypatch.delenv(SCHEDULER_ENV, raising=False)
    monkeypatch.delenv(execution.IN_PROCESS_ENV, raising=False)  # set in a mutant's process
    assert isinstance(make_executor(1), SerialExecutor)
    assert isinstance(make_executor(None, work=0.0), SerialExecutor)
    pool = make_executor(3)
    assert isinstance(pool, ProcessExecutor) and pool.workers == 3
    big = make_executor(None, work=1e12)
    expect = ProcessExecutor if execution.cpu_count() > 1 else SerialExecutor
    assert isinstance(big, expect)
    for bad in (0, -1, True, 2.0):
        with pytest.raises(NBLInputError):
            make_executor(bad)


def test_make_executor_reads_the_scheduler_environment_variable(monkeypatch):
    """Cheap: malformed addresses are rejected by DaskExecutor before any cluster starts (a
    real connection through the variable is in test_dask.py)."""
    monkeypatch.delenv(execution.IN_PROCESS_ENV, raising=False)
    monkeypatch.setenv(SCHEDULER_ENV, "no-such-scheduler")
    with pytest.raises(NBLInputError, match=r"tls://HOST:PORT or local:N|dask.distributed"):
        make_executor()
    pytest.importorskip("distributed")
    monkeypatch.setenv(SCHEDULER_ENV, "local:0")
    with pytest.raises(NBLInputError, match="positive N"):
        make_executor()
    # an explicit number of local workers wins over the variable; both explicit is an error
    assert isinstance(make_executor(2), ProcessExecutor)
    with pytest.raises(NBLInputError, match="either a Dask scheduler or a number"):
        make_executor(2, scheduler="local:2")
    with pytest.raises(NBLInputError, match="tls://HOST:PORT or local:N"):
        make_executor(scheduler="no-such-scheduler")  # the argument beats the variable
    # inside a task, nested sweeps run in-process whatever the variable says
    monkeypatch.setenv(SCHEDULER_ENV, "local:2")
    monkeypatch.setattr(execution, "_IN_WORKER", True)
    assert isinstance(make_executor(), SerialExecutor)


def test_nbl_in_process_makes_every_automatic_choice_in_process(monkeypatch):
    """``NBL_IN_PROCESS=1`` (what the library-mutation harness gives its mutants' processes,
    whose mutated module a spawned worker would not import): the automatic choice runs
    in-process whatever the work, the cores or ``$NBL_DASK_SCHEDULER``; an explicit worker
    count or scheduler still gets its executor; a value other than 0 or 1 is refused."""
    monkeypatch.setenv(SCHEDULER_ENV, "local:2")
    monkeypatch.setenv(execution.IN_PROCESS_ENV, "1")
    assert isinstance(make_executor(None, work=1e12), SerialExecutor)
    with execution.executor_for(None, work=1e12) as ex:
        assert isinstance(ex, SerialExecutor)
    assert isinstance(make_executor(2), ProcessExecutor)
    monkeypatch.delenv(SCHEDULER_ENV)
    monkeypatch.setenv(execution.IN_PROCESS_ENV, "0")
    expect = ProcessExecutor if execution.cpu_count() > 1 else SerialExecutor
    assert isinstance(make_executor(None, work=1e12), expect)
    monkeypatch.setenv(execution.IN_PROCESS_ENV, "yes")
    with pytest.raises(NBLInputError, match="NBL_IN_PROCESS must be 0 or 1"):
        make_executor(None, work=1e12)


def test_phase_diagram_refuses_bad_names_up_front():
    """A wrong family, parameter or fixed value is an input error before any cell runs."""
    from nbl_sim.studies.phase import threshold_scan

    with pytest.raises(NBLInputError, match="unknown family"):
        phase_diagram("nope", "mu2", ["0"], ["0.5"])
    with pytest.raises(NBLInputError, match="no parameter 'nosuch'"):
        phase_diagram("two-transition", "nosuch", ["0"], ["0.5"])
    with pytest.raises(NBLInputError):
        phase_diagram("two-transition", "mu2", ["0"], ["0.5"], fixed={"p0": "abc"})
    with pytest.raises(NBLInputError, match="no parameter 'rho'"):
        threshold_scan("two-transition", "rho", "rho", ["0.2"], bracket=("0", "1"))


# ---------------------------------------------------------------------- source fingerprint
@pytest.fixture
def edit_source(monkeypatch):
    """``edit(path)``: from now on, reading ``path`` returns its source plus a comment line (as
    if the file had been edited); the fingerprint cache is cleared before and after."""
    from pathlib import Path

    from nbl_sim.runs.sweep import source_fingerprint

    real = Path.read_bytes
    edited: set = set()

    def read_bytes(self):
        data = real(self)
        return data + b"\n# edited\n" if self.resolve() in edited else data

    def edit(path):
        edited.add(Path(path).resolve())
        source_fingerprint.cache_clear()

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    source_fingerprint.cache_clear()
    yield edit
    source_fingerprint.cache_clear()


def _nbl_file(module: str):
    import importlib

    return importlib.import_module(module).__file__


def test_fingerprint_skips_presentation_but_not_imported_modules(edit_source):
    """The rule by folder: a simulation cell (module nbl_sim.studies.experiment) keeps its fingerprint
    when a plot, the style or a table changes, and loses it when a module it imports changes
    (nbl_sim.engine.environment directly, nbl_theory.links through nbl_sim.engine.environment)."""
    from nbl_sim.runs.sweep import source_fingerprint

    cell = "nbl_sim.studies.experiment"
    before = source_fingerprint(cell)
    for mod in (
        "nbl_sim.presentation.plots",
        "nbl_sim.presentation.style",
        "nbl_sim.presentation.tables",
        "nbl_sim.presentation.figures.base",
    ):
        edit_source(_nbl_file(mod))
        assert source_fingerprint(cell) == before, mod
    edit_source(_nbl_file("nbl_sim.engine.environment"))
    after_env = source_fingerprint(cell)
    assert after_env != before
    edit_source(_nbl_file("nbl_theory.links"))
    assert source_fingerprint(cell) not in (before, after_env)


def test_fingerprint_of_a_figure_covers_its_own_module_not_the_style(edit_source):
    """A figure's data (cell module = the figure module) depend on the figure module and the
    library it imports, not on the shared style it also imports."""
    from nbl_sim.runs.sweep import source_fingerprint

    fig = "nbl_sim.presentation.figures.rates"
    before = source_fingerprint(fig)
    edit_source(_nbl_file("nbl_sim.presentation.style"))
    assert source_fingerprint(fig) == before
    edit_source(_nbl_file(fig))
    own = source_fingerprint(fig)
    assert own != before
    edit_source(_nbl_file("nbl_theory.stability"))
    assert source_fingerprint(fig) not in (before, own)


def test_how_a_chunk_is_computed_is_not_part_of_its_key():
    """A field marked ``metadata={"cache_key": False}`` (a simulation chunk's backend and
    threads: the same bits either way) leaves the key alone; a field of what is computed
    (the seed) moves it."""
    import dataclasses

    import numpy as np

    from nbl_sim.engine.environment import Environment
    from nbl_sim.studies.experiment import _run_chunk, _Task
    from nbl_theory.families import make_family

    env = Environment.build(make_family("logistic"), 1, 2)
    task = _Task(env, 0, (0, 1), 50, 10, None, 10.0, 500.0, ("nbl",), np.arange(3), True, 1e-6)
    same = dataclasses.replace(task, backend="reference", threads=4)
    assert cell_key(_run_chunk, same) == cell_key(_run_chunk, task)
    assert cell_key(_run_chunk, dataclasses.replace(task, seed=1)) != cell_key(_run_chunk, task)


def test_unstable_intervals_are_the_runs_of_unstable_points_not_their_hull():
    """A row unstable at a ∈ {0.2, 0.3} and {0.6}, stable between, gives two intervals: the
    hull [0.2, 0.6] printed by ``nbl phase`` hid the stable gap (found on a link whose
    transition moves as 3 sin a)."""
    from nbl_sim.studies.phase import PhaseDiagram

    u, s = "unstable", "stable"
    sign = np.array([[u, u, s, s, u], [s, s, s, s, s], [u, u, u, u, u]])
    pd = PhaseDiagram(
        "f",
        "a",
        ["0.2", "0.3", "0.4", "0.5", "0.6"],
        ["0.1", "0.2", "0.3"],
        "float",
        np.zeros(sign.shape),
        sign,
    )
    assert pd.unstable_intervals() == [("0.1", 0.2, 0.3), ("0.1", 0.6, 0.6), ("0.3", 0.2, 0.6)]
