"""Robustness grids (nbl_sim.beyond.robustness) and the analyses behind them in d ≥ 3."""

import json
import math

import numpy as np
import pytest

from nbl_sim.beyond.analysis import field_model, flow_to_equilibrium, jacobian_spectrum
from nbl_sim.beyond.arms import symmetric_arms
from nbl_sim.beyond.case import analyze
from nbl_sim.beyond.contexts import GaussianLaw, parse_context_spec
from nbl_sim.beyond.equilibrium import equilibrium_defect
from nbl_sim.beyond.robustness import (
    DEPARTURES,
    RobustnessCell,
    default_grid,
    departure_grid,
    mispredictions,
    run_cell,
)
from nbl_sim.runs.execution import make_executor
from nbl_sim.runs.sweep import canonical, run_sweep
from nbl_theory.errors import NBLInputError
from nbl_theory.paper import paper_link
from nbl_theory.stability import stability


def test_grid_shape():
    grid = default_grid()
    assert len(grid) == 6 * 2 * sum(len(departure_grid(d, "tt-stable", "1")) for d in DEPARTURES)
    assert {c.departure for c in grid} == set(DEPARTURES)
    json.dumps(canonical(grid[0]))  # usable as a sweep cache key
    with pytest.raises(NBLInputError):
        departure_grid("volcano", "tt-stable", "1")
    with pytest.raises(NBLInputError):
        departure_grid("shift", "logistic", "1")
    with pytest.raises(NBLInputError):
        run_cell("not a cell")


def test_cells_run_on_an_executor_like_directly():
    cells = [
        RobustnessCell("tt-unstable", "0.2", "cube", departure="shape"),
        RobustnessCell(
            "tt-stable", "1", "gaussian:cond=3,angle=30", departure="covariance", n_grid=360
        ),
    ]
    res = run_sweep(run_cell, cells, executor=make_executor(workers=1))
    assert res.ok
    for cell, row in zip(cells, res.results):
        direct = run_cell(cell)
        for k, v in row.items():
            if k != "seconds":
                assert direct[k] == v, k
        json.dumps(row)  # plain data


def test_mispredictions_on_real_cells():
    """tt-unstable at Δ = 0.2 (λ* < 0) on the uniform square: v* is an equilibrium and
    *attracts* — a sign flip. N(0, Σ) with cond 3 at 30° from v*: v* is not an equilibrium and
    NBL learns a boundary ~30° off."""
    flip = run_cell(RobustnessCell("tt-unstable", "0.2", "cube", departure="shape"))
    assert flip["lambda_star"] < 0 and flip["vstar_equilibrium"]
    assert flip["vstar_stability"] == "attracting" and flip["vstar_decided"]
    assert flip["vstar_rate"] > 1e3 * flip["vstar_rate_error"]
    biased = run_cell(
        RobustnessCell(
            "tt-unstable", "0.2", "gaussian:cond=3,angle=30", departure="covariance", n_grid=360
        )
    )
    assert not biased["vstar_equilibrium"] and abs(biased["learned_angle_deg"]) > 10
    assert biased["learned_regret"] > 100 * biased["learned_regret_error"]
    same = run_cell(RobustnessCell("tt-stable", "1", "ball", departure="shape", n_grid=360))
    got = {r["law"]: r["reason"] for r in mispredictions([flip, biased, same, None])}
    assert got == {"cube": "sign-flip", "gaussian:cond=3,angle=30": "biased-equilibrium"}
    small = dict(biased, learned_angle_deg=0.5)
    assert mispredictions([small], bias_threshold_deg=1.0) == []


def test_gaussian_d3_flow_to_the_biased_equilibrium():
    """d = 3, Σ with v* not an eigenvector: the flow from v* converges (‖h‖ ≤ 1e-10) to an
    attracting equilibrium (both tangent eigenvalues < 0) off v*."""
    sigma = np.array([[1.0, 0.4, 0.0], [0.4, 1.5, 0.2], [0.0, 0.2, 0.5]])
    link = paper_link("tt-stable")
    arms = symmetric_arms(link, "1", d=3)
    law = GaussianLaw(3, sigma)
    model = field_model(law, arms)
    assert model.method == "gaussian-1d-reduction"
    _, holds = equilibrium_defect(model, arms.v_star)
    assert not holds
    v = flow_to_equilibrium(model, arms.v_star)
    f = model.field(v[None]).value[0]
    assert np.linalg.norm(f - (v @ f) * v) <= 1e-10
    eig, err = jacobian_spectrum(model, v)
    assert np.all(eig < -10 * err)
    assert math.degrees(math.acos(v @ arms.v_star)) > 1
    a = analyze(law, arms)
    np.testing.assert_allclose(a.learned.direction, v, atol=1e-8)


def test_gaussian_d3_eigenvector_keeps_vstar():
    sigma = np.diag([2.0, 0.7, 0.3])
    arms = symmetric_arms(paper_link("tt-unstable"), "1", d=3)
    a = analyze(GaussianLaw(3, sigma), arms)
    assert a.vstar_equilibrium and a.defect <= 1e-13 and a.learned is not None


def test_monte_carlo_rate_matches_the_exact_gaussian_rate():
    """The kernel-smoothed Monte Carlo model (the method used for datasets and d ≥ 3 laws)
    on 4·10⁵ Gaussian draws recovers the exact d = 2 rate at v* (theory core): within 5
    standard errors plus the smoothing bias, bounded by b² times the rate's scale |B| + |κ|
    (a second-order kernel has bias (b²/2)·∂²; the factor 1 over ½ is a margin)."""
    link = paper_link("tt-stable")
    arms = symmetric_arms(link, "1")
    law = GaussianLaw(2)
    model = field_model(law, arms, method="monte-carlo", mc_samples=400_000, seed=3)
    eig, err = jacobian_spectrum(model, arms.v_star)
    exact = float(stability(link, "1", auto_raise=False).jacobian_rates["contraction_rate_d2"])
    b = model.bandwidth
    scale = np.abs(model.boundary(arms.v_star[None]).value[0]).max() + 1.0
    assert abs(-eig[0] - exact) <= 5 * err + b * b * scale


def test_monte_carlo_d3_symmetric_law_keeps_vstar_within_error():
    arms = symmetric_arms(paper_link("tt-stable"), "1", d=3)
    law = parse_context_spec("ball", 3)
    model = field_model(law, arms, mc_samples=200_000, seed=5)
    assert model.error_kind == "standard-error"
    _, holds = equilibrium_defect(model, arms.v_star)
    assert holds


def test_field_model_refuses_bad_input():
    from nbl_theory.families import make_family

    arms = symmetric_arms(paper_link("tt-stable"), "1")
    law = GaussianLaw(2)
    for kw in ({"method": "magic"}, {"seed": -1}, {"mc_samples": 5}, {"empirical": "both"}):
        with pytest.raises(NBLInputError):
            field_model(law, arms, **kw)
    with pytest.raises(NBLInputError, match="d = 3"):
        field_model(GaussianLaw(3), arms)
    with pytest.raises(NBLInputError, match="density"):
        field_model(
            parse_context_spec("ball", 3),
            symmetric_arms(paper_link("tt-stable"), "1", d=3),
            method="polar",
        )
    # heavy tails need E|X||g(βᵀX)| < ∞: an exponential link is refused, the identity link
    # (|g| ~ |z|) needs ν > 2
    t3 = parse_context_spec("student-t:nu=3")
    with pytest.raises(NBLInputError, match="grows"):
        field_model(t3, symmetric_arms(make_family("exp"), "1"))
    field_model(t3, symmetric_arms(make_family("identity"), "1"))
