"""A FloatFamilyLink is its family's Link in float64, bit for bit (nbl_theory/float_families.py).

Each written-out g is pinned twice to the Link that :func:`nbl_theory.families.make_family`
builds: structurally (the same expression tree as the source lambdify generates for the Link's
g, so a sympy release that prints differently is caught), and by value (the same bits on a grid
through the overflow region, on special values and on random points, the Link's Arb repair of
an overflow included). The rest of a FloatFamilyLink is the Link's, built on first use.
"""

from __future__ import annotations

import ast
import inspect
import json
import pickle
import re
import textwrap
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from nbl_theory.families import make_family
from nbl_theory.float_families import (
    FLOAT_FAMILIES,
    FloatFamilyLink,
    decimal_label,
    float_family_link,
)
from nbl_theory.link_type import LinkType
from nbl_theory.links import Link
from nbl_theory.validation import check_link

FAMILIES = sorted(FLOAT_FAMILIES)
#: through every family's overflow (exp: 709.78), the saturation of tanh and the logistic, and
#: the float64 extremes
GRID = np.concatenate(
    [
        np.linspace(-800.0, 800.0, 16001),
        [0.0, -0.0, 5e-324, -5e-324, 1e-300, 2.2e-308, 1e300, -1e300, 1.7976931348623157e308],
        [-1.7976931348623157e308, 709.782712893384, 709.7827128933841, -745.1332191019412],
    ]
)


def _returned(fn_source: str) -> str:
    """ast.dump of the expression a one-return function's source returns."""
    tree = ast.parse(textwrap.dedent(fn_source))
    ret = tree.body[0].body[-1]
    assert isinstance(ret, ast.Return)
    return ast.dump(ret.value)


def _same_bits(a, b) -> bool:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and np.array_equal(a.view(np.int64), b.view(np.int64))


@pytest.mark.parametrize("family", FAMILIES)
def test_the_written_g_is_the_tree_lambdify_generates(family):
    link = make_family(family)
    generated = inspect.getsource(link._np["g"].f)
    written = inspect.getsource(FLOAT_FAMILIES[family][1])
    assert _returned(written) == _returned(generated)
    assert link.kind == "expression" and link.family_name == family
    fast = FloatFamilyLink(family)  # what reports, manifests and cache keys print
    assert (fast.name, fast.kind, fast.family_name) == (link.name, link.kind, link.family_name)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_values_are_the_links_bits_through_the_overflow(family):
    fast, link = FloatFamilyLink(family), make_family(family)
    assert _same_bits(fast.g_numpy(GRID), link.g_numpy(GRID))
    block = GRID[:1200].reshape(40, 30)
    assert _same_bits(fast.g_numpy(block), link.g_numpy(block))
    assert _same_bits(fast.g_numpy(0.25), link.g_numpy(0.25))  # a 0-d input
    assert _same_bits(fast.g_numpy([1.0, -3.0]), link.g_numpy([1.0, -3.0]))  # a list


@settings(max_examples=60, deadline=None)
@given(
    family=st.sampled_from(FAMILIES),
    z=arrays(np.float64, st.integers(1, 64), elements=st.floats(allow_nan=False, width=64)),
)
def test_the_values_are_the_links_bits_anywhere(family, z):
    assert _same_bits(FloatFamilyLink(family).g_numpy(z), make_family(family).g_numpy(z))


def test_a_fresh_array_and_no_shared_memory():
    z = np.array([0.0, 1.0, -2.0])
    out = FloatFamilyLink("identity").g_numpy(z)
    assert out.dtype == np.float64 and not np.shares_memory(out, z)
    assert _same_bits(out, z)


@pytest.mark.parametrize("family", ["logistic", "two-transition"])
def test_everything_else_is_the_links(family):
    fast, link = FloatFamilyLink(family), make_family(family)
    assert isinstance(fast, LinkType) and not isinstance(fast, Link)
    assert check_link(fast) is fast
    assert fast.expr == link.expr and fast.params == link.params
    assert fast.bounded_derivatives == link.bounded_derivatives
    z = np.linspace(-3, 3, 7)
    assert _same_bits(fast.derivative_numpy(z, 1), link.derivative_numpy(z, 1))


