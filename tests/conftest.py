"""Shared test configuration: precision hygiene and hypothesis profiles."""

import os

import mpmath
import pytest
from hypothesis import HealthCheck, settings

# fast, derandomized default profile (the same examples on every run, so the default suite is
# reproducible); `HYPOTHESIS_PROFILE=ci` draws 60 fresh random examples per test
settings.register_profile("default", max_examples=15, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _restore_precision():
    """Fail a test that leaves mpmath's or flint's global precision changed (mpmath conftest)."""
    import flint

    dps, prec = mpmath.mp.dps, flint.ctx.prec
    yield
    changed = (mpmath.mp.dps, flint.ctx.prec) != (dps, prec)
    mpmath.mp.dps, flint.ctx.prec = dps, prec
    assert not changed, "a test changed the global mpmath/flint precision"
