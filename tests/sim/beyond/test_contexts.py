"""Context laws and their spec strings (nbl_sim.beyond.contexts, nbl_sim.beyond.datasets).

Moment checks are Monte Carlo with a fixed seed; every bound is 5 standard errors computed
from the sample itself (the fourth moments for covariance entries): a two-sided normal tail of
5.7e-7 per comparison, so the ~60 comparisons of this file fail by chance with probability
< 4e-5 — and the seed is fixed, so a failure is reproducible, not flaky.
"""

import math
import sys

import numpy as np
import pytest

from nbl_sim.beyond import contexts as ctx
from nbl_sim.beyond.datasets import principal_components
from nbl_theory.errors import NBLInputError

SPECS = [
    "gaussian",
    "gaussian:cond=10,angle=30",
    "student-t:nu=5",
    "student-t:nu=3",
    "student-t:nu=4,cond=3,angle=20",
    "ball",
    "cube",
    "rademacher",
]


@pytest.mark.parametrize("spec", SPECS)
def test_sample_shape_reproducible_and_moments(spec):
    law = ctx.parse_context_spec(spec)
    a = law.sample(np.random.default_rng(7), 1000)
    b = law.sample(np.random.default_rng(7), 1000)
    assert a.shape == (1000, 2) and a.dtype == np.float64
    np.testing.assert_array_equal(a, b)  # same generator state, same numbers
    n = 200_000
    x = law.sample(np.random.default_rng(11), n)
    mean_se = x.std(axis=0) / math.sqrt(n)
    assert np.all(np.abs(x.mean(axis=0)) <= 5 * mean_se), "mean is not 0"
    sigma = law.covariance
    for i in range(2):
        for j in range(2):
            prod = x[:, i] * x[:, j]
            se = prod.std() / math.sqrt(n)
            assert abs(prod.mean() - sigma[i, j]) <= 5 * se, f"Cov[{i},{j}] is not {sigma[i, j]}"


@pytest.mark.parametrize(
    "spec,d", [("gaussian", 5), ("ball", 3), ("cube", 4), ("rademacher", 6), ("student-t:nu=7", 3)]
)
def test_higher_dimensions_have_identity_covariance(spec, d):
    law = ctx.parse_context_spec(spec, d)
    assert law.d == d
    x = law.sample(np.random.default_rng(3), 300_000)
    cov = x.T @ x / x.shape[0]
    se = np.sqrt((x[:, :, None] ** 2 * x[:, None, :] ** 2).mean(axis=0) / x.shape[0])
    assert np.all(np.abs(cov - np.eye(d)) <= 5 * se)


def test_covariance_2d_geometry():
    s = ctx.covariance_2d(10, 30)
    ev, q = np.linalg.eigh(s)
    np.testing.assert_allclose(ev, [2 / 11, 20 / 11], rtol=1e-14)  # cond 10, trace 2
    major = q[:, 1] * np.sign(q[0, 1])
    assert abs(math.degrees(math.atan2(major[1], major[0])) - 30) < 1e-12
    np.testing.assert_allclose(ctx.covariance_2d(1, 77), np.eye(2), atol=1e-15)


def test_ball_and_cube_support():
    b = ctx.BallLaw(2).sample(np.random.default_rng(1), 10_000)
    assert np.max(np.linalg.norm(b, axis=1)) <= 2.0
    c = ctx.CubeLaw(3).sample(np.random.default_rng(1), 10_000)
    assert np.max(np.abs(c)) <= math.sqrt(3)


def test_rademacher_atoms():
    pts, w = ctx.RademacherLaw(3).atoms()
    assert pts.shape == (8, 3) and len({tuple(p) for p in pts}) == 8
    assert set(np.unique(pts)) == {-1.0, 1.0} and np.isclose(w.sum(), 1.0)


