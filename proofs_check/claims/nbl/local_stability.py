"""Claims of cor:local_stability and its proof (sec:nbl, app:local_stability): the local
stability radius, the decomposition of Δ = v − v* on the sphere, the local expansions of h and
of ⟨Δ, h⟩.

The radius is computed twice by a scan and root refinement
(:func:`proofs_check.witnesses.lambda0.local_radius`): from the witness's λ* and own H(α)
(:mod:`proofs_check.witnesses.polar_field`) for the verdict, and from the library's λ* and
H(α) for the library-versus-witness gate; the identities are checked exactly on
rational unit vectors and in float64 on random pairs; the expansions compare the witness's own
field h (:mod:`proofs_check.witnesses.fields`) with Dh(v*) of eq:Jacobian at 8 scales
(:mod:`proofs_check.witnesses.local_expansions`). Every check takes the coefficient it tests as
a keyword argument (the mutants change only that).
"""

from __future__ import annotations

from fractions import Fraction

from nbl_sim.population import fields as pop
from nbl_theory.numeric import PHI0
from nbl_theory.paper import PAPER_LINKS, paper_link
from nbl_theory.stability import stability

from ...judgement import agree_abs, agreement, gate
from ...registry import DISCREPANCY, FAIL, PASS, Mutant, Outcome, register
from ...witnesses import lambda_star as wl
from ...witnesses.geometry import delta_decomposition, tangent_delta_relation
from ...witnesses.lambda0 import local_radius, radius_geometry
from ...witnesses.local_expansions import expansion_summary, local_expansions
from ...witnesses.polar_field import own_dH
from ...witnesses.toolkit_values import float_values
from .broken_witnesses import scaled_moments_mutant
from .library_side import moment_gate

__all__: list[str] = []

_DELTAS = ("0.2", "1")
_DIMS = (2, 3)


#: library vs witness: lambda* to 1e-12 (both ~1e-15), the radius to 1e-8 rad (brentq stops at
#: 1e-12; fields agree to ~4e-16, which moves a transversal zero by ~1e-15 / |f'|)
_LAM_AGREE = agree_abs(1e-12)
_RADIUS_AGREE = agree_abs(1e-8)
#: library H'(alpha) (quadrature, ~1e-10 max(1, S)) vs the witness's Richardson differences of
#: its own H (~1e-12): measured within 1.3e-13 on the paper's links at Delta = 0.2 and 1
_DH_AGREE = agree_abs(1e-9)
_DH_ALPHAS = (0.0, 0.7, -2.0)


def _library_field() -> tuple:
    """The library's (H, H') (looked up at call time, so a patched library is the one run)."""
    return (pop.H_alpha, pop.H_alpha_derivative)


