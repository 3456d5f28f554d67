"""Shared links g and the potentials φ that induce them.

A :class:`Link` is a strictly increasing shared link g with exact (sympy) first and second
derivatives. It is built

* from an expression in ``z`` (:meth:`Link.from_expression`),
* from a strictly convex potential in ``m`` (:meth:`Link.from_potential`), where g = (φ')⁻¹ is
  *implicit*: g' = 1/φ''(m), g'' = −φ'''(m)/φ''(m)³ (sec:decision_stability_geometry) and every
  expectation is integrated in m through the substitution z = φ'(m); g is never inverted
  numerically inside a quadrature,
* from a named family (:func:`nbl_theory.families.make_family`).

Numerical integration works on a *chart* t ↦ z(t) of the real line. For an expression link
t = z. For a potential on (a, b) the chart is m = a + (b − a)/(1 + e^{−t}) (similar maps for half
lines and ℝ), z = φ'(m(t)), and the integrand weights are

    g(z) dz/dt = m φ''(m) m'(t),   g'(z) dz/dt = m'(t),   g''(z) dz/dt = −φ'''(m)/φ''(m)² m'(t),

so no reciprocal of a vanishing curvature is ever formed.

Validation (:mod:`nbl_theory.link_checks`) refuses a link only with a proven witness (a point
where g' < 0 or φ'' ≤ 0 is certified by Arb, a piece where g' ≡ 0 is shown by sympy, a point
where g is proven undefined or not real). Derivatives come from :mod:`nbl_theory.derivatives`
(size bounded before they are built; d tanh = sech², no cancellation), and float64 values that
overflow in an intermediate are re-evaluated in Arb (:mod:`nbl_theory.link_numeric`). For user
input the constructors raise nothing but :class:`~nbl_theory.errors.NBLInputError`, with a
one-line message (what they accept and how: :mod:`nbl_theory.link_input`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields

import mpmath
import numpy as np
import sympy as sp

from .derivatives import bounded_diff, stable_derivatives, tree_size
from .errors import NBLInputError
from .link_checks import check_expression_link, check_potential_link
from .link_input import (
    M,
    Z,
    as_symbolic,
    guarded,
    parse_domain,
    resolve_signs,
    short_text,
)
from .link_numeric import (
    ExpressionFunction,
    bisect_increasing,
    bisection_tree,
    bracket_t,
    domain_map_mpmath,
    domain_map_numpy,
    lambdify_mpmath,
    lambdify_numpy,
)
from .link_type import LinkType, float_like

__all__ = ["Link", "Z", "M"]

_U = sp.Symbol("u", positive=True)
_CANCEL_MAX_NODES = 120
#: Chart coordinates |t| <= 2^100: where φ' has not reached z by then, z is outside what the
#: toolkit can integrate (the former 2000 doublings let a potential whose φ' stays bounded run
#: mpmath on arguments of 2^2000 and beyond; φ' = log-like growth reaches z = 50 by t ~ 1e22).
_BRACKET_DOUBLINGS = 100
#: A bisection tree (2^16 − 1 evaluations, ~1 MB) is built for a bracket once this many points
#: were inverted in it (a one-off small call does not pay for one; a simulation's calls do);
#: a Link keeps the trees of its last few brackets.
_TREE_MIN_POINTS, _TREES_PER_LINK = 4096, 8


class _LazyDict(dict):
    """Builds each numeric function on first use (lambdify is the costly part of a Link)."""

    def __init__(self, factory):
        super().__init__()
        self._factory = factory

    def __missing__(self, key):
        value = self[key] = self._factory(key)
        return value


class _SidedFunction:
    """f(m, m − lo, hi − m): evaluates a potential derivative in the coordinate of the nearer
    end of the domain (see :meth:`Link._sided_expr`)."""

    def __init__(self, link, key, modules):
        self.modules = modules
        self.f = {}
        lam = lambdify_numpy if modules == "numpy" else lambdify_mpmath
        for side in link._sides:
            self.f[side] = lam(link._sided_expr(side, key), M if side == "mid" else _U)

    def __call__(self, m, left, right):
        f = self.f
        if self.modules == "mpmath":
            if "mid" in f:
                return f["mid"](m)
            if "left" in f and ("right" not in f or left <= right):
                return f["left"](left)
            return f["right"](right)
        m = np.asarray(m, dtype=float)
        if "mid" in f:
            return float_like(f["mid"](m), m)
        left = np.broadcast_to(np.asarray(left, dtype=float), m.shape)
        right = np.broadcast_to(np.asarray(right, dtype=float), m.shape)
        if "right" not in f:
            return float_like(f["left"](left), m)
        if "left" not in f:
            return float_like(f["right"](right), m)
        use_left = left <= right
        out = np.empty(m.shape)
        if np.any(use_left):
            out[use_left] = f["left"](left[use_left])
        if np.any(~use_left):
            out[~use_left] = f["right"](right[~use_left])
        return out


@dataclass(frozen=True, eq=False)
class Link(LinkType):
    """A strictly increasing shared link g (eq:model), with exact derivatives.

    Do not call the constructor directly: use :meth:`from_expression`,
    :meth:`from_potential` or :func:`nbl_theory.families.make_family`.

    Parameters
    ----------
    kind : {"expression", "potential"}
        Whether ``expr`` is the link g(z) itself or a potential φ(m) with g = (φ')⁻¹.
    name : str
        Human-readable name (family name or the expression text).
    expr : sympy.Expr
        g(z) for an expression link, φ(m) for a potential link.
    domain : tuple of sympy numbers
        Domain (lo, hi) of φ (potential links); (−∞, ∞) for expression links.
    params : dict
        Family parameters as exact rationals.
    bounded_derivatives : bool
        True when g, g', g'' are known to be bounded on ℝ (used by the certified tier's tail
        bound); False when this is not known.
    family_name : str or None, default None
        The family a link of :func:`nbl_theory.families.make_family` belongs to (None for
        other links).
    """

    kind: str
    name: str
    expr: sp.Expr
    domain: tuple = (-sp.oo, sp.oo)
    params: dict = field(default_factory=dict)
    bounded_derivatives: bool = False
    family_name: str | None = None

    # ------------------------------------------------------------------ pickling
    def __getstate__(self) -> dict:
        """Only the defining fields travel (to worker processes); compiled caches are rebuilt."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __setstate__(self, state: dict) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_expression(
        cls,
        expr,
        name: str | None = None,
        *,
        params=None,
        bounded_derivatives: bool = False,
        family_name=None,
        validate: bool = True,
    ) -> Link:
        """Build a link from an expression in ``z``.

        Parameters
        ----------
        expr : str or sympy.Expr
            The link g(z). Strings are parsed with the whitelist parser.
        name : str, optional
            The link's name (default: the expression text).
        params : dict, optional
            Family parameters as exact rationals (the :class:`Link` field; default empty).
        bounded_derivatives : bool, default False
            Whether g, g', g'' are known to be bounded on ℝ (the :class:`Link` field).
        family_name : str, optional
            The family the link belongs to (the :class:`Link` field).
        validate : bool
            Check strict monotonicity and Gaussian integrability (default True).

        Returns
        -------
        Link
            The expression link.

        Raises
        ------
        NBLInputError
            Malformed expression or one beyond the parser's bounds, a proven witness that g is
            not strictly increasing or not defined on ℝ, divergent Gaussian integrals, or any
            failure of sympy/lambdify on the input (one line naming what failed).
        """
        text = expr if isinstance(expr, str) else short_text(expr)
        return guarded(
            text,
            "link",
            lambda: cls._from_expression(
                expr, text, name, params, bounded_derivatives, family_name, validate
            ),
        )

    @classmethod
    def _from_expression(
        cls, expr, text, name, params, bounded_derivatives, family_name, validate
    ) -> Link:
        expr = as_symbolic(expr, "z", Z, "link", "link expression")
        if not expr.has(Z):
            raise NBLInputError(
                f"link {text!r} does not depend on z, so it is not strictly increasing"
            )
        link = cls(
            "expression",
            name or text,
            expr,
            (-sp.oo, sp.oo),
            dict(params or {}),
            bounded_derivatives,
            family_name,
        )
        if validate:
            check_expression_link(link)
        return link

    @classmethod
    def from_potential(
        cls,
        expr,
        domain=(0, 1),
        name: str | None = None,
        *,
        params=None,
        bounded_derivatives: bool = False,
        family_name=None,
        validate: bool = True,
    ) -> Link:
        """Build the link g = (φ')⁻¹ induced by a strictly convex potential φ(m).

        Parameters
        ----------
        expr : str or sympy.Expr
            The potential φ(m).
        domain : (lo, hi)
            The open interval on which φ is defined; ``-inf``/``inf`` allowed.
        name : str, optional
            The link's name (default: the potential's text).
        params : dict, optional
            Family parameters as exact rationals (the :class:`Link` field; default empty).
        bounded_derivatives : bool, default False
            Whether g, g', g'' are known to be bounded on ℝ (the :class:`Link` field).
        family_name : str, optional
            The family the link belongs to (the :class:`Link` field).
        validate : bool
            Check strict convexity and the dual domain (default True).

        Returns
        -------
        Link
            The potential link (``kind == "potential"``).

        Raises
        ------
        NBLInputError
            If φ'' ≤ 0 or φ not real is proven at a point of the domain, or its dual domain
            φ'(domain) is not all of ℝ (eq:app_full_dual_domain), or the expression is
            malformed or beyond the parser's bounds, or sympy/lambdify fail on it.
        """
        text = expr if isinstance(expr, str) else short_text(expr)
        return guarded(
            text,
            "potential",
            lambda: cls._from_potential(
                expr, text, domain, name, params, bounded_derivatives, family_name, validate
            ),
        )

    @classmethod
    def _from_potential(
        cls, expr, text, domain, name, params, bounded_derivatives, family_name, validate
    ) -> Link:
        expr = as_symbolic(expr, "m", M, "potential", "potential")
        lo, hi = parse_domain(domain)
        if expr.has(sp.Abs, sp.sign):
            expr = resolve_signs(expr, lo, hi)
        link = cls(
            "potential",
            name or text,
            expr,
            (lo, hi),
            dict(params or {}),
            bounded_derivatives,
            family_name,
        )
        if validate:
            check_potential_link(link)
        return link

    # ------------------------------------------------------------------ exact derivatives
    @functools.cached_property
    def raw_derivatives(self) -> dict:
        """Plain sympy derivatives (``sp.diff``), before the float-stable rewriting of
        :attr:`derivatives`; ball arithmetic encloses these more tightly (tanh stays tanh)."""
        if self.kind == "expression":
            g1 = bounded_diff(self.expr, Z, "g'")
            return {"g": self.expr, "g1": g1, "g2": bounded_diff(g1, Z, "g''")}
        return self.derivatives

    @functools.cached_property
    def derivatives(self) -> dict:
        """Exact sympy derivatives.

        Expression links: ``g, g1, g2`` in z. Potential links: ``phi, phi1, phi2, phi3`` in m and
        ``g1_m = 1/φ''``, ``g2_m = −φ'''/φ''³`` (sec:decision_stability_geometry).
        """
        if self.kind == "expression":
            g1, g2 = stable_derivatives(self.expr, Z)  # d tanh = sech², no cancellation
            return {"g": self.expr, "g1": g1, "g2": g2}
        phi = self.expr
        phi1 = bounded_diff(phi, M, "phi'")
        phi2 = bounded_diff(phi1, M, "phi''")
        phi3 = bounded_diff(phi2, M, "phi'''")
        return {
            "phi": phi,
            "phi1": phi1,
            "phi2": phi2,
            "phi3": phi3,
            "g1_m": 1 / phi2,  # g'(z) = 1/φ''(m)
            "g2_m": -phi3 / phi2**3,  # g''(z) = −φ'''(m)/φ''(m)³
        }

    @property
    def variable(self) -> sp.Symbol:
        """The link's own sympy variable: z for an expression link, m for a potential link."""
        return Z if self.kind == "expression" else M

    # ------------------------------------------------------------------ numeric evaluators
    def _sided_expr(self, side: str, key: str):
        """Potential derivative ``key`` written in the distance u to the nearer end of the
        domain (m = lo + u on the left half, m = hi − u on the right half), rational parts
        cancelled, so that log(1 − m), 1/(1 − m)², ... keep full relative accuracy near the
        ends. ``side == "mid"`` (domain ℝ) keeps m."""
        cache = self.__dict__.setdefault("_sided_cache", {})
        if (side, key) not in cache:
            v = self.derivatives[key]
            if side != "mid":
                point, sign = (self.domain[0], 1) if side == "left" else (self.domain[1], -1)
                v = v.subs(M, point + sign * _U)
                if _cancel_is_cheap(v):
                    try:
                        v = sp.cancel(v)
                    except (sp.PolynomialError, TypeError, ValueError):  # pragma: no cover
                        pass
            cache[(side, key)] = v
        return cache[(side, key)]

    @property
    def _sides(self) -> tuple:
        lo, hi = self.domain
        sides = tuple(n for n, p in (("left", lo), ("right", hi)) if p.is_finite)
        return sides or ("mid",)

    @functools.cached_property
    def _np(self) -> dict:
        if self.kind == "expression":
            return _LazyDict(lambda k: ExpressionFunction(self.derivatives[k], Z))
        return _LazyDict(lambda k: _SidedFunction(self, k, "numpy"))

    @functools.cached_property
    def _dual_trees(self) -> dict:
        """(t_lo, t_hi) -> the bisection tree of :func:`_invert_dual` for that bracket."""
        return {}

    @functools.cached_property
    def _dual_points(self) -> dict:
        """(t_lo, t_hi) -> points inverted in that bracket so far without a tree."""
        return {}

    @functools.cached_property
    def _mp(self) -> dict:
        if self.kind == "expression":
            return _LazyDict(lambda k: lambdify_mpmath(self.derivatives[k], Z))
        return _LazyDict(lambda k: _SidedFunction(self, k, "mpmath"))

    def chart_numpy(self, t: np.ndarray, group: int | None = None):
        """Float64 chart: return (z, w0, w1, w2) with w_j = g^{(j)}(z) dz/dt at nodes t.

        ``group=1`` computes only w1 (others None), ``group=2`` only w0 and w2.

        Parameters
        ----------
        t : numpy.ndarray
            Chart points (z itself for an expression link).
        group : {None, 1, 2}, optional
            Which weights to compute: all (None), only w1 (1) or only w0 and w2 (2).

        Returns
        -------
        tuple of numpy.ndarray or None
            ``(z, w0, w1, w2)``, each of the shape of ``t``; the weights not asked for are None.
        """
        f = self._np
        need1, need02 = group in (None, 1), group in (None, 2)
        if self.kind == "expression":
            return (
                t,
                f["g"](t) if need02 else None,
                f["g1"](t) if need1 else None,
                f["g2"](t) if need02 else None,
            )
        m, left, right, dm = domain_map_numpy(self.domain, t)
        z = f["phi1"](m, left, right)
        if not need02:
            return z, None, dm, None
        phi2 = f["phi2"](m, left, right)
        return z, m * phi2 * dm, dm, -f["phi3"](m, left, right) / phi2**2 * dm

    def chart_mpmath(self, t):
        """Arbitrary-precision chart; same contract as :meth:`chart_numpy` for one node.

        Parameters
        ----------
        t : mpmath.mpf
            One chart point (z itself for an expression link; the chart coordinate of m for a
            potential link).

        Returns
        -------
        tuple of mpmath.mpf
            ``(z, w0, w1, w2)`` with w_j = g^{(j)}(z) dz/dt at ``t``, at the working precision.
        """
        f = self._mp
        if self.kind == "expression":
            return t, f["g"](t), f["g1"](t), f["g2"](t)
        m, left, right, dm = domain_map_mpmath(self.domain, t)
        phi2 = f["phi2"](m, left, right)
        return (
            f["phi1"](m, left, right),
            m * phi2 * dm,
            dm,
            -f["phi3"](m, left, right) / phi2**2 * dm,
        )

    def variable_of_t_numpy(self, t):
        """The link's own variable at chart points t: z for an expression link, m(t) for a
        potential.

        Parameters
        ----------
        t : array_like
            Chart points.

        Returns
        -------
        numpy.ndarray
            z (the chart points themselves) or m(t), of the shape of ``t``.
        """
        if self.kind == "expression":
            return np.asarray(t, dtype=float)
        return domain_map_numpy(self.domain, np.asarray(t, dtype=float))[0]

    def z_of_t_numpy(self, t):
        """The index value z at chart points t: t itself, or φ'(m(t)) for a potential link.

        Parameters
        ----------
        t : array_like
            Chart points.

        Returns
        -------
        numpy.ndarray
            z(t), of the shape of ``t``.
        """
        if self.kind == "expression":
            return np.asarray(t, dtype=float)
        m, left, right, _ = domain_map_numpy(self.domain, np.asarray(t, dtype=float))
        return self._np["phi1"](m, left, right)

    def t_range(self, zlo: float, zhi: float) -> tuple[float, float]:
        """Chart interval [t₋, t₊] whose image under z(t) contains [zlo, zhi].

        For potentials this brackets φ'(m(t)) = zlo, zhi by expansion and bisection in t
        (outside any quadrature).

        Parameters
        ----------
        zlo, zhi : float
            The ends of the wanted interval of the index axis, zlo < zhi.

        Returns
        -------
        tuple of float
            ``(t_lo, t_hi)``; for an expression link ``(zlo, zhi)`` itself.
        """
        if self.kind == "expression":
            return float(zlo), float(zhi)
        return bracket_t(self.z_of_t_numpy, zlo, "lo"), bracket_t(self.z_of_t_numpy, zhi, "hi")

    # numeric g, g', g'' in z (for plots and simulation); potentials invert φ' by bisection
    def g_numpy(self, z):
        """g(z) in float64 (potential links invert φ' by vectorized bisection).

        Parameters
        ----------
        z : array_like
            Points of the index axis.

        Returns
        -------
        float or numpy.ndarray
            g(z), of the shape of ``z``.
        """
        z = np.asarray(z, dtype=float)
        if self.kind == "expression":
            return float_like(self._np["g"](z), z)
        return _invert_dual(self, z)

    def g_numpy_rows(self, rows) -> list:
        """[g_numpy(r) for r in rows] with the same bits; a potential link bisects the rows
        whose brackets agree in one call (much faster for many small rows).

        Parameters
        ----------
        rows : iterable of array_like
            Arrays of points z (any shapes).

        Returns
        -------
        list of numpy.ndarray
            g at each row, bit-identical to :meth:`g_numpy` of that row.
        """
        rows = [np.asarray(r, dtype=float) for r in rows]
        if self.kind == "expression" or not rows:
            return [self.g_numpy(r) for r in rows]
        return _invert_dual_rows(self, rows)

    def g_numpy_raw(self, z):
        """g(z) in float64 as :meth:`g_numpy` gives it wherever that value is finite — the
        lambdified expression itself, element by element — but with no re-evaluation of the
        points where float64 overflows (they stay NaN or inf). Expression links only.

        Parameters
        ----------
        z : array_like
            Points of the index axis.

        Returns
        -------
        float or numpy.ndarray
            g(z) of the shape of ``z``; NaN or inf where float64 overflows.

        Raises
        ------
        NBLInputError
            The link is a potential link.
        """
        if self.kind != "expression":
            raise NBLInputError(
                f"g_numpy_raw is for expression links; {self.name!r} is a potential"
            )
        z = np.asarray(z, dtype=float)
        with np.errstate(all="ignore"):
            return float_like(self._np["g"].f(z), z)

    def derivative_numpy(self, z, order: int):
        """g^{(order)}(z), order 0, 1, 2, in float64.

        Parameters
        ----------
        z : array_like
            Points of the index axis.
        order : {0, 1, 2}
            The derivative's order.

        Returns
        -------
        float or numpy.ndarray
            g^{(order)}(z), of the shape of ``z`` (a float for a scalar ``z``).
        """
        z = np.asarray(z, dtype=float)
        if self.kind == "expression":
            key = ("g", "g1", "g2")[order]
            return float_like(self._np[key](z), z)
        t = _invert_dual(self, z, return_t=True)
        with np.errstate(all="ignore"):
            m, left, right, _ = domain_map_numpy(self.domain, t)
        if order == 0:
            return m
        key = ("g1_m", "g2_m")[order - 1]
        return float_like(self._np[key](m, left, right), z)

    def potential_numpy(self, key: str, t):
        """(m(t), the φ-derivative ``key`` at m(t)) in float64 at chart points t (potential
        links; ``key`` one of phi, phi1, phi2, phi3, g1_m, g2_m).

        Parameters
        ----------
        key : {"phi", "phi1", "phi2", "phi3", "g1_m", "g2_m"}
            Which φ-derivative (or g', g'' as functions of m).
        t : array_like
            Chart points.

        Returns
        -------
        tuple of numpy.ndarray
            ``(m, value)``: the points m(t) of the domain and the derivative ``key`` there.
        """
        m, left, right, _ = domain_map_numpy(self.domain, np.asarray(t, dtype=float))
        return m, float_like(self._np[key](m, left, right), m)

    def potential_derivative_mpmath(self, key: str, z):
        """g (``key == "g"``), g' (``"g1_m"``) or g'' (``"g2_m"``) of a potential link at one z,
        in mpmath at the working precision (bisection in the chart variable).

        Parameters
        ----------
        key : {"g", "g1_m", "g2_m"}
            Which value: g(z), g'(z) or g''(z).
        z : mpmath.mpf
            One point of the index axis.

        Returns
        -------
        mpmath.mpf
            The value at the working precision.

        Raises
        ------
        NBLInputError
            φ' does not reach ``z`` within 2^100 chart units (the dual coordinate cannot be
            bracketed).
        """
        zfun = self._mp["phi1"]
        lo, hi = mpmath.mpf(-1), mpmath.mpf(1)
        for _ in range(_BRACKET_DOUBLINGS):  # expand until φ'(m(t)) brackets z
            if _chart_z_mp(self, zfun, lo) <= z:
                break
            lo *= 2
        else:
            raise NBLInputError(
                f"could not bracket the dual coordinate: phi' does not reach "
                f"{z} for chart coordinates |t| <= 2^{_BRACKET_DOUBLINGS}"
            )
        for _ in range(_BRACKET_DOUBLINGS):
            if _chart_z_mp(self, zfun, hi) >= z:
                break
            hi *= 2
        else:
            raise NBLInputError(
                f"could not bracket the dual coordinate: phi' does not reach "
                f"{z} for chart coordinates |t| <= 2^{_BRACKET_DOUBLINGS}"
            )
        for _ in range(mpmath.mp.prec + 20):
            mid = (lo + hi) / 2
            if _chart_z_mp(self, zfun, mid) < z:
                lo = mid
            else:
                hi = mid
        m, left, right, _ = domain_map_mpmath(self.domain, (lo + hi) / 2)
        if key == "g":
            return m
        return self._mp[key](m, left, right)

    # ------------------------------------------------------------------ presentation
    @functools.cached_property
    def _description(self) -> str:
        if self.kind == "expression":
            s = f"g(z) = {sp.sstr(self.expr)}"
        else:
            lo, hi = self.domain
            s = f"g = (phi')^-1, phi(m) = {sp.sstr(self.expr)} on ({lo}, {hi})"
        return s

    def describe(self) -> str:
        """One-line description of g (or of φ and its domain).

        Returns
        -------
        str
            E.g. ``g(z) = tanh(z)``, or φ(m) with its domain for a potential link.
        """
        return self._description

    def __repr__(self) -> str:  # pragma: no cover - cosmetic
        return f"Link({self.name!r}, {self.describe()})"


