"""The examples of issues 13 and 14 through ``main`` (in-process): user parameters in every
subcommand, the one grammar (negative values, lists, grids, the old spellings), the adaptive
n0, the self-concordance wording, the dps time note, internal errors and ``--debug``, the phase
plot's colour scale."""

from __future__ import annotations

import json

import numpy as np
import pytest

from proofs_check.cli import main

TT_EXPR = "0.1 + 0.1*(1 + tanh(2*(z + 1.25))) + 0.25*(1 + tanh(1.4*(z - mu2)))"


def run(capsys, *argv):
    code = main([*argv, "--quiet"])
    out, err = capsys.readouterr()
    return code, out, err


def results(capsys, *argv) -> list:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)["results"]


# ---------------------------------------------------------------------- user parameters
def test_user_parameter_gives_the_link_with_the_number_written_in(capsys):
    """`--link 'sigmoid(a*z)**2' --param a=2` is the link sigmoid(2*z)**2: the same decimal
    digits of lambda* (the parameter is substituted exactly, so nothing may differ)."""
    (p,) = results(
        capsys,
        "stability",
        "--link",
        "sigmoid(a*z)**2",
        "--param",
        "a=2",
        "--delta",
        "0.2",
        "--dps",
        "30",
    )
    (w,) = results(
        capsys, "stability", "--link", "sigmoid(2*z)**2", "--delta", "0.2", "--dps", "30"
    )
    assert p["lambda_star"] == w["lambda_star"] and p["link"] == "sigmoid(a*z)**2 [a=2]"


def test_user_parameter_lists_give_one_row_each(capsys):
    rows = results(
        capsys,
        "stability",
        "--link",
        "sigmoid(a*z)**2",
        "--param",
        "a=0.5,1,2",
        "--delta",
        "0.2:1.8:3",
    )
    assert [(r["link"], r["delta"]) for r in rows] == [
        (f"sigmoid(a*z)**2 [a={a}]", d) for a in ("0.5", "1", "2") for d in (0.2, 1.0, 1.8)
    ]


def test_threshold_solves_for_a_user_parameter_like_the_family(capsys):
    """The two-transition link written out as an expression with mu2 free has the family's
    two critical mu2 at delta = 0.2 (an independent construction: parsed text vs the family
    builder); the roots agree to the 15 digits they are printed with."""
    (user,) = results(
        capsys,
        "threshold",
        "--link",
        TT_EXPR,
        "--solve-for",
        "mu2",
        "--param",
        "mu2=-2:3:30",
        "--delta",
        "0.2",
        "--no-certify",
    )
    (fam,) = results(
        capsys,
        "threshold",
        "--family",
        "two-transition",
        "--solve-for",
        "mu2",
        "--param",
        "mu2=-2:3:30",
        "--delta",
        "0.2",
        "--no-certify",
    )
    assert [r["value"] for r in user["roots"]] == [r["value"] for r in fam["roots"]]
    assert len(fam["roots"]) == 2


def test_phase_and_self_concordance_take_user_links(capsys):
    (ph,) = results(
        capsys,
        "phase",
        "--link",
        "sigmoid(a*z)**2",
        "--param",
        "a=0.5:2:4",
        "--delta",
        "0.2,1",
        "--no-cache",
    )
    assert ph["values"] == [0.5, 1.0, 1.5, 2.0] and ph["link"] == "sigmoid(a*z)**2"
    (st,) = results(
        capsys, "stability", "--link", "sigmoid(a*z)**2", "--param", "a=1.5", "--delta", "1"
    )
    # the phase cell (float tier) is the float64 lambda* of the same link: relative 1e-12
    assert ph["lambda_star"][1][2] == pytest.approx(float(st["lambda_star"]), rel=1e-12)
    (sc,) = results(
        capsys,
        "self-concordance",
        "--potential",
        "a*m*log(m) + (1-m)*log(1-m)",
        "--param",
        "a=1",
        "--delta",
        "0.5",
    )
    # a = 1 is the binary negative entropy, whose link is the logistic: R = 1 (closed form)
    assert sc["R"] == pytest.approx(1.0, abs=1e-10)


def test_simulate_takes_a_user_parameter(capsys):
    (r,) = results(
        capsys,
        "simulate",
        "--link",
        "sigmoid(a*z)",
        "--param",
        "a=2",
        "--delta",
        "0.5",
        "--n",
        "300",
        "--reps",
        "2",
        "--no-cache",
    )
    assert r["environment"]["link"] == "sigmoid(a*z) [a=2]"


# ---------------------------------------------------------------------- the grammar
def test_negative_values_in_every_position(capsys):
    (r,) = results(
        capsys,
        "stability",
        "--family",
        "two-transition",
        "--param",
        "mu2=-1.074037",
        "--delta",
        "0.2",
    )
    assert r["sign"] == "stable"
    (ph,) = results(
        capsys,
        "phase",
        "--family",
        "weighted-entropy",
        "--param",
        "rho=-0.9:0.9:19",
        "--delta",
        "0.2",
        "--no-cache",
    )
    # the grid's exact points as their nearest doubles: no float noise, no _decimal needed
    assert ph["values"][:4] == [-0.9, -0.8, -0.7, -0.6] and ph["values"][9] == 0.0
    assert "values_decimal" not in ph
    code, _, err = run(capsys, "stability", "--family", "logistic", "--delta", "-0.5")
    assert code == 2 and "open interval (0, 2)" in err  # Delta's check, not argparse's
    code, _, err = run(
        capsys,
        "simulate",
        "--family",
        "logistic",
        "--delta",
        "1",
        "--n",
        "300",
        "--reps",
        "2",
        "--init-angle",
        "-1e-3",
        "--no-cache",
    )
    assert code == 0, err


