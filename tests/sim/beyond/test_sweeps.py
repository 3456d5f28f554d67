"""exact_stability / exact_phase (nbl_sim.beyond.sweeps): what the CLI's --contexts/--arms run."""

import json
import math

import numpy as np
import pytest

from nbl_sim.beyond import analyze, exact_phase, exact_stability
from nbl_sim.beyond.arms import parse_arms_spec
from nbl_sim.beyond.contexts import parse_context_spec
from nbl_sim.runs.execution import ProcessExecutor
from nbl_theory.errors import NBLInputError
from nbl_theory.link_source import LinkSource
from nbl_theory.paper import paper_link


def test_exact_stability_is_the_analysis_as_plain_data():
    """The dict is JSON-able and its numbers are analyze()'s (==): the covariance flip of
    tt-stable at Δ = 1 (λ* > 0, exact rate < 0, learned boundary ±83.91°)."""
    link = paper_link("tt-stable")
    r = exact_stability(link, "1", contexts="gaussian:cond=3,angle=90")
    json.dumps(r)
    a = analyze(
        parse_context_spec("gaussian:cond=3,angle=90"), parse_arms_spec("symmetric", link, "1")
    )
    assert r["exact_rate"] == a.vstar_rate and r["lambda_star"] == a.gaussian["lambda_star"]
    assert r["verdict"] == "sign-flip" and r["gaussian_predicts"] == "attracting"
    assert abs(r["bias_deg"]) == pytest.approx(83.912, abs=1e-3)
    iso = exact_stability(link, "1")
    assert iso["verdict"] == "agrees" and iso["exact_rate"] > 0
    biased = exact_stability(link, "1", arms="shift=0.4")
    assert biased["exact_rate"] is None and biased["verdict"] == "biased"


def test_exact_phase_grid_and_executor_invariance():
    """A (μ2, Δ) grid under Student-t ν = 5: each column equals exact_stability of its link,
    and a 2-process pool gives the same arrays."""
    kw = dict(contexts="student-t:nu=5", n_grid=360)
    ph = exact_phase("two-transition", "mu2", ["-1", "2.144072"], ["0.2", "1"], workers=1, **kw)
    assert ph.exact_rate.shape == (2, 2) and not ph.failures
    from nbl_theory.families import make_family

    one = exact_stability(make_family("two-transition", mu2="2.144072"), "0.2", **kw)
    assert ph.exact_rate[0, 1] == one["exact_rate"] and ph.verdict[0, 1] == one["verdict"]
    assert ph.verdict[0, 1] == "sign-flip"  # the near-critical link repels under t (ν = 5)
    pooled = exact_phase(
        "two-transition", "mu2", ["-1", "2.144072"], ["0.2", "1"], executor=ProcessExecutor(2), **kw
    )
    assert np.array_equal(pooled.exact_rate, ph.exact_rate, equal_nan=True)
    js = ph.to_json()
    json.dumps(js)
    assert js["mispredicted_fraction"] == pytest.approx(0.25)


def test_exact_phase_with_a_link_source_and_arms():
    ph = exact_phase(
        LinkSource.expression("sigmoid(a*z)"),
        "a",
        ["1", "2"],
        ["0.5"],
        arms="intercept=0.2",
        workers=1,
    )
    assert np.all(np.isnan(ph.exact_rate)) and set(ph.verdict.ravel()) == {"biased"}
    assert all(math.isfinite(b) and b != 0 for b in ph.bias_deg.ravel())


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        (dict(contexts="laplace"), "unknown context law"),
        (dict(arms="tilt=3"), "arms spec"),
        (dict(deltas=["2.5"]), "open interval"),
        (dict(values=[]), "at least one"),
    ],
)
def test_bad_input_before_any_work(kwargs, fragment):
    args = dict(values=["1"], deltas=["0.5"])
    args.update(kwargs)
    with pytest.raises(NBLInputError, match=fragment):
        exact_phase("two-transition", "mu2", args.pop("values"), args.pop("deltas"), **args)
