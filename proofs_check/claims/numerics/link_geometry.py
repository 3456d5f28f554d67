"""Claims of the link geometry of the numerical section (sec:numerics, app:link-geometry,
app:tanh-geometry, app:elicitation-geometry, app:logistic-comparison): the regimes and printed
λ* of the six named links at Δ = 0.2, the sign of λ* at wider separations, the critical
separations and parameters, and the definition of the two-transition family.

The six links (at the paper's reference separation Δ = 0.2):

===================  =====================================  ==============================
id                   link                                   printed regime / λ*
===================  =====================================  ==============================
``tt-stable``        two-transition, mu2 = −1.074037        stable
``tt-near-critical`` two-transition, mu2 = 2.144072         near-critical
``tt-unstable``      two-transition, mu2 = 1.244122         unstable
``we-0.60``          weighted entropy, rho = 0.60           stable, λ* ≈ 3.70e−3
``we-0.72``          weighted entropy, rho = 0.72           near-critical, λ* ≈ 2.15e−5
``we-0.80``          weighted entropy, rho = 0.80           unstable, λ* ≈ −2.45e−3
===================  =====================================  ==============================

Signs are proved with Arb enclosures (:mod:`nbl_theory.certified`); critical values are
certified brackets of :func:`nbl_theory.threshold.find_thresholds` (a float64 scan, then Arb
signs at the ends of each bracket — a few seconds per family). Every check takes the printed
value, link or separation it tests as a keyword argument; the mutants change only that.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from nbl_theory.paper import PAPER_LINKS, REFERENCE_DELTA

from ...judgement import (
    Judgement,
    agree_abs,
    agree_max_abs,
    agree_rel,
    agreement,
    bracket_defect,
    combine,
    encloses,
    error_bars,
    gate,
    judge,
    sign_written,
)
from ...registry import DISCREPANCY, FAIL, SKIPPED, Mutant, Outcome, register
from ...witnesses import lambda_star as wl
from ...witnesses.printed import bump_last_figure, nstr, round_sig, rounding_interval
from ...witnesses.toolkit_values import (
    certified_at,
    delta_roots,
    float_at,
    instability_limit,
    near_critical_ratio,
    parameter_roots,
    phase_boundary,
    restoring,
)
from ...wording import proved_sign, root_words, sign_words

__all__: list[str] = []

#: The printed λ* of app:elicitation-geometry at Δ = 0.2 (3 significant figures).
PRINTED_LAMBDA = {k: r.printed_lambda for k, r in PAPER_LINKS.items() if r.printed_lambda}

#: library (certified / float64 tier) against witness (:mod:`proofs_check.witnesses.lambda_star`,
#: ~1e-15 absolute): both are float64-accurate or better, so 1e-12 absolute leaves a margin of
#: 1000 and still resolves the smallest printed λ* (2.15e-5) to 5e-8 relative.
_LAM_TOL = 1e-12
_LAM_AGREE = agree_abs(_LAM_TOL)
#: roots: the witness's brentq stops at 1e-11, the library's refined roots are finer; a root
#: moves by δλ/λ'(root) ~ 1e-14 for a λ* error of 1e-15
_ROOT_AGREE = agree_abs(1e-8)
_ROOT_RESOLUTION = 1e-8  # the widest certified bracket that backs a root judged to 1e-8
_W_LAMBDA = "proofs_check.witnesses.lambda_star:lambda_star"
_W_ROOTS = "proofs_check.witnesses.lambda_star:delta_roots"
_W_PROOTS = "proofs_check.witnesses.lambda_star:parameter_roots"
_SHARES = "the paper's printed link parameters (nbl_theory.paper.PAPER_LINKS)"
_WITNESS_MUTANT = "witness lambda* evaluated at 1.01 Delta"


def _rho(key: str) -> str:
    return PAPER_LINKS[key].parameter[1]


def _printed_lambda_check(key):
    def check(printed: str = PRINTED_LAMBDA[key], delta_scale: float = 1.0):
        c = certified_at(key, REFERENCE_DELTA)
        lo, hi = c.lambda_star_enclosure
        lam = c.values["lambda_star"]
        wit = wl.lambda_star(key, REFERENCE_DELTA, delta_scale)
        r_lo, r_hi, r_mid = round_sig(lo), round_sig(hi), round_sig(lam)
        what = "certified" if c.certified else f"{c.tier} tier, NOT certified:"
        computed = (
            f"{r_mid} ({what} lambda* = {nstr(lam, 12)}, enclosure radius "
            f"{nstr((hi - lo) / 2, 2)}; witness {wit:.12g})"
        )
        if not c.certified:
            return Outcome(
                FAIL,
                computed,
                "the toolkit could not certify lambda* here, so the printed value is not judged",
            )
        if not encloses(lo, hi, wit, _LAM_TOL):
            return Outcome(
                FAIL,
                computed,
                f"toolkit defect: the library's certified enclosure [{nstr(lo, 12)}, "
                f"{nstr(hi, 12)}] does not contain the witness's lambda* {wit:.12g}, even "
                f"widened by the witness's error bound {_LAM_TOL:g}: the paper is not judged",
            )
        if r_lo != r_hi:
            return Outcome(
                FAIL,
                computed,
                "the certified enclosure straddles a 3-figure "
                "rounding boundary: cannot decide the rounding",
            )
        j = judge(
            f"lambda*(rho = {_rho(key)}, Delta = {REFERENCE_DELTA})",
            library=lam,
            witness=wit,
            agree=_LAM_AGREE,
            fmt=lambda v: nstr(v, 12),
            holds=lambda v: Decimal(round_sig(v)) == Decimal(printed),
        )
        if j.status != DISCREPANCY:
            return combine(
                [j],
                computed,
                "the certified value and the witness (2-D "
                "definition) round to the printed 3 figures",
            )
        hit = wl.parameter_for_lambda(
            "weighted-entropy", float(REFERENCE_DELTA), float(printed), float(_rho(key)), 0.01
        )
        hint = (
            ""
            if hit is None
            else (
                f" How sensitive the number is: d lambda*/d rho = {hit[1]:.3g} here, so the "
                f"printed "
                f"value is lambda* at rho = {hit[0]:.7f} (the witness's lambda*(rho) solved "
                f"for "
                f"{printed} by brentq), i.e. rho shifted by "
                f"{hit[0] - float(_rho(key)):+.2e}: a small "
                "error in rho or in the paper's quadrature would explain it."
            )
        )
        lo_p, hi_p = rounding_interval(printed)
        return combine(
            [j],
            computed,
            f"paper prints {printed}, i.e. a value in [{lo_p:.3e}, {hi_p:.3e}) at the "
            f"3 figures it prints; the {what} value rounds to {r_mid} (relative "
            f"difference {(float(lam) - float(printed)) / float(printed):+.2%}), "
            "outside it. "
            f"The sign and the regime are unaffected.{hint}",
            consequence="number",
        )  # a printed value, whatever its section

    return check


def _lambda_mutant(key: str, printed: str) -> Mutant:
    """The printed value replaced by the certified value's rounding where they differ (the check
    must then pass), else perturbed by one unit in the last printed figure."""
    if key == "we-0.72":  # prints 2.15e-5, the certified lambda* rounds to 2.08e-5
        return Mutant.printed(
            "printed 2.15e-5 -> 2.08e-5 (the certified rounding)", printed="2.08e-5"
        )
    bumped = bump_last_figure(printed)
    return Mutant(f"printed {printed} -> {bumped}", "printed", kwargs={"printed": bumped})


for _key, _printed in PRINTED_LAMBDA.items():
    register(
        f"we-lambda-{_key[3:]}",
        "app:elicitation-geometry",
        "app:elicitation-geometry",
        f"At Delta = 0.2, rho = {PAPER_LINKS[_key].parameter[1]} gives lambda* ~ {_printed}",
        "certified",
        "3 significant figures (the printed precision)",
        "the certified value is rounded to the figures the paper prints; both ends of the "
        "Arb enclosure must round the same way; the witness must agree to 1e-12",
        printed=_printed,
        witness=_W_LAMBDA,
        shares=_SHARES,
        mutants=(_lambda_mutant(_key, _printed), Mutant.witness(_WITNESS_MUTANT, delta_scale=1.01)),
    )(_printed_lambda_check(_key))


# ------------------------------------------------------------------ regimes at Δ = 0.2
_NEAR_CRITICAL_FACTOR = 0.01
_NEAR_CRITICAL_DEF = (
    "'near-critical' = |lambda*| below 1% of the smaller |lambda*| of the "
    "stable and unstable companions of the same family (the paper calls the "
    "value 'nearly zero' relative to them)"
)


_CORROBORATE = (0.1, 0.3)  # where the near-critical links' sign change is looked for
_OTHER_REGIME = {"stable": "unstable", "unstable": "stable", "near-critical": "unstable"}


def _not_proved(key: str, delta: str, c) -> Judgement:
    """The toolkit's FAIL when the library's enclosure of λ*(``key``, ``delta``) does not prove
    its sign (wording.proved_sign): the paper is not judged on an undecided sign."""
    what = f"lambda*({key}, Delta = {delta})"
    return Judgement(
        FAIL,
        f"the enclosure [{nstr(c.lambda_star_enclosure[0], 8)}, "
        f"{nstr(c.lambda_star_enclosure[1], 8)}] of {what} does not prove the sign "
        f"({sign_words(c)}): the toolkit cannot decide, so the paper is not judged",
        what,
        sign_words(c),
        "-",
    )


def _root_not_proved(what: str, root) -> Judgement:
    """The toolkit's FAIL when a root of λ* the verdict rests on is not certified (its bracket's
    ends not proved of opposite signs, wording.root_words): the paper is not judged on it."""
    return Judgement(
        FAIL,
        f"{what}: {root_words(root)}: the toolkit cannot decide, so the paper is not judged",
        what,
        root_words(root),
        "-",
    )


def _sign_judgement(key: str, delta: str, regime: str, delta_scale: float = 1.0):
    """library (certified) and witness λ* of ``key`` at ``delta`` against a printed regime; an
    unproved library sign is the toolkit's FAIL (:func:`_not_proved`)."""
    c = certified_at(key, delta)
    if not proved_sign(c):
        return _not_proved(key, delta, c), c
    return judge(
        f"lambda*({key}, Delta = {delta})",
        library=c.values["lambda_star"],
        witness=wl.lambda_star(key, delta, delta_scale),
        agree=_LAM_AGREE,
        fmt=lambda v: nstr(v, 8),
        holds=lambda v: (v > 0) == (regime == "stable") and v != 0,
    ), c


