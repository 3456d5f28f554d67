"""The inputs library and witnesses share, checked against the paper before any verdict.

A witness is independent of the library's computation of a quantity, but some inputs are
shared by design (docs/witnesses.md, "shares"): the paper's named links as
:class:`~nbl_theory.links.Link` objects, the Gauss–Legendre rules, φ0(0) = 1/√(2π). A bug in
one of them would move the library and every witness alike, and the report would judge the
paper by it (the library-mutation run found such blames: the two-transition link with a term
dropped turned nine claims DISCREPANCY). :func:`shared_inputs_defect` checks each against the
paper's own definition, written out here, once per process; the claims runner turns every verdict
into the toolkit-defect FAIL while it reports one (its ``preflight``).

The realization of a simulation is shared too: the preflight draws a few small ones through
both backends of the library and compares them with the witness's own draw from the model and
numpy's documented streams (:func:`realization_errors`, :mod:`.realization`) — in the settings
that take each path of the compiled draw (eight-replication lanes and single replications,
d = 2 and d ≥ 3, a potential link's bisection, both reward laws, coins). The arms of the
population claims and the means of a claim's own realizations are checked where they are built
or drawn (:func:`~.geometry.arms_error`, :func:`~.reruns.realization_means_error`), since they
depend on the claim's settings.
"""

from __future__ import annotations

import functools
import math

import mpmath
import numpy as np

from nbl_theory.numeric import PHI0, gauss_legendre_panels, gauss_legendre_uniform
from nbl_theory.paper import PAPER_LINKS, paper_link

from .links import paper_link_parts
from .realization import Bandit, realization_difference, witness_realization

__all__ = [
    "shared_inputs_defect",
    "link_errors",
    "realization_errors",
    "LINK_POINTS",
    "DENSE_POINTS",
    "LINK_TOL",
    "REALIZATIONS",
]

#: where the paper's links are compared: 81 points of [−8, 8] (the Gaussian window of every
#: quadrature; |z| > 8 carries Gaussian mass below 1e-15)
LINK_POINTS = np.linspace(-8.0, 8.0, 81)
#: a call of this many points of [−8, 8], made twice, takes the other path of a potential
#: link's float64 inverse: past 4096 points in a bracket the library builds a bisection tree
#: and answers from it (nbl_theory.link_numeric.bisection_tree) — the path of every quadrature
#: of the witnesses' fields, which 81-point calls never reach (a mutant of the tree turned three
#: field claims DISCREPANCY while the 81 points agreed)
DENSE_POINTS = np.linspace(-8.0, 8.0, 8193)
#: |library − written out| ≤ LINK_TOL · max(1, |value|) for g, g', g'': two float64
#: evaluations of one formula in different orders (measured up to ~4e-16; the weighted-entropy
#: links invert φ' by bisection on both sides, to the last bit of logit g)
LINK_TOL = 1e-12


def link_errors(key: str) -> tuple[float, float, float]:
    """max relative errors of the library's g, g', g'' of the paper link ``key`` against the
    witness's written-out definition (:func:`~.links.paper_link_parts`) on :data:`LINK_POINTS`
    (and g's also on :data:`DENSE_POINTS`, twice).

    Parameters
    ----------
    key : str
        A key of :data:`nbl_theory.paper.PAPER_LINKS`.

    Returns
    -------
    tuple of float
        The errors of g, g' and g'' (each scaled by max(1, |written-out value|)).
    """
    link = paper_link(key)
    own = paper_link_parts(key)(LINK_POINTS)
    lib = (
        link.g_numpy(LINK_POINTS),
        link.derivative_numpy(LINK_POINTS, 1),
        link.derivative_numpy(LINK_POINTS, 2),
    )
    errs = [_relative_error(a, b) for a, b in zip(lib, own)]
    own_g = paper_link_parts(key)(DENSE_POINTS)[0]
    for _ in range(2):  # the second call answers from the tree the first one built
        errs[0] = max(errs[0], _relative_error(link.g_numpy(DENSE_POINTS), own_g))
    return tuple(errs)


def _relative_error(lib, own) -> float:
    lib = np.asarray(lib, dtype=float)
    return float(np.max(np.abs(lib - own) / np.maximum(1.0, np.abs(own))))


def _rule_error() -> float:
    """The largest error of the Gauss–Legendre rules on integrals known in closed form: the
    monomials x^k, k ≤ 31 (exact for 16 points per panel), on two panelled intervals, and the
    Gaussian mass ∫_{−6}^{6} φ = erf(6/√2) (relative to the integral's size)."""
    err = 0.0
    for x, w, lo, hi in (
        (*gauss_legendre_panels([-1.0, -0.25, 0.5, 2.0]), -1.0, 2.0),
        (*gauss_legendre_uniform(-3.0, 1.5, 0.7), -3.0, 1.5),
    ):
        for k in range(32):
            exact = (hi ** (k + 1) - lo ** (k + 1)) / (k + 1)
            err = max(err, abs(float(w @ x**k) - exact) / max(1.0, abs(exact)))
    x, w = gauss_legendre_uniform(-6.0, 6.0, 0.5)
    mass = float(w @ np.exp(-x * x / 2)) / math.sqrt(2 * math.pi)
    return max(err, abs(mass - math.erf(6 / math.sqrt(2))))


