"""The float64 inverse of φ' (``nbl_theory.link_numeric.bisect_increasing``) returns the plain
80-step bisection's result bit for bit: its shared tree and its early exits only skip
evaluations whose outcome is already decided."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.link_numeric import (
    BISECTIONS,
    bisect_increasing,
    bisection_tree,
    bracket_t,
    domain_map_numpy,
)


def plain_bisection(zfun, target, t_lo, t_hi):
    """The loop of the definition: every point, every step."""
    lo, hi = np.full(target.size, t_lo), np.full(target.size, t_hi)
    with np.errstate(all="ignore"):
        for _ in range(BISECTIONS):
            mid = 0.5 * (lo + hi)
            up = zfun(mid) < target
            lo, hi = np.where(up, mid, lo), np.where(up, hi, mid)
    return 0.5 * (lo + hi)


KWARGS = {"weighted-entropy": {"rho": "0.72"}}
LINKS = {
    name: make_family(name, **KWARGS.get(name, {}))
    for name in ["weighted-entropy", "binary-negative-entropy", "negative-entropy", "quadratic"]
}


def _same_bits(a, b):
    return np.array_equal(np.asarray(a).view(np.int64), np.asarray(b).view(np.int64))


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(sorted(LINKS)),
    scale=st.sampled_from([1e-6, 0.01, 1.0, 3.0, 12.0]),
    n=st.integers(1, 300),
    seed=st.integers(0, 2**32 - 1),
    rounded=st.booleans(),
    with_tree=st.booleans(),
    levels=st.sampled_from([1, 2, 3, 16]),  # a tree of any depth, the default 16 included
)
def test_the_result_is_the_plain_bisections(name, scale, n, seed, rounded, with_tree, levels):
    link = LINKS[name]
    z = np.random.default_rng(seed).standard_normal(n) * scale
    if rounded:  # repeated targets, and targets on tree nodes' values
        z = np.round(z, 1)
    t_lo, t_hi = link.t_range(float(z.min()) - 1, float(z.max()) + 1)
    tree = bisection_tree(link.z_of_t_numpy, t_lo, t_hi, levels) if with_tree else None
    got = bisect_increasing(link.z_of_t_numpy, z, t_lo, t_hi, tree)
    assert _same_bits(got, plain_bisection(link.z_of_t_numpy, z, t_lo, t_hi))


@pytest.mark.parametrize("name", sorted(LINKS))
@pytest.mark.parametrize("n", [300, 5000])  # without a tree, then building one
def test_g_numpy_of_a_potential_is_the_plain_bisections(name, n):
    link = make_family(name, **KWARGS.get(name, {}))  # fresh: no tree kept yet
    z = np.random.default_rng(5).standard_normal(n) * 2.5
    t_lo, t_hi = link.t_range(float(z.min()) - 1, float(z.max()) + 1)
    with np.errstate(all="ignore"):
        m = domain_map_numpy(link.domain, plain_bisection(link.z_of_t_numpy, z, t_lo, t_hi))[0]
    assert _same_bits(link.g_numpy(z), m)
    assert _same_bits(link.derivative_numpy(z, 0), m)


def test_targets_on_the_tree_nodes_and_at_the_bracket_ends():
    """Targets equal to z at tree nodes (ties go down, as ``zfun(mid) < target`` is false) and
    to z at the lower end of the bracket."""
    link = LINKS["weighted-entropy"]
    t_lo, t_hi = link.t_range(-4.0, 4.0)
    tree = bisection_tree(link.z_of_t_numpy, t_lo, t_hi)
    bounds, z_nodes = tree
    z = np.concatenate(
        [
            z_nodes[::997],
            np.nextafter(z_nodes[::991], np.inf),
            [float(link.z_of_t_numpy(np.array([t_lo]))[0])],
        ]
    )
    z = z[(z >= -3.0) & (z <= 3.0) | (z == z[-1])]
    got = bisect_increasing(link.z_of_t_numpy, z, t_lo, t_hi, tree)
    assert _same_bits(got, plain_bisection(link.z_of_t_numpy, z, t_lo, t_hi))


def test_a_tree_whose_z_do_not_increase_is_refused():
    assert bisection_tree(lambda t: np.where(t > 0, 1.0, 2.0 + t), -1.0, 1.0, levels=4) is None
    assert bisection_tree(lambda t: t**3, -1.0, 1.0, levels=4) is not None


def test_a_target_at_the_lower_end_of_the_bracket_and_non_finite_targets():
    """zfun(t_lo) = target, with a t_lo whose last bit is odd: ``hi`` comes down to the next
    float and the midpoint rounds to it, not to t_lo (the early exit returns that midpoint)."""
    t_lo = np.nextafter(-2.0, -np.inf)
    for zfun in (lambda t: t, np.sinh):
        target = np.array([zfun(np.array([t_lo]))[0], 0.25, 1.0, np.nan, np.inf, -np.inf])
        for tree in (None, bisection_tree(zfun, t_lo, 3.0, levels=6)):
            got = bisect_increasing(zfun, target, t_lo, 3.0, tree)
            assert _same_bits(got, plain_bisection(zfun, target, t_lo, 3.0))
        assert got[0] == -2.0


def _bracket_one_by_one(zfun, target, side):
    """bracket_t as first written: one point per call."""
    step, t = 1.0, 0.0
    with np.errstate(all="ignore"):
        for _ in range(200):
            z = float(zfun(np.array([t]))[0])
            if (side == "lo" and z <= target) or (side == "hi" and z >= target):
                return t
            t = t - step if side == "lo" else t + step
            step *= 1.5
    return None


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(LINKS)),
    target=st.floats(-1e6, 1e6),
    side=st.sampled_from(["lo", "hi"]),
)
def test_the_bracket_is_the_one_point_at_a_time_expansions(name, target, side):
    zfun = LINKS[name].z_of_t_numpy
    assert bracket_t(zfun, target, side) == _bracket_one_by_one(zfun, target, side)


def test_a_bracket_beyond_reach_is_refused():
    with pytest.raises(NBLInputError, match="could not bracket"):
        bracket_t(lambda t: np.tanh(t), 2.0, "hi")


def test_trees_are_built_for_large_calls_and_kept_for_a_few_brackets():
    link = make_family("binary-negative-entropy")  # a fresh Link: no trees yet
    small = np.linspace(-2.0, 2.0, 1000)
    link.g_numpy(small)
    assert link._dual_trees == {}  # a small call builds none,
    for _ in range(4):
        link.g_numpy(small)
    assert len(link._dual_trees) == 1  # small calls that add up do
    for k in range(10):  # ten brackets
        z = np.linspace(-(2.0**k), 2.0**k, 5000)
        link.g_numpy(z)
        key = link.t_range(float(z.min()) - 1, float(z.max()) + 1)
        assert link._dual_trees[key] is not None  # the latest bracket's tree
    assert len(link._dual_trees) == 8


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(sorted(LINKS)),
    seed=st.integers(0, 2**32 - 1),
    sizes=st.lists(st.integers(1, 400), min_size=1, max_size=9),
    scales=st.lists(st.sampled_from([1e-12, 1e-3, 1.0, 6.0]), min_size=9, max_size=9),
)
def test_rows_are_inverted_as_each_row_alone(name, seed, sizes, scales):
    """g_numpy_rows bisects the rows that share a bracket in one call: each row gets the bits
    g_numpy gives it alone — also rows of targets at chart points t ~ 1e-12 · N(0, 1), whose
    80 halvings do not reach float resolution, so another bracket would give other bits."""
    link = make_family(name, **KWARGS.get(name, {}))
    rng = np.random.default_rng(seed)
    rows = []
    for k, (n, scale) in enumerate(zip(sizes, scales)):
        t = rng.standard_normal(n) * scale
        rows.append(link.z_of_t_numpy(t) if k % 2 else t)  # near z(0), and plain targets
    got = link.g_numpy_rows(rows)
    assert len(got) == len(rows)
    for g, r in zip(got, rows):
        assert g.shape == r.shape and _same_bits(g, link.g_numpy(r))


def test_rows_of_an_expression_link_and_no_rows():
    link = make_family("logistic")
    assert link.kind == "expression" and link.g_numpy_rows([]) == []
    rows = [np.linspace(-3, 3, 7), np.array([[0.5, 1.5]])]
    for g, r in zip(link.g_numpy_rows(rows), rows):
        assert _same_bits(g, link.g_numpy(r))