#: the float64 tier's regime word flipped (its values unchanged)
_FLOAT_TIER_MUTANT = Mutant.returning(
    "the float64 tier's regime word flipped",
    "formula",
    "proofs_check.claims.numerics.link_geometry:float_at",
    lambda r: replace(r, sign={"stable": "unstable", "unstable": "stable"}.get(r.sign, r.sign)),
)


def _float_tier(key: str, delta: str, delta_scale: float = 1.0) -> list:
    """The float64 tier (what ``nbl stability`` prints by default) against the witness's λ*:
    its error bar must hold the witness's value (widened by the witness's bound
    :data:`_LAM_TOL`) and its regime word must follow the witness's sign
    (:func:`~proofs_check.judgement.error_bars`, :func:`~proofs_check.judgement.sign_written`);
    otherwise the toolkit's FAIL."""
    tier = float_at(key, delta)
    wit = wl.lambda_star(key, delta, delta_scale)
    return [
        *error_bars(tier, {"lambda_star": wit}, ("lambda_star",), _LAM_TOL),
        sign_written(tier, wit, _LAM_TOL),
    ]


def _regime_check(family_prefix, key):
    def check(regime: str = PAPER_LINKS[key].regime, delta_scale: float = 1.0):
        c = certified_at(key, REFERENCE_DELTA)
        lam = c.values["lambda_star"]
        computed = f"lambda* = {nstr(lam, 6)} ({sign_words(c)})"
        if regime in ("stable", "unstable"):
            j, _ = _sign_judgement(key, REFERENCE_DELTA, regime, delta_scale)
            return combine(
                [j, *_float_tier(key, REFERENCE_DELTA, delta_scale)],
                computed,
                f"Arb enclosure [{nstr(c.lambda_star_enclosure[0], 8)}, "
                f"{nstr(c.lambda_star_enclosure[1], 8)}] proves the sign",
            )
        comp = ("stable", "unstable") if family_prefix == "tt" else ("0.60", "0.80")
        keys = [f"{family_prefix}-{r}" for r in comp]
        lib = [certified_at(k, REFERENCE_DELTA).values["lambda_star"] for k in keys]
        wit = [wl.lambda_star(k, REFERENCE_DELTA, delta_scale) for k in keys]
        js = [
            judge(
                f"lambda*({k}, Delta = {REFERENCE_DELTA})",
                library=a,
                witness=b,
                agree=_LAM_AGREE,
                holds=lambda v: True,
            )
            for k, a, b in zip(keys, lib, wit)
        ]
        ratio = near_critical_ratio(key, tuple(keys), REFERENCE_DELTA)
        ratio_w = wl.near_critical_ratio(key, keys, REFERENCE_DELTA, delta_scale)
        js.append(
            judge(
                f"|lambda*({key})| / min |companions|",
                library=ratio,
                witness=ratio_w,
                agree=agree_rel(1e-6),
                fmt=lambda v: f"{float(v):.4e}",
                holds=lambda v: v < _NEAR_CRITICAL_FACTOR,
            )
        )
        if not proved_sign(c):
            js.append(_not_proved(key, REFERENCE_DELTA, c))
        roots = [r for r, _ in wl.delta_roots(key, *_CORROBORATE, 21, delta_scale)]
        ref = float(REFERENCE_DELTA)
        extra = (
            f" Corroboration: lambda* changes sign at Delta_c = {roots[0]:.6f} (the "
            f"witness's root), {abs(roots[0] - ref) / ref:.1%} from the reference "
            f"{REFERENCE_DELTA}."
            if roots
            else f" No sign change of lambda* for Delta in [{_CORROBORATE[0]:g}, "
            f"{_CORROBORATE[1]:g}]."
        )
        detail = (
            f"|lambda*| / min(|lambda*| of stable, unstable) = {float(ratio):.2e} "
            f"(companions {nstr(lib[0], 4)}, {nstr(lib[1], 4)}). {_NEAR_CRITICAL_DEF}. "
            f"The sign is {sign_words(c)}: the near-critical link lies on the "
            f"{'stable' if lam > 0 else 'unstable'} side of lambda* = 0.{extra}"
        )
        return combine(js, computed, detail)

    return check


