"""The one grammar for values, lists and grids, shared by every subcommand.

::

    --param NAME=SPEC        a parameter of the link (repeatable, one per name)
    --delta SPEC             the arm separation Δ
    SPEC := VALUE            one value                       --param mu2=-1.07
          | VALUE,VALUE,...  a list                          --param rho=0.6,0.72,0.8
          | LO:HI:N          N evenly spaced values, LO and HI included
                                                             --param rho=-0.9:0.9:19
          | LO:HI            a range whose N is the subcommand's default (threshold only)
    VALUE := a decimal number (-0.9, 1e-3, .5) or a fraction p/q, read exactly, in ASCII
             digits 0-9 (the one digit rule of every number nbl reads: '١' or '１' is refused)

The numbers inside ``--contexts`` and ``--arms`` specs (``student-t:nu=9/2``, ``shift=1/10``,
``cond=3,angle=30``) are read by the same reader (:func:`nbl_theory.numbers.number_value`,
which is :func:`~nbl_theory.numbers.exact_fraction`): decimals or fractions, exactly.

Negative numbers work in every value position (``--delta -0.5`` reaches Δ's range check; the
command line glues a value that starts with ``-`` to its option before argparse sees it).
Several lists or grids give one row per combination (their product).

Parsing is in two steps so that sizes are bounded before any number is read: :func:`parse_spec`
splits the text and counts the values (no arithmetic); :meth:`Spec.values` reads them exactly
(:func:`nbl_theory.numbers.exact_fraction`, no sympy) and returns decimal strings — the user's
own text for listed values and grid ends, and the exact grid points LO + i(HI − LO)/(N − 1) in
between (written exactly when they are terminating decimals of at most 30 digits, else to 17
significant digits), never float noise such as ``-0.29999999999999993``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import UsageError

__all__ = ["Spec", "parse_spec", "parse_params", "decimal_text", "GRAMMAR_HELP"]

#: The grammar in a few lines, for the ``--help`` epilogs.
GRAMMAR_HELP = """\
values, lists and grids (the same in every subcommand):
  --param NAME=V          one value            --param mu2=-1.07
  --param NAME=V1,V2,...  a list               --param rho=0.6,0.72,0.8
  --param NAME=LO:HI:N    N points, ends incl. --param rho=-0.9:0.9:19
  --delta takes the same forms (--delta 0.2, --delta 0.1,0.2, --delta 0.1:1.9:19);
  numbers are decimals or fractions p/q, read exactly, also inside --contexts and --arms
  (student-t:nu=9/2, shift=1/10); negative values work anywhere.
  A free name in --link/--potential other than the variable is a parameter: give it with
  --param (--link 'sigmoid(a*z)**2' --param a=2)."""

_N = re.compile(r"[0-9]{1,12}")
_EXACT_DIGITS = 30


@dataclass(frozen=True)
class Spec:
    """One parsed SPEC: ``kind`` is "value", "list" or "range"; ``items`` the value texts (a
    range: its two ends); ``n`` the number of values.

    Parameters
    ----------
    option : str
        The option it was given to (for messages), e.g. ``"--delta"``.
    text : str
        The SPEC as written.
    kind : {"value", "list", "range"}
        One value, a comma-separated list, or a grid LO:HI:N.
    items : tuple of str
        The value texts (a range: its two ends).
    n : int
        The number of values.
    """

    option: str
    text: str
    kind: str
    items: tuple
    n: int

    def _read(self, text):
        from nbl_theory.errors import NBLInputError
        from nbl_theory.numbers import exact_fraction

        try:
            return exact_fraction(text)
        except NBLInputError as exc:
            raise NBLInputError(f"{self.option}: {exc}") from None

    def ends(self) -> tuple:
        """A range's (LO, HI) as exact rationals, checked (LO < HI, or LO = HI when N = 1).

        Returns
        -------
        tuple of fractions.Fraction
            ``(LO, HI)``.

        Raises
        ------
        NBLInputError
            LO ≥ HI for N > 1, or LO ≠ HI for N = 1, or a malformed number.
        """
        from nbl_theory.errors import NBLInputError

        lo, hi = (self._read(t) for t in self.items)
        if self.n == 1 and lo != hi:
            raise NBLInputError(
                f"{self.option}: a grid of N = 1 point needs LO = HI; "
                f"give one value instead of {self.text!r}"
            )
        if self.n > 1 and not lo < hi:
            raise NBLInputError(f"{self.option}: a grid LO:HI:N needs LO < HI, got {self.text!r}")
        return lo, hi

    def values(self) -> list[str]:
        """The values as decimal strings (see the module docstring); a malformed number is a
        one-line error naming the option.

        Returns
        -------
        list of str
            The values; a grid's interior points as :func:`decimal_text` of
            LO + i (HI − LO)/(N − 1), its ends as written.
        """
        if self.kind != "range":
            for t in self.items:
                self._read(t)
            return list(self.items)
        lo, hi = self.ends()
        if self.n == 1:
            return [self.items[0]]
        step = (hi - lo) / (self.n - 1)
        return (
            [self.items[0]]
            + [decimal_text(lo + i * step) for i in range(1, self.n - 1)]
            + [self.items[1]]
        )


def parse_spec(text, option: str, default_n: int | None = None) -> Spec:
    """Split ``text`` (a SPEC) without reading its numbers; ``default_n`` allows ``LO:HI``.

    Parameters
    ----------
    text : str
        The SPEC: a value, a comma-separated list, or a grid ``LO:HI:N``.
    option : str
        The option's name, for messages.
    default_n : int, optional
        The number of points of a grid written ``LO:HI`` (None: N is required).

    Returns
    -------
    Spec
        The parsed SPEC.

    Raises
    ------
    UsageError
        An empty or malformed SPEC.
    """
    t = str(text).strip()
    if not t:
        raise UsageError(f"{option} has no value")
    if ":" in t:
        parts = [p.strip() for p in t.split(":")]
        if "," in t or len(parts) not in (2, 3) or not all(parts):
            raise UsageError(f"{option}: a grid is LO:HI:N, e.g. 0.1:1.9:19; got {t!r}")
        if len(parts) == 2:
            if default_n is None:
                raise UsageError(
                    f"{option}: a grid needs its number of points, LO:HI:N "
                    f"(e.g. {parts[0]}:{parts[1]}:20); got {t!r}"
                )
            n = default_n
        else:
            if not _N.fullmatch(parts[2]) or int(parts[2]) < 1:
                too_long = (
                    parts[2].isascii()
                    and parts[2].isdigit()  # (no int(): any length)
                    and parts[2].strip("0") != ""
                )
                raise UsageError(
                    f"{option}: the N of LO:HI:N must be a positive whole "
                    f"number{' of at most 12 digits' if too_long else ''}, got "
                    f"{parts[2]!r}"
                )
            n = int(parts[2])
        return Spec(option, t, "range", (parts[0], parts[1]), n)
    if "," in t:
        items = tuple(p.strip() for p in t.split(","))
        if not all(items):
            raise UsageError(f"{option}: empty value in the list {t!r}")
        return Spec(option, t, "list", items, len(items))
    return Spec(option, t, "value", (t,), 1)


def parse_params(items, option: str = "--param", default_n: int | None = None) -> dict:
    """``["rho=0.6,0.7", "mu2=-1"]`` → ``{"rho": Spec, "mu2": Spec}`` (names in order).

    Parameters
    ----------
    items : iterable of str or None
        The ``NAME=SPEC`` words given to the option.
    option : str, default "--param"
        The option's name, for messages.
    default_n : int, optional
        The number of points of a grid written ``LO:HI`` (None: N is required).

    Returns
    -------
    dict of str to Spec
        Parameter name -> its SPEC.

    Raises
    ------
    UsageError
        A word without ``=``, a name that is not an identifier, or a name given twice.
    """
    out: dict[str, Spec] = {}
    for item in items or []:
        if "=" not in item:
            raise UsageError(
                f"{option} takes NAME=SPEC in one word, e.g. {option} rho=0.72; got {item!r}"
            )
        name, spec = item.split("=", 1)
        name = name.strip()
        if not name.isidentifier() or not name.isascii():
            raise UsageError(f"{option}: {name!r} is not a parameter name")
        if name in out:
            raise UsageError(
                f"{option} {name} is given twice; give its values in one SPEC (V1,V2 or LO:HI:N)"
            )
        out[name] = parse_spec(spec, f"{option} {name}", default_n)
    return out


def decimal_text(q) -> str:
    """An exact rational as a decimal string: exact when it terminates within
    30 significant digits, otherwise rounded to 17 significant digits.

    Parameters
    ----------
    q : fractions.Fraction or sympy.Rational
        The number.

    Returns
    -------
    str
        Its decimal text.
    """
    from decimal import Context, Decimal, Inexact

    p, d = Decimal(int(q.numerator)), Decimal(int(q.denominator))
    exact = Context(prec=_EXACT_DIGITS)
    dec = exact.divide(p, d)  # flags Inexact unless the quotient terminates
    if not exact.flags[Inexact]:  # within _EXACT_DIGITS significant digits
        return format(exact.normalize(dec), "f")
    dec = Context(prec=17).divide(p, d)
    return format(dec.normalize(), "g" if abs(dec.adjusted()) > 15 else "f")
