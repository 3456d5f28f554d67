"""Context laws beyond N(0, I_d): what the contexts X_t of a bandit can look like.

Every law is X = A Y with a *base* law Y of identity covariance and a d × d matrix A (None =
identity), so Cov X = A Aᵀ. The base laws:

=================  =============================================================================
``gaussian``       Y ~ N(0, I_d) (the paper's assum:gaussian_context)
``student-t``      multivariate t, elliptical: Y = G·((ν − 2)/W)^{1/2}, G ~ N(0, I_d),
                   W ~ χ²_ν independent; ν > 2, scaled so that Cov Y = I_d
``ball``           uniform on the ball of radius (d + 2)^{1/2}: standardized, Cov Y = I_d
``cube``           uniform on [−√3, √3]^d: standardized, Cov Y = I_d
``rademacher``     independent ±1 coordinates (Cov Y = I_d); a discrete law with 2^d atoms
``empirical``      the rows of a data matrix, drawn uniformly with replacement
=================  =============================================================================

Ball and cube are *standardized to identity covariance* (there is no unstandardized variant:
a scale change is a covariance departure, give it with a Gaussian or t covariance). For
``gaussian`` and ``student-t`` a covariance Σ may be given; then A = Σ^{1/2} (symmetric square
root), so Y's ellipticity carries over. :meth:`ContextLaw.sample` draws ``(n, d)`` contexts from
a numpy Generator, reproducibly (same generator state, same numbers; the draws of a call are
listed in each law's docstring); :meth:`ContextLaw.fill` writes them into a given array (what
the bandit environment, ``nbl_sim.engine.environment``, calls on each replication's context stream).

Draws are made in blocks of :data:`BLOCK_ROWS` rows (a last partial block is drawn whole and
cut), so the first n contexts do not depend on how many are drawn after them — the horizon
prefix property of the environment — and memory beyond the output is one block. The Gaussian
law needs no blocks (its normals are one stream in memory order). Y ↦ AY is applied row by row
in a fixed order (x_i = Σ_k A_ik y_k, k = 0, 1, …, elementwise products and sums, no BLAS), so
a row's value does not depend on how many rows are transformed with it.

Spec strings (:func:`parse_context_spec`, for the command line)::

    gaussian                         N(0, I_d)
    gaussian:cov=FILE                N(0, Σ), Σ a d × d symmetric positive definite CSV matrix
    gaussian:cond=10,angle=30        d = 2: Σ with condition number 10, major axis at 30° from
                                     e₁ (= v* for the default arms), trace Σ = 2
    student-t:nu=5[,cov=…|cond=…,angle=…]
    ball | cube | rademacher
    empirical:FILE.csv[,standardize] rows of a numeric CSV (a non-numeric first row is a
                                     header); standardize = centre each column and divide it
                                     by its standard deviation
    dataset:breast-cancer | dataset:wine
                                     a scikit-learn bundled dataset (nbl_sim.beyond.datasets)

Bounds on numeric input, checked when a law is made, before any work (one-line
:class:`~nbl_theory.errors.NBLInputError`): every entry of empirical data lies in
±:data:`MAX_ENTRY` (1e6; with ``standardize`` the raw entries in ±:data:`MAX_RAW_ENTRY`, 1e100,
and the standardized ones are ≤ √rows by construction); a covariance is symmetric positive
definite with eigenvalues in [1/:data:`MAX_COV_EIGENVALUE`, :data:`MAX_COV_EIGENVALUE`]
(1e-12 to 1e12, so A = Σ^{1/2} has entries ≤ 1e6) and condition number ≤ 1e12. With these
bounds x⁴ (the squared terms of the field's error estimates) summed over ≤ 10⁷ rows stays below
1e40, far inside float64; what can still overflow is a link itself (g(βᵀx) = exp(βᵀx) at
βᵀx = 1e6), and that ends as an error naming the input (:func:`nbl_sim.beyond.analyze`), never
as a verdict.
"""

from __future__ import annotations

import csv
import math
import os
from pathlib import Path

import numpy as np

from nbl_theory.errors import NBLInputError
from nbl_theory.numbers import number_value
from nbl_theory.validation import dimension, finite_array, real

from .datasets import dataset_array

