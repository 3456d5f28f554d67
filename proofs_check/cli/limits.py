"""Bounded work before any work: the size bounds of the ``nbl`` command and the checks of its
output paths, all made before anything is computed or written.

Every bound below refuses with one line naming the bound and the way past it
(``--allow-large``). They are typo guards, not performance limits: each one admits runs of
several minutes to an hour on a 2-core machine and refuses the ones that would take days or
exhaust memory (``--grid 1000000000``, ``--d 100000``).

=====================  =========  ========================================================
bound                  value      what it counts
=====================  =========  ========================================================
MAX_VALUES             10 000     values of one SPEC (a list, or the N of LO:HI:N)
MAX_ROWS               1 000      rows of ``stability``/``self-concordance`` (product of the
                                  parameter lists and the Δ values)
MAX_SCAN_POINTS        20 000     λ* evaluations of ``threshold`` (problems × grid points)
MAX_PHASE_POINTS       100 000    grid cells of ``phase`` (float tier; mpmath 1 000,
                                  certified 10 000)
MAX_DPS                1 000      ``--dps`` digits (see :func:`dps_seconds` for the time)
MAX_SIM_WORK           1e11       ``simulate``: replications × rounds × dimension
MAX_SIM_BYTES          4 GiB      ``simulate``: estimated memory (:func:`simulation_bytes`)
MAX_WORKERS            64         ``--workers`` and ``--scheduler local:N``
                                  (:data:`nbl_sim.runs.execution.MAX_WORKERS`)
=====================  =========  ========================================================

Output paths: ``--out`` and ``--cache-dir`` must be directories (or creatable ones) and
``--plot`` a file with a picture extension, each in a place this process can write to; the
check creates nothing (a nameless temporary file probes writability).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import UsageError, did_you_mean

__all__ = [
    "MAX_VALUES",
    "MAX_ROWS",
    "MAX_SCAN_POINTS",
    "MAX_PHASE_POINTS",
    "MAX_DPS",
    "MAX_SIM_WORK",
    "MAX_SIM_BYTES",
    "PICTURE_FORMATS",
    "bound",
    "check_dps",
    "dps_seconds",
    "dps_note",
    "simulation_bytes",
    "check_out_dir",
    "check_plot_path",
]

MAX_VALUES = 10_000
MAX_ROWS = 1_000
MAX_SCAN_POINTS = 20_000
MAX_PHASE_POINTS = {"float": 100_000, "mpmath": 1_000, "certified": 10_000}
MAX_DPS = 1_000
MAX_SIM_WORK = 1e11
MAX_SIM_BYTES = 4 * 2**30
#: File extensions matplotlib writes without optional packages (tests check the list against
#: ``FigureCanvasBase.get_supported_filetypes()``).
PICTURE_FORMATS = (
    "png",
    "pdf",
    "svg",
    "svgz",
    "eps",
    "ps",
    "jpg",
    "jpeg",
    "tif",
    "tiff",
    "webp",
    "pgf",
    "raw",
    "rgba",
)

#: dps time model: one λ* evaluation at ``dps`` digits takes about c·(dps/100)³ seconds, with
#: c from 0.4 s (logistic, a potential link) to 4 s (two-transition), fitted to timings of
#: ``stability(link, "0.2", dps=...)`` at 120, 240, 400 and 600 digits on the project's 2-core
#: machine (logistic: 1.4, 6.0, 45, 91 s; two-transition: 12.7 s at 120, 51 s at 240).
_DPS_C = (0.4, 4.0)


def bound(count, limit, what: str, allow_large: bool) -> None:
    """Refuse ``count`` > ``limit`` unless ``allow_large``."""
    if count > limit and not allow_large:
        raise UsageError(
            f"{what} = {_big(count)} exceeds the bound {_big(limit)}; pass "
            "--allow-large to go past it"
        )


def _big(x) -> str:
    x = float(x)
    if x < 1e6 and x.is_integer():
        return f"{int(x):d}"
    return f"{x:.3g}"


# ---------------------------------------------------------------------- precision
def dps_seconds(dps: int) -> tuple[float, float]:
    """(low, high) estimate of the seconds of one λ* evaluation at ``dps`` digits."""
    f = (dps / 100.0) ** 3
    return _DPS_C[0] * f, _DPS_C[1] * f


def _duration(s: float) -> str:
    return f"{s:.0f} s" if s < 120 else f"{s / 60:.0f} min" if s < 7200 else f"{s / 3600:.1f} h"


def check_dps(dps, allow_large: bool) -> None:
    """``--dps``: a positive whole number, at most :data:`MAX_DPS` unless ``allow_large``."""
    if dps is None:
        return
    if dps < 1:
        raise UsageError(f"--dps must be a positive number of digits, got {dps}")
    if dps > MAX_DPS and not allow_large:
        lo, hi = dps_seconds(dps)
        raise UsageError(
            f"--dps {dps} exceeds the bound {MAX_DPS} (one lambda* evaluation "
            f"would take about {_duration(lo)} to {_duration(hi)}); pass "
            "--allow-large to go past it"
        )


def dps_note(dps, evaluations: str = "per lambda* evaluation") -> str | None:
    """A line saying how long a long ``--dps`` is expected to take (None when short)."""
    if dps is None:
        return None
    lo, hi = dps_seconds(dps)
    if lo < 1.0:
        return None
    return (
        f"nbl: note: --dps {dps} takes about {_duration(lo)} to {_duration(hi)} "
        f"{evaluations} (model c*(dps/100)^3 s, c = 0.4 for logistic to 4 for "
        "two-transition, measured on a 2-core machine)"
    )


# ---------------------------------------------------------------------- simulation
def simulation_bytes(
    n: int, reps: int, d: int, n0: int, recorded: int, policies: int, workers: int
) -> float:
    """Estimated peak memory of ``nbl simulate``: per worker one replication's realization
    (n·(8(d+4)+1) + n0 bytes: contexts, both arms' means and rewards, the optimal actions,
    the initialization coins; :mod:`nbl_sim.studies.experiment` streams blocks of at least one
    replication), the d×d identity the environment starts from (8d² bytes), and the kept
    trajectories (regret, squared error, angle: 24 bytes per policy, replication and recorded
    round)."""
    block = n * (8.0 * (d + 4) + 1) + n0
    return max(1, workers) * block + 8.0 * d * d + 24.0 * policies * reps * recorded


# ---------------------------------------------------------------------- output paths
def _writable(directory: Path) -> bool:
    try:
        with tempfile.TemporaryFile(dir=directory):
            return True
    except OSError:
        return False


def _existing_ancestor(p: Path) -> Path:
    q = p
    while not q.exists() and q != q.parent:
        q = q.parent
    return q


def _name_max(directory: Path) -> int:
    try:
        return os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


def check_out_dir(path, option: str, shown=None, files=()) -> None:
    """``path`` is a directory this process can write to, or can be created as one
    (``shown``: the name to print, if not ``path``), and none of the ``files`` to be written in
    it is a directory or a name too long for it. A file that exists, or a symbolic link, is
    fine: outputs replace it (:mod:`nbl_sim.runs.outputs`), they never write through a link."""
    if path is None:
        return
    shown = path if shown is None else shown
    if str(path).strip() == "":
        raise UsageError(f"{option} needs a directory name")
    p = Path(os.path.abspath(path))  # "a/../b" is b, as mkdir(parents=True) sees it
    limit = _name_max(Path.cwd())  # before any stat: a longer name fails it
    for part in [*p.parts[1:], *files]:
        if len(os.fsencode(part)) > limit:
            raise UsageError(
                f"{option} {shown}: the name {part[:40]}... is longer than the "
                f"{limit} bytes a file name may have here"
            )
    if p.exists() and not p.is_dir():
        if str(shown) != str(path):
            raise UsageError(f"{option} {shown} cannot be written: {path} is a file")
        raise UsageError(f"{option} {shown} is a file, not a directory")
    anc = _existing_ancestor(p)
    if not anc.is_dir():
        raise UsageError(f"{option} {shown} cannot be created: {anc} is a file")
    if not _writable(anc):
        raise UsageError(f"{option} {shown} is not writable (no permission to write in {anc})")
    for name in files:
        if (p / name).is_dir():
            raise UsageError(f"{option} {shown} cannot be written: {p / name} is a directory")


def check_plot_path(path, option: str = "--plot") -> None:
    """``path`` names a picture file (known extension) in a writable place."""
    if path is None:
        return
    p = Path(path)
    ext = p.suffix.lower().lstrip(".")
    if not ext:
        raise UsageError(f"{option} {path} has no extension; use .png, .pdf or .svg")
    if ext not in PICTURE_FORMATS:
        raise UsageError(
            f"{option} {path}: unknown picture format {ext!r}"
            f"{did_you_mean(ext, PICTURE_FORMATS)}; use one of "
            f"{', '.join(PICTURE_FORMATS)}"
        )
    if p.is_dir():
        raise UsageError(f"{option} {path} is a directory, not a file")
    parent = Path(os.path.abspath(p)).parent
    if not parent.exists():  # a picture goes into a directory that exists: never made
        raise UsageError(
            f"{option} {path} cannot be written: the directory {parent} does not "
            "exist (create it first; --plot makes no directories)"
        )
    check_out_dir(p.parent, option, shown=path, files=(p.name,))
