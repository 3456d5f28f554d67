"""Arguments several subcommands share: the link source, comma lists of Δ and parameters, grids,
execution options (Dask scheduler, local workers, cache) and the JSON printer."""

from __future__ import annotations

import argparse
import itertools
import json

from nbl_theory.errors import NBLInputError
from nbl_theory.families import FAMILIES, make_family
from nbl_theory.links import Link

__all__ = ["add_link_args", "parse_params", "links_from_args", "deltas", "grid_arg",
           "add_exec_args", "cache_from_args", "print_json", "one_or_list", "glue_values",
           "VALUE_OPTIONS"]


# ---------------------------------------------------------------------- the link
def add_link_args(p: argparse.ArgumentParser) -> None:
    """``--link | --potential [--domain] | --family [--param k=v ...]``."""
    g = p.add_argument_group("link (exactly one of --link, --potential, --family)")
    g.add_argument("--link", metavar="EXPR", help="link g as an expression in z, e.g. 'tanh(z)'")
    g.add_argument("--potential", metavar="EXPR",
                   help="strictly convex potential phi as an expression in m; g = (phi')^-1")
    g.add_argument("--domain", metavar="LO,HI", default=None,
                   help="domain of the potential (default 0,1); use inf/-inf for unbounded ends")
    g.add_argument("--family", metavar="NAME",
                   help="named family: " + ", ".join(sorted(FAMILIES)))
    g.add_argument("--param", metavar="k=v", action="append", default=[],
                   help="family parameter (repeatable; v1,v2,... gives one row per value)")


def parse_params(items) -> dict[str, list[str]]:
    """``["k=v1,v2", ...]`` → ``{k: [v1, v2]}`` (one-line errors for malformed items)."""
    out: dict[str, list[str]] = {}
    for item in items:
        if "=" not in item:
            raise NBLInputError(f"--param expects k=v, got {item!r}")
        k, v = item.split("=", 1)
        k = k.strip()
        if not k.isidentifier():
            raise NBLInputError(f"--param name {k!r} is not a valid parameter name")
        vals = [x.strip() for x in v.split(",") if x.strip()]
        if not vals:
            raise NBLInputError(f"--param {k} has no value")
        out.setdefault(k, []).extend(vals)
    return out


def links_from_args(args) -> list[Link]:
    """The links named by the link arguments (one per combination of comma-listed params)."""
    chosen = [x for x in (args.link, args.potential, args.family) if x is not None]
    if len(chosen) != 1:
        raise NBLInputError("give exactly one of --link EXPR, --potential EXPR, --family NAME")
    if args.domain is not None and args.potential is None:
        raise NBLInputError("--domain only applies to --potential")
    if args.param and args.family is None:
        raise NBLInputError("--param only applies to --family")
    if args.link is not None:
        return [Link.from_expression(args.link)]
    if args.potential is not None:
        return [Link.from_potential(args.potential, domain=args.domain or "0,1")]
    params = parse_params(args.param)
    keys = list(params)
    return [make_family(args.family, **dict(zip(keys, combo)))
            for combo in itertools.product(*(params[k] for k in keys))]


def deltas(text: str | None) -> list[str]:
    """``"D1,D2"`` → ``["D1", "D2"]`` (decimal strings, validated by the theory core)."""
    if text is None:
        raise NBLInputError("--delta is required")
    vals = [x.strip() for x in str(text).split(",") if x.strip()]
    if not vals:
        raise NBLInputError("--delta has no value")
    return vals


def grid_arg(text: str, name: str) -> tuple[float, float, int]:
    """``"LO:HI:N"`` → ``(lo, hi, n)`` with 1 ≤ N ≤ 100000."""
    parts = str(text).split(":")
    try:
        lo, hi, n = float(parts[0]), float(parts[1]), int(parts[2])
    except (IndexError, ValueError):
        raise NBLInputError(f"{name} must be LO:HI:N, e.g. -2.5:3.5:40; got {text!r}") from None
    if len(parts) != 3 or n < 1 or n > 100_000:
        raise NBLInputError(f"{name} must be LO:HI:N with 1 <= N <= 100000; got {text!r}")
    return lo, hi, n


# ---------------------------------------------------------------------- execution
def add_exec_args(p: argparse.ArgumentParser, cache_default: str, workers: bool = True) -> None:
    """``--scheduler``, ``--workers`` (unless ``workers`` is False), ``--cache-dir``,
    ``--no-cache``."""
    p.add_argument("--scheduler", default=None, metavar="ADDR",
                   help="run on a Dask cluster: tcp://HOST:PORT of a running scheduler, or "
                        "local:N for a local cluster of N workers (default: "
                        "$NBL_DASK_SCHEDULER, else local processes)")
    if workers:
        p.add_argument("--workers", type=int, default=None, metavar="N",
                       help="local process pool of N workers (default: all cores when the "
                            "work is large; 1 = in-process)")
    p.add_argument("--cache-dir", default=cache_default, metavar="DIR",
                   help=f"finished chunks are cached here, so an interrupted run resumes "
                        f"(default {cache_default})")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the cache")


def cache_from_args(args, namespace: str):
    """The :class:`~nbl_sim.sweep.ChunkCache` the execution options ask for (None: no cache)."""
    from nbl_sim.sweep import ChunkCache

    return None if args.no_cache else ChunkCache(args.cache_dir, namespace)


def print_json(payload, indent: int = 2, default=None) -> None:
    """``payload`` as JSON on stdout."""
    print(json.dumps(payload, indent=indent, default=default))


def one_or_list(items: list):
    """The JSON of one row is the row itself; of several rows, the list."""
    return items[0] if len(items) == 1 else items


# ---------------------------------------------------------------------- argv
#: options whose value may start with '-' (``--potential -log(m)``, ``--domain -1,1``)
VALUE_OPTIONS = frozenset({"--link", "--potential", "--domain", "--delta", "--param",
                           "--solve-for", "--init-angle"})


def glue_values(argv: list[str]) -> list[str]:
    """Write ``--opt -value`` as ``--opt=-value`` for :data:`VALUE_OPTIONS`, so argparse does not
    take the value for an option."""
    out, i = [], 0
    while i < len(argv):
        tok = argv[i]
        if (tok in VALUE_OPTIONS and i + 1 < len(argv) and argv[i + 1].startswith("-")
                and not argv[i + 1].startswith("--")):
            out.append(f"{tok}={argv[i + 1]}")
            i += 2
            continue
        out.append(tok)
        i += 1
    return out
