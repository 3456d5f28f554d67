"""Benchmark: λ* of steep logistic links in the float64 tier, against the mpmath tier it used to
fall back to, in the same process.

numpy's formulas for g', g'' of ``sigmoid(k*z)`` overflow (inf/inf) at chart nodes with
kz < −709, where the true values underflow to 0. ``ExpressionFunction`` re-evaluates such values
in Arb, at most 20,000 a call; the float64 quadrature's deeper levels have more, so for
k ≳ 1e3 the float64 tier gave up and ``stability`` fell back to the mpmath tier at 30 digits.
The quadrature now lifts that per-call bound (``nbl_theory.link_numeric.patch_limit``).

Timed, for each k: ``stability(link, "1")`` (float64 now) and ``stability(link, "1", dps=30)``
(the fallback the previous code took: what it cost). Wall clock, one call each after the link's
derivatives are built (a warm-up call of the float64 tier); the two λ* must agree within the
float64 error estimate plus 1e-15 of the value, else the script exits 1.

``--certified``: the certified (Arb) tier instead, with the Gaussian tail shells bounded by
interval arithmetic (:mod:`nbl_theory.arb_interval`, now) against ball arithmetic alone (before:
balls lose their sign on exp of a wide argument and each shell was bisected to width ~1/k), in
the same process, fresh charts each; the two enclosures of λ* must overlap, else exit 1.

Usage::

    python benchmarks/bench_steep_links.py [--k 1e2 3e2 1e3]
    python benchmarks/bench_steep_links.py --certified [--k 1e1 1e2 1e3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._machine import cpu_model  # noqa: E402
from nbl_theory.link_source import LinkSource  # noqa: E402
from nbl_theory.stability import stability  # noqa: E402


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def _certified(ks) -> int:
    """Certified λ*: interval tail bounds against balls alone (interval_sups disabled)."""
    from nbl_theory import certified

    print(f"{'link':18s} {'intervals s':>12s} {'balls s':>10s} {'ratio':>7s}  lambda* (enclosures)")
    ok = True
    for k in ks:
        src = f"sigmoid({k}*z)"
        link = LinkSource.expression(src).link()
        link.raw_derivatives  # noqa: B018  (built once, outside the timings)
        certified._chart.cache_clear()
        i, ti = _timed(lambda link=link: certified.stability_certified(link, "1"))
        certified._chart.cache_clear()
        saved = certified._Chart.interval_sups
        certified._Chart.interval_sups = lambda self, group, lo, hi: None  # balls alone
        try:
            b, tb = _timed(lambda link=link: certified.stability_certified(link, "1"))
        finally:
            certified._Chart.interval_sups = saved
            certified._chart.cache_clear()
        (ilo, ihi), (blo, bhi) = i.lambda_star_enclosure, b.lambda_star_enclosure
        agree = ilo <= bhi and blo <= ihi
        ok = ok and agree
        print(
            f"{src:18s} {ti:12.2f} {tb:10.2f} {tb / ti:6.1f}x  "
            f"{mpmath.nstr(i.values['lambda_star'], 20)} (radius "
            f"{mpmath.nstr((ihi - ilo) / 2, 2)} / {mpmath.nstr((bhi - blo) / 2, 2)})"
            f"{'' if agree else '  DISAGREE'}"
        )
    return 0 if ok else 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--k", nargs="+", default=None)
    ap.add_argument(
        "--certified",
        action="store_true",
        help="the certified tier: interval tail bounds against balls alone",
    )
    a = ap.parse_args(argv)
    print(f"# bench_steep_links  {time.strftime('%Y-%m-%dT%H:%M:%S%z')}  {cpu_model()}")
    if a.certified:
        return _certified(a.k or ["1e1", "1e2", "1e3"])
    a.k = a.k or ["1e2", "3e2", "1e3"]
    print(
        f"{'link':18s} {'float64 s':>10s} {'tier':>8s} {'mpmath-30 s':>12s} {'ratio':>7s}  "
        "lambda* float64 / mpmath-30"
    )
    ok = True
    for k in a.k:
        link = LinkSource.expression(f"sigmoid({k}*z)").link()
        stability(link, "1", auto_raise=False)  # warm-up: derivatives, lambdify, Arb compile
        f, tf = _timed(lambda link=link: stability(link, "1", auto_raise=False))
        m, tm = _timed(lambda link=link: stability(link, "1", dps=30, auto_raise=False))
        with mpmath.workdps(40):
            lam_f, err = mpmath.mpf(f.values["lambda_star"]), mpmath.mpf(f.errors["lambda_star"])
            agree = abs(lam_f - m.values["lambda_star"]) <= err + mpmath.mpf("1e-15") * abs(lam_f)
        ok = ok and agree
        print(
            f"{link.name:18s} {tf:10.2f} {f.tier:>8s} {tm:12.2f} {tm / tf:6.1f}x  "
            f"{f.values['lambda_star']!r} / {mpmath.nstr(m.values['lambda_star'], 17)}"
            f"{'' if agree else '  DISAGREE'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