def test_pickled_and_described_by_family_and_source():
    fast = FloatFamilyLink("logistic")
    back = pickle.loads(pickle.dumps(fast))
    assert back.family == "logistic" and _same_bits(back.g_numpy(GRID), fast.g_numpy(GRID))
    from nbl_sim.runs.sweep import canonical

    key = json.dumps(canonical(fast))
    assert key == json.dumps(canonical(back))
    assert '"logistic"' in key and "FloatFamilyLink" in key
    assert "(1 + exp(-z)) ** (-1.0)" in key  # the key changes with g's definition


def test_only_the_listed_families_have_one():
    assert float_family_link("weighted-entropy") is None
    assert float_family_link("quadratic") is None
    assert float_family_link("no-such-family") is None
    assert float_family_link("logistic").family == "logistic"


@pytest.mark.parametrize("family", ["logistic", "two-transition"])
def test_a_simulation_is_the_same_with_either_link(family):
    """The numbers of record: simulate() with the FloatFamilyLink gives the Link's run."""
    from nbl_sim.engine.environment import Environment
    from nbl_sim.studies.experiment import simulate

    runs = [
        simulate(Environment.build(link, "0.9", 2), n=600, reps=6, n0=50, seed=3)
        for link in (FloatFamilyLink(family), make_family(family))
    ]
    for name in runs[0].policies:
        a, b = runs[0].policies[name], runs[1].policies[name]
        for field in ("regret", "sq_error", "angle"):
            assert _same_bits(getattr(a, field), getattr(b, field)), (name, field)


# ---------------------------------------------------------------------- two-transition's mu2
#: mu2 values with their own shape of lambdify's source: the default, the paper's unstable
#: link, 0 (no constant), negative (the constant added), integers, mu1's value, tiny and large
MU2 = ["2.144072", "1.244122", "0", "-0.3", "5", "-1.25", "0.0001", "-999999.5", "3.999999"]


def _mu2_link(v):
    fast = float_family_link("two-transition", {"mu2": v})
    assert fast is not None and fast.overrides == (("mu2", Fraction(v)),)
    return fast, make_family("two-transition", mu2=v)


@pytest.mark.parametrize("v", MU2)
def test_two_transitions_mu2_is_the_tree_lambdify_generates(v):
    """lambdify's source at mu2 is the default's tree with the constant (7/5)·mu2, subtracted
    (printed ``- p/q``), added with the opposite sign (``+ p/q``) or absent (mu2 = 0)."""
    fast, link = _mu2_link(v)
    body = inspect.getsource(link._np["g"].f).strip().splitlines()[-1].strip()
    m = re.fullmatch(
        r"return \(1/4\)\*tanh\(\(7/5\)\*z(?: ([+-]) (\d+)(?:/(\d+))?)?\) "
        r"\+ \(1/10\)\*tanh\(2\*z \+ 5/2\) \+ 9/20",
        body,
    )
    assert m, body
    sign, p, q = m.groups()
    printed = (
        Fraction(0) if p is None else Fraction(int(p), int(q or 1)) * (1 if sign == "-" else -1)
    )
    assert printed == Fraction(7, 5) * Fraction(v)  # the constant c of _two_transition_at
    assert (fast.name, fast.family_name) == (link.name, link.family_name)


@pytest.mark.parametrize("v", MU2)
def test_two_transitions_mu2_values_are_the_links_bits(v):
    fast, link = _mu2_link(v)
    assert _same_bits(fast.g_numpy(GRID), link.g_numpy(GRID))


@settings(max_examples=40, deadline=None)
@given(
    v=st.decimals(min_value=-50, max_value=50, places=6, allow_nan=False, allow_infinity=False),
    z=arrays(np.float64, st.integers(1, 32), elements=st.floats(-40, 40, width=64)),
)
def test_two_transitions_mu2_anywhere(v, z):
    """Random mu2 (6 decimals) and points: the Link's name and bits."""
    fast = float_family_link("two-transition", {"mu2": str(v)})
    if fast is None:  # |mu2| < 1e-4 (not 0): the Link's label is not written here
        assert v != 0 and abs(v) < Decimal("0.0001")
        return
    link = make_family("two-transition", mu2=str(v))
    assert fast.name == link.name
    assert _same_bits(fast.g_numpy(z), link.g_numpy(z))


