"""The decision stability coefficient λ* and the local Jacobian spectrum.

For a link g and arm separation Δ ∈ (0, 2) (eq:mu_star_m2_def, eq:decision_stability):

.. math::

    λ_\\star = Δ μ^\\star − 2φ_0(0)(m_2)_+ (1 − Δ^2/4),
    \\qquad κ^\\star = 2φ_0(0) m_0 + Δ μ^\\star \\quad (eq:app-kappa-identity),

and by prop:local_jacobian, Dh(v*)[u] = −Δμ* u + 2φ_0(0) m_2 θ(θᵀu) with ‖θ‖² = 1 − Δ²/4, so the
tangent space at v* splits into θ (rate Δμ* − 2φ_0(0) m_2 ‖θ‖²) and its d − 2 dimensional
orthogonal complement (rate Δμ*). In d = 2 only the θ direction exists; in d ≥ 3 the slowest
rate is min of the two, which equals λ*.

Three precision tiers behind :func:`stability`: float64 (default), mpmath (``dps=N``) and
certified Arb enclosures (``certify=True``). The sign of λ* is reported as ``stable``,
``unstable`` or ``undecided``; when |λ*| is not clearly above its error, precision is raised
automatically up to a stated limit.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import mpmath

from .errors import NBLInputError
from .expressions import exact_number
from .gaussian import FloatRangeError, moments_float, moments_mpmath

__all__ = [
    "StabilityResult",
    "stability",
    "validate_delta",
    "lambda_star_float",
    "DPS_LADDER",
    "PREC_LADDER",
    "decimal_str",
]

#: mpmath digits tried, in order, when the float64 sign is not clear.
DPS_LADDER = (30, 60, 120)
#: Arb working precisions (bits) tried, in order, when a certified enclosure contains 0.
PREC_LADDER = (128, 256, 512, 1024)

_PHI0 = 1.0 / math.sqrt(2.0 * math.pi)


def decimal_str(q) -> str:
    """A Rational as a decimal string: exact when it has a terminating expansion."""
    p, d = int(q.p), int(q.q)
    k = d
    twos = fives = 0
    while k % 2 == 0:
        k //= 2
        twos += 1
    while k % 5 == 0:
        k //= 5
        fives += 1
    if k == 1:
        n = max(twos, fives)
        digits = abs(p) * (10**n // d)
        txt = str(digits).rjust(n + 1, "0")
        out = txt[:-n] + "." + txt[-n:] if n else txt
        out = out.rstrip("0").rstrip(".") if n else out
        return ("-" if p < 0 else "") + out
    with mpmath.workdps(30):
        return mpmath.nstr(mpmath.mpf(p) / d, 25)


def validate_delta(delta):
    """Return Δ as an exact Rational after checking 0 < Δ < 2 and finiteness."""
    if isinstance(delta, float) and not math.isfinite(delta):
        raise NBLInputError(f"delta must be a finite number in (0, 2), got {delta!r}")
    q = exact_number(delta)
    if not (0 < q < 2):
        raise NBLInputError(f"delta must lie in the open interval (0, 2), got {delta}")
    return q


@dataclass
class StabilityResult:
    """Outcome of :func:`stability`. Numbers are floats (float64) or mpmath/arb-derived mpf."""

    link: str
    description: str
    delta: str
    tier: str  # "float64" | "mpmath" | "certified"
    digits: int  # decimal digits carried by the tier
    values: dict  # mu_g, mu_star, m0, m2, kappa_star, lambda_star
    errors: dict  # error estimate (or certified radius) for each value
    lambda_star_enclosure: tuple  # (lo, hi)
    sign: str  # stable | unstable | undecided
    certified: bool
    jacobian_rates: dict
    notes: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def lambda_star(self):
        return self.values["lambda_star"]

    def _fmt(self, x, digits=None) -> str:
        digits = digits or self.digits
        if isinstance(x, float):
            return repr(x)
        return mpmath.nstr(x, digits, min_fixed=-4, max_fixed=6)

    def to_json(self) -> dict:
        """JSON-ready dict with the stable keys of DESIGN.md (numbers as decimal strings)."""
        out = {
            "link": self.link,
            "description": self.description,
            "delta": self.delta,
            "tier": self.tier,
            "digits": self.digits,
            "certified": self.certified,
        }
        for k in ("mu_star", "m2", "m0", "mu_g", "kappa_star", "lambda_star"):
            out[k] = self._fmt(self.values[k])
        out["errors"] = {k: self._fmt(v, 3) for k, v in self.errors.items()}
        out["lambda_star_enclosure"] = [self._fmt(x) for x in self.lambda_star_enclosure]
        out["sign"] = self.sign
        out["jacobian_rates"] = {
            k: (self._fmt(v) if not isinstance(v, (int, str)) else v)
            for k, v in self.jacobian_rates.items()
        }
        out["notes"] = list(self.notes)
        out["seconds"] = round(self.seconds, 4)
        return out


def _assemble(link, delta_q, mom, tier, digits, certified, notes, ctx):
    """Combine the four moments into κ*, λ* and the Jacobian rates in a numeric context."""
    d = ctx.convert(delta_q)
    s2 = 1 - d * d / 4
    phi0 = ctx.phi0
    mu_star, m2, m0, mu_g = (mom[k] for k in ("mu_star", "m2", "m0", "mu_g"))
    kappa = 2 * phi0 * m0.value + d * mu_star.value  # eq:app-kappa-identity
    m2_plus = ctx.pos(m2.value)
    lam = d * mu_star.value - 2 * phi0 * m2_plus * s2  # eq:decision_stability
    err_lam = (
        d * mu_star.error
        + 2 * phi0 * s2 * m2.error
        + ctx.rounding(d * mu_star.value + 2 * phi0 * s2 * abs(m2.value))
    )
    rate_orth = d * mu_star.value  # prop:local_jacobian, u ⊥ θ
    rate_theta = d * mu_star.value - 2 * phi0 * m2.value * s2  # u ∥ θ, ‖θ‖² = s²
    values = {
        "mu_g": mu_g.value,
        "mu_star": mu_star.value,
        "m0": m0.value,
        "m2": m2.value,
        "kappa_star": kappa,
        "lambda_star": lam,
    }
    errors = {
        "mu_g": mu_g.error,
        "mu_star": mu_star.error,
        "m0": m0.error,
        "m2": m2.error,
        "kappa_star": 2 * phi0 * m0.error + d * mu_star.error,
        "lambda_star": err_lam,
    }
    jac = {
        "orthogonal": rate_orth,
        "theta": rate_theta,
        "orthogonal_multiplicity": "d-2",
        "theta_multiplicity": "1",
        "contraction_rate_d2": rate_theta,
        "contraction_rate_d3plus": min(rate_orth, rate_theta),
    }
    lo, hi = lam - err_lam, lam + err_lam
    if lo > 0:
        sign = "stable"
    elif hi < 0:
        sign = "unstable"
    else:
        sign = "undecided"
    return StabilityResult(
        link.name,
        link.describe(),
        decimal_str(delta_q),
        tier,
        digits,
        values,
        errors,
        (lo, hi),
        sign,
        certified,
        jac,
        notes,
    )


class _Pair:
    def __init__(self, value, error):
        self.value, self.error = value, error


class _FloatCtx:
    phi0 = _PHI0

    @staticmethod
    def convert(q):
        return float(q)

    @staticmethod
    def pos(x):
        return max(x, 0.0)

    @staticmethod
    def rounding(scale):
        # a few ulps of the terms that are combined, for cancellation in λ*
        return 8 * 2.0**-52 * abs(scale)


class _MpCtx:
    def __init__(self, dps):
        self.dps = dps
        self.phi0 = 1 / mpmath.sqrt(2 * mpmath.pi)

    @staticmethod
    def convert(q):
        return mpmath.mpf(q.p) / q.q

    @staticmethod
    def pos(x):
        return x if x > 0 else mpmath.mpf(0)

    def rounding(self, scale):
        return mpmath.mpf(10) ** (-(self.dps + 5)) * abs(scale)


def lambda_star_float(link, delta: float) -> float:
    """λ* in float64 (no sign analysis): the fast path for sweeps."""
    s2 = 1.0 - delta * delta / 4.0
    try:
        mom = moments_float(link, delta)
    except FloatRangeError:
        with mpmath.workdps(25):
            mom = {
                k: (float(v.value), 0.0)
                for k, v in moments_mpmath(link, validate_delta(delta), dps=20).items()
            }
            mom = {k: _Pair(*v) for k, v in mom.items()}
    return delta * mom["mu_star"].value - 2 * _PHI0 * max(mom["m2"].value, 0.0) * s2


def stability(
    link,
    delta,
    dps: int | None = None,
    certify: bool = False,
    auto_raise: bool = True,
    max_dps: int = DPS_LADDER[-1],
    max_prec: int = PREC_LADDER[-1],
) -> StabilityResult:
    """Decision stability of ``link`` at separation ``delta``.

    Parameters
    ----------
    link : Link
    delta : str, int, float or Rational
        Arm separation Δ ∈ (0, 2); decimal strings are taken exactly.
    dps : int, optional
        Evaluate with mpmath at this many digits (default: float64).
    certify : bool
        Compute rigorous Arb enclosures (python-flint).
    auto_raise : bool
        When the sign of λ* is not decided, raise precision (float64 → mpmath → …) up to
        ``max_dps`` digits, or Arb precision up to ``max_prec`` bits.

    Returns
    -------
    StabilityResult

    Notes
    -----
    .. math:: λ_\\star = Δμ^\\star − 2φ_0(0)(m_2)_+(1 − Δ^2/4)   (eq:decision_stability)
    """
    delta_q = validate_delta(delta)
    t0 = time.perf_counter()
    notes: list[str] = []
    if certify:
        from .certified import stability_certified

        res = stability_certified(link, delta_q, auto_raise=auto_raise, max_prec=max_prec)
        res.seconds = time.perf_counter() - t0
        return res
    if dps is None:
        try:
            mom = moments_float(link, float(delta_q))
        except FloatRangeError:
            notes.append("float64 overflows on this link's chart; computed with mpmath instead")
            mom = None
        if mom is not None:
            res = _assemble(link, delta_q, mom, "float64", 16, False, notes, _FloatCtx)
            if res.sign != "undecided" or not auto_raise:
                res.seconds = time.perf_counter() - t0
                return res
            notes.append(
                "float64 could not decide the sign of lambda_star (|lambda*| <= error "
                f"estimate {res.errors['lambda_star']:.2g}); raising precision"
            )
        ladder = [p for p in DPS_LADDER if p <= max_dps]
    else:
        if dps < 5 or dps > 2000:
            raise NBLInputError(f"dps must be between 5 and 2000, got {dps}")
        ladder = [dps] + ([p for p in DPS_LADDER if dps < p <= max_dps] if auto_raise else [])
    res = None
    for p in ladder:
        mom = moments_mpmath(link, delta_q, dps=p)
        with mpmath.workdps(p + 10):
            res = _assemble(link, delta_q, mom, "mpmath", p, False, notes, _MpCtx(p))
        if res.sign != "undecided":
            break
        if p != ladder[-1]:
            notes.append(f"sign undecided at {p} digits; raising precision")
    if res.sign == "undecided":
        notes.append(
            f"sign of lambda_star undecided up to {ladder[-1]} digits "
            "(lambda_star is zero to that precision); try --certify"
        )
    res.seconds = time.perf_counter() - t0
    return res
