"""Certified enclosures of μ_g, μ*, m0, m2, κ* and λ* with Arb ball arithmetic (python-flint).

The four moments are the exact 1-D reductions of :mod:`nbl_theory.gaussian` (eq:mu_star_m2_def),
with s² = 1 − Δ²/4, ϕ_s the N(0, s²) density and Φ the standard normal cdf:

.. math::

    μ_g = ∫ g' ϕ,\\quad μ^\\star = ∫ g' ϕ\\, Φ\\!\\left(\\tfrac{Δz}{2s}\\right),\\quad
    m_0 = ∫ g ϕ_s,\\quad m_2 = ∫ g'' ϕ_s .

Each is integrated on the link's chart t ↦ z(t) (identity for expression links; for a potential
m(t) is the logistic/exponential map of :mod:`nbl_theory.links` and z = φ'(m(t)), so g is never
inverted) with ``acb.integral``, whose output is a rigorous ball. Two real integrals share one
complex integral: ∫(f + i h) has real part ∫f and imaginary part ∫h when f, h are real on the path.

Truncation to |z| ≤ Lσ (σ = 1 or s) is rigorous:

* named families with proven bounds B_j ≥ sup|g^{(j)}| (:func:`_family_derivative_bounds`):
  the tail is at most B_j · P(|N(0,1)| > L) = B_j erfc(L/√2);
* otherwise |g^{(j)}| is enclosed with Arb on dyadic shells 2^k Lσ ≤ |z| ≤ 2^{k+1} Lσ,
  k = 0..5 (16 balls per shell), and beyond X = 2^6 Lσ the growth hypothesis
  |g^{(j)}(z)| ≤ e^{z²/4} gives ∫_{|z|>X} e^{z²/4} ϕ_σ ≤ √2 erfc(X/2)/σ (stated as a note).

L grows until the tail is below 2^-(prec+4). Exact inputs (Δ, family parameters) enter as
``fmpq``. Precision climbs :data:`~nbl_theory.results.PREC_LADDER` while the λ* ball contains 0.
The global ``flint.ctx.prec`` is always restored.
"""

from __future__ import annotations

import math
from functools import lru_cache

import flint
import mpmath
import numpy as np
import sympy as sp
from flint import acb, arb
from mpmath.libmp import from_rational, round_ceiling, round_floor

from .arb_eval import arb_precision, arb_to_mpf, compile_acb, to_fmpq
from .arb_interval import NotInterval, compile_interval
from .errors import NBLInputError
from .links import M, Z
from .results import (
    PREC_LADDER,
    StabilityResult,
    decimal_outward,
    decimal_str,
    decision_quantities,
)
from .validation import validate_delta

__all__ = [
    "stability_certified",
    "moments_certified",
    "lambda_star_arb",
    "CertificationError",
    "arb_to_mpf",
]

_GUARD = 32  # working bits above the target precision
_SHELLS = 6  # dyadic shells 2^k Lσ ≤ |z| ≤ 2^{k+1} Lσ, k < _SHELLS
_SHELL_PIECES = 16  # balls per shell
_PANELS = 2  # sub-panels per integral
_U = sp.Symbol("u", positive=True)  # chart coordinate m − lo or hi − m
_GROWTH_NOTE = (
    "tail beyond |z| > {x} relies on the growth hypothesis |g^(j)(z)| <= exp(z^2/4) "
    "(assum:polygrowth_g)"
)


class CertificationError(NBLInputError):
    """Arb could not produce a finite enclosure (integration or tail bound did not converge)."""


def _outward_decimal(x: arb, digits: int, up: bool) -> mpmath.mpf:
    """Exact endpoint ``x`` (radius 0) rounded outward to ``digits`` significant decimals, stored
    rounded outward in binary, so printing it at ``digits`` digits still encloses (to_json)."""
    man, exp = (int(v) for v in x.man_exp())
    if man == 0:
        return mpmath.mpf(0)
    r = decimal_outward(man, exp, digits, up)
    return mpmath.mp.make_mpf(
        from_rational(
            r.numerator, r.denominator, 4 * digits + 64, round_ceiling if up else round_floor
        )
    )


