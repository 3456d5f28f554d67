"""Greedy Logistic (nbl_sim.engine.greedy_kernel) against independent scipy/numpy oracles."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import optimize

from nbl_sim.engine.greedy_kernel import fit_penalized_logistic, greedy_logistic_actions
from nbl_theory.errors import NBLInputError

RIDGE = 1e-6


# ----------------------------------------------------------------------------- oracles (numpy)


def _design(X, intercept):
    X = np.asarray(X, dtype=float)
    return np.hstack([X, np.ones((X.shape[0], 1))]) if intercept else X


def _objective(theta, Z, y, ridge):
    eta = Z @ theta
    return np.sum(np.logaddexp(0.0, eta) - y * eta) + 0.5 * ridge * theta @ theta


def _gradient(theta, Z, y, ridge):
    s = 0.5 * (1.0 + np.tanh(0.5 * (Z @ theta)))  # sigmoid, overflow-free
    return Z.T @ (s - y) + ridge * theta


def _hessian(theta, Z, y, ridge):
    s = 0.5 * (1.0 + np.tanh(0.5 * (Z @ theta)))
    return (Z * (s * (1 - s))[:, None]).T @ Z + ridge * np.eye(Z.shape[1])


def _scipy_fit(X, y, *, intercept, ridge=RIDGE, method="Newton-CG"):
    """The same penalized objective minimized by scipy from 0; returns θ = (w, b).

    Newton-CG (exact Hessian-vector products, step tolerance 1e-14) or trust-exact (trust-region
    Newton); BFGS stalls earlier here (line-search precision loss).
    """
    Z = _design(X, intercept)
    y = np.asarray(y, dtype=float)
    x0 = np.zeros(Z.shape[1])
    if method == "Newton-CG":
        res = optimize.minimize(
            _objective,
            x0,
            args=(Z, y, ridge),
            jac=_gradient,
            hess=_hessian,
            method="Newton-CG",
            options={"xtol": 1e-14, "maxiter": 10_000},
        )
    else:
        res = optimize.minimize(
            _objective,
            x0,
            args=(Z, y, ridge),
            jac=_gradient,
            hess=_hessian,
            method="trust-exact",
            options={"gtol": 1e-10},
        )
    # scipy stops on its own criteria (often "precision loss" on f ~ 10², gradients ~1e-8..1e-7);
    # the Newton step at its answer estimates its distance to the minimizer: require < 1e-7
    newton_step = np.linalg.solve(_hessian(res.x, Z, y, ridge), _gradient(res.x, Z, y, ridge))
    assert np.max(np.abs(newton_step)) < 1e-7, res.message
    return res.x


def _theta(fit, intercept):
    return np.append(fit.w, fit.b) if intercept else fit.w


def _problem(seed, R, n, n0, d, *, fractional=False):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((R, n, d))
    beta = rng.standard_normal((2, d))
    means = 1.0 / (1.0 + np.exp(-np.einsum("rnd,ad->rna", X, beta) - 0.3))
    Y = rng.random((R, n, 2)) if fractional else (rng.random((R, n, 2)) < means).astype(float)
    coins = rng.choice(np.array([-1, 1], dtype=np.int8), size=(R, n0))
    return X, Y, coins


# ----------------------------------------------------------------------------- the fit


@pytest.mark.parametrize("intercept", [True, False])
@pytest.mark.parametrize(
    "seed, m, d, fractional",
    [(0, 200, 2, False), (1, 60, 5, False), (2, 150, 3, True), (4, 12, 1, False)],
)
def test_fit_matches_scipy(intercept, seed, m, d, fractional):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((m, d)) * rng.uniform(0.5, 2.0, d)
    eta = X @ rng.standard_normal(d) + 0.5
    y = rng.random(m) if fractional else (rng.random(m) < 1 / (1 + np.exp(-eta))).astype(float)
    fit = fit_penalized_logistic(X, y, intercept=intercept, ridge=RIDGE)
    assert fit.converged and fit.iterations <= 20
    theta = _theta(fit, intercept)
    Z = _design(X, intercept)
    assert np.max(np.abs(_gradient(theta, Z, y, RIDGE))) <= 1e-8
    ref = _scipy_fit(X, y, intercept=intercept)
    np.testing.assert_allclose(theta, ref, rtol=0, atol=1e-6)
    assert _objective(theta, Z, y, RIDGE) <= _objective(ref, Z, y, RIDGE) + 1e-12


def test_fit_without_data_is_zero():
    fit = fit_penalized_logistic(np.empty((0, 3)), np.empty(0))
    assert fit.converged and fit.b == 0.0 and np.all(fit.w == 0.0)


def test_bandit_final_fits_match_scipy():
    """Each arm's final coefficients = scipy's fit of the data the bandit gave that arm."""
    X, Y, coins = _problem(11, R=2, n=300, n0=30, d=3)
    for intercept in (True, False):
        actions, info = greedy_logistic_actions(X, Y, coins, intercept=intercept)
        for r in range(2):
            for k, arm in enumerate((-1, 1)):
                sel = actions[r] == arm
                ref = _scipy_fit(X[r][sel], Y[r, sel, k], intercept=intercept)
                got = np.append(info["w"][r, k], info["b"][r, k]) if intercept else info["w"][r, k]
                np.testing.assert_allclose(got, ref, rtol=0, atol=1e-6)
        assert info["max_iter_hits"] == 0 and info["failures"] == 0


# ----------------------------------------------------------------------------- the actions


def _reference_actions(X, Y, coins, intercept):
    """Greedy Logistic re-derived: refit both arms from scratch with scipy every round."""
    R, n, d = X.shape
    n0 = coins.shape[1]
    out = np.empty((R, n), dtype=np.int8)
    margins = []
    for r in range(R):
        data = {0: [], 1: []}
        for t in range(n):
            if t < n0:
                a = int(coins[r, t])
            else:
                s = []
                for k in (0, 1):
                    idx = data[k]
                    if not idx:
                        s.append(0.0)
                        continue
                    th = _scipy_fit(
                        X[r, idx], Y[r, idx, k], intercept=intercept, method="trust-exact"
                    )
                    s.append(th[:d] @ X[r, t] + (th[d] if intercept else 0.0))
                margins.append(abs(s[1] - s[0]))
                a = 1 if s[1] >= s[0] else -1
            out[r, t] = a
            data[(a + 1) // 2].append(t)
    return out, np.array(margins)


@pytest.mark.parametrize("intercept", [True, False])
def test_actions_match_scipy_refits(intercept):
    X, Y, coins = _problem(5, R=2, n=60, n0=16, d=2)
    actions, info = greedy_logistic_actions(X, Y, coins, intercept=intercept)
    ref, margins = _reference_actions(X, Y, coins, intercept)
    assert margins.min() > 1e-6  # no near-tie in this problem: equality is the right check
    np.testing.assert_array_equal(actions, ref)
    assert actions.dtype == np.int8 and info["ties"] == 0 and info["max_iter_hits"] == 0


@pytest.mark.slow
def test_actions_match_scipy_refits_larger():
    X, Y, coins = _problem(6, R=2, n=250, n0=20, d=4, fractional=True)
    for intercept in (True, False):
        actions, _ = greedy_logistic_actions(X, Y, coins, intercept=intercept)
        ref, margins = _reference_actions(X, Y, coins, intercept)
        assert margins.min() > 1e-7
        np.testing.assert_array_equal(actions, ref)


# ----------------------------------------------------------------------------- separation, no data


def test_separable_fit_is_finite_and_converged():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((80, 2))
    y = (X[:, 0] + 0.3 * X[:, 1] > 0).astype(float)
    for intercept in (True, False):
        fit = fit_penalized_logistic(X, y, intercept=intercept)
        theta = _theta(fit, intercept)
        assert fit.converged and np.all(np.isfinite(theta))
        assert np.linalg.norm(theta) > 5  # the ridge is what keeps it finite
        grad = _gradient(theta, _design(X, intercept), y, RIDGE)
        assert np.max(np.abs(grad)) <= 1e-8
    # all responses equal: separable by the intercept alone
    fit = fit_penalized_logistic(X, np.ones(80))
    assert fit.converged and fit.b > 5 and np.all(np.isfinite(fit.w))


def test_separable_ill_conditioned_fit_stops_on_the_decrement():
    """Found by a stress run: 4 points, all y = 1, large contexts. At the minimizer the Hessian is
    ≈ ridge in one direction, so rounding alone keeps ‖Δ‖∞ ~ 3e-10 > tol forever; the Newton
    decrement test stops it (before it was added, this fit hit max_iter)."""
    X = np.array(
        [
            [-4.52288327, -14.30316538],
            [-2.21118071, -21.45312417],
            [-24.27691385, -21.05108179],
            [11.67689644, -16.2081918],
        ]
    )
    fit = fit_penalized_logistic(X, np.ones(4), max_iter=50)
    assert fit.converged and fit.iterations < 30
    theta = _theta(fit, True)
    np.testing.assert_allclose(theta, [-0.05988543, -1.13904412, 0.0772411], atol=1e-6)
    assert np.max(np.abs(_gradient(theta, _design(X, True), np.ones(4), RIDGE))) < 1e-12


def test_bandit_with_a_separable_arm():
    rng = np.random.default_rng(4)
    n, n0 = 120, 40
    X = rng.standard_normal((1, n, 2))
    Y = np.stack([rng.integers(0, 2, (1, n)), X[..., 0] > 0], axis=-1).astype(float)
    coins = np.where(np.arange(n0) % 2 == 0, 1, -1).astype(np.int8)[None]
    actions, info = greedy_logistic_actions(X, Y, coins)
    assert set(np.unique(actions)) <= {-1, 1}
    assert info["max_iter_hits"] == 0 and info["failures"] == 0
    assert np.all(np.isfinite(info["w"])) and np.all(np.isfinite(info["b"]))
    assert np.linalg.norm(info["w"][0, 1]) > 5  # arm +1 stays separable: large, finite


def test_arm_without_data_scores_zero():
    rng = np.random.default_rng(7)
    n, n0 = 60, 20
    X = rng.standard_normal((1, n, 2))
    # arm +1 always pays 1: with intercept its score is large and positive, so arm −1 is never
    # tried and keeps w = 0, b = 0
    Y = np.stack([np.zeros((1, n)), np.ones((1, n))], axis=-1)
    actions, info = greedy_logistic_actions(X, Y, np.ones((1, n0), dtype=np.int8))
    assert np.all(actions == 1)
    assert np.all(info["w"][0, 0] == 0) and info["b"][0, 0] == 0 and info["ties"] == 0
    # a non-trivial arm +1: at t = n0 the rule is "+1 iff score_+(x) >= 0 = score_-(x)"
    Y[..., 1] = rng.random((1, n)) < 1 / (1 + np.exp(-X[..., 1]))
    for intercept in (True, False):
        actions, _ = greedy_logistic_actions(
            X, Y, np.ones((1, n0), dtype=np.int8), intercept=intercept
        )
        fit = fit_penalized_logistic(X[0, :n0], Y[0, :n0, 1], intercept=intercept)
        score = fit.w @ X[0, n0] + fit.b
        assert actions[0, n0] == (1 if score >= 0 else -1)


def test_no_initialization_starts_with_a_tie():
    X, Y, _ = _problem(8, R=3, n=10, n0=0, d=2)
    actions, info = greedy_logistic_actions(X, Y, np.empty((3, 0), dtype=np.int8))
    assert np.all(actions[:, 0] == 1) and info["ties"] >= 3


def test_initialization_only():
    X, Y, coins = _problem(9, R=2, n=15, n0=15, d=2)
    actions, info = greedy_logistic_actions(X, Y, coins)
    np.testing.assert_array_equal(actions, coins)
    assert info["fits"] == 4 and np.all(np.isfinite(info["w"]))


# ----------------------------------------------------------------------------- determinism


def test_deterministic_and_chunking_invariant():
    X, Y, coins = _problem(10, R=4, n=200, n0=20, d=3)
    a1, i1 = greedy_logistic_actions(X, Y, coins)
    a2, i2 = greedy_logistic_actions(X.copy(), Y.copy(), coins.copy())
    np.testing.assert_array_equal(a1, a2)
    np.testing.assert_array_equal(i1["w"], i2["w"])  # bit-identical
    for r in range(4):
        ar, ir = greedy_logistic_actions(X[r : r + 1], Y[r : r + 1], coins[r : r + 1])
        np.testing.assert_array_equal(ar[0], a1[r])
        np.testing.assert_array_equal(ir["w"][0], i1["w"][r])
        np.testing.assert_array_equal(ir["per_replication"][0], i1["per_replication"][r])


@given(
    seed=st.integers(0, 2**32 - 1),
    R=st.integers(1, 3),
    n=st.integers(1, 40),
    frac=st.floats(0, 1),
    d=st.integers(1, 4),
    intercept=st.booleans(),
)
def test_initialization_rounds_follow_the_coins(seed, R, n, frac, d, intercept):
    n0 = int(round(frac * n))
    X, Y, coins = _problem(seed, R, n, n0, d, fractional=seed % 2 == 1)
    actions, info = greedy_logistic_actions(X, Y, coins, intercept=intercept)
    assert actions.shape == (R, n) and actions.dtype == np.int8
    np.testing.assert_array_equal(actions[:, :n0], coins)
    assert np.all(np.abs(actions) == 1)
    assert info["failures"] == 0 and info["max_iter_hits"] == 0


# ----------------------------------------------------------------------------- bad input


def _good():
    return _problem(12, R=2, n=10, n0=4, d=2)


def _bad_cases():
    X, Y, c = _good()
    nan_X = X.copy()
    nan_X[0, 0, 0] = np.nan
    inf_Y = Y.copy()
    inf_Y[1, 2, 1] = np.inf
    return {
        "X not 3-D": ((X[0], Y, c), {}, "X must have 3"),
        "X complex": ((X.astype(complex), Y, c), {}, "real numeric"),
        "X strings": ((X.astype(str), Y, c), {}, "real numeric"),
        "X nan": ((nan_X, Y, c), {}, "non-finite"),
        "Y inf": ((X, inf_Y, c), {}, "non-finite"),
        "Y shape": ((X, Y[..., :1], c), {}, "Y must have shape"),
        "Y above 1": ((X, Y + 0.5, c), {}, r"\[0, 1\]"),
        "Y negative": ((X, Y - 0.5, c), {}, r"\[0, 1\]"),
        "coins R": ((X, Y, c[:1]), {}, "replications"),
        "coins 1-D": ((X, Y, c[0]), {}, "coins must have 2"),
        "coins zero": ((X, Y, np.zeros_like(c)), {}, r"\{-1, \+1\}"),
        "coins two": ((X, Y, 2 * c), {}, r"\{-1, \+1\}"),
        "n0 > n": ((X, Y, np.ones((2, 11), dtype=np.int8)), {}, "exceed the horizon"),
        "d = 0": ((X[..., :0], Y, c), {}, "d >= 1"),
        "ridge 0": ((X, Y, c), {"ridge": 0.0}, "ridge"),
        "ridge nan": ((X, Y, c), {"ridge": np.nan}, "ridge"),
        "tol negative": ((X, Y, c), {"tol": -1e-9}, "tol"),
        "max_iter 0": ((X, Y, c), {"max_iter": 0}, "max_iter"),
        "max_iter float": ((X, Y, c), {"max_iter": 5.0}, "max_iter"),
        "intercept str": ((X, Y, c), {"intercept": "yes"}, "intercept"),
    }


@pytest.mark.parametrize("case", sorted(_bad_cases()))
def test_bad_input_raises(case):
    args, kwargs, match = _bad_cases()[case]
    with pytest.raises(NBLInputError, match=match):
        greedy_logistic_actions(*args, **kwargs)


def test_fit_bad_input_raises():
    X = np.zeros((5, 2))
    with pytest.raises(NBLInputError, match="rows"):
        fit_penalized_logistic(X, np.zeros(4))
    with pytest.raises(NBLInputError, match=r"\[0, 1\]"):
        fit_penalized_logistic(X, np.full(5, 2.0))
    with pytest.raises(NBLInputError, match="ridge"):
        fit_penalized_logistic(X, np.zeros(5), ridge=-1.0)
    # d = 0: no context column to fit (with or without the intercept)
    for intercept in (True, False):
        with pytest.raises(NBLInputError, match="at least one column"):
            fit_penalized_logistic(np.zeros((5, 0)), np.zeros(5), intercept=intercept)


# ------------------------------------------------- unrolled passes (p = 2, 3) = the general loop


@given(
    seed=st.integers(0, 2**32 - 1),
    m=st.integers(0, 300),
    p=st.sampled_from([2, 3]),
    scale=st.sampled_from([0.1, 1.0, 30.0, 800.0]),
    lam=st.sampled_from([0.0, 1e-6, 2.5]),
)
def test_unrolled_gradient_hessian_are_the_loop_bit_for_bit(seed, m, p, scale, lam):
    """_grad_hess (p = 2, 3: unrolled, sums in registers) returns exactly what the general
    loop _grad_hess_any returns: the same terms added in the same order. |η| up to ~10⁴
    (exp underflows), fractional responses, rows beyond m ignored."""
    from nbl_sim.engine.greedy_kernel import _grad_hess, _grad_hess_any

    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((m + 5, p))
    y = rng.random(m + 5)
    y[: m // 2] = np.round(y[: m // 2])
    theta = rng.standard_normal(p) * scale
    out = [(np.full(p, np.nan), np.full((p, p), np.nan)) for _ in range(2)]
    _grad_hess(Z, y, m, theta, lam, *out[0])
    _grad_hess_any(Z, y, m, theta, lam, *out[1])
    assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])


@pytest.mark.parametrize("d, intercept", [(2, True), (2, False), (1, True)])
def test_unrolled_passes_leave_the_actions_unchanged(d, intercept):
    """The greedy kernel with the unrolled passes equals the same kernel compiled with the
    general loop (the code before them): actions, coefficients and Newton statistics."""
    import types

    from numba import njit

    import nbl_sim.engine.greedy_kernel as gl

    ns = dict(vars(gl))
    ns["_grad_hess"] = gl._grad_hess_any
    ns["_newton"] = njit(types.FunctionType(gl._newton.py_func.__code__, ns, "_newton"))
    loop = njit(types.FunctionType(gl._greedy_kernel.py_func.__code__, ns, "_greedy_kernel"))
    rng = np.random.default_rng(7)
    X = rng.standard_normal((3, 400, d))
    Y = (rng.random((3, 400, 2)) < 1 / (1 + np.exp(-X[..., :1] * [-1.0, 1.0]))).astype(float)
    coins = np.where(rng.random((3, 40)) < 0.5, -1, 1).astype(np.int8)
    args = (X, Y, coins, intercept, RIDGE, 1e-10, 50)
    for a, b in zip(gl._greedy_kernel(*args), loop(*args)):
        assert np.array_equal(a, b)
