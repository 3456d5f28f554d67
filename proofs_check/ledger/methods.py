"""The ledger's methods: how one transcribed step is checked.

Each method takes a :class:`~proofs_check.ledger.store.Transcription` and its relation (the
paper's, or a mutant's) and returns a :class:`Verdict`: ``holds`` True (the relation is
confirmed), False (refuted — with a counterexample at 50 digits where there is one) or None
(undecided: the method could not settle it). See the package docstring for what each method
proves and what it only supports.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

import flint
import mpmath
import sympy as sp

from nbl_theory.arb_eval import arb_precision

from . import METHODS, PROOF_METHODS
from .expr import E, arb_eval, build, to_mpmath

__all__ = ["METHODS", "PROOF_METHODS", "Verdict", "check", "flip", "holds_numeric"]

# METHODS and PROOF_METHODS (the vocabulary) are defined in the package's __init__

_FLIP = {
    "<=": ">",
    ">=": "<",
    "<": ">=",
    ">": "<=",
    "=": "!=",
    "!=": "=",
    "lesssim": "gtrsim-strict",
    "asymp": "not-asymp",
}


def flip(rel: str) -> str:
    """The negation of a relation (the generic inequality mutant)."""
    return _FLIP[rel]


@dataclass
class Verdict:
    """What a method found: ``holds`` True / False / None (undecided), how, and a
    counterexample (decimal strings at 50 digits) when refuted."""

    method: str
    holds: bool | None
    detail: str
    counterexample: dict = field(default_factory=dict)


def holds_numeric(rel: str, diff, tol) -> bool:
    """Whether ``rel`` holds for ``lhs - rhs = diff`` (mpmath numbers) within ``tol`` for the
    equalities; inequalities are decided with the same slack ``tol`` on the non-strict side."""
    if rel in ("=", ":=", "=:", "equiv", "approx"):
        return abs(diff) <= tol
    if rel == "!=":
        return abs(diff) > tol
    if rel == "<=":
        return diff <= tol
    if rel == ">=":
        return diff >= -tol
    if rel == "<":
        return diff < -tol
    if rel == ">":
        return diff > tol
    raise ValueError(f"no numeric reading of the relation {rel!r}")


def _radicals(e):
    """Square roots of factored radicands (sqrt(k^4 + 2k^2 + 1) -> k^2 + 1 for real k)."""

    def fix(x):
        return sp.Pow(sp.factor(x.base), x.exp)

    if isinstance(e, sp.MatrixBase):
        return e.applyfunc(_radicals)
    return e.replace(
        lambda x: x.is_Pow and x.exp.is_Rational and x.exp.q == 2 and not x.base.is_Number, fix
    )


def _parse(t, rel_sides=True):
    syms = dict(t.symbols)
    ns, (lhs, rhs) = build(syms, dict(t.defs), [t.lhs, t.rhs])
    if t.method in ("symbolic", "cited"):
        lhs, rhs = _radicals(lhs), _radicals(rhs)
    return ns, lhs, rhs


def _is_zero(e) -> bool | None:
    if isinstance(e, sp.MatrixBase):
        vals = [_is_zero(x) for x in e]
        if all(v is True for v in vals):
            return True
        return False if any(v is False for v in vals) else None
    e = sp.simplify(e)
    if e == 0:
        return True
    z = e.is_zero
    if z is not None:
        return z
    e2 = sp.simplify(sp.expand(sp.expand_trig(e.rewrite(sp.exp))))
    if e2 == 0:
        return True
    return None


def _symbolic(t, rel) -> Verdict:
    ns, lhs, rhs = _parse(t)
    diff = lhs - rhs
    if diff.has(sp.Sum):
        diff = sp.expand(diff).doit()
    if t.modulo:  # equality up to o(var^k) as var -> 0
        var = ns[t.modulo[0]]
        k = int(t.modulo[1])
        lim = (
            sp.limit(sp.simplify(diff) / var**k, var, 0, "+")
            if not isinstance(diff, sp.MatrixBase)
            else sp.Matrix([sp.limit(x / var**k, var, 0, "+") for x in diff])
        )
        ok = _is_zero(lim)
        if rel in ("=", ":=", "=:"):
            return Verdict("symbolic", ok, f"lim (lhs - rhs)/{var}^{k} = {lim} as {var} -> 0+")
        return Verdict(
            "symbolic",
            None if ok else False,
            f"the step is '=' up to o({var}^{k}); relation {rel} not decided",
        )
    if rel in ("=", ":=", "=:", "equiv"):
        z = _is_zero(diff)
        if z:
            return Verdict("symbolic", True, "simplify(lhs - rhs) == 0")
        return Verdict(
            "symbolic",
            False,
            f"lhs - rhs simplifies to {_short(sp.simplify(diff))}"
            f", not shown identically zero" + ("" if z is False else " (a second method decides)"),
        )
    if rel == "!=":
        z = _is_zero(diff)
        return Verdict("symbolic", None if z is None else not z, f"lhs - rhs zero: {z}")
    d = rhs - lhs if rel in ("<=", "<") else lhs - rhs
    if d.has(sp.Sum):
        d = sp.expand(d).doit()
    d = sp.simplify(d)
    strict = rel in ("<", ">")
    prop = d.is_positive if strict else d.is_nonnegative
    if prop is None:
        d2 = sp.factor(sp.simplify(d))
        prop = d2.is_positive if strict else d2.is_nonnegative
    if prop is None and not strict:
        z = _is_zero(d)
        prop = True if z else None
    if prop is None and not strict and _nonneg(d):
        prop = True
    word = "positive" if strict else "nonnegative"
    return Verdict("symbolic", prop, f"the gap {d} is {word} under the assumptions: {prop}")


def _short(e, n: int = 160) -> str:
    text = str(e)
    return text if len(text) <= n else text[:n] + "..."


#: the sampling box of a symbol without a ``domain`` entry, by its assumption word
AUTO_BOX = {
    "real": ("-10", "10"),
    "positive": ("1/1000", "10"),
    "nonnegative": ("0", "10"),
    "negative": ("-10", "-1/1000"),
    "nonzero": ("1/1000", "10"),
    "integer": ("-10", "10"),
    "positive_integer": ("1", "50"),
}


def sampling_domain(t) -> dict:
    """The step's ``domain``, completed for the other symbols by :data:`AUTO_BOX`."""
    dom = {k: (str(v[0]), str(v[1])) for k, v in t.domain.items()}
    for name, kind in t.symbols.items():
        if name not in dom and kind in AUTO_BOX and name not in t.gaussian:
            dom[name] = AUTO_BOX[kind]
    return dom


