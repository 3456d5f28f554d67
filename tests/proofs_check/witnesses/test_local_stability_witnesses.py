"""Tests of the witness functions behind the claims of cor:local_stability:
geometry.delta_decomposition / tangent_delta_relation, lambda0.radius_geometry and
local_expansions.remainder_growth / expansion_summary."""

import math
from fractions import Fraction

import numpy as np
import pytest

from proofs_check.witnesses import local_expansions as le
from proofs_check.witnesses.geometry import delta_decomposition, tangent_delta_relation
from proofs_check.witnesses.lambda0 import radius_geometry


def test_sphere_identities_exact_and_float_and_a_wrong_coefficient_fails():
    dd = delta_decomposition()
    assert dd["failure"] is None and dd["n_exact"] == 300 and dd["n"] == 1200
    assert max(dd["worst"], dd["worst_q"]) <= 4e-15
    assert delta_decomposition(Fraction(1))["failure"] is not None
    td = tangent_delta_relation()
    assert td["failure"] is None and td["n_exact"] == 300 and td["worst"] <= 4e-15
    assert tangent_delta_relation(Fraction(1, 2))["failure"] is not None


def test_radius_geometry_by_hand():
    # alpha = 60 deg on one side, 90 on the other: the chord of 60 deg is 2 sin(30 deg) = 1
    rg = radius_geometry(math.pi / 2, math.pi / 3)
    assert rg["a0"] == math.pi / 3 and rg["chord"] == pytest.approx(1.0, abs=1e-15)
    assert rg["deg"] == pytest.approx(60.0, abs=1e-12)
    assert (rg["deg_plus"], rg["deg_minus"]) == pytest.approx((90.0, 60.0), abs=1e-12)


def test_remainder_growth_bounded_and_growing():
    bounded = np.array([1.0, 1.1, 1.2, 1.2, 1.2, 1.2])
    assert le.remainder_growth(bounded, 0.0) == pytest.approx(1.2 / 1.8)
    growing = bounded * np.geomspace(1, 1e3, 6)  # ratio ~ 1/||u||: o(||u||) fails
    assert le.remainder_growth(growing, 0.0) > 1.0
    rows = [{"key": "a", "ratio_u": bounded}, {"key": "b", "ratio_u": growing}]
    ex = le.expansion_summary(rows, "ratio_u", 1e-7)
    assert ex["worst"]["key"] == "b" and ex["max"] == growing.max()
    assert ex["at_smallest"] == growing[-1]
