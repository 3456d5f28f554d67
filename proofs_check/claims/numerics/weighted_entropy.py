"""Claims of the weighted binary negative entropy φ_ρ (app:elicitation-geometry, the numerical
section's elicitation example): its derivatives, normalisation and values at 1/2 and 0, the
implicit equation of g_ρ, strict convexity, the dual domain, the logistic case ρ = 0 and the
invariance of the Bregman loss under affine terms.

The paper's printed formulas are the claims' ``printed`` values, in sympy syntax (``rho``, ``m``,
``z``, ``g``); each is parsed and compared with what sympy derives from the paper's definition
of φ_ρ for symbolic ρ (:mod:`proofs_check.witnesses.weighted_entropy`, which does not use the
library's elicitation module). The library computes the same facts its own way
(:func:`nbl_theory.elicitation.weighted_entropy_facts`, through
:func:`proofs_check.witnesses.toolkit_values.weighted_entropy_facts`); each claim first compares
the library's value with the witness's (:func:`proofs_check.judgement.gate`: a difference is a
``FAIL``, a toolkit defect, and the paper is not judged), then judges the paper's printed formula
against the witness: a printed formula that sympy recomputes to something else is a
``DISCREPANCY`` of two computations. Every check takes its printed value as a keyword argument;
the printed mutants perturb it, and each claim has a library mutant (the library's fact
changed) that must turn it ``FAIL``.
"""

from __future__ import annotations

import sympy as sp

from nbl_theory import elicitation as el

from ...judgement import agree_max_rel, agreement, gate_noting
from ...registry import DISCREPANCY, FAIL, PASS, Mutant, Outcome, register
from ...witnesses import toolkit_values as tv
from ...witnesses import weighted_entropy as we

__all__: list[str] = []

_SECTION = "app:elicitation-geometry"
_WHY = (
    "sympy simplification of the difference to 0 after substitutions that make m in (0, 1) "
    "and |rho| < 1 structural: an identity either holds or it does not"
)


#: where the claims read the library's facts (a library mutant patches it)
_FACTS = "proofs_check.witnesses.toolkit_values:weighted_entropy_facts"
#: what the witness of every claim here shares with the library
_SHARES = (
    "nothing (phi_rho written out from the paper in the witness; the library derives the "
    "facts in nbl_theory.elicitation)"
)


def _library_fact(key: str):
    """The library's value of the fact ``key`` of φ_ρ (computed, not its printed copy), in the
    witness's symbols (m ∈ (0, 1) positive, ρ real)."""
    value = tv.weighted_entropy_facts()[key][0]
    if isinstance(value, sp.Basic):
        return value.subs({el.M: we.M, el.RHO: we.RHO, el.Z: we.Z})
    return value


def _same_expression(library, witness) -> bool:
    """equal as functions of m in (0, 1) and real rho (sympy: the difference simplifies to 0;
    truth values must be equal)"""
    if isinstance(library, bool) or isinstance(witness, bool):
        return bool(library) == bool(witness)
    return we.same(library, witness)


def _library_copy(key: str):
    """The library's copy of the paper's printed value of the fact ``key`` (the second entry of
    :func:`nbl_theory.elicitation.weighted_entropy_facts`), in the witness's symbols. The copy
    is a sympy object (or a number); ``strict=True`` refuses text rather than parse it."""
    value = tv.weighted_entropy_facts()[key][1]
    return sp.sympify(value, strict=True).subs({el.M: we.M, el.RHO: we.RHO, el.Z: we.Z})


def _gated(outcome: Outcome, key: str, witness, what: str, paper: str | None = None) -> Outcome:
    """``outcome`` (judged from the witness) unless the library's ``key`` differs from the
    witness's value: then the toolkit-defect ``FAIL``.

    ``paper``, the claim's own transcription of the paper's formula (the registered default,
    audited against the LaTeX; never a printed mutant's value), is also compared with the
    library's copy of it: the library judges the fact against its copy
    (``weighted_entropy_facts``' third entry, which a user reads), so two transcriptions of one
    printed formula that disagree are a toolkit defect as well."""
    fmt = lambda v: str(v) if isinstance(v, bool) else sp.sstr(v)  # noqa: E731
    checks = [
        agreement(
            f"{what} of phi_rho",
            library=_library_fact(key),
            witness=witness,
            agree=_same_expression,
            fmt=fmt,
        )
    ]
    note = f"The library's {what} (nbl_theory.elicitation) equals the witness's"
    if paper is not None:
        checks.append(
            agreement(
                f"the paper's printed {what}",
                library=_library_copy(key),
                witness=we.parse(paper),
                agree=_same_expression,
                fmt=fmt,
            )
        )
        # the library's own verdict on the fact (the third entry, what a user reads) must be
        # the witness's: the computed value equals the printed formula or it does not
        checks.append(
            agreement(
                f"the verdict on the printed {what} (computed = printed)",
                library=bool(tv.weighted_entropy_facts()[key][2]),
                witness=_same_expression(witness, we.parse(paper)),
                agree=_same_expression,
                fmt=str,
            )
        )
        note += (
            ", its copy of the printed formula equals the registry's, and its verdict on it "
            "is the witness's"
        )
    return gate_noting(outcome, checks, note + ".")