def _nonneg(e, depth: int = 0) -> bool:
    """A few sound rules sympy's assumptions lack: a product of nonnegative factors;
    exp(a) - exp(b) and exp(a) - 1 with a - b (a) nonnegative; a sum grouped by the powers
    of one symbol whose factored groups are nonnegative; and a case split x = +-y
    (y >= 0) on a real symbol that appears inside Abs, Max or Min."""
    if depth > 4:
        return False
    e = sp.simplify(e)
    if e.is_nonnegative:
        return True
    if e.is_Mul:
        return all(_nonneg(f, depth + 1) for f in e.args)
    if e.is_Pow and e.exp.is_Integer and int(e.exp) % 2 == 0:
        return True
    if e.is_Add and len(e.args) == 2:
        a, b = e.args
        for p, q in ((a, b), (b, a)):
            if isinstance(p, sp.exp) and isinstance(-q, sp.exp):
                return _nonneg(p.args[0] - (-q).args[0], depth + 1)
            if isinstance(p, sp.exp) and q == -1:
                return _nonneg(p.args[0], depth + 1)
            if p == 1 and isinstance(-q, (sp.cos, sp.sin)) and (-q).args[0].is_real:
                return True  # 1 - cos x, 1 - sin x >= 0 for real x
    if e.has(sp.Max, sp.Min) and _nonneg_max_min(e, depth):
        return True
    if e.is_Add and depth < 3:
        if all(_nonneg(a, depth + 1) for a in e.args):
            return True
        for x in sorted(e.free_symbols, key=str):  # group the terms of one symbol
            c = sp.collect(sp.expand(e), x)
            if c.is_Add and c != e and all(_nonneg(a, depth + 1) for a in c.args):
                return True
            # the same grouping with each coefficient factored, the terms free of x as one
            # group: 4 rho^2 - 8 rho + 4 + m^2 (...) -> 4 (rho - 1)^2 + m^2 (...)
            groups = sp.collect(sp.expand(e), x, evaluate=False)
            if len(groups) > 1 and all(
                _nonneg(k * sp.factor(v), depth + 1) for k, v in groups.items()
            ):
                return True
    inner = [
        a for f in e.atoms(sp.Abs, sp.Max, sp.Min) for a in f.args if a.is_Symbol and a.is_real
    ]
    if inner:
        x = inner[0]
        y = sp.Symbol(f"_{x.name}_abs", nonnegative=True)
        return _nonneg(e.subs(x, y), depth + 1) and _nonneg(e.subs(x, -y), depth + 1)
    return False


