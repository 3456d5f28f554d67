"""Validation of links and potentials that refuses only with a proven witness.

A false refusal is a wrong answer, so float64 values never decide anything here: they only
*propose* candidate points (float64 underflows g' of ``sigmoid(50*z)`` to 0 and overflows
``sigmoid(80*z)`` to NaN although both links are fine). A link is refused only when one of these
is proven:

* **g is not finite/real at a point** — exact rational arithmetic at a rational point meets a
  division by exactly 0 or log(0) (``1/z``, ``log(z)``, ``sin(z)/z`` at 0), or an Arb enclosure
  of g at the point has an imaginary part that excludes 0 (``sqrt(z - 1)`` at 0);
* **g' < 0 at a point** — an Arb enclosure of g' at a rational point lies below 0;
* **g decreases between two points** — Arb enclosures prove g(b) < g(a) for a < b (a pole or a
  jump, e.g. ``z - 1/(z - 1/3)``, whose g' is positive wherever it is defined);
* **g' ≡ 0 on a piece** — sympy's g' is identically 0, or evaluates to 0 after substituting
  z = b − t (or z = a + t) with a symbol t > 0, proving g' = 0 on (−∞, b) (or (a, ∞)) (only
  sympy's automatic evaluation is used, never ``simplify``, whose running time is unbounded);
* for a potential, **φ'' ≤ 0 at a point of the domain** — an Arb enclosure of φ'' at a rational
  point has upper bound ≤ 0 (g' = 1/φ'' must be finite and positive).

Anything else is accepted. The candidates come from float64 values on a scan of
|z| ≤ 40 (step 1/50, exact rationals) plus points out to |z| = 10⁴ (expression links) and on the
chart t ∈ [−30, 30] (potentials). The Gaussian-integrability check (a toolkit limit, not a
proof) evaluates with Arb, which encloses huge values (``exp(exp(exp(z)))`` at z = 25) without
running out of memory.
"""

from __future__ import annotations

import warnings
from fractions import Fraction
from functools import lru_cache

import mpmath
import numpy as np
import sympy as sp
from flint import acb, arb

from .arb_eval import (
    arb_precision,
    arb_to_mpf,
    compile_acb,
    format_ball,
    format_point,
    to_fmpq,
)
from .errors import DivergentIntegralError, NBLInputError

__all__ = [
    "check_expression_link",
    "check_potential_link",
    "check_gaussian_integrability",
    "SCAN_POINTS",
]

_CORE = [Fraction(k, 50) for k in range(-2000, 2001)]
_TAIL = sorted({round(40 * 1.5**j) for j in range(1, 25) if 40 * 1.5**j <= 1e4})
#: Exact points where float64 values propose candidate witnesses (expression links).
SCAN_POINTS = [Fraction(-x) for x in reversed(_TAIL)] + _CORE + [Fraction(x) for x in _TAIL]
_SCAN_FLOAT = np.array([float(p) for p in SCAN_POINTS])
_PRECISIONS = (64, 256, 1024)
_MAX_CANDIDATES = 12
_T = sp.Symbol("t", positive=True)
_UNDEFINED = (sp.zoo, sp.nan, sp.oo, -sp.oo)
_NOT_C2 = (sp.DiracDelta, sp.Heaviside)


# ----------------------------------------------------------------------------- Arb at a point
@lru_cache(maxsize=256)
def _compiled(exprs: tuple, var, bits: int):
    with arb_precision(bits):
        return compile_acb(list(exprs), var)


def _balls(exprs: tuple, var, point: Fraction, bits: int):
    with arb_precision(bits):
        return _compiled(exprs, var, bits)(acb(to_fmpq(point)), False)


def _decide(exprs: tuple, var, point: Fraction, test):
    """Evaluate ``exprs`` at ``point`` at rising precision until ``test(balls)`` returns a
    verdict other than None; returns (verdict, balls) or (None, last balls)."""
    balls = None
    for bits in _PRECISIONS:
        try:
            balls = _balls(exprs, var, point, bits)
        except (ZeroDivisionError, ValueError, OverflowError):  # incl. NBLInputError: a
            return None, None  # function ball arithmetic cannot evaluate decides nothing
        verdict = test(balls)
        if verdict is not None:
            return verdict, balls
    return None, balls


