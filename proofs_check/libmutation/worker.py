"""One library mutant in a fresh process: ``python -m proofs_check.libmutation.worker IN OUT``.

``IN`` is a JSON file: ``mutant`` (a :class:`~proofs_check.libmutation.operators.MutantSpec`
as a dict, or null for the unmutated library), ``claims`` (ids, cheapest first), ``baseline``
({id: unmutated status}), ``tests`` (pytest node ids), ``budget`` (seconds for the claims),
``quick`` (run the claims as a quick run does: a slow claim through its reduced gates).
``OUT`` receives one JSON object per line as the work goes (so a run killed for time keeps
what it did): ``{"event": "claim", "id", "status", "detail", "text", "shown", "seconds"}``
(``text``: :func:`report_text`; ``shown``: :func:`shown`, its first :data:`SHOWN_CHARS`
characters), ``{"event": "load_error", "detail"}``, ``{"event": "budget", "not_run":
[...]}``, ``{"event": "tests", "exit", "failed"}``, ``{"event": "done"}``.

How the mutant takes effect: before anything of the library is imported, an import hook (a
:class:`importlib.abc.MetaPathFinder` first on ``sys.meta_path``) answers for the mutated
module with the code compiled from the mutated syntax tree under the module's own file name
(line numbers kept). No file of the work tree is written: the parent points
``PYTHONPYCACHEPREFIX`` at the run's own bytecode directory, outside the tree
(:func:`~proofs_check.libmutation.targets.subprocess_env`), and the hook's module has no cached
bytecode. A jitted function is compiled by numba from that code object. numba's kernels are
cached in the nbl cache (:func:`nbl_sim.engine.jit_cache.numba_cache_dir`), which the parent
gives empty to every mutant: a mutant that can change compiled code
(:func:`~proofs_check.libmutation.targets.numba_sensitive`) therefore compiles every kernel
from the mutated code, never loading one of the original; any other mutant is given the
unmutated kernels the run keeps (:func:`~proofs_check.libmutation.targets.seed_kernels`: the
same machine code, without a minute of compiling).

Tests run (in this same process, after the claims, only when no claim's verdict moved) with
``pytest -x``: the first failure kills the mutant.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.util
import json
import sys
import time
from pathlib import Path

from .operators import MutantSpec, mutated_code

__all__ = ["MutantFinder", "install", "main", "report_text", "shown", "SHOWN_CHARS"]


def report_text(result) -> str:
    """A fingerprint of what the report prints for one claim's result: its computed value and
    its detail (SHA-256, 16 hex digits). The coverage map records it for the unmutated
    library, the worker for the mutant: a mutant that moves it without moving the verdict
    changed the report with no FAIL (:func:`~proofs_check.libmutation.run.classify`)."""
    return hashlib.sha256(shown(result).encode()).hexdigest()[:16]


#: how much of :func:`shown` a worker's event and the coverage map keep (the first difference
#: of a moved text is looked for in it; the fingerprint covers the whole text)
SHOWN_CHARS = 4000


def shown(result) -> str:
    """What the report prints for one claim's result: its computed value, then its detail."""
    return f"{result.computed} | {result.detail}"


class _Loader(importlib.abc.Loader):
    def __init__(self, code):
        self.code = code

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(self.code, module.__dict__)  # noqa: S102 - the mutated module's own code


class MutantFinder(importlib.abc.MetaPathFinder):
    """Finds module ``name`` as ``code`` (compiled from the mutated source, file ``path``)."""

    def __init__(self, name: str, path: str, code):
        self.name, self.path, self.code = name, path, code

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        return importlib.util.spec_from_file_location(
            fullname, self.path, loader=_Loader(self.code)
        )


def install(spec: MutantSpec, root: Path) -> MutantFinder:
    """Put the mutant's finder first on ``sys.meta_path`` (the module must not be imported
    yet)."""
    if spec.module in sys.modules:
        raise RuntimeError(f"{spec.module} is already imported: the mutant would not apply")
    path = str(root / spec.path)
    finder = MutantFinder(spec.module, path, mutated_code(Path(path).read_text(), spec, path))
    sys.meta_path.insert(0, finder)
    return finder


class _Failures:
    def __init__(self):
        self.failed = []

    def pytest_runtest_logreport(self, report):
        if report.failed:
            self.failed.append(report.nodeid)

    def pytest_collectreport(self, report):
        """A test module that no longer imports under the mutant (e.g. it builds a family's
        link at import, and the mutated family is refused) is a failure the mutant caused —
        the unmutated tree collected it in the mapping run. pytest then reports its node ids
        as not found (exit 4), which alone would read as "the tests could not run"."""
        if report.failed:
            self.failed.append(f"collecting {report.nodeid or 'the tests'}")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    job = json.loads(Path(argv[0]).read_text())
    out = open(argv[1], "a", buffering=1)  # noqa: SIM115 - line-buffered event log

    def emit(**ev):
        out.write(json.dumps(ev) + "\n")

    from .targets import ROOT

    if job.get("mutant"):
        install(MutantSpec.from_dict(job["mutant"]), ROOT)
    t0 = time.perf_counter()
    try:
        from proofs_check.registry import REGISTRY

        claims = {c.id: c for c in REGISTRY.all_claims()}
    except Exception as exc:  # noqa: BLE001 - the mutant broke the import: nbl check fails
        emit(event="load_error", detail=f"{type(exc).__name__}: {exc}"[:500])
        emit(event="done")
        return 0
    base = job.get("baseline", {})
    moved = False
    ids = list(job.get("claims", []))
    for k, cid in enumerate(ids):
        if time.perf_counter() - t0 > job.get("budget", float("inf")):
            emit(event="budget", not_run=ids[k:])
            break
        c = claims[cid]
        r = REGISTRY.run_quick(c) if job.get("quick") else REGISTRY.run_one(c)
        emit(
            event="claim",
            id=cid,
            status=r.status,
            detail=(r.detail or "")[:300],
            text=report_text(r),
            shown=shown(r)[:SHOWN_CHARS],
            seconds=round(r.seconds, 3),
        )
        moved |= r.status not in (base.get(cid), "SKIPPED")
    tests = job.get("tests", [])
    if tests and not moved:
        import pytest

        fails = _Failures()
        rc = pytest.main(
            [
                *(str(ROOT / t) for t in tests),
                "-x",
                "-q",
                "-n",
                "0",
                "-p",
                "no:cacheprovider",
                f"--rootdir={ROOT}",
                "-c",
                str(ROOT / "pyproject.toml"),
                "--no-header",
            ],
            plugins=[fails],
        )
        emit(event="tests", exit=int(rc), failed=fails.failed[:5])
    emit(event="done")
    return 0


if __name__ == "__main__":  # pragma: no cover
    from proofs_check.process_end import run_then_end

    # ~1 s less per process: no freeing of every object at exit (the results are written)
    run_then_end(main)