__all__ = [
    "ContextLaw",
    "BLOCK_ROWS",
    "MAX_ENTRY",
    "MAX_RAW_ENTRY",
    "MAX_COV_EIGENVALUE",
    "GaussianLaw",
    "StudentTLaw",
    "BallLaw",
    "CubeLaw",
    "RademacherLaw",
    "EmpiricalLaw",
    "parse_context_spec",
    "context_law",
    "covariance_2d",
    "read_csv_matrix",
    "load_dataset",
    "CONTEXT_FAMILIES",
    "MAX_CSV_BYTES",
    "MAX_CSV_LINE",
    "MAX_CSV_COLUMNS",
]

CONTEXT_FAMILIES = ("gaussian", "student-t", "ball", "cube", "rademacher", "empirical", "dataset")
_MAX_ROWS = 10_000_000
_SPD_TOL = 1e-12
#: bound on |entry| of empirical context data (module docstring)
MAX_ENTRY = 1e6
#: bound on |entry| of raw data that is standardized (``empirical:FILE,standardize``)
MAX_RAW_ENTRY = 1e100
#: bound on the eigenvalues of a covariance (and on their reciprocals)
MAX_COV_EIGENVALUE = 1e12
#: rows drawn per call of a base law (module docstring)
BLOCK_ROWS = 4096


def covariance_2d(cond, angle_deg) -> np.ndarray:
    """Σ = R(angle) diag(λ₁, λ₂) R(angle)ᵀ with λ₁/λ₂ = cond ≥ 1 and λ₁ + λ₂ = 2 (mean
    variance 1, as for N(0, I₂)); the major axis makes ``angle_deg`` degrees with e₁."""
    c = real(cond, "cond")
    a = real(angle_deg, "angle")
    if c < 1:
        raise NBLInputError(
            f"cond must be >= 1 (ratio of the largest to the smallest eigenvalue), got {cond}"
        )
    if c > 1e8:
        raise NBLInputError(f"cond must be <= 1e8, got {cond}")
    l1, l2 = 2 * c / (1 + c), 2 / (1 + c)
    t = math.radians(a)
    r = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    return r @ np.diag([l1, l2]) @ r.T


def _check_cov(cov, d: int | None) -> np.ndarray:
    s = finite_array(cov, "covariance")
    if s.ndim != 2 or s.shape[0] != s.shape[1]:
        raise NBLInputError(f"covariance must be a square matrix, got shape {s.shape}")
    if d is not None and s.shape[0] != d:
        raise NBLInputError(f"covariance is {s.shape[0]} x {s.shape[0]} but d = {d}")
    dimension(s.shape[0])
    if not np.allclose(s, s.T, rtol=0, atol=_SPD_TOL * max(1.0, np.max(np.abs(s)))):
        raise NBLInputError("covariance must be symmetric")
    if np.max(np.abs(s)) > MAX_COV_EIGENVALUE:
        raise NBLInputError(
            f"covariance entries must lie within ±{MAX_COV_EIGENVALUE:g}, got "
            f"{np.max(np.abs(s)):.3g} (rescale the contexts)"
        )
    ev = np.linalg.eigvalsh(0.5 * (s + s.T))
    if ev[0] <= _SPD_TOL * ev[-1]:
        raise NBLInputError(
            f"covariance must be positive definite with condition number <= "
            f"{1 / _SPD_TOL:g} (smallest eigenvalue {ev[0]:.3g}, largest "
            f"{ev[-1]:.3g})"
        )
    if not (1 / MAX_COV_EIGENVALUE <= ev[0] and ev[-1] <= MAX_COV_EIGENVALUE):
        raise NBLInputError(
            f"covariance eigenvalues must lie in [{1 / MAX_COV_EIGENVALUE:g}, "
            f"{MAX_COV_EIGENVALUE:g}], got [{ev[0]:.3g}, {ev[-1]:.3g}] "
            "(rescale the contexts)"
        )
    return 0.5 * (s + s.T)


def _sqrtm(s: np.ndarray) -> np.ndarray:
    ev, q = np.linalg.eigh(s)
    return (q * np.sqrt(ev)) @ q.T


