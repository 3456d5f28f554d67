"""Critical thresholds: solve λ* = 0 for Δ or for a family parameter, with certified brackets.

A scan on a grid finds *every* sign change of λ* in the requested range (at Δ = 0.2 the
two-transition family has more than one critical mu2); each is refined by Brent's method in
float64 (or by mpmath at ``dps`` digits) and then bracketed: λ* is evaluated with Arb ball
arithmetic (:mod:`nbl_theory.certified`) at two exact decimal endpoints on either side of the
root, and the bracket is *certified* when the two enclosures have opposite signs, which proves a
root lies between them (λ* is continuous in Δ and in the family parameters).

A grid can only see sign changes that are wider than its spacing: a pair of roots closer
together than one grid step is missed. The result says how fine the grid was.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import mpmath
import numpy as np
from scipy.optimize import brentq

from .errors import NBLInputError
from .expressions import exact_number
from .results import decimal_str
from .stability import lambda_star_float, stability
from .validation import delta_inside, validate_delta

__all__ = ["ThresholdResult", "Root", "find_thresholds", "DEFAULT_BRACKETS", "REFINE_MIN_DPS"]

#: The fewest digits the mpmath refinement of a root works at (``dps`` below it is the digits
#: printed). The secant starts 1e-12 (relative) either side of Brent's float64 root, so λ* must
#: be computed well below 1e-12 times its slope for its steps to be more than noise: at
#: ``dps=8`` (13 working digits) they were not, and mpmath's findroot gave up (an internal
#: error of ``nbl threshold --dps 8``; tests/theory/test_threshold.py).
REFINE_MIN_DPS = 20

#: Default search ranges for ``solve_for``.
DEFAULT_BRACKETS = {
    "delta": ("0.01", "1.99"),
    "rho": ("-0.95", "0.95"),
    "mu2": ("-4", "4"),
    "mu1": ("-4", "4"),
}


@dataclass
class Root:
    """One root of λ* = 0 found by :func:`find_thresholds`.

    ``value`` is the refined root and ``bracket`` = (lo, hi) two exact decimal endpoints around
    it (decimal strings); ``certified`` is True when Arb enclosures of λ* at lo and hi have
    opposite signs ``signs``, which proves a root lies in the bracket; ``crossing`` says how
    stability changes as the variable grows (``"stable->unstable"`` or ``"unstable->stable"``).

    Parameters
    ----------
    value : str
        The refined root (decimal string).
    bracket : tuple of str
        ``(lo, hi)``, exact decimal endpoints around it.
    certified : bool
        Whether Arb enclosures of λ* at lo and hi have opposite signs.
    signs : tuple
        The sign of λ* at (lo, hi).
    crossing : {"stable->unstable", "unstable->stable"}
        How stability changes as the variable grows.
    """

    value: str  # decimal string
    bracket: tuple  # (lo, hi) decimal strings
    certified: bool
    signs: tuple  # sign of λ* at (lo, hi)
    crossing: str  # "stable->unstable" or "unstable->stable" as the variable grows


@dataclass
class ThresholdResult:
    """The result of :func:`find_thresholds`: every root of λ* = 0 seen on the scan grid.

    ``solve_for`` is ``"delta"`` or the parameter's name, ``fixed`` the values held fixed,
    ``search_range`` the scanned (lo, hi), ``grid_points`` the scan size (roots closer together
    than one grid step are not seen), ``roots`` the :class:`Root` s in increasing order,
    ``scan`` the grid and the float64 λ* on it (for plots).

    Parameters
    ----------
    link : str
        The link's (or family's) name.
    solve_for : str
        ``"delta"`` or the parameter's name.
    fixed : dict
        The values held fixed (e.g. ``{"delta": "0.2"}``).
    search_range : tuple of str
        The scanned (lo, hi).
    grid_points : int
        The scan size.
    roots : list of Root, default []
        The roots, in increasing order.
    notes : list of str, default []
        What the scan could and could not see, in words.
    scan : tuple of two lists, default ((), ())
        The grid and the float64 λ* on it.
    """

    link: str
    solve_for: str
    fixed: dict
    search_range: tuple
    grid_points: int
    roots: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    scan: tuple = ((), ())  # (grid values, float64 λ* on the grid), for plots

    @property
    def value(self):
        """The first root's value (decimal string), or None when there is no root."""
        return self.roots[0].value if self.roots else None

    @property
    def bracket(self):
        """The first root's bracket (lo, hi), or None when there is no root."""
        return self.roots[0].bracket if self.roots else None

    def to_json(self) -> dict:
        """JSON-ready dict (numbers as decimal strings); the keys of ``nbl threshold --json``.

        Returns
        -------
        dict
            The fields, the first root's ``value`` and ``bracket`` and every root.
        """
        return {
            "link": self.link,
            "solve_for": self.solve_for,
            "fixed": self.fixed,
            "search_range": list(self.search_range),
            "grid_points": self.grid_points,
            "value": self.value,
            "bracket": list(self.bracket) if self.bracket else None,
            "roots": [
                {
                    "value": r.value,
                    "bracket": list(r.bracket),
                    "certified": r.certified,
                    "signs": list(r.signs),
                    "crossing": r.crossing,
                }
                for r in self.roots
            ],
            "notes": self.notes,
        }


