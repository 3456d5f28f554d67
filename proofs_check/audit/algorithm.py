r"""alg:nbl as printed (lines 478-502): its steps against eq:tangent_update, eq:nbl_update and the
text of sec:nbl, and what it leaves undefined, with what the toolkit chooses.

The algorithm's lines come from the packaged index (``extracted.INDEX["algorithm"]``); the
counterparts in the text are quoted here with their line numbers (checked against the paper by
``tests/proofs_check/test_audit.py``). Each step is compared after one documented rewrite:

* ``identity`` — equal after removing ``$``, spaces, ``\State``/``Observe``/``set``/``draw``
  and reading ``\gets`` as ``=``;
* ``expand-projection`` — ``P_{v_{t-1}}^\perp`` replaced by its definition ``I_d - vv^\top``
  (eq:tangent_update) at v = v_{t-1};
* ``normalized-mean`` — v_{n0} = W̄/‖W̄‖ with W̄ = n0^{-1} ΣW_t is the normalized sum: the
  positive factor n0^{-1} cancels.

The toolkit's choices are *probed*, not quoted: the functions below run
:func:`nbl_sim.policies.nbl.nbl_run` on inputs that hit each undefined case.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from nbl_sim.geometry import tangent_projection
from nbl_sim.policies.nbl import nbl_run, validate_step
from nbl_theory.errors import NBLInputError

__all__ = ["Step", "Gap", "STEPS", "GAPS", "alg_math", "paper_math", "compare_steps",
           "probe_sgn_zero", "probe_degenerate_init", "probe_step_sizes", "probe_retraction",
           "probe_horizon", "probe_given_start"]


@dataclass(frozen=True)
class Step:
    """One step of alg:nbl and its counterpart in the text."""

    id: str
    alg_lines: tuple      # lines of the algorithm environment
    paper: tuple          # ((line, quote), ...) of the counterpart
    where: str            # the label or "text" of the counterpart
    rewrite: str = "identity"


STEPS = (
    Step("stage-I-action", (484,), ((303, r"$A_t\sim\operatorname{Unif}\{-1,+1\}$"),), "text"),
    Step("stage-I-contrast", (485,), ((305, r"$W_t=A_tY_tX_t$"),), "text"),
    Step("initialization", (488, 489, 490),
         ((313, r"$v_{n_0}=\overline W_{n_0}/\|\overline W_{n_0}\|_2$"),
          (314, r"$\overline W_{n_0}=n_0^{-1}\sum_{t=1}^{n_0}W_t$")), "text", "normalized-mean"),
    Step("stage-II-range", (491,), ((343, r"\qquad t>n_0."),), "eq:nbl_update"),
    Step("greedy-action", (493,), ((328, r"A_t=\operatorname{sgn}(v_{t-1}^\top X_t)."),), "text"),
    Step("stage-II-contrast", (494,), ((305, r"$W_t=A_tY_tX_t$"),), "text"),
    Step("tangent-step", (495,), ((333, r"P_v^\perp=I_d-vv^\top,"),
                                  (335, r"G_t=P_{v_{t-1}}^\perp W_t.")), "eq:tangent_update",
         "expand-projection"),
    Step("retraction-update", (497, 498, 499),
         ((339, r"v_t"), (340, r"="), (341, r"\frac{v_{t-1}+\eta_tG_t}"),
          (342, r"{\|v_{t-1}+\eta_tG_t\|_2},")), "eq:nbl_update"),
)

_NOISE = (r"\State", r"\displaystyle", "Observe $X_t$;", "Observe $Y_t$;", "set", "draw", "$",
          r"\qquad")


def alg_math(algorithm: tuple, lines: tuple) -> str:
    """The math of the given algorithm lines, normalized (see the module docstring)."""
    text = {ln: t for ln, t in algorithm}
    out = " ".join(text.get(ln, "") for ln in lines)
    m = re.search(r"\\For\{\$(.*)\$\}", out)
    if m:                                   # a loop header: the range of t
        rng = m.group(1).replace(" ", "")
        lo = re.match(r"t=(.*?)(?:,|$)", rng)
        return "t>n_0" if lo and lo.group(1) == "n_0+1" else rng
    for w in _NOISE:
        out = out.replace(w, "")
    return re.sub(r"\s+", "", out).replace(r"\gets", "=").rstrip(".,")


def paper_math(step: Step) -> str:
    """The counterpart of ``step`` after its rewrite."""
    parts = [re.sub(r"\s+", "", q.replace("$", "").replace(r"\qquad", "")).rstrip(".,")
             for _, q in step.paper]
    if step.rewrite == "identity":
        return "".join(parts)
    if step.rewrite == "expand-projection":
        lhs, rhs = parts[0].split("=")                     # P_v^\perp = I_d - vv^\top
        sub = re.sub(r"v(?![_{])", "v_{t-1}", rhs)
        proj = lhs.replace("_v", "_{v_{t-1}}")
        return parts[1].replace(proj, "(" + sub + ")")
    if step.rewrite == "normalized-mean":
        m = re.fullmatch(r"(v_\{n_0\})=(.*)/\\\|(.*)\\\|_2", parts[0])
        w_bar, mean = parts[1].split("=", 1)
        if not m or m.group(2) != w_bar or m.group(3) != w_bar or not mean.startswith(
                "n_0^{-1}"):
            return "unrecognized: " + " ; ".join(parts)
        s = mean[len("n_0^{-1}"):]                         # n0^{-1} > 0 cancels
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
    quote: str            # the algorithm's words
    undefined: str
    resolution: tuple     # ((line, quote, what it says), ...) elsewhere in the paper
    changes_result: bool
    why: str


GAPS = (
    Gap("sgn-zero", 493, r"$A_t\gets\operatorname{sgn}(v_{t-1}^\top X_t)$",
        "sgn(0): the action when v_{t-1}^T X_t = 0",
        ((1733, r"+1,&v_{t-1}^\top X_t\geq0,\\",
          "the proof of lem:conditional_population_field takes A_t = +1 on {v^T X >= 0}"),
         (423, r"m_+(X)X\1\{v^\top X\geq0\}", "eq:Fdef puts the tie on arm +1 too")),
        False, "the tie has probability 0 under assum:gaussian_context (X_t continuous, "
               "independent of v_{t-1} != 0), so no result depends on it"),
    Gap("degenerate-init", 490, r"{\|\sum_{t=1}^{n_0}W_t\|_2}$",
        "v_{n0} when sum_t W_t = 0 (0/0); with Bernoulli rewards it has probability "
        "(1 - E g(Z))^{n0} > 0 (2^-n0 for a link with E g(Z) = 1/2)",
        ((1644, r"nonzero vectors $x,y\in\R^d$,",
          "the proof of prop:randomized_initialization uses ||x/||x|| - y/||y|||| <= "
          "2||x - y||/||y|| for nonzero x, with x = W-bar (line 1656)"),),
        False, "any unit vector chosen for v_{n0} on that event keeps eq:initialization-mse "
               "and eq:initialization-high-probability: with x = 0 the right-hand side is "
               "2||y||/||y|| = 2 >= ||v - v*|| for every unit v"),
    Gap("step-sizes", 482, r"step sizes $\{\eta_t\}_{t>n_0}$",
        "the step sizes: no sign, no form (the results take eta_t = gamma/(t + t0); t0's sign "
        "is never stated, the proofs use t0 >= 0 at line 5176)",
        ((4276, r"\eta_t=\frac{\gamma}{t+t_0}.", "eq:step_size"),
         (929, r"$\eta_t=\gamma/(t+t_0)$, where $2\gamma\lambda_0>1$,",
          "prop:localized-estimation")),
        False, "every result states its step size; t0 >= 0 is reported under the "
               "hypotheses-* claims"),
    Gap("retraction-norm", 499, r"{\|v_{t-1}+\eta_tG_t\|_2}$",
        "the case ||v_{t-1} + eta_t G_t|| = 0 — not a gap",
        ((4100, r"1+\eta_t^2\|G_t\|_2^2", "||v + eta G||^2 = 1 + eta^2 ||G||^2 >= 1 since "
                                          "G is tangent (lines 4095-4101)"),),
        False, "the denominator is >= 1 for a unit v_{t-1}"),
    Gap("horizon", 491, r"\For{$t=n_0+1,n_0+2,\ldots, n$}",
        "the horizon n is not among the inputs (line 482); n0 = 0 makes v_0 = 0/0 and "
        "n0 >= n leaves Stage II empty",
        ((985, r"$n_0<n$", "thm:regret-rate requires n0 < n (and n0 = ceil(C0(d + log n)) "
                            ">= 1)"),),
        False, "the only result about Stage II states n0 < n; n0 >= 1 follows from its n0"),
    Gap("given-start", 482, r"\Require $n_0$, step sizes",
        "a given initial direction: the experiments of app:stochastic-nbl start 10 degrees "
        "from v* without Stage I, which alg:nbl as printed cannot express",
        ((6003, r"initial direction is displaced by $10^\circ$ from $v^\star$",
          "app:simulation-setup"),
         (6344, r"displacement of $10^\circ$ from $v^\star$", "app:stochastic-nbl")),
        False, "a variant of the algorithm for illustrations; no result is stated for it"),
)


# ------------------------------------------------------------------------------ the toolkit
def probe_sgn_zero(run=nbl_run) -> int:
    """The toolkit's action when v_{t-1}^T X_t = 0 exactly (d = 2, v = e1, X = e2)."""
    X = np.array([[[0.0, 1.0]]])
    Y = np.array([[[0.0, 1.0]]])
    tr = run(X, Y, np.zeros((1, 0), dtype=np.int8), np.array([1.0, 0.0]),
             v0=np.array([1.0, 0.0]))
    return int(tr.actions[0, 0])