# ---------------------------------------------------------------------- helpers
def _cancel_is_cheap(v) -> bool:
    """sympy's cancel has no time bound (a 370-node derivative of sigmoid(Phi(sigmoid(m)))
    takes 12 s): it is applied to small expressions whose powers of u are small integers only
    (all the paper's potentials: their derivatives have at most 61 nodes)."""
    if tree_size(v) > _CANCEL_MAX_NODES:
        return False
    return all(
        not p.base.has(_U) or (p.exp.is_Integer and abs(p.exp) <= 20) for p in v.atoms(sp.Pow)
    )


def _invert_dual(link: Link, z: np.ndarray, return_t: bool = False) -> np.ndarray:
    """m = g(z) = (φ')⁻¹(z) by vectorized bisection in the chart variable (for plots and
    simulation): :func:`~nbl_theory.link_numeric.bisect_increasing`, with the first levels of
    its tree kept per bracket on the link (the brackets of :func:`bracket_t` are few)."""
    z = np.asarray(z, dtype=float)
    (t,) = _dual_t(link, [z.ravel()])
    if return_t:
        return t.reshape(z.shape)
    with np.errstate(all="ignore"):
        m, _, _, _ = domain_map_numpy(link.domain, t)
    return m.reshape(z.shape)


def _invert_dual_rows(link: Link, rows: list) -> list:
    """[_invert_dual(link, r) for r in rows], the same bits: each row is bisected in the
    bracket of its own extremes, and the rows sharing a bracket in one call (the bisection and
    the chart map are elementwise), which saves the per-call cost of ~50 steps on small rows."""
    ts = _dual_t(link, [r.ravel() for r in rows])
    with np.errstate(all="ignore"):
        m, _, _, _ = domain_map_numpy(link.domain, np.concatenate(ts))
    parts = np.split(m, np.cumsum([t.size for t in ts])[:-1])
    return [part.reshape(r.shape) for part, r in zip(parts, rows)]


