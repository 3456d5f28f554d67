"""Cache keys and run-time history of the parallel claim runner (:mod:`proofs_check.runner`).

A claim's result is cached under a key built by the rule the sweeps use
(:func:`nbl_sim.runs.sweep.cell_key`): SHA-256 of what the result can depend on —

* the registry (``"module:attribute"``), the claim id and the ``quick`` flag;
* :func:`claim_fingerprint` of the module that defines the claim's check function
  (``claim.check.__module__``): the source of that module and of every module of the same
  project it imports, transitively (the claim's witnesses, :mod:`proofs_check.registry`), and
  for every ``nbl_theory`` / ``nbl_sim`` module reached,
  :func:`nbl_sim.runs.sweep.source_fingerprint`
  (which follows *their* imports, with the sweeps' rule for the presentation folder);
* :func:`nbl_sim.runs.sweep.library_versions` (Python, nbl, numpy, scipy, mpmath, sympy,
  python-flint, numba).
* the package data a reached module can read: every file in a ``data`` folder beside it
  (e.g. ``proofs_check/audit/data/*.json``, read with :mod:`importlib.resources`).

So editing a claim module, a witness it uses or the numerics below it recomputes exactly the
claims that import them; editing another claim module, the report or the CLI recomputes nothing.
Package ``__init__`` files reached only as parents are not followed (``proofs_check.claims``
imports every claim module; following it would make every claim depend on every other).

Fingerprinting parses the source of every module reached (about 3 s for the paper's claims).
:func:`claim_keys` therefore remembers the fingerprints in the claims cache under
:func:`tree_digest` — the SHA-256 of every source file of the packages involved — so a re-run
of an unchanged checkout only hashes files; any edit anywhere in those packages recomputes
them all (exactly as above).

:func:`load_timings` / :func:`save_timings` keep each claim's last measured CPU seconds (in the
claims cache, one entry per registry and mode) so the next run starts the longest tasks first.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import sys
from pathlib import Path

from nbl_sim.runs.sweep import imported_modules, library_versions, reachable, source_fingerprint

__all__ = [
    "claim_fingerprint",
    "claim_key",
    "claim_keys",
    "tree_digest",
    "timings_key",
    "load_timings",
    "save_timings",
    "DELEGATED",
]

#: packages whose modules are fingerprinted by :func:`nbl_sim.runs.sweep.source_fingerprint`
DELEGATED = ("nbl_theory", "nbl_sim")
_WALKED = ("proofs_check",)  # walked here (plus the claim module's own top package)


def _module_file(name: str) -> Path | None:
    """The source file of module ``name`` (``.py`` or package ``__init__.py``) without importing
    it (only its top-level package is located)."""
    top, _, rest = name.partition(".")
    try:
        spec = sys.modules[top].__spec__ if top in sys.modules else importlib.util.find_spec(top)
    except (ImportError, ValueError, AttributeError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        base = Path(list(spec.submodule_search_locations)[0])
    elif spec.origin and not rest:
        return Path(spec.origin) if spec.origin.endswith(".py") else None
    else:
        return None
    base = base.joinpath(*rest.split(".")) if rest else base
    for p in (base.with_suffix(".py") if rest else None, base / "__init__.py"):
        if p is not None and p.is_file():
            return p
    return None


def _imports(name: str, path: Path, source: bytes) -> frozenset[str]:
    """Every module (or ``module.name``) imported anywhere in ``source`` (the text of ``path``),
    relative imports resolved (:func:`nbl_sim.runs.sweep.imported_modules`, memoized on the
    text)."""
    return imported_modules(name, path.name == "__init__.py", source)


@functools.cache
def claim_fingerprint(module: str) -> str | None:
    """SHA-256 over the source a claim defined in ``module`` can depend on (module docstring),
    or None when ``module``'s source cannot be found (such a claim is not cached)."""
    if _module_file(module) is None:
        return None
    walked = {*_WALKED, module.partition(".")[0]} - set(DELEGATED)
    seen: dict[str, bytes] = {}
    data: dict[str, bytes] = {}
    delegated: set[str] = set()

    def step(m: str) -> frozenset[str]:
        top = m.partition(".")[0]
        if top in DELEGATED:
            delegated.add(m)
            return frozenset()
        f = _module_file(m) if top in walked else None
        if f is None:  # outside the walk, or "module.name" not a submodule
            return frozenset()
        seen[m] = f.read_bytes()
        package = m if f.name == "__init__.py" else m.rpartition(".")[0]
        for d in _data_files(f):  # keyed by package and path: the key moves with the tree
            data[f"{package}/{d.relative_to(f.parent).as_posix()}"] = d.read_bytes()
        return _imports(m, f, seen[m])

    reachable(module, step)
    h = hashlib.sha256()
    for m in sorted(seen):
        h.update(m.encode() + b"\0" + seen[m] + b"\0")
    for name in sorted(data):
        h.update(name.encode() + b"\0" + data[name] + b"\0")
    for m in sorted(delegated):
        if _delegated_file(m):
            h.update(m.encode() + b"\0" + source_fingerprint(m).encode() + b"\0")
    return h.hexdigest()