def _verdict_mutant(key: str, what: str) -> Mutant:
    """The library's verdict on the fact ``key`` negated (its third entry, what a user reads):
    the claim must read FAIL (a toolkit defect)."""

    def wrong(facts: dict) -> dict:
        c, p, e = facts[key]
        return {**facts, key: (c, p, not e)}

    return Mutant.returning(
        f"library verdict on {what} negated",
        "formula",
        "proofs_check.witnesses.toolkit_values:weighted_entropy_facts",
        wrong,
    )


def _library_mutant(key: str, what: str) -> Mutant:
    """The library's fact ``key`` changed (x -> 2x + 1, a truth value negated): the claim must
    read FAIL (a toolkit defect), not judge the paper."""

    def wrong(facts: dict) -> dict:
        c, p, e = facts[key]
        return {**facts, key: ((not c) if isinstance(c, bool) else 2 * c + 1, p, e)}

    return Mutant.returning(f"library {what} changed", "formula", _FACTS, wrong)


def _off(v):
    """A wrong value of a witness: x -> 2x + 1 (±∞ -> 0; each entry of a tuple), a truth value
    negated."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, tuple):
        return tuple(_off(x) for x in v)
    if v in (sp.oo, -sp.oo):  # 2·∞ + 1 is ∞ again
        return sp.Integer(0)
    return 2 * v + 1


def _witness_mutant(function: str) -> Mutant:
    """The witness ``function`` of :mod:`proofs_check.witnesses.weighted_entropy` returning a
    wrong value (:func:`_off`): library and witness then disagree, and the claim must read FAIL."""

    target = f"proofs_check.witnesses.weighted_entropy:{function}"
    return Mutant.returning(f"witness {function} wrong", "witness", target, _off)


#: the claims gated on the library's value alone, with no printed copy whose verdict to gate
_NO_VERDICT = frozenset({"we-implicit-equation"})


def _register(id, statement, printed, mutated, fact, what, witness="derivative", why=_WHY):
    return register(
        id,
        _SECTION,
        _SECTION,
        statement,
        "symbolic",
        "exact",
        why,
        printed=printed,
        witness=f"proofs_check.witnesses.weighted_entropy:{witness}",
        shares=_SHARES,
        mutants=(
            Mutant(f"printed {printed!r} -> {mutated!r}", "printed", kwargs={"printed": mutated}),
            _library_mutant(fact, what),
            _witness_mutant("derivative" if witness == "implicit_equation_gap" else witness),
            *(() if id in _NO_VERDICT else (_verdict_mutant(fact, what),)),
        ),
    )


def _show(expr) -> str:
    """A readable form: logs collected, rational functions of m split into partial fractions."""
    expr = sp.sympify(expr)
    if expr.has(sp.log):
        expr = sp.collect(sp.expand(expr), [sp.log(we.M), sp.log(1 - we.M)])
    elif expr.has(we.M):
        expr = sp.apart(expr, we.M)
    return sp.sstr(expr)


def _compare(computed, printed: str, note: str = "") -> Outcome:
    ok = we.same(computed, we.parse(printed))
    return Outcome(
        PASS if ok else DISCREPANCY,
        _show(computed),
        note + ("" if ok else f"sympy gives {sp.sstr(computed)}, the paper prints {printed}"),
    )


_PHI1 = "(1+rho)*log(m) - (1-rho)*log(1-m) + 2*rho*log(2)"


@register(
    "we-phi-prime",
    _SECTION,
    _SECTION,
    "phi_rho'(m) = (1+rho) log m - (1-rho) log(1-m) + 2 rho log 2, for phi_rho(m) = "
    "(1+rho) m log m + (1-rho)(1-m) log(1-m) - kappa_rho m, kappa_rho = 2 rho (1 - log 2); "
    "the library's phi_rho is this definition",
    "symbolic",
    "exact",
    _WHY,
    printed=_PHI1,
    witness="proofs_check.witnesses.weighted_entropy:potential, "
    "proofs_check.witnesses.weighted_entropy:derivative",
    shares="nothing (phi_rho written out from the paper in the witness)",
    mutants=(
        Mutant.printed(
            "printed 2 rho log 2 -> rho log 2",
            printed="(1+rho)*log(m) - (1-rho)*log(1-m) + rho*log(2)",
        ),
        Mutant.witness("witness phi_rho with an extra m^2 term", extra=we.M**2),
        _library_mutant("phi_prime", "phi_rho'"),
        _verdict_mutant("phi_prime", "phi_rho'"),
    ),
)
def _we_phi_prime(printed: str = _PHI1, extra=0):
    lib = el.weighted_entropy_potential(el.RHO, el.M).subs({el.RHO: we.RHO, el.M: we.M})
    if not we.same(lib, we.potential(extra=extra)):  # the library transcribes the definition
        return Outcome(
            FAIL,
            _show(we.derivative(1)),
            "toolkit defect: the library's phi_rho "
            "(nbl_theory.elicitation) is not the paper's definition written out in "
            "the witness; the paper is not judged",
        )
    out = _compare(we.derivative(1), printed)
    out.detail += " The library's phi_rho equals the paper's definition (sympy)."
    return _gated(out, "phi_prime", we.derivative(1), "phi_rho'", _PHI1)


_PHI2 = "(1+rho)/m + (1-rho)/(1-m)"


@_register(
    "we-phi-second",
    "phi_rho''(m) = (1+rho)/m + (1-rho)/(1-m)",
    _PHI2,
    "(1+rho)/m + (1+rho)/(1-m)",
    "phi_second",
    "phi_rho''",
)
def _we_phi_second(printed: str = _PHI2):
    return _gated(
        _compare(we.derivative(2), printed), "phi_second", we.derivative(2), "phi_rho''", _PHI2
    )


#: the paper's phi_rho^(k)(1/2), k = 1, 2, 3 (the claims' registered printed values)
_HALF_PAPER = ("0", "4", "-8*rho")


@_register(
    "we-normalisation",
    "kappa_rho = 2 rho (1 - log 2) is chosen so that phi_rho'(1/2) = 0",
    _HALF_PAPER[0],
    "rho",
    "phi_prime(1/2)",
    "phi_rho'(1/2)",
    "at_half",
)
def _we_norm(printed: str = _HALF_PAPER[0]):
    out = _compare(we.at_half(1), printed, "phi_rho'(1/2) with kappa_rho = 2 rho (1 - log 2). ")
    return _gated(out, "phi_prime(1/2)", we.at_half(1), "phi_rho'(1/2)", _HALF_PAPER[0])


@_register(
    "we-phi-second-half",
    "phi_rho''(1/2) = 4",
    _HALF_PAPER[1],
    "2",
    "phi_second(1/2)",
    "phi_rho''(1/2)",
    "at_half",
)
def _we_second_half(printed: str = _HALF_PAPER[1]):
    out = _compare(we.at_half(2), printed)
    return _gated(out, "phi_second(1/2)", we.at_half(2), "phi_rho''(1/2)", _HALF_PAPER[1])


@_register(
    "we-phi-third-half",
    "phi_rho'''(1/2) = -8 rho",
    _HALF_PAPER[2],
    "8*rho",
    "phi_third(1/2)",
    "phi_rho'''(1/2)",
    "at_half",
)
def _we_third_half(printed: str = _HALF_PAPER[2]):
    out = _compare(we.at_half(3), printed)
    return _gated(out, "phi_third(1/2)", we.at_half(3), "phi_rho'''(1/2)", _HALF_PAPER[2])


_TAYLOR = (
    "g_rho = (phi_rho')^{-1} expanded at 0 by inverting the Taylor series of phi_rho' at "
    "1/2 (no formula for g' or g'' used). "
)


_GTAYLOR = ("g(0)", "g'(0)", "g''(0)")


#: the paper's g_rho^(k)(0), k = 0, 1, 2 (the claims' registered printed values)
_GPAPER = ("1/2", "1/4", "rho/8")


def _we_taylor(k: int, printed: str) -> Outcome:
    """g_rho^(k)(0) from the witness's Taylor inversion, judged against ``printed``, gated by
    the library's value (:func:`nbl_theory.elicitation.link_derivatives_from_potential` at 1/2)."""
    value = we.link_taylor()[k]
    out = _compare(value, printed, _TAYLOR)
    return _gated(out, _GTAYLOR[k], value, f"g_rho^({k})(0)", _GPAPER[k])


