"""Numbers as the paper prints them: a high-precision value shown with a fixed number of
significant digits, and rounding to the printed significant figures with exact decimal
arithmetic (so the comparison with a printed value never depends on binary rounding); and the
label a link is shown with."""

from __future__ import annotations

from decimal import Decimal

import mpmath

from nbl_theory.paper import PAPER_LINKS

__all__ = ["nstr", "mp_nstr", "round_sig", "link_label", "rounding_interval", "bump_last_figure"]


def nstr(x, digits: int = 6) -> str:
    """``x`` (float, mpf or decimal string) with ``digits`` significant digits, in mpmath's
    exponent notation for |x| < 1 (``nstr(2.0755e-5, 3) == '2.08e-5'``, ``nstr(0.5) ==
    '5.0e-1'``)."""
    with mpmath.workdps(max(30, digits + 10)):
        return mpmath.nstr(mpmath.mpf(x), digits, min_fixed=1, max_fixed=0)


def mp_nstr(x, digits: int = 6) -> str:
    """``mpmath.nstr(x, digits)``: mpmath's own format (fixed notation for moderate exponents,
    e.g. ``'0.5'``, ``mp_nstr(mpf('2.5e-26'), 3) == '2.5e-26'``), for an mpf shown at its own
    precision (the value is not converted, so its digits beyond the working precision are
    kept): a high-precision value as the claims' messages show it."""
    return mpmath.nstr(x, digits)


def round_sig(x, sig: int = 3) -> str:
    """``x`` rounded half-even to ``sig`` significant figures, as a decimal string like
    ``'2.08e-5'``.

    ``x`` is first written with 35 significant digits (40-digit working precision), then rounded
    with :class:`decimal.Decimal` (exact); a rounding that carries into a new digit
    (9.995 → 10.0) is renormalised.
    """
    with mpmath.workdps(40):
        d = Decimal(mpmath.nstr(mpmath.mpf(x), 35, min_fixed=1, max_fixed=0))
    if d == 0:
        return "0"
    exp = d.adjusted()
    q = d.scaleb(-exp).quantize(Decimal(1).scaleb(-(sig - 1)))
    if abs(q) >= 10:  # 9.995 -> 10.0: renormalise
        exp += 1
        q = d.scaleb(-exp).quantize(Decimal(1).scaleb(-(sig - 1)))
    return f"{q}e{exp}"


def link_label(key: str) -> str:
    """The label a link is shown with in the claims' output: ``family(param=value)`` for a
    named link of the paper (``'two-transition(mu2=-1.074037)'``), the key itself otherwise."""
    row = PAPER_LINKS.get(key)
    return key if row is None else "{}({}={})".format(row.family, *row.parameter)


def rounding_interval(printed: str) -> tuple:
    """[lo, hi): the values that round to ``printed`` at the significant figures it shows
    (``"2.15e-5"`` → (2.145e-5, 2.155e-5)), as exact decimals."""
    d = Decimal(printed)
    half = Decimal(1).scaleb(d.adjusted() - (len(d.as_tuple().digits) - 1)) / 2
    return d - half, d + half


def bump_last_figure(printed: str) -> str:
    """``printed`` plus one unit in its last significant figure, in the same 3-figure exponent
    form (``"3.70e-3"`` → ``"3.71e-3"``)."""
    d = Decimal(printed)
    return f"{d + Decimal(1).scaleb(d.adjusted() - 2):.2e}"
