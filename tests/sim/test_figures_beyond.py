"""Data-level tests of the figures beyond the paper (no pixel comparisons)."""

import warnings

import matplotlib.pyplot as plt
import numpy as np

from nbl_sim.figures import global_field, rates


def test_global_field_zeros_and_drawing():
    data = global_field.compute(quick=True)
    z = data.table("zeros")
    for key in ("tt-stable", "tt-near-critical", "tt-unstable"):
        sel = z["link"] == key
        assert np.any(np.abs(z["alpha_deg"][sel]) < 1e-9)  # v* is always an equilibrium
        assert np.all(np.isfinite(data.table(key)["H"]))
    # stability of v* follows the sign of the d = 2 rate (unstable link: v* repels)
    at0 = {k: s for k, a, s in zip(z["link"], z["alpha_deg"], z["stability"]) if abs(a) < 1e-9}
    assert at0 == {"tt-stable": "attracting", "tt-near-critical": "attracting",
                   "tt-unstable": "repelling"}
    unstable_att = z["alpha_deg"][(z["link"] == "tt-unstable") & (z["stability"] == "attracting")]
    assert np.allclose(np.sort(np.abs(unstable_att)), [73.205631, 73.205631], atol=1e-4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plt.close(global_field.draw(data))


def test_rates_d2_rate_bounds_lambda_star():
    """λ* ≤ the d = 2 (θ-direction) rate, with equality exactly where m2 ≥ 0."""
    data = rates.compute(quick=True)
    for key in ("tt-stable", "tt-near-critical", "tt-unstable"):
        t = data.table(key)
        assert np.all(t["rate_d2"] >= t["lambda_star"] - 1e-15)
        assert np.allclose(t["rate_d3plus"], t["lambda_star"], atol=1e-15)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plt.close(rates.draw(data))
