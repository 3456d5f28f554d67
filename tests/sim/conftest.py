"""Fixtures shared by the nbl_sim tests."""

import pytest


@pytest.fixture(scope="session")
def quick_figure():
    """``quick_figure(module)``: the figure module's ``compute(quick=True)``, computed once per
    test session (the figure tests only read the data)."""
    done = {}

    def get(module):
        if module.ID not in done:
            done[module.ID] = module.compute(quick=True)
        return done[module.ID]

    return get