def _dual_t(link: Link, flats: list) -> list:
    """The chart points t with φ'(m(t)) = z of each 1-D array z of ``flats``, bisected in
    the bracket :meth:`Link.t_range` gives its extremes; arrays with the same bracket share
    one call of :func:`bisect_increasing`."""
    groups: dict = {}
    for i, flat in enumerate(flats):
        key = link.t_range(float(flat.min()) - 1, float(flat.max()) + 1)
        groups.setdefault(key, []).append(i)
    out = [None] * len(flats)
    trees, seen = link._dual_trees, link._dual_points
    for key, idx in groups.items():
        flat = np.concatenate([flats[i] for i in idx])
        if key not in trees:
            seen[key] = seen.get(key, 0) + flat.size
            if seen[key] >= _TREE_MIN_POINTS:
                while len(trees) >= _TREES_PER_LINK:  # the oldest bracket's tree goes
                    trees.pop(next(iter(trees)))
                trees[key] = bisection_tree(link.z_of_t_numpy, *key)
                del seen[key]
        t = bisect_increasing(link.z_of_t_numpy, flat, *key, trees.get(key))
        for i, part in zip(idx, np.split(t, np.cumsum([flats[i].size for i in idx])[:-1])):
            out[i] = part
    return out


def _chart_z_mp(link: Link, zfun, t):
    m, left, right, _ = domain_map_mpmath(link.domain, t)
    return zfun(m, left, right)
