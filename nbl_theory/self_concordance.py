"""Self-concordance of a link and the sufficient stability condition it implies.

The generalized self-concordance constant of a link (eq:self-concordance-link, app:self_concordance)

.. math::

    R = \\sup_z \\frac{|g''(z)|}{g'(z)} = \\sup_z |(\\log g')'(z)|
      = \\sup_m \\left|\\frac{d}{dm}\\frac{1}{φ''(m)}\\right| = \\sup_m \\frac{|φ'''(m)|}{φ''(m)^2}

(m = g(z); the signed ratio r = g''/g' equals −φ'''/φ''² = d/dm(1/φ'')). With
κ(a) = e^{a²/2}Φ(−a) = E[e^{−aZ}1{Z>0}], prop:self-concordance-stability states
λ* ≥ 2μ*{Δ/2 − φ₀(0)(1 − Δ²/4)R/κ(RΔ/2)}.

R (:func:`self_concordance_constant`): r is sampled on the chart t ∈ [−40, 40] (t = z, or the
chart of :mod:`nbl_theory.links` onto the domain of φ) densely in float64 and every 0.2 in mpmath
at adaptive precision (digits doubled until two levels agree to 1e-18; this defeats cancellations
such as 1 − tanh² in the tails); float64 is trusted only between mpmath nodes it matches to 1e-9.
Local maxima of |r| are refined by bounded Brent on the mpmath evaluator. Limits at z → ±∞ come
from ``sympy.limit`` under a work limit and, independently, from mpmath samples at |t| = 50, 100,
200 (Aitken extrapolation; steady growth means unbounded; a tail that is not monotone over
samples every factor √2 has no limit there, and the sup is taken over samples). A sample at
40 < |t| ≤ 200 above the tail limits is a hump past the grid: it is refined by bounded Brent
between its neighbouring samples. The sup is a limit (not attained) unless a finite point
exceeds the tail limits; a finite hump as high as the tail limits is reported as attained there
and approached at the tails.

Every sympy call runs under a deterministic work limit (:data:`SYMPY_CALLS` Python function
calls, :mod:`nbl_theory.work`), not a wall-clock timeout: whether sympy's exact answer is used
depends on the link alone, never on the machine's load, so the cached result (the
:data:`CACHE_SIZE` most recent links) is the same in every process.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field

import mpmath
import numpy as np
import sympy as sp
from scipy.optimize import brentq, minimize_scalar
from scipy.special import erfcx

from .links import M, Z
from .numeric import PHI0
from .stability import lambda_star_float, stability
from .validation import validate_delta
from .work import call_limited

__all__ = [
    "kappa",
    "kappa_by_quadrature",
    "sufficient_margin",
    "SCConstant",
    "self_concordance_constant",
    "SCReport",
    "self_concordance_report",
    "EXACT_SCAN",
    "SYMPY_CALLS",
    "CACHE_SIZE",
]

_T_FINE = np.linspace(-40.0, 40.0, 4001)
_COARSE = 10  # an mpmath node every 10th float node (Δt = 0.2)
_TAIL_T = (45.0, 50.0, 60.0, 75.0, 100.0, 140.0, 200.0)
#: Python function calls allowed to one sympy call (:mod:`nbl_theory.work`): ~10x the most the
#: paper's links and families need (logistic's limit at +inf, ~1e5 calls with sympy's cache
#: cleared), so a sympy call that finishes for them finishes on any machine, and one that
#: would run away (sympy's limit can) stops after ~10 s of a loaded 2-core machine.
SYMPY_CALLS = 1_000_000
#: the results of :func:`self_concordance_constant` kept (least recently used dropped first)
CACHE_SIZE = 64
_CACHE: OrderedDict = OrderedDict()
#: The Δ scan of the exact threshold (:attr:`SCReport.exact_threshold_delta`): first, last, points.
EXACT_SCAN = (0.02, 1.98, 99)


# ---------------------------------------------------------------------------- κ(a)
def kappa(a, dps: int | None = None):
    """κ(a) = e^{a²/2} Φ(−a) = E[e^{−aZ} 1{Z>0}] (prop:self-concordance-stability).

    Parameters
    ----------
    a : float
        Argument (the paper uses a = RΔ/2 ≥ 0; any real a is accepted).
    dps : int, optional
        Return an mpmath ``mpf`` computed with ``dps`` (+10 guard) digits instead of a float.
        float64 uses κ(a) = erfcx(a/√2)/2 (erfcx(x) = e^{x²}erfc(x)): no overflow or underflow
        for large a, where κ(a) ~ 1/(a√(2π)).

    Returns
    -------
    float or mpmath.mpf
        κ(a).
    """
    if dps is None:
        return float(erfcx(float(a) / math.sqrt(2.0)) / 2.0)
    with mpmath.workdps(dps + 10):
        a = mpmath.mpf(a)
        return mpmath.exp(a * a / 2) * mpmath.ncdf(-a)


def kappa_by_quadrature(a, dps: int = 30):
    """κ(a) = ∫₀^∞ e^{−az} φ₀(z) dz by tanh-sinh quadrature (independent of the closed form).

    Parameters
    ----------
    a : float
        The argument.
    dps : int, default 30
        The digits wanted (10 guard digits are added).

    Returns
    -------
    mpmath.mpf
        κ(a).
    """
    with mpmath.workdps(dps + 10):
        a = mpmath.mpf(a)
        f = lambda z: mpmath.exp(-a * z - z * z / 2)  # noqa: E731
        w = 1 / (1 + abs(a))  # width of the integrand near 0
        return mpmath.quad(f, [0, w, 4 * w, 8, mpmath.inf]) / mpmath.sqrt(2 * mpmath.pi)


def sufficient_margin(R: float, delta: float) -> float:
    """Δ/2 − φ₀(0)(1 − Δ²/4) R/κ(RΔ/2) (prop:self-concordance-stability); −inf if R = ∞.

    Parameters
    ----------
    R : float
        The self-concordance constant (may be ``math.inf``).
    delta : float
        The separation Δ ∈ (0, 2).

    Returns
    -------
    float
        margin(Δ); the sufficient condition is margin > 0.
    """
    if math.isinf(R):
        return -math.inf
    return delta / 2 - PHI0 * (1 - delta * delta / 4) * R / kappa(R * delta / 2)


# ---------------------------------------------------------------------------- R
@dataclass(frozen=True)
class SCConstant:
    """The self-concordance constant R = sup|g''|/g' of a link (eq:self-concordance-link).

    Parameters
    ----------
    R : float
        The constant (``math.inf`` if |g''|/g' is unbounded).
    attained : bool
        Whether the supremum is attained at a finite z.
    where : float or str
        The maximizing z; ``"+inf"``/``"-inf"``/``"-inf,+inf"`` (the tail(s) whose limit is the
        sup); ``"everywhere"`` (|g''|/g' constant).
    closed_form : sympy.Expr or None
        The exact value, checked against the numeric R to 1e-10 (None when sympy finds none).
    method : str
        How R was found (e.g. the sympy route or the numeric scan).
    notes : tuple of str, default ()
        What the computation had to fall back on, in words.
    """

    R: float
    attained: bool
    where: object
    closed_form: object
    method: str
    notes: tuple = ()


def _with_limit(fn, calls):
    """fn(), or None on failure or when it would make more than ``calls`` Python function calls
    (:func:`nbl_theory.work.call_limited`; None: no limit). The outcome depends on the
    computation alone, never on the machine's load."""
    if calls is None:
        return _quiet(fn)
    value, exceeded = call_limited(lambda: _quiet(fn), calls)
    return None if exceeded else value


def _quiet(fn):
    try:
        return fn()
    except Exception:  # noqa: BLE001 - sympy raises many types (PoleError, NotImplementedError…)
        return None


def _ratio_expr(link, calls):
    """Signed r = g''/g' (in z) or d/dm(1/φ'') = −φ'''/φ''² (in m), cancelled if sympy can."""
    d = link.derivatives
    raw = d["g2"] / d["g1"] if link.kind == "expression" else sp.diff(1 / d["phi2"], M)
    out = _with_limit(lambda: sp.cancel(raw), calls)
    return raw if out is None else out


def _start_dps(link, t: float) -> int:
    # a potential's chart puts m within ≈ e^{−|t|} of an end: resolve m before comparing levels
    return 30 + (int(abs(t) / 2.3) if link.kind == "potential" else 0)


def _r_mp(link, t: float) -> float:
    """r at chart node t at adaptive mpmath precision (nan if not evaluable)."""
    prev = None
    for dps in (_start_dps(link, t) * 2**k for k in range(7)):
        with mpmath.workdps(dps):
            try:
                _, _, w1, w2 = link.chart_mpmath(mpmath.mpf(t))
                val = w2 / w1  # (g'' dz/dt)/(g' dz/dt) = g''/g'
            except (ZeroDivisionError, ValueError, OverflowError, TypeError):
                val = None
            if val is None or not mpmath.isfinite(val):
                prev = None
                continue
            if prev is not None and abs(val - prev) <= mpmath.mpf(10) ** -18 * max(1, abs(val)):
                return float(val)
            prev = val
    return float(prev) if prev is not None else math.nan


def _z_of_t(link, t: float) -> float:
    if link.kind == "expression":
        return float(t)
    with mpmath.workdps(_start_dps(link, t) + 30):
        return float(link.chart_mpmath(mpmath.mpf(t))[0])


def _r_float(link, r_expr, t):
    try:
        f = sp.lambdify(Z if link.kind == "expression" else M, r_expr, ["scipy", "numpy"])
        with np.errstate(all="ignore"):
            x = link.variable_of_t_numpy(t)
            return np.asarray(f(x), dtype=float) * np.ones_like(t)
    except Exception:  # noqa: BLE001 - numpy cannot evaluate it: the mpmath nodes alone are used
        return np.full_like(t, np.nan)


def _tail_exact(link, r_expr, side, calls):
    """sympy limit of r at z → side·∞ (m → an end of the domain), or None."""
    if link.kind == "expression":
        exact = _with_limit(lambda: sp.limit(r_expr, Z, side * sp.oo), calls)
    else:
        end = link.domain[1] if side > 0 else link.domain[0]
        exact = _with_limit(
            lambda: (
                sp.limit(r_expr, M, end, "-" if side > 0 else "+")
                if end.is_finite
                else sp.limit(r_expr, M, end)
            ),
            calls,
        )
    if exact is not None and exact.is_extended_real and (exact.is_number or exact.is_infinite):
        return exact
    return None  # failure, AccumBounds, unevaluated Limit, nan, complex


#: the tail samples |t| = 50·√2^k, k = 0 … 4: the limit is read from 50, 100 and 200; the two
#: between tell a tail that settles (monotone) from one that keeps oscillating
_TAIL_SAMPLES = (50.0, 50.0 * math.sqrt(2.0), 100.0, 100.0 * math.sqrt(2.0), 200.0)


def _tail_numeric(link, side):
    """Limit of r at z → side·∞ from mpmath samples at |t| = 50, 100, 200; NaN when it has
    none that the samples can show: a sample not finite, or r not monotone over the five
    samples of :data:`_TAIL_SAMPLES` (an oscillating tail, e.g. g = z + sin(z)/2, whose three
    samples can grow like an unbounded one's). A difference within 1e-15 of |r| counts as no
    change (the samples are accurate to ~1e-18, then rounded to float64)."""
    r = [_r_mp(link, side * t) for t in _TAIL_SAMPLES]
    if not all(map(math.isfinite, r)):
        return math.nan
    flat = 1e-15 * max(1.0, max(map(abs, r)))
    steps = [0.0 if abs(b - a) <= flat else b - a for a, b in zip(r, r[1:])]
    if any(u * v < 0 for u, v in zip(steps, steps[1:])):
        return math.nan
    r1, r2, r3 = r[0], r[2], r[4]
    d1, d2 = r2 - r1, r3 - r2
    if (
        abs(r3) > abs(r2) > abs(r1)
        and d1 * d2 > 0
        and abs(d2) >= 0.9 * abs(d1)
        and abs(d2) > 1e-9 * max(1.0, abs(r3))
    ):
        return math.copysign(math.inf, r3)  # steady growth: unbounded
    if d1 != 0 and abs(d2 / d1) < 0.9:
        return r3 - d2 * d2 / (d2 - d1)  # Aitken Δ², exact for C·t^{-p}
    return r3


def self_concordance_constant(link, *, sympy_calls: int | None = SYMPY_CALLS) -> SCConstant:
    """R = sup_z |g''(z)|/g'(z) of ``link`` (eq:self-concordance-link); cached per link (the
    :data:`CACHE_SIZE` most recently used).

    Parameters
    ----------
    link : Link
        The link g.
    sympy_calls : int or None
        Work allowed to each sympy call (``cancel``, ``limit``, ``simplify``), in Python
        function calls (:mod:`nbl_theory.work`; None: unbounded); past it, or on failure, the
        numeric estimates are used alone. A count of calls, not seconds: the result is the same
        on any machine under any load, so caching it is sound.

    Returns
    -------
    SCConstant
        R, where it is attained, its closed form if any, and how it was found.

    Notes
    -----
    .. math:: R = \\sup_z |(\\log g')'(z)| = \\sup_m |φ'''(m)|/φ''(m)^2
              \\quad (eq:self-concordance-link, app:self_concordance)
    """
    key = (link.kind, sp.srepr(link.expr), tuple(map(str, link.domain)), sympy_calls)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    out = _CACHE[key] = _compute_constant(link, sympy_calls)
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return out


def _local_maxima(v, t):
    """(value, t, half-bracket) at the (left-strict) local maxima of v inside the grid that
    stand above their lower neighbour by more than 1e-12 relative: rounding noise on a
    plateau — a tail where |r| equals its limit to float64 — makes no maximum (g = tanh z +
    (8/3) tanh³ z: dozens of such points at 18 < |z| < 20 had crowded the humps at
    z = ±atanh(1/4) out of the refined candidates)."""
    mid = v[1:-1]
    lower = np.minimum(v[:-2], v[2:])
    with np.errstate(invalid="ignore"):  # -inf - -inf at masked nodes: not a maximum
        stands = mid - lower > 1e-12 * np.maximum(1.0, np.abs(mid))
    i = np.nonzero((mid > v[:-2]) & (mid >= v[2:]) & np.isfinite(mid) & stands)[0] + 1
    return [(float(v[k]), float(t[k]), float(t[1] - t[0])) for k in i]


def _interior(link, r_expr, notes):
    """Sup of |r| over t ∈ [−40, 40]: (value, t) of the best refined local maximum, and the
    mpmath node values."""
    rf = np.abs(_r_float(link, r_expr, _T_FINE))
    tc = _T_FINE[::_COARSE]
    rc = np.abs(np.array([_r_mp(link, t) for t in tc]))
    if not np.all(np.isfinite(rc)):
        return (math.inf, float(tc[~np.isfinite(rc)][0])), rc
    node_ok = np.abs(rf[::_COARSE] - rc) <= 1e-9 * np.maximum(1.0, rc)
    ok = np.append(np.repeat(node_ok[:-1] & node_ok[1:], _COARSE), node_ok[-1])
    if not ok.all():
        notes.append(
            f"float64 unreliable on {np.count_nonzero(~ok)} of {ok.size} grid points; "
            "mpmath nodes used there"
        )
    cands = _local_maxima(np.where(ok, rf, -np.inf), _T_FINE) + _local_maxima(rc, tc)
    best = (-math.inf, None)
    for _, t0, h in sorted(cands, key=lambda c: -c[0])[:24]:
        res = minimize_scalar(
            lambda t: -abs(_r_mp(link, t)),
            bounds=(t0 - h, t0 + h),
            method="bounded",
            options={"xatol": 1e-10},
        )
        best = _higher(_higher(best, (float(-res.fun), float(res.x))), (abs(_r_mp(link, t0)), t0))
    return best, rc


def _higher(a, b):
    """The higher of two maxima (value, t). Two more than 0.5 apart (the genuine-hump test's
    offset: not one hump refined twice) whose values agree to 1e-12 relative are one value:
    the pair keeps the larger value and the point nearer t = 0 — a hump at finite z rather
    than a point of a tail's plateau, where |r| equals its limit to rounding (g = tanh z +
    (8/3) tanh³ z: the sup 2 is attained at z = ±atanh(1/4) *and* is the tails' limit)."""
    if a[1] is None or b[1] is None:
        return b if a[1] is None else a
    if abs(a[1] - b[1]) > 0.5 and abs(a[0] - b[0]) <= 1e-12 * max(1.0, abs(a[0]), abs(b[0])):
        return (max(a[0], b[0]), a[1] if abs(a[1]) <= abs(b[1]) else b[1])
    return b if b[0] > a[0] else a  # (as max() does: a NaN never replaces a value)


def _refine_tail_sample(link, sampled):
    """(value, t) of max |r| near the tail sample ``sampled`` = (|r|, t): bounded Brent on the
    interval between its neighbours among :data:`_TAIL_T` (±40 below the first), kept only if
    higher than the sample itself (the sample is a lower bound of the sup either way)."""
    side, t = (1.0 if sampled[1] > 0 else -1.0), abs(sampled[1])
    edges = (40.0, *_TAIL_T)
    i = edges.index(t)
    lo, hi = edges[i - 1], edges[i + 1] if i + 1 < len(edges) else t
    res = minimize_scalar(
        lambda x: -abs(_r_mp(link, side * x)),
        bounds=(lo, hi),
        method="bounded",
        options={"xatol": 1e-10},
    )
    return _higher(sampled, (float(-res.fun), side * float(res.x)))


def _compute_constant(link, calls) -> SCConstant:
    notes: list = []
    r_expr = _ratio_expr(link, calls)
    if not r_expr.free_symbols:  # |g''|/g' constant: attained everywhere
        c = sp.Abs(r_expr)
        return SCConstant(float(c), True, "everywhere", c, "symbolic: g''/g' is constant")
    best, rc = _interior(link, r_expr, notes)
    if best[0] == math.inf:
        return SCConstant(
            math.inf,
            False,
            _z_of_t(link, best[1]),
            None,
            "numeric: g''/g' not finite at a grid node (g' = 0?)",
        )
    sampled = max((abs(_r_mp(link, s * t)), s * t) for t in _TAIL_T for s in (1, -1))
    # tails z → ±∞ (m → ends of the domain); the exact limit wins a finite/infinite conflict
    nums = {s: _tail_numeric(link, s) for s in (1, -1)}
    if all(map(math.isfinite, nums.values())) and best[0] > max(map(abs, nums.values())) + 1e-6:
        notes.append("sympy limits skipped: the sup is attained at finite z, above both tails")
        tails = {s: (num, None) for s, num in nums.items()}
    else:
        tails = {s: (num, _tail_exact(link, r_expr, s, calls)) for s, num in nums.items()}
    lim = {}
    for s, (num, exact) in tails.items():
        lim[s] = abs(num)
        if exact is not None and (exact.is_infinite or not math.isfinite(num)):
            lim[s] = abs(float(exact))
        if (
            exact is not None
            and float(exact) != num
            and not abs(float(exact) - num) <= 1e-10 * max(1.0, abs(num))
        ):
            notes.append(
                f"DISAGREE: sympy limit {exact} vs numeric {num!r} at {'+' if s > 0 else '-'}inf"
            )
        if math.isnan(lim[s]):
            notes.append(f"tail at {'+' if s > 0 else '-'}inf not evaluable; sup over samples only")
            lim[s] = -math.inf
    big = max(lim.values())
    tol = 1e-12 * max(1.0, big if math.isfinite(big) else 1.0)
    sides = ",".join(n for s, n in ((-1, "-inf"), (1, "+inf")) if lim[s] >= big - tol)
    method = (
        "sympy.limit + " if all(e is not None for _, e in tails.values()) else ""
    ) + "numeric: float64/mpmath grid on t in [-40, 40], Brent refinement, tail extrapolation"
    out = lambda R, att, where, closed=None: SCConstant(  # noqa: E731
        float(R), att, where, closed, method, tuple(notes)
    )
    if big == math.inf:
        exact_inf = any(e is not None and e.is_infinite for _, e in tails.values())
        return out(math.inf, False, sides, sp.oo if exact_inf else None)
    if best[0] > big + tol:
        step = 1e-6 * max(1.0, abs(best[1]))
        if all(abs(_r_mp(link, best[1] + e)) < best[0] / 2 for e in (-step, step)):
            notes.append(
                f"|g''|/g' = {best[0]:.3g} at the maximizer falls below half of it within "
                f"{step:.0e} either side: a spike where g' (nearly) vanishes; R may be "
                "infinite, and this value is a lower bound"
            )
        return out(best[0], True, _z_of_t(link, best[1]))
    if sampled[0] > big + tol:
        best_tail = _refine_tail_sample(link, sampled)
        notes.append(
            "a sample with |t| in (40, 200] exceeds the tail limits; R is the maximum of |r| "
            "refined by bounded Brent between that sample's neighbours (a hump narrower than "
            "the samples' spacing elsewhere in the tails could be missed)"
        )
        return out(best_tail[0], True, _z_of_t(link, best_tail[1]))
    if np.ptp(rc) <= tol and abs(big - rc[0]) <= tol:
        notes.append("|g''|/g' numerically constant (sympy did not simplify it)")
        return out(big, True, "everywhere")
    attained = (
        best[1] is not None
        and bool(best[0] >= big - tol)
        and abs(best[1]) <= 30
        and all(abs(_r_mp(link, best[1] + e)) < best[0] - tol for e in (-0.5, 0.5))
    )  # a genuine hump
    if attained:
        notes.append(f"sup attained at finite z and also approached at {sides}")
    exacts = [abs(e) for s, (_, e) in tails.items() if e is not None and lim[s] >= big - tol]
    closed = (_with_limit(lambda: sp.simplify(exacts[0]), calls) or exacts[0]) if exacts else None
    if closed is not None and not abs(float(closed) - big) <= 1e-10 * max(1.0, big):
        notes.append(f"closed form {closed} disagrees with numeric R = {big!r}; dropped")
        closed = None
    return out(big, attained, _z_of_t(link, best[1]) if attained else sides, closed)


# ---------------------------------------------------------------------------- report
@dataclass
class SCReport:
    """prop:self-concordance-stability for one link at one Δ.

    ``margin`` = margin(Δ) = Δ/2 − φ₀(0)(1 − Δ²/4)R/κ(RΔ/2): the sufficient condition is
    margin > 0, and λ* ≥ ``lower_bound`` = 2μ*·margin; ``bound_consistent``: lower_bound ≤
    lambda_star; ``delta_sc`` = sup{Δ ∈ (0, 2): margin(Δ) ≤ 0} (None when R = ∞: the condition
    never holds); ``exact_threshold_delta``: the Δ above which λ* > 0 at every point of the
    :data:`EXACT_SCAN` grid (grid + brentq) — 0.0 when λ* > 0 on the whole scan (never unstable
    there), 2.0 when λ* ≤ 0 at its last point; ``conservativeness`` = delta_sc −
    exact_threshold_delta. The text table is :func:`nbl_sim.presentation.tables.
    concordance_report`.

    Parameters
    ----------
    link : str
        The link's name.
    delta : float or None
        The separation Δ (None when not given).
    constant : SCConstant
        R and how it was found.
    kappa : float or None
        κ(RΔ/2).
    mu_star : float or None
        μ* at Δ.
    lambda_star : float or None
        The exact λ* at Δ (float64).
    lower_bound : float or None
        2μ*·margin.
    margin : float or None
        margin(Δ).
    sufficient_condition_holds : bool or None
        Whether margin(Δ) > 0.
    delta_sc : float or None
        Δ_SC (None when R = ∞).
    delta_sc_roots : list of float
        Every root of margin = 0 found in (0, 2).
    exact_threshold_delta : float or None
        The exact stability threshold on the scan grid.
    conservativeness : float or None
        delta_sc − exact_threshold_delta.
    bound_consistent : bool or None
        Whether lower_bound ≤ lambda_star.
    notes : list of str, default []
        What the computation had to fall back on.
    """

    link: str
    delta: float
    constant: SCConstant
    kappa: float
    mu_star: float
    lambda_star: float
    lower_bound: float
    margin: float
    sufficient_condition_holds: bool
    delta_sc: float | None
    delta_sc_roots: list
    exact_threshold_delta: float | None
    conservativeness: float | None
    bound_consistent: bool
    notes: list = field(default_factory=list)

    @property
    def R(self) -> float:
        """The self-concordance constant R of the link (``constant.R``)."""
        return self.constant.R

    def to_json(self) -> dict:
        """JSON-ready dict; numbers as strings (repr of floats, "inf" for infinity).

        Returns
        -------
        dict
            The report's fields (R's under ``R``, ``R_attained``, ``R_where``,
            ``R_closed_form``) and the notes.
        """
        c = self.constant
        return {
            "link": self.link,
            "delta": _s(self.delta),
            "R": _s(c.R),
            "R_attained": c.attained,
            "R_where": c.where if isinstance(c.where, str) else _s(c.where),
            "R_closed_form": None if c.closed_form is None else str(c.closed_form),
            "kappa": _s(self.kappa),
            "mu_star": _s(self.mu_star),
            "lambda_star": _s(self.lambda_star),
            "lower_bound": _s(self.lower_bound),
            "margin": _s(self.margin),
            "sufficient_condition_holds": self.sufficient_condition_holds,
            "delta_sc": _s(self.delta_sc),
            "delta_sc_roots": [_s(x) for x in self.delta_sc_roots],
            "exact_threshold_delta": _s(self.exact_threshold_delta),
            "bound_consistent": self.bound_consistent,
            "notes": list(c.notes) + list(self.notes),
        }


def _s(x):
    if x is None:
        return None
    x = float(x)
    return ("inf" if x > 0 else "-inf") if math.isinf(x) else repr(x)


def _margin_roots(R: float) -> list:
    """All roots of margin(Δ) = 0 in (0, 2): 400-point scan plus brentq."""
    grid = np.concatenate([[1e-12], np.linspace(0, 2, 402)[1:-1], [2 - 1e-12]])
    vals = [sufficient_margin(R, d) for d in grid]
    roots = []
    for a, b, fa, fb in zip(grid[:-1], grid[1:], vals[:-1], vals[1:]):
        if fa == 0:
            roots.append(float(a))
        elif fa * fb < 0:
            roots.append(brentq(lambda d: sufficient_margin(R, d), a, b, xtol=1e-15))
    return roots


def _exact_threshold(link) -> float:
    """Smallest grid Δ0 with λ*(Δ) > 0 on all grid points above it, refined by brentq."""
    key = ("exact", link.kind, sp.srepr(link.expr), tuple(map(str, link.domain)))
    if key not in _CACHE:
        grid = np.linspace(*EXACT_SCAN)
        bad = [i for i, d in enumerate(grid) if not lambda_star_float(link, float(d)) > 0]
        i = bad[-1] if bad else None
        _CACHE[key] = (
            0.0
            if i is None
            else 2.0
            if i == len(grid) - 1
            else brentq(lambda d: lambda_star_float(link, d), grid[i], grid[i + 1], xtol=1e-10)
        )
    return _CACHE[key]


def self_concordance_report(link, delta=None) -> SCReport:
    """Evaluate prop:self-concordance-stability for ``link`` at separation ``delta``.

    Parameters
    ----------
    link : Link
        The link g.
    delta : float, int or decimal str, optional
        The separation Δ ∈ (0, 2); None gives only R, Δ_SC and the exact threshold (the
        fields that need a Δ are None).

    Returns
    -------
    SCReport
        R, κ(RΔ/2), μ*, exact λ* (float64, :func:`nbl_theory.stability.stability`), the lower
        bound 2μ*·margin, the sufficient condition, Δ_SC (all roots of margin = 0 and their
        sup) and the exact stability threshold.

    Notes
    -----
    .. math:: λ_\\star ≥ 2μ^\\star\\{Δ/2 − φ_0(0)(1 − Δ^2/4)R/κ(RΔ/2)\\}
    """
    sc = self_concordance_constant(link)
    R = sc.R
    notes = []
    if delta is None:  # no separation given: only R, Δ_SC and the exact threshold
        d = kap = mu = lam = lower = margin = holds = consistent = None
    else:
        res = stability(link, delta)
        d = float(validate_delta(delta))
        notes = list(res.notes)
        kap = kappa(R * d / 2)
        if math.isfinite(R):
            kap_mp = kappa(R * d / 2, dps=30)
            if not abs(kap - float(kap_mp)) <= 1e-14 * float(kap_mp):
                notes.append(f"kappa float64 {kap!r} vs mpmath {mpmath.nstr(kap_mp, 20)}")
        mu, lam = float(res.values["mu_star"]), float(res.values["lambda_star"])
        margin = sufficient_margin(R, d)  # prop:self-concordance-stability
        lower = 2 * mu * margin if math.isfinite(margin) else -math.inf
        holds = margin > 0
        # λ* carries its float64 quadrature error estimate; 1e-13·Δμ* covers rounding of the bound
        consistent = lower <= lam + float(res.errors["lambda_star"]) + 1e-13 * d * mu
        if not consistent:
            notes.append(f"FAIL: lower bound {lower!r} exceeds lambda_star {lam!r}")
    if math.isinf(R):
        roots, dsc = [], None
        notes.append("R = inf: the sufficient condition never holds")
    elif R == 0:
        roots, dsc = [], 0.0
        notes.append("R = 0: margin = Delta/2 > 0, the sufficient condition holds for all Delta")
    else:
        roots = _margin_roots(R)
        dsc = max(roots) if roots else None
        if not roots:
            notes.append(
                "margin(Delta) < 0 at every scanned Delta in (0, 2): the sufficient condition "
                f"holds nowhere there (R = {R:.6g})"
            )
    exact = _exact_threshold(link)
    lo, hi, pts = EXACT_SCAN
    notes.append(
        f"exact threshold from lambda* on {pts} points of [{lo}, {hi}], the last sign "
        "change refined by brentq; sign changes between grid points can be missed"
    )
    cons = None if dsc is None else dsc - exact  # how conservative Δ_SC is
    return SCReport(
        link.name,
        d,
        sc,
        kap,
        mu,
        lam,
        lower,
        margin,
        holds,
        dsc,
        roots,
        exact,
        cons,
        consistent,
        notes,
    )
