"""Per-arm mean-reward functions and a fast, checked float64 evaluator for them.

Beyond the paper's shared link, each arm a ∈ {−1, +1} has its own increasing function
m_a(x) = g_a(β_aᵀx). An *arm link* is anything with ``name`` and ``g_numpy(z)``: an
:class:`nbl_theory.links.Link`, or one of the two wrappers here,

* :class:`ShiftedLink` — g(z + c): an arm with an intercept,
* :class:`MixtureLink` — (1 − w) g₁(z) + w g₂(z): an arm whose link is a blend of two links,
* :class:`OffsetLink` — g(z) − b: the mean of a *centred* reward Y − b (the reward
  transformation of the centred-reward repair, :mod:`nbl_sim.beyond.repairs`).

Both stay strictly increasing when their parts are. With g_+ ≠ g_− the optimal boundary
{g_+(β_+ᵀx) = g_−(β_−ᵀx)} is in general not a hyperplane through 0 (an intercept makes it an
affine hyperplane off the origin; a mixture bends it), see :mod:`nbl_sim.beyond.arms`.

Fast evaluation
---------------
Potential links invert φ' by bisection (``Link.g_numpy``, ≈ 14 µs a point), too slow for the
10⁵–10⁶ evaluations of a 2-D population quadrature. :func:`fast_g` therefore tabulates such a
link once on [−60, 60] as a piecewise Chebyshev interpolant (panels of width 1/4, 24 nodes of
the first kind, Clenshaw evaluation), and each tail |z| > 60 in the variable w = 60/|z| ∈ (0, 1]
(8 panels; a tail table is used only if its measured error is ≤ 1e-14 — saturating links —
otherwise tail points are evaluated directly). The table's error is *measured* when it is
built — against ``g_numpy`` at 4 off-node points per panel — and carried as
:attr:`FastLink.table_error`; if it exceeds 1e-14 the panels are halved (up to twice).
Expression links are evaluated directly (``table_error`` = 0).
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass

import numpy as np

from nbl_theory.errors import NBLInputError
from nbl_theory.link_type import LinkType
from nbl_theory.validation import real

__all__ = [
    "ShiftedLink",
    "MixtureLink",
    "OffsetLink",
    "check_arm_link",
    "fast_g",
    "FastLink",
    "growth_exponent",
    "link_range",
]

_TABLE_LO, _TABLE_HI = -60.0, 60.0
_ORDER = 24
_WIDTH = 0.25
_TABLE_TOL = 1e-14


class _DerivedLink:
    """What an arm link built from other links shares: ``kind`` is "potential" if any part
    is a potential link (its g is evaluated through the inverse of φ'), else "expression"."""

    def parts(self) -> tuple:  # pragma: no cover - interface
        raise NotImplementedError

    @property
    def kind(self) -> str:
        kinds = {getattr(x, "kind", "expression") for x in self.parts()}
        return "potential" if "potential" in kinds else "expression"


@dataclass(frozen=True, eq=False)
class ShiftedLink(_DerivedLink):
    """z ↦ g(z + shift): arm index with an intercept, m(x) = g(βᵀx + shift)."""

    link: object
    shift: float

    def parts(self) -> tuple:
        return (self.link,)

    @property
    def name(self) -> str:
        return f"{self.link.name} shifted by {self.shift:g}"

    def g_numpy(self, z):
        return self.link.g_numpy(np.asarray(z, dtype=float) + self.shift)

    def describe(self) -> dict:
        return {"type": "shifted", "link": self.link.name, "shift": self.shift}


@dataclass(frozen=True, eq=False)
class MixtureLink(_DerivedLink):
    """z ↦ (1 − weight) g₁(z) + weight g₂(z), 0 ≤ weight ≤ 1."""

    first: object
    second: object
    weight: float

    def parts(self) -> tuple:
        return (self.first, self.second)

    @property
    def name(self) -> str:
        return f"(1-{self.weight:g})*{self.first.name} + {self.weight:g}*{self.second.name}"

    def g_numpy(self, z):
        z = np.asarray(z, dtype=float)
        w = self.weight
        return (1 - w) * self.first.g_numpy(z) + w * self.second.g_numpy(z)

    def describe(self) -> dict:
        return {
            "type": "mixture",
            "first": self.first.name,
            "second": self.second.name,
            "weight": self.weight,
        }


@dataclass(frozen=True, eq=False)
class OffsetLink(_DerivedLink):
    """z ↦ g(z) − offset: the mean reward of an arm whose rewards are centred by a constant
    (Y − offset). Strictly increasing when g is; the optimal action is unchanged."""

    link: object
    offset: float

    def parts(self) -> tuple:
        return (self.link,)

    @property
    def name(self) -> str:
        return f"{self.link.name} minus {self.offset:g}"

    def g_numpy(self, z):
        return self.link.g_numpy(np.asarray(z, dtype=float)) - self.offset

    def describe(self) -> dict:
        return {"type": "offset", "link": self.link.name, "offset": self.offset}


def check_arm_link(link, name: str = "link"):
    """``link`` if it is a Link, ShiftedLink, MixtureLink or OffsetLink (parts checked
    recursively)."""
    if isinstance(link, LinkType):
        return link
    if isinstance(link, OffsetLink):
        check_arm_link(link.link, name)
        real(link.offset, f"{name} offset")
        return link
    if isinstance(link, ShiftedLink):
        check_arm_link(link.link, name)
        real(link.shift, f"{name} shift")
        return link
    if isinstance(link, MixtureLink):
        check_arm_link(link.first, name)
        check_arm_link(link.second, name)
        w = real(link.weight, f"{name} mixture weight")
        if not 0 <= w <= 1:
            raise NBLInputError(f"{name} mixture weight must lie in [0, 1], got {w}")
        return link
    raise NBLInputError(
        f"{name} must be an nbl_theory Link, ShiftedLink, MixtureLink or "
        f"OffsetLink, got {type(link).__name__}"
    )


# ---------------------------------------------------------------------------- fast evaluation
class _Cheb:
    """Piecewise Chebyshev interpolant of f on [lo, lo + n·width] (Clenshaw evaluation)."""

    def __init__(self, f, lo: float, width: float, n: int):
        self.lo, self.width, self.n = lo, width, n
        k = np.arange(_ORDER)
        x = np.cos(np.pi * (k + 0.5) / _ORDER)
        mid = lo + width * (np.arange(n) + 0.5)
        vals = f((mid[:, None] + 0.5 * width * x[None, :]).ravel()).reshape(n, _ORDER)
        tmat = np.cos(np.outer(k, np.pi * (k + 0.5) / _ORDER))  # T_j(x_k)
        coef = vals @ tmat.T * (2.0 / _ORDER)
        coef[:, 0] *= 0.5
        self.rows = [np.ascontiguousarray(coef[:, j]) for j in range(_ORDER)]
        # measured error at 4 off-node points per panel
        probe = (mid[:, None] + 0.5 * width * np.array([-0.93, -0.41, 0.17, 0.77])).ravel()
        self.error = float(np.max(np.abs(self(probe) - f(probe))))

    def __call__(self, z: np.ndarray) -> np.ndarray:
        z = np.ascontiguousarray(z, dtype=float).ravel()
        out = np.empty_like(z)
        step = 1 << 16  # blocks that stay in cache
        for i in range(0, z.size, step):
            out[i : i + step] = self._clenshaw(z[i : i + step])
        return out

    def _clenshaw(self, z: np.ndarray) -> np.ndarray:
        idx = np.clip(((z - self.lo) / self.width).astype(np.int64), 0, self.n - 1)
        t2 = (z - (self.lo + self.width * (idx + 0.5))) * (4.0 / self.width)  # 2t
        rows = self.rows
        b1 = np.take(rows[_ORDER - 1], idx)
        b2 = np.zeros_like(z)
        tmp = np.empty_like(z)
        c = np.empty_like(z)
        for j in range(_ORDER - 2, 0, -1):
            np.multiply(t2, b1, out=tmp)
            tmp -= b2
            tmp += np.take(rows[j], idx, out=c)
            b1, b2, tmp = tmp, b1, b2
        np.multiply(t2, b1, out=tmp)
        tmp *= 0.5
        tmp -= b2
        tmp += np.take(rows[0], idx, out=c)
        return tmp


class _ChebTable:
    """g on [−60, 60] by panels of ``width``, and each tail |z| > 60 in w = 60/|z| ∈ (0, 1]
    (8 panels; used only where its measured error is ≤ 1e-14, e.g. for saturating links)."""

    def __init__(self, link: LinkType, width: float):
        def g(z):
            return _finite(link, z)

        n = int(round((_TABLE_HI - _TABLE_LO) / width))
        self.core = _Cheb(g, _TABLE_LO, width, n)
        self.tails = []
        for sgn in (1.0, -1.0):
            tail = _Cheb(lambda w, s=sgn: g(s * _TABLE_HI / np.maximum(w, 1e-300)), 0.0, 0.125, 8)
            self.tails.append(tail if tail.error <= _TABLE_TOL else None)
        self.error = max([self.core.error] + [t.error for t in self.tails if t is not None])

    def __call__(self, z: np.ndarray) -> np.ndarray:
        return self.core(z)


def _finite(link, z: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        out = np.asarray(link.g_numpy(z), dtype=float) * np.ones_like(z)
    if not np.all(np.isfinite(out)):
        bad = z[~np.isfinite(out)][0]
        raise NBLInputError(f"link {link.name!r} is not finite in float64 at z = {bad:g}")
    return out


@dataclass(frozen=True, eq=False)
class FastLink:
    """A vectorized float64 evaluator of an arm link; ``table_error`` = measured max |error|."""

    link: object
    table_error: float
    _table: object = None

    def __call__(self, z) -> np.ndarray:
        z = np.asarray(z, dtype=float)
        if self._table is None:
            return _finite(self.link, z)
        out = np.empty_like(z)
        inside = (z >= _TABLE_LO) & (z <= _TABLE_HI)
        out[inside] = self._table(z[inside])
        if np.all(inside):
            return out
        for sgn, tail in zip((1.0, -1.0), self._table.tails):
            sel = sgn * z > _TABLE_HI
            if not np.any(sel):
                continue
            if tail is not None:
                out[sel] = tail(_TABLE_HI / np.abs(z[sel]))
            else:
                out[sel] = _finite(self.link, z[sel])
        return out


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _fast_link(link: LinkType) -> FastLink:
    hit = _CACHE.get(link)
    if hit is not None:
        return hit
    if link.kind != "potential":
        out = FastLink(link, 0.0)
    else:
        width, table = _WIDTH, None
        for _ in range(3):
            table = _ChebTable(link, width)
            if table.error <= _TABLE_TOL:
                break
            width /= 2
        out = FastLink(link, table.error, table)
    _CACHE[link] = out
    return out


class _Composite:
    """fast_g of a wrapper: composes the fast evaluators of its parts."""

    def __init__(self, link):
        self.link = link
        if isinstance(link, ShiftedLink):
            inner = fast_g(link.link)
            self._f = lambda z: inner(z + link.shift)
            self.table_error = inner.table_error
        elif isinstance(link, OffsetLink):
            inner = fast_g(link.link)
            self._f = lambda z: inner(z) - link.offset
            self.table_error = inner.table_error
        else:
            a, b = fast_g(link.first), fast_g(link.second)
            w = link.weight
            self._f = lambda z: (1 - w) * a(z) + w * b(z)
            self.table_error = (1 - w) * a.table_error + w * b.table_error

    def __call__(self, z):
        return self._f(np.asarray(z, dtype=float))


def fast_g(link):
    """A fast float64 evaluator ``f(z)`` of an arm link with attribute ``table_error``
    (module docstring). Cached per Link."""
    link = check_arm_link(link)
    if isinstance(link, LinkType):
        return _fast_link(link)
    return _Composite(link)


def growth_exponent(link) -> float:
    """A numerical estimate of k in |g(z)| ≍ |z|^k as |z| → ∞ (0 for bounded links), from
    g at |z| = 1e3 and 1e5; ``inf`` when g overflows there (exponential growth)."""
    f = fast_g(link)
    with np.errstate(all="ignore"):
        try:
            a = np.abs(f(np.array([-1e3, 1e3])))
            b = np.abs(f(np.array([-1e5, 1e5])))
        except NBLInputError:
            return math.inf
    k = 0.0
    for lo, hi in zip(a, b):
        if hi > 1e-300 and lo > 1e-300:
            k = max(k, math.log10(hi / lo) / 2.0)
    return 0.0 if k < 0.05 else k


def link_range(link, probe: float = 50.0) -> tuple[float, float]:
    """(inf g, sup g) over ℝ of an arm link, about: a potential link maps ℝ onto the domain of
    φ (exact ends); an expression link is probed at z = ±``probe`` (g is increasing, so this
    bounds g on every index |z| < probe); a shift leaves the range unchanged and a mixture
    mixes the ends."""
    link = check_arm_link(link)
    if isinstance(link, ShiftedLink):
        return link_range(link.link, probe)
    if isinstance(link, OffsetLink):
        lo, hi = link_range(link.link, probe)
        return lo - link.offset, hi - link.offset
    if isinstance(link, MixtureLink):
        (a0, a1), (b0, b1) = link_range(link.first, probe), link_range(link.second, probe)
        w = link.weight
        return (1 - w) * a0 + w * b0, (1 - w) * a1 + w * b1
    if link.kind == "potential":
        import mpmath

        lo, hi = (float(x) if x.is_infinite else float(mpmath.mpf(str(x))) for x in link.domain)
        return lo, hi
    lo, hi = (float(v) for v in link.g_numpy(np.array([-probe, probe])))
    return lo, hi
