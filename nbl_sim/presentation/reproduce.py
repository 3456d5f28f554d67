"""Run figure modules (:mod:`nbl_sim.presentation.figures`), cache their data, write the files
and a gallery.

For each figure ``ID`` the output directory receives ``ID.png``, ``ID.pdf``, one CSV per data
table (``ID__TABLE.csv``), ``ID.json`` (settings, package versions, seconds, whether the data
came from the cache) and, for all figures, ``index.md`` — each figure with the paper's caption
claim and one line on what the reproduction shows.

Figures are named by id or by paper label (:func:`figure_id`; ``fig:numerical-summary`` is
``numerical-summary``).

Cache: a figure's data are stored in a :class:`~nbl_sim.runs.cache.ChunkCache` (namespace
``figures``) as plain data (:meth:`FigureData.to_data`; JSON and ``.npz``, never pickle), keyed
by a hash of the figure id, the mode (quick/full), the versions of Python, nbl and the numerical
libraries and the source fingerprint of the figure module
(:func:`nbl_sim.runs.sweep.source_fingerprint`: the module itself and every library module it
imports,
not the rest of the presentation package), so an interrupted run resumes with the figures already
computed, and a changed figure, library module, library version or parameter never reuses stale
data while a changed color or plot does not throw the data away. An entry that is not valid data
of a figure is recomputed and replaced. Every output file is written to a unique temporary file
and moved into place, so concurrent runs on the same directories do not collide.

:func:`write_tables` and :func:`json_default` are the CSV and JSON writers every figure-like output
uses (also ``nbl study --out``, through :func:`write_study`).
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import inspect
import json
import math
import time
import warnings
from pathlib import Path

import numpy as np

from nbl_sim.runs.execution import Executor, SerialExecutor, executor_for
from nbl_sim.runs.outputs import output_set, replacing, save_figure, write_text
from nbl_sim.runs.sweep import (
    ChunkCache,
    SweepError,
    library_versions,
    run_sweep,
    source_fingerprint,
)
from nbl_sim.studies.experiment import package_versions
from nbl_theory.errors import NBLInputError
from nbl_theory.records import manifest_text

from .figures import load_figures
from .figures.base import FigureData

__all__ = ["reproduce", "figure_id", "cache_key", "write_tables", "json_default", "write_study"]


def cache_key(fig_id: str, module, quick: bool) -> str:
    """The data-cache key of figure ``fig_id`` computed by ``module`` in mode ``quick``: SHA-256
    of the id, the mode, the versions of Python, nbl and the numerical libraries
    (:func:`nbl_sim.runs.sweep.library_versions`), the module's own source and the source
    fingerprint of everything it imports (:func:`nbl_sim.runs.sweep.source_fingerprint`; modules
    outside nbl have only their own source).

    Parameters
    ----------
    fig_id : str
        The figure id.
    module : module
        The figure module that computes it.
    quick : bool
        The mode.

    Returns
    -------
    str
        64 hexadecimal digits.
    """
    payload = {
        "figure": fig_id,
        "quick": bool(quick),
        "versions": library_versions(),
        "imports": source_fingerprint(module.__name__),
        "source": hashlib.sha256(inspect.getsource(module).encode()).hexdigest(),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


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
    trip), NaN and missing cells empty, shorter columns padded. Returns the paths.

    Parameters
    ----------
    out : pathlib.Path
        The directory written into.
    prefix : str
        The files' name prefix (e.g. the figure id).
    data : FigureData
        The figure's data (its ``tables``: name -> columns).

    Returns
    -------
    list of pathlib.Path
        The CSV files written, one per table.
    """
    files = []
    for name, cols in data.tables.items():
        path = out / f"{prefix}__{name}.csv"
        arrays = {k: np.atleast_1d(np.asarray(v)) for k, v in cols.items()}
        n = max(a.size for a in arrays.values())
        with replacing(path) as tmp, tmp.open("w", newline="") as fh:
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


def figure_id(name: str, registry: dict | None = None) -> str:
    """The figure id of ``name``: a figure id or the figure's paper label (e.g.
    ``fig:numerical-summary``).

    Parameters
    ----------
    name : str
        A figure id or a figure's paper label.
    registry : dict, optional
        Figure id -> module (default: the shipped figures).

    Returns
    -------
    str
        The figure id.

    Raises
    ------
    NBLInputError
        ``name`` is neither (one line, with the closest ids and labels).
    """
    reg = registry if registry is not None else load_figures()
    if name in reg:
        return name
    by_label: dict = {}
    for fid, module in reg.items():
        by_label.setdefault(_attr(module, "LABEL", fid), []).append(fid)
    if len(by_label.get(name, ())) == 1:
        return by_label[name][0]
    names = {
        **{fid: fid for fid in reg},
        **{lab: ids[0] for lab, ids in by_label.items() if len(ids) == 1},
    }
    close = dict.fromkeys(
        names[c] for c in difflib.get_close_matches(str(name), list(names), n=6, cutoff=0.5)
    )
    hint = (
        f"did you mean {' or '.join(_named(f, reg) for f in list(close)[:3])}?"
        if close
        else f"figures: {', '.join(reg)}"
    )
    raise NBLInputError(
        f"unknown figure {name!r}; {hint} (nbl reproduce --list shows ids and paper labels)"
    )