@register(
    "local-stability-radius",
    "cor:local_stability",
    "sec:nbl",
    "If lambda* > 0 there is r0 > 0 with <v - v*, h(v)> <= -(lambda*/2)||v - v*||^2 for "
    "||v - v*|| <= r0 (lambda0 = lambda*/2 of the proof); computed r0 in d = 2 for the "
    "six links at Delta = 0.2 and two at Delta = 1",
    "high-precision",
    "sign of f(alpha) = H(alpha) sin(alpha) + lambda*(1 - cos alpha) on a grid "
    "(1e-4..0.05 log, 900 points to pi, both signs of alpha), first zero by brentq "
    "(xtol 1e-12); library and witness agree on lambda* to 1e-12 and on each radius to "
    "1e-8 rad",
    "|f| >> quadrature error (~1e-15 sin(alpha)) away from its zeros; a sign change "
    "between two grid points closer than 0.2 degrees could be missed (stated)",
    witness="proofs_check.witnesses.lambda_star:lambda_star, "
    "proofs_check.witnesses.lambda0:local_radius",
    shares="the radius finder (scan and brentq of lambda0.local_radius, run once on the "
    "library's H(alpha) and once on the witness's own polar-quadrature H) and the "
    "paper's printed link parameters",
    mutants=(
        Mutant(
            "lambda0 = lambda*/2 -> 1.01 lambda* (above the d = 2 rate where m2 >= 0)",
            "formula",
            kwargs={"lambda0_factor": 1.01},
        ),
        Mutant.witness("the witness's lambda* at 1.01 Delta", delta_scale=1.01),
        Mutant.returning(
            "the library's H'(alpha) x (1 + 1e-6) + 1e-6",
            "formula",
            "nbl_sim.population.fields:H_alpha_derivative",
            lambda v: v * (1 + 1e-6) + 1e-6,
        ),
    ),
)
def _local_radius(lambda0_factor: float = 0.5, delta_scale: float = 1.0):
    cases = [(k, "0.2") for k in PAPER_LINKS] + [("tt-unstable", "1"), ("we-0.80", "1")]
    short, rows, bad, agree = [], [], [], []
    for key, delta in cases:
        link = PAPER_LINKS[key].link()
        name = f"{key}@{delta}"
        lam_lib = float_values(link, delta)["lambda_star"]
        lam = wl.lambda_star(key, delta, delta_scale)
        agree.append(agreement(f"lambda*({name})", library=lam_lib, witness=lam, agree=_LAM_AGREE))
        # <v - v*, h> <= -lambda0 ||v - v*||^2 with lambda0 = factor x lambda*
        ap, am, small = local_radius(link, delta, 2 * lambda0_factor * lam)
        lp, lm, _ = local_radius(link, delta, 2 * lambda0_factor * lam_lib, field=_library_field())
        # the library's H' (the exact boundary term; -H'(0) = kappa_theta of prop:local_jacobian)
        # against the witness's Richardson differences of its own H
        agree += [
            agreement(
                f"H'({a:g}) ({name})",
                library=_library_field()[1](link, delta, a),
                witness=own_dH(link, delta, a),
                agree=_DH_AGREE,
            )
            for a in _DH_ALPHAS
        ]
        agree += [
            agreement(
                f"r0 angle on the {side} side ({name}, rad)",
                library=lib,
                witness=wit,
                agree=_RADIUS_AGREE,
            )
            for side, lib, wit in (("alpha > 0", lp, ap), ("alpha < 0", lm, am))
        ]
        rg = radius_geometry(ap, am)
        a0, chord = rg["a0"], rg["chord"]
        if lam > 0:
            ok = a0 > 0 and max(small) < 0
            short.append(f"{name}: {rg['deg']:.2f} deg / {chord:.4f}")
            rows.append(
                f"{name}: lambda* = {lam:.4g}, r0 = {rg['deg']:.4f} deg, "
                f"||v - v*|| <= {chord:.6f}" + ("" if ok else " - NO radius")
            )
        else:
            # the corollary's assumption fails: the field must not be restoring at rate lambda0
            ok = a0 == 0 and min(small) > 0
            short.append(f"{name}: none (lambda* < 0)")
            rows.append(
                f"{name}: lambda* = {lam:.4g} < 0: the local rate at v* is negative, so no r0 "
                f"exists for any lambda0 > 0 (and <v - v*, h(v)> > 0 next to v*: f(1e-4) = "
                f"{small[0]:.2e}, repelling)"
            )
        if abs(ap - am) > 1e-9:
            rows[-1] += f" (sides differ: +{rg['deg_plus']:.4f}, -{rg['deg_minus']:.4f})"
        if not ok:
            bad.append(name)
    # control of the radius finder: for the logistic link g(z) + g(-z) = 1 gives
    # H(pi/2) = -Delta mu* = -lambda* (m2 = 0) by symmetry, so r0 is exactly 90 degrees
    logistic = paper_link("logistic")
    lam_l = float(stability(logistic, "0.2").values["lambda_star"])
    ctrl = radius_geometry(*local_radius(logistic, "0.2", lam_l)[:2])["deg"]
    rows.append(
        f"control, logistic@0.2 with lambda0 = lambda*/2: r0 = {ctrl:.9f} deg "
        "(exactly 90 by symmetry)"
    )
    status = FAIL if abs(ctrl - 90.0) > 1e-6 else DISCREPANCY if bad else PASS
    out = Outcome(
        status,
        "r0 (angle / ||v - v*||): " + "; ".join(short),
        f"lambda0 = {lambda0_factor:g} lambda*; r0 = the first |alpha| where "
        "<v - v*, h> = -lambda0 ||v - v*||^2 in d = 2 (the largest valid radius, both "
        "signs of alpha agree), from the witness's lambda* and own field H; the "
        f"library's agree ({len(agree)} comparisons). "
        + "; ".join(rows)
        + (f". No radius for: {bad}" if bad else ""),
    )
    return gate(out, agree)