for _key, _row in PAPER_LINKS.items():
    _fam, (_par, _val), _regime = _row.family, _row.parameter, _row.regime
    _prefix = _key.split("-")[0]
    _label = "app:tanh-geometry" if _prefix == "tt" else "app:elicitation-geometry"
    register(
        f"{_key}-regime",
        _label,
        _label,
        f"At Delta = 0.2, {_fam} with {_par} = {_val} gives {_regime} local dynamics "
        + (
            "(also sec:numerics: 'positive, nearly zero, and negative values of lambda*')"
            if _prefix == "tt"
            else ""
        ),
        "certified",
        "sign proved by an Arb enclosure"
        + (
            f"; |lambda*| < {_NEAR_CRITICAL_FACTOR:g} x companions"
            if _regime == "near-critical"
            else ""
        )
        + "; witness lambda* to 1e-12; the float64 tier (nbl stability's default) must hold "
        "the witness's lambda* within its error bar and print its regime",
        _NEAR_CRITICAL_DEF
        if _regime == "near-critical"
        else "a sign needs no tolerance once the enclosure excludes 0",
        printed=_regime,
        witness=_W_LAMBDA + (", " + _W_ROOTS if _regime == "near-critical" else ""),
        shares=_SHARES,
        mutants=(
            Mutant(
                f"printed regime {_regime} -> {_OTHER_REGIME[_regime]}",
                "printed",
                kwargs={"regime": _OTHER_REGIME[_regime]},
            ),
            Mutant.witness(_WITNESS_MUTANT, delta_scale=1.01),
            *(() if _regime == "near-critical" else (_FLOAT_TIER_MUTANT,)),
        ),
    )(_regime_check(_prefix, _key))


