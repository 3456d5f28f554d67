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

import time

import mpmath
import numpy as np

from .certified import stability_certified
from .errors import NBLInputError
from .expressions import exact_number
from .gaussian import FloatRangeError, moments_float, moments_mpmath
from .results import (
    DPS_LADDER,
    FLOAT_OPS,
    PREC_LADDER,
    MpOps,
    StabilityGrid,
    StabilityResult,
    decimal_str,
    decision_quantities,
    sign_word,
)
from .validation import validate_delta

__all__ = ["stability", "lambda_star_float", "stability_grid"]


def _assemble(link, delta_q, mom, tier, digits, certified, notes, ops, rounding):
    """κ*, λ* and the Jacobian rates (:func:`~nbl_theory.results.decision_quantities`) with
    the error estimate of λ* propagated from the moments' errors."""
    q = decision_quantities(ops, delta_q, mom["mu_star"].value, mom["m2"].value, mom["m0"].value)
    d = ops.convert(delta_q)
    s2 = 1 - d * d / 4
    mu_star, m2, m0, mu_g = (mom[k] for k in ("mu_star", "m2", "m0", "mu_g"))
    err_lam = (
        d * mu_star.error
        + ops.two_phi0 * s2 * m2.error
        + rounding(d * mu_star.value + ops.two_phi0 * s2 * abs(m2.value))
    )
    values = {
        "mu_g": mu_g.value,
        "mu_star": mu_star.value,
        "m0": m0.value,
        "m2": m2.value,
        "kappa_star": q["kappa_star"],
        "lambda_star": q["lambda_star"],
    }
    errors = {
        "mu_g": mu_g.error,
        "mu_star": mu_star.error,
        "m0": m0.error,
        "m2": m2.error,
        "kappa_star": ops.two_phi0 * m0.error + d * mu_star.error,
        "lambda_star": err_lam,
    }
    jac = {
        "orthogonal": q["orthogonal"],
        "theta": q["theta"],
        "orthogonal_multiplicity": "d-2",
        "theta_multiplicity": 1,
        "contraction_rate_d2": q["contraction_rate_d2"],
        "contraction_rate_d3plus": q["contraction_rate_d3plus"],
    }
    lo, hi = q["lambda_star"] - err_lam, q["lambda_star"] + err_lam
    return StabilityResult(
        link.name,
        link.describe(),
        decimal_str(delta_q),
        tier,
        digits,
        values,
        errors,
        (lo, hi),
        sign_word(lo, hi),
        certified,
        jac,
        notes,
    )


#: A quadrature whose error estimate of a moment exceeds this fraction of the moment's size
#: (μ_g, μ*; for m2, which may be 0, max(|m2|, μ_g)) has not converged: rounding gives ~1e-15
#: of it, so the gap of seven orders separates "λ* near 0" (raise the precision) from "the
#: trapezoid does not resolve the link" (more digits would not help: the same nodes). Each
#: moment is judged on its own size, not on λ*'s: at a tiny Δ the terms of λ* are tiny while
#: the moments' errors are not (logistic at Δ = 1e-9 is computed, not refused).
UNRESOLVED_FRACTION = 1e-8


def _check_resolved(tier: str, link, delta_shown: str, values, errors) -> None:
    """Refuse, in one line, moments whose quadrature did not converge (a link steeper than the
    trapezoid's finest level resolves, e.g. ``sigmoid(k*z)`` with k >~ 1e5); ``values`` and
    ``errors`` map ``mu_g``, ``mu_star``, ``m2`` to numbers."""
    mu_g = abs(float(values["mu_g"]))
    sizes = {
        "mu_g": mu_g,
        "mu_star": abs(float(values["mu_star"])),
        "m2": max(abs(float(values["m2"])), mu_g),
    }
    for name, size in sizes.items():
        err = float(errors[name])
        if not err <= UNRESOLVED_FRACTION * size:
            raise NBLInputError(
                f"the {tier} quadrature did not converge for {link.name} at delta = "
                f"{delta_shown} (error estimate of {name} {err:.2g} against a size of "
                f"{size:.2g}): the link varies on a scale finer than the finest trapezoid "
                "level resolves, and more digits would not help"
            )


def _check_result(res, link, delta_q) -> None:
    _check_resolved(res.tier, link, decimal_str(delta_q), res.values, res.errors)


def _float_rounding(scale):
    # a few ulps of the terms that are combined, for cancellation in λ*
    return 8 * 2.0**-52 * abs(scale)


