"""Data-level tests of the theory figures (elicitation geometry, stability components, tanh phase
diagram, changing separation): finite tables, the certified thresholds where the paper puts
them, and draw() without warnings."""

import io
import json

import numpy as np
import pytest

from nbl_sim.presentation.figures import (
    changing_separation,
    elicitation_geometry,
    load_figures,
    stability_components,
    tanh_phase,
)

MODULES = (elicitation_geometry, stability_components, tanh_phase, changing_separation)
RHO_CRIT = 0.7206695162
MU2_CRIT = (0.5768002067, 2.1432835032)


class _Lazy(dict):
    """Figure id → its quick data, computed at the first test that reads it (a test moved to
    the slow tier then takes its figure's cost with it)."""

    def __init__(self, get):
        super().__init__()
        self._get = get

    def __missing__(self, key):
        self[key] = self._get(next(m for m in MODULES if m.ID == key))
        return self[key]


@pytest.fixture(scope="module")
def quick_data(quick_figure):
    return _Lazy(quick_figure)


def test_modules_registered():
    figs = load_figures()
    for mod in MODULES:
        assert figs[mod.ID] is mod
        assert mod.LABEL.startswith("fig:") and mod.CAPTION and mod.TITLE


@pytest.mark.parametrize("mod", MODULES, ids=lambda m: m.ID)
def test_quick_tables_finite(mod, quick_data):
    data = quick_data[mod.ID]
    assert data.tables and data.summary
    json.dumps(data.settings)
    for name in data.tables:
        cols = data.table(name)
        lengths = {len(v) for v in cols.values()}
        assert len(lengths) == 1, f"{name}: columns of different lengths"
        for col, v in cols.items():
            assert v.ndim == 1, f"{name}.{col} is not 1-D"
            if v.dtype.kind in "fiu":
                assert np.all(np.isfinite(v)), f"{name}.{col} has non-finite values"


def test_elicitation_dual_maps_share_origin(quick_data):
    data = quick_data[elicitation_geometry.ID]
    for rho in elicitation_geometry.RHOS:
        t = data.table(f"we-{rho}")
        assert np.all(np.diff(t["dual_z"]) > 0)  # strictly convex potential
        assert np.interp(0.5, t["m"], t["dual_z"]) == pytest.approx(0.0, abs=1e-3)


def test_stability_components_cross_at_certified_rho(quick_data):
    data = quick_data[stability_components.ID]
    th = data.table("threshold")
    assert len(th["rho"]) == 1
    assert th["rho"][0] == pytest.approx(RHO_CRIT, abs=1e-6)
    assert th["certified"][0]
    assert th["bracket_lo"][0] <= RHO_CRIT + 1e-10 and RHO_CRIT - 1e-10 <= th["bracket_hi"][0]
    # the plotted curves themselves cross there (grid interpolation)
    (gc,) = data.settings["grid_crossings"]
    spacing = np.diff(data.table("components")["rho"])[0]
    assert abs(gc - RHO_CRIT) < spacing
    # the paper's stable / near-critical / unstable ordering at rho = 0.60, 0.72, 0.80
    lam = data.table("marked_links")["lambda_star"]
    assert lam[0] > 0 and lam[1] > 0 and lam[2] < 0


def test_tanh_boundary_through_critical_mu2(quick_data):
    data = quick_data[tanh_phase.ID]
    ex = data.table("boundary_exact")
    at_ref = np.sort(ex["mu2"][(ex["delta"] == 0.2) & (ex["solved_for"] == "mu2")])
    assert at_ref == pytest.approx(MU2_CRIT, abs=1e-9)
    assert np.all(ex["certified"])
    mu2_spacing = np.diff(np.unique(data.table("grid")["mu2"]))[0]
    grid_cross = data.settings["grid_crossings_at_reference_delta"]
    assert len(grid_cross) == 2
    assert np.all(np.abs(np.asarray(grid_cross) - MU2_CRIT) < mu2_spacing)
    rep = data.table("representative")
    lam = dict(zip(rep["key"], rep["lambda_star"]))
    assert lam["tt-stable"] > 0 and lam["tt-near-critical"] > 0 and lam["tt-unstable"] < 0


def test_changing_separation_common_rescaling(quick_data):
    data = quick_data[changing_separation.ID]
    ratios = {
        d: data.table(f"density_delta_{d}")["scaled_for_g1"].max()
        / data.table(f"density_delta_{d}")["density"].max()
        for d in changing_separation.DELTAS
    }
    assert np.allclose(list(ratios.values()), next(iter(ratios.values())))
    lam = data.table("population")["lambda_star"]
    assert lam[0] < 0 < lam[-1]  # unstable at 0.2, stable at 1.8


@pytest.mark.parametrize("mod", MODULES, ids=lambda m: m.ID)
def test_draw_without_warnings(mod, quick_data):
    fig = mod.draw(quick_data[mod.ID])
    fig.savefig(io.BytesIO(), format="png")  # full layout + render under filterwarnings = error
    assert fig.axes and all(ax.get_xlabel() for ax in fig.axes)


def test_one_color_per_link_whatever_the_spelling():
    """The style's color map is keyed by nbl_theory.paper's canonical keys, so both spellings
    of a link share its color (figure tables keep the spelling they were written with)."""
    from nbl_sim.presentation.style import LINK_COLORS, link_color
    from nbl_theory.paper import canonical_key

    assert all(canonical_key(k) == k for k in LINK_COLORS)
    assert link_color("we-0.6") == link_color("we-0.60") == LINK_COLORS["we-0.60"]
    assert link_color("we-0.8") == link_color("we-0.80") == LINK_COLORS["we-0.80"]
    assert link_color("we-0.0") == link_color("we-0") == link_color("logistic")
    assert link_color("we-0.33") == link_color("no such link") == "0.3"