def _named(fig_id: str, registry: dict) -> str:
    return f"{fig_id!r} ({_attr(registry[fig_id], 'LABEL', fig_id)})"


def reproduce(
    figures=None,
    *,
    quick: bool = False,
    out_dir="figures",
    cache: ChunkCache | None = None,
    cache_dir: str | Path | None = None,
    progress=None,
    registry: dict | None = None,
    executor: Executor | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    writer=None,
) -> list[dict]:
    """Compute and draw ``figures`` (ids or paper labels; all when empty) and write their files.

    The figures' data are computed as cells of one sweep (:func:`nbl_sim.runs.sweep.run_sweep`) on
    ``executor`` (default: in this process; ``workers=N`` a local pool, ``scheduler`` a Dask
    cluster), each stored in ``cache`` as soon as it arrives; drawing happens here. The files
    are then written into ``out_dir`` as a set (:func:`nbl_sim.runs.outputs.output_set`, index
    ``index.md`` last; each figure's manifest and the index carry the run's id).

    Parameters
    ----------
    figures : iterable of str, optional
        Figure ids or paper labels (e.g. ``fig:numerical-summary``); None or empty: every
        figure.
    quick : bool, default False
        Compute the figures' quick forms (smaller grids and fewer replications).
    out_dir : str or pathlib.Path, default "figures"
        Where the files are written.
    cache : ChunkCache, optional
        A cache for the figures' data (None: no cache), e.g.
        ``ChunkCache(namespace="figures")`` in the user's cache directory.
    cache_dir : str or pathlib.Path, optional
        Shorthand for ``cache=ChunkCache(cache_dir, "figures")``.
    progress : callable, optional
        ``progress(done, total)`` in figures computed.
    registry : dict, optional
        Figure id -> figure module (default: the shipped figures); custom modules run in this
        process.
    executor : Executor, optional
        Where the figures' data are computed (default: in this process).
    workers : int, optional
        A local pool of this many processes for the default executor.
    scheduler : str, optional
        A Dask scheduler address for the default executor.
    writer : callable, optional
        ``writer(write)`` writes the files instead of the default ``output_set`` block: it
        must call ``write(o)`` with an :class:`~nbl_sim.runs.outputs.OutputSet` (the command line
        passes one that reports a file-system fault as a message, after the result).

    Returns
    -------
    list of dict
        One record per figure: id, label, title, files, seconds, cached, summary. The records
        are complete whether or not the files could be written (``files`` lists the names
        written; empty if the writing failed).
    """
    reg = registry if registry is not None else load_figures()
    wanted = list(dict.fromkeys(figure_id(f, reg) for f in figures)) if figures else list(reg)
    if cache is None and cache_dir is not None:
        cache = ChunkCache(cache_dir, "figures")
    keys = {f: cache_key(f, reg[f], quick) for f in wanted} if cache is not None else {}
    datas: dict = {}
    for fig_id, key in keys.items():
        hit, raw = cache.get(key)
        if hit:
            try:
                datas[fig_id] = FigureData.from_data(raw)
            except ValueError:  # well-formed plain data of another shape: recompute
                pass
    cached_ids = set(datas)
    todo = [f for f in wanted if f not in datas]
    seconds: dict = {}

    def keep(j: int, data) -> None:
        fig_id = todo[j]
        datas[fig_id] = data
        now = time.perf_counter()
        seconds[fig_id] = now - last[0]  # time since the previous figure arrived
        last[0] = now
        if cache is not None:
            try:
                cache.put(keys[fig_id], data.to_data())
            except TypeError as exc:  # a figure whose data are not plain data: a bug
                raise TypeError(f"figure {fig_id!r}: {exc}") from None

    last = [time.perf_counter()]
    if todo:
        if registry is None:  # figure modules load by id on any worker
            fn, cells = _compute_by_id, [(f, quick) for f in todo]
        else:  # custom modules only exist here: run in this process
            fn, cells = (lambda c: _compute(reg[c[0]], c[0], c[1])), [(f, quick) for f in todo]
            executor = SerialExecutor()
        with executor_for(executor, workers, work=0.0, scheduler=scheduler) as ex:
            res = run_sweep(fn, cells, executor=ex, progress=progress, on_result=keep)
        if res.failures:
            raise SweepError(res.failures)

    records = [
        {
            "id": fig_id,
            "label": _attr(reg[fig_id], "LABEL", fig_id),
            "title": _attr(reg[fig_id], "TITLE", fig_id),
            "caption": _attr(reg[fig_id], "CAPTION", fig_id),
            "summary": datas[fig_id].summary,
            "settings": datas[fig_id].settings,
            "quick": quick,
            "cached": fig_id in cached_ids,
            "seconds": round(seconds.get(fig_id, 0.0), 3),
            "versions": package_versions(),
            "files": [],
        }
        for fig_id in wanted
    ]

    def write(o) -> None:
        for rec in records:
            _write_figure(Path(o.path), reg[rec["id"]], datas[rec["id"]], rec, o.run_id)
        _write_index(Path(o.path), records, quick, o.run_id)

    if writer is None:
        with output_set(out_dir, index=("index.md",)) as o:
            write(o)
    else:
        writer(write)
    return records