def lambda_star_float(link, delta: float) -> float:
    """λ* in float64 (no sign analysis): the fast path for sweeps.

    Parameters
    ----------
    link : nbl_theory.links.Link
        The link g.
    delta : float
        The arm separation Δ ∈ (0, 2).

    Returns
    -------
    float
        λ* = Δμ* − 2φ0(0)(m2)₊(1 − Δ²/4) (eq:decision_stability); the moments come from the
        mpmath tier at 20 digits when the float64 chart overflows.
    """
    try:
        mom = moments_float(link, delta)
        mu_star, m2 = mom["mu_star"].value, mom["m2"].value
        _check_resolved(
            "float64",
            link,
            f"{float(delta):g}",
            {k: mom[k].value for k in ("mu_g", "mu_star", "m2")},
            {k: mom[k].error for k in ("mu_g", "mu_star", "m2")},
        )
    except FloatRangeError:
        with mpmath.workdps(25):
            mom = moments_mpmath(link, validate_delta(delta), dps=20)
            mu_star, m2 = float(mom["mu_star"].value), float(mom["m2"].value)
    return decision_quantities(FLOAT_OPS, delta, mu_star, m2)["lambda_star"]


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
        The link g whose decision stability is computed.
    delta : str, int, float or Rational
        Arm separation Δ ∈ (0, 2); decimal strings are taken exactly.
    dps : int, optional
        Evaluate with mpmath at this many digits, 5 to 2000 (default: float64).
    certify : bool, default False
        Compute rigorous Arb enclosures (python-flint); ``dps`` is then not used.
    auto_raise : bool, default True
        When the sign of λ* is not decided, raise precision (float64 → mpmath → …) up to
        ``max_dps`` digits, or Arb precision up to ``max_prec`` bits.
    max_dps : int, default ``DPS_LADDER[-1]``
        The most mpmath digits the ladder climbs to.
    max_prec : int, default ``PREC_LADDER[-1]``
        The most Arb bits the certified ladder climbs to.

    Returns
    -------
    StabilityResult
        λ*, μ*, m2, κ* and the Jacobian rates with their errors (or enclosures), the sign of λ*
        (``"undecided"`` if no precision tried decides it), the tier used and the notes on
        precision changes.

    Notes
    -----
    .. math:: λ_\\star = Δμ^\\star − 2φ_0(0)(m_2)_+(1 − Δ^2/4)   (eq:decision_stability)
    """
    delta_q = validate_delta(delta)
    t0 = time.perf_counter()
    notes: list[str] = []
    if certify:
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
            res = _assemble(
                link, delta_q, mom, "float64", 16, False, notes, FLOAT_OPS, _float_rounding
            )
            _check_result(res, link, delta_q)
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
            tiny = mpmath.mpf(10) ** (-(p + 5))
            res = _assemble(
                link,
                delta_q,
                mom,
                "mpmath",
                p,
                False,
                notes,
                MpOps(),
                lambda scale, tiny=tiny: tiny * abs(scale),
            )
        _check_result(res, link, delta_q)
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


def _texts(xs, name: str) -> list:
    """Scalars or an array of them as exact decimal texts (floats through their repr)."""
    arr = np.atleast_1d(np.asarray(xs, dtype=object)).ravel()
    if arr.size == 0:
        raise NBLInputError(f"{name}: give at least one value")
    out = []
    for x in arr:
        if isinstance(x, (np.floating, np.integer)):
            x = x.item()
        out.append(decimal_str(exact_number(x)) if not isinstance(x, str) else x.strip())
    return out


def stability_grid(
    link,
    deltas,
    *,
    param: str | None = None,
    values=None,
    certify: bool = False,
    dps: int | None = None,
) -> StabilityGrid:
    """λ* and its sign over an array of Δ, or over a (parameter × Δ) grid.

    Parameters
    ----------
    link : Link, LinkSource or str
        One link (then ``param``/``values`` are not given), or a family name / a
        :class:`~nbl_theory.link_source.LinkSource` with a free parameter ``param``.
    deltas : scalar or array_like
        Separations Δ ∈ (0, 2) (decimal strings are exact; floats are read through their repr).
    param, values : str and array_like, optional
        The parameter of ``link`` and its values (axis 0 of the result).
    certify : bool
        Certified Arb enclosures: every sign is proved (or ``undecided``).
    dps : int, optional
        mpmath precision instead of float64.

    Returns
    -------
    StabilityGrid
        ``lambda_star`` and ``sign`` of shape (len(values), len(deltas)) (one row for a single
        link), every cell's :class:`~nbl_theory.results.StabilityResult`; ``.to_dict()`` and
        ``.to_frame()`` as every result.

    Notes
    -----
    Each cell is :func:`stability` (eq:decision_stability), so every tier's precision rules
    hold cell by cell (precision is raised where a sign is unclear). Every input is checked
    (every Δ, every link built) before the first cell is computed.
    """
    from .families import make_family
    from .link_source import LinkSource

    dl = _texts(deltas, "deltas")
    for d in dl:
        validate_delta(d)
    if (param is None) != (values is None):
        raise NBLInputError("give param and values together (or neither, for one link)")
    if param is None:
        if isinstance(link, (str, LinkSource)):
            link = make_family(link) if isinstance(link, str) else link.link()
        links, vals, name = [link], [None], link.name
    else:
        vals = _texts(values, f"values of {param}")
        if isinstance(link, str):
            links = [make_family(link, **{param: v}) for v in vals]
            name = link
        elif isinstance(link, LinkSource):
            links = [link.link({param: v}) for v in vals]
            name = link.text
        else:
            raise NBLInputError("a parameter grid needs a family name or a LinkSource")
    results = [[stability(lk, d, dps=dps, certify=certify) for d in dl] for lk in links]
    return StabilityGrid(name, param, vals, dl, results)