def _nonneg_max_min(e, depth: int) -> bool:
    """Two sound rules for an expression ``e = f(M)`` affine in a Max or Min ``M`` of real
    arguments a_1..a_k: M equals one of them, so ``e >= 0`` when every f(a_i) is; and where f
    does not decrease as M grows (a Max with a nonnegative coefficient, a Min with a
    nonpositive one) M >= a_i (M <= a_i) gives f(M) >= f(a_i), so one f(a_i) >= 0 is enough.
    (C = max{A d - s, K d} <= max{A, K} d: the first rule on the right max, the second on the
    left one.)"""
    for m in sorted(e.atoms(sp.Max, sp.Min), key=sp.default_sort_key):
        if not all(a.is_extended_real for a in m.args):
            continue
        y = sp.Dummy("y", real=True)
        f = e.subs(m, y)
        c = sp.diff(f, y)
        if c.has(y) or f.has(m):
            continue  # not affine in M
        vals = [f.subs(y, a) for a in m.args]
        if all(_nonneg(v, depth + 1) for v in vals):
            return True
        grows = _nonneg(c, depth + 1) if isinstance(m, sp.Max) else _nonneg(-c, depth + 1)
        if grows and any(_nonneg(v, depth + 1) for v in vals):
            return True
    return False


def _box_of(t, ns) -> dict:
    return {ns[name]: (Fraction(str(lo)), Fraction(str(hi))) for name, (lo, hi) in t.domain.items()}


def _certified(t, rel, max_boxes: int = 4000) -> Verdict:
    ns, lhs, rhs = _parse(t)
    if rel not in ("<=", ">=", "<", ">"):
        return Verdict("certified", None, f"Arb proves inequalities only, not {rel!r}")
    gap = (rhs - lhs) if rel in ("<=", "<") else (lhs - rhs)
    strict = rel in ("<", ">")
    box0 = _box_of(t, ns)
    missing = [s for s in gap.free_symbols if s not in box0]
    if missing:
        return Verdict("certified", None, f"no domain for {', '.join(map(str, missing))}")
    dom = ", ".join(f"{k} in [{lo}, {hi}]" for k, (lo, hi) in t.domain.items())
    # a product is >= 0 (> 0) when every factor is: Arb then sees each factor alone, and
    # a factor that vanishes on the box's edge (a variable at 0) is not lost to overestimation
    coeff, rest = sp.factor(gap).as_coeff_Mul()
    factors = list(sp.Mul.make_args(rest))
    if coeff < 0:  # the sign goes into a factor that is a sum, else into all
        adds = [i for i, f in enumerate(factors) if f.is_Add]
        if adds:
            factors[adds[0]] = -factors[adds[0]]
        else:
            factors = [-sp.Mul(*factors)]
    factors.append(abs(coeff))
    total = 0
    for f in factors:
        if f.is_number:
            if (f > 0) if strict else (f >= 0):
                continue
            return Verdict("certified", False, f"the factor {f} of the gap has the wrong sign")
        if f.is_Pow and f.exp.is_Integer and int(f.exp) % 2 == 0 and not strict:
            continue
        v, boxes = _certify_factor(f, box0, strict, max_boxes - total)
        total += boxes
        if v is not True:
            return v
    return Verdict(
        "certified",
        True,
        f"Arb enclosure of the gap is {'>' if strict else '>='} "
        f"0 ({len(factors)} factor(s), {total} boxes) on {dom}",
    )


