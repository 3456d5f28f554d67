"""``--contexts SPEC`` and ``--arms SPEC``: the context law and the arms beyond the paper's model
(:mod:`nbl_sim.beyond`, docs/beyond.md), shared by ``stability``, ``simulate`` and ``phase``.

The paper's model — ``--contexts gaussian`` (X ~ N(0, I_d)) and ``--arms symmetric`` — is the
default, and giving it explicitly changes nothing: :func:`beyond_specs` turns it into None, and
each command then runs exactly as without the options. Any other spec is parsed by
:func:`nbl_sim.beyond.contexts.parse_context_spec` / :func:`nbl_sim.beyond.arms.
parse_arms_spec` before any work (a bad spec is one line, exit 2).

This module also holds the text and JSON rows of the exact analysis
(:func:`nbl_sim.beyond.exact_stability`, :func:`nbl_sim.beyond.exact_phase`).
"""

from __future__ import annotations

import math

from .errors import UsageError

__all__ = [
    "CONTEXTS_HELP",
    "ARMS_HELP",
    "add_beyond_args",
    "beyond_specs",
    "context_law",
    "arms_check",
    "law_words",
    "stability_rows",
    "stability_report",
    "phase_row",
    "phase_report",
]

#: --contexts in --help: every law, its scaling, and the coordinates its options are written in
#: (the reference table is docs/beyond.md, "Conventions")
CONTEXTS_HELP = (
    "context law (default gaussian = N(0, I)): gaussian[:cond=C,angle=DEG | :cov=FILE.csv]; "
    "student-t:nu=NU[,cond=C,angle=DEG | ,cov=FILE.csv] (nu > 2, scaled to unit covariance "
    "before Sigma^(1/2) is applied, so Cov X = Sigma); ball, cube (uniform, scaled to unit "
    "covariance); rademacher (+-1 coordinates); empirical:FILE.csv[,standardize] (the rows as "
    "given, or each column z-scored); dataset:breast-cancer|wine (2 whitened principal "
    "components). Coordinates: v* = e1 and theta along e2 (before --arms rotate), so "
    "cov=FILE.csv is the d x d matrix in that basis and angle=DEG is the major axis's angle "
    "from v*; cond/angle give trace Sigma = 2. Numbers are decimals or fractions p/q "
    "(student-t:nu=9/2)"
)
ARMS_HELP = (
    "arm geometry (default symmetric, the paper's beta_a = theta + a (Delta/2) v*, "
    "v* = e1, theta = e2): shift=C (a_+- = Delta/2 +- C), intercept=C (arm +1's link "
    "g(z + C)), rotate=DEG (v* at DEG from e1, theta at DEG + 90); comma-separated, "
    "shift and intercept exclude each other; numbers are decimals or fractions p/q "
    "(shift=1/10)"
)
_DEFAULTS = {"contexts": "gaussian", "arms": "symmetric"}


def add_beyond_args(p) -> None:
    """``--contexts SPEC``, ``--arms SPEC`` (in a group that says they are not the paper's)."""
    g = p.add_argument_group("beyond the paper (nbl's own analysis; docs/beyond.md)")
    g.add_argument("--contexts", default=None, metavar="SPEC", help=CONTEXTS_HELP)
    g.add_argument("--arms", default=None, metavar="SPEC", help=ARMS_HELP)


def beyond_specs(args) -> tuple[str | None, str | None]:
    """(contexts, arms) as given, None for the paper's model (absent or the default spec)."""
    out = []
    for name, default in _DEFAULTS.items():
        spec = getattr(args, name, None)
        if spec is not None and not spec.strip():
            raise UsageError(f"--{name}: give a spec (default {default}; see --help)")
        out.append(None if spec is None or spec.strip().lower() == default else spec.strip())
    return out[0], out[1]


def context_law(spec: str | None, d: int):
    """The parsed context law of ``spec`` in dimension ``d`` (None for the paper's)."""
    if spec is None:
        return None
    from nbl_sim.beyond import parse_context_spec

    return parse_context_spec(spec, d)


def arms_check(spec: str | None, d: int = 2):
    """``check(link, delta)`` that parses ``spec`` for that link and Δ (one-line errors)."""
    from nbl_sim.beyond import parse_arms_spec

    def check(link, delta) -> None:
        if spec is not None:
            parse_arms_spec(spec, link, delta, d)

    return check


