r"""alg:nbl as printed (lines 478-502): its steps against eq:tangent_update, eq:nbl_update and the
text of sec:nbl, and what it leaves undefined, with what the toolkit chooses.

The algorithm's lines come from the packaged index (``extracted.INDEX["algorithm"]``); the
steps and gaps, with the counterparts in the text quoted with their line numbers (checked against
the paper by ``tests/proofs_check/test_audit.py``), are package data
(``proofs_check/audit/data/algorithm.json``). Each step is compared after one documented rewrite:

* ``identity`` — equal after removing ``$``, spaces, ``\State``/``Observe``/``set``/``draw``
  and reading ``\gets`` as ``=``;
* ``expand-projection`` — ``P_{v_{t-1}}^\perp`` replaced by its definition ``I_d - vv^\top``
  (eq:tangent_update) at v = v_{t-1};
* ``normalized-mean`` — v_{n0} = W̄/‖W̄‖ with W̄ = n0^{-1} ΣW_t is the normalized sum: the
  positive factor n0^{-1} cancels.

The toolkit's choices are *probed*, not quoted: the functions below run
:func:`nbl_sim.engine.nbl_kernel.nbl_run` on inputs that hit each undefined case.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from nbl_sim.engine.contract import validate_step
from nbl_sim.engine.geometry import tangent_projection
from nbl_sim.engine.nbl_kernel import nbl_run
from nbl_theory.errors import NBLInputError

from .packaged import read_json, records

__all__ = [
    "Step",
    "Gap",
    "STEPS",
    "GAPS",
    "alg_math",
    "paper_math",
    "compare_steps",
    "probe_sgn_zero",
    "probe_degenerate_init",
    "probe_step_sizes",
    "probe_retraction",
    "probe_horizon",
    "probe_given_start",
]


@dataclass(frozen=True)
class Step:
    """One step of alg:nbl and its counterpart in the text."""

    id: str
    alg_lines: tuple  # lines of the algorithm environment
    paper: tuple  # ((line, quote), ...) of the counterpart
    where: str  # the label or "text" of the counterpart
    rewrite: str = "identity"


_DATA = read_json("algorithm.json")

#: the steps of alg:nbl, from the package data file ``data/algorithm.json``
STEPS = records(Step, _DATA["steps"])

_NOISE = (
    r"\State",
    r"\displaystyle",
    "Observe $X_t$;",
    "Observe $Y_t$;",
    "set",
    "draw",
    "$",
    r"\qquad",
)


def alg_math(algorithm: tuple, lines: tuple) -> str:
    """The math of the given algorithm lines, normalized (see the module docstring)."""
    text = {ln: t for ln, t in algorithm}
    out = " ".join(text.get(ln, "") for ln in lines)
    m = re.search(r"\\For\{\$(.*)\$\}", out)
    if m:  # a loop header: the range of t
        rng = m.group(1).replace(" ", "")
        lo = re.match(r"t=(.*?)(?:,|$)", rng)
        return "t>n_0" if lo and lo.group(1) == "n_0+1" else rng
    for w in _NOISE:
        out = out.replace(w, "")
    return re.sub(r"\s+", "", out).replace(r"\gets", "=").rstrip(".,")


def paper_math(step: Step) -> str:
    """The counterpart of ``step`` after its rewrite."""
    parts = [
        re.sub(r"\s+", "", q.replace("$", "").replace(r"\qquad", "")).rstrip(".,")
        for _, q in step.paper
    ]
    if step.rewrite == "identity":
        return "".join(parts)
    if step.rewrite == "expand-projection":
        lhs, rhs = parts[0].split("=")  # P_v^\perp = I_d - vv^\top
        sub = re.sub(r"v(?![_{])", "v_{t-1}", rhs)
        proj = lhs.replace("_v", "_{v_{t-1}}")
        return parts[1].replace(proj, "(" + sub + ")")
    if step.rewrite == "normalized-mean":
        m = re.fullmatch(r"(v_\{n_0\})=(.*)/\\\|(.*)\\\|_2", parts[0])
        w_bar, mean = parts[1].split("=", 1)
        if not m or m.group(2) != w_bar or m.group(3) != w_bar or not mean.startswith("n_0^{-1}"):
            return "unrecognized: " + " ; ".join(parts)
        s = mean[len("n_0^{-1}") :]  # n0^{-1} > 0 cancels
        return f"{m.group(1)}=\\frac{{{s}}}{{\\|{s}\\|_2}}"
    raise ValueError(f"unknown rewrite {step.rewrite!r}")


def compare_steps(algorithm: tuple, steps=STEPS) -> list[tuple]:
    """[(step id, alg form, paper form, equal?)] for every step."""
    out = []
    for s in steps:
        a, p = alg_math(algorithm, s.alg_lines), paper_math(s)
        out.append((s.id, a, p, a == p))
    return out


@dataclass(frozen=True)
class Gap:
    """Something alg:nbl leaves undefined, where the paper (if anywhere) resolves it."""

    id: str
    line: int
    quote: str  # the algorithm's words
    undefined: str
    resolution: tuple  # ((line, quote, what it says), ...) elsewhere in the paper
    changes_result: bool
    why: str


#: what alg:nbl leaves undefined, from ``data/algorithm.json``
GAPS = records(Gap, _DATA["gaps"])


# ------------------------------------------------------------------------------ the toolkit
def probe_sgn_zero(run=nbl_run) -> int:
    """The toolkit's action when v_{t-1}^T X_t = 0 exactly (d = 2, v = e1, X = e2)."""
    X = np.array([[[0.0, 1.0]]])
    Y = np.array([[[0.0, 1.0]]])
    tr = run(X, Y, np.zeros((1, 0), dtype=np.int8), np.array([1.0, 0.0]), v0=np.array([1.0, 0.0]))
    return int(tr.actions[0, 0])