def _certify_factor(gap, box0, strict, max_boxes):
    stack, done = [box0], 0
    with arb_precision(128):
        while stack:
            box = stack.pop()
            done += 1
            if done > max_boxes:
                return Verdict("certified", None, f"undecided after {max_boxes} boxes"), done
            val = arb_eval(gap, box)
            if (val > 0) if strict else (val >= 0):
                continue
            mid = {s: (lo + hi) / 2 for s, (lo, hi) in box.items()}
            vm = arb_eval(gap, {s: (m, m) for s, m in mid.items()})
            if (vm < 0) if not strict else (vm <= 0):
                return Verdict(
                    "certified",
                    False,
                    f"the gap's factor {_short(gap, 80)} is negative at a point (Arb)",
                    {str(s): _dec(m) for s, m in mid.items()},
                ), done
            s = max(box, key=lambda k: box[k][1] - box[k][0])
            lo, hi = box[s]
            if hi - lo < Fraction(1, 10**12):
                return Verdict("certified", None, f"undecided on a box of width {hi - lo}"), done
            m = (lo + hi) / 2
            stack.append({**box, s: (lo, m)})
            stack.append({**box, s: (m, hi)})
    return True, done


def _dec(x) -> str:
    with mpmath.workdps(50):
        return (
            mpmath.nstr(mpmath.mpf(x.numerator) / x.denominator, 50)
            if isinstance(x, Fraction)
            else mpmath.nstr(mpmath.mpf(x), 50)
        )


