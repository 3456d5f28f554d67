"""The audit's JSON package data (proofs_check.audit.packaged): loading into typed records,
the one layout of the data files, and the shared mutant builders' own guards."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from proofs_check.audit import extracted
from proofs_check.audit import mutants as mut
from proofs_check.audit.packaged import dumps, frozen, read_json, read_text, records

DATA_FILES = ("algorithm.json", "hypotheses.json", "notation.json", extracted.FILE)


@dataclass(frozen=True)
class _Inner:
    a: int


@dataclass(frozen=True)
class _Row:
    name: str
    items: tuple = ()
    inner: tuple = ()


@pytest.mark.parametrize("name", DATA_FILES)
def test_every_data_file_loads_from_the_package(name):
    data = read_json(name)
    assert isinstance(data, dict) and data
    assert json.loads(read_text(name)) == data


def test_records_build_tuples_and_nested_records():
    (row,) = records(
        _Row, [{"name": "x", "items": [[1, 2], [3]], "inner": [{"a": 1}]}], inner=_Inner
    )
    assert row == _Row("x", ((1, 2), (3,)), (_Inner(1),))
    assert records(_Row, [{"name": "y"}]) == (_Row("y"),)  # defaults fill omitted fields


def test_records_reject_an_unknown_field():
    with pytest.raises(ValueError, match="unknown fields \\['nmae'\\]"):
        records(_Row, [{"nmae": "typo"}])


def test_frozen_keeps_dict_order_and_scalars():
    value = {"b": [1, {"c": [2]}], "a": "s"}
    assert frozen(value) == {"b": (1, {"c": (2,)}), "a": "s"}
    assert list(frozen(value)) == ["b", "a"]


def test_dumps_layout_and_round_trip():
    value = {"t": [{"k": [1, 2], "s": "é"}], "e": [], "n": None}
    text = dumps(value)
    assert json.loads(text) == value and text.endswith("}\n") and "é" in text
    assert text == (
        '{\n "t": [\n  {\n   "k": [1, 2],\n   "s": "é"\n  }\n ],\n "e": [],\n "n": null\n}\n'
    )
    assert dumps(value, expand=2).splitlines()[2] == '  {"k": [1, 2], "s": "é"}'


def test_an_algorithm_edit_that_changes_nothing_is_refused():
    with pytest.raises(ValueError, match="line 498"):
        mut.edit_algorithm(extracted.ALGORITHM, 498, "no such text", "x")
