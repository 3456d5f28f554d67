"""The exact analysis of repaired NBL (nbl_sim.beyond.repairs)."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

from nbl_sim.beyond import parse_arms_spec, parse_context_spec
from nbl_sim.beyond.analysis import field_model, jacobian_spectrum
from nbl_sim.beyond.linkeval import OffsetLink, check_arm_link, fast_g, link_range
from nbl_sim.beyond.repairs import analyze_repair, repaired_problem, whitening_matrix
from nbl_theory.errors import NBLInputError
from nbl_theory.paper import paper_link

LINK = paper_link("tt-stable")


def _case(law, arms="symmetric", delta="1"):
    return parse_context_spec(law), parse_arms_spec(arms, LINK, delta)


def test_offset_link_subtracts_a_constant():
    off = OffsetLink(LINK, 0.25)
    z = np.linspace(-3, 3, 7)
    assert_allclose(fast_g(off)(z), fast_g(LINK)(z) - 0.25, rtol=0, atol=1e-15)
    lo, hi = link_range(LINK)
    assert link_range(off) == (lo - 0.25, hi - 0.25)
    with pytest.raises(NBLInputError, match="offset"):
        check_arm_link(OffsetLink(LINK, float("nan")))


def test_whitening_a_gaussian_gives_the_isotropic_law_and_transformed_arms():
    law, arms = _case("gaussian:cond=10,angle=30")
    prob, _ = repaired_problem(law, arms, "whitened")
    assert prob.law.isotropic_gaussian
    w = whitening_matrix(law)
    assert_allclose(w @ law.covariance @ w, np.eye(2), atol=1e-13)
    # the index is unchanged: beta~' (W x) = beta' x
    x = np.array([0.3, -1.7])
    assert_allclose(prob.arms.beta @ (w @ x), arms.beta @ x, atol=1e-14)


def test_centring_leaves_a_spherical_law_alone():
    # the baseline's field b E[sgn(v'X) X] is radial for a spherical law: same rate exactly
    law, arms = _case("gaussian", "shift=0.2")
    plain = analyze_repair(law, arms, "plain", best_linear=(0.0, 0.0))
    cent = analyze_repair(law, arms, "centred", best_linear=(0.0, 0.0))
    assert cent["reward_offset"] > 0.1
    assert abs(plain["repaired_rate"] - cent["repaired_rate"]) <= 1e-12
    assert abs(plain["learned_angle_deg"] - cent["learned_angle_deg"]) <= 1e-9
    assert plain["verdict"] == cent["verdict"] == "biased"


def test_whitening_an_aligned_covariance_is_the_papers_model_rescaled():
    # Sigma = diag(1/2, 3/2) in (v*, theta): whitened arms beta~ = (+-sqrt(1/2)/2, sqrt(3/4 * 3/2))
    # i.e. the paper's model for the link g(s z), s = |beta~|, at Delta' = sqrt(1/2)/s;
    # its rate is the N(0, I) rate of those arms (reference: field_model of the same arms)
    law, arms = _case("gaussian:cond=3,angle=90")
    row = analyze_repair(law, arms, "whitened", best_linear=(0.0, 0.0))
    beta = np.array(
        [[-0.5 * np.sqrt(0.5), np.sqrt(0.75 * 1.5)], [0.5 * np.sqrt(0.5), np.sqrt(0.75 * 1.5)]]
    )
    from nbl_sim.beyond.arms import ArmModel

    ref = field_model(parse_context_spec("gaussian"), ArmModel(beta, (LINK, LINK)))
    eig, _ = jacobian_spectrum(ref, np.array([1.0, 0.0]))
    assert row["verdict"] == "repaired"
    assert abs(row["repaired_rate"] - (-eig.max())) <= 1e-12


def test_verdicts_of_the_representative_cases():
    # values: nbl_sim.beyond.repairs, confirmed by proofs_check.witnesses.repairs to 1e-8
    law, arms = _case("cube", "rotate=45")
    assert analyze_repair(law, arms, "plain")["verdict"] == "repelling"
    r = analyze_repair(law, arms, "centred")
    assert r["verdict"] == "repaired" and r["repaired_rate"] == pytest.approx(0.30029, abs=1e-5)
    law, arms = _case("gaussian:cond=3,angle=30")
    r = analyze_repair(law, arms, "whitened")
    assert r["verdict"] == "biased"
    assert r["learned_angle_deg"] == pytest.approx(-11.5619214, abs=1e-6)
    # intercept: the best linear boundary is not v*, no candidate reaches it
    law, arms = _case("gaussian", "intercept=0.5")
    r = analyze_repair(law, arms, "centred")
    assert r["verdict"] == "biased" and r["best_linear_angle_deg"] < -15


def test_every_departure_of_the_robustness_grid_is_in_the_repair_grid():
    from nbl_sim.beyond.repairs import repair_grid
    from nbl_sim.beyond.robustness import DEPARTURES

    assert {c.cell.departure for c in repair_grid(links=("tt-stable",))} == set(DEPARTURES)


def test_whitening_a_dataset_of_whitened_components_changes_nothing():
    """The dataset departure's contexts are the dataset's whitened first two principal
    components, so the whitened repair must give plain NBL's analysis (the same Monte Carlo
    average, up to the rounding of W ≈ I)."""
    pytest.importorskip("sklearn")
    from nbl_sim.beyond.repairs import REPAIRS, RepairCell, run_repair_cell
    from nbl_sim.beyond.robustness import departure_grid

    cell = departure_grid("dataset", "tt-stable", "1")[0]  # wine/breast-cancer, 0°
    row = run_repair_cell(RepairCell(cell, tuple(REPAIRS)))["repairs"]
    assert row["whitened"]["verdict"] == row["plain"]["verdict"]
    assert row["whitened"]["repaired_rate"] == pytest.approx(
        row["plain"]["repaired_rate"], abs=1e-9
    )
    assert row["plain"]["method"] == "monte-carlo" and row["plain"]["defect_error"] > 0


def test_bad_repair_is_refused():
    law, arms = _case("gaussian")
    with pytest.raises(NBLInputError, match="repair must be one of"):
        analyze_repair(law, arms, "sharpened")


def test_the_repairs_figure_plots_the_exact_verdicts(quick_figure):
    from nbl_sim.presentation.figures import load_figures, repairs

    assert load_figures()["repairs"] is repairs
    data = quick_figure(repairs)
    cube = {rep: data.table(f"cube-rotation_{rep}") for rep in repairs.REPAIRS}
    # v* on the cube's diagonal (45 deg): plain NBL is repelled, centring repairs it (rates of
    # nbl_sim.beyond.repairs, -0.247259 and +0.300289, witness to 2e-8)
    assert cube["plain"]["rate"][-1] == pytest.approx(-0.247259, abs=1e-5)
    assert cube["centred"]["rate"][-1] == pytest.approx(0.300289, abs=1e-5)
    shift = {rep: data.table(f"shift_{rep}") for rep in repairs.REPAIRS}
    # a shift is repaired by none: every repair learns the same biased boundary
    assert len({round(float(t["angle_deg"][-1]), 9) for t in shift.values()}) == 1
    assert not any(n.startswith("growth_") for n in data.tables)  # quick: no simulation