def _not_real(ball: acb):
    """True when the ball proves a nonzero imaginary part, False when it proves a real value
    (imaginary part exactly 0), None when undecided."""
    if not ball.imag.is_finite() or not ball.real.is_finite():
        return None
    if not ball.imag.contains(0):
        return True
    return False if ball.imag.is_zero() else None


#: Functions whose value at an exact 0 argument is exactly 0 or 1 (so a division by, say,
#: sin(z) at z = 0 is seen to be a division by exactly 0).
_AT_ZERO = {
    sp.sin: 0,
    sp.tan: 0,
    sp.sinh: 0,
    sp.tanh: 0,
    sp.atan: 0,
    sp.asinh: 0,
    sp.erf: 0,
    sp.exp: 1,
    sp.cos: 1,
    sp.cosh: 1,
    sp.erfc: 1,
}


class _Undefined(Exception):
    """Raised inside :func:`_undefined_at` with the reason."""


def _exact_value(e, var, point: Fraction, memo):
    """Exact rational value of ``e`` at var = point when rational arithmetic (and the exact
    values of _AT_ZERO at 0, log at 1) gives it, else None; raises _Undefined on a proven
    division by zero or log(0). Exponents beyond 1000 are not evaluated (None)."""
    if e in memo:
        return memo[e]
    if e == var:
        out = point
    elif e.is_Rational:
        out = Fraction(int(e.p), int(e.q))
    elif e in (sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise _Undefined(sp.sstr(e))
    elif not e.args:
        out = None
    else:
        vals = [_exact_value(a, var, point, memo) for a in e.args]
        out = None
        if isinstance(e, sp.Add):
            out = sum(vals) if None not in vals else None
        elif isinstance(e, sp.Mul):
            if None not in vals:
                out = Fraction(1)
                for v in vals:
                    out *= v
        elif isinstance(e, sp.Pow):
            b, x = vals
            if b == 0 and x is not None and x < 0:
                raise _Undefined("a division by zero")
            if b is not None and x is not None and x.denominator == 1 and abs(x) <= 1000:
                out = b ** int(x) if b != 0 or x >= 0 else None
        elif e.func is sp.log and vals[0] == 0:
            raise _Undefined("log(0)")
        elif e.func is sp.log and vals[0] == 1:
            out = Fraction(0)
        elif e.func in _AT_ZERO and vals[0] == 0:
            out = Fraction(_AT_ZERO[e.func])
    memo[e] = out
    return out


def _undefined_at(expr, var, point: Fraction) -> str | None:
    """The reason ``expr`` is proven undefined at the rational ``point`` (a division by exactly
    zero or log(0) in exact arithmetic), else None. Bounded work: no sympy evaluation (sympy's
    exact powers with large denominators have no time bound)."""
    try:
        _exact_value(expr, var, point, {})
    except _Undefined as why:
        return str(why)
    except RecursionError:  # pragma: no cover - bounded by the parser's depth limit
        return None
    return None


def _spread(indices, limit: int = _MAX_CANDIDATES):
    """At most ``limit`` of ``indices`` (ends, the middle and evenly between)."""
    indices = list(indices)
    if len(indices) <= limit:
        return indices
    picks = np.linspace(0, len(indices) - 1, limit).round().astype(int)
    return [indices[i] for i in dict.fromkeys(picks)]


# ----------------------------------------------------------------------------- expression links
def _scan(link):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g0 = np.asarray(link.derivative_numpy(_SCAN_FLOAT, 0), dtype=float)
        g1 = np.asarray(link.derivative_numpy(_SCAN_FLOAT, 1), dtype=float)
    return g0, g1


def _refuse_not_smooth(what: str, name: str, d, keys):
    """The toolkit integrates smooth derivatives only: a DiracDelta/Heaviside (sympy's
    derivative of sign(h), from |h| = sqrt(h**2)) is refused with that reason."""
    for key, label in keys:
        if d[key].has(*_NOT_C2):
            raise NBLInputError(
                f"{what} {name!r}: {label} contains a DiracDelta/Heaviside (from |.| or sign); "
                "the toolkit needs it smooth and cannot integrate a point mass"
            )


def _check_defined(link, var, g0, g1):
    d = link.derivatives
    bad = np.flatnonzero(~(np.isfinite(g0) & np.isfinite(g1)))
    order = sorted(bad, key=lambda i: (abs(_SCAN_FLOAT[i]) > 10, abs(_SCAN_FLOAT[i])))
    for i in _spread(order[: 4 * _MAX_CANDIDATES]):
        p = SCAN_POINTS[i]
        where = format_point(p)
        for key, label in (("g", "g"), ("g1", "g'")):
            why = _undefined_at(d[key], var, p)
            if why is not None:
                raise NBLInputError(
                    f"link {link.name!r} is not finite/real at z = {where}: {label}({where}) "
                    f"contains {why} (exact arithmetic; g must be defined and differentiable on "
                    "all of R)"
                )
        verdict, balls = _decide((d["g"],), var, p, lambda b: _not_real(b[0]))
        if verdict:
            _, box = format_ball(balls[0].imag)
            raise NBLInputError(
                f"link {link.name!r} is not finite/real at z = {where}: Im g({where}) is in "
                f"{box} (certified enclosure; g must be real on all of R)"
            )


def _negative(ball: acb):
    if _not_real(ball) is None and not ball.real.is_finite():
        return None
    if ball.real.upper() < 0 and ball.imag.contains(0):
        return True
    if ball.real.lower() > 0 or ball.real.is_zero():
        return False
    return None


def _tier(i) -> int:
    x = abs(_SCAN_FLOAT[i])
    return 0 if x <= 10 else 1 if x <= 40 else 2


def _check_negative_derivative(link, var, g1):
    finite = np.isfinite(g1)
    neg = np.flatnonzero(finite & (g1 < 0))
    if not neg.size:
        return
    # central points first (|z| <= 10, then <= 40, then the tail), the most negative first,
    # ties to the point nearest 0; then the most negative point of each run of negatives
    order = sorted(neg, key=lambda i: (_tier(i), g1[i], abs(_SCAN_FLOAT[i])))
    runs = np.split(neg, np.flatnonzero(np.diff(neg) > 1) + 1)
    firsts = [int(r[np.argmin(g1[r])]) for r in runs]
    for i in list(dict.fromkeys(order[:_MAX_CANDIDATES] + firsts[:_MAX_CANDIDATES])):
        p = SCAN_POINTS[i]
        verdict, balls = _decide((link.derivatives["g1"],), var, p, lambda b: _negative(b[0]))
        if verdict:
            where = format_point(p)
            value, box = format_ball(balls[0].real)
            raise NBLInputError(
                f"link {link.name!r} is not strictly increasing: g'({where}) = {value} < 0 "
                f"(certified enclosure {box})"
            )


def _check_decrease(link, var, g0):
    a, b = g0[:-1], g0[1:]
    with np.errstate(all="ignore"):
        drop = (a - b) / np.maximum(np.abs(a) + np.abs(b), 1e-300)
    cand = np.flatnonzero(np.isfinite(a) & np.isfinite(b) & (drop > 1e-14))
    cand = cand[np.argsort(-drop[cand])][:_MAX_CANDIDATES]
    g = (link.derivatives["g"],)
    for i in cand:
        p, q = SCAN_POINTS[i], SCAN_POINTS[i + 1]
        for bits in _PRECISIONS:
            try:
                ga, gb = _balls(g, var, p, bits)[0], _balls(g, var, q, bits)[0]
            except (ZeroDivisionError, ValueError, OverflowError):
                break
            if not (ga.imag.contains(0) and gb.imag.contains(0)):
                break
            if gb.real.upper() < ga.real.lower():
                (va, ba), (vb, bb) = format_ball(ga.real), format_ball(gb.real)
                raise NBLInputError(
                    f"link {link.name!r} is not strictly increasing: g({format_point(q)}) = {vb} "
                    f"< g({format_point(p)}) = {va} (certified enclosures {bb} and {ba})"
                )
            if gb.real.lower() > ga.real.upper():
                break


def _maybe_zero(expr, var, point: Fraction) -> bool:
    """False when Arb proves expr(point) != 0 (a float64 underflow, not a flat piece)."""
    nonzero, _ = _decide((expr,), var, point, lambda b: True if not b[0].contains(0) else None)
    return not nonzero


def _zero_on(expr, var, point: Fraction, sign: int) -> bool:
    """True when ``expr`` at var = point + sign·t evaluates to 0 for a symbol t > 0 (sympy's
    automatic evaluation, e.g. Abs(−t) = t, sign(−t) = −1). ``simplify`` is not tried: its
    running time has no bound."""
    return expr.subs(var, sp.Rational(point.numerator, point.denominator) + sign * _T) == 0


def _check_flat(link, var, g1):
    g1x = link.derivatives["g1"]
    if g1x == 0:
        raise NBLInputError(
            f"link {link.name!r} is not strictly increasing: g' = 0 identically (sympy)"
        )
    finite = np.isfinite(g1)
    core = finite & (np.abs(_SCAN_FLOAT) <= 10)
    if not core.any():
        return
    scale = np.max(np.abs(g1[core]))
    idx = np.flatnonzero(finite & (np.abs(g1) <= 1e-12 * scale))
    runs = [r for r in np.split(idx, np.flatnonzero(np.diff(idx) > 1) + 1) if r.size >= 3]
    last = len(g1) - 1
    for r in runs[:4]:
        if r[0] != 0 and r[-1] != last:
            continue  # a flat piece inside the scan: no symbolic proof is attempted
        if not any(_maybe_zero(g1x, var, SCAN_POINTS[i]) for i in (r[-1], r[0], r[len(r) // 2])):
            continue
        left = r[0] == 0  # flat up to the left end: (−∞, b); else up to the right end: (a, ∞)
        edge = r[-1] + 1 if left else r[0] - 1  # the first point beyond the run, then inside
        anchors = [edge, r[-1] if left else r[0], r[len(r) // 2]]
        for i in anchors:
            if not 0 <= i <= last:
                continue
            p = SCAN_POINTS[i]
            if _zero_on(g1x, var, p, -1 if left else 1):
                where, sign = format_point(p), "-" if left else "+"
                piece = f"(-inf, {where})" if left else f"({where}, inf)"
                raise NBLInputError(
                    f"link {link.name!r} is not strictly increasing: g' = 0 on {piece} "
                    f"(proven symbolically: g'({where} {sign} t) = 0 for all t > 0)"
                )


def check_expression_link(link) -> None:
    """Refuse ``link`` (an expression link) only with a proven witness (module docstring), and
    refuse links whose Gaussian integrals outrun the toolkit (:func:`check_gaussian_integrability`).

    Raises
    ------
    NBLInputError
        With a one-line message naming the witness.
    """
    var = link.variable
    d = link.derivatives
    g0, g1 = _scan(link)
    _check_defined(link, var, g0, g1)
    _check_flat(link, var, g1)
    _check_negative_derivative(link, var, g1)
    _check_decrease(link, var, g0)
    _refuse_not_smooth("link", link.name, d, (("g1", "g'"), ("g2", "g''")))
    check_gaussian_integrability(link.name, [("g", d["g"]), ("g'", d["g1"]), ("g''", d["g2"])], var)


# ----------------------------------------------------------------------------- potentials
def _short_rational(m: float, lo, hi) -> Fraction:
    """A short decimal near ``m`` strictly inside (lo, hi), else m itself (exact dyadic)."""
    for digits in (6, 10, 17):
        f = Fraction(f"{m:.{digits}g}")
        if (lo == -sp.oo or f > Fraction(str(lo))) and (hi == sp.oo or f < Fraction(str(hi))):
            return f
    return Fraction(m)


def _not_convex(ball: acb):
    if not ball.real.is_finite():
        return None
    if ball.real.upper() <= 0 and ball.imag.contains(0):
        return True
    if ball.real.lower() > 0:
        return False
    return None


def _one_sided_limit(expr, var, point, direction, wanted):
    """sympy's one-sided limit; ``wanted`` (nothing proven) when sympy cannot decide or its
    answer is not a definite number or infinity."""
    try:
        if point in (sp.oo, -sp.oo):
            value = sp.limit(expr, var, point)
        else:
            value = sp.limit(expr, var, point, dir=direction)
    except (
        NotImplementedError,
        ValueError,
        TypeError,
        RecursionError,
        ZeroDivisionError,
        AttributeError,
    ):
        return wanted
    if value.has(sp.Limit, sp.AccumBounds, sp.nan, sp.zoo) or value.free_symbols:
        return wanted
    return value


def check_potential_link(link) -> None:
    """Refuse a potential link only with a proven witness: φ not real, or φ'' ≤ 0, at a point of
    the domain; then require the dual domain φ'(domain) = ℝ (eq:app_full_dual_domain, by
    sympy's one-sided limits) and the Gaussian integrals of g, g', g'' (evaluated through
    ``link.potential_derivative_mpmath``).

    Raises
    ------
    NBLInputError
        With a one-line message naming the witness.
    """
    lo, hi = link.domain
    var = link.variable
    d = link.derivatives
    _refuse_not_smooth("potential", link.name, d, (("phi2", "phi''"), ("phi3", "phi'''")))
    t = np.linspace(-30, 30, 3001)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m, phi2 = link.potential_numpy("phi2", t)
    bad = np.flatnonzero(~np.isfinite(phi2) | (phi2 <= 0))
    # negative values first, nearest the centre of the chart; then zeros and NaNs
    bad = sorted(bad, key=lambda i: (not phi2[i] < 0, abs(t[i])))
    for i in _spread(bad[: 4 * _MAX_CANDIDATES]):
        p = _short_rational(float(m[i]), lo, hi)
        where = format_point(p)
        for key, label in (("phi", "phi"), ("phi2", "phi''")):
            why = _undefined_at(d[key], var, p)
            if why is not None:
                raise NBLInputError(
                    f"potential {link.name!r} is not finite/real at m = {where}:"
                    f" {label}({where}) contains {why} (exact arithmetic)"
                )
        verdict, balls = _decide((d["phi"],), var, p, lambda b: _not_real(b[0]))
        if verdict:
            _, box = format_ball(balls[0].imag)
            raise NBLInputError(
                f"potential {link.name!r} is not real at m = {where}: "
                f"Im phi({where}) is in {box} (certified enclosure)"
            )
        verdict, balls = _decide((d["phi2"],), var, p, lambda b: _not_convex(b[0]))
        if verdict:
            value, box = format_ball(balls[0].real)
            raise NBLInputError(
                f"potential {link.name!r} is not strictly convex on ({lo}, {hi}): "
                f"phi''({where}) = {value} <= 0 (certified enclosure {box}; g' = 1/phi'' must "
                "be finite and positive)"
            )
    # dual domain must be all of R (eq:app_full_dual_domain)
    left = _one_sided_limit(d["phi1"], var, lo, "+", -sp.oo)
    right = _one_sided_limit(d["phi1"], var, hi, "-", sp.oo)
    if left != -sp.oo or right != sp.oo:
        raise NBLInputError(
            f"potential {link.name!r}: dual domain phi'(({lo}, {hi})) = ({left}, {right}) "
            "does not cover R, so g = (phi')^-1 is not defined on the support of the Gaussian "
            "index (eq:app_full_dual_domain)"
        )
    check_gaussian_integrability(
        link.name,
        [
            (label, lambda zz, key=key: link.potential_derivative_mpmath(key, zz))
            for label, key in (("g", "g"), ("g'", "g1_m"), ("g''", "g2_m"))
        ],
    )


# ----------------------------------------------------------------------------- integrability
def _density(f, zz: int):
    """(f(zz), |f(zz)| φ(zz)): an acb ball and an arb for Arb functions, mpf otherwise (None
    for the second when an mpmath value is not real)."""
    raw = f(zz)
    if isinstance(raw, acb):
        return raw, abs(raw) * (arb(-zz * zz) / 2).exp() / (2 * arb.pi()).sqrt()
    if isinstance(raw, mpmath.mpc) and raw.imag != 0:
        return raw, None
    return raw, abs(raw) * mpmath.npdf(zz)


def _arb_function(expr, var):
    def f(zz):
        for bits in (128, 512):
            b = _balls((expr,), var, Fraction(zz), bits)[0]
            if b.real.is_finite() and b.real.rel_accuracy_bits() > 20:
                break
        return b

    return f


def _to_mpf(x):
    """An mpf for a nonnegative size: the midpoint of an accurate ball, the upper bound of an
    inaccurate one (a ball around 0 says only how large the value can be), inf for a ball that
    is not finite (Arb overflow)."""
    if isinstance(x, arb):
        if not x.is_finite():
            return mpmath.inf
        return arb_to_mpf(x.mid()) if x.rel_accuracy_bits() >= 4 else arb_to_mpf(x.upper())
    return x


#: Points where the Gaussian-weighted size of the integrand is compared (in |z|).
_CENTRE = (0, 1, -1, 2, -2)
_FAR = tuple(25 * 2**k for k in range(8))  # 25, 50, ..., 3200


def check_gaussian_integrability(name: str, items, var=None) -> None:
    """Reject links whose Gaussian integrals E|g^{(j)}(Z)| diverge or whose growth outruns the
    Gaussian weight too late for the quadratures.

    * "diverges": |f(z)| φ(z) z² does not decrease anywhere along |z| = 25, 50, 100, ..., 3200
      (e^{z²}, sinh(z³), e^{e^{e^z}}); e^{50 z}, whose weighted mass sits at z = 50, decreases
      from z = 100 on and is not called divergent (the points beyond 50 are evaluated only
      while the sequence still grows);
    * "grows too fast" (a limit of the toolkit, not of the theory): |f(z)| φ(z) z² at
      |z| = 25 or 50 exceeds 1e-60 · max(1, S), S = max |f(z)| φ(z) over z = 0, ±1, ±2 (the
      size of the integrand near the centre, so that a scale factor such as 1e200·z is not
      refused; polynomial growth, assum:polygrowth_g, passes with room to spare).

    ``items`` are (label, f) with ``f(z) -> mpf`` or a sympy expression in ``var`` (evaluated
    in Arb ball arithmetic, which encloses huge values instead of exhausting memory)."""
    with mpmath.workdps(30):
        for label, f in items:
            if isinstance(f, sp.Basic):
                f = _arb_function(f, var)
            dens = {}

            def density(zz, f=f, label=label, dens=dens):
                if zz not in dens:
                    dens[zz] = _checked_density(name, label, f, zz)
                return dens[zz]

            scale = max([mpmath.mpf(1)] + [v for v in map(density, _CENTRE) if mpmath.isfinite(v)])
            limit = mpmath.mpf("1e-60") * scale
            for sign in (1, -1):
                zs, ws = [], []
                for x in _FAR:  # stop at the first decrease: no divergence claim then
                    zs.append(sign * x)
                    ws.append(density(sign * x) * x * x)  # inf where Arb overflows
                    if len(ws) > 1 and not (ws[-1] > ws[-2] or not mpmath.isfinite(ws[-2])):
                        break
                else:
                    raise DivergentIntegralError(
                        f"Gaussian integral E|{label}(Z)| diverges for link {name!r}: "
                        f"|{label}(z)| phi(z) z^2 grows along z = {zs[0]}, {zs[1]}, ..., "
                        f"{zs[-1]} ({mpmath.nstr(ws[0], 3)}, {mpmath.nstr(ws[1], 3)}, ..., "
                        f"{mpmath.nstr(ws[-1], 3)})"
                    )
                if ws[0] > limit or ws[1] > limit:
                    raise DivergentIntegralError(
                        f"{label} of link {name!r} grows too fast for the toolkit's Gaussian "
                        f"integrals: |{label}(z)| phi(z) z^2 = {mpmath.nstr(ws[0], 3)} at "
                        f"z = {zs[0]} (it must be below 1e-60 x {mpmath.nstr(scale, 3)}, its "
                        "size near z = 0, by |z| = 25; polynomial growth as in "
                        "assum:polygrowth_g passes)"
                    )


def _checked_density(name, label, f, zz):
    """|f(zz)| φ(zz) as an mpf, refusing a value proven not real."""
    try:
        raw, d = _density(f, zz)
    except (ZeroDivisionError, OverflowError, ValueError, TypeError, MemoryError) as exc:
        why = f": {exc}" if isinstance(exc, NBLInputError) else f" ({type(exc).__name__})"
        raise NBLInputError(
            f"{label} of link {name!r} cannot be evaluated at z = {zz}{why}"
        ) from None
    if isinstance(raw, acb) and _not_real(raw):
        _, box = format_ball(raw.imag)
        raise NBLInputError(
            f"link {name!r} is not finite/real at z = {zz}: Im {label}({zz}) is in "
            f"{box} (certified enclosure; g must be defined on all of R)"
        )
    if d is None:
        raise NBLInputError(
            f"link {name!r} is not finite/real at z = {zz} (g must be defined on all of R)"
        )
    return _to_mpf(d)