def _fmt(x: float, digits: int = 15) -> str:
    with mpmath.workdps(digits + 5):
        return mpmath.nstr(mpmath.mpf(x), digits)


def find_thresholds(
    build,
    solve_for: str,
    *,
    delta=None,
    bracket=None,
    grid: int = 160,
    dps: int | None = None,
    certify: bool = True,
    label: str = "",
    progress=None,
) -> ThresholdResult:
    """All roots of λ* = 0 in a range.

    Parameters
    ----------
    build : callable
        ``build(value_str) -> Link`` for a family parameter, or a fixed :class:`Link` when
        ``solve_for == "delta"``.
    solve_for : str
        ``"delta"`` or the name of the family parameter.
    delta : float or str, optional
        Fixed Δ when solving for a parameter.
    bracket : (lo, hi), optional
        Search range; defaults from :data:`DEFAULT_BRACKETS`.
    grid : int
        Number of scan points.
    dps : int, optional
        Refine each root with mpmath at this many digits (default: float64 Brent).
    certify : bool
        Certify each bracket with Arb enclosures.
    label : str, default ""
        The link's name in the result.
    progress : callable, optional
        ``progress(i, n)`` called during the scan.

    Returns
    -------
    ThresholdResult
        Every root seen on the scan grid, in increasing order, with its bracket and whether
        it is certified, and the scan itself.
    """
    if solve_for == "delta":
        link = build

        def f_float(x):
            return lambda_star_float(link, float(x))

        delta_q = None
    else:
        if delta is None:
            raise NBLInputError(f"solving for {solve_for!r} needs a fixed --delta")
        delta_q = validate_delta(delta)

        def f_float(x):
            return lambda_star_float(build(_fmt(x, 17)), float(delta_q))

    if bracket is None:
        if solve_for not in DEFAULT_BRACKETS:
            raise NBLInputError(f"give --bracket LO HI for parameter {solve_for!r}")
        bracket = DEFAULT_BRACKETS[solve_for]
    lo_q, hi_q = (exact_number(b) for b in bracket)
    if not lo_q < hi_q:
        raise NBLInputError(f"bracket ({lo_q}, {hi_q}) is empty: need LO < HI")
    if solve_for == "delta" and not (delta_inside(lo_q) and delta_inside(hi_q)):
        raise NBLInputError(
            f"delta bracket must lie inside (0, 2), also as float64 numbers, "
            f"got ({bracket[0]}, {bracket[1]})"
        )
    if grid < 3:
        raise NBLInputError("grid must have at least 3 points")
    xs = np.linspace(float(lo_q), float(hi_q), grid)
    vals = np.empty(grid)
    for i, x in enumerate(xs):
        vals[i] = f_float(x)
        if progress:
            progress(i + 1, grid)
    res = ThresholdResult(
        label,
        solve_for,
        {"delta": decimal_str(delta_q)} if delta_q is not None else {},
        (decimal_str(lo_q), decimal_str(hi_q)),
        grid,
        scan=(xs.tolist(), vals.tolist()),
    )
    res.notes.append(
        f"scan of {grid} points, spacing {_fmt(xs[1] - xs[0], 3)}: sign changes "
        "narrower than the spacing are not seen"
    )
    for i in range(grid - 1):
        a, b = vals[i], vals[i + 1]
        if a == 0.0:
            res.notes.append(f"lambda* is 0 to float64 at grid point {_fmt(xs[i])}")
        if a * b < 0:
            res.roots.append(
                _refine(build, solve_for, delta_q, f_float, xs[i], xs[i + 1], a, dps, certify)
            )
        elif b == 0.0 and i + 2 < grid and a * vals[i + 2] < 0:  # a sign change through 0
            res.roots.append(
                _refine(build, solve_for, delta_q, f_float, xs[i], xs[i + 2], a, dps, certify)
            )
    if not res.roots:
        res.notes.append(_no_root_note(vals))
    return res