@_register("we-g-at-0", "g_rho(0) = 1/2", _GPAPER[0], "1/4", "g(0)", "g_rho^(0)(0)", "link_taylor")
def _we_g0(printed: str = _GPAPER[0]):
    return _we_taylor(0, printed)


@_register(
    "we-g1-at-0", "g_rho'(0) = 1/4", _GPAPER[1], "1/2", "g'(0)", "g_rho^(1)(0)", "link_taylor"
)
def _we_g1(printed: str = _GPAPER[1]):
    return _we_taylor(1, printed)


@_register(
    "we-g2-at-0", "g_rho''(0) = rho/8", _GPAPER[2], "rho/4", "g''(0)", "g_rho^(2)(0)", "link_taylor"
)
def _we_g2(printed: str = _GPAPER[2]):
    return _we_taylor(2, printed)


_IMPLICIT = "g**(1+rho)/(1-g)**(1-rho) = exp(z)/2**(2*rho)"


@_register(
    "we-implicit-equation",
    "g_rho(z)^{1+rho}/{1-g_rho(z)}^{1-rho} = e^z/2^{2 rho} (the "
    "log of both sides is the printed equation z = (1+rho) log g - (1-rho) log(1-g) + "
    "2 rho log 2)",
    _IMPLICIT,
    "g**(1+rho)/(1-g)**(1-rho) = exp(z)/2**rho",
    "log_implicit_equation",
    "phi_rho'(m) on (0, 1)",
    "implicit_equation_gap",
)
def _we_implicit(printed: str = _IMPLICIT):
    lhs, rhs = (we.parse(t) for t in printed.split("="))
    gap = we.implicit_equation_gap(lhs, rhs)
    out = Outcome(
        PASS if gap == 0 else DISCREPANCY,
        f"log lhs(m) - log rhs(phi_rho'(m)) = {sp.sstr(gap)} (m in (0, 1))",
        "the printed equation with g = m and z = phi_rho'(m) must hold for every m.",
    )
    out = _gated(out, "log_implicit_equation", we.derivative(1), "phi_rho'(m) on (0, 1)")
    # the library's copy of the printed equation (its log, solved for z) against the
    # registry's transcription: two copies of one printed formula must agree
    lhs0, rhs0 = (we.parse(t) for t in _IMPLICIT.split("="))
    copy = agreement(
        "the paper's printed implicit equation, solved for z",
        library=_library_copy("log_implicit_equation"),
        witness=we.implicit_equation_z(lhs0, rhs0),
        agree=_same_expression,
        fmt=sp.sstr,
    )
    return gate_noting(
        out, [copy], "Its copy of the printed equation equals the registry's, solved for z."
    )


