"""Run figure modules (:mod:`nbl_sim.presentation.figures`), cache their data, write the files
and a gallery.

For each figure ``ID`` the output directory receives ``ID.png``, ``ID.pdf``, one CSV per data
table (``ID__TABLE.csv``), ``ID.json`` (settings, package versions, seconds, whether the data
came from the cache) and, for all figures, ``index.md`` — each figure with the paper's caption
claim and one line on what the reproduction shows.

Cache: a figure's data is stored under ``cache_dir`` keyed by a hash of the figure id, the mode
(quick/full), the package version and the source fingerprint of the figure module
(:func:`nbl_sim.sweep.source_fingerprint`: the module itself and every library module it imports,
not the rest of the presentation package), so an interrupted run resumes with the figures already
computed, and a changed figure, library module or parameter never reuses stale data while a
changed color or plot does not throw the data away.

:func:`write_tables` and :func:`json_default` are the CSV and JSON writers every figure-like output
uses (also ``nbl study --out``, through :func:`write_study`).
"""

from __future__ import annotations

import csv
import hashlib
import inspect
import json
import math
import pickle
import time
import warnings
from pathlib import Path

import numpy as np

from nbl_sim.execution import Executor, SerialExecutor, make_executor
from nbl_sim.experiment import package_versions
from nbl_sim.sweep import SweepError, run_sweep, source_fingerprint
from nbl_theory.errors import NBLInputError

from .figures import load_figures

__all__ = ["reproduce", "cache_key", "write_tables", "json_default", "write_study"]


def cache_key(fig_id: str, module, quick: bool) -> str:
    """The data-cache key of figure ``fig_id`` computed by ``module`` in mode ``quick``: the
    module's own source and the source fingerprint of everything it imports
    (:func:`nbl_sim.sweep.source_fingerprint`; modules outside nbl have only their own source)."""
    src = inspect.getsource(module)
    version = package_versions().get("nbl") or "unknown"
    deps = source_fingerprint(module.__name__)
    h = hashlib.sha256(f"{fig_id}|{quick}|{version}|{deps}|".encode() + src.encode())
    return h.hexdigest()[:20]


def _compute(module, fig_id: str, quick: bool):
    if len(getattr(module, "IDS", (module.ID,))) > 1:
        return module.compute(quick, fig_id)
    return module.compute(quick)


def _draw(module, fig_id: str, data):
    if len(getattr(module, "IDS", (module.ID,))) > 1:
        return module.draw(data, fig_id)
    return module.draw(data)


def _attr(module, name: str, fig_id: str):
    val = getattr(module, name)
    return val[fig_id] if isinstance(val, dict) else val