def _no_root_note(vals: np.ndarray) -> str:
    """What a scan without a sign change saw, in words drawn from its float64 values."""
    finite = vals[np.isfinite(vals)]
    if finite.size and np.all(finite > 0):
        sign = f"lambda* > 0 (stable) at all {finite.size} finite points"
    elif finite.size and np.all(finite < 0):
        sign = f"lambda* < 0 (unstable) at all {finite.size} finite points"
    else:
        pos, neg = int(np.sum(finite > 0)), int(np.sum(finite < 0))
        sign = f"lambda* > 0 at {pos}, < 0 at {neg} and = 0 at {finite.size - pos - neg} points"
    missing = vals.size - finite.size
    return f"no sign change of lambda* in the range: {sign}" + (
        f"; {missing} point(s) not finite" if missing else ""
    )


def _lambda_at(build, solve_for, delta_q, x_str: str, certify: bool, dps=None):
    if solve_for == "delta":
        return stability(build, x_str, certify=certify, dps=dps, auto_raise=True)
    return stability(build(x_str), delta_q, certify=certify, dps=dps, auto_raise=True)


def _refine(build, solve_for, delta_q, f_float, a, b, fa, dps, certify) -> Root:
    root = brentq(f_float, a, b, xtol=1e-15, rtol=1e-15, maxiter=200)
    digits = 15
    if dps:
        work = max(dps, REFINE_MIN_DPS)
        with mpmath.workdps(work + 5):

            def f_mp(x):
                r = _lambda_at(build, solve_for, delta_q, mpmath.nstr(x, work + 3), False, work)
                return r.values["lambda_star"]

            root = mpmath.findroot(
                f_mp,
                (
                    mpmath.mpf(root) - mpmath.mpf(10) ** -12 * max(1, abs(root)),
                    mpmath.mpf(root) + mpmath.mpf(10) ** -12 * max(1, abs(root)),
                ),
                solver="secant",
                tol=mpmath.mpf(10) ** (-2 * work),
            )
            digits = dps
    crossing = "stable->unstable" if fa > 0 else "unstable->stable"
    value = _fmt(root, digits) if not dps else mpmath.nstr(root, digits)
    if not certify:
        return Root(
            value,
            (_fmt(a), _fmt(b)),
            False,
            ("+" if fa > 0 else "-", "-" if fa > 0 else "+"),
            crossing,
        )
    width = mpmath.mpf(10) ** (-(digits - 3)) * max(1, abs(float(root)))
    for _ in range(12):
        with mpmath.workdps(digits + 10):
            lo_s = mpmath.nstr(mpmath.mpf(root) - width, digits + 3)
            hi_s = mpmath.nstr(mpmath.mpf(root) + width, digits + 3)
        r_lo = _lambda_at(build, solve_for, delta_q, lo_s, True)
        r_hi = _lambda_at(build, solve_for, delta_q, hi_s, True)
        signs = (r_lo.sign, r_hi.sign)
        if {"stable", "unstable"} == set(signs):
            sg = tuple("+" if s_ == "stable" else "-" for s_ in signs)
            return Root(value, (lo_s, hi_s), True, sg, crossing)
        width *= 10
        if float(width) > abs(b - a):
            break
    return Root(value, (_fmt(a), _fmt(b)), False, ("?", "?"), crossing)