# ----------------------------------------------------------------------------- the chart
class _Chart:
    """Arb chart of a link: z(t) and weights w_j = g^{(j)}(z) dz/dt (see nbl_theory.links)."""

    def __init__(self, link):
        self.expression = link.kind == "expression"
        d = link.raw_derivatives
        if self.expression:
            self._g1 = compile_acb([d["g1"]], Z)
            self._g02 = compile_acb([d["g"], d["g2"]], Z)
            # interval bounds for the tail shells, compiled when first needed (links with
            # proven derivative bounds never use them), at this chart's precision
            self._interval_exprs = {1: [d["g1"]], 2: [d["g"], d["g2"]]}
            self._intervals, self._prec = {}, flint.ctx.prec
            return
        lo, hi = link.domain
        exprs = [d["phi1"], M * d["phi2"], -d["phi3"] / d["phi2"] ** 2]
        self._lo, self._hi = lo, hi
        self._w = acb(to_fmpq(hi - lo)) if lo.is_finite and hi.is_finite else None

        def version(sub, var):  # each side of the domain in its own coordinate, and rational
            # parts cancelled: ball evaluation on complex regions then overestimates far less
            ex = [sp.cancel(e.subs(M, sub)) if sub is not None else sp.cancel(e) for e in exprs]
            return compile_acb(ex[:1], var), compile_acb(ex, var)

        left = version(lo + _U, _U) if lo.is_finite else None
        right = version(hi - _U, _U) if hi.is_finite else None
        if left is None and right is None:
            left = right = version(None, M)
        self._left, self._right = left or right, right or left

    def _map(self, t):
        """(compiled side, coordinate u, dm/dt) at t."""
        lo, hi = self._lo, self._hi
        if lo.is_finite and hi.is_finite:  # m = lo + w/(1+e^{−t})
            pos = float(t.real.mid()) >= 0
            e = (-t).exp() if pos else t.exp()
            den = 1 + e
            u = self._w * e / den  # hi − m (t ≥ 0) or m − lo (t < 0)
            return (self._right if pos else self._left), u, u / den
        if lo.is_finite:  # m = lo + e^t
            e = t.exp()
            return self._left, e, e
        if hi.is_finite:  # m = hi − e^{−t}
            e = (-t).exp()
            return self._right, e, e
        return self._left, t, acb(1)

    def interval_sups(self, group: int, lo: arb, hi: arb):
        """Upper bounds of |w_j| over the real t-interval [lo, hi] (w of ``group``) by interval
        arithmetic (:mod:`nbl_theory.arb_interval`), or None where it does not apply (a
        potential's chart, or a part it does not bound): the caller uses balls then."""
        if not self.expression:
            return None
        if group not in self._intervals:
            try:
                with arb_precision(self._prec):
                    self._intervals[group] = compile_interval(self._interval_exprs[group], Z)
            except NotInterval:
                self._intervals[group] = None
        f = self._intervals[group]
        if f is None:
            return None
        try:
            out = f(lo.lower(), hi.upper())
        except NotInterval:
            return None
        return [_max_abs(a, b) for a, b in out]

    def group1(self, t, an):
        """(z, g' dz/dt)."""
        if self.expression:
            return t, self._g1(t, an)[0]
        side, u, dm = self._map(t)
        return side[0](u, an)[0], dm

    def group2(self, t, an):
        """(z, g dz/dt, g'' dz/dt)."""
        if self.expression:
            g, g2 = self._g02(t, an)
            return t, g, g2
        side, u, dm = self._map(t)
        z, mphi2, r = side[1](u, an)
        return z, mphi2 * dm, r * dm


@lru_cache(maxsize=64)
def _chart(link, prec):
    with arb_precision(prec):
        return _Chart(link)


