"""The one grammar of values, lists and grids (proofs_check.cli.grammar), argv gluing of
negative values, the bounds and output-path checks (proofs_check.cli.limits)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from nbl_theory.errors import NBLInputError
from proofs_check.cli.errors import UsageError
from proofs_check.cli.grammar import decimal_text, parse_params, parse_spec
from proofs_check.cli.limits import (
    PICTURE_FORMATS,
    check_out_dir,
    check_plot_path,
    dps_seconds,
    simulation_bytes,
)
from proofs_check.cli.options import glue_values

#: the value grammar is part of the smoke tier (pytest -m smoke)
pytestmark = pytest.mark.smoke


@pytest.mark.parametrize(
    "text, kind, n, values",
    [
        ("0.2", "value", 1, ["0.2"]),
        ("-1.07", "value", 1, ["-1.07"]),
        ("0.6, 0.72,0.8", "list", 3, ["0.6", "0.72", "0.8"]),
        ("-0.9:0.9:7", "range", 7, ["-0.9", "-0.6", "-0.3", "0", "0.3", "0.6", "0.9"]),
        ("0:1:4", "range", 4, ["0", "0.33333333333333333", "0.66666666666666667", "1"]),
        ("1/4:1/2:3", "range", 3, ["1/4", "0.375", "1/2"]),
        ("1e-3:3e-3:3", "range", 3, ["1e-3", "0.002", "3e-3"]),
        ("0.5:0.5:1", "range", 1, ["0.5"]),
    ],
)
def test_spec_forms(text, kind, n, values):
    spec = parse_spec(text, "--x")
    assert (spec.kind, spec.n) == (kind, n)
    assert spec.values() == values


def test_range_default_points_only_where_allowed():
    assert parse_spec("0.1:1.9", "--delta", default_n=160).n == 160
    with pytest.raises(UsageError, match="LO:HI:N"):
        parse_spec("0.1:1.9", "--delta")


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "has no value"),
        ("1:2:0", "positive whole number"),
        ("1:2:x", "positive whole"),
        ("1:2:3:4", "LO:HI:N"),
        ("1,2:3:4", "LO:HI:N"),
        ("1,,2", "empty value"),
        ("1:2:9999999999999", "positive whole"),
    ],
)
def test_spec_refusals_before_any_number_is_read(text, message):
    with pytest.raises(UsageError, match=message):
        parse_spec(text, "--x")


@pytest.mark.parametrize(
    "text, message",
    [
        ("2:1:3", "LO < HI"),
        ("0:1:1", "LO = HI"),
        ("abc", "--x: expected a decimal"),
        ("1e-999999999:1:3", "outside"),
    ],
)
def test_spec_refusals_when_the_numbers_are_read(text, message):
    with pytest.raises(NBLInputError, match=message):
        parse_spec(text, "--x").values()


def test_params():
    specs = parse_params(["rho=0.6,0.7", "mu2=-1"])
    assert list(specs) == ["rho", "mu2"] and specs["rho"].n == 2
    for bad, msg in (
        (["rho"], "NAME=SPEC"),
        (["1x=2"], "not a parameter name"),
        (["a=1", "a=2"], "given twice"),
    ):
        with pytest.raises(UsageError, match=msg):
            parse_params(bad)


@given(st.fractions(min_value=-(10**6), max_value=10**6, max_denominator=10**6))
def test_decimal_text_is_exact_or_17_digits(q: Fraction):
    text = decimal_text(sp.Rational(q.numerator, q.denominator))
    got = Fraction(text)
    if got != q:  # not a terminating decimal (or too long): 17 significant digits
        assert abs(got - q) <= abs(q) * Fraction(1, 10**16)
    else:
        assert "e" not in text


def test_glue_values_lets_values_start_with_a_minus():
    opts = {"--delta", "--potential", "--param", "--init-angle"}
    assert glue_values(["stability", "--delta", "-0.5", "--potential", "-log(m)"], opts) == [
        "stability",
        "--delta=-0.5",
        "--potential=-log(m)",
    ]
    assert glue_values(["--delta", "--json"], opts) == ["--delta", "--json"]  # a missing value
    assert glue_values(["--bracket", "-1", "2"], opts) == ["--bracket=-1:2"]


def test_picture_formats_are_matplotlibs():
    from matplotlib.backend_bases import FigureCanvasBase

    assert set(PICTURE_FORMATS) <= set(FigureCanvasBase.get_supported_filetypes())


def test_output_path_checks_write_nothing(tmp_path):
    (tmp_path / "afile").write_text("x")
    check_out_dir(tmp_path / "new" / "deeper", "--out")  # creatable: fine
    check_plot_path(tmp_path / "p.svg")  # in a directory that exists
    with pytest.raises(UsageError, match="does not exist"):  # --plot makes no directory
        check_plot_path(tmp_path / "new" / "p.svg")
    for call, msg in (
        (lambda: check_out_dir(tmp_path / "afile", "--out"), "is a file"),
        (lambda: check_out_dir(tmp_path / "afile" / "x", "--out"), "is a file"),
        (lambda: check_out_dir("/proc/nbl-x", "--out"), "not writable"),
        (lambda: check_plot_path(tmp_path / "p.gif"), "unknown picture format"),
        (lambda: check_plot_path(tmp_path), "no extension"),
        (lambda: check_plot_path(tmp_path / "afile" / "p.png"), "afile is a file"),
    ):
        with pytest.raises(UsageError, match=msg):
            call()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_size_models():
    # one replication of n = 10000 rounds at d = 100000 is 8 GB of contexts, and the d x d
    # identity 80 GB: the 74.5 GiB allocation of issue 13 is refused by the estimate
    assert simulation_bytes(10_000, 100, 100_000, 200, 502, 1, 1) > 74 * 2**30
    lo, hi = dps_seconds(400)
    assert 20 < lo < 30 and hi == pytest.approx(10 * lo)