def _delegated_file(name: str) -> bool:
    """True when ``name`` is an nbl_theory / nbl_sim module (not ``module.attribute``)."""
    return _module_file(name) is not None


#: the folder beside a module that holds the package data it reads
_DATA_DIR = "data"


def _data_files(module_file: Path) -> list[Path]:
    """The package data files beside ``module_file`` (its folder's ``data/``, recursively)."""
    d = module_file.parent / _DATA_DIR
    if not d.is_dir():
        return []
    return sorted(p for p in d.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def claim_key(registry: str, claim_id: str, quick: bool, module: str) -> str | None:
    """The cache key of a claim's result (module docstring), or None when the claim's module
    cannot be fingerprinted (then it is recomputed every time)."""
    return _key(registry, claim_id, quick, module, claim_fingerprint(module))


def _package_dir(top: str) -> Path | None:
    f = _module_file(top)
    return f.parent if f is not None and f.name == "__init__.py" else None


def tree_digest(packages) -> str:
    """SHA-256 over the path and text of every ``.py`` file and every package data file (in a
    ``data`` folder) of the top-level ``packages``."""
    h = hashlib.sha256()
    for top in sorted(set(packages)):
        base = _package_dir(top)
        if base is None:
            f = _module_file(top)
            files = [f] if f is not None else []
        else:
            files = sorted(
                p
                for p in base.rglob("*")
                if p.is_file()
                and (p.suffix == ".py" or _DATA_DIR in p.relative_to(base).parts[:-1])
            )
        h.update(top.encode() + b"\0")
        for f in files:
            rel = f.relative_to(base).as_posix() if base is not None else f.name
            h.update(rel.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def claim_keys(registry: str, claims, quick: bool, cache=None) -> list[str | None]:
    """:func:`claim_key` of every claim, the module fingerprints remembered in ``cache``
    under the :func:`tree_digest` of the packages involved (module docstring)."""
    modules = sorted({c.check.__module__ for c in claims})
    tops = {*DELEGATED, *_WALKED, *(m.partition(".")[0] for m in modules)}
    memo_key = None
    prints: dict = {}
    if cache is not None:
        memo_key = f"fingerprints-{tree_digest(tops)[:40]}"
        hit, value = cache.get(memo_key)
        if hit and isinstance(value, dict):
            prints = dict(value)
    missing = [m for m in modules if m not in prints]
    for m in missing:
        prints[m] = claim_fingerprint(m)
    if cache is not None and missing:
        cache.put(memo_key, prints)
    return [
        _key(registry, c.id, quick, c.check.__module__, prints[c.check.__module__]) for c in claims
    ]


def _key(registry: str, claim_id: str, quick: bool, module: str, source: str | None):
    if source is None:
        return None
    payload = {
        "kind": "nbl-claim-result",
        "registry": registry,
        "claim": claim_id,
        "quick": bool(quick),
        "module": module,
        "source": source,
        "versions": library_versions(),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def timings_key(registry: str, quick: bool) -> str:
    """The cache key of the run-time history of ``registry`` in one mode."""
    tag = hashlib.sha256(f"{registry}|{bool(quick)}".encode()).hexdigest()[:32]
    return f"timings-{tag}"


def load_timings(cache, registry: str, quick: bool) -> dict:
    """``{task name: CPU seconds}`` measured by earlier runs (empty without a cache)."""
    if cache is None:
        return {}
    hit, value = cache.get(timings_key(registry, quick))
    if not hit or not isinstance(value, dict):
        return {}
    return {str(k): float(v) for k, v in value.items() if isinstance(v, (int, float))}


def save_timings(cache, registry: str, quick: bool, measured: dict) -> None:
    """Merge ``measured`` ``{task name: CPU seconds}`` into the stored history."""
    if cache is None or not measured:
        return
    merged = load_timings(cache, registry, quick)
    merged.update({str(k): round(float(v), 4) for k, v in measured.items()})
    cache.put(timings_key(registry, quick), merged)
