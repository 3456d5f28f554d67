"""nbl_sim.population.population_table (the field from a table of the 1-D reduction's integrals in one angle)
against the quadrature field of nbl_sim.population.fields — the paper's links, the test strategies'
links, directions at and within 1e-9 of ±β_a — and its input errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nbl_sim.population import fields as pop
from nbl_sim.population.population_table import FieldTable
from nbl_theory.errors import NBLInputError
from nbl_theory.paper import PAPER_LINKS
from tests.sim.strategies import any_links, deltas

#: max |F_table − F_quadrature| / max(1, S) accepted: both are sums of ~2,500 terms of size
#: ≤ S rounded in float64 (measured ≤ 6e-16 on the paper's links, 20,000 directions each);
#: 2e-15 leaves 3x for other links, while a table one panel off, or of too few panels, is
#: 1e-7 and more off.
TOL = 2e-15


def _directions(rng, beta, k):
    """k random directions, ±β_a exactly and within 1e-9 of them."""
    d = beta.shape[1]
    near = np.concatenate(
        [
            beta,
            -beta,
            beta + 1e-9 * rng.standard_normal((2, d)),
            -beta + 1e-9 * rng.standard_normal((2, d)),
        ]
    )
    return np.concatenate([rng.standard_normal((k, d)), near])


@pytest.mark.parametrize("key", sorted(PAPER_LINKS))
def test_paper_links_table_is_the_quadrature_field(key):
    link = PAPER_LINKS[key].link()
    rng = np.random.default_rng(sorted(PAPER_LINKS).index(key))
    beta, _, _ = pop.arm_vectors(
        "0.2", 3, v_star=rng.standard_normal(3), theta_dir=rng.standard_normal(3)
    )
    table = FieldTable(link)
    V = _directions(rng, beta, 3000)
    assert table.deviation(beta, V) <= TOL
    # the deviation's unit is max(1, S) (its docstring), also for the links with S < 1
    # (tt-near-critical 0.53, we-0.60 0.95, ...), where S alone would inflate it
    worst = np.max(np.abs(table.field(beta, V) - pop.population_field(link, beta, V)))
    assert table.deviation(beta, V) == worst / max(1.0, pop.quadrature_scale(link))
    h = table.tangent(beta, V)
    vu = V / np.linalg.norm(V, axis=1, keepdims=True)
    assert np.max(np.abs(h - pop.tangent_field(link, beta, V))) <= TOL * max(
        1.0, pop.quadrature_scale(link)
    )
    assert np.max(np.abs(np.sum(h * vu, axis=1))) <= 1e-15 * max(1.0, pop.quadrature_scale(link))


@settings(max_examples=25, deadline=None)
@given(link=any_links(), delta=deltas, d=st.sampled_from([2, 3, 5]), seed=st.integers(0, 2**32 - 1))
def test_table_is_the_quadrature_field_for_any_link(link, delta, d, seed):
    rng = np.random.default_rng(seed)
    beta, _, _ = pop.arm_vectors(
        delta, d, v_star=rng.standard_normal(d), theta_dir=rng.standard_normal(d)
    )
    assert FieldTable(link).deviation(beta, _directions(rng, beta, 300)) <= TOL


def test_one_direction_and_a_chebyshev_point_exactly():
    """A 1-D v gives a (d,) field; an angle exactly on a Chebyshev point of the table takes that
    point's value (no 0/0)."""
    link = PAPER_LINKS["tt-stable"].link()
    table = FieldTable(link, panels=4, order=8)
    beta, _, _ = pop.arm_vectors("1", 2)
    v = np.array([0.3, -0.8])
    assert table.field(beta, v).shape == (2,)
    hits = []  # θ near the nodes that land on one exactly
    for p in range(4):
        for k in range(8):
            theta = table._mid[p] + table._half * table._x[k]
            for _ in range(64):
                if (theta - table._mid[p]) / table._half == table._x[k]:
                    hits.append(theta)
                    break
                theta = np.nextafter(theta, np.inf)
    assert hits
    theta = hits[0]
    a1, b2 = table.integrals(np.array([np.sin(theta)]), np.array([np.cos(theta)]))
    want = pop.reduction_integrals(link, np.tan(theta))
    assert np.isfinite(a1[0]) and abs(a1[0] - want[0]) < 1e-14 and abs(b2[0] - want[1]) < 1e-14


@pytest.mark.parametrize(
    "kwargs, v, match",
    [
        (dict(panels=0), [1.0, 0.0], "panels"),
        (dict(order=1), [1.0, 0.0], "order"),
        (dict(panels=2.5), [1.0, 0.0], "panels"),
        ({}, [0.0, 0.0], "non-zero"),
        ({}, [np.nan, 1.0], "finite"),
        ({}, [1.0, 0.0, 0.0], "shape"),
    ],
)
def test_bad_input_is_one_line(kwargs, v, match):
    link = PAPER_LINKS["tt-stable"].link()
    beta, _, _ = pop.arm_vectors("1", 2)
    with pytest.raises(NBLInputError, match=match):
        FieldTable(link, **kwargs).field(beta, np.array(v))