class ContextLaw:
    """Base class. Attributes: ``family`` (base law), ``d``, ``transform`` (A or None),
    ``spec`` (a spec string that rebuilds the law, where one exists).

    Parameters
    ----------
    d : int
        The dimension, ≥ 2.
    cov : array_like, shape (d, d), optional
        The covariance Σ (symmetric positive definite); the contexts are A y with A = Σ^{1/2}
        and y from the base law (None: the base law itself).
    """

    family = "?"
    discrete = False

    def __init__(self, d: int, cov=None):
        self.d = dimension(d)
        self.cov = None if cov is None else _check_cov(cov, self.d)
        self.transform = None if self.cov is None else _sqrtm(self.cov)
        self.spec = self.family

    # subclasses draw the base law
    def _base(self, rng: np.random.Generator, n: int) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """``n`` i.i.d. contexts, an ``(n, d)`` float64 array, from ``rng``
        (:meth:`fill` of a new array).

        Parameters
        ----------
        rng : numpy.random.Generator
            The random stream.
        n : int
            The number of contexts, ≥ 0.

        Returns
        -------
        numpy.ndarray, shape (n, d)
            The contexts.
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n <= _MAX_ROWS:
            raise NBLInputError(f"n must be an integer in [0, {_MAX_ROWS}], got {n!r}")
        x = np.empty((int(n), self.d))
        self.fill(rng, x)
        return x

    def fill(self, rng: np.random.Generator, X: np.ndarray) -> None:
        """Fill the ``(n, d)`` float64 array ``X`` in place with i.i.d. contexts from ``rng``,
        in blocks of :data:`BLOCK_ROWS` rows (module docstring).

        Parameters
        ----------
        rng : numpy.random.Generator
            The random stream.
        X : numpy.ndarray, shape (n, d)
            A float64 array, overwritten.

        Raises
        ------
        NBLInputError
            ``rng`` is not a Generator, or ``X`` has the wrong type or shape.
        """
        if not isinstance(rng, np.random.Generator):
            raise NBLInputError(f"rng must be a numpy Generator, got {type(rng).__name__}")
        if not (
            isinstance(X, np.ndarray)
            and X.dtype == np.float64
            and X.ndim == 2
            and X.shape[1] == self.d
        ):
            raise NBLInputError(f"X must be a float64 array of shape (n, {self.d})")
        n = X.shape[0]
        for i in range(0, n, BLOCK_ROWS):
            m = min(BLOCK_ROWS, n - i)
            X[i : i + m] = self._base(rng, BLOCK_ROWS)[:m]
        self.apply_transform(X)

    def apply_transform(self, X: np.ndarray) -> None:
        """X ← rows A y of the base draws in ``X`` (in place; nothing when A is None), each
        coordinate summed in the order k = 0, 1, … (module docstring).

        Parameters
        ----------
        X : numpy.ndarray, shape (n, d)
            Base draws, overwritten with their transforms.
        """
        a = self.transform
        if a is None:
            return
        y = X.copy()
        for i in range(self.d):
            col = X[:, i]
            np.multiply(y[:, 0], a[i, 0], out=col)
            for k in range(1, self.d):
                col += y[:, k] * a[i, k]

    @property
    def covariance(self) -> np.ndarray:
        """The law's covariance matrix (d, d): Σ, or the identity (a copy)."""
        return np.eye(self.d) if self.cov is None else self.cov.copy()

    @property
    def isotropic_gaussian(self) -> bool:
        """Whether the law is the paper's, N(0, I_d)."""
        return self.family == "gaussian" and self.cov is None

    def describe(self) -> dict:
        """The law as plain data (for reports and the cache).

        Returns
        -------
        dict
            ``family``, ``d``, ``spec``, ``covariance`` and ``standardized``.
        """
        return {
            "family": self.family,
            "d": self.d,
            "spec": self.spec,
            "covariance": self.covariance.tolist(),
            "standardized": "identity covariance" if self.cov is None else "no",
        }

    def __repr__(self) -> str:
        return f"{type(self).__name__}(spec={self.spec!r}, d={self.d})"


class GaussianLaw(ContextLaw):
    """N(0, Σ) (default Σ = I_d). Draws: one ``standard_normal((n, d))``."""

    family = "gaussian"

    def _base(self, rng, n):
        return rng.standard_normal((n, self.d))

    def fill(self, rng, X):
        """``rng.standard_normal(out=X)`` (one stream in memory order, no blocks needed), then
        the transform."""
        if not isinstance(rng, np.random.Generator):
            raise NBLInputError(f"rng must be a numpy Generator, got {type(rng).__name__}")
        rng.standard_normal(out=X)
        self.apply_transform(X)


class StudentTLaw(ContextLaw):
    """Multivariate t with ν > 2 degrees of freedom and covariance Σ (elliptical). Draws:
    ``standard_normal((n, d))`` then ``chisquare(ν, n)``."""

    family = "student-t"

    def __init__(self, nu, d: int = 2, cov=None):
        v = real(nu, "nu")
        if not 2 < v <= 1e6:
            raise NBLInputError(f"student-t: nu must lie in (2, 1e6] (finite covariance), got {nu}")
        self.nu = v
        super().__init__(d, cov)
        self.spec = f"student-t:nu={v:g}"

    def _base(self, rng, n):
        g = rng.standard_normal((n, self.d))
        w = rng.chisquare(self.nu, n)
        return g * np.sqrt((self.nu - 2) / w)[:, None]

    def describe(self):
        return {**super().describe(), "nu": self.nu}


