"""Link sources: recipes that build links from named parameter values.

A :class:`LinkSource` is one of

* a named family (:func:`nbl_theory.families.make_family`), whose parameters are the family's
  (each with the paper's default),
* an expression in ``z`` (:meth:`nbl_theory.links.Link.from_expression`),
* a potential in ``m`` on a domain (:meth:`nbl_theory.links.Link.from_potential`).

Every free name of an expression other than its variable, the constants ``pi`` and ``E`` and
the functions of :data:`nbl_theory.expressions.FUNCTIONS` is a *parameter* of the source:
``sigmoid(a*z)**2`` has the parameter ``a``. An expression parameter has no default, so every
one needs a value; a value for a name the source does not have is refused (with the closest
name, if one is close). Values are numbers or decimal strings, entered exactly
(:func:`nbl_theory.expressions.exact_number`) and substituted by the whitelist parser
(:func:`nbl_theory.expressions.parse_expression`), so a source with parameters builds the same
link as the expression with the numbers written in.

Sources are small frozen dataclasses of strings: they travel to worker processes and describe
themselves in sweep cache keys (a phase diagram of a user's link sweeps a source).
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import NBLInputError
from .expressions import CONSTANTS, FUNCTIONS, MAX_LENGTH, exact_number, parse_expression

__all__ = ["LinkSource", "KINDS", "did_you_mean"]

#: The kinds of source and the variable of each (families have none of their own).
KINDS = {"family": None, "expression": "z", "potential": "m"}


def did_you_mean(word: str, choices) -> str:
    """`` (did you mean 'x'?)`` for the choice closest to ``word`` (difflib), else ``""``.

    Parameters
    ----------
    word : str
        The word given.
    choices : iterable
        The known words.

    Returns
    -------
    str
        The hint, with a leading space, or ``""`` when none is close (difflib cutoff 0.6).
    """
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


#: the syntax of an expression the whitelist parser may accept (anything else it refuses)
_PLAIN = (
    ast.Expression,
    ast.BinOp,
    ast.UnaryOp,
    ast.Call,
    ast.Name,
    ast.Constant,
    ast.Load,
    ast.operator,
    ast.unaryop,
)


def _free_names(text: str, variable: str) -> tuple[str, ...]:
    """The parameter names of an expression, in order of first appearance.

    Calls of unknown functions are refused here with the closest known function; anything the
    whitelist parser refuses anyway (syntax, dunder names, oversized text) is left to it, so
    the error is its own."""
    if not isinstance(text, str) or len(text) > MAX_LENGTH:
        return ()
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    if any(not isinstance(node, _PLAIN) for node in ast.walk(tree)):
        return ()  # a lambda, attribute, subscript, comprehension...: the parser refuses it
    names: dict[str, tuple] = {}
    calls = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            calls.add(id(node.func))
            f = node.func.id
            if f not in FUNCTIONS and not f.startswith("_"):
                raise NBLInputError(
                    f"unknown function {f!r}{did_you_mean(f, FUNCTIONS)}; "
                    f"functions: {', '.join(sorted(FUNCTIONS))}"
                )
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and id(node) not in calls:
            n = node.id
            if n == variable or n in CONSTANTS or n in FUNCTIONS or n.startswith("_"):
                continue
            pos = (node.lineno, node.col_offset)
            names[n] = min(names.get(n, pos), pos)
    return tuple(sorted(names, key=names.get))


@dataclass(frozen=True)
class LinkSource:
    """A recipe for links: ``kind`` ("family", "expression" or "potential"), ``text`` (the
    family name or the expression) and, for a potential, ``domain`` ("LO,HI", default "0,1").

    Build one with :meth:`family`, :meth:`expression` or :meth:`potential`; :meth:`link`
    makes the link for given parameter values.

    Parameters
    ----------
    kind : {"family", "expression", "potential"}
        What ``text`` is.
    text : str
        The family name, the expression of g in ``z``, or the potential φ in ``m``.
    domain : str, optional
        For a potential: its open interval as ``"LO,HI"`` (default ``"0,1"``).
    """

    kind: str
    text: str
    domain: str | None = None

    # ------------------------------------------------------------------ constructors
    @classmethod
    def family(cls, name: str) -> LinkSource:
        """A named family; an unknown name is refused with the closest known one.

        Parameters
        ----------
        name : str
            The family's name (see :data:`nbl_theory.families.FAMILIES`).

        Returns
        -------
        LinkSource
            ``LinkSource("family", name)``.

        Raises
        ------
        NBLInputError
            An unknown family.
        """
        from .families import FAMILIES

        if name not in FAMILIES:
            raise NBLInputError(
                f"unknown family {name!r}{did_you_mean(name, FAMILIES)}; "
                f"families: {', '.join(sorted(FAMILIES))}"
            )
        return cls("family", name)

    @classmethod
    def expression(cls, text: str) -> LinkSource:
        """A link g(z) written as an expression in ``z``.

        Parameters
        ----------
        text : str
            The expression of g in ``z``; other free names are parameters.

        Returns
        -------
        LinkSource
            ``LinkSource("expression", text)``.
        """
        return cls("expression", text)

    @classmethod
    def potential(cls, text: str, domain: str | None = None) -> LinkSource:
        """A strictly convex potential φ(m) on ``domain`` ("LO,HI"; default "0,1").

        Parameters
        ----------
        text : str
            The potential φ in ``m``; other free names are parameters.
        domain : str, optional
            The open interval ``"LO,HI"`` (default ``"0,1"``).

        Returns
        -------
        LinkSource
            ``LinkSource("potential", text, domain)``.
        """
        return cls("potential", text, domain)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise NBLInputError(
                f"link source kind must be one of {sorted(KINDS)}, got {self.kind!r}"
            )
        if self.domain is not None and self.kind != "potential":
            raise NBLInputError("a domain only applies to a potential")

    # ------------------------------------------------------------------ parameters
    def parameters(self) -> tuple[str, ...]:
        """The parameter names: a family's (from its defaults), an expression's free names.

        Returns
        -------
        tuple of str
            The names, in the family's order or in order of first appearance in the text.
        """
        if self.kind == "family":
            return tuple(self.defaults())
        return _free_names(self.text, KINDS[self.kind])

    def defaults(self) -> dict[str, str]:
        """Default values (a family's, as decimal strings); expressions have none.

        Returns
        -------
        dict of str to str
            Parameter name -> default value (empty for an expression, a potential, or an
            unknown family, which :meth:`link` refuses).
        """
        if self.kind != "family":
            return {}
        from .families import family_defaults

        try:
            return family_defaults(self.text)
        except NBLInputError:  # an unknown family has no defaults; link() names the known ones
            return {}

    def check_names(self, names) -> None:
        """Refuse names the source does not have (naming the closest one) and, for an
        expression, parameters left without a value.

        Parameters
        ----------
        names : iterable of str
            The parameter names given values.

        Raises
        ------
        NBLInputError
            A name the source does not have, or (expression or potential) a parameter without a
            value.
        """
        names = list(names)
        known = self.parameters()
        unknown = [n for n in names if n not in known]
        if unknown:
            n = unknown[0]
            has = f"its parameters are {', '.join(known)}" if known else "it has no parameters"
            raise NBLInputError(
                f"{self.describe()} has no parameter {n!r}{did_you_mean(n, known)}; {has}"
            )
        if self.kind != "family":
            missing = [n for n in known if n not in names]
            if missing:
                n = missing[0]
                raise NBLInputError(
                    f"{self.describe()} uses the parameter {n!r} without a "
                    f"value: give --param {n}=VALUE"
                )

    # ------------------------------------------------------------------ links
    def describe(self) -> str:
        """``family 'logistic'``, ``link 'tanh(a*z)'`` or ``potential '...'``.

        Returns
        -------
        str
            The kind and the text, for messages.
        """
        what = {"family": "family", "expression": "link", "potential": "potential"}[self.kind]
        return f"{what} {self.text!r}"

    def label(self, values: Mapping[str, object] | None = None) -> str:
        """A display name: the expression with its parameter values, ``tanh(a*z) [a=2]``.

        Parameters
        ----------
        values : mapping of str to number or str, optional
            Parameter name -> value (a number or a decimal string).

        Returns
        -------
        str
            The text, followed by ``[name=value, ...]`` when values are given.
        """
        values = dict(values or {})
        if not values:
            return self.text
        inner = ", ".join(f"{k}={values[k]}" for k in self.parameters() if k in values)
        return f"{self.text} [{inner}]"

    def link(self, values: Mapping[str, object] | None = None):
        """The :class:`~nbl_theory.links.Link` for ``values`` (name → number or decimal
        string); the usual one-line :class:`NBLInputError` for anything refused.

        Parameters
        ----------
        values : mapping of str to number or str, optional
            Parameter name -> value (a number or a decimal string).

        Returns
        -------
        Link
            The link with those parameter values (a family's defaults for the others).

        Raises
        ------
        NBLInputError
            An unknown or missing parameter, or a link that is refused.
        """
        from .links import Link

        values = {str(k): v for k, v in (values or {}).items()}
        if self.kind == "family":
            from .families import make_family

            if values:
                self.check_names(values)
            return make_family(self.text, **values)
        self.check_names(values)
        exact = {k: exact_number(v) for k, v in values.items()}
        var = KINDS[self.kind]
        expr = parse_expression(self.text, var, parameters=exact)
        name = self.label({k: str(v) for k, v in values.items()})
        if self.kind == "expression":
            return Link.from_expression(expr, name=name, params=exact)
        return Link.from_potential(expr, domain=self.domain or "0,1", name=name, params=exact)
