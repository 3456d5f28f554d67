"""Issue 35, items 3 and 6: every conclusion in words beside its numbers (formatted from the
computed row, never literals), every scaling and coordinate convention in --help, one value
grammar for --contexts/--arms, --plot never makes directories, progress counters that count
what they say, distinct metavars, the threshold plot shaded from the roots, Greedy Logistic's
progress per replication."""

import json
import re
from types import SimpleNamespace

import numpy as np
import pytest

from nbl_sim.presentation.conclusions import beyond_conclusion, per_round, stability_conclusion
from proofs_check.cli import display as display_mod
from proofs_check.cli import main

SIGN_FLIP = [
    "stability",
    "--family",
    "logistic",
    "--delta",
    "1",
    "--contexts",
    "gaussian:cond=3,angle=90",
]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_beyond_conclusion_in_words_from_the_computed_row(capsys):
    code, out_json, _ = run(capsys, *SIGN_FLIP, "--json", "--quiet")
    assert code == 0
    (row,) = json.loads(out_json)["results"]
    code, text, _ = run(capsys, *SIGN_FLIP, "--quiet")
    assert code == 0
    words = beyond_conclusion(row)
    assert words in text  # the table is followed by its conclusion
    # every number in the sentence is the row's, formatted: the learned angle, what it pays
    # per round (> 0: regret linear in n), the other attractor
    assert f"settles {row['bias_deg']:.2f} deg from v*" in words
    assert f"pays {per_round(row['learned_regret'])} per round" in words
    assert "regret linear in n" in words
    assert row["vstar_stability"] == "repelling" and "repelling equilibrium" in words
    assert "although the Gaussian lambda* predicts it attracts" in words
    others = [
        e
        for e in row["equilibria"]
        if e["stability"] == "attracting" and abs(e["angle_deg"] - row["bias_deg"]) > 1e-6
    ]
    assert len(others) == 1
    assert f"a second attractor at {others[0]['angle_deg']:.1f} deg" in words


def test_beyond_conclusion_not_an_equilibrium():
    row = {
        "gaussian_predicts": "attracting",
        "vstar_equilibrium": False,
        "vstar_stability": "not-an-equilibrium",
        "exact_rate": None,
        "bias_deg": 39.4612,
        "learned_regret": 8.576e-3,
        "best_linear_regret": 8.576e-3,
        "best_linear_angle_deg": 39.4612,
        "equilibria": [
            {"angle_deg": 39.4612, "stability": "attracting", "regret": 8.576e-3},
            {"angle_deg": -124.7, "stability": "attracting", "regret": 0.02},
            {"angle_deg": 170.0, "stability": "repelling", "regret": 0.1},
        ],
    }
    words = beyond_conclusion(row)
    assert words.startswith(
        "v* is no longer an equilibrium: NBL settles 39.46 deg from v* and pays 8.6e-03 per round"
    )
    assert "regret linear in n" in words and "a second attractor at -124.7 deg" in words
    row2 = {**row, "learned_regret": 0.0}
    assert "regret linear in n" not in beyond_conclusion(row2)


def test_gaussian_stability_conclusion(capsys):
    code, out, _ = run(
        capsys,
        "stability",
        "--family",
        "two-transition",
        "--param",
        "mu2=1.244122",
        "--delta",
        "0.2",
        "--certify",
        "--quiet",
    )
    assert code == 0
    assert "< 0 (sign certified (Arb enclosure)): the paper's positive-stability" in out
    r = SimpleNamespace(
        delta="0.2",
        lambda_star=0.5,
        certified=False,
        tier="float64",
        sign="stable",
        jacobian_rates={},
    )
    assert "locally attracting equilibrium" in stability_conclusion(r)
    assert "not decided" in stability_conclusion(
        SimpleNamespace(**{**vars(r), "sign": "undecided"})
    )