@register(
    "delta-decomposition",
    "eq:app-delta-decomposition",
    "app:local_stability",
    "For unit v, v*: Delta = v - v* = u - (1/2)||Delta||^2 v* with u = P^perp Delta (and "
    "u = P^perp v; v = sqrt(1 - ||u||^2) v* + u = q(u) when v^T v* > 0)",
    "property-based",
    "exact (==) in rational arithmetic; float 4e-15 absolute",
    "rational unit vectors (inverse stereographic projection) make it exact; in float64 "
    "the terms have size up to ||Delta||^2 <= 4 (ulp 8.9e-16) and ||v|| = 1 only to "
    "~1e-16: a few ulps",
    mutants=(
        Mutant.formula("Delta = u - (1/2)||Delta||^2 v* -> u - ||Delta||^2 v*", half=Fraction(1)),
    ),
)
def _delta_decomp(half: Fraction = Fraction(1, 2)):
    dd = delta_decomposition(half, seed=17)
    n_exact = dd["n_exact"]
    if dd["failure"] is not None:
        vs, v = dd["failure"]
        return Outcome(DISCREPANCY, f"rational case {n_exact} fails", f"v*={vs}, v={v}")
    worst, worst_q, n = dd["worst"], dd["worst_q"], dd["n"]
    ok = max(worst, worst_q) <= 4e-15
    return Outcome(
        PASS if ok else DISCREPANCY,
        f"exact in {n_exact} rational cases; float max error {worst:.1e}",
        f"{n} float pairs, ||v - v*|| from 1e-6 to 2, d in {{2, 3, 7}}; "
        f"|q(u) - v| (v^T v* > 0.1) = {worst_q:.1e}",
    )


@register(
    "tangent-delta-relation",
    "eq:app-tangent-delta-relation",
    "app:local_stability",
    "||Delta||^2 = ||u||^2 + ||Delta||^4/4, i.e. ||u||^2 = ||Delta||^2 - ||Delta||^4/4, "
    "for unit v, v* (u = P^perp Delta)",
    "property-based",
    "exact (==) in rational arithmetic; float 4e-15 absolute",
    "exact identity given ||v|| = ||v*|| = 1; in float64 the terms have size up to "
    "||Delta||^2 <= 4 (ulp 8.9e-16): a few ulps",
    mutants=(Mutant.formula("||Delta||^4/4 -> ||Delta||^4/2", quarter=Fraction(1, 2)),),
)
def _tangent_delta(quarter: Fraction = Fraction(1, 4)):
    td = tangent_delta_relation(quarter, seed=19)
    n_exact = td["n_exact"]
    if td["failure"] is not None:
        vs, v = td["failure"]
        return Outcome(DISCREPANCY, f"rational case {n_exact} fails", f"v*={vs}, v={v}")
    worst, n = td["worst"], td["n"]
    return Outcome(
        PASS if worst <= 4e-15 else DISCREPANCY,
        f"exact in {n_exact} rational cases; float max error {worst:.1e}",
        f"{n} float pairs, ||v - v*|| from 1e-6 to 2, d in {{2, 3, 7}}",
    )


def _expansion_outcome(field: str, power: str, floor: float, phi0: float) -> Outcome:
    """The verdict of an expansion claim from the witness's own field and 2-D moments, gated by
    the library's mu*, m2 (the Jacobian's coefficients) agreeing with those moments."""
    return gate(_expansion_verdict(field, power, floor, phi0), moment_gate(_DELTAS, _MOMENTS))


_MOMENTS = ("mu_star", "m2")
_W_EXPANSIONS = "proofs_check.witnesses.local_expansions:local_expansions"
_SHARES_EXPANSIONS = (
    "the paper's printed link parameters (nbl_theory.paper.PAPER_LINKS), the link object "
    "(nbl_theory.Link), Gauss-Legendre node arithmetic and the field scale S; the library's "
    "mu*, m2 are compared with the witness's 2-D moments (absolute 1e-12), never used"
)
_BROKEN_MOMENTS = scaled_moments_mutant("proofs_check.witnesses.local_expansions")


