"""Shared test configuration: precision hygiene and hypothesis profiles."""

import os

import mpmath
import pytest
from hypothesis import HealthCheck, settings

# fast, derandomized default profile (the same examples on every run, so the default suite is
# reproducible); `HYPOTHESIS_PROFILE=ci` draws 60 fresh random examples per test
settings.register_profile(
    "default",
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session", autouse=True)
def _private_cache_dir(tmp_path_factory):
    """Tests never write into the user's real cache (~/.cache/nbl): unless NBL_CACHE_DIR is set,
    they share one private cache under pytest's temporary root (kept between runs on the same
    machine, so the regret-rate study's cells are reused; keys cover the code, so nothing
    stale is served)."""
    if os.environ.get("NBL_CACHE_DIR"):
        yield
        return
    path = tmp_path_factory.getbasetemp().parent / "nbl-cache"
    path.mkdir(mode=0o700, exist_ok=True)
    os.environ["NBL_CACHE_DIR"] = str(path)
    try:
        yield
    finally:
        os.environ.pop("NBL_CACHE_DIR", None)


@pytest.fixture(autouse=True)
def _restore_precision():
    """Fail a test that leaves mpmath's or flint's global precision changed (mpmath conftest)."""
    import flint

    dps, prec = mpmath.mp.dps, flint.ctx.prec
    yield
    changed = (mpmath.mp.dps, flint.ctx.prec) != (dps, prec)
    mpmath.mp.dps, flint.ctx.prec = dps, prec
    assert not changed, "a test changed the global mpmath/flint precision"


#: Default-tier tests moved to the slow tier (the default tier within ~6 min on 2 cores; they
#: still run with ``pytest -m slow``), each with what keeps covering it in the default tier.
MOVED_TO_SLOW = {
    "tests/sim/test_dask.py::test_worker_killed_mid_sweep_loses_no_cell": "tests/sim/test_sweep.py::test_worker_killed_once_is_retried (a local pool)",
    "tests/sim/test_dask.py::test_task_that_always_kills_its_worker_is_reported_and_the_others"
    "_complete": "tests/sim/test_sweep.py::test_cells_beside_an_always_crashing_cell_still_"
    "complete",
    "tests/sim/test_llvm_ops.py::test_lane_rounds_are_the_scalar_rounds": "tests/sim/test_environment.py::test_draw_is_the_numpy_definition_bit_for_bit",
    "tests/sim/test_llvm_ops.py::test_index_lanes_are_the_scalar_rows": "tests/sim/test_environment.py::test_draw_is_the_numpy_definition_bit_for_bit",
    "tests/sim/test_statistics.py::test_randomized_stein_contrast_mean": "the claim stein-randomized-mean (tests/proofs_check/test_claims.py, smoke)",
    "tests/sim/test_experiment.py::test_every_chunking_block_and_worker_count_gives_the_same_"
    "numbers[3]": "the same test at d = 2 and test_one_chunk_equals_four_chunks_bit_for_bit",
    "tests/sim/test_rate_study.py::test_results_do_not_depend_on_chunking_or_executor": "tests/sim/test_sweep.py's chunking and executor invariance of every sweep",
    "tests/sim/test_population_table.py::test_table_is_the_quadrature_field_for_any_link": "tests/sim/test_population_table.py::test_paper_links_table_is_the_quadrature_field",
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid in MOVED_TO_SLOW:
            item.add_marker(pytest.mark.slow)
