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
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields

import mpmath
import numpy as np
import scipy.special
import sympy as sp

from .errors import DivergentIntegralError, NBLInputError
from .expressions import exact_number, parse_expression

__all__ = ["Link", "Z", "M"]

#: The dual coordinate (index) variable of a link.
Z = sp.Symbol("z", real=True)
#: The primal (mean) variable of a potential.
M = sp.Symbol("m", real=True)

_NUMPY_MODULES = [{"erf": scipy.special.erf, "erfc": scipy.special.erfc}, "numpy"]
_GRID = np.linspace(-40.0, 40.0, 4001)
_U = sp.Symbol("u", positive=True)


def _lambdify_numpy(expr, var):
    f = sp.lambdify(var, expr, modules=_NUMPY_MODULES)
    if not expr.has(var):  # constant: broadcast
        const = float(expr)
        return lambda x: np.full(np.shape(x), const)
    return f


def _lambdify_mpmath(expr, var):
    f = sp.lambdify(var, expr, modules="mpmath")
    if not expr.has(var):
        return lambda x, _c=expr: mpmath.mpf(sp.Float(_c, mpmath.mp.dps + 5))
    return f


def _stabilize(expr):
    """Rewrite tanh(a)² as 1 − 1/cosh(a)², an identity, so that sympy's derivative of tanh,
    1 − tanh², is evaluated without catastrophic cancellation in the tails (float64 tier)."""

    def is_tanh_power(e):
        return e.is_Pow and isinstance(e.base, sp.tanh) and e.exp.is_Integer and e.exp >= 2

    def rewrite(e):
        a = e.base.args[0]
        k = int(e.exp)
        return (1 - 1 / sp.cosh(a) ** 2) ** (k // 2) * (sp.tanh(a) if k % 2 else 1)

    out = expr.replace(is_tanh_power, rewrite)
    return sp.expand(out) if out != expr else expr


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
        lam = _lambdify_numpy if modules == "numpy" else _lambdify_mpmath
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
            return np.asarray(f["mid"](m), dtype=float) * np.ones_like(m)
        left = np.broadcast_to(np.asarray(left, dtype=float), m.shape)
        right = np.broadcast_to(np.asarray(right, dtype=float), m.shape)
        if "right" not in f:
            return np.asarray(f["left"](left), dtype=float) * np.ones_like(m)
        if "left" not in f:
            return np.asarray(f["right"](right), dtype=float) * np.ones_like(m)
        use_left = left <= right
        out = np.empty(m.shape)
        if np.any(use_left):
            out[use_left] = f["left"](left[use_left])
        if np.any(~use_left):
            out[~use_left] = f["right"](right[~use_left])
        return out


@dataclass(frozen=True, eq=False)
class Link:
    """A strictly increasing shared link g (eq:model), with exact derivatives.

    Do not call the constructor directly: use :meth:`from_expression`,
    :meth:`from_potential` or :func:`nbl_theory.families.make_family`.

    Attributes
    ----------
    kind : {"expression", "potential"}
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
        validate : bool
            Check strict monotonicity and Gaussian integrability (default True).

        Raises
        ------
        NBLInputError
            Malformed expression, g not strictly increasing, or divergent Gaussian integrals.
        """
        text = expr if isinstance(expr, str) else str(expr)
        if isinstance(expr, str):
            expr = parse_expression(expr, "z")
        elif isinstance(expr, sp.Basic):
            stray = {str(s) for s in expr.free_symbols} - {"z"}
            if stray:
                raise NBLInputError(
                    f"link expression has free symbols other than z: {sorted(stray)}"
                )
            expr = expr.subs(sp.Symbol("z"), Z)
        else:
            raise NBLInputError(
                f"link must be a string or sympy expression, got {type(expr).__name__}"
            )
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
            link._validate_expression()
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

        Raises
        ------
        NBLInputError
            If φ is not strictly convex on the domain, or its dual domain φ'(domain) is not all
            of ℝ (eq:app_full_dual_domain), or the expression is malformed.
        """
        text = expr if isinstance(expr, str) else str(expr)
        if isinstance(expr, str):
            expr = parse_expression(expr, "m")
        elif isinstance(expr, sp.Basic):
            stray = {str(s) for s in expr.free_symbols} - {"m"}
            if stray:
                raise NBLInputError(f"potential has free symbols other than m: {sorted(stray)}")
            expr = expr.subs(sp.Symbol("m"), M)
        else:
            raise NBLInputError(
                f"potential must be a string or sympy expression, got {type(expr).__name__}"
            )
        lo, hi = _parse_domain(domain)
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
            link._validate_potential()
        return link

    # ------------------------------------------------------------------ exact derivatives
    @functools.cached_property
    def raw_derivatives(self) -> dict:
        """Plain sympy derivatives (``sp.diff``), before the float-stable rewriting of
        :attr:`derivatives`; ball arithmetic encloses these more tightly (tanh stays tanh)."""
        if self.kind == "expression":
            g1 = sp.diff(self.expr, Z)
            return {"g": self.expr, "g1": g1, "g2": sp.diff(g1, Z)}
        return self.derivatives

    @functools.cached_property
    def derivatives(self) -> dict:
        """Exact sympy derivatives.

        Expression links: ``g, g1, g2`` in z. Potential links: ``phi, phi1, phi2, phi3`` in m and
        ``g1_m = 1/φ''``, ``g2_m = −φ'''/φ''³`` (sec:decision_stability_geometry).
        """
        if self.kind == "expression":
            g = self.expr
            raw = self.raw_derivatives
            return {"g": g, "g1": _stabilize(raw["g1"]), "g2": _stabilize(raw["g2"])}
        phi = self.expr
        phi1 = sp.diff(phi, M)
        phi2 = sp.diff(phi1, M)
        phi3 = sp.diff(phi2, M)
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
            return _LazyDict(lambda k: _lambdify_numpy(self.derivatives[k], Z))
        return _LazyDict(lambda k: _SidedFunction(self, k, "numpy"))

    @functools.cached_property
    def _mp(self) -> dict:
        if self.kind == "expression":
            return _LazyDict(lambda k: _lambdify_mpmath(self.derivatives[k], Z))
        return _LazyDict(lambda k: _SidedFunction(self, k, "mpmath"))

    def chart_numpy(self, t: np.ndarray, group: int | None = None):
        """Float64 chart: return (z, w0, w1, w2) with w_j = g^{(j)}(z) dz/dt at nodes t.

        ``group=1`` computes only w1 (others None), ``group=2`` only w0 and w2.
        """
        f = self._np
        need1, need02 = group in (None, 1), group in (None, 2)
        if self.kind == "expression":
            return (t, f["g"](t) if need02 else None, f["g1"](t) if need1 else None,
                    f["g2"](t) if need02 else None)
        m, left, right, dm = _domain_map_numpy(self.domain, t)
        z = f["phi1"](m, left, right)
        if not need02:
            return z, None, dm, None
        phi2 = f["phi2"](m, left, right)
        return z, m * phi2 * dm, dm, -f["phi3"](m, left, right) / phi2**2 * dm

    def chart_mpmath(self, t):
        """Arbitrary-precision chart; same contract as :meth:`chart_numpy` for one node."""
        f = self._mp
        if self.kind == "expression":
            return t, f["g"](t), f["g1"](t), f["g2"](t)
        m, left, right, dm = _domain_map_mpmath(self.domain, t)
        phi2 = f["phi2"](m, left, right)
        return (
            f["phi1"](m, left, right),
            m * phi2 * dm,
            dm,
            -f["phi3"](m, left, right) / phi2**2 * dm,
        )

    def variable_of_t_numpy(self, t):
        """The link's own variable at chart points t: z for an expression link, m(t) for a
        potential."""
        if self.kind == "expression":
            return np.asarray(t, dtype=float)
        return _domain_map_numpy(self.domain, np.asarray(t, dtype=float))[0]

    def z_of_t_numpy(self, t):
        if self.kind == "expression":
            return np.asarray(t, dtype=float)
        m, left, right, _ = _domain_map_numpy(self.domain, np.asarray(t, dtype=float))
        return self._np["phi1"](m, left, right)

    def t_range(self, zlo: float, zhi: float) -> tuple[float, float]:
        """Chart interval [t₋, t₊] whose image under z(t) contains [zlo, zhi].

        For potentials this brackets φ'(m(t)) = zlo, zhi by expansion and bisection in t
        (outside any quadrature).
        """
        if self.kind == "expression":
            return float(zlo), float(zhi)
        return _bracket_t(self.z_of_t_numpy, zlo, "lo"), _bracket_t(self.z_of_t_numpy, zhi, "hi")

    # numeric g, g', g'' in z (for plots and simulation); potentials invert φ' by bisection
    def g_numpy(self, z):
        """g(z) in float64 (potential links invert φ' by vectorized bisection)."""
        z = np.asarray(z, dtype=float)
        if self.kind == "expression":
            return np.asarray(self._np["g"](z), dtype=float) * np.ones_like(z)
        return _invert_dual(self, z)

    def derivative_numpy(self, z, order: int):
        """g^{(order)}(z), order 0, 1, 2, in float64."""
        z = np.asarray(z, dtype=float)
        if self.kind == "expression":
            key = ("g", "g1", "g2")[order]
            return np.asarray(self._np[key](z), dtype=float) * np.ones_like(z)
        m = _invert_dual(self, z)
        if order == 0:
            return m
        key = ("g1_m", "g2_m")[order - 1]
        t = _invert_dual(self, z, return_t=True)
        m, left, right, _ = _domain_map_numpy(self.domain, t)
        return np.asarray(self._np[key](m, left, right), dtype=float) * np.ones_like(z)

    # ------------------------------------------------------------------ validation
    def _validate_expression(self) -> None:
        d = self.derivatives
        _check_gaussian_integrability(self.name, [("g", d["g"]), ("g'", d["g1"]), ("g''", d["g2"])])
        with np.errstate(all="ignore"):
            g1 = np.asarray(self._np["g1"](_GRID), dtype=float) * np.ones_like(_GRID)
            g0 = np.asarray(self._np["g"](_GRID), dtype=float) * np.ones_like(_GRID)
        core = np.abs(_GRID) <= 10
        if not np.all(np.isfinite(g0[core])) or not np.all(np.isfinite(g1[core])):
            bad = _GRID[core][~(np.isfinite(g0[core]) & np.isfinite(g1[core]))][0]
            raise NBLInputError(
                f"link {self.name!r} is not finite at z = {bad:g} (g must be defined on all of R)"
            )
        finite = np.isfinite(g1)
        scale = np.max(np.abs(g1[finite]))
        if np.any(g1[finite] < -1e-12 * scale):
            i = int(np.argmin(np.where(finite, g1, np.inf)))
            raise NBLInputError(
                f"link {self.name!r} is not strictly increasing: g'({_GRID[i]:g}) = {g1[i]:.3g} < 0"
            )
        if scale == 0 or np.count_nonzero(g1[core] <= 0) > 1:
            raise NBLInputError(
                f"link {self.name!r} is not strictly increasing: g' vanishes on an interval"
            )

    def _validate_potential(self) -> None:
        lo, hi = self.domain
        d = self.derivatives
        # strict convexity on a grid of the domain (in the chart variable)
        t = np.linspace(-30, 30, 3001)
        with np.errstate(all="ignore"):
            m, left, right, _ = _domain_map_numpy(self.domain, t)
            phi2 = np.asarray(self._np["phi2"](m, left, right), dtype=float) * np.ones_like(m)
        ok = np.isfinite(phi2)
        if not np.any(ok):
            raise NBLInputError(f"potential {self.name!r} has no finite curvature on its domain")
        if np.any(phi2[ok] <= 0):
            i = int(np.argmin(np.where(ok, phi2, np.inf)))
            raise NBLInputError(
                f"potential {self.name!r} is not strictly convex on ({lo}, {hi}): "
                f"phi''({m[i]:.6g}) = {phi2[i]:.3g} <= 0"
            )
        simplified = sp.simplify(d["phi2"])
        if simplified.is_number and not simplified.is_positive:
            raise NBLInputError(
                f"potential {self.name!r} is not strictly convex: phi'' = {simplified}"
            )
        # dual domain must be all of R (eq:app_full_dual_domain)
        left = _one_sided_limit(d["phi1"], lo, "+")
        right = _one_sided_limit(d["phi1"], hi, "-")
        if left != -sp.oo or right != sp.oo:
            raise NBLInputError(
                f"potential {self.name!r}: dual domain phi'(({lo}, {hi})) = ({left}, {right}) "
                "does not "
                "cover R, so g = (phi')^-1 is not defined on the support of the Gaussian index "
                "(eq:app_full_dual_domain)"
            )
        _check_gaussian_integrability(self.name, [
            (label, functools.partial(_potential_value_mp, self, key))
            for label, key in (("g", "g"), ("g'", "g1_m"), ("g''", "g2_m"))
        ])

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
        """One-line description of g (or of φ and its domain)."""
        return self._description

    def __repr__(self) -> str:  # pragma: no cover - cosmetic
        return f"Link({self.name!r}, {self.describe()})"


# ---------------------------------------------------------------------- helpers
def _parse_domain(domain) -> tuple:
    if isinstance(domain, str):
        parts = domain.split(",")
        if len(parts) != 2:
            raise NBLInputError(f"domain must be 'LO,HI', got {domain!r}")
        domain = parts
    try:
        lo_raw, hi_raw = domain
    except (TypeError, ValueError):
        raise NBLInputError(f"domain must be a pair (lo, hi), got {domain!r}") from None

    def conv(v):
        if isinstance(v, sp.Basic):
            return v
        if isinstance(v, float) and np.isinf(v):
            return sp.oo if v > 0 else -sp.oo
        s = str(v).strip().lower()
        if s in {"inf", "+inf", "oo", "infinity"}:
            return sp.oo
        if s in {"-inf", "-oo", "-infinity"}:
            return -sp.oo
        return exact_number(v)

    lo, hi = conv(lo_raw), conv(hi_raw)
    if not lo < hi:
        raise NBLInputError(f"domain ({lo}, {hi}) is empty: need lo < hi")
    return lo, hi


def _one_sided_limit(expr, point, direction):
    if point in (sp.oo, -sp.oo):
        return sp.limit(expr, M, point)
    return sp.limit(expr, M, point, dir=direction)


def _domain_map_numpy(domain, t):
    """Chart of the domain: returns (m, m − lo, hi − m, dm/dt) at t (inf where unbounded)."""
    lo, hi = domain
    t = np.asarray(t, dtype=float)
    if lo.is_finite and hi.is_finite:
        a, b = float(lo), float(hi)
        w = b - a
        left = w / (1.0 + np.exp(-t))  # m − a
        right = w / (1.0 + np.exp(t))  # b − m
        m = np.where(t < 0, a + left, b - right)
        return m, left, right, left * right / w
    inf = np.full_like(t, np.inf)
    if lo.is_finite:
        e = np.exp(t)
        return float(lo) + e, e, inf, e
    if hi.is_finite:
        e = np.exp(-t)
        return float(hi) - e, inf, e, e
    return t, inf, inf, np.ones_like(t)


def _mp_exact(q):
    return mpmath.mpf(q.p) / q.q if q.is_Rational else mpmath.mpf(sp.Float(q, mpmath.mp.dps + 5))


def _domain_map_mpmath(domain, t):
    lo, hi = domain
    if lo.is_finite and hi.is_finite:
        a, b = _mp_exact(lo), _mp_exact(hi)
        w = b - a
        left = w / (1 + mpmath.exp(-t))
        right = w / (1 + mpmath.exp(t))
        m = a + left if t < 0 else b - right
        return m, left, right, left * right / w
    if lo.is_finite:
        e = mpmath.exp(t)
        return _mp_exact(lo) + e, e, mpmath.inf, e
    if hi.is_finite:
        e = mpmath.exp(-t)
        return _mp_exact(hi) - e, mpmath.inf, e, e
    return t, mpmath.inf, mpmath.inf, mpmath.mpf(1)


def _bracket_t(zfun, target: float, side: str) -> float:
    """Find t with z(t) beyond ``target`` (z is increasing in t)."""
    with np.errstate(all="ignore"):
        step = 1.0
        t = 0.0
        for _ in range(200):
            z = float(zfun(np.array([t]))[0])
            if (side == "lo" and z <= target) or (side == "hi" and z >= target):
                return t
            t = t - step if side == "lo" else t + step
            step *= 1.5
    raise NBLInputError(f"could not bracket the dual coordinate: phi' does not reach {target:g}")


def _invert_dual(link: Link, z: np.ndarray, return_t: bool = False) -> np.ndarray:
    """m = g(z) = (φ')⁻¹(z) by vectorized bisection in the chart variable (for plots/simulation)."""
    z = np.asarray(z, dtype=float)
    flat = z.ravel()
    t_lo, t_hi = link.t_range(float(flat.min()) - 1, float(flat.max()) + 1)
    tlo = np.full(flat.shape, t_lo)
    thi = np.full(flat.shape, t_hi)
    with np.errstate(all="ignore"):
        for _ in range(80):
            mid = 0.5 * (tlo + thi)
            up = link.z_of_t_numpy(mid) < flat
            tlo = np.where(up, mid, tlo)
            thi = np.where(up, thi, mid)
        t = 0.5 * (tlo + thi)
        if return_t:
            return t.reshape(z.shape)
        m, _, _, _ = _domain_map_numpy(link.domain, t)
    return m.reshape(z.shape)


def _check_gaussian_integrability(name: str, items) -> None:
    """Reject links whose Gaussian integrals E|g^{(j)}(Z)| diverge or whose growth outruns the
    Gaussian weight too late for the quadratures (|f(z)| φ(z) z² must be ≤ 1e-60 at |z| = 25
    and 50; polynomial growth, assum:polygrowth_g, passes with room to spare).

    ``items`` are (label, f) with ``f(z) -> mpf`` (or a sympy expression in z)."""
    with mpmath.workdps(30):
        for label, f in items:
            if isinstance(f, sp.Basic):
                f = _lambdify_mpmath(f, Z)
            weighted = {}
            for zz in (25, 50, -25, -50):
                try:
                    raw = f(mpmath.mpf(zz))
                except (ZeroDivisionError, OverflowError, ValueError, TypeError):
                    raise NBLInputError(
                        f"{label} of link {name!r} cannot be evaluated at z = {zz}"
                    ) from None
                if isinstance(raw, mpmath.mpc) and raw.imag != 0:
                    raise NBLInputError(
                        f"link {name!r} is not finite/real at z = {zz} "
                        "(g must be defined on all of R)"
                    )
                weighted[zz] = abs(raw) * mpmath.npdf(zz) * zz**2
            for zz in (25, -25):
                w, w_far = weighted[zz], weighted[2 * zz]
                if not mpmath.isfinite(w_far) or w_far > w or not mpmath.isfinite(w):
                    raise DivergentIntegralError(
                        f"Gaussian integral E|{label}(Z)| diverges for link {name!r}: "
                        f"|{label}(z)| phi(z) z^2 = {mpmath.nstr(w, 3)} at z = {zz} "
                        f"and {mpmath.nstr(w_far, 3)} at z = {2 * zz} does not decay"
                    )
                if w > mpmath.mpf("1e-60") or w_far > mpmath.mpf("1e-60"):
                    raise DivergentIntegralError(
                        f"{label} of link {name!r} grows too fast for the toolkit's Gaussian "
                        f"integrals: |{label}(z)| phi(z) z^2 = {mpmath.nstr(w, 3)} at z = {zz} "
                        "(it must be below 1e-60 by |z| = 25; polynomial growth as in "
                        "assum:polygrowth_g passes)"
                    )


def _potential_value_mp(link: Link, key: str, z):
    """g, g' or g'' of a potential link at one z, in mpmath (bisection in the chart variable)."""
    zfun = link._mp["phi1"]
    lo, hi = mpmath.mpf(-1), mpmath.mpf(1)
    for _ in range(2000):  # expand until φ'(m(t)) brackets z
        if _chart_z_mp(link, zfun, lo) <= z:
            break
        lo *= 2
    for _ in range(2000):
        if _chart_z_mp(link, zfun, hi) >= z:
            break
        hi *= 2
    for _ in range(mpmath.mp.prec + 20):
        mid = (lo + hi) / 2
        if _chart_z_mp(link, zfun, mid) < z:
            lo = mid
        else:
            hi = mid
    m, left, right, _ = _domain_map_mpmath(link.domain, (lo + hi) / 2)
    if key == "g":
        return m
    return link._mp[key](m, left, right)


def _chart_z_mp(link: Link, zfun, t):
    m, left, right, _ = _domain_map_mpmath(link.domain, t)
    return zfun(m, left, right)
