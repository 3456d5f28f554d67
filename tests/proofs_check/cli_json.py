"""Shared by the CLI tests: run ``nbl ... --json --quiet`` in-process and validate the envelope."""

from __future__ import annotations

import json

import jsonschema

from proofs_check.cli import main
from proofs_check.cli.jsonout import FORMAT, schema


def run_json(capsys, *argv) -> dict:
    """The parsed JSON envelope of ``nbl *argv --json --quiet`` (exit 0 asserted), validated
    against the subcommand's shipped schema."""
    code = main([*argv, "--json", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data = json.loads(out)
    jsonschema.validate(data, schema(argv[0]))
    assert data["command"] == argv[0] and data["format"] == FORMAT
    return data