@settings(max_examples=200, deadline=None)
@given(st.decimals(min_value=-(10**6), max_value=10**6, places=9, allow_nan=False))
def test_the_decimal_label_is_the_links_wherever_it_is_given(v):
    """decimal_label is nbl_theory.families._fmt (mpmath, 15 digits) where it answers."""
    from nbl_theory.expressions import exact_number
    from nbl_theory.families import _fmt

    label = decimal_label(Fraction(v))
    if label is not None:
        assert label == _fmt(exact_number(str(v)))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 15), st.integers(1, 4), st.integers(0, 10**15), st.booleans())
@example(15, 4, 1, False)  # 0.000100000000000001: all 18 places
def test_every_decimal_of_up_to_15_digits_in_range_is_labelled(n, e, raw, negative):
    """Small decimals too: 1e-4 <= |q| < 1 with at most 15 significant digits has at most 18
    decimal places (0.000123456789012345), and the Link prints all of them (mpmath's nstr at
    15 digits), so decimal_label must answer, as the Link does — it once stopped at 15 places
    and sent 0.0001000000000001 down the Link's slower path. q has n significant digits, the
    first at the e-th decimal place."""
    from nbl_theory.families import _fmt

    m = 10 ** (n - 1) + raw % (9 * 10 ** (n - 1))  # exactly n digits
    q = Fraction(m, 10 ** (n + e - 1)) * (-1 if negative else 1)
    label = decimal_label(q)
    assert label is not None
    assert label == _fmt(sp.Rational(q.numerator, q.denominator))


def test_the_float_path_takes_only_what_it_labels_as_the_link_does():
    assert float_family_link("two-transition", {"mu1": "-1"}) is None  # not in FLOAT_PARAMS
    assert float_family_link("two-transition", {"mu2": "1", "mu1": "0"}) is None
    assert float_family_link("logistic", {"mu2": "1"}) is None
    assert float_family_link("two-transition", {"mu2": "1e-7"}) is None  # label: the Link's
    assert float_family_link("two-transition", {"mu2": "1234567"}) is None  # past 1e6
    assert float_family_link("two-transition", {"mu2": "0.1234567890123456"}) is None  # 16 digits
    assert float_family_link("two-transition", {"mu2": "nan"}) is None  # the Link refuses it
    assert decimal_label(Fraction(1, 3)) is None and decimal_label(Fraction(-5, 2)) == "-2.5"
    # 16 significant digits: the Link prints 15 ("1.23456789012346"), so the Link's path
    assert float_family_link("two-transition", {"mu2": "1.234567890123456"}) is None
    fifteen = float_family_link("two-transition", {"mu2": "1.23456789012345"})  # 15: written
    assert fifteen.name == make_family("two-transition", mu2="1.23456789012345").name
    assert float_family_link("two-transition", {"mu2": "2.144072"}).name == (
        FloatFamilyLink("two-transition").name
    )


def test_a_mu2_link_is_pickled_and_keyed_by_its_value():
    from nbl_sim.runs.sweep import canonical

    fast, _ = _mu2_link("1.244122")
    back = pickle.loads(pickle.dumps(fast))
    assert back.overrides == fast.overrides and _same_bits(back.g_numpy(GRID), fast.g_numpy(GRID))
    key = json.dumps(canonical(fast))
    assert key == json.dumps(canonical(back)) and "622061/500000" in key
    assert key != json.dumps(canonical(_mu2_link("1.244123")[0]))
    assert fast.params == make_family("two-transition", mu2="1.244122").params


def test_a_simulation_with_mu2_is_the_same_with_either_link():
    from nbl_sim.engine.environment import Environment
    from nbl_sim.studies.experiment import simulate

    fast, link = _mu2_link("1.244122")
    a, b = (
        simulate(Environment.build(x, "0.5", 2), n=600, reps=6, n0=50, seed=3).policies["nbl"]
        for x in (fast, link)
    )
    for field in ("regret", "sq_error", "angle"):
        assert _same_bits(getattr(a, field), getattr(b, field)), field