# ------------------------------------------------------------------ Δ = 1 and Δ-dependence
@register(
    "tt-stable-at-delta-1",
    "app:logistic-comparison",
    "app:logistic-comparison",
    "All three two-transition links have positive decision stability coefficients at Delta = 1",
    "certified",
    "sign proved by an Arb enclosure; witness lambda* to 1e-12",
    "a sign needs no tolerance once the enclosure excludes 0",
    printed="lambda* > 0 (all three)",
    witness=_W_LAMBDA,
    shares=_SHARES,
    mutants=(
        Mutant.data("Delta = 1 -> 0.2 (where one link is unstable)", delta="0.2"),
        Mutant.witness(_WITNESS_MUTANT, delta_scale=1.01),
    ),
)
def _tt_delta1(delta: str = "1", delta_scale: float = 1.0):
    rows, js = [], []
    for key in ("tt-stable", "tt-near-critical", "tt-unstable"):
        j, c = _sign_judgement(key, delta, "stable", delta_scale)
        js.append(j)
        rows.append(f"{key}: {nstr(c.values['lambda_star'], 6)} ({sign_words(c)})")
    return combine(
        js,
        "; ".join(rows),
        f"the {len(rows)} signs proved by Arb enclosures, witness values from the definition",
    )


@register(
    "tt-unstable-link-stabilises",
    "fig:tanh-changing-separation",
    "app:tanh-geometry",
    "The link mu2 = 1.244122 is locally unstable at Delta = 0.2 and locally stable at the "
    "wider separations Delta = 1.0 and 1.8 shown in the figure",
    "certified",
    "sign proved by an Arb enclosure; witness lambda* to 1e-12",
    "a sign needs no tolerance once the enclosure excludes 0",
    printed="unstable at 0.2; stable at 1.0, 1.8",
    witness=_W_LAMBDA,
    shares=_SHARES,
    mutants=(
        Mutant.printed(
            "printed: stable already at 0.2",
            want={"0.2": "stable", "1.0": "stable", "1.8": "stable"},
        ),
        Mutant.witness(_WITNESS_MUTANT, delta_scale=1.01),
    ),
)
def _tt_stabilises(want: dict | None = None, delta_scale: float = 1.0):
    want = want or {"0.2": "unstable", "1.0": "stable", "1.8": "stable"}
    pairs = [_sign_judgement("tt-unstable", d, s, delta_scale) for d, s in want.items()]
    computed = "; ".join(
        f"Delta={d}: {nstr(c.values['lambda_star'], 6)} ({sign_words(c)})"
        for d, (_, c) in zip(want, pairs)
    )
    return combine(
        [j for j, _ in pairs],
        computed,
        f"signs proved by Arb enclosures at {len(pairs)} separations",
    )


_TT = ("tt-stable", "tt-near-critical", "tt-unstable")


def _root_judgement(what: str, lib_roots, wit_roots, holds=lambda v: True):
    """library (certified brackets) against witness roots: the same number of crossings, the
    same directions, each root to 1e-8."""
    lib = tuple((float(r.value), r.crossing) for r in lib_roots)

    def agree(a, b):
        """same crossings, each root to 1e-8"""
        return len(a) == len(b) and all(
            x[1] == y[1] and _ROOT_AGREE(x[0], y[0]) for x, y in zip(a, b)
        )

    j = judge(
        what,
        library=lib,
        witness=tuple(wit_roots),
        agree=agree,
        holds=holds,
        fmt=lambda rs: "[" + ", ".join(f"{r:.10f} ({c})" for r, c in rs) + "]",
    )
    # a certificate must back the root it certifies at the resolution the claim reads it to
    bad = bracket_defect(what, lib_roots, wit_roots, wl.ROOT_XTOL, _ROOT_RESOLUTION)
    return j if bad is None or j.status == FAIL else bad


@register(
    "tt-three-links-stabilise",
    "fig:numerical-summary",
    "sec:numerics",
    "Panel (c): instability disappears as the arm separation increases; the three "
    "representative links become locally stable (app:tanh-geometry)",
    "certified",
    "certified brackets of every sign change of lambda*(Delta) on a 160-point grid in "
    "[0.01, 1.99], and a certified positive lambda* at the largest separation (1.8); "
    "the witness's roots (60-point grid, brentq) to 1e-8",
    "a bracket is certified when Arb proves opposite signs at its ends",
    printed="stable for large Delta (all three)",
    witness=_W_ROOTS + ", " + _W_LAMBDA,
    shares=_SHARES,
    mutants=(
        Mutant.data("the largest separation 1.8 -> 0.3 (tt-unstable still unstable)", top="0.3"),
        Mutant.witness("witness roots of lambda* at 1.01 Delta", delta_scale=1.01),
    ),
)
def _tt_three(top: str = "1.8", delta_scale: float = 1.0):
    rows, js = [], []
    for key in _TT:
        res = delta_roots(key)
        last = res.roots[-1] if res.roots else None
        js.append(
            _root_judgement(
                f"sign changes of lambda*(Delta) of {key}",
                res.roots,
                wl.delta_roots(key, delta_scale=delta_scale),
                holds=lambda rs: not rs or rs[-1][1] == "unstable->stable",
            )
        )
        if last is not None and not last.certified:
            js.append(_root_not_proved(f"the last sign change of lambda*(Delta) of {key}", last))
        j, high = _sign_judgement(key, top, "stable", delta_scale)
        js.append(j)
        rows.append(
            f"{key}: "
            + (
                f"lambda* < 0 at the scanned Delta below {last.value} ({root_words(last)})"
                if last
                else "no sign change on the grid"
            )
            + f"; lambda*(Delta = {top}) = {nstr(high.values['lambda_star'], 6)} "
            f"({sign_words(high)})"
        )
    return combine(
        js,
        "; ".join(rows),
        "each link is stable at every scanned Delta above its last certified crossing",
    )


