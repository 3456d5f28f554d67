"""Tests of proofs_check.witnesses.initialization: the simulated randomized initialization and
its exact Stein moments."""

import math

import numpy as np
import pytest

from nbl_sim.engine.nbl_kernel import nbl_run
from nbl_theory.paper import paper_link
from proofs_check.witnesses import initialization as init

LOGISTIC = paper_link("logistic")


def test_f_moments_logistic_bernoulli():
    # E g(Z) = 1/2 (g(z) + g(-z) = 1) and E g''(Z) = 0 (g'' odd): exact by symmetry
    Ef, Ef2 = init.f_moments(LOGISTIC, "bernoulli", 0.5)
    assert Ef == pytest.approx(0.5, abs=1e-14)
    assert Ef2 == pytest.approx(0.0, abs=1e-14)
    # bounded: E[g^2] + b^2/3 and E[(g^2)''] = 2 E[g'^2 + g g'']
    Eb, Eb2 = init.f_moments(LOGISTIC, "bounded", 0.5)
    assert Eb > 0.25 + 0.25 / 3 and math.isfinite(Eb2)


def test_init_samples_match_the_nbl_initialization():
    """v_{n0} = W_bar/||W_bar|| equals the toolkit's NBL start (n = n0)."""
    s = init.init_setting(LOGISTIC, "logistic", "1", 3, (40,), 5, 77)
    env = s["env"]
    real = env.draw(77, range(5), 40, 40)
    tr = nbl_run(real.X, real.Y, real.coins, env.v_star)
    w = s["wbar"][40]
    np.testing.assert_allclose(tr.v_final, w / np.linalg.norm(w, axis=1, keepdims=True), atol=1e-12)
    v, e, ew = init.init_errors(s, 40)
    np.testing.assert_allclose(e, np.linalg.norm(v - env.v_star, axis=1), atol=0)


def test_init_covariance_from_stein_matches_monte_carlo():
    s = init.init_setting(LOGISTIC, "logistic", "1.8", 3, (1,), 40_000, 5)
    w = s["wbar"][1]
    cov = np.cov(w.T)
    assert np.abs(cov - s["sigma"]).max() < 0.03  # ~5 SE of a 40,000-sample covariance
    assert np.abs(w.mean(0) - s["y"]).max() < 0.02  # ~5 SE of the mean
    assert s["ew2_exact"] == pytest.approx(np.trace(s["sigma"]), rel=1e-12)


def test_implied_constants_and_their_summaries():
    grid = init.InitGrid(
        links=(("logistic", LOGISTIC),), deltas=("1",), dims=(2,), n0s=(50, 200), reps=400, seed=3
    )
    rows = init.implied_constants(grid, (0.2,))
    assert len(rows) == 2 and {r["label"] for r in rows} == {"logistic bernoulli Delta=1 d=2"}
    for r in rows:
        assert r["C"] <= r["C_hi"] and r["C4"] <= r["C4_hi"]
        assert r["C_inf"] > 0 and r["C4_inf"] > 0
    groups = init.group_rows(rows)
    assert list(groups) == [("logistic bernoulli Delta=1 d=2", 0.2)]
    exponents = init.fitted_exponents(rows, "qw")
    lo, hi = (float(x) for x in exponents.strip("[]").split(","))
    assert lo == hi and -0.8 < lo < -0.2  # the mean of n0 samples: ~n0^-1/2


def test_fitted_exponents_of_an_exact_power_law():
    rows = [
        dict(label="x", delta=0.1, n0=n0, q=2.0 * n0**-0.5, qw=1.0, C=1.0, C_inf=1.0)
        for n0 in (50, 200, 800)
    ]
    assert init.fitted_exponents(rows, "q") == "[-0.50, -0.50]"
    assert init.shallow_ratio(rows) == 0.0  # -0.5 is steeper than -0.45
    flat = [dict(r, q=1.0, C=2.0) for r in rows]
    assert init.shallow_ratio(flat) == 2.0