class BallLaw(ContextLaw):
    """Uniform on the ball of radius (d + 2)^{1/2} (identity covariance). Draws:
    ``standard_normal((n, d))`` (direction) then ``random(n)`` (radius R·U^{1/d})."""

    family = "ball"

    def __init__(self, d: int = 2):
        super().__init__(d)
        self.radius = math.sqrt(self.d + 2)

    def _base(self, rng, n):
        g = rng.standard_normal((n, self.d))
        nrm = np.linalg.norm(g, axis=1)
        nrm[nrm == 0] = 1.0
        r = self.radius * rng.random(n) ** (1.0 / self.d)
        return g * (r / nrm)[:, None]


class CubeLaw(ContextLaw):
    """Uniform on [−√3, √3]^d (identity covariance). Draws: ``uniform(−√3, √3, (n, d))``."""

    family = "cube"

    def __init__(self, d: int = 2):
        super().__init__(d)
        self.half_width = math.sqrt(3.0)

    def _base(self, rng, n):
        return rng.uniform(-self.half_width, self.half_width, (n, self.d))


class RademacherLaw(ContextLaw):
    """Independent ±1 coordinates. Draws: ``integers(0, 2, (n, d))``."""

    family = "rademacher"
    discrete = True

    def _base(self, rng, n):
        return 2.0 * rng.integers(0, 2, (n, self.d)) - 1.0

    def atoms(self) -> tuple[np.ndarray, np.ndarray]:
        """The 2^d support points and their probabilities (d ≤ 20)."""
        if self.d > 20:
            raise NBLInputError(f"rademacher: exact sums need d <= 20, got d = {self.d}")
        k = np.arange(2**self.d)
        pts = 2.0 * ((k[:, None] >> np.arange(self.d)[None, :]) & 1) - 1.0
        return pts, np.full(k.size, 2.0**-self.d)


class EmpiricalLaw(ContextLaw):
    """Uniform over the rows of ``data`` (n × d): the empirical law of a data set. Draws:
    ``integers(0, n_rows, n)`` — rows are *resampled with replacement* (a bootstrap of the
    data), so a simulation of any horizon holds the data once plus one block of drawn rows,
    never a copy per replication or per round."""

    family = "empirical"
    discrete = True

    def __init__(self, data, name: str = "data", standardize: bool = False):
        x = finite_array(data, "empirical data")
        if x.ndim != 2 or x.shape[0] < 10:
            raise NBLInputError(
                f"empirical data must be a matrix with at least 10 rows, got shape {x.shape}"
            )
        super().__init__(x.shape[1])
        big = float(np.max(np.abs(x)))
        bound = MAX_RAW_ENTRY if standardize else MAX_ENTRY
        if big > bound:
            raise NBLInputError(
                f"empirical data {name}: entries must lie within ±{bound:g}"
                + ("" if standardize else " (or add ,standardize)")
                + f", got {big:.3g} (so that the analysis cannot overflow float64)"
            )
        if standardize:
            sd = x.std(axis=0)
            if np.any(sd <= 1e-150 * np.max(np.abs(x), axis=0)):
                raise NBLInputError(
                    f"empirical data {name}: a constant column cannot be standardized"
                )
            x = (x - x.mean(axis=0)) / sd
        self.data = x
        self.name = name
        self.standardized = bool(standardize)
        self.spec = f"empirical:{name}" + (",standardize" if standardize else "")

    def _base(self, rng, n):
        return self.data[rng.integers(0, self.data.shape[0], n)]

    @property
    def covariance(self) -> np.ndarray:
        return np.cov(self.data, rowvar=False, bias=True)

    def atoms(self) -> tuple[np.ndarray, np.ndarray]:
        return self.data, np.full(self.data.shape[0], 1.0 / self.data.shape[0])

    def describe(self):
        m = self.data.mean(axis=0)
        return {
            **super().describe(),
            "rows": int(self.data.shape[0]),
            "name": self.name,
            "standardized": "columns z-scored" if self.standardized else "no",
            "mean": m.tolist(),
        }


