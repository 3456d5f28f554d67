"""Benchmark: the decision stability coefficient λ* by the library's three tiers, against a
direct scipy baseline run in the same process.

Baseline (the paper's definitions, eq:mu_star_m2_def and eq:decision_stability, evaluated the
obvious way with scipy at *default* tolerances):

.. math::

    μ^\\star = \\int_{\\mathbb R}\\int_0^\\infty g'(u + Δz/2)\\, φ_s(u) φ_0(z)\\, dz\\, du
    \\quad (\\texttt{scipy.integrate.dblquad}),\\qquad
    m_2 = \\int_{\\mathbb R} g''(u) φ_s(u)\\, du \\quad (\\texttt{scipy.integrate.quad}),

    λ_\\star = Δμ^\\star − 2φ_0(0)(m_2)_+ s^2,\\qquad s^2 = 1 − Δ^2/4 .

For expression links g', g'' are ``link.derivatives`` lambdified to scalar ``math`` functions
(``numpy`` fallback where ``math`` overflows). For a potential link g = (φ')⁻¹ the baseline inverts
φ' with ``scipy.optimize.brentq`` on (1e-150, 1 − 2⁻⁵³) at every integrand evaluation and uses
g' = 1/φ''(m), g'' = −φ'''(m)/φ''(m)³ — the naive approach the library avoids by integrating in m.
The integrands return 0 where the Gaussian weight underflows (otherwise sinh/cosh³ gives nan).

Library tiers: ``stability(link, '0.2')`` (float64), ``stability(link, '0.2', certify=True)``
(Arb enclosure) and ``stability(link, '0.2', dps=50)`` (mpmath). The reference value of λ* is
the mpmath tier at 50 digits; it is checked against the certified enclosure.

Every timing is the median of several ``time.perf_counter`` repeats after a warm-up call, so
one-time work (sympy differentiation, lambdify, Arb compilation) is excluded; that one-time cost
is reported separately (``make_family(...)`` + first call, on a fresh Link). Process-wide first
use (imports inside sympy/scipy, the first lambdify, the first Arb integral) is paid once before
the cases, on two links that are not benchmarked, and its time is printed.

Usage::

    python benchmarks/bench_stability.py [--quick] [--json OUT] [--baseline-budget SECONDS]

No assertion is made on any timing: the script reports, the reader judges.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import statistics
import sys
import time
import warnings

import flint
import mpmath
import numpy as np
import scipy
import sympy as sp
from scipy import integrate, optimize

from nbl_theory.families import make_family
from nbl_theory.links import Link, M, Z
from nbl_theory.paper import PAPER_LINKS
from nbl_theory.stability import stability

DELTA = "0.2"
_PHI0 = 1.0 / math.sqrt(2.0 * math.pi)

#: (family, parameter, value) — the paper's named links at Δ = 0.2 (nbl_theory.paper.PAPER_LINKS).
CASES = [(r.family, *r.parameter) for r in PAPER_LINKS.values()]
QUICK_CASES = [CASES[0], CASES[3]]

#: Targets of the issue. float64: median time (ms) per family, speed-up over the baseline and
#: accuracy no worse than the baseline's; certified: ≤ 100 ms; mpmath (50 digits): ≤ 1 s.
FLOAT_MS = {"two-transition": 10.0, "weighted-entropy": 25.0}
FLOAT_MIN_RATIO = 50.0
CERTIFIED_MS = 100.0
CERTIFIED_DIGITS = 38
MPMATH_MS = 1000.0

REPEATS = {"baseline": 7, "float64": 51, "certified": 11, "mpmath": 7}
QUICK_REPEATS = {"baseline": 3, "float64": 3, "certified": 3, "mpmath": 3}


# ---------------------------------------------------------------------- baseline
class _OverBudget(RuntimeError):
    pass


from _machine import cpu_model  # noqa: E402  (benchmarks/ is on sys.path)


def _scalar(expr, var):
    """``expr`` as a scalar float function: ``math`` module, ``numpy`` where math overflows."""
    f_math = sp.lambdify(var, expr, modules="math")
    f_np = sp.lambdify(var, expr, modules="numpy")

    def f(x):
        try:
            return f_math(x)
        except (OverflowError, ValueError, ZeroDivisionError):
            with np.errstate(all="ignore"):
                return float(f_np(x))

    return f


class DirectBaseline:
    """λ* from the 2-D definition with scipy ``dblquad``/``quad`` at default settings.

    Built once per link (lambdify happens here, outside the timed call). Calling it returns
    (λ*, μ*, m2, number of integrand calls, warnings); it raises :class:`_OverBudget` when the
    evaluation exceeds ``budget`` seconds (checked inside the integrand).
    """

    def __init__(self, link: Link, delta: float, budget: float):
        self.delta = delta
        self.budget = budget
        self.s2 = 1.0 - delta * delta / 4.0
        d = link.derivatives
        if link.kind == "expression":
            self.g1 = _scalar(d["g1"], Z)
            self.g2 = _scalar(d["g2"], Z)
        else:
            p1, p2, p3 = (_scalar(d[k], M) for k in ("phi1", "phi2", "phi3"))
            lo, hi = 1e-150, math.nextafter(1.0, 0.0)
            z_lo, z_hi = p1(lo), p1(hi)

            def inverse(z):  # m = (φ')⁻¹(z), clamped to the float-representable range
                if z <= z_lo:
                    return lo
                if z >= z_hi:
                    return hi
                return optimize.brentq(lambda m: p1(m) - z, lo, hi)

            def g1(z):  # g'(z) = 1/φ''(m)
                return 1.0 / p2(inverse(z))

            def g2(z):  # g''(z) = −φ'''(m)/φ''(m)³
                m = inverse(z)
                return -p3(m) / p2(m) ** 3

            self.g1, self.g2 = g1, g2

    def __call__(self):
        delta, s2, g1, g2 = self.delta, self.s2, self.g1, self.g2
        c_u = 1.0 / math.sqrt(2.0 * math.pi * s2)
        deadline = time.perf_counter() + self.budget
        calls = [0]

        def tick():
            calls[0] += 1
            if calls[0] & 255 == 0 and time.perf_counter() > deadline:
                raise _OverBudget

        def f_mu(z, u):  # dblquad integrates f(y, x): x = u ∈ ℝ, y = z ∈ (0, ∞)
            tick()
            w = c_u * math.exp(-0.5 * u * u / s2) * _PHI0 * math.exp(-0.5 * z * z)
            return 0.0 if w == 0.0 else g1(u + 0.5 * delta * z) * w

        def f_m2(u):
            tick()
            w = c_u * math.exp(-0.5 * u * u / s2)
            return 0.0 if w == 0.0 else g2(u) * w

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            # eq:mu_star_m2_def
            mu_star, _ = integrate.dblquad(f_mu, -math.inf, math.inf, 0.0, math.inf)
            m2, _ = integrate.quad(f_m2, -math.inf, math.inf)
        lam = delta * mu_star - 2 * _PHI0 * max(m2, 0.0) * s2  # eq:decision_stability
        msgs = sorted({str(w.message).split("\n")[0].strip() for w in caught})
        return lam, mu_star, m2, calls[0], msgs


# ---------------------------------------------------------------------- timing helpers
def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _repeat(fn, repeats):
    """Warm-up call, then ``repeats`` timed calls; returns (median s, all times s, last result)."""
    fn()
    times, out = [], None
    for _ in range(repeats):
        t, out = _timed(fn)
        times.append(t)
    return statistics.median(times), times, out


def _abs_err(x, ref) -> float:
    with mpmath.workdps(60):
        return float(abs(mpmath.mpf(x) - ref))


def _row(case, tier, times, value, err, ratio, digits, target, met, note=""):
    return {
        "case": case,
        "tier": tier,
        "median_ms": 1e3 * statistics.median(times),
        "min_ms": 1e3 * min(times),
        "max_ms": 1e3 * max(times),
        "repeats": len(times),
        "lambda_star": value,
        "abs_error": err,
        "ratio_vs_baseline": ratio,
        "digits": digits,
        "target": target,
        "target_met": met,
        "note": note,
    }


# ---------------------------------------------------------------------- one case
def bench_case(family, param, value, repeats, budget, log=print):
    """All measurements for one link; returns (rows, one_time)."""
    # one-time cost on a fresh Link: construction, then the first call of each tier
    t_build, link = _timed(lambda: make_family(family, **{param: value}))
    t_first_float, _ = _timed(lambda: stability(link, DELTA))
    t_first_cert, _ = _timed(lambda: stability(link, DELTA, certify=True))
    t_first_mp, ref_res = _timed(lambda: stability(link, DELTA, dps=50))
    case = link.name
    ref = ref_res.lambda_star
    one_time = {
        "case": case,
        "build_ms": 1e3 * t_build,
        "first_float64_ms": 1e3 * t_first_float,
        "build_plus_first_float64_ms": 1e3 * (t_build + t_first_float),
        "first_certified_ms": 1e3 * t_first_cert,
        "first_mpmath50_ms": 1e3 * t_first_mp,
    }
    log(
        f"  {case}: one-time build + first float64 {one_time['build_plus_first_float64_ms']:.1f} ms"
    )

    rows = []
    # 1. baseline
    t_setup, base = _timed(lambda: DirectBaseline(link, float(DELTA), budget))
    try:
        t_base, times, (lam_b, _mu, _m2, calls, msgs) = _repeat(base, repeats["baseline"])
        err_b = _abs_err(lam_b, ref)
        note = f"{calls} integrand calls; lambdify {1e3 * t_setup:.0f} ms (untimed)"
        if msgs:
            note += "; scipy warned: " + " | ".join(msgs)
        rows.append(_row(case, "baseline dblquad", times, lam_b, err_b, 1.0, None, "-", None, note))
    except _OverBudget:
        t_base, err_b = None, None
        rows.append(
            _row(
                case,
                "baseline dblquad",
                [budget],
                None,
                None,
                None,
                None,
                "-",
                None,
                f"> budget ({budget:g} s): not finished",
            )
        )
    log(f"  {case}: baseline {'> budget' if t_base is None else f'{1e3 * t_base:.1f} ms'}")

    # 2. float64
    t_f, times, res = _repeat(lambda: stability(link, DELTA), repeats["float64"])
    err_f = _abs_err(res.lambda_star, ref)
    ratio = None if t_base is None else t_base / t_f
    ms_target = FLOAT_MS[family]
    fails = []
    if 1e3 * t_f > ms_target:
        fails.append("time")
    if ratio is not None and ratio < FLOAT_MIN_RATIO:
        fails.append("ratio")
    if err_b is not None and err_f > err_b:
        fails.append("accuracy")
    note = f"tier used: {res.tier}; sign {res.sign}"
    rows.append(
        _row(
            case,
            "float64",
            times,
            float(res.lambda_star),
            err_f,
            ratio,
            16,
            f"<={ms_target:g} ms, >={FLOAT_MIN_RATIO:g}x, err<=baseline",
            not fails,
            (note + "; missed: " + ",".join(fails)) if fails else note,
        )
    )

    # 3. certified
    t_c, times, res = _repeat(lambda: stability(link, DELTA, certify=True), repeats["certified"])
    lo, hi = res.lambda_star_enclosure
    encloses = bool(lo <= ref <= hi)
    err_c = _abs_err(res.lambda_star, ref)
    fails = []
    if 1e3 * t_c > CERTIFIED_MS:
        fails.append("time")
    if res.digits < CERTIFIED_DIGITS - 3:
        fails.append("digits")
    note = f"sign {res.sign}; reference inside enclosure: {'yes' if encloses else 'NO'}"
    rows.append(
        _row(
            case,
            "certified",
            times,
            mpmath.nstr(res.lambda_star, 40),
            err_c,
            None if t_base is None else t_base / t_c,
            res.digits,
            f"<={CERTIFIED_MS:g} ms, ~{CERTIFIED_DIGITS} digits",
            not fails,
            (note + "; missed: " + ",".join(fails)) if fails else note,
        )
    )

    # 4. mpmath at 50 digits (the warm-up call above was the reference)
    t_m, times, res = _repeat(lambda: stability(link, DELTA, dps=50), repeats["mpmath"])
    rows.append(
        _row(
            case,
            "mpmath dps=50",
            times,
            mpmath.nstr(res.lambda_star, 50),
            None,
            None if t_base is None else t_base / t_m,
            50,
            f"<={MPMATH_MS:g} ms",
            1e3 * t_m <= MPMATH_MS,
            "the reference",
        )
    )
    log(
        f"  {case}: float64 {1e3 * t_f:.2f} ms, certified {1e3 * t_c:.0f} ms, "
        f"mpmath {1e3 * t_m:.0f} ms"
    )
    return rows, one_time


def process_warmup() -> float:
    """First use in the process of sympy/lambdify/scipy/Arb machinery, on links that are not
    benchmarked (logistic, binary-negative-entropy), so the one-time rows measure per-Link cost."""
    t0 = time.perf_counter()
    for name in ("logistic", "binary-negative-entropy"):
        link = make_family(name)
        stability(link, DELTA)
        stability(link, DELTA, certify=True)
        stability(link, DELTA, dps=50)
        DirectBaseline(link, float(DELTA), 60.0)
    return time.perf_counter() - t0


# ---------------------------------------------------------------------- presentation
def _fmt_err(e):
    return "-" if e is None else ("0" if e == 0 else f"{e:.1e}")


def _fmt_ratio(r):
    return "-" if r is None else (f"{r:.0f}x" if r >= 10 else f"{r:.2g}x")


def _fmt_met(r):
    m = r["target_met"]
    if m is None:
        return "-"
    if m:
        return "yes"
    missed = r["note"].split("missed: ")[-1] if "missed: " in r["note"] else ""
    return f"no ({missed})" if missed else "no"


def format_tables(rows, one_time) -> str:
    head = ("case", "tier", "median ms", "abs err", "vs base", "digits", "target", "met")
    body = []
    last = None
    for r in rows:
        ms = "> budget" if r["lambda_star"] is None else f"{r['median_ms']:.3g}"
        body.append(
            (
                r["case"] if r["case"] != last else "",
                r["tier"],
                ms,
                _fmt_err(r["abs_error"]) if r["tier"] != "mpmath dps=50" else "(ref)",
                _fmt_ratio(r["ratio_vs_baseline"]),
                "-" if r["digits"] is None else str(r["digits"]),
                r["target"],
                _fmt_met(r),
            )
        )
        last = r["case"]
    widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
    line = "  ".join(f"{{:<{w}}}" for w in widths)
    out = [line.format(*head).rstrip(), line.format(*("-" * w for w in widths))]
    out += [line.format(*b).rstrip() for b in body]
    out.append("")
    out.append("notes:")
    out += [f"  {r['case']} / {r['tier']}: {r['note']}" for r in rows if r["note"]]
    out.append("")
    h2 = (
        "case",
        "Link.family ms",
        "first float64 ms",
        "build+first float64 ms",
        "first certified ms",
        "first mpmath ms",
    )
    b2 = [
        (
            o["case"],
            f"{o['build_ms']:.1f}",
            f"{o['first_float64_ms']:.1f}",
            f"{o['build_plus_first_float64_ms']:.1f}",
            f"{o['first_certified_ms']:.0f}",
            f"{o['first_mpmath50_ms']:.0f}",
        )
        for o in one_time
    ]
    w2 = [max(len(x[i]) for x in [h2] + b2) for i in range(len(h2))]
    l2 = "  ".join(f"{{:<{w}}}" for w in w2)
    out += [
        "one-time cost per Link (fresh Link; process already warmed up on other links):",
        l2.format(*h2),
        l2.format(*("-" * w for w in w2)),
    ] + [l2.format(*b).rstrip() for b in b2]
    return "\n".join(out)


def _machine() -> dict:
    cpu = cpu_model()
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "platform": platform.platform(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "sympy": sp.__version__,
        "mpmath": mpmath.__version__,
        "python-flint": flint.__version__,
        "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE"),
        "loadavg_1min_at_start": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--quick", action="store_true", help="3 repeats, one case per family (under a minute)"
    )
    ap.add_argument("--json", metavar="OUT", help="also write the results as JSON to OUT")
    ap.add_argument(
        "--baseline-budget",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="give up on one baseline evaluation after this many seconds (default 120)",
    )
    args = ap.parse_args(argv)
    cases = QUICK_CASES if args.quick else CASES
    repeats = QUICK_REPEATS if args.quick else REPEATS

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    machine = _machine()
    log(f"bench_stability: {len(cases)} cases, delta = {DELTA}, repeats {repeats}")
    t_warm = process_warmup()
    log(f"process warm-up (logistic, binary-negative-entropy; not in the tables) {t_warm:.1f} s")
    t0 = time.perf_counter()
    rows, one_time = [], []
    for family, param, value in cases:
        r, o = bench_case(family, param, value, repeats, args.baseline_budget, log)
        rows += r
        one_time.append(o)
    total = time.perf_counter() - t0
    print(
        f"# bench_stability  delta={DELTA}  {'quick' if args.quick else 'full'}  "
        f"{machine['date']}  {machine['cpu']} ({machine['cores']} cores)  "
        f"python {machine['python']}, scipy {machine['scipy']}"
    )
    print(
        f"# median of repeats {repeats} after one warm-up; abs err = |lambda* - "
        "stability(link, '0.2', dps=50)|; vs base = baseline median / tier median"
    )
    print(format_tables(rows, one_time))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\nprocess warm-up {t_warm:.1f} s (first use of sympy/lambdify/scipy/Arb, other links)")
    print(
        f"total wall time {total:.1f} s; 1-min load average "
        f"{machine['loadavg_1min_at_start']:.2f} at start, {load:.2f} at end"
    )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(
                {
                    "delta": DELTA,
                    "mode": "quick" if args.quick else "full",
                    "repeats": repeats,
                    "machine": machine,
                    "total_seconds": total,
                    "process_warmup_seconds": t_warm,
                    "rows": rows,
                    "one_time": one_time,
                },
                fh,
                indent=2,
                default=str,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
