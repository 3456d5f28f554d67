"""Data-level tests of the simulation figures (fig:numerical-summary, fig:app-stochastic-angle).

Each figure's ``compute(quick=True)`` runs once per module (fixtures); the tests check the numbers
the figures plot, not pixels. Monte Carlo statements are made at the final round with their
standard errors (seeded, so deterministic; margins of 2 SE of the difference, treating the runs
as independent, which is conservative for the positively correlated common-seed runs).
"""

import io

import numpy as np
import pytest

from nbl_sim.presentation.figures import load_figures
from nbl_sim.presentation.figures import numerical_summary as ns
from nbl_sim.presentation.figures import stochastic_angle as sa
from nbl_sim.presentation.figures.base import FigureData


@pytest.fixture(scope="module")
def angle_data():
    return sa.compute(quick=True)


@pytest.fixture(scope="module")
def summary_data():
    return ns.compute(quick=True)


def _final(tb, mean, se):
    return float(tb[mean][-1]), float(tb[se][-1])


def _ordered(lo, hi, k=2.0):
    """lo = (mean, se) is below hi by more than k SE of the difference."""
    return hi[0] - lo[0] > k * np.hypot(lo[1], hi[1])


# ---------------------------------------------------------------------- registry / metadata
def test_modules_registered_with_metadata():
    figs = load_figures()
    assert figs["stochastic-angle"] is sa and figs["numerical-summary"] is ns
    assert sa.LABEL == "fig:app-stochastic-angle" and ns.LABEL == "fig:numerical-summary"
    for mod in (sa, ns):
        assert mod.TITLE and mod.CAPTION


# ---------------------------------------------------------------------- stochastic angle
def test_angle_tables_finite(angle_data):
    assert isinstance(angle_data, FigureData)
    assert set(angle_data.tables) == {
        "a_tt-stable",
        "a_tt-near-critical",
        "a_tt-unstable",
        "b_delta_0.2",
        "b_delta_1.0",
        "b_delta_1.8",
    }
    for name in angle_data.tables:
        tb = angle_data.table(name)
        for col, v in tb.items():
            assert v.ndim == 1 and np.all(np.isfinite(v)), (name, col)
        assert tb["round"][0] == 0 and tb["round"][-1] == sa.N
        assert tb["angle_mean_deg"][0] == pytest.approx(sa.INIT_ANGLE, abs=1e-9)
        assert np.all(tb["angle_lo_deg"] <= tb["angle_hi_deg"])


def test_angle_panel_a_ordering(angle_data):
    """Final mean signed angle: stable < near-critical < unstable (2-SE margins)."""
    st, nc, un = (
        _final(angle_data.table(f"a_{k}"), "angle_mean_deg", "angle_se_deg")
        for k in ("tt-stable", "tt-near-critical", "tt-unstable")
    )
    assert _ordered(st, nc) and _ordered(nc, un)
    # attracted to v* (stable), moved away from it (unstable)
    assert abs(st[0]) < 2 * st[1] + 1.0
    assert un[0] - 2 * un[1] > sa.INIT_ANGLE


def test_angle_panel_b_recovery_grows_with_separation(angle_data):
    d02, d10, d18 = (
        _final(angle_data.table(f"b_delta_{d}"), "angle_mean_deg", "angle_se_deg")
        for d in ("0.2", "1.0", "1.8")
    )
    assert _ordered(d18, d10) and _ordered(d10, d02)
    assert d10[0] + 2 * d10[1] < sa.INIT_ANGLE


def test_angle_linear_prediction(angle_data):
    runs = angle_data.settings["runs"]
    # the exact rates: κ > 0 stable, ≈ 0 near-critical, < 0 unstable at Δ = 0.2; κ grows with Δ
    assert runs["a_tt-stable"]["kappa_theta"] > 0.05
    assert abs(runs["a_tt-near-critical"]["kappa_theta"]) < 1e-3
    assert runs["a_tt-unstable"]["kappa_theta"] < -0.01
    kb = [runs[f"b_delta_{d}"]["kappa_theta"] for d in ("0.2", "1.0", "1.8")]
    assert kb[0] < 0 < kb[1] < kb[2]
    for name, meta in runs.items():
        tb = angle_data.table(name)
        prod, power = tb["linear_product_deg"], tb["linear_power_deg"]
        # product and power law agree to a few percent of α_0 over the whole horizon
        assert np.max(np.abs(prod - power)) < 0.05 * sa.INIT_ANGLE, name
        steps = np.diff(prod)
        if meta["kappa_theta"] > 0:
            assert np.all(steps <= 0), name
            # contracting runs: the Monte Carlo mean ends within 3 SE (+0.5°) of the prediction
            m, se = _final(tb, "angle_mean_deg", "angle_se_deg")
            assert abs(m - prod[-1]) < 3 * se + 0.5, name
        else:
            assert np.all(steps >= 0), name


