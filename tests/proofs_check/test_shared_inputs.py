"""The inputs library and witnesses share (the paper's links, φ0(0), the Gauss–Legendre rules)
are checked against the paper before any verdict: a bug in one of them is a toolkit FAIL in
every claim, never a DISCREPANCY (proofs_check.witnesses.shared_inputs, Registry.preflight)."""

from __future__ import annotations

import numpy as np
import pytest

import nbl_theory.numeric as numeric
from nbl_theory.families import make_family
from proofs_check.registry import (
    CAVEAT,
    DISCREPANCY,
    FAIL,
    PASS,
    REGISTRY,
    Mutant,
    Outcome,
    Registry,
)
from proofs_check.witnesses import shared_inputs as si


@pytest.fixture
def fresh():
    si.shared_inputs_defect.cache_clear()
    yield
    si.shared_inputs_defect.cache_clear()


def test_the_shipped_inputs_are_right(fresh):
    assert si.shared_inputs_defect() is None
    for key in si.PAPER_LINKS:
        assert max(si.link_errors(key)) <= 1e-14  # measured ≤ 4e-16 (two float64 orders)


def test_a_wrong_paper_link_is_a_toolkit_fail_in_every_claim(fresh, monkeypatch):
    """The libmutation blame: eq:link_tanh with its second term dropped (here: tt-stable built
    at another mu2). The preflight names the link; every verdict turns FAIL."""
    wrong = make_family("two-transition", mu2="-1.2")
    real = si.paper_link
    monkeypatch.setattr(si, "paper_link", lambda k: wrong if k == "tt-stable" else real(k))
    defect = si.shared_inputs_defect()
    assert defect is not None and "tt-stable" in defect and "g:" in defect
    claims = {c.id: c for c in REGISTRY.all_claims()}
    for cid in ("we-lambda-0.72", "two-transition-definition", "notation-audit"):
        r = REGISTRY.run_one(claims[cid])
        assert r.status == FAIL and r.detail.startswith(
            "toolkit defect: the library's paper link tt-stable"
        ), (cid, r.detail[:200])


@pytest.fixture
def no_trees():
    """The paper links' bisection trees forgotten before and after (so a test's own — here a
    wrong one — is built, and does not outlive it); trees give the plain loop's bits, so
    forgetting them changes no number."""

    def forget():
        for key in si.PAPER_LINKS:
            link = si.paper_link(key)
            if link.kind == "potential":
                link._dual_trees.clear()
                link._dual_points.clear()

    forget()
    yield
    forget()


def test_a_wrong_bisection_tree_is_a_toolkit_defect(fresh, no_trees, monkeypatch):
    """The blame of the full library-mutation sample (nbl_theory.link_numeric:251: the tree's
    inner z evaluated at no point, so every large call of a weighted-entropy link's g answered
    from an empty tree): the witnesses' field quadratures take that path, the preflight's
    81 points did not, and three field claims read DISCREPANCY. The preflight now calls g on
    8193 points twice, the second from the tree the first one built."""
    import nbl_theory.links as links_module

    real = links_module.bisection_tree

    def empty_tree(zfun, t_lo, t_hi, levels=16):
        out = real(zfun, t_lo, t_hi, levels)
        return None if out is None else (out[0], out[1][:0])

    monkeypatch.setattr(links_module, "bisection_tree", empty_tree)
    defect = si.shared_inputs_defect()
    assert defect is not None and "we-0.60" in defect and "g:" in defect


def test_wrong_rules_or_constant_are_defects(fresh, monkeypatch):
    monkeypatch.setattr(si, "PHI0", numeric.PHI0 * (1 + 1e-12))
    assert "phi0" in si.shared_inputs_defect()
    monkeypatch.undo()
    si.shared_inputs_defect.cache_clear()

    def panels(edges, order=16):
        x, w = numeric.gauss_legendre_panels(edges, order)
        return x, w * (1 + 1e-9)

    monkeypatch.setattr(si, "gauss_legendre_panels", panels)
    assert "Gauss-Legendre" in si.shared_inputs_defect()