def load_dataset(name: str) -> EmpiricalLaw:
    """The 2-D empirical law of a scikit-learn bundled dataset (nbl_sim.beyond.datasets)."""
    law = EmpiricalLaw(dataset_array(name), name=name)
    law.spec = f"dataset:{name}"
    return law


# ---------------------------------------------------------------------------- parsing
def read_csv_matrix(path, what: str) -> np.ndarray:
    """A numeric matrix from a CSV file (a non-numeric first row is skipped as a header).

    Reads are bounded (issue 36): the file is at most :data:`MAX_CSV_BYTES` (1 GiB), a line
    at most :data:`MAX_CSV_LINE` (65,536) characters, a row at most :data:`MAX_CSV_COLUMNS`
    (1,024) fields and at most 10⁷ rows. The file is read twice, a line at a time — once to
    count the rows, once to parse them into a preallocated float64 array — so the memory it
    takes is the array (8 bytes a value, never more than 4× the file: a value takes at least
    two characters, the digit and its separator) plus one line.
    """
    p = Path(path)
    if not p.exists():
        raise NBLInputError(f"{what}: file not found: {path}")
    if not p.is_file():
        raise NBLInputError(f"{what}: {path} is not a regular file (give a CSV file)")
    try:
        with open(p, newline="", encoding="utf-8") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size > MAX_CSV_BYTES:
                raise NBLInputError(
                    f"{what}: {path} is {size / 2**30:.3g} GiB; the bound is "
                    f"{MAX_CSV_BYTES / 2**30:g} GiB"
                )
            rows, cols = 0, None
            for i, row in _csv_rows(fh, path, what):
                if cols is None:
                    if _numeric(row) is None and i == 0:
                        continue  # header
                    cols = len(row)
                if len(row) != cols:
                    raise NBLInputError(
                        f"{what}: rows of different lengths in {path} (line {i + 1})"
                    )
                rows += 1
                if rows > _MAX_ROWS:
                    raise NBLInputError(f"{what}: more than {_MAX_ROWS} rows in {path}")
            if not rows:
                raise NBLInputError(f"{what}: no numeric rows in {path}")
            out = np.empty((rows, cols))
            fh.seek(0)
            k = 0
            for i, row in _csv_rows(fh, path, what):
                vals = _numeric(row)
                if vals is None:
                    if i == 0 and k == 0:
                        continue
                    raise NBLInputError(f"{what}: non-numeric entry on line {i + 1} of {path}")
                if k >= rows or len(vals) != cols:
                    raise NBLInputError(f"{what}: {path} changed while it was read")
                out[k] = vals
                k += 1
            if k != rows:
                raise NBLInputError(f"{what}: {path} changed while it was read")
    except (OSError, UnicodeDecodeError) as exc:
        raise NBLInputError(f"{what}: cannot read {path}: {exc}") from exc
    return finite_array(out, what)


#: bounds of :func:`read_csv_matrix`: file size (bytes), line length (characters), fields a row
MAX_CSV_BYTES, MAX_CSV_LINE, MAX_CSV_COLUMNS = 2**30, 65_536, 1024


def _csv_rows(fh, path, what):
    """(line index, fields) of the non-blank rows of ``fh``, each line bounded."""

    def lines():
        k = 0
        while True:
            line = fh.readline(MAX_CSV_LINE + 1)
            if not line:
                return
            k += 1
            if len(line) > MAX_CSV_LINE:
                raise NBLInputError(
                    f"{what}: line {k} of {path} is longer than {MAX_CSV_LINE} characters"
                )
            yield line

    reader = csv.reader(lines())
    try:
        for fields in reader:
            if not fields or all(not c.strip() for c in fields):
                continue
            if len(fields) > MAX_CSV_COLUMNS:
                raise NBLInputError(
                    f"{what}: line {reader.line_num} of {path} has "
                    f"{len(fields)} fields; the bound is {MAX_CSV_COLUMNS}"
                )
            yield reader.line_num - 1, fields
    except csv.Error as exc:
        raise NBLInputError(
            f"{what}: line {reader.line_num} of {path} is not CSV ({exc})"
        ) from None


def _numeric(fields):
    """The fields as floats, or None: ASCII decimal numbers only (``float`` alone would take
    Arabic-Indic or full-width digits; every number nbl reads follows one digit rule)."""
    if not all(c.isascii() for c in fields):
        return None
    try:
        return [float(c) for c in fields]
    except ValueError:
        return None


