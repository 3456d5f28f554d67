"""Claims beyond the paper (section ``beyond:repairs``): can NBL be repaired where the paper's
assumptions fail? nbl's own statements, not the paper's.

:mod:`nbl_sim.beyond.repairs` analyses NBL run on whitened contexts (Σ known or estimated on the
fly) and on centred rewards exactly, through the machinery of :mod:`nbl_sim.beyond`; these
claims check that analysis against a witness that computes the repaired update's field from its
definition in the original coordinates (:mod:`proofs_check.witnesses.repairs`), state which
departures each repair fixes and which none can, and confirm the verdicts by simulating the
repaired policies (:mod:`nbl_sim.policies.repairs`, the NBL kernel on transformed inputs).

A disagreement between the library and the witness, or a statement the computation does not
confirm, is a FAIL (there is no printed value: these are nbl's statements).
"""

from __future__ import annotations

from nbl_sim.beyond.contexts import parse_context_spec
from nbl_sim.engine.environment import Environment
from nbl_sim.engine.nbl_kernel import nbl_run
from nbl_sim.policies.repairs import repaired_nbl_run
from nbl_theory.paper import paper_link

from ..registry import FAIL, PASS, Mutant, Outcome, register
from ..witnesses import beyond as wb
from ..witnesses import repairs as wr
from ..witnesses import stats as ws
from ..witnesses import toolkit_values as tv

__all__: list[str] = []

_SECTION = "beyond:repairs"
_LABEL = "assum:gaussian_context"
_OURS = "Beyond the paper (nbl's statement, not the paper's): "

#: (name, witness case, context spec, arms spec)
_CASES = (
    (
        "Sigma cond 3, major axis along theta",
        wb.Case("tt-stable", 1.0, cond=3, axis_deg=90),
        "gaussian:cond=3,angle=90",
        "symmetric",
    ),
    (
        "Sigma cond 3, major axis 30 deg from v*",
        wb.Case("tt-stable", 1.0, cond=3, axis_deg=30),
        "gaussian:cond=3,angle=30",
        "symmetric",
    ),
    (
        "uniform cube, v* on its diagonal",
        wb.Case("tt-stable", 1.0, "cube", rotate_deg=45),
        "cube",
        "rotate=45",
    ),
    ("asymmetric arms, shift 0.4", wb.Case("tt-stable", 1.0, shift=0.4), "gaussian", "shift=0.4"),
)
_REPAIRS = ("plain", "whitened", "centred", "whitened-centred")


def _whitening_by_sigma(old):
    """Library mutant: whitening by Σ itself instead of Σ^{-1/2} (the power dropped)."""
    return lambda law: law.covariance


