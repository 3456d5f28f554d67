"""Geometry of the NBL update, property-based (eq:tangent_update, eq:nbl_update,
lem:normalization and the direction-perturbation bound of prop:randomized_initialization)."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from nbl_sim.engine.geometry import nbl_update, retract, signed_angle, tangent_projection
from nbl_sim.engine.nbl_kernel import nbl_run

EPS = np.finfo(float).eps


def vectors(d, lo=-10.0, hi=10.0):
    return st.lists(
        st.floats(lo, hi, allow_nan=False, allow_infinity=False), min_size=d, max_size=d
    ).map(np.array)


@st.composite
def unit_and_vector(draw):
    d = draw(st.sampled_from([2, 3, 5, 8]))
    v = draw(vectors(d).filter(lambda a: np.linalg.norm(a) > 1e-3))
    return retract(v), draw(vectors(d))


@given(unit_and_vector(), st.floats(0.0, 5.0))
def test_tangent_step_norm_identity(vw, eta):
    """‖v + ηG‖² = 1 + η²‖G‖² for G = P_v^⊥ w tangent at unit v."""
    v, w = vw
    G = tangent_projection(v, w)
    assert abs(G @ v) <= 8 * EPS * (1 + np.linalg.norm(w))
    lhs = np.sum((v + eta * G) ** 2)
    rhs = 1 + eta**2 * np.sum(G**2)
    # the cross term 2η vᵀG vanishes exactly; in float64 vᵀG ~ eps·‖w‖, hence the scale
    assert abs(lhs - rhs) <= 16 * EPS * (1 + eta * np.linalg.norm(w)) ** 2


@given(unit_and_vector(), st.floats(0.0, 5.0))
def test_update_stays_on_sphere(vw, eta):
    v, w = vw
    assert abs(np.linalg.norm(nbl_update(v, w, eta)) - 1) <= 4 * EPS


@given(unit_and_vector(), st.floats(0.0, 5.0))
def test_normalization_lemma(vw, eta):
    """lem:normalization with x = v + ηG (‖x‖ ≥ 1) and u = v*: ‖x/‖x‖ − u‖ ≤ ‖x − u‖."""
    v, w = vw
    u = retract(w) if np.linalg.norm(w) > 1e-6 else v
    x = v + eta * tangent_projection(v, w)
    # ‖x‖² = 1 + η²‖G‖² ≥ 1 exactly; in float64 the projection carries ~eps·‖w‖ rounding
    assert np.linalg.norm(x) >= 1 - 8 * EPS * (1 + eta * np.linalg.norm(w))
    assert np.linalg.norm(retract(x) - u) <= np.linalg.norm(x - u) * (1 + 8 * EPS) + 8 * EPS


@given(st.sampled_from([2, 3, 6]).flatmap(lambda d: st.tuples(vectors(d), vectors(d))))
def test_direction_perturbation_bound(xy):
    """‖x/‖x‖ − y/‖y‖‖ ≤ 2‖x − y‖/‖y‖ (used in the proof of prop:randomized_initialization)."""
    x, y = xy
    if np.linalg.norm(x) < 1e-6 or np.linalg.norm(y) < 1e-6:
        return
    lhs = np.linalg.norm(retract(x) - retract(y))
    assert lhs <= 2 * np.linalg.norm(x - y) / np.linalg.norm(y) * (1 + 8 * EPS) + 8 * EPS


@given(st.floats(-179.0, 179.0), st.floats(-180.0, 180.0))
def test_signed_angle_convention(a_star, a):
    """α is the counterclockwise angle from v* to v, in (−π, π]."""
    vs = np.array([np.cos(np.radians(a_star)), np.sin(np.radians(a_star))])
    v = np.array([np.cos(np.radians(a_star + a)), np.sin(np.radians(a_star + a))])
    expected = (a + 180.0) % 360.0 - 180.0
    got = np.degrees(signed_angle(vs, v))
    assert min(abs(got - expected), 360 - abs(got - expected)) < 1e-9


def test_signed_angle_of_stacked_directions_is_the_angle_of_each_row():
    """Shapes (..., 2) broadcast: a stack of v* against a stack of v gives each row's angle
    (the docstring's shapes; only single v* had been measured, where indexing v*[0, ...] and
    v*[..., 0] coincide)."""
    rng = np.random.default_rng(3)
    vs = rng.standard_normal((5, 2))
    v = rng.standard_normal((5, 2))
    got = signed_angle(vs, v)
    assert got.shape == (5,)
    assert np.array_equal(got, [signed_angle(a, b) for a, b in zip(vs, v)])


@given(st.integers(0, 2**32 - 1), st.sampled_from([2, 3, 7]), st.floats(0.1, 50.0))
def test_kernel_iterates_stay_unit(seed, d, gamma):
    """The compiled kernel's retraction keeps ‖v_t‖ = 1 (to rounding) even with huge steps."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((3, 200, d))
    Y = rng.random((3, 200, 2))
    tr = nbl_run(X, Y, np.ones((3, 10), dtype=np.int8), np.eye(d)[0], gamma=gamma, t0=0.0)
    assert np.all(np.abs(np.linalg.norm(tr.v_final, axis=1) - 1) <= 4 * EPS)
    # ‖v − v*‖² ∈ [0, 4] on the sphere
    assert np.nanmax(tr.sq_error) <= 4 + 1e-12
