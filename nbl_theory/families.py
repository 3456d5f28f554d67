"""Named link families with the paper's defaults.

===========================  ====================================================================
name                         definition
===========================  ====================================================================
``two-transition``           eq:link_tanh, p0=0.10, a1=0.10, a2=0.25, b1=2, b2=1.4, mu1=-1.25, mu2
``weighted-entropy``         φ_ρ of app:elicitation-geometry, rho ∈ (−1, 1)
``quadratic``                φ = m²/2 on ℝ → identity link (tab:app_bregman_examples)
``negative-entropy``         φ = m log m − m on (0, ∞) → exp link
``binary-negative-entropy``  φ = m log m + (1−m) log(1−m) on (0, 1) → logistic link
``burg-entropy``             φ = −log m on (0, ∞): *rejected*, dual domain (−∞, 0) ≠ ℝ
``logistic``                 g = 1/(1 + e^{−z})
``probit``                   g = Φ(z)
``identity``, ``exp``        the links of the first two table rows, as expressions
===========================  ====================================================================
"""

from __future__ import annotations

import mpmath
import sympy as sp

from .errors import NBLInputError
from .expressions import exact_number
from .links import Link, M, Z

__all__ = [
    "FAMILIES",
    "family_defaults",
    "make_family",
    "TWO_TRANSITION_DEFAULTS",
    "weighted_entropy_expr",
]

#: Defaults of eq:link_tanh as printed in app:tanh-geometry. mu2 has no default in the paper;
#: 2.144072 is the paper's "near-critical" choice at Δ = 0.2 (nbl_theory.paper).
TWO_TRANSITION_DEFAULTS = {
    "p0": "0.10",
    "a1": "0.10",
    "a2": "0.25",
    "b1": "2",
    "b2": "1.4",
    "mu1": "-1.25",
    "mu2": "2.144072",
}


def _two_transition(**kw) -> Link:
    p = _merge("two-transition", TWO_TRANSITION_DEFAULTS, kw)
    for k in ("a1", "a2", "b1", "b2"):
        if not p[k] > 0:
            raise NBLInputError(
                f"two-transition: {k} must be > 0 for a strictly increasing link, got {p[k]}"
            )
    g = (
        p["p0"]
        + p["a1"] * (1 + sp.tanh(p["b1"] * (Z - p["mu1"])))
        + p["a2"] * (1 + sp.tanh(p["b2"] * (Z - p["mu2"])))
    )  # eq:link_tanh
    return Link.from_expression(
        g,
        name=_label("two-transition", p, ["mu2"], TWO_TRANSITION_DEFAULTS),
        params=p,
        bounded_derivatives=True,
        family_name="two-transition",
        validate=False,
    )


def weighted_entropy_expr(rho):
    """φ_ρ(m) = (1+ρ) m log m + (1−ρ)(1−m) log(1−m) − κ_ρ m, κ_ρ = 2ρ(1 − log 2).

    Parameters
    ----------
    rho : sympy number or symbol
        The weighting ρ, |ρ| < 1.

    Returns
    -------
    sympy.Expr
        φ_ρ in the variable m.
    """
    kappa = 2 * rho * (1 - sp.log(2))
    return (1 + rho) * M * sp.log(M) + (1 - rho) * (1 - M) * sp.log(1 - M) - kappa * M


#: The default of weighted-entropy's one parameter.
WEIGHTED_ENTROPY_DEFAULTS = {"rho": "0"}


def _weighted_entropy(**kw) -> Link:
    p = _merge("weighted-entropy", WEIGHTED_ENTROPY_DEFAULTS, kw)
    rho = p["rho"]
    if not (-1 < rho < 1):
        raise NBLInputError(f"weighted-entropy: rho must lie in (-1, 1), got {rho}")
    return Link.from_potential(
        weighted_entropy_expr(rho),
        domain=(0, 1),
        name=_label("weighted-entropy", p, ["rho"]),
        params=p,
        bounded_derivatives=True,
        family_name="weighted-entropy",
        validate=False,
    )


def _no_params(name, kw):
    if kw:
        raise NBLInputError(f"family {name!r} takes no parameters, got {sorted(kw)}")


def _simple(name, builder):
    def make(**kw):
        _no_params(name, kw)
        return builder()

    return make


def _burg(**kw):
    _no_params("burg-entropy", kw)
    return Link.from_potential(
        -sp.log(M), domain=(0, sp.oo), name="burg-entropy", family_name="burg-entropy"
    )