def _options(text: str, family: str, allowed: tuple) -> dict:
    out = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise NBLInputError(f"{family}: empty option in context spec")
        key, eq, val = part.partition("=")
        key = key.strip()
        if not eq or not val.strip():
            raise NBLInputError(f"{family}: option {part!r} must be key=value")
        if key not in allowed:
            raise NBLInputError(f"{family}: unknown option {key!r} (allowed: {', '.join(allowed)})")
        if key in out:
            raise NBLInputError(f"{family}: option {key!r} given twice")
        out[key] = val.strip()
    return out


def _number(val: str, name: str) -> float:
    # the command line's one value grammar (decimals and fractions p/q, as --delta)
    return real(number_value(val, name), name)


def _cov_from(opts: dict, family: str, d: int | None):
    if "cov" in opts and ({"cond", "angle"} & opts.keys()):
        raise NBLInputError(f"{family}: give either cov=FILE or cond=…,angle=…, not both")
    if "cov" in opts:
        return _check_cov(read_csv_matrix(opts["cov"], f"{family} covariance"), d)
    if {"cond", "angle"} & opts.keys():
        if not {"cond", "angle"} <= opts.keys():
            raise NBLInputError(f"{family}: cond and angle must be given together")
        if d not in (None, 2):
            raise NBLInputError(f"{family}: cond/angle define a 2-D covariance, but d = {d}")
        return covariance_2d(_number(opts["cond"], "cond"), _number(opts["angle"], "angle"))
    return None


def parse_context_spec(spec: str, d: int | None = None) -> ContextLaw:
    """The :class:`ContextLaw` named by ``spec`` (module docstring); ``d`` defaults to 2 for
    the laws whose dimension the spec does not fix. Bad specs raise a one-line NBLInputError.

    Parameters
    ----------
    spec : str
        The context spec (e.g. ``"student-t:nu=5"``).
    d : int, optional
        The dimension (default 2 where the spec does not fix it).

    Returns
    -------
    ContextLaw
        The law.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise NBLInputError("context spec must be a non-empty string")
    if d is not None:
        d = dimension(d)
    spec = spec.strip()
    family, colon, rest = spec.partition(":")
    family = family.strip().lower()
    if colon and not rest.strip():
        raise NBLInputError(f"context spec {spec!r} ends with ':' but gives no options")
    if family not in CONTEXT_FAMILIES:
        raise NBLInputError(
            f"unknown context law {family!r} (known: {', '.join(CONTEXT_FAMILIES)})"
        )
    if family == "empirical":
        std = False
        path = rest
        if path.endswith(",standardize"):
            path, std = path[: -len(",standardize")], True
        if not path:
            raise NBLInputError("empirical: give a file, empirical:FILE.csv[,standardize]")
        law = EmpiricalLaw(read_csv_matrix(path, "empirical data"), name=path, standardize=std)
    elif family == "dataset":
        law = load_dataset(rest.strip())
    elif family in ("gaussian", "student-t"):
        allowed = ("cov", "cond", "angle") + (("nu",) if family == "student-t" else ())
        opts = _options(rest, family, allowed) if rest else {}
        cov = _cov_from(opts, family, d)
        dd = cov.shape[0] if cov is not None else (d or 2)
        if family == "gaussian":
            law = GaussianLaw(dd, cov)
        else:
            if "nu" not in opts:
                raise NBLInputError("student-t: give nu, e.g. student-t:nu=5")
            law = StudentTLaw(_number(opts["nu"], "nu"), dd, cov)
        law.spec = spec
    else:
        if rest:
            raise NBLInputError(f"{family}: takes no options, got {rest!r}")
        law = {"ball": BallLaw, "cube": CubeLaw, "rademacher": RademacherLaw}[family](d or 2)
    if d is not None and law.d != d:
        raise NBLInputError(f"context law {spec!r} has dimension {law.d}, but d = {d}")
    return law


def context_law(contexts, d: int) -> ContextLaw | None:
    """The law named by ``contexts`` — None, a spec string (:func:`parse_context_spec`) or a
    :class:`ContextLaw` — in dimension ``d``; None for N(0, I_d) (the paper's law, however it
    is given)."""
    if contexts is None:
        return None
    law = parse_context_spec(contexts, d) if isinstance(contexts, str) else contexts
    if not isinstance(law, ContextLaw):
        raise NBLInputError(
            f"contexts must be a ContextLaw or a spec string, got {type(contexts).__name__}"
        )
    if law.d != d:
        raise NBLInputError(f"the context law has d = {law.d} but d = {d}")
    return None if law.isotropic_gaussian else law