_RANGE_FACTOR = 1.5  # '<~ 0.2' read as 'at most 1.5 x 0.2'


@register(
    "numerics-instability-below-0.2",
    "fig:numerical-summary",
    "sec:numerics",
    "'instability is largely confined to weakly separated arms, typically with "
    "Delta <~ 0.2 in these examples' (the three two-transition links, panel (c))",
    "certified",
    f"PASS if every critical Delta <= {_RANGE_FACTOR:g} x the printed 0.2 = "
    f"{_RANGE_FACTOR * 0.2:g}; the witness's roots to 1e-8",
    "the printed bound is qualitative; a critical Delta 2.5 times the bound is not "
    "'<~ 0.2' under any reading of the symbol. 'Every', although the paper says "
    "'typically': the sentence is about these three examples, of which only two are ever "
    "unstable, so 'typically' cannot excuse one of the two",
    printed="Delta <~ 0.2",
    witness=_W_ROOTS,
    shares=_SHARES,
    mutants=(
        Mutant.printed(
            "printed bound 0.2 -> 0.52 (above every critical Delta of the three links)", bound=0.52
        ),
        Mutant.witness("witness roots of lambda* at 1.01 Delta", delta_scale=1.01),
    ),
)
def _instability_range(bound: float = 0.2, delta_scale: float = 1.0):
    crit, js = {}, []
    reading = _RANGE_FACTOR * bound
    for key in _TT:
        res = delta_roots(key)
        crit[key] = res.roots[-1] if res.roots else None
        js.append(
            _root_judgement(
                f"sign changes of lambda*(Delta) of {key}",
                res.roots,
                wl.delta_roots(key, delta_scale=delta_scale),
                holds=lambda rs: not rs or rs[-1][0] <= reading,
            )
        )
    computed = "; ".join(
        f"{k}: "
        + (
            f"lambda* < 0 at every scanned Delta below {float(r.value):.4f} ("
            f"{root_words(r)}, width "
            f"{float(r.bracket[1]) - float(r.bracket[0]):.0e})"
            if r
            else "no sign change on the scan grid"
        )
        for k, r in crit.items()
    )
    worst_key, worst = max(
        ((k, float(r.value)) for k, r in crit.items() if r), key=lambda t: t[1], default=(None, 0.0)
    )
    evidence = {"fig:numerical-summary": computed}
    if worst <= reading:
        text = f"every instability ends by Delta = {worst:.4f} <= {_RANGE_FACTOR:g} x {bound:g}"
    else:
        ever = {k: float(r.value) for k, r in crit.items() if r}
        past = [k for k, v in ever.items() if v > reading]
        within = {k: v for k, v in ever.items() if v <= reading}
        never = [k for k, r in crit.items() if r is None]
        text = (
            f"The link {worst_key} is unstable (lambda* < 0 at the scanned Delta) up to its "
            f"certified crossing at Delta = {worst:.4f} "
            f"({root_words(crit[worst_key])}), {worst / bound:.2f} times the printed "
            f"{bound:g}"
            + "".join(
                f"; {k}'s instability ends at Delta = {v:.4f} ({v / bound:.2f} times {bound:g})"
                for k, v in within.items()
            )
            + ("; no sign change on the scan grid: " + ", ".join(never) if never else "")
            + f". Of the {len(ever)} examples with a sign change on the scan grid, {len(past)} "
            f"{'ends' if len(past) == 1 else 'end'} past the reading below, so 'typically' "
            f"does not cover {'it' if len(past) == 1 else 'them'}. The paper's '<~' is "
            f"qualitative; the toolkit reads it as 'at most {_RANGE_FACTOR:g} x {bound:g} = "
            f"{reading:g}', and {worst:.4f} is {worst / reading:.2f} times that reading. "
        )
    unproved = [k for k, r in crit.items() if r is not None and not r.certified]
    if unproved:  # the verdict rests on these crossings: an unproved one is not judged
        js.append(
            Judgement(
                FAIL,
                text + (". " if worst <= reading else "") + "The toolkit could not certify "
                f"the crossing of {', '.join(unproved)} (the Arb enclosures at its bracket's ends "
                "do not prove opposite signs), so the paper is not judged on it.",
                "the certification of the critical separations",
                "uncertified",
                "-",
            )
        )
    if worst <= reading:
        return combine(js, computed, text, evidence=evidence)
    return combine(
        js,
        computed,
        text + "The qualitative claim (instability disappears as Delta grows) holds; the "
        f"quantitative 'typically Delta <~ {bound:g}' does not for {', '.join(past)}. Not a "
        "finite-sample effect: the crossing is a certified root of lambda*(Delta), and the "
        "witness's own root agrees. The roots to their precision: "
        + "; ".join(f"{k} {r.value} ({root_words(r)})" for k, r in crit.items() if r),
        consequence="experiment",
        figure="numerical-summary",
        evidence=evidence,
    )


