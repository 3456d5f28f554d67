"""Pseudo-arclength continuation of zero curves (nbl_theory.continuation)."""

import numpy as np
import pytest

from nbl_theory.continuation import trace_zero_curve
from nbl_theory.errors import NBLInputError


def test_closed_curve_is_traced_and_closed():
    """An ellipse: every point on it to the tolerance, the curve closes, no gaps."""
    c = trace_zero_curve(
        lambda x, y: (x / 2) ** 2 + (y / 0.5) ** 2 - 1,
        (2.0, 0.01),
        ((-3, 3), (-1, 1)),
        scale=(1.0, 0.25),
        step=0.1,
        tol=1e-12,
    )
    assert c.closed
    assert np.max(np.abs((c.x / 2) ** 2 + (c.y / 0.5) ** 2 - 1)) <= 1e-12
    steps = np.hypot(np.diff(c.x), np.diff(c.y) / 0.25)
    assert steps.max() <= 0.2  # at most twice the step in scaled units
    assert c.x.min() < -1.99 and c.y.max() > 0.499  # goes all the way round


def test_open_curve_stops_at_the_box():
    """A parabola y = x² leaving the box on both sides; both ends reached."""
    c = trace_zero_curve(
        lambda x, y: y - x * x, (0.3, 0.09), ((-1, 1), (-0.5, 0.81)), step=0.05, tol=1e-13
    )
    assert not c.closed
    assert np.max(np.abs(c.y - c.x**2)) <= 1e-13
    assert c.x.min() < -0.85 and c.x.max() > 0.85


def test_fold_is_followed():
    """A fold in the y-direction (the shape of the λ* = 0 boundary's top): the tracer passes
    the turning point instead of stopping there."""
    c = trace_zero_curve(
        lambda x, y: y - (0.52 - (x - 1.4) ** 2),
        (0.7, 0.03),
        ((-1, 3), (0.0, 1.0)),
        step=0.04,
        tol=1e-12,
    )
    assert c.y.max() == pytest.approx(0.52, abs=1e-3) and c.x.max() > 2.0


def test_start_without_gradient_is_an_error():
    with pytest.raises(NBLInputError, match="gradient"):
        trace_zero_curve(lambda x, y: 1.0, (0.0, 0.0), ((-1, 1), (-1, 1)))


def test_the_scale_of_x_is_the_curves_own():
    """nbl_theory.continuation:92 (``f(u * sx, v * sy)`` -> ``f(u, v * sy)``): the tracer
    works in scaled units, so with both scales away from 1 every returned point must still lie
    on f = 0 in the caller's coordinates. A tall ellipse x²/8² + y²/0.5² = 1 traced with
    scale (4, 0.25); reference by hand: its extreme x are ±8."""
    c = trace_zero_curve(
        lambda x, y: (x / 8) ** 2 + (y / 0.5) ** 2 - 1,
        (8.0, 0.01),
        ((-10, 10), (-1, 1)),
        scale=(4.0, 0.25),
        step=0.1,
        tol=1e-12,
    )
    assert c.closed
    assert np.max(np.abs((c.x / 8) ** 2 + (c.y / 0.5) ** 2 - 1)) <= 1e-12
    assert c.x.min() < -7.99 and c.x.max() > 7.99