@register(
    "we-strictly-convex",
    _SECTION,
    _SECTION,
    "|rho| < 1 implies phi_rho'' > 0 on (0, 1): phi_rho is strictly convex",
    "symbolic",
    "exact",
    _WHY,
    printed="|rho| < 1",
    witness="proofs_check.witnesses.weighted_entropy:strictly_convex",
    shares=_SHARES,
    mutants=(
        Mutant.printed("the range |rho| < 1 -> |rho| < 3/2", bound=sp.Rational(3, 2)),
        _library_mutant("strictly_convex", "strict convexity for |rho| < 1"),
        _witness_mutant("strictly_convex"),
    ),
)
def _we_convex(bound=1):
    ok = we.strictly_convex(bound)
    out = Outcome(
        PASS if ok else DISCREPANCY,
        f"phi_rho''(u/(1+u)) > 0 proved by sympy for every u > 0 and |rho| < {bound}: {ok}",
        "rho = bound (s-1)/(s+1), s > 0; m = u/(1+u), u > 0.",
    )
    # the library checks the paper's range |rho| < 1 (its cases rho > 0, < 0, = 0)
    return _gated(out, "strictly_convex", we.strictly_convex(1), "strict convexity for |rho| < 1")


@register(
    "we-dual-domain",
    _SECTION,
    _SECTION,
    "phi_rho' -> -oo as m -> 0+ and -> +oo as m -> 1-: g_rho maps R onto (0, 1)",
    "symbolic",
    "exact",
    _WHY,
    printed="-oo, oo",
    witness="proofs_check.witnesses.weighted_entropy:dual_limits",
    shares=_SHARES,
    mutants=(
        Mutant.formula("the range |rho| < 1 -> |rho| < 2", bound=2),
        _library_mutant("dual_domain_is_R", "dual domain = R for |rho| < 1"),
        _witness_mutant("dual_limits"),
    ),
)
def _we_dual(bound=1, printed: str = "-oo, oo"):
    lo, hi = we.dual_limits(bound)
    want = tuple(we.parse(t) for t in printed.split(","))
    ok = (lo, hi) == want
    out = Outcome(
        PASS if ok else DISCREPANCY,
        f"limits {sp.sstr(lo)}, {sp.sstr(hi)}",
        f"sympy limits of phi_rho' for every |rho| < {bound} (rho = bound (s-1)/(s+1)"
        ", s > 0); phi_rho' is increasing (we-strictly-convex) and continuous, so "
        "g_rho is onto (0, 1).",
    )
    # the library checks the paper's range |rho| < 1
    covers = we.dual_limits(1) == (-sp.oo, sp.oo)
    return _gated(out, "dual_domain_is_R", covers, "dual domain = R for |rho| < 1")


