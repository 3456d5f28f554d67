"""Result types and the one assembly of λ*, κ* and the local Jacobian rates.

Every precision tier (float64, mpmath, certified Arb) and every figure obtains μ*, m2, m0 in
its own arithmetic and calls :func:`decision_quantities` with a numeric context, so the
formulas of eq:decision_stability, eq:app-kappa-identity and prop:local_jacobian are written
exactly once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import numpy as np

from .numeric import PHI0
from .records import Result, numbers

__all__ = [
    "StabilityResult",
    "StabilityGrid",
    "DPS_LADDER",
    "PREC_LADDER",
    "decimal_str",
    "decision_quantities",
    "FloatOps",
    "MpOps",
    "FLOAT_OPS",
    "sign_word",
]

#: mpmath digits tried, in order, when the float64 sign is not clear.
DPS_LADDER = (30, 60, 120)
#: Arb working precisions (bits) tried, in order, when a certified enclosure contains 0.
PREC_LADDER = (128, 256, 512, 1024)


def decimal_str(q) -> str:
    """A Rational as a decimal string: exact when it has a terminating expansion.

    Parameters
    ----------
    q : sympy.Rational
        The number.

    Returns
    -------
    str
        The exact decimal expansion when it terminates (in scientific notation beyond 30
        characters), else 25 significant digits.
    """
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
        if len(out) > 30:  # 1e-300 as 1e-300, not 300 digits (still exact)
            sig = str(abs(p) * (10**n // d)).rstrip("0")
            exp = len(str(abs(p) * (10**n // d))) - 1 - n
            out = (sig[0] + ("." + sig[1:] if len(sig) > 1 else "")) + f"e{exp}"
        return ("-" if p < 0 else "") + out
    with mpmath.workdps(30):
        return mpmath.nstr(mpmath.mpf(p) / d, 25)


class FloatOps:
    """float64 arithmetic for :func:`decision_quantities`."""

    two_phi0 = 2 * PHI0

    @staticmethod
    def convert(q):
        """Δ (or any exact number) in the arithmetic of this tier.

        Parameters
        ----------
        q : sympy.Rational, int, float or str
            The number.

        Returns
        -------
        float
            ``q`` in this arithmetic.
        """
        return float(q)

    @staticmethod
    def pos(x):
        """The positive part x₊ = max(x, 0) (of m2 in λ*).

        Parameters
        ----------
        x : float
            A number.

        Returns
        -------
        float
            max(x, 0).
        """
        return max(x, 0.0)

    @staticmethod
    def minimum(a, b):
        """The smaller of two numbers of this arithmetic.

        Parameters
        ----------
        a : float
            A number.
        b : float
            Another number.

        Returns
        -------
        float
            min(a, b).
        """
        return min(a, b)


class MpOps:
    """mpmath arithmetic at the current working precision."""

    def __init__(self):
        self.two_phi0 = 2 * (1 / mpmath.sqrt(2 * mpmath.pi))

    @staticmethod
    def convert(q):
        """Δ (or any exact number) in the arithmetic of this tier.

        Parameters
        ----------
        q : sympy.Rational, int, float or str
            The number.

        Returns
        -------
        mpmath.mpf
            ``q`` in this arithmetic.
        """
        return mpmath.mpf(q.p) / q.q if hasattr(q, "p") else mpmath.mpf(q)

    @staticmethod
    def pos(x):
        """The positive part x₊ = max(x, 0) (of m2 in λ*).

        Parameters
        ----------
        x : mpmath.mpf
            A number.

        Returns
        -------
        mpmath.mpf
            max(x, 0).
        """
        return x if x > 0 else mpmath.mpf(0)

    @staticmethod
    def minimum(a, b):
        """The smaller of two numbers of this arithmetic.

        Parameters
        ----------
        a : mpmath.mpf
            A number.
        b : mpmath.mpf
            Another number.

        Returns
        -------
        mpmath.mpf
            min(a, b).
        """
        return min(a, b)


#: The float64 operations.
FLOAT_OPS = FloatOps()


def decision_quantities(ops, delta, mu_star, m2, m0=None) -> dict:
    """κ*, λ* and the local Jacobian rates from the moments, in the arithmetic of ``ops``.

    Parameters
    ----------
    ops : FloatOps, MpOps or the certified tier's Arb operations
        ``two_phi0`` = 2φ0(0), ``convert`` (Δ into the arithmetic), ``pos`` (positive part),
        ``minimum``.
    delta : sympy.Rational, float or mpmath.mpf
        Δ (converted with ``ops.convert``).
    mu_star : float or mpmath.mpf
        μ* of eq:mu_star_m2_def.
    m2 : float or mpmath.mpf
        m2 of eq:mu_star_m2_def.
    m0 : float or mpmath.mpf, optional
        m0 = E g(U), needed only for κ* (None: κ* is not computed).

    Returns
    -------
    dict
        ``lambda_star``, ``kappa_star`` (None without m0), ``orthogonal`` (rate on the d − 2
        directions ⊥ θ), ``theta`` (rate along θ), ``contraction_rate_d2`` and
        ``contraction_rate_d3plus`` (the slowest rate in d ≥ 3), ``curvature`` =
        2φ0(0)(m2)_+(1 − Δ²/4) and ``separation`` = Δμ*.

    Notes
    -----
    .. math::

        λ_\\star = Δμ^\\star − 2φ_0(0)(m_2)_+(1 − Δ^2/4) \\quad (eq:decision_stability),\\qquad
        κ^\\star = 2φ_0(0) m_0 + Δμ^\\star \\quad (eq:app-kappa-identity),

    and by prop:local_jacobian, Dh(v*)[u] = −Δμ* u + 2φ0(0) m2 θ(θᵀu) with ‖θ‖² = 1 − Δ²/4:
    rate Δμ* on θ^⊥ and Δμ* − 2φ0(0) m2 ‖θ‖² along θ.
    """
    d = ops.convert(delta)
    s2 = 1 - d * d / 4
    separation = d * mu_star
    curvature = ops.two_phi0 * ops.pos(m2) * s2
    lam = separation - curvature  # eq:decision_stability
    theta = separation - ops.two_phi0 * m2 * s2  # prop:local_jacobian, u ∥ θ
    kappa = None if m0 is None else ops.two_phi0 * m0 + separation  # eq:app-kappa-identity
    return {
        "lambda_star": lam,
        "kappa_star": kappa,
        "orthogonal": separation,  # prop:local_jacobian, u ⊥ θ
        "theta": theta,
        "contraction_rate_d2": theta,
        "contraction_rate_d3plus": ops.minimum(separation, theta),
        "separation": separation,
        "curvature": curvature,
    }


def sign_word(lo, hi) -> str:
    """``stable`` when the enclosure [lo, hi] of λ* is > 0, ``unstable`` when < 0, else
    ``undecided``.

    Parameters
    ----------
    lo : float or mpmath.mpf
        The enclosure's lower end.
    hi : float or mpmath.mpf
        The enclosure's upper end.

    Returns
    -------
    str
        ``"stable"``, ``"unstable"`` or ``"undecided"``.
    """
    return "stable" if lo > 0 else "unstable" if hi < 0 else "undecided"


@dataclass
class StabilityResult(Result):
    """Outcome of :func:`stability`. Numbers are floats (float64) or mpmath/arb-derived mpf.

    A :class:`~nbl_theory.records.Result`: :meth:`to_dict` is the row ``nbl stability --json``
    prints (every quantity a JSON number, its exact decimal under ``<name>_decimal``),
    :meth:`to_frame` a one-row DataFrame.

    Parameters
    ----------
    link : str
        The link's name.
    description : str
        The link in words (:meth:`Link.describe`).
    delta : str
        Δ as an exact decimal string.
    tier : {"float64", "mpmath", "certified"}
        The tier that computed the values.
    digits : int
        Decimal digits carried by the tier.
    values : dict
        ``mu_g``, ``mu_star``, ``m0``, ``m2``, ``kappa_star``, ``lambda_star``.
    errors : dict
        The error estimate (or certified radius) of each value.
    lambda_star_enclosure : tuple
        ``(lo, hi)`` bounding λ* (value ± error, or the Arb ball).
    sign : {"stable", "unstable", "undecided"}
        The sign of λ* the enclosure decides.
    certified : bool
        Whether the enclosure is a proof (Arb).
    jacobian_rates : dict
        The rates of Dh(v*): ``theta`` (along θ) and ``orthogonal`` (on θ^⊥).
    notes : list of str, default []
        Precision changes and fallbacks, in words.
    seconds : float, default 0.0
        Wall time of the computation.
    """

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
        """λ* (``values["lambda_star"]``)."""
        return self.values["lambda_star"]

    def _fmt(self, x, digits=None) -> str:
        digits = digits or self.digits
        if isinstance(x, float):
            return repr(x)
        return mpmath.nstr(x, digits, min_fixed=-4, max_fixed=6)

    def _printed_error(self, k: str) -> str:
        """The error of the value as printed: the computation's error plus the rounding of the
        value to the printed digits, rounded up to 3 digits (so the printed value ± the printed
        error contains what the computation's own error bound contains)."""
        err, x = self.errors[k], self.values.get(k)
        if isinstance(err, float) and (x is None or isinstance(x, float)):
            return self._fmt(err, 3)  # float64: the value is printed with every digit (repr)
        with mpmath.workdps(max(self.digits, 15) + 20):
            total = mpmath.mpf(err)
            if x is not None:
                total += abs(mpmath.mpf(x) - mpmath.mpf(self._fmt(x)))
            return _directed(total, 3, +1)

    def to_dict(self) -> dict:
        """The JSON row under the one number convention (:func:`nbl_theory.records.numbers`).

        Returns
        -------
        dict
            :meth:`to_json` with every number a JSON number and its exact decimal beside it.
        """
        return numbers(self.to_json())

    def to_json(self) -> dict:
        """JSON-ready dict with stable keys (docs/architecture.md, "proofs_check/cli: the `nbl`
        command"), numbers as decimal strings with every digit (:meth:`to_dict` turns them into
        JSON numbers with ``_decimal`` companions).

        Returns
        -------
        dict
            The fields, the values as decimal strings, ``errors``, ``lambda_star_enclosure``,
            ``jacobian_rates``, ``notes``.
        """
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
        out["errors"] = {k: self._printed_error(k) for k in self.errors}
        lo, hi = self.lambda_star_enclosure
        out["lambda_star_enclosure"] = (
            [repr(lo), repr(hi)]
            if isinstance(lo, float) and isinstance(hi, float)
            # the certified ends are decimals of `digits` digits already, rounded outward
            # (nbl_theory.certified._outward_decimal): printed as they are
            else [self._fmt(lo), self._fmt(hi)]
            if self.certified
            else [_directed(lo, self.digits, -1), _directed(hi, self.digits, +1)]
        )
        out["sign"] = self.sign
        out["jacobian_rates"] = {
            k: (self._fmt(v) if not isinstance(v, (int, str)) else v)
            for k, v in self.jacobian_rates.items()
        }
        out["notes"] = list(self.notes)
        out["seconds"] = round(self.seconds, 4)
        return out


def decimal_outward(man: int, exp: int, digits: int, up: bool) -> Fraction:
    """The binary number man·2^exp (man ≠ 0) rounded outward — up or down — to ``digits``
    significant decimals, exactly (the one rounding of printed enclosure ends and errors:
    :func:`_directed` here, ``nbl_theory.certified``'s Arb ends)."""
    v = Fraction(man) * Fraction(2) ** exp
    k = math.floor(math.log10(abs(man)) + exp * math.log10(2))  # k = floor(log10|v|), then
    k += (abs(v) >= Fraction(10) ** (k + 1)) - (abs(v) < Fraction(10) ** k)  # made exact
    scaled = v * Fraction(10) ** (digits - 1 - k)
    n = math.ceil(scaled) if up else math.floor(scaled)
    return n * Fraction(10) ** (k + 1 - digits)


def _directed(x, digits: int, direction: int) -> str:
    """``x`` rounded to ``digits`` significant digits toward −∞ (``direction`` −1) or +∞ (+1),
    as a decimal string: an enclosure's ends printed outward, an error printed upward."""
    x = x if isinstance(x, mpmath.mpf) else mpmath.mpf(x)  # an mpf keeps every bit it has
    if not mpmath.isfinite(x) or x == 0:
        return mpmath.nstr(x, digits)
    r = decimal_outward(*(int(v) for v in x.man_exp), digits, direction > 0)
    with mpmath.workdps(digits + 30):
        return mpmath.nstr(
            mpmath.mpf(r.numerator) / r.denominator, digits, min_fixed=-4, max_fixed=6
        )


class StabilityGrid(Result):
    """Outcome of :func:`nbl_theory.stability.stability_grid`: λ* and its sign on a grid.

    Parameters
    ----------
    link : str
        The link (or family) the grid is over.
    param : str or None
        The parameter along the first axis (None: one link, a single row).
    values : list of str
        The parameter values (``[None]`` when ``param`` is None), axis 0.
    deltas : list of str
        The separations Δ as exact decimal strings, axis 1.
    results : list of list of StabilityResult
        Every cell's full result (``results[i][j]``); the arrays below are read from them.

    Attributes
    ----------
    link : str
        The link (or family) the grid is over.
    param : str or None
        The parameter along the first axis (None: one link, a single row).
    values : list of str
        The parameter values (``[None]`` when ``param`` is None), axis 0.
    deltas : list of str
        The separations Δ as exact decimal strings, axis 1.
    lambda_star : ndarray (len(values), len(deltas))
        λ* (float64 nearest to each cell's value, whatever tier computed it).
    sign : ndarray of str, same shape
        ``stable`` / ``unstable`` / ``undecided`` per cell.
    certified : ndarray of bool, same shape
        True where the sign is proved by an Arb enclosure.
    results : list of list of StabilityResult
        Every cell's full result (``results[i][j]``).
    """

    def __init__(self, link, param, values, deltas, results):
        self.link, self.param = link, param
        self.values, self.deltas = list(values), list(deltas)
        self.results = results
        self.lambda_star = np.array(
            [[float(r.lambda_star) for r in row] for row in results], dtype=float
        ).reshape(len(self.values), len(self.deltas))
        self.sign = np.array([[r.sign for r in row] for row in results], dtype=object).reshape(
            self.lambda_star.shape
        )
        self.certified = np.array(
            [[bool(r.certified) for r in row] for row in results], dtype=bool
        ).reshape(self.lambda_star.shape)

    def to_dict(self) -> dict:
        """JSON data (the one number convention): the axes, then λ*, its exact decimals, the
        signs and certification as ``[i][j]`` = (values[i], deltas[j]).

        Returns
        -------
        dict
            ``link``, ``param``, ``values``, ``deltas``, ``axes`` and the per-cell ``lambda_star``,
            ``sign``, ``certified``, ``tier`` as nested lists.
        """
        return numbers(
            {
                "link": self.link,
                "param": self.param,
                "values": self.values,
                "deltas": self.deltas,
                "axes": {"rows": self.param, "columns": "delta"},
                "lambda_star": [[r.to_json()["lambda_star"] for r in row] for row in self.results],
                "sign": self.sign.tolist(),
                "certified": self.certified.tolist(),
                "tier": [[r.tier for r in row] for row in self.results],
            }
        )

    def frame_rows(self) -> list:
        """One DataFrame row per cell: the parameter value, Δ, λ* (and its exact decimal),
        the sign, certified, the tier.

        Returns
        -------
        list of dict
            One row per cell, row-major over (values, deltas).
        """
        rows = []
        for i, row in enumerate(self.results):
            for r in row:
                d = r.to_dict()
                rows.append(
                    {
                        **({self.param: self.values[i]} if self.param else {}),
                        "delta": d["delta"],
                        "lambda_star": d["lambda_star"],
                        "lambda_star_decimal": d.get("lambda_star_decimal", repr(d["lambda_star"])),
                        "sign": r.sign,
                        "certified": r.certified,
                        "tier": r.tier,
                    }
                )
        if self.param:
            for row in rows:
                row[self.param] = numbers({"v": row[self.param]})["v"]
        return rows
