"""The library's own consistency on the paper's six named links (moved out of the claim registry,
issue 15: two library routes agreeing is a test of the toolkit, not a check of the paper).

* nbl_sim.engine.geometry.tangent_projection against the literal matrix formula (I − vvᵀ)W
  (was part of the claim ``tangent-update-projection``);
* nbl_sim.population.fields.jacobian_fd against jacobian_formula (was ``jacobian-finite-difference``);
* central differences of potential_J against population_field (was ``gradient-of-j``);
* tangent_field = H_alpha · v_⊥ and H_alpha = v_⊥ᵀ population_field on the circle (was part of
  ``h-alpha-identity``).

The claims now compare the paper's statements with the independent witness of
proofs_check.witnesses.fields instead.
"""

from __future__ import annotations

import numpy as np
import pytest

from nbl_sim.engine.geometry import tangent_projection
from nbl_sim.population import fields as pop
from nbl_theory.paper import PAPER_LINKS

KEYS = list(PAPER_LINKS)


def _frame(index: int, delta: str, d: int):
    q, _ = np.linalg.qr(np.random.default_rng(10 * index + d).standard_normal((d, d)))
    return pop.arm_vectors(delta, d, v_star=q[:, 0], theta_dir=q[:, 1])


def _scale(link) -> float:
    return max(1.0, pop.quadrature_scale(link))


@pytest.mark.parametrize("d", [2, 3, 5, 10])
def test_tangent_projection_is_the_matrix_formula(d):
    """|v^T G|, |G − (I − vvᵀ)W| and |(vᵀW)v + G − W| ≤ 1e-14 ‖W‖ over 500 random (v, W) with
    ‖W‖ from 1e-3 to 1e3: each entry is a short dot product (a few ulps of ‖W‖)."""
    rng = np.random.default_rng(2024 + d)
    v = rng.standard_normal((500, d))
    v /= np.linalg.norm(v, axis=1)[:, None]
    W = rng.standard_normal((500, d)) * 10.0 ** rng.uniform(-3, 3, (500, 1))
    G = tangent_projection(v, W)
    lit = np.einsum("kij,kj->ki", np.eye(d)[None] - v[:, :, None] * v[:, None, :], W)
    nW = np.linalg.norm(W, axis=1)
    assert np.max(np.abs((v * G).sum(1)) / nW) <= 1e-14
    assert np.max(np.abs(G - lit).max(1) / nW) <= 1e-14
    assert np.max(np.abs((v * W).sum(1)[:, None] * v + G - W).max(1) / nW) <= 1e-14


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("delta", ["0.2", "1"])
@pytest.mark.parametrize("d", [2, 3])
def test_fd_jacobian_equals_formula_on_paper_links(key, delta, d):
    """Budget 1e-9 · max(1, S) as in tests/sim/test_population.py (measured ~5e-13)."""
    link = PAPER_LINKS[key].link()
    beta, vs, _ = _frame(KEYS.index(key), delta, d)
    fd = pop.jacobian_fd(link, beta, vs)
    formula = pop.jacobian_formula(link, delta, beta=beta)
    assert np.abs(fd - formula).max() <= 1e-9 * _scale(link)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("d", [2, 3])
def test_gradient_of_library_J_is_library_F(key, d):
    """Central differences (step 1e-4) of potential_J at a random unit v: truncation ~1e-9,
    noise/step ~1e-12, so 1e-8 · max(1, S) (measured ~8e-10)."""
    link = PAPER_LINKS[key].link()
    beta, _, _ = _frame(KEYS.index(key), "0.2", d)
    v = np.random.default_rng(7 + d).standard_normal(d)
    v /= np.linalg.norm(v)
    e = 1e-4
    grad = np.array(
        [
            (pop.potential_J(link, beta, v + e * u) - pop.potential_J(link, beta, v - e * u))
            / (2 * e)
            for u in np.eye(d)
        ]
    )
    assert np.abs(grad - pop.population_field(link, beta, v)).max() <= 1e-8 * _scale(link)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("delta", ["0.2", "1"])
def test_h_alpha_identities_of_the_library_field(key, delta):
    """h(v(α)) = H(α)v_⊥(α), H = v_⊥ᵀF = v_⊥ᵀh and vᵀh = 0 at 720 angles: the same quadrature
    field on both sides, so rounding only (1e-13 · max(1, S))."""
    link = PAPER_LINKS[key].link()
    alpha = np.linspace(-np.pi, np.pi, 720, endpoint=False) + 0.0017
    va = np.stack([np.cos(alpha), np.sin(alpha)], axis=1)
    vp = np.stack([-np.sin(alpha), np.cos(alpha)], axis=1)
    beta, _, _ = pop.arm_vectors(delta, 2)
    H = pop.H_alpha(link, delta, alpha)
    h = pop.tangent_field(link, beta, va)
    F = pop.population_field(link, beta, va)
    tol = 1e-13 * _scale(link)
    assert np.abs(h - H[:, None] * vp).max() <= tol
    assert np.abs(H - (vp * F).sum(1)).max() <= tol
    assert np.abs((va * h).sum(1)).max() <= tol