# ----------------------------------------------------------------------------- tail bounds
def _family_derivative_bounds(link):
    """Proven bounds (B_0, B_1, B_2) ≥ sup_z |g^{(j)}(z)| for the named families, else None.

    Proofs:

    * two-transition (eq:link_tanh): 0 ≤ 1 + tanh ≤ 2, sech² ≤ 1 and |sech² tanh| ≤ 1, so
      |g| ≤ |p0| + 2a1 + 2a2, g' ≤ a1 b1 + a2 b2, |g''| ≤ 2(a1 b1² + a2 b2²).
    * logistic: g ∈ (0,1), g' = g(1−g) ≤ 1/4, |g''| = g(1−g)|1−2g| ≤ 1/4.
    * probit: g ∈ (0,1), g' = ϕ ≤ 1/√(2π) < 1/2, |g''| = |z|ϕ(z) ≤ ϕ(1) < 1/4.
    * weighted-entropy (binary-negative-entropy is ρ = 0): α = 1+ρ, β = 1−ρ, α + β = 2,
      u = α/m, v = β/(1−m). g = m ∈ (0,1). By Cauchy–Schwarz φ'' = u + v ≥ (√α+√β)² ≥ 2, so
      g' = 1/φ'' ≤ 1/2. |φ'''| ≤ α/m² + β/(1−m)² = u²/α + v²/β ≤ (u+v)²/min(α,β), hence
      |g''| = |φ'''|/φ''³ ≤ 1/(min(α,β) φ'') ≤ 1/(2(1−|ρ|)).
    """
    name, p = link.family_name, link.params
    expr_kind = link.kind == "expression"
    if name == "two-transition" and expr_kind:
        return (
            abs(p["p0"]) + 2 * p["a1"] + 2 * p["a2"],
            p["a1"] * p["b1"] + p["a2"] * p["b2"],
            2 * (p["a1"] * p["b1"] ** 2 + p["a2"] * p["b2"] ** 2),
        )
    if name == "logistic" and expr_kind:
        return (sp.Integer(1), sp.Rational(1, 4), sp.Rational(1, 4))
    if name == "probit" and expr_kind:
        return (sp.Integer(1), sp.Rational(1, 2), sp.Rational(1, 4))
    if name in ("weighted-entropy", "binary-negative-entropy") and not expr_kind:
        rho = p.get("rho", sp.Integer(0))
        return (sp.Integer(1), sp.Rational(1, 2), 1 / (2 * (1 - abs(rho))))
    return None


def _float_t(link, target: float, side: int) -> float:
    """Float t near the solution of z(t) = target (bracket of Link.t_range, then bisection)."""

    def beyond(t):
        z = float(link.z_of_t_numpy(np.array([t]))[0])
        return z >= target if side > 0 else z <= target  # nan counts as "not beyond"

    try:
        with np.errstate(all="ignore"):
            far = link.t_range(target, target)[0 if side < 0 else 1]
            near, step = far, 1.0
            while beyond(near) and step < 1e6:
                near, step = far - side * step, 2 * step
            for _ in range(60):
                mid = 0.5 * (near + far)
                if beyond(mid):
                    far = mid
                else:
                    near = mid
            return far
    except (NBLInputError, ArithmeticError, ValueError):
        return 0.0


def _t_beyond(link, chart, target: arb, side: int) -> arb:
    """Exact t with z(t) certified ≥ target (side +1) or ≤ target (side −1)."""
    if chart.expression:
        return target
    t, step = _float_t(link, float(target), side), 2.0**-20
    t = t if math.isfinite(t) else 0.0
    for _ in range(90):
        z = chart.group1(acb(t), False)[0].real
        if (z >= target) if side > 0 else (z <= target):
            return arb(t)
        t, step = t + side * step, step * 2
    raise CertificationError(
        f"could not certify a chart point with z {'>=' if side > 0 else '<='} "
        f"{float(target):.6g} for link {link.name!r}"
    )


def _max_abs(a: arb, b: arb) -> arb:
    """max(|x|) over the interval [a, b] (an upper bound, exact). Compared in Arb: float()
    of two values past 1e308 is inf for both and would not tell them apart."""
    x, y = abs(a).upper(), abs(b).upper()
    return (x if x > y else y) if a.is_finite() and b.is_finite() else arb.nan()


def _piece_bound(chart, group, lo: arb, hi: arb, sigma: arb, depth: int = 24):
    """∫_lo^hi |w_j| ϕ_σ(z) dt ≤ length · sup|w_j| · ϕ_σ(min|z|), sups from interval arithmetic
    on [lo, hi] (an expression's chart) or one ball evaluation; bisected while that bound is
    not finite."""
    ball = lo.union(hi)
    sups = chart.interval_sups(group, lo, hi)
    if sups is not None and all(s.is_finite() for s in sups):
        low, high = abs(lo).lower(), abs(hi).lower()
        zmin = (arb(0) if lo < 0 < hi else low if low < high else high) / sigma
    else:
        vals = (chart.group1 if group == 1 else chart.group2)(acb(ball), False)
        zmin = vals[0].abs_lower() / sigma  # ϕ_σ decreasing in |z|
        sups = [w.abs_upper() for w in vals[1:]]
    dens = ((-zmin * zmin / 2).exp() / (sigma * (2 * arb.pi()).sqrt())).upper()
    out = [((hi - lo).upper() * s * dens).upper() for s in sups]
    if depth and not all(b.is_finite() for b in out):
        mid = ((lo + hi) / 2).mid()
        left = _piece_bound(chart, group, lo, mid, sigma, depth - 1)
        return [a + b for a, b in zip(left, _piece_bound(chart, group, mid, hi, sigma, depth - 1))]
    return out


