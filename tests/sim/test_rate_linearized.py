"""The simulated decay exponent of the localized NBL error against the exact linearized
recursion (nbl_sim.studies.rate_theory) on the same window.

This comparison was part of the claim ``step-size-exponent`` (proofs_check.claims.regret.study);
two routes of the toolkit agreeing (the compiled kernel's simulation and the linearized
recursion) is a self-check of the toolkit, not a statement of the paper, so it lives here. The
run is a smaller version of the study's step-size part (logistic, Delta = 1, d = 2, 20-degree
start, t0 = 100): 300 replications, n = 20,000.
"""

import math

import numpy as np
import pytest

from nbl_sim.engine.environment import Environment
from nbl_sim.engine.nbl_kernel import nbl_run
from nbl_sim.studies.rate_theory import (
    Mode,
    linear_recursion_mse,
    local_rates,
    loglog_slope,
    tangent_noise,
)
from nbl_sim.studies.regret_geometry import stability_radius
from nbl_theory.paper import paper_link

N, R, T0, START = 20_000, 300, 100.0, 20.0


@pytest.mark.parametrize("two_gamma_kappa", [0.5, 2.0])
def test_measured_exponent_matches_the_linearized_recursion(two_gamma_kappa):
    link = paper_link("logistic")
    env = Environment.build(link, "1", 2)
    kappa = local_rates(link, "1", 2)["kappa_theta"]
    gamma = two_gamma_kappa / (2 * kappa)
    r0 = stability_radius(link, "1", 0.75)["r0"]
    real = env.draw(2026, range(R), N, 0)
    tr = nbl_run(
        real.X,
        real.Y,
        real.coins,
        env.v_star,
        v0=env.initial_direction(START),
        gamma=gamma,
        t0=T0,
        record_rounds=np.arange(0, N + 1),
    )
    sq = tr.sq_error
    out = sq > r0 * r0
    tau = np.where(out.any(1), out.argmax(1), sq.shape[1])
    t = np.unique(np.round(np.geomspace(N / 100, N, 30)).astype(int))
    stopped = sq[:, t] * (tau[:, None] > t[None, :])
    lx = np.log(t + T0)

    def slope(m):
        return float(np.polyfit(lx, np.log(m), 1)[0])

    measured = -slope(stopped.mean(0))
    batches = [-slope(b.mean(0)) for b in np.array_split(stopped, 10)]
    se = float(np.std(batches, ddof=1) / math.sqrt(len(batches)))
    ti = np.arange(0, N + 1)
    s2 = float(tangent_noise(link, "1")["sigma2_theta"])
    lin = linear_recursion_mse([Mode(kappa, s2, float(sq[:, 0].mean()))], gamma, T0, 0, ti)
    predicted = -loglog_slope(ti[1:] + T0, lin[1:], N / 100 + T0)
    # the linearization ignores O(alpha^2) terms of a 20-degree start (~12%) and the recursion
    # tracks sin^2 alpha where the error is 2(1 - cos alpha): 0.05 in the exponent covers both;
    # 4 SE covers the Monte Carlo (SE ~0.01-0.02 here), and the SE itself must stay below 0.025
    assert se < 0.025
    assert abs(measured - predicted) <= 0.05 + 4 * se, (measured, predicted, se)
