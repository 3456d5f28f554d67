"""Data-level tests of the two figures beyond the paper (robustness grid, bias angle): what
they plot is what the exact analysis says; no pixel comparisons."""

import io
import math
import warnings

import numpy as np
import pytest

from nbl_sim.presentation.figures import bias_angle, load_figures, robustness


def test_figures_are_registered():
    reg = load_figures()
    assert reg["robustness-grid"] is robustness and reg["bias-angle"] is bias_angle


def test_robustness_verdicts_follow_the_signs(quick_figure):
    """Every 'agrees' / 'sign-flip' cell compares the sign of λ* with the sign of the exact
    rate at v*; 'biased' cells have no exact rate at v* (not an equilibrium) and a learned
    boundary more than 1° away."""
    grid = quick_figure(robustness)
    t = grid.table("cells")
    assert t["verdict"].size == 3 * 2 * 13
    for i, v in enumerate(t["verdict"]):
        if v in ("agrees", "sign-flip"):
            same = (t["lambda_star"][i] > 0) == (t["exact_rate"][i] > 0)
            assert same == (v == "agrees"), i
        elif v == "biased":
            assert math.isnan(t["exact_rate"][i]) and abs(t["learned_angle_deg"][i]) > 1
    # the anisotropic-covariance flip of the simulations (tests/sim/beyond/
    # test_simulation_confirms.py): tt-stable, Δ = 1, major axis along θ, rate −0.514660
    # (nbl_sim.beyond.analyze; agrees with the direct-quadrature witness to 3e-11)
    sel = (t["link"] == "tt-stable") & (t["delta"] == "1") & (t["strength"] == "cond=3,angle=90")
    (i,) = np.flatnonzero(sel)
    assert t["verdict"][i] == "sign-flip"
    assert t["exact_rate"][i] == pytest.approx(-0.514660, abs=1e-6)
    # asymmetric arms and intercepts always move the equilibrium off v*
    assert set(t["verdict"][np.isin(t["departure"], ("shift", "intercept"))]) == {"biased"}
    assert "sign-flip" in grid.summary


def test_bias_angle_starts_at_the_papers_model(quick_figure):
    """Strength 0 (cond 1, shift 0, intercept 0) is the paper's model: bias 0 and regret 0
    (to the quadrature error, 1e-12); at intercept 0.5 the learned boundary is −10.653129°
    (the analysis at n_grid 720, tests/sim/beyond/test_simulation_confirms.py; the brentq root
    does not depend on the grid) and pays more than the best linear boundary."""
    bias = quick_figure(bias_angle)
    for name in bias.tables:
        t = bias.table(name)
        assert t["strength"][0] in (0.0, 1.0)
        assert abs(t["bias_deg"][0]) <= 1e-9 and abs(t["regret"][0]) <= 1e-12, name
        assert np.all(t["regret"] >= t["best_linear_regret"] - 1e-12), name
    t = bias.table("intercept_tt-stable")
    assert t["bias_deg"][-1] == pytest.approx(-10.653129, abs=1e-6)
    assert t["regret"][-1] > t["best_linear_regret"][-1] > 0
    assert np.all(np.diff(np.abs(bias.table("shift_tt-stable")["bias_deg"])) > 0)


def test_figures_draw_without_warnings(quick_figure):
    datas = [(mod, quick_figure(mod)) for mod in (robustness, bias_angle)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for mod, data in datas:
            mod.draw(data).savefig(io.BytesIO(), format="png")
