"""Numeric input out of float64's reach: refused before any work, or an error naming the input —
never a verdict computed from NaN or inf (issue 36, item 1)."""

import numpy as np
import pytest

from nbl_sim.beyond import contexts as ctx
from nbl_sim.beyond.arms import parse_arms_spec
from nbl_sim.beyond.case import analyze
from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family


def _data(scale, rows=200):
    return np.random.default_rng(0).standard_normal((rows, 2)) * scale


@pytest.mark.parametrize("scale", [1e10, 1e100, 1e160, 1e300])
def test_empirical_entries_bounded(scale):
    with pytest.raises(NBLInputError, match="within ±1e\\+06"):
        ctx.EmpiricalLaw(_data(scale))


def test_empirical_bound_is_the_stated_one():
    x = _data(1.0)
    x *= ctx.MAX_ENTRY / np.max(np.abs(x))
    ctx.EmpiricalLaw(x)  # exactly at the bound: accepted
    with pytest.raises(NBLInputError):
        ctx.EmpiricalLaw(x * (1 + 1e-15) + np.sign(x) * 1e-9)


def test_standardize_takes_larger_raw_entries():
    law = ctx.EmpiricalLaw(_data(1e90), standardize=True)
    assert np.max(np.abs(law.data)) < np.sqrt(200) + 1e-9
    with pytest.raises(NBLInputError, match="within ±1e\\+100"):
        ctx.EmpiricalLaw(_data(1e150), standardize=True)


@pytest.mark.parametrize(
    "cov, why",
    [
        (np.diag([1e13, 1e13]), "within ±1e\\+12"),
        (np.diag([1e-13, 1e-13]), "eigenvalues must lie in"),
        (np.diag([1.0, 1e-13]), "condition number"),
    ],
)
def test_covariance_range_and_conditioning(cov, why):
    with pytest.raises(NBLInputError, match=why):
        ctx.GaussianLaw(2, cov)


def test_csv_file_refused_before_work(tmp_path):
    f = tmp_path / "big.csv"
    np.savetxt(f, _data(1e160), delimiter=",")
    with pytest.raises(NBLInputError, match="emp|within"):
        ctx.parse_context_spec(f"empirical:{f}")


def test_overflow_inside_analysis_is_an_error_not_a_verdict():
    # the bound is bypassed on purpose (data set after construction): what the analysis does
    # when its arithmetic leaves float64. Before issue 36 this returned "not-an-equilibrium".
    law = ctx.EmpiricalLaw(_data(1.0))
    law.data = law.data * 1e160
    arms = parse_arms_spec("symmetric", make_family("two-transition"), 0.5, 2)
    with pytest.raises(NBLInputError, match="left float64"):
        analyze(law, arms)


def test_simulate_non_finite_is_an_error():
    # bound bypassed on purpose, as above. Before issue 36: a ZeroDivisionError or NaN regrets.
    from nbl_sim.engine.environment import Environment
    from nbl_sim.studies.experiment import simulate

    law = ctx.EmpiricalLaw(_data(1.0))
    law.data = law.data * 1e300
    env = Environment.build(make_family("two-transition"), 0.5, 2, contexts=law)
    with pytest.raises(NBLInputError, match="non-finite|float64"):
        simulate(env, n=200, reps=2, n0=20, policies=("nbl",), seed=1, workers=1)


@pytest.mark.parametrize(
    "text, why",
    [
        ("1," + "2" * 140_000 + "\n" + "1,2\n" * 20, "longer than 65536"),
        (",".join(["1"] * 2000) + "\n", "2000 fields"),
        ("1,2\n" * 20 + "\u0661,2\n", "non-numeric entry on line 21"),  # Arabic-Indic one
        ("1,2\n" * 20 + "\uff11,2\n", "non-numeric entry on line 21"),  # full-width one
    ],
)
def test_csv_bounds_and_digits(tmp_path, text, why):
    f = tmp_path / "x.csv"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(NBLInputError, match=why):
        ctx.read_csv_matrix(f, "empirical data")