# ---------------------------------------------------------------------- stability
def stability_rows(results) -> list[dict]:
    """The JSON rows of :func:`nbl_sim.beyond.exact_stability` results (plain data)."""
    from .jsonout import plain

    return [plain(r) for r in results]


_SCALED = {
    "student-t": "multivariate t scaled to unit covariance",
    "ball": "uniform on a ball scaled to unit covariance",
    "cube": "uniform on a cube scaled to unit covariance",
}


def law_words(law: dict) -> str:
    """The scaling of a context law (``analysis["law"]`` of an exact-stability row) in words:
    which law, its covariance, the basis it is written in."""
    import numpy as np

    cov = np.asarray(law.get("covariance", np.eye(2)), dtype=float)
    base = _SCALED.get(law["family"], law["family"])
    if law["family"] == "empirical":
        return (
            f"{law.get('rows', '?')} data rows resampled"
            + (", columns z-scored" if law.get("standardized") == "columns z-scored" else "")
            + f"; Cov X = {_matrix(cov)}"
        )
    if np.allclose(cov, np.eye(cov.shape[0]), rtol=0, atol=1e-12):
        return f"{base}: Cov X = I" if law["family"] in _SCALED else f"{base}, Cov X = I"
    return f"{base}, then Sigma^(1/2): Cov X = Sigma = {_matrix(cov)}"


def _matrix(m) -> str:
    def one(x):
        return "0" if abs(x) < 1e-12 else f"{x:.4g}"

    return "[" + ", ".join("[" + ", ".join(one(x) for x in row) + "]" for row in m) + "]"


def _num(x, fmt: str) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, fmt)


def stability_report(results) -> list:
    """One row per (link, Δ): the Gaussian λ*, the exact local rate at v*, v*'s fate, the
    verdict and where NBL goes instead."""
    from nbl_sim.presentation.tables import make_table

    first = results[0]
    head = (
        f"contexts {first['contexts']} ({law_words(first['analysis']['law'])}), arms "
        f"{first['arms']}, d = {first['d']}; coordinates v* = e1, theta along e2 (before "
        "--arms rotate) (beyond the paper: the exact population analysis, docs/beyond.md)"
    )
    rows = []
    for r in results:
        rate = (
            "-"
            if r["exact_rate"] is None
            else f"{r['exact_rate']:.6g} +- {r['exact_rate_error']:.1e}"
        )
        fate = r["vstar_stability"] if r["vstar_equilibrium"] else "not an equilibrium"
        rows.append(
            [
                r["link"],
                r["delta"],
                f"{r['lambda_star']:.6g}",
                rate,
                fate,
                r["verdict"],
                _num(r["bias_deg"], ".4g"),
                _num(r["learned_regret"], ".3e"),
            ]
        )
    table = make_table(
        [
            "link",
            "delta",
            "lambda* (Gaussian)",
            "exact rate at v*",
            "v*",
            "verdict",
            "learned angle deg",
            "regret/round",
        ],
        rows,
    )
    from nbl_sim.presentation.conclusions import beyond_conclusion

    words = [
        f"conclusion ({r['link']}, delta = {r['delta']}): {beyond_conclusion(r)}" for r in results
    ]
    notes = sorted({n for r in results for n in r["notes"]})
    return [head, table, *words, *(f"note: {n}" for n in notes)]


# ---------------------------------------------------------------------- phase
def phase_row(ep, fixed: dict) -> dict:
    """The JSON row of an :class:`nbl_sim.beyond.ExactPhase` (layout as the paper's phase row:
    ``[i][j]`` belongs to ``deltas[i]`` and ``values[j]``)."""
    row = ep.to_json()
    link = row.pop("family")
    return {
        "link": link,
        "param": row.pop("param"),
        "fixed": dict(fixed),
        "axes": {"rows": "delta", "columns": ep.param},
        **row,
    }


def phase_report(ep) -> list:
    """Verdict counts and the mispredicted fraction of an exact phase grid."""
    from collections import Counter

    counts = Counter(str(v) for v in ep.verdict.ravel())
    frac = ep.mispredicted_fraction()
    return [
        f"{ep.family} ({ep.param} x delta), {len(ep.values)} x {len(ep.deltas)} grid, "
        f"contexts {ep.contexts}, arms {ep.arms}: "
        + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
        "mispredicted (sign-flip or biased): "
        + ("-" if math.isnan(frac) else f"{frac:.1%}")
        + " of the computed grid points",
        f"{ep.seconds:.2f} s on {ep.executor}"
        + (f" ({ep.cached} columns from the cache)" if ep.cached else ""),
    ]
