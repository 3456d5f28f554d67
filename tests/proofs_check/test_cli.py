"""The ``nbl`` command: output contract (JSON keys), human tables, and bad-input behaviour
(in-process through ``main``; the installed command's bad input is in test_bad_input.py, the
JSON Schemas in test_cli_schema.py)."""

import json
import re
import subprocess
import sys

import mpmath
import pytest

from proofs_check.cli import SUBCOMMANDS, main
from proofs_check.cli.display import ProgressDisplay
from proofs_check.report_json import load_records

STABILITY_KEYS = {
    "mu_star",
    "m2",
    "m0",
    "mu_g",
    "kappa_star",
    "lambda_star",
    "lambda_star_enclosure",
    "sign",
    "jacobian_rates",
}


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def rows(out: str) -> list:
    """The result rows of a --json output (the envelope is checked in test_cli_schema.py)."""
    data = json.loads(out)
    assert isinstance(data["results"], list)
    return data["results"]


def test_stability_json_contract(capsys):
    code, out, err = run(
        capsys,
        "stability",
        "--family",
        "weighted-entropy",
        "--param",
        "rho=0.72",
        "--delta",
        "0.2",
        "--dps",
        "30",
        "--json",
        "--quiet",
    )
    assert code == 0 and err == ""  # --quiet: no progress lines (a loaded machine takes > 2 s)
    (data,) = rows(out)
    assert STABILITY_KEYS <= set(data)
    for k in ("mu_star", "m2", "lambda_star"):
        # every quantity a JSON number, its exact decimal beside it under <name>_decimal
        assert isinstance(data[k], float) and isinstance(data[k + "_decimal"], str)
        assert float(data[k + "_decimal"]) == data[k]
    with mpmath.workdps(40):
        lam = mpmath.mpf(data["lambda_star_decimal"])
        # reference: 50-digit value, see tests/theory/test_stability.py::PAPER_REFERENCE
        assert (
            abs(lam - mpmath.mpf("2.0755352621921070176875120465514526259238155427697e-5")) < 1e-33
        )
    assert data["sign"] == "stable" and data["delta"] == 0.2 and "delta_decimal" not in data
    lo, hi = (mpmath.mpf(x) for x in data["lambda_star_enclosure_decimal"])
    assert lo <= hi


def test_stability_certified_table(capsys):
    code, out, _ = run(
        capsys,
        "stability",
        "--family",
        "two-transition",
        "--param",
        "mu2=-1.074037,2.144072,1.244122",
        "--delta",
        "0.2",
        "--certify",
    )
    assert code == 0
    lines = out.splitlines()
    assert "lambda_star" in lines[0]
    rows = [ln for ln in lines if ln.startswith("two-transition")]
    assert [r.split()[5] for r in rows] == ["stable", "stable", "unstable"]
    assert all("certified" in r for r in rows)


def test_stability_single_link_breakdown_and_potential(capsys):
    code, out, _ = run(
        capsys,
        "stability",
        "--potential",
        "m*log(m)+(1-m)*log(1-m)",
        "--domain",
        "0,1",
        "--delta",
        "0.5",
    )
    assert code == 0
    assert "exact contraction rate, d = 2" in out and "kappa*" in out