_PAPER_MU2 = {k: float(PAPER_LINKS[k].params["mu2"]) for k in _TT}


@register(
    "tt-instability-intermediate-mu2",
    "app:tanh-geometry",
    "app:tanh-geometry",
    "At Delta = 0.2 instability occurs only over an intermediate range of mu2 "
    "(lambda* > 0 for small and large mu2, < 0 in between) containing the paper's "
    "unstable link and neither of the other two",
    "certified",
    "two certified sign changes (+ to -, then - to +) on a 160-point grid of mu2 in "
    "[-4, 4]; the witness's roots (80-point grid, brentq) to 1e-8",
    "a bracket is certified when Arb proves opposite signs at its ends; a pair "
    "of roots closer than the grid spacing 0.05 would be missed",
    printed="one interval",
    witness=_W_PROOTS,
    shares="nothing (the family's formula is written out in the witness)",
    mutants=(
        Mutant.printed(
            "the unstable link's printed mu2 1.244122 -> 2.5",
            mu2={**_PAPER_MU2, "tt-unstable": 2.5},
        ),
        Mutant.witness("witness roots at Delta = 0.21", witness_delta=0.21),
    ),
)
def _tt_intermediate(mu2: dict | None = None, witness_delta: float = 0.2):
    mu2 = mu2 or _PAPER_MU2
    roots = parameter_roots("two-transition", "mu2", REFERENCE_DELTA).roots
    computed = (
        "; ".join(f"mu2 = {r.value} ({r.crossing}, {root_words(r)})" for r in roots)
        or "no sign change"
    )
    want = {"tt-stable": False, "tt-near-critical": False, "tt-unstable": True}

    def holds(rs):
        if len(rs) != 2 or [c for _, c in rs] != ["stable->unstable", "unstable->stable"]:
            return False
        return {k: rs[0][0] < v < rs[1][0] for k, v in mu2.items()} == want

    js = [
        _root_judgement(
            f"sign changes of lambda*(mu2) at Delta = {REFERENCE_DELTA}",
            roots,
            wl.parameter_roots("two-transition", witness_delta, -4.0, 4.0, 80),
            holds=holds,
        )
    ]
    js += [
        _root_not_proved(f"the sign change of lambda*(mu2) at mu2 = {r.value}", r)
        for r in roots
        if not r.certified
    ]
    if len(roots) != 2:
        return combine(js, computed, "expected exactly two certified crossings")
    lo, hi = float(roots[0].value), float(roots[1].value)
    inside = {k: lo < v < hi for k, v in mu2.items()}
    return combine(
        js,
        computed,
        f"on the 160-point scan of mu2 in [-4, 4] the only sign changes are the certified "
        f"crossings at {lo:.6f} and {hi:.6f}: lambda* < 0 at every scanned mu2 between them "
        "and > 0 at every scanned mu2 outside; inside: "
        + ", ".join(f"{k} (mu2 = {v}): {inside[k]}" for k, v in mu2.items())
        + f"; the near-critical mu2 is {mu2['tt-near-critical'] - hi:.2e} above the "
        "upper root",
    )


_CONTRACT_DELTAS = ("0.2", "0.3", "0.4", "0.5", "0.6", "1")


def _nested_and_vanishing(intervals: dict, deltas) -> bool:
    seq = [v for v in intervals.values() if v]
    nested = all(len(v) == 2 for v in seq) and all(
        a[0] < b[0] and b[1] < a[1] for a, b in zip(seq, seq[1:])
    )
    return nested and not intervals[deltas[-1]] and not intervals[deltas[-2]]


def _near_below(library, witness) -> bool:
    """witness - 5e-3 <= library <= witness + 1e-9 (the curve's points are 0.25 apart in scaled
    arclength, so its highest point sits below the fold: measured 1.2e-3 below; none above)"""
    return witness - 5e-3 <= library <= witness + 1e-9


def _same_crossings(library, witness) -> bool:
    """the same number of crossings, each within 5e-3 (linear interpolation between points 0.25
    apart; measured 9.4e-4)"""
    return len(library) == len(witness) and all(
        abs(a - b) <= 5e-3 for a, b in zip(library, witness)
    )


def _phase_checks() -> list:
    """Library versus witness on the lambda* = 0 boundary of the two-transition family as the
    tanh-phase figure draws it (pseudo-arclength continuation, nbl_theory.continuation, of the
    library's float64 lambda*, from the witness's lower root at Delta = 0.2): the witness's
    lambda* at every traced point, the fold (the top of the unstable region) against the
    witness's largest critical Delta, and the crossings of Delta = 0.2 against its roots."""
    roots = [r for r, _ in wl.parameter_roots("two-transition", "0.2", -4.0, 4.0, 80)]
    curve = phase_boundary(roots[0])
    top, _ = wl.family_top("two-transition", roots[0], roots[-1])
    return [
        agreement(
            "lambda* on the library's lambda* = 0 curve (two-transition, mu2 and Delta)",
            library=curve["lambda_star"],
            witness=wl.lambda_on_curve("two-transition", curve["mu2"], curve["delta"]),
            agree=agree_max_abs(1e-10, "lambda* at the traced points (both float64, ~1e-13)"),
            fmt=lambda v: f"max |lambda*| {max(abs(float(x)) for x in v):.2g}",
        ),
        agreement(
            "the top of the unstable region (the curve's fold)",
            library=curve["top"],
            witness=top,
            agree=_near_below,
        ),
        agreement(
            "the curve's crossings of Delta = 0.2",
            library=wl.curve_crossings(curve["mu2"], curve["delta"], 0.2),
            witness=roots,
            agree=_same_crossings,
            fmt=lambda v: ", ".join(f"{x:.6f}" for x in v),
        ),
    ]


