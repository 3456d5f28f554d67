"""Tests of proofs_check.witnesses.stein (the Gaussian Stein identities evaluated directly)."""

import math

import numpy as np
import pytest

from nbl_theory.paper import paper_link
from proofs_check.witnesses import stein as ws
from proofs_check.witnesses.direct_definitions import m2_stein_form


def test_first_order_against_mu_g_of_probit():
    # probit g = Phi: mu_g = E phi(Z) = 1/(2 sqrt(pi)) (closed form)
    mu = 1 / (2 * math.sqrt(math.pi))
    links = {"probit": paper_link("probit")}
    nodes = {2: (60, 80), 3: (40, 50)}
    worst, est, rows = ws.first_order_errors(links, {"probit": mu}, nodes)
    assert (
        worst < 1e-12
        and est < 1e-12
        and [(k, d) for k, d, _ in rows] == [("probit", 2), ("probit", 3)]
    )
    assert ws.first_order_errors(links, {"probit": mu}, nodes, scale=1 + 1e-6)[0] > 1e-8


def test_two_arm_identity_and_its_coefficient():
    g = paper_link("probit").g_numpy
    mu = 1 / (2 * math.sqrt(math.pi))
    vs, th = np.array([0.6, 0.8]), np.array([-0.8, 0.6]) * math.sqrt(1 - 0.25)
    bp, bm = th + 0.5 * vs, th - 0.5 * vs  # Delta = 1, unit arms
    worst, est = ws.two_arm_errors(g, bm, bp, 1.0, vs, mu, (60, 80))
    assert worst < 1e-12 and est < 1e-12
    assert ws.two_arm_errors(g, bm, bp, 1.0, vs, mu, (60, 80), coef=0.5)[0] > 0.1


def test_gaussian_stein_lemma_and_its_mutants():
    nodes = {1: (150, 200), 2: (120, 160)}
    lem = ws.gaussian_stein_lemma(((1, 0.7), (2, 0.9)), nodes)
    assert lem["n"] == 2 * len(ws.TEST_FUNCTIONS) and max(lem["first"], lem["second"]) < 1e-10
    assert ws.gaussian_stein_lemma(((2, 0.9),), nodes, second=0.5)["second"] > 1e-3
    assert ws.gaussian_stein_lemma(((2, 0.9),), nodes, first=0)["first"] > 1e-3


def test_m2_stein_form_power():
    mom = {"m2_stein": 0.3}
    assert m2_stein_form(mom, 1.0) == 0.3
    assert m2_stein_form(mom, 1.0, power=2) == pytest.approx(0.3 * 0.75, rel=1e-15)
