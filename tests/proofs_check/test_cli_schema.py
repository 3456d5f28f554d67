"""Every subcommand's ``--json`` output validates against the JSON Schema shipped in the package
(:mod:`proofs_check.cli.jsonout`), on small fast inputs; the schemas themselves are valid
JSON Schemas, ship as package data and state the number convention."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources

import jsonschema
import pytest

from proofs_check.cli import SUBCOMMANDS
from proofs_check.cli.jsonout import dumps, schema
from tests.proofs_check.cli_json import run_json

WITH_JSON = [m.NAME for m in SUBCOMMANDS]


@pytest.mark.parametrize("command", WITH_JSON)
def test_schema_is_a_valid_schema_shipped_as_package_data(command):
    path = resources.files("proofs_check.cli").joinpath("schemas", f"{command}.json")
    assert path.is_file()
    s = schema(command)
    jsonschema.Draft202012Validator.check_schema(s)
    assert s["properties"]["command"] == {"const": command}
    # the number convention is stated in the schema
    assert "decimal string" in s["$defs"]["decimal"]["description"]
    assert "JSON number" in s["$defs"]["float"]["description"]


def test_a_wrong_document_is_rejected():
    """The schemas can fail: a decimal string where a JSON number belongs, a single row instead
    of a list, a missing key."""
    good = {
        "command": "threshold",
        "version": "0",
        "format": 2,
        "files": [],
        "results": [
            {
                "link": "x",
                "solve_for": "delta",
                "fixed": {},
                "search_range": [0.1, 1.0],
                "grid_points": 3,
                "roots": [],
                "notes": [],
            }
        ],
    }
    jsonschema.validate(good, schema("threshold"))
    for bad in (
        {**good, "results": good["results"][0]},  # not a list
        {**good, "results": [{**good["results"][0], "search_range": ["0.1", "1"]}]},  # text
        {k: v for k, v in good.items() if k != "files"},  # missing key
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema("threshold"))


def test_non_finite_floats_are_strings():
    text = dumps({"x": float("inf"), "y": [float("nan"), -float("inf"), 1.5]})
    assert json.loads(text) == {"x": "inf", "y": ["nan", "-inf", 1.5]}


def test_stability_json(capsys):
    data = run_json(capsys, "stability", "--family", "logistic", "--delta", "0.3,0.6")
    assert [r["delta"] for r in data["results"]] == [0.3, 0.6]
    data = run_json(capsys, "stability", "--family", "logistic", "--delta", "0.3", "--certify")
    assert len(data["results"]) == 1  # one row is still a list


def test_threshold_json(capsys):
    data = run_json(
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
    (row,) = data["results"]
    assert row["fixed"] == {"rho": 0.72} and row["search_range"] == [0.1, 0.3]


def test_self_concordance_json(capsys):
    data = run_json(
        capsys,
        "self-concordance",
        "--family",
        "weighted-entropy",
        "--param",
        "rho=0.6",
        "--delta",
        "0.2",
    )
    assert isinstance(data["results"][0]["R"], float)
    run_json(capsys, "self-concordance", "--family", "logistic")


def test_simulate_json(capsys, tmp_path):
    data = run_json(
        capsys,
        "simulate",
        "--family",
        "logistic",
        "--delta",
        "1",
        "--n",
        "200",
        "--reps",
        "3",
        "--policy",
        "all",
        "--d",
        "3",
        "--no-cache",
        "--out",
        str(tmp_path / "sim"),
    )
    assert all(
        (tmp_path / "sim" / f).name in {p.name for p in (tmp_path / "sim").iterdir()}
        for f in data["files"]
    )


def test_phase_json(capsys, tmp_path):
    data = run_json(
        capsys,
        "phase",
        "--family",
        "weighted-entropy",
        "--param",
        "rho=-0.9:0.9:7",
        "--delta",
        "0.1,0.5",
        "--no-cache",
        "--out",
        str(tmp_path),
    )
    (row,) = data["results"]
    # grid values as the nearest doubles of the exact grid points, not float noise
    # (-0.29999999999999993); nothing more to say, so no values_decimal
    assert row["values"] == [-0.9, -0.6, -0.3, 0.0, 0.3, 0.6, 0.9] and "values_decimal" not in row
    assert row["axes"] == {"rows": "delta", "columns": "rho"}
    assert len(row["lambda_star"]) == 2 and len(row["lambda_star"][0]) == 7
    written = json.loads((tmp_path / "phase.json").read_text())
    jsonschema.validate(written, schema("phase"))  # the file uses the same envelope


def test_reproduce_json_list(capsys):
    data = run_json(capsys, "reproduce", "--list")
    assert {r["id"] for r in data["results"]} >= {"numerical-summary"}


def test_check_json(capsys, tmp_path):
    from proofs_check.registry import REGISTRY, STATUSES

    first = REGISTRY.all_claims()[0].id
    data = run_json(capsys, "check", "--claim", first, "--out", str(tmp_path))
    (row,) = data["results"]
    assert row["id"] == first and row["status"] in STATUSES
    assert set(STATUSES) <= set(schema("check")["$defs"]["row"]["properties"]["status"]["enum"])


def test_study_json(capsys, monkeypatch):
    """A tiny configuration in place of --quick (the study's own numbers are tested in
    tests/sim; here only the shape of the output)."""
    import nbl_sim.studies.rate_study as rs

    tiny = dataclasses.replace(
        rs.QUICK,
        name="tiny",
        dims=(2,),
        ns=(300, 600, 1200),
        reps=4,
        t_points=6,
        long_dims=(3,),
        long_ns=(300, 600, 1200),
        long_reps=3,
        gamma_multiples=(0.5, 1.0, 2.0),
        gamma_n=600,
        gamma_reps=4,
        loc_dims=(2,),
        loc_n0s=(10, 40),
        loc_n=300,
        loc_reps=6,
        contrast_ns=(300, 600, 1200),
        contrast_reps=4,
    )
    monkeypatch.setattr(rs, "QUICK", tiny)
    data = run_json(capsys, "study", "--quick", "--no-cache", "--workers", "1")
    assert data["results"][0]["config"]["name"] == "tiny"