def _phase_reduced() -> Outcome:
    """``tt-unstable-region-contracts`` in a quick run (:attr:`proofs_check.registry.Claim.
    reduced`): the phase boundary's gates only (:func:`_phase_checks`), which cannot decide the
    contraction over the listed separations: ``SKIPPED`` when they agree, FAIL when not."""
    js = _phase_checks()
    return gate(
        Outcome(
            SKIPPED,
            None,
            "its gates ran on the lambda* = 0 boundary the tanh-phase figure traces: "
            + "; ".join(j.detail for j in js),
        ),
        js,
    )


@register(
    "tt-unstable-region-contracts",
    "fig:app-tanh-phase",
    "app:tanh-geometry",
    "As Delta increases, the unstable region (in mu2) contracts and eventually "
    "disappears over the displayed family",
    "high-precision",
    "sign changes of float64 lambda* on a 160-point mu2 grid in [-4, 4], roots by Brent; "
    "the witness's roots (80-point grid) to 1e-8",
    "the nesting and disappearance are qualitative; roots are resolved to ~1e-12, far "
    "below the differences between the intervals",
    printed="contracts, then disappears",
    quick=False,
    witness=_W_PROOTS,
    shares="nothing (the family's formula is written out in the witness)",
    mutants=(
        Mutant.data("separations in decreasing order", deltas=tuple(reversed(_CONTRACT_DELTAS))),
        Mutant.witness("witness roots at 1.01 Delta", delta_scale=1.01),
    ),
    reduced=_phase_reduced,
)
def _tt_contracts(deltas: tuple = _CONTRACT_DELTAS, delta_scale: float = 1.0):
    lib = {d: parameter_roots("two-transition", "mu2", d, certify=False).roots for d in deltas}
    wit = {d: wl.parameter_roots("two-transition", d, -4.0, 4.0, 80, delta_scale) for d in deltas}
    js = [
        _root_judgement(f"sign changes of lambda*(mu2) at Delta = {d}", lib[d], wit[d])
        for d in deltas
    ]
    intervals = {d: tuple(float(r.value) for r in lib[d]) for d in deltas}
    w_int = {d: tuple(r for r, _ in wit[d]) for d in deltas}
    js.append(
        judge(
            "the unstable mu2-intervals along Delta",
            library=intervals,
            witness=w_int,
            agree=lambda a, b: True,
            holds=lambda iv: _nested_and_vanishing(iv, deltas),
        )
    )
    computed = "; ".join(
        f"Delta={d}: "
        + (f"({v[0]:.4f}, {v[1]:.4f})" if len(v) == 2 else "none" if not v else str(v))
        for d, v in intervals.items()
    )
    lim = instability_limit("two-transition", "mu2", REFERENCE_DELTA)
    if lim is None:
        limit = f"no unstable mu2 at Delta = {REFERENCE_DELTA}: no top of the unstable region"
        consistent = not any(intervals.values())
    else:
        top = float(lim["delta"])
        limit = (
            f"the unstable region ends at Delta = {top:.4f} (mu2 = "
            f"{lim['parameter']:.4f}): the largest critical Delta over the mu2 unstable "
            f"at Delta = {REFERENCE_DELTA} ({float(lim['band'][0]):.4f} to "
            f"{float(lim['band'][1]):.4f}), maximized by float64 Brent over mu2 "
            f"({lim['evaluations']} threshold solves); at that mu2 the crossing is "
            + ("certified by Arb in" if lim["certified"] else "NOT certified; bracket")
            + f" [{lim['bracket'][0]}, {lim['bracket'][1]}]"
        )
        # the limit and the scans must tell the same story: an interval only below the top
        consistent = all(bool(v) == (float(d) < top) for d, v in intervals.items())
    computed += f"; top of the unstable region: {lim['delta'] if lim else 'none'}"
    if not consistent:
        js.append(
            Judgement(
                FAIL,
                "toolkit inconsistency: the mu2 scans and the top of the "
                f"unstable region disagree ({limit}); the paper is not judged",
                "the top of the unstable region",
                str(lim and lim["delta"]),
                "-",
            )
        )
    js += _phase_checks()
    return combine(
        js,
        computed,
        (
            "the unstable mu2-intervals are strictly nested as Delta grows and empty at "
            "the two largest separations"
            if _nested_and_vanishing(intervals, deltas)
            else "not nested or not vanishing along the separations as listed"
        )
        + "; "
        + limit,
    )


_RHO_RANGE = ("0.5", "0.9")