#: the preflight's realizations: (paper link, Δ, d, reward law, n0, geometry seed: None for the
#: paper's rotation v* = e1, θ ∝ e2, else random directions), each 9 replications (one lane
#: batch of eight and a single one) × 600 rounds (past the compiled normal fill's 1024-value
#: floor), seed 7; d = 10 takes the eight-way pairwise sum of v*ᵀx, which v* = e1 cannot see;
#: d = 4 with random directions is the regret-rate study's smallest d ≥ 3 (an index pass that
#: read only two coordinates at d = 4 drew the paper's rotation right and this one wrong: a
#: survivor of the quick library-mutation sample at 8310105); d = 16, the study's largest d,
#: takes the pairwise sum's loop over a second block of eight coordinates, which d = 10 does
#: not reach (its 9th and 10th terms are added one by one), and sees an index mistaken in the
#: first block's last four (at d = 10 a coordinate −5 is coordinate 5: two survivors of the
#: same sample)
REALIZATIONS = (
    ("tt-unstable", "1", 2, "bernoulli", 40, None),
    ("tt-stable", "0.2", 5, "bounded", 0, None),
    ("we-0.60", "1", 2, "bernoulli", 10, None),
    ("tt-near-critical", "1", 10, "bernoulli", 0, 11),
    ("tt-stable", "1", 4, "bernoulli", 0, 13),
    ("tt-stable", "1", 16, "bernoulli", 0, 17),
)


def realization_errors() -> str | None:
    """None when the library draws every realization of :data:`REALIZATIONS` as the witness
    does (:func:`~.realization.witness_realization`), through both backends (the compiled
    draw and the numpy reference); otherwise the first difference, in a sentence.

    Returns
    -------
    str or None
        The difference, or None.
    """
    from nbl_sim.engine.environment import Environment
    from nbl_sim.engine.reference import draw as reference_draw

    seed, reps, n = 7, range(9), 600
    for key, delta, d, reward, n0, geometry in REALIZATIONS:
        rotation = {} if geometry is None else {"v_star": "random", "theta_dir": "random"}
        env = Environment.build(
            paper_link(key), delta, d, reward=reward, geometry_seed=geometry, **rotation
        )
        directions = {} if geometry is None else {"v_dir": env.v_star, "theta_dir": env.theta}
        bandit = Bandit(key, delta, d, reward=reward, **directions)
        own = witness_realization(bandit, seed, reps, n, n0)
        for backend, draw in (("compiled", env.draw), ("reference", None)):
            real = draw(seed, reps, n, n0) if draw else reference_draw(env, seed, reps, n, n0)
            diff = realization_difference(real, own, reward=reward)
            if diff is not None:
                return (
                    f"the library's realization ({backend} draw; {key}, Delta = {delta}, "
                    f"d = {d}, {reward} rewards) is not the model's: {diff}"
                )
    return None


@functools.cache
def shared_inputs_defect() -> str | None:
    """None when every shared input equals the paper's definition; otherwise a sentence naming
    the first that does not, with the two values (computed once per process).

    Checked: the six named links (g, g', g'' to :data:`LINK_TOL`), φ0(0) against 1/√(2π) at 30
    digits (to 2 ulps), the Gauss–Legendre rules on closed-form integrals (to 1e-12: float64
    sums of 16–160 terms), and the simulations' realizations (:func:`realization_errors`).

    Returns
    -------
    str or None
        The defect, or None.
    """
    for key in PAPER_LINKS:
        errs = link_errors(key)
        for name, e in zip(("g", "g'", "g''"), errs):
            if not e <= LINK_TOL:
                return (
                    f"the library's paper link {key} differs from its printed definition "
                    f"({name}: relative error {e:.3g} > {LINK_TOL:g} on [-8, 8])"
                )
    with mpmath.workdps(30):
        phi0 = 1 / mpmath.sqrt(2 * mpmath.pi)
        if not abs(PHI0 - phi0) <= 2 * math.ulp(float(phi0)):
            return f"phi0(0) = {PHI0!r} is not 1/sqrt(2 pi) = {mpmath.nstr(phi0, 20)}"
    rule = _rule_error()
    if not rule <= 1e-12:
        return f"the Gauss-Legendre rules miss closed-form integrals by {rule:.3g} (> 1e-12)"
    return realization_errors()