def _shell_tails(link, chart, a: arb, sigma: arb, t_edges, group: int):
    """Upper bounds of ∫_{|z|>a} |g^{(j)}| ϕ_σ for the j of ``group`` (shells + hypothesis),
    and X beyond which the growth hypothesis is used."""
    tails = [arb(0)] * (1 if group == 1 else 2)
    for side, t_prev in ((1, t_edges[1]), (-1, t_edges[0])):
        for k in range(1, _SHELLS + 1):
            t_next = _t_beyond(link, chart, side * a * 2**k, side)
            lo_t, hi_t = (t_prev, t_next) if side > 0 else (t_next, t_prev)
            width = (hi_t - lo_t) / _SHELL_PIECES
            for i in range(_SHELL_PIECES):
                piece = _piece_bound(chart, group, lo_t + i * width, lo_t + (i + 1) * width, sigma)
                tails = [tl + b for tl, b in zip(tails, piece)]
            t_prev = t_next
    x = a * 2**_SHELLS
    hyp = (2 * arb(1)).sqrt() * (x / 2).erfc() / sigma  # ∫_{|z|>X} e^{z²/4} ϕ_σ, σ ≤ 1
    return [(tl + hyp).upper() for tl in tails], float(x)


def _window(link, chart, sigma: arb, group: int, prec: int, bounds):
    """Integration window [t−, t+] ⊇ z⁻¹[−Lσ, Lσ] and tail bounds for each moment of ``group``."""
    target = arb(2) ** -(prec + 4)
    big_l = math.ceil(4 * math.sqrt(2 * (prec + 10) * math.log(2))) / 4
    for _ in range(16):
        a = (arb(big_l) * sigma).upper()
        edges = (_t_beyond(link, chart, -a, -1), _t_beyond(link, chart, a, 1))
        if bounds is not None:
            gauss = (arb(big_l) / arb(2).sqrt()).erfc()  # P(|N(0,1)| > L)
            js = (1,) if group == 1 else (0, 2)
            tails, x = [(arb(to_fmpq(bounds[j])) * gauss).upper() for j in js], None
        else:
            tails, x = _shell_tails(link, chart, a, sigma, edges, group)
        if not all(t.is_finite() for t in tails):
            raise CertificationError(
                f"could not bound the Gaussian tail of link {link.name!r} "
                "(g or its derivatives are not finite on real balls)"
            )
        if all(t <= target for t in tails):
            break
        big_l += 1
    return edges, tails, x


def _integrate(f, a: arb, b: arb, prec: int):
    """Sum of ``acb.integral`` over ``_PANELS`` sub-panels, retrying with larger limits."""
    tol = arb(2) ** -(prec + 10)
    wp = flint.ctx.prec
    attempts = (
        (0, {}),
        (
            64,
            {
                "deg_limit": 2 * wp + 100,
                "eval_limit": 16 * (1000 * wp + wp**2),
                "depth_limit": 8 * wp,
            },
        ),
    )  # (extra bits, acb.integral limits)
    total, ok = acb(0), True
    cuts = [a] + [(a + (b - a) * i / _PANELS).mid() for i in range(1, _PANELS)] + [b]  # exact
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        for extra, opts in attempts:
            with arb_precision(wp + extra):
                res = acb.integral(f, lo, hi, rel_tol=tol, abs_tol=tol, **opts)
            good = res.is_finite() and res.rad() <= arb(2) ** -(prec - 8) * (1 + abs(res).upper())
            if good:
                break
        if not res.is_finite():
            raise CertificationError(
                "acb.integral did not converge to a finite enclosure; the "
                "integrand may be singular on (or near) the real line"
            )
        ok = ok and good
        total += res
    return total, ok


