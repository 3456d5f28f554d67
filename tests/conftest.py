"""Shared test configuration: precision hygiene and hypothesis profiles."""

import os

import mpmath
import pytest
from hypothesis import HealthCheck, settings

from .slow_tier import read_list

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
#: still run with ``pytest -m slow``): node id → why (tests/slow_tier.txt, tests/slow_tier.py).
MOVED_TO_SLOW = read_list()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid in MOVED_TO_SLOW:
            item.add_marker(pytest.mark.slow)
