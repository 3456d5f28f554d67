"""The explicit bound of thm:regret-rate (proofs_check.witnesses.regret_bound) and the small
helpers the error-to-regret claims moved into the witnesses (issue 34, declare-only)."""

import math

import numpy as np
import pytest

from proofs_check.witnesses import disagreement as wd
from proofs_check.witnesses import regret_bound as rb
from proofs_check.witnesses.paths import agree_on_paths
from proofs_check.witnesses.stats import z_score


def test_c_e_by_hand():
    # B = 1, gamma = 5, Delta = 1.5, mu_g = 0.2, lambda0 = 0.3, t0 = n0: by hand,
    # 16 * 2 / (2.25 * 0.04) = 355.55... beats 25 / (2 * 5 * 0.3 - 1) = 12.5
    k = rb.BoundConstants(B=1.0, gamma=5.0, delta=1.5, d=2, mu_g=0.2, lam0=0.3, cgap=0.25)
    assert rb.c_e(k, 100.0, 100) == pytest.approx(32 / 0.09, rel=1e-14)
    # a slow step (2 gamma lambda0 close to 1) makes the second term the larger one
    assert rb.c_e(k._replace(lam0=0.101), 100.0, 100) == pytest.approx(25 / 0.01, rel=1e-12)


@pytest.mark.parametrize("n,n0,t0", [(1000, 150, 150.0), (16000, 210, 210.0), (2000, 200, 500.0)])
def test_the_proofs_harmonic_sum_is_below_its_log_bound(n, n0, t0):
    eb = rb.explicit_bound(n, n0, t0, rb.BoundConstants(1.0, 5.0, 1.5, 2, 0.2, 0.3, 0.25))
    assert eb["hsum"] == pytest.approx(
        sum(1 / (t - 1 + t0) for t in range(n0 + 1, n + 1)), rel=1e-12
    )
    assert eb["hsum"] <= eb["log_term"] == 1 + math.log((n + t0) / (n0 + t0))
    assert eb["stage1"] == 2 * n0
    # Stage II: C_gap (Delta/2) C_e d (1 + log ...), then the localization failure 2 B n^-3
    stage2 = 0.25 * 1.5 / 2 * eb["ce"] * 2 * eb["log_term"]
    assert eb["bound"] == pytest.approx(eb["stage1"] + stage2 + 2 * n**-3.0, rel=1e-13)


def test_per_log_n():
    assert rb.per_log_n(math.log(1000) * 3, 1000) == pytest.approx(3.0, rel=1e-15)


def test_cq_bound_scales_by_the_distance_and_the_dropped_one():
    for q in (0, 0.5, 1, 3):
        c = wd.cq_bound(q, 0.8)
        assert c == wd.disagreement_bound_constant(q, 0.8)
        assert wd.cq_bound(q, 0.8, 1.0) == pytest.approx(c * wd.sq_distance(1.0), rel=1e-15)
        cq = max(1.0, 2.0 ** (q - 1))
        assert wd.cq_bound(q, 0.8, drop_one=True) == pytest.approx(c * cq / (1 + cq), rel=1e-15)


def test_disagreement_identities_at_known_angles():
    p, ang, cp = wd.disagreement_identities(-math.pi / 2)
    assert (p, ang) == pytest.approx((0.5, 1 / math.pi), rel=1e-15)
    assert cp == pytest.approx(1 / math.sqrt(2 * math.pi), rel=1e-15)


def test_agree_on_paths_states_and_applies_its_rule():
    agree = agree_on_paths(1e-9)
    assert agree.__doc__ == "max |library - witness| over the first paths' values <= 1e-9"
    a = np.zeros((3, 4))
    assert agree(a, a + 5e-10) and not agree(a, a + 2e-9) and not agree(a, np.zeros((3, 5)))


def test_z_score():
    assert z_score(1.3, 0.1, 1.0) == pytest.approx(3.0, rel=1e-12)


def test_c_e_unit_is_c_e_at_unit_settings():
    # Delta = 1, B_Y = 1, t0 = n0: the same constant as the general formula, mu_g the witness's
    from nbl_theory.paper import paper_link
    from proofs_check.witnesses.polar_field import own_mu_g

    mu_g = own_mu_g(paper_link("logistic"))
    assert rb.c_e_unit("logistic", 9.68, 1.5) == pytest.approx(
        rb.c_e(rb.BoundConstants(1.0, 9.68, 1.0, 2, mu_g, 1.5 / (2 * 9.68), 0.0), 100.0, 100),
        rel=1e-14,
    )


def test_estimation_bound_by_hand():
    bound, ratio = rb.estimation_bound(10.0, 4, [0, 10, 90], 10.0, 1.0, [2.0, 1.0, 0.5])
    assert bound.tolist() == [4.0, 2.0, 0.4] and ratio == 1.25