# ----------------------------------------------------------------------------- moments and λ*
#: What "certified" does not cover: the link is refused only with a proven witness of a
#: decrease (nbl_theory.link_checks), so a decrease narrower than its scan can go unseen
#: (z + 1.0000001 sin z decreases on intervals of width 9e-4; an attacker's audit).
_MONOTONE_NOTE = (
    "certified: the enclosure of lambda* for g as given; that g is increasing (the "
    "paper's standing assumption) is checked at scan points (step 1/50 on "
    "|z| <= 40 for an expression), not proved"
)


def _moments(link, delta_q, prec: int):
    """Balls of μ_g, μ*, m0, m2 (eq:mu_star_m2_def) at target ``prec`` bits, and notes."""
    delta_q = validate_delta(delta_q)
    wp = prec + _GUARD
    chart = _chart(link, wp)
    bounds = _family_derivative_bounds(link)
    notes, growth_x = [], []
    with arb_precision(wp):
        d = arb(to_fmpq(delta_q))
        s = (1 - d * d / 4).sqrt()
        one, i_unit = acb(1), acb(0, 1)
        inv_sqrt2pi = 1 / (2 * arb.pi()).sqrt()
        c = -d / (2 * s * arb(2).sqrt())  # Φ(Δz/(2s)) = erfc(−Δz/(2s√2))/2
        inv_s = 1 / s
        dens_s = inv_s * inv_sqrt2pi

        def f1(t, an):  # g'ϕ (1 + i Φ(Δz/2s)) → μ_g + i μ*
            z, w1 = chart.group1(t, an)
            base = w1 * (-(z * z) / 2).exp() * inv_sqrt2pi
            return base * (one + i_unit * (c * z).erfc() / 2)

        def f2(t, an):  # ϕ_s (g + i g'') → m0 + i m2
            z, w0, w2 = chart.group2(t, an)
            zs = z * inv_s
            return (-(zs * zs) / 2).exp() * dens_s * (w0 + i_unit * w2)

        out = {}
        for group, f, sigma, names in (
            (1, f1, arb(1), ("mu_g", "mu_star")),
            (2, f2, s, ("m0", "m2")),
        ):
            edges, tails, x = _window(link, chart, sigma, group, prec, bounds)
            val, ok = _integrate(f, edges[0], edges[1], prec)
            growth_x += [x] if x is not None else []
            if not ok:
                notes.append(
                    f"{'/'.join(names)}: acb.integral stopped above the requested "
                    "tolerance; the enclosure is rigorous but wider"
                )
            tail_re, tail_im = (tails[0], tails[0]) if group == 1 else tails
            out[names[0]] = val.real + arb(0, tail_re)
            out[names[1]] = val.imag + arb(0, tail_im)
    if growth_x:
        notes.append(_GROWTH_NOTE.format(x=f"{min(growth_x):.6g}"))
    return out, notes


def moments_certified(link, delta_q, prec: int = 128) -> dict:
    """Rigorous balls (``flint.arb``) of ``mu_g``, ``mu_star``, ``m0``, ``m2`` (eq:mu_star_m2_def)
    for Δ = ``delta_q`` (taken exactly) at a target of ``prec`` bits (plus 32 guard bits).

    Parameters
    ----------
    link : Link
        The link g.
    delta_q : sympy.Rational or str
        The separation Δ ∈ (0, 2), taken exactly.
    prec : int, default 128
        The target precision in bits.

    Returns
    -------
    dict of str to flint.arb
        ``mu_g``, ``mu_star``, ``m0``, ``m2``: balls containing the moments.
    """
    return _moments(link, delta_q, prec)[0]


class _ArbOps:
    """Arb ball arithmetic for :func:`~nbl_theory.results.decision_quantities` (at the current
    ``flint.ctx.prec``)."""

    def __init__(self):
        self.two_phi0 = 2 / (2 * arb.pi()).sqrt()

    @staticmethod
    def convert(q):
        return arb(to_fmpq(q))

    @staticmethod
    def pos(x: arb) -> arb:
        """An enclosure of max(x, 0) for every point of the ball x."""
        return x if x >= 0 else arb(0) if x <= 0 else arb(x.upper() / 2, x.upper() / 2)

    @staticmethod
    def minimum(a: arb, b: arb) -> arb:
        return a.min(b)


def _combine(mom, delta_q) -> dict:
    q = decision_quantities(_ArbOps(), delta_q, mom["mu_star"], mom["m2"], mom["m0"])
    return {
        **mom,
        **{
            k: q[k]
            for k in ("kappa_star", "lambda_star", "orthogonal", "theta", "contraction_rate_d3plus")
        },
    }