@register(
    "we-critical-rho",
    "fig:app-stability-components",
    "app:elicitation-geometry",
    "At Delta = 0.2 the restoring and curvature contributions coincide near rho = 0.72, "
    "where lambda* = 0; beyond it the boundary is unstable",
    "certified",
    "|rho_c - 0.72| <= 0.005 (the printed value has two decimals); the witness's root to 1e-8",
    "'near 0.72' read as agreement to the printed two decimals; the root "
    "itself is bracketed by Arb",
    printed="0.72",
    witness=_W_PROOTS,
    shares="nothing (the implicit link is solved in the witness)",
    mutants=(
        Mutant.printed("printed 0.72 -> 0.73", printed=0.73),
        Mutant.witness("witness root at Delta = 0.201", witness_delta=0.201),
    ),
)
def _we_critical(printed: float = 0.72, witness_delta: float = 0.2):
    roots = parameter_roots(
        "weighted-entropy", "rho", REFERENCE_DELTA, bracket=_RHO_RANGE, grid=41
    ).roots
    wit = wl.parameter_roots(
        "weighted-entropy", witness_delta, float(_RHO_RANGE[0]), float(_RHO_RANGE[1]), 9
    )
    where = f"[{_RHO_RANGE[0]}, {_RHO_RANGE[1]}]"
    js = [
        _root_judgement(
            f"the sign changes of lambda*(rho) at Delta = {REFERENCE_DELTA} in {where}",
            roots,
            wit,
            holds=lambda rs: (
                len(rs) == 1 and rs[0][1] == "stable->unstable" and abs(rs[0][0] - printed) <= 0.005
            ),
        )
    ]
    if len(roots) != 1:
        return combine(js, f"{len(roots)} roots in {where}", "expected a single crossing")
    r = roots[0]
    if not r.certified:
        js.append(_root_not_proved("the critical rho", r))
    near = "we-0.72"
    rho_near = PAPER_LINKS[near].parameter[1]
    at = certified_at(near, REFERENCE_DELTA)
    side = "above" if float(r.value) > float(rho_near) else "below"
    below, above = ("> 0", "< 0") if r.crossing == "stable->unstable" else ("< 0", "> 0")
    return combine(
        js,
        f"rho_c = {r.value} ({root_words(r)}, {r.crossing})",
        f"a single crossing in {where} ({root_words(r)}), "
        f"{abs(float(r.value) - printed):.1e} from the printed {printed:g}; lambda* "
        f"{below} at every scanned rho of {where} below it, {above} at every one above. At "
        f"rho = {rho_near} itself lambda* = "
        f"{nstr(at.values['lambda_star'], 4)} ({sign_words(at)}): rho_c lies {side} "
        f"{rho_near}",
    )


_WEAK_GRID = tuple(round(0.05 + i * 1.9 / 39, 12) for i in range(40))


@register(
    "we-instability-weak-separation",
    "app:elicitation-geometry",
    "app:elicitation-geometry",
    "The instability in the weighted-entropy family is concentrated in the "
    "weak-separation regime: the unstable rho = 0.80 link becomes stable as Delta grows, "
    "and the restoring contribution Delta mu* strengthens with Delta",
    "certified",
    "certified sign changes of lambda*(Delta) on a 160-point grid; Delta mu* increasing "
    "on a 40-point grid; the witness's roots (20-point grid) to 1e-8 and mu* to 1e-12",
    "a bracket is certified when Arb proves opposite signs at its ends; monotonicity is "
    "checked at float64 with a 1e-12 relative margin",
    printed="unstable only under weak separation",
    witness=_W_ROOTS + ", proofs_check.witnesses.lambda_star:mu_star",
    shares=_SHARES,
    mutants=(
        Mutant(
            "the two-transition mu2 = -1.074037 (never unstable) instead of rho = 0.80",
            "link",
            kwargs={"key": "tt-stable"},
        ),
        Mutant.witness("witness at 1.01 Delta", delta_scale=1.01),
    ),
)
def _we_weak(key: str = "we-0.80", delta_scale: float = 1.0):
    res = delta_roots(key)
    roots = res.roots

    def increasing(r):
        return all(b > a * (1 + 1e-12) for a, b in zip(r, r[1:]))

    lib_r = tuple(restoring(key, repr(d)) for d in _WEAK_GRID)
    wit_r = tuple(wl.restoring(key, d, delta_scale) for d in _WEAK_GRID)

    def agree(a, b):
        """Delta mu* to 1e-12 at every grid point"""
        return all(abs(x - y) <= 1e-12 for x, y in zip(a, b))

    js = [
        _root_judgement(
            f"sign changes of lambda*(Delta) of {key}",
            roots,
            wl.delta_roots(key, grid=20, delta_scale=delta_scale),
            holds=lambda rs: len(rs) == 1 and rs[0][1] == "unstable->stable",
        ),
        judge(
            f"Delta mu* of {key} on 40 separations in [0.05, 1.95]",
            library=lib_r,
            witness=wit_r,
            agree=agree,
            holds=increasing,
            fmt=lambda r: f"{r[0]:.6g} ... {r[-1]:.6g}",
        ),
    ]
    js += [
        _root_not_proved(f"the sign change of lambda*(Delta) of {key} at {r.value}", r)
        for r in roots
        if not r.certified
    ]
    computed = (
        "; ".join(
            f"lambda* < 0 at the scanned Delta below {r.value} ({r.crossing}, {root_words(r)})"
            for r in roots
        )
        or "no crossing"
    ) + f"; Delta mu* increasing on the grid: {increasing(lib_r)}"
    return combine(js, computed, f"{key} is stable at every scanned Delta above a single crossing")