def _points(t, n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    domain = sampling_domain(t)
    names = list(domain)
    pts = []
    # edges: every corner nudged inside by 1e-6 of the width (at most 2^4 corners)
    for mask in range(min(2 ** len(names), 16)):
        p = {}
        for j, name in enumerate(names):
            lo, hi = (Fraction(str(v)) for v in domain[name])
            eps = (hi - lo) / 10**6
            p[name] = (hi - eps) if (mask >> j) & 1 else (lo + eps)
        pts.append(p)
    for _ in range(n):
        pts.append(
            {
                name: Fraction(str(lo))
                + (Fraction(str(hi)) - Fraction(str(lo))) * Fraction(rng.randrange(1, 10**9), 10**9)
                for name, (lo, hi) in domain.items()
            }
        )
    ints = [k for k, v in t.symbols.items() if v in ("integer", "positive_integer")]
    for p in pts:
        for k in ints:
            if k in p:
                p[k] = Fraction(round(p[k]))
    return pts


def _sampled(t, rel, n: int = 48) -> Verdict:
    ns, lhs, rhs = _parse(t)
    diff = lhs - rhs
    if isinstance(diff, sp.MatrixBase):
        exprs = list(diff)
    else:
        exprs = [diff]
    if rel not in ("=", ":=", "=:", "equiv") and len(exprs) > 1:
        return Verdict("sampled", None, "an inequality between vectors has no reading")
    fns = [to_mpmath(e) for e in exprs]
    worst = mpmath.mpf(0)
    with mpmath.workdps(50):
        tol = mpmath.mpf(10) ** -40
        for p in _points(t, n, seed=20260):
            vals = {name: mpmath.mpf(v.numerator) / v.denominator for name, v in p.items()}
            for syms, f in fns:
                missing = [s.name for s in syms if s.name not in vals]
                if missing:
                    return Verdict("sampled", None, f"no domain for {', '.join(missing)}")
                d = f(*[vals[s.name] for s in syms])
                if isinstance(d, mpmath.mpc):
                    if abs(d.imag) > tol:
                        return Verdict("sampled", None, f"complex value at {p}")
                    d = d.real
                worst = max(worst, abs(d))
                if not holds_numeric(rel, d, tol):
                    return Verdict(
                        "sampled",
                        False,
                        f"lhs - rhs = {mpmath.nstr(d, 20)} at 50 digits",
                        {k: _dec(v) for k, v in p.items()},
                    )
    return Verdict(
        "sampled",
        True,
        f"holds at {n + min(2 ** len(sampling_domain(t)), 16)} points "
        f"(edges included) at 50 digits; max |lhs - rhs| = {mpmath.nstr(worst, 3)} "
        "(evidence, not proof)",
    )


def _gauss_integral(f, nvars: int, breaks):
    """E f(Z_1..Z_k) for standard normals, with mpmath's error estimate."""
    dens = [lambda x: mpmath.exp(-x * x / 2) / mpmath.sqrt(2 * mpmath.pi)] * nvars
    pts = [-mpmath.inf, *[mpmath.mpf(b) for b in breaks], mpmath.inf]
    if nvars == 1:
        return mpmath.quad(lambda a: f(a) * dens[0](a), pts, error=True)
    if nvars == 2:
        return mpmath.quad(lambda a, b: f(a, b) * dens[0](a) * dens[1](b), pts, pts, error=True)
    raise ValueError("expectations over at most two Gaussian variables")


def _expect_atom(t, gvars, atom):
    """E(inner) over the Gaussian variables ``inner`` contains (1-D when it has one)."""
    inner = atom.args[0]
    mine = [g for g in gvars if g in inner.free_symbols]
    extra = inner.free_symbols - set(gvars)
    if extra:
        raise ValueError(f"no value for {', '.join(sorted(map(str, extra)))} inside E(...)")
    if not mine:
        return mpmath.mpf(sp.N(inner, mpmath.mp.dps + 5)), mpmath.mpf(0)
    f = to_mpmath_in(inner, mine)
    return _gauss_integral(f, len(mine), t.breaks)


def to_mpmath_in(expr, syms):
    """``expr`` as an mpmath function of ``syms`` (in that order)."""
    from .expr import Phi, phi

    expr = expr.rewrite(sp.erfc) if expr.has(Phi) else expr
    expr = expr.replace(phi, lambda x: sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi))
    expr = expr.replace(sp.Heaviside, lambda x, *h: sp.Piecewise((1, x > 0), (0, True)))
    return sp.lambdify(list(syms), expr, modules="mpmath")