_LOGISTIC = "exp(z)/(1+exp(z))"


@_register(
    "we-rho0-logistic",
    "When rho = 0 the construction reduces exactly to the logistic link",
    _LOGISTIC,
    "exp(z)/(1+exp(2*z))",
    "rho=0_is_logistic",
    "g_0",
    "logistic_case",
)
def _we_logistic(printed: str = _LOGISTIC):
    sol = we.logistic_case()
    if sol is None:
        return Outcome(FAIL, "no unique solution", "sympy could not solve phi_0'(m) = z")
    out = _compare(sol, printed, "the solution m of phi_0'(m) = z. ")
    out = _gated(out, "rho=0_is_logistic", sol, "g_0", _LOGISTIC)
    # the library's numeric links of the same potential (g by inverting phi') and its float64
    # logistic family against the witness's g_0 at 30 digits, relative 1e-12 (the
    # bisection's tolerance is ~1e-15; the closed form is within a few ulps)
    library = {
        **tv.rho0_links_at(_RHO0_POINTS),
        "logistic family (float64, as nbl simulate evaluates it)": tv.float_family_g(
            "logistic", None, _RHO0_POINTS
        ),
    }
    wit = we.values_at(sol, _RHO0_POINTS)
    checks = [
        agreement(
            f"g of the {name} link at z in {{-30, ..., 30}}",
            library=vals,
            witness=wit,
            agree=agree_max_rel(1e-12, "g(z)"),
        )
        for name, vals in library.items()
    ]
    return gate_noting(out, checks, "The library's numeric rho = 0 links equal the witness's g_0.")


#: where the library's numeric rho = 0 links are compared with the witness's g_0
_RHO0_POINTS = (-30.0, -8.0, -2.0, -0.5, 0.0, 0.25, 1.0, 3.0, 8.0, 30.0)


@register(
    "we-affine-invariance",
    _SECTION,
    _SECTION,
    "The linear term -kappa_rho m does not change the Bregman loss (affine terms do not "
    "affect the Bregman divergence)",
    "symbolic",
    "exact",
    _WHY,
    witness="proofs_check.witnesses.weighted_entropy:affine_invariance_gap",
    shares=_SHARES,
    mutants=(
        Mutant.formula("a quadratic term m^2 added instead of an affine one", extra=we.M**2),
        Mutant(
            "library Bregman loss not invariant",
            "formula",
            patches=(("proofs_check.witnesses.toolkit_values:bregman_affine_gap", lambda *a: 1),),
        ),
        _witness_mutant("affine_invariance_gap"),
    ),
)
def _we_affine(extra=0):
    gap = we.affine_invariance_gap(extra)
    library = tv.bregman_affine_gap(sp.sympify(extra).subs(we.M, el.M))
    out = Outcome(
        PASS if gap == 0 else DISCREPANCY,
        f"l[phi + a m + b] - l[phi] = {gap}",
        "symbolic rho and arbitrary affine term a m + b; the Bregman loss "
        "phi(y) - phi(r) - phi'(r)(y - r) written out in the witness.",
    )
    check = agreement(
        "whether l[phi_rho + a m + b] = l[phi_rho]",
        library=library == 0,
        witness=gap == 0,
        agree=_same_expression,
        fmt=str,
    )
    note = "The library's Bregman loss (nbl_theory.elicitation) gives the same."
    return gate_noting(out, [check], note)