@register(
    "repairs-exact-analysis-agrees",
    _LABEL,
    _SECTION,
    _OURS + "the exact population analysis of repaired NBL (contexts whitened by "
    "Sigma^{-1/2}, rewards centred by the Stage I mean, or both; nbl_sim.beyond.repairs) "
    "agrees with the repaired update's field computed from its definition in the original "
    "coordinates: the local rate at the optimal normal and the learned boundary (d = 2, "
    "tt-stable, Delta = 1, an aligned and a tilted Sigma, the cube with v* on its "
    "diagonal, shifted arms)",
    "high-precision",
    "rate: absolute 1e-6; learned angle: 1e-6 deg",
    "the library states ~1e-12 (two resolutions); the witness differentiates a direct "
    "quadrature (one-sided 4th-order differences, ~1e-8 at the cube's corner kink) and "
    "bisects its zeros to 1e-12 rad",
    mutants=(
        Mutant.witness("witness reward offset b x 1.1", b_scale=1.1),
        Mutant(
            "library whitens by Sigma instead of Sigma^{-1/2}",
            "formula",
            patches=(("nbl_sim.beyond.repairs:whitening_matrix", _whitening_by_sigma),),
            call=True,
        ),
    ),
)
def _agrees(b_scale: float = 1.0):
    bad, rows = [], []
    for name, case, law, arms in _CASES:
        for rep in _REPAIRS:
            lib = tv.repair_analysis(law, arms, rep)
            r_wit = wr.repaired_rate(case, rep, b_scale=b_scale)
            ok = abs(lib["repaired_rate"] - r_wit) <= 1e-6
            if not lib["vstar_equilibrium"]:
                a_wit = wr.repaired_learned_angle(case, rep) if b_scale == 1.0 else float("nan")
                ok = ok and abs(lib["learned_angle_deg"] - a_wit) <= 1e-6
                rows.append(
                    f"{name} / {rep}: rate {lib['repaired_rate']:+.8f} (witness "
                    f"{r_wit:+.8f}), learned {lib['learned_angle_deg']:+.6f} deg "
                    f"(witness {a_wit:+.6f})"
                )
            else:
                rows.append(
                    f"{name} / {rep}: rate {lib['repaired_rate']:+.8f} (witness "
                    f"{r_wit:+.8f}), v* an equilibrium"
                )
            if not ok:
                bad.append(rows[-1])
    return Outcome(
        FAIL if bad else PASS,
        f"{len(rows)} (case, repair) pairs; library and witness {'DIFFER' if bad else 'agree'}",
        "; ".join(bad or rows),
    )


@register(
    "repairs-what-repairs-what",
    _LABEL,
    _SECTION,
    _OURS + "whitening the contexts makes v* attracting again when it is an eigenvector "
    "of Sigma (tt-stable, Delta = 1, Sigma cond 3 along theta: plain NBL is repelled); "
    "centring the rewards does too, and also on the uniform cube with v* on its diagonal; "
    "no candidate (whitened, centred, both) makes v* an equilibrium under a tilted Sigma "
    "(whitening turns it into shifted arms) or with shifted arms, and under a spherical "
    "law centring leaves the tangent field unchanged (its field b E[sgn(v'X) X] is "
    "radial)",
    "high-precision",
    "signs beyond 1e-4; |h(v*)| >= 1e-4 for 'not an equilibrium'; "
    "centred minus plain tangent field <= 1e-12",
    "the rates and defects here are >= 1e-2 in size and both computations agree to "
    "<= 1e-6 (claim repairs-exact-analysis-agrees); 1e-12 is the witness quadrature's "
    "rounding level for a difference of two fields on the same nodes",
    mutants=(
        Mutant.data("departures removed (cond 1, no rotation, no shift)", neutral=True),
        Mutant.negated("witness field sign flipped", "proofs_check.witnesses.repairs:repaired_H"),
    ),
)
def _what(neutral: bool = False):
    fixes = (("whitened", 0), ("centred", 0), ("centred", 2))
    fails = (
        (1, ("whitened", "centred", "whitened-centred")),
        (3, ("whitened", "centred", "whitened-centred")),
    )
    rows, bad = [], []

    def case_of(i):
        name, case, law, arms = _CASES[i]
        if neutral:
            return name, wb.Case("tt-stable", 1.0), "gaussian", "symmetric"
        return name, case, law, arms

    for rep, i in fixes:
        name, case, law, arms = case_of(i)
        plain = wr.repaired_rate(case, "plain")
        fixed = wr.repaired_rate(case, rep)
        lib = tv.repair_analysis(law, arms, rep)
        ok = plain < -1e-4 and fixed > 1e-4 and lib["verdict"] == "repaired"
        rows.append(f"{name}: plain rate {plain:+.6f}, {rep} rate {fixed:+.6f} ({lib['verdict']})")
        if not ok:
            bad.append(rows[-1])
    for i, reps in fails:
        name, case, law, arms = case_of(i)
        for rep in reps:
            h0 = wr.repaired_H(case, rep, 0.0)
            lib = tv.repair_analysis(law, arms, rep)
            ok = abs(h0) >= 1e-4 and lib["verdict"] == "biased"
            rows.append(
                f"{name}: {rep} leaves h(v*) = {h0:+.6f}, learned "
                f"{lib['learned_angle_deg']:+.4f} deg"
            )
            if not ok:
                bad.append(rows[-1])
    name, case, _, _ = case_of(3)
    worst = wr.centring_change(case, (0.0, 0.3, -1.1, 2.0))
    rows.append(f"{name}: centred minus plain tangent field, max over 4 directions {worst:.1e}")
    if worst > 1e-12:
        bad.append(rows[-1])
    return Outcome(
        FAIL if bad else PASS,
        f"{len(rows) - len(bad)} of {len(rows)} statements confirmed",
        "; ".join(bad + ["--"] + rows if bad else rows),
    )