def test_an_unstable_v_star_is_a_saddle_in_d_3_and_the_words_follow_the_rates():
    """λ* < 0 expands only the θ direction: the d − 2 directions orthogonal to θ contract at
    Δμ* > 0 (prop:local_jacobian), so v* is a saddle in d ≥ 3, not a repeller (the sentence
    said "v* repels ... in d >= 3"). Each clause follows the sign of its own rate."""
    rates = {"contraction_rate_d2": -0.02, "orthogonal": 0.0138}
    r = SimpleNamespace(
        delta="0.2",
        lambda_star=-0.0237,
        certified=True,
        tier="certified",
        sign="unstable",
        jacobian_rates=rates,
    )
    text = stability_conclusion(r)
    assert "in d >= 3 v* is a saddle: it repels along theta (rate -0.0237)" in text
    assert "attracts in the d - 2 directions orthogonal to theta (rate 0.0138)" in text
    assert "in d = 2 v* repels (exact rate -0.02)" in text
    r.jacobian_rates = {"contraction_rate_d2": 0.05, "orthogonal": -0.01}
    text = stability_conclusion(r)
    assert "repelling along theta (rate -0.0237) and orthogonal to it (rate -0.01)" in text
    assert "exact rate is 0.05 > 0, so v* still attracts in d = 2" in text