def lambda_star_arb(link, delta_q, prec: int = 128) -> arb:
    """Rigorous ball of λ* = Δμ* − 2ϕ0(0)(m2)_+ s² (eq:decision_stability) at ``prec`` bits.

    Parameters
    ----------
    link : Link
        The link g.
    delta_q : sympy.Rational or str
        The separation Δ ∈ (0, 2), taken exactly.
    prec : int, default 128
        The target precision in bits (32 guard bits are added).

    Returns
    -------
    flint.arb
        A ball containing λ*.
    """
    mom = moments_certified(link, delta_q, prec)
    with arb_precision(prec + _GUARD):
        return _combine(mom, validate_delta(delta_q))["lambda_star"]


def _sign_of(ball: arb) -> str:
    """Sign of λ* proved by its enclosure, or "undecided" when the ball contains 0."""
    return "stable" if ball > 0 else "unstable" if ball < 0 else "undecided"


def stability_certified(
    link, delta_q, auto_raise: bool = True, max_prec: int = PREC_LADDER[-1]
) -> StabilityResult:
    """Certified decision stability: Arb enclosures of the moments, κ* and λ*.

    Parameters
    ----------
    link : Link
        The link g.
    delta_q : Rational or str
        Arm separation Δ ∈ (0, 2), taken exactly.
    auto_raise : bool
        While the λ* ball contains 0, retry at the next precision of ``PREC_LADDER``.
    max_prec : int
        Highest precision (bits) tried.

    Returns
    -------
    StabilityResult
        ``values`` are ball midpoints and ``errors`` radii (exact mpmath.mpf); ``digits`` are the
        decimal digits λ*'s ball guarantees; ``lambda_star_enclosure`` holds the ball endpoints
        rounded outward to ``digits`` significant decimals (so the printed interval encloses).

    Notes
    -----
    .. math:: λ_\\star = Δμ^\\star − 2φ_0(0)(m_2)_+(1 − Δ^2/4)   (eq:decision_stability)
    """
    delta_q = validate_delta(delta_q)
    if max_prec < 32:
        raise NBLInputError(f"max_prec must be at least 32 bits, got {max_prec}")
    ladder = [p for p in PREC_LADDER if p <= max_prec] or [max_prec]
    if not auto_raise:
        ladder = ladder[:1]
    notes: list[str] = []
    for prec in ladder:
        mom, mnotes = _moments(link, delta_q, prec)
        with arb_precision(prec + _GUARD):
            vals = _combine(mom, delta_q)
            rate_d3 = vals["contraction_rate_d3plus"]
        lam = vals["lambda_star"]
        sign = _sign_of(lam)
        if sign != "undecided":
            break
        if prec != ladder[-1]:
            notes.append(f"lambda_star enclosure contains 0 at {prec} bits; raising precision")
    if sign == "undecided":
        notes.append(
            f"sign of lambda_star undecided: its certified enclosure at {prec} bits contains 0"
        )
    notes.extend(n for n in dict.fromkeys(mnotes) if n not in notes)
    notes.append(f"certified Arb enclosure at {prec} bits (+{_GUARD} guard bits)")
    notes.append(_MONOTONE_NOTE)
    digits = max(1, int(lam.rel_accuracy_bits() * math.log10(2)))
    with arb_precision(prec + _GUARD):  # endpoints rounded outward at working precision
        enclosure = (
            _outward_decimal(lam.lower(), digits, False),
            _outward_decimal(lam.upper(), digits, True),
        )
    keys = ("mu_g", "mu_star", "m0", "m2", "kappa_star", "lambda_star")
    values = {k: arb_to_mpf(vals[k].mid()) for k in keys}
    errors = {k: arb_to_mpf(vals[k].rad()) for k in keys}
    mid = {k: arb_to_mpf(vals[k].mid()) for k in ("orthogonal", "theta")}
    jac = {
        "orthogonal": mid["orthogonal"],
        "theta": mid["theta"],
        "orthogonal_multiplicity": "d-2",
        "theta_multiplicity": 1,
        "contraction_rate_d2": mid["theta"],
        "contraction_rate_d3plus": arb_to_mpf(rate_d3.mid()),
    }
    return StabilityResult(
        link.name,
        link.describe(),
        decimal_str(delta_q),
        "certified",
        digits,
        values,
        errors,
        enclosure,
        sign,
        True,
        jac,
        notes,
    )
