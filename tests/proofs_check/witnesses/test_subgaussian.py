"""Tests of proofs_check.witnesses.subgaussian: the edge laws of lem:tail_to_mgf."""

import math

import numpy as np
import pytest

from proofs_check.witnesses import subgaussian as sg


@pytest.mark.parametrize(
    "law,p",
    [
        ("gaussian", 0.5),
        ("half-normal", 0.5),
        ("extremal", 0.5),
        ("extremal-symmetric", 0.5),
        ("two-point", 1e-2),
    ],
)
def test_laws_are_probability_laws_with_the_tail_hypothesis(law, p):
    x, lw = sg.subgaussian_law(law, p)
    w = np.exp(lw)
    assert w.sum() == pytest.approx(1.0, abs=1e-12)
    y = np.linspace(0.01, 8, 200)
    assert np.all(sg.law_tail(law, p, y) <= 2 * np.exp(-y * y / 2) * (1 + 1e-14))
    # second moment from the atoms against the closed form E U^2 = int_0^inf 2y P(|U| >= y) dy
    want = {
        "gaussian": 1.0,
        "half-normal": 1.0,
        "extremal": 2 + 2 * math.log(2),
        "extremal-symmetric": 2 + 2 * math.log(2),
        "two-point": p * 2 * math.log(2 / p),
    }[law]
    assert float(w @ x**2) == pytest.approx(want, rel=1e-12)


def test_gaussian_mgf_ratio_is_one_half():
    x, lw = sg.subgaussian_law("gaussian")
    for lam in (0.1, 1.0, 5.0, -3.0):
        assert sg.logmgf_ratio(x, lw, lam) == pytest.approx(0.5, abs=1e-10)


def test_two_point_mgf_closed_form():
    p = 0.01
    x, lw = sg.subgaussian_law("two-point", p)
    c = math.sqrt(2 * math.log(2 / p))
    lam = 0.7
    want = math.log((1 - p) * math.exp(-lam * p * c) + p * math.exp(lam * c * (1 - p))) / lam**2
    assert sg.logmgf_ratio(x, lw, lam) == pytest.approx(want, rel=1e-13)


def test_unknown_law():
    with pytest.raises(KeyError):
        sg.subgaussian_law("cauchy")