def _write_figure(out: Path, module, data, rec: dict, run_id: str) -> None:
    """Draw one figure and write its PNG, PDF, CSV tables and manifest into ``out``; fills
    ``rec["files"]`` and adds the drawing time to ``rec["seconds"]``."""
    fig_id = rec["id"]
    tic = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a figure that warns is a bug in the figure
        fig = _draw(module, fig_id, data)
        files = []
        for ext in ("png", "pdf"):
            p = out / f"{fig_id}.{ext}"
            save_figure(fig, p, dpi=150 if ext == "png" else None)
            files.append(p)
    files += write_tables(out, fig_id, data)
    rec["seconds"] = round(rec["seconds"] + time.perf_counter() - tic, 3)
    names = [f.name for f in files]
    write_text(
        out / f"{fig_id}.json",
        manifest_text(
            "reproduce", [{k: v for k, v in rec.items() if k != "files"}], names, run_id=run_id
        ),
    )
    rec["files"] = [*names, f"{fig_id}.json"]


def json_default(x):
    """``json.dumps(..., default=json_default)``: numpy scalars and arrays as numbers and lists,
    anything else as its ``str``.

    Parameters
    ----------
    x : object
        A value ``json`` cannot write.

    Returns
    -------
    int, float, list or str
        Its JSON stand-in.
    """
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    if isinstance(x, np.ndarray):
        return x.tolist()
    return str(x)


def _write_index(out: Path, records: list[dict], quick: bool, run_id: str) -> None:
    lines = [
        "# Figures of “Elicitation and Decision Geometry in Single-Index Bandits”",
        "",
        f"Regenerated by `nbl reproduce{' --quick' if quick else ''}`"
        f"{' (quick mode: fewer replications, coarser grids)' if quick else ''}, "
        f"run `{run_id}`. "
        "Each figure's data are in the CSV files next to it; settings, seeds and versions "
        "in its JSON manifest (which names the same run).",
        "",
    ]
    for r in records:
        lines += [
            f"## {r['title']} (`{r['id']}`, {r['label']})",
            "",
            f"![{r['id']}]({r['id']}.png)",
            "",
            f"- **Paper's caption claim:** {r['caption']}",
            f"- **Reproduction shows:** {r['summary']}",
            f"- {r['seconds']:.1f} s{' (data from cache)' if r['cached'] else ''}; files: "
            + ", ".join(f"`{f}`" for f in r["files"]),
            "",
        ]
    write_text(out / "index.md", "\n".join(lines) + "\n")


def write_study(out_dir, data, run_id: str | None = None) -> list[Path]:
    """The files of ``nbl study --out``: ``study.json`` (the analysis, in the toolkit's JSON
    envelope, :func:`nbl_theory.records.manifest_text`, with the run's id), one CSV per table
    (``study__<table>.csv``) and ``study.png``, from the regret-rate figure's data (``data`` =
    :func:`nbl_sim.presentation.figures.regret_rate.figure_data`), written into ``out_dir``
    (the command line gives it a staging directory of :func:`nbl_sim.runs.outputs.output_set`).
    Returns the paths.

    Parameters
    ----------
    out_dir : str or pathlib.Path
        The directory written into (created if needed).
    data : FigureData
        The regret-rate figure's data.
    run_id : str, optional
        The run's id, recorded in ``study.json``.

    Returns
    -------
    list of pathlib.Path
        The files written.
    """
    from .figures.regret_rate import draw

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = write_tables(out, "study", data)
    save_figure(draw(data), out / "study.png", dpi=130)
    files.append(out / "study.png")
    analysis = json.loads(json.dumps(data.extra["analysis"], default=json_default))
    write_text(
        out / "study.json",
        manifest_text("study", [analysis], ["study.json", *(f.name for f in files)], run_id=run_id),
    )
    return [out / "study.json", *files]
