"""stability_grid (issue 35 item 5): λ* and its sign over an array of Δ or a (parameter × Δ)
grid, each cell exactly what stability() gives for it, with optional certification; and the
result family (to_dict / to_frame) shared with stability() and exact_stability()."""

import json

import numpy as np
import pytest

from nbl_theory.errors import NBLInputError
from nbl_theory.families import make_family
from nbl_theory.records import MissingPandas, Result
from nbl_theory.stability import stability, stability_grid


def test_array_of_delta_is_stability_cell_by_cell():
    link = make_family("logistic")
    deltas = np.array([0.1, 0.5, 1.5])
    g = stability_grid(link, deltas)
    assert g.lambda_star.shape == (1, 3) and g.deltas == ["0.1", "0.5", "1.5"]
    for j, d in enumerate(g.deltas):
        assert g.lambda_star[0, j] == float(stability(link, d).lambda_star)
    assert (g.sign == "stable").all()


def test_parameter_grid_with_certified_signs():
    # the paper's two-transition links (tab:numerical-summary): mu2 = 1.244122 is unstable at
    # Delta = 0.2 and stable at Delta = 1 (its certified threshold lies between)
    g = stability_grid(
        "two-transition", ["0.2", "1"], param="mu2", values=["-1.074037", "1.244122"], certify=True
    )
    assert g.lambda_star.shape == (2, 2) and g.certified.all()
    assert g.sign.tolist() == [["stable", "stable"], ["unstable", "stable"]]
    ref = stability(make_family("two-transition", mu2="1.244122"), "0.2", certify=True)
    assert g.results[1][0].to_json()["lambda_star"] == ref.to_json()["lambda_star"]
    d = g.to_dict()
    json.dumps(d)
    assert d["lambda_star"][1][0] == float(ref.lambda_star) < 0
    assert d["lambda_star_decimal"][1][0] == ref.to_json()["lambda_star"]


def test_grid_input_checked_before_work():
    with pytest.raises(NBLInputError):
        stability_grid("logistic", [0.5, 2.5])
    with pytest.raises(NBLInputError, match="together"):
        stability_grid("two-transition", [0.5], param="mu2")


def test_one_result_family():
    from nbl_sim.beyond import exact_stability

    link = make_family("logistic")
    a, b = stability(link, "1"), exact_stability(link, "1", contexts="cube")
    g = stability_grid(link, [1])
    for r in (a, b, g):
        assert isinstance(r, Result)
        json.dumps(r.to_dict())  # JSON data under the one number convention
    assert isinstance(a.to_dict()["lambda_star"], float)
    assert isinstance(b.to_dict()["lambda_star"], float)


def test_to_frame_with_and_without_pandas(monkeypatch):
    link = make_family("logistic")
    g = stability_grid("two-transition", [0.2, 1], param="mu2", values=[-1, 1.244122])
    try:
        import pandas  # noqa: F401
    except ImportError:
        pass
    else:
        f = g.to_frame()
        assert list(f["mu2"]) == [-1.0, -1.0, 1.244122, 1.244122]
        assert list(f["sign"]) == ["stable", "stable", "unstable", "stable"]
        assert stability(link, "1").to_frame().shape[0] == 1
    import builtins

    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("no pandas here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    with pytest.raises(MissingPandas, match="pip install pandas"):
        g.to_frame()