def write_tables(out: Path, prefix: str, data) -> list[Path]:
    """One CSV file ``out/<prefix>__<table>.csv`` per table of ``data`` (a
    :class:`~nbl_sim.presentation.figures.base.FigureData`): floats by ``repr`` (exact round
    trip), NaN and missing cells empty, shorter columns padded. Returns the paths."""
    files = []
    for name, cols in data.tables.items():
        path = out / f"{prefix}__{name}.csv"
        arrays = {k: np.atleast_1d(np.asarray(v)) for k, v in cols.items()}
        n = max(a.size for a in arrays.values())
        with path.open("w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(list(arrays))
            for i in range(n):
                w.writerow([_cell(a, i) for a in arrays.values()])
        files.append(path)
    return files


def _cell(a: np.ndarray, i: int) -> str:
    if i >= a.size:
        return ""
    x = a.ravel()[i]
    if isinstance(x, (float, np.floating)):
        return "" if math.isnan(x) else repr(float(x))
    return str(x)


def _compute_by_id(cell):
    fig_id, quick = cell
    return _compute(load_figures()[fig_id], fig_id, quick)


def reproduce(figures=None, *, quick: bool = False, out_dir="figures",
              cache_dir: str | Path | None = ".nbl_cache/figures", progress=None,
              registry: dict | None = None, executor: Executor | None = None,
              workers: int | None = None, scheduler: str | None = None) -> list[dict]:
    """Compute and draw ``figures`` (ids; all when empty) and write their files.

    The figures' data are computed as cells of one sweep (:func:`nbl_sim.sweep.run_sweep`) on
    ``executor`` (default: in this process; ``workers=N`` a local pool, ``scheduler`` a Dask
    cluster), each stored in the cache as soon as it arrives; drawing happens here.

    Returns one record per figure: id, label, title, files, seconds, cached, summary.
    """
    reg = registry if registry is not None else load_figures()
    wanted = list(figures) if figures else list(reg)
    unknown = [f for f in wanted if f not in reg]
    if unknown:
        raise NBLInputError(f"unknown figure(s) {unknown}; available: {', '.join(reg)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    cache = Path(cache_dir) if cache_dir else None
    if cache:
        cache.mkdir(parents=True, exist_ok=True)
    paths, datas = {}, {}
    for fig_id in wanted:
        key = cache_key(fig_id, reg[fig_id], quick)
        paths[fig_id] = (cache / f"{fig_id}-{'quick' if quick else 'full'}-{key}.pkl"
                         if cache else None)
        if paths[fig_id] is not None and paths[fig_id].exists():
            with paths[fig_id].open("rb") as fh:
                datas[fig_id] = pickle.load(fh)
    cached_ids = set(datas)
    todo = [f for f in wanted if f not in datas]
    seconds: dict = {}

    def keep(j: int, data) -> None:
        fig_id = todo[j]
        datas[fig_id] = data
        now = time.perf_counter()
        seconds[fig_id] = now - last[0]     # time since the previous figure arrived
        last[0] = now
        path = paths[fig_id]
        if path:
            tmp = path.with_suffix(".tmp")
            with tmp.open("wb") as fh:
                pickle.dump(data, fh)
            tmp.replace(path)  # atomic: an interrupted write never leaves a bad entry

    last = [time.perf_counter()]
    if todo:
        if registry is None:     # figure modules load by id on any worker
            fn, cells = _compute_by_id, [(f, quick) for f in todo]
        else:                    # custom modules only exist here: run in this process
            fn, cells = (lambda c: _compute(reg[c[0]], c[0], c[1])), [(f, quick) for f in todo]
            executor = SerialExecutor()
        own = executor is None
        if own:
            executor = make_executor(workers, work=0.0, scheduler=scheduler)
        try:
            res = run_sweep(fn, cells, executor=executor, progress=progress, on_result=keep)
        finally:
            if own:
                executor.close()
        if res.failures:
            raise SweepError(res.failures)

    records = []
    for fig_id in wanted:
        module = reg[fig_id]
        tic = time.perf_counter()
        data = datas[fig_id]
        cached = fig_id in cached_ids
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a figure that warns is a bug in the figure
            fig = _draw(module, fig_id, data)
            files = []
            for ext in ("png", "pdf"):
                p = out / f"{fig_id}.{ext}"
                fig.savefig(p, dpi=150 if ext == "png" else None)
                files.append(p)
        files += write_tables(out, fig_id, data)
        secs = time.perf_counter() - tic + seconds.get(fig_id, 0.0)
        rec = {
            "id": fig_id,
            "label": _attr(module, "LABEL", fig_id),
            "title": _attr(module, "TITLE", fig_id),
            "caption": _attr(module, "CAPTION", fig_id),
            "summary": data.summary,
            "settings": data.settings,
            "quick": quick,
            "cached": cached,
            "seconds": round(secs, 3),
            "versions": package_versions(),
            "files": [f.name for f in files],
        }
        (out / f"{fig_id}.json").write_text(json.dumps(rec, indent=2, default=json_default) + "\n")
        rec["files"].append(f"{fig_id}.json")
        records.append(rec)
    _write_index(out, records, quick)
    return records


def json_default(x):
    """``json.dumps(..., default=json_default)``: numpy scalars and arrays as numbers and lists,
    anything else as its ``str``."""
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    return str(x)


def _write_index(out: Path, records: list[dict], quick: bool) -> None:
    lines = ["# Figures of “Elicitation and Decision Geometry in Single-Index Bandits”", "",
             f"Regenerated by `nbl reproduce{' --quick' if quick else ''}`"
             f"{' (quick mode: fewer replications, coarser grids)' if quick else ''}. "
             "Each figure's data are in the CSV files next to it; settings, seeds and versions "
             "in its JSON manifest.", ""]
    for r in records:
        lines += [f"## {r['title']} (`{r['id']}`, {r['label']})", "",
                  f"![{r['id']}]({r['id']}.png)", "",
                  f"- **Paper's caption claim:** {r['caption']}",
                  f"- **Reproduction shows:** {r['summary']}",
                  f"- {r['seconds']:.1f} s{' (data from cache)' if r['cached'] else ''}; files: "
                  + ", ".join(f"`{f}`" for f in r["files"]), ""]
    (out / "index.md").write_text("\n".join(lines) + "\n")


def write_study(out_dir, data) -> list[Path]:
    """The files of ``nbl study --out``: ``study.json`` (the analysis), one CSV per table
    (``study__<table>.csv``) and ``study.png``, from the regret-rate figure's data (``data`` =
    :func:`nbl_sim.presentation.figures.regret_rate.figure_data`). Returns the paths."""
    from .figures.regret_rate import draw

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = [out / "study.json"]
    files[0].write_text(json.dumps(data.extra["analysis"], indent=1, default=json_default) + "\n")
    files += write_tables(out, "study", data)
    draw(data).savefig(out / "study.png", dpi=130)
    files.append(out / "study.png")
    return files