def test_negative_leading_expression_is_accepted(capsys):
    code, _, err = run(
        capsys, "stability", "--potential", "-log(m)", "--domain", "0,inf", "--delta", "0.2"
    )
    assert code == 2 and "does not cover R" in err


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["stability", "--link", "__import__('os').system('x')", "--delta", "0.2"], "not allowed"),
        (["stability", "--link", "-z", "--delta", "0.2"], "not strictly increasing"),
        (["stability", "--link", "z", "--delta", "2"], "open interval (0, 2)"),
        (["stability", "--link", "z", "--delta", "nan"], "finite"),
        (["stability", "--link", "z", "--family", "logistic", "--delta", "0.2"], "exactly one"),
        (
            ["stability", "--family", "weighted-entropy", "--param", "rho=1.2", "--delta", "0.2"],
            "rho",
        ),
        (["stability", "--family", "logistic", "--param", "rho", "--delta", "0.2"], "NAME=SPEC"),
        (
            ["stability", "--potential", "m**3", "--domain", "-1,1", "--delta", "0.2"],
            "strictly convex",
        ),
        (["stability", "--family", "burg-entropy", "--delta", "0.2"], "eq:app_full_dual_domain"),
        (["stability", "--link", "z + sinh(z**3)", "--delta", "0.2"], "diverges"),
        (["threshold", "--family", "two-transition", "--solve-for", "mu2"], "--delta"),
        (
            ["threshold", "--family", "two-transition", "--solve-for", "nope", "--delta", "0.2"],
            "no parameter",
        ),
        (
            ["threshold", "--link", "tanh(z)", "--solve-for", "delta", "--bracket", "0", "1"],
            "inside (0, 2)",
        ),
    ],
)
def test_bad_input_one_line_error_no_output(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("nbl: error: ") and err.count("\n") == 1
    assert fragment in err


def test_threshold_json_two_roots(capsys):
    code, out, _ = run(
        capsys,
        "threshold",
        "--family",
        "two-transition",
        "--solve-for",
        "mu2",
        "--delta",
        "0.2",
        "--grid",
        "40",
        "--json",
    )
    assert code == 0
    (data,) = rows(out)
    assert "roots" in data and "value" not in data  # every root, not only the first
    assert len(data["roots"]) == 2 and all(r["certified"] for r in data["roots"])
    lo, hi = (float(x) for x in data["roots"][1]["bracket"])
    assert lo < 2.14328350323 < hi


def test_self_concordance_json(capsys):
    code, out, _ = run(
        capsys, "self-concordance", "--family", "logistic", "--delta", "0.2", "--json"
    )
    assert code == 0
    (data,) = rows(out)
    # R = 1 for the logistic link: |g''|/g' = |1 - 2g| -> 1 in both tails (closed form)
    assert data["R"] == pytest.approx(1.0, abs=1e-10)  # float64 quantities are numbers
    assert data["bound_consistent"] is True
    # the logistic link is stable at every scanned delta: no exact threshold, said in words
    assert data["exact_threshold_delta"] is None and data["delta_sc_minus_exact"] is None
    assert data["exact_threshold"].startswith(
        "never unstable on the scan: lambda* > 0 at all 99 scanned"
    )


def test_module_entry_point_runs():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "proofs_check.cli",
            "stability",
            "--family",
            "logistic",
            "--delta",
            "0.3",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert rows(proc.stdout)[0]["sign"] == "stable"


def test_self_concordance_without_delta(capsys):
    code, out, _ = run(
        capsys, "self-concordance", "--family", "weighted-entropy", "--param", "rho=0.6", "--json"
    )
    assert code == 0
    (data,) = rows(out)
    # closed form R = 1/(1 - |rho|) = 2.5 (nbl_theory.self_concordance, verified symbolically)
    assert data["R"] == pytest.approx(2.5, rel=1e-10)
    assert data["lambda_star"] is None and data["bound_consistent"] is None
    assert data["delta_sc"] > data["exact_threshold_delta"]


@pytest.mark.slow  # the whole quick check: 90-330 s on a cold cache on 2 (loaded) cores
def test_check_quick_writes_report(tmp_path, capsys):
    code, out, err = run(capsys, "check", "--quick", "--out", str(tmp_path))
    assert code == 0  # no FAIL
    assert (tmp_path / "verification.md").exists() and (tmp_path / "verification.json").exists()
    data = load_records(tmp_path / "verification.json")
    assert "PASS" in out and "DISCREPANCY: we-lambda-0.72" in out
    assert not [c["id"] for c in data if c["status"] == "FAIL"]
    # progress on stderr (not a terminal here): every claim's status as it finishes, and the
    # plain progress line at the end; the total time closes stdout's summary
    lines = err.splitlines()
    for c in data:
        assert any(ln.split()[:2] == [c["status"], c["id"]] for ln in lines), c["id"]
    assert f"checking claims: {len(data)}/{len(data)} (100%)" in err
    assert re.search(rf"^{len(data)} claims in \d+\.\d s$", out, re.M)


def test_threshold_plot_written(tmp_path, capsys):
    target = tmp_path / "scan.png"
    code, out, _ = run(
        capsys,
        "threshold",
        "--family",
        "weighted-entropy",
        "--solve-for",
        "rho",
        "--delta",
        "0.2",
        "--bracket",
        "0.6",
        "0.8",
        "--grid",
        "9",
        "--no-certify",
        "--plot",
        str(target),
    )
    assert code == 0 and target.exists() and target.stat().st_size > 10_000
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "plot written" in out


# ---------------------------------------------------------------------- nbl simulate
SIM_KEYS = {
    "final_regret_mean",
    "final_regret_se",
    "final_angle_deg_mean",
    "final_sq_error_mean",
    "seconds",
}


def test_simulate_json_contract(capsys):
    code, out, err = run(
        capsys,
        "simulate",
        "--family",
        "two-transition",
        "--param",
        "mu2=-1.074037",
        "--delta",
        "1",
        "--n",
        "400",
        "--reps",
        "6",
        "--n0",
        "50",
        "--policy",
        "both",
        "--seed",
        "3",
        "--json",
    )
    assert code == 0
    (data,) = rows(out)
    assert set(data["policies"]) == {"nbl", "greedy-logistic"}
    for s in data["policies"].values():
        assert SIM_KEYS <= set(s)
    assert data["params"]["seed"] == 3 and data["params"]["n0"] == 50
    # same seed, same numbers
    code, out2, _ = run(
        capsys,
        "simulate",
        "--family",
        "two-transition",
        "--param",
        "mu2=-1.074037",
        "--delta",
        "1",
        "--n",
        "400",
        "--reps",
        "6",
        "--n0",
        "50",
        "--policy",
        "both",
        "--seed",
        "3",
        "--json",
    )
    assert (
        rows(out2)[0]["policies"]["nbl"]["final_regret_mean"]
        == data["policies"]["nbl"]["final_regret_mean"]
    )


def test_simulate_table_and_out_dir(capsys, tmp_path):
    code, out, _ = run(
        capsys,
        "simulate",
        "--family",
        "two-transition",
        "--param",
        "mu2=1.244122",
        "--delta",
        "0.2",
        "--n",
        "300",
        "--reps",
        "4",
        "--init-angle",
        "-10",
        "--policy",
        "all",
        "--out",
        str(tmp_path),
    )
    assert code == 2  # greedy-logistic cannot start from an angle
    code, out, _ = run(
        capsys,
        "simulate",
        "--family",
        "two-transition",
        "--param",
        "mu2=1.244122",
        "--delta",
        "0.2",
        "--n",
        "300",
        "--reps",
        "4",
        "--init-angle",
        "-10",
        "--out",
        str(tmp_path),
    )
    assert code == 0
    assert "angle_n deg" in out and out.splitlines()[3].startswith("nbl")
    for f in ("trajectories_nbl.csv", "bands_nbl.csv", "manifest.json", "simulation.png"):
        assert (tmp_path / f).stat().st_size > 0
    bands = (tmp_path / "bands_nbl.csv").read_text().splitlines()
    assert bands[1].startswith("0,") and "-10.0" in bands[1]  # round 0 is the start at −10°


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--family", "identity", "--delta", "1", "--n", "300"], "Bernoulli rewards need"),
        (["--family", "logistic", "--delta", "2.5"], "open interval"),
        (["--family", "logistic", "--delta", "1,2"], "single link"),
        (["--family", "logistic", "--delta", "1", "--d", "1"], "d must be an integer >= 2"),
        (
            ["--family", "logistic", "--delta", "1", "--gamma", "0", "--n", "300"],
            "gamma must be in (0, 1e+06]",
        ),
    ],
)
def test_simulate_bad_input(capsys, argv, fragment):
    code, out, err = run(capsys, "simulate", *argv)
    assert code == 2 and fragment in err and out == ""


