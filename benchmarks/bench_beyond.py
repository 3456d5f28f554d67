"""Benchmark: the exact population analysis beyond the paper (nbl_sim.beyond.analyze) of one
(link, Δ, context law) case in d = 2, against baselines run in the same process.

What is timed
-------------
* ``analyze`` — the whole analysis of a case: the field model (polar quadrature at two
  resolutions, or exact sums), whether v* is an equilibrium, the Jacobian spectrum at v*,
  every zero of H on a 720-point circle with its spectrum, the learned boundary, its regret
  and the best linear boundary (nbl_sim.beyond.case). Target (issue 18): ≤ 1 s in float64.
* ``F(v) library`` — one evaluation of the field F(v) (eq:Fdef) at one direction v (20° from
  v*) by the same model (``field_model(law, arms).field``), error estimate included.
* ``F(v) dblquad`` — the baseline: F(v) written as its definition and integrated with
  ``scipy.integrate.dblquad`` at default tolerances, in the rotated coordinates
  (s, u) = (vᵀx, v_⊥ᵀx) so that the decision boundary s = 0 is a limit of integration (one
  2-D integral per half-plane and coordinate, 4 in all; the density of the law at
  x = s v + u v_⊥, zero outside its support). The integrand is scalar Python (the link's
  ``g_numpy`` on one point), the obvious way to write it.
* ``F(v) Monte Carlo`` — the mean of (m_+ 1{vᵀX ≥ 0} − m_− 1{vᵀX < 0})X over 10⁶ draws of
  the law, with its standard error; the column "N for library accuracy" extrapolates
  (SE ∝ N^{−1/2}) how many draws would match the library's stated error.

Accuracy: |value − reference|, the reference being the library's fine-resolution value (its
stated error, |fine − coarse| + the link table's error, is printed next to it).

Ratios are against the dblquad baseline run in this process: ``analyze`` / (one baseline F(v))
says how many field evaluations of the naive kind the *whole* analysis costs; ``F(v) library``
/ baseline is the per-evaluation speed-up.

Usage::

    python benchmarks/bench_beyond.py [--quick] [--json OUT]

No assertion is made on any timing: the script reports, the reader judges.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import platform
import statistics
import sys
import time
import warnings

import numpy as np
import scipy
from scipy import integrate

from nbl_sim.beyond import analyze
from nbl_sim.beyond.analysis import field_model
from nbl_sim.beyond.arms import symmetric_arms
from nbl_sim.beyond.contexts import parse_context_spec
from nbl_theory.paper import paper_link

DELTA = "0.2"
ANGLE_DEG = 20.0
TARGET_S = 1.0
#: (paper link, context law spec)
CASES = [
    ("tt-stable", "gaussian:cond=3,angle=30"),
    ("tt-stable", "student-t:nu=3"),
    ("tt-stable", "cube"),
    ("tt-stable", "ball"),
    ("we-0.72", "gaussian:cond=3,angle=30"),
]
QUICK_CASES = CASES[:2]
REPEATS, QUICK_REPEATS = 5, 2


from _machine import cpu_model  # noqa: E402  (benchmarks/ is on sys.path)


# ---------------------------------------------------------------------- densities (baseline)
def _density(law):
    """The density p(x) of a 2-D law as a scalar function, and a radius R with p = 0 (or
    negligible: Gaussian/t handled by infinite limits) beyond it."""
    fam, d = law.family, 2
    if fam == "gaussian":
        cov = law.covariance
        inv, det = np.linalg.inv(cov), float(np.linalg.det(cov))
        c = 1.0 / (2 * math.pi * math.sqrt(det))
        a, b, e = float(inv[0, 0]), float(inv[0, 1]), float(inv[1, 1])
        return (
            lambda x0, x1: c * math.exp(-0.5 * (a * x0 * x0 + 2 * b * x0 * x1 + e * x1 * x1))
        ), math.inf
    if fam == "student-t":
        nu = law.nu
        s2 = (nu - 2) / nu  # Y = T·((ν−2)/ν)^{1/2} has identity covariance
        c = math.gamma((nu + d) / 2) / (math.gamma(nu / 2) * nu * math.pi * s2)
        return (
            lambda x0, x1: c * (1 + (x0 * x0 + x1 * x1) / (nu * s2)) ** (-(nu + d) / 2)
        ), math.inf
    if fam == "cube":
        h = math.sqrt(3.0)
        return (lambda x0, x1: 1 / 12.0 if abs(x0) <= h and abs(x1) <= h else 0.0), math.sqrt(6.0)
    if fam == "ball":
        r2 = 4.0
        return (lambda x0, x1: 1 / (4 * math.pi) if x0 * x0 + x1 * x1 <= r2 else 0.0), 2.0
    raise ValueError(fam)


class DblquadField:
    """F(v) from eq:Fdef with scipy dblquad at default tolerances (module docstring)."""

    def __init__(self, law, arms):
        self.p, self.R = _density(law)
        self.beta = arms.beta
        self.g = arms.links

    def __call__(self, v):
        v = np.asarray(v, dtype=float)
        vp = np.array([-v[1], v[0]])
        bm, bp = self.beta
        gm, gp = self.g
        p = self.p
        lim = self.R
        calls = [0]

        def integrand(u, s, i, arm):
            calls[0] += 1
            x0 = s * v[0] + u * vp[0]
            x1 = s * v[1] + u * vp[1]
            w = p(x0, x1)
            if w == 0.0:
                return 0.0
            b = bp if arm > 0 else bm
            g = (gp if arm > 0 else gm).g_numpy(np.array([b[0] * x0 + b[1] * x1]))[0]
            return arm * float(g) * (x0 if i == 0 else x1) * w

        out = np.zeros(2)
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            for i in (0, 1):
                # arm +1 on s >= 0, minus arm −1 on s < 0 (dblquad(f(y, x)): x = s, y = u)
                out[i] += integrate.dblquad(
                    lambda u, s, i=i: integrand(u, s, i, 1.0), 0.0, lim, -lim, lim
                )[0]
                out[i] += integrate.dblquad(
                    lambda u, s, i=i: integrand(u, s, i, -1.0), -lim, 0.0, -lim, lim
                )[0]
        return out, calls[0]


def monte_carlo_field(law, arms, v, n=1_000_000, seed=0):
    x = law.sample(np.random.default_rng(seed), n)
    m = arms.means(x)
    side = x @ v >= 0
    t = np.where(side, m[:, 1], -m[:, 0])[:, None] * x
    return t.mean(axis=0), t.std(axis=0, ddof=1) / math.sqrt(n)


# ---------------------------------------------------------------------- timing
def _repeat(fn, repeats):
    fn()
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), times, out


def run_case(link_key, spec, repeats, log):
    link = paper_link(link_key)
    law = parse_context_spec(spec)
    arms = symmetric_arms(link, DELTA)
    a0 = math.radians(ANGLE_DEG)
    v = np.array([math.cos(a0), math.sin(a0)])
    log(f"{link_key} / {spec}: analyze")
    t_an, times_an, res = _repeat(lambda: analyze(law, arms), repeats)
    model = field_model(law, arms)
    t_lib, _, est = _repeat(lambda: model.field(v[None, :]), max(repeats, 5))
    ref, ref_err = est.value[0], est.error[0]
    # the library's one-F(v) time includes building the model (tables are per case)
    t_build, _, _ = _repeat(lambda: field_model(law, arms).field(v[None, :]), repeats)
    log(f"{link_key} / {spec}: dblquad baseline")
    base = DblquadField(law, arms)
    t_base, _, (fb, calls) = _repeat(lambda: base(v), 1)
    log(f"{link_key} / {spec}: Monte Carlo")
    t_mc, _, (fm, se) = _repeat(lambda: monte_carlo_field(law, arms, v), 1)
    lib_err = float(np.max(ref_err))
    n_match = 1e6 * (float(np.max(se)) / max(lib_err, 1e-300)) ** 2
    return {
        "link": link_key,
        "law": spec,
        "delta": DELTA,
        "v_angle_deg": ANGLE_DEG,
        "analyze_s": t_an,
        "analyze_times_s": times_an,
        "analyze_target_s": TARGET_S,
        "analyze_target_met": t_an <= TARGET_S,
        "vstar_stability": res.vstar_stability,
        "learned_deg": res.bias_deg,
        "field_library_s": t_lib,
        "field_library_with_build_s": t_build,
        "field_library_error": lib_err,
        "field_dblquad_s": t_base,
        "field_dblquad_calls": calls,
        "field_dblquad_abs_error": float(np.max(np.abs(fb - ref))),
        "field_mc_s": t_mc,
        "field_mc_se": float(np.max(se)),
        "field_mc_abs_error": float(np.max(np.abs(fm - ref))),
        "mc_samples_for_library_accuracy": n_match,
        "ratio_analyze_vs_one_dblquad": t_an / t_base,
        "ratio_field_library_vs_dblquad": t_lib / t_base,
        "ratio_field_with_build_vs_dblquad": t_build / t_base,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="two cases, two repeats")
    ap.add_argument("--json", metavar="OUT", help="write every row and the machine here")
    a = ap.parse_args(argv)
    cases = QUICK_CASES if a.quick else CASES
    repeats = QUICK_REPEATS if a.quick else REPEATS

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    rows = [run_case(k, s, repeats, log) for k, s in cases]
    hdr = (
        f"{'case':42} {'analyze':>9} {'F lib':>9} {'F+build':>9} {'dblquad':>9} "
        f"{'an/dbl':>7} {'F/dbl':>8} {'lib err':>9} {'dbl err':>9} {'MC SE 1e6':>9} "
        f"{'MC N':>8}"
    )
    print(hdr)
    for r in rows:
        print(
            f"{r['link'] + ' / ' + r['law']:42} {r['analyze_s']:8.3f}s "
            f"{1e3 * r['field_library_s']:7.2f}ms {1e3 * r['field_library_with_build_s']:7.1f}ms"
            f" {r['field_dblquad_s']:8.2f}s {r['ratio_analyze_vs_one_dblquad']:7.1e} "
            f"{r['ratio_field_library_vs_dblquad']:8.1e} {r['field_library_error']:9.1e} "
            f"{r['field_dblquad_abs_error']:9.1e} {r['field_mc_se']:9.1e} "
            f"{r['mc_samples_for_library_accuracy']:8.0e}"
        )
    met = sum(r["analyze_target_met"] for r in rows)
    print(f"analyze <= {TARGET_S:g} s in {met} of {len(rows)} cases")
    if a.json:
        machine = {
            "python": platform.python_version(),
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "cpu": cpu_model(),
            "date": datetime.datetime.now().isoformat(timespec="seconds"),
        }
        with open(a.json, "w") as fh:
            json.dump({"rows": rows, "machine": machine}, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