#: (name, context spec, arms spec, policy, predicted |angle| in degrees)
_SIM = (
    ("Sigma along theta, plain NBL", "gaussian:cond=3,angle=90", "symmetric", "nbl"),
    ("Sigma along theta, whitened", "gaussian:cond=3,angle=90", "symmetric", "whitened"),
    (
        "Sigma along theta, running whitening",
        "gaussian:cond=3,angle=90",
        "symmetric",
        "whitened-running",
    ),
    ("Sigma along theta, centred", "gaussian:cond=3,angle=90", "symmetric", "centred"),
    ("cube diagonal, plain NBL", "cube", "rotate=45", "nbl"),
    ("cube diagonal, centred", "cube", "rotate=45", "centred"),
    ("Sigma tilted 30 deg, whitened", "gaussian:cond=3,angle=30", "symmetric", "whitened"),
)


@register(
    "repairs-simulation-confirms",
    _LABEL,
    _SECTION,
    _OURS + "simulated repaired NBL (the NBL kernel on whitened contexts or centred "
    "rewards; tt-stable, Delta = 1, n = 20,000, 64 replications, gamma = 10, t0 = 500, "
    "n0 = 200) ends where the exact analysis says: at v* where the repair makes it "
    "attracting, at the predicted biased or repelled boundary where it does not",
    "monte-carlo",
    "median |final angle - predicted| <= 4 deg over 64 replications",
    "the linearized recursion's standard deviation of the final angle is <= 1.5 deg in "
    "these cases (docs/beyond.md: 0.5-1.5 deg at n = 50,000 with the same step), and the "
    "slowest rate here (whitened, tilted Sigma: 0.107, so gamma x rate = 1.07) leaves a "
    "transient (t0/n)^(gamma x rate) ~ 0.025 of the Stage I error at n = 20,000, up to "
    "~2.5 deg; a 10 deg error in the prediction is caught",
    mutants=(Mutant.data("predictions moved by 10 deg", offset=10.0),),
)
def _simulation(offset: float = 0.0):
    rows, bad = [], []
    n, reps = 20_000, 64
    for name, law, arms, policy in _SIM:
        env = Environment.build(
            paper_link("tt-stable"), "1", 2, contexts=parse_context_spec(law, 2), arms=arms
        )
        real = env.draw(0, range(reps), n, 200)
        if policy == "nbl":
            ang = nbl_run(real.X, real.Y, real.coins, env.v_star, record_rounds=[n]).angle[:, -1]
        else:
            cov = env.contexts.covariance
            ang = repaired_nbl_run(
                policy, real.X, real.Y, real.coins, env.v_star, cov=cov
            ).angle_final
        pred = tv.repaired_prediction(law, arms, policy, offset)
        med = ws.median_abs_angle_error(ang, pred)
        rows.append(f"{name}: predicted |angle| {pred:.2f} deg, median |error| {med:.2f} deg")
        if med > 4.0:
            bad.append(rows[-1])
    return Outcome(
        FAIL if bad else PASS,
        f"{len(rows) - len(bad)} of {len(rows)} simulated cases at the predicted boundary",
        "; ".join(bad + ["--"] + rows if bad else rows),
    )
