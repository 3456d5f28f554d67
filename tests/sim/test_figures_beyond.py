"""Data-level tests of the figures beyond the paper (no pixel comparisons)."""

import io
import warnings

import numpy as np
import pytest

from nbl_sim.presentation.figures import global_field, rates


def test_global_field_zeros_and_drawing():
    data = global_field.compute(quick=True)
    z = data.table("zeros")
    for key in ("tt-stable", "tt-near-critical", "tt-unstable"):
        sel = z["link"] == key
        assert np.any(np.abs(z["alpha_deg"][sel]) < 1e-9)  # v* is always an equilibrium
        assert np.all(np.isfinite(data.table(key)["H"]))
    # stability of v* follows the sign of the d = 2 rate (unstable link: v* repels)
    at0 = {k: s for k, a, s in zip(z["link"], z["alpha_deg"], z["stability"]) if abs(a) < 1e-9}
    assert at0 == {
        "tt-stable": "attracting",
        "tt-near-critical": "attracting",
        "tt-unstable": "repelling",
    }
    unstable_att = z["alpha_deg"][(z["link"] == "tt-unstable") & (z["stability"] == "attracting")]
    # reference: nbl_sim.population.fields.circle_equilibria (brentq, xtol 1e-13) at n_grid = 3600,
    # printed to 6 decimals; the quick figure refines with the same brentq, so only the
    # 6-decimal rounding (5e-7) separates them — 1e-4 deg is a generous, not a needed, margin
    assert np.allclose(np.sort(np.abs(unstable_att)), [73.205631, 73.205631], atol=1e-4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        global_field.draw(data).savefig(io.BytesIO(), format="png")


def test_rates_d2_rate_bounds_lambda_star():
    """λ* ≤ the d = 2 (θ-direction) rate, with equality exactly where m2 ≥ 0."""
    data = rates.compute(quick=True)
    for key in ("tt-stable", "tt-near-critical", "tt-unstable"):
        t = data.table(key)
        assert np.all(t["rate_d2"] >= t["lambda_star"] - 1e-15)
        assert np.allclose(t["rate_d3plus"], t["lambda_star"], atol=1e-15)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rates.draw(data).savefig(io.BytesIO(), format="png")


def test_phase_boundary_by_continuation_passes_through_the_critical_points(quick_figure):
    """The continued λ* = 0 curve: every point has |λ*| ≤ 1e-11 and it crosses Δ = 0.2 at the
    threshold solver's critical mu2 (0.5768002067 and 2.1432835032, certified; reference
    values from nbl_theory.threshold.find_thresholds at Δ = 0.2)."""
    from nbl_sim.presentation.figures import tanh_phase

    data = quick_figure(tanh_phase)  # shared with test_figures_theory
    c = data.table("boundary_continuation")
    assert np.max(np.abs(c["lambda_star"])) <= 1e-11
    crossings = []
    for i in range(c["delta"].size - 1):
        d0, d1 = c["delta"][i] - 0.2, c["delta"][i + 1] - 0.2
        if d0 == 0:
            crossings.append(c["mu2"][i])
        elif d0 * d1 < 0:
            w = d0 / (d0 - d1)
            crossings.append(c["mu2"][i] + w * (c["mu2"][i + 1] - c["mu2"][i]))
    crossings = sorted(set(np.round(crossings, 9)))
    assert len(crossings) == 2
    assert crossings[0] == pytest.approx(0.5768002067, abs=1e-8)  # the start point, corrected
    assert crossings[1] == pytest.approx(2.1432835032, abs=2e-3)  # linear interpolation
    assert 0.51 < c["delta"].max() < 0.53  # the fold above the certified 0.5104 of mu2 = 1.244