def test_help_states_every_scaling_and_coordinate_convention(capsys):
    with pytest.raises(SystemExit):
        main(["stability", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "student-t:nu=NU[,cond=C,angle=DEG | ,cov=FILE.csv]" in out
    assert "scaled to unit covariance" in out
    assert "v* = e1 and theta along e2" in out and "cov=FILE.csv is the d x d matrix" in out


def test_student_t_table_says_it_is_scaled(capsys):
    code, out, _ = run(
        capsys,
        "stability",
        "--family",
        "logistic",
        "--delta",
        "1",
        "--contexts",
        "student-t:nu=5",
        "--quiet",
    )
    assert code == 0
    assert "multivariate t scaled to unit covariance: Cov X = I" in out.splitlines()[0]
    assert "coordinates v* = e1, theta along e2" in out.splitlines()[0]


@pytest.mark.parametrize(
    "fraction, decimal",
    [
        (["--arms", "shift=1/10"], ["--arms", "shift=0.1"]),
        (["--contexts", "student-t:nu=9/2"], ["--contexts", "student-t:nu=4.5"]),
    ],
)
def test_one_value_grammar_for_contexts_and_arms(capsys, fraction, decimal):
    base = ["stability", "--family", "logistic", "--delta", "1/2", "--json", "--quiet"]
    code, a, err = run(capsys, *base, *fraction)
    assert code == 0, err
    code, b, _ = run(capsys, *base, *decimal)
    ra, rb = json.loads(a)["results"][0], json.loads(b)["results"][0]
    for k in ("lambda_star", "exact_rate", "bias_deg", "learned_regret", "verdict"):
        assert ra[k] == rb[k]


def test_plot_into_a_missing_directory_is_refused(capsys, tmp_path):
    target = tmp_path / "no" / "dir" / "t.png"
    code, out, err = run(
        capsys,
        "threshold",
        "--family",
        "two-transition",
        "--solve-for",
        "mu2",
        "--delta",
        "0.2",
        "--plot",
        str(target),
    )
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "does not exist" in err
    assert not (tmp_path / "no").exists()


def _plain_lines(monkeypatch, capsys, argv):
    monkeypatch.setattr(display_mod, "DELAY", 0.0)
    monkeypatch.setattr(
        display_mod.ProgressDisplay.__init__, "__defaults__", (display_mod.PLAIN_PERIOD, 0.0)
    )
    code, _, err = run(capsys, *argv)
    assert code == 0
    return [ln for ln in err.splitlines() if re.search(r": \d+/\d+ \(", ln)]


def test_progress_counts_rows_and_points(monkeypatch, capsys):
    lines = _plain_lines(monkeypatch, capsys, ["stability", "--family", "logistic", "--delta", "1"])
    assert lines and lines[-1].startswith("stability (1 link, 1 row): 1/1 ")
    lines = _plain_lines(
        monkeypatch,
        capsys,
        [
            "threshold",
            "--family",
            "two-transition",
            "--solve-for",
            "mu2",
            "--delta",
            "0.2",
            "--param",
            "mu2=-2:3:39",
        ],
    )
    assert lines and re.search(r": 39/39 \(100%\)", lines[-1]), lines[-1]
    assert "39 points" in lines[-1]


def test_dimension_and_delta_have_different_metavars(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = capsys.readouterr().out
    assert "--d DIM" in out and "--delta D" in out and "--d D " not in out
    assert "n^2" in out  # Greedy Logistic's cost is stated
    first = re.search(r"examples:\n\s+(nbl simulate[^\n]*)", out).group(1)
    n = int(re.search(r"--n (\d+)", first).group(1))
    assert "greedy" not in first or n <= 5000  # a first example that runs in seconds


def test_unstable_region_shaded_from_the_roots():
    from nbl_sim.presentation.plots import unstable_spans

    xs = np.linspace(0.0, 1.0, 11)  # grid points 0, 0.1, ..., 1
    vals = 0.437 - xs  # one root at 0.437, not a grid point
    res = SimpleNamespace(
        scan=(xs.tolist(), vals.tolist()), roots=[SimpleNamespace(value="0.437", certified=True)]
    )
    assert unstable_spans(res) == [(0.437, 1.0)]


def test_greedy_logistic_progress_per_replication():
    from nbl_sim.engine.environment import Environment
    from nbl_sim.studies.experiment import simulate
    from nbl_theory.families import make_family

    env = Environment.build(make_family("logistic"), "1", 2)
    calls = []
    simulate(
        env,
        n=60,
        reps=3,
        n0=20,
        policies=("nbl", "greedy-logistic"),
        seed=1,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert [c for c in calls if c[0] > 0] == [(1, 3), (2, 3), (3, 3)]


def test_replications_ending_near_minus_v_star_are_named_under_the_table():
    """Signed angles near ±180° average to about 0 (+179 and −179): the table's mean angle
    then says nothing, and a note under it counts the replications more than 90° from v*
    (with --init-angle 180 all 50 ended within 7° of ±180° while the table read −14.8 ± 45.7)."""
    from nbl_sim.presentation.tables import _angle_wrap_notes

    ang = np.radians([[0.0, 179.0], [0.0, -179.0], [0.0, 5.0], [0.0, np.nan]])
    res = SimpleNamespace(
        params={"d": 2},
        policies={"nbl": SimpleNamespace(angle=ang), "oracle": SimpleNamespace(angle=ang[2:])},
    )
    assert _angle_wrap_notes(res) == [
        "note: nbl: 2 of 4 replications end more than 90 deg from v* (toward -v*); the mean "
        "angle averages across +-180 deg there and is not a location: read |v_n - v*|^2"
    ]
    assert _angle_wrap_notes(SimpleNamespace(params={"d": 3}, policies=res.policies)) == []


def test_the_tier_column_counts_the_digits_the_error_supports():
    """``mpmath/120d`` beside λ* = −4.0e-133 ± 3.8e-129 (true value +3.0e-301) read as 120 good
    digits: the column now gives the digits the error estimate supports (0 there), the
    certified ball's own digits, and the working digits at most."""
    from nbl_sim.presentation.tables import _lambda_digits

    r = SimpleNamespace(certified=False, digits=120, lambda_star=-4.04e-133, errors={})
    r.errors["lambda_star"] = 3.8e-129
    assert _lambda_digits(r) == 0
    r.lambda_star, r.errors["lambda_star"] = 0.1607, 2.5e-15
    assert _lambda_digits(r) == 13
    r.digits = 5
    assert _lambda_digits(r) == 5
    assert _lambda_digits(SimpleNamespace(certified=True, digits=43)) == 43
