"""The ``nbl`` command: output contract (JSON keys), human tables, and bad-input behaviour."""

import json
import subprocess
import sys

import mpmath
import pytest

from proofs_check.cli import main

STABILITY_KEYS = {"mu_star", "m2", "m0", "mu_g", "kappa_star", "lambda_star",
                  "lambda_star_enclosure", "sign", "jacobian_rates"}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_stability_json_contract(capsys):
    code, out, err = run(capsys, "stability", "--family", "weighted-entropy", "--param", "rho=0.72",
                         "--delta", "0.2", "--dps", "30", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert STABILITY_KEYS <= set(data)
    for k in ("mu_star", "m2", "lambda_star"):
        assert isinstance(data[k], str)  # high-precision numbers travel as decimal strings
    with mpmath.workdps(40):
        lam = mpmath.mpf(data["lambda_star"])
        # reference: 50-digit value, see tests/theory/test_stability.py::PAPER_REFERENCE
        assert abs(lam - mpmath.mpf("2.0755352621921070176875120465514526259238155427697e-5")) < 1e-33
    assert data["sign"] == "stable" and data["delta"] == "0.2"
    lo, hi = (mpmath.mpf(x) for x in data["lambda_star_enclosure"])
    assert lo <= hi


def test_stability_certified_table(capsys):
    code, out, _ = run(capsys, "stability", "--family", "two-transition",
                       "--param", "mu2=-1.074037,2.144072,1.244122", "--delta", "0.2", "--certify")
    assert code == 0
    lines = out.splitlines()
    assert "lambda_star" in lines[0]
    rows = [ln for ln in lines if ln.startswith("two-transition")]
    assert [r.split()[5] for r in rows] == ["stable", "stable", "unstable"]
    assert all("certified" in r for r in rows)


def test_stability_single_link_breakdown_and_potential(capsys):
    code, out, _ = run(capsys, "stability", "--potential", "m*log(m)+(1-m)*log(1-m)",
                       "--domain", "0,1", "--delta", "0.5")
    assert code == 0
    assert "exact contraction rate, d = 2" in out and "kappa*" in out


def test_negative_leading_expression_is_accepted(capsys):
    code, _, err = run(capsys, "stability", "--potential", "-log(m)", "--domain", "0,inf",
                       "--delta", "0.2")
    assert code == 2 and "does not cover R" in err


@pytest.mark.parametrize("argv, fragment", [
    (["stability", "--link", "__import__('os').system('x')", "--delta", "0.2"], "not allowed"),
    (["stability", "--link", "-z", "--delta", "0.2"], "not strictly increasing"),
    (["stability", "--link", "z", "--delta", "2"], "open interval (0, 2)"),
    (["stability", "--link", "z", "--delta", "nan"], "finite"),
    (["stability", "--link", "z", "--family", "logistic", "--delta", "0.2"], "exactly one"),
    (["stability", "--family", "weighted-entropy", "--param", "rho=1.2", "--delta", "0.2"], "rho"),
    (["stability", "--family", "logistic", "--param", "rho", "--delta", "0.2"], "k=v"),
    (["stability", "--potential", "m**3", "--domain", "-1,1", "--delta", "0.2"], "strictly convex"),
    (["stability", "--family", "burg-entropy", "--delta", "0.2"], "eq:app_full_dual_domain"),
    (["stability", "--link", "z + sinh(z**3)", "--delta", "0.2"], "diverges"),
    (["threshold", "--family", "two-transition", "--solve-for", "mu2"], "--delta"),
    (["threshold", "--family", "two-transition", "--solve-for", "nope", "--delta", "0.2"], "no parameter"),
    (["threshold", "--link", "tanh(z)", "--solve-for", "delta", "--bracket", "0", "1"], "inside (0, 2)"),
])
def test_bad_input_one_line_error_no_output(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("nbl: error: ") and err.count("\n") == 1
    assert fragment in err


def test_threshold_json_two_roots(capsys):
    code, out, _ = run(capsys, "threshold", "--family", "two-transition", "--solve-for", "mu2",
                       "--delta", "0.2", "--grid", "40", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"value", "bracket", "roots"} <= set(data)
    assert len(data["roots"]) == 2 and all(r["certified"] for r in data["roots"])
    lo, hi = (float(x) for x in data["roots"][1]["bracket"])
    assert lo < 2.14328350323 < hi


def test_self_concordance_json(capsys):
    code, out, _ = run(capsys, "self-concordance", "--family", "logistic", "--delta", "0.2", "--json")
    assert code == 0
    data = json.loads(out)
    assert float(data["R"]) == pytest.approx(1.0, abs=1e-10)
    assert data["bound_consistent"] in (True, "true", "True")


def test_module_entry_point_runs():
    proc = subprocess.run([sys.executable, "-m", "proofs_check.cli", "stability", "--family",
                           "logistic", "--delta", "0.3", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["sign"] == "stable"


def test_self_concordance_without_delta(capsys):
    code, out, _ = run(capsys, "self-concordance", "--family", "weighted-entropy", "--param",
                       "rho=0.6", "--json")
    assert code == 0
    data = json.loads(out)
    # closed form R = 1/(1 - |rho|) = 2.5 (nbl_theory.self_concordance, verified symbolically)
    assert float(data["R"]) == pytest.approx(2.5, rel=1e-10)
    assert data["lambda_star"] is None and data["bound_consistent"] is None
    assert float(data["delta_sc"]) > float(data["exact_threshold_delta"])


def test_check_quick_writes_report(tmp_path, capsys):
    code, out, _ = run(capsys, "check", "--quick", "--out", str(tmp_path))
    assert code == 0  # no FAIL
    assert (tmp_path / "verification.md").exists() and (tmp_path / "verification.json").exists()
    data = json.loads((tmp_path / "verification.json").read_text())
    assert "PASS" in out and "DISCREPANCY: we-lambda-0.72" in out
    assert not [c["id"] for c in data if c["status"] == "FAIL"]


def test_threshold_plot_written(tmp_path, capsys):
    target = tmp_path / "scan.png"
    code, out, _ = run(capsys, "threshold", "--family", "weighted-entropy", "--solve-for", "rho",
                       "--delta", "0.2", "--bracket", "0.6", "0.8", "--grid", "9",
                       "--no-certify", "--plot", str(target))
    assert code == 0 and target.exists() and target.stat().st_size > 10_000
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "plot written" in out


# ---------------------------------------------------------------------- nbl simulate
SIM_KEYS = {"final_regret_mean", "final_regret_se", "final_angle_deg_mean",
            "final_sq_error_mean", "seconds"}


def test_simulate_json_contract(capsys):
    code, out, err = run(capsys, "simulate", "--family", "two-transition",
                         "--param", "mu2=-1.074037", "--delta", "1", "--n", "400", "--reps", "6",
                         "--n0", "50", "--policy", "both", "--seed", "3", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data["policies"]) == {"nbl", "greedy-logistic"}
    for s in data["policies"].values():
        assert SIM_KEYS <= set(s)
    assert data["params"]["seed"] == 3 and data["params"]["n0"] == 50
    # same seed, same numbers
    code, out2, _ = run(capsys, "simulate", "--family", "two-transition",
                        "--param", "mu2=-1.074037", "--delta", "1", "--n", "400", "--reps", "6",
                        "--n0", "50", "--policy", "both", "--seed", "3", "--json")
    assert json.loads(out2)["policies"]["nbl"]["final_regret_mean"] == \
        data["policies"]["nbl"]["final_regret_mean"]


def test_simulate_table_and_out_dir(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "--family", "two-transition", "--param",
                       "mu2=1.244122", "--delta", "0.2", "--n", "300", "--reps", "4",
                       "--init-angle", "-10", "--policy", "all", "--out", str(tmp_path))
    assert code == 2  # greedy-logistic cannot start from an angle
    code, out, _ = run(capsys, "simulate", "--family", "two-transition", "--param",
                       "mu2=1.244122", "--delta", "0.2", "--n", "300", "--reps", "4",
                       "--init-angle", "-10", "--out", str(tmp_path))
    assert code == 0
    assert "angle_n deg" in out and out.splitlines()[3].startswith("nbl")
    for f in ("trajectories_nbl.csv", "bands_nbl.csv", "manifest.json", "simulation.png"):
        assert (tmp_path / f).stat().st_size > 0
    bands = (tmp_path / "bands_nbl.csv").read_text().splitlines()
    assert bands[1].startswith("0,") and "-10.0" in bands[1]  # round 0 is the start at −10°


@pytest.mark.parametrize("argv, fragment", [
    (["--family", "identity", "--delta", "1", "--n", "300"], "Bernoulli rewards need"),
    (["--family", "logistic", "--delta", "2.5"], "open interval"),
    (["--family", "logistic", "--delta", "1", "--n", "100"], "default n0 = 200 exceeds"),
    (["--family", "logistic", "--delta", "1,2"], "single link"),
    (["--family", "logistic", "--delta", "1", "--d", "1"], "d must be an integer >= 2"),
    (["--family", "logistic", "--delta", "1", "--gamma", "0", "--n", "300"], "gamma must be > 0"),
])
def test_simulate_bad_input(capsys, argv, fragment):
    code, out, err = run(capsys, "simulate", *argv)
    assert code == 2 and fragment in err and out == ""


def test_simulate_bounded_rewards_for_an_unbounded_link(capsys):
    code, out, _ = run(capsys, "simulate", "--link", "z", "--delta", "1", "--n", "300",
                       "--reps", "3", "--reward", "bounded", "--noise", "0.2", "--json")
    assert code == 0 and json.loads(out)["environment"]["reward"] == "bounded"


# ---------------------------------------------------------------------- nbl reproduce
def test_reproduce_list_and_unknown_figure(capsys):
    code, out, _ = run(capsys, "reproduce", "--list")
    assert code == 0 and out.splitlines()[0].startswith("figure")
    code, out, err = run(capsys, "reproduce", "no-such-figure", "--no-cache", "--out", "/tmp/x")
    assert code == 2 and "unknown figure" in err and out == ""