def test_the_preflight_gates_verdicts_not_failures():
    reg = Registry(preflight=f"{__name__}:_defect")
    calls.clear()
    for status in (PASS, CAVEAT, DISCREPANCY, FAIL):
        reg.register(
            f"c-{status}",
            "eq:x",
            "sec:x",
            "s",
            "symbolic",
            "exact",
            "why",
            mutants=(Mutant.formula("m", k=1),),
        )(lambda k=0, status=status: Outcome(status, str(k), "detail"))
    out = {r.id: r for r in reg.run_claims()}
    for status in (PASS, CAVEAT, DISCREPANCY):
        assert out[f"c-{status}"].status == FAIL
        assert out[f"c-{status}"].detail == (
            f"toolkit defect: a planted defect; the paper is not judged (the check read {status})"
        )
    assert out["c-FAIL"].detail == "detail"
    assert Registry().shared_inputs_defect() is None
    bad = Registry(preflight=f"{__name__}:_raises")
    assert "raised ZeroDivisionError" in bad.shared_inputs_defect()


calls: list = []


def _defect():
    calls.append(1)
    return "a planted defect"


def _raises():
    return 1 / 0


def test_link_errors_see_a_relative_change_of_1e_11(monkeypatch):
    """The comparison is sharp: g scaled by 1 + 1e-11 is seen (above LINK_TOL = 1e-12)."""
    link = si.paper_link("we-0.60")

    class Scaled:
        def g_numpy(self, z):
            return link.g_numpy(z) * (1 + 1e-11)

        def derivative_numpy(self, z, k):
            return link.derivative_numpy(z, k)

    monkeypatch.setattr(si, "paper_link", lambda k: Scaled())
    g, g1, g2 = si.link_errors("we-0.60")
    assert g > si.LINK_TOL and max(g1, g2) <= 1e-14
    assert np.isfinite(g)


def _corrupt(kind):
    """A realization with one planted bug of the draw."""

    def wrong(real):
        if kind == "arms-swapped":  # the rewards of arm +1 recorded as arm -1's
            real.Y[...] = real.Y[..., ::-1].copy()
        elif kind == "means":  # g evaluated 1e-9 too high
            real.means[...] = real.means + 1e-9
        elif kind == "coins":
            real.coins[...] = -real.coins
        elif kind == "contexts":  # one coordinate of one context
            real.X[0, 5, 1] = np.nextafter(real.X[0, 5, 1], np.inf)
        elif kind == "optimal":
            real.optimal[...] = -real.optimal
        return real

    return wrong


@pytest.mark.parametrize("kind", ["arms-swapped", "means", "coins", "contexts", "optimal"])
@pytest.mark.parametrize("backend", ["compiled", "reference"])
def test_a_wrong_realization_is_a_toolkit_defect(fresh, monkeypatch, kind, backend):
    """A bug of the draw moves the library and every witness that re-runs a policy on the
    realization alike (with the arms' rewards swapped, four simulation claims read
    DISCREPANCY before the realization was judged); the preflight now compares both backends'
    draws with the witness's own draw from the model and numpy's documented streams."""
    import nbl_sim.engine.reference as reference
    from nbl_sim.engine.environment import Environment

    corrupt = _corrupt(kind)
    if backend == "compiled":
        orig = Environment.draw
        monkeypatch.setattr(Environment, "draw", lambda self, *a, **k: corrupt(orig(self, *a, **k)))
    else:
        orig = reference.draw
        monkeypatch.setattr(reference, "draw", lambda *a, **k: corrupt(orig(*a, **k)))
    defect = si.shared_inputs_defect()
    assert defect is not None and f"realization ({backend} draw" in defect, defect


def test_the_preflights_dimensions_reach_every_branch_of_the_pairwise_sum():
    """The optimal actions sum v*ᵀx pairwise (nbl_sim.engine.environment_passes): one term at a
    time below d = 8, eight partial sums from d = 8, a loop over further blocks of eight from
    d = 16 on, and a remainder added one by one. The preflight's realizations must reach each
    (d = 16 caught two survivors of the library sample, environment_passes:35 and :46)."""
    from proofs_check.witnesses.shared_inputs import REALIZATIONS

    dims = {row[2] for row in REALIZATIONS}
    assert any(d < 8 for d in dims)
    assert any(d >= 16 for d in dims)  # the loop over a second block
    assert any(d >= 8 and d % 8 for d in dims)  # the remainder after the blocks