# ---------------------------------------------------------------------- numerical summary
def test_summary_tables_finite(summary_data):
    expected = {
        "a_links",
        "b_curvature",
        "c_lambda_star",
        "d_avg_regret",
        "e_we_links",
        "f_we_lambda_star",
        "g_compare_we",
        "h_compare_tt",
    }
    assert set(summary_data.tables) == expected
    for name in expected:
        for col, v in summary_data.table(name).items():
            assert v.ndim == 1 and np.all(np.isfinite(v)), (name, col)
    assert summary_data.settings["panels_g_h"]["reps"] == ns.REPS_QUICK


def test_links_increasing(summary_data):
    a, e = summary_data.table("a_links"), summary_data.table("e_we_links")
    for k in ns.TT_LINKS:
        assert np.all(np.diff(a[k]) > 0)
    for r in ns.RHOS:
        g = e[f"we-{r}"]
        assert np.all(np.diff(g) > 0) and np.all((g > 0) & (g < 1))
        assert g[len(g) // 2] == pytest.approx(0.5, abs=1e-9)  # g_ρ(0) = 1/2


def test_lambda_star_crossings(summary_data):
    c = summary_data.table("c_lambda_star")
    at = {float(x): i for i, x in enumerate(np.round(c["delta"], 2))}
    i02, i1 = at[0.2], at[1.0]
    # eq:decision_stability: unstable link negative at Δ = 0.2, positive at Δ = 1; stable link
    # positive at 0.2; all three positive at Δ = 1 (app:logistic-comparison)
    assert c["tt-unstable"][i02] < 0 < c["tt-unstable"][i1]
    assert c["tt-stable"][i02] > 0
    for k in ns.TT_LINKS:
        assert c[k][i1] > 0
    cross = summary_data.settings["panel_c_zero_crossings"]
    assert cross["tt-stable"] == []
    assert len(cross["tt-near-critical"]) == 1 and abs(cross["tt-near-critical"][0] - 0.2) < 0.01
    assert len(cross["tt-unstable"]) == 1 and 0.2 < cross["tt-unstable"][0] < 1.0
    lam = summary_data.settings["lambda_star_at_delta_0.2"]
    assert lam["tt-stable"] > 0 > lam["tt-unstable"] and abs(lam["tt-near-critical"]) < 1e-3


def test_weighted_entropy_lambda_ordering(summary_data):
    f = summary_data.table("f_we_lambda_star")
    curves = np.array([f[f"we-{r}"] for r in ns.RHOS])
    assert np.all(curves[0] > 0)  # logistic: stable at every separation
    assert np.all(np.diff(curves, axis=0) < 0)  # departures from logistic lower λ*
    assert curves[-1][0] < 0  # ρ = 0.8 unstable under the weakest separation


def test_avg_regret_ordering(summary_data):
    d = summary_data.table("d_avg_regret")
    st, nc, un = (
        _final(d, f"{k}_mean", f"{k}_se") for k in ("tt-stable", "tt-near-critical", "tt-unstable")
    )
    assert _ordered(st, nc) and _ordered(nc, un)
    # stable: R_t/t decreases over the run
    assert d["tt-stable_mean"][-1] < 0.5 * np.max(d["tt-stable_mean"])


def test_comparison_tables_consistent(summary_data):
    for name in ("g_compare_we", "h_compare_tt"):
        tb = summary_data.table(name)
        assert np.all(tb["nbl_mean"] > 0) and np.all(tb["greedy_logistic_mean"] > 0)
        assert np.all(tb["nbl_se"] > 0) and np.all(tb["diff_se"] > 0)
        # the paired difference's mean is the difference of the means (same replications)
        np.testing.assert_allclose(
            tb["diff_mean"], tb["nbl_mean"] - tb["greedy_logistic_mean"], rtol=0, atol=1e-9
        )


# ---------------------------------------------------------------------- drawing
@pytest.mark.parametrize("which", ["angle", "summary"])
def test_draw_runs_without_warnings(which, angle_data, summary_data):
    mod, data = (sa, angle_data) if which == "angle" else (ns, summary_data)
    fig = mod.draw(data)
    fig.savefig(io.BytesIO(), format="png")  # full layout + render under filterwarnings = error
    n_axes = 2 if which == "angle" else 8
    assert len(fig.axes) == n_axes
    for ax in fig.axes:
        assert ax.get_xlabel() and ax.get_ylabel()