def probe_degenerate_init(run=nbl_run) -> dict:
    """Run Stage I with every reward 0 (sum W_t = 0) and n0 = n: what v_{n0} becomes."""
    R, n, d = 3, 4, 2
    X = np.random.default_rng(0).standard_normal((R, n, d))
    coins = np.where(np.random.default_rng(1).random((R, n)) < 0.5, -1, 1).astype(np.int8)
    tr = run(X, np.zeros((R, n, 2)), coins, np.array([1.0, 0.0]))
    v = np.asarray(tr.v_final, dtype=float)
    norms = np.linalg.norm(v, axis=1)
    return {
        "degenerate_init": int(tr.info.get("degenerate_init", -1)),
        "replications": R,
        "v": v.tolist(),
        "unit": bool(np.all(np.isfinite(v)) and np.allclose(norms, 1.0, rtol=0, atol=1e-15)),
    }


def probe_step_sizes(validate=validate_step) -> dict:
    """Which (gamma, t0) the toolkit accepts."""
    out = {}
    for gamma, t0 in (
        (10.0, 500.0),
        (10.0, 0.0),
        (10.0, -0.5),
        (0.0, 500.0),
        (-1.0, 500.0),
        (10.0, -1.0),
    ):
        try:
            validate(gamma, t0)
            out[(gamma, t0)] = True
        except NBLInputError:
            out[(gamma, t0)] = False
    return out


def probe_retraction(project=tangent_projection, n: int = 2000) -> float:
    """max | ||v + eta P_v w||^2 - (1 + eta^2 ||P_v w||^2) | / (1 + eta^2 ||P_v w||^2) over
    random unit v, w and eta in (0, 10) in d = 2..5."""
    rng = np.random.default_rng(20260)
    worst = 0.0
    for d in (2, 3, 5):
        v = rng.standard_normal((n, d))
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        w = rng.standard_normal((n, d)) * rng.exponential(3.0, (n, 1))
        eta = rng.uniform(0.0, 10.0, (n, 1))
        g = project(v, w)
        x = v + eta * g
        ref = 1.0 + eta[:, 0] ** 2 * (g * g).sum(axis=1)
        worst = max(worst, float(np.max(np.abs((x * x).sum(axis=1) - ref) / ref)))
    return worst


def probe_horizon(run=nbl_run) -> dict:
    """Does the toolkit accept n0 = 0 (randomized start), n0 = n and n0 > n?"""
    R, n, d = 2, 3, 2
    X = np.random.default_rng(2).standard_normal((R, n, d))
    Y = np.ones((R, n, 2))
    out = {}
    for n0 in (0, n, n + 1):
        coins = np.ones((R, n0), dtype=np.int8)
        try:
            tr = run(X, Y, coins, np.array([1.0, 0.0]))
            out[n0] = "accepted" + (" (Stage II empty)" if n0 == n else "")
            if not np.all(np.isfinite(tr.v_final)):
                out[n0] += ", non-finite v_n"
        except NBLInputError as exc:
            out[n0] = f"rejected: {exc}"
    return out


def probe_given_start(run=nbl_run) -> dict:
    """Run from a given start v0 (10 degrees from v*): the n0 the toolkit records."""
    X = np.random.default_rng(3).standard_normal((1, 5, 2))
    a = math.radians(10.0)
    tr = run(
        X,
        np.ones((1, 5, 2)),
        np.zeros((1, 0), dtype=np.int8),
        np.array([1.0, 0.0]),
        v0=np.array([math.cos(a), math.sin(a)]),
    )
    return {"n0": int(tr.info.get("n0", -1)), "angle_deg": 10.0}