def test_old_spellings_still_work(capsys):
    (old,) = results(
        capsys,
        "phase",
        "--family",
        "weighted-entropy",
        "--param",
        "rho",
        "--range",
        "-0.9:0.9:7",
        "--delta-range",
        "0.1:0.5:2",
        "--no-cache",
    )
    (new,) = results(
        capsys,
        "phase",
        "--family",
        "weighted-entropy",
        "--param",
        "rho=-0.9:0.9:7",
        "--delta",
        "0.1:0.5:2",
        "--no-cache",
    )
    assert old["lambda_star"] == new["lambda_star"] and old["values"] == new["values"]
    (old,) = results(
        capsys,
        "threshold",
        "--family",
        "weighted-entropy",
        "--param",
        "rho=0.72",
        "--solve-for",
        "delta",
        "--bracket",
        "0.1",
        "0.3",
        "--grid",
        "9",
        "--no-certify",
    )
    (new,) = results(
        capsys,
        "threshold",
        "--family",
        "weighted-entropy",
        "--param",
        "rho=0.72",
        "--solve-for",
        "delta",
        "--delta",
        "0.1:0.3:9",
        "--no-certify",
    )
    assert old["roots"] == new["roots"] and len(new["roots"]) == 1


def test_threshold_lists_give_one_problem_each(capsys):
    rows = results(
        capsys,
        "threshold",
        "--family",
        "weighted-entropy",
        "--param",
        "rho=0.6,0.8",
        "--solve-for",
        "delta",
        "--delta",
        "0.05:0.5:10",
        "--no-certify",
    )
    assert [r["fixed"] for r in rows] == [{"rho": 0.6}, {"rho": 0.8}]


# ---------------------------------------------------------------------- smaller items
def test_default_n0_adapts_to_a_short_horizon(capsys):
    (r,) = results(
        capsys,
        "simulate",
        "--family",
        "logistic",
        "--delta",
        "1",
        "--n",
        "100",
        "--reps",
        "2",
        "--no-cache",
    )
    assert r["params"]["n0"] == 50  # min(200, n // 2)


def test_self_concordance_wording_for_a_link_never_unstable(capsys):
    code, out, _ = run(capsys, "self-concordance", "--family", "logistic", "--delta", "0.2")
    assert code == 0
    assert "never unstable on the scan: lambda* > 0 at all 99 scanned" in out
    assert "margin(Delta) = Delta/2 - phi0(0)" in out  # margin is defined
    assert "None" not in out and "threshold (grid) 0.0" not in out


def test_self_concordance_wording_when_R_is_infinite(capsys):
    code, out, _ = run(capsys, "self-concordance", "--link", "z + sinh(z)/10")
    assert code == 0 and "None" not in out


def test_long_dps_says_how_long_it_takes(capsys):
    code = main(["stability", "--family", "logistic", "--delta", "0.3", "--dps", "140"])
    _, err = capsys.readouterr()
    assert code == 0
    (note,) = [ln for ln in err.splitlines() if ln.startswith("nbl: note:")]
    assert "--dps 140 takes about" in note and "(dps/100)^3" in note


def test_internal_error_is_one_line_and_debug_shows_the_traceback(capsys, monkeypatch):
    import nbl_theory.stability

    def boom(*a, **k):
        raise RuntimeError("simulated failure")

    monkeypatch.setattr(nbl_theory.stability, "stability", boom)
    code, out, err = run(capsys, "stability", "--family", "logistic", "--delta", "0.3")
    assert code == 1 and out == ""
    assert err == (
        "nbl: internal error: RuntimeError: simulated failure (run with --debug for "
        "the traceback)\n"
    )
    code = main(["stability", "--family", "logistic", "--delta", "0.3", "--debug"])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("Traceback") and "simulated failure" in err


def test_phase_colour_scale_shows_small_unstable_regions():
    """With lambda* in [-1e-4, 1], a symmetric linear scale puts -1e-4 at 0.49995 (white);
    the diverging norm centred at 0 gives it the full unstable colour (0)."""
    from nbl_sim.presentation.plots import diverging_norm

    norm = diverging_norm(np.array([[-1e-4, 0.5], [1.0, np.nan]]))
    assert norm(-1e-4) == pytest.approx(0.0, abs=1e-12)
    assert norm(0.0) == pytest.approx(0.5, abs=1e-12) and norm(1.0) == pytest.approx(1.0)
    only_stable = diverging_norm(np.array([0.1, 0.2]))
    assert only_stable(0.1) > 0.5


def test_phase_plot_is_written(capsys, tmp_path):
    code, _, err = run(
        capsys,
        "phase",
        "--family",
        "two-transition",
        "--param",
        "mu2=0:2.5:6",
        "--delta",
        "0.2,0.3",
        "--out",
        str(tmp_path),
        "--no-cache",
    )
    assert code == 0, err
    assert (tmp_path / "phase.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