def test_empirical_from_csv(tmp_path):
    rng = np.random.default_rng(0)
    data = rng.normal(size=(50, 2)) * [3.0, 0.5] + [1.0, -2.0]
    f = tmp_path / "x.csv"
    f.write_text("a,b\n" + "\n".join(f"{float(u)!r},{float(v)!r}" for u, v in data) + "\n")
    law = ctx.parse_context_spec(f"empirical:{f}")
    np.testing.assert_array_equal(law.data, data)  # header skipped, values exact
    std = ctx.parse_context_spec(f"empirical:{f},standardize")
    np.testing.assert_allclose(std.data.mean(axis=0), 0, atol=1e-14)
    np.testing.assert_allclose(std.data.std(axis=0), 1, rtol=1e-14)
    draw = law.sample(np.random.default_rng(2), 100)
    assert {tuple(r) for r in draw} <= {tuple(r) for r in data}


def test_gaussian_cov_file(tmp_path):
    f = tmp_path / "cov.csv"
    f.write_text("2,0.5,0\n0.5,1,0\n0,0,0.5\n")
    law = ctx.parse_context_spec(f"gaussian:cov={f}")
    assert law.d == 3
    np.testing.assert_allclose(law.transform @ law.transform.T, law.covariance, atol=1e-14)


BAD = [
    "",
    "poisson",
    "gaussian:cond=10",
    "gaussian:cond=0.5,angle=0",
    "gaussian:cond=x,angle=1",
    "gaussian:cond=2,angle=3,cond=4",
    "gaussian:foo=1",
    "gaussian:cond=2,angle=nan",
    "student-t",
    "student-t:nu=2",
    "student-t:nu=-1",
    "ball:radius=1",
    "cube:x",
    "rademacher:d=3",
    "empirical:",
    "empirical:/no/such/file.csv",
    "dataset:iris",
    "gaussian:cov=/no/such.csv",
    "gaussian:",
    "gaussian:cond=1e9,angle=0",
]


@pytest.mark.parametrize("spec", BAD)
def test_bad_specs_refused_with_one_line(spec):
    with pytest.raises(NBLInputError) as e:
        ctx.parse_context_spec(spec)
    assert "\n" not in str(e.value)


def test_bad_files_and_dimensions(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("1,2\n3,x\n")
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("1,2\n3\n")
    notspd = tmp_path / "cov.csv"
    notspd.write_text("1,2\n2,1\n")
    for spec in (f"empirical:{bad}", f"empirical:{ragged}", f"gaussian:cov={notspd}"):
        with pytest.raises(NBLInputError):
            ctx.parse_context_spec(spec)
    with pytest.raises(NBLInputError, match="d = 3"):
        ctx.parse_context_spec("gaussian:cond=2,angle=0", d=3)
    with pytest.raises(NBLInputError):
        ctx.GaussianLaw(2).sample(np.random.default_rng(0), -1)
    with pytest.raises(NBLInputError):
        ctx.GaussianLaw(2).sample(0, 5)


def test_dataset_is_whitened_principal_components():
    law = ctx.parse_context_spec("dataset:breast-cancer")
    assert law.data.shape == (569, 2)
    np.testing.assert_allclose(law.data.mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(law.covariance, np.eye(2), atol=1e-12)
    # independent check: PC1 of the z-scored features is the top eigenvector of their
    # correlation matrix (sklearn's bundled data, read directly)
    from sklearn.datasets import load_breast_cancer

    x = load_breast_cancer().data
    z = (x - x.mean(axis=0)) / x.std(axis=0)
    ev, q = np.linalg.eigh(np.corrcoef(z, rowvar=False))
    pc1 = z @ q[:, -1]
    assert abs(abs(np.corrcoef(pc1, law.data[:, 0])[0, 1]) - 1) < 1e-12
    assert ctx.load_dataset("wine").data.shape == (178, 2)
    np.testing.assert_allclose(
        np.cov(principal_components(z, 2), rowvar=False, bias=True), np.eye(2), atol=1e-12
    )


def test_dataset_without_scikit_learn(monkeypatch):
    monkeypatch.setitem(sys.modules, "sklearn", None)
    with pytest.raises(NBLInputError, match=r"pip install nbl\[datasets\]"):
        ctx.parse_context_spec("dataset:wine")