def _expectation(t, rel) -> Verdict:
    ns, lhs, rhs = _parse(t)
    gvars = [ns[g] for g in t.gaussian]
    worst_err = mpmath.mpf(0)
    points = t.at or [{}]
    sides = [
        x for side in (lhs, rhs) for x in (side if isinstance(side, sp.MatrixBase) else [side])
    ]
    two_d = any(
        len([g for g in gvars if g in a.args[0].free_symbols]) > 1
        for x in sides
        for a in sp.sympify(x).atoms(E)
    )
    dps = 10 if two_d else 30  # 2-D quadrature at 30 digits costs minutes
    with mpmath.workdps(dps):
        for point in points:
            vals = {ns[k]: sp.Rational(str(v)) for k, v in point.items()}
            full = lhs - rhs
            entries = list(full) if isinstance(full, sp.MatrixBase) else [full]
            for entry in entries:
                diff = sp.sympify(entry).subs(vals)
                atoms = sorted(diff.atoms(E), key=str)
                ys = sp.symbols(f"_y0:{len(atoms)}")
                reduced = diff.subs(dict(zip(atoms, ys)), simultaneous=True)
                left = reduced.free_symbols - set(ys)
                if left:
                    return Verdict("expectation", None, f"no value for {left} outside E(...)")
                got = [_expect_atom(t, gvars, a) for a in atoms]
                env = {y: sp.Float(mpmath.nstr(v, dps), dps) for y, (v, _e) in zip(ys, got)}
                d = mpmath.mpf(sp.N(reduced.subs(env), dps))
                # first-order error propagation through the combination
                err = mpmath.mpf(0)
                fn = sp.lambdify(ys, reduced, modules="mpmath")
                at = [v for v, _e in got]
                step = mpmath.mpf(10) ** (-(dps // 2))
                for i, (_v, e) in enumerate(got):
                    hi = list(at)
                    lo = list(at)
                    hi[i] += step
                    lo[i] -= step
                    slope = (fn(*hi) - fn(*lo)) / (2 * step)  # central difference
                    err += (abs(slope) + 1) * e
                floor = mpmath.mpf(10) ** (-(dps * 2) // 3)
                tol = 100 * err + floor
                worst_err = max(worst_err, err)
                if not holds_numeric(rel, d, tol):
                    return Verdict(
                        "expectation",
                        False,
                        f"lhs - rhs = {mpmath.nstr(d, 15)} beyond 100x the quadrature"
                        f" error estimate {mpmath.nstr(err, 3)} + "
                        f"{mpmath.nstr(floor, 2)}",
                        {k: str(v) for k, v in point.items()},
                    )
    return Verdict(
        "expectation",
        True,
        f"Gaussian quadrature (mpmath, {dps} digits) at "
        f"{len(points)} parameter point(s): lhs - rhs within 100x the quadrature "
        f"error estimate (<= {mpmath.nstr(worst_err, 3)}) + 10^-{(dps * 2) // 3}",
    )


def _asymptotic(t, rel) -> Verdict:
    ns, lhs, rhs = _parse(t)
    ((var, values),) = t.sequence.items()
    v = ns[var]
    ratios = []
    fa, fb = to_mpmath_in(lhs, [v]), to_mpmath_in(rhs, [v])
    with mpmath.workdps(30):
        for x in values:
            q = Fraction(str(x))
            xm = mpmath.mpf(q.numerator) / q.denominator
            a, b = mpmath.mpf(fa(xm)), mpmath.mpf(fb(xm))
            ratios.append(abs(a) / abs(b) if b != 0 else mpmath.inf)
    half = len(ratios) // 2
    first, last = max(ratios[:half]), max(ratios[half:])
    bounded = mpmath.isfinite(last) and last <= 2 * first + mpmath.mpf(10) ** -20
    if rel == "asymp":
        lo_first, lo_last = min(ratios[:half]), min(ratios[half:])
        bounded = bounded and lo_last >= lo_first / 2 and lo_last > 0
    word = "bounded" if rel != "asymp" else "bounded above and away from 0"
    return Verdict(
        "asymptotic",
        bounded,
        f"|lhs|/|rhs| along {var} = {values[0]}..{values[-1]}: "
        f"{', '.join(mpmath.nstr(r, 4) for r in ratios)} ({word}: {bounded})",
    )


def _cited(t, rel) -> Verdict:
    via = t.via or "symbolic"
    if via == "cited":
        raise ValueError("a cited step is checked via another method")
    v = check(t, rel, method=via)
    return Verdict(
        "cited",
        v.holds,
        f"applies {t.cite}; the instance checked {via}: {v.detail}",
        v.counterexample,
    )


def check(t, rel: str, method: str | None = None) -> Verdict:
    """Check the transcription ``t`` with relation ``rel`` by ``method`` (default: its own)."""
    m = method or t.method
    if m == "prose":
        return Verdict("prose", None, t.note or "no mathematical relation")
    fn = {
        "symbolic": _symbolic,
        "certified": _certified,
        "sampled": _sampled,
        "expectation": _expectation,
        "asymptotic": _asymptotic,
        "cited": _cited,
    }[m]
    dps, prec = mpmath.mp.dps, flint.ctx.prec
    try:
        return fn(t, rel)
    finally:
        mpmath.mp.dps, flint.ctx.prec = dps, prec