def test_simulate_one_replication(capsys):
    # one replication has no standard error: the table says n/a (it was an internal error)
    code, out, err = run(
        capsys, "simulate", "--family", "logistic", "--delta", "1", "--n", "50", "--reps", "1"
    )
    assert code == 0, err
    assert "+- n/a" in out


def test_simulate_bounded_rewards_for_an_unbounded_link(capsys):
    code, out, _ = run(
        capsys,
        "simulate",
        "--link",
        "z",
        "--delta",
        "1",
        "--n",
        "300",
        "--reps",
        "3",
        "--reward",
        "bounded",
        "--noise",
        "0.2",
        "--json",
    )
    assert code == 0 and rows(out)[0]["environment"]["reward"] == "bounded"


def test_the_noise_default_is_the_librarys(capsys):
    """One default per parameter (issue 37): ``--reward bounded`` without ``--noise`` runs at
    the library's ``DEFAULT_NOISE`` (recorded in the JSON's environment)."""
    from nbl_sim.engine.environment import DEFAULT_NOISE

    code, out, err = run(
        capsys, "simulate", "--link", "z", "--delta", "1", "--n", "60", "--reps", "2",
        "--reward", "bounded", "--json",
    )  # fmt: skip
    assert code == 0, err
    assert rows(out)[0]["environment"]["noise"] == DEFAULT_NOISE
    # the help's statement of it: tests/sim/test_environment.py (the library's test tier)