#: Every named family: name → builder ``(**params) -> Link`` (use :func:`make_family`).
FAMILIES = {
    "two-transition": _two_transition,
    "weighted-entropy": _weighted_entropy,
    "quadratic": _simple(
        "quadratic",
        lambda: Link.from_potential(
            M**2 / 2,
            domain=(-sp.oo, sp.oo),
            name="quadratic",
            family_name="quadratic",
            bounded_derivatives=False,
        ),
    ),
    "negative-entropy": _simple(
        "negative-entropy",
        lambda: Link.from_potential(
            M * sp.log(M) - M,
            domain=(0, sp.oo),
            name="negative-entropy",
            family_name="negative-entropy",
        ),
    ),
    "binary-negative-entropy": _simple(
        "binary-negative-entropy",
        lambda: Link.from_potential(
            M * sp.log(M) + (1 - M) * sp.log(1 - M),
            domain=(0, 1),
            name="binary-negative-entropy",
            bounded_derivatives=True,
            family_name="binary-negative-entropy",
        ),
    ),
    "burg-entropy": _burg,
    "logistic": _simple(
        "logistic",
        lambda: Link.from_expression(
            1 / (1 + sp.exp(-Z)), name="logistic", bounded_derivatives=True, family_name="logistic"
        ),
    ),
    "probit": _simple(
        "probit",
        lambda: Link.from_expression(
            (1 + sp.erf(Z / sp.sqrt(2))) / 2,
            name="probit",
            bounded_derivatives=True,
            family_name="probit",
        ),
    ),
    "identity": _simple(
        "identity", lambda: Link.from_expression(Z, name="identity", family_name="identity")
    ),
    "exp": _simple("exp", lambda: Link.from_expression(sp.exp(Z), name="exp", family_name="exp")),
}


def _merge(name, defaults, overrides):
    unknown = set(overrides) - set(defaults)
    if unknown:
        raise NBLInputError(
            f"family {name!r} has no parameter(s) {sorted(unknown)}; "
            f"parameters are {sorted(defaults)}"
        )
    merged = dict(defaults)
    merged.update(overrides)
    return {k: exact_number(v) for k, v in merged.items()}


def _label(name, params, keys, defaults=None):
    """``name(k=v, ...)``: the ``keys`` always, then every other parameter that differs from
    its default (two links of a family never share a name)."""
    moved = [
        k for k in (defaults or {}) if k not in keys and params[k] != exact_number(defaults[k])
    ]
    inner = ", ".join(f"{k}={_fmt(params[k])}" for k in [*keys, *moved])
    return f"{name}({inner})"


def _fmt(q: sp.Rational) -> str:
    if q.q == 1:
        return str(q.p)
    with mpmath.workdps(30):
        return mpmath.nstr(mpmath.mpf(q.p) / q.q, 15)


def family_defaults(name: str) -> dict[str, str]:
    """The parameters of family ``name`` with their defaults, as printed (decimal strings),
    without building the link (that costs a symbolic derivation and the link's checks).

    Parameters
    ----------
    name : str
        A family of :data:`FAMILIES`.

    Returns
    -------
    dict of str to str
        Parameter name -> default, in the family's order (empty for a family without
        parameters).

    Raises
    ------
    NBLInputError
        An unknown family.
    """
    if name not in FAMILIES:
        raise NBLInputError(f"unknown family {name!r}; known: {', '.join(sorted(FAMILIES))}")
    defaults = {
        "two-transition": TWO_TRANSITION_DEFAULTS,
        "weighted-entropy": WEIGHTED_ENTROPY_DEFAULTS,
    }
    return dict(defaults.get(name, {}))


def make_family(name: str, **params) -> Link:
    """Build the named family ``name`` with ``params`` overriding its defaults.

    Parameters
    ----------
    name : str
        A family of :data:`FAMILIES`.
    **params
        Parameter values (numbers or decimal strings), overriding the family's defaults.

    Returns
    -------
    Link
        The family's link at those parameters.

    Raises
    ------
    NBLInputError
        An unknown family, or parameters it refuses.
    """
    try:
        builder = FAMILIES[name]
    except KeyError:
        raise NBLInputError(
            f"unknown family {name!r}; known: {', '.join(sorted(FAMILIES))}"
        ) from None
    return builder(**params)