def _expansion_verdict(field: str, power: str, floor: float, phi0: float) -> Outcome:
    rows = local_expansions(_DELTAS, _DIMS, phi0)
    ex = expansion_summary(rows, field, floor)
    g, worst, cmax, climit = ex["growth"], ex["worst"], ex["max"], ex["at_smallest"]
    return Outcome(
        PASS if g <= 1.0 else DISCREPANCY,
        f"remainder/{power} <= {cmax:.3g} over ||u|| = 1e-1..3e-4 (at 3e-4: <= {climit:.3g})",
        f"{len(rows)} (link, Delta, d, direction) cases, own field h, Dh of "
        f"eq:Jacobian with mu*, m2 from their 2-D definitions; d = 2: +-theta, d = 3: "
        f"+-theta, +-orth, +-random; growth at the two smallest scales vs 1.5 x the "
        f"earlier maximum: worst {g:.2f} ({worst['key']} Delta={worst['delta']} "
        f"d={worst['d']} {worst['dir']}; <= 1 required)",
    )


_PHI0_WRONG = Mutant.formula("phi0(0) -> 1.1 phi0(0) in eq:Jacobian", phi0=1.1 * PHI0)


_EXP_TOL = (
    "remainder ratio at the two smallest of 8 scales ||u|| = 1e-1..3e-4 (6.9e-4, 3e-4) "
    "at most 1.5 x its maximum over the larger ones (+ noise floor 1e-7)"
)
_EXP_WHY = (
    "h o q is smooth (C^2 for these links), so the remainder is O(||u||^2) and the ratio "
    "converges; an o(||u||) failure (e.g. a wrong Jacobian) makes it grow like "
    "1/||u||. Quadrature noise ~1e-15 S / ||u||^2 <= 1e-8 S (the floor)"
)


#: (id, label, statement, ratio field of local_expansions, its power)
_EXPANSIONS = (
    (
        "h-local-expansion-u",
        "eq:app-h-local-expansion-u",
        "h(v) = Dh(v*)[u] + r(v), ||r(v)|| = o(||u||), u = P^perp v, v = q(u) (Dh of eq:Jacobian): "
        "||r||/||u||^2 stays bounded as ||u|| -> 0 along several directions, six links, Delta in "
        "{0.2, 1}, d in {2, 3}",
        "ratio_u",
        "||u||^2",
    ),
    (
        "h-local-expansion",
        "eq:app-h-local-expansion",
        "h(v) = Dh(v*)[u] + r(v), ||r(v)|| = o(||Delta||), Delta = v - v*: ||r||/||Delta||^2 "
        "stays bounded as ||Delta|| -> 0 (same cases)",
        "ratio_D",
        "||Delta||^2",
    ),
)
for _id, _label, _statement, _field, _power in _EXPANSIONS:
    register(
        _id,
        _label,
        "app:local_stability",
        _statement,
        "high-precision",
        _EXP_TOL,
        _EXP_WHY,
        witness=_W_EXPANSIONS,
        shares=_SHARES_EXPANSIONS,
        mutants=(_PHI0_WRONG, _BROKEN_MOMENTS),
    )(lambda phi0=PHI0, field=_field, power=_power: _expansion_outcome(field, power, 1e-7, phi0))


@register(
    "local-inner-product",
    "eq:app-local-inner-product",
    "app:local_stability",
    "<Delta, h(v)> = <u, Dh(v*)[u]> + o(||Delta||^2): the remainder / ||Delta||^3 stays "
    "bounded as ||Delta|| -> 0; the four-term expansion of the proof is exact and "
    "<v*, Dh(v*)[u]> = 0 (same cases)",
    "high-precision",
    _EXP_TOL + "; four-term identity and <v*, Dh u> to 1e-15 S",
    "the remainder <u, r> - |Delta|^2 <v*, h>/2 is O(||Delta||^3) for smooth h; "
    "quadrature noise ~1e-16 S ||Delta|| / ||Delta||^3 (the floor 1e-7)",
    witness=_W_EXPANSIONS,
    shares=_SHARES_EXPANSIONS,
    mutants=(_PHI0_WRONG, _BROKEN_MOMENTS),
)
def _inner(phi0: float = PHI0):
    out = _expansion_outcome("ratio_in", "||Delta||^3", 1e-7, phi0)
    rows = local_expansions(_DELTAS, _DIMS, phi0)
    four = max(r["four"] for r in rows)
    tan = max(r["tangent_Dh"] for r in rows)
    if max(four, tan) > 1e-15:
        out.status = DISCREPANCY
    out.detail += f"; four-term identity residual {four:.1e}, max |<v*, Dh u>| {tan:.1e}"
    return out