def test_a_setting_from_its_cell_is_the_setting_drawn_here():
    """init_cell (what the claim runner's workers compute) + load_init_cells give init_setting's
    result bit for bit; grid_cells needs paper-link keys."""
    grid = init.InitGrid(
        links=(("logistic", "logistic"),),
        deltas=("1",),
        dims=(2, 3),
        n0s=(20, 60),
        reps=30,
        seed=41,
        bounded=(("tt", "tt-stable", "1"),),
    )
    cells = init.grid_cells(grid)
    assert len(cells) == 4 and cells[-1].reward == "bounded" and cells[-1].seed == 42
    results = [init.init_cell(c) for c in cells]
    drawn = list(init.init_settings(grid))  # drawn here (and kept)
    for c, res, s in zip(cells, results, drawn):
        for n0 in c.n0s:
            assert np.array_equal(res["wbar"][n0], s["wbar"][n0])
    other = init.InitGrid(
        links=(("logistic", "logistic"),), deltas=("1",), dims=(2,), n0s=(20, 60), reps=30, seed=43
    )
    (c,) = init.grid_cells(other)
    res = init.init_cell(c)
    res["wbar"][20] = res["wbar"][20] + 1.0  # a marked result: loading must use it
    init.load_init_cells([c], [res])
    (s,) = init.init_settings(other)
    assert np.array_equal(s["wbar"][20], res["wbar"][20]) and s["label"].endswith("d=2")
    with pytest.raises(TypeError, match="paper_link keys"):
        init.grid_cells(
            init.InitGrid(
                links=(("logistic", LOGISTIC),), deltas=("1",), dims=(2,), n0s=(20,), reps=3, seed=1
            )
        )


def test_a_wrongly_drawn_realization_is_a_toolkit_fail(monkeypatch):
    """The initialization draws are shared by library and witness, so a bug in drawing them
    (planted: the arms' recorded means swapped, the libmutation blame of
    nbl_sim/engine/environment_passes.py:63) moves every statistic alike; the claims' gate compares
    the recorded means with g(β_aᵀX_t) recomputed and reads FAIL "toolkit defect"."""
    from nbl_sim.engine.environment import Environment
    from proofs_check.claims.stein import initialization as ci
    from proofs_check.registry import FAIL, PASS, Outcome

    grid = init.InitGrid(
        links=(("logistic", LOGISTIC),), deltas=("1",), dims=(2,), n0s=(20,), reps=30, seed=11
    )
    ok = Outcome(PASS, "stand-in verdict", "")
    monkeypatch.setattr(init, "_SETTINGS", {})
    assert init.init_setting(LOGISTIC, "logistic", "1", 2, (20,), 30, 11)["means_error"] < 1e-12
    assert ci._drawn_right(grid, ok) is ok
    draw = Environment.draw

    def swapped(self, *a, **k):
        real = draw(self, *a, **k)
        real.means[...] = real.means[..., ::-1].copy()
        return real

    monkeypatch.setattr(Environment, "draw", swapped)
    monkeypatch.setattr(init, "_SETTINGS", {})
    out = ci._drawn_right(grid, ok)
    assert out.status == FAIL and out.detail.startswith("toolkit defect"), out.detail[:200]


def test_stein_contrast_resolves_the_factor_one_half():
    # logistic, Delta = 1, d = 2: E[W_t] = (Delta mu_g/2) v* (eq:Wt-conditional-mean-proof), so
    # the printed target is within a few SE and the target without the 1/2 (a mutant) is not
    link = LOGISTIC
    s = init.init_setting(link, "logistic", "1", 2, (1,), 2, 3)
    env = s["env"]
    real = env.draw(11, [0], 20_000, 20_000)
    z, se = init.stein_contrast(env, real, s["mu"])
    assert z < 5 and 0 < se < 0.01
    assert init.stein_contrast(env, real, s["mu"], coef=1.0)[0] > 10


def test_mse_tails_and_chain_on_a_small_setting():
    s = init.init_setting(LOGISTIC, "logistic", "1.8", 3, (200,), 2000, 5)
    st = init.mse_statistics(s, 200)
    # the exact E||W_bar - y||^2 from eq:stein_second within 5 SE of the simulation
    assert st["z"] < 5 and st["exact"] == pytest.approx(s["ew2_exact"] / 200)
    _, e, _ = init.init_errors(s, 200)
    assert st["m"] == pytest.approx(float(np.mean(e**2)), rel=1e-14)
    us = init.tail_directions(s["env"])
    assert set(us) == {"v*", "theta", "random"}
    for u in us.values():
        assert np.linalg.norm(u) == pytest.approx(1, abs=1e-14)
    tails = init.fixed_direction_tails(s, 200, us, (1.0, 3.0), 0.5)
    assert len(tails["cases"]) == 6 and len(tails["sd"]) == len(tails["exact"]) == 3
    for pu, bound, c0 in tails["cases"]:
        assert 0 < pu <= 1 and bound <= 2 and (c0 is None) == (pu >= 1)
    # the simulated sd of u^T(W_bar - y) within 10% of the exact sigma_u
    np.testing.assert_allclose(tails["sd"], tails["exact"], rtol=0.1)
    # the perturbation chain holds with factor 2; a factor 0.5 (planted) breaks it
    bad, size = init.chain_violations(s, 200)
    assert bad == 0 and size == 2000
    assert init.chain_violations(s, 200, factor=0.5)[0] > 0