def probe_degenerate_init(run=nbl_run) -> dict:
    """Run Stage I with every reward 0 (sum W_t = 0) and n0 = n: what v_{n0} becomes."""
    R, n, d = 3, 4, 2
    X = np.random.default_rng(0).standard_normal((R, n, d))
    coins = np.where(np.random.default_rng(1).random((R, n)) < 0.5, -1, 1).astype(np.int8)
    tr = run(X, np.zeros((R, n, 2)), coins, np.array([1.0, 0.0]))
    v = np.asarray(tr.v_final, dtype=float)
    norms = np.linalg.norm(v, axis=1)
    return {"degenerate_init": int(tr.info.get("degenerate_init", -1)), "replications": R,
            "v": v.tolist(), "unit": bool(np.all(np.isfinite(v)) and
                                          np.allclose(norms, 1.0, rtol=0, atol=1e-15))}


def probe_step_sizes(validate=validate_step) -> dict:
    """Which (gamma, t0) the toolkit accepts."""
    out = {}
    for gamma, t0 in ((10.0, 500.0), (10.0, 0.0), (10.0, -0.5), (0.0, 500.0), (-1.0, 500.0),
                      (10.0, -1.0)):
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
    tr = run(X, np.ones((1, 5, 2)), np.zeros((1, 0), dtype=np.int8), np.array([1.0, 0.0]),
             v0=np.array([math.cos(a), math.sin(a)]))
    return {"n0": int(tr.info.get("n0", -1)), "angle_deg": 10.0}