def test_the_commands_defaults_are_the_librarys(capsys):
    """``nbl simulate`` with no option runs what ``simulate()`` and ``Environment.build`` do by
    default: the same seed and d (the command needs its sizes before it imports the library, to
    check them, so it states them; they must agree), and γ, t0 taken from the library at run
    time, as its help says."""
    import inspect

    from nbl_sim.engine.contract import GAMMA, T0
    from nbl_sim.engine.environment import Environment
    from nbl_sim.studies.experiment import simulate
    from proofs_check.cli import build_parser

    args = build_parser().parse_args(["simulate", "--family", "logistic", "--delta", "1"])
    sim = inspect.signature(simulate).parameters
    # n and reps: tests/sim/test_experiment.py::test_the_library_and_the_command_default_to_the_same_horizon_and_replications
    assert args.seed == sim["seed"].default
    assert args.d == inspect.signature(Environment.build).parameters["d"].default
    assert (sim["gamma"].default, sim["t0"].default) == (GAMMA, T0)
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"step gamma (default {GAMMA:g})" in help_text
    assert f"step offset t0 (default {T0:g})" in help_text
    code, out, err = run(
        capsys, "simulate", "--family", "logistic", "--delta", "1", "--n", "40", "--reps", "2",
        "--json",
    )  # fmt: skip
    assert code == 0, err
    params = rows(out)[0]["params"]
    assert (params["gamma"], params["t0"]) == (GAMMA, T0)


# ---------------------------------------------------------------------- nbl reproduce
def test_reproduce_list_and_unknown_figure(capsys):
    code, out, _ = run(capsys, "reproduce", "--list")
    assert code == 0 and out.splitlines()[0].startswith("figure")
    code, out, err = run(capsys, "reproduce", "no-such-figure", "--no-cache", "--out", "/tmp/x")
    assert code == 2 and "unknown figure" in err and out == ""


# ---------------------------------------------------------------------- help, version, progress
def test_help_of_nbl_and_every_subcommand(capsys):
    """`nbl --help` lists every subcommand (argparse %-formats help strings: a bare '%' in one
    crashed it), and every subcommand's --help runs."""
    for argv in (["--help"], ["-h"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith("usage: nbl")
        assert all(m.NAME in out for m in SUBCOMMANDS)
        assert re.search(r"95%\s+bands", out)
    for m in SUBCOMMANDS:
        with pytest.raises(SystemExit) as exc:
            main([m.NAME, "--help"])
        assert exc.value.code == 0
        assert capsys.readouterr().out.startswith(f"usage: nbl {m.NAME}")


def test_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"nbl {version('nbl')}"


def test_plain_progress_every_tenth_and_at_the_end(capsys):
    """Off a terminal: one line per tenth of the work (never two for the same tenth), one at
    the end, nothing before the first piece of work."""
    bar = ProgressDisplay("work", period=1e9, delay=0.0)
    assert not bar.interactive
    assert capsys.readouterr().err == ""
    for i in range(0, 101):
        bar(i, 100)
    bar(100, 100)  # a repeated final call prints nothing more
    lines = capsys.readouterr().err.splitlines()
    assert [ln.split()[1] for ln in lines] == [f"{10 * k}/100" for k in range(1, 11)]
    assert lines[-1].startswith("work: 100/100 (100%) ")


def test_plain_progress_every_period(capsys, monkeypatch):
    """Off a terminal, slow work still shows a line every `period` seconds."""
    import proofs_check.cli.display as display

    clock = iter([0.0, 1.0, 7.0, 8.0, 14.0])
    monkeypatch.setattr(display.time, "monotonic", lambda: next(clock))
    bar = ProgressDisplay("slow", period=5.0)  # reads the clock once: t = 0
    for i in (1, 2, 3, 4):  # at t = 1, 7, 8, 14 s: < 10% each
        bar(i, 1000)
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["slow: 2/1000 (0%) 7 s", "slow: 4/1000 (0%) 14 s"]


def test_tables_are_not_wrapped_off_a_terminal(capsys):
    """Piped output keeps whole lines: one line per row however wide, never wrapped at the
    console's default width."""
    code, out, _ = run(capsys, "reproduce", "--list")
    assert code == 0
    from nbl_sim.presentation.figures import load_figures

    lines = out.splitlines()
    assert set(lines[1]) == {"-"}
    assert [ln.split()[0] for ln in lines[2:]] == list(load_figures())  # one line per figure
    assert any(len(ln) > 120 for ln in lines)  # wider than rich's default 80 columns
